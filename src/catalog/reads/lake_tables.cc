// LakeTablesOver: LakeTables answered by CatalogService's read calls. Names
// are listed at head; Resolve is GetTable at the selector, pinning the
// snapshot it read at; LiveFiles is a scan with column statistics at exactly
// that snapshot; PartitionSpecs is ListPartitionSpecs there.
#include "catalog/lake_tables.h"

#include <algorithm>
#include <utility>

#include "catalog/catalog_service.h"

namespace hoglake::catalog {
namespace {

// The `name` of every item (CatalogInfo, NamespaceInfo, TableSummary), in
// byte order whatever the database's collation.
template <typename Item>
std::vector<std::string> SortedNames(std::vector<Item> items) {
  std::vector<std::string> names;
  names.reserve(items.size());
  for (Item& item : items) names.push_back(std::move(item.name));
  std::sort(names.begin(), names.end());
  return names;
}

class ServiceLakeTables final : public LakeTables {
 public:
  explicit ServiceLakeTables(CatalogService& service) : service_(service) {}

  Result<std::vector<std::string>> ListCatalogNames() override {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<CatalogInfo> catalogs, service_.ListCatalogs());
    return SortedNames(std::move(catalogs));
  }

  Result<std::vector<std::string>> ListNamespaceNames(const std::string& catalog) override {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<NamespaceInfo> namespaces,
                             service_.ListNamespaces(catalog, SnapshotSelector{}));
    return SortedNames(std::move(namespaces));
  }

  Result<std::vector<std::string>> ListTableNames(const std::string& catalog,
                                                  const std::string& namespace_name) override {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<TableSummary> tables,
                             service_.ListTables(catalog, namespace_name, SnapshotSelector{}));
    return SortedNames(std::move(tables));
  }

  Result<ResolvedTable> Resolve(const std::string& catalog, const std::string& namespace_name,
                                const std::string& table, const SnapshotSelector& at) override {
    HOGLAKE_ASSIGN_OR_RETURN(
        TableInfo info,
        service_.GetTable(TableRef{catalog, namespace_name, table}, at, /*with_totals=*/false));
    ResolvedTable resolved;
    resolved.catalog = catalog;
    resolved.namespace_name = namespace_name;
    resolved.name = table;
    resolved.snapshot_id = info.read_snapshot_id;
    resolved.info = std::move(info);
    return resolved;
  }

  Result<std::vector<DataFileInfo>> LiveFiles(const ResolvedTable& table) override {
    SnapshotSelector at;
    at.snapshot = table.snapshot_id;
    ScanOptions options;
    options.column_stats = true;
    return service_.Scan(TableRef{table.catalog, table.namespace_name, table.name}, at, options);
  }

  Result<std::vector<PartitionSpecInfo>> PartitionSpecs(const ResolvedTable& table) override {
    SnapshotSelector at;
    at.snapshot = table.snapshot_id;
    return service_.ListPartitionSpecs(
        TableRef{table.catalog, table.namespace_name, table.name}, at);
  }

 private:
  CatalogService& service_;
};

}  // namespace

std::unique_ptr<LakeTables> LakeTablesOver(CatalogService& service) {
  return std::make_unique<ServiceLakeTables>(service);
}

}  // namespace hoglake::catalog
