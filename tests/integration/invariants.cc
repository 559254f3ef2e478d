#include "invariants.h"

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

}  // namespace hoglake::testing
