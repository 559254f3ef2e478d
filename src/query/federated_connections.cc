#include "query/federated_connections.h"

#include <algorithm>

#include "catalog/model/identifiers.h"
#include "common/encoding.h"
#include "common/secret_box.h"
#include "common/sha256.h"

namespace hoglake::query {
namespace {

constexpr std::string_view kColumns =
    "id, source_type, host, port, user_name, database_name, discovery_status, discovery_error";

FederatedConnection FromRow(const pg::PgResult& r, int row) {
  FederatedConnection c;
  c.id = r.GetString(row, 0);
  c.source_type = r.GetString(row, 1);
  c.host = r.GetString(row, 2);
  c.port = static_cast<int>(r.GetInt64(row, 3));
  c.user = r.GetString(row, 4);
  c.database = r.GetString(row, 5);
  c.discovery_status = r.GetString(row, 6);
  if (!r.IsNull(row, 7)) c.discovery_error = r.GetString(row, 7);
  return c;
}

// One libpq conninfo value, quoted.
std::string Quoted(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string Conninfo(const PostgresSource& source) {
  std::string info =
      StrCat("host=", Quoted(source.host), " port=", source.port, " user=", Quoted(source.user),
             " dbname=", Quoted(source.database), " application_name='hoglake discovery'");
  if (source.password) info += " password=" + Quoted(*source.password);
  return info;
}

// Every column of every table, view, materialized view and foreign table
// outside the system schemas, in (schema, table, position) order.
constexpr std::string_view kDiscoverySql =
    "SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod), "
    "NOT a.attnotnull "
    "FROM pg_catalog.pg_class c "
    "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
    "JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
    "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') "
    "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
    "AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%' "
    "ORDER BY n.nspname COLLATE \"C\", c.relname COLLATE \"C\", a.attnum";

Status ValidateSource(const PostgresSource& source) {
  if (source.host.empty()) return BadRequest("config.host is required for a postgres connection");
  if (source.user.empty()) return BadRequest("config.user is required for a postgres connection");
  if (source.database.empty()) {
    return BadRequest("config.database is required for a postgres connection");
  }
  if (source.port < 1 || source.port > 65535) {
    return BadRequest("config.port must be between 1 and 65535, not ", source.port);
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> ConnectionSecretKey(std::string_view secret_key, std::string token_key) {
  if (secret_key.empty()) return token_key;
  if (secret_key.size() < 16) {
    return InvalidArgument("HOGLAKE_SECRET_KEY must be at least 16 characters");
  }
  return Sha256(StrCat(kConnectionSecretsPurpose, "\n", secret_key));
}

Result<std::vector<sql::ListingTable>> FederatedConnections::Discover(
    const PostgresSource& source) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgConnection conn, pg::PgConnection::Open(Conninfo(source)));
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgResult r, conn.Exec(kDiscoverySql));
  std::vector<sql::ListingTable> tables;
  for (int row = 0; row < r.rows(); ++row) {
    std::string schema = r.GetString(row, 0);
    std::string table = r.GetString(row, 1);
    if (tables.empty() || tables.back().schema != schema || tables.back().table != table) {
      tables.push_back(sql::ListingTable{"", std::move(schema), std::move(table), {}});
    }
    tables.back().columns.push_back(
        sql::ListingColumn{r.GetString(row, 2), r.GetString(row, 3), r.GetBool(row, 4)});
  }
  return tables;
}

Status FederatedConnections::StoreDiscovery(const std::string& id,
                                            const Result<std::vector<sql::ListingTable>>& found,
                                            std::vector<pg::PgStatement> first) {
  std::vector<pg::PgStatement> statements = std::move(first);
  statements.push_back({"DELETE FROM hog_federated_column WHERE connection_id = $1", {id}});
  if (found.ok()) {
    statements.push_back(
        {"UPDATE hog_federated_connection SET discovery_status = $2, "
         "discovery_error = NULL, discovered_at = now() WHERE id = $1",
         {id, std::string(kDiscoverySucceeded)}});
    for (const sql::ListingTable& t : *found) {
      for (size_t i = 0; i < t.columns.size(); ++i) {
        const sql::ListingColumn& c = t.columns[i];
        statements.push_back(
            {"INSERT INTO hog_federated_column (connection_id, schema_name, "
             "table_name, ordinal, column_name, data_type, nullable) "
             "VALUES ($1, $2, $3, $4, $5, $6, $7)",
             {id, t.schema, t.table, std::to_string(i + 1), c.name, c.data_type,
              std::string(c.nullable ? "t" : "f")}});
      }
    }
  } else {
    statements.push_back(
        {"UPDATE hog_federated_connection SET discovery_status = $2, "
         "discovery_error = $3, discovered_at = now() WHERE id = $1",
         {id, std::string(kDiscoveryFailed), found.error().message}});
  }
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgTransaction tx, pg::PgTransaction::Begin(*conn));
  return tx.Commit(statements);
}

Result<Discovered> FederatedConnections::Register(const std::string& name,
                                                  const PostgresSource& source) {
  if (Status valid = catalog::ValidateCatalogName(name); !valid.ok()) {
    return BadRequest("connection name: ", valid.error().message);
  }
  HOGLAKE_RETURN_IF_ERROR(ValidateSource(source));
  if (secret_key_.empty() && source.password) {
    return MakeError(ErrorCode::kUnavailable,
                     "this server has no key to store connection secrets with: set "
                     "HOGLAKE_SECRET_KEY (or API tokens) and restart it");
  }
  auto taken = [&] {
    return MakeError(ErrorCode::kAlreadyExists,
                     StrCat("a connection named '", name, "' already exists"));
  };
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> catalogs, lake_->ListCatalogNames());
  if (std::find(catalogs.begin(), catalogs.end(), name) != catalogs.end()) return taken();
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<FederatedConnection> existing, Find(name));
  if (existing) return taken();
  pg::PgParam sealed;
  if (source.password) {
    HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, SealSecret(secret_key_, name, *source.password));
    sealed = "\\x" + HexEncode(bytes);
  }
  // Discovered before the row is written, so the row appears with its
  // listing in one transaction.
  Result<std::vector<sql::ListingTable>> found = Discover(source);
  std::vector<pg::PgStatement> insert;
  insert.push_back(
      {"INSERT INTO hog_federated_connection (id, source_type, host, port, "
       "user_name, database_name, secret_sealed, discovery_status) "
       "VALUES ($1, $2, $3, $4, $5, $6, $7::bytea, $8)",
       {name, std::string(kPostgresSourceType), source.host, std::to_string(source.port),
        source.user, source.database, sealed, std::string(kDiscoveryFailed)}});
  Status stored = StoreDiscovery(name, found, std::move(insert));
  if (!stored.ok()) {
    if (stored.error().code == ErrorCode::kAlreadyExists) return taken();
    return stored.error();
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<FederatedConnection> row, Find(name));
  if (!row) return MakeError(ErrorCode::kNotFound, StrCat("connection '", name, "' not found"));
  return Discovered{*row, found.ok() ? static_cast<int64_t>(found->size()) : 0};
}

