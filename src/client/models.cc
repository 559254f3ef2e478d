// Response parsers (models.h). Each response is parsed once into a rapidjson
// DOM (exact int64) for typed access; a model's `json` is cut from the
// response text itself (json_raw below) and compacted, so numbers and
// strings keep the exact spelling the server sent — decimal bounds such as
// 1.50 or 38-digit integers included.
#include "client/models.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "client/errors.h"
#include "client/json_raw.h"

namespace hoglake::client {
namespace {

using rapidjson::Value;

// Typed, strict access to one JSON object of a model. Absent and null are
// the same (contract §1.2); a required member that is absent or of the wrong
// JSON type is a MalformedResponse naming model and member.
class Fields {
 public:
  Fields(std::string_view model, const Value& object) : model_(model), object_(object) {}

  Error Bad(std::string_view member, std::string_view what) const {
    return MalformedResponse(model_, member, what);
  }
  const Value* Find(const char* key) const {
    auto it = object_.FindMember(key);
    if (it == object_.MemberEnd() || it->value.IsNull()) return nullptr;
    return &it->value;
  }

  Result<std::string> Str(const char* key) const {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> v, OptStr(key));
    if (!v) return Bad(key, "is missing");
    return std::move(*v);
  }
  Result<std::optional<std::string>> OptStr(const char* key) const {
    const Value* v = Find(key);
    if (v == nullptr) return std::optional<std::string>();
    if (!v->IsString()) return Bad(key, "is not a string");
    return std::optional<std::string>(std::string(v->GetString(), v->GetStringLength()));
  }
  Result<int64_t> Int(const char* key) const {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> v, OptInt(key));
    if (!v) return Bad(key, "is missing");
    return *v;
  }
  Result<std::optional<int64_t>> OptInt(const char* key) const {
    const Value* v = Find(key);
    if (v == nullptr) return std::optional<int64_t>();
    if (!v->IsInt64()) return Bad(key, "is not a 64-bit integer");
    return std::optional<int64_t>(v->GetInt64());
  }
  Result<int32_t> Int32(const char* key) const {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<int32_t> v, OptInt32(key));
    if (!v) return Bad(key, "is missing");
    return *v;
  }
  Result<std::optional<int32_t>> OptInt32(const char* key) const {
    const Value* v = Find(key);
    if (v == nullptr) return std::optional<int32_t>();
    if (!v->IsInt()) return Bad(key, "is not a 32-bit integer");
    return std::optional<int32_t>(v->GetInt());
  }
  Result<bool> Bool(const char* key, std::optional<bool> fallback = std::nullopt) const {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<bool> v, OptBool(key));
    if (v) return *v;
    if (fallback) return *fallback;
    return Bad(key, "is missing");
  }
  Result<std::optional<bool>> OptBool(const char* key) const {
    const Value* v = Find(key);
    if (v == nullptr) return std::optional<bool>();
    if (!v->IsBool()) return Bad(key, "is not a boolean");
    return std::optional<bool>(v->GetBool());
  }
  // nullptr when absent.
  Result<const Value*> OptArray(const char* key) const {
    const Value* v = Find(key);
    if (v != nullptr && !v->IsArray()) return Bad(key, "is not an array");
    return v;
  }
  Result<const Value*> Array(const char* key) const {
    HOGLAKE_ASSIGN_OR_RETURN(const Value* v, OptArray(key));
    if (v == nullptr) return Bad(key, "is missing");
    return v;
  }
  Result<const Value*> OptObject(const char* key) const {
    const Value* v = Find(key);
    if (v != nullptr && !v->IsObject()) return Bad(key, "is not an object");
    return v;
  }
  Result<const Value*> Object(const char* key) const {
    HOGLAKE_ASSIGN_OR_RETURN(const Value* v, OptObject(key));
    if (v == nullptr) return Bad(key, "is missing");
    return v;
  }

 private:
  std::string_view model_;
  const Value& object_;
};

