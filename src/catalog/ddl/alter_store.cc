#include "catalog/ddl/alter_store.h"

#include <map>

#include "catalog/ddl/table_store.h"
#include "catalog/model/packed_stats.h"
#include "common/encoding.h"
#include "iceberg/bounds.h"

namespace hoglake::catalog {
namespace {

constexpr int kBoundBatch = 5000;

// One hog_column row's content.
struct ColumnRow {
  std::string name;
  std::string type;
  std::optional<std::string> params;
  bool nullable = true;
  int32_t ordinal = 0;
  std::optional<int32_t> parent;
  std::optional<std::string> comment;

  bool operator==(const ColumnRow&) const = default;
};

void FlattenRows(const std::vector<ColumnNode>& nodes, std::optional<int32_t> parent,
                 std::map<int32_t, ColumnRow>* out) {
  for (const ColumnNode& n : nodes) {
    (*out)[n.field_id] = ColumnRow{n.name,
                                   std::string(iceberg::ColumnTypeName(n.type.type)),
                                   n.TypeParamsJson(),
                                   n.nullable,
                                   n.ordinal,
                                   parent,
                                   n.comment};
    FlattenRows(n.children, n.field_id, out);
  }
}

std::map<std::string, std::string> AsMap(const Properties& p) { return {p.begin(), p.end()}; }

Status WriteVersion(pg::PgConnection& conn, const AlterTarget& t,
                    const std::vector<pg::PgParam>& key, const AlterState& after) {
  HOGLAKE_RETURN_IF_ERROR(conn.Exec(
      "UPDATE hog_table_version SET end_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2 "
      "AND end_snapshot IS NULL",
      key));
  return conn
      .Exec(
          "INSERT INTO hog_table_version (catalog_id, table_id, begin_snapshot, namespace_id, "
          "name, comment, properties) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)",
          {key[0], key[1], key[2], std::to_string(t.namespace_id), after.name, after.comment,
           PropertiesJson(after.properties)})
      .status();
}

Status WriteColumns(pg::PgConnection& conn, const std::vector<pg::PgParam>& key,
                    const TableInfo& before, const AlterState& after) {
  std::map<int32_t, ColumnRow> old_rows, new_rows;
  FlattenRows(before.columns, std::nullopt, &old_rows);
  FlattenRows(after.columns, std::nullopt, &new_rows);
  std::vector<int64_t> ended;
  for (const auto& [id, row] : old_rows) {
    auto it = new_rows.find(id);
    if (it == new_rows.end() || !(it->second == row)) ended.push_back(id);
  }
  std::vector<int64_t> ids, ordinals;
  std::vector<std::optional<std::string>> names, types, params, parents, comments;
  std::vector<bool> nullables;
  for (const auto& [id, row] : new_rows) {
    auto it = old_rows.find(id);
    if (it != old_rows.end() && it->second == row) continue;
    ids.push_back(id);
    ordinals.push_back(row.ordinal);
    names.emplace_back(row.name);
    types.emplace_back(row.type);
    params.push_back(row.params);
    parents.push_back(row.parent ? std::optional<std::string>(std::to_string(*row.parent))
                                 : std::nullopt);
    comments.push_back(row.comment);
    nullables.push_back(row.nullable);
  }
  if (!ended.empty()) {
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec("UPDATE hog_column SET end_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2 "
                  "AND end_snapshot IS NULL AND field_id = ANY($4::integer[])",
                  {key[0], key[1], key[2], pg::PgIntArray(ended)}));
  }
  if (ids.empty()) return Status::Ok();
  return conn
      .Exec(
          "INSERT INTO hog_column (catalog_id, table_id, begin_snapshot, field_id, name, col_type, "
          "type_params, nullable, ordinal, parent_field_id, comment) "
          "SELECT $1, $2, $3, u.* FROM unnest($4::integer[], $5::text[], $6::text[], $7::jsonb[], "
          "$8::boolean[], $9::integer[], $10::integer[], $11::text[]) AS u",
          {key[0], key[1], key[2], pg::PgIntArray(ids), pg::PgTextArray(names),
           pg::PgTextArray(types), pg::PgTextArray(params), pg::PgBoolArray(nullables),
           pg::PgIntArray(ordinals), pg::PgTextArray(parents), pg::PgTextArray(comments)})
      .status();
}

Status WritePartitionSpec(pg::PgConnection& conn, const std::vector<pg::PgParam>& key,
                          const std::optional<PartitionSpecInfo>& spec) {
  HOGLAKE_RETURN_IF_ERROR(conn.Exec(
      "UPDATE hog_partition_spec SET end_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2 "
      "AND end_snapshot IS NULL",
      key));
  if (!spec) return Status::Ok();
  const std::string spec_id = std::to_string(spec->spec_id);
  HOGLAKE_RETURN_IF_ERROR(
      conn.Exec("INSERT INTO hog_partition_spec (catalog_id, table_id, spec_id, begin_snapshot) "
                "VALUES ($1, $2, $4, $3)",
                {key[0], key[1], key[2], spec_id}));
  std::vector<int64_t> sources;
  std::vector<std::optional<std::string>> transforms, params;
  for (const PartitionFieldInfo& f : spec->fields) {
    sources.push_back(f.source_field_id);
    transforms.emplace_back(f.transform);
    params.push_back(f.transform_param
                         ? std::optional<std::string>(std::to_string(*f.transform_param))
                         : std::nullopt);
  }
  return conn
      .Exec(
          "INSERT INTO hog_partition_field (catalog_id, table_id, spec_id, key_index, "
          "source_field_id, transform, transform_param) "
          "SELECT $1, $2, $3, u.k - 1, u.s, u.t, u.p::integer "
          "FROM unnest($4::integer[], $5::text[], $6::text[]) WITH ORDINALITY AS u(s, t, p, k)",
          {key[0], key[1], spec_id, pg::PgIntArray(sources), pg::PgTextArray(transforms),
           pg::PgTextArray(params)})
      .status();
}

Status WriteSortSpec(pg::PgConnection& conn, const std::vector<pg::PgParam>& key,
                     const std::optional<SortSpecInfo>& spec) {
  HOGLAKE_RETURN_IF_ERROR(conn.Exec(
      "UPDATE hog_sort_spec SET end_snapshot = $3 WHERE catalog_id = $1 AND table_id = $2 "
      "AND end_snapshot IS NULL",
      key));
  if (!spec) return Status::Ok();
  const std::string sort_id = std::to_string(spec->sort_id);
  HOGLAKE_RETURN_IF_ERROR(
      conn.Exec("INSERT INTO hog_sort_spec (catalog_id, table_id, sort_id, begin_snapshot) "
                "VALUES ($1, $2, $4, $3)",
                {key[0], key[1], key[2], sort_id}));
  std::vector<int64_t> sources;
  std::vector<std::optional<std::string>> directions, null_orders;
  for (const SortFieldInfo& f : spec->fields) {
    sources.push_back(f.source_field_id);
    directions.emplace_back(f.direction);
    null_orders.emplace_back(f.null_order);
  }
  return conn
      .Exec(
          "INSERT INTO hog_sort_field (catalog_id, table_id, sort_id, key_index, source_field_id, "
          "direction, null_order) SELECT $1, $2, $3, u.k - 1, u.s, u.d, u.n "
          "FROM unnest($4::integer[], $5::text[], $6::text[]) WITH ORDINALITY AS u(s, d, n, k)",
          {key[0], key[1], sort_id, pg::PgIntArray(sources), pg::PgTextArray(directions),
           pg::PgTextArray(null_orders)})
      .status();
}

// `bytes` promoted from `from` to `to`; nullopt (no bound) if it cannot be.
std::optional<std::string> Promoted(iceberg::ColumnType from, iceberg::ColumnType to,
                                    std::string_view bytes) {
  Result<std::string> promoted = iceberg::PromoteBound(from, to, std::string(bytes));
  if (!promoted.ok()) return std::nullopt;
  return std::move(*promoted);
}

// Re-encodes the bounds of one promoted column in the packed statistics of
// the table's live files, keyset-paged by data_file_id.
Status RewriteBounds(pg::PgConnection& conn, const AlterTarget& t, int32_t field_id,
                     iceberg::ColumnType from, iceberg::ColumnType to) {
  const std::string catalog = std::to_string(t.catalog_id);
  int64_t after = -1;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult page,
        conn.ExecBinary("SELECT s.data_file_id, s.stats FROM hog_file_stats s "
                        "JOIN hog_data_file d ON d.catalog_id = s.catalog_id AND "
                        "d.data_file_id = s.data_file_id "
                        "WHERE s.catalog_id = $1 AND d.table_id = $2 "
                        "AND d.end_snapshot IS NULL AND s.data_file_id > $3 "
                        "ORDER BY s.data_file_id LIMIT $4",
                        {catalog, std::to_string(t.table_id), std::to_string(after),
                         std::to_string(kBoundBatch)}));
    if (page.rows() == 0) return Status::Ok();
    std::vector<int64_t> files;
    std::vector<std::optional<std::string>> packed;
    for (int i = 0; i < page.rows(); ++i) {
      std::vector<PackedStat> entries;
      std::optional<std::string> lower, upper;  // the promoted bounds entries point to
      bool touched = false;
      PackedStatsReader reader(page.GetText(i, 1));
      for (PackedStat s; reader.Next(&s);) {
        if (s.field_id == field_id && (s.lower_bound || s.upper_bound)) {
          touched = true;
          if (s.lower_bound) lower = Promoted(from, to, *s.lower_bound);
          if (s.upper_bound) upper = Promoted(from, to, *s.upper_bound);
          s.lower_bound = lower ? std::optional<std::string_view>(*lower) : std::nullopt;
          s.upper_bound = upper ? std::optional<std::string_view>(*upper) : std::nullopt;
        }
        entries.push_back(s);
      }
      HOGLAKE_RETURN_IF_ERROR(reader.status());
      if (!touched) continue;
      files.push_back(page.GetBinaryInt64(i, 0));
      packed.emplace_back(HexEncode(PackColumnStats(entries)));
    }
    if (!files.empty()) {
      HOGLAKE_RETURN_IF_ERROR(
          conn.Exec("UPDATE hog_file_stats s SET stats = decode(u.s, 'hex') "
                    "FROM unnest($2::bigint[], $3::text[]) AS u(f, s) "
                    "WHERE s.catalog_id = $1 AND s.data_file_id = u.f",
                    {catalog, pg::PgIntArray(files), pg::PgTextArray(packed)}));
    }
    after = page.GetBinaryInt64(page.rows() - 1, 0);
    if (page.rows() < kBoundBatch) return Status::Ok();
  }
}

