#include "common/status.h"

#include <gtest/gtest.h>

#include <set>

namespace hoglake {
namespace {

Result<int> Half(int n) {
  if (n % 2 != 0) return InvalidArgument("odd number ", n);
  return n / 2;
}

Result<int> Quarter(int n) {
  HOGLAKE_ASSIGN_OR_RETURN(int half, Half(n));
  HOGLAKE_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, ErrorMessageJoinsParts) {
  Error e = InvalidData("offset ", 12, " past ", std::string("end"), ' ', 1.5);
  EXPECT_EQ(e.code, ErrorCode::kInvalidData);
  EXPECT_EQ(e.message, "offset 12 past end 1.500000");
  EXPECT_EQ(e.ToString(), "invalid_data: offset 12 past end 1.500000");
}

TEST(StatusTest, AssignOrReturnPropagates) {
  ASSERT_TRUE(Quarter(8).ok());
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "odd number 3");
}

TEST(StatusTest, EveryCodeHasADistinctSnakeCaseName) {
  const ErrorCode all[] = {ErrorCode::kInvalidArgument, ErrorCode::kInvalidData,
                           ErrorCode::kNotFound,        ErrorCode::kAlreadyExists,
                           ErrorCode::kConflict,        ErrorCode::kNotImplemented,
                           ErrorCode::kIoError,         ErrorCode::kUnavailable,
                           ErrorCode::kInternal};
  std::set<std::string_view> names;
  for (ErrorCode code : all) {
    std::string_view name = ErrorCodeName(code);
    EXPECT_NE(name, "unknown");
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), std::size(all));
}

}  // namespace
}  // namespace hoglake
