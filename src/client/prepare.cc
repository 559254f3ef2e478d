// Table::PrepareAppendFiles and Table::CommitPrepared — the prepared-commit
// path (pyhoglake-writer §10, §11.1, §11.3):
//
//   1. the idempotency key must be a UUID, the concurrency ≥ 0 (kValidation);
//   2. the writer cache (§8.4) when usable — no GET, its uuid must be the
//      expected one, its snapshot is the basis — else GET /catalogs/{c} (the
//      head) first, then GET …/tables/{t}?totals=false: the incarnation
//      guard (a different table_uuid → kTableRecreated) and, with
//      expected_table_info (which always reads), the layout check
//      ("prepared append destination layout changed"); the fresh read is
//      adopted (and re-seeds the cache) only when its uuid is the handle's;
//      the basis is its read_snapshot_id, else the head;
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
// Steps 1–2 and 3–6 are PreparePath (prepare_path.h), shared with
// PrepareAppendTables (prepare_tables.cc); CommitPrepared drops the writer
// cache on the errors client.h lists.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/json_raw.h"
#include "client/prepare_path.h"
#include "client/prepare_schema_check.h"
#include "client/request_wire.h"
#include "client/writer_schema.h"
#include "common/json_writer.h"
#include "common/parallel.h"
#include "common/uuid.h"
#include "parquet/footer_stats.h"
#include "storage/object_store.h"

namespace hoglake::client {
namespace {

constexpr int64_t kChunkBytes = int64_t{8} << 20;
constexpr int kDefaultConcurrency = 16;

struct Upload {
  std::string local_path;  // empty: upload `*bytes`
  const std::string* bytes = nullptr;
  std::string uri;
  int64_t size = 0;
};

Status UploadBytes(ObjectStore* store, const Upload& upload) {
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectWriter> writer, store->OpenWriter(upload.uri));
  const std::string_view bytes(*upload.bytes);
  for (size_t done = 0; done < bytes.size(); done += static_cast<size_t>(kChunkBytes)) {
    if (Status appended = writer->Append(bytes.substr(done, static_cast<size_t>(kChunkBytes)));
        !appended.ok()) {
      (void)writer->Abort();
      return appended;
    }
  }
  return writer->Commit();
}

// Streams the local file (or the bytes) to `uri`; refuses a file whose size
// is not the one validated.
Status UploadOne(ObjectStore* store, const Upload& upload) {
  if (upload.local_path.empty()) return UploadBytes(store, upload);
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
  std::vector<char> done(uploads.size(), 0);  // one element per upload, read after the join
  Status status = ParallelForStatus(
      static_cast<int64_t>(uploads.size()),
      static_cast<int>(std::min(uploads.size(), static_cast<size_t>(std::max(concurrency, 1)))),
      [&](int64_t i, int) -> Status {
        HOGLAKE_RETURN_IF_ERROR(UploadOne(store, uploads[static_cast<size_t>(i)]));
        done[static_cast<size_t>(i)] = 1;
        return Status::Ok();
      });
  for (size_t i = 0; i < done.size(); ++i) (*landed)[i] = done[i] != 0;
  return status;
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

Result<PrepareTarget> PreparePath::Resolve(Table& table, const PrepareOptions& options) {
  auto key_bytes = ParseUuid(options.idempotency_key);
  if (!key_bytes.ok()) {
    return Validation("idempotency_key must be a UUID: ", key_bytes.error().message);
  }
  if (options.concurrency < 0) {
    return Validation("upload concurrency must be a positive integer (0: the default), got ",
                      options.concurrency);
  }
  PrepareTarget target;
  target.key = FormatUuid(*key_bytes);
  target.expected_uuid = options.expected_table_uuid.value_or(table.table_uuid());
  const std::string qualified = table.qualified_name();
  auto parquet_only = [](const TableInfo& info) -> Status {
    if (auto format = info.properties.find("write.format.default");
        format != info.properties.end() && format->second != "parquet") {
      return Validation("prepared appends support Parquet tables only; table format is '",
                        format->second, "'");
    }
    return Status::Ok();
  };

  // The writer cache (§8.4): no GET while it is younger than half the
  // retention; expected_table_info always reads.
  if (!options.expected_table_info && table.writer_cache_) {
    const std::optional<int64_t> retention = table.context_->WriterRetention(table.catalog_);
    const Table::WriterCache& cache = *table.writer_cache_;
    const double age = std::chrono::duration<double>(table.context_->now() - cache.read_at).count();
    if (!retention || 2 * age < static_cast<double>(*retention)) {
      if (cache.table_uuid != target.expected_uuid) {
        return Recreated(qualified, target.expected_uuid, cache.table_uuid);
      }
      HOGLAKE_RETURN_IF_ERROR(parquet_only(table.info_));
      target.table = table.info_;
      target.read_snapshot = cache.read_snapshot;
      return target;
    }
  }

  // The head, then the table: identity, layout, basis.
  HttpCall head_call;
  head_call.path = "/catalogs/" + EncodeSegment(table.catalog_);
  HOGLAKE_ASSIGN_OR_RETURN(std::string head_body, table.context_->transport.Send(head_call));
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo head, ParseCatalogInfo(head_body));
  HttpCall table_call;
  table_call.path = table.Route();
  table_call.query = {{"totals", "false"}};
  HOGLAKE_ASSIGN_OR_RETURN(std::string table_body, table.context_->transport.Send(table_call));
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo fresh, ParseTableInfo(table_body));
  if (fresh.table_uuid != target.expected_uuid) {
    return Recreated(qualified, target.expected_uuid, fresh.table_uuid);
  }
  if (fresh.table_uuid == table.table_uuid()) {
    table.info_ = fresh;
    table.SeedWriterCache(fresh);
  }
  if (options.expected_table_info && !SameLayout(*options.expected_table_info, fresh)) {
    return Validation("prepared append destination layout changed");
  }
  HOGLAKE_RETURN_IF_ERROR(parquet_only(fresh));
  target.read_snapshot = fresh.read_snapshot_id.value_or(head.head_snapshot_id);
  target.table = std::move(fresh);
  return target;
}

