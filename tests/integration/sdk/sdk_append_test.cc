// Table::Append against the real server on a file:// catalog: partition
// fan-out into one commit, the incarnation guard, deferred stats, nested
// columns, and refusals that register nothing (pyhoglake-writer §7–§9, §15).
#include <filesystem>
#include <string>
#include <vector>

#include "client/client.h"
#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "parquet/reader.h"
#include "sdk_lake.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using client::ColumnDef;
using iceberg::ColumnType;
using S = ServerEnvironment;

using Lake = SdkLake;
void OpenLake(Lake& lake) { OpenSdkLake(lake, "sdkappend"); }
ColumnDef Col(std::string name, iceberg::TypeSpec type, bool nullable = true) {
  return SdkColumn(std::move(name), type, nullable);
}

// team int, ts timestamptz, name string, amount decimal(10,2)
std::vector<ColumnDef> EventColumns() {
  return {Col("team", ColumnType::kInt), Col("ts", ColumnType::kTimestamptz),
          Col("name", ColumnType::kString), Col("amount", iceberg::TypeSpec::Decimal(10, 2))};
}

int64_t Micros(int year, int month, int day) {
  // Days from civil (Howard Hinnant's algorithm), then micros.
  year -= month <= 2;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return (int64_t{era} * 146097 + doe - 719468) * 86400LL * 1000000LL;
}

struct EventRow {
  std::optional<int32_t> team;
  std::optional<int64_t> ts;
  std::string name;
  int64_t cents;
};

