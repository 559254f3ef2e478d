// Response parsing (models.h): strict about what the SDK needs, lenient about
// the rest, optional members left unset, children ordered by ordinal, and
// `json` kept with the server's exact spelling.
#include "client/models.h"

#include <gtest/gtest.h>

#include "client/errors.h"
#include "client/json_raw.h"

namespace hoglake::client {
namespace {

using iceberg::ColumnType;

constexpr const char* kTable = R"({
  "name": "events", "namespace": "ns1",
  "table_uuid": "0b8e5a3c-1111-4222-8333-944455556666",
  "columns": [
    {"name": "props", "type": "map", "nullable": true, "field_id": 3, "ordinal": 2,
     "children": [
       {"name": "value", "type": "long", "nullable": true, "field_id": 5, "ordinal": 1},
       {"name": "key", "type": "string", "nullable": false, "field_id": 4, "ordinal": 0}]},
    {"name": "id", "type": "long", "nullable": false, "field_id": 1, "ordinal": 0},
    {"name": "price", "type": "decimal", "type_params": {"precision": 10, "scale": 2},
     "field_id": 2, "ordinal": 1, "comment": "in EUR"}
  ],
  "read_snapshot_id": 12,
  "partition_spec": {"spec_id": 1, "fields": [{"source_field_id": 1, "transform": "bucket", "transform_param": 16}]},
  "sort_spec": {"sort_id": 2, "fields": [{"source_field_id": 1, "direction": "desc", "null_order": "nulls_first"}]},
  "properties": {"owner": "team-a"},
  "some_future_member": {"ignored": true}
})";

TEST(ParseTableInfoTest, ParsesEveryMemberAndOrdersByOrdinal) {
  Result<TableInfo> t = ParseTableInfo(kTable);
  ASSERT_TRUE(t.ok()) << t.error().ToString();
  EXPECT_EQ(t->name, "events");
  EXPECT_EQ(t->namespace_name, "ns1");
  ASSERT_EQ(t->columns.size(), 3u);
  EXPECT_EQ(t->columns[0].name, "id");
  EXPECT_FALSE(t->columns[0].nullable);
  EXPECT_EQ(t->columns[1].name, "price");
  EXPECT_EQ(t->columns[1].type, iceberg::TypeSpec::Decimal(10, 2));
  EXPECT_EQ(t->columns[1].comment, "in EUR");
  EXPECT_TRUE(t->columns[1].nullable);  // default
  EXPECT_EQ(t->columns[2].type.type, ColumnType::kMap);
  ASSERT_EQ(t->columns[2].children.size(), 2u);
  EXPECT_EQ(t->columns[2].children[0].name, "key");
  EXPECT_EQ(t->columns[2].children[1].name, "value");
  EXPECT_EQ(t->read_snapshot_id, 12);
  EXPECT_EQ(t->snapshot_id, std::nullopt);   // only on receipts
  EXPECT_EQ(t->record_count, std::nullopt);  // absent totals are not 0
  EXPECT_EQ(t->file_count, std::nullopt);
  ASSERT_TRUE(t->partitioned());
  EXPECT_EQ(t->partition_spec->fields[0].transform, "bucket");
  EXPECT_EQ(t->partition_spec->fields[0].transform_param, 16);
  ASSERT_TRUE(t->sort_spec);
  EXPECT_EQ(t->sort_spec->fields[0].null_order, "nulls_first");
  EXPECT_EQ(t->properties.at("owner"), "team-a");
  EXPECT_EQ(t->json.find('\n'), std::string::npos);
  EXPECT_EQ(t->json.substr(0, 34), R"({"name":"events","namespace":"ns1")");
  EXPECT_NE(t->json.find(R"("ordinal":1,"comment":"in EUR"})"), std::string::npos);
  EXPECT_NE(t->json.find(R"("some_future_member":{"ignored":true})"), std::string::npos);
}

TEST(ParseTableInfoTest, MalformedMembersNameModelAndMember) {
  Result<TableInfo> missing = ParseTableInfo(R"({"name":"t","namespace":"n","columns":[]})");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidData);
  EXPECT_EQ(ErrorKindOf(missing.error()), ErrorKind::kMalformedResponse);
  EXPECT_EQ(missing.error().message, "malformed response: Table.table_uuid is missing");
  Result<TableInfo> wrong =
      ParseTableInfo(R"({"name":"t","namespace":"n","table_uuid":"u","columns":{}})");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().message, "malformed response: Table.columns is not an array");
  Result<TableInfo> bad_type = ParseTableInfo(
      R"({"name":"t","namespace":"n","table_uuid":"u","columns":[{"name":"a","type":"int128","field_id":1,"ordinal":0}]})");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_NE(bad_type.error().message.find("Column.type"), std::string::npos);
  EXPECT_FALSE(ParseTableInfo("not json").ok());
  EXPECT_FALSE(ParseTableInfo("[]").ok());
}