Result<PreparedAppend> PreparePath::RegisterAndUpload(
    Table& table, const PrepareTarget& target, size_t count,
    const std::function<Result<PreparedSource>(size_t)>& describe, const PrepareOptions& options,
    std::vector<std::string>* uploaded) {
  const TableInfo& fresh = target.table;
  const std::vector<parquet::StatsColumn> stats_columns = StatsColumnsFor(fresh.columns);
  const size_t arity = fresh.partitioned() ? fresh.partition_spec->fields.size() : 0;
  std::string prefix = table.data_path_;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  prefix += StrCat("/data/", fresh.namespace_name, "/", fresh.name, "/", target.key, "/");

  JsonWriter payload;
  payload.BeginObject();
  payload.Key("idempotency_key");
  payload.String(target.key);
  payload.Key("read_snapshot");
  payload.Int(target.read_snapshot);
  payload.Key("appends");
  payload.BeginArray();
  payload.BeginObject();
  payload.Key("namespace");
  payload.String(fresh.namespace_name);
  payload.Key("table");
  payload.String(fresh.name);
  payload.Key("expected_table_uuid");
  payload.String(target.expected_uuid);
  payload.Key("files");
  payload.BeginArray();
  std::vector<PreparedSource> sources;
  sources.reserve(count);
  std::vector<Upload> uploads;
  for (size_t index = 0; index < count; ++index) {
    HOGLAKE_ASSIGN_OR_RETURN(PreparedSource source, describe(index));
    const bool arity_ok =
        arity ? (source.partition_values && source.partition_values->size() == arity)
              : !source.partition_values.has_value();
    if (!arity_ok) return Validation("prepared file partition arity differs from destination");
    if (source.num_rows <= 0) return Validation("prepared file must contain rows");
    auto stats = parquet::ExtractColumnStats(source.metadata, stats_columns);
    if (!stats.ok()) {
      return Validation("prepared file ", source.label, ": ", stats.error().message);
    }
    const std::string uri = StrCat(prefix, NewUuid(), "-", index, ".parquet");
    wire::WriteFileRegistration({.path = uri,
                                 .record_count = source.num_rows,
                                 .file_size_bytes = source.file_size,
                                 .footer_size = source.footer_size,
                                 .column_stats = &*stats,
                                 .partition_values = &source.partition_values},
                                payload);
    uploads.push_back(Upload{source.local_path, nullptr, uri, source.file_size});
    source.metadata = {};  // only the bytes are needed from here on
    sources.push_back(std::move(source));
  }
  payload.EndArray();
  payload.EndObject();
  payload.EndArray();
  payload.EndObject();
  // 4.
  if (uploads.empty()) return Validation("prepared append must contain files");
  for (size_t i = 0; i < uploads.size(); ++i) {
    if (uploads[i].local_path.empty()) uploads[i].bytes = &sources[i].bytes;
  }

  // 5. Uploads.
  HOGLAKE_ASSIGN_OR_RETURN(ObjectStore * store, table.context_->StoreFor(table.data_path_));
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
  result.read_snapshot = target.read_snapshot;
  return result;
}