// A parsed response: the DOM and the text it came from.
struct Doc {
  std::unique_ptr<rapidjson::Document> dom;
  std::string_view text;
};

Result<Doc> ParseDoc(std::string_view text, std::string_view model) {
  Doc doc{std::make_unique<rapidjson::Document>(), text};
  doc.dom->Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (doc.dom->HasParseError()) return MalformedResponse(model, "", "is not valid JSON");
  return doc;
}

Status CheckObject(const Value& v, std::string_view model) {
  if (!v.IsObject()) return MalformedResponse(model, "", "is not an object");
  return Status::Ok();
}

// Parses every element of a JSON array with `parse(value, raw element text)`.
template <typename T, typename F>
Result<std::vector<T>> ParseEach(const Value& array, std::string_view raw, F parse) {
  std::vector<std::string_view> raws = json_raw::ArrayElements(raw);
  std::vector<T> out;
  out.reserve(array.Size());
  for (rapidjson::SizeType i = 0; i < array.Size(); ++i) {
    HOGLAKE_ASSIGN_OR_RETURN(T item, parse(array[i], i < raws.size() ? raws[i] : ""));
    out.push_back(std::move(item));
  }
  return out;
}

template <typename T, typename F>
Result<std::vector<T>> ParseListResponse(std::string_view text, std::string_view model, F parse) {
  HOGLAKE_ASSIGN_OR_RETURN(Doc doc, ParseDoc(text, model));
  if (!doc.dom->IsArray()) return MalformedResponse(model, "", "list is not an array");
  return ParseEach<T>(*doc.dom, doc.text, parse);
}

template <typename T, typename F>
Result<T> ParseObjectResponse(std::string_view text, std::string_view model, F parse) {
  HOGLAKE_ASSIGN_OR_RETURN(Doc doc, ParseDoc(text, model));
  return parse(*doc.dom, doc.text);
}

// ---- tables ----------------------------------------------------------------

Result<Column> ColumnFrom(const Value& v) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "Column"));
  Fields f("Column", v);
  Column c;
  HOGLAKE_ASSIGN_OR_RETURN(c.name, f.Str("name"));
  HOGLAKE_ASSIGN_OR_RETURN(std::string type, f.Str("type"));
  Result<iceberg::ColumnType> parsed = iceberg::ParseColumnType(type);
  if (!parsed.ok()) return f.Bad("type", StrCat("'", type, "' is not a known column type"));
  c.type = iceberg::TypeSpec(*parsed);
  HOGLAKE_ASSIGN_OR_RETURN(const Value* params, f.OptObject("type_params"));
  if (*parsed == iceberg::ColumnType::kDecimal) {
    if (params == nullptr) return f.Bad("type_params", "is missing for a decimal");
    Fields p("Column.type_params", *params);
    HOGLAKE_ASSIGN_OR_RETURN(c.type.precision, p.Int32("precision"));
    HOGLAKE_ASSIGN_OR_RETURN(c.type.scale, p.Int32("scale"));
  }
  HOGLAKE_ASSIGN_OR_RETURN(c.field_id, f.Int32("field_id"));
  HOGLAKE_ASSIGN_OR_RETURN(c.ordinal, f.Int32("ordinal"));
  HOGLAKE_ASSIGN_OR_RETURN(c.nullable, f.Bool("nullable", true));
  HOGLAKE_ASSIGN_OR_RETURN(c.comment, f.OptStr("comment"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* children, f.OptArray("children"));
  if (children != nullptr) {
    for (const Value& child : children->GetArray()) {
      HOGLAKE_ASSIGN_OR_RETURN(Column parsed_child, ColumnFrom(child));
      c.children.push_back(std::move(parsed_child));
    }
    std::stable_sort(c.children.begin(), c.children.end(),
                     [](const Column& a, const Column& b) { return a.ordinal < b.ordinal; });
  }
  return c;
}