Result<Discovered> FederatedConnections::Refresh(const std::string& id) {
  FederatedConnection row;
  std::optional<std::string> sealed;
  {
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult r,
        conn->ExecPrepared(StrCat("SELECT ", kColumns,
                                  ", secret_sealed FROM hog_federated_connection WHERE id = $1"),
                           {id}));
    if (r.rows() == 0) {
      return MakeError(ErrorCode::kNotFound, StrCat("connection '", id, "' not found"));
    }
    row = FromRow(r, 0);
    if (!r.IsNull(0, 8)) {
      std::string_view hex = r.GetText(0, 8);
      if (hex.starts_with("\\x")) hex.remove_prefix(2);
      HOGLAKE_ASSIGN_OR_RETURN(sealed, HexDecode(hex));
    }
  }
  PostgresSource source{row.host, row.port, row.user, row.database, std::nullopt};
  if (sealed) {
    if (secret_key_.empty()) {
      return MakeError(ErrorCode::kUnavailable,
                       "this server has no key to open connection secrets with: set "
                       "HOGLAKE_SECRET_KEY (or API tokens) as when the connection was registered");
    }
    Result<std::string> password = OpenSecret(secret_key_, id, *sealed);
    if (!password.ok()) {
      return MakeError(ErrorCode::kUnavailable,
                       StrCat("the password of connection '", id,
                              "' does not open with this server's secret key (was "
                              "HOGLAKE_SECRET_KEY changed?)"));
    }
    source.password = std::move(*password);
  }
  Result<std::vector<sql::ListingTable>> found = Discover(source);
  HOGLAKE_RETURN_IF_ERROR(StoreDiscovery(id, found, {}));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<FederatedConnection> now, Find(id));
  if (!now) return MakeError(ErrorCode::kNotFound, StrCat("connection '", id, "' not found"));
  return Discovered{*now, found.ok() ? static_cast<int64_t>(found->size()) : 0};
}

Result<std::vector<FederatedConnection>> FederatedConnections::List() {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r, conn->ExecPrepared(StrCat("SELECT ", kColumns,
                                                " FROM hog_federated_connection ORDER BY id")));
  std::vector<FederatedConnection> out;
  for (int row = 0; row < r.rows(); ++row) out.push_back(FromRow(r, row));
  return out;
}

Result<std::optional<FederatedConnection>> FederatedConnections::Find(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared(
          StrCat("SELECT ", kColumns, " FROM hog_federated_connection WHERE id = $1"), {id}));
  if (r.rows() == 0) return std::optional<FederatedConnection>();
  return std::optional<FederatedConnection>(FromRow(r, 0));
}

Result<std::vector<sql::ListingTable>> FederatedConnections::Tables(const std::string& id,
                                                                    bool with_columns) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared("SELECT schema_name, table_name, column_name, data_type, nullable "
                         "FROM hog_federated_column WHERE connection_id = $1 "
                         "ORDER BY schema_name COLLATE \"C\", table_name COLLATE \"C\", ordinal",
                         {id}));
  std::vector<sql::ListingTable> tables;
  for (int row = 0; row < r.rows(); ++row) {
    std::string schema = r.GetString(row, 0);
    std::string table = r.GetString(row, 1);
    if (tables.empty() || tables.back().schema != schema || tables.back().table != table) {
      tables.push_back(sql::ListingTable{id, std::move(schema), std::move(table), {}});
    }
    if (with_columns) {
      tables.back().columns.push_back(
          sql::ListingColumn{r.GetString(row, 2), r.GetString(row, 3), r.GetBool(row, 4)});
    }
  }
  return tables;
}

Status FederatedConnections::Delete(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(pg::PgPool::Lease conn, pool_->Acquire());
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn->ExecPrepared("DELETE FROM hog_federated_connection WHERE id = $1 RETURNING id", {id}));
  if (r.rows() == 0)
    return MakeError(ErrorCode::kNotFound, StrCat("connection '", id, "' not found"));
  return Status::Ok();
}

}  // namespace hoglake::query
