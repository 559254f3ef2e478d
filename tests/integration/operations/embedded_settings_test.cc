// HOGLAKE_EMBEDDED_PG_SETTINGS (pg/embedded_postgres.h): "name=value"
// words passed to the embedded PostgreSQL as -c settings, after the
// defaults; a word that is not name=value stops `serve` before anything is
// started, naming it.
#include <libpq-fe.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "server_fixture.h"

namespace hoglake::testing {
namespace {

std::string NewDir(const char* name) {
  std::string pattern = std::string("/tmp/hoglake-") + name + "-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

TEST(EmbeddedSettingsTest, ASettingReachesTheEmbeddedServer) {
  const std::string dir = NewDir("pgsettings");
  ServerProcess server;
  server.Start(dir, {}, {{"HOGLAKE_EMBEDDED_PG_SETTINGS", "work_mem=7MB  log_min_messages=error"}});
  ASSERT_TRUE(server.running()) << server.Log();
  const std::string conninfo = "host=" + dir + "/run port=5432 user=hoglake dbname=hoglake";
  PGconn* conn = PQconnectdb(conninfo.c_str());
  ASSERT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
  PGresult* shown = PQexec(conn,
                           "SELECT current_setting('work_mem'), "
                           "current_setting('log_min_messages')");
  ASSERT_EQ(PQresultStatus(shown), PGRES_TUPLES_OK) << PQerrorMessage(conn);
  EXPECT_STREQ(PQgetvalue(shown, 0, 0), "7MB");
  EXPECT_STREQ(PQgetvalue(shown, 0, 1), "error");
  PQclear(shown);
  PQfinish(conn);
  server.Stop();
  std::filesystem::remove_all(dir);
}

TEST(EmbeddedSettingsTest, AWordThatIsNotASettingStopsServe) {
  const char* bin = std::getenv("HOGLAKE_BIN");
  ASSERT_NE(bin, nullptr);
  const std::string dir = NewDir("pgsettings-bad");
  const std::string command = "HOGLAKE_EMBEDDED_PG_SETTINGS='work_mem=7MB nonsense' " +
                              std::string(bin) + " serve --data-dir " + dir +
                              " --listen 127.0.0.1:0 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_NE(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("HOGLAKE_EMBEDDED_PG_SETTINGS: 'nonsense' is not name=value"),
            std::string::npos)
      << out;
  // Refused before anything was initialized.
  EXPECT_FALSE(std::filesystem::exists(dir + "/pg")) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hoglake::testing
