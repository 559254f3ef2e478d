#include "invariants.h"

#include <filesystem>

namespace hoglake::testing {

namespace {

// Calls either the shared server (base_url empty) or the one at base_url.
struct Caller {
  std::string base_url;
  ApiResponse Call(const std::string& method, const std::string& path) const {
    return base_url.empty() ? ServerEnvironment::Call(method, path)
                            : CallServer(base_url, method, path);
  }
};

}  // namespace

void ExpectCatalogInvariants(const std::string& catalog, const std::vector<std::string>& tables) {
  ExpectCatalogInvariantsAt("", catalog, tables);
}

void ExpectCatalogInvariantsAt(const std::string& base_url, const std::string& catalog,
                               const std::vector<std::string>& tables) {
  const Caller server{base_url};
  const std::string c = "/v1/catalogs/" + catalog;
  const int64_t head = server.Call("GET", c).json["head_snapshot_id"].GetInt64();
  // Expiry removes the snapshots below the floor; the rest stay dense.
  const int64_t earliest =
      server.Call("GET", c + "/options").json["earliest_snapshot_id"].GetInt64();
  int64_t expected = 0;
  int64_t before = head + 1;
  while (true) {
    ApiResponse page =
        server.Call("GET", c + "/snapshots?before=" + std::to_string(before) + "&limit=10000");
    ASSERT_EQ(page.status, 200) << page.body;
    for (const auto& s : page.json["snapshots"].GetArray()) {
      const int64_t id = s["snapshot_id"].GetInt64();
      EXPECT_EQ(id, before - 1) << "snapshot ids are not dense";
      before = id;
      ++expected;
    }
    if (!page.json["has_more"].GetBool()) break;
  }
  EXPECT_EQ(expected, head - earliest + 1)
      << "snapshots " << earliest << ".." << head << " should all exist";
  for (const std::string& qualified : tables) {
    const size_t dot = qualified.find('.');
    const std::string t =
        c + "/namespaces/" + qualified.substr(0, dot) + "/tables/" + qualified.substr(dot + 1);
    ApiResponse scan = server.Call("GET", t + "/scan");
    ASSERT_EQ(scan.status, 200) << scan.body;
    int64_t next = 0;
    for (const auto& f : scan.json.GetArray()) {
      const auto& file = f["data_file"];
      EXPECT_EQ(file["row_id_start"].GetInt64(), next) << qualified << ": row ids must tile";
      next = file["row_id_start"].GetInt64() + file["record_count"].GetInt64();
    }
    ApiResponse table = server.Call("GET", t);
    EXPECT_EQ(table.json["record_count"].GetInt64(), next) << qualified;
  }
}

namespace {

std::string CatalogIdSql(const std::string& catalog) {
  return "(SELECT catalog_id FROM hog_catalog WHERE name = '" + catalog + "')";
}

}  // namespace

void ExpectRowIdRangesDisjoint(PgSession& pg, const std::string& catalog) {
  const std::vector<std::string> bad = pg.Column(
      "SELECT path || ' [' || row_id_start || ', +' || record_count || ') prior end ' || "
      "coalesce(prior_end, 0) || ', allocator ' || next_row_id FROM (SELECT d.path, "
      "d.row_id_start, d.record_count, s.next_row_id, max(d.row_id_start + d.record_count) OVER "
      "(PARTITION BY d.table_id ORDER BY d.row_id_start, d.data_file_id ROWS BETWEEN UNBOUNDED "
      "PRECEDING AND 1 PRECEDING) AS prior_end FROM hog_data_file d JOIN hog_table_stats s USING "
      "(catalog_id, table_id) WHERE d.catalog_id = " +
      CatalogIdSql(catalog) +
      " AND NOT d.explicit_row_ids AND d.record_count > 0) x WHERE row_id_start < 0 OR "
      "row_id_start < coalesce(prior_end, 0) OR row_id_start + record_count > next_row_id");
  for (const std::string& row : bad) ADD_FAILURE() << catalog << ": row ids overlap: " << row;
}

void ExpectLiveTotalsKept(PgSession& pg, const std::string& catalog) {
  const std::vector<std::string> bad = pg.Column(
      "SELECT s.table_id || ': kept ' || s.file_count || '/' || s.record_count || '/' || "
      "s.file_size_bytes || ', live files ' || coalesce(f.n, 0) || '/' || coalesce(f.r, 0) || "
      "'/' || coalesce(f.b, 0) FROM hog_table_stats s JOIN hog_table t USING (catalog_id, "
      "table_id) LEFT JOIN (SELECT catalog_id, table_id, count(*) AS n, sum(record_count) AS r, "
      "sum(file_size_bytes) AS b FROM hog_data_file WHERE end_snapshot IS NULL GROUP BY "
      "catalog_id, table_id) f USING (catalog_id, table_id) WHERE s.catalog_id = " +
      CatalogIdSql(catalog) +
      " AND t.dropped_snapshot IS NULL AND (s.file_count, s.record_count, s.file_size_bytes) "
      "IS DISTINCT FROM (coalesce(f.n, 0), coalesce(f.r, 0), coalesce(f.b, 0))");
  for (const std::string& row : bad) ADD_FAILURE() << catalog << ": totals drifted: table " << row;
}

void ExpectFileRowObjectsExist(PgSession& pg, const std::string& catalog,
                               const std::function<bool(const std::string&)>& exists) {
  for (const std::string& path : pg.Column("SELECT DISTINCT path FROM hog_data_file WHERE "
                                           "catalog_id = " +
                                           CatalogIdSql(catalog))) {
    EXPECT_TRUE(exists(path)) << catalog << ": a file row names " << path
                              << " but its object is gone";
  }
}

void ExpectRemovalBookkeeping(PgSession& pg, const std::string& catalog,
                              const std::set<std::string>& registered) {
  const std::string id = CatalogIdSql(catalog);
  const std::vector<std::string> known =
      pg.Column("SELECT path FROM hog_data_file WHERE catalog_id = " + id +
                " UNION SELECT path FROM hog_file_removal WHERE catalog_id = " + id);
  const std::set<std::string> tracked(known.begin(), known.end());
  for (const std::string& path : registered) {
    EXPECT_TRUE(tracked.contains(path))
        << catalog << ": " << path << " lost both its file row and its removal-queue row";
  }
  for (const std::string& path : pg.Column(
           "SELECT q.path FROM hog_file_removal q WHERE q.catalog_id = " + id +
           " AND q.drained_at IS NULL AND (EXISTS (SELECT 1 FROM hog_data_file d WHERE "
           "d.catalog_id = q.catalog_id AND d.path = q.path) OR EXISTS (SELECT 1 FROM hog_upload u "
           "WHERE u.catalog_id = q.catalog_id AND u.path = q.path AND u.state = 'active'))")) {
    ADD_FAILURE() << catalog << ": queued for removal while still referenced: " << path;
  }
  ExpectNoOrphanFileChildren(pg, catalog);
}

void ExpectNoOrphanFileChildren(PgSession& pg, const std::string& catalog) {
  const std::string id = CatalogIdSql(catalog);
  for (const char* child : {"hog_file_stats", "hog_file_partition_value"}) {
    const std::vector<std::string> orphans = pg.Column(
        std::string("SELECT DISTINCT c.data_file_id::text FROM ") + child +
        " c WHERE c.catalog_id = " + id +
        " AND NOT EXISTS (SELECT 1 FROM hog_data_file d WHERE d.catalog_id = c.catalog_id AND "
        "d.data_file_id = c.data_file_id)");
    for (const std::string& file : orphans) {
      ADD_FAILURE() << catalog << ": " << child << " rows outlive data file " << file;
    }
  }
  // File rows name tables that exist (no foreign key says so since V15).
  const std::vector<std::string> strays =
      pg.Column("SELECT DISTINCT d.table_id::text FROM hog_data_file d WHERE d.catalog_id = " + id +
                " AND NOT EXISTS (SELECT 1 FROM hog_table t WHERE t.catalog_id = d.catalog_id AND "
                "t.table_id = d.table_id)");
  for (const std::string& table : strays) {
    ADD_FAILURE() << catalog << ": data file rows name table id " << table
                  << ", which does not exist";
  }
  // Snapshot and change rows name catalogs that exist (no foreign key says
  // so since V16).
  for (const char* history : {"hog_snapshot", "hog_snapshot_change"}) {
    const std::vector<std::string> unowned =
        pg.Column(std::string("SELECT DISTINCT h.catalog_id::text FROM ") + history +
                  " h WHERE NOT EXISTS (SELECT 1 FROM hog_catalog c WHERE c.catalog_id = "
                  "h.catalog_id)");
    for (const std::string& owner : unowned) {
      ADD_FAILURE() << history << " rows name catalog id " << owner << ", which does not exist";
    }
  }
}

bool LocalObjectExists(const std::string& uri) {
  return uri.starts_with("file://") && std::filesystem::exists(uri.substr(7));
}

}  // namespace hoglake::testing
