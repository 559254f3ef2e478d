// Uploads and loads into managed tables over HTTP against the test server:
// POST /v1/files, the presigned /v1/uploads flow (single and multipart,
// PUT without a token, finalize exactly once), loads from uploads, results
// and inline CSV in replace and append mode, the error statuses, and a load
// that fails leaving the table as it was.
#include <string>

#include <httplib.h>
#include <rapidjson/document.h>

#include "columnar/builder.h"
#include "parquet/writer.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

std::string HotdataCode(const ApiResponse& r) {
  if (!r.json.IsObject() || !r.json.HasMember("error") || !r.json["error"].IsObject()) return "";
  return r.json["error"]["code"].GetString();
}

// Parquet bytes of rows id = first…first+count-1 (int64, or utf8 when
// `id_as_text`), name (utf8).
std::string ParquetRows(int64_t first, int64_t count, bool id_as_text = false) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"ID", id_as_text ? columnar::Utf8() : columnar::Int64(), true, {}},
                    {"name", columnar::Utf8(), true, {}}};
  columnar::Int64Builder ids;
  columnar::StringBuilder texts, names;
  for (int64_t i = first; i < first + count; ++i) {
    ids.Append(i);
    texts.Append(std::to_string(i));
    names.Append("n" + std::to_string(i));
  }
  auto batch = columnar::MakeRecordBatch(
      schema, {id_as_text ? *texts.Finish() : *ids.Finish(), *names.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  std::string bytes;
  auto writer = parquet::ParquetWriter::OpenBuffer(&bytes, schema);
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->WriteBatch(*batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

std::string NewDatabase() {
  ApiResponse created = ServerEnvironment::Call("POST", "/v1/databases", "{}");
  EXPECT_EQ(created.status, 201) << created.body;
  return created.status == 201 ? created.json["id"].GetString() : "";
}

std::string UploadFile(const std::string& bytes) {
  ApiResponse r = ServerEnvironment::Call("POST", "/v1/files", bytes, "application/parquet");
  EXPECT_EQ(r.status, 201) << r.body;
  return r.status == 201 ? r.json["id"].GetString() : "";
}

ApiResponse Load(const std::string& db, const std::string& table, const std::string& body) {
  return ServerEnvironment::Call(
      "POST", "/v1/connections/" + db + "/schemas/main/tables/" + table + "/loads", body);
}

int64_t Count(const std::string& db, const std::string& table) {
  ApiResponse r = ServerEnvironment::Call("POST", "/v1/query",
                                          "{\"sql\":\"SELECT count(*) FROM \\\"default\\\".main." +
                                              table + "\",\"database_id\":\"" + db + "\"}");
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? r.json["rows"][0][0].GetInt64() : -1;
}

// The path and query of an absolute URL this server handed out.
std::string Local(const std::string& url) { return url.substr(url.find('/', 7)); }

TEST(ManagedLoadTest, FilesLoadReplaceAndAppend) {
  const std::string db = NewDatabase();
  ApiResponse file =
      ServerEnvironment::Call("POST", "/v1/files", ParquetRows(1, 3), "application/parquet");
  ASSERT_EQ(file.status, 201) << file.body;
  const std::string upload = file.json["id"].GetString();
  EXPECT_GT(file.json["size_bytes"].GetInt64(), 0);
  EXPECT_EQ(std::string(file.json["content_type"].GetString()), "application/parquet");
  EXPECT_TRUE(file.json.HasMember("created_at"));
  EXPECT_TRUE(file.json.HasMember("status"));

  ApiResponse loaded =
      Load(db, "Events", "{\"mode\":\"replace\",\"upload_id\":\"" + upload + "\"}");
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  EXPECT_EQ(std::string(loaded.json["connection_id"].GetString()), db);
  EXPECT_EQ(std::string(loaded.json["schema_name"].GetString()), "main");
  EXPECT_EQ(std::string(loaded.json["table_name"].GetString()), "events");
  EXPECT_EQ(loaded.json["row_count"].GetInt64(), 3);
  const std::string schema_json = loaded.json["arrow_schema_json"].GetString();
  EXPECT_NE(schema_json.find("\"id\""), std::string::npos) << schema_json;
  EXPECT_EQ(Count(db, "events"), 3);
  // The table's file carries statistics (footer stats were registered).
  ApiResponse files =
      ServerEnvironment::Call("GET", "/v1/catalogs/" + db + "/namespaces/main/tables/events/files");
  ASSERT_EQ(files.status, 200) << files.body;
  EXPECT_NE(files.body.find(".parquet"), std::string::npos) << files.body;

  // The same upload twice: 409.
  ApiResponse again = Load(db, "events", "{\"mode\":\"replace\",\"upload_id\":\"" + upload + "\"}");
  EXPECT_EQ(again.status, 409) << again.body;

  // Replace with two rows, then append inline CSV.
  ApiResponse replaced =
      Load(db, "events",
           "{\"mode\":\"replace\",\"upload_id\":\"" + UploadFile(ParquetRows(10, 2)) + "\"}");
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(replaced.json["row_count"].GetInt64(), 2);
  ApiResponse appended =
      Load(db, "events", R"({"mode":"append","data":"id,name\n20,x\n21,y\n","format":"csv"})");
  ASSERT_EQ(appended.status, 200) << appended.body;
  EXPECT_EQ(appended.json["row_count"].GetInt64(), 4);
  EXPECT_EQ(Count(db, "events"), 4);

  // A query result into a new table (the database twin route).
  ApiResponse query = ServerEnvironment::Call(
      "POST", "/v1/query",
      "{\"sql\":\"SELECT id * 2 AS twice FROM \\\"default\\\".main.events\",\"database_id\":\"" +
          db + "\"}");
  ASSERT_EQ(query.status, 200) << query.body;
  ApiResponse from_result =
      ServerEnvironment::Call("POST", "/v1/databases/" + db + "/schemas/main/tables/doubled/loads",
                              "{\"mode\":\"replace\",\"result_id\":\"" +
                                  std::string(query.json["result_id"].GetString()) + "\"}");
  ASSERT_EQ(from_result.status, 200) << from_result.body;
  EXPECT_EQ(from_result.json["row_count"].GetInt64(), 4);

  // Replace with zero rows empties the table.
  ApiResponse emptied = Load(db, "events", R"({"mode":"replace","data":"id,name\n"})");
  ASSERT_EQ(emptied.status, 200) << emptied.body;
  EXPECT_EQ(emptied.json["row_count"].GetInt64(), 0);
}

TEST(ManagedLoadTest, PresignedSingleAndMultipartUploads) {
  const std::string db = NewDatabase();
  const std::string bytes = ParquetRows(1, 5);
  ApiResponse session = ServerEnvironment::Call(
      "POST", "/v1/uploads",
      "{\"content_type\":\"application/parquet\",\"part_size\":8388608,\"declared_size_bytes\":" +
          std::to_string(bytes.size()) + "}");
  ASSERT_EQ(session.status, 201) << session.body;
  EXPECT_EQ(std::string(session.json["mode"].GetString()), "single");
  EXPECT_TRUE(session.json["headers"].IsObject());
  const std::string id = session.json["upload_id"].GetString();
  const std::string token = session.json["finalize_token"].GetString();
  const std::string url = session.json["url"].GetString();
  ASSERT_EQ(url.rfind("http://", 0), 0u) << url;

  httplib::Client client(ServerEnvironment::base_url());
  auto forged = client.Put(Local(url).substr(0, Local(url).find("signature=")) + "signature=00",
                           bytes, "application/octet-stream");
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->status, 400) << forged->body;
  auto put = client.Put(Local(url), bytes, "application/octet-stream");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 200) << put->body;
  EXPECT_FALSE(put->get_header_value("ETag").empty());

  const std::string finalize = "/v1/uploads/" + id + "/finalize";
  auto no_token = client.Post(finalize, "{}", "application/json");
  ASSERT_TRUE(no_token);
  EXPECT_EQ(no_token->status, 400) << no_token->body;
  httplib::Headers wrong{{"X-Upload-Finalize-Token", "nope"}};
  auto wrong_token = client.Post(finalize, wrong, "{}", "application/json");
  ASSERT_TRUE(wrong_token);
  EXPECT_EQ(wrong_token->status, 400) << wrong_token->body;
  httplib::Headers with_token{{"X-Upload-Finalize-Token", token}};
  auto done = client.Post(finalize, with_token, "{}", "application/json");
  ASSERT_TRUE(done);
  ASSERT_EQ(done->status, 200) << done->body;
  rapidjson::Document finalized;
  finalized.Parse(done->body.c_str());
  EXPECT_EQ(std::string(finalized["upload_id"].GetString()), id);
  EXPECT_EQ(finalized["size_bytes"].GetInt64(), static_cast<int64_t>(bytes.size()));
  EXPECT_TRUE(finalized.HasMember("created_at"));
  auto twice = client.Post(finalize, with_token, "{}", "application/json");
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->status, 409) << twice->body;
  ApiResponse loaded =
      Load(db, "single", "{\"mode\":\"replace\",\"upload_id\":\"" + id + "\",\"async\":false}");
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  EXPECT_EQ(loaded.json["row_count"].GetInt64(), 5);

  // Unknown size: multipart, part URLs minted on demand.
  ApiResponse multi =
      ServerEnvironment::Call("POST", "/v1/uploads", R"({"content_type":"application/parquet"})");
  ASSERT_EQ(multi.status, 201) << multi.body;
  EXPECT_EQ(std::string(multi.json["mode"].GetString()), "multipart");
  const std::string multi_id = multi.json["upload_id"].GetString();
  httplib::Headers multi_token{
      {"X-Upload-Finalize-Token", multi.json["finalize_token"].GetString()}};
  auto parts = client.Post("/v1/uploads/" + multi_id + "/parts", multi_token,
                           R"({"part_numbers":[1,2]})", "application/json");
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->status, 200) << parts->body;
  rapidjson::Document part_urls;
  part_urls.Parse(parts->body.c_str());
  const std::string half1 = bytes.substr(0, bytes.size() / 2), half2 = bytes.substr(half1.size());
  auto p1 = client.Put(Local(part_urls["parts"][0]["url"].GetString()), half1, "x/y");
  auto p2 = client.Put(Local(part_urls["parts"][1]["url"].GetString()), half2, "x/y");
  ASSERT_TRUE(p1 && p2);
  ASSERT_EQ(p1->status, 200) << p1->body;
  ASSERT_EQ(p2->status, 200) << p2->body;
  auto multi_done =
      client.Post("/v1/uploads/" + multi_id + "/finalize", multi_token,
                  "{\"parts\":[{\"part_number\":2,\"e_tag\":" + p2->get_header_value("ETag") +
                      "},{\"part_number\":1,\"e_tag\":" + p1->get_header_value("ETag") + "}]}",
                  "application/json");
  ASSERT_TRUE(multi_done);
  ASSERT_EQ(multi_done->status, 200) << multi_done->body;
  ApiResponse multi_loaded =
      Load(db, "multi", "{\"mode\":\"replace\",\"upload_id\":\"" + multi_id + "\"}");
  ASSERT_EQ(multi_loaded.status, 200) << multi_loaded.body;
  EXPECT_EQ(multi_loaded.json["row_count"].GetInt64(), 5);

  ApiResponse batch = ServerEnvironment::Call("POST", "/v1/uploads/batch",
                                              R"({"uploads":[{"declared_size_bytes":3},{}]})");
  ASSERT_EQ(batch.status, 201) << batch.body;
  ASSERT_EQ(batch.json["uploads"].Size(), 2u);
  EXPECT_EQ(std::string(batch.json["uploads"][0]["mode"].GetString()), "single");
  EXPECT_EQ(std::string(batch.json["uploads"][1]["mode"].GetString()), "multipart");
}

