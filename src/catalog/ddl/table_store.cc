#include "catalog/ddl/table_store.h"

#include <algorithm>
#include <functional>
#include <map>

#include "common/json_writer.h"

namespace hoglake::catalog {
namespace {

constexpr const char* kVisibleAt =
    "begin_snapshot <= $3 AND (end_snapshot IS NULL OR $3 < end_snapshot)";

void Flatten(const std::vector<ColumnNode>& nodes, std::optional<int32_t> parent,
             std::vector<const ColumnNode*>* out, std::vector<std::optional<int32_t>>* parents) {
  for (const ColumnNode& node : nodes) {
    out->push_back(&node);
    parents->push_back(parent);
    Flatten(node.children, node.field_id, out, parents);
  }
}

}  // namespace

Result<int64_t> NamespaceIdAt(pg::PgConnection& conn, int64_t catalog_id, std::string_view catalog,
                              std::string_view name, int64_t snapshot) {
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec(
          "SELECT namespace_id FROM hog_namespace WHERE catalog_id = $1 AND name = $2 "
          "AND created_snapshot <= $3 AND (dropped_snapshot IS NULL OR $3 < dropped_snapshot)",
          {std::to_string(catalog_id), std::string(name), std::to_string(snapshot)}));
  if (r.rows() == 0) return NotFound("namespace '", name, "' not found in catalog '", catalog, "'");
  return r.GetInt64(0, 0);
}

Result<std::optional<int64_t>> TableIdAt(pg::PgConnection& conn, int64_t catalog_id,
                                         int64_t namespace_id, std::string_view name,
                                         int64_t snapshot) {
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult r,
      conn.Exec(StrCat("SELECT table_id FROM hog_table_version WHERE catalog_id = $1 "
                       "AND namespace_id = $2 AND name = $4 AND ",
                       kVisibleAt),
                {std::to_string(catalog_id), std::to_string(namespace_id), std::to_string(snapshot),
                 std::string(name)}));
  if (r.rows() == 0) return std::optional<int64_t>();
  return std::optional<int64_t>(r.GetInt64(0, 0));
}

Result<TableInfo> LoadTable(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id,
                            std::string_view namespace_name, int64_t snapshot, bool with_totals) {
  const std::vector<pg::PgParam> params = {std::to_string(catalog_id), std::to_string(table_id),
                                           std::to_string(snapshot)};
  TableInfo info;
  info.table_id = table_id;
  info.namespace_name = std::string(namespace_name);
  info.read_snapshot_id = snapshot;
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult head,
      conn.Exec(StrCat("SELECT v.name, t.table_uuid, v.comment FROM hog_table_version v "
                       "JOIN hog_table t USING (catalog_id, table_id) "
                       "WHERE v.catalog_id = $1 AND v.table_id = $2 AND v.",
                       kVisibleAt),
                params));
  if (head.rows() == 0)
    return NotFound("table ", table_id, " is not visible at snapshot ", snapshot);
  info.name = head.GetString(0, 0);
  info.table_uuid = head.GetString(0, 1);
  info.comment = head.GetOptionalString(0, 2);

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult props,
      conn.Exec(
          StrCat("SELECT p.key, p.value FROM hog_table_version v, jsonb_each_text(v.properties) p "
                 "WHERE v.catalog_id = $1 AND v.table_id = $2 AND v.",
                 kVisibleAt, " ORDER BY p.key"),
          params));
  for (int i = 0; i < props.rows(); ++i)
    info.properties.emplace_back(props.GetString(i, 0), props.GetString(i, 1));

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult cols,
      conn.Exec(StrCat("SELECT field_id, name, col_type, (type_params->>'precision')::int, "
                       "(type_params->>'scale')::int, (type_params->'shredding')::text, nullable, "
                       "ordinal, parent_field_id, comment FROM hog_column WHERE catalog_id = $1 "
                       "AND table_id = $2 AND ",
                       kVisibleAt, " ORDER BY field_id"),
                params));
  // Parents precede children (parent_field_id < field_id): build bottom-up.
  struct Row {
    ColumnNode node;
    std::optional<int64_t> parent;
  };
  std::vector<Row> rows(static_cast<size_t>(cols.rows()));
  std::map<int32_t, size_t> index;
  for (int i = 0; i < cols.rows(); ++i) {
    Row& row = rows[static_cast<size_t>(i)];
    row.node.field_id = static_cast<int32_t>(cols.GetInt64(i, 0));
    row.node.name = cols.GetString(i, 1);
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type,
                             iceberg::ParseColumnType(cols.GetText(i, 2)));
    row.node.type = iceberg::TypeSpec(type);
    row.node.type.precision = static_cast<int32_t>(cols.GetOptionalInt64(i, 3).value_or(0));
    row.node.type.scale = static_cast<int32_t>(cols.GetOptionalInt64(i, 4).value_or(0));
    row.node.shredding_json = cols.GetOptionalString(i, 5);
    row.node.nullable = cols.GetBool(i, 6);
    row.node.ordinal = static_cast<int32_t>(cols.GetInt64(i, 7));
    row.parent = cols.GetOptionalInt64(i, 8);
    row.node.comment = cols.GetOptionalString(i, 9);
    index[row.node.field_id] = static_cast<size_t>(i);
  }
  // Attach children to parents from the deepest (highest id) upwards.
  for (size_t i = rows.size(); i-- > 0;) {
    if (!rows[i].parent) continue;
    auto it = index.find(static_cast<int32_t>(*rows[i].parent));
    if (it == index.end())
      return Internal("column ", rows[i].node.field_id, " has a missing parent");
    rows[it->second].node.children.push_back(std::move(rows[i].node));
  }
  auto by_ordinal = [](const ColumnNode& a, const ColumnNode& b) { return a.ordinal < b.ordinal; };
  std::function<void(std::vector<ColumnNode>&)> sort_tree = [&](std::vector<ColumnNode>& nodes) {
    std::sort(nodes.begin(), nodes.end(), by_ordinal);
    for (ColumnNode& n : nodes) sort_tree(n.children);
  };
  for (Row& row : rows) {
    if (!row.parent) info.columns.push_back(std::move(row.node));
  }
  sort_tree(info.columns);

  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult spec,
      conn.Exec(StrCat("SELECT s.spec_id, f.source_field_id, f.transform, f.transform_param "
                       "FROM hog_partition_spec s JOIN hog_partition_field f USING (catalog_id, "
                       "table_id, spec_id) "
                       "WHERE s.catalog_id = $1 AND s.table_id = $2 AND s.",
                       kVisibleAt, " ORDER BY f.key_index"),
                params));
  if (spec.rows() > 0) {
    info.partition_spec = PartitionSpecInfo{spec.GetInt64(0, 0), {}};
    for (int i = 0; i < spec.rows(); ++i) {
      std::optional<int64_t> param = spec.GetOptionalInt64(i, 3);
      info.partition_spec->fields.push_back(
          {static_cast<int32_t>(spec.GetInt64(i, 1)), spec.GetString(i, 2),
           param ? std::optional<int32_t>(static_cast<int32_t>(*param)) : std::nullopt});
    }
  }
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult sort,
      conn.Exec(
          StrCat("SELECT s.sort_id, f.source_field_id, f.direction, f.null_order "
                 "FROM hog_sort_spec s JOIN hog_sort_field f USING (catalog_id, table_id, sort_id) "
                 "WHERE s.catalog_id = $1 AND s.table_id = $2 AND s.",
                 kVisibleAt, " ORDER BY f.key_index"),
          params));
  if (sort.rows() > 0) {
    info.sort_spec = SortSpecInfo{sort.GetInt64(0, 0), {}};
    for (int i = 0; i < sort.rows(); ++i) {
      info.sort_spec->fields.push_back(
          {static_cast<int32_t>(sort.GetInt64(i, 1)), sort.GetString(i, 2), sort.GetString(i, 3)});
    }
  }
  if (with_totals) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult totals,
        conn.Exec(StrCat("SELECT coalesce(sum(record_count), 0), count(*), "
                         "coalesce(sum(file_size_bytes), 0) "
                         "FROM hog_data_file WHERE catalog_id = $1 AND table_id = $2 AND ",
                         kVisibleAt),
                  params));
    info.totals = TableTotals{totals.GetInt64(0, 0), totals.GetInt64(0, 1), totals.GetInt64(0, 2)};
  }
  return info;
}

