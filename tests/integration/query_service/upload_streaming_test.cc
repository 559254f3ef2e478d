// Uploads are streamed to storage as their bodies arrive (POST /v1/files
// and the presigned part PUTs are streaming routes): a 2 GiB body, made up
// by the client as it sends it, is stored whole and exact while the
// server's peak memory stays within a bound of its memory before the
// upload; a body past its limit is answered 413 and leaves no object; a
// client that goes away mid-body leaves no object and no upload; a
// multipart upload sent in pieces is finalized and loaded whole; a CSV
// upload of 400 MiB is loaded into a table (several data files, one
// snapshot), and that table's rows again from a query result, while the
// server's peak memory grows by far less than the file; uploads beyond
// HOGLAKE_MAX_CONCURRENT_UPLOADS are refused with 429.
//
// The server here has its own PostgreSQL and limits: 2 GiB for a raw
// upload (HOGLAKE_MAX_UPLOAD_BYTES) and 8 MiB for any other body, so one
// presigned PUT (a part) carries at most 8 MiB; loads close their data
// files at 8 MiB (HOGLAKE_LOAD_FILE_BYTES). The admission test has a
// server of its own admitting one upload at a time.
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>

#include "../server/raw_http_client.h"
#include "common/encoding.h"
#include "common/sha256.h"
#include "server_fixture.h"

namespace hoglake::testing {
namespace {

using server::RawHttpClient;
using server::RawReply;

constexpr uint64_t kRawLimit = uint64_t{2} << 30;  // 2 GiB
constexpr uint64_t kBodyLimit = uint64_t{8} << 20;
// What the server may hold for an upload beyond its memory before it:
// a tiny fraction of the 2 GiB it streams.
constexpr uint64_t kPeakBound = uint64_t{256} << 20;
// The streamed load: a CSV of this size, data files closed at kLoadFileBytes,
// and what the server may hold for it beyond its memory before the load.
constexpr uint64_t kLoadCsvBytes = uint64_t{400} << 20;
constexpr uint64_t kLoadFileBytes = uint64_t{8} << 20;
constexpr uint64_t kLoadPeakBound = uint64_t{128} << 20;

// Deterministic bytes made up as they are sent (never a whole body in
// memory): piece `i` of a stream seeded by `seed`.
void FillPiece(uint64_t seed, uint64_t i, std::string* piece) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + 1;
  for (size_t at = 0; at + 8 <= piece->size(); at += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::memcpy(piece->data() + at, &x, 8);
  }
}

int PortOf(const std::string& base_url) {
  return std::stoi(base_url.substr(base_url.rfind(':') + 1));
}

// "VmHWM" (peak) or "VmRSS" (now) of process `pid`, in bytes; -1 if unknown.
int64_t MemoryOf(int pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      return std::stoll(line.substr(field.size() + 1)) * 1024;  // "<n> kB"
    }
  }
  return -1;
}

// Every file under `dir` (recursively), by path.
std::set<std::string> FilesUnder(const std::string& dir) {
  std::set<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) files.insert(it->path().string());
  }
  return files;
}

std::string HexSha256OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Sha256Hasher hash;
  std::string block(1 << 20, '\0');
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    hash.Update(std::string_view(block.data(), static_cast<size_t>(in.gcount())));
  }
  return HexEncode(hash.Finish());
}

// Sends `target` a chunked body of `pieces` pieces of `piece_size` bytes
// (FillPiece with `seed`), hashing what it sends into `hash` when given.
// False when the server stopped taking the body (it answered early).
bool SendChunked(RawHttpClient& client, const std::string& method, const std::string& target,
                 uint64_t seed, uint64_t pieces, size_t piece_size, Sha256Hasher* hash,
                 bool end = true) {
  if (!client.Send(method + " " + target +
                   " HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n")) {
    return false;
  }
  std::string piece(piece_size, '\0');
  char size_line[32];
  for (uint64_t i = 0; i < pieces; ++i) {
    FillPiece(seed, i, &piece);
    if (hash) hash->Update(piece);
    const int n = std::snprintf(size_line, sizeof size_line, "%zx\r\n", piece.size());
    if (!client.Send(std::string_view(size_line, static_cast<size_t>(n))) ||
        !client.Send(piece) || !client.Send("\r\n")) {
      return false;
    }
  }
  return !end || client.Send("0\r\n\r\n");
}

