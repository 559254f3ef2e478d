// S3Store against real HTTP servers on loopback: s3rver (npm, started here
// through start_s3rver.mjs) for the S3 semantics, and a tiny scripted server
// for retries on 5xx.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/encoding.h"
#include "common/md5.h"
#include "s3rver_process.h"
#include "storage/object_store.h"
#include "storage/s3_store.h"

namespace hoglake {
namespace {

using testing::kS3rverBucket;
using testing::LoopbackConfig;
using testing::S3rverProcess;
constexpr const char* kBucket = kS3rverBucket;

class S3StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(S3rverProcess::Get().startup_error(), "");
    config_ = LoopbackConfig(S3rverProcess::Get().port());
    // Each test writes under its own prefix.
    prefix_ = std::string("s3://") + kBucket + "/" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    store_ = Open(std::string("s3://") + kBucket);
  }

  std::unique_ptr<ObjectStore> Open(const std::string& root) {
    auto store = OpenObjectStore(root, config_);
    EXPECT_TRUE(store.ok()) << store.error().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }
  std::string Path(std::string_view key) const { return prefix_ + "/" + std::string(key); }

  S3Config config_;
  std::string prefix_;
  std::unique_ptr<ObjectStore> store_;
};

TEST_F(S3StoreTest, PutGetHeadDeleteRoundTrip) {
  std::string bytes("PAR1\0\x01\xff binary", 15);
  ASSERT_TRUE(store_->Put(Path("data/ns/t/a.parquet"), bytes).ok());
  auto got = store_->Get(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(got.ok()) << got.error().ToString();
  EXPECT_EQ(*got, bytes);
  auto size = store_->Head(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(size.ok()) << size.error().ToString();
  EXPECT_EQ(*size, bytes.size());

  ASSERT_TRUE(store_->Put(Path("data/ns/t/a.parquet"), "v2").ok());  // replaces
  EXPECT_EQ(*store_->Get(Path("data/ns/t/a.parquet")), "v2");
  ASSERT_TRUE(store_->Put(Path("empty"), "").ok());
  EXPECT_EQ(*store_->Head(Path("empty")), 0u);
  EXPECT_EQ(*store_->Get(Path("empty")), "");

  auto deleted = store_->Delete(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(deleted.ok()) << deleted.error().ToString();
  EXPECT_TRUE(*deleted);
  auto again = store_->Delete(Path("data/ns/t/a.parquet"));
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_FALSE(*again);

  auto head = store_->Head(Path("data/ns/t/a.parquet"));
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.error().code, ErrorCode::kNotFound);
  auto get = store_->Get(Path("data/ns/t/a.parquet"));
  ASSERT_FALSE(get.ok());
  EXPECT_EQ(get.error().code, ErrorCode::kNotFound);
  EXPECT_NE(get.error().message.find("NoSuchKey"), std::string::npos) << get.error().message;
  EXPECT_NE(get.error().message.find(Path("data/ns/t/a.parquet")), std::string::npos);
}

TEST_F(S3StoreTest, RangesClampAtTheEnd) {
  ASSERT_TRUE(store_->Put(Path("r"), "0123456789").ok());
  EXPECT_EQ(*store_->GetRange(Path("r"), 0, 4), "0123");
  EXPECT_EQ(*store_->GetRange(Path("r"), 6, 100), "6789");
  EXPECT_EQ(*store_->GetRange(Path("r"), 9, 1), "9");
  auto at_end = store_->GetRange(Path("r"), 10, 5);
  ASSERT_TRUE(at_end.ok()) << at_end.error().ToString();
  EXPECT_EQ(*at_end, "");
  EXPECT_EQ(*store_->GetRange(Path("r"), 2, 0), "");
  auto past = store_->GetRange(Path("r"), 11, 1);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(store_->GetRange(Path("missing"), 0, 1).error().code, ErrorCode::kNotFound);
}

TEST_F(S3StoreTest, ListPaginatesAndDecodesKeys) {
  config_.list_page_size = 7;
  store_ = Open(std::string("s3://") + kBucket);
  std::vector<std::string> expected;
  for (int i = 0; i < 23; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "many/f%03d", i);
    expected.push_back(Path(name));
    ASSERT_TRUE(store_->Put(expected.back(), std::string(i, 'x')).ok());
  }
  const std::string odd = Path("many/g odd & <key> \"'é'+=.bin");
  ASSERT_TRUE(store_->Put(odd, "odd").ok());
  expected.push_back(odd);
  ASSERT_TRUE(store_->Put(Path("manyother/z"), "z").ok());

  auto listed = store_->List(Path("many/"));
  ASSERT_TRUE(listed.ok()) << listed.error().ToString();
  ASSERT_EQ(listed->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*listed)[i].path, expected[i]);
    if (i < 23) {
      EXPECT_EQ((*listed)[i].size, i);
    }
  }
  EXPECT_EQ(*store_->Get(odd), "odd");
  auto with_other = store_->List(Path("many"));
  ASSERT_TRUE(with_other.ok());
  EXPECT_EQ(with_other->size(), expected.size() + 1);
  EXPECT_TRUE(store_->List(Path("nothing/")).value().empty());
}