columnar::RecordBatch EventBatch(const std::vector<EventRow>& rows) {
  columnar::Int32Builder team;
  columnar::NumericBuilder<int64_t> ts(columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"));
  columnar::StringBuilder name;
  columnar::Decimal128Builder amount(columnar::Decimal128(10, 2));
  for (const EventRow& r : rows) {
    r.team ? team.Append(*r.team) : team.AppendNull();
    r.ts ? ts.Append(*r.ts) : ts.AppendNull();
    name.Append(r.name);
    amount.Append(r.cents);
  }
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"team", columnar::Int32(), true, {}},
                    {"ts", columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"), true, {}},
                    {"name", columnar::Utf8(), true, {}},
                    {"amount", columnar::Decimal128(10, 2), true, {}}};
  auto batch = columnar::MakeRecordBatch(
      schema, {*team.Finish(), *ts.Finish(), *name.Finish(), *amount.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// 8 rows over teams 7/8 × Jan–Mar 2026 (the pinned fan-out example).
std::vector<EventRow> SixPartitionRows() {
  return {{7, Micros(2026, 1, 5), "a", 100}, {8, Micros(2026, 1, 6), "b", 200},
          {8, Micros(2026, 1, 7), "c", 300}, {7, Micros(2026, 2, 1), "d", 400},
          {8, Micros(2026, 2, 2), "e", 500}, {7, Micros(2026, 3, 3), "f", 600},
          {7, Micros(2026, 3, 4), "g", 700}, {8, Micros(2026, 3, 5), "h", -800}};
}

std::string LocalPath(const std::string& uri) { return uri.substr(std::string("file://").size()); }

std::string ReadRows(const std::string& uri) {
  auto reader = parquet::ParquetReader::OpenFile(LocalPath(uri));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::string text;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    columnar::AppendJsonLines(**batch, &text);
  }
  return text;
}

client::Table PartitionedEvents(Lake& lake, const std::string& name) {
  auto table = lake.ns->CreateTable(name, EventColumns());
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  const int32_t team_id = table->info().columns[0].field_id;
  const int32_t ts_id = table->info().columns[1].field_id;
  auto altered = table->Alter({client::SetPartitionSpec(
      {{team_id, "identity", std::nullopt}, {ts_id, "month", std::nullopt}})});
  EXPECT_TRUE(altered.ok()) << altered.status().ToString();
  return *table;
}

TEST(SdkAppendTest, FanOutWritesOneFilePerTupleInOneCommit) {
  Lake lake;
  OpenLake(lake);
  client::Table table = PartitionedEvents(lake, "events");
  const int64_t head = lake.catalog->Refresh()->head_snapshot_id;

  client::AppendOptions options;
  options.author = "sdk-test";
  options.message = "six partitions";
  auto appended = table.Append(EventBatch(SixPartitionRows()), options);
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  EXPECT_EQ(appended->snapshot_id, head + 1);  // exactly one snapshot

  using Tuple = std::vector<std::optional<std::string>>;
  const std::vector<Tuple> tuples = {{"7", "672"}, {"8", "672"}, {"7", "673"},
                                     {"8", "673"}, {"7", "674"}, {"8", "674"}};
  const std::vector<int64_t> counts = {1, 2, 1, 1, 2, 1};
  ASSERT_EQ(appended->files.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(appended->files[i].partition_values, tuples[i]) << i;
    EXPECT_EQ(appended->files[i].record_count, counts[i]) << i;
    EXPECT_EQ(appended->files[i].path.rfind(lake.catalog->data_path() + "data/ns/events/", 0), 0u);
  }
  // Each file holds exactly its partition's rows, with the catalog's field ids.
  EXPECT_EQ(
      ReadRows(appended->files[1].path),
      "{\"team\":8,\"ts\":\"2026-01-06T00:00:00.000000Z\",\"name\":\"b\",\"amount\":\"2.00\"}\n"
      "{\"team\":8,\"ts\":\"2026-01-07T00:00:00.000000Z\",\"name\":\"c\",\"amount\":\"3.00\"}\n");
  auto reader = parquet::ParquetReader::OpenFile(LocalPath(appended->files[0].path));
  ASSERT_TRUE(reader.ok());
  for (size_t i = 0; i < table.info().columns.size(); ++i) {
    EXPECT_EQ((*reader)->schema()->fields[i].field_id(), table.info().columns[i].field_id);
  }

  // The server agrees: partition values, provided stats, row ids tiling [0, 8).
  auto files = table.Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 6u);
  int64_t next_row_id = 0;
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ((*files)[i].partition_values, tuples[i]);
    EXPECT_EQ((*files)[i].stats_state, "provided");
    EXPECT_EQ((*files)[i].row_id_start, next_row_id);
    next_row_id += (*files)[i].record_count;
  }
  EXPECT_EQ(next_row_id, 8);
  auto stats = table.GetFileStats((*files)[5].data_file_id);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  bool saw_amount = false;
  for (const auto& column : stats->columns) {
    if (column.name == "amount") {
      saw_amount = true;
      EXPECT_EQ(column.lower_bound_json, "-8.00");
      EXPECT_EQ(column.upper_bound_json, "-8.00");
    }
  }
  EXPECT_TRUE(saw_amount);

  auto changes = table.Changes(head);
  ASSERT_TRUE(changes.ok()) << changes.status().ToString();
  EXPECT_EQ(changes->files.size(), 6u);
  auto snapshots = lake.catalog->Snapshots(head);
  ASSERT_TRUE(snapshots.ok());
  auto snapshot = snapshots->Next();
  ASSERT_TRUE(snapshot.ok() && *snapshot);
  EXPECT_EQ((*snapshot)->author, "sdk-test");
  EXPECT_EQ((*snapshot)->message, "six partitions");
}

TEST(SdkAppendTest, NullSourceValueIsItsOwnGroup) {
  Lake lake;
  OpenLake(lake);
  client::Table table = PartitionedEvents(lake, "events");
  auto appended = table.Append(EventBatch({{7, Micros(2026, 1, 1), "a", 1},
                                           {std::nullopt, Micros(2026, 1, 2), "b", 2},
                                           {7, std::nullopt, "c", 3}}));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  ASSERT_EQ(appended->files.size(), 3u);
  using Tuple = std::vector<std::optional<std::string>>;
  EXPECT_EQ(appended->files[0].partition_values, (Tuple{"7", "672"}));
  EXPECT_EQ(appended->files[1].partition_values, (Tuple{std::nullopt, "672"}));
  EXPECT_EQ(appended->files[2].partition_values, (Tuple{"7", std::nullopt}));
}

