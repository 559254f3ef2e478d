// The formatting functions where PostgreSQL cannot be the judge: the
// template patterns the engine refuses (0A000) instead of guessing, which
// PostgreSQL answers. Everything PostgreSQL answers the same way is in the
// oracle corpus (tests/sql_oracle/corpus/formatting.test).
#include <gtest/gtest.h>

#include "memory_lake.h"

namespace hoglake::sql::testing {
namespace {

class FormattingTest : public ::testing::Test {
 protected:
  void SetUp() override { session_ = std::make_unique<Session>(lake_.MakeSessionOptions()); }
  std::string Value(const std::string& sql) { return RunValue(*session_, sql); }

  MemoryLake lake_;
  std::unique_ptr<Session> session_;
};

TEST_F(FormattingTest, RefusesNumberPatternsItDoesNotFormat) {
  EXPECT_EQ(Value("SELECT to_char(5, 'L999')"),
            "ERROR 0A000: number formatting pattern \"L\" is not supported");
  EXPECT_EQ(Value("SELECT to_char(5, 'B999')"),
            "ERROR 0A000: number formatting pattern \"B\" is not supported");
  EXPECT_EQ(Value("SELECT to_char(5, '9RN')"),
            "ERROR 0A000: number formatting pattern \"RN\" is only supported with \"FM\"");
  EXPECT_EQ(Value("SELECT to_char(5, 'FMRN')"), "V");
}

TEST_F(FormattingTest, RefusesZoneNamesInInput) {
  EXPECT_EQ(Value("SELECT to_timestamp('2024 UTC', 'YYYY TZ')"),
            "ERROR 0A000: formatting field \"TZ\" is only supported in to_char");
}

TEST_F(FormattingTest, RejectsYearsBeyondInteger) {
  EXPECT_EQ(Value("SELECT to_date('99999999999,999', 'Y,YYY')"),
            "ERROR 22008: value for \"Y,YYY\" in source string is out of range");
}

}  // namespace
}  // namespace hoglake::sql::testing