Result<PartitionSpec> PartitionSpecFrom(const Value& v) {
  Fields f("Table.partition_spec", v);
  PartitionSpec spec;
  HOGLAKE_ASSIGN_OR_RETURN(spec.spec_id, f.Int("spec_id"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* fields, f.Array("fields"));
  for (const Value& field : fields->GetArray()) {
    HOGLAKE_RETURN_IF_ERROR(CheckObject(field, "PartitionField"));
    Fields pf("PartitionField", field);
    PartitionField out;
    HOGLAKE_ASSIGN_OR_RETURN(out.source_field_id, pf.Int32("source_field_id"));
    HOGLAKE_ASSIGN_OR_RETURN(out.transform, pf.Str("transform"));
    HOGLAKE_ASSIGN_OR_RETURN(out.transform_param, pf.OptInt32("transform_param"));
    HOGLAKE_ASSIGN_OR_RETURN(out.key_index, pf.OptInt32("key_index"));
    HOGLAKE_ASSIGN_OR_RETURN(out.name, pf.OptStr("name"));
    spec.fields.push_back(std::move(out));
  }
  return spec;
}

Result<SortSpec> SortSpecFrom(const Value& v) {
  Fields f("Table.sort_spec", v);
  SortSpec spec;
  HOGLAKE_ASSIGN_OR_RETURN(spec.sort_id, f.Int("sort_id"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* fields, f.Array("fields"));
  for (const Value& field : fields->GetArray()) {
    HOGLAKE_RETURN_IF_ERROR(CheckObject(field, "SortField"));
    Fields sf("SortField", field);
    SortField out;
    HOGLAKE_ASSIGN_OR_RETURN(out.source_field_id, sf.Int32("source_field_id"));
    HOGLAKE_ASSIGN_OR_RETURN(out.direction, sf.Str("direction"));
    HOGLAKE_ASSIGN_OR_RETURN(out.null_order, sf.Str("null_order"));
    spec.fields.push_back(std::move(out));
  }
  return spec;
}

// The object's `columns` array, in ordinal order.
Result<std::vector<Column>> ColumnsFrom(const Fields& f) {
  HOGLAKE_ASSIGN_OR_RETURN(const Value* columns, f.Array("columns"));
  std::vector<Column> out;
  for (const Value& column : columns->GetArray()) {
    HOGLAKE_ASSIGN_OR_RETURN(Column c, ColumnFrom(column));
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Column& a, const Column& b) { return a.ordinal < b.ordinal; });
  return out;
}

Result<TableInfo> TableInfoFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "Table"));
  Fields f("Table", v);
  TableInfo t;
  HOGLAKE_ASSIGN_OR_RETURN(t.name, f.Str("name"));
  HOGLAKE_ASSIGN_OR_RETURN(t.namespace_name, f.Str("namespace"));
  HOGLAKE_ASSIGN_OR_RETURN(t.table_uuid, f.Str("table_uuid"));
  HOGLAKE_ASSIGN_OR_RETURN(t.columns, ColumnsFrom(f));
  HOGLAKE_ASSIGN_OR_RETURN(t.record_count, f.OptInt("record_count"));
  HOGLAKE_ASSIGN_OR_RETURN(t.file_count, f.OptInt("file_count"));
  HOGLAKE_ASSIGN_OR_RETURN(t.file_size_bytes, f.OptInt("file_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* partition_spec, f.OptObject("partition_spec"));
  if (partition_spec != nullptr) {
    HOGLAKE_ASSIGN_OR_RETURN(t.partition_spec, PartitionSpecFrom(*partition_spec));
  }
  HOGLAKE_ASSIGN_OR_RETURN(const Value* sort_spec, f.OptObject("sort_spec"));
  if (sort_spec != nullptr) {
    HOGLAKE_ASSIGN_OR_RETURN(t.sort_spec, SortSpecFrom(*sort_spec));
  }
  HOGLAKE_ASSIGN_OR_RETURN(t.snapshot_id, f.OptInt("snapshot_id"));
  HOGLAKE_ASSIGN_OR_RETURN(t.read_snapshot_id, f.OptInt("read_snapshot_id"));
  HOGLAKE_ASSIGN_OR_RETURN(t.comment, f.OptStr("comment"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* properties, f.OptObject("properties"));
  if (properties != nullptr) {
    for (const auto& m : properties->GetObject()) {
      if (!m.value.IsString()) return f.Bad("properties", "has a value that is not a string");
      t.properties.emplace(std::string(m.name.GetString(), m.name.GetStringLength()),
                           std::string(m.value.GetString(), m.value.GetStringLength()));
    }
  }
  t.json = json_raw::Compact(raw);
  return t;
}

Result<TableSummary> TableSummaryFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "TableSummary"));
  Fields f("TableSummary", v);
  TableSummary t;
  HOGLAKE_ASSIGN_OR_RETURN(t.name, f.Str("name"));
  HOGLAKE_ASSIGN_OR_RETURN(t.table_uuid, f.Str("table_uuid"));
  HOGLAKE_ASSIGN_OR_RETURN(t.comment, f.OptStr("comment"));
  HOGLAKE_ASSIGN_OR_RETURN(t.record_count, f.OptInt("record_count"));
  HOGLAKE_ASSIGN_OR_RETURN(t.file_count, f.OptInt("file_count"));
  HOGLAKE_ASSIGN_OR_RETURN(t.file_size_bytes, f.OptInt("file_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(t.snapshot_count, f.OptInt("snapshot_count"));
  HOGLAKE_ASSIGN_OR_RETURN(t.earliest_snapshot_id, f.OptInt("earliest_snapshot_id"));
  t.json = json_raw::Compact(raw);
  return t;
}

Result<CatalogInfo> CatalogInfoFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "Catalog"));
  Fields f("Catalog", v);
  CatalogInfo c;
  HOGLAKE_ASSIGN_OR_RETURN(c.name, f.Str("name"));
  HOGLAKE_ASSIGN_OR_RETURN(c.data_path, f.Str("data_path"));
  HOGLAKE_ASSIGN_OR_RETURN(c.head_snapshot_id, f.Int("head_snapshot_id"));
  HOGLAKE_ASSIGN_OR_RETURN(c.schema_version, f.Int("schema_version"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* capabilities, f.OptArray("capabilities"));
  if (capabilities != nullptr) {
    for (const Value& cap : capabilities->GetArray()) {
      if (!cap.IsString()) return f.Bad("capabilities", "has an entry that is not a string");
      c.capabilities.emplace_back(cap.GetString(), cap.GetStringLength());
    }
  }
  c.json = json_raw::Compact(raw);
  return c;
}

