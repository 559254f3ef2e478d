// Namespace::CreateTable with options against the real server (contract
// §2.10 through the SDK): a partitioned, sorted create is one snapshot whose
// only change is table_created and whose table carries spec and sort order;
// appends to it fan out by partition; a taken name is AlreadyExists; a spec
// with a comment is the documented two-step; ReplaceTable swaps the
// incarnation in one snapshot; and `hoglake table create --partition-by`
// makes one snapshot.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "client/client.h"
#include "columnar/builder.h"
#include "sdk_lake.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using client::ColumnDef;
using client::CreateTableOptions;
using client::ErrorKind;
using client::ErrorKindOf;
using iceberg::ColumnType;

// id long not null, team int, ts timestamptz
std::vector<ColumnDef> Columns() {
  return {SdkColumn("id", ColumnType::kLong, false), SdkColumn("team", ColumnType::kInt),
          SdkColumn("ts", ColumnType::kTimestamptz)};
}

// month(ts), team; sorted by id desc.
CreateTableOptions SpecOptions(const std::vector<ColumnDef>& columns) {
  CreateTableOptions options;
  options.partition_by = {{*client::PromisedFieldId(columns, "ts"), "month", std::nullopt},
                          {*client::PromisedFieldId(columns, "team"), "identity", std::nullopt}};
  options.sort_by = {{*client::PromisedFieldId(columns, "id"), "desc", "nulls_last"}};
  return options;
}

int64_t Head(SdkLake& lake) {
  auto info = lake.catalog->Refresh();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return info.ok() ? info->head_snapshot_id : -1;
}

// The change kinds of every snapshot after `after`, one set per snapshot.
std::vector<std::set<std::string>> ChangesAfter(SdkLake& lake, int64_t after) {
  std::vector<std::set<std::string>> out;
  auto it = lake.catalog->Snapshots(after);
  EXPECT_TRUE(it.ok());
  while (it.ok()) {
    auto next = it->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !*next) break;
    std::set<std::string> kinds;
    for (const auto& change : (*next)->changes) kinds.insert(change.kind);
    out.push_back(std::move(kinds));
  }
  return out;
}

constexpr int64_t kDayMicros = 86400LL * 1000000LL;
constexpr int64_t kJan2026 = 20454LL * kDayMicros;  // 2026-01-01T00:00:00Z

columnar::RecordBatch Rows(const std::vector<std::tuple<int64_t, int32_t, int64_t>>& rows) {
  columnar::NumericBuilder<int64_t> id(columnar::Int64());
  columnar::Int32Builder team;
  columnar::NumericBuilder<int64_t> ts(columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"));
  for (const auto& [i, t, at] : rows) {
    id.Append(i);
    team.Append(t);
    ts.Append(at);
  }
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), false, {}},
                    {"team", columnar::Int32(), true, {}},
                    {"ts", columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"), true, {}}};
  auto batch = columnar::MakeRecordBatch(schema, {*id.Finish(), *team.Finish(), *ts.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(SdkCreateTest, PartitionedSortedCreateIsOneSnapshot) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  const std::vector<ColumnDef> columns = Columns();
  const int64_t head = Head(lake);
  auto table = lake.ns->CreateTable("events", columns, SpecOptions(columns));
  ASSERT_TRUE(table.ok()) << table.status().ToString();

  EXPECT_EQ(Head(lake), head + 1);
  EXPECT_EQ(table->ddl_snapshot(), head + 1);
  EXPECT_EQ(ChangesAfter(lake, head), (std::vector<std::set<std::string>>{{"table_created"}}));

  for (const client::TableInfo& info : {table->info(), *lake.ns->GetTable("events")->Info()}) {
    ASSERT_TRUE(info.partitioned()) << info.json;
    ASSERT_EQ(info.partition_spec->fields.size(), 2u);
    EXPECT_EQ(info.partition_spec->fields[0].transform, "month");
    EXPECT_EQ(info.partition_spec->fields[0].source_field_id, 3);
    EXPECT_EQ(info.partition_spec->fields[1].transform, "identity");
    EXPECT_EQ(info.partition_spec->fields[1].source_field_id, 2);
    ASSERT_TRUE(info.sort_spec);
    ASSERT_EQ(info.sort_spec->fields.size(), 1u);
    EXPECT_EQ(info.sort_spec->fields[0].source_field_id, 1);
    EXPECT_EQ(info.sort_spec->fields[0].direction, "desc");
  }

  // Appends fan out by partition: 3 tuples → 3 files in one snapshot.
  auto appended = table->Append(Rows({{1, 7, kJan2026},
                                      {2, 7, kJan2026 + kDayMicros},
                                      {3, 8, kJan2026},
                                      {4, 7, kJan2026 + 40 * kDayMicros}}));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  EXPECT_EQ(appended->snapshot_id, head + 2);
  EXPECT_EQ(appended->files.size(), 3u);
  auto files = table->Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(files->size(), 3u);
  for (const auto& f : *files) EXPECT_TRUE(f.partition_values) << f.json;
}

TEST(SdkCreateTest, TakenNameIsAlreadyExistsAndWritesNothing) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  const std::vector<ColumnDef> columns = Columns();
  ASSERT_TRUE(lake.ns->CreateTable("events", columns, SpecOptions(columns)).ok());
  const int64_t head = Head(lake);
  auto again = lake.ns->CreateTable("events", columns, SpecOptions(columns));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(ErrorKindOf(again.error()), ErrorKind::kAlreadyExists) << again.error().ToString();
  EXPECT_EQ(client::ErrorCreationReason(again.error()), "target_exists");
  EXPECT_TRUE(client::ErrorCreationOperation(again.error()));
  EXPECT_EQ(Head(lake), head);
  // A plain table holding the name refuses the atomic create the same way.
  ASSERT_TRUE(lake.ns->CreateTable("plain", columns).ok());
  EXPECT_EQ(ErrorKindOf(lake.ns->CreateTable("plain", columns, SpecOptions(columns)).error()),
            ErrorKind::kAlreadyExists);
}

TEST(SdkCreateTest, ResumingAnOperationReturnsTheSameTable) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  const std::vector<ColumnDef> columns = Columns();
  CreateTableOptions options = SpecOptions(columns);
  options.operation_id = "0c000000-0000-4000-8000-00000000c0de";
  auto first = lake.ns->CreateTable("events", columns, options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const int64_t head = Head(lake);
  auto replay = lake.ns->CreateTable("events", columns, options);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_EQ(replay->table_uuid(), first->table_uuid());
  EXPECT_EQ(replay->ddl_snapshot(), first->ddl_snapshot());
  EXPECT_EQ(Head(lake), head);
}

TEST(SdkCreateTest, MetadataAloneIsOneSnapshotAndWithASpecTwo) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  std::vector<ColumnDef> columns = Columns();
  columns[0].comment = "event key";
  CreateTableOptions metadata;
  metadata.comment = "web events";
  metadata.properties = {{"owner", "web-team"}};
  int64_t head = Head(lake);
  auto plain = lake.ns->CreateTable("meta", columns, metadata);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(Head(lake), head + 1);
  EXPECT_EQ(plain->info().comment, "web events");
  EXPECT_EQ(plain->info().properties.at("owner"), "web-team");
  EXPECT_EQ(plain->info().columns[0].comment, "event key");

  CreateTableOptions both = SpecOptions(columns);
  both.comment = metadata.comment;
  both.properties = metadata.properties;
  head = Head(lake);
  auto split = lake.ns->CreateTable("both", columns, both);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ(Head(lake), head + 2);
  // The first snapshot already holds the spec.
  auto first = lake.ns->GetTable("both")->Info(client::TimeTravel{head + 1, std::nullopt});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->partitioned());
  auto info = lake.ns->GetTable("both")->Info();
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->partitioned());
  EXPECT_EQ(info->comment, "web events");
  EXPECT_EQ(info->properties.at("owner"), "web-team");
  EXPECT_EQ(info->columns[0].comment, "event key");
  EXPECT_EQ(split->ddl_snapshot(), head + 2);
}

