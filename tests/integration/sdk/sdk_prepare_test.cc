// Table::PrepareAppendFiles / Table::CommitPrepared against the real server
// on a file:// catalog (pyhoglake-writer §10, §11.1): the payload's exact
// shape, byte-identical uploads, commit and replay, and refusals that upload
// nothing.
#include <rapidjson/document.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/prepare_schema_check.h"
#include "client/writer_schema.h"
#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "columnar/take.h"
#include "common/uuid.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "sdk_lake.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using client::ColumnDef;
using iceberg::ColumnType;
using S = ServerEnvironment;
using Tuple = std::vector<std::optional<std::string>>;

using PrepLake = SdkLake;
inline void OpenPrepLake(PrepLake& lake) { OpenSdkLake(lake, "sdkprepare"); }
inline ColumnDef PrepCol(std::string name, iceberg::TypeSpec type, bool nullable = true) {
  return SdkColumn(std::move(name), type, nullable);
}

constexpr int64_t kJan2026Micros = 1767225600LL * 1000000LL;  // 2026-01-01T00:00:00Z

// team int, ts timestamptz, name string; partitioned by (identity(team), month(ts)).
client::Table PartitionedTable(PrepLake& lake, const std::string& name) {
  auto table = lake.ns->CreateTable(
      name, {PrepCol("team", ColumnType::kInt), PrepCol("ts", ColumnType::kTimestamptz),
             PrepCol("name", ColumnType::kString)});
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  const int32_t team_id = table->info().columns[0].field_id;
  const int32_t ts_id = table->info().columns[1].field_id;
  auto altered = table->Alter({client::SetPartitionSpec(
      {{team_id, "identity", std::nullopt}, {ts_id, "month", std::nullopt}})});
  EXPECT_TRUE(altered.ok()) << altered.status().ToString();
  return *table;
}

std::string PrepTempDir() {
  const std::string dir = S::data_dir() + "/sdk-prepare-inputs";
  std::filesystem::create_directories(dir);
  return dir;
}