rapidjson::Document ParseJson(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  return doc;
}

// A suite's own server: started in a fresh directory `stem`-XXXXXX with
// its results under it and `env` set; StopSuiteServer ends it.
void StartSuiteServer(const std::string& stem, std::map<std::string, std::string> env,
                      std::string** dir, ServerProcess** server) {
  *dir = new std::string(MakeServerDir(stem));
  *server = new ServerProcess();
  env["HOGLAKE_RESULTS_ROOT"] = "file://" + **dir + "/results";
  (*server)->Start(**dir, {}, env);
}
void StopSuiteServer(std::string** dir, ServerProcess** server) {
  if (*server) (*server)->Stop();
  delete *server;
  delete *dir;
  *server = nullptr;
  *dir = nullptr;
}

class UploadStreamingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    StartSuiteServer("hoglake-upload-stream",
                     {{"HOGLAKE_MAX_UPLOAD_BYTES", std::to_string(kRawLimit)},
                      {"HOGLAKE_MAX_REQUEST_BODY_BYTES", std::to_string(kBodyLimit)},
                      {"HOGLAKE_LOAD_FILE_BYTES", std::to_string(kLoadFileBytes)}},
                     &dir_, &server_);
  }
  static void TearDownTestSuite() { StopSuiteServer(&dir_, &server_); }

  static std::string Uploads() { return *dir_ + "/results/uploads"; }
  static int Port() { return PortOf(server_->base_url()); }
  static ApiResponse Call(const std::string& method, const std::string& path,
                          const std::string& body = "") {
    return CallServer(server_->base_url(), method, path, body);
  }
  // Waits (bounded) until no file under the uploads directory is outside
  // `before`; the files that are.
  static std::set<std::string> NewFilesSettled(const std::set<std::string>& before) {
    std::set<std::string> extra;
    for (int i = 0; i < 200; ++i) {
      extra.clear();
      for (const std::string& f : FilesUnder(Uploads())) {
        if (!before.contains(f)) extra.insert(f);
      }
      if (extra.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return extra;
  }

  static std::string* dir_;
  static ServerProcess* server_;
};

std::string* UploadStreamingTest::dir_ = nullptr;
ServerProcess* UploadStreamingTest::server_ = nullptr;

TEST_F(UploadStreamingTest, TwoGibibyteRawUploadStreamsWithBoundedMemory) {
  ASSERT_TRUE(server_->running());
  const int pid = server_->pid();
  const int64_t rss_before = MemoryOf(pid, "VmRSS");
  const int64_t peak_before = MemoryOf(pid, "VmHWM");
  ASSERT_GT(rss_before, 0);

  constexpr size_t kPiece = size_t{1} << 20;
  const uint64_t pieces = kRawLimit / kPiece;  // exactly the limit: accepted
  RawHttpClient client(Port(), /*timeout_s=*/120);
  ASSERT_TRUE(client.connected());
  Sha256Hasher sent;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(SendChunked(client, "POST", "/v1/files", 7, pieces, kPiece, &sent));
  const RawReply reply = client.Read();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(reply.ok);
  ASSERT_EQ(reply.status, 201) << reply.body;
  const int64_t peak_after = MemoryOf(pid, "VmHWM");

  rapidjson::Document body = ParseJson(reply.body);
  ASSERT_TRUE(body.IsObject()) << reply.body;
  EXPECT_EQ(std::string(body["status"].GetString()), "ready");
  EXPECT_EQ(body["size_bytes"].GetInt64(), static_cast<int64_t>(kRawLimit));
  const std::string id = body["id"].GetString();

  // Server side: the stored object is every byte sent, in order.
  const std::string object = Uploads() + "/" + id;
  std::error_code ec;
  EXPECT_EQ(std::filesystem::file_size(object, ec), kRawLimit) << object;
  EXPECT_EQ(HexSha256OfFile(object), HexEncode(sent.Finish()));

  const double mib = 1024.0 * 1024.0;
  std::cout << "2 GiB streamed upload: " << seconds << " s ("
            << static_cast<double>(kRawLimit) / mib / seconds << " MiB/s); server RSS before "
            << static_cast<double>(rss_before) / mib << " MiB, peak before "
            << static_cast<double>(peak_before) / mib << " MiB, peak after "
            << static_cast<double>(peak_after) / mib << " MiB (growth over RSS before: "
            << static_cast<double>(peak_after - rss_before) / mib << " MiB)\n";
  RecordProperty("server_peak_rss_growth_bytes", std::to_string(peak_after - rss_before));
  EXPECT_LT(peak_after - rss_before, static_cast<int64_t>(kPeakBound))
      << "the server's peak RSS grew by more than 256 MiB for a streamed upload";
  std::filesystem::remove(object, ec);  // 2 GiB of test data
}

TEST_F(UploadStreamingTest, BodiesPastTheLimitAre413AndLeaveNothing) {
  const std::set<std::string> before = FilesUnder(Uploads());
  // Declared past the raw limit: refused from the head, no byte read.
  {
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send("POST /v1/files HTTP/1.1\r\nHost: test\r\nContent-Length: " +
                            std::to_string(kRawLimit + 1) + "\r\n\r\n"));
    const RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 413) << reply.body;
  }
  // A part PUT (limit 8 MiB) sent chunked, its size unknown until it passes
  // the limit: 413 once it does, the part never stored.
  ApiResponse session = Call("POST", "/v1/uploads", R"({"declared_size_bytes":20971520})");
  ASSERT_EQ(session.status, 201) << session.body;
  ASSERT_EQ(std::string(session.json["mode"].GetString()), "multipart");
  const std::string id = session.json["upload_id"].GetString();
  const std::string url = session.json["part_urls"][0].GetString();
  const std::string target = url.substr(url.find('/', 7));
  {
    RawHttpClient client(Port());
    // 9 pieces of 1 MiB: the ninth passes 8 MiB. The server may stop
    // reading (and answer) before the client has sent it all.
    SendChunked(client, "PUT", target, 11, 9, size_t{1} << 20, nullptr);
    const RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 413) << reply.body;
    EXPECT_NE(reply.body.find("exceeds the limit"), std::string::npos) << reply.body;
  }
  const std::set<std::string> left = NewFilesSettled(before);
  EXPECT_TRUE(left.empty()) << "left behind: " << *left.begin();
  // The refused PUT changed nothing: the part can be sent again.
  {
    RawHttpClient client(Port());
    ASSERT_TRUE(SendChunked(client, "PUT", target, 11, 5, size_t{1} << 20, nullptr));
    const RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    EXPECT_EQ(reply.status, 200) << reply.body;
  }
  const std::set<std::string> stored = FilesUnder(Uploads());
  EXPECT_TRUE(stored.contains(Uploads() + "/" + id + ".part1"));
  // The server still serves.
  EXPECT_EQ(Call("GET", "/healthz").status, 200);
}

