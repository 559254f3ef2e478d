#include "server/catalog_api/commit_wire.h"

#include "common/encoding.h"
#include "common/uuid.h"

namespace hoglake::server {
namespace {

using catalog::ColumnStatsInput;
using catalog::FileRegistration;

Result<std::optional<std::string>> OptionalUuid(JsonObject& o, std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> text, o.OptionalString(key));
  if (!text) return std::optional<std::string>();
  Result<UuidBytes> uuid = ParseUuid(*text);
  if (!uuid.ok())
    return BadRequest(o.path().empty() ? "" : o.path() + ".", key, ": ", uuid.error().message);
  return std::optional<std::string>(FormatUuid(*uuid));
}

Result<std::optional<std::string>> OptionalBase64(JsonObject& o, std::string_view key) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> text, o.OptionalString(key));
  if (!text) return std::optional<std::string>();
  Result<std::string> bytes = Base64Decode(*text);
  if (!bytes.ok())
    return BadRequest(o.path(), ".", key, " is not valid base64: ", bytes.error().message);
  return std::optional<std::string>(std::move(*bytes));
}

// Every element of a non-nullable list as an object.
Result<std::vector<JsonObject>> Objects(const JsonArray& array) {
  std::vector<JsonObject> out;
  for (size_t i = 0; i < array.size(); ++i) {
    if (array.IsNull(i)) return BadRequest(array.path(), "[", i, "] must not be null");
    HOGLAKE_ASSIGN_OR_RETURN(JsonObject o, array.Object(i));
    out.push_back(std::move(o));
  }
  return out;
}

