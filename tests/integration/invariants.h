// Catalog invariants checked after load (the same list the benchmarks check):
// snapshot ids are dense from the expiry floor (0 until expiry runs) to head, and each table's
// row-id ranges tile [0, next) exactly — no gap, no overlap — in row_id_start order.
#pragma once

#include <string>

#include "server_fixture.h"

namespace hoglake::testing {

// Adds a test failure for every broken invariant of `catalog` (a name), over
// the tables "ns.table" listed.
void ExpectCatalogInvariants(const std::string& catalog, const std::vector<std::string>& tables);
// As above, against the server at `base_url` (a second ServerProcess).
void ExpectCatalogInvariantsAt(const std::string& base_url, const std::string& catalog,
                               const std::vector<std::string>& tables);

}  // namespace hoglake::testing
