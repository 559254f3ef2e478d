#include "query/table_loader.h"

#include <sstream>

#include "catalog/model/identifiers.h"
#include "columnar/builder.h"
#include "columnar/text/text_import.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "iceberg/arrow_mapping.h"
#include "parquet/footer_stats.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "query/load_columns.h"
#include "storage/object_store.h"

namespace hoglake::query {

struct TableLoader::Source {
  std::shared_ptr<const std::string> bytes;
  std::optional<std::string> content_type;
  std::optional<std::string> upload_id;  // claimed: release on failure
};

namespace {

using columnar::RecordBatch;
using columnar::SchemaPtr;

Error Conflict(std::string message) {
  return MakeError(ErrorCode::kCommitConflict, std::move(message));
}

struct Rows {
  SchemaPtr schema;  // lower-cased names
  std::vector<RecordBatch> batches;
  int64_t count = 0;
};

bool Contains(const std::optional<std::string>& text, std::string_view word) {
  return text && LowerIdentifier(*text).find(word) != std::string::npos;
}

LoadFormat DetectFormat(const std::string& bytes, const std::optional<std::string>& content_type,
                        LoadFormat asked) {
  if (asked != LoadFormat::kAuto) return asked;
  if (bytes.size() >= 4 && bytes.compare(0, 4, "PAR1") == 0) return LoadFormat::kParquet;
  if (Contains(content_type, "parquet")) return LoadFormat::kParquet;
  if (Contains(content_type, "json")) return LoadFormat::kJsonLines;
  return LoadFormat::kCsv;
}

// The batches' schema with lower-cased top-level names.
SchemaPtr Lowered(const SchemaPtr& schema) {
  auto out = std::make_shared<columnar::Schema>(*schema);
  for (columnar::Field& f : out->fields) f.name = LowerIdentifier(f.name);
  return out;
}

// What a CSV with the `inferred` header columns is read as into an existing
// table (`table`, its writer schema): a header column the table has takes
// the table's type, a new one its inferred type (PlanTableChanges adds it),
// and table columns the header lacks are read as NULL.
SchemaPtr CsvTarget(const columnar::Schema& inferred, const columnar::Schema& table) {
  auto target = std::make_shared<columnar::Schema>();
  std::vector<bool> named(table.fields.size(), false);
  for (const columnar::Field& f : inferred.fields) {
    const int index = table.FieldIndex(LowerIdentifier(f.name));
    if (index < 0) {
      target->fields.push_back(f);
      continue;
    }
    named[static_cast<size_t>(index)] = true;
    columnar::Field typed = table.fields[static_cast<size_t>(index)];
    typed.name = f.name;
    target->fields.push_back(std::move(typed));
  }
  for (size_t i = 0; i < table.fields.size(); ++i) {
    if (!named[i]) target->fields.push_back(table.fields[i]);
  }
  return target;
}

// The rows of `source`; `table` is the existing table's writer schema (null
// when the load creates the table).
Result<Rows> Decode(const std::shared_ptr<const std::string>& bytes,
                    const std::optional<std::string>& content_type, LoadFormat asked,
                    const SchemaPtr& table) {
  Rows rows;
  const LoadFormat format = DetectFormat(*bytes, content_type, asked);
  if (format == LoadFormat::kParquet) {
    auto reader = parquet::ParquetReader::OpenBuffer(bytes);
    if (!reader.ok()) {
      return MakeError(ErrorCode::kBadRequest,
                       "the data is not readable Parquet: " + reader.error().message);
    }
    rows.schema = Lowered((*reader)->schema());
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, (*reader)->Next());
      if (!batch) break;
      batch->schema = rows.schema;
      rows.count += batch->num_rows;
      rows.batches.push_back(std::move(*batch));
    }
    return rows;
  }
  std::istringstream in(*bytes);
  SchemaPtr target = table;
  if (!target && format == LoadFormat::kJsonLines) {
    return MakeError(
        ErrorCode::kBadRequest,
        "a JSON-lines load needs an existing table (its columns); load Parquet or CSV "
        "to create one");
  }
  if (format == LoadFormat::kCsv) {
    HOGLAKE_ASSIGN_OR_RETURN(SchemaPtr inferred, columnar::text::InferCsvSchema(&in));
    in.clear();
    in.seekg(0);
    target = table ? CsvTarget(*inferred, *table) : inferred;
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<columnar::text::TextBatchReader> reader,
                           columnar::text::TextBatchReader::Open(
                               &in,
                               format == LoadFormat::kCsv ? columnar::text::TextFormat::kCsv
                                                          : columnar::text::TextFormat::kJsonLines,
                               target));
  rows.schema = Lowered(target);
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) break;
    batch->schema = rows.schema;
    rows.count += batch->num_rows;
    rows.batches.push_back(std::move(*batch));
  }
  return rows;
}

