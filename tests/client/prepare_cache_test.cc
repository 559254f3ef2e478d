// The prepared path's writer cache (pyhoglake-writer §8.4) against a
// scripted server, with the client's clock injected: which GETs each
// prepare makes, the basis it sends, and which commit errors drop the cache.
// Prepares go through PrepareAppendTables, uploading to a file:// temp dir.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/json_raw.h"
#include "client/writer_schema.h"
#include "columnar/builder.h"
#include "common/uuid.h"
#include "fake_server.h"

namespace hoglake::client {
namespace {

using std::chrono::seconds;
using testing::FakeServer;

constexpr const char* kUuid = "0b8e5a3c-1111-4222-8333-944455556666";
constexpr const char* kOtherUuid = "0b8e5a3c-1111-4222-8333-944455557777";
constexpr const char* kTablePath = "/v1/catalogs/c1/namespaces/ns1/tables/events";

std::string TableJson(const std::string& read_snapshot = R"(,"read_snapshot_id":5)",
                      const std::string& uuid = kUuid) {
  return R"({"name":"events","namespace":"ns1","table_uuid":")" + uuid +
         R"(","columns":[{"name":"id","type":"long","nullable":false,"field_id":1,"ordinal":0}],"properties":{})" +
         read_snapshot + "}";
}

std::string OptionsJson(const std::string& retention) {
  return R"({"consumer_floor":false,"earliest_snapshot_id":1)" + retention + "}";
}

class PrepareCacheTest : public ::testing::Test {
 protected:
  PrepareCacheTest() {
    dir_ = std::filesystem::temp_directory_path() / ("hoglake-prepare-cache-" + NewUuid());
    std::filesystem::create_directories(dir_);
    client_.context()->now = [this] { return now_; };
  }
  ~PrepareCacheTest() override { std::filesystem::remove_all(dir_); }

  std::string CatalogJson(int64_t head = 3) const {
    return R"({"name":"c1","data_path":"file://)" + dir_.string() + R"(","head_snapshot_id":)" +
           std::to_string(head) + R"(,"schema_version":1,"capabilities":[]})";
  }
  Catalog OpenCatalog() {
    server_.Queue(200, CatalogJson());
    Result<Catalog> catalog = client_.GetCatalog("c1");
    EXPECT_TRUE(catalog.ok()) << catalog.error().ToString();
    server_.Clear();
    return std::move(catalog).value();
  }
  Table OpenTable(Catalog& catalog, const std::string& json) {
    server_.Queue(200, json);
    Result<Table> table = catalog.GetTable("ns1", "events");
    EXPECT_TRUE(table.ok()) << table.error().ToString();
    server_.Clear();
    return std::move(table).value();
  }

  // One prepare of three rows; Lines() are the requests made since it began.
  Result<PreparedAppend> Prepare(Table& table, PrepareOptions options = {}) {
    mark_ = server_.requests().size();
    auto schema = WriterSchema(table.info().columns);
    EXPECT_TRUE(schema.ok());
    columnar::Int64Builder ids;
    for (int64_t i = 1; i <= 3; ++i) ids.Append(i);
    auto batch = columnar::MakeRecordBatch(*schema, {*ids.Finish()});
    EXPECT_TRUE(batch.ok());
    options.idempotency_key = NewUuid();
    return table.PrepareAppendTables({PreparedBatches{{*batch}, std::nullopt}}, options);
  }
  static int64_t Basis(const PreparedAppend& prepared) {
    return std::stoll(std::string(json_raw::ObjectMember(prepared.payload_json, "read_snapshot")));
  }
  std::vector<std::string> Lines() const {
    const std::vector<std::string> all = server_.lines();
    return std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(mark_), all.end());
  }
  std::vector<std::string> Reads() const {
    std::vector<std::string> out;
    for (const std::string& line : Lines()) {
      if (line.starts_with("GET ")) out.push_back(line);
    }
    return out;
  }
  const std::vector<std::string> kFreshReads = {"GET /v1/catalogs/c1",
                                                std::string("GET ") + kTablePath + "?totals=false"};

  std::filesystem::path dir_;
  size_t mark_ = 0;
  std::chrono::steady_clock::time_point now_ = std::chrono::steady_clock::now();
  FakeServer server_;
  HoglakeClient client_{server_.base_url(), {}, [] {
                          ClientOptions options;
                          options.retry_base_delay_ms = 1;
                          return options;
                        }()};
};