TEST(ParseDataFilesTest, PartitionValuesAndOptionalMembers) {
  Result<std::vector<DataFile>> files = ParseDataFiles(R"([
    {"data_file_id": 7, "path": "s3://b/lake/data/ns/t/a.parquet", "file_format": "parquet",
     "record_count": 10, "file_size_bytes": 1234, "footer_size": 456, "row_id_start": 0,
     "stats_state": "provided", "begin_snapshot": 3, "spec_id": 1,
     "partition_values": ["2026-09-04", null], "explicit_row_ids": false,
     "ordering_bounds": {"lower_bound": 0, "upper_bound": 9}},
    {"data_file_id": 8, "path": "s3://b/x.parquet", "record_count": 1, "file_size_bytes": 1,
     "row_id_start": 10, "stats_state": "pending", "begin_snapshot": 4, "explicit_row_ids": true}
  ])");
  ASSERT_TRUE(files.ok()) << files.error().ToString();
  ASSERT_EQ(files->size(), 2u);
  const DataFile& a = (*files)[0];
  EXPECT_EQ(a.footer_size, 456);
  ASSERT_TRUE(a.partition_values);
  EXPECT_EQ(*a.partition_values,
            (std::vector<std::optional<std::string>>{"2026-09-04", std::nullopt}));
  EXPECT_EQ(a.json.substr(0, 16), R"({"data_file_id":)");
  EXPECT_NE(a.json.find(R"("ordering_bounds":{"lower_bound":0,"upper_bound":9})"),
            std::string::npos);
  const DataFile& b = (*files)[1];
  EXPECT_EQ(b.footer_size, std::nullopt);
  EXPECT_EQ(b.spec_id, std::nullopt);
  EXPECT_FALSE(b.partition_values);
  EXPECT_TRUE(b.explicit_row_ids);
  EXPECT_EQ(b.file_format, "parquet");             // default when absent
  EXPECT_EQ(b.json.find("7"), std::string::npos);  // each element keeps its own text

  Result<std::vector<DataFile>> string_values = ParseDataFiles(
      R"([{"data_file_id":1,"path":"p","record_count":1,"file_size_bytes":1,"row_id_start":0,"stats_state":"provided","begin_snapshot":1,"partition_values":"2026"}])");
  ASSERT_FALSE(string_values.ok());
  EXPECT_EQ(string_values.error().message,
            "malformed response: DataFile.partition_values is not an array");
}

TEST(ParseScanFilesTest, DataFileAndDeleteFile) {
  Result<std::vector<ScanFile>> scan = ParseScanFiles(R"([{"data_file":
    {"data_file_id":1,"path":"p","record_count":5,"file_size_bytes":9,"row_id_start":0,
     "stats_state":"provided","begin_snapshot":2,"explicit_row_ids":false},
    "delete_file":{"delete_file_id":2,"data_file_id":1,"path":"d.puffin","file_format":"puffin-dv",
     "delete_count":1,"file_size_bytes":40,"begin_snapshot":3}}])");
  ASSERT_TRUE(scan.ok()) << scan.error().ToString();
  ASSERT_EQ(scan->size(), 1u);
  EXPECT_EQ((*scan)[0].data_file.record_count, 5);
  ASSERT_TRUE((*scan)[0].delete_file);
  EXPECT_EQ((*scan)[0].delete_file->delete_count, 1);
  EXPECT_EQ((*scan)[0].data_file.json.substr(0, 17), R"({"data_file_id":1)");
  EXPECT_EQ((*scan)[0].delete_file->json.substr(0, 19), R"({"delete_file_id":2)");
}