// Table columns for the data's (scalar) fields.
Result<std::vector<catalog::ColumnNode>> ColumnsFor(const columnar::Schema& schema) {
  std::vector<catalog::ColumnNode> columns;
  for (const columnar::Field& f : schema.fields) {
    if (f.type->is_nested()) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("column '", f.name, "' is ", f.type->ToString(),
                              ": loads write scalar columns only"));
    }
    Result<iceberg::TypeSpec> type = iceberg::ColumnTypeFromArrow(f);
    if (!type.ok()) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("column '", f.name, "': ", type.error().message));
    }
    catalog::ColumnNode column;
    column.name = f.name;
    column.type = *type;
    column.nullable = true;
    columns.push_back(std::move(column));
  }
  return columns;
}

// The table's writer schema: one field per column with its field id.
Result<SchemaPtr> WriterSchemaOf(const catalog::TableInfo& table) {
  auto schema = std::make_shared<columnar::Schema>();
  for (const catalog::ColumnNode& c : table.columns) {
    if (!c.children.empty() || c.type.type == iceberg::ColumnType::kVariant) {
      return MakeError(
          ErrorCode::kBadRequest,
          StrCat("table column '", c.name, "' is nested: loads write scalar columns only"));
    }
    HOGLAKE_ASSIGN_OR_RETURN(columnar::Field field,
                             iceberg::WriterArrowField(c.name, c.type, c.nullable));
    schema->fields.push_back(field.WithFieldId(c.field_id));
  }
  return SchemaPtr(schema);
}

bool SameLayout(const columnar::DataType& a, const columnar::DataType& b) {
  return a.id == b.id && a.precision == b.precision && a.scale == b.scale &&
         a.byte_width == b.byte_width && a.unit == b.unit;
}

// `rows` NULLs of `type`.
Result<columnar::ArrayPtr> Nulls(const columnar::DataTypePtr& type, int64_t rows) {
  std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(type);
  for (int64_t i = 0; i < rows; ++i) builder->AppendNull();
  return builder->Finish();
}

// The data's batches in the writer schema's column order, each column
// widened to the table's type where it is narrower, a nullable table
// column the data lacks as NULLs (PlanTableChanges has made the table
// accept every column).
Result<std::vector<RecordBatch>> Align(const Rows& rows, const catalog::TableInfo& table,
                                       const SchemaPtr& writer) {
  std::vector<int> source_index;  // -1: NULLs
  std::vector<bool> widen;
  for (const columnar::Field& target : writer->fields) {
    const int index = rows.schema->FieldIndex(target.name);
    if (index < 0 && !target.nullable) {
      return Conflict(StrCat("the data lacks column '", target.name, "' of table '",
                             table.namespace_name, ".", table.name, "'"));
    }
    source_index.push_back(index);
    widen.push_back(index >= 0 && !SameLayout(*rows.schema->fields[static_cast<size_t>(index)].type,
                                              *target.type));
  }
  std::vector<RecordBatch> out;
  for (const RecordBatch& batch : rows.batches) {
    RecordBatch aligned;
    aligned.schema = writer;
    aligned.num_rows = batch.num_rows;
    for (size_t i = 0; i < source_index.size(); ++i) {
      if (source_index[i] < 0) {
        HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr nulls,
                                 Nulls(writer->fields[i].type, batch.num_rows));
        aligned.columns.push_back(std::move(nulls));
        continue;
      }
      const columnar::ArrayPtr& column = batch.columns[static_cast<size_t>(source_index[i])];
      if (!widen[i]) {
        aligned.columns.push_back(column);
        continue;
      }
      Result<columnar::ArrayPtr> widened = WidenArray(column, writer->fields[i].type);
      if (!widened.ok()) {
        return Conflict(StrCat("column '", writer->fields[i].name, "': ",
                               widened.error().message));
      }
      aligned.columns.push_back(std::move(*widened));
    }
    out.push_back(std::move(aligned));
  }
  return out;
}