// ---- files -----------------------------------------------------------------

Result<DataFile> DataFileFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "DataFile"));
  Fields f("DataFile", v);
  DataFile d;
  HOGLAKE_ASSIGN_OR_RETURN(d.data_file_id, f.Int("data_file_id"));
  HOGLAKE_ASSIGN_OR_RETURN(d.path, f.Str("path"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> format, f.OptStr("file_format"));
  if (format) d.file_format = std::move(*format);
  HOGLAKE_ASSIGN_OR_RETURN(d.record_count, f.Int("record_count"));
  HOGLAKE_ASSIGN_OR_RETURN(d.file_size_bytes, f.Int("file_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(d.footer_size, f.OptInt("footer_size"));
  HOGLAKE_ASSIGN_OR_RETURN(d.row_id_start, f.Int("row_id_start"));
  HOGLAKE_ASSIGN_OR_RETURN(d.stats_state, f.Str("stats_state"));
  HOGLAKE_ASSIGN_OR_RETURN(d.begin_snapshot, f.Int("begin_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(d.spec_id, f.OptInt("spec_id"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* values, f.OptArray("partition_values"));
  if (values != nullptr) {
    std::vector<std::optional<std::string>> out;
    for (const Value& value : values->GetArray()) {
      if (value.IsNull()) {
        out.emplace_back();
      } else if (value.IsString()) {
        out.emplace_back(std::string(value.GetString(), value.GetStringLength()));
      } else {
        return f.Bad("partition_values", "has an entry that is neither a string nor null");
      }
    }
    d.partition_values = std::move(out);
  }
  HOGLAKE_ASSIGN_OR_RETURN(d.explicit_row_ids, f.Bool("explicit_row_ids", false));
  d.json = json_raw::Compact(raw);
  return d;
}

Result<DeleteFile> DeleteFileFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "DeleteFile"));
  Fields f("DeleteFile", v);
  DeleteFile d;
  HOGLAKE_ASSIGN_OR_RETURN(d.delete_file_id, f.Int("delete_file_id"));
  HOGLAKE_ASSIGN_OR_RETURN(d.data_file_id, f.Int("data_file_id"));
  HOGLAKE_ASSIGN_OR_RETURN(d.path, f.Str("path"));
  HOGLAKE_ASSIGN_OR_RETURN(d.delete_count, f.Int("delete_count"));
  HOGLAKE_ASSIGN_OR_RETURN(d.file_size_bytes, f.Int("file_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(d.begin_snapshot, f.Int("begin_snapshot"));
  d.json = json_raw::Compact(raw);
  return d;
}

Result<ScanFile> ScanFileFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "ScanFile"));
  Fields f("ScanFile", v);
  ScanFile s;
  HOGLAKE_ASSIGN_OR_RETURN(const Value* data_file, f.Object("data_file"));
  HOGLAKE_ASSIGN_OR_RETURN(s.data_file,
                           DataFileFrom(*data_file, json_raw::ObjectMember(raw, "data_file")));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* delete_file, f.OptObject("delete_file"));
  if (delete_file != nullptr) {
    HOGLAKE_ASSIGN_OR_RETURN(
        s.delete_file, DeleteFileFrom(*delete_file, json_raw::ObjectMember(raw, "delete_file")));
  }
  s.json = json_raw::Compact(raw);
  return s;
}

