// The SQL engine over the real lake: tables created and appended through the
// C++ SDK against the test server (Parquet files written by our writer,
// registered by footer-shipping commits), read in-process through
// LakeTablesOver on a CatalogService over the same database — at the head,
// at an older snapshot, with files skipped by the statistics the commits
// carried and by the partition values the SDK wrote (read through the spec
// each file was written under), counted at the store.
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "../../sql/counting_stores.h"
#include "columnar/builder.h"
#include "pg/pg_pool.h"
#include "pg_session.h"
#include "sdk_lake.h"
#include "server_fixture.h"
#include "iceberg/transforms.h"
#include "sql/engine.h"
#include "sql/types/value.h"

namespace hoglake::testing {
namespace {

using iceberg::ColumnType;

columnar::RecordBatch Rows(int64_t first, int64_t count) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}},
                    {"team", columnar::Int32(), true, {}},
                    {"name", columnar::Utf8(), true, {}},
                    {"amount", columnar::Decimal128(10, 2), true, {}}};
  columnar::Int64Builder id;
  columnar::Int32Builder team;
  columnar::StringBuilder name;
  columnar::Decimal128Builder amount(columnar::Decimal128(10, 2));
  for (int64_t i = first; i < first + count; ++i) {
    id.Append(i);
    team.Append(static_cast<int32_t>(i % 2));
    name.Append("n" + std::to_string(i));
    amount.Append(i * 100 + 25);  // i.25
  }
  auto batch = columnar::MakeRecordBatch(
      schema, {*id.Finish(), *team.Finish(), *name.Finish(), *amount.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

std::vector<std::string> Render(const sql::QueryResult& result) {
  std::vector<std::string> rows;
  for (const columnar::RecordBatch& b : result.batches) {
    for (int64_t r = 0; r < b.num_rows; ++r) {
      std::string line;
      for (size_t c = 0; c < result.columns.size(); ++c) {
        if (c > 0) line += "|";
        line += sql::ValueToString(sql::ValueAt(*b.columns[c], r, result.columns[c].type));
      }
      rows.push_back(line);
    }
  }
  return rows;
}

class SqlLakeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake_, "sqllake"));
    auto table = lake_.ns->CreateTable(
        "events", {SdkColumn("id", ColumnType::kLong), SdkColumn("team", ColumnType::kInt),
                   SdkColumn("name", ColumnType::kString),
                   SdkColumn("amount", iceberg::TypeSpec::Decimal(10, 2))});
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    auto first = table->Append(Rows(1, 3));
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    first_snapshot_ = first->snapshot_id;
    auto second = table->Append(Rows(4, 3));
    ASSERT_TRUE(second.ok()) << second.status().ToString();
  }

  sql::SessionOptions Options() {
    sql::SessionOptions options;
    options.tables = tables_.get();
    options.default_catalog = lake_.catalog->name();
    options.default_schema = "ns";
    return options;
  }

  std::vector<std::string> Run(sql::Session& session, const std::string& query) {
    auto result = session.Execute(query);
    if (!result.ok()) return {"ERROR " + result.error().ToString()};
    return Render(*result);
  }

  SdkLake lake_;
  int64_t first_snapshot_ = 0;
  pg::PgPool pool_{TestPgConninfo("hoglake"), 2};
  catalog::CatalogService service_{&pool_, catalog::CatalogServiceOptions{}};
  std::unique_ptr<catalog::LakeTables> tables_ = catalog::LakeTablesOver(service_);
};

TEST_F(SqlLakeTest, QueriesTablesTheSdkWrote) {
  sql::Session session(Options());
  EXPECT_EQ(Run(session, "SELECT count(*), sum(amount), min(name) FROM events"),
            (std::vector<std::string>{"6|22.50|n1"}));
  EXPECT_EQ(Run(session, "SELECT team, count(*), sum(id) FROM ns.events GROUP BY team ORDER BY 1"),
            (std::vector<std::string>{"0|3|12", "1|3|9"}));
  const std::string qualified = "SELECT id FROM " + lake_.catalog->name() +
                                ".ns.events WHERE name LIKE 'n%' AND amount > 5 ORDER BY id";
  EXPECT_EQ(Run(session, qualified), (std::vector<std::string>{"5", "6"}));
}

