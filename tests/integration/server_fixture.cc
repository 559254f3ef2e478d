#include "server_fixture.h"

#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace hoglake::testing {
namespace {

std::string g_base_url;
std::string g_data_dir;
pid_t g_pid = -1;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

}  // namespace

std::string ApiResponse::error() const {
  if (json.IsObject() && json.HasMember("error") && json["error"].IsString()) {
    return json["error"].GetString();
  }
  return "";
}

void ServerEnvironment::SetUp() {
  const char* bin = std::getenv("HOGLAKE_BIN");
  ASSERT_NE(bin, nullptr) << "HOGLAKE_BIN must name the hoglake executable";
  char pattern[] = "/tmp/hoglake-it-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  g_data_dir = pattern;
  const std::string ready = g_data_dir + "/ready";
  const std::string log = g_data_dir + "/server.log";
  g_pid = fork();
  ASSERT_GE(g_pid, 0);
  if (g_pid == 0) {
    FILE* out = std::freopen(log.c_str(), "w", stderr);
    (void)out;
    execl(bin, bin, "serve", "--data-dir", g_data_dir.c_str(), "--listen", "127.0.0.1:0",
          "--ready-file", ready.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (!std::filesystem::exists(ready)) {
    int status = 0;
    if (waitpid(g_pid, &status, WNOHANG) == g_pid) {
      g_pid = -1;
      FAIL() << "hoglake serve exited during start-up:\n" << ReadFile(log);
    }
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "server not ready:\n" << ReadFile(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  g_base_url = ReadFile(ready);
  while (!g_base_url.empty() && g_base_url.back() == '\n') g_base_url.pop_back();
}

void ServerEnvironment::TearDown() {
  if (g_pid > 0) {
    kill(g_pid, SIGTERM);
    int status = 0;
    waitpid(g_pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "server did not stop cleanly:\n"
        << ReadFile(g_data_dir + "/server.log");
  }
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(g_data_dir);
}

const std::string& ServerEnvironment::base_url() { return g_base_url; }
const std::string& ServerEnvironment::data_dir() { return g_data_dir; }

ApiResponse ServerEnvironment::Call(const std::string& method, const std::string& path,
                                    const std::string& body, const std::string& content_type) {
  httplib::Client client(g_base_url);
  client.set_read_timeout(60, 0);
  auto send = [&]() -> httplib::Result {
    if (method == "GET") return client.Get(path.c_str());
    if (method == "DELETE") return client.Delete(path.c_str());
    if (method == "POST") return client.Post(path.c_str(), body, content_type.c_str());
    if (method == "PUT") return client.Put(path.c_str(), body, content_type.c_str());
    return client.Patch(path.c_str(), body, content_type.c_str());
  };
  httplib::Result result = send();
  ApiResponse response;
  if (!result) {
    ADD_FAILURE() << method << " " << path << ": transport error "
                  << static_cast<int>(result.error());
    return response;
  }
  response.status = result->status;
  response.body = result->body;
  response.header_retry_after = result->get_header_value("Retry-After");
  if (result->get_header_value("Content-Type").starts_with("application/json")) {
    response.json.Parse(response.body.c_str());
  }
  return response;
}

std::string NewCatalog() {
  static std::atomic<int> counter{0};
  const std::string name = "t" + std::to_string(++counter);
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/catalogs",
      R"({"name":")" + name + R"(","data_path":"s3://bucket/)" + name + R"("})");
  EXPECT_EQ(r.status, 201) << r.body;
  return name;
}

}  // namespace hoglake::testing

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new hoglake::testing::ServerEnvironment());
  return RUN_ALL_TESTS();
}
