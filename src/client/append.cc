// Table::Append — the writer path (pyhoglake-writer §3, §7–§9, §11):
//
//   1. refuse reserved `_hog` names in the data (no request yet);
//   2. pre-flight GET …/tables/{t}?totals=false: the incarnation guard
//      (a different table_uuid → kTableRecreated, nothing uploaded) and the
//      current columns and partition spec; adopted only when the uuid matches;
//   3. per batch: align to the writer schema, compute each row's partition
//      tuple (per unique value, never per row), split rows by tuple and
//      stream each group into that tuple's Parquet file — one file per
//      tuple for the whole append, written straight to the object store
//      (memory ≈ one row group per open file);
//   4. close the files, take column stats from each footer just written;
//   5. one keyed commit registering every file (safe to retry: a replay
//      returns the stored receipt).
// Nothing is registered unless every step succeeds; a refused commit leaves
// its uploaded objects to the server's cleanup.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/request_wire.h"
#include "client/writer_schema.h"
#include "columnar/c_data.h"
#include "columnar/take.h"
#include "columnar/validate.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "iceberg/partition_keys.h"
#include "iceberg/transforms.h"
#include "parquet/footer_stats.h"
#include "parquet/writer.h"
#include "storage/object_store.h"

namespace hoglake::client {

using PartitionTuple = std::vector<std::optional<std::string>>;

// Bytes buffered per file before they go to the object store.
constexpr size_t kUploadChunkBytes = 8u << 20;

// One output file: a Parquet writer whose bytes stream to an object.
struct OutputFile {
  std::string path;
  std::optional<PartitionTuple> partition_values;
  std::string buffer;  // the writer appends here; drained to `object`
  std::unique_ptr<parquet::ParquetWriter> writer;
  std::unique_ptr<ObjectWriter> object;
  int64_t rows = 0;
  parquet::WriteSummary summary;

  Status Drain(bool force) {
    if (buffer.empty() || (!force && buffer.size() < kUploadChunkBytes)) return Status::Ok();
    HOGLAKE_RETURN_IF_ERROR(object->Append(buffer));
    buffer.clear();
    return Status::Ok();
  }
};

struct AppendPath {
  static Result<AppendResult> Run(Table& table, const Table::BatchSource& source,
                                  const AppendOptions& options) {
    // 1. The first batch is read (and its names checked) before any request.
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> first, source());
    if (first) HOGLAKE_RETURN_IF_ERROR(CheckReservedNames(*first->schema));
    auto next = [&]() -> Result<std::optional<columnar::RecordBatch>> {
      if (first) {
        std::optional<columnar::RecordBatch> batch = std::move(first);
        first.reset();
        return batch;
      }
      return source();
    };
    if (options.unguarded && options.expected_table_uuid) {
      return Validation("expected_table_uuid and unguarded are mutually exclusive");
    }
    const std::string qualified = table.qualified_name();

    // 2. Pre-flight read: identity, columns, spec.
    HttpCall call;
    call.path = table.Route();
    call.query = {{"totals", "false"}};
    HOGLAKE_ASSIGN_OR_RETURN(std::string body, table.context_->transport.Send(call));
    HOGLAKE_ASSIGN_OR_RETURN(TableInfo fresh, ParseTableInfo(body));
    std::optional<std::string> expected;
    if (!options.unguarded) {
      expected = options.expected_table_uuid ? *options.expected_table_uuid : table.table_uuid();
      if (fresh.table_uuid != *expected) {
        Error error = MakeError(ErrorCode::kTableRecreated, "table ", qualified,
                                " was recreated: expected table_uuid ", *expected, ", found ",
                                fresh.table_uuid, "; resolve the table again before appending");
        JsonWriter extra;
        extra.BeginArray();
        extra.String(qualified);
        extra.EndArray();
        error.wire_extra = StrCat("\"tables\":", extra.Take(), ",\"retry\":\"re-prepare\"");
        return error;
      }
    }
    if (auto format = fresh.properties.find("write.format.default");
        format != fresh.properties.end() && format->second != "parquet") {
      return Validation("append supports Parquet tables only; table format is '", format->second,
                        "'");
    }
    if (fresh.table_uuid == table.table_uuid()) {
      table.info_ = fresh;
      table.SeedWriterCache(fresh);  // a head read: prepared commits may reuse it
    }

    HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr writer_schema, WriterSchema(fresh.columns));
    HOGLAKE_ASSIGN_OR_RETURN(ObjectStore * store, table.context_->StoreFor(table.data_path_));

    // The spec's transforms, checked before anything is written.
    struct SpecField {
      int32_t source_field_id;
      iceberg::Transform transform;
    };
    std::vector<SpecField> spec;
    if (fresh.partitioned()) {
      for (const PartitionField& field : fresh.partition_spec->fields) {
        auto transform = iceberg::ParseTransform(
            field.transform,
            field.transform_param ? std::optional<int64_t>(*field.transform_param) : std::nullopt);
        if (!transform.ok()) {
          return Validation("table ", qualified, " has a partition field the writer cannot apply: ",
                            transform.error().message);
        }
        spec.push_back({field.source_field_id, *transform});
      }
    }

    parquet::WriterOptions writer_options;
    if (options.row_group_rows > 0) writer_options.max_row_group_rows = options.row_group_rows;
    std::string prefix = table.data_path_;
    if (prefix.empty() || prefix.back() != '/') prefix += '/';
    prefix += StrCat("data/", fresh.namespace_name, "/", fresh.name, "/");

    std::vector<std::unique_ptr<OutputFile>> files;
    std::map<PartitionTuple, size_t> file_of_tuple;
    auto file_for = [&](const std::optional<PartitionTuple>& tuple) -> Result<OutputFile*> {
      const PartitionTuple key = tuple.value_or(PartitionTuple{});
      if (auto it = file_of_tuple.find(key); it != file_of_tuple.end()) {
        return files[it->second].get();
      }
      auto file = std::make_unique<OutputFile>();
      file->path = prefix + NewUuid() + ".parquet";
      file->partition_values = tuple;
      HOGLAKE_ASSIGN_OR_RETURN(file->writer, parquet::ParquetWriter::OpenBuffer(
                                                 &file->buffer, writer_schema, writer_options));
      HOGLAKE_ASSIGN_OR_RETURN(file->object, store->OpenWriter(file->path));
      file_of_tuple.emplace(key, files.size());
      files.push_back(std::move(file));
      return files.back().get();
    };
    auto write = [](OutputFile* file, const columnar::RecordBatch& rows) -> Status {
      HOGLAKE_RETURN_IF_ERROR(file->writer->WriteBatch(rows));
      file->rows += rows.num_rows;
      return file->Drain(false);
    };