TEST_F(UploadStreamingTest, ClientGoneMidBodyLeavesNoUpload) {
  const std::set<std::string> before = FilesUnder(Uploads());
  {
    RawHttpClient client(Port());
    ASSERT_TRUE(SendChunked(client, "POST", "/v1/files", 13, 6, size_t{1} << 20, nullptr,
                            /*end=*/false));
    client.Close();  // mid-body
  }
  const std::set<std::string> left = NewFilesSettled(before);
  EXPECT_TRUE(left.empty()) << "left behind: " << *left.begin();
  EXPECT_EQ(Call("GET", "/healthz").status, 200);
  // A Content-Length body cut short the same way.
  {
    RawHttpClient client(Port());
    ASSERT_TRUE(client.Send(
        "POST /v1/files HTTP/1.1\r\nHost: test\r\nContent-Length: 10485760\r\n\r\n"));
    std::string piece(size_t{1} << 20, '\0');
    FillPiece(17, 0, &piece);
    ASSERT_TRUE(client.Send(piece));
    client.Close();
  }
  const std::set<std::string> left_too = NewFilesSettled(before);
  EXPECT_TRUE(left_too.empty()) << "left behind: " << *left_too.begin();
  EXPECT_EQ(Call("GET", "/healthz").status, 200);
}

