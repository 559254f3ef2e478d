// A scripted HTTP server for the SDK's unit tests: cpp-httplib on a loopback
// port that records every request (method, raw target, body, headers) and
// answers with the replies queued by the test, in order. With nothing
// queued it answers 599 {"error":"no reply queued"} so a missing script is
// loud. Header-only: tests/CMakeLists.txt builds only *_test.cc files.
#pragma once

#include <httplib.h>

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace hoglake::client::testing {

struct RecordedRequest {
  std::string method;
  std::string target;  // path and query exactly as sent (still percent-encoded)
  std::string body;
  httplib::Headers headers;

  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
  // "GET /v1/catalogs/c1" — method and target.
  std::string line() const { return method + " " + target; }
};

class FakeServer {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
  };

  FakeServer() {
    auto handler = [this](const httplib::Request& req, httplib::Response& res) {
      Reply reply;
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back({req.method, req.target, req.body, req.headers});
        if (replies_.empty()) {
          reply = {599, R"({"error":"no reply queued"})", {}};
        } else {
          reply = std::move(replies_.front());
          replies_.pop_front();
        }
      }
      res.status = reply.status;
      for (const auto& [name, value] : reply.headers) res.set_header(name, value);
      res.set_content(reply.body, "application/json");
    };
    server_.Get(".*", handler);
    server_.Post(".*", handler);
    server_.Put(".*", handler);
    server_.Patch(".*", handler);
    server_.Delete(".*", handler);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ~FakeServer() {
    server_.stop();
    thread_.join();
  }
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  void Queue(int status, std::string body,
             std::vector<std::pair<std::string, std::string>> headers = {}) {
    std::lock_guard<std::mutex> lock(mu_);
    replies_.push_back({status, std::move(body), std::move(headers)});
  }
  std::vector<RecordedRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }
  // The requests' "METHOD target" lines.
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    for (const RecordedRequest& r : requests()) out.push_back(r.line());
    return out;
  }
  RecordedRequest last() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_.empty() ? RecordedRequest{} : requests_.back();
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.clear();
    replies_.clear();
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mu_;
  std::vector<RecordedRequest> requests_;
  std::deque<Reply> replies_;
};

}  // namespace hoglake::client::testing
