#include "query/lake_directory.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "common/encoding.h"
#include "query/federated_connections.h"
#include "query/managed_registry.h"
#include "sql/sql_error.h"

namespace hoglake::query {
namespace {

using Position = std::tuple<std::string, std::string, std::string>;

std::string EncodeCursor(const Position& p) {
  return Base64UrlEncode(std::get<0>(p) + '\0' + std::get<1>(p) + '\0' + std::get<2>(p));
}

Result<Position> DecodeCursor(const std::string& cursor) {
  std::optional<std::string> decoded = Base64UrlDecode(cursor);
  auto bad = [&] { return MakeError(ErrorCode::kBadRequest, "malformed cursor '" + cursor + "'"); };
  if (!decoded) return bad();
  size_t a = decoded->find('\0');
  if (a == std::string::npos) return bad();
  size_t b = decoded->find('\0', a + 1);
  if (b == std::string::npos) return bad();
  return Position{decoded->substr(0, a), decoded->substr(a + 1, b - a - 1), decoded->substr(b + 1)};
}

std::string ColumnNameById(const catalog::TableInfo& info, int32_t field_id) {
  for (const catalog::ColumnNode& c : info.columns) {
    if (c.field_id == field_id) return c.name;
  }
  return std::to_string(field_id);
}

}  // namespace

bool LikeMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '_' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

Result<std::vector<Connection>> LakeDirectory::ListConnections() {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> names, tables_->ListCatalogNames());
  std::map<std::string, ManagedDatabase> managed;
  if (managed_) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<ManagedDatabase> rows, managed_->ListAll());
    for (ManagedDatabase& row : rows) managed.emplace(row.catalog, std::move(row));
  }
  std::vector<Connection> connections;
  for (std::string& name : names) {
    auto it = managed.find(name);
    if (it == managed.end()) {
      connections.push_back(Connection{name, name, std::string(kLakeSourceType)});
    } else if (!it->second.dropped) {
      connections.push_back(Connection{name, it->second.name, std::string(kManagedSourceType)});
    }
  }
  if (federated_) {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<FederatedConnection> rows, federated_->List());
    for (FederatedConnection& row : rows) {
      connections.push_back(Connection{row.id, row.id, row.source_type});
    }
  }
  return connections;
}

Result<Connection> LakeDirectory::GetConnection(const std::string& id) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<Connection> all, ListConnections());
  for (Connection& c : all) {
    if (c.id == id) return c;
  }
  return MakeError(ErrorCode::kNotFound, "connection '" + id + "' not found");
}

