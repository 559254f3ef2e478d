#include "pg/migrations.h"

#include "common/log.h"
#include "pg/advisory_locks.h"

namespace hoglake::pg {
namespace {

Status ApplyPending(PgConnection& conn, const std::vector<Migration>& migrations,
                    int* applied_version) {
  HOGLAKE_RETURN_IF_ERROR(
      conn.Exec("CREATE TABLE IF NOT EXISTS hog_schema_migration ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT clock_timestamp())"));
  HOGLAKE_ASSIGN_OR_RETURN(PgResult current,
                           conn.Exec("SELECT coalesce(max(version), 0) FROM hog_schema_migration"));
  int version = static_cast<int>(current.GetInt64(0, 0));
  const int newest = migrations.empty() ? 0 : migrations.back().version;
  if (version > newest) {
    return Unavailable("the catalog database is at schema version ", version,
                       ", newer than this server knows (", newest, "); upgrade hoglake");
  }
  for (const Migration& m : migrations) {
    if (m.version <= version) continue;
    LogInfo("applying migration V", m.version, "__", m.name);
    HOGLAKE_ASSIGN_OR_RETURN(PgTransaction txn, PgTransaction::Begin(conn));
    HOGLAKE_RETURN_IF_ERROR(conn.ExecScript(m.sql));
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec("INSERT INTO hog_schema_migration (version, name) VALUES ($1, $2)",
                  {std::to_string(m.version), std::string(m.name)}));
    HOGLAKE_RETURN_IF_ERROR(txn.Commit());
    version = m.version;
  }
  *applied_version = version;
  return Status::Ok();
}

}  // namespace

Result<int> Migrate(PgConnection& conn, const std::vector<Migration>& migrations) {
  const std::string key = std::to_string(AdvisoryLockKey(LockClass::kMigration, 0));
  HOGLAKE_RETURN_IF_ERROR(conn.Exec("SELECT pg_advisory_lock($1)", {key}));
  int version = 0;
  Status status = ApplyPending(conn, migrations, &version);
  (void)conn.Exec("SELECT pg_advisory_unlock($1)", {key});
  if (!status.ok()) return status.error();
  return version;
}

}  // namespace hoglake::pg
