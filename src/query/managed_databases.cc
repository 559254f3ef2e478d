#include "query/managed_databases.h"

#include <algorithm>

#include "catalog/model/identifiers.h"
#include "query/query_vocabulary.h"

namespace hoglake::query {

std::string LowerIdentifier(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<ManagedDatabase> ManagedDatabases::CreateConnection(
    const std::string& name, const std::vector<DeclaredSchema>& schemas) {
  HOGLAKE_RETURN_IF_ERROR(catalog::ValidateCatalogName(name));
  ManagedDatabase row;
  row.id = row.name = row.catalog = name;
  row.kind = ManagedKind::kConnection;
  row.default_schema = schemas.empty() ? "public" : LowerIdentifier(schemas.front().name);
  return Create(std::move(row), schemas);
}

Result<ManagedDatabase> ManagedDatabases::CreateDatabase(
    const std::string& name, const std::vector<DeclaredSchema>& schemas,
    const std::optional<std::string>& default_schema) {
  ManagedDatabase row;
  row.id = row.catalog = NewId(IdKind::kDatabase);
  row.name = name;
  row.kind = ManagedKind::kDatabase;
  std::vector<DeclaredSchema> all = schemas;
  if (default_schema) {
    row.default_schema = LowerIdentifier(*default_schema);
  } else {
    row.default_schema = schemas.size() == 1 ? LowerIdentifier(schemas[0].name) : "main";
  }
  all.push_back(DeclaredSchema{"main", {}});
  all.push_back(DeclaredSchema{row.default_schema, {}});
  return Create(std::move(row), all);
}

Result<ManagedDatabase> ManagedDatabases::Create(ManagedDatabase row,
                                                 const std::vector<DeclaredSchema>& schemas) {
  if (data_root_.empty()) {
    return MakeError(ErrorCode::kUnavailable,
                     "this server has no data root for managed databases: set HOGLAKE_DATA_ROOT");
  }
  std::vector<std::string> namespaces;
  for (const DeclaredSchema& s : schemas) {
    std::string ns = LowerIdentifier(s.name);
    HOGLAKE_RETURN_IF_ERROR(catalog::ValidateIdentifier("schema", ns));
    if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end()) {
      namespaces.push_back(std::move(ns));
    }
  }
  // A connection created again under its old name takes its tombstoned
  // (emptied) catalog back.
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<ManagedDatabase> previous, registry_->Find(row.id));
  if (previous && !previous->dropped) {
    return MakeError(ErrorCode::kAlreadyExists,
                     StrCat("a connection named '", row.name, "' already exists"));
  }
  if (!previous) {
    Result<catalog::CatalogInfo> created =
        catalogs_->CreateCatalog(row.catalog, data_root_ + row.catalog + "/");
    if (!created.ok()) {
      if (created.error().code == ErrorCode::kAlreadyExists) {
        return MakeError(ErrorCode::kAlreadyExists,
                         StrCat("a connection named '", row.name, "' already exists"));
      }
      return created.error();
    }
  }
  for (const std::string& ns : namespaces) {
    Result<catalog::NamespaceInfo> made = catalogs_->CreateNamespace(row.catalog, ns);
    if (!made.ok() && made.error().code != ErrorCode::kAlreadyExists) return made.error();
  }
  return registry_->Insert(row);
}

Status ManagedDatabases::Delete(const std::string& id, std::optional<ManagedKind> kind) {
  HOGLAKE_ASSIGN_OR_RETURN(ManagedDatabase row, registry_->Get(id));
  if (kind && row.kind != *kind) {
    return MakeError(ErrorCode::kNotFound, StrCat("managed database '", id, "' not found"));
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::NamespaceInfo> namespaces,
                           catalogs_->ListNamespaces(row.catalog, {}));
  for (const catalog::NamespaceInfo& ns : namespaces) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<catalog::TableSummary> tables,
                             catalogs_->ListTables(row.catalog, ns.name, {}));
    for (const catalog::TableSummary& t : tables) {
      Result<catalog::CommitResult> dropped =
          catalogs_->DropTable(catalog::TableRef{row.catalog, ns.name, t.name}, std::nullopt);
      if (!dropped.ok() && dropped.error().code != ErrorCode::kNotFound) return dropped.error();
    }
    Result<catalog::CommitResult> dropped =
        catalogs_->DropNamespace(row.catalog, ns.name, std::nullopt);
    if (!dropped.ok() && dropped.error().code != ErrorCode::kNotFound) return dropped.error();
  }
  return registry_->MarkDropped(id);
}

Result<ManagedDatabase> ManagedDatabases::Managed(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<ManagedDatabase> found, registry_->Find(id));
  if (found && !found->dropped) return *found;
  if (!found) {
    Result<catalog::CatalogInfo> plain = catalogs_->GetCatalog(id);
    if (plain.ok()) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("connection '", id,
                              "' is not a managed database: its tables are written through the "
                              "hoglake catalog API"));
    }
    if (plain.error().code != ErrorCode::kNotFound) return plain.error();
  }
  return MakeError(ErrorCode::kNotFound, StrCat("connection '", id, "' not found"));
}

Status ManagedDatabases::DropTable(const std::string& id, const std::string& schema,
                                   const std::string& table) {
  HOGLAKE_ASSIGN_OR_RETURN(ManagedDatabase row, Managed(id));
  const std::string ns = LowerIdentifier(schema), name = LowerIdentifier(table);
  Result<catalog::CommitResult> dropped =
      catalogs_->DropTable(catalog::TableRef{row.catalog, ns, name}, std::nullopt);
  if (!dropped.ok()) {
    if (dropped.error().code == ErrorCode::kNotFound ||
        dropped.error().code == ErrorCode::kTableDropped) {
      return MakeError(ErrorCode::kNotFound,
                       StrCat("table '", ns, ".", name, "' not found in '", id, "'"));
    }
    return dropped.error();
  }
  return Status::Ok();
}

}  // namespace hoglake::query