TEST_F(SqlLakeTest, ReadsAnOlderSnapshot) {
  sql::SessionOptions options = Options();
  options.at.snapshot = first_snapshot_;
  sql::Session session(options);
  EXPECT_EQ(Run(session, "SELECT count(*), max(id) FROM events"),
            (std::vector<std::string>{"3|3"}));
}

TEST_F(SqlLakeTest, SkipsFilesByTheCommittedStatistics) {
  sql::Session session(Options());
  std::vector<std::string> plan = Run(session, "EXPLAIN ANALYZE SELECT name FROM events WHERE id = 5");
  std::string text;
  for (const std::string& line : plan) text += line + "\n";
  EXPECT_NE(text.find("files=1/2 (pruned 1)"), std::string::npos) << text;
  EXPECT_EQ(Run(session, "SELECT name FROM events WHERE id = 5"),
            (std::vector<std::string>{"n5"}));
}

// A table partitioned by identity(region), whose spec then changes to
// bucket[8](name): the SDK writes one file per partition tuple; a query on
// name opens only the file of that name's bucket (the catalog's bucket
// function), a query on region only the files its identity values or
// statistics allow — the older files read through their own spec.
TEST_F(SqlLakeTest, SkipsFilesByPartitionValues) {
  auto table = lake_.ns->CreateTable(
      "parted", {SdkColumn("id", ColumnType::kLong), SdkColumn("region", ColumnType::kInt),
                 SdkColumn("name", ColumnType::kString)});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const int32_t region_id = table->info().columns[1].field_id;
  const int32_t name_id = table->info().columns[2].field_id;
  auto batch = [](int64_t first, int64_t count, auto region, const std::string& prefix) {
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = {{"id", columnar::Int64(), true, {}},
                      {"region", columnar::Int32(), true, {}},
                      {"name", columnar::Utf8(), true, {}}};
    columnar::Int64Builder id;
    columnar::Int32Builder regions;
    columnar::StringBuilder names;
    for (int64_t i = first; i < first + count; ++i) {
      id.Append(i);
      regions.Append(region(i));
      names.Append(prefix + std::to_string(i));
    }
    return *columnar::MakeRecordBatch(schema, {*id.Finish(), *regions.Finish(), *names.Finish()});
  };
  ASSERT_TRUE(table->Alter({client::SetPartitionSpec({{region_id, "identity", std::nullopt}})}).ok());
  auto first = table->Append(batch(0, 40, [](int64_t i) { return static_cast<int32_t>(i % 4); }, "a-"));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_EQ(first->files.size(), 4u);
  ASSERT_TRUE(table->Alter({client::SetPartitionSpec({{name_id, "bucket", 8}})}).ok());
  auto second = table->Append(batch(100, 80, [](int64_t) { return 9; }, "user-"));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_GT(second->files.size(), 4u);

  auto specs = service_.ListPartitionSpecs(
      catalog::TableRef{lake_.catalog->name(), "ns", "parted"}, catalog::SnapshotSelector{});
  ASSERT_TRUE(specs.ok()) << specs.status().ToString();
  ASSERT_EQ(specs->size(), 2u);
  EXPECT_EQ((*specs)[0].fields[0].transform, "identity");
  EXPECT_EQ((*specs)[1].fields[0].transform, "bucket");

  auto stores = std::make_unique<sql::testing::CountingStores>();
  sql::testing::CountingStores* counted = stores.get();
  sql::SessionOptions options = Options();
  options.files = sql::testing::CountedLakeFiles(std::move(stores), /*footer_cache_bytes=*/0);
  sql::Session session(options);
  EXPECT_EQ(Run(session, "SELECT id, region FROM parted WHERE name = 'user-107'"),
            (std::vector<std::string>{"107|9"}));
  EXPECT_EQ(counted->files_read().size(), 1u);
  const int32_t bucket = iceberg::BucketOf(iceberg::IcebergHashBytes("user-107"), 8);
  int64_t in_bucket = 0;
  for (const auto& file : second->files) {
    ASSERT_TRUE(file.partition_values && file.partition_values->size() == 1);
    if ((*file.partition_values)[0] == std::to_string(bucket)) {
      EXPECT_EQ(*counted->files_read().begin(), file.path);
      in_bucket = file.record_count;
    }
  }
  EXPECT_GT(in_bucket, 0);
  EXPECT_EQ(Run(session, "SELECT count(*) FROM parted WHERE name || '' = 'user-107'"),
            (std::vector<std::string>{"1"}));
  counted->Reset();
  EXPECT_EQ(Run(session, "SELECT count(*), sum(id) FROM parted WHERE region = 2"),
            (std::vector<std::string>{"10|200"}));
  EXPECT_EQ(counted->files_read().size(), 1u);
}

