// Strict reading of JSON request bodies (contract §1.3).
//
// JsonBody::Parse refuses, with kBadRequest: a non-JSON Content-Type,
// malformed JSON (including bytes that are not UTF-8), arrays and objects
// nested deeper than kMaxJsonDepth (checked before parsing, so no input can
// exhaust the stack), a JSON null or non-object body, and any string —
// member name or value, at any depth — holding a NUL character (named by
// its path; PostgreSQL text cannot store one and nothing is truncated).
//
// Parse memory is bounded too: the parsed document costs up to ~40 bytes per
// JSON value (an array of small numbers, 2 bytes of text each, costs ~17×
// its text while it is built), so before parsing, the values are counted
// and the parse's memory is estimated (kJsonBytesPerValue per value plus
// the text). A body whose estimate passes kMaxJsonParseBytes is refused
// (kBadRequest); one that does not fit in what remains of the server-wide
// budget (SetParseMemoryBudget; held until the parsed body is released) is
// refused with kCommitQueueTimeout (503, retry later). Getters read one member
// each, check its JSON type (kBadRequest naming the member's path, e.g.
// "columns[2].type must be a string") and remember that it was read;
// CheckNoUnknownFields() then refuses any member nobody read. Nested objects
// and arrays are JsonObject/JsonArray views sharing the parsed document.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "server/http/http_types.h"

namespace hoglake::server {

class JsonArray;

// Deepest nesting of arrays and objects a request body may have: the deepest
// legitimate body (a commit's column_stats, a table's columns nested 8 deep)
// stays far below it.
inline constexpr int kMaxJsonDepth = 64;
// What one parsed value may cost while the document is built (measured: a
// 58 MB array of 29M small numbers peaked at 34 bytes per value).
inline constexpr int64_t kJsonBytesPerValue = 40;
// The largest parse one request may make: room for a 20,000-file commit
// with statistics on 60 columns.
inline constexpr int64_t kMaxJsonParseBytes = int64_t{512} << 20;
inline constexpr int64_t kDefaultJsonParseMemoryBudget = int64_t{1} << 30;

class JsonObject {
 public:
  Result<std::string> RequiredString(std::string_view key);
  Result<std::optional<std::string>> OptionalString(std::string_view key);
  Result<int64_t> RequiredInt64(std::string_view key);
  Result<std::optional<int64_t>> OptionalInt64(std::string_view key);
  Result<std::optional<bool>> OptionalBool(std::string_view key);
  Result<std::optional<JsonObject>> OptionalObject(std::string_view key);
  Result<std::optional<JsonArray>> OptionalArray(std::string_view key);
  Result<JsonArray> RequiredArray(std::string_view key);
  // The member re-serialized as compact JSON text (any JSON type), if present
  // and not null.
  Result<std::optional<std::string>> OptionalRawJson(std::string_view key);
  // Member names in document order.
  std::vector<std::string> Keys() const;
  // True when the member exists and is JSON null.
  bool IsNull(std::string_view key) const;
  bool Has(std::string_view key) const;
  // Every member as (name, string value); kBadRequest if any is not a string.
  Result<std::vector<std::pair<std::string, std::string>>> StringMap();

  Status CheckNoUnknownFields() const;
  const std::string& path() const { return path_; }

 private:
  friend class JsonBody;
  friend class JsonArray;
  JsonObject(std::shared_ptr<const void> doc, const void* value, std::string path)
      : doc_(std::move(doc)), value_(value), path_(std::move(path)) {}
  const void* Member(std::string_view key);
  std::string PathOf(std::string_view key) const;

  std::shared_ptr<const void> doc_;  // keeps the document alive
  const void* value_;                // rapidjson::Value of type object
  std::string path_;                 // "" for the body, "columns[2]" below
  std::set<std::string, std::less<>> read_;
};

class JsonArray {
 public:
  size_t size() const;
  bool IsNull(size_t i) const;
  Result<JsonObject> Object(size_t i) const;
  Result<std::string> String(size_t i) const;
  Result<int64_t> Int64(size_t i) const;
  const std::string& path() const { return path_; }

 private:
  friend class JsonObject;
  JsonArray(std::shared_ptr<const void> doc, const void* value, std::string path)
      : doc_(std::move(doc)), value_(value), path_(std::move(path)) {}
  std::string PathOf(size_t i) const { return path_ + "[" + std::to_string(i) + "]"; }

  std::shared_ptr<const void> doc_;
  const void* value_;
  std::string path_;
};

class JsonBody {
 public:
  static Result<JsonObject> Parse(const HttpRequest& request);
  static Result<JsonObject> ParseText(std::string_view text);

  // The server-wide bound on memory held by parsed bodies at once (default
  // kDefaultJsonParseMemoryBudget). Call before serving.
  static void SetParseMemoryBudget(int64_t bytes);
  // Estimated bytes held by parsed bodies now (for tests and metrics).
  static int64_t ParseMemoryInUse();
};

}  // namespace hoglake::server
