// The catalog through the SDK, for people and scripts:
//   catalog create NAME [--data-path URI] | list | show NAME
//   namespace create|drop CAT.NS | list CAT
//   table create CAT.NS.T (--column name:type[:not-null]… | --from FILE)
//         [--partition-by EXPR…] [--sort-by EXPR…] [--property k=v…]
//         [--comment TEXT]      (one snapshot: partition spec and sort order
//         go through the atomic table-creation endpoints; with --comment or
//         --property as well the spec is created first and the rest applied
//         by one alter, so two snapshots)
//   table show|drop CAT.NS.T | list CAT.NS
//   table alter CAT.NS.T [--add-column SPEC…] [--drop-column NAME…]
//         [--rename-column FROM:TO…] [--promote-column NAME:TYPE…]
//         [--partition-by EXPR… | --unpartition] [--sort-by EXPR… | --unsort]
//         [--rename-table NAME] [--comment TEXT] [--property k=v…]
//   view create CAT.NS.V --sql TEXT [--dialect D] | list CAT.NS | drop CAT.NS.V
//   snapshots CAT [--after N | --before N] [--limit N]
//   offset get|set|list …, retention CAT SECONDS|off, expire CAT, cleanup CAT
// Reads print a human table, or with --json the server's JSON.
// `catalog create` without --data-path asks the server for its default data
// root (GET /v1/info `data_root`, set by an embedded server) and uses
// `<data_root><name>/`.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <map>

#include "cli/client_support.h"
#include "cli/column_spec.h"
#include "columnar/text/text_import.h"
#include "common/json_writer.h"
#include "parquet/reader.h"
#include "rapidjson/document.h"

namespace hoglake::cli {
namespace {

using client::TimeTravel;

struct TravelFlags {
  std::optional<int64_t> snapshot;
  std::optional<std::string> at;
  TimeTravel travel() const { return TimeTravel{snapshot, at}; }
};
void AddTravel(CLI::App* cmd, TravelFlags& flags) {
  cmd->add_option("--snapshot", flags.snapshot, "read as of this snapshot id");
  cmd->add_option("--at", flags.at, "read as of this instant (ISO-8601)");
}

Result<std::map<std::string, std::string>> ParseProperties(const std::vector<std::string>& items) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgument("property '", item, "' must be key=value");
    }
    out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

std::string TypeText(const client::Column& column) {
  using iceberg::ColumnType;
  switch (column.type.type) {
    case ColumnType::kList:
      return "list<" + TypeText(column.children.at(0)) + ">";
    case ColumnType::kMap:
      return "map<" + TypeText(column.children.at(0)) + "," + TypeText(column.children.at(1)) + ">";
    case ColumnType::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < column.children.size(); ++i) {
        out += (i ? "," : "") + column.children[i].name + ":" + TypeText(column.children[i]);
      }
      return out + ">";
    }
    default:
      return column.type.ToString();
  }
}

std::string PartitionText(const client::TableInfo& info) {
  if (!info.partitioned()) return "-";
  std::map<int32_t, std::string> names;
  std::function<void(const std::vector<client::Column>&, const std::string&)> walk =
      [&](const std::vector<client::Column>& columns, const std::string& prefix) {
        for (const auto& c : columns) {
          names[c.field_id] = prefix + c.name;
          if (c.type.type == iceberg::ColumnType::kStruct) walk(c.children, prefix + c.name + ".");
        }
      };
  walk(info.columns, "");
  std::string out;
  for (const auto& f : info.partition_spec->fields) {
    if (!out.empty()) out += ", ";
    const std::string& source = names[f.source_field_id];
    if (f.transform == "identity") {
      out += source;
    } else if (f.transform_param) {
      out += f.transform + "(" + std::to_string(*f.transform_param) + "," + source + ")";
    } else {
      out += f.transform + "(" + source + ")";
    }
  }
  return out;
}

