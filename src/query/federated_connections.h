// FederatedConnections: external PostgreSQL databases registered as Hotdata
// connections (hotdata-api.md §6.1, source_type "postgres"), kept in
// migration V22's hog_federated_connection / hog_federated_column so every
// replica on the catalog database sees them.
//
// A connection's id is its name, which is also the catalog its tables have
// in SQL, so it must be a valid catalog name no lake catalog (or other
// connection) already uses. Its password is stored only sealed with the
// server's secret key (common/secret_box.h, the id as context) and never
// returned. Register connects with libpq and lists every table, view and
// foreign table outside pg_catalog / information_schema with its columns
// (format_type's PostgreSQL type names, nullability from NOT NULL); that
// listing is stored and is what information_schema shows. A failed
// discovery still registers the connection (status "failed", the error
// kept, no tables); Refresh discovers again with the stored secret.
// Reading the tables' rows is not supported yet.
//
// Errors: kBadRequest for a bad name or config; kAlreadyExists for a name
// in use; kNotFound naming an unknown id; kUnavailable when the server has
// no secret key. Thread-safe (each call leases its own connection).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/lake_tables.h"
#include "common/status.h"
#include "pg/pg_connection.h"
#include "pg/pg_pool.h"
#include "sql/source/schema_listing.h"

namespace hoglake::query {

inline constexpr std::string_view kPostgresSourceType = "postgres";
// A discovery's outcome (hotdata-api.md §2.6; V22's CHECK).
inline constexpr std::string_view kDiscoverySucceeded = "success";
inline constexpr std::string_view kDiscoveryFailed = "failed";

struct PostgresSource {
  std::string host;
  int port = 5432;
  std::string user;
  std::string database;
  std::optional<std::string> password;
};

struct FederatedConnection {
  std::string id;
  std::string source_type;
  std::string host;
  int port = 0;
  std::string user;
  std::string database;
  std::string discovery_status;  // success | failed
  std::optional<std::string> discovery_error;
};

struct Discovered {
  FederatedConnection connection;
  int64_t tables_discovered = 0;
};

class FederatedConnections {
 public:
  // `secret_key`: kSecretKeyBytes, or empty when the server has none
  // (registering then answers kUnavailable). `lake` (for name clashes) and
  // `pool` must outlive this.
  FederatedConnections(pg::PgPool* pool, catalog::LakeTables* lake, std::string secret_key)
      : pool_(pool), lake_(lake), secret_key_(std::move(secret_key)) {}

  Result<Discovered> Register(const std::string& name, const PostgresSource& source);
  Result<Discovered> Refresh(const std::string& id);
  Result<std::vector<FederatedConnection>> List();
  Result<std::optional<FederatedConnection>> Find(const std::string& id);
  // The stored listing of one connection in (schema, table) order.
  Result<std::vector<sql::ListingTable>> Tables(const std::string& id, bool with_columns);
  // kNotFound naming the id.
  Status Delete(const std::string& id);

 private:
  // Connects and lists; the error's message on failure.
  Result<std::vector<sql::ListingTable>> Discover(const PostgresSource& source);
  // `first`, then the row's listing and discovery outcome replaced, in one
  // transaction.
  Status StoreDiscovery(const std::string& id, const Result<std::vector<sql::ListingTable>>& found,
                        std::vector<pg::PgStatement> first);

  pg::PgPool* pool_;
  catalog::LakeTables* lake_;
  std::string secret_key_;
};

// The key connection secrets are sealed with: SHA-256 of `secret_key`
// (HOGLAKE_SECRET_KEY, at least 16 characters) when set, else `token_key`
// (ApiTokens::DerivedKey, empty without tokens). kInvalidArgument for a
// secret key shorter than 16 characters.
inline constexpr std::string_view kConnectionSecretsPurpose = "hoglake connection secrets v1";
Result<std::string> ConnectionSecretKey(std::string_view secret_key, std::string token_key);

}  // namespace hoglake::query