// `rows` rows of team `team` in January 2026 with the table's writer schema
// (field ids from the catalog), as a caller would build them.
columnar::RecordBatch TeamBatch(const client::Table& table, int32_t team, int rows) {
  auto schema = client::WriterSchema(table.info().columns);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  columnar::Int32Builder teams;
  columnar::NumericBuilder<int64_t> ts(columnar::Timestamp(columnar::TimeUnit::kMicro, "UTC"));
  columnar::StringBuilder names;
  for (int i = 0; i < rows; ++i) {
    teams.Append(team);
    ts.Append(kJan2026Micros + i * 3600LL * 1000000LL);
    names.Append("row" + std::to_string(i));
  }
  auto batch = columnar::MakeRecordBatch(*schema, {*teams.Finish(), *ts.Finish(), *names.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// TeamBatch written to a local Parquet file.
std::string WriteTeamFile(const client::Table& table, const std::string& name, int32_t team,
                          int rows) {
  const columnar::RecordBatch batch = TeamBatch(table, team, rows);
  const std::string path = PrepTempDir() + "/" + name;
  auto writer = parquet::ParquetWriter::OpenFile(path, batch.schema);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (rows > 0) {
    EXPECT_TRUE((*writer)->WriteBatch(batch).ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  return path;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string LocalOf(const std::string& uri) { return uri.substr(std::string("file://").size()); }

std::set<std::string> Keys(const rapidjson::Value& object) {
  std::set<std::string> keys;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    keys.insert(it->name.GetString());
  }
  return keys;
}

// Whether anything exists under the key's upload prefix.
bool AnythingUploaded(const PrepLake& lake, const std::string& table, const std::string& key) {
  return std::filesystem::exists(LocalOf(lake.catalog->data_path()) + "data/ns/" + table + "/" +
                                 key);
}

client::PrepareOptions KeyOptions(const std::string& key) {
  client::PrepareOptions options;
  options.idempotency_key = key;
  return options;
}

TEST(SdkPrepareTest, PreparesUploadsAndCommitsTwoPartitionedFiles) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const std::vector<std::string> sources = {WriteTeamFile(table, "a.parquet", 7, 2),
                                            WriteTeamFile(table, "b.parquet", 8, 3)};
  const int64_t head = lake.catalog->Refresh()->head_snapshot_id;

  const std::string key = NewUuid();
  client::PrepareOptions options = KeyOptions(key);
  options.concurrency = 2;
  std::vector<std::string> uploaded;
  auto prepared = table.PrepareAppendFiles(
      {{sources[0], Tuple{"7", "672"}}, {sources[1], Tuple{"8", "672"}}}, options, &uploaded);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_EQ(prepared->read_snapshot, head);
  ASSERT_EQ(prepared->uploaded_uris.size(), 2u);
  EXPECT_EQ(uploaded, prepared->uploaded_uris);

  // The payload, key by key.
  rapidjson::Document doc;
  doc.Parse(prepared->payload_json.c_str());
  ASSERT_FALSE(doc.HasParseError()) << prepared->payload_json;
  EXPECT_EQ(Keys(doc), (std::set<std::string>{"idempotency_key", "read_snapshot", "appends"}));
  EXPECT_EQ(std::string(doc["idempotency_key"].GetString()), key);
  EXPECT_EQ(doc["read_snapshot"].GetInt64(), head);
  ASSERT_EQ(doc["appends"].Size(), 1u);
  const rapidjson::Value& append = doc["appends"][0];
  EXPECT_EQ(Keys(append),
            (std::set<std::string>{"namespace", "table", "expected_table_uuid", "files"}));
  EXPECT_EQ(std::string(append["namespace"].GetString()), "ns");
  EXPECT_EQ(std::string(append["table"].GetString()), "events");
  EXPECT_EQ(std::string(append["expected_table_uuid"].GetString()), table.table_uuid());
  ASSERT_EQ(append["files"].Size(), 2u);
  const std::string prefix = lake.catalog->data_path() + "data/ns/events/" + key + "/";
  for (rapidjson::SizeType i = 0; i < 2; ++i) {
    const rapidjson::Value& file = append["files"][i];
    EXPECT_EQ(Keys(file),
              (std::set<std::string>{"path", "record_count", "file_size_bytes", "footer_size",
                                     "column_stats", "partition_values"}));
    const std::string path = file["path"].GetString();
    EXPECT_EQ(path, prepared->uploaded_uris[i]);
    EXPECT_EQ(path.rfind(prefix, 0), 0u) << path;
    const std::string suffix = "-" + std::to_string(i) + ".parquet";
    EXPECT_EQ(path.substr(path.size() - suffix.size()), suffix);
    EXPECT_EQ(file["record_count"].GetInt64(), i == 0 ? 2 : 3);
    const std::string source = Slurp(sources[i]);
    EXPECT_EQ(file["file_size_bytes"].GetInt64(), static_cast<int64_t>(source.size()));
    uint32_t footer = 0;
    for (int b = 3; b >= 0; --b) {
      footer = (footer << 8) | static_cast<uint8_t>(source[source.size() - 8 + b]);
    }
    EXPECT_EQ(file["footer_size"].GetInt64(), footer);
    EXPECT_EQ(file["column_stats"].Size(), 3u);
    EXPECT_EQ(file["partition_values"].Size(), 2u);
    // Uploaded byte for byte.
    EXPECT_TRUE(Slurp(LocalOf(path)) == source) << path;
  }

  auto committed = table.CommitPrepared(prepared->payload_json);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->snapshot_id, head + 1);
  auto replayed = table.CommitPrepared(prepared->payload_json);
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_EQ(replayed->snapshot_id, committed->snapshot_id);
  EXPECT_EQ(lake.catalog->Refresh()->head_snapshot_id, head + 1);

  auto files = table.Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].partition_values, (Tuple{"7", "672"}));
  EXPECT_EQ((*files)[1].partition_values, (Tuple{"8", "672"}));
  EXPECT_EQ((*files)[0].stats_state, "provided");
  EXPECT_EQ((*files)[1].row_id_start, 2);
}

void ExpectValidation(const Result<client::PreparedAppend>& result, const std::string& message) {
  ASSERT_FALSE(result.ok()) << "expected: " << message;
  EXPECT_EQ(result.error().code, ErrorCode::kValidation) << result.status().ToString();
  EXPECT_NE(result.error().message.find(message), std::string::npos) << result.status().ToString();
}

TEST(SdkPrepareTest, RefusalsHappenBeforeAnyUpload) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const std::string good = WriteTeamFile(table, "good.parquet", 7, 2);
  const std::string empty = WriteTeamFile(table, "empty.parquet", 7, 0);
  std::vector<std::string> uploaded = {"stale"};

  // A good file first, then one of the wrong arity: nothing is uploaded.
  std::string key = NewUuid();
  ExpectValidation(table.PrepareAppendFiles({{good, Tuple{"7", "672"}}, {good, std::nullopt}},
                                            KeyOptions(key), &uploaded),
                   "prepared file partition arity differs from destination");
  EXPECT_TRUE(uploaded.empty());
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));
  ExpectValidation(table.PrepareAppendFiles({{good, Tuple{"7"}}}, KeyOptions(key), &uploaded),
                   "prepared file partition arity differs from destination");

  key = NewUuid();
  ExpectValidation(table.PrepareAppendFiles({{good, Tuple{"7", "672"}}, {empty, Tuple{"7", "672"}}},
                                            KeyOptions(key), &uploaded),
                   "prepared file must contain rows");
  EXPECT_TRUE(uploaded.empty());
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));

  ExpectValidation(table.PrepareAppendFiles({}, KeyOptions(NewUuid()), &uploaded),
                   "prepared append must contain files");
  ExpectValidation(table.PrepareAppendFiles({{good, Tuple{"7", "672"}}}, KeyOptions("not-a-uuid")),
                   "idempotency_key");

  // A file whose field ids are not the table's.
  auto other = lake.ns->CreateTable("other", {PrepCol("x", ColumnType::kLong)});
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  key = NewUuid();
  ExpectValidation(other->PrepareAppendFiles({{good, std::nullopt}}, KeyOptions(key), &uploaded),
                   "prepared Parquet schema/field IDs differ from destination");
  EXPECT_FALSE(AnythingUploaded(lake, "other", key));
}