void PrintTableInfo(const client::TableInfo& info) {
  std::cout << info.namespace_name << "." << info.name << "  uuid " << info.table_uuid << "\n";
  if (info.record_count) {
    std::cout << "rows " << *info.record_count << ", files " << Or(info.file_count) << ", "
              << HumanBytes(info.file_size_bytes.value_or(0)) << "\n";
  }
  std::cout << "partitioned by " << PartitionText(info) << "\n";
  if (info.comment) std::cout << "comment: " << *info.comment << "\n";
  std::vector<std::vector<std::string>> rows;
  std::function<void(const std::vector<client::Column>&, const std::string&)> walk =
      [&](const std::vector<client::Column>& columns, const std::string& indent) {
        for (const auto& c : columns) {
          rows.push_back({indent + c.name, TypeText(c), c.nullable ? "" : "not null",
                          std::to_string(c.field_id), Or(c.comment, "")});
          if (c.type.type == iceberg::ColumnType::kStruct) walk(c.children, indent + "  ");
        }
      };
  walk(info.columns, "");
  PrintTable({"column", "type", "null", "field_id", "comment"}, rows);
  for (const auto& [key, value] : info.properties) std::cout << key << " = " << value << "\n";
}

Result<std::vector<client::ColumnDef>> ColumnsFromFile(const std::string& path) {
  if (path.size() >= 8 && path.substr(path.size() - 8) == ".parquet") {
    auto reader = parquet::ParquetReader::OpenFile(path);
    if (!reader.ok()) return reader.error();
    return client::ColumnDefsFromSchema(*(*reader)->schema());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return InvalidArgument("cannot open ", path);
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr schema, columnar::text::InferCsvSchema(&in));
  return client::ColumnDefsFromSchema(*schema);
}

// Partition/sort fields resolved against columns with field ids (a table's,
// or the ids a create promises: client::PromisedColumns).
Result<std::vector<client::PartitionFieldDef>> PartitionFields(
    const std::vector<client::Column>& columns, const std::vector<std::string>& exprs) {
  std::vector<client::PartitionFieldDef> fields;
  for (const std::string& expr : exprs) {
    HOGLAKE_ASSIGN_OR_RETURN(PartitionSpecText spec, ParsePartitionSpec(expr));
    HOGLAKE_ASSIGN_OR_RETURN(int32_t id, FieldIdOf(columns, spec.column));
    fields.push_back({id, spec.transform, spec.param});
  }
  return fields;
}
Result<std::vector<client::SortFieldDef>> SortFields(const std::vector<client::Column>& columns,
                                                     const std::vector<std::string>& exprs) {
  std::vector<client::SortFieldDef> fields;
  for (const std::string& expr : exprs) {
    HOGLAKE_ASSIGN_OR_RETURN(SortSpecText spec, ParseSortSpec(expr));
    HOGLAKE_ASSIGN_OR_RETURN(int32_t id, FieldIdOf(columns, spec.column));
    fields.push_back({id, spec.direction, spec.null_order});
  }
  return fields;
}