TEST(SdkAppendTest, GuardRefusesARecreatedTableAndWritesNothing) {
  Lake lake;
  OpenLake(lake);
  auto created = lake.ns->CreateTable("t", EventColumns());
  ASSERT_TRUE(created.ok());
  client::Table stale = *created;
  // Dropped and recreated behind the handle's back.
  ASSERT_TRUE(lake.ns->GetTable("t")->Drop().ok());
  auto recreated = lake.ns->CreateTable("t", EventColumns());
  ASSERT_TRUE(recreated.ok());
  const std::string original_uuid = stale.table_uuid();

  for (int attempt = 0; attempt < 2; ++attempt) {  // a blind retry trips again
    auto refused = stale.Append(EventBatch(SixPartitionRows()));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::kTableRecreated) << refused.status().ToString();
    EXPECT_EQ(client::ErrorKindOf(refused.error()), client::ErrorKind::kIncarnationChanged);
    EXPECT_TRUE(client::RePrepare(refused.error()));
    EXPECT_FALSE(client::Retryable(refused.error()));
    EXPECT_EQ(client::ErrorTables(refused.error()), std::vector<std::string>{"ns.t"});
    EXPECT_EQ(stale.table_uuid(), original_uuid);  // never re-pinned
  }
  auto files = lake.ns->GetTable("t")->Files();
  ASSERT_TRUE(files.ok());
  EXPECT_TRUE(files->empty());
  // Nothing was uploaded either.
  const std::string dir = LocalPath(lake.catalog->data_path()) + "data/ns/t";
  EXPECT_FALSE(std::filesystem::exists(dir) && !std::filesystem::is_empty(dir));

  // Unguarded writes to whatever table carries the name now.
  client::AppendOptions unguarded;
  unguarded.unguarded = true;
  auto written = stale.Append(EventBatch(SixPartitionRows()), unguarded);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(lake.ns->GetTable("t")->Files()->size(), 1u);  // a fresh handle: no pin
}

TEST(SdkAppendTest, DeferredStatsRegistersPendingFilesWithTheirFooterSize) {
  Lake lake;
  OpenLake(lake);
  auto table = lake.ns->CreateTable("t", EventColumns());
  ASSERT_TRUE(table.ok());
  client::AppendOptions options;
  options.deferred_stats = true;
  auto appended = table->Append(EventBatch(SixPartitionRows()), options);
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  auto files = table->Files();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].stats_state, "pending");
  EXPECT_FALSE((*files)[0].partition_values.has_value());
  auto reader = parquet::ParquetReader::OpenFile(LocalPath((*files)[0].path));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*files)[0].footer_size, (*reader)->footer_size());
  EXPECT_EQ((*files)[0].file_size_bytes, (*reader)->file_size());
}

TEST(SdkAppendTest, RefusedBatchesRegisterNothing) {
  Lake lake;
  OpenLake(lake);
  client::Table table = PartitionedEvents(lake, "events");
  const int64_t head = lake.catalog->Refresh()->head_snapshot_id;

  // A column the table lacks.
  columnar::Int64Builder extra;
  extra.Append(1);
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"nope", columnar::Int64(), true, {}}};
  auto batch = columnar::MakeRecordBatch(schema, {*extra.Finish()});
  auto refused = table.Append(*batch);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kValidation);
  EXPECT_NE(refused.error().message.find("data is missing table columns"), std::string::npos);

  // A reserved name.
  schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"_hog_row_id", columnar::Int64(), true, {}}};
  columnar::Int64Builder ids;
  ids.Append(1);
  refused = table.Append(*columnar::MakeRecordBatch(schema, {*ids.Finish()}));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("reserved prefix '_hog'"), std::string::npos);

  // Zero rows on a partitioned table.
  refused = table.Append(EventBatch({}));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cannot append 0 rows to partitioned table ns.events"),
            std::string::npos);

  EXPECT_EQ(lake.catalog->Refresh()->head_snapshot_id, head);
  EXPECT_TRUE(table.Files()->empty());
}

