// Namespace::CreateTable with options (the atomic table-creation path,
// contract §2.10) against a scripted server: which prepare endpoint each
// definition goes to and the exact bodies, the publish and the read of the
// created table, the split create-then-alter when no endpoint takes the
// whole definition, rejections mapped to error kinds, and retries that keep
// the operation id.
#include <gtest/gtest.h>

#include "client/client.h"
#include "fake_server.h"

namespace hoglake::client {
namespace {

using iceberg::ColumnType;
using testing::FakeServer;
using testing::RecordedRequest;

constexpr const char* kCatalogJson =
    R"({"name":"c1","data_path":"file:///tmp/lake-c1","head_snapshot_id":3,"schema_version":1})";
constexpr const char* kTableUuid = "0b8e5a3c-1111-4222-8333-944455556666";
constexpr const char* kPromised =
    R"([{"name":"id","type":"long","nullable":false,"field_id":1,"ordinal":0},)"
    R"({"name":"ts","type":"timestamp","nullable":true,"field_id":2,"ordinal":1}])";
constexpr const char* kColumnsWire = R"("columns":[{"name":"id","type":"long","nullable":false},)"
                                     R"({"name":"ts","type":"timestamp","nullable":true}])";
constexpr const char* kCreations = "/v1/catalogs/c1/table-creations/";

ColumnDef Col(std::string name, iceberg::TypeSpec type, bool nullable = true,
              std::vector<ColumnDef> children = {}) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.nullable = nullable;
  c.children = std::move(children);
  return c;
}

std::vector<ColumnDef> Events() {
  return {Col("id", ColumnType::kLong, false), Col("ts", ColumnType::kTimestamp)};
}

std::string CreationJson(const std::string& state, const std::string& extra = "",
                         const std::string& columns = kPromised) {
  return R"({"operation_id":"00000000-0000-4000-8000-000000000001","table_uuid":")" +
         std::string(kTableUuid) + R"(","namespace":"ns1","name":"events","columns":)" + columns +
         R"(,"write_path":"file:///tmp/lake-c1/data/x/","state":")" + state +
         R"(","expires_at":"2026-09-06T12:00:00Z")" + extra + "}";
}
std::string Committed(int64_t snapshot) {
  return CreationJson("committed",
                      R"(,"snapshot_id":)" + std::to_string(snapshot) + R"(,"schema_version":2)");
}
std::string TableJson(const std::string& extra = "") {
  return R"({"name":"events","namespace":"ns1","table_uuid":")" + std::string(kTableUuid) +
         R"(","columns":)" + kPromised + R"(,"read_snapshot_id":9,"properties":{})" + extra + "}";
}

ClientOptions Fast() {
  ClientOptions options;
  options.retry_base_delay_ms = 1;
  return options;
}

// The operation id of a request under …/table-creations/.
std::string OpOf(const RecordedRequest& r) {
  const std::string prefix = kCreations;
  if (r.target.rfind(prefix, 0) != 0) return "";
  return r.target.substr(prefix.size(), 36);
}

bool IsV4(const std::string& uuid) {
  if (uuid.size() != 36 || uuid[8] != '-' || uuid[13] != '-' || uuid[18] != '-' ||
      uuid[23] != '-') {
    return false;
  }
  return uuid[14] == '4' && std::string("89ab").find(uuid[19]) != std::string::npos;
}

class CreateTableTest : public ::testing::Test {
 protected:
  Namespace Ns() {
    server_.Queue(200, kCatalogJson);
    Result<Catalog> catalog = client_.GetCatalog("c1");
    EXPECT_TRUE(catalog.ok()) << catalog.error().ToString();
    server_.Clear();
    return catalog->NamespaceHandle("ns1");
  }
  CreateTableOptions Partitioned() {
    CreateTableOptions options;
    options.partition_by = {{2, "day", std::nullopt}};
    return options;
  }

  FakeServer server_;
  HoglakeClient client_{server_.base_url(), {}, Fast()};
};

