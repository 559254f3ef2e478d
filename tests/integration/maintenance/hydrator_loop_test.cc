// The background loop hydrates deferred stats by itself: a second server on
// its own database with HOGLAKE_HYDRATOR_INTERVAL_MS small; an SDK append
// with deferred_stats registers a pending file that turns `provided`
// without any manual trigger, with the same stats an eager append ships.
#include <libpq-fe.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "client/client.h"
#include "columnar/builder.h"
#include "pg_session.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

TEST(HydratorLoopTest, PendingFilesTurnProvidedInTheBackground) {
  const std::string db = "hydrate_loop_" + std::to_string(getpid());
  ASSERT_NO_FATAL_FAILURE(CreateTestDatabase(db));
  char server_dir[] = "/tmp/hoglake-hydrate-XXXXXX";
  ASSERT_NE(mkdtemp(server_dir), nullptr);
  char lake_dir[] = "/tmp/hoglake-hydrate-lake-XXXXXX";
  ASSERT_NE(mkdtemp(lake_dir), nullptr);
  ServerProcess server;
  setenv("HOGLAKE_EXPIRY_INTERVAL_MS", "0", 1);
  setenv("HOGLAKE_HYDRATOR_INTERVAL_MS", "100", 1);
  server.Start(server_dir, {"--database-url", TestDatabaseUrl(db)});
  unsetenv("HOGLAKE_EXPIRY_INTERVAL_MS");
  unsetenv("HOGLAKE_HYDRATOR_INTERVAL_MS");
  ASSERT_TRUE(server.running());

  client::HoglakeClient client(server.base_url());
  auto catalog = client.CreateCatalog("lake", std::string("file://") + lake_dir + "/");
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto ns = catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok());
  client::ColumnDef id{"id", iceberg::ColumnType::kLong, true, {}, {}, {}};
  auto table = ns->CreateTable("t", {id});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}}};
  columnar::Int64Builder ids;
  for (int i = -5; i <= 41; ++i) ids.Append(i);
  auto batch = columnar::MakeRecordBatch(schema, {*ids.Finish()});
  ASSERT_TRUE(batch.ok());
  client::AppendOptions deferred;
  deferred.deferred_stats = true;
  ASSERT_TRUE(table->Append(*batch, deferred).ok());

  std::string state;
  int64_t file_id = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    auto files = ns->GetTable("t")->Files();
    ASSERT_TRUE(files.ok()) << files.status().ToString();
    ASSERT_EQ(files->size(), 1u);
    state = (*files)[0].stats_state;
    file_id = (*files)[0].data_file_id;
    if (state == "provided") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(state, "provided") << server.Log();
  auto stats = ns->GetTable("t")->GetFileStats(file_id);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->columns.size(), 1u);
  EXPECT_EQ(stats->columns[0].lower_bound_json, "-5");
  EXPECT_EQ(stats->columns[0].upper_bound_json, "41");
  EXPECT_EQ(stats->columns[0].value_count, 47);
  server.Stop();
}

}  // namespace
}  // namespace hoglake::testing