void RegisterCatalog(CLI::App& app, CommandContext& context) {
  auto* group = app.add_subcommand("catalog", "create, list and show catalogs");
  group->require_subcommand(1);

  auto* create = group->add_subcommand("create", "create a catalog");
  static std::string name, data_path;
  create->add_option("name", name, "catalog name")->required();
  create->add_option("--data-path", data_path,
                     "where its data lives: s3://bucket/prefix/ or file:///abs/dir/ "
                     "(default: the server's data root + name)");
  create->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      std::string path = data_path;
      if (path.empty()) {
        client::HttpCall call;
        call.path = "/info";
        HOGLAKE_ASSIGN_OR_RETURN(std::string body, client.context()->transport.Send(call));
        rapidjson::Document doc;
        doc.Parse(body.data(), body.size());
        if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("data_root") ||
            !doc["data_root"].IsString()) {
          return InvalidArgument("the server proposes no data root: pass --data-path");
        }
        path = std::string(doc["data_root"].GetString()) + name + "/";
      }
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.CreateCatalog(name, path));
      std::cout << "created catalog " << catalog.name() << " at " << catalog.data_path() << "\n";
      return Status::Ok();
    });
  });

  auto* list = group->add_subcommand("list", "list catalogs");
  static bool list_json = false;
  list->add_flag("--json", list_json, "machine output");
  list->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(auto catalogs, client.ListCatalogs());
      if (list_json) {
        std::vector<std::string> objects;
        for (const auto& c : catalogs) objects.push_back(c.json);
        PrintJsonArray(objects);
        return Status::Ok();
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& c : catalogs) {
        rows.push_back({c.name, std::to_string(c.head_snapshot_id), c.data_path});
      }
      PrintTable({"catalog", "head", "data_path"}, rows);
      return Status::Ok();
    });
  });

  auto* show = group->add_subcommand("show", "show one catalog");
  static std::string show_name;
  static bool show_json = false;
  show->add_option("name", show_name, "catalog name")->required();
  show->add_flag("--json", show_json, "machine output");
  show->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(show_name));
      const auto& info = catalog.info();
      if (show_json) {
        std::cout << info.json << "\n";
        return Status::Ok();
      }
      std::cout << "catalog " << info.name << "\ndata_path " << info.data_path << "\nhead snapshot "
                << info.head_snapshot_id << "\nschema version " << info.schema_version << "\n";
      std::string caps;
      for (const auto& c : info.capabilities) caps += (caps.empty() ? "" : ", ") + c;
      std::cout << "capabilities " << (caps.empty() ? "-" : caps) << "\n";
      return Status::Ok();
    });
  });
}

void RegisterNamespace(CLI::App& app, CommandContext& context) {
  auto* group = app.add_subcommand("namespace", "create, list and drop namespaces");
  group->require_subcommand(1);
  static std::string create_name, drop_name, list_catalog;
  static bool list_json = false;
  auto* create = group->add_subcommand("create", "create CATALOG.NAMESPACE");
  create->add_option("name", create_name, "catalog.namespace")->required();
  create->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(create_name, 2));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_RETURN_IF_ERROR(catalog.CreateNamespace(q.namespace_name).status());
      std::cout << "created namespace " << create_name << "\n";
      return Status::Ok();
    });
  });
  auto* drop = group->add_subcommand("drop", "drop an empty CATALOG.NAMESPACE");
  drop->add_option("name", drop_name, "catalog.namespace")->required();
  drop->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(drop_name, 2));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(auto result, catalog.NamespaceHandle(q.namespace_name).Drop());
      std::cout << "dropped namespace " << drop_name << " (snapshot " << result.snapshot_id
                << ")\n";
      return Status::Ok();
    });
  });
  auto* list = group->add_subcommand("list", "list the namespaces of CATALOG");
  list->add_option("catalog", list_catalog, "catalog")->required();
  list->add_flag("--json", list_json, "machine output");
  list->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(list_catalog));
      HOGLAKE_ASSIGN_OR_RETURN(auto names, catalog.ListNamespaces());
      if (list_json) {
        std::vector<std::string> objects;
        for (const auto& n : names) {
          JsonWriter w;
          w.BeginObject();
          w.Field("name", std::string_view(n));
          w.EndObject();
          objects.push_back(w.Take());
        }
        PrintJsonArray(objects);
        return Status::Ok();
      }
      for (const auto& n : names) std::cout << n << "\n";
      return Status::Ok();
    });
  });
}

struct TableFlags {
  std::string name;
  std::vector<std::string> columns, partition_by, sort_by, properties;
  std::string from;
  bool json = false;
  TravelFlags travel;
  // alter
  std::vector<std::string> add, drop, rename, promote;
  bool unpartition = false, unsort = false;
  std::optional<std::string> rename_table, comment;
};

