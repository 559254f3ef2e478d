#include "sql/source/partition_specs.h"

namespace hoglake::sql {
namespace {

bool Carries(const catalog::ResolvedTable& table, int64_t spec_id) {
  if (table.info.partition_spec && table.info.partition_spec->spec_id == spec_id) return true;
  for (const catalog::PartitionSpecInfo& spec : table.partition_specs) {
    if (spec.spec_id == spec_id) return true;
  }
  return false;
}

}  // namespace

Status AddPartitionSpecsOfFiles(catalog::LakeTables& tables, catalog::ResolvedTable& table,
                                const std::vector<catalog::DataFileInfo>& files) {
  for (const catalog::DataFileInfo& file : files) {
    if (!file.spec_id || !file.partition_values || Carries(table, *file.spec_id)) continue;
    HOGLAKE_ASSIGN_OR_RETURN(table.partition_specs, tables.PartitionSpecs(table));
    return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace hoglake::sql
