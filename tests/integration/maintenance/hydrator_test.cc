// Deferred-stats hydration (server digest §7) against the real server on
// file:// catalogs: hydrated stats equal an eager append's, structural
// failures surface as no_stats_reason, rehydrate requeues, and concurrent
// runs never process a file twice. Runs are triggered through the hoglake
// extension POST …/maintenance/hydrate.
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "client/client.h"
#include "columnar/builder.h"
#include "sdk_lake.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using iceberg::ColumnType;
using S = ServerEnvironment;

void OpenLake(SdkLake& lake) { OpenSdkLake(lake, "hydrate"); }

std::string LocalPath(const std::string& uri) { return uri.substr(std::string("file://").size()); }

std::string CatalogRoute(const SdkLake& lake) { return "/v1/catalogs/" + lake.catalog->name(); }

std::string DataPath(const SdkLake& lake) {
  return "file://" + S::data_dir() + "/sdk-lake/" + lake.catalog->name() + "/";
}

// id long, name string, score double, day date, ts timestamptz, amount decimal(10,2)
std::vector<client::ColumnDef> MixedColumns() {
  return {SdkColumn("id", ColumnType::kLong, false),
          SdkColumn("name", ColumnType::kString),
          SdkColumn("score", ColumnType::kDouble),
          SdkColumn("day", ColumnType::kDate),
          SdkColumn("ts", ColumnType::kTimestamptz),
          SdkColumn("amount", iceberg::TypeSpec::Decimal(10, 2))};
}

