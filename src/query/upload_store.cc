#include "query/upload_store.h"

#include <algorithm>

#include "common/encoding.h"
#include "common/sha256.h"
#include "query/query_vocabulary.h"
#include "query/timestamp_sql.h"
#include "storage/object_source.h"

namespace hoglake::query {
namespace {

const std::string& Columns() {
  static const std::string columns =
      StrCat("upload_id, status, content_type, declared_size_bytes, part_size, size_bytes, ",
             Rfc3339Sql("created_at"));
  return columns;
}

UploadRecord FromRow(const pg::PgResult& r, int row) {
  UploadRecord u;
  u.upload_id = r.GetString(row, 0);
  u.state = UploadStateFromName(r.GetText(row, 1)).value_or(UploadState::kClaimed);
  u.content_type = r.GetOptionalString(row, 2);
  u.declared_size_bytes = r.GetOptionalInt64(row, 3);
  u.part_size = r.GetOptionalInt64(row, 4);
  u.size_bytes = r.GetOptionalInt64(row, 5);
  u.created_at = r.GetString(row, 6);
  return u;
}

std::optional<std::string> OptionalInt(const std::optional<int64_t>& v) {
  return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
}

Error Conflict(std::string message) {
  return MakeError(ErrorCode::kCommitConflict, std::move(message));
}

}  // namespace

UploadStore::UploadStore(pg::PgPool* pool, std::unique_ptr<ObjectStore> objects,
                         UploadStoreOptions options)
    : pool_(pool), objects_(std::move(objects)), options_(std::move(options)) {
  key_ = options_.signing_key.empty() ? SecureRandomBytes(32) : options_.signing_key;
}

std::string UploadStore::ObjectPath(const std::string& upload_id, int64_t part) const {
  std::string path = objects_->root() + "/" + upload_id;
  if (part > 0) path += ".part" + std::to_string(part);
  return path;
}

std::string UploadStore::Signature(const std::string& upload_id, int64_t part) const {
  return HexEncode(HmacSha256(key_, upload_id + ":" + std::to_string(part)));
}

bool UploadStore::VerifySignature(const std::string& upload_id, int64_t part,
                                  std::string_view signature) const {
  const std::string expected = Signature(upload_id, part);
  if (signature.size() != expected.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < expected.size(); ++i) diff |= expected[i] ^ signature[i];
  return diff == 0;
}

Result<UploadRecord> UploadStore::Get(const std::string& upload_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r,
                           conn->ExecPrepared(StrCat("SELECT ", Columns(),
                                                     " FROM hog_query_upload WHERE upload_id = $1"),
                                              {upload_id}));
  if (r.rows() == 0)
    return MakeError(ErrorCode::kNotFound, StrCat("upload '", upload_id, "' not found"));
  return FromRow(r, 0);
}

Result<uint64_t> UploadStore::WriteStreamed(const std::string& path, const ByteSource& bytes,
                                            Sha256Hasher* hash, bool allow_empty) {
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectWriter> writer, objects_->OpenWriter(path));
  auto abort = [&writer](Error error) -> Error {
    (void)writer->Abort();
    return error;
  };
  std::string piece;
  while (true) {
    Result<bool> more = bytes(&piece);
    if (!more.ok()) return abort(more.error());
    if (!*more) break;
    if (hash) hash->Update(piece);
    if (Status appended = writer->Append(piece); !appended.ok()) return abort(appended.error());
  }
  if (writer->bytes_written() == 0 && !allow_empty) {
    return abort(MakeError(ErrorCode::kBadRequest, "the upload is empty"));
  }
  const uint64_t size = writer->bytes_written();
  if (Status committed = writer->Commit(); !committed.ok()) return abort(committed.error());
  return size;
}

