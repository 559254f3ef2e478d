// Table::Append to an s3:// catalog: the SDK uploads to a real S3 server on
// loopback (s3rver) and registers the objects; what the catalog records
// matches the objects byte for byte (sizes, footer length, field ids, rows).
#include <memory>
#include <string>

#include "../storage_integration/s3rver_process.h"
#include "client/client.h"
#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "parquet/reader.h"
#include "server_fixture.h"
#include "storage/object_store.h"

namespace hoglake::testing {
namespace {

TEST(SdkS3Test, AppendUploadsToS3AndRegistersWhatItUploaded) {
  ASSERT_EQ(S3rverProcess::Get().startup_error(), "");
  const S3Config s3 = LoopbackConfig(S3rverProcess::Get().port());
  client::HoglakeClient client(ServerEnvironment::base_url(), s3);
  const std::string data_path = std::string("s3://") + kS3rverBucket + "/sdk-s3/lake/";
  auto catalog = client.CreateCatalog("sdks3", data_path);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto ns = catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok());
  client::ColumnDef id{"id", iceberg::ColumnType::kLong, false, {}, {}, {}};
  client::ColumnDef team{"team", iceberg::ColumnType::kString, true, {}, {}, {}};
  auto table = ns->CreateTable("t", {id, team});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_TRUE(table
                  ->Alter({client::SetPartitionSpec(
                      {{table->info().columns[1].field_id, "identity", std::nullopt}})})
                  .ok());

  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), false, {}}, {"team", columnar::Utf8(), true, {}}};
  columnar::Int64Builder ids;
  columnar::StringBuilder teams;
  for (int i = 0; i < 1000; ++i) {
    ids.Append(i);
    teams.Append(i % 3 == 0 ? "red" : "blue");
  }
  auto batch = columnar::MakeRecordBatch(schema, {*ids.Finish(), *teams.Finish()});
  ASSERT_TRUE(batch.ok());
  auto appended = table->Append(*batch);
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  ASSERT_EQ(appended->files.size(), 2u);

  auto store = OpenObjectStore(std::string("s3://") + kS3rverBucket, s3);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto files = table->Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  int64_t rows = 0;
  for (const auto& file : *files) {
    EXPECT_EQ(file.path.rfind(data_path + "data/ns/t/", 0), 0u) << file.path;
    auto bytes = (*store)->Get(file.path);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    EXPECT_EQ(static_cast<int64_t>(bytes->size()), file.file_size_bytes);
    auto reader = parquet::ParquetReader::OpenBuffer(std::make_shared<const std::string>(*bytes));
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->footer_size(), file.footer_size);
    EXPECT_EQ((*reader)->schema()->fields[0].field_id(), table->info().columns[0].field_id);
    EXPECT_EQ((*reader)->num_rows(), file.record_count);
    rows += file.record_count;
    EXPECT_EQ(file.stats_state, "provided");
  }
  EXPECT_EQ(rows, 1000);
  EXPECT_EQ((*files)[0].partition_values, (std::vector<std::optional<std::string>>{"red"}));
  EXPECT_EQ((*files)[0].record_count, 334);
}

TEST(SdkS3Test, AppendWithoutReachableS3FailsAndRegistersNothing) {
  S3Config s3 = LoopbackConfig(1);  // nothing listens on port 1
  s3.max_attempts = 1;
  client::HoglakeClient client(ServerEnvironment::base_url(), s3);
  auto catalog = client.CreateCatalog("sdks3down", "s3://nowhere/lake/");
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto ns = catalog->CreateNamespace("ns");
  ASSERT_TRUE(ns.ok());
  client::ColumnDef id{"id", iceberg::ColumnType::kLong, true, {}, {}, {}};
  auto table = ns->CreateTable("t", {id});
  ASSERT_TRUE(table.ok());
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"id", columnar::Int64(), true, {}}};
  columnar::Int64Builder ids;
  ids.Append(1);
  auto appended = table->Append(*columnar::MakeRecordBatch(schema, {*ids.Finish()}));
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(appended.error().code, ErrorCode::kUnavailable) << appended.status().ToString();
  EXPECT_TRUE(ns->GetTable("t")->Files()->empty());
}

}  // namespace
}  // namespace hoglake::testing