columnar::RecordBatch MixedBatch(int rows) {
  columnar::Int64Builder id;
  columnar::StringBuilder name;
  columnar::Float64Builder score;
  columnar::Date32Builder day;
  columnar::TimestampBuilder ts(columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"));
  columnar::Decimal128Builder amount(columnar::Decimal128(10, 2));
  for (int i = 0; i < rows; ++i) {
    id.Append(1000 - i * 7);
    i % 5 == 3 ? name.AppendNull() : name.Append("name-" + std::to_string(i * 13 % 17));
    i % 4 == 1 ? score.AppendNull() : score.Append(i * 0.5 - 3.25);
    day.Append(20000 + i);
    ts.Append(int64_t{1767225600000000} + i * int64_t{3600000000});
    amount.Append(i * 101 - 250);
  }
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), false, {}},
                    {"name", columnar::Utf8(), true, {}},
                    {"score", columnar::Float64(), true, {}},
                    {"day", columnar::Date32(), true, {}},
                    {"ts", columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"), true, {}},
                    {"amount", columnar::Decimal128(10, 2), true, {}}};
  auto batch = columnar::MakeRecordBatch(schema, {*id.Finish(), *name.Finish(), *score.Finish(),
                                                  *day.Finish(), *ts.Finish(), *amount.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

client::Table CreateTable(SdkLake& lake, const std::string& name) {
  auto table = lake.ns->CreateTable(name, MixedColumns());
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  return *table;
}

client::DataFile AppendOne(client::Table& table, int rows, bool deferred) {
  client::AppendOptions options;
  options.deferred_stats = deferred;
  options.row_group_rows = 16;  // several row groups
  auto appended = table.Append(MixedBatch(rows), options);
  EXPECT_TRUE(appended.ok()) << appended.status().ToString();
  auto files = table.Files();
  EXPECT_TRUE(files.ok());
  return files->back();
}

// The table's files through a fresh handle (a handle pins its own reads).
std::vector<client::DataFile> FilesOf(SdkLake& lake, const std::string& table) {
  auto fresh = lake.ns->GetTable(table);
  EXPECT_TRUE(fresh.ok()) << fresh.status().ToString();
  auto files = fresh->Files();
  EXPECT_TRUE(files.ok()) << files.status().ToString();
  return files.ok() ? *files : std::vector<client::DataFile>{};
}

ApiResponse Stats(const SdkLake& lake, const std::string& table, int64_t file_id) {
  return S::Call("GET", CatalogRoute(lake) + "/namespaces/ns/tables/" + table + "/files/" +
                            std::to_string(file_id) + "/stats");
}

ApiResponse Hydrate(const SdkLake& lake, const std::string& query = "") {
  return S::Call("POST", CatalogRoute(lake) + "/maintenance/hydrate" + query);
}

// Registers files without column_stats (⇒ pending) in one raw commit.
void RegisterPending(const SdkLake& lake, const std::string& table,
                     const std::vector<std::string>& file_json) {
  std::string files;
  for (const std::string& f : file_json) files += (files.empty() ? "" : ",") + f;
  ApiResponse r = S::Call(
      "POST", CatalogRoute(lake) + "/commit",
      R"({"appends":[{"namespace":"ns","table":")" + table + R"(","files":[)" + files + "]}]}");
  ASSERT_EQ(r.status, 200) << r.body;
}

std::string FileJson(const std::string& path, int64_t rows, int64_t size,
                     std::optional<int64_t> footer = std::nullopt) {
  return R"({"path":")" + path + R"(","record_count":)" + std::to_string(rows) +
         R"(,"file_size_bytes":)" + std::to_string(size) +
         (footer ? R"(,"footer_size":)" + std::to_string(*footer) : "") + "}";
}

TEST(HydratorTest, HydratedStatsEqualAnEagerAppend) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenLake(lake));
  client::Table eager = CreateTable(lake, "eager");
  client::Table lazy = CreateTable(lake, "lazy");
  const client::DataFile shipped = AppendOne(eager, 50, false);
  const client::DataFile pending = AppendOne(lazy, 50, true);
  ASSERT_EQ(shipped.stats_state, "provided");
  ASSERT_EQ(pending.stats_state, "pending");
  ApiResponse before = Stats(lake, "lazy", pending.data_file_id);
  ASSERT_EQ(before.status, 200) << before.body;
  EXPECT_TRUE(before.json.HasMember("no_stats_reason"));

  ApiResponse run = Hydrate(lake);
  ASSERT_EQ(run.status, 200) << run.body;
  EXPECT_EQ(run.json["claimed"].GetInt64(), 1) << run.body;
  EXPECT_EQ(run.json["hydrated"].GetInt64(), 1) << run.body;
  EXPECT_EQ(run.json["failed"].GetInt64(), 0);
  EXPECT_EQ(run.json["transient"].GetInt64(), 0);

  EXPECT_EQ(FilesOf(lake, "lazy")[0].stats_state, "provided");
  ApiResponse expected = Stats(lake, "eager", shipped.data_file_id);
  ApiResponse hydrated = Stats(lake, "lazy", pending.data_file_id);
  ASSERT_EQ(hydrated.status, 200) << hydrated.body;
  EXPECT_STREQ(hydrated.json["stats_state"].GetString(), "provided");
  EXPECT_FALSE(hydrated.json.HasMember("no_stats_reason"));
  ASSERT_EQ(hydrated.json["columns"].Size(), 6u) << hydrated.body;
  EXPECT_TRUE(hydrated.json["columns"] == expected.json["columns"])
      << "hydrated: " << hydrated.body << "\neager: " << expected.body;

  // Split offsets are known now: one per row group.
  ApiResponse scan =
      S::Call("GET", CatalogRoute(lake) + "/namespaces/ns/tables/lazy/scan?include=split_offsets");
  ASSERT_EQ(scan.status, 200) << scan.body;
  ASSERT_TRUE(scan.json[0]["data_file"].HasMember("split_offsets")) << scan.body;
  EXPECT_EQ(scan.json[0]["data_file"]["split_offsets"].Size(), 4u) << scan.body;

  // Nothing left: the next run claims nothing, and both runs are in the ledger.
  ApiResponse again = Hydrate(lake);
  EXPECT_EQ(again.json["claimed"].GetInt64(), 0) << again.body;
  ApiResponse runs = S::Call("GET", CatalogRoute(lake) + "/maintenance/runs?task=hydrator");
  ASSERT_EQ(runs.status, 200) << runs.body;
  ASSERT_EQ(runs.json["runs"].Size(), 2u) << runs.body;
  EXPECT_STREQ(runs.json["runs"][1]["trigger"].GetString(), "manual");
  EXPECT_EQ(runs.json["runs"][1]["result"]["hydrated"].GetInt64(), 1);
  EXPECT_EQ(Hydrate(lake, "?batch=0").status, 422);
  EXPECT_EQ(Hydrate(lake, "?batch=x").status, 400);
  EXPECT_EQ(S::Call("POST", "/v1/catalogs/nope-nope/maintenance/hydrate").status, 404);
}

