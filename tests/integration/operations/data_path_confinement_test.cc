// The server never creates a catalog over, reads, or deletes files outside
// the data roots its operator allowed: not the file system at large, not its
// own PostgreSQL directory, not through a symbolic link swapped in after the
// catalog was created. Each refusal is 422 and leaves nothing behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

namespace fs = std::filesystem;
using S = ServerEnvironment;

ApiResponse CreateCatalogAt(const std::string& base, const std::string& name,
                            const std::string& data_path) {
  return CallServer(base, "POST", "/v1/catalogs",
                    R"({"name":")" + name + R"(","data_path":")" + data_path + R"("})");
}

TEST(DataPathConfinementTest, CatalogsOutsideTheAllowedRootsAreRefused) {
  const std::string pg_dir = S::data_dir() + "/pg";
  ASSERT_TRUE(fs::exists(pg_dir + "/PG_VERSION"));
  const std::string link_dir = MakeServerDir("hoglake-link");
  fs::create_directory_symlink(pg_dir, link_dir + "/to-pg");
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"root", "file:///"},
      {"etc", "file:///etc/"},
      {"pgdir", "file://" + pg_dir + "/"},
      {"pgglobal", "file://" + pg_dir + "/global/"},
      {"datadir", "file://" + S::data_dir() + "/"},  // contains pg/
      {"viapglink", "file://" + link_dir + "/to-pg/"},
      {"unlistedbucket", "s3://not-on-the-list/lake/"},
  };
  for (const auto& [name, path] : refused) {
    ApiResponse r = S::Call("POST", "/v1/catalogs",
                            R"({"name":")" + name + R"(","data_path":")" + path + R"("})");
    EXPECT_EQ(r.status, 422) << path << ": " << r.body;
    EXPECT_EQ(r.error(), "validation") << r.body;
    EXPECT_NE(r.body.find("data path"), std::string::npos) << r.body;
    EXPECT_EQ(S::Call("GET", "/v1/catalogs/" + name).status, 404) << name;
  }
  EXPECT_TRUE(fs::exists(pg_dir + "/PG_VERSION"));
  fs::remove_all(link_dir);
}