Result<TablePage> LakeDirectory::ListTables(const TableListing& listing) {
  std::optional<Position> after;
  if (listing.cursor) {
    HOGLAKE_ASSIGN_OR_RETURN(after, DecodeCursor(*listing.cursor));
  }
  std::vector<Connection> connections;
  if (listing.connection_id) {
    HOGLAKE_ASSIGN_OR_RETURN(Connection c, GetConnection(*listing.connection_id));
    connections.push_back(std::move(c));
  } else {
    HOGLAKE_ASSIGN_OR_RETURN(connections, ListConnections());
  }
  std::sort(connections.begin(), connections.end(),
            [](const Connection& a, const Connection& b) { return a.id < b.id; });
  TablePage page;
  // Whether (catalog, ns, name) is listed; sets next_cursor and answers
  // false once the page is full.
  bool full = false;
  auto wanted = [&](const std::string& catalog, const std::string& ns, const std::string& name) {
    if (listing.table_pattern && !LikeMatch(*listing.table_pattern, name)) return false;
    if (after && !(*after < Position{catalog, ns, name})) return false;
    if (static_cast<int64_t>(page.tables.size()) == listing.limit) {
      const ListedTable& last = page.tables.back();
      page.next_cursor = EncodeCursor(Position{last.connection, last.schema, last.table});
      full = true;
      return false;
    }
    return true;
  };
  auto schema_wanted = [&](const std::string& catalog, const std::string& ns) {
    if (listing.schema_pattern && !LikeMatch(*listing.schema_pattern, ns)) return false;
    return !after ||
           std::make_pair(catalog, ns) >= std::make_pair(std::get<0>(*after), std::get<1>(*after));
  };
  for (const Connection& connection : connections) {
    const std::string& catalog = connection.id;
    if (after && catalog < std::get<0>(*after)) continue;
    if (connection.source_type == kPostgresSourceType) {
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<sql::ListingTable> tables,
                               federated_->Tables(catalog, listing.include_columns));
      for (sql::ListingTable& t : tables) {
        if (!schema_wanted(catalog, t.schema) || !wanted(catalog, t.schema, t.table)) {
          if (full) return page;
          continue;
        }
        ListedTable table;
        table.connection = catalog;
        table.schema = std::move(t.schema);
        table.table = std::move(t.table);
        table.columns = std::move(t.columns);
        page.tables.push_back(std::move(table));
      }
      continue;
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> namespaces,
                             tables_->ListNamespaceNames(catalog));
    std::sort(namespaces.begin(), namespaces.end());
    for (const std::string& ns : namespaces) {
      if (!schema_wanted(catalog, ns)) continue;
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                               tables_->ListTableNames(catalog, ns));
      std::sort(names.begin(), names.end());
      for (const std::string& name : names) {
        if (!wanted(catalog, ns, name)) {
          if (full) return page;
          continue;
        }
        Result<catalog::ResolvedTable> resolved = tables_->Resolve(catalog, ns, name, {});
        if (!resolved.ok()) {
          if (resolved.error().code == ErrorCode::kNotFound) continue;  // dropped meanwhile
          return resolved.error();
        }
        const catalog::TableInfo& info = resolved->info;
        ListedTable table;
        table.connection = catalog;
        table.schema = ns;
        table.table = name;
        if (listing.include_columns) table.columns = sql::ListingColumnsOf(info);
        if (info.partition_spec) {
          for (const catalog::PartitionFieldInfo& f : info.partition_spec->fields) {
            std::string transform = f.transform;
            if (f.transform_param) transform += "[" + std::to_string(*f.transform_param) + "]";
            table.partition_by.emplace_back(ColumnNameById(info, f.source_field_id), transform);
          }
        }
        if (info.sort_spec) {
          for (const catalog::SortFieldInfo& f : info.sort_spec->fields) {
            table.sorted_by.push_back(
                ListedSortField{ColumnNameById(info, f.source_field_id), f.direction,
                                f.null_order == "nulls_first" ? "first" : "last"});
          }
        }
        page.tables.push_back(std::move(table));
      }
    }
  }
  return page;
}

Result<std::vector<sql::ListingSchema>> LakeDirectory::Schemata() {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<Connection> connections, ListConnections());
  std::sort(connections.begin(), connections.end(),
            [](const Connection& a, const Connection& b) { return a.id < b.id; });
  std::vector<sql::ListingSchema> out;
  for (const Connection& c : connections) {
    if (c.source_type == kPostgresSourceType) {
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<sql::ListingTable> tables,
                               federated_->Tables(c.id, false));
      for (const sql::ListingTable& t : tables) {
        if (out.empty() || out.back().catalog != c.id || out.back().schema != t.schema) {
          out.push_back(sql::ListingSchema{c.id, t.schema});
        }
      }
      continue;
    }
    Result<std::vector<std::string>> namespaces = tables_->ListNamespaceNames(c.id);
    if (!namespaces.ok()) {
      if (namespaces.error().code == ErrorCode::kNotFound) continue;  // dropped meanwhile
      return namespaces.error();
    }
    std::sort(namespaces->begin(), namespaces->end());
    for (std::string& ns : *namespaces) out.push_back(sql::ListingSchema{c.id, std::move(ns)});
  }
  return out;
}

Result<std::vector<sql::ListingTable>> LakeDirectory::Tables(bool with_columns) {
  TableListing listing;
  listing.include_columns = with_columns;
  listing.limit = INT64_MAX;
  HOGLAKE_ASSIGN_OR_RETURN(TablePage page, ListTables(listing));
  std::vector<sql::ListingTable> out;
  for (ListedTable& t : page.tables) {
    out.push_back(sql::ListingTable{std::move(t.connection), std::move(t.schema),
                                    std::move(t.table), std::move(t.columns)});
  }
  return out;
}

Status LakeDirectory::CheckReadable(const std::string& catalog) {
  if (!federated_) return Status::Ok();
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<FederatedConnection> found, federated_->Find(catalog));
  if (!found) return Status::Ok();
  return sql::SqlError(sql::SqlErrorKind::kFeatureNotSupported,
                       "querying federated PostgreSQL connections is not yet supported "
                       "(\"", catalog, "\" is a ", found->source_type,
                       " connection; its tables are listed in information_schema)");
}

}  // namespace hoglake::query