TEST(SdkCreateTest, ReplaceTableSwapsTheIncarnationInOneSnapshot) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  const std::vector<ColumnDef> columns = Columns();
  auto old = lake.ns->CreateTable("events", columns);
  ASSERT_TRUE(old.ok());
  const int64_t head = Head(lake);
  auto replaced = lake.ns->ReplaceTable(
      "events", columns, client::TableReplacement{old->table_uuid(), head}, SpecOptions(columns));
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_NE(replaced->table_uuid(), old->table_uuid());
  EXPECT_TRUE(replaced->info().partitioned());
  EXPECT_EQ(Head(lake), head + 1);
  // A stale guard (the uuid is no longer there) is refused.
  auto stale = lake.ns->ReplaceTable("events", columns,
                                     client::TableReplacement{old->table_uuid(), head + 1});
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(Head(lake), head + 1);
}

// Runs the CLI; its stdout, or "" with a test failure when it exits non-zero.
std::string RunCli(const std::string& args) {
  const char* bin = std::getenv("HOGLAKE_BIN");
  EXPECT_NE(bin, nullptr) << "HOGLAKE_BIN must name the hoglake executable";
  if (bin == nullptr) return "";
  const std::string command =
      std::string(bin) + " --url " + ServerEnvironment::base_url() + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command << "\n" << out;
  return out;
}

TEST(SdkCreateTest, CliTableCreateWithPartitionByIsOneSnapshot) {
  SdkLake lake;
  ASSERT_NO_FATAL_FAILURE(OpenSdkLake(lake, "sdkcreate"));
  const std::string table = lake.catalog->name() + ".ns.events";
  const int64_t head = Head(lake);
  const std::string out =
      RunCli("table create " + table +
             " -c id:long:not-null -c team:int -c ts:timestamptz --partition-by 'month(ts)' "
             "--partition-by team --sort-by id:desc --property owner=web --comment 'web events'");
  EXPECT_NE(out.find("created table " + table), std::string::npos) << out;
  // --property/--comment with a spec: the spec atomically, then one alter.
  EXPECT_EQ(Head(lake), head + 2);

  const int64_t before = Head(lake);
  const std::string json = RunCli("table create " + lake.catalog->name() +
                                  ".ns.raw -c id:long -c ts:timestamptz "
                                  "--partition-by 'month(ts)' --json");
  EXPECT_NE(json.find("\"snapshot_id\":" + std::to_string(before + 1)), std::string::npos) << json;
  EXPECT_EQ(Head(lake), before + 1);
  EXPECT_EQ(ChangesAfter(lake, before), (std::vector<std::set<std::string>>{{"table_created"}}));
  auto raw = lake.ns->GetTable("raw");
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw->info().partitioned());
  EXPECT_EQ(raw->info().partition_spec->fields[0].transform, "month");
  auto events = lake.ns->GetTable("events");
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->info().partition_spec->fields.size(), 2u);
  EXPECT_EQ(events->info().comment, "web events");
  EXPECT_EQ(events->info().properties.at("owner"), "web");
}

}  // namespace
}  // namespace hoglake::testing