TEST_F(S3StoreTest, PrefixRootServesOnlyItsKeys) {
  ASSERT_TRUE(store_->Put(Path("lake/a"), "a").ok());
  ASSERT_TRUE(store_->Put(Path("lake2/b"), "b").ok());
  auto lake = Open(Path("lake"));
  ASSERT_NE(lake, nullptr);
  EXPECT_EQ(lake->root(), Path("lake"));
  auto listed = lake->List(Path("lake"));
  ASSERT_TRUE(listed.ok()) << listed.error().ToString();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, Path("lake/a"));
  auto outside = lake->Get(Path("lake2/b"));
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(lake->Put(Path("lake/../lake2/c"), "x").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(lake->List(Path("lake2")).error().code, ErrorCode::kInvalidArgument);
}

TEST_F(S3StoreTest, MultipartUploadOfALargeObject) {
  const std::string path = Path("big/object.bin");
  auto writer = store_->OpenWriter(path);
  ASSERT_TRUE(writer.ok());
  std::string expected;
  for (int i = 0; i < 11; ++i) {  // 11 MiB + a tail → 3 parts of ≥ 5 MiB
    std::string chunk(1 << 20, static_cast<char>('a' + i));
    chunk[i] = '\0';
    ASSERT_TRUE((*writer)->Append(chunk).ok());
    expected += chunk;
  }
  ASSERT_TRUE((*writer)->Append("tail").ok());
  expected += "tail";
  EXPECT_EQ(store_->Head(path).error().code, ErrorCode::kNotFound);  // not visible yet
  Status commit = (*writer)->Commit();
  ASSERT_TRUE(commit.ok()) << commit.ToString();
  EXPECT_EQ(*store_->Head(path), expected.size());
  auto got = store_->Get(path);
  ASSERT_TRUE(got.ok()) << got.error().ToString();
  EXPECT_TRUE(*got == expected);
  EXPECT_EQ(*store_->GetRange(path, (5 << 20) - 2, 4), expected.substr((5 << 20) - 2, 4));

  // Put of a large buffer goes the same way.
  ASSERT_TRUE(store_->Put(Path("big/put.bin"), expected).ok());
  EXPECT_EQ(*store_->Head(Path("big/put.bin")), expected.size());
}

TEST_F(S3StoreTest, AbortedMultipartUploadLeavesNothing) {
  const std::string path = Path("aborted.bin");
  {
    auto writer = store_->OpenWriter(path);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append(std::string(6 << 20, 'z')).ok());  // one part uploaded
    // s3rver 3.7 lacks AbortMultipartUpload (405); real S3 answers 204.
    Status abort = (*writer)->Abort();
    if (!abort.ok()) {
      EXPECT_NE(abort.error().message.find("AbortMultipartUpload " + path), std::string::npos);
      EXPECT_NE(abort.error().message.find("MethodNotAllowed"), std::string::npos);
    }
  }
  {
    auto writer = store_->OpenWriter(path);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append(std::string(6 << 20, 'y')).ok());
  }  // destroyed without Commit
  EXPECT_EQ(store_->Head(path).error().code, ErrorCode::kNotFound);
  EXPECT_TRUE(store_->List(prefix_).value().empty());
}

TEST_F(S3StoreTest, MissingBucketIsAClearError) {
  auto store = Open("s3://no-such-bucket");
  ASSERT_NE(store, nullptr);
  Status put = store->Put("s3://no-such-bucket/k", "x");
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.error().code, ErrorCode::kNotFound);
  EXPECT_NE(put.error().message.find("s3://no-such-bucket/k"), std::string::npos);
  EXPECT_NE(put.error().message.find("NoSuchBucket"), std::string::npos) << put.error().message;
  auto list = store->List("s3://no-such-bucket");
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.error().message.find("NoSuchBucket"), std::string::npos) << list.error().message;
  auto deleted = store->Delete("s3://no-such-bucket/k");
  ASSERT_FALSE(deleted.ok());
  EXPECT_NE(deleted.error().message.find("NoSuchBucket"), std::string::npos);
}

