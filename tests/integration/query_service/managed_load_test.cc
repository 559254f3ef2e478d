// Uploads and loads into managed tables over HTTP against the test server:
// POST /v1/files, the presigned /v1/uploads flow (single and multipart,
// PUT without a token, finalize exactly once), loads from uploads, results
// and inline CSV in replace and append mode, the error statuses, and a load
// that fails leaving the table as it was.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

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

// Parquet bytes of one batch of the given columns.
std::string ParquetOf(std::vector<columnar::Field> fields,
                      std::vector<columnar::ArrayPtr> columns) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = std::move(fields);
  auto batch = columnar::MakeRecordBatch(schema, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  std::string bytes;
  auto writer = parquet::ParquetWriter::OpenBuffer(&bytes, schema);
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->WriteBatch(*batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return bytes;
}

// Rows (id, score, amount) with ids first…first+2 at the given widths; amount
// = id + 0.25 as decimal(amount_precision, 2).
std::string WidthRows(int64_t first, bool wide_id, bool wide_score, int amount_precision,
                      std::optional<std::string> extra = std::nullopt) {
  columnar::Int32Builder narrow_ids;
  columnar::Int64Builder wide_ids;
  columnar::Float32Builder narrow_scores;
  columnar::Float64Builder wide_scores;
  columnar::Decimal128Builder amounts(columnar::Decimal128(amount_precision, 2));
  columnar::StringBuilder extras;
  for (int64_t i = first; i < first + 3; ++i) {
    narrow_ids.Append(static_cast<int32_t>(i));
    wide_ids.Append(i);
    narrow_scores.Append(0.5f);
    wide_scores.Append(0.5);
    amounts.Append(static_cast<__int128>(i * 100 + 25));
    if (extra) extras.Append(*extra);
  }
  std::vector<columnar::Field> fields = {
      {"id", wide_id ? columnar::Int64() : columnar::Int32(), true, {}},
      {"score", wide_score ? columnar::Float64() : columnar::Float32(), true, {}},
      {"amount", columnar::Decimal128(amount_precision, 2), true, {}}};
  std::vector<columnar::ArrayPtr> columns = {wide_id ? *wide_ids.Finish() : *narrow_ids.Finish(),
                                             wide_score ? *wide_scores.Finish()
                                                        : *narrow_scores.Finish(),
                                             *amounts.Finish()};
  if (extra) {
    fields.push_back({"extra", columnar::Utf8(), true, {}});
    columns.push_back(*extras.Finish());
  }
  return ParquetOf(std::move(fields), std::move(columns));
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

// The data types of `table`'s columns as information_schema lists them,
// "name type, …" in column order.
std::string ColumnTypes(const std::string& db, const std::string& table) {
  ApiResponse r = ServerEnvironment::Call("GET", "/v1/information_schema?connection_id=" + db +
                                                     "&table=" + table + "&include_columns=true");
  EXPECT_EQ(r.status, 200) << r.body;
  std::string out;
  if (r.status != 200 || r.json["tables"].Empty()) return out;
  for (const auto& c : r.json["tables"][0]["columns"].GetArray()) {
    if (!out.empty()) out += ", ";
    out += std::string(c["name"].GetString()) + " " + c["data_type"].GetString();
  }
  return out;
}

// The first row of `sql` run in database `db`, as JSON text.
std::string FirstRow(const std::string& db, const std::string& sql) {
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/query", "{\"sql\":\"" + sql + "\",\"database_id\":\"" + db + "\"}");
  EXPECT_EQ(r.status, 200) << r.body;
  if (r.status != 200) return "";
  size_t start = r.body.find("\"rows\":[[");
  return start == std::string::npos ? r.body
                                    : r.body.substr(start + 9, r.body.find(']', start) - start - 9);
}

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
  ApiResponse bad_value =
      Load(db, "t", R"({"mode":"append","data":"id,name,extra\n1,a,b\nx,b,c\n"})");
  EXPECT_EQ(bad_value.status, 400) << bad_value.body;  // 'x' is no bigint
  EXPECT_EQ(Count(db, "t"), 3);
  EXPECT_EQ(ColumnTypes(db, "t"), "id bigint, name text");  // 'extra' was not added
  // A load that cannot create its table leaves no table behind.
  ApiResponse json = Load(db, "fresh", R"({"mode":"replace","data":"{\"a\":1}","format":"json"})");
  EXPECT_EQ(json.status, 400) << json.body;
  ApiResponse listed =
      ServerEnvironment::Call("GET", "/v1/information_schema?connection_id=" + db + "&table=fresh");
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json["count"].GetInt64(), 0) << listed.body;
}