TEST_F(PrepareCacheTest, SteadyStateMakesNoGets) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  EXPECT_EQ(table.cached_read_snapshot(), 5);
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  Result<PreparedAppend> first = Prepare(table);
  ASSERT_TRUE(first.ok()) << first.error().ToString();
  EXPECT_EQ(Lines(), std::vector<std::string>{"GET /v1/catalogs/c1/options"});
  EXPECT_EQ(Basis(*first), 5);
  EXPECT_EQ(first->read_snapshot, 5);
  for (int i = 0; i < 3; ++i) {
    now_ += seconds(500);
    Result<PreparedAppend> again = Prepare(table);
    ASSERT_TRUE(again.ok()) << again.error().ToString();
    EXPECT_TRUE(Lines().empty());
    EXPECT_EQ(Basis(*again), 5);
    server_.Queue(200, R"({"snapshot_id":)" + std::to_string(6 + i) + "}");
    ASSERT_TRUE(table.CommitPrepared(again->payload_json).ok());
    EXPECT_EQ(Lines(), std::vector<std::string>{"POST /v1/catalogs/c1/commit/prepared"});
    EXPECT_EQ(table.cached_read_snapshot(), 5);
  }
}

TEST_F(PrepareCacheTest, RefreshesOnceOlderThanHalfTheRetention) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  ASSERT_TRUE(Prepare(table).ok());
  now_ += seconds(1799);
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_TRUE(Reads().empty());
  now_ += seconds(2);  // 1801 s
  server_.Queue(200, CatalogJson(8));
  server_.Queue(200, TableJson(R"(,"read_snapshot_id":9)"));
  Result<PreparedAppend> refreshed = Prepare(table);
  ASSERT_TRUE(refreshed.ok()) << refreshed.error().ToString();
  EXPECT_EQ(Reads(), kFreshReads);
  EXPECT_EQ(Basis(*refreshed), 9);
  EXPECT_EQ(table.cached_read_snapshot(), 9);
  now_ += seconds(1000);  // re-seeded at 1801 s
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_TRUE(Reads().empty());
}

TEST_F(PrepareCacheTest, RetentionIsReadOncePerCatalogAndClearedBySetRetention) {
  Catalog catalog = OpenCatalog();
  Table a = OpenTable(catalog, TableJson());
  Table b = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  ASSERT_TRUE(Prepare(a).ok());
  EXPECT_EQ(Reads(), std::vector<std::string>{"GET /v1/catalogs/c1/options"});
  ASSERT_TRUE(Prepare(b).ok());
  ASSERT_TRUE(Prepare(a).ok());
  EXPECT_TRUE(Reads().empty());

  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":100)"));
  ASSERT_TRUE(catalog.SetRetention(100).ok());
  now_ += seconds(60);  // fine under 3600 s, stale under 100 s
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":100)"));
  server_.Queue(200, CatalogJson());
  server_.Queue(200, TableJson());
  ASSERT_TRUE(Prepare(b).ok());
  std::vector<std::string> expected = {"GET /v1/catalogs/c1/options"};
  expected.insert(expected.end(), kFreshReads.begin(), kFreshReads.end());
  EXPECT_EQ(Reads(), expected);
}

TEST_F(PrepareCacheTest, AbsentRetentionIsInfinite) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":null)"));
  ASSERT_TRUE(Prepare(table).ok());
  now_ += seconds(int64_t{10} * 365 * 24 * 3600);
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_TRUE(Reads().empty());
}

TEST_F(PrepareCacheTest, UnreadableOptionsAssume1800SecondsAndRetryAfterAMinute) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(500, R"({"error":"internal_error","detail":"boom"})");
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_EQ(Reads(), std::vector<std::string>{"GET /v1/catalogs/c1/options"});
  now_ += seconds(30);
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_TRUE(Reads().empty());
  now_ += seconds(31);  // 61 s: the options are read again; 61 s is stale under 100 s
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":100)"));
  server_.Queue(200, CatalogJson());
  server_.Queue(200, TableJson());
  ASSERT_TRUE(Prepare(table).ok());
  std::vector<std::string> expected = {"GET /v1/catalogs/c1/options"};
  expected.insert(expected.end(), kFreshReads.begin(), kFreshReads.end());
  EXPECT_EQ(Reads(), expected);
}