TEST(SdkPrepareTest, StaleTableUuidRefusesBeforeUpload) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const std::string good = WriteTeamFile(table, "stale.parquet", 7, 2);

  std::string key = NewUuid();
  client::PrepareOptions options = KeyOptions(key);
  options.expected_table_uuid = NewUuid();
  std::vector<std::string> uploaded;
  auto refused = table.PrepareAppendFiles({{good, Tuple{"7", "672"}}}, options, &uploaded);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kTableRecreated) << refused.status().ToString();
  EXPECT_EQ(client::ErrorKindOf(refused.error()), client::ErrorKind::kIncarnationChanged);
  EXPECT_TRUE(uploaded.empty());
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));

  // Dropped and recreated under the same name: the old handle refuses.
  ASSERT_TRUE(table.Drop().ok());
  PartitionedTable(lake, "events");
  key = NewUuid();
  refused = table.PrepareAppendFiles({{good, Tuple{"7", "672"}}}, KeyOptions(key), &uploaded);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kTableRecreated) << refused.status().ToString();
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));
}

TEST(SdkPrepareTest, ExpectedTableInfoMustStillMatch) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const client::TableInfo before = table.info();
  const std::string good = WriteTeamFile(table, "layout.parquet", 7, 2);

  client::PrepareOptions options = KeyOptions(NewUuid());
  options.expected_table_info = before;
  auto same = table.PrepareAppendFiles({{good, Tuple{"7", "672"}}}, options);
  ASSERT_TRUE(same.ok()) << same.status().ToString();

  ASSERT_TRUE(table.Alter({client::AddColumn(PrepCol("extra", ColumnType::kLong))}).ok());
  const std::string key = NewUuid();
  options = KeyOptions(key);
  options.expected_table_info = before;
  ExpectValidation(table.PrepareAppendFiles({{good, Tuple{"7", "672"}}}, options),
                   "prepared append destination layout changed");
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));
}

TEST(SdkPrepareTest, FailedUploadReportsTheError) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const std::string good = WriteTeamFile(table, "blocked.parquet", 7, 2);
  // A plain file where the key's directory would go: every upload fails.
  const std::string key = NewUuid();
  const std::string table_dir = LocalOf(lake.catalog->data_path()) + "data/ns/events";
  std::filesystem::create_directories(table_dir);
  std::ofstream(table_dir + "/" + key) << "blocker";
  std::vector<std::string> uploaded = {"stale"};
  client::PrepareOptions options = KeyOptions(key);
  options.concurrency = 2;
  auto failed = table.PrepareAppendFiles({{good, Tuple{"7", "672"}}, {good, Tuple{"7", "672"}}},
                                         options, &uploaded);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().code, ErrorCode::kValidation) << failed.status().ToString();
  EXPECT_TRUE(uploaded.empty());
}

// Adds logicalType VARIANT(1) to schema element `element` of a Parquet
// file's footer (what pyhoglake's footer stamping does, §10.6).
void StampVariant(const std::string& path, size_t element) {
  std::string bytes = Slurp(path);
  const size_t size = bytes.size();
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(bytes[size - 8 + i]);
  std::string footer = bytes.substr(size - 8 - length, length);
  auto raw = client::ScanRawSchema(footer);
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  footer.insert((*raw)[element].end_offset,
                std::string{'\x0C', '\x14', '\x0C', '\x20', '\x13', '\x01', '\x00', '\x00'});
  std::string out = bytes.substr(0, size - 8 - length) + footer;
  const uint32_t new_length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((new_length >> (8 * i)) & 0xFF));
  out += "PAR1";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
}

