// The partition specs a scan needs to read its files' partition values
// (partition_pruning.cc): when a live file names a spec the resolved table
// does not carry (written before the spec last changed), the table's specs
// are asked of the catalog once and kept in ResolvedTable::partition_specs.
#pragma once

#include <vector>

#include "catalog/lake_tables.h"
#include "common/status.h"

namespace hoglake::sql {

Status AddPartitionSpecsOfFiles(catalog::LakeTables& tables, catalog::ResolvedTable& table,
                                const std::vector<catalog::DataFileInfo>& files);

}  // namespace hoglake::sql