Result<UploadRecord> UploadStore::CreateRaw(const std::optional<std::string>& content_type,
                                            const ByteSource& bytes) {
  const std::string id = NewId(IdKind::kUpload);
  HOGLAKE_ASSIGN_OR_RETURN(const uint64_t size,
                           WriteStreamed(ObjectPath(id, 0), bytes, nullptr, false));
  // Without its row the object is unreachable: removed when the row fails.
  auto row = [&]() -> Result<pg::PgResult> {
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
    return conn->ExecPrepared(
        StrCat("INSERT INTO hog_query_upload (upload_id, status, content_type, size_bytes, "
               "path, expires_at, finalized_at) VALUES ($1, 'ready', $2, $3, $4, "
               "now() + make_interval(secs => $5::double precision), now()) RETURNING ",
               Columns()),
        {id, content_type, std::to_string(size), ObjectPath(id, 0),
         std::to_string(options_.pending_ttl_seconds)});
  };
  Result<pg::PgResult> r = row();
  if (!r.ok()) {
    (void)objects_->Delete(ObjectPath(id, 0));
    return r.error();
  }
  return FromRow(*r, 0);
}

Result<UploadSession> UploadStore::CreateSession(const SessionRequest& request) {
  if (request.declared_size_bytes && *request.declared_size_bytes < 0) {
    return MakeError(ErrorCode::kBadRequest, "declared_size_bytes must be ≥ 0");
  }
  UploadSession session;
  session.multipart =
      !request.declared_size_bytes || *request.declared_size_bytes > options_.max_single_bytes;
  std::optional<int64_t> part_size;
  if (session.multipart) {
    part_size = std::clamp(request.part_size.value_or(kDefaultPartSize), kMinPartSize,
                           std::max(kMinPartSize, options_.max_single_bytes));
    if (request.declared_size_bytes) {
      session.part_count =
          std::max<int64_t>(1, (*request.declared_size_bytes + *part_size - 1) / *part_size);
    }
  }
  const std::string id = NewId(IdKind::kUpload);
  session.finalize_token = HexEncode(SecureRandomBytes(24));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(
          StrCat("INSERT INTO hog_query_upload (upload_id, status, content_type, "
                 "declared_size_bytes, part_size, path, finalize_token_sha256, expires_at) "
                 "VALUES ($1, 'pending', $2, $3, $4, $5, $6, "
                 "now() + make_interval(secs => $7::double precision)) RETURNING ",
                 Columns()),
          {id, request.content_type, OptionalInt(request.declared_size_bytes),
           OptionalInt(part_size), ObjectPath(id, 0), HexEncode(Sha256(session.finalize_token)),
           std::to_string(options_.pending_ttl_seconds)}));
  session.upload = FromRow(r, 0);
  return session;
}

Result<std::string> UploadStore::PutBytes(const std::string& upload_id, int64_t part,
                                          const ByteSource& bytes) {
  HOGLAKE_ASSIGN_OR_RETURN(UploadRecord upload, Get(upload_id));
  if (upload.state != UploadState::kPending) {
    return Conflict(StrCat("upload '", upload_id, "' is already finalized"));
  }
  if ((part > 0) != upload.part_size.has_value()) {
    return MakeError(ErrorCode::kBadRequest,
                     StrCat("upload '", upload_id, "' is ",
                            upload.part_size ? "multipart: PUT its part URLs" : "a single upload"));
  }
  Sha256Hasher hash;
  HOGLAKE_RETURN_IF_ERROR(WriteStreamed(ObjectPath(upload_id, part), bytes, &hash, true).status());
  return "\"" + HexEncode(hash.Finish()).substr(0, 32) + "\"";
}

Result<UploadRecord> UploadStore::CheckToken(const std::string& upload_id,
                                             const std::string& finalize_token) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(StrCat("SELECT ", Columns(),
                                ", finalize_token_sha256 = $2 FROM hog_query_upload "
                                "WHERE upload_id = $1"),
                         {upload_id, HexEncode(Sha256(finalize_token))}));
  if (r.rows() == 0)
    return MakeError(ErrorCode::kNotFound, StrCat("upload '", upload_id, "' not found"));
  if (!r.GetBool(0, 7)) {
    return MakeError(
        ErrorCode::kBadRequest,
        StrCat("X-Upload-Finalize-Token is not the token of upload '", upload_id, "'"));
  }
  return FromRow(r, 0);
}

