// libFuzzer target: arbitrary bytes as what a client sends on one
// connection, fed to HttpRequestParser the way the event loop feeds it —
// in pieces (the first input byte picks the piece size), keeping the
// unconsumed bytes and passing them again with more, parsing pipelined
// requests one after another. Checks the parser's own promises as it goes:
// it never consumes more than it was given, a completed body never exceeds
// the body limit, and the reserve callback never grants past its budget.
// Requests whose target starts with "/s" are streamed (the stream policy,
// with a limit of its own): their pieces go to the sink, never into the
// body or the reserve, and never total past that limit.
// Any crash, sanitizer report, hang or broken promise is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "server/http/http_request_parser.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using hoglake::server::HttpRequestParser;
  if (size == 0) return 0;
  const size_t piece = 1 + data[0] % 64;
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  hoglake::server::HttpParserLimits limits;
  limits.max_header_bytes = 4096;
  limits.max_header_fields = 32;
  limits.max_body_bytes = 8192;
  HttpRequestParser parser(limits);
  uint64_t reserved = 0;
  constexpr uint64_t kBudget = 6000;
  parser.SetReserve([&](uint64_t bytes) {
    if (reserved + bytes > kBudget) return false;
    reserved += bytes;
    return true;
  });
  constexpr uint64_t kStreamLimit = 3000;
  parser.SetStreamPolicy(
      [&](const hoglake::server::HttpRequestHead& head) -> std::optional<uint64_t> {
        if (head.target.rfind("/s", 0) == 0) return kStreamLimit;
        return std::nullopt;
      });
  uint64_t streamed = 0;
  std::string pending;
  size_t offered = 0;
  for (int rounds = 0; rounds < 100000; ++rounds) {
    if (offered < input.size()) {
      const size_t take = std::min(piece, input.size() - offered);
      pending.append(input.substr(offered, take));
      offered += take;
    }
    size_t consumed = 0;
    const HttpRequestParser::Event event = parser.Parse(pending, &consumed);
    Check(consumed <= pending.size());
    pending.erase(0, consumed);
    Check(reserved <= kBudget);
    Check(streamed <= kStreamLimit);
    if (event == HttpRequestParser::Event::kError) break;
    if (event == HttpRequestParser::Event::kHeadComplete && parser.streaming()) {
      parser.SetBodySink([&](std::string_view piece) {
        Check(!piece.empty());
        streamed += piece.size();
      });
    }
    if (event == HttpRequestParser::Event::kComplete) {
      const bool was_streamed = parser.streaming();
      const std::string body = parser.TakeBody();
      Check(body.size() <= limits.max_body_bytes);
      Check(!was_streamed || (body.empty() && reserved == 0));
      if (was_streamed && parser.head().content_length) {
        Check(streamed == *parser.head().content_length);
      }
      streamed = 0;
      (void)parser.TakeHead();
      parser.Reset();
      reserved = 0;  // the event loop releases a request's reservation
      continue;
    }
    if (event == HttpRequestParser::Event::kNeedMore && consumed == 0 &&
        offered == input.size()) {
      break;  // nothing more will arrive
    }
  }
  return 0;
}
