// Catalog invariants checked after load (the same list the benchmarks check):
// snapshot ids are dense from the expiry floor (0 until expiry runs) to head, and each table's
// row-id ranges tile [0, next) exactly — no gap, no overlap — in row_id_start order.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {

// Adds a test failure for every broken invariant of `catalog` (a name), over
// the tables "ns.table" listed.
void ExpectCatalogInvariants(const std::string& catalog, const std::vector<std::string>& tables);
// As above, against the server at `base_url` (a second ServerProcess).
void ExpectCatalogInvariantsAt(const std::string& base_url, const std::string& catalog,
                               const std::vector<std::string>& tables);

// Checks beneath the API, on `pg` (a session on the catalog's database), for
// catalog `catalog` (a name). Row ids: every file row's range (live or
// historical, implicit ids) starts at or above 0, overlaps no other row's range
// of the same table and ends at or below the table's allocator.
void ExpectRowIdRangesDisjoint(PgSession& pg, const std::string& catalog);

// Every path a data-file row names (live or historical: a retained snapshot
// may read it) has its object, as `exists` tells.
void ExpectFileRowObjectsExist(PgSession& pg, const std::string& catalog,
                               const std::function<bool(const std::string&)>& exists);

// Every path in `registered` (paths once committed) is still named by a file
// row or by a removal-queue row: a path with neither has been forgotten and
// its object would leak. No undrained queue row names a path a file row or an
// active upload claim still holds. Includes ExpectNoOrphanFileChildren.
void ExpectRemovalBookkeeping(PgSession& pg, const std::string& catalog,
                              const std::set<std::string>& registered);

// Every live table's running totals (hog_table_stats: files, rows, bytes)
// equal the sums over its live file rows.
void ExpectLiveTotalsKept(PgSession& pg, const std::string& catalog);

// No column-stats or partition-value row outlives its data-file row (file-row
// deletes remove them explicitly: V11 dropped the cascades), and every
// data-file row names a table that exists (V15 dropped that foreign key),
// and every snapshot and change row a catalog that exists (V16 dropped those).
void ExpectNoOrphanFileChildren(PgSession& pg, const std::string& catalog);

// For file:// paths: whether the object exists on disk.
bool LocalObjectExists(const std::string& uri);

}  // namespace hoglake::testing
