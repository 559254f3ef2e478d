#include "query/managed_registry.h"

#include "query/keyset_cursor.h"
#include "query/timestamp_sql.h"

namespace hoglake::query {
namespace {

const std::string& Columns() {
  static const std::string columns =
      StrCat("id, name, kind, catalog_name, default_schema, ", Rfc3339Sql("created_at"),
             ", (extract(epoch FROM created_at) * 1000000)::bigint, dropped_at IS NOT NULL");
  return columns;
}

ManagedDatabase FromRow(const pg::PgResult& r, int row) {
  ManagedDatabase m;
  m.id = r.GetString(row, 0);
  m.name = r.GetString(row, 1);
  m.kind = r.GetText(row, 2) == "connection" ? ManagedKind::kConnection : ManagedKind::kDatabase;
  m.catalog = r.GetString(row, 3);
  m.default_schema = r.GetString(row, 4);
  m.created_at = r.GetString(row, 5);
  m.created_micros = r.GetInt64(row, 6);
  m.dropped = r.GetBool(row, 7);
  return m;
}

}  // namespace

std::string_view ManagedKindName(ManagedKind kind) {
  return kind == ManagedKind::kConnection ? "connection" : "database";
}

Result<ManagedDatabase> ManagedRegistry::Insert(const ManagedDatabase& row) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  Result<pg::PgResult> inserted = conn->ExecPrepared(
      StrCat("INSERT INTO hog_managed_database (id, name, kind, catalog_name, default_schema) "
             "VALUES ($1, $2, $3, $4, $5) "
             "ON CONFLICT (catalog_name) DO UPDATE SET name = EXCLUDED.name, "
             "default_schema = EXCLUDED.default_schema, created_at = now(), dropped_at = NULL "
             "WHERE hog_managed_database.dropped_at IS NOT NULL "
             "AND hog_managed_database.id = EXCLUDED.id RETURNING ",
             Columns()),
      {row.id, row.name, std::string(ManagedKindName(row.kind)), row.catalog, row.default_schema});
  if (!inserted.ok()) {
    if (inserted.error().code == ErrorCode::kAlreadyExists) {
      return MakeError(ErrorCode::kAlreadyExists,
                       StrCat("a connection named '", row.name, "' already exists"));
    }
    return inserted.error();
  }
  if (inserted->rows() == 0) {
    return MakeError(ErrorCode::kAlreadyExists,
                     StrCat("catalog '", row.catalog, "' is already a managed database"));
  }
  return FromRow(*inserted, 0);
}

Result<std::optional<ManagedDatabase>> ManagedRegistry::Find(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(StrCat("SELECT ", Columns(), " FROM hog_managed_database WHERE id = $1"),
                         {id}));
  if (r.rows() == 0) return std::optional<ManagedDatabase>();
  return std::optional<ManagedDatabase>(FromRow(r, 0));
}

Result<ManagedDatabase> ManagedRegistry::Get(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<ManagedDatabase> found, Find(id));
  if (!found || found->dropped) {
    return MakeError(ErrorCode::kNotFound, StrCat("managed database '", id, "' not found"));
  }
  return *found;
}

Result<std::vector<ManagedDatabase>> ManagedRegistry::ListAll() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(StrCat("SELECT ", Columns(), " FROM hog_managed_database ORDER BY id")));
  std::vector<ManagedDatabase> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(FromRow(r, i));
  return out;
}

Result<ManagedPage> ManagedRegistry::ListDatabases(int64_t limit,
                                                   const std::optional<std::string>& cursor) {
  std::optional<std::pair<int64_t, std::string>> after;
  if (cursor) {
    HOGLAKE_ASSIGN_OR_RETURN(after, DecodeKeysetCursor(*cursor));
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(
          StrCat("SELECT ", Columns(),
                 " FROM hog_managed_database WHERE kind = 'database' AND dropped_at IS NULL "
                 "AND ($1::bigint IS NULL OR ((extract(epoch FROM created_at) * 1000000)::bigint, "
                 "id) < ($1::bigint, $2)) ORDER BY created_at DESC, id DESC LIMIT $3"),
          {after ? std::optional<std::string>(std::to_string(after->first)) : std::nullopt,
           after ? std::optional<std::string>(after->second) : std::nullopt,
           std::to_string(limit + 1)}));
  ManagedPage page;
  for (int i = 0; i < r.rows() && static_cast<int64_t>(page.databases.size()) < limit; ++i) {
    page.databases.push_back(FromRow(r, i));
  }
  if (r.rows() > limit && !page.databases.empty()) {
    const ManagedDatabase& last = page.databases.back();
    page.next_cursor = EncodeKeysetCursor(last.created_micros, last.id);
  }
  return page;
}

Status ManagedRegistry::MarkDropped(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r,
                           conn->ExecPrepared("UPDATE hog_managed_database SET dropped_at = now() "
                                              "WHERE id = $1 AND dropped_at IS NULL RETURNING id",
                                              {id}));
  if (r.rows() == 0) {
    return MakeError(ErrorCode::kNotFound, StrCat("managed database '", id, "' not found"));
  }
  return Status::Ok();
}

}  // namespace hoglake::query