TEST(ParseFileStatsTest, BoundsKeepTheServersExactSpelling) {
  Result<FileStats> stats = ParseFileStats(R"({"data_file_id": 4, "stats_state": "provided",
    "columns": [
      {"field_id": 1, "name": "price", "path": "price", "type": "decimal",
       "type_params": {"precision": 38, "scale": 2}, "value_count": 3, "null_count": 0,
       "lower_bound": 1.50, "upper_bound": 123456789012345678901234567890123456.00},
      {"field_id": 2, "name": "s", "path": "s", "type": "string", "value_count": 3,
       "null_count": 3, "nan_count": 0, "lower_bound": null, "upper_bound": "z z"}]})");
  ASSERT_TRUE(stats.ok()) << stats.error().ToString();
  ASSERT_EQ(stats->columns.size(), 2u);
  EXPECT_EQ(stats->columns[0].lower_bound_json, "1.50");
  EXPECT_EQ(stats->columns[0].upper_bound_json, "123456789012345678901234567890123456.00");
  EXPECT_EQ(stats->columns[0].nan_count, std::nullopt);
  EXPECT_EQ(stats->columns[1].lower_bound_json, "null");
  EXPECT_EQ(stats->columns[1].upper_bound_json, R"("z z")");
  EXPECT_EQ(stats->columns[1].nan_count, 0);
  EXPECT_EQ(stats->no_stats_reason, std::nullopt);
  EXPECT_NE(stats->json.find("123456789012345678901234567890123456.00"), std::string::npos);
}

TEST(ParseOtherModelsTest, SnapshotsOffsetsOptionsMaintenance) {
  Result<SnapshotPage> page = ParseSnapshotPage(
      R"({"snapshots":[{"snapshot_id":1,"snapshot_time":"2026-09-05T12:00:00.123456Z","schema_version":1,"author":"me","changes":[{"kind":"table_created","object_id":3}]}],"has_more":true})");
  ASSERT_TRUE(page.ok()) << page.error().ToString();
  EXPECT_TRUE(page->has_more);
  ASSERT_EQ(page->snapshots.size(), 1u);
  EXPECT_EQ(page->snapshots[0].author, "me");
  EXPECT_EQ(page->snapshots[0].message, std::nullopt);
  EXPECT_EQ(page->snapshots[0].changes[0].kind, "table_created");
  EXPECT_EQ(page->snapshots[0].changes[0].object_id, 3);

  Result<CatalogOptions> options =
      ParseCatalogOptions(R"({"consumer_floor":false,"earliest_snapshot_id":0})");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->snapshot_retention_seconds, std::nullopt);  // infinite

  Result<ExpiryResult> expiry = ParseExpiryResult(
      R"({"snapshots_expired":2,"data_files_queued":1,"delete_files_queued":0,"new_earliest_snapshot_id":3})");
  ASSERT_TRUE(expiry.ok());
  EXPECT_EQ(expiry->offsets_released, 0);
  EXPECT_EQ(expiry->floored_by_consumer, std::nullopt);

  Result<CommitResult> commit = ParseCommitResult(R"({"snapshot_id":5})");
  ASSERT_TRUE(commit.ok());
  EXPECT_EQ(commit->schema_version, std::nullopt);
  EXPECT_FALSE(ParseCommitResult(R"({"snapshot_id":"5"})").ok());

  Result<std::vector<std::string>> names =
      ParseNamespaceNames(R"([{"name":"a","namespace_id":1},{"name":"b"}])");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b"}));

  Result<CatalogInfo> catalog = ParseCatalogInfo(
      R"({"name":"c","data_path":"file:///x","head_snapshot_id":4,"schema_version":2,"capabilities":["idempotent-append-v1"]})");
  ASSERT_TRUE(catalog.ok());
  EXPECT_EQ(catalog->capabilities, std::vector<std::string>{"idempotent-append-v1"});
}

TEST(JsonRawTest, SlicesWithoutReencoding) {
  EXPECT_EQ(json_raw::Compact(" { \"a b\" : [ 1 , 2.50 ] , \"c\":\"x\\\" y\" } "),
            R"({"a b":[1,2.50],"c":"x\" y"})");
  std::vector<std::string_view> elements = json_raw::ArrayElements(R"([ {"a":[1,"]"]}, 2 ,"x"])");
  ASSERT_EQ(elements.size(), 3u);
  EXPECT_EQ(elements[0], R"({"a":[1,"]"]})");
  EXPECT_EQ(elements[1], "2");
  EXPECT_EQ(elements[2], R"("x")");
  EXPECT_TRUE(json_raw::ArrayElements("[]").empty());
  EXPECT_EQ(json_raw::ObjectMember(R"({"a":{"b":1},"b": 2.0 })", "b"), "2.0");
  EXPECT_EQ(json_raw::ObjectMember(R"({"a":1})", "z"), "");
}

}  // namespace
}  // namespace hoglake::client