TEST_F(S3StoreTest, DeleteManyRemovesEveryKeyInChunks) {
  // More keys than one DeleteObjects request takes, some never written
  // (S3 does not tell those apart: they read as deleted too), and keys that
  // need escaping in the request's XML.
  std::vector<std::string> paths;
  const size_t n = ObjectStore::kDeleteManyChunk + 40;
  for (size_t i = 0; i < n; ++i) {
    paths.push_back(Path("bulk/f" + std::to_string(i)));
    if (i % 10 != 0) {
      ASSERT_TRUE(store_->Put(paths.back(), "x").ok());
    }
  }
  for (std::string key : {"bulk/a&b <c> 'd' \"e\".parquet", "bulk/caf\xc3\xa9 \xe2\x82\xac"}) {
    paths.push_back(Path(key));
    ASSERT_TRUE(store_->Put(paths.back(), "x").ok());
  }
  paths.push_back(paths[1]);                 // the same key twice
  paths.push_back(Path("bulk/../escape"));   // refused, alone
  paths.push_back("s3://other-bucket/key");  // outside the root, alone
  ASSERT_TRUE(store_->Put(Path("survivor"), "x").ok());

  std::vector<Result<bool>> outcomes = store_->DeleteMany(paths);
  ASSERT_EQ(outcomes.size(), paths.size());
  for (size_t i = 0; i < n + 3; ++i) {
    ASSERT_TRUE(outcomes[i].ok()) << paths[i] << ": " << outcomes[i].error().ToString();
    EXPECT_TRUE(*outcomes[i]) << paths[i];
  }
  ASSERT_FALSE(outcomes[n + 3].ok());
  EXPECT_EQ(outcomes[n + 3].error().code, ErrorCode::kInvalidArgument);
  ASSERT_FALSE(outcomes[n + 4].ok());
  EXPECT_EQ(outcomes[n + 4].error().code, ErrorCode::kInvalidArgument);
  auto left = store_->List(Path("bulk/"));
  ASSERT_TRUE(left.ok()) << left.error().ToString();
  EXPECT_TRUE(left->empty()) << left->size() << " objects left, first " << left->front().path;
  EXPECT_TRUE(store_->Head(Path("survivor")).ok());
  EXPECT_TRUE(store_->DeleteMany({}).empty());
}

TEST_F(S3StoreTest, DeleteManyOnAMissingBucketFailsEveryKey) {
  auto store = Open("s3://no-such-bucket");
  ASSERT_NE(store, nullptr);
  std::vector<Result<bool>> outcomes =
      store->DeleteMany({"s3://no-such-bucket/a", "s3://no-such-bucket/b"});
  ASSERT_EQ(outcomes.size(), 2u);
  for (const Result<bool>& outcome : outcomes) {
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error().code, ErrorCode::kNotFound);
    EXPECT_NE(outcome.error().message.find("NoSuchBucket"), std::string::npos)
        << outcome.error().message;
    EXPECT_NE(outcome.error().message.find("DeleteObjects"), std::string::npos);
  }
}

// A port with nothing listening on it.
int ClosedPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

TEST(S3RetryTest, UnreachableEndpointFailsAfterBoundedRetries) {
  S3Config config = LoopbackConfig(ClosedPort());
  config.max_attempts = 3;
  auto store = OpenObjectStore("s3://bkt", config);
  ASSERT_TRUE(store.ok());
  auto got = (*store)->Get("s3://bkt/some/key");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(got.error().message.find("s3://bkt/some/key"), std::string::npos);
  EXPECT_NE(got.error().message.find("after 3 attempts"), std::string::npos) << got.error().message;
  // Not idempotent, but never sent: retried as well.
  auto writer = (*store)->OpenWriter("s3://bkt/big");
  ASSERT_TRUE(writer.ok());
  Status append = (*writer)->Append(std::string(5 << 20, 'x'));
  ASSERT_FALSE(append.ok());
  EXPECT_NE(append.error().message.find("CreateMultipartUpload"), std::string::npos);
  EXPECT_NE(append.error().message.find("after 3 attempts"), std::string::npos);
}

