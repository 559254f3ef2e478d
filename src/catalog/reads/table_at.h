// CatalogService::TableAt: a table resolved at one snapshot inside an open
// read-only repeatable-read transaction (CatalogService::OpenTableAt). Shared
// by the read-planning translation units.
#pragma once

#include <cstdint>

#include "catalog/catalog_service.h"

namespace hoglake::catalog {

struct CatalogService::TableAt {
  pg::PgTransaction txn;
  CatalogHead head;
  int64_t snapshot = 0;
  TableInfo table;
};

}  // namespace hoglake::catalog
