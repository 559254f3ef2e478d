// Consumer offsets across table incarnations (server digest §4.4, §5.1).
// An atomic replacement links the new incarnation to the one it replaced
// (hog_table.replaced_table_id); a consumer that moved on to the new
// incarnation no longer needs its offset on the old one, which would
// otherwise pin a consumer-floored expiry forever. Internal to src/catalog.
//
// A lineage step counts only while created_snapshot strictly increases
// from ancestor to descendant (a guard against cycles in corrupt data).
#pragma once

#include <cstdint>
#include <string_view>

#include "pg/pg_connection.h"

namespace hoglake::catalog {

// Release-on-reconcile: after `consumer` committed `snapshot` on the
// incarnation `table_uuid`, deletes its offsets on that incarnation's
// ancestors — only when `snapshot` is at or past the incarnation's
// creation. Returns how many offsets went.
Result<int64_t> ReleaseAncestorOffsets(pg::PgConnection& conn, int64_t catalog_id,
                                       std::string_view consumer, std::string_view table_uuid,
                                       int64_t snapshot);

// Expiry's forward walk, over every consumer: deletes an offset on a
// DROPPED incarnation when the same consumer holds an offset on one of its
// descendants at or past that descendant's creation. Returns how many.
Result<int64_t> ReleaseSupersededOffsets(pg::PgConnection& conn, int64_t catalog_id);

}  // namespace hoglake::catalog
