// Table::PrepareAppendFiles and Table::CommitPrepared — the prepared-commit
// path (pyhoglake-writer §10, §11.1, §11.3):
//
//   1. the idempotency key must be a UUID, the concurrency ≥ 0 (kValidation);
//   2. GET /catalogs/{c} (the head) first, then GET …/tables/{t}?totals=false:
//      the incarnation guard (a different table_uuid → kTableRecreated) and,
//      with expected_table_info, the layout check ("prepared append
//      destination layout changed"); the fresh read is adopted only when its
//      uuid is the handle's; the basis is its read_snapshot_id, else the head;
//   3. per file, in input order: the footer checks (prepare_schema_check.h),
//      partition arity, rows > 0, its URI and its registration (column stats
//      from the footer);
//   4. no file → "prepared append must contain files";
//   5. uploads, up to `concurrency` at a time, each the file's bytes verbatim
//      (streamed in 8 MiB chunks; a file whose size changed since step 3 is
//      an error); the first error wins, uploads not yet started are skipped;
//   6. the payload: {idempotency_key, read_snapshot, appends: [{namespace,
//      table, expected_table_uuid, files: [{path, record_count,
//      file_size_bytes, footer_size, column_stats, partition_values?}]}]}.
// Nothing is uploaded unless every file passed step 3, so a validation
// failure leaves `*uploaded` empty. A failed upload returns its error with
// `*uploaded` holding the URIs that landed (input order, no gaps).
#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "client/prepare_schema_check.h"
#include "client/writer_schema.h"
#include "common/json_writer.h"
#include "common/uuid.h"
#include "parquet/footer_stats.h"
#include "storage/object_store.h"