// The type of `id` in the tree, if the column is live.
std::optional<iceberg::ColumnType> TypeOf(const std::vector<ColumnNode>& nodes, int32_t id) {
  for (const ColumnNode& n : nodes) {
    if (n.field_id == id) return n.type.type;
    if (auto t = TypeOf(n.children, id)) return t;
  }
  return std::nullopt;
}

}  // namespace

Status LoadAlterExtras(pg::PgConnection& conn, int64_t catalog_id, int64_t table_id,
                       bool check_idless, AlterState* state) {
  const std::vector<pg::PgParam> key = {std::to_string(catalog_id), std::to_string(table_id)};
  HOGLAKE_ASSIGN_OR_RETURN(
      pg::PgResult ids,
      conn.Exec("SELECT (SELECT coalesce(max(spec_id), 0) FROM hog_partition_spec "
                "WHERE catalog_id = $1 AND table_id = $2), "
                "(SELECT coalesce(max(sort_id), 0) FROM hog_sort_spec "
                "WHERE catalog_id = $1 AND table_id = $2)",
                key));
  state->max_spec_id = ids.GetInt64(0, 0);
  state->max_sort_id = ids.GetInt64(0, 1);
  if (check_idless) {
    HOGLAKE_ASSIGN_OR_RETURN(
        pg::PgResult idless,
        conn.Exec("SELECT EXISTS (SELECT 1 FROM hog_data_file WHERE catalog_id = $1 AND table_id "
                  "= $2 AND end_snapshot IS NULL AND (missing_field_ids OR stats_state = "
                  "'pending'))",
                  key));
    state->idless_files_present = idless.GetBool(0, 0);
  }
  return Status::Ok();
}