// List, struct and map columns of a table the SDK wrote (nested field ids
// in the files): selected whole, subscripted, field-selected, measured, and
// refused where a whole value would be compared.
TEST_F(SqlLakeTest, ReadsListStructAndMapColumns) {
  client::ColumnDef tags = SdkColumn("tags", ColumnType::kList);
  tags.children = {SdkColumn("element", ColumnType::kString)};
  client::ColumnDef addr = SdkColumn("addr", ColumnType::kStruct);
  addr.children = {SdkColumn("city", ColumnType::kString), SdkColumn("zip", ColumnType::kInt)};
  client::ColumnDef props = SdkColumn("props", ColumnType::kMap);
  props.children = {SdkColumn("key", ColumnType::kString, false),
                    SdkColumn("value", ColumnType::kLong)};
  auto table = lake_.ns->CreateTable("nested", {SdkColumn("id", ColumnType::kLong), tags, addr, props});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}},
                    {"tags", columnar::List(columnar::Utf8()), true, {}},
                    {"addr",
                     columnar::Struct({{"city", columnar::Utf8(), true, {}},
                                       {"zip", columnar::Int32(), true, {}}}),
                     true,
                     {}},
                    {"props", columnar::Map(columnar::Utf8(), columnar::Int64()), true, {}}};
  columnar::Int64Builder id;
  columnar::ListBuilder tag_list(schema->fields[1].type);
  columnar::StructBuilder address(schema->fields[2].type);
  columnar::MapBuilder prop_map(schema->fields[3].type);
  for (int i = 0; i < 3; ++i) {
    id.Append(i);
    if (i == 2) {
      tag_list.AppendNull();
      address.AppendNull();
      prop_map.AppendNull();
      continue;
    }
    tag_list.Append();
    for (int j = 0; j <= i; ++j) {
      tag_list.value_builder<columnar::StringBuilder>().Append("t" + std::to_string(j));
    }
    address.Append();
    address.child<columnar::StringBuilder>(0).Append(i == 1 ? "New York" : "Rome");
    address.child<columnar::Int32Builder>(1).Append(1000 + i);
    prop_map.Append();
    prop_map.key_builder<columnar::StringBuilder>().Append("k");
    prop_map.item_builder<columnar::Int64Builder>().Append(i * 7);
  }
  auto batch = columnar::MakeRecordBatch(
      schema, {*id.Finish(), *tag_list.Finish(), *address.Finish(), *prop_map.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto appended = table->Append(*batch);
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();

  sql::Session session(Options());
  EXPECT_EQ(Run(session, "SELECT * FROM nested ORDER BY id"),
            (std::vector<std::string>{"0|{t0}|(Rome,1000)|{k=0}",
                                      "1|{t0,t1}|(\"New York\",1001)|{k=7}", "2|NULL|NULL|NULL"}));
  EXPECT_EQ(Run(session, "SELECT id, tags[2], cardinality(tags), (addr).city, props['k'] FROM "
                         "nested WHERE tags IS NOT NULL ORDER BY id DESC"),
            (std::vector<std::string>{"1|t1|2|New York|7", "0|NULL|1|Rome|0"}));
  EXPECT_EQ(Run(session, "SELECT e.name, n.addr FROM nested n JOIN events e ON e.id = n.id + 1 "
                         "WHERE n.addr IS NULL"),
            (std::vector<std::string>{"n3|NULL"}));
  std::vector<std::string> refused = Run(session, "SELECT tags FROM nested GROUP BY tags");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].find("grouping by text[] values is not supported"), std::string::npos)
      << refused[0];
}

TEST_F(SqlLakeTest, UnknownTablesAndCatalogsAreNamed) {
  sql::Session session(Options());
  std::vector<std::string> missing = Run(session, "SELECT * FROM nope");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("relation \"nope\" does not exist"), std::string::npos) << missing[0];
  std::vector<std::string> other = Run(session, "SELECT * FROM nocatalog.ns.events");
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].find("does not exist"), std::string::npos) << other[0];
}

}  // namespace
}  // namespace hoglake::testing
