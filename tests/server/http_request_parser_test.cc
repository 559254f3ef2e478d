// HttpRequestParser: framing (Content-Length, chunked, none), exact
// consumption for pipelining, input in any split, and the limits it
// enforces while parsing (431 head, 413 body, 503 refused reservation)
// before the bytes past them are buffered.
#include "server/http/http_request_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hoglake::server {
namespace {

using Event = HttpRequestParser::Event;

// Plays the caller's part: keeps unconsumed bytes and feeds `input` in
// pieces of `step` bytes. Stops at the first kComplete or kError.
struct Fed {
  Event last = Event::kNeedMore;
  std::string leftover;  // bytes not consumed when it stopped
  int heads = 0;
};

Fed Feed(HttpRequestParser& parser, const std::string& input, size_t step = 1 << 20) {
  Fed fed;
  std::string held;
  for (size_t at = 0; at < input.size() || !held.empty();) {
    if (at < input.size()) {
      const size_t n = std::min(step, input.size() - at);
      held.append(input, at, n);
      at += n;
    }
    for (;;) {
      size_t used = 0;
      fed.last = parser.Parse(held, &used);
      held.erase(0, used);
      if (fed.last == Event::kHeadComplete) {
        ++fed.heads;
        continue;
      }
      if (fed.last == Event::kComplete || fed.last == Event::kError) {
        fed.leftover = held + input.substr(at);
        return fed;
      }
      break;  // kNeedMore
    }
    if (at >= input.size()) break;
  }
  fed.leftover = held;
  return fed;
}

TEST(HttpRequestParserTest, GetWithoutBodyIsCompleteWithItsHead) {
  HttpRequestParser parser;
  const Fed fed = Feed(parser,
                       "GET /v1/catalogs/a%2Fb?x=1 HTTP/1.1\r\nHost: h\r\nX-Request-Id:  r-1 \r\n"
                       "X-Multi: one\r\nx-multi: two\r\n\r\n");
  ASSERT_EQ(fed.last, Event::kComplete);
  EXPECT_EQ(fed.heads, 1);
  EXPECT_EQ(fed.leftover, "");
  const HttpRequestHead& head = parser.head();
  EXPECT_EQ(head.method, "GET");
  EXPECT_EQ(head.target, "/v1/catalogs/a%2Fb?x=1");  // raw, not decoded
  EXPECT_EQ(head.version_minor, 1);
  EXPECT_TRUE(head.keep_alive);
  EXPECT_FALSE(head.chunked);
  EXPECT_FALSE(head.content_length.has_value());
  ASSERT_NE(head.Header("x-request-id"), nullptr);
  EXPECT_EQ(*head.Header("x-request-id"), "r-1");
  EXPECT_EQ(*head.Header("x-multi"), "one");  // the first of a repeated field
  EXPECT_EQ(head.Header("missing"), nullptr);
  EXPECT_EQ(parser.TakeBody(), "");
}

TEST(HttpRequestParserTest, PostWithoutFramingHasAnEmptyBodyAtOnce) {
  HttpRequestParser parser;
  size_t used = 0;
  const std::string request = "POST /v1/catalogs HTTP/1.1\r\nHost: h\r\n\r\n";
  ASSERT_EQ(parser.Parse(request, &used), Event::kHeadComplete);
  EXPECT_EQ(used, request.size());
  EXPECT_EQ(parser.Parse("", &used), Event::kComplete);  // no wait for a body
  EXPECT_EQ(used, 0u);
  EXPECT_EQ(parser.TakeBody(), "");
}

TEST(HttpRequestParserTest, ContentLengthBodyInAnySplit) {
  const std::string body = "{\"name\":\"lake\",\"x\":[1,2,3]}";
  const std::string request = "POST /echo HTTP/1.1\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n" + body;
  for (size_t step : {size_t{1}, size_t{3}, size_t{7}, request.size()}) {
    HttpRequestParser parser;
    const Fed fed = Feed(parser, request, step);
    ASSERT_EQ(fed.last, Event::kComplete) << step;
    EXPECT_EQ(parser.TakeBody(), body) << step;
    EXPECT_EQ(parser.body_received(), body.size());
  }
}

TEST(HttpRequestParserTest, ChunkedBodyWithExtensionsAndTrailersInAnySplit) {
  const std::string request =
      "PUT /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n"
      "19\r\n, a chunk of 25 bytes ...\r\n"
      "0\r\nX-Trailer: t\r\n\r\n";
  for (size_t step : {size_t{1}, size_t{2}, size_t{5}, request.size()}) {
    HttpRequestParser parser;
    const Fed fed = Feed(parser, request + "GET / HTTP/1.1\r\n\r\n", step);
    ASSERT_EQ(fed.last, Event::kComplete) << step;
    EXPECT_TRUE(parser.head().chunked);
    EXPECT_EQ(parser.TakeBody(), "hello, a chunk of 25 bytes ...") << step;
    EXPECT_EQ(fed.leftover, "GET / HTTP/1.1\r\n\r\n") << step;  // the next request untouched
  }
}

TEST(HttpRequestParserTest, PipelinedRequestsAreConsumedExactly) {
  const std::string first = "POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
  const std::string second = "GET /b HTTP/1.1\r\n\r\n";
  HttpRequestParser parser;
  std::string held = first + second;
  size_t used = 0;
  ASSERT_EQ(parser.Parse(held, &used), Event::kHeadComplete);
  held.erase(0, used);
  ASSERT_EQ(parser.Parse(held, &used), Event::kComplete);
  held.erase(0, used);
  EXPECT_EQ(parser.TakeBody(), "abc");
  EXPECT_EQ(held, second);
  parser.Reset();
  EXPECT_FALSE(parser.started());
  ASSERT_EQ(parser.Parse(held, &used), Event::kHeadComplete);
  EXPECT_EQ(parser.head().target, "/b");
  EXPECT_EQ(used, second.size());
}

TEST(HttpRequestParserTest, HeadIsNotConsumedUntilComplete) {
  HttpRequestParser parser;
  size_t used = 0;
  EXPECT_EQ(parser.Parse("\r\n\r\nGET / HT", &used), Event::kNeedMore);
  EXPECT_EQ(used, 4u);  // only the empty lines before the request line
  EXPECT_TRUE(parser.started());
  EXPECT_EQ(parser.Parse("GET / HTTP/1.1\r\nHo", &used), Event::kNeedMore);
  EXPECT_EQ(used, 0u);
  EXPECT_EQ(parser.Parse("GET / HTTP/1.1\r\nHost: h\r\n\r\n", &used), Event::kHeadComplete);
  EXPECT_EQ(used, 27u);
}

TEST(HttpRequestParserTest, ConnectionAndVersionDecideKeepAlive) {
  struct Case {
    std::string head;
    bool keep_alive;
  };
  for (const Case& c : {Case{"GET / HTTP/1.1\r\n\r\n", true},
                        Case{"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false},
                        Case{"GET / HTTP/1.1\r\nConnection: Keep-Alive, Close\r\n\r\n", false},
                        Case{"GET / HTTP/1.0\r\n\r\n", false},
                        Case{"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true}}) {
    HttpRequestParser parser;
    ASSERT_EQ(Feed(parser, c.head).last, Event::kComplete) << c.head;
    EXPECT_EQ(parser.head().keep_alive, c.keep_alive) << c.head;
  }
}

TEST(HttpRequestParserTest, ExpectContinueOnlyOnHttp11) {
  HttpRequestParser parser;
  ASSERT_EQ(Feed(parser, "POST / HTTP/1.1\r\nExpect: 100-Continue\r\n\r\n").last,
            Event::kComplete);
  EXPECT_TRUE(parser.head().expect_continue);
  HttpRequestParser old;
  ASSERT_EQ(Feed(old, "POST / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n").last, Event::kComplete);
  EXPECT_FALSE(old.head().expect_continue);
}

TEST(HttpRequestParserTest, AbsoluteFormTargetBecomesOriginForm) {
  HttpRequestParser parser;
  ASSERT_EQ(Feed(parser, "GET http://example.com:80/v1/x?y=1 HTTP/1.1\r\n\r\n").last,
            Event::kComplete);
  EXPECT_EQ(parser.head().target, "/v1/x?y=1");
}

TEST(HttpRequestParserTest, MalformedRequestsAreRefusedWithTheirStatus) {
  struct Case {
    std::string request;
    int status;
  };
  const std::vector<Case> cases = {
      {"GET /\r\n\r\n", 400},
      {"GET  / HTTP/1.1\r\n\r\n", 400},
      {"G(T / HTTP/1.1\r\n\r\n", 400},
      {"GET / HTTP/2.0\r\n\r\n", 505},
      {"GET / HTTX/1.1\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nA: b\x01\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n", 400},
  };
  for (const Case& c : cases) {
    HttpRequestParser parser;
    const Fed fed = Feed(parser, c.request);
    ASSERT_EQ(fed.last, Event::kError) << c.request;
    EXPECT_EQ(parser.error().status, c.status) << c.request;
    EXPECT_FALSE(parser.error().message.empty());
    size_t used = 0;
    EXPECT_EQ(parser.Parse("GET / HTTP/1.1\r\n\r\n", &used), Event::kError);  // stays failed
  }
}

TEST(HttpRequestParserTest, RepeatedEqualContentLengthsAreOneLength) {
  HttpRequestParser parser;
  const Fed fed =
      Feed(parser, "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc");
  ASSERT_EQ(fed.last, Event::kComplete);
  EXPECT_EQ(parser.TakeBody(), "abc");
}

TEST(HttpRequestParserTest, HeadOverTheByteBoundIs431BeforeItEnds) {
  HttpParserLimits limits;
  limits.max_header_bytes = 1024;
  HttpRequestParser parser(limits);
  std::string held = "GET / HTTP/1.1\r\nX-Big: ";
  size_t used = 0;
  Event event = Event::kNeedMore;
  while (event == Event::kNeedMore && held.size() < 1 << 20) {
    held.append(100, 'a');  // a header line that never ends
    event = parser.Parse(held, &used);
  }
  ASSERT_EQ(event, Event::kError);
  EXPECT_EQ(parser.error().status, 431);
  EXPECT_LE(held.size(), 1024u + 100u);  // refused as soon as the bound was passed
  HttpRequestParser whole(limits);
  EXPECT_EQ(Feed(whole, "GET / HTTP/1.1\r\nX: " + std::string(1100, 'b') + "\r\n\r\n").last,
            Event::kError);
  EXPECT_EQ(whole.error().status, 431);
}

TEST(HttpRequestParserTest, TooManyHeaderFieldsIs431) {
  HttpParserLimits limits;
  limits.max_header_fields = 10;
  std::string request = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 11; ++i) request += "X-" + std::to_string(i) + ": v\r\n";
  HttpRequestParser parser(limits);
  ASSERT_EQ(Feed(parser, request + "\r\n").last, Event::kError);
  EXPECT_EQ(parser.error().status, 431);
  HttpRequestParser fits(limits);
  EXPECT_EQ(Feed(fits, "GET / HTTP/1.1\r\nA: 1\r\n\r\n").last, Event::kComplete);
}

TEST(HttpRequestParserTest, ContentLengthOverTheLimitIs413FromTheHead) {
  HttpParserLimits limits;
  limits.max_body_bytes = 1000;
  HttpRequestParser parser(limits);
  size_t used = 0;
  EXPECT_EQ(parser.Parse("POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\nxyz", &used),
            Event::kError);
  EXPECT_EQ(parser.error().status, 413);
  EXPECT_TRUE(parser.head_complete());  // the head is there to answer with
  EXPECT_EQ(parser.head().method, "POST");
  HttpRequestParser huge(limits);
  EXPECT_EQ(huge.Parse("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                       &used),
            Event::kError);
  EXPECT_EQ(huge.error().status, 413);
  HttpRequestParser exact(limits);
  EXPECT_EQ(Feed(exact, "POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" + std::string(1000, 'x'))
                .last,
            Event::kComplete);
}

TEST(HttpRequestParserTest, ChunkedBodyOverTheLimitIs413AtTheChunkThatPassesIt) {
  HttpParserLimits limits;
  limits.max_body_bytes = 1000;
  HttpRequestParser parser(limits);
  std::string held = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  size_t used = 0;
  ASSERT_EQ(parser.Parse(held, &used), Event::kHeadComplete);
  held.erase(0, used);
  // 600 bytes fit; the next chunk's size line declares 600 more: refused
  // there, before its data is taken.
  held += "258\r\n" + std::string(600, 'a') + "\r\n258\r\n" + std::string(600, 'b');
  EXPECT_EQ(parser.Parse(held, &used), Event::kError);
  EXPECT_EQ(parser.error().status, 413);
  EXPECT_EQ(parser.body_received(), 600u);
  EXPECT_LE(parser.TakeBody().size(), 600u);
  HttpRequestParser hex(limits);  // a size line with more hex digits than any limit
  EXPECT_EQ(Feed(hex, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n")
                .last,
            Event::kError);
  EXPECT_EQ(hex.error().status, 413);
}

TEST(HttpRequestParserTest, BodyBytesAreReservedBeforeTheyAreBuffered) {
  std::vector<uint64_t> asked;
  uint64_t granted = 0;
  auto reserve = [&](uint64_t bytes) {
    asked.push_back(bytes);
    if (granted + bytes > 5) return false;
    granted += bytes;
    return true;
  };
  HttpRequestParser length;
  length.SetReserve(reserve);
  EXPECT_EQ(Feed(length, "POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd").last,
            Event::kComplete);
  EXPECT_EQ(asked, std::vector<uint64_t>{4});
  asked.clear();
  granted = 0;
  HttpRequestParser chunked;
  chunked.SetReserve(reserve);
  const Fed fed = Feed(chunked,
                       "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n");
  EXPECT_EQ(fed.last, Event::kError);  // 3 fit, 4 more do not
  EXPECT_EQ(chunked.error().status, 503);
  EXPECT_EQ(asked, (std::vector<uint64_t>{3, 4}));
  HttpRequestParser refused;
  refused.SetReserve([](uint64_t) { return false; });
  EXPECT_EQ(Feed(refused, "POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n").last, Event::kError);
  EXPECT_EQ(refused.error().status, 503);
}

TEST(HttpRequestParserTest, DiscardedBodyIsReadButNeitherKeptNorReserved) {
  HttpRequestParser parser;
  bool reserved = false;
  parser.SetReserve([&](uint64_t) { return reserved = true; });
  size_t used = 0;
  std::string held = "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET";
  ASSERT_EQ(parser.Parse(held, &used), Event::kHeadComplete);
  held.erase(0, used);
  parser.DiscardBody();
  ASSERT_EQ(parser.Parse(held, &used), Event::kComplete);
  EXPECT_EQ(held.substr(used), "GET");
  EXPECT_EQ(parser.body_received(), 5u);
  EXPECT_EQ(parser.TakeBody(), "");
  EXPECT_FALSE(reserved);
}

}  // namespace
}  // namespace hoglake::server