// Answers each connection with the next scripted response, then closes it.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<std::string> responses) : responses_(std::move(responses)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    listen(fd_, 16);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  int connections() const { return connections_; }
  // Every request received, raw (request line, headers, body).
  std::vector<std::string> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

  static std::string Response(int status, std::string_view body) {
    return "HTTP/1.1 " + std::to_string(status) +
           " X\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + std::string(body);
  }

 private:
  void Serve() {
    for (const std::string& response : responses_) {
      int client = accept(fd_, nullptr, nullptr);
      if (client < 0) return;
      ++connections_;
      std::string request;
      char buffer[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = read(client, buffer, sizeof(buffer));
        if (n <= 0) break;
        request.append(buffer, n);
      }
      // The body too, when the request says how long it is.
      const size_t head_end = request.find("\r\n\r\n");
      const size_t length_at = Lowercase(request.substr(0, head_end)).find("content-length: ");
      if (head_end != std::string::npos && length_at != std::string::npos) {
        const size_t total = head_end + 4 + std::stoul(request.substr(length_at + 16));
        while (request.size() < total) {
          ssize_t n = read(client, buffer, sizeof(buffer));
          if (n <= 0) break;
          request.append(buffer, n);
        }
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(request);
      }
      (void)!write(client, response.data(), response.size());
      close(client);
    }
  }

  static std::string Lowercase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  }

  std::vector<std::string> responses_;
  std::mutex mu_;
  std::vector<std::string> requests_;
  int fd_;
  int port_;
  std::atomic<int> connections_{0};
  std::thread thread_;
};

TEST(S3RetryTest, ServerErrorsAreRetriedWithBackoff) {
  const std::string slow_down =
      "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
  ScriptedServer server({ScriptedServer::Response(503, slow_down),
                         ScriptedServer::Response(500, "<Error><Code>InternalError</Code></Error>"),
                         ScriptedServer::Response(200, "payload")});
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  auto got = (*store)->Get("s3://bkt/k");
  ASSERT_TRUE(got.ok()) << got.error().ToString();
  EXPECT_EQ(*got, "payload");
  EXPECT_EQ(server.connections(), 3);
}

TEST(S3RetryTest, PersistentServerErrorsNameTheS3Code) {
  const std::string slow_down =
      "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
  ScriptedServer server(std::vector<std::string>(4, ScriptedServer::Response(503, slow_down)));
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  auto got = (*store)->Get("s3://bkt/k");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(got.error().message,
            "S3 GetObject s3://bkt/k failed: HTTP 503 SlowDown: Please reduce your request "
            "rate. (after 4 attempts)");
  EXPECT_EQ(server.connections(), 4);
}

TEST(S3RetryTest, ClientErrorsAreNotRetried) {
  ScriptedServer server(
      {ScriptedServer::Response(
           403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"),
       ScriptedServer::Response(200, "should not be reached")});
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  auto got = (*store)->Get("s3://bkt/k");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kIoError);
  EXPECT_NE(got.error().message.find("HTTP 403 AccessDenied: Access Denied"), std::string::npos);
  EXPECT_EQ(server.connections(), 1);
  // Unblock the server's second accept so it can finish.
  auto unblock = (*store)->Get("s3://bkt/k");
  EXPECT_TRUE(unblock.ok());
}

TEST(S3DeleteObjectsTest, PerKeyErrorsFailOnlyTheirKey) {
  // One key deleted, one refused by name, one the response forgets.
  ScriptedServer server({ScriptedServer::Response(
      200,
      "<?xml version=\"1.0\"?><DeleteResult><Deleted><Key>a&amp;1</Key></Deleted>"
      "<Error><Key>b</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
      "</DeleteResult>")});
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  std::vector<Result<bool>> outcomes =
      (*store)->DeleteMany({"s3://bkt/a&1", "s3://bkt/b", "s3://bkt/c"});
  ASSERT_EQ(outcomes.size(), 3u);
  ASSERT_TRUE(outcomes[0].ok()) << outcomes[0].error().ToString();
  EXPECT_TRUE(*outcomes[0]);
  ASSERT_FALSE(outcomes[1].ok());
  EXPECT_EQ(outcomes[1].error().message,
            "S3 DeleteObjects s3://bkt/b failed: AccessDenied: Access Denied");
  ASSERT_FALSE(outcomes[2].ok());
  EXPECT_NE(outcomes[2].error().message.find("s3://bkt/c"), std::string::npos);
  EXPECT_NE(outcomes[2].error().message.find("neither lists the key"), std::string::npos);

  // One signed POST ?delete carrying the keys, escaped, and the body's MD5.
  std::vector<std::string> requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const std::string& request = requests[0];
  EXPECT_EQ(request.substr(0, request.find(' ', 5)), "POST /bkt?delete=") << request;
  const std::string body = request.substr(request.find("\r\n\r\n") + 4);
  EXPECT_NE(body.find("<Object><Key>a&amp;1</Key></Object><Object><Key>b</Key></Object>"
                      "<Object><Key>c</Key></Object>"),
            std::string::npos)
      << body;
  EXPECT_NE(request.find("Content-MD5: " + Base64Encode(Md5(body)) + "\r\n"), std::string::npos)
      << request;
  EXPECT_NE(request.find("Authorization: AWS4-HMAC-SHA256"), std::string::npos);
}