// The probe's sequence: register a file, truncate, expire with a short
// retention, clean up. Here the catalog's directory is swapped for a link to
// a directory outside the allowed root after the catalog was created; the
// file it points at must survive.
TEST(DataPathConfinementTest, CleanupNeverDeletesThroughALinkSwappedInLater) {
  const std::string top = MakeServerDir("hoglake-confine");
  const std::string allowed = top + "/allowed";
  const std::string outside = top + "/outside";
  fs::create_directories(allowed + "/victim");
  fs::create_directories(outside);
  std::ofstream(outside + "/important.txt") << "keep me";
  std::ofstream(allowed + "/victim/important.txt") << "bait";

  fs::create_directories(top + "/server");
  ServerProcess server;
  server.Start(top + "/server", {},
               {{"HOGLAKE_ALLOWED_DATA_PATHS", "file://" + allowed + "/"},
                {"HOGLAKE_EXPIRY_INTERVAL_MS", "0"}});
  const std::string base = server.base_url();

  // Outside the root: refused, nothing created.
  EXPECT_EQ(CreateCatalogAt(base, "outside", "file://" + outside + "/").status, 422);
  EXPECT_EQ(CallServer(base, "GET", "/v1/catalogs/outside").status, 404);

  ASSERT_EQ(CreateCatalogAt(base, "victim", "file://" + allowed + "/victim/").status, 201);
  const std::string c = "/v1/catalogs/victim";
  ASSERT_EQ(CallServer(base, "POST", c + "/namespaces", R"({"name":"ns"})").status, 201);
  ApiResponse table = CallServer(base, "POST", c + "/namespaces/ns/tables",
                                 R"({"name":"t","columns":[{"name":"id","type":"long"}]})");
  ASSERT_EQ(table.status, 201) << table.body;
  ApiResponse commit = CallServer(
      base, "POST", c + "/commit",
      R"({"appends":[{"namespace":"ns","table":"t","files":[{"path":"file://)" + allowed +
          R"(/victim/important.txt","record_count":1,"file_size_bytes":7}]}]})");
  ASSERT_EQ(commit.status, 200) << commit.body;

  // The swap: the catalog's directory becomes a link to `outside`.
  fs::rename(allowed + "/victim", allowed + "/victim-moved");
  fs::create_directory_symlink(outside, allowed + "/victim");

  const std::string uuid = table.json["table_uuid"].GetString();
  ASSERT_EQ(CallServer(base, "POST",
                       c + "/namespaces/ns/tables/t/truncate?expected_table_uuid=" + uuid)
                .status,
            200);
  ASSERT_EQ(CallServer(base, "PATCH", c + "/options", R"({"snapshot_retention_seconds":1})").status,
            200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ApiResponse expired = CallServer(base, "POST", c + "/maintenance/expire");
  ASSERT_EQ(expired.status, 200) << expired.body;
  ApiResponse cleanup = CallServer(base, "POST", c + "/maintenance/cleanup");
  EXPECT_NE(cleanup.status, 200) << cleanup.body;
  EXPECT_EQ(cleanup.body.find(outside), std::string::npos) << cleanup.body;
  EXPECT_TRUE(fs::exists(outside + "/important.txt"));
  EXPECT_TRUE(fs::exists(allowed + "/victim-moved/important.txt"));

  // With the directory back in place the same queue drains normally.
  fs::remove(allowed + "/victim");
  fs::rename(allowed + "/victim-moved", allowed + "/victim");
  ApiResponse drained = CallServer(base, "POST", c + "/maintenance/cleanup");
  ASSERT_EQ(drained.status, 200) << drained.body;
  EXPECT_EQ(drained.json["removed"].GetInt64(), 1) << drained.body;
  EXPECT_FALSE(fs::exists(allowed + "/victim/important.txt"));
  EXPECT_TRUE(fs::exists(outside + "/important.txt"));
  server.Stop();
  fs::remove_all(top);
}

// Without HOGLAKE_ALLOWED_DATA_PATHS only the data root is allowed, and an
// unusable list stops the server before it serves.
TEST(DataPathConfinementTest, DefaultIsTheDataRootAndABadListStopsTheServer) {
  const std::string top = MakeServerDir("hoglake-default-root");
  fs::create_directories(top + "/data");
  ServerProcess server;
  server.Start(top + "/data", {}, {{"HOGLAKE_ALLOWED_DATA_PATHS", ""}});
  const std::string base = server.base_url();
  ApiResponse info = CallServer(base, "GET", "/v1/info");
  ASSERT_EQ(info.status, 200);
  const std::string root = info.json["data_root"].GetString();
  EXPECT_EQ(CreateCatalogAt(base, "inside", root + "inside/").status, 201);
  EXPECT_EQ(CreateCatalogAt(base, "tmp", "file://" + top + "/elsewhere/").status, 422);
  EXPECT_EQ(CreateCatalogAt(base, "s3", "s3://bucket/lake/").status, 422);
  server.Stop();

  // A bad entry: `serve` exits non-zero naming the variable.
  const char* bin = std::getenv("HOGLAKE_BIN");
  ASSERT_NE(bin, nullptr);
  const std::string command = "HOGLAKE_ALLOWED_DATA_PATHS='relative/dir' " + std::string(bin) +
                              " serve --data-dir " + top + "/bad --listen 127.0.0.1:0 2>" + top +
                              "/bad.log";
  EXPECT_NE(std::system(command.c_str()), 0);
  std::ifstream log(top + "/bad.log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("HOGLAKE_ALLOWED_DATA_PATHS"), std::string::npos) << text;
  EXPECT_NE(text.find("relative/dir"), std::string::npos) << text;
  fs::remove_all(top);
}

}  // namespace
}  // namespace hoglake::testing
