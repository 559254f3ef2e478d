#include "server/http/json_body.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <atomic>

#include "common/json_text.h"

namespace hoglake::server {
namespace {

using rapidjson::Value;

const Value& V(const void* p) { return *static_cast<const Value*>(p); }

std::string Describe(const std::string& path) { return path.empty() ? "request body" : path; }

}  // namespace

// ---- JsonObject --------------------------------------------------------------

std::string JsonObject::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const void* JsonObject::Member(std::string_view key) {
  read_.emplace(key);
  const Value& object = V(value_);
  auto it = object.FindMember(Value(key.data(), static_cast<rapidjson::SizeType>(key.size())));
  if (it == object.MemberEnd()) return nullptr;
  return &it->value;
}

bool JsonObject::Has(std::string_view key) const {
  const Value& object = V(value_);
  return object.FindMember(Value(key.data(), static_cast<rapidjson::SizeType>(key.size()))) !=
         object.MemberEnd();
}

bool JsonObject::IsNull(std::string_view key) const {
  const Value& object = V(value_);
  auto it = object.FindMember(Value(key.data(), static_cast<rapidjson::SizeType>(key.size())));
  return it != object.MemberEnd() && it->value.IsNull();
}

Result<std::optional<std::string>> JsonObject::OptionalString(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<std::string>();
  if (!V(m).IsString()) return BadRequest(PathOf(key), " must be a string");
  return std::optional<std::string>(std::string(V(m).GetString(), V(m).GetStringLength()));
}

Result<std::string> JsonObject::RequiredString(std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalString(key));
  if (!value) return BadRequest(PathOf(key), " is required");
  return std::move(*value);
}

Result<std::optional<int64_t>> JsonObject::OptionalInt64(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<int64_t>();
  if (!V(m).IsInt64()) return BadRequest(PathOf(key), " must be an integer within int64");
  return std::optional<int64_t>(V(m).GetInt64());
}

Result<int64_t> JsonObject::RequiredInt64(std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> value, OptionalInt64(key));
  if (!value) return BadRequest(PathOf(key), " is required");
  return *value;
}

Result<std::optional<bool>> JsonObject::OptionalBool(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<bool>();
  if (!V(m).IsBool()) return BadRequest(PathOf(key), " must be a boolean");
  return std::optional<bool>(V(m).GetBool());
}

Result<std::optional<JsonObject>> JsonObject::OptionalObject(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<JsonObject>();
  if (!V(m).IsObject()) return BadRequest(PathOf(key), " must be an object");
  return std::optional<JsonObject>(JsonObject(doc_, m, PathOf(key)));
}

Result<std::optional<JsonArray>> JsonObject::OptionalArray(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<JsonArray>();
  if (!V(m).IsArray()) return BadRequest(PathOf(key), " must be an array");
  return std::optional<JsonArray>(JsonArray(doc_, m, PathOf(key)));
}

Result<JsonArray> JsonObject::RequiredArray(std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> value, OptionalArray(key));
  if (!value) return BadRequest(PathOf(key), " is required");
  return std::move(*value);
}

Result<std::optional<std::string>> JsonObject::OptionalRawJson(std::string_view key) {
  const void* m = Member(key);
  if (m == nullptr || V(m).IsNull()) return std::optional<std::string>();
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  V(m).Accept(writer);
  return std::optional<std::string>(std::string(buffer.GetString(), buffer.GetSize()));
}

std::vector<std::string> JsonObject::Keys() const {
  std::vector<std::string> keys;
  for (const auto& member : V(value_).GetObject()) {
    keys.emplace_back(member.name.GetString(), member.name.GetStringLength());
  }
  return keys;
}

Result<std::vector<std::pair<std::string, std::string>>> JsonObject::StringMap() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& member : V(value_).GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    read_.insert(name);
    if (!member.value.IsString()) return BadRequest(PathOf(name), " must be a string");
    out.emplace_back(std::move(name),
                     std::string(member.value.GetString(), member.value.GetStringLength()));
  }
  return out;
}

Status JsonObject::CheckNoUnknownFields() const {
  for (const auto& member : V(value_).GetObject()) {
    std::string_view name(member.name.GetString(), member.name.GetStringLength());
    if (!read_.contains(name)) {
      return BadRequest("unknown field '", PathOf(name), "' in ", Describe(path_));
    }
  }
  return Status::Ok();
}

// ---- JsonArray ----------------------------------------------------------------

size_t JsonArray::size() const { return V(value_).Size(); }
bool JsonArray::IsNull(size_t i) const {
  return V(value_)[static_cast<rapidjson::SizeType>(i)].IsNull();
}

Result<JsonObject> JsonArray::Object(size_t i) const {
  const Value& v = V(value_)[static_cast<rapidjson::SizeType>(i)];
  if (!v.IsObject()) return BadRequest(PathOf(i), " must be an object");
  return JsonObject(doc_, &v, PathOf(i));
}

Result<std::string> JsonArray::String(size_t i) const {
  const Value& v = V(value_)[static_cast<rapidjson::SizeType>(i)];
  if (!v.IsString()) return BadRequest(PathOf(i), " must be a string");
  return std::string(v.GetString(), v.GetStringLength());
}

