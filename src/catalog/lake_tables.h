// LakeTables: the narrow read-only view of the catalog the SQL engine needs —
// name lookups, a table resolved at one snapshot, and that snapshot's live
// data files with their statistics — so the binder and planner depend on
// these few calls rather than on CatalogService, and their tests run over an
// in-memory implementation without PostgreSQL.
//
// Resolve pins a snapshot: the head when `at` is empty, else the selector's
// snapshot (time travel, contract §1.7 errors). LiveFiles lists the files
// live at exactly that pinned snapshot, so a commit landing between the two
// calls changes neither. Errors are the catalog's (kNotFound naming the
// missing catalog, namespace or table; kExpired below the floor).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/model/file_info.h"
#include "catalog/model/snapshot_selector_types.h"
#include "catalog/model/table_info.h"
#include "common/status.h"

namespace hoglake::catalog {

class CatalogService;

struct ResolvedTable {
  std::string catalog;
  std::string namespace_name;
  std::string name;
  int64_t snapshot_id = 0;  // the pinned snapshot every later call reads at
  TableInfo info;           // columns with field ids, partition spec, sort spec
  // The partition specs the catalog holds for the table, by spec_id: the
  // one in `info` and the older ones files may have been written under
  // (a file's DataFileInfo::spec_id names its spec). A spec missing here
  // (expired) leaves its files' partition values unread.
  std::vector<PartitionSpecInfo> partition_specs;
};

class LakeTables {
 public:
  virtual ~LakeTables() = default;

  virtual Result<std::vector<std::string>> ListCatalogNames() = 0;
  virtual Result<std::vector<std::string>> ListNamespaceNames(const std::string& catalog) = 0;
  virtual Result<std::vector<std::string>> ListTableNames(const std::string& catalog,
                                                          const std::string& namespace_name) = 0;

  virtual Result<ResolvedTable> Resolve(const std::string& catalog,
                                        const std::string& namespace_name,
                                        const std::string& table, const SnapshotSelector& at) = 0;

  // The data files live at table.snapshot_id, each with column_stats (one
  // row per leaf field that has statistics) and its partition values.
  virtual Result<std::vector<DataFileInfo>> LiveFiles(const ResolvedTable& table) = 0;

  // The partition specs of the table at table.snapshot_id the catalog still
  // holds (ResolvedTable::partition_specs), asked for when a live file names
  // a spec `table` does not carry. The default knows only table's own.
  virtual Result<std::vector<PartitionSpecInfo>> PartitionSpecs(const ResolvedTable& table) {
    std::vector<PartitionSpecInfo> specs = table.partition_specs;
    if (specs.empty() && table.info.partition_spec) specs.push_back(*table.info.partition_spec);
    return specs;
  }
};

// LakeTables over a running CatalogService (which must outlive it).
std::unique_ptr<LakeTables> LakeTablesOver(CatalogService& service);

}  // namespace hoglake::catalog