TEST_F(PrepareCacheTest, RePrepareErrorsInvalidateAndTheNextPrepareReadsCatalogThenTable) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  ASSERT_TRUE(Prepare(table).ok());
  const std::vector<std::string> refusals = {
      R"({"error":"ddl_since_read_snapshot","detail":"ddl","tables":["ns1.events"],"read_snapshot":5})",
      R"({"error":"table_recreated","detail":"x","tables":["ns1.events"],"retry":"re-prepare"})",
  };
  for (const std::string& refusal : refusals) {
    Result<PreparedAppend> prepared = Prepare(table);
    ASSERT_TRUE(prepared.ok());
    server_.Queue(409, refusal);
    Result<CommitResult> committed = table.CommitPrepared(prepared->payload_json);
    ASSERT_FALSE(committed.ok());
    EXPECT_TRUE(RePrepare(committed.error()));
    EXPECT_FALSE(table.cached_read_snapshot().has_value());
    server_.Queue(200, CatalogJson());
    server_.Queue(200, TableJson());
    ASSERT_TRUE(Prepare(table).ok());
    EXPECT_EQ(Lines(), kFreshReads);
  }
  // 410: re-prepare, and the retention is read again.
  Result<PreparedAppend> prepared = Prepare(table);
  ASSERT_TRUE(prepared.ok());
  server_.Queue(410, R"({"error":"expired","detail":"read_snapshot below floor"})");
  EXPECT_FALSE(table.CommitPrepared(prepared->payload_json).ok());
  server_.Queue(200, CatalogJson());
  server_.Queue(200, TableJson());
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_EQ(Lines(), kFreshReads);
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_EQ(Lines(), std::vector<std::string>{"GET /v1/catalogs/c1/options"});
}

TEST_F(PrepareCacheTest, RetryableConflictKeepsTheCacheOtherErrorsOnlyForItsBasis) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  Result<PreparedAppend> old_basis = Prepare(table);
  ASSERT_TRUE(old_basis.ok());
  server_.Queue(409, R"({"error":"commit_conflict","detail":"busy"})");
  Result<CommitResult> conflict = table.CommitPrepared(old_basis->payload_json);
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(Retryable(conflict.error()));
  EXPECT_EQ(table.cached_read_snapshot(), 5);
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_TRUE(Lines().empty());

  // Re-seed at 9, then fail the payload built on 5: the cache stays.
  server_.Queue(200, TableJson(R"(,"read_snapshot_id":9)"));
  ASSERT_TRUE(table.Info().ok());
  server_.Queue(422, R"({"error":"validation","detail":"bad"})");
  EXPECT_FALSE(table.CommitPrepared(old_basis->payload_json).ok());
  EXPECT_EQ(table.cached_read_snapshot(), 9);
  // The same failure of a payload built on 9 drops it.
  Result<PreparedAppend> current = Prepare(table);
  ASSERT_TRUE(current.ok());
  EXPECT_EQ(Basis(*current), 9);
  server_.Queue(422, R"({"error":"validation","detail":"bad"})");
  EXPECT_FALSE(table.CommitPrepared(current->payload_json).ok());
  EXPECT_FALSE(table.cached_read_snapshot().has_value());
}

TEST_F(PrepareCacheTest, ExpectedInfoInvalidateAlterAndLegacyServersRead) {
  Catalog catalog = OpenCatalog();
  Table table = OpenTable(catalog, TableJson());
  server_.Queue(200, OptionsJson(R"(,"snapshot_retention_seconds":3600)"));
  ASSERT_TRUE(Prepare(table).ok());

  // expected_table_info always reads.
  PrepareOptions with_info;
  with_info.expected_table_info = table.info();
  server_.Queue(200, CatalogJson());
  server_.Queue(200, TableJson());
  ASSERT_TRUE(Prepare(table, with_info).ok());
  EXPECT_EQ(Lines(), kFreshReads);

  // A cached uuid that is not the expected one: refused without a request.
  PrepareOptions other;
  other.expected_table_uuid = kOtherUuid;
  Result<PreparedAppend> refused = Prepare(table, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kTableRecreated);
  EXPECT_TRUE(Lines().empty());

  table.Invalidate();
  server_.Queue(200, CatalogJson());
  server_.Queue(200, TableJson());
  ASSERT_TRUE(Prepare(table).ok());
  EXPECT_EQ(Lines(), kFreshReads);

  // An alter receipt with read_snapshot_id re-seeds; one without drops it.
  server_.Queue(200, TableJson(R"(,"read_snapshot_id":12,"snapshot_id":12)"));
  ASSERT_TRUE(table.Alter({SetTableComment("x")}).ok());
  EXPECT_EQ(table.cached_read_snapshot(), 12);
  server_.Queue(200, TableJson(R"(,"snapshot_id":13)"));
  ASSERT_TRUE(table.Alter({SetTableComment("y")}).ok());
  EXPECT_FALSE(table.cached_read_snapshot().has_value());

  // A server without read_snapshot_id: catalog + table per prepare, basis = head.
  for (int i = 0; i < 2; ++i) {
    server_.Queue(200, CatalogJson(20 + i));
    server_.Queue(200, TableJson(""));
    Result<PreparedAppend> legacy = Prepare(table);
    ASSERT_TRUE(legacy.ok()) << legacy.error().ToString();
    EXPECT_EQ(Lines(), kFreshReads);
    EXPECT_EQ(Basis(*legacy), 20 + i);
  }
}

}  // namespace
}  // namespace hoglake::client