TEST(SdkPrepareTest, NativeVariantFileCommits) {
  PrepLake lake;
  OpenPrepLake(lake);
  auto table = lake.ns->CreateTable(
      "docs", {PrepCol("id", ColumnType::kLong, false), PrepCol("v", ColumnType::kVariant)});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const int32_t id_field = table->info().columns[0].field_id;
  const int32_t v_field = table->info().columns[1].field_id;

  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back(
      columnar::Field{"id", columnar::Int64(), false, {}}.WithFieldId(id_field));
  schema->fields.push_back(columnar::Field{
      "v",
      columnar::Struct(
          {{"metadata", columnar::Binary(), false, {}}, {"value", columnar::Binary(), true, {}}}),
      true,
      {}}.WithFieldId(v_field));
  columnar::Int64Builder ids;
  columnar::StructBuilder v(schema->fields[1].type);
  for (int i = 0; i < 2; ++i) {
    ids.Append(i);
    v.Append();
    v.child<columnar::BinaryBuilder>(0).Append(std::string("\x01\x00\x00", 3));  // empty dictionary
    v.child<columnar::BinaryBuilder>(1).Append(std::string("\x0c\x05", 2));      // int8 5
  }
  auto batch = columnar::MakeRecordBatch(schema, {*ids.Finish(), *v.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const std::string path = PrepTempDir() + "/variant.parquet";
  {
    auto writer = parquet::ParquetWriter::OpenFile(path, schema);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->WriteBatch(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }

  // Without the annotation the struct is refused; stamped, it commits.
  ExpectValidation(table->PrepareAppendFiles({{path, std::nullopt}}, KeyOptions(NewUuid())),
                   "v must be native Parquet VARIANT version 1");
  StampVariant(path, 2);
  auto prepared = table->PrepareAppendFiles({{path, std::nullopt}}, KeyOptions(NewUuid()));
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  auto committed = table->CommitPrepared(prepared->payload_json);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  auto files = table->Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 2);
}

std::string ReadRows(const std::string& uri) {
  auto reader = parquet::ParquetReader::OpenFile(LocalOf(uri));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return "";
  std::string text;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    columnar::AppendJsonLines(**batch, &text);
  }
  return text;
}

TEST(SdkPrepareTest, PrepareAppendTablesMatchesTheFilePathAndCommits) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  const int64_t head = lake.catalog->Refresh()->head_snapshot_id;

  // The same rows through both paths.
  const std::vector<std::string> sources = {WriteTeamFile(table, "tables-a.parquet", 7, 2),
                                            WriteTeamFile(table, "tables-b.parquet", 8, 3)};
  auto by_files = table.PrepareAppendFiles(
      {{sources[0], Tuple{"7", "672"}}, {sources[1], Tuple{"8", "672"}}}, KeyOptions(NewUuid()));
  ASSERT_TRUE(by_files.ok()) << by_files.status().ToString();

  const std::string key = NewUuid();
  std::vector<std::string> uploaded;
  // Group 8 arrives as two batches (1 + 2 rows): one file all the same.
  const columnar::RecordBatch eights = TeamBatch(table, 8, 3);
  const std::vector<int64_t> first_row = {0}, other_rows = {1, 2};
  auto first_eight = columnar::TakeRows(eights, first_row);
  auto other_eights = columnar::TakeRows(eights, other_rows);
  ASSERT_TRUE(first_eight.ok() && other_eights.ok());
  auto by_tables = table.PrepareAppendTables({{{TeamBatch(table, 7, 2)}, Tuple{"7", "672"}},
                                              {{*first_eight, *other_eights}, Tuple{"8", "672"}}},
                                             KeyOptions(key), &uploaded);
  ASSERT_TRUE(by_tables.ok()) << by_tables.status().ToString();
  EXPECT_EQ(by_tables->read_snapshot, head);
  EXPECT_EQ(uploaded, by_tables->uploaded_uris);

  rapidjson::Document files_doc;
  files_doc.Parse(by_files->payload_json.c_str());
  rapidjson::Document tables_doc;
  tables_doc.Parse(by_tables->payload_json.c_str());
  ASSERT_FALSE(files_doc.HasParseError() || tables_doc.HasParseError());
  EXPECT_EQ(Keys(tables_doc),
            (std::set<std::string>{"idempotency_key", "read_snapshot", "appends"}));
  EXPECT_EQ(std::string(tables_doc["idempotency_key"].GetString()), key);
  EXPECT_EQ(tables_doc["read_snapshot"].GetInt64(), head);
  const rapidjson::Value& append = tables_doc["appends"][0];
  EXPECT_EQ(Keys(append),
            (std::set<std::string>{"namespace", "table", "expected_table_uuid", "files"}));
  EXPECT_EQ(std::string(append["expected_table_uuid"].GetString()), table.table_uuid());
  const rapidjson::Value& file_entries = files_doc["appends"][0]["files"];
  const rapidjson::Value& table_entries = append["files"];
  ASSERT_EQ(table_entries.Size(), 2u);
  ASSERT_EQ(file_entries.Size(), 2u);
  const std::string prefix = lake.catalog->data_path() + "data/ns/events/" + key + "/";
  for (rapidjson::SizeType i = 0; i < 2; ++i) {
    const rapidjson::Value& mine = table_entries[i];
    const rapidjson::Value& theirs = file_entries[i];
    EXPECT_EQ(Keys(mine), Keys(theirs));
    for (const char* member :
         {"record_count", "file_size_bytes", "footer_size", "column_stats", "partition_values"}) {
      EXPECT_TRUE(mine[member] == theirs[member]) << member << " of file " << i;
    }
    const std::string path = mine["path"].GetString();
    EXPECT_NE(path, theirs["path"].GetString());
    EXPECT_EQ(path, by_tables->uploaded_uris[i]);
    EXPECT_EQ(path.rfind(prefix, 0), 0u) << path;
    const std::string suffix = "-" + std::to_string(i) + ".parquet";
    EXPECT_EQ(path.substr(path.size() - suffix.size()), suffix);
    EXPECT_TRUE(Slurp(LocalOf(path)) == Slurp(sources[i])) << path;
  }

  auto committed = table.CommitPrepared(by_tables->payload_json);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->snapshot_id, head + 1);
  EXPECT_EQ(ReadRows(by_tables->uploaded_uris[0]),
            "{\"team\":7,\"ts\":\"2026-01-01T00:00:00.000000Z\",\"name\":\"row0\"}\n"
            "{\"team\":7,\"ts\":\"2026-01-01T01:00:00.000000Z\",\"name\":\"row1\"}\n");
  EXPECT_EQ(ReadRows(by_tables->uploaded_uris[1]),
            "{\"team\":8,\"ts\":\"2026-01-01T00:00:00.000000Z\",\"name\":\"row0\"}\n"
            "{\"team\":8,\"ts\":\"2026-01-01T01:00:00.000000Z\",\"name\":\"row1\"}\n"
            "{\"team\":8,\"ts\":\"2026-01-01T02:00:00.000000Z\",\"name\":\"row2\"}\n");
  auto files = table.Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].partition_values, (Tuple{"7", "672"}));
  EXPECT_EQ((*files)[1].partition_values, (Tuple{"8", "672"}));
  EXPECT_EQ((*files)[1].record_count, 3);
}

