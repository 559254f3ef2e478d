// The SDK's error taxonomy (errors.h): server error bodies → Error, and
// Error → the pyhoglake exception kind with its retry flags.
//
// Kinds by code: the server's wire codes map one to one (commit_queue_timeout
// joins commit_conflict as retryable); kExpired is kReadSnapshotExpired when
// wire_extra carries "retry":"re-prepare" (a 410 on a commit); kInvalidData
// whose message starts "malformed response" is kMalformedResponse;
// kValidation, kInvalidArgument and other kInvalidData are kValidation;
// kUnavailable (transport failures, a 503 without a known code) and
// database_unavailable (the server's database is down for now) are
// kTransport; everything else (bad_request, internal_error, 501, redirects,
// namespace_not_empty, idless_files_present, I/O) is kHoglake.
#include "client/errors.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>
#include <memory>

namespace hoglake::client {
namespace {

constexpr std::string_view kRePrepareMarker = "\"retry\":\"re-prepare\"";

ErrorCode CodeForStatus(long status) {
  switch (status) {
    case 404:
      return ErrorCode::kNotFound;
    case 409:
      return ErrorCode::kCommitConflict;
    case 410:
      return ErrorCode::kExpired;
    case 422:
      return ErrorCode::kValidation;
    case 503:
      return ErrorCode::kUnavailable;
    default:
      return ErrorCode::kInternal;
  }
}

std::optional<ErrorCode> CodeForWireName(std::string_view name) {
  for (const ErrorCodeInfo& info : AllErrorCodes()) {
    if (info.wire_name == name) return info.code;
  }
  return std::nullopt;
}

std::string Compact(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void AppendMember(std::string_view name, std::string_view json, std::string* extra) {
  if (!extra->empty()) extra->push_back(',');
  extra->push_back('"');
  extra->append(name);
  extra->append("\":");
  extra->append(json);
}

// wire_extra parsed back as an object; null when it is empty or not JSON.
std::unique_ptr<rapidjson::Document> ExtraObject(const Error& error) {
  if (error.wire_extra.empty()) return nullptr;
  auto doc = std::make_unique<rapidjson::Document>();
  const std::string text = "{" + error.wire_extra + "}";
  doc->Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str(), text.size());
  if (doc->HasParseError() || !doc->IsObject()) return nullptr;
  return doc;
}

}  // namespace

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kHoglake:
      return "HoglakeError";
    case ErrorKind::kNotFound:
      return "NotFoundError";
    case ErrorKind::kAlreadyExists:
      return "AlreadyExistsError";
    case ErrorKind::kCommitConflict:
      return "CommitConflictError";
    case ErrorKind::kDdlSinceReadSnapshot:
      return "DdlSinceReadSnapshotError";
    case ErrorKind::kIncarnationChanged:
      return "IncarnationChangedError";
    case ErrorKind::kTableDropped:
      return "TableDroppedError";
    case ErrorKind::kOffsetRegression:
      return "OffsetRegressionError";
    case ErrorKind::kReconciliationRequired:
      return "ReconciliationRequiredError";
    case ErrorKind::kExpired:
      return "ExpiredError";
    case ErrorKind::kReadSnapshotExpired:
      return "ReadSnapshotExpiredError";
    case ErrorKind::kValidation:
      return "ValidationError";
    case ErrorKind::kMalformedResponse:
      return "MalformedResponseError";
    case ErrorKind::kTransport:
      return "TransportError";
  }
  return "HoglakeError";
}

ErrorKind ErrorKindOf(const Error& error) {
  switch (error.code) {
    case ErrorCode::kNotFound:
      return ErrorKind::kNotFound;
    case ErrorCode::kAlreadyExists:
      return ErrorKind::kAlreadyExists;
    case ErrorCode::kCommitConflict:
    case ErrorCode::kCommitQueueTimeout:
      return ErrorKind::kCommitConflict;
    case ErrorCode::kDdlSinceReadSnapshot:
      return ErrorKind::kDdlSinceReadSnapshot;
    case ErrorCode::kTableRecreated:
      return ErrorKind::kIncarnationChanged;
    case ErrorCode::kTableDropped:
      return ErrorKind::kTableDropped;
    case ErrorCode::kOffsetRegression:
      return ErrorKind::kOffsetRegression;
    case ErrorCode::kReconciliationRequired:
      return ErrorKind::kReconciliationRequired;
    case ErrorCode::kExpired:
      return error.wire_extra.find(kRePrepareMarker) != std::string::npos
                 ? ErrorKind::kReadSnapshotExpired
                 : ErrorKind::kExpired;
    case ErrorCode::kInvalidData:
      if (error.message.starts_with("malformed response")) return ErrorKind::kMalformedResponse;
      return ErrorKind::kValidation;
    case ErrorCode::kValidation:
    case ErrorCode::kInvalidArgument:
      return ErrorKind::kValidation;
    case ErrorCode::kUnavailable:
    case ErrorCode::kDatabaseUnavailable:
      return ErrorKind::kTransport;
    default:
      return ErrorKind::kHoglake;
  }
}

