// Upload claims (contract §2.11): claim, renew, abandon, the expiry sweep,
// and the commit-time registration rule. Claim operations hold no catalog
// lock: each is one autocommit statement (or a short read after one), and the
// commit side serializes against them through the claim rows' row locks.
#include "catalog/commit/uploads.h"

#include <map>
#include <set>

#include "catalog/catalog_service.h"
#include "catalog/commit/file_registration.h"
#include "common/uuid.h"

namespace hoglake::catalog {
namespace {

// Removal-ledger retention: an abandoned claim queued this long ago is
// queued again (its first removal row may have been purged undrained).
constexpr int64_t kRequeueAbandonedSeconds = 30 * 24 * 3600;

constexpr const char* kClaimColumns =
    "upload_id::text, owner::text, prefix, path, file_kind, file_format, state, "
    "(extract(epoch FROM expires_at) * 1000000)::bigint";

UploadClaim ClaimFromRow(const pg::PgResult& r, int row) {
  UploadClaim c;
  c.upload_id = r.GetString(row, 0);
  c.owner = r.GetString(row, 1);
  c.prefix = r.GetString(row, 2);
  c.path = r.GetString(row, 3);
  c.file_kind = r.GetString(row, 4);
  if (!r.IsNull(row, 5)) c.file_format = r.GetString(row, 5);
  c.state = r.GetString(row, 6);
  c.expires_at_micros = r.GetInt64(row, 7);
  return c;
}

Result<std::string> CanonicalUuid(std::string_view text, std::string_view what) {
  Result<UuidBytes> bytes = ParseUuid(text);
  if (!bytes.ok()) return BadRequest(what, " '", text, "' is not a uuid");
  return FormatUuid(*bytes);
}

// The object extension of a claim: parquet / packed data, puffin deletes.
Result<std::string> Extension(const UploadClaimRequest& request) {
  if (request.file_kind == "delete") {
    if (request.file_format) return Validation("file_format is not allowed on a delete upload");
    return std::string("puffin");
  }
  if (request.file_kind != "data") {
    return Validation("file_kind must be 'data' or 'delete', got '", request.file_kind, "'");
  }
  const std::string format = request.file_format.value_or("parquet");
  if (format == "parquet") return std::string("parquet");
  if (format == "clickhouse-mergetree-packed") return std::string("packed");
  return Validation("unknown file_format '", format, "'");
}

}  // namespace

Result<UploadClaim> CatalogService::ClaimUpload(std::string_view catalog,
                                                std::string_view upload_id,
                                                const UploadClaimRequest& request) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string id, CanonicalUuid(upload_id, "upload id"));
  HOGLAKE_ASSIGN_OR_RETURN(std::string owner, CanonicalUuid(request.owner, "owner"));
  HOGLAKE_ASSIGN_OR_RETURN(std::string ext, Extension(request));
  std::string prefix = request.prefix;
  while (prefix.ends_with('/')) prefix.pop_back();
  const std::string path = prefix + "/trino-upload/" + id + "." + ext;

  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  std::string data_path = info.data_path;
  if (!data_path.ends_with('/')) data_path += '/';
  if (!PathUnderDataPath(path, data_path)) {
    return Validation("upload path '", path, "' is not under the catalog data_path '", data_path,
                      "' (or holds whitespace or dot segments)");
  }
  const std::string catalog_id = std::to_string(info.catalog_id);
  HOGLAKE_RETURN_IF_ERROR(
      conn->Exec("INSERT INTO hog_upload (catalog_id, upload_id, owner, prefix, path, file_kind, "
                 "file_format) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                 {catalog_id, id, owner, prefix, path, request.file_kind, request.file_format}));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(StrCat("SELECT ", kClaimColumns,
                        " FROM hog_upload WHERE catalog_id = $1 AND upload_id = $2"),
                 {catalog_id, id}));
  if (r.rows() == 0) {
    return MakeError(ErrorCode::kCommitConflict, "upload path '", path,
                     "' is already claimed by another upload");
  }
  UploadClaim claim = ClaimFromRow(r, 0);
  if (claim.owner != owner || claim.prefix != prefix || claim.file_kind != request.file_kind ||
      claim.file_format != request.file_format) {
    return MakeError(ErrorCode::kCommitConflict, "upload ", id,
                     " was claimed with a different definition");
  }
  return claim;
}