void RegisterTable(CLI::App& app, CommandContext& context) {
  auto* group = app.add_subcommand("table", "create, show, list, alter and drop tables");
  group->require_subcommand(1);
  static TableFlags f;

  auto* create = group->add_subcommand("create", "create CATALOG.NAMESPACE.TABLE");
  create->add_option("name", f.name, "catalog.namespace.table")->required();
  create->add_option("--column,-c", f.columns, "name:type[:not-null], e.g. id:long:not-null");
  create->add_option("--from", f.from, "take the columns from a Parquet or CSV file");
  create->add_option("--partition-by", f.partition_by,
                     "team, month(ts), bucket(16,id), … (made with the table: one snapshot)");
  create->add_option("--sort-by", f.sort_by, "column[:asc|desc][:nulls_first|nulls_last]");
  create->add_option("--property", f.properties, "key=value");
  create->add_option("--comment", f.comment, "table comment");
  create->add_flag("--json", f.json, "print the created table as JSON");
  create->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.name, 3));
      std::vector<client::ColumnDef> defs;
      if (!f.from.empty()) {
        if (!f.columns.empty()) return InvalidArgument("give --column or --from, not both");
        HOGLAKE_ASSIGN_OR_RETURN(defs, ColumnsFromFile(f.from));
      }
      for (const std::string& text : f.columns) {
        auto def = ParseColumnSpec(text);
        if (!def.ok()) return InvalidArgument(def.error().message);
        defs.push_back(std::move(def).value());
      }
      if (defs.empty()) return InvalidArgument("a table needs columns: --column or --from");
      // One snapshot: the spec, sort order, comment and properties are part
      // of the create (client.h, Namespace::CreateTable with options).
      client::CreateTableOptions options;
      HOGLAKE_ASSIGN_OR_RETURN(options.properties, ParseProperties(f.properties));
      options.comment = f.comment;
      const std::vector<client::Column> promised = client::PromisedColumns(defs);
      HOGLAKE_ASSIGN_OR_RETURN(options.partition_by, PartitionFields(promised, f.partition_by));
      HOGLAKE_ASSIGN_OR_RETURN(options.sort_by, SortFields(promised, f.sort_by));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(
          client::Table table,
          catalog.NamespaceHandle(q.namespace_name).CreateTable(q.name, defs, options));
      if (f.json) {
        std::cout << table.info().json << "\n";
      } else {
        std::cout << "created table " << f.name << " (snapshot " << Or(table.ddl_snapshot())
                  << ")\n";
        PrintTableInfo(table.info());
      }
      return Status::Ok();
    });
  });

  auto* show = group->add_subcommand("show", "show a table's columns, spec and totals");
  show->add_option("name", f.name, "catalog.namespace.table")->required();
  show->add_flag("--json", f.json, "machine output");
  AddTravel(show, f.travel);
  show->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      client::TableInfo info = table.info();
      if (f.travel.snapshot || f.travel.at) {
        HOGLAKE_ASSIGN_OR_RETURN(info, table.Info(f.travel.travel()));
      }
      if (f.json) {
        std::cout << info.json << "\n";
      } else {
        PrintTableInfo(info);
      }
      return Status::Ok();
    });
  });

  auto* list = group->add_subcommand("list", "list the tables of CATALOG.NAMESPACE");
  list->add_option("namespace", f.name, "catalog.namespace")->required();
  list->add_flag("--json", f.json, "machine output");
  AddTravel(list, f.travel);
  list->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.name, 2));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(
          auto tables, catalog.NamespaceHandle(q.namespace_name).ListTables(f.travel.travel()));
      if (f.json) {
        std::vector<std::string> objects;
        for (const auto& t : tables) objects.push_back(t.json);
        PrintJsonArray(objects);
        return Status::Ok();
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& t : tables) {
        rows.push_back({t.name, Or(t.record_count), Or(t.file_count),
                        t.file_size_bytes ? HumanBytes(*t.file_size_bytes) : "-", t.table_uuid});
      }
      PrintTable({"table", "rows", "files", "size", "uuid"}, rows);
      return Status::Ok();
    });
  });

  auto* drop = group->add_subcommand("drop", "drop CATALOG.NAMESPACE.TABLE");
  drop->add_option("name", f.name, "catalog.namespace.table")->required();
  drop->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      HOGLAKE_ASSIGN_OR_RETURN(auto result, table.Drop());
      std::cout << "dropped table " << f.name << " (snapshot " << result.snapshot_id << ")\n";
      return Status::Ok();
    });
  });

  auto* alter = group->add_subcommand("alter", "change a table in one atomic DDL snapshot");
  alter->add_option("name", f.name, "catalog.namespace.table")->required();
  alter->add_option("--add-column", f.add, "name:type[:not-null] (struct member: s.name:type)");
  alter->add_option("--drop-column", f.drop, "column (dotted path for struct members)");
  alter->add_option("--rename-column", f.rename, "FROM:TO");
  alter->add_option("--promote-column", f.promote, "NAME:TYPE (int→long, float→double, …)");
  alter->add_option("--partition-by", f.partition_by, "the new spec: team, month(ts), …");
  alter->add_flag("--unpartition", f.unpartition, "remove the partition spec");
  alter->add_option("--sort-by", f.sort_by, "the new sort order");
  alter->add_flag("--unsort", f.unsort, "remove the sort order");
  alter->add_option("--rename-table", f.rename_table, "new table name");
  alter->add_option("--comment", f.comment, "table comment");
  alter->add_option("--property", f.properties, "key=value (replaces all properties)");
  alter->add_flag("--json", f.json, "print the altered table as JSON");
  alter->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(f.name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, OpenTable(client, q));
      const auto& columns = table.info().columns;
      std::vector<client::AlterOp> ops;
      for (const std::string& text : f.add) {
        // "s.name:type" adds to struct s.
        const size_t colon = text.find(':');
        const std::string head = text.substr(0, colon);
        const size_t dot = head.rfind('.');
        std::optional<std::string> parent;
        std::string spec = text;
        if (dot != std::string::npos) {
          parent = head.substr(0, dot);
          spec = text.substr(dot + 1);
        }
        auto def = ParseColumnSpec(spec);
        if (!def.ok()) return InvalidArgument(def.error().message);
        ops.push_back(client::AddColumn(*def, parent));
      }
      for (const std::string& name : f.drop) ops.push_back(client::DropColumn(name));
      for (const std::string& text : f.rename) {
        const size_t colon = text.find(':');
        if (colon == std::string::npos) return InvalidArgument("--rename-column wants FROM:TO");
        ops.push_back(client::RenameColumn(text.substr(0, colon), text.substr(colon + 1)));
      }
      for (const std::string& text : f.promote) {
        const size_t colon = text.find(':');
        if (colon == std::string::npos) return InvalidArgument("--promote-column wants NAME:TYPE");
        auto type = iceberg::ParseColumnType(text.substr(colon + 1));
        if (!type.ok()) return InvalidArgument(type.error().message);
        ops.push_back(client::PromoteColumn(text.substr(0, colon), *type));
      }
      if (f.unpartition) ops.push_back(client::SetPartitionSpec({}));
      if (!f.partition_by.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(auto fields, PartitionFields(columns, f.partition_by));
        ops.push_back(client::SetPartitionSpec(fields));
      }
      if (f.unsort) ops.push_back(client::SetSortOrder({}));
      if (!f.sort_by.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(auto fields, SortFields(columns, f.sort_by));
        ops.push_back(client::SetSortOrder(fields));
      }
      if (f.comment) ops.push_back(client::SetTableComment(*f.comment));
      if (!f.properties.empty()) {
        HOGLAKE_ASSIGN_OR_RETURN(auto properties, ParseProperties(f.properties));
        ops.push_back(client::SetProperties(properties));
      }
      if (f.rename_table) ops.push_back(client::RenameTable(*f.rename_table));
      if (ops.empty()) return InvalidArgument("nothing to alter: give at least one change");
      HOGLAKE_ASSIGN_OR_RETURN(client::TableInfo info, table.Alter(ops));
      if (f.json) {
        std::cout << info.json << "\n";
      } else {
        std::cout << "altered table " << f.name << " (snapshot " << Or(info.snapshot_id) << ")\n";
        PrintTableInfo(info);
      }
      return Status::Ok();
    });
  });
}

