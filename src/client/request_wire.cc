// Shared request pieces (request_wire.h).
#include "client/request_wire.h"

namespace hoglake::client::wire {
namespace {

void CollectReserved(const ColumnDef& column, const std::string& path,
                     std::vector<std::string>* out) {
  if (column.name.starts_with("_hog")) out->push_back(path);
  for (const ColumnDef& child : column.children) {
    CollectReserved(child, path + "." + child.name, out);
  }
}

Status CheckShape(const ColumnDef& column, const std::string& path) {
  using iceberg::ColumnType;
  const ColumnType type = column.type.type;
  const size_t n = column.children.size();
  if (type == ColumnType::kList && n != 1) {
    return Validation("column '", path, "': a list needs exactly one child (its element), got ", n);
  }
  if (type == ColumnType::kMap && n != 2) {
    return Validation("column '", path, "': a map needs exactly two children (key, value), got ",
                      n);
  }
  if (type == ColumnType::kStruct && n == 0) {
    return Validation("column '", path, "': a struct needs at least one member");
  }
  if (!iceberg::IsContainer(type) && n != 0) {
    return Validation("column '", path, "': a ", iceberg::ColumnTypeName(type),
                      " column has no children");
  }
  if (column.shredding_json && type != ColumnType::kVariant) {
    return Validation("column '", path, "': only a variant column declares shredding");
  }
  for (const ColumnDef& child : column.children) {
    HOGLAKE_RETURN_IF_ERROR(CheckShape(child, path + "." + child.name));
  }
  return Status::Ok();
}

void WriteColumn(const ColumnDef& column, std::string_view name, bool nullable, JsonWriter& w) {
  using iceberg::ColumnType;
  w.BeginObject();
  w.Field("name", name);
  w.Field("type", iceberg::ColumnTypeName(column.type.type));
  w.Field("nullable", nullable);
  if (column.type.type == ColumnType::kDecimal) {
    w.Key("type_params");
    w.BeginObject();
    w.Field("precision", static_cast<int64_t>(column.type.precision));
    w.Field("scale", static_cast<int64_t>(column.type.scale));
    w.EndObject();
  } else if (column.type.type == ColumnType::kVariant && column.shredding_json) {
    w.Key("type_params");
    w.BeginObject();
    w.Key("shredding");
    w.Raw(*column.shredding_json);
    w.EndObject();
  }
  w.OptionalField("comment", column.comment);
  if (iceberg::IsContainer(column.type.type)) {
    w.Key("children");
    w.BeginArray();
    for (size_t i = 0; i < column.children.size(); ++i) {
      const ColumnDef& child = column.children[i];
      if (column.type.type == ColumnType::kList) {
        WriteColumn(child, "element", child.nullable, w);
      } else if (column.type.type == ColumnType::kMap) {
        WriteColumn(child, i == 0 ? "key" : "value", i == 0 ? false : child.nullable, w);
      } else {
        WriteColumn(child, child.name, child.nullable, w);
      }
    }
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace

Status AddTravel(const TimeTravel& travel, QueryParams* query) {
  if (travel.snapshot && travel.at_timestamp) {
    return Validation("time travel takes snapshot or at_timestamp, not both");
  }
  if (travel.snapshot) query->emplace_back("snapshot", std::to_string(*travel.snapshot));
  if (travel.at_timestamp) query->emplace_back("at_timestamp", *travel.at_timestamp);
  return Status::Ok();
}

void WriteColumnDef(const ColumnDef& column, JsonWriter& w) {
  WriteColumn(column, column.name, column.nullable, w);
}

void WritePartitionFields(const std::vector<PartitionFieldDef>& fields, JsonWriter& w) {
  w.BeginArray();
  for (const PartitionFieldDef& f : fields) {
    w.BeginObject();
    w.Field("source_field_id", static_cast<int64_t>(f.source_field_id));
    w.Field("transform", std::string_view(f.transform));
    if (f.transform_param) w.Field("transform_param", static_cast<int64_t>(*f.transform_param));
    w.EndObject();
  }
  w.EndArray();
}

void WriteSortFields(const std::vector<SortFieldDef>& fields, JsonWriter& w) {
  w.BeginArray();
  for (const SortFieldDef& f : fields) {
    w.BeginObject();
    w.Field("source_field_id", static_cast<int64_t>(f.source_field_id));
    w.Field("direction", std::string_view(f.direction));
    w.Field("null_order", std::string_view(f.null_order));
    w.EndObject();
  }
  w.EndArray();
}

Error ReservedPrefixError(const std::vector<std::string>& paths) {
  std::string list = "[";
  for (size_t i = 0; i < paths.size(); ++i) {
    if (i != 0) list += ", ";
    list += "'" + paths[i] + "'";
  }
  list += "]";
  return Validation("column name(s) ", list,
                    " use the reserved prefix '_hog': names starting with it belong to hoglake's "
                    "own physical columns (compaction's _hog_row_id); rename them");
}

Status CheckColumnDefs(const std::vector<ColumnDef>& columns) {
  std::vector<std::string> reserved;
  for (const ColumnDef& column : columns) CollectReserved(column, column.name, &reserved);
  if (!reserved.empty()) return ReservedPrefixError(reserved);
  for (const ColumnDef& column : columns) HOGLAKE_RETURN_IF_ERROR(CheckShape(column, column.name));
  return Status::Ok();
}

void WriteFileRegistration(const FileRegistrationWire& file, JsonWriter& w) {
  w.BeginObject();
  w.Key("path");
  w.String(file.path);
  w.Key("record_count");
  w.Int(file.record_count);
  w.Key("file_size_bytes");
  w.Int(file.file_size_bytes);
  w.Key("footer_size");
  w.Int(file.footer_size);
  if (file.column_stats != nullptr) {
    w.Key("column_stats");
    parquet::AppendColumnStatsJson(*file.column_stats, &w);
  }
  if (file.partition_values != nullptr && file.partition_values->has_value()) {
    w.Key("partition_values");
    w.BeginArray();
    for (const std::optional<std::string>& value : **file.partition_values) {
      if (value) {
        w.String(*value);
      } else {
        w.Null();
      }
    }
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace hoglake::client::wire