Result<int64_t> JsonArray::Int64(size_t i) const {
  const Value& v = V(value_)[static_cast<rapidjson::SizeType>(i)];
  if (!v.IsInt64()) return BadRequest(PathOf(i), " must be an integer within int64");
  return v.GetInt64();
}

// ---- JsonBody -----------------------------------------------------------------

namespace {

// kBadRequest naming the first string (member name or value) under `value`
// that holds a NUL character: PostgreSQL text cannot hold one, and a C
// string would silently end there. Recursion is bounded by kMaxJsonDepth.
Status CheckNoNul(const Value& value, const std::string& path) {
  auto has_nul = [](const Value& v) {
    return std::string_view(v.GetString(), v.GetStringLength()).find('\0') !=
           std::string_view::npos;
  };
  if (value.IsString()) {
    if (has_nul(value)) return BadRequest(Describe(path), " must not contain a NUL character");
  } else if (value.IsArray()) {
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
      HOGLAKE_RETURN_IF_ERROR(CheckNoNul(value[i], path + "[" + std::to_string(i) + "]"));
    }
  } else if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      std::string name(member.name.GetString(), member.name.GetStringLength());
      if (has_nul(member.name)) {
        return BadRequest("a member name in ", Describe(path), " contains a NUL character");
      }
      HOGLAKE_RETURN_IF_ERROR(CheckNoNul(member.value, path.empty() ? name : path + "." + name));
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {

std::atomic<int64_t> g_parse_budget{kDefaultJsonParseMemoryBudget};
std::atomic<int64_t> g_parse_in_use{0};

// Takes `bytes` from the server-wide parse budget, or says no.
bool ReserveParse(int64_t bytes) {
  int64_t used = g_parse_in_use.load(std::memory_order_relaxed);
  do {
    if (used + bytes > g_parse_budget.load(std::memory_order_relaxed)) return false;
  } while (!g_parse_in_use.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

}  // namespace

void JsonBody::SetParseMemoryBudget(int64_t bytes) { g_parse_budget.store(bytes); }
int64_t JsonBody::ParseMemoryInUse() { return g_parse_in_use.load(); }

Result<JsonObject> JsonBody::ParseText(std::string_view text) {
  // Nesting is bounded before parsing (the parser, the walks below and the
  // writers that re-serialize members all recurse), and so is the memory
  // the parse may take.
  const JsonShape shape = MeasureJson(text, kMaxJsonDepth);
  if (shape.depth > kMaxJsonDepth) {
    return BadRequest("JSON nested deeper than ", kMaxJsonDepth, " levels");
  }
  const int64_t estimate = shape.values * kJsonBytesPerValue + static_cast<int64_t>(text.size());
  const int64_t per_request = std::min(kMaxJsonParseBytes, g_parse_budget.load());
  if (estimate > per_request) {
    return BadRequest("request body has too many JSON values (up to ", shape.values,
                      "; a request may carry at most ", per_request / kJsonBytesPerValue, ")");
  }
  if (!ReserveParse(estimate)) {
    return MakeError(ErrorCode::kCommitQueueTimeout,
                     "the server is holding too many large request bodies at once; retry later");
  }
  // The reservation is returned with the document, when the last view of
  // it goes.
  std::shared_ptr<rapidjson::Document> doc(new rapidjson::Document(),
                                           [estimate](rapidjson::Document* d) {
                                             delete d;
                                             g_parse_in_use.fetch_sub(estimate);
                                           });
  // Trailing non-whitespace is an error; so are bytes that are not UTF-8.
  doc->Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  if (doc->HasParseError()) {
    // Name the field the error is in, as the checks after parsing do.
    const JsonLocation at = JsonPathAt(text, doc->GetErrorOffset());
    const std::string where =
        at.in_member_name ? "a member name in " + Describe(at.path) : Describe(at.path);
    if (doc->GetParseError() == rapidjson::kParseErrorStringInvalidEncoding) {
      return BadRequest(where, " is not valid UTF-8 (byte offset ", doc->GetErrorOffset(), ")");
    }
    return BadRequest("malformed JSON at offset ", doc->GetErrorOffset(), " (in ", where,
                      "): ", rapidjson::GetParseError_En(doc->GetParseError()));
  }
  if (doc->IsNull()) return BadRequest("request body must be a JSON object, not null");
  if (!doc->IsObject()) return BadRequest("request body must be a JSON object");
  HOGLAKE_RETURN_IF_ERROR(CheckNoNul(*doc, ""));
  const void* root = static_cast<const Value*>(doc.get());
  return JsonObject(std::shared_ptr<const void>(doc, doc.get()), root, "");
}

Result<JsonObject> JsonBody::Parse(const HttpRequest& request) {
  auto type = request.Header("content-type");
  if (type && !type->empty()) {
    std::string_view media = type->substr(0, type->find(';'));
    while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
    if (media != "application/json" && !media.ends_with("+json")) {
      return BadRequest("Content-Type must be application/json, not '", *type, "'");
    }
  }
  if (request.body.empty()) return BadRequest("request body is empty; a JSON object is required");
  return ParseText(request.body);
}

}  // namespace hoglake::server
