// ValidateShredding: the declaration grammar and its limits (depth 16,
// 1000 fields and arrays, 1024 bytes of names on a path).
#include "catalog/model/shredding.h"

#include <gtest/gtest.h>

#include <string>

namespace hoglake::catalog {
namespace {

std::string Arrays(int depth) {
  std::string node = R"({"type":"int64"})";
  for (int i = 0; i < depth; ++i) node = R"({"type":"array","element":)" + node + "}";
  return node;
}

std::string Objects(int depth) {
  std::string node = R"({"type":"string"})";
  for (int i = 0; i < depth; ++i) {
    node = R"({"type":"object","fields":[)" + node.insert(1, R"("name":"f",)") + "]}";
  }
  return node;
}

TEST(ShreddingTest, AcceptsTheGrammar) {
  EXPECT_TRUE(ValidateShredding(R"({"type":"int64"})", "v").ok());
  EXPECT_TRUE(ValidateShredding(R"({"type":"variant"})", "v").ok());
  EXPECT_TRUE(ValidateShredding(
                  R"({"type":"object","fields":[{"name":"$browser","type":"string"},)"
                  R"({"name":"price","type":"decimal8","precision":18,"scale":2},)"
                  R"({"name":"tags","type":"array","element":{"type":"string"}},)"
                  R"({"name":"payload","type":"variant"}]})",
                  "v")
                  .ok());
  EXPECT_TRUE(ValidateShredding(Arrays(16), "v").ok());
  EXPECT_TRUE(ValidateShredding(Objects(16), "v").ok());
}

TEST(ShreddingTest, RefusesDepthBeyondSixteen) {
  for (const std::string& json : {Arrays(17), Objects(17), Arrays(1000)}) {
    Status status = ValidateShredding(json, "v");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kValidation);
    EXPECT_NE(status.error().message.find("column 'v'"), std::string::npos)
        << status.error().message;
  }
}

TEST(ShreddingTest, RefusesMoreThanAThousandFieldsAndArrays) {
  std::string fields;
  for (int i = 0; i < 1001; ++i) {
    fields += (i ? "," : "") + std::string(R"({"name":"f)") + std::to_string(i) +
              R"(","type":"int64"})";
  }
  EXPECT_FALSE(ValidateShredding(R"({"type":"object","fields":[)" + fields + "]}", "v").ok());
}

TEST(ShreddingTest, RefusesLongNamePaths) {
  const std::string name(1025, 'n');
  EXPECT_FALSE(ValidateShredding(
                   R"({"type":"object","fields":[{"name":")" + name + R"(","type":"int64"}]})",
                   "v")
                   .ok());
}

TEST(ShreddingTest, RefusesMalformedNodesNamingThePath) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([])", "$"},
      {R"({"kind":"int64"})", "$"},
      {R"({"type":"int128"})", "$"},
      {R"({"type":"object","fields":[]})", "$"},
      {R"({"type":"object","fields":[{"type":"int64"}]})", "$"},
      {R"({"type":"object","fields":[{"name":"a","type":"int64"},{"name":"a","type":"int8"}]})",
       "$.a"},
      {R"({"type":"array"})", "$"},
      {R"({"type":"array","element":{"type":"nope"}})", "$[*]"},
      {R"({"type":"decimal4","precision":10,"scale":0})", "$"},
      {R"({"type":"decimal16","precision":38,"scale":39})", "$"},
      {R"({"type":"int64","extra":1})", "$"},
  };
  for (const auto& [json, path] : cases) {
    Status status = ValidateShredding(json, "v");
    ASSERT_FALSE(status.ok()) << json;
    EXPECT_NE(status.error().message.find(std::string("declaration ") + path + ":"),
              std::string::npos)
        << json << " → " << status.error().message;
  }
}

}  // namespace
}  // namespace hoglake::catalog