TEST(PromisedColumnsTest, DepthFirstIdsAndWireNames) {
  const std::vector<ColumnDef> defs = {
      Col("id", ColumnType::kLong, false),
      Col("tags", ColumnType::kList, true, {Col("item", ColumnType::kString)}),
      Col("addr", ColumnType::kStruct, true,
          {Col("city", ColumnType::kString), Col("zip", ColumnType::kInt)}),
      Col("props", ColumnType::kMap, true,
          {Col("k", ColumnType::kString), Col("v", ColumnType::kLong)}),
      Col("ts", ColumnType::kTimestamp),
  };
  const std::vector<Column> promised = PromisedColumns(defs);
  ASSERT_EQ(promised.size(), 5u);
  EXPECT_EQ(promised[1].children[0].name, "element");
  EXPECT_EQ(promised[1].children[0].field_id, 3);
  EXPECT_EQ(promised[3].children[0].name, "key");
  EXPECT_FALSE(promised[3].children[0].nullable);
  EXPECT_EQ(promised[3].children[1].name, "value");
  EXPECT_EQ(promised[4].field_id, 10);
  EXPECT_EQ(promised[4].ordinal, 4);
  ASSERT_TRUE(PromisedFieldId(defs, "addr.zip").ok());
  EXPECT_EQ(*PromisedFieldId(defs, "addr.zip"), 6);
  EXPECT_EQ(*PromisedFieldId(defs, "ts"), 10);
  EXPECT_EQ(PromisedFieldId(defs, "nope").error().code, ErrorCode::kValidation);
  EXPECT_EQ(PromisedFieldId(defs, "tags.element").error().code, ErrorCode::kValidation);
}

TEST_F(CreateTableTest, PartitionedCreatePreparesPublishesAndReadsTheSnapshot) {
  Namespace ns = Ns();
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson(R"(,"partition_spec":{"spec_id":1,"fields":[)"
                               R"({"source_field_id":2,"transform":"day","key_index":0}]})"));
  Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_TRUE(table.ok()) << table.error().ToString();

  const std::vector<RecordedRequest> requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  const std::string op = OpOf(requests[0]);
  EXPECT_TRUE(IsV4(op)) << op;
  EXPECT_EQ(requests[0].line(), "PUT " + std::string(kCreations) + op + "/partitioned");
  EXPECT_EQ(requests[0].body,
            R"({"namespace":"ns1","name":"events",)" + std::string(kColumnsWire) +
                R"(,"partition_fields":[{"source_field_id":2,"transform":"day"}]})");
  EXPECT_EQ(requests[1].line(), "POST " + std::string(kCreations) + op + "/commit");
  EXPECT_EQ(requests[1].body, R"({"files":[]})");
  EXPECT_EQ(requests[2].line(),
            "GET /v1/catalogs/c1/namespaces/ns1/tables/events?snapshot=9&totals=false");

  EXPECT_EQ(table->ddl_snapshot(), 9);
  EXPECT_EQ(table->info().snapshot_id, 9);
  EXPECT_TRUE(table->info().partitioned());
  EXPECT_NE(table->info().json.find(R"("snapshot_id":9})"), std::string::npos)
      << table->info().json;

  // A second create uses a fresh operation.
  server_.Clear();
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(10));
  server_.Queue(200, TableJson());
  ASSERT_TRUE(ns.CreateTable("events", Events(), Partitioned()).ok());
  EXPECT_NE(OpOf(server_.requests()[0]), op);
}

TEST_F(CreateTableTest, SortFieldsGoToSortedWithThePartitionFields) {
  Namespace ns = Ns();
  CreateTableOptions options = Partitioned();
  options.partition_by = {{1, "bucket", 8}};
  options.sort_by = {{2, "desc", "nulls_first"}};
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  ASSERT_TRUE(ns.CreateTable("events", Events(), options).ok());
  const RecordedRequest put = server_.requests()[0];
  EXPECT_EQ(put.line(), "PUT " + std::string(kCreations) + OpOf(put) + "/sorted");
  EXPECT_EQ(
      put.body,
      R"({"namespace":"ns1","name":"events",)" + std::string(kColumnsWire) +
          R"(,"partition_fields":[{"source_field_id":1,"transform":"bucket","transform_param":8}])"
          R"(,"sort_fields":[{"source_field_id":2,"direction":"desc","null_order":"nulls_first"}]})");

  // Sort fields alone: /sorted too, no partition_fields member.
  server_.Clear();
  options.partition_by.clear();
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  ASSERT_TRUE(ns.CreateTable("events", Events(), options).ok());
  EXPECT_EQ(server_.requests()[0].line(),
            "PUT " + std::string(kCreations) + OpOf(server_.requests()[0]) + "/sorted");
  EXPECT_EQ(server_.requests()[0].body.find("partition_fields"), std::string::npos);
}

TEST_F(CreateTableTest, MetadataWithoutASpecIsThePlainCreate) {
  Namespace ns = Ns();
  CreateTableOptions options;
  options.comment = "events table";
  options.properties = {{"owner", "web"}};
  std::vector<ColumnDef> columns = Events();
  columns[0].comment = "key";
  server_.Queue(201, TableJson(R"(,"snapshot_id":4)"));
  Result<Table> table = ns.CreateTable("events", columns, options);
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  EXPECT_EQ(server_.lines(),
            std::vector<std::string>{"POST /v1/catalogs/c1/namespaces/ns1/tables"});
  EXPECT_EQ(
      server_.last().body,
      R"({"name":"events","columns":[{"name":"id","type":"long","nullable":false,"comment":"key"},)"
      R"({"name":"ts","type":"timestamp","nullable":true}],"properties":{"owner":"web"},"comment":"events table"})");
  EXPECT_EQ(table->ddl_snapshot(), 4);
}

