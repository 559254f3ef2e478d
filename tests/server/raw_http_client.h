// RawHttpClient: one TCP connection to 127.0.0.1 for HTTP server tests,
// writing bytes exactly as given and reading responses framed by
// Content-Length. Every read and write gives up after `timeout_s` seconds,
// so a test against a server that never answers fails instead of hanging.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <map>
#include <string>
#include <string_view>

namespace hoglake::server {

struct RawReply {
  bool ok = false;  // a whole response arrived
  int status = 0;
  std::string status_line;
  std::multimap<std::string, std::string> headers;  // names lowercased
  std::string body;

  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

class RawHttpClient {
 public:
  explicit RawHttpClient(int port, int timeout_s = 10) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    timeval timeout{timeout_s, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawHttpClient() { Close(); }
  RawHttpClient(const RawHttpClient&) = delete;
  RawHttpClient& operator=(const RawHttpClient&) = delete;

  bool connected() const { return connected_; }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  // Whether the server has sent something (a reply, or closed) that Read
  // would return without waiting.
  bool ReplyWaiting() const {
    if (!buffer_.empty()) return true;
    struct pollfd fd {
      fd_, POLLIN, 0
    };
    return poll(&fd, 1, 0) > 0;
  }

  // Writes all of `bytes`; false when the connection refused them.
  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Reads one response; its body is read only when `with_body`.
  RawReply Read(bool with_body = true) {
    RawReply reply;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return reply;
    }
    const std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    size_t line_end = head.find("\r\n");
    reply.status_line = head.substr(0, line_end);
    if (reply.status_line.size() >= 12) reply.status = std::stoi(reply.status_line.substr(9, 3));
    while (line_end != std::string::npos) {
      const size_t next = head.find("\r\n", line_end + 2);
      const std::string line = head.substr(line_end + 2, next - line_end - 2);
      const size_t colon = line.find(':');
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const size_t value = line.find_first_not_of(' ', colon + 1);
      reply.headers.emplace(name, value == std::string::npos ? "" : line.substr(value));
      line_end = next;
    }
    const std::string length = reply.Header("content-length");
    if (with_body && !length.empty()) {
      const size_t size = std::stoul(length);
      while (buffer_.size() < size) {
        if (!Fill()) return reply;
      }
      reply.body = buffer_.substr(0, size);
      buffer_.erase(0, size);
    }
    reply.ok = true;
    return reply;
  }

  // One request with `headers` ("Name: value\r\n" lines) and `body` sent
  // with its Content-Length; then its response.
  RawReply Call(const std::string& method, const std::string& target,
                const std::string& headers = "", const std::string& body = "") {
    const std::string request = method + " " + target + " HTTP/1.1\r\nHost: test\r\n" + headers +
                                (body.empty() && method == "GET"
                                     ? ""
                                     : "Content-Length: " + std::to_string(body.size()) + "\r\n") +
                                "\r\n" + body;
    if (!Send(request)) return RawReply();
    return Read(method != "HEAD");
  }

  // Whether the server closed the connection (EOF or reset) before
  // sending anything more, waiting at most the timeout.
  bool ClosedByPeer() {
    if (!buffer_.empty()) return false;
    char byte;
    const ssize_t n = recv(fd_, &byte, 1, 0);
    if (n > 0) buffer_.push_back(byte);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }

  // Reads exactly `n` raw bytes (false on timeout or close).
  bool ReadExactly(size_t n, std::string* out) {
    while (buffer_.size() < n) {
      if (!Fill()) return false;
    }
    *out = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return true;
  }

  int fd() const { return fd_; }

 private:
  bool Fill() {
    char chunk[1 << 16];
    const ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_;
  bool connected_ = false;
  std::string buffer_;
};

}  // namespace hoglake::server
