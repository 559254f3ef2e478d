#include "memory_lake.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "columnar/builder.h"
#include "iceberg/arrow_mapping.h"
#include "parquet/footer_stats.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "sql/function/cast.h"
#include "sql/function/nested_input.h"
#include "sql/sql_error.h"
#include "sql/types/value.h"

namespace hoglake::sql::testing {
namespace {

void Check(const Status& s) {
  if (!s.ok()) throw std::runtime_error(s.ToString());
}
template <typename T>
T Take(Result<T> r) {
  if (!r.ok()) throw std::runtime_error(r.error().ToString());
  return std::move(*r);
}

// The catalog's column tree for an Arrow field: containers get their
// children (list "element", map "key"/"value", struct members), each with a
// field id from `next_id` (a parent's below its descendants').
Result<catalog::ColumnNode> ColumnNodeOf(const columnar::Field& field, int32_t* next_id) {
  catalog::ColumnNode node;
  node.name = field.name;
  node.nullable = field.nullable;
  HOGLAKE_ASSIGN_OR_RETURN(node.type, iceberg::ColumnTypeFromArrow(field));
  const columnar::DataType& type = *field.type;
  std::vector<columnar::Field> members;
  if (type.id == columnar::TypeId::kList) {
    members.push_back(type.list_element());
    members.back().name = "element";
  } else if (type.id == columnar::TypeId::kStruct) {
    members = type.children;
  } else if (type.id == columnar::TypeId::kMap) {
    members = {type.map_key(), type.map_value()};
    members[0].name = "key";
    members[1].name = "value";
  }
  for (size_t i = 0; i < members.size(); ++i) {
    members[i].metadata.clear();
    HOGLAKE_ASSIGN_OR_RETURN(catalog::ColumnNode child, ColumnNodeOf(members[i], next_id));
    child.field_id = (*next_id)++;
    child.ordinal = static_cast<int32_t>(i);
    node.children.push_back(std::move(child));
  }
  return node;
}

}  // namespace

MemoryLake::MemoryLake() {
  char tmpl[] = "/tmp/hoglake-sqltest-XXXXXX";
  char* made = mkdtemp(tmpl);
  if (made == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = made;
}

MemoryLake::~MemoryLake() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void MemoryLake::CreateTable(const std::string& name, std::vector<TestColumn> columns) {
  Table t;
  for (TestColumn& c : columns) {
    t.field_ids.push_back(t.next_field_id++);
    t.metadata.emplace_back();
    t.columns.push_back(std::move(c));
  }
  tables_[name] = std::move(t);
}

void MemoryLake::RegisterParquetTable(const std::string& name, const std::string& path) {
  std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  auto reader = Take(parquet::ParquetReader::OpenFile(absolute));
  Table t;
  for (const columnar::Field& field : reader->schema()->fields) {
    std::optional<int32_t> id = field.field_id();
    if (!id) throw std::runtime_error(absolute + ": column " + field.name + " has no field id");
    Take(iceberg::ColumnTypeFromArrow(field));  // refuses types the catalog cannot hold
    columnar::KeyValueMetadata metadata;
    for (const auto& [key, value] : field.metadata) {
      if (key != columnar::kFieldIdKey) metadata.emplace_back(key, value);
    }
    t.columns.push_back({field.name, field.type});
    t.field_ids.push_back(*id);
    t.metadata.push_back(std::move(metadata));
    t.next_field_id = std::max(t.next_field_id, *id + 1);
  }
  catalog::DataFileInfo file;
  file.data_file_id = ++file_counter_;
  file.path = "file://" + absolute;
  file.file_format = "parquet";
  file.record_count = reader->num_rows();
  file.file_size_bytes = reader->file_size();
  file.begin_snapshot = ++snapshot_;
  // The statistics a commit of this file would carry.
  std::vector<catalog::ColumnStatRow> stats;
  for (const parquet::ColumnStats& s : Take(parquet::ExtractColumnStats(reader->metadata()))) {
    catalog::ColumnStatRow row;
    row.field_id = s.field_id;
    row.value_count = s.value_count;
    row.null_count = s.null_count;
    row.nan_count = s.nan_count;
    row.lower_bound = s.lower_bound;
    row.upper_bound = s.upper_bound;
    stats.push_back(row);
  }
  file.column_stats = stats;
  t.files.push_back(file);
  tables_[name] = std::move(t);
}

void MemoryLake::RenameColumn(const std::string& table, const std::string& from,
                              const std::string& to) {
  for (TestColumn& c : tables_.at(table).columns) {
    if (c.name == from) c.name = to;
  }
}

void MemoryLake::PromoteColumn(const std::string& table, const std::string& name,
                               columnar::DataTypePtr type) {
  for (TestColumn& c : tables_.at(table).columns) {
    if (c.name == name) c.type = type;
  }
}

void MemoryLake::AddColumn(const std::string& table, TestColumn column) {
  Table& t = tables_.at(table);
  t.field_ids.push_back(t.next_field_id++);
  t.metadata.emplace_back();
  t.columns.push_back(std::move(column));
}

void MemoryLake::Append(const std::string& name, const std::vector<TestRow>& rows,
                        int64_t row_group_rows) {
  Table& t = tables_.at(name);
  auto schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::ArrayPtr> columns;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    columnar::Field field{t.columns[c].name, t.columns[c].type, true, {}};
    field = field.WithFieldId(t.field_ids[c]);
    schema->fields.push_back(field);
    SqlType type = Take(SqlTypeOfField(field));
    std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(field.type);
    for (const TestRow& row : rows) {
      const std::optional<std::string>& text = row.at(c);
      // Nested values are written in their text forms (ValueToString's).
      Value v = !text ? Value::Null(type)
                : type.is_nested()
                    ? Take(ParseNestedText(*text, type))
                    : Take(CastValue(Value::Text(*text, SqlTypeId::kUnknown), type));
      if (type.id == SqlTypeId::kNumeric && !v.is_null && v.type.scale != type.scale) {
        v = Take(CastValue(v, type));
      }
      v.type = type;
      Check(AppendValue(builder.get(), v));
    }
    columns.push_back(Take(builder->Finish()));
  }
  columnar::RecordBatch batch = Take(columnar::MakeRecordBatch(schema, columns));
  std::string path = dir_ + "/" + name + "-" + std::to_string(++file_counter_) + ".parquet";
  parquet::WriterOptions options;
  options.max_row_group_rows = row_group_rows;
  auto writer = Take(parquet::ParquetWriter::OpenFile(path, schema, options));
  Check(writer->WriteBatch(batch));
  parquet::WriteSummary summary = Take(writer->Close());
  catalog::DataFileInfo file;
  file.data_file_id = file_counter_;
  file.path = "file://" + path;
  file.file_format = "parquet";
  file.record_count = static_cast<int64_t>(rows.size());
  file.file_size_bytes = summary.file_size;
  file.begin_snapshot = ++snapshot_;
  std::vector<parquet::StatsColumn> stats_columns;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    auto type = iceberg::ColumnTypeFromArrow(schema->fields[c]);
    if (type.ok()) stats_columns.emplace_back(t.field_ids[c], *type);
  }
  std::vector<catalog::ColumnStatRow> stats;
  for (const parquet::ColumnStats& s : Take(parquet::ExtractColumnStats(summary.metadata,
                                                                         stats_columns))) {
    catalog::ColumnStatRow row;
    row.field_id = s.field_id;
    row.value_count = s.value_count;
    row.null_count = s.null_count;
    row.nan_count = s.nan_count;
    row.lower_bound = s.lower_bound;
    row.upper_bound = s.upper_bound;
    stats.push_back(row);
  }
  file.column_stats = stats;
  t.files.push_back(file);
}

