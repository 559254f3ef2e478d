// JsonBody::ParseText refuses hostile bodies before (or instead of) paying
// for them: nesting past kMaxJsonDepth, bytes that are not UTF-8, NUL
// characters anywhere, more values than one request may parse, and parses
// beyond the server-wide budget, which is returned when a body is released.
#include "server/http/json_body.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace hoglake::server {
namespace {

TEST(JsonBodyTest, NestingIsBoundedBeforeParsing) {
  const std::string ok = R"({"a":)" + std::string(kMaxJsonDepth - 1, '[') +
                         std::string(kMaxJsonDepth - 1, ']') + "}";
  EXPECT_TRUE(JsonBody::ParseText(ok).ok());
  const std::string deep = R"({"a":)" + std::string(200000, '[') + "1" +
                           std::string(200000, ']') + "}";
  Result<JsonObject> refused = JsonBody::ParseText(deep);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kBadRequest);
  EXPECT_NE(refused.error().message.find("nested deeper"), std::string::npos);
  // Brackets inside strings are text, not nesting.
  EXPECT_TRUE(JsonBody::ParseText(R"({"a":")" + std::string(1000, '[') + R"("})").ok());
}

TEST(JsonBodyTest, TextThatIsNotUtf8IsRefusedNamingTheField) {
  for (const auto& [body, message] : {
           std::pair<std::string, std::string>{"{\"a\":\"x\xFF\"}", "a is not valid UTF-8"},
           {"{\"author\":\"ok\",\"appends\":[{\"files\":[{\"path\":\"p\"},"
            "{\"path\":\"q\\\"\xC0\x80\"}]}]}",
            "appends[0].files[1].path is not valid UTF-8"},
           {"{\"a\":[\"x\",\"\xED\xA0\x80\"]}", "a[1] is not valid UTF-8"},
           {"{\"a\xFF\":1}", "a member name in request body is not valid UTF-8"},
           {"{\"a\":{\"b\":1,\"c\xFF\":2}}", "a member name in a is not valid UTF-8"},
       }) {
    Result<JsonObject> refused = JsonBody::ParseText(body);
    ASSERT_FALSE(refused.ok()) << body;
    EXPECT_EQ(refused.error().code, ErrorCode::kBadRequest);
    EXPECT_NE(refused.error().message.find(message), std::string::npos) << refused.error().message;
  }
  EXPECT_TRUE(JsonBody::ParseText("{\"a\":\"caf\xC3\xA9\"}").ok());
  // Other syntax errors say where they are too.
  Result<JsonObject> broken = JsonBody::ParseText(R"({"a":{"b":[1,2,}]}})");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("(in a.b[2])"), std::string::npos)
      << broken.error().message;
}

TEST(JsonBodyTest, NulIsRefusedNamingTheField) {
  for (const auto& [body, field] :
       {std::pair<std::string, std::string>{R"({"name":"t\u0000junk"})", "name"},
        {R"({"a":{"b":["x","y\u0000"]}})", "a.b[1]"},
        {R"({"a\u0000b":1})", "member name"}}) {
    Result<JsonObject> refused = JsonBody::ParseText(body);
    ASSERT_FALSE(refused.ok()) << body;
    EXPECT_NE(refused.error().message.find(field), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("NUL"), std::string::npos) << refused.error().message;
  }
}

TEST(JsonBodyTest, TooManyValuesForOneRequestAreRefusedUnparsed) {
  const int64_t values = kMaxJsonParseBytes / kJsonBytesPerValue + 10;
  std::string body = R"({"a":[)";
  body.reserve(static_cast<size_t>(values) * 2 + 16);
  for (int64_t i = 0; i < values; ++i) body += i ? ",1" : "1";
  body += "]}";
  Result<JsonObject> refused = JsonBody::ParseText(body);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kBadRequest);
  EXPECT_NE(refused.error().message.find("too many JSON values"), std::string::npos);
  EXPECT_EQ(JsonBody::ParseMemoryInUse(), 0);
}

TEST(JsonBodyTest, TheServerWideBudgetIsHeldWhileABodyLivesAndReturnedAfter) {
  JsonBody::SetParseMemoryBudget(1 << 20);
  std::string body = R"({"a":[)";
  for (int i = 0; i < 10000; ++i) body += i ? ",1" : "1";
  body += "]}";  // ~10K values: ~420 KB of the 1 MiB budget
  std::optional<Result<JsonObject>> first(JsonBody::ParseText(body));
  ASSERT_TRUE(first->ok());
  EXPECT_GT(JsonBody::ParseMemoryInUse(), 0);
  std::optional<Result<JsonObject>> second(JsonBody::ParseText(body));
  ASSERT_TRUE(second->ok());
  Result<JsonObject> third = JsonBody::ParseText(body);
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().code, ErrorCode::kCommitQueueTimeout);
  first.reset();
  second.reset();
  EXPECT_EQ(JsonBody::ParseMemoryInUse(), 0);
  EXPECT_TRUE(JsonBody::ParseText(body).ok());
  JsonBody::SetParseMemoryBudget(kDefaultJsonParseMemoryBudget);
}

}  // namespace
}  // namespace hoglake::server