TEST(SdkPrepareTest, PrepareAppendTablesRefusesBeforeAnyUpload) {
  PrepLake lake;
  OpenPrepLake(lake);
  client::Table table = PartitionedTable(lake, "events");
  std::vector<std::string> uploaded = {"stale"};
  std::string key = NewUuid();
  ExpectValidation(table.PrepareAppendTables({{{TeamBatch(table, 7, 2)}, Tuple{"7", "672"}},
                                              {{TeamBatch(table, 7, 2)}, std::nullopt}},
                                             KeyOptions(key), &uploaded),
                   "prepared file partition arity differs from destination");
  EXPECT_TRUE(uploaded.empty());
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));
  key = NewUuid();
  ExpectValidation(table.PrepareAppendTables(
                       {{{TeamBatch(table, 7, 2)}, Tuple{"7", "672"}}, {{}, Tuple{"7", "672"}}},
                       KeyOptions(key), &uploaded),
                   "prepared file must contain rows");
  EXPECT_FALSE(AnythingUploaded(lake, "events", key));
  ExpectValidation(table.PrepareAppendTables({}, KeyOptions(NewUuid()), &uploaded),
                   "prepared append must contain files");

  auto docs = lake.ns->CreateTable(
      "docs", {PrepCol("id", ColumnType::kLong, false), PrepCol("v", ColumnType::kVariant)});
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  ExpectValidation(docs->PrepareAppendTables({{{}, std::nullopt}}, KeyOptions(NewUuid())),
                   "cannot prepare Arrow tables for a destination with variant columns: an Arrow "
                   "rewrite loses the native Parquet VARIANT annotation");
}

}  // namespace
}  // namespace hoglake::testing