Result<int64_t> CatalogService::RenewUploads(std::string_view catalog, std::string_view owner) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string canonical, CanonicalUuid(owner, "owner"));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          "UPDATE hog_upload SET expires_at = clock_timestamp() + $3 * interval '1 second' "
          "WHERE catalog_id = $1 AND owner = $2 AND state = 'active'",
          {std::to_string(info.catalog_id), canonical, std::to_string(kUploadLeaseSeconds)}));
  return r.affected_rows();
}

Result<int64_t> CatalogService::AbandonUploads(std::string_view catalog, std::string_view owner,
                                               const std::vector<std::string>& paths) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string canonical, CanonicalUuid(owner, "owner"));
  if (paths.size() > kMaxAbandonPaths) {
    return Validation("at most ", kMaxAbandonPaths, " paths may be abandoned at once, got ",
                      paths.size());
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  if (paths.empty()) return int64_t{0};
  std::vector<std::optional<std::string>> values(paths.begin(), paths.end());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec("UPDATE hog_upload SET state = 'abandoned' WHERE catalog_id = $1 "
                 "AND owner = $2 AND state = 'active' AND path = ANY($3::text[])",
                 {std::to_string(info.catalog_id), canonical, pg::PgTextArray(values)}));
  return r.affected_rows();
}

Result<int64_t> CatalogService::ScheduleExpiredUploads(std::string_view catalog, int64_t limit) {
  if (limit < 1 || limit > kScheduleExpiredMaxLimit) {
    return Validation("limit must be in 1..", kScheduleExpiredMaxLimit, ", got ", limit);
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, catalog));
  // One statement: pick the candidates (skipping rows a commit holds), fence
  // them to abandoned, and queue the paths no file row names.
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->Exec(
          "WITH cand AS (SELECT upload_id FROM hog_upload WHERE catalog_id = $1 AND "
          "((state = 'active' AND expires_at < clock_timestamp()) OR (state = 'abandoned' AND "
          "(last_scheduled_at IS NULL OR last_scheduled_at < clock_timestamp() - $3 * interval "
          "'1 second'))) ORDER BY last_scheduled_at NULLS FIRST, upload_id LIMIT $2 "
          "FOR UPDATE SKIP LOCKED), "
          "fenced AS (UPDATE hog_upload u SET state = 'abandoned', last_scheduled_at = "
          "clock_timestamp() FROM cand WHERE u.catalog_id = $1 AND u.upload_id = cand.upload_id "
          "RETURNING u.path, u.file_kind) "
          "INSERT INTO hog_file_removal (catalog_id, path, file_kind, reason) "
          "SELECT $1, f.path, f.file_kind, 'trino_upload' FROM fenced f WHERE NOT EXISTS "
          "(SELECT 1 FROM hog_data_file d WHERE d.catalog_id = $1 AND d.path = f.path)",
          {std::to_string(info.catalog_id), std::to_string(limit),
           std::to_string(kRequeueAbandonedSeconds)}));
  return r.affected_rows();
}