void MemoryLake::SetPartitionSpec(const std::string& table,
                                  std::vector<catalog::PartitionFieldInfo> fields) {
  Table& t = tables_.at(table);
  t.specs.push_back(
      catalog::PartitionSpecInfo{static_cast<int64_t>(t.specs.size()) + 1, std::move(fields)});
}

void MemoryLake::AppendPartitioned(const std::string& name, const std::vector<TestRow>& rows,
                                   std::vector<std::optional<std::string>> partition_values,
                                   bool column_stats) {
  Append(name, rows);
  Table& t = tables_.at(name);
  if (t.specs.empty()) throw std::runtime_error("table " + name + " has no partition spec");
  catalog::DataFileInfo& file = t.files.back();
  file.spec_id = t.specs.back().spec_id;
  file.partition_values = std::move(partition_values);
  if (!column_stats) file.column_stats.reset();
}

int32_t MemoryLake::FieldId(const std::string& table, const std::string& column) const {
  const Table& t = tables_.at(table);
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == column) return t.field_ids[c];
  }
  throw std::runtime_error("table " + table + " has no column " + column);
}

SessionOptions MemoryLake::MakeSessionOptions() {
  SessionOptions options;
  options.tables = this;
  options.default_catalog = "lake";
  options.default_schema = "public";
  options.threads = 1;
  return options;
}