Status WriteAlterDiff(pg::PgConnection& conn, const AlterTarget& target, const TableInfo& before,
                      int32_t next_field_id_before, const AlterState& after) {
  const std::vector<pg::PgParam> key = {std::to_string(target.catalog_id),
                                        std::to_string(target.table_id),
                                        std::to_string(target.snapshot)};
  if (after.name != before.name || after.comment != before.comment ||
      AsMap(after.properties) != AsMap(before.properties)) {
    HOGLAKE_RETURN_IF_ERROR(WriteVersion(conn, target, key, after));
  }
  HOGLAKE_RETURN_IF_ERROR(WriteColumns(conn, key, before, after));
  if (after.partition_changed) {
    HOGLAKE_RETURN_IF_ERROR(WritePartitionSpec(conn, key, after.partition_spec));
  }
  if (after.sort_changed) HOGLAKE_RETURN_IF_ERROR(WriteSortSpec(conn, key, after.sort_spec));
  if (after.next_field_id != next_field_id_before) {
    HOGLAKE_RETURN_IF_ERROR(
        conn.Exec("UPDATE hog_table SET next_field_id = $3 WHERE catalog_id = $1 AND table_id = $2",
                  {key[0], key[1], std::to_string(after.next_field_id)}));
  }
  for (const auto& [field_id, from] : after.promoted_from) {
    std::optional<iceberg::ColumnType> to = TypeOf(after.columns, field_id);
    if (!to || iceberg::IcebergTypeOf(from) == iceberg::IcebergTypeOf(*to)) continue;
    HOGLAKE_RETURN_IF_ERROR(RewriteBounds(conn, target, field_id, from, *to));
  }
  return Status::Ok();
}

}  // namespace hoglake::catalog