namespace hoglake::client {
namespace {

constexpr int64_t kChunkBytes = int64_t{8} << 20;
constexpr int kDefaultConcurrency = 16;

struct Upload {
  std::string local_path;
  std::string uri;
  int64_t size = 0;
};

// Streams the local file to `uri`; refuses a file whose size is not the one
// validated.
Status UploadOne(ObjectStore* store, const Upload& upload) {
  std::ifstream in(upload.local_path, std::ios::binary);
  if (!in) return IoError("cannot open prepared file ", upload.local_path);
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectWriter> writer, store->OpenWriter(upload.uri));
  std::string chunk(static_cast<size_t>(std::min(upload.size, kChunkBytes)), '\0');
  int64_t done = 0;
  while (done < upload.size) {
    const int64_t n = std::min(kChunkBytes, upload.size - done);
    if (!in.read(chunk.data(), n)) {
      (void)writer->Abort();
      return IoError("prepared file ", upload.local_path, " shrank while it was uploaded");
    }
    if (Status appended = writer->Append(std::string_view(chunk.data(), n)); !appended.ok()) {
      (void)writer->Abort();
      return appended;
    }
    done += n;
  }
  if (in.peek() != std::char_traits<char>::eof()) {
    (void)writer->Abort();
    return IoError("prepared file ", upload.local_path, " grew while it was uploaded");
  }
  return writer->Commit();
}

// Runs the uploads on up to `concurrency` threads. `landed[i]` is set for
// each upload that completed; the first error is returned.
Status UploadAll(ObjectStore* store, const std::vector<Upload>& uploads, int concurrency,
                 std::vector<bool>* landed) {
  landed->assign(uploads.size(), false);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::optional<Error> first_error;
  auto work = [&] {
    while (!failed.load()) {
      const size_t i = next.fetch_add(1);
      if (i >= uploads.size()) return;
      Status status = UploadOne(store, uploads[i]);
      if (status.ok()) {
        (*landed)[i] = true;  // distinct elements per thread; read after join
        continue;
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (!first_error) first_error = status.error();
      failed.store(true);
    }
  };
  const size_t threads = std::min(uploads.size(), static_cast<size_t>(concurrency));
  if (threads <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(work);
    for (std::thread& thread : pool) thread.join();
  }
  if (first_error) return *first_error;
  return Status::Ok();
}

Error Recreated(const std::string& qualified, const std::string& expected,
                const std::string& found) {
  Error error = MakeError(ErrorCode::kTableRecreated, "table ", qualified,
                          " was recreated: expected table_uuid ", expected, ", found ", found,
                          "; resolve the table again before preparing");
  JsonWriter extra;
  extra.BeginArray();
  extra.String(qualified);
  extra.EndArray();
  error.wire_extra = StrCat("\"tables\":", extra.Take(), ",\"retry\":\"re-prepare\"");
  return error;
}

}  // namespace

Result<PreparedAppend> Table::PrepareAppendFiles(const std::vector<PreparedFile>& files,
                                                 const PrepareOptions& options,
                                                 std::vector<std::string>* uploaded) {
  if (uploaded) uploaded->clear();
  // 1. Caller input.
  auto key_bytes = ParseUuid(options.idempotency_key);
  if (!key_bytes.ok()) {
    return Validation("idempotency_key must be a UUID: ", key_bytes.error().message);
  }
  const std::string key = FormatUuid(*key_bytes);
  if (options.concurrency < 0) {
    return Validation("upload concurrency must be a positive integer (0: the default), got ",
                      options.concurrency);
  }
  const std::string expected_uuid = options.expected_table_uuid.value_or(table_uuid());
  const std::string qualified = qualified_name();

  // 2. The head, then the table: identity, layout, basis.
  HttpCall head_call;
  head_call.path = "/catalogs/" + EncodeSegment(catalog_);
  HOGLAKE_ASSIGN_OR_RETURN(std::string head_body, context_->transport.Send(head_call));
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo head, ParseCatalogInfo(head_body));
  HttpCall table_call;
  table_call.path = Route();
  table_call.query = {{"totals", "false"}};
  HOGLAKE_ASSIGN_OR_RETURN(std::string table_body, context_->transport.Send(table_call));
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo fresh, ParseTableInfo(table_body));
  if (fresh.table_uuid != expected_uuid) {
    return Recreated(qualified, expected_uuid, fresh.table_uuid);
  }
  if (fresh.table_uuid == table_uuid()) info_ = fresh;
  if (options.expected_table_info && !SameLayout(*options.expected_table_info, fresh)) {
    return Validation("prepared append destination layout changed");
  }
  if (auto format = fresh.properties.find("write.format.default");
      format != fresh.properties.end() && format->second != "parquet") {
    return Validation("prepared appends support Parquet tables only; table format is '",
                      format->second, "'");
  }
  const int64_t read_snapshot = fresh.read_snapshot_id.value_or(head.head_snapshot_id);

  // 3. Every file, before any upload.
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr expected, PreparedExpectedSchema(fresh.columns));
  const std::vector<parquet::StatsColumn> stats_columns = StatsColumnsFor(fresh.columns);
  const size_t arity = fresh.partitioned() ? fresh.partition_spec->fields.size() : 0;
  std::string prefix = data_path_;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  prefix += StrCat("/data/", fresh.namespace_name, "/", fresh.name, "/", key, "/");

  JsonWriter payload;
  payload.BeginObject();
  payload.Key("idempotency_key");
  payload.String(key);
  payload.Key("read_snapshot");
  payload.Int(read_snapshot);
  payload.Key("appends");
  payload.BeginArray();
  payload.BeginObject();
  payload.Key("namespace");
  payload.String(fresh.namespace_name);
  payload.Key("table");
  payload.String(fresh.name);
  payload.Key("expected_table_uuid");
  payload.String(expected_uuid);
  payload.Key("files");
  payload.BeginArray();
  std::vector<Upload> uploads;
  for (size_t index = 0; index < files.size(); ++index) {
    const PreparedFile& file = files[index];
    HOGLAKE_ASSIGN_OR_RETURN(PreparedFileFacts facts, DescribePreparedFile(file.local_path));
    HOGLAKE_RETURN_IF_ERROR(
        CheckPreparedFile(facts, fresh.columns, *expected, options.allow_optional_fields));
    const bool arity_ok = arity ? (file.partition_values && file.partition_values->size() == arity)
                                : !file.partition_values.has_value();
    if (!arity_ok) return Validation("prepared file partition arity differs from destination");
    if (facts.num_rows <= 0) return Validation("prepared file must contain rows");
    auto stats = parquet::ExtractColumnStats(facts.metadata, stats_columns);
    if (!stats.ok()) {
      return Validation("prepared file ", file.local_path, ": ", stats.error().message);
    }
    Upload upload{file.local_path, StrCat(prefix, NewUuid(), "-", index, ".parquet"),
                  facts.file_size};
    payload.BeginObject();
    payload.Key("path");
    payload.String(upload.uri);
    payload.Key("record_count");
    payload.Int(facts.num_rows);
    payload.Key("file_size_bytes");
    payload.Int(facts.file_size);
    payload.Key("footer_size");
    payload.Int(facts.footer_size);
    payload.Key("column_stats");
    parquet::AppendColumnStatsJson(*stats, &payload);
    if (file.partition_values) {
      payload.Key("partition_values");
      payload.BeginArray();
      for (const auto& value : *file.partition_values) {
        if (value) {
          payload.String(*value);
        } else {
          payload.Null();
        }
      }
      payload.EndArray();
    }
    payload.EndObject();
    uploads.push_back(std::move(upload));
  }
  payload.EndArray();
  payload.EndObject();
  payload.EndArray();
  payload.EndObject();
  // 4.
  if (uploads.empty()) return Validation("prepared append must contain files");

  // 5. Uploads.
  HOGLAKE_ASSIGN_OR_RETURN(ObjectStore * store, context_->StoreFor(data_path_));
  const int concurrency = options.concurrency > 0 ? options.concurrency
                                                  : std::min<int>(static_cast<int>(uploads.size()),
                                                                  kDefaultConcurrency);
  std::vector<bool> landed;
  Status status = UploadAll(store, uploads, concurrency, &landed);
  PreparedAppend result;
  for (size_t i = 0; i < uploads.size(); ++i) {
    if (landed[i]) result.uploaded_uris.push_back(uploads[i].uri);
  }
  if (uploaded) *uploaded = result.uploaded_uris;
  if (!status.ok()) return status.error();

  // 6.
  result.payload_json = payload.Take();
  result.read_snapshot = read_snapshot;
  return result;
}

Result<CommitResult> Table::CommitPrepared(std::string_view payload_json) {
  HttpCall commit;
  commit.method = HttpMethod::kPost;
  commit.path = StrCat("/catalogs/", EncodeSegment(catalog_), "/commit/prepared");
  commit.body = std::string(payload_json);
  commit.retry = RetryPolicy::kSafe;  // keyed: a replay returns the stored receipt
  commit.is_commit = true;
  HOGLAKE_ASSIGN_OR_RETURN(std::string receipt, context_->transport.Send(commit));
  HOGLAKE_ASSIGN_OR_RETURN(CommitResult committed, ParseCommitResult(receipt));
  // Reads through a pinned handle see its own writes: the pin moves on.
  if (ddl_snapshot_) ddl_snapshot_ = committed.snapshot_id;
  return committed;
}

}  // namespace hoglake::client