void RegisterView(CLI::App& app, CommandContext& context) {
  auto* group = app.add_subcommand("view", "create, list and drop views");
  group->require_subcommand(1);
  static std::string name, sql, dialect = "trino";
  static bool json = false;
  auto* create = group->add_subcommand("create", "create CATALOG.NAMESPACE.VIEW");
  create->add_option("name", name, "catalog.namespace.view")->required();
  create->add_option("--sql", sql, "the view's SQL text")->required();
  create->add_option("--dialect", dialect, "SQL dialect (default trino)");
  create->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(
          client::View view,
          catalog.NamespaceHandle(q.namespace_name).CreateView(q.name, sql, dialect));
      std::cout << "created view " << name << " (uuid " << view.info().view_uuid << ")\n";
      return Status::Ok();
    });
  });
  auto* list = group->add_subcommand("list", "list the views of CATALOG.NAMESPACE");
  list->add_option("namespace", name, "catalog.namespace")->required();
  list->add_flag("--json", json, "machine output");
  list->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(name, 2));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(auto views, catalog.NamespaceHandle(q.namespace_name).ListViews());
      if (json) {
        std::vector<std::string> objects;
        for (const auto& v : views) objects.push_back(v.json);
        PrintJsonArray(objects);
        return Status::Ok();
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& v : views) rows.push_back({v.name, v.dialect, v.sql});
      PrintTable({"view", "dialect", "sql"}, rows);
      return Status::Ok();
    });
  });
  auto* drop = group->add_subcommand("drop", "drop CATALOG.NAMESPACE.VIEW");
  drop->add_option("name", name, "catalog.namespace.view")->required();
  drop->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(client::View view,
                               catalog.NamespaceHandle(q.namespace_name).GetView(q.name));
      HOGLAKE_ASSIGN_OR_RETURN(auto result, view.Drop());
      std::cout << "dropped view " << name << " (snapshot " << result.snapshot_id << ")\n";
      return Status::Ok();
    });
  });
}