namespace {

// The claim rule over rows (upload_id, path, state, owned, file_kind,
// file_format) read FOR UPDATE: fills `ids` with the claims to mark
// registered.
Status CheckClaims(const pg::PgResult& r, int first_column, const std::vector<int>& rows,
                   const std::map<std::string, const PublishedPath*>& by_path, bool require_claims,
                   std::vector<std::optional<std::string>>* ids) {
  std::set<std::string> claimed;
  const int c = first_column;
  for (int i : rows) {
    const std::string path = r.GetString(i, c + 1);
    const PublishedPath& p = *by_path.at(path);
    const bool same_format = p.file_kind == "delete" || r.GetText(i, c + 5) == p.file_format;
    if (r.GetText(i, c + 2) != "active" || !r.GetBool(i, c + 3) ||
        r.GetText(i, c + 4) != p.file_kind || !same_format) {
      return MakeError(ErrorCode::kCommitConflict, "path '", path,
                       "': upload is fenced, already registered, or belongs to another operation");
    }
    claimed.insert(path);
    ids->emplace_back(r.GetString(i, c));
  }
  if (require_claims) {
    for (const auto& [path, p] : by_path) {
      if (!claimed.contains(path)) return Validation("path '", path, "' has no upload claim");
    }
  }
  return Status::Ok();
}

constexpr const char* kMarkRegistered =
    "UPDATE hog_upload SET state = 'registered' WHERE catalog_id = $1 AND "
    "upload_id = ANY($2::uuid[])";

Status MarkRegistered(pg::PgConnection& conn, const std::string& catalog,
                      const std::vector<std::optional<std::string>>& ids) {
  if (ids.empty()) return Status::Ok();
  return conn.ExecPrepared(kMarkRegistered, {catalog, pg::PgTextArray(ids)}).status();
}

Status QueuedPathError(std::string_view path) {
  return MakeError(ErrorCode::kCommitConflict, "path '", path,
                   "' is scheduled for deletion: use fresh paths, or retry after the removal "
                   "queue drains");
}

Status LivePathError(std::string_view path) {
  return MakeError(ErrorCode::kAlreadyExists, "path '", path,
                   "' is already registered as a live data file: a file is registered once "
                   "(readers would read it twice)");
}

}  // namespace

Status RefuseQueuedPaths(pg::PgConnection& conn, int64_t catalog_id,
                         const std::vector<PublishedPath>& paths) {
  if (paths.empty()) return Status::Ok();
  std::vector<std::optional<std::string>> values;
  for (const PublishedPath& p : paths) values.emplace_back(p.path);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.ExecPrepared("SELECT path FROM hog_file_removal WHERE catalog_id = $1 AND "
                        "drained_at IS NULL AND path = ANY($2::text[]) LIMIT 1",
                        {std::to_string(catalog_id), pg::PgTextArray(values)}));
  if (r.rows() == 0) return Status::Ok();
  return QueuedPathError(r.GetText(0, 0));
}

Status RegisterUploadClaims(pg::PgConnection& conn, int64_t catalog_id,
                            const std::optional<std::string>& owner,
                            const std::vector<PublishedPath>& paths, bool require_claims) {
  if (paths.empty()) return Status::Ok();
  std::map<std::string, const PublishedPath*> by_path;
  std::vector<std::optional<std::string>> values;
  for (const PublishedPath& p : paths) {
    if (by_path.emplace(p.path, &p).second) values.emplace_back(p.path);
  }
  const std::string catalog = std::to_string(catalog_id);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.ExecPrepared(
          "SELECT upload_id::text, path, state, (owner = $3::uuid) IS TRUE, file_kind, "
          "coalesce(file_format, 'parquet') FROM hog_upload WHERE catalog_id = $1 AND "
          "path = ANY($2::text[]) ORDER BY upload_id FOR UPDATE",
          {catalog, pg::PgTextArray(values), owner}));
  std::vector<int> rows;
  for (int i = 0; i < r.rows(); ++i) rows.push_back(i);
  std::vector<std::optional<std::string>> ids;
  HOGLAKE_RETURN_IF_ERROR(CheckClaims(r, 0, rows, by_path, require_claims, &ids));
  return MarkRegistered(conn, catalog, ids);
}