    // 3. Batches → files.
    int64_t total_rows = 0;
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, next());
      if (!batch) break;
      HOGLAKE_RETURN_IF_ERROR(CheckReservedNames(*batch->schema));
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch aligned, AlignBatch(*batch, writer_schema));
      if (auto valid = columnar::ValidateBatch(aligned); !valid.ok()) {
        return Validation("the data is not a valid batch: ", valid.error().message);
      }
      total_rows += aligned.num_rows;
      if (spec.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(OutputFile * file, file_for(std::nullopt));
        HOGLAKE_RETURN_IF_ERROR(write(file, aligned));
        continue;
      }
      if (aligned.num_rows == 0) continue;
      std::vector<iceberg::PartitionKeyColumn> keys;
      for (const SpecField& field : spec) {
        HOGLAKE_ASSIGN_OR_RETURN(
            PartitionSource source,
            FindPartitionSource(aligned, fresh.columns, field.source_field_id));
        auto column = iceberg::ComputePartitionKeys(*source.values, source.type, field.transform);
        if (!column.ok()) {
          return Validation("partition source '", source.path, "': ", column.error().message);
        }
        keys.push_back(std::move(column).value());
      }
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<iceberg::PartitionGroup> groups,
                               iceberg::GroupRowsByPartition(keys));
      for (const iceberg::PartitionGroup& group : groups) {
        HOGLAKE_ASSIGN_OR_RETURN(OutputFile * file, file_for(group.values));
        if (groups.size() == 1) {
          HOGLAKE_RETURN_IF_ERROR(write(file, aligned));
        } else {
          HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch part,
                                   columnar::TakeRows(aligned, group.rows));
          HOGLAKE_RETURN_IF_ERROR(write(file, part));
        }
      }
    }
    if (!spec.empty() && total_rows == 0) {
      return Validation("cannot append 0 rows to partitioned table ", qualified,
                        ": no partition tuple is derivable and a commit registers at least one "
                        "file");
    }
    if (files.empty()) {
      HOGLAKE_RETURN_IF_ERROR(file_for(std::nullopt).status());  // an empty file, as pyhoglake
    }

    // 4. Close, publish, take stats.
    const std::vector<parquet::StatsColumn> stats_columns = StatsColumnsFor(fresh.columns);
    JsonWriter request;
    request.BeginObject();
    request.Key("idempotency_key");
    request.String(NewUuid());
    std::optional<int64_t> read_snapshot = options.read_snapshot;
    if (!read_snapshot && !spec.empty()) read_snapshot = fresh.read_snapshot_id;
    if (read_snapshot) {
      request.Key("read_snapshot");
      request.Int(*read_snapshot);
    }
    if (options.author) {
      request.Key("author");
      request.String(*options.author);
    }
    if (options.message) {
      request.Key("message");
      request.String(*options.message);
    }
    request.Key("appends");
    request.BeginArray();
    request.BeginObject();
    request.Key("namespace");
    request.String(fresh.namespace_name);
    request.Key("table");
    request.String(fresh.name);
    if (expected) {
      request.Key("expected_table_uuid");
      request.String(*expected);
    }
    request.Key("files");
    request.BeginArray();
    AppendResult result;
    for (auto& file : files) {
      HOGLAKE_ASSIGN_OR_RETURN(file->summary, file->writer->Close());
      HOGLAKE_RETURN_IF_ERROR(file->Drain(true));
      HOGLAKE_RETURN_IF_ERROR(file->object->Commit());
      std::vector<parquet::ColumnStats> stats;
      if (!options.deferred_stats) {
        HOGLAKE_ASSIGN_OR_RETURN(
            stats, parquet::ExtractColumnStats(file->summary.metadata, stats_columns));
      }
      wire::WriteFileRegistration({.path = file->path,
                                   .record_count = file->rows,
                                   .file_size_bytes = file->summary.file_size,
                                   .footer_size = file->summary.footer_size,
                                   .column_stats = options.deferred_stats ? nullptr : &stats,
                                   .partition_values = &file->partition_values},
                                  request);
      result.files.push_back(
          {file->path, file->rows, file->summary.file_size, file->partition_values});
    }
    request.EndArray();
    request.EndObject();
    request.EndArray();
    request.EndObject();

    // 5. One commit.
    HttpCall commit;
    commit.method = HttpMethod::kPost;
    commit.path = StrCat("/catalogs/", EncodeSegment(table.catalog_), "/commit");
    commit.body = request.Take();
    commit.retry = RetryPolicy::kSafe;  // keyed: a replay returns the receipt
    commit.is_commit = true;
    HOGLAKE_ASSIGN_OR_RETURN(std::string receipt, table.context_->transport.Send(commit));
    HOGLAKE_ASSIGN_OR_RETURN(CommitResult committed, ParseCommitResult(receipt));
    result.snapshot_id = committed.snapshot_id;
    result.schema_version = committed.schema_version;
    // Reads through a pinned handle see its own writes: the pin moves on.
    if (table.ddl_snapshot_) table.ddl_snapshot_ = committed.snapshot_id;
    return result;
  }
};

Result<AppendResult> Table::Append(const BatchSource& next, const AppendOptions& options) {
  return AppendPath::Run(*this, next, options);
}

Result<AppendResult> Table::Append(const columnar::RecordBatch& batch,
                                   const AppendOptions& options) {
  bool done = false;
  return Append(
      [&]() -> Result<std::optional<columnar::RecordBatch>> {
        if (done) return std::optional<columnar::RecordBatch>();
        done = true;
        return std::optional<columnar::RecordBatch>(batch);
      },
      options);
}

Result<AppendResult> Table::Append(const std::vector<columnar::RecordBatch>& batches,
                                   const AppendOptions& options) {
  size_t next = 0;
  return Append(
      [&]() -> Result<std::optional<columnar::RecordBatch>> {
        if (next == batches.size()) return std::optional<columnar::RecordBatch>();
        return std::optional<columnar::RecordBatch>(batches[next++]);
      },
      options);
}

Result<AppendResult> Table::Append(ArrowArrayStream* stream, const AppendOptions& options) {
  auto reader = columnar::CStreamReader::Open(stream);
  if (!reader.ok()) return Validation("the Arrow stream: ", reader.error().message);
  return Append([&]() { return reader->Next(); }, options);
}

}  // namespace hoglake::client
