#include "query/load/table_loader.h"

#include "catalog/model/identifiers.h"
#include "columnar/builder.h"
#include "common/json_writer.h"
#include "iceberg/arrow_mapping.h"
#include "query/load/load_columns.h"
#include "storage/object_store.h"

namespace hoglake::query {

struct TableLoader::Source {
  LoadSourceBytes bytes;
  std::optional<std::string> upload_id;  // claimed: release on failure
};

namespace {

using columnar::RecordBatch;
using columnar::SchemaPtr;

Error Conflict(std::string message) {
  return MakeError(ErrorCode::kCommitConflict, std::move(message));
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

// Puts the data's batches in the writer schema's column order, each column
// widened to the table's type where it is narrower, a nullable table
// column the data lacks as NULLs (PlanTableChanges has made the table
// accept every column).
class Aligner {
 public:
  static Result<Aligner> Make(const columnar::Schema& data, const catalog::TableInfo& table,
                              const SchemaPtr& writer) {
    Aligner aligner;
    aligner.writer_ = writer;
    for (const columnar::Field& target : writer->fields) {
      const int index = data.FieldIndex(target.name);
      if (index < 0 && !target.nullable) {
        return Conflict(StrCat("the data lacks column '", target.name, "' of table '",
                               table.namespace_name, ".", table.name, "'"));
      }
      aligner.source_index_.push_back(index);
      aligner.widen_.push_back(
          index >= 0 && !SameLayout(*data.fields[static_cast<size_t>(index)].type, *target.type));
    }
    return aligner;
  }

  Result<RecordBatch> Align(const RecordBatch& batch) const {
    RecordBatch aligned;
    aligned.schema = writer_;
    aligned.num_rows = batch.num_rows;
    for (size_t i = 0; i < source_index_.size(); ++i) {
      if (source_index_[i] < 0) {
        HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr nulls,
                                 Nulls(writer_->fields[i].type, batch.num_rows));
        aligned.columns.push_back(std::move(nulls));
        continue;
      }
      const columnar::ArrayPtr& column = batch.columns[static_cast<size_t>(source_index_[i])];
      if (!widen_[i]) {
        aligned.columns.push_back(column);
        continue;
      }
      Result<columnar::ArrayPtr> widened = WidenArray(column, writer_->fields[i].type);
      if (!widened.ok()) {
        return Conflict(
            StrCat("column '", writer_->fields[i].name, "': ", widened.error().message));
      }
      aligned.columns.push_back(std::move(*widened));
    }
    return aligned;
  }

 private:
  SchemaPtr writer_;
  std::vector<int> source_index_;  // -1: NULLs
  std::vector<bool> widen_;
};

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

Result<TableLoader::Source> TableLoader::OpenSource(const LoadRequest& request) {
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
    source.bytes.bytes =
        MemorySource(std::make_shared<const std::string>(*request.data), "inline data");
    source.bytes.content_type = "text/csv";
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
    HOGLAKE_ASSIGN_OR_RETURN(source.bytes.bytes, results_->OpenBytes(result.path));
    source.bytes.content_type = "application/parquet";
    return source;
  }
  HOGLAKE_ASSIGN_OR_RETURN(UploadRecord upload, uploads_->Claim(*request.upload_id));
  Result<std::shared_ptr<RandomAccessSource>> bytes = uploads_->OpenBytes(upload.upload_id);
  if (!bytes.ok()) {
    (void)uploads_->Release(upload.upload_id);
    return bytes.error();
  }
  source.upload_id = upload.upload_id;
  source.bytes.bytes = std::move(*bytes);
  source.bytes.content_type = upload.content_type;
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
  HOGLAKE_ASSIGN_OR_RETURN(Source source, OpenSource(request));

  // Everything below undoes itself on failure.
  bool created = false;
  std::unique_ptr<ObjectStore> store;
  std::unique_ptr<LoadFiles> files;
  auto undo = [&](const Error& error) -> Error {
    if (files) files->Abandon();
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
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<LoadRows> rows,
                             LoadRows::Open(source.bytes, request.format, table_schema));
    catalog::TableInfo table;
    if (existing.ok()) {
      table = std::move(*existing);
      HOGLAKE_RETURN_IF_ERROR(RefusePartitioned(table));
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::AlterOp> ops,
                               PlanTableChanges(table, *rows->schema()));
      if (!ops.empty()) {
        // The alter is a snapshot of its own, before the load's: read every
        // row once first so that a bad one fails the load before it.
        while (true) {
          HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, rows->Next());
          if (!batch) break;
        }
        HOGLAKE_ASSIGN_OR_RETURN(rows, LoadRows::Open(source.bytes, request.format, table_schema));
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
      HOGLAKE_ASSIGN_OR_RETURN(create.columns, ColumnsFor(*rows->schema()));
      HOGLAKE_ASSIGN_OR_RETURN(table, catalogs.CreateTable(db.catalog, ns, std::move(create)));
      created = true;
      HOGLAKE_ASSIGN_OR_RETURN(table_schema, WriterSchemaOf(table));
    }
    HOGLAKE_ASSIGN_OR_RETURN(Aligner aligner, Aligner::Make(*rows->schema(), table, table_schema));

    HOGLAKE_ASSIGN_OR_RETURN(catalog::CatalogInfo info, catalogs.GetCatalog(db.catalog));
    std::string root = info.data_path;
    if (root.empty() || root.back() != '/') root += '/';
    HOGLAKE_ASSIGN_OR_RETURN(store, OpenObjectStore(root.substr(0, root.size() - 1), s3_));
    files = std::make_unique<LoadFiles>(store.get(), StrCat(root, "data/", ns, "/", name, "/"),
                                        table, table_schema, files_);
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, rows->Next());
      if (!batch) break;
      HOGLAKE_ASSIGN_OR_RETURN(RecordBatch aligned, aligner.Align(*batch));
      HOGLAKE_RETURN_IF_ERROR(files->Write(aligned));
    }
    const int64_t loaded = files->rows();
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::FileRegistration> written, files->Finish());
    if (request.mode == LoadMode::kReplace) {
      catalog::ReplaceOptions options;
      options.expected_table_uuid = table.table_uuid;
      options.message = "hotdata load (replace)";
      HOGLAKE_RETURN_IF_ERROR(catalogs.ReplaceTableData(ref, std::move(written), options).status());
    } else if (!written.empty()) {
      catalog::CommitRequest commit;
      commit.message = "hotdata load (append)";
      commit.appends.push_back(
          catalog::TableAppend{ns, name, std::move(written), table.table_uuid});
      HOGLAKE_RETURN_IF_ERROR(
          catalogs.Commit(db.catalog, std::move(commit), catalog::CommitEndpoint::kPlain).status());
    }
    files.reset();  // committed: the files are the table's now
    HOGLAKE_ASSIGN_OR_RETURN(catalog::TableInfo after, catalogs.GetTable(ref, {}, true));
    LoadResult result;
    result.connection_id = request.connection_id;
    result.schema_name = ns;
    result.table_name = name;
    result.row_count = after.totals ? after.totals->record_count : loaded;
    result.arrow_schema_json = ArrowSchemaJson(*table_schema);
    return result;
  };
  Result<LoadResult> result = run();
  if (!result.ok()) return undo(result.error());
  if (source.upload_id) (void)uploads_->Consume(*source.upload_id);
  return result;
}

}  // namespace hoglake::query