Result<ChangesPlan> ChangesPlanFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "ChangesPlan"));
  Fields f("ChangesPlan", v);
  ChangesPlan p;
  HOGLAKE_ASSIGN_OR_RETURN(p.table_uuid, f.Str("table_uuid"));
  HOGLAKE_ASSIGN_OR_RETURN(p.from_snapshot, f.Int("from_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(p.to_snapshot, f.Int("to_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* files, f.Array("files"));
  HOGLAKE_ASSIGN_OR_RETURN(
      p.files, ParseEach<DataFile>(*files, json_raw::ObjectMember(raw, "files"), DataFileFrom));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* deletes, f.OptArray("delete_files"));
  if (deletes != nullptr) {
    HOGLAKE_ASSIGN_OR_RETURN(
        p.delete_files, ParseEach<DeleteFile>(*deletes, json_raw::ObjectMember(raw, "delete_files"),
                                              DeleteFileFrom));
  }
  p.json = json_raw::Compact(raw);
  return p;
}

// ---- snapshots, offsets, maintenance -------------------------------------------

Result<Snapshot> SnapshotFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "Snapshot"));
  Fields f("Snapshot", v);
  Snapshot s;
  HOGLAKE_ASSIGN_OR_RETURN(s.snapshot_id, f.Int("snapshot_id"));
  HOGLAKE_ASSIGN_OR_RETURN(s.snapshot_time, f.Str("snapshot_time"));
  HOGLAKE_ASSIGN_OR_RETURN(s.schema_version, f.Int("schema_version"));
  HOGLAKE_ASSIGN_OR_RETURN(s.author, f.OptStr("author"));
  HOGLAKE_ASSIGN_OR_RETURN(s.message, f.OptStr("message"));
  HOGLAKE_ASSIGN_OR_RETURN(const Value* changes, f.OptArray("changes"));
  if (changes != nullptr) {
    for (const Value& change : changes->GetArray()) {
      HOGLAKE_RETURN_IF_ERROR(CheckObject(change, "SnapshotChange"));
      Fields cf("SnapshotChange", change);
      SnapshotChange out;
      HOGLAKE_ASSIGN_OR_RETURN(out.kind, cf.Str("kind"));
      HOGLAKE_ASSIGN_OR_RETURN(out.object_id, cf.OptInt("object_id"));
      s.changes.push_back(std::move(out));
    }
  }
  s.json = json_raw::Compact(raw);
  return s;
}