bool Retryable(const Error& error) { return ErrorKindOf(error) == ErrorKind::kCommitConflict; }

bool RePrepare(const Error& error) {
  const ErrorKind kind = ErrorKindOf(error);
  return kind == ErrorKind::kDdlSinceReadSnapshot || kind == ErrorKind::kIncarnationChanged ||
         kind == ErrorKind::kReadSnapshotExpired;
}

std::vector<std::string> ErrorTables(const Error& error) {
  std::vector<std::string> out;
  auto doc = ExtraObject(error);
  if (!doc) return out;
  auto it = doc->FindMember("tables");
  if (it == doc->MemberEnd() || !it->value.IsArray()) return out;
  for (const auto& t : it->value.GetArray()) {
    if (t.IsString()) out.emplace_back(t.GetString(), t.GetStringLength());
  }
  return out;
}

std::optional<int64_t> ErrorReadSnapshot(const Error& error) {
  auto doc = ExtraObject(error);
  if (!doc) return std::nullopt;
  auto it = doc->FindMember("read_snapshot");
  if (it == doc->MemberEnd() || !it->value.IsInt64()) return std::nullopt;
  return it->value.GetInt64();
}

namespace {
std::optional<std::string> ExtraString(const Error& error, const char* member) {
  auto doc = ExtraObject(error);
  if (!doc) return std::nullopt;
  auto it = doc->FindMember(member);
  if (it == doc->MemberEnd() || !it->value.IsString()) return std::nullopt;
  return std::string(it->value.GetString(), it->value.GetStringLength());
}
}  // namespace

std::optional<std::string> ErrorCreationReason(const Error& error) {
  return ExtraString(error, "reason");
}

std::optional<std::string> ErrorCreationOperation(const Error& error) {
  return ExtraString(error, "operation_id");
}

Error ErrorFromResponse(long http_status, std::string_view body, bool on_commit) {
  std::optional<std::string> wire_code;
  std::optional<std::string> detail;
  std::string extra;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(body.data(), body.size());
  if (!doc.HasParseError() && doc.IsObject()) {
    for (const auto& m : doc.GetObject()) {
      const std::string_view name(m.name.GetString(), m.name.GetStringLength());
      if (name == "error" && m.value.IsString()) {
        wire_code.emplace(m.value.GetString(), m.value.GetStringLength());
      } else if (name == "error" && m.value.IsObject()) {
        // The query API's Hotdata body: {"error": {"code", "message"}}.
        auto code_member = m.value.FindMember("code");
        if (code_member != m.value.MemberEnd() && code_member->value.IsString()) {
          std::string lowered(code_member->value.GetString(),
                              code_member->value.GetStringLength());
          for (char& c : lowered) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          }
          wire_code = std::move(lowered);
        }
        auto message = m.value.FindMember("message");
        if (message != m.value.MemberEnd() && message->value.IsString()) {
          detail.emplace(message->value.GetString(), message->value.GetStringLength());
        }
      } else if (name == "detail") {
        detail = m.value.IsString() ? std::string(m.value.GetString(), m.value.GetStringLength())
                                    : Compact(m.value);
      } else if (name == "tables" || name == "read_snapshot" || name == "retry") {
        AppendMember(name, Compact(m.value), &extra);
      }
    }
  } else if (!body.empty()) {
    detail = std::string(body.substr(0, 500));
  }

  ErrorCode code = CodeForStatus(http_status);
  if (wire_code) {
    if (std::optional<ErrorCode> known = CodeForWireName(*wire_code)) code = *known;
  }
  if (on_commit && http_status == 410) {
    code = ErrorCode::kExpired;
    if (extra.find(kRePrepareMarker) == std::string::npos) {
      AppendMember("retry", "\"re-prepare\"", &extra);
    }
  }

  std::string message;
  if (wire_code) {
    message = *wire_code;
    if (detail && !detail->empty()) message += StrCat(": ", *detail);
    message += StrCat(" (HTTP ", http_status, ")");
  } else {
    message = StrCat("HTTP ", http_status);
    if (detail && !detail->empty()) message += StrCat(": ", *detail);
  }
  return Error{code, std::move(message), {}, std::move(extra)};
}

Error MalformedResponse(std::string_view model, std::string_view member, std::string_view what) {
  std::string subject(model);
  if (!member.empty()) subject += StrCat(".", member);
  return Error{ErrorCode::kInvalidData, StrCat("malformed response: ", subject, " ", what)};
}

}  // namespace hoglake::client
