// Several stateless servers on one external PostgreSQL (--database-url):
// they start at once (migrations run exactly once under the advisory lock)
// and see each other's writes.
#include <libpq-fe.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

TEST(ReplicasTest, ServersShareOneExternalDatabase) {
  // The test server's embedded PostgreSQL plays the external database.
  const std::string socket_dir = ServerEnvironment::data_dir() + "/run";
  const std::string admin = "host=" + socket_dir + " port=5432 user=hoglake dbname=postgres";
  const std::string db = "replicas_" + std::to_string(getpid());
  PGconn* conn = PQconnectdb(admin.c_str());
  ASSERT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
  PGresult* created = PQexec(conn, ("CREATE DATABASE " + db).c_str());
  ASSERT_EQ(PQresultStatus(created), PGRES_COMMAND_OK) << PQerrorMessage(conn);
  PQclear(created);
  PQfinish(conn);
  const std::string url = "postgresql:///" + db + "?host=" + socket_dir + "&user=hoglake";

  std::vector<std::string> dirs;
  for (int i = 0; i < 3; ++i) {
    char pattern[] = "/tmp/hoglake-replica-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dirs.emplace_back(pattern);
  }
  ServerProcess servers[3];
  std::vector<std::thread> starting;
  for (int i = 0; i < 3; ++i) {
    starting.emplace_back([&, i] { servers[i].Start(dirs[i], {"--database-url", url}); });
  }
  for (auto& t : starting) t.join();
  for (auto& s : servers) ASSERT_TRUE(s.running()) << s.Log();

  ASSERT_EQ(CallServer(servers[0].base_url(), "POST", "/v1/catalogs",
                       R"({"name":"shared","data_path":"s3://replicas/shared"})")
                .status,
            201);
  ASSERT_EQ(CallServer(servers[1].base_url(), "POST", "/v1/catalogs/shared/namespaces",
                       R"({"name":"ns"})")
                .status,
            201);
  ApiResponse seen = CallServer(servers[2].base_url(), "GET", "/v1/catalogs/shared");
  ASSERT_EQ(seen.status, 200) << seen.body;
  EXPECT_EQ(seen.json["head_snapshot_id"].GetInt64(), 1);
  // No embedded PostgreSQL was started for them.
  for (const auto& dir : dirs) EXPECT_FALSE(std::filesystem::exists(dir + "/pg")) << dir;
  for (auto& s : servers) s.Stop();
  if (!::testing::Test::HasFailure()) {
    for (const auto& dir : dirs) std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace hoglake::testing