TEST_F(UploadStreamingTest, MultipartPartsStreamedAreFinalizedAndLoaded) {
  // About 12 MiB of CSV rows: three parts of the 5 MiB minimum.
  std::string csv = "id,name\n";
  int64_t rows = 0, sum = 0;
  while (csv.size() < size_t{12} << 20) {
    ++rows;
    sum += rows;
    csv += std::to_string(rows) + ",name-" + std::to_string(rows) + "\n";
  }
  ApiResponse session =
      Call("POST", "/v1/uploads",
           "{\"content_type\":\"text/csv\",\"declared_size_bytes\":" + std::to_string(csv.size()) +
               ",\"part_size\":5242880}");
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string id = session.json["upload_id"].GetString();
  const std::string token = session.json["finalize_token"].GetString();
  const rapidjson::Value& urls = session.json["part_urls"];
  ASSERT_EQ(urls.Size(), 3u);
  std::string parts_json;
  for (rapidjson::SizeType p = 0; p < urls.Size(); ++p) {
    const std::string url = urls[p].GetString();
    const std::string part = csv.substr(p * (size_t{5} << 20), size_t{5} << 20);
    RawHttpClient client(Port());
    // Chunked, in 64 KiB chunks, as a streaming client sends.
    std::string request = "PUT " + url.substr(url.find('/', 7)) +
                          " HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n";
    ASSERT_TRUE(client.Send(request));
    for (size_t at = 0; at < part.size(); at += 65536) {
      const std::string chunk = part.substr(at, 65536);
      char size_line[32];
      const int n = std::snprintf(size_line, sizeof size_line, "%zx\r\n", chunk.size());
      ASSERT_TRUE(client.Send(std::string(size_line, static_cast<size_t>(n)) + chunk + "\r\n"));
    }
    ASSERT_TRUE(client.Send("0\r\n\r\n"));
    const RawReply reply = client.Read();
    ASSERT_TRUE(reply.ok);
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.Header("etag"), "\"" + HexEncode(Sha256(part)).substr(0, 32) + "\"");
    parts_json += std::string(p ? "," : "") + "{\"part_number\":" + std::to_string(p + 1) +
                  ",\"e_tag\":" + reply.Header("etag") + "}";
  }
  RawHttpClient client(Port());
  const RawReply done = client.Call("POST", "/v1/uploads/" + id + "/finalize",
                                    "Content-Type: application/json\r\nX-Upload-Finalize-Token: " +
                                        token + "\r\n",
                                    "{\"parts\":[" + parts_json + "]}");
  ASSERT_TRUE(done.ok);
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(ParseJson(done.body)["size_bytes"].GetInt64(), static_cast<int64_t>(csv.size()));
  EXPECT_EQ(HexSha256OfFile(Uploads() + "/" + id), HexEncode(Sha256(csv)));

  ApiResponse db = Call("POST", "/v1/databases", "{}");
  ASSERT_EQ(db.status, 201) << db.body;
  const std::string db_id = db.json["id"].GetString();
  ApiResponse loaded =
      Call("POST", "/v1/connections/" + db_id + "/schemas/main/tables/big/loads",
           "{\"mode\":\"replace\",\"format\":\"csv\",\"upload_id\":\"" + id + "\"}");
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  EXPECT_EQ(loaded.json["row_count"].GetInt64(), rows);
  ApiResponse total =
      Call("POST", "/v1/query",
           "{\"sql\":\"SELECT count(*), sum(id) FROM \\\"default\\\".main.big\","
           "\"database_id\":\"" + db_id + "\"}");
  ASSERT_EQ(total.status, 200) << total.body;
  EXPECT_EQ(total.json["rows"][0][0].GetInt64(), rows);
  const rapidjson::Value& summed = total.json["rows"][0][1];
  const std::string summed_text = summed.IsString() ? summed.GetString()
                                  : summed.IsInt64() ? std::to_string(summed.GetInt64())
                                                     : "not a number";
  EXPECT_EQ(summed_text, std::to_string(sum)) << total.body;
}

