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

ServerProcess g_server;
std::string g_data_dir;

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

std::string ApiResponse::error() const {
  if (json.IsObject() && json.HasMember("error") && json["error"].IsString()) {
    return json["error"].GetString();
  }
  return "";
}

void ServerProcess::Start(const std::string& data_dir, const std::vector<std::string>& extra_args,
                          const std::map<std::string, std::string>& env) {
  const char* bin = std::getenv("HOGLAKE_BIN");
  ASSERT_NE(bin, nullptr) << "HOGLAKE_BIN must name the hoglake executable";
  data_dir_ = data_dir;
  const std::string ready = data_dir_ + "/ready";
  const std::string log = data_dir_ + "/server.log";
  std::filesystem::remove(ready);
  // The child's environment, built before fork: ours with `env` laid over it.
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (!env.contains(entry.substr(0, entry.find('=')))) environment.push_back(entry);
  }
  for (const auto& [name, value] : env) environment.push_back(name + "=" + value);
  // The data paths the tests create catalogs under (serve allows only its
  // data root otherwise), unless the test or the caller's environment says.
  if (!env.contains("HOGLAKE_ALLOWED_DATA_PATHS") && std::getenv("HOGLAKE_ALLOWED_DATA_PATHS") == nullptr) {
    environment.push_back(std::string("HOGLAKE_ALLOWED_DATA_PATHS=") + kTestAllowedDataPaths);
  }
  std::vector<char*> envp;
  for (auto& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  pid_ = fork();
  ASSERT_GE(pid_, 0);
  if (pid_ == 0) {
    FILE* out = std::freopen(log.c_str(), "a", stderr);
    (void)out;
    std::vector<std::string> args = {bin,        "serve",       "--data-dir",   data_dir_,
                                     "--listen", "127.0.0.1:0", "--ready-file", ready};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execve(bin, argv.data(), envp.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (!std::filesystem::exists(ready)) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      FAIL() << "hoglake serve exited during start-up:\n" << Log();
    }
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "server not ready:\n" << Log();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  base_url_ = ReadFile(ready);
  while (!base_url_.empty() && base_url_.back() == '\n') base_url_.pop_back();
}

void ServerProcess::Kill9() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void ServerProcess::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "server did not stop cleanly:\n"
                                                             << Log();
}

std::string MakeServerDir(const std::string& stem) {
  std::string pattern = "/tmp/" + stem + "-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
    return "";
  }
  namespace fs = std::filesystem;
  fs::permissions(pattern, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
  return pattern;
}

std::string ServerProcess::Log() const { return ReadFile(data_dir_ + "/server.log"); }

void ServerEnvironment::SetUp() {
  char pattern[] = "/tmp/hoglake-it-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  g_data_dir = pattern;
  // No background expiry/cleanup on the shared server: tests that set a
  // short retention then expire by hand must not race a loop tick. Tests of
  // the loops start servers of their own with fast cadences.
  g_server.Start(
      g_data_dir, {},
      // The hydrator loop is on (its cadence is reported) but never
      // ticks during the run: hydrator tests count their own claims.
      // The secret key seals federated connections' passwords.
      {{"HOGLAKE_EXPIRY_INTERVAL_MS", "0"},
       {"HOGLAKE_HYDRATOR_INTERVAL_MS", "86400000"},
       {"HOGLAKE_SECRET_KEY", "integration-test-secret-key"}});
}

void ServerEnvironment::TearDown() {
  g_server.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(g_data_dir);
}

const std::string& ServerEnvironment::base_url() { return g_server.base_url(); }
const std::string& ServerEnvironment::data_dir() { return g_data_dir; }

ApiResponse ServerEnvironment::Call(const std::string& method, const std::string& path,
                                    const std::string& body, const std::string& content_type) {
  return CallServer(g_server.base_url(), method, path, body, content_type);
}

ApiResponse CallServer(const std::string& base_url, const std::string& method,
                       const std::string& path, const std::string& body,
                       const std::string& content_type) {
  httplib::Client client(base_url);
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
    response.status = -1;  // transport failure (e.g. the server was killed)
    return response;
  }
  response.status = result->status;
  response.body = result->body;
  response.header_retry_after = result->get_header_value("Retry-After");
  for (const auto& [name, value] : result->headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    response.headers[lower] = value;
  }
  if (result->get_header_value("Content-Type").starts_with("application/json")) {
    response.json.Parse(response.body.c_str());
  }
  return response;
}

namespace {

std::string NextCatalogName() {
  static std::atomic<int> counter{0};
  return "t" + std::to_string(++counter);
}

void CreateCatalog(const std::string& name, const std::string& data_path) {
  ApiResponse r = ServerEnvironment::Call(
      "POST", "/v1/catalogs", R"({"name":")" + name + R"(","data_path":")" + data_path + R"("})");
  EXPECT_EQ(r.status, 201) << r.body;
}

// Namespace `ns` and table `table` in lake.catalog; fills lake.uuid.
void CreateTable(TableLake& lake, const std::string& ns, const std::string& table) {
  ApiResponse r =
      ServerEnvironment::Call("POST", lake.catalog + "/namespaces", R"({"name":")" + ns + R"("})");
  EXPECT_EQ(r.status, 201) << r.body;
  r = ServerEnvironment::Call(
      "POST", lake.catalog + "/namespaces/" + ns + "/tables",
      R"({"name":")" + table + R"(","columns":[{"name":"id","type":"long"}]})");
  EXPECT_EQ(r.status, 201) << r.body;
  if (r.status == 201) lake.uuid = r.json["table_uuid"].GetString();
}

}  // namespace

std::string NewCatalog() {
  const std::string name = NextCatalogName();
  CreateCatalog(name, "s3://bucket/" + name);
  return name;
}

TableLake NewTableLake(const std::string& ns, const std::string& table) {
  TableLake lake;
  lake.name = NewCatalog();
  lake.catalog = "/v1/catalogs/" + lake.name;
  lake.data = "s3://bucket/" + lake.name + "/";
  CreateTable(lake, ns, table);
  return lake;
}

TableLake NewLocalTableLake(const std::string& ns, const std::string& table) {
  TableLake lake;
  std::string pattern = "/tmp/hoglake-lake-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed";
    return lake;
  }
  lake.dir = pattern;
  lake.name = NextCatalogName();
  lake.catalog = "/v1/catalogs/" + lake.name;
  lake.data = "file://" + lake.dir + "/";
  CreateCatalog(lake.name, lake.data);
  CreateTable(lake, ns, table);
  return lake;
}

double MetricSample(const std::string& text, const std::string& series) {
  const size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

}  // namespace hoglake::testing

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new hoglake::testing::ServerEnvironment());
  return RUN_ALL_TESTS();
}
