// ManagedRegistry: the rows of the query service's managed databases
// (migration V20, hog_managed_database), so every replica on the catalog
// database sees them.
//
// A managed database is an ordinary hoglake catalog the Hotdata API created:
// kind "connection" (POST /v1/connections, source_type "managed"; id = name
// = catalog name) or "database" (POST /v1/databases; id = catalog name,
// free-form name). Deleting one writes a tombstone (dropped_at): there is no
// catalog drop, so the emptied catalog stays and the tombstone hides it
// from the connection listing. Insert over a connection's tombstone of the
// same catalog takes it back (Revive).
//
// Errors: kNotFound naming the id; kAlreadyExists for a live connection of
// the same name or a catalog already registered; the database's otherwise.
// Thread-safe (each call leases its own connection).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "pg/pg_pool.h"

namespace hoglake::query {

enum class ManagedKind { kConnection, kDatabase };

struct ManagedDatabase {
  std::string id;
  std::string name;
  ManagedKind kind = ManagedKind::kDatabase;
  std::string catalog;
  std::string default_schema;
  std::string created_at;  // RFC 3339, UTC
  int64_t created_micros = 0;
  bool dropped = false;
};

struct ManagedPage {
  std::vector<ManagedDatabase> databases;
  std::optional<std::string> next_cursor;
};

class ManagedRegistry {
 public:
  explicit ManagedRegistry(pg::PgPool* pool) : pool_(pool) {}

  // Inserts a live row; over a tombstone of the same catalog it revives it
  // (new name, default schema and created_at).
  Result<ManagedDatabase> Insert(const ManagedDatabase& row);
  // Live or tombstoned; nullopt when the id was never registered.
  Result<std::optional<ManagedDatabase>> Find(const std::string& id);
  // Live rows only (kNotFound otherwise).
  Result<ManagedDatabase> Get(const std::string& id);
  // Every row, live and tombstoned (the connection listing labels and hides
  // catalogs with them).
  Result<std::vector<ManagedDatabase>> ListAll();
  // Live databases (kind database), newest first, keyset-paged.
  Result<ManagedPage> ListDatabases(int64_t limit, const std::optional<std::string>& cursor);
  // Tombstones a live row; kNotFound when there is none.
  Status MarkDropped(const std::string& id);

 private:
  pg::PgPool* pool_;
};

std::string_view ManagedKindName(ManagedKind kind);

}  // namespace hoglake::query