TEST_F(CreateTableTest, ReplacementAlwaysUsesTheAtomicPath) {
  Namespace ns = Ns();
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  ASSERT_TRUE(ns.ReplaceTable("events", Events(), TableReplacement{kTableUuid, 7}).ok());
  RecordedRequest put = server_.requests()[0];
  EXPECT_EQ(put.line(), "PUT " + std::string(kCreations) + OpOf(put));
  EXPECT_EQ(put.body, R"({"namespace":"ns1","name":"events",)" + std::string(kColumnsWire) +
                          R"(,"replacement":{"expected_table_uuid":")" + kTableUuid +
                          R"(","read_snapshot":7}})");

  server_.Clear();
  CreateTableOptions options;
  options.comment = "c";
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  ASSERT_TRUE(ns.ReplaceTable("events", Events(), TableReplacement{std::nullopt, 7}, options).ok());
  put = server_.requests()[0];
  EXPECT_EQ(put.line(), "PUT " + std::string(kCreations) + OpOf(put) + "/metadata");
  EXPECT_EQ(put.body,
            R"({"namespace":"ns1","name":"events",)" + std::string(kColumnsWire) +
                R"(,"replacement":{"expected_table_uuid":null,"read_snapshot":7},"comment":"c"})");
}

TEST_F(CreateTableTest, SpecWithMetadataCreatesTheSpecThenAltersTheRest) {
  Namespace ns = Ns();
  CreateTableOptions options = Partitioned();
  options.comment = "events table";
  options.properties = {{"owner", "web"}};
  std::vector<ColumnDef> columns = Events();
  columns.push_back(Col("addr", ColumnType::kStruct, true, {Col("city", ColumnType::kString)}));
  columns[2].children[0].comment = "town";
  const std::string promised =
      std::string(kPromised).substr(0, std::string(kPromised).size() - 1) +
      R"(,{"name":"addr","type":"struct","field_id":3,"ordinal":2,"children":[)"
      R"({"name":"city","type":"string","field_id":4,"ordinal":0}]}])";
  server_.Queue(200, CreationJson("prepared", "", promised));
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  server_.Queue(200, TableJson(R"(,"snapshot_id":10,"comment":"events table")"));
  Result<Table> table = ns.CreateTable("events", columns, options);
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  const std::vector<RecordedRequest> requests = server_.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].line(),
            "PUT " + std::string(kCreations) + OpOf(requests[0]) + "/partitioned");
  EXPECT_EQ(requests[0].body.find("comment"), std::string::npos) << requests[0].body;
  EXPECT_EQ(requests[0].body.find("properties"), std::string::npos) << requests[0].body;
  EXPECT_EQ(requests[3].line(), "POST /v1/catalogs/c1/namespaces/ns1/tables/events/alter");
  EXPECT_EQ(requests[3].body,
            R"({"ops":[{"op":"set_table_comment","comment":"events table"},)"
            R"({"op":"set_properties","properties":{"owner":"web"}},)"
            R"({"op":"set_column_comment","name":"addr.city","comment":"town"}]})");
  EXPECT_EQ(table->ddl_snapshot(), 10);

  // A comment the alter cannot reach (inside a list) is refused up front.
  server_.Clear();
  std::vector<ColumnDef> listed = Events();
  listed.push_back(Col("tags", ColumnType::kList, true, {Col("e", ColumnType::kString)}));
  listed[2].children[0].comment = "tag";
  Result<Table> refused = ns.CreateTable("events", listed, Partitioned());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(ErrorKindOf(refused.error()), ErrorKind::kValidation);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(CreateTableTest, RejectionsMapToErrorKinds) {
  Namespace ns = Ns();
  struct Case {
    std::string state, reason;
    ErrorKind kind;
  };
  const std::vector<Case> cases = {
      {"rejected", "target_exists", ErrorKind::kAlreadyExists},
      {"rejected", "namespace_changed", ErrorKind::kNotFound},
      {"rejected", "target_changed", ErrorKind::kIncarnationChanged},
      {"rejected", "definition_invalid", ErrorKind::kValidation},
      {"aborted", "expired", ErrorKind::kExpired},
      {"aborted", "client_abort", ErrorKind::kHoglake},
  };
  for (const Case& c : cases) {
    server_.Clear();
    server_.Queue(200, CreationJson("prepared"));
    server_.Queue(200, CreationJson(c.state, R"(,"reason":")" + c.reason + R"(")"));
    Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
    ASSERT_FALSE(table.ok()) << c.reason;
    EXPECT_EQ(ErrorKindOf(table.error()), c.kind) << c.reason << ": " << table.error().ToString();
    EXPECT_EQ(ErrorCreationReason(table.error()), c.reason);
    EXPECT_EQ(ErrorCreationOperation(table.error()), "00000000-0000-4000-8000-000000000001");
    EXPECT_NE(table.error().message.find(c.reason), std::string::npos) << table.error().message;
    EXPECT_EQ(server_.requests().size(), 2u) << "no read after a refusal";
  }
}