// Every file in a managed table's data directory (schema "main") under
// the server's data directory: data files, and any partial write a load
// left behind.
std::set<std::string> DataFiles() {
  std::set<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(ServerEnvironment::data_dir(), ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string path = it->path().string();
    if (it->is_regular_file() && path.find("/data/main/") != std::string::npos &&
        path.find("/results/") == std::string::npos) {
      files.insert(path);
    }
  }
  return files;
}

// CSV "id,name[,extra]" rows 1…rows, then `last` as the final line.
std::string CsvWithLastLine(int64_t rows, bool extra, const std::string& last) {
  std::string csv = extra ? "id,name,extra\n" : "id,name\n";
  for (int64_t i = 1; i <= rows; ++i) {
    csv += std::to_string(i) + ",n" + std::to_string(i) + (extra ? ",e\n" : "\n");
  }
  return csv + last + "\n";
}

TEST(ManagedLoadTest, ALoadFailingAtItsLastRowLeavesTheTableAndNoFiles) {
  const std::string db = NewDatabase();
  ASSERT_EQ(Load(db, "t",
                 "{\"mode\":\"replace\",\"upload_id\":\"" + UploadFile(ParquetRows(1, 3)) + "\"}")
                .status,
            200);
  const std::set<std::string> before = DataFiles();
  auto upload_csv = [](const std::string& csv) {
    ApiResponse r = ServerEnvironment::Call("POST", "/v1/files", csv, "text/csv");
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? std::string(r.json["id"].GetString()) : std::string();
  };
  // 300,000 good rows (several batches, written to a data file as they
  // stream) and a bad one at the very end; appended, replacing, with a
  // new column (the alter waits for a first pass), and creating a table.
  const std::string plain = upload_csv(CsvWithLastLine(300000, false, "x,bad"));
  const std::string wider = upload_csv(CsvWithLastLine(300000, true, "x,bad,e"));
  const struct {
    std::string table, mode, upload;
  } loads[] = {{"t", "append", plain},
               {"t", "replace", plain},
               {"t", "append", wider},
               {"fresh", "replace", plain}};
  for (const auto& l : loads) {
    for (int attempt = 0; attempt < 2; ++attempt) {  // the upload is released each time
      ApiResponse refused =
          Load(db, l.table, "{\"mode\":\"" + l.mode + "\",\"upload_id\":\"" + l.upload + "\"}");
      EXPECT_EQ(refused.status, 400) << l.table << " " << l.mode << ": " << refused.body;
      EXPECT_NE(refused.body.find("line 300002"), std::string::npos) << refused.body;
    }
  }
  EXPECT_EQ(DataFiles(), before);
  EXPECT_FALSE(before.empty());  // the directory looked at is the tables'

  EXPECT_EQ(Count(db, "t"), 3);
  EXPECT_EQ(ColumnTypes(db, "t"), "id bigint, name text");
  ApiResponse listed =
      ServerEnvironment::Call("GET", "/v1/information_schema?connection_id=" + db + "&table=fresh");
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json["count"].GetInt64(), 0) << listed.body;
  // The same rows without the bad one load whole.
  ApiResponse good = Load(db, "t",
                          "{\"mode\":\"append\",\"upload_id\":\"" +
                              upload_csv(CsvWithLastLine(300000, true, "300001,last,e")) + "\"}");
  ASSERT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(good.json["row_count"].GetInt64(), 300004);
  EXPECT_EQ(FirstRow(db, "SELECT count(*), sum(id), count(extra) FROM \\\"default\\\".main.t"),
            "300004,45000450007,300001");
}

