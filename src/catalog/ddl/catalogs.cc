// CatalogService: catalog creation, listing and lookup.
#include "catalog/catalog_service.h"
#include "catalog/model/identifiers.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kCatalogColumns =
    "name, data_path, last_snapshot_id, schema_version, "
    "(extract(epoch from earliest_snapshot_time) * 1000000)::bigint, catalog_id";

CatalogInfo CatalogFromRow(const pg::PgResult& r, int row) {
  CatalogInfo info;
  info.name = r.GetString(row, 0);
  info.data_path = r.GetString(row, 1);
  info.head_snapshot_id = r.GetInt64(row, 2);
  info.schema_version = r.GetInt64(row, 3);
  info.earliest_snapshot_time_micros = r.GetOptionalInt64(row, 4);
  info.catalog_id = r.GetInt64(row, 5);
  return info;
}

}  // namespace

CatalogService::CatalogService(pg::PgPool* pool, CatalogServiceOptions options)
    : pool_(pool), options_(options) {}

Status CatalogService::Ping() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgConnection conn, pg::PgConnection::Open(pool_->conninfo()));
  return conn.Exec("SELECT 1").status();
}

Result<CatalogInfo> CatalogService::CreateCatalog(std::string_view name,
                                                  std::string_view data_path) {
  HOGLAKE_RETURN_IF_ERROR(ValidateCatalogName(name));
  HOGLAKE_ASSIGN_OR_RETURN(std::string path, NormalizeDataPath(data_path));
  if (Status allowed = options_.data_paths.Check(path); !allowed.ok()) {
    return Validation(allowed.error().message);
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction txn, pg::PgTransaction::Begin(*conn));
  // Catalog creation serializes on one instance-wide key so that the overlap
  // check cannot race another creation.
  HOGLAKE_RETURN_IF_ERROR(conn->Exec("SELECT set_config('lock_timeout', $1, true)",
                                     {std::to_string(options_.commit_lock_timeout_ms)}));
  HOGLAKE_RETURN_IF_ERROR(AcquireCommitLock(
      *conn, pg::AdvisoryLockKey(pg::LockClass::kCatalogCommit, 0), options_.commit_lock_observer));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult existing,
                           conn->Exec("SELECT name, data_path FROM hog_catalog"));
  for (int i = 0; i < existing.rows(); ++i) {
    if (existing.GetText(i, 0) == name) return AlreadyExists("catalog '", name, "' already exists");
  }
  for (int i = 0; i < existing.rows(); ++i) {
    std::string other = existing.GetString(i, 1);
    if (!other.ends_with('/')) other += '/';
    if (DataPathsOverlap(path, other)) {
      return Validation("data_path '", data_path, "' overlaps the data_path of catalog '",
                        existing.GetText(i, 0), "' (", existing.GetText(i, 1), ")");
    }
  }
  // Stored as given (without the trailing slash normalization) when it had none.
  std::string stored(data_path);
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult inserted,
      conn->Exec("INSERT INTO hog_catalog (name, data_path) VALUES ($1, $2) RETURNING catalog_id",
                 {std::string(name), stored}));
  HOGLAKE_RETURN_IF_ERROR(conn->Exec(
      "INSERT INTO hog_snapshot (catalog_id, snapshot_id, snapshot_time, schema_version) "
      "VALUES ($1, 0, clock_timestamp(), 0)",
      {inserted.GetString(0, 0)}));
  HOGLAKE_RETURN_IF_ERROR(txn.Commit());
  return CatalogInfo{std::string(name), stored, 0, 0, std::nullopt, inserted.GetInt64(0, 0)};
}

Result<std::vector<CatalogInfo>> CatalogService::ListCatalogs() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r, conn->Exec(StrCat("SELECT ", kCatalogColumns,
                                                             " FROM hog_catalog ORDER BY name")));
  std::vector<CatalogInfo> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(CatalogFromRow(r, i));
  return out;
}

Result<CatalogInfo> CatalogService::GetCatalog(std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  return GetCatalogOn(*conn, name);
}

Result<CatalogInfo> CatalogService::GetCatalogOn(pg::PgConnection& conn, std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.ExecPrepared(StrCat("SELECT ", kCatalogColumns, " FROM hog_catalog WHERE name = $1"),
                        {std::string(name)}));
  if (r.rows() == 0) return NotFound("catalog '", name, "' not found");
  return CatalogFromRow(r, 0);
}

Result<CatalogService::CatalogIdentity> CatalogService::IdentifyCatalog(std::string_view name) {
  {
    std::lock_guard<std::mutex> guard(identities_mutex_);
    auto known = identities_.find(name);
    if (known != identities_.end()) return known->second;
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, GetCatalogOn(*conn, name));
  CatalogIdentity identity{info.catalog_id, info.data_path};
  std::lock_guard<std::mutex> guard(identities_mutex_);
  identities_.emplace(std::string(name), identity);
  return identity;
}

}  // namespace hoglake::catalog