Result<ConsumerOffset> ConsumerOffsetFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "ConsumerOffset"));
  Fields f("ConsumerOffset", v);
  ConsumerOffset o;
  HOGLAKE_ASSIGN_OR_RETURN(o.consumer_id, f.Str("consumer_id"));
  HOGLAKE_ASSIGN_OR_RETURN(o.table_uuid, f.Str("table_uuid"));
  HOGLAKE_ASSIGN_OR_RETURN(o.committed_snapshot, f.Int("committed_snapshot"));
  HOGLAKE_ASSIGN_OR_RETURN(o.updated_at, f.Str("updated_at"));
  o.json = json_raw::Compact(raw);
  return o;
}

Result<ViewInfo> ViewInfoFrom(const Value& v, std::string_view raw) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "View"));
  Fields f("View", v);
  ViewInfo view;
  HOGLAKE_ASSIGN_OR_RETURN(view.name, f.Str("name"));
  HOGLAKE_ASSIGN_OR_RETURN(view.namespace_name, f.Str("namespace"));
  HOGLAKE_ASSIGN_OR_RETURN(view.view_uuid, f.Str("view_uuid"));
  HOGLAKE_ASSIGN_OR_RETURN(view.sql, f.Str("sql"));
  HOGLAKE_ASSIGN_OR_RETURN(view.dialect, f.Str("dialect"));
  HOGLAKE_ASSIGN_OR_RETURN(view.snapshot_id, f.OptInt("snapshot_id"));
  view.json = json_raw::Compact(raw);
  return view;
}

Result<std::string> NamespaceNameFrom(const Value& v, std::string_view) {
  HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "Namespace"));
  return Fields("Namespace", v).Str("name");
}

}  // namespace

Result<TableInfo> ParseTableInfo(std::string_view text) {
  return ParseObjectResponse<TableInfo>(text, "Table", TableInfoFrom);
}
Result<std::vector<TableSummary>> ParseTableSummaries(std::string_view text) {
  return ParseListResponse<TableSummary>(text, "TableSummary", TableSummaryFrom);
}
Result<CatalogInfo> ParseCatalogInfo(std::string_view text) {
  return ParseObjectResponse<CatalogInfo>(text, "Catalog", CatalogInfoFrom);
}
Result<std::vector<CatalogInfo>> ParseCatalogInfos(std::string_view text) {
  return ParseListResponse<CatalogInfo>(text, "Catalog", CatalogInfoFrom);
}
Result<std::vector<std::string>> ParseNamespaceNames(std::string_view text) {
  return ParseListResponse<std::string>(text, "Namespace", NamespaceNameFrom);
}
Result<std::vector<DataFile>> ParseDataFiles(std::string_view text) {
  return ParseListResponse<DataFile>(text, "DataFile", DataFileFrom);
}
Result<std::vector<ScanFile>> ParseScanFiles(std::string_view text) {
  return ParseListResponse<ScanFile>(text, "ScanFile", ScanFileFrom);
}
Result<ChangesPlan> ParseChangesPlan(std::string_view text) {
  return ParseObjectResponse<ChangesPlan>(text, "ChangesPlan", ChangesPlanFrom);
}

Result<SnapshotPage> ParseSnapshotPage(std::string_view text) {
  return ParseObjectResponse<SnapshotPage>(
      text, "SnapshotPage", [](const Value& v, std::string_view raw) -> Result<SnapshotPage> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "SnapshotPage"));
        Fields f("SnapshotPage", v);
        SnapshotPage page;
        HOGLAKE_ASSIGN_OR_RETURN(const Value* snapshots, f.Array("snapshots"));
        HOGLAKE_ASSIGN_OR_RETURN(
            page.snapshots,
            ParseEach<Snapshot>(*snapshots, json_raw::ObjectMember(raw, "snapshots"),
                                SnapshotFrom));
        HOGLAKE_ASSIGN_OR_RETURN(page.has_more, f.Bool("has_more"));
        return page;
      });
}