Result<UploadRecord> UploadStore::Finalize(const std::string& upload_id,
                                           const std::string& finalize_token,
                                           const std::vector<int64_t>& parts) {
  HOGLAKE_ASSIGN_OR_RETURN(UploadRecord upload, CheckToken(upload_id, finalize_token));
  if (upload.state != UploadState::kPending) {
    return Conflict(StrCat("upload '", upload_id, "' is already finalized"));
  }
  const std::string whole = ObjectPath(upload_id, 0);
  if (upload.part_size) {
    if (parts.empty()) {
      return MakeError(ErrorCode::kBadRequest, "a multipart upload is finalized with its parts");
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectWriter> writer, objects_->OpenWriter(whole));
    for (int64_t part : parts) {
      Result<std::string> bytes = objects_->Get(ObjectPath(upload_id, part));
      if (!bytes.ok()) {
        (void)writer->Abort();
        return MakeError(ErrorCode::kBadRequest,
                         StrCat("part ", part, " of upload '", upload_id, "' was not uploaded"));
      }
      HOGLAKE_RETURN_IF_ERROR(writer->Append(*bytes));
    }
    HOGLAKE_RETURN_IF_ERROR(writer->Commit());
    for (int64_t part : parts) (void)objects_->Delete(ObjectPath(upload_id, part));
  }
  Result<uint64_t> size = objects_->Head(whole);
  if (!size.ok()) {
    return MakeError(ErrorCode::kBadRequest, StrCat("upload '", upload_id, "' has no bytes yet"));
  }
  if (upload.declared_size_bytes && static_cast<int64_t>(*size) != *upload.declared_size_bytes) {
    return MakeError(ErrorCode::kBadRequest,
                     StrCat("upload '", upload_id, "' holds ", *size, " bytes, not the declared ",
                            *upload.declared_size_bytes));
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(
          StrCat("UPDATE hog_query_upload SET status = 'ready', size_bytes = $2, "
                 "finalized_at = now() WHERE upload_id = $1 AND status = 'pending' RETURNING ",
                 Columns()),
          {upload_id, std::to_string(*size)}));
  if (r.rows() == 0) return Conflict(StrCat("upload '", upload_id, "' is already finalized"));
  return FromRow(r, 0);
}

Result<UploadRecord> UploadStore::Claim(const std::string& upload_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(StrCat("UPDATE hog_query_upload SET status = 'claimed', "
                                "claimed_at = now() WHERE upload_id = $1 AND status = 'ready' "
                                "RETURNING ",
                                Columns()),
                         {upload_id}));
  if (r.rows() == 1) return FromRow(r, 0);
  HOGLAKE_ASSIGN_OR_RETURN(UploadRecord upload, Get(upload_id));
  if (upload.state == UploadState::kPending) {
    return Conflict(StrCat("upload '", upload_id, "' is not finalized yet"));
  }
  return Conflict(StrCat("upload '", upload_id, "' was already loaded (or is being loaded)"));
}

Status UploadStore::Release(const std::string& upload_id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  return conn
      ->ExecPrepared(
          "UPDATE hog_query_upload SET status = 'ready', claimed_at = NULL "
          "WHERE upload_id = $1 AND status = 'claimed'",
          {upload_id})
      .status();
}

Status UploadStore::Consume(const std::string& upload_id) {
  (void)objects_->Delete(ObjectPath(upload_id, 0));
  return Status::Ok();
}

std::optional<UploadStore::TransferSlot> UploadStore::TryStartTransfer() {
  int in_use = transfers_.load();
  do {
    if (in_use >= options_.max_concurrent_transfers) return std::nullopt;
  } while (!transfers_.compare_exchange_weak(in_use, in_use + 1));
  return TransferSlot(&transfers_);
}

Result<std::shared_ptr<RandomAccessSource>> UploadStore::OpenBytes(const std::string& upload_id) {
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<ObjectSource> source,
                           ObjectSource::Open(objects_.get(), ObjectPath(upload_id, 0)));
  return std::shared_ptr<RandomAccessSource>(std::move(source));
}

Result<int64_t> UploadStore::ExpirePending() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn->ExecPrepared("DELETE FROM hog_query_upload WHERE status = 'pending' "
                                         "AND expires_at < now() RETURNING upload_id"));
  for (int i = 0; i < r.rows(); ++i) {
    const std::string id = r.GetString(i, 0);
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ObjectInfo> objects, objects_->List(ObjectPath(id, 0)));
    std::vector<std::string> paths;
    for (const ObjectInfo& o : objects) paths.push_back(o.path);
    (void)objects_->DeleteMany(paths);
  }
  return static_cast<int64_t>(r.rows());
}

}  // namespace hoglake::query