TEST(ManagedLoadTest, FailedLoadLeavesTheTableAsItWas) {
  const std::string db = NewDatabase();
  ASSERT_EQ(Load(db, "t",
                 "{\"mode\":\"replace\",\"upload_id\":\"" + UploadFile(ParquetRows(1, 3)) + "\"}")
                .status,
            200);
  // A column whose type differs: 409 naming it; the rows stay, and the
  // upload is released (loading it again fails the same way, not as used).
  const std::string bad = UploadFile(ParquetRows(1, 9, /*id_as_text=*/true));
  for (int attempt = 0; attempt < 2; ++attempt) {
    ApiResponse refused = Load(db, "t", "{\"mode\":\"replace\",\"upload_id\":\"" + bad + "\"}");
    EXPECT_EQ(refused.status, 409) << refused.body;
    EXPECT_NE(refused.body.find("'id'"), std::string::npos) << refused.body;
  }
  EXPECT_EQ(Count(db, "t"), 3);
  ApiResponse extra = Load(db, "t", R"({"mode":"append","data":"id,name,extra\n1,a,b\n"})");
  EXPECT_EQ(extra.status, 400) << extra.body;  // the CSV header names no table column
  EXPECT_EQ(Count(db, "t"), 3);
  // A load that cannot create its table leaves no table behind.
  ApiResponse json = Load(db, "fresh", R"({"mode":"replace","data":"{\"a\":1}","format":"json"})");
  EXPECT_EQ(json.status, 400) << json.body;
  ApiResponse listed =
      ServerEnvironment::Call("GET", "/v1/information_schema?connection_id=" + db + "&table=fresh");
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json["count"].GetInt64(), 0) << listed.body;
}