Result<ConsumerOffset> ParseConsumerOffset(std::string_view text) {
  return ParseObjectResponse<ConsumerOffset>(text, "ConsumerOffset", ConsumerOffsetFrom);
}
Result<std::vector<ConsumerOffset>> ParseConsumerOffsets(std::string_view text) {
  return ParseListResponse<ConsumerOffset>(text, "ConsumerOffset", ConsumerOffsetFrom);
}

Result<CatalogOptions> ParseCatalogOptions(std::string_view text) {
  return ParseObjectResponse<CatalogOptions>(
      text, "CatalogOptions", [](const Value& v, std::string_view raw) -> Result<CatalogOptions> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "CatalogOptions"));
        Fields f("CatalogOptions", v);
        CatalogOptions o;
        HOGLAKE_ASSIGN_OR_RETURN(o.consumer_floor, f.Bool("consumer_floor"));
        HOGLAKE_ASSIGN_OR_RETURN(o.earliest_snapshot_id, f.Int("earliest_snapshot_id"));
        HOGLAKE_ASSIGN_OR_RETURN(o.snapshot_retention_seconds,
                                 f.OptInt("snapshot_retention_seconds"));
        o.json = json_raw::Compact(raw);
        return o;
      });
}

Result<ExpiryResult> ParseExpiryResult(std::string_view text) {
  return ParseObjectResponse<ExpiryResult>(
      text, "ExpiryResult", [](const Value& v, std::string_view raw) -> Result<ExpiryResult> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "ExpiryResult"));
        Fields f("ExpiryResult", v);
        ExpiryResult e;
        HOGLAKE_ASSIGN_OR_RETURN(e.snapshots_expired, f.Int("snapshots_expired"));
        HOGLAKE_ASSIGN_OR_RETURN(e.data_files_queued, f.Int("data_files_queued"));
        HOGLAKE_ASSIGN_OR_RETURN(e.delete_files_queued, f.Int("delete_files_queued"));
        HOGLAKE_ASSIGN_OR_RETURN(e.new_earliest_snapshot_id, f.Int("new_earliest_snapshot_id"));
        HOGLAKE_ASSIGN_OR_RETURN(e.floored_by_consumer, f.OptBool("floored_by_consumer"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> released, f.OptInt("offsets_released"));
        e.offsets_released = released.value_or(0);
        e.json = json_raw::Compact(raw);
        return e;
      });
}

Result<CleanupResult> ParseCleanupResult(std::string_view text) {
  return ParseObjectResponse<CleanupResult>(
      text, "CleanupResult", [](const Value& v, std::string_view raw) -> Result<CleanupResult> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "CleanupResult"));
        Fields f("CleanupResult", v);
        CleanupResult c;
        HOGLAKE_ASSIGN_OR_RETURN(c.removed, f.Int("removed"));
        HOGLAKE_ASSIGN_OR_RETURN(c.missing, f.Int("missing"));
        HOGLAKE_ASSIGN_OR_RETURN(c.still_referenced, f.Int("still_referenced"));
        c.json = json_raw::Compact(raw);
        return c;
      });
}

Result<CommitResult> ParseCommitResult(std::string_view text) {
  return ParseObjectResponse<CommitResult>(
      text, "CommitResult", [](const Value& v, std::string_view raw) -> Result<CommitResult> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "CommitResult"));
        Fields f("CommitResult", v);
        CommitResult c;
        HOGLAKE_ASSIGN_OR_RETURN(c.snapshot_id, f.Int("snapshot_id"));
        HOGLAKE_ASSIGN_OR_RETURN(c.schema_version, f.OptInt("schema_version"));
        c.json = json_raw::Compact(raw);
        return c;
      });
}