void RegisterSnapshots(CLI::App& app, CommandContext& context) {
  auto* cmd = app.add_subcommand("snapshots", "list a catalog's snapshots (pages by itself)");
  static std::string catalog_name;
  static int64_t after = 0, limit = 0;
  static std::optional<int64_t> before;
  static bool json = false;
  cmd->add_option("catalog", catalog_name, "catalog")->required();
  cmd->add_option("--after", after, "only snapshots after this id (ascending)");
  cmd->add_option("--before", before, "only snapshots before this id (descending)");
  cmd->add_option("--limit", limit, "at most this many (default all)");
  cmd->add_flag("--json", json, "machine output");
  cmd->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(catalog_name));
      HOGLAKE_ASSIGN_OR_RETURN(auto it, catalog.Snapshots(after, before, 1000));
      std::vector<std::string> objects;
      std::vector<std::vector<std::string>> rows;
      while (limit <= 0 || static_cast<int64_t>(rows.size() + objects.size()) < limit) {
        HOGLAKE_ASSIGN_OR_RETURN(std::optional<client::Snapshot> snapshot, it.Next());
        if (!snapshot) break;
        if (json) {
          objects.push_back(snapshot->json);
          continue;
        }
        std::string changes;
        for (const auto& c : snapshot->changes) {
          changes += (changes.empty() ? "" : ", ") + c.kind;
          if (c.object_id) changes += "(" + std::to_string(*c.object_id) + ")";
        }
        rows.push_back({std::to_string(snapshot->snapshot_id), snapshot->snapshot_time,
                        Or(snapshot->author, ""), changes, Or(snapshot->message, "")});
      }
      if (json) {
        PrintJsonArray(objects);
      } else {
        PrintTable({"snapshot", "time", "author", "changes", "message"}, rows);
      }
      return Status::Ok();
    });
  });
}