TEST(ManagedLoadTest, WideningLoadsEvolveTheTable) {
  const std::string db = NewDatabase();
  auto load = [&](const std::string& mode, const std::string& bytes) {
    return Load(db, "w", "{\"mode\":\"" + mode + "\",\"upload_id\":\"" + UploadFile(bytes) +
                             "\"}");
  };
  // The first row of SELECT `select` over the table.
  auto Of = [&](const std::string& select) {
    return FirstRow(db, "SELECT " + select + " FROM \\\"default\\\".main.w");
  };
  ASSERT_EQ(load("replace", WidthRows(1, false, false, 12)).status, 200);
  EXPECT_EQ(ColumnTypes(db, "w"), "id integer, score real, amount numeric(12,2)");

  // Wider id and score, a narrower amount and a new column: the table is
  // promoted, the column added, the amounts widened on the way in.
  ApiResponse widened = load("append", WidthRows(4, true, true, 10, "x"));
  ASSERT_EQ(widened.status, 200) << widened.body;
  EXPECT_EQ(widened.json["row_count"].GetInt64(), 6);
  EXPECT_EQ(ColumnTypes(db, "w"),
            "id bigint, score double precision, amount numeric(12,2), extra text");
  EXPECT_EQ(Of("sum(id), sum(score), sum(amount), count(extra)"), "21,3,22.50,3");

  // Narrower data into the promoted table (lacking 'extra': NULLs); CSV
  // naming a new column.
  ASSERT_EQ(load("append", WidthRows(7, false, false, 12)).status, 200);
  ApiResponse csv =
      Load(db, "w", R"({"mode":"append","data":"id,score,amount,note\n10,1.5,2.00,hi\n"})");
  ASSERT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.json["row_count"].GetInt64(), 10);
  EXPECT_EQ(ColumnTypes(db, "w"),
            "id bigint, score double precision, amount numeric(12,2), extra text, note text");
  const std::string before = Of("count(*), sum(id), count(note)");
  EXPECT_EQ(before, "10,55,1");

  // Refused, changing nothing (not even the new column the same data
  // carries): a value that does not parse, an incompatible type and a
  // decimal of another scale, the last two naming the column and both types.
  ApiResponse bad_text =
      Load(db, "w", R"({"mode":"append","data":"id,score,amount,more\n1,x,2.00,y\n"})");
  EXPECT_EQ(bad_text.status, 400) << bad_text.body;  // 'x' is no double
  const std::string text_ids = ParquetOf(
      {{"id", columnar::Utf8(), true, {}}, {"other", columnar::Int64(), true, {}}},
      {*[] {
         columnar::StringBuilder b;
         b.Append("1");
         return b.Finish();
       }(),
       *[] {
         columnar::Int64Builder b;
         b.Append(1);
         return b.Finish();
       }()});
  ApiResponse incompatible = load("append", text_ids);
  EXPECT_EQ(incompatible.status, 409) << incompatible.body;
  EXPECT_NE(incompatible.body.find("'id'"), std::string::npos) << incompatible.body;
  EXPECT_NE(incompatible.body.find("long"), std::string::npos) << incompatible.body;
  EXPECT_NE(incompatible.body.find("string"), std::string::npos) << incompatible.body;
  const std::string other_scale = ParquetOf(
      {{"amount", columnar::Decimal128(14, 3), true, {}}, {"other", columnar::Int64(), true, {}}},
      {*[] {
         columnar::Decimal128Builder b(columnar::Decimal128(14, 3));
         b.Append(static_cast<__int128>(1250));
         return b.Finish();
       }(),
       *[] {
         columnar::Int64Builder b;
         b.Append(1);
         return b.Finish();
       }()});
  ApiResponse scale = load("append", other_scale);
  EXPECT_EQ(scale.status, 409) << scale.body;
  EXPECT_NE(scale.body.find("'amount'"), std::string::npos) << scale.body;
  EXPECT_NE(scale.body.find("decimal(12,2)"), std::string::npos) << scale.body;
  EXPECT_NE(scale.body.find("decimal(14,3)"), std::string::npos) << scale.body;
  EXPECT_EQ(ColumnTypes(db, "w"),
            "id bigint, score double precision, amount numeric(12,2), extra text, note text");
  EXPECT_EQ(Of("count(*), sum(id), count(note)"), before);

  // A replace with narrower columns, lacking one, keeps the table's types
  // and reads the missing column as NULL.
  ApiResponse replaced = load("replace", WidthRows(1, false, false, 10, "y"));
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(replaced.json["row_count"].GetInt64(), 3);
  EXPECT_EQ(ColumnTypes(db, "w"),
            "id bigint, score double precision, amount numeric(12,2), extra text, note text");
  EXPECT_EQ(Of("count(*), sum(id), count(extra), count(note)"), "3,6,3,0");

  // A wider decimal precision of the same scale promotes the column
  // (Iceberg's decimal promotion, through the catalog's promote_column);
  // the rows loaded before read at the new precision.
  ApiResponse wider_decimal = load("append", WidthRows(100, true, true, 20));
  ASSERT_EQ(wider_decimal.status, 200) << wider_decimal.body;
  EXPECT_EQ(wider_decimal.json["row_count"].GetInt64(), 6);
  EXPECT_EQ(ColumnTypes(db, "w"),
            "id bigint, score double precision, amount numeric(20,2), extra text, note text");
  EXPECT_EQ(Of("count(*), sum(id), sum(amount), max(amount)"), "6,309,310.50,102.25");
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
