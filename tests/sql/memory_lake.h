// MemoryLake: a catalog::LakeTables over tables kept in memory whose data
// files are real Parquet files in a temporary directory — so the engine's
// binder, planner and scans are tested without PostgreSQL.
//
//   MemoryLake lake;
//   lake.CreateTable("t", {Int64Column("id"), TextColumn("name")});
//   lake.Append("t", {{"1", "a"}, {"2", std::nullopt}});   // one file per call
//   sql::Session session(lake.SessionOptions());
//
// An existing Parquet file (written elsewhere, with field ids) can be served
// as a table too: lake.RegisterParquetTable("lineitem", "/data/lineitem.parquet").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "columnar/type.h"
#include "sql/engine.h"

namespace hoglake::sql::testing {

// A column of a test table: name, Arrow type (field ids are assigned in order).
struct TestColumn {
  std::string name;
  columnar::DataTypePtr type;
};

using TestRow = std::vector<std::optional<std::string>>;  // values as text; nullopt = NULL

class MemoryLake : public catalog::LakeTables {
 public:
  MemoryLake();
  ~MemoryLake() override;

  // Creates catalog "lake", namespace "public" table `name`.
  void CreateTable(const std::string& name, std::vector<TestColumn> columns);
  // Writes `rows` as one more Parquet file of the table (values parsed from
  // text by the column's type; list/struct/map columns in their text forms,
  // "{1,NULL,3}", "(1,\"a b\")", "{k=v}", see function/nested_input.h) and
  // registers it as a new snapshot.
  // Each file carries its column statistics (from its footer), as a
  // catalog file row does; row groups hold `row_group_rows` rows.
  void Append(const std::string& name, const std::vector<TestRow>& rows,
              int64_t row_group_rows = 1000);
  // Partitions the table from now on by `fields` (a new spec, ids 1, 2, …;
  // older specs stay known, as the catalog keeps them for older files).
  void SetPartitionSpec(const std::string& table, std::vector<catalog::PartitionFieldInfo> fields);
  // As Append, the file carrying `partition_values` (one per field of the
  // current spec) under the current spec; with `column_stats` false the
  // file has no column statistics, so only its partition values can prune.
  void AppendPartitioned(const std::string& name, const std::vector<TestRow>& rows,
                         std::vector<std::optional<std::string>> partition_values,
                         bool column_stats = false);
  // The field id of a top-level column.
  int32_t FieldId(const std::string& table, const std::string& column) const;
  // Renames a column (field id kept), or adds one (a new field id).
  void RenameColumn(const std::string& table, const std::string& from, const std::string& to);
  void AddColumn(const std::string& table, TestColumn column);
  // Changes a column's type (a promotion such as int → long) for files
  // written from now on and for readers; older files keep theirs.
  void PromoteColumn(const std::string& table, const std::string& name,
                     columnar::DataTypePtr type);
  // Creates table `name` over the existing Parquet file at `path` (left in
  // place, never deleted): its columns are the file's top-level fields with
  // their field ids ("PARQUET:field_id"), their catalog types from
  // iceberg::ColumnTypeFromArrow. Throws when the file cannot be read, a
  // field has no field id, or a type has no catalog counterpart.
  void RegisterParquetTable(const std::string& name, const std::string& path);

  SessionOptions MakeSessionOptions();

  Result<std::vector<std::string>> ListCatalogNames() override;
  Result<std::vector<std::string>> ListNamespaceNames(const std::string& catalog) override;
  Result<std::vector<std::string>> ListTableNames(const std::string& catalog,
                                                  const std::string& namespace_name) override;
  Result<catalog::ResolvedTable> Resolve(const std::string& catalog,
                                         const std::string& namespace_name,
                                         const std::string& table,
                                         const catalog::SnapshotSelector& at) override;
  Result<std::vector<catalog::DataFileInfo>> LiveFiles(
      const catalog::ResolvedTable& table) override;

  // Every spec the table has had (Resolve carries only the current one).
  Result<std::vector<catalog::PartitionSpecInfo>> PartitionSpecs(
      const catalog::ResolvedTable& table) override;
  int partition_spec_lookups() const { return partition_spec_lookups_; }

  int64_t files_opened_hint() const { return 0; }

 private:
  struct Table {
    std::vector<TestColumn> columns;
    std::vector<int32_t> field_ids;
    std::vector<columnar::KeyValueMetadata> metadata;  // per column (extension names)
    int32_t next_field_id = 1;
    std::vector<catalog::DataFileInfo> files;  // begin_snapshot = the snapshot that added it
    std::vector<catalog::PartitionSpecInfo> specs;  // the last is current
  };
  std::string dir_;
  std::map<std::string, Table> tables_;
  int64_t snapshot_ = 0;
  int file_counter_ = 0;
  int partition_spec_lookups_ = 0;
};

// Runs `sql` and renders each row as "v1|v2|…" in PostgreSQL's text forms
// (NULL as "NULL"); on error returns "ERROR <sqlstate>: <message>".
std::vector<std::string> RunRows(Session& session, const std::string& sql);
// The rows as lines, each ending in "\n" (EXPLAIN output, for searching).
std::string JoinLines(const std::vector<std::string>& rows);
// The first row's first value, or the error line.
std::string RunValue(Session& session, const std::string& sql);

}  // namespace hoglake::sql::testing
