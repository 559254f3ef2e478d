#include "iceberg/partition_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/time_text.h"

namespace hoglake::iceberg {
namespace {

std::string Repr(double v) {
  std::string out;
  AppendPythonFloatRepr(v, &out);
  return out;
}
std::string Dec(__int128 unscaled, int32_t scale) {
  std::string out;
  AppendPythonDecimalStr(unscaled, scale, &out);
  return out;
}

TEST(PartitionTextTest, FloatsPrintLikePythonRepr) {
  EXPECT_EQ(Repr(1.0), "1.0");
  EXPECT_EQ(Repr(-2.5), "-2.5");
  EXPECT_EQ(Repr(0.1), "0.1");
  EXPECT_EQ(Repr(static_cast<double>(0.1f)), "0.10000000149011612");
  EXPECT_EQ(Repr(0.0), "0.0");
  EXPECT_EQ(Repr(-0.0), "-0.0");
  EXPECT_EQ(Repr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(Repr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(Repr(std::nan("")), "nan");
  EXPECT_EQ(Repr(1e16), "1e+16");
  EXPECT_EQ(Repr(1e15), "1000000000000000.0");
  EXPECT_EQ(Repr(1234567890123456.7), "1234567890123456.8");
  EXPECT_EQ(Repr(12345678901234567890.0), "1.2345678901234567e+19");
  EXPECT_EQ(Repr(0.0001), "0.0001");
  EXPECT_EQ(Repr(0.00001), "1e-05");
  EXPECT_EQ(Repr(0.000123), "0.000123");
  EXPECT_EQ(Repr(1.5e-7), "1.5e-07");
  EXPECT_EQ(Repr(123.456), "123.456");
  EXPECT_EQ(Repr(1.5e300), "1.5e+300");
  EXPECT_EQ(Repr(5e-324), "5e-324");
  EXPECT_EQ(Repr(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  EXPECT_EQ(Repr(100.0), "100.0");
}

TEST(PartitionTextTest, DecimalsPrintLikePythonStr) {
  EXPECT_EQ(Dec(1050, 2), "10.50");
  EXPECT_EQ(Dec(1234, 2), "12.34");
  EXPECT_EQ(Dec(-5, 2), "-0.05");
  EXPECT_EQ(Dec(0, 2), "0.00");
  EXPECT_EQ(Dec(123, 0), "123");
  EXPECT_EQ(Dec(1, 6), "0.000001");
  EXPECT_EQ(Dec(0, 6), "0.000000");
  EXPECT_EQ(Dec(1, 7), "1E-7");
  EXPECT_EQ(Dec(-1, 7), "-1E-7");
  EXPECT_EQ(Dec(10, 8), "1.0E-7");
  EXPECT_EQ(Dec(0, 8), "0E-8");
  EXPECT_EQ(Dec(0, 7), "0E-7");
  EXPECT_EQ(Dec(123, 10), "1.23E-8");
  EXPECT_EQ(Dec(12345, 10), "0.0000012345");
}

TEST(PartitionTextTest, TemporalIsoforms) {
  std::string out;
  ASSERT_TRUE(AppendPythonDate(17486, &out).ok());
  EXPECT_EQ(out, "2017-11-16");
  out.clear();
  ASSERT_TRUE(AppendPythonDate(DaysFromCivil(1, 1, 1), &out).ok());
  EXPECT_EQ(out, "0001-01-01");
  EXPECT_FALSE(AppendPythonDate(DaysFromCivil(10000, 1, 1), &out).ok());
  EXPECT_FALSE(AppendPythonDate(DaysFromCivil(0, 12, 31), &out).ok());

  out.clear();
  ASSERT_TRUE(AppendPythonTime(81068000000, &out).ok());
  EXPECT_EQ(out, "22:31:08");
  out.clear();
  ASSERT_TRUE(AppendPythonTime(81068000001, &out).ok());
  EXPECT_EQ(out, "22:31:08.000001");
  out.clear();
  ASSERT_TRUE(AppendPythonTime(0, &out).ok());
  EXPECT_EQ(out, "00:00:00");
  EXPECT_FALSE(AppendPythonTime(86400000000, &out).ok());
  EXPECT_FALSE(AppendPythonTime(-1, &out).ok());

  const int64_t t = (17486LL * 86400 + 81068) * 1000000;
  out.clear();
  ASSERT_TRUE(AppendPythonDatetime(t, false, &out).ok());
  EXPECT_EQ(out, "2017-11-16T22:31:08");
  out.clear();
  ASSERT_TRUE(AppendPythonDatetime(t + 120000, true, &out).ok());
  EXPECT_EQ(out, "2017-11-16T22:31:08.120000+00:00");
  out.clear();
  ASSERT_TRUE(AppendPythonDatetime(-1, false, &out).ok());
  EXPECT_EQ(out, "1969-12-31T23:59:59.999999");
  EXPECT_FALSE(AppendPythonDatetime(DaysFromCivil(10000, 1, 1) * 86400000000, false, &out).ok());
}

}  // namespace
}  // namespace hoglake::iceberg