TEST(ManagedLoadTest, LoadRefusals) {
  const std::string db = NewDatabase();
  ApiResponse big =
      Load(db, "t", "{\"mode\":\"replace\",\"data\":\"" + std::string((2u << 20) + 1, 'a') + "\"}");
  EXPECT_EQ(big.status, 413) << big.body.substr(0, 200);
  EXPECT_EQ(HotdataCode(big), "INLINE_DATA_TOO_LARGE");
  ApiResponse mode = Load(db, "t", R"({"mode":"upsert","data":"a\n1\n"})");
  EXPECT_EQ(mode.status, 400) << mode.body;
  ApiResponse two = Load(db, "t", R"({"mode":"replace","data":"a\n1\n","upload_id":"x"})");
  EXPECT_EQ(two.status, 400) << two.body;
  ApiResponse none = Load(db, "t", R"({"mode":"replace"})");
  EXPECT_EQ(none.status, 400) << none.body;
  ApiResponse unknown_upload = Load(db, "t", R"({"mode":"replace","upload_id":"upldnope"})");
  EXPECT_EQ(unknown_upload.status, 404) << unknown_upload.body;
  ApiResponse unknown_db =
      ServerEnvironment::Call("POST", "/v1/connections/nosuchconn/schemas/main/tables/t/loads",
                              R"({"mode":"replace","data":"a\n1\n"})");
  EXPECT_EQ(unknown_db.status, 404) << unknown_db.body;
  const std::string plain = NewCatalog();
  ApiResponse not_managed =
      ServerEnvironment::Call("POST", "/v1/connections/" + plain + "/schemas/main/tables/t/loads",
                              R"({"mode":"replace","data":"a\n1\n"})");
  EXPECT_EQ(not_managed.status, 400) << not_managed.body;
  ApiResponse empty = ServerEnvironment::Call("POST", "/v1/files", "", "text/csv");
  EXPECT_EQ(empty.status, 400) << empty.body;
}

}  // namespace
}  // namespace hoglake::testing