TEST_F(CreateTableTest, PrepareErrorsNameTheOperation) {
  Namespace ns = Ns();
  server_.Queue(404, R"({"error":"not_found","detail":"namespace 'ns1' not found"})");
  Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(ErrorKindOf(table.error()), ErrorKind::kNotFound);
  EXPECT_EQ(ErrorCreationOperation(table.error()), OpOf(server_.requests()[0]));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(CreateTableTest, TransportRetriesKeepTheOperationId) {
  Namespace ns = Ns();
  server_.Queue(503, "");  // lock wait on the prepare
  server_.Queue(200, CreationJson("prepared"));
  server_.Queue(503, "", {{"Retry-After", "0"}});  // and on the publish
  server_.Queue(200, Committed(9));
  server_.Queue(200, TableJson());
  Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  const std::vector<RecordedRequest> r = server_.requests();
  ASSERT_EQ(r.size(), 5u);
  const std::string op = OpOf(r[0]);
  EXPECT_EQ(r[0].line(), r[1].line());
  EXPECT_EQ(r[0].body, r[1].body);
  EXPECT_EQ(r[2].line(), "POST " + std::string(kCreations) + op + "/commit");
  EXPECT_EQ(r[3].line(), r[2].line());
  EXPECT_EQ(r[3].body, r[2].body);
}

TEST_F(CreateTableTest, ALostPublishIsFencedByAbort) {
  Namespace ns = Ns();
  server_.Queue(200, CreationJson("prepared"));
  for (int i = 0; i < Fast().max_attempts; ++i) server_.Queue(503, "");
  server_.Queue(200, Committed(9));  // the abort: it had committed
  server_.Queue(200, TableJson());
  Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  std::vector<std::string> lines = server_.lines();
  ASSERT_EQ(lines.size(), 7u);
  const std::string op = OpOf(server_.requests()[0]);
  EXPECT_EQ(lines[5], "POST " + std::string(kCreations) + op + "/abort");
  EXPECT_EQ(table->ddl_snapshot(), 9);

  // The abort wins: nothing was created, the transport error is returned.
  server_.Clear();
  server_.Queue(200, CreationJson("prepared"));
  for (int i = 0; i < Fast().max_attempts; ++i) server_.Queue(503, "");
  server_.Queue(200, CreationJson("aborted", R"(,"reason":"client_abort")"));
  Result<Table> lost = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(ErrorKindOf(lost.error()), ErrorKind::kTransport);
  EXPECT_EQ(ErrorCreationOperation(lost.error()), OpOf(server_.requests()[0]));
  EXPECT_EQ(server_.requests().size(), 6u);
}

TEST_F(CreateTableTest, AGivenOperationIdResumesIt) {
  Namespace ns = Ns();
  CreateTableOptions options = Partitioned();
  options.operation_id = "00000000-0000-4000-8000-000000000001";
  server_.Queue(200, Committed(9));  // the identical re-prepare: already committed
  server_.Queue(200, TableJson());
  Result<Table> table = ns.CreateTable("events", Events(), options);
  ASSERT_TRUE(table.ok()) << table.error().ToString();
  EXPECT_EQ(server_.lines(),
            (std::vector<std::string>{
                "PUT " + std::string(kCreations) + options.operation_id + "/partitioned",
                "GET /v1/catalogs/c1/namespaces/ns1/tables/events?snapshot=9&totals=false"}));
}

TEST_F(CreateTableTest, PromisedIdsThatDifferAbortTheOperation) {
  Namespace ns = Ns();
  const std::string swapped =
      R"([{"name":"id","type":"long","nullable":false,"field_id":2,"ordinal":0},)"
      R"({"name":"ts","type":"timestamp","nullable":true,"field_id":1,"ordinal":1}])";
  server_.Queue(200, CreationJson("prepared", "", swapped));
  server_.Queue(200, CreationJson("aborted", R"(,"reason":"client_abort")", swapped));
  Result<Table> table = ns.CreateTable("events", Events(), Partitioned());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().code, ErrorCode::kInternal);
  const std::string op = OpOf(server_.requests()[0]);
  EXPECT_EQ(server_.lines().back(), "POST " + std::string(kCreations) + op + "/abort");
}

}  // namespace
}  // namespace hoglake::client