namespace {

// Column 1 tells the rows apart: 'c' a claim (locked, upload_id order), 'q'
// the first undrained removal-queue row naming one of the paths, 'l' the
// first live data file of a table not dropped that already has one
// (hog_live_path, V18: always by the path hash index).
constexpr const char* kGuardRead =
    "WITH c AS (SELECT upload_id::text AS id, path, state, (owner = $3::uuid) IS TRUE "
    "AS owned, file_kind, coalesce(file_format, 'parquet') AS format FROM hog_upload "
    "WHERE catalog_id = $1 AND path = ANY($2::text[]) ORDER BY upload_id FOR UPDATE), "
    "q AS (SELECT path FROM hog_file_removal WHERE catalog_id = $1 AND drained_at IS "
    "NULL AND path = ANY($2::text[]) LIMIT 1), "
    "l AS (SELECT p AS path FROM hog_live_path($1::bigint, $2::text[]) AS p) "
    "SELECT * FROM (SELECT 0 AS o, 'c' AS k, id, path, state, owned, file_kind, format "
    "FROM c UNION ALL SELECT 1, 'q', NULL, path, NULL, NULL, NULL, NULL FROM q "
    "UNION ALL SELECT 2, 'l', NULL, path, NULL, NULL, NULL, NULL FROM l) x "
    "ORDER BY o, id";

}  // namespace

PathGuard::PathGuard(int64_t catalog_id, const std::optional<std::string>& owner,
                     std::vector<PublishedPath> paths, bool require_claims)
    : catalog_(std::to_string(catalog_id)),
      owner_(owner),
      paths_(std::move(paths)),
      require_claims_(require_claims) {}

pg::PgStatement PathGuard::statement() const {
  std::set<std::string_view> seen;
  std::vector<std::optional<std::string>> values;
  for (const PublishedPath& p : paths_) {
    if (seen.insert(p.path).second) values.emplace_back(p.path);
  }
  return {kGuardRead, {catalog_, pg::PgTextArray(values), owner_}};
}

Result<std::optional<pg::PgStatement>> PathGuard::Check(const pg::PgResult& r) const {
  if (paths_.empty()) return std::optional<pg::PgStatement>();
  std::map<std::string, const PublishedPath*> by_path;
  for (const PublishedPath& p : paths_) by_path.emplace(p.path, &p);
  std::vector<int> claim_rows;
  std::optional<std::string> queued;
  std::optional<std::string> live;
  for (int i = 0; i < r.rows(); ++i) {
    const std::string_view kind = r.GetText(i, 1);
    if (kind == "c") {
      claim_rows.push_back(i);
    } else if (kind == "q" && !queued) {
      queued = r.GetString(i, 3);
    } else if (kind == "l" && !live) {
      live = r.GetString(i, 3);
    }
  }
  std::vector<std::optional<std::string>> ids;
  HOGLAKE_RETURN_IF_ERROR(CheckClaims(r, 2, claim_rows, by_path, require_claims_, &ids));
  if (queued) return QueuedPathError(*queued).error();
  if (live) return LivePathError(*live).error();
  if (ids.empty()) return std::optional<pg::PgStatement>();
  return std::optional<pg::PgStatement>(
      pg::PgStatement{kMarkRegistered, {catalog_, pg::PgTextArray(ids)}});
}

Status RegisterAndGuardPaths(pg::PgConnection& conn, int64_t catalog_id,
                             const std::optional<std::string>& owner,
                             const std::vector<PublishedPath>& paths, bool require_claims) {
  PathGuard guard(catalog_id, owner, paths, require_claims);
  if (guard.empty()) return Status::Ok();
  const pg::PgStatement read = guard.statement();
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r, conn.ExecPrepared(read.sql, read.params));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<pg::PgStatement> mark, guard.Check(r));
  if (!mark) return Status::Ok();
  return conn.ExecPrepared(mark->sql, mark->params).status();
}

}  // namespace hoglake::catalog