Result<PreparedAppend> Table::PrepareAppendFiles(const std::vector<PreparedFile>& files,
                                                 const PrepareOptions& options,
                                                 std::vector<std::string>* uploaded) {
  if (uploaded) uploaded->clear();
  HOGLAKE_ASSIGN_OR_RETURN(PrepareTarget target, PreparePath::Resolve(*this, options));
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr expected,
                           PreparedExpectedSchema(target.table.columns));
  auto describe = [&](size_t index) -> Result<PreparedSource> {
    const PreparedFile& file = files[index];
    HOGLAKE_ASSIGN_OR_RETURN(PreparedFileFacts facts, DescribePreparedFile(file.local_path));
    HOGLAKE_RETURN_IF_ERROR(
        CheckPreparedFile(facts, target.table.columns, *expected, options.allow_optional_fields));
    PreparedSource source;
    source.local_path = file.local_path;
    source.label = file.local_path;
    source.metadata = std::move(facts.metadata);
    source.num_rows = facts.num_rows;
    source.file_size = facts.file_size;
    source.footer_size = facts.footer_size;
    source.partition_values = file.partition_values;
    return source;
  };
  return PreparePath::RegisterAndUpload(*this, target, files.size(), describe, options, uploaded);
}

Result<CommitResult> Table::CommitPrepared(std::string_view payload_json) {
  HttpCall commit;
  commit.method = HttpMethod::kPost;
  commit.path = StrCat("/catalogs/", EncodeSegment(catalog_), "/commit/prepared");
  commit.body = std::string(payload_json);
  commit.retry = RetryPolicy::kSafe;  // keyed: a replay returns the stored receipt
  commit.is_commit = true;
  Result<std::string> sent = context_->transport.Send(commit);
  if (!sent.ok()) {
    const Error& error = sent.error();
    if (error.code == ErrorCode::kExpired) context_->ForgetRetention(catalog_);
    if (RePrepare(error)) {
      writer_cache_.reset();
    } else if (!Retryable(error) && writer_cache_) {
      // The payload's basis: a failure of a payload built on the cache
      // drops it (the next prepare reads afresh).
      const std::string_view basis = json_raw::ObjectMember(payload_json, "read_snapshot");
      int64_t read_snapshot = 0;
      const auto parsed = std::from_chars(basis.data(), basis.data() + basis.size(), read_snapshot);
      if (parsed.ec == std::errc() && read_snapshot == writer_cache_->read_snapshot) {
        writer_cache_.reset();
      }
    }
    return error;
  }
  const std::string& receipt = *sent;
  HOGLAKE_ASSIGN_OR_RETURN(CommitResult committed, ParseCommitResult(receipt));
  // Reads through a pinned handle see its own writes: the pin moves on.
  if (ddl_snapshot_) ddl_snapshot_ = committed.snapshot_id;
  return committed;
}

}  // namespace hoglake::client