Result<std::vector<std::string>> MemoryLake::ListCatalogNames() {
  return std::vector<std::string>{"lake"};
}

Result<std::vector<std::string>> MemoryLake::ListNamespaceNames(const std::string& catalog) {
  if (catalog != "lake") return NotFound("catalog ", catalog, " not found");
  return std::vector<std::string>{"public"};
}

Result<std::vector<std::string>> MemoryLake::ListTableNames(const std::string& catalog,
                                                            const std::string& namespace_name) {
  if (catalog != "lake" || namespace_name != "public") return NotFound("namespace not found");
  std::vector<std::string> names;
  for (const auto& [name, t] : tables_) names.push_back(name);
  return names;
}

Result<catalog::ResolvedTable> MemoryLake::Resolve(const std::string& catalog,
                                                   const std::string& namespace_name,
                                                   const std::string& table,
                                                   const catalog::SnapshotSelector& at) {
  if (catalog != "lake") return NotFound("catalog ", catalog, " not found");
  if (namespace_name != "public") return NotFound("namespace ", namespace_name, " not found");
  auto it = tables_.find(table);
  if (it == tables_.end()) return NotFound("table ", table, " not found");
  catalog::ResolvedTable out;
  out.catalog = catalog;
  out.namespace_name = namespace_name;
  out.name = table;
  out.snapshot_id = at.snapshot ? *at.snapshot : snapshot_;
  out.info.name = table;
  out.info.namespace_name = namespace_name;
  for (size_t c = 0; c < it->second.columns.size(); ++c) {
    // Nested members get ids apart from the top-level ones (handed out from
    // 1): 1000000·(column + 1) upwards.
    int32_t member_id = 1000000 * (static_cast<int32_t>(c) + 1);
    HOGLAKE_ASSIGN_OR_RETURN(
        catalog::ColumnNode node,
        ColumnNodeOf(columnar::Field{it->second.columns[c].name, it->second.columns[c].type, true,
                                     it->second.metadata[c]},
                     &member_id));
    node.field_id = it->second.field_ids[c];
    node.ordinal = static_cast<int32_t>(c);
    out.info.columns.push_back(node);
  }
  out.info.read_snapshot_id = out.snapshot_id;
  // The current spec only: older ones come from PartitionSpecs, as from the
  // catalog.
  if (!it->second.specs.empty()) out.info.partition_spec = it->second.specs.back();
  return out;
}

Result<std::vector<catalog::DataFileInfo>> MemoryLake::LiveFiles(
    const catalog::ResolvedTable& table) {
  std::vector<catalog::DataFileInfo> files;
  for (const catalog::DataFileInfo& f : tables_.at(table.name).files) {
    if (f.begin_snapshot <= table.snapshot_id) files.push_back(f);
  }
  return files;
}

Result<std::vector<catalog::PartitionSpecInfo>> MemoryLake::PartitionSpecs(
    const catalog::ResolvedTable& table) {
  ++partition_spec_lookups_;
  return tables_.at(table.name).specs;
}

std::vector<std::string> RunRows(Session& session, const std::string& sql) {
  auto result = session.Execute(sql);
  if (!result.ok()) {
    return {"ERROR " + result.error().detail.sqlstate + ": " + result.error().message};
  }
  std::vector<std::string> rows;
  for (const columnar::RecordBatch& batch : result->batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::string line;
      for (size_t c = 0; c < result->columns.size(); ++c) {
        if (c > 0) line += "|";
        line += ValueToString(ValueAt(*batch.columns[c], r, result->columns[c].type));
      }
      rows.push_back(line);
    }
  }
  return rows;
}

std::string JoinLines(const std::vector<std::string>& rows) {
  std::string out;
  for (const std::string& r : rows) out += r + "\n";
  return out;
}

std::string RunValue(Session& session, const std::string& sql) {
  std::vector<std::string> rows = RunRows(session, sql);
  if (rows.empty()) return "(no rows)";
  return rows[0];
}

}  // namespace hoglake::sql::testing