void PrintOffset(const client::ConsumerOffset& o, bool json) {
  if (json) {
    std::cout << o.json << "\n";
  } else {
    std::cout << o.consumer_id << " " << o.table_uuid << " at snapshot " << o.committed_snapshot
              << " (updated " << o.updated_at << ")\n";
  }
}

void RegisterOffsets(CLI::App& app, CommandContext& context) {
  auto* group = app.add_subcommand("offset", "consumer offsets: get, set, list");
  group->require_subcommand(1);
  static std::string consumer, name, snapshot;
  static bool json = false;
  auto* get = group->add_subcommand("get", "CONSUMER CATALOG.NAMESPACE.TABLE");
  get->add_option("consumer", consumer)->required();
  get->add_option("table", name, "catalog.namespace.table")->required();
  get->add_flag("--json", json, "machine output");
  get->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, catalog.GetTable(q.namespace_name, q.name));
      HOGLAKE_ASSIGN_OR_RETURN(auto offset, catalog.Offset(consumer, table.table_uuid()));
      if (!offset) {
        std::cout << (json ? "null" : "no offset stored") << "\n";
      } else {
        PrintOffset(*offset, json);
      }
      return Status::Ok();
    });
  });
  auto* set = group->add_subcommand("set", "CONSUMER CATALOG.NAMESPACE.TABLE SNAPSHOT");
  set->add_option("consumer", consumer)->required();
  set->add_option("table", name, "catalog.namespace.table")->required();
  set->add_option("snapshot", snapshot, "the snapshot consumed up to, or 'head'")->required();
  set->add_flag("--json", json, "machine output");
  set->callback([&context] {
    RunCommand(context, [&]() -> Status {
      HOGLAKE_ASSIGN_OR_RETURN(QualifiedName q, ParseQualifiedName(name, 3));
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(q.catalog));
      int64_t snapshot_id = catalog.info().head_snapshot_id;
      if (snapshot != "head") {
        try {
          size_t used = 0;
          snapshot_id = std::stoll(snapshot, &used);
          if (used != snapshot.size()) throw std::invalid_argument(snapshot);
        } catch (const std::exception&) {
          return InvalidArgument("snapshot '", snapshot, "' is not a snapshot id or 'head'");
        }
      }
      HOGLAKE_ASSIGN_OR_RETURN(client::Table table, catalog.GetTable(q.namespace_name, q.name));
      HOGLAKE_ASSIGN_OR_RETURN(auto offset,
                               catalog.CommitOffset(consumer, table.table_uuid(), snapshot_id));
      PrintOffset(offset, json);
      return Status::Ok();
    });
  });
  auto* list = group->add_subcommand("list", "CONSUMER CATALOG: every offset of a consumer");
  list->add_option("consumer", consumer)->required();
  list->add_option("catalog", name)->required();
  list->add_flag("--json", json, "machine output");
  list->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(name));
      HOGLAKE_ASSIGN_OR_RETURN(auto offsets, catalog.Offsets(consumer));
      if (json) {
        std::vector<std::string> objects;
        for (const auto& o : offsets) objects.push_back(o.json);
        PrintJsonArray(objects);
        return Status::Ok();
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& o : offsets) {
        rows.push_back({o.table_uuid, std::to_string(o.committed_snapshot), o.updated_at});
      }
      PrintTable({"table_uuid", "snapshot", "updated_at"}, rows);
      return Status::Ok();
    });
  });
}