TEST(SdkAppendTest, NestedColumnsRoundTripWithFieldIds) {
  Lake lake;
  OpenLake(lake);
  ColumnDef tags = Col("tags", ColumnType::kList);
  tags.children = {Col("element", ColumnType::kString)};
  ColumnDef addr = Col("addr", ColumnType::kStruct);
  addr.children = {Col("city", ColumnType::kString), Col("zip", ColumnType::kInt)};
  ColumnDef props = Col("props", ColumnType::kMap);
  props.children = {Col("key", ColumnType::kString, false), Col("value", ColumnType::kLong)};
  auto table =
      lake.ns->CreateTable("nested", {Col("id", ColumnType::kLong, false), tags, addr, props});
  ASSERT_TRUE(table.ok()) << table.status().ToString();

  auto writer_schema = std::make_shared<columnar::Schema>();
  writer_schema->fields = {{"id", columnar::Int64(), false, {}},
                           {"tags", columnar::List(columnar::Utf8()), true, {}},
                           {"addr",
                            columnar::Struct({{"city", columnar::Utf8(), true, {}},
                                              {"zip", columnar::Int32(), true, {}}}),
                            true,
                            {}},
                           {"props", columnar::Map(columnar::Utf8(), columnar::Int64()), true, {}}};
  columnar::Int64Builder id;
  columnar::ListBuilder tag_list(writer_schema->fields[1].type);
  columnar::StructBuilder address(writer_schema->fields[2].type);
  columnar::MapBuilder prop_map(writer_schema->fields[3].type);
  for (int i = 0; i < 3; ++i) {
    id.Append(i);
    tag_list.Append();
    for (int j = 0; j < i; ++j)
      tag_list.value_builder<columnar::StringBuilder>().Append("t" + std::to_string(j));
    address.Append();
    address.child<columnar::StringBuilder>(0).Append(i == 1 ? "Oslo" : "Rome");
    address.child<columnar::Int32Builder>(1).Append(1000 + i);
    prop_map.Append();
    prop_map.key_builder<columnar::StringBuilder>().Append("k");
    prop_map.item_builder<columnar::Int64Builder>().Append(i * 7);
  }
  auto batch = columnar::MakeRecordBatch(
      writer_schema, {*id.Finish(), *tag_list.Finish(), *address.Finish(), *prop_map.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto appended = table->Append(*batch);
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  EXPECT_EQ(ReadRows(appended->files[0].path),
            "{\"id\":0,\"tags\":[],\"addr\":{\"city\":\"Rome\",\"zip\":1000},\"props\":[{\"key\":"
            "\"k\",\"value\":0}]}\n"
            "{\"id\":1,\"tags\":[\"t0\"],\"addr\":{\"city\":\"Oslo\",\"zip\":1001},\"props\":[{"
            "\"key\":\"k\",\"value\":7}]}\n"
            "{\"id\":2,\"tags\":[\"t0\",\"t1\"],\"addr\":{\"city\":\"Rome\",\"zip\":1002},"
            "\"props\":[{\"key\":\"k\",\"value\":14}]}\n");
  // Stats rows for every leaf, bounds for the struct member.
  auto files = table->Files();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  auto stats = table->GetFileStats((*files)[0].data_file_id);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  std::vector<std::string> paths;
  for (const auto& c : stats->columns) {
    paths.push_back(c.path);
    if (c.path == "addr.city") {
      EXPECT_EQ(c.lower_bound_json, "\"Oslo\"");
      EXPECT_EQ(c.upper_bound_json, "\"Rome\"");
    }
  }
  EXPECT_EQ(paths.size(), 6u);
}

}  // namespace
}  // namespace hoglake::testing