Result<ViewInfo> ParseViewInfo(std::string_view text) {
  return ParseObjectResponse<ViewInfo>(text, "View", ViewInfoFrom);
}
Result<std::vector<ViewInfo>> ParseViewInfos(std::string_view text) {
  return ParseListResponse<ViewInfo>(text, "View", ViewInfoFrom);
}

Result<FileStats> ParseFileStats(std::string_view text) {
  return ParseObjectResponse<FileStats>(
      text, "FileStats", [](const Value& v, std::string_view raw) -> Result<FileStats> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "FileStats"));
        Fields f("FileStats", v);
        FileStats s;
        HOGLAKE_ASSIGN_OR_RETURN(s.data_file_id, f.Int("data_file_id"));
        HOGLAKE_ASSIGN_OR_RETURN(s.stats_state, f.Str("stats_state"));
        HOGLAKE_ASSIGN_OR_RETURN(s.no_stats_reason, f.OptStr("no_stats_reason"));
        HOGLAKE_ASSIGN_OR_RETURN(const Value* columns, f.Array("columns"));
        HOGLAKE_ASSIGN_OR_RETURN(
            s.columns, ParseEach<FileColumnStats>(
                           *columns, json_raw::ObjectMember(raw, "columns"),
                           [](const Value& c, std::string_view craw) -> Result<FileColumnStats> {
                             HOGLAKE_RETURN_IF_ERROR(CheckObject(c, "FileColumnStats"));
                             Fields cf("FileColumnStats", c);
                             FileColumnStats out;
                             HOGLAKE_ASSIGN_OR_RETURN(out.field_id, cf.Int32("field_id"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.name, cf.Str("name"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.path, cf.Str("path"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.type, cf.Str("type"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.value_count, cf.Int("value_count"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.null_count, cf.Int("null_count"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.nan_count, cf.OptInt("nan_count"));
                             HOGLAKE_ASSIGN_OR_RETURN(out.size_bytes, cf.OptInt("size_bytes"));
                             std::string_view lower = json_raw::ObjectMember(craw, "lower_bound");
                             std::string_view upper = json_raw::ObjectMember(craw, "upper_bound");
                             if (!lower.empty()) out.lower_bound_json = json_raw::Compact(lower);
                             if (!upper.empty()) out.upper_bound_json = json_raw::Compact(upper);
                             return out;
                           }));
        s.json = json_raw::Compact(raw);
        return s;
      });
}

Result<TableCreation> ParseTableCreation(std::string_view text) {
  return ParseObjectResponse<TableCreation>(
      text, "TableCreation", [](const Value& v, std::string_view raw) -> Result<TableCreation> {
        HOGLAKE_RETURN_IF_ERROR(CheckObject(v, "TableCreation"));
        Fields f("TableCreation", v);
        TableCreation c;
        HOGLAKE_ASSIGN_OR_RETURN(c.operation_id, f.Str("operation_id"));
        HOGLAKE_ASSIGN_OR_RETURN(c.table_uuid, f.Str("table_uuid"));
        HOGLAKE_ASSIGN_OR_RETURN(c.namespace_name, f.Str("namespace"));
        HOGLAKE_ASSIGN_OR_RETURN(c.name, f.Str("name"));
        HOGLAKE_ASSIGN_OR_RETURN(c.columns, ColumnsFrom(f));
        HOGLAKE_ASSIGN_OR_RETURN(c.write_path, f.Str("write_path"));
        HOGLAKE_ASSIGN_OR_RETURN(c.state, f.Str("state"));
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> expires, f.OptStr("expires_at"));
        c.expires_at = expires.value_or("");
        HOGLAKE_ASSIGN_OR_RETURN(c.snapshot_id, f.OptInt("snapshot_id"));
        HOGLAKE_ASSIGN_OR_RETURN(c.schema_version, f.OptInt("schema_version"));
        HOGLAKE_ASSIGN_OR_RETURN(c.reason, f.OptStr("reason"));
        c.json = json_raw::Compact(raw);
        return c;
      });
}

}  // namespace hoglake::client