Status RefusePartitioned(const catalog::TableInfo& table) {
  if (!table.partition_spec || table.partition_spec->fields.empty()) return Status::Ok();
  return MakeError(ErrorCode::kBadRequest,
                   StrCat("table '", table.namespace_name, ".", table.name,
                          "' is partitioned: loads write unpartitioned tables only"));
}

std::string ArrowSchemaJson(const columnar::Schema& schema) {
  JsonWriter w;
  w.BeginObject();
  w.Key("fields");
  w.BeginArray();
  for (const columnar::Field& f : schema.fields) {
    w.BeginObject();
    w.Field("name", f.name);
    w.Field("type", f.type->ToString());
    w.Key("nullable");
    w.Bool(f.nullable);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

}  // namespace

Result<TableLoader::Source> TableLoader::ReadSource(const LoadRequest& request) {
  const int sources =
      request.upload_id.has_value() + request.result_id.has_value() + request.data.has_value();
  if (sources != 1) {
    return MakeError(ErrorCode::kBadRequest,
                     "a load needs exactly one of upload_id, result_id, data");
  }
  Source source;
  if (request.data) {
    if (request.format != LoadFormat::kAuto && request.format != LoadFormat::kCsv) {
      return MakeError(ErrorCode::kBadRequest, "inline data is CSV");
    }
    source.bytes = std::make_shared<const std::string>(*request.data);
    source.content_type = "text/csv";
    return source;
  }
  if (request.result_id) {
    if (request.format != LoadFormat::kAuto) {
      return MakeError(ErrorCode::kBadRequest, "format does not apply to a result_id load");
    }
    HOGLAKE_ASSIGN_OR_RETURN(ResultRecord result, runs_->GetResult(*request.result_id));
    if (result.state != ResultState::kReady) {
      return Conflict(StrCat("result '", *request.result_id, "' is not ready"));
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, results_->ReadBytes(result.path));
    source.bytes = std::make_shared<const std::string>(std::move(bytes));
    source.content_type = "application/parquet";
    return source;
  }
  HOGLAKE_ASSIGN_OR_RETURN(UploadRecord upload, uploads_->Claim(*request.upload_id));
  source.upload_id = upload.upload_id;
  Result<std::string> bytes = uploads_->ReadBytes(upload.upload_id);
  if (!bytes.ok()) {
    (void)uploads_->Release(upload.upload_id);
    return bytes.error();
  }
  source.bytes = std::make_shared<const std::string>(std::move(*bytes));
  source.content_type = upload.content_type;
  return source;
}

Result<LoadResult> TableLoader::Load(const LoadRequest& request) {
  HOGLAKE_ASSIGN_OR_RETURN(ManagedDatabase db, managed_->Managed(request.connection_id));
  const std::string ns = LowerIdentifier(request.schema);
  const std::string name = LowerIdentifier(request.table);
  HOGLAKE_RETURN_IF_ERROR(catalog::ValidateIdentifier("schema", ns));
  HOGLAKE_RETURN_IF_ERROR(catalog::ValidateIdentifier("table", name));
  catalog::CatalogService& catalogs = managed_->catalogs();
  const catalog::TableRef ref{db.catalog, ns, name};
  HOGLAKE_ASSIGN_OR_RETURN(Source source, ReadSource(request));

  // Everything below undoes itself on failure.
  bool created = false;
  std::optional<std::string> written_path;
  std::unique_ptr<ObjectStore> store;
  auto undo = [&](const Error& error) -> Error {
    if (written_path && store) (void)store->Delete(*written_path);
    if (created) (void)catalogs.DropTable(ref, std::nullopt);
    if (source.upload_id) (void)uploads_->Release(*source.upload_id);
    return error;
  };
  auto run = [&]() -> Result<LoadResult> {
    Result<catalog::TableInfo> existing = catalogs.GetTable(ref, {}, false);
    if (!existing.ok() && existing.error().code != ErrorCode::kNotFound) return existing.error();
    SchemaPtr table_schema;
    if (existing.ok()) {
      HOGLAKE_ASSIGN_OR_RETURN(table_schema, WriterSchemaOf(*existing));
    }
    HOGLAKE_ASSIGN_OR_RETURN(
        Rows rows, Decode(source.bytes, source.content_type, request.format, table_schema));
    catalog::TableInfo table;
    if (existing.ok()) {
      table = std::move(*existing);
      HOGLAKE_RETURN_IF_ERROR(RefusePartitioned(table));
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::AlterOp> ops,
                               PlanTableChanges(table, *rows.schema));
      if (!ops.empty()) {  // its own snapshot, before the load's
        catalog::AlterTableRequest alter;
        alter.ops = std::move(ops);
        alter.expected_table_uuid = table.table_uuid;
        HOGLAKE_ASSIGN_OR_RETURN(table, catalogs.AlterTable(ref, std::move(alter)));
        HOGLAKE_ASSIGN_OR_RETURN(table_schema, WriterSchemaOf(table));
      }
    } else {
      Result<catalog::NamespaceInfo> made = catalogs.CreateNamespace(db.catalog, ns);
      if (!made.ok() && made.error().code != ErrorCode::kAlreadyExists) return made.error();
      catalog::CreateTableRequest create;
      create.name = name;
      HOGLAKE_ASSIGN_OR_RETURN(create.columns, ColumnsFor(*rows.schema));
      HOGLAKE_ASSIGN_OR_RETURN(table, catalogs.CreateTable(db.catalog, ns, std::move(create)));
      created = true;
      HOGLAKE_ASSIGN_OR_RETURN(table_schema, WriterSchemaOf(table));
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<RecordBatch> aligned, Align(rows, table, table_schema));

    std::vector<catalog::FileRegistration> files;
    if (rows.count > 0) {
      std::string bytes;
      HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<parquet::ParquetWriter> writer,
                               parquet::ParquetWriter::OpenBuffer(&bytes, table_schema));
      for (const RecordBatch& batch : aligned) HOGLAKE_RETURN_IF_ERROR(writer->WriteBatch(batch));
      HOGLAKE_ASSIGN_OR_RETURN(parquet::WriteSummary summary, writer->Close());
      std::vector<parquet::StatsColumn> leaves;
      for (const catalog::ColumnNode& c : table.columns) leaves.emplace_back(c.field_id, c.type);
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<parquet::ColumnStats> stats,
                               parquet::ExtractColumnStats(summary.metadata, leaves));
      HOGLAKE_ASSIGN_OR_RETURN(catalog::CatalogInfo info, catalogs.GetCatalog(db.catalog));
      std::string root = info.data_path;
      if (root.empty() || root.back() != '/') root += '/';
      HOGLAKE_ASSIGN_OR_RETURN(store, OpenObjectStore(root.substr(0, root.size() - 1), s3_));
      const std::string path = StrCat(root, "data/", ns, "/", name, "/", NewUuid(), ".parquet");
      HOGLAKE_RETURN_IF_ERROR(store->Put(path, bytes));
      written_path = path;
      catalog::FileRegistration file;
      file.path = path;
      file.record_count = rows.count;
      file.file_size_bytes = summary.file_size;
      file.footer_size = summary.footer_size;
      file.column_stats.emplace();
      for (const parquet::ColumnStats& s : stats) {
        file.column_stats->push_back(
            catalog::ColumnStatsInput{s.field_id, s.value_count, s.null_count, s.nan_count,
                                      s.size_bytes, s.lower_bound, s.upper_bound});
      }
      files.push_back(std::move(file));
    }
    if (request.mode == LoadMode::kReplace) {
      catalog::ReplaceOptions options;
      options.expected_table_uuid = table.table_uuid;
      options.message = "hotdata load (replace)";
      HOGLAKE_RETURN_IF_ERROR(catalogs.ReplaceTableData(ref, std::move(files), options).status());
    } else if (!files.empty()) {
      catalog::CommitRequest commit;
      commit.message = "hotdata load (append)";
      commit.appends.push_back(catalog::TableAppend{ns, name, std::move(files), table.table_uuid});
      HOGLAKE_RETURN_IF_ERROR(
          catalogs.Commit(db.catalog, std::move(commit), catalog::CommitEndpoint::kPlain).status());
    }
    HOGLAKE_ASSIGN_OR_RETURN(catalog::TableInfo after, catalogs.GetTable(ref, {}, true));
    LoadResult result;
    result.connection_id = request.connection_id;
    result.schema_name = ns;
    result.table_name = name;
    result.row_count = after.totals ? after.totals->record_count : rows.count;
    result.arrow_schema_json = ArrowSchemaJson(*table_schema);
    return result;
  };
  Result<LoadResult> result = run();
  if (!result.ok()) return undo(result.error());
  if (source.upload_id) (void)uploads_->Consume(*source.upload_id);
  return result;
}

}  // namespace hoglake::query