void RegisterMaintenance(CLI::App& app, CommandContext& context) {
  static std::string catalog_name, seconds;
  static std::optional<int64_t> batch;
  static std::optional<std::string> consumer_floor;
  static bool json = false;
  auto* retention = app.add_subcommand("retention", "set how long snapshots are kept");
  retention->add_option("catalog", catalog_name)->required();
  retention->add_option("seconds", seconds, "retention in seconds, or 'off'")->required();
  retention->add_option("--consumer-floor", consumer_floor, "on|off: never expire past offsets");
  retention->callback([&context] {
    RunCommand(context, [&]() -> Status {
      std::optional<int64_t> value;
      if (seconds != "off") {
        try {
          size_t used = 0;
          value = std::stoll(seconds, &used);
          if (used != seconds.size()) throw std::invalid_argument(seconds);
        } catch (const std::exception&) {
          return InvalidArgument("retention '", seconds, "' is not a number of seconds or 'off'");
        }
      }
      std::optional<bool> floor;
      if (consumer_floor) {
        if (*consumer_floor != "on" && *consumer_floor != "off") {
          return InvalidArgument("--consumer-floor is on or off");
        }
        floor = *consumer_floor == "on";
      }
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(catalog_name));
      HOGLAKE_ASSIGN_OR_RETURN(auto options, catalog.SetRetention(value, floor));
      std::cout << "retention " << Or(options.snapshot_retention_seconds, "off")
                << (options.snapshot_retention_seconds ? " s" : "") << ", consumer floor "
                << (options.consumer_floor ? "on" : "off") << ", earliest snapshot "
                << options.earliest_snapshot_id << "\n";
      return Status::Ok();
    });
  });
  auto* expire = app.add_subcommand("expire", "expire snapshots past the retention now");
  expire->add_option("catalog", catalog_name)->required();
  expire->add_option("--batch", batch, "at most this many snapshots");
  expire->add_flag("--json", json, "machine output");
  expire->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(catalog_name));
      HOGLAKE_ASSIGN_OR_RETURN(auto result, catalog.Expire(batch));
      if (json) {
        std::cout << result.json << "\n";
      } else {
        std::cout << "expired " << result.snapshots_expired << " snapshot(s), queued "
                  << result.data_files_queued << " data file(s) for cleanup; earliest snapshot "
                  << result.new_earliest_snapshot_id << "\n";
      }
      return Status::Ok();
    });
  });
  auto* cleanup = app.add_subcommand("cleanup", "delete the objects expiry queued");
  cleanup->add_option("catalog", catalog_name)->required();
  cleanup->add_option("--batch", batch, "at most this many paths");
  cleanup->add_flag("--json", json, "machine output");
  cleanup->callback([&context] {
    RunCommand(context, [&]() -> Status {
      auto client = MakeClient(context);
      HOGLAKE_ASSIGN_OR_RETURN(client::Catalog catalog, client.GetCatalog(catalog_name));
      HOGLAKE_ASSIGN_OR_RETURN(auto result, catalog.Cleanup(batch));
      if (json) {
        std::cout << result.json << "\n";
      } else {
        std::cout << "removed " << result.removed << " object(s), " << result.missing
                  << " already missing, " << result.still_referenced << " still referenced\n";
      }
      return Status::Ok();
    });
  });
}

}  // namespace

void RegisterCatalogCommands(CLI::App& app, CommandContext& context) {
  RegisterCatalog(app, context);
  RegisterNamespace(app, context);
  RegisterTable(app, context);
  RegisterView(app, context);
  RegisterSnapshots(app, context);
  RegisterOffsets(app, context);
  RegisterMaintenance(app, context);
}

}  // namespace hoglake::cli