// Row `i` (from 1) of the streamed load's CSV: id, a name (every seventh
// quoted, holding a comma, a doubled quote and a line break), a score, a
// day; names carry multi-byte UTF-8, so characters, quoted fields and
// records fall across every boundary a reader may cut the bytes at.
void AppendLoadRow(int64_t i, std::string* out) {
  static const char* const kDays[] = {"2024-01-01", "2024-02-29", "2024-07-14", "2025-12-31"};
  *out += std::to_string(i);
  if (i % 7 == 0) {
    *out += ",\"quoted, \"\"é\"\"\nline ";
    *out += std::to_string(i);
    *out += '"';
  } else {
    *out += ",naïve-€-";
    *out += std::to_string(i);
  }
  *out += ',';
  *out += std::to_string(i % 1000);
  *out += ".25,";
  *out += kDays[i % 4];
  *out += '\n';
}

// Resets the process's peak RSS (VmHWM) to its current RSS; false when
// the kernel does not allow it.
bool ResetPeak(int pid) {
  std::ofstream clear("/proc/" + std::to_string(pid) + "/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

// What UploadCsv sent.
struct SentCsv {
  std::string upload_id;  // empty when the upload failed
  uint64_t bytes = 0;
  int64_t rows = 0;
  int64_t quoted = 0;
};

// Uploads (POST /v1/files, chunked) a CSV of AppendLoadRow rows made up as
// they are sent, a MiB at a time, until at least `min_bytes` are out, then
// `last_line` when not empty.
void UploadCsv(int port, uint64_t min_bytes, const std::string& last_line, SentCsv* sent) {
  RawHttpClient upload(port, /*timeout_s=*/300);
  ASSERT_TRUE(upload.connected());
  ASSERT_TRUE(
      upload.Send("POST /v1/files HTTP/1.1\r\nHost: test\r\nContent-Type: text/csv\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n"));
  std::string piece = "id,name,score,day\n";
  char size_line[32];
  bool last = false;
  while (!last) {
    while (sent->bytes + piece.size() < min_bytes && piece.size() < (size_t{1} << 20)) {
      ++sent->rows;
      if (sent->rows % 7 == 0) ++sent->quoted;
      AppendLoadRow(sent->rows, &piece);
    }
    if (sent->bytes + piece.size() >= min_bytes) {
      last = true;
      if (!last_line.empty()) piece += last_line + "\n";
    }
    const int n = std::snprintf(size_line, sizeof size_line, "%zx\r\n", piece.size());
    ASSERT_TRUE(upload.Send(std::string_view(size_line, static_cast<size_t>(n))) &&
                upload.Send(piece) && upload.Send("\r\n"));
    sent->bytes += piece.size();
    piece.clear();
  }
  ASSERT_TRUE(upload.Send("0\r\n\r\n"));
  const RawReply uploaded = upload.Read();
  ASSERT_TRUE(uploaded.ok);
  ASSERT_EQ(uploaded.status, 201) << uploaded.body;
  sent->upload_id = ParseJson(uploaded.body)["id"].GetString();
}

TEST_F(UploadStreamingTest, LargeCsvLoadStreamsWithBoundedMemory) {
  SentCsv csv;
  UploadCsv(Port(), kLoadCsvBytes, "", &csv);
  ASSERT_FALSE(csv.upload_id.empty());
  const std::string& upload_id = csv.upload_id;
  const uint64_t sent = csv.bytes;
  const int64_t rows = csv.rows, quoted = csv.quoted;

  ApiResponse db = Call("POST", "/v1/databases", "{}");
  ASSERT_EQ(db.status, 201) << db.body;
  const std::string db_id = db.json["id"].GetString();

  std::set<std::string> big_files_before;  // another test's table of that name
  for (const std::string& f : FilesUnder(*dir_)) {
    if (f.find("/data/main/big/") != std::string::npos) big_files_before.insert(f);
  }
  const int pid = server_->pid();
  const bool reset = ResetPeak(pid);
  const int64_t rss_before = MemoryOf(pid, "VmRSS");
  const int64_t peak_before = MemoryOf(pid, "VmHWM");
  ASSERT_GT(rss_before, 0);
  RawHttpClient client(Port(), /*timeout_s=*/900);
  const auto start = std::chrono::steady_clock::now();
  const RawReply loaded =
      client.Call("POST", "/v1/connections/" + db_id + "/schemas/main/tables/big/loads",
                  "Content-Type: application/json\r\n",
                  "{\"mode\":\"replace\",\"upload_id\":\"" + upload_id + "\"}");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t peak_after = MemoryOf(pid, "VmHWM");
  ASSERT_TRUE(loaded.ok);
  ASSERT_EQ(loaded.status, 200) << loaded.body;
  EXPECT_EQ(ParseJson(loaded.body)["row_count"].GetInt64(), rows);

  const double mib = 1024.0 * 1024.0;
  std::cout << "streamed CSV load of " << static_cast<double>(sent) / mib << " MiB (" << rows
            << " rows): " << seconds << " s (" << static_cast<double>(sent) / mib / seconds
            << " MiB/s); server RSS before " << static_cast<double>(rss_before) / mib
            << " MiB, peak before " << static_cast<double>(peak_before) / mib
            << " MiB (reset: " << (reset ? "yes" : "no") << "), peak after "
            << static_cast<double>(peak_after) / mib << " MiB (growth over RSS before: "
            << static_cast<double>(peak_after - rss_before) / mib << " MiB)\n";
  RecordProperty("load_peak_rss_growth_bytes", std::to_string(peak_after - rss_before));
  EXPECT_LT(peak_after - rss_before, static_cast<int64_t>(kLoadPeakBound))
      << "the server's peak RSS grew by more than 128 MiB loading a 400 MiB CSV";

  // Several data files (closed at 8 MiB), every row in one snapshot.
  int data_files = 0;
  for (const std::string& f : FilesUnder(*dir_)) {
    if (f.ends_with(".parquet") && f.find("/data/main/big/") != std::string::npos &&
        !big_files_before.contains(f)) {
      ++data_files;
    }
  }
  std::cout << "  written as " << data_files << " data files\n";
  EXPECT_GT(data_files, 1);
  ApiResponse totals =
      Call("POST", "/v1/query",
           "{\"sql\":\"SELECT count(*), sum(id), sum(CASE WHEN name LIKE 'quoted, %' THEN 1 "
           "ELSE 0 END), min(day), max(score) FROM \\\"default\\\".main.big\","
           "\"database_id\":\"" +
               db_id + "\"}");
  ASSERT_EQ(totals.status, 200) << totals.body;
  const rapidjson::Value& row = totals.json["rows"][0];
  EXPECT_EQ(row[0].GetInt64(), rows);
  auto number_text = [](const rapidjson::Value& v) {
    return v.IsString()  ? std::string(v.GetString())
           : v.IsInt64() ? std::to_string(v.GetInt64())
                         : std::string("not a number");
  };
  EXPECT_EQ(number_text(row[1]), std::to_string(rows * (rows + 1) / 2)) << totals.body;
  EXPECT_EQ(number_text(row[2]), std::to_string(quoted)) << totals.body;
  EXPECT_EQ(std::string(row[3].GetString()), "2024-01-01") << totals.body;
  EXPECT_DOUBLE_EQ(row[4].GetDouble(), 999.25) << totals.body;

  // The table read back as a query result (Parquet in the result store)
  // and loaded from its result_id: read row group by row group by ranged
  // reads, with the same bound.
  ApiResponse everything = Call(
      "POST", "/v1/query",
      "{\"sql\":\"SELECT * FROM \\\"default\\\".main.big\",\"database_id\":\"" + db_id + "\"}");
  ASSERT_EQ(everything.status, 200) << everything.body.substr(0, 300);
  ASSERT_TRUE(everything.json.HasMember("result_id")) << everything.body.substr(0, 300);
  const std::string result_id = everything.json["result_id"].GetString();
  ResetPeak(pid);
  const int64_t rss_before_copy = MemoryOf(pid, "VmRSS");
  RawHttpClient copier(Port(), /*timeout_s=*/900);
  const auto copy_start = std::chrono::steady_clock::now();
  const RawReply copied =
      copier.Call("POST", "/v1/connections/" + db_id + "/schemas/main/tables/copy/loads",
                  "Content-Type: application/json\r\n",
                  "{\"mode\":\"replace\",\"result_id\":\"" + result_id + "\"}");
  const double copy_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - copy_start).count();
  const int64_t peak_after_copy = MemoryOf(pid, "VmHWM");
  ASSERT_TRUE(copied.ok);
  ASSERT_EQ(copied.status, 200) << copied.body;
  EXPECT_EQ(ParseJson(copied.body)["row_count"].GetInt64(), rows);
  std::cout << "result_id load of the same rows (Parquet): " << copy_seconds
            << " s; server RSS before " << static_cast<double>(rss_before_copy) / mib
            << " MiB, peak after " << static_cast<double>(peak_after_copy) / mib
            << " MiB (growth: " << static_cast<double>(peak_after_copy - rss_before_copy) / mib
            << " MiB)\n";
  EXPECT_LT(peak_after_copy - rss_before_copy, static_cast<int64_t>(kLoadPeakBound))
      << "the server's peak RSS grew by more than 128 MiB loading a result of 9M rows";
}

TEST_F(UploadStreamingTest, ALargeLoadFailingAtItsLastRowLeavesNoTableAndNoFiles) {
  // 160 MiB of good rows (several data files closed along the way), then
  // one whose id is not a number.
  SentCsv csv;
  UploadCsv(Port(), uint64_t{160} << 20, "x,bad,1.5,2024-01-01", &csv);
  ASSERT_FALSE(csv.upload_id.empty());
  ApiResponse db = Call("POST", "/v1/databases", "{}");
  ASSERT_EQ(db.status, 201) << db.body;
  const std::string db_id = db.json["id"].GetString();
  RawHttpClient client(Port(), /*timeout_s=*/900);
  const RawReply refused =
      client.Call("POST", "/v1/connections/" + db_id + "/schemas/main/tables/broken/loads",
                  "Content-Type: application/json\r\n",
                  "{\"mode\":\"replace\",\"upload_id\":\"" + csv.upload_id + "\"}");
  ASSERT_TRUE(refused.ok);
  EXPECT_EQ(refused.status, 400) << refused.body;
  // Its line: after the header, every row and the line break inside each
  // quoted name.
  EXPECT_NE(refused.body.find("line " + std::to_string(csv.rows + csv.quoted + 2) + ","),
            std::string::npos)
      << refused.body;
  for (const std::string& f : FilesUnder(*dir_)) {
    EXPECT_EQ(f.find("/data/main/broken/"), std::string::npos) << "left behind: " << f;
  }
  ApiResponse listed =
      Call("GET", "/v1/information_schema?connection_id=" + db_id + "&table=broken");
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json["count"].GetInt64(), 0) << listed.body;
}