TEST(S3DeleteObjectsTest, IsRetriedOnServerErrors) {
  // Deleting twice is harmless, so a 5xx is retried like a GET.
  ScriptedServer server({ScriptedServer::Response(503, "<Error><Code>SlowDown</Code></Error>"),
                         ScriptedServer::Response(
                             200, "<DeleteResult><Deleted><Key>x</Key></Deleted></DeleteResult>")});
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  std::vector<Result<bool>> outcomes = (*store)->DeleteMany({"s3://bkt/x"});
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_TRUE(outcomes[0].ok()) << outcomes[0].error().ToString();
  EXPECT_TRUE(*outcomes[0]);
  EXPECT_EQ(server.connections(), 2);
}

TEST(S3DeleteObjectsTest, AServiceWithoutItGetsDeletesKeyByKey) {
  // NotImplemented, as 501 or as a 400 naming the code (not retried): this
  // key, and every later one, goes by HeadObject + DeleteObject.
  const std::string not_implemented =
      "<Error><Code>NotImplemented</Code><Message>A header or query you provided requested a "
      "function that is not implemented.</Message></Error>";
  for (int status : {400, 501}) {
    SCOPED_TRACE(status);
    ScriptedServer server({ScriptedServer::Response(status, not_implemented),
                           ScriptedServer::Response(200, ""), ScriptedServer::Response(204, ""),
                           ScriptedServer::Response(404, ""), ScriptedServer::Response(204, "")});
    auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
    ASSERT_TRUE(store.ok());
    std::vector<Result<bool>> first = (*store)->DeleteMany({"s3://bkt/x"});
    ASSERT_EQ(first.size(), 1u);
    ASSERT_TRUE(first[0].ok()) << first[0].error().ToString();
    EXPECT_TRUE(*first[0]);
    std::vector<Result<bool>> second = (*store)->DeleteMany({"s3://bkt/y"});
    ASSERT_EQ(second.size(), 1u);
    ASSERT_TRUE(second[0].ok()) << second[0].error().ToString();
    EXPECT_FALSE(*second[0]);  // HEAD said 404: there was nothing to delete
    std::vector<std::string> requests = server.requests();
    ASSERT_EQ(requests.size(), 5u);
    EXPECT_TRUE(requests[0].starts_with("POST /bkt?delete= ")) << requests[0];
    EXPECT_TRUE(requests[1].starts_with("HEAD /bkt/x ")) << requests[1];
    EXPECT_TRUE(requests[2].starts_with("DELETE /bkt/x ")) << requests[2];
    EXPECT_TRUE(requests[3].starts_with("HEAD /bkt/y ")) << requests[3];
    EXPECT_TRUE(requests[4].starts_with("DELETE /bkt/y ")) << requests[4];
  }
}

TEST(S3DeleteObjectsTest, AFailedRequestFailsItsWholeChunk) {
  ScriptedServer server({ScriptedServer::Response(
      400, "<Error><Code>MalformedXML</Code><Message>bad</Message></Error>")});
  auto store = OpenObjectStore("s3://bkt", LoopbackConfig(server.port()));
  ASSERT_TRUE(store.ok());
  std::vector<Result<bool>> outcomes = (*store)->DeleteMany({"s3://bkt/x", "s3://bkt/y"});
  ASSERT_EQ(outcomes.size(), 2u);
  for (const Result<bool>& outcome : outcomes) {
    ASSERT_FALSE(outcome.ok());
    EXPECT_NE(outcome.error().message.find("MalformedXML"), std::string::npos)
        << outcome.error().message;
  }
}

}  // namespace
}  // namespace hoglake