Status InsertColumns(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id, int64_t snapshot,
                     const std::vector<ColumnNode>& columns,
                     std::optional<int32_t> parent_field_id) {
  std::vector<const ColumnNode*> nodes;
  std::vector<std::optional<int32_t>> parents;
  Flatten(columns, parent_field_id, &nodes, &parents);
  std::vector<int64_t> ids, ordinals;
  std::vector<std::optional<std::string>> names, types, params, parent_ids, comments;
  std::vector<bool> nullables;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ColumnNode& n = *nodes[i];
    ids.push_back(n.field_id);
    ordinals.push_back(n.ordinal);
    names.emplace_back(n.name);
    types.emplace_back(std::string(iceberg::ColumnTypeName(n.type.type)));
    params.push_back(n.TypeParamsJson());
    parent_ids.push_back(parents[i] ? std::optional<std::string>(std::to_string(*parents[i]))
                                    : std::nullopt);
    comments.push_back(n.comment);
    nullables.push_back(n.nullable);
  }
  return conn
      .Exec(
          "INSERT INTO hog_column (catalog_id, table_id, begin_snapshot, field_id, name, col_type, "
          "type_params, nullable, ordinal, parent_field_id, comment) "
          "SELECT $1, $2, $3, u.* FROM unnest($4::integer[], $5::text[], $6::text[], $7::jsonb[], "
          "$8::boolean[], $9::integer[], $10::integer[], $11::text[]) AS u",
          {std::to_string(catalog_id), std::to_string(table_id), std::to_string(snapshot),
           pg::PgIntArray(ids), pg::PgTextArray(names), pg::PgTextArray(types),
           pg::PgTextArray(params), pg::PgBoolArray(nullables), pg::PgIntArray(ordinals),
           pg::PgTextArray(parent_ids), pg::PgTextArray(comments)})
      .status();
}

std::string PropertiesJson(const Properties& properties) {
  JsonWriter w;
  w.BeginObject();
  for (const auto& [key, value] : properties) w.Field(key, std::string_view(value));
  w.EndObject();
  return w.Take();
}

}  // namespace hoglake::catalog