TEST(HydratorTest, StructuralFailuresAreReportedAndRehydrateRequeues) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenLake(lake));
  client::Table table = CreateTable(lake, "t");
  const client::DataFile real = AppendOne(table, 20, true);
  const std::string junk = DataPath(lake) + "junk/not-parquet.txt";
  const std::string missing = DataPath(lake) + "junk/missing.parquet";
  std::filesystem::create_directories(std::filesystem::path(LocalPath(junk)).parent_path());
  const std::string text = "hello, this is certainly not a parquet file\n";
  std::ofstream(LocalPath(junk)) << text;
  ASSERT_NO_FATAL_FAILURE(RegisterPending(
      lake, "t",
      {FileJson(junk, 1, static_cast<int64_t>(text.size())),
       FileJson(missing, real.record_count, real.file_size_bytes, real.footer_size)}));

  ApiResponse run = Hydrate(lake);
  ASSERT_EQ(run.status, 200) << run.body;
  EXPECT_EQ(run.json["claimed"].GetInt64(), 3) << run.body;
  EXPECT_EQ(run.json["hydrated"].GetInt64(), 1) << run.body;
  EXPECT_EQ(run.json["failed"].GetInt64(), 2) << run.body;
  const std::vector<client::DataFile> files = FilesOf(lake, "t");
  ASSERT_EQ(files.size(), 3u);
  const int64_t junk_id = files[1].data_file_id, missing_id = files[2].data_file_id;
  for (int64_t id : {junk_id, missing_id}) {
    ApiResponse stats = Stats(lake, "t", id);
    ASSERT_EQ(stats.status, 200) << stats.body;
    EXPECT_STREQ(stats.json["stats_state"].GetString(), "failed") << stats.body;
    EXPECT_EQ(stats.json["columns"].Size(), 0u);
  }
  EXPECT_NE(Stats(lake, "t", junk_id).body.find("not a Parquet file"), std::string::npos);
  EXPECT_NE(Stats(lake, "t", missing_id).body.find("missing"), std::string::npos);

  // Refusals: one of namespace/table alone, an unknown table.
  const std::string rehydrate = CatalogRoute(lake) + "/maintenance/rehydrate";
  EXPECT_EQ(S::Call("POST", rehydrate + "?namespace=ns").status, 422);
  EXPECT_EQ(S::Call("POST", rehydrate + "?table=t").status, 422);
  EXPECT_EQ(S::Call("POST", rehydrate + "?namespace=ns&table=nope").status, 404);

  // The missing object appears; requeue the table and hydrate again.
  std::filesystem::copy_file(LocalPath(real.path), LocalPath(missing));
  ApiResponse requeued = S::Call("POST", rehydrate + "?namespace=ns&table=t");
  ASSERT_EQ(requeued.status, 200) << requeued.body;
  EXPECT_EQ(requeued.json["requeued"].GetInt64(), 2);
  EXPECT_STREQ(Stats(lake, "t", missing_id).json["stats_state"].GetString(), "pending");
  ApiResponse second = Hydrate(lake);
  EXPECT_EQ(second.json["claimed"].GetInt64(), 2) << second.body;
  EXPECT_EQ(second.json["hydrated"].GetInt64(), 1) << second.body;
  EXPECT_EQ(second.json["failed"].GetInt64(), 1) << second.body;
  ApiResponse now_real = Stats(lake, "t", missing_id);
  EXPECT_STREQ(now_real.json["stats_state"].GetString(), "provided") << now_real.body;
  EXPECT_TRUE(now_real.json["columns"] == Stats(lake, "t", real.data_file_id).json["columns"]);

  // Catalog-wide requeue takes the junk file once more; the ledger has it.
  ApiResponse all = S::Call("POST", rehydrate);
  EXPECT_EQ(all.json["requeued"].GetInt64(), 1) << all.body;
  ApiResponse runs = S::Call("GET", CatalogRoute(lake) + "/maintenance/runs?task=hydrator");
  ASSERT_EQ(runs.status, 200);
  ASSERT_GE(runs.json["runs"].Size(), 4u);
  EXPECT_EQ(runs.json["runs"][0]["result"]["requeued"].GetInt64(), 1) << runs.body;
}

TEST(HydratorTest, ConcurrentRunsNeverProcessAFileTwice) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenLake(lake));
  client::Table table = CreateTable(lake, "t");
  const client::DataFile real = AppendOne(table, 30, true);
  // 40 more files with the same bytes (a path is registered once).
  const std::string local = real.path.substr(std::string("file://").size());
  std::vector<std::string> more;
  for (int i = 0; i < 40; ++i) {
    const std::string copy = local + ".copy" + std::to_string(i) + ".parquet";
    std::filesystem::copy_file(local, copy, std::filesystem::copy_options::overwrite_existing);
    more.push_back(FileJson("file://" + copy, real.record_count, real.file_size_bytes,
                            real.footer_size));
  }
  ASSERT_NO_FATAL_FAILURE(RegisterPending(lake, "t", more));

  auto run = [&] { return Hydrate(lake, "?batch=100"); };
  auto a = std::async(std::launch::async, run);
  auto b = std::async(std::launch::async, run);
  ApiResponse ra = a.get(), rb = b.get();
  ASSERT_EQ(ra.status, 200) << ra.body;
  ASSERT_EQ(rb.status, 200) << rb.body;
  EXPECT_EQ(ra.json["claimed"].GetInt64() + rb.json["claimed"].GetInt64(), 41)
      << ra.body << " " << rb.body;
  EXPECT_EQ(ra.json["hydrated"].GetInt64() + rb.json["hydrated"].GetInt64(), 41)
      << ra.body << " " << rb.body;
  EXPECT_FALSE(ra.json.HasMember("skipped"));
  EXPECT_FALSE(rb.json.HasMember("skipped"));
  const std::vector<client::DataFile> files = FilesOf(lake, "t");
  ASSERT_EQ(files.size(), 41u);
  for (const client::DataFile& f : files) EXPECT_EQ(f.stats_state, "provided");
  EXPECT_EQ(Hydrate(lake).json["claimed"].GetInt64(), 0);
}

}  // namespace
}  // namespace hoglake::testing