// A server admitting one upload body at a time.
class UploadAdmissionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    StartSuiteServer("hoglake-upload-admission", {{"HOGLAKE_MAX_CONCURRENT_UPLOADS", "1"}}, &dir_,
                     &server_);
  }
  static void TearDownTestSuite() { StopSuiteServer(&dir_, &server_); }
  static std::string* dir_;
  static ServerProcess* server_;
};

std::string* UploadAdmissionTest::dir_ = nullptr;
ServerProcess* UploadAdmissionTest::server_ = nullptr;

TEST_F(UploadAdmissionTest, UploadsBeyondTheCapAre429UntilOneEnds) {
  const int port = PortOf(server_->base_url());
  // An upload that holds the one slot: its head and a first piece sent,
  // the rest withheld.
  auto hold = [&] {
    auto client = std::make_unique<RawHttpClient>(port, /*timeout_s=*/60);
    EXPECT_TRUE(SendChunked(*client, "POST", "/v1/files", 21, 1, size_t{64} << 10, nullptr,
                            /*end=*/false));
    return client;
  };
  std::unique_ptr<RawHttpClient> holder = hold();
  // Another upload is refused once the holder's handler has taken the slot
  // (until then it may still get through, finishing at once — or take the
  // slot first, and then the holder is the one refused: it starts over).
  RawReply refused;
  for (int attempt = 0; attempt < 400 && refused.status != 429; ++attempt) {
    if (holder->ReplyWaiting()) {
      const RawReply holder_refused = holder->Read();
      ASSERT_EQ(holder_refused.status, 429) << holder_refused.body;
      holder = hold();
    }
    RawHttpClient other(port);
    refused = other.Call("POST", "/v1/files", "Content-Type: text/csv\r\n", "a\n1\n");
    ASSERT_TRUE(refused.ok);
    if (refused.status != 429) {
      ASSERT_EQ(refused.status, 201) << refused.body;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  ASSERT_EQ(refused.status, 429) << refused.body;
  EXPECT_EQ(refused.Header("retry-after"), "1");
  rapidjson::Document error = ParseJson(refused.body);
  ASSERT_TRUE(error.IsObject()) << refused.body;
  EXPECT_EQ(std::string(error["error"]["code"].GetString()), "OVERLOADED") << refused.body;
  EXPECT_NE(refused.body.find("HOGLAKE_MAX_CONCURRENT_UPLOADS"), std::string::npos);
  // A presigned PUT is an upload body too.
  ApiResponse session = CallServer(server_->base_url(), "POST", "/v1/uploads",
                                   R"({"content_type":"text/csv","declared_size_bytes":4})");
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string url = session.json["url"].GetString();
  RawHttpClient put(port);
  const RawReply put_refused = put.Call("PUT", url.substr(url.find('/', 7)), "", "a\n1\n");
  ASSERT_TRUE(put_refused.ok);
  EXPECT_EQ(put_refused.status, 429) << put_refused.body;
  // Other requests are served meanwhile (the cap is not the handler pool).
  EXPECT_EQ(CallServer(server_->base_url(), "GET", "/v1/connections").status, 200);

  // The holder finishes: its upload is stored, and the slot is free again.
  ASSERT_TRUE(holder->Send("0\r\n\r\n"));
  const RawReply held = holder->Read();
  ASSERT_TRUE(held.ok);
  EXPECT_EQ(held.status, 201) << held.body;
  RawHttpClient again(port);
  const RawReply put_again = again.Call("PUT", url.substr(url.find('/', 7)), "", "a\n1\n");
  ASSERT_TRUE(put_again.ok);
  EXPECT_EQ(put_again.status, 200) << put_again.body;
}

}  // namespace
}  // namespace hoglake::testing