Result<ColumnStatsInput> ParseStats(JsonObject o) {
  ColumnStatsInput s;
  HOGLAKE_ASSIGN_OR_RETURN(s.field_id, o.RequiredInt64("field_id"));
  HOGLAKE_ASSIGN_OR_RETURN(s.value_count, o.RequiredInt64("value_count"));
  HOGLAKE_ASSIGN_OR_RETURN(s.null_count, o.RequiredInt64("null_count"));
  HOGLAKE_ASSIGN_OR_RETURN(s.nan_count, o.OptionalInt64("nan_count"));
  HOGLAKE_ASSIGN_OR_RETURN(s.size_bytes, o.OptionalInt64("size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(s.lower_bound, OptionalBase64(o, "lower_bound"));
  HOGLAKE_ASSIGN_OR_RETURN(s.upper_bound, OptionalBase64(o, "upper_bound"));
  HOGLAKE_RETURN_IF_ERROR(o.CheckNoUnknownFields());
  return s;
}

Result<FileRegistration> ParseFile(JsonObject o) {
  FileRegistration f;
  HOGLAKE_ASSIGN_OR_RETURN(f.path, o.RequiredString("path"));
  HOGLAKE_ASSIGN_OR_RETURN(f.record_count, o.RequiredInt64("record_count"));
  HOGLAKE_ASSIGN_OR_RETURN(f.file_size_bytes, o.RequiredInt64("file_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(f.footer_size, o.OptionalInt64("footer_size"));
  HOGLAKE_ASSIGN_OR_RETURN(f.file_format, o.OptionalString("file_format"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> stats, o.OptionalArray("column_stats"));
  if (stats) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> entries, Objects(*stats));
    f.column_stats.emplace();
    for (JsonObject& e : entries) {
      HOGLAKE_ASSIGN_OR_RETURN(ColumnStatsInput s, ParseStats(std::move(e)));
      f.column_stats->push_back(std::move(s));
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> values, o.OptionalArray("partition_values"));
  if (values) {
    f.partition_values.emplace();
    for (size_t i = 0; i < values->size(); ++i) {
      if (values->IsNull(i)) {
        f.partition_values->push_back(std::nullopt);
      } else {
        HOGLAKE_ASSIGN_OR_RETURN(std::string v, values->String(i));
        f.partition_values->push_back(std::move(v));
      }
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> splits, o.OptionalArray("split_offsets"));
  if (splits) {
    f.split_offsets.emplace();
    for (size_t i = 0; i < splits->size(); ++i) {
      HOGLAKE_ASSIGN_OR_RETURN(int64_t v, splits->Int64(i));
      f.split_offsets->push_back(v);
    }
  }
  HOGLAKE_RETURN_IF_ERROR(o.CheckNoUnknownFields());
  return f;
}

}  // namespace

Result<std::vector<FileRegistration>> ParseFileRegistrations(const JsonArray& files) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, Objects(files));
  std::vector<FileRegistration> out;
  for (JsonObject& f : objects) {
    HOGLAKE_ASSIGN_OR_RETURN(FileRegistration file, ParseFile(std::move(f)));
    out.push_back(std::move(file));
  }
  return out;
}

Result<catalog::CommitRequest> ParseCommitRequest(JsonObject body) {
  catalog::CommitRequest request;
  HOGLAKE_ASSIGN_OR_RETURN(request.idempotency_key, OptionalUuid(body, "idempotency_key"));
  HOGLAKE_ASSIGN_OR_RETURN(request.read_snapshot, body.OptionalInt64("read_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(request.author, body.OptionalString("author"));
  HOGLAKE_ASSIGN_OR_RETURN(request.message, body.OptionalString("message"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> appends, body.OptionalArray("appends"));
  if (appends) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> groups, Objects(*appends));
    for (JsonObject& g : groups) {
      catalog::TableAppend append;
      HOGLAKE_ASSIGN_OR_RETURN(append.namespace_name, g.RequiredString("namespace"));
      HOGLAKE_ASSIGN_OR_RETURN(append.table, g.RequiredString("table"));
      HOGLAKE_ASSIGN_OR_RETURN(append.expected_table_uuid, OptionalUuid(g, "expected_table_uuid"));
      HOGLAKE_ASSIGN_OR_RETURN(JsonArray files, g.RequiredArray("files"));
      HOGLAKE_RETURN_IF_ERROR(g.CheckNoUnknownFields());
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> file_objects, Objects(files));
      for (JsonObject& f : file_objects) {
        HOGLAKE_ASSIGN_OR_RETURN(FileRegistration file, ParseFile(std::move(f)));
        append.files.push_back(std::move(file));
      }
      request.appends.push_back(std::move(append));
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> deletes, body.OptionalArray("deletes"));
  if (deletes) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> groups, Objects(*deletes));
    for (JsonObject& g : groups) {
      catalog::TableDeleteGroup group;
      HOGLAKE_ASSIGN_OR_RETURN(group.namespace_name, g.RequiredString("namespace"));
      HOGLAKE_ASSIGN_OR_RETURN(group.table, g.RequiredString("table"));
      HOGLAKE_ASSIGN_OR_RETURN(group.expected_table_uuid, OptionalUuid(g, "expected_table_uuid"));
      HOGLAKE_ASSIGN_OR_RETURN(JsonArray files, g.RequiredArray("files"));
      HOGLAKE_RETURN_IF_ERROR(g.CheckNoUnknownFields());
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<JsonObject> registrations, Objects(files));
      for (JsonObject& r : registrations) {
        HOGLAKE_RETURN_IF_ERROR(r.RequiredInt64("data_file_id").status());
        HOGLAKE_RETURN_IF_ERROR(r.RequiredString("path").status());
        HOGLAKE_RETURN_IF_ERROR(r.RequiredInt64("delete_count").status());
        HOGLAKE_RETURN_IF_ERROR(r.RequiredInt64("file_size_bytes").status());
        HOGLAKE_RETURN_IF_ERROR(r.OptionalString("data_file_path").status());
        HOGLAKE_RETURN_IF_ERROR(r.CheckNoUnknownFields());
      }
      group.file_count = static_cast<int64_t>(registrations.size());
      request.deletes.push_back(std::move(group));
    }
  }
  HOGLAKE_RETURN_IF_ERROR(body.CheckNoUnknownFields());
  return request;
}

}  // namespace hoglake::server
