// Column-chunk statistics as a writer accumulates them: min/max in the sort
// order the leaf's logical type defines, plus the null count.
//
// Values arrive plain-encoded (INT32/FLOAT 4 LE bytes, INT64/DOUBLE 8 LE
// bytes, BOOLEAN one byte 0/1, byte arrays and fixed-length arrays raw,
// decimals big-endian two's complement) and min/max are kept in that form,
// which is exactly what Statistics.min_value/max_value hold. Orders:
//   signed integers, dates, times, timestamps: signed;
//   uint8/16 (INT32) and uint64 (INT64): unsigned;
//   float/double: numeric, NaN ignored, and a zero minimum is written as -0.0
//   and a zero maximum as +0.0 (the Parquet rule for signed zeros);
//   decimals: signed big-endian; strings, binary, uuid: byte-wise unsigned.
// Nothing is truncated: exact min/max, is_min/max_value_exact = true.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "columnar/type.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

enum class SortOrder : uint8_t { kSigned, kUnsigned, kFloat, kBool, kBytes, kDecimal };

// The order min/max follow for a leaf of Arrow type `type`.
SortOrder SortOrderFor(const columnar::DataType& type);

class StatisticsBuilder {
 public:
  explicit StatisticsBuilder(SortOrder order) : order_(order) {}

  void AddValue(std::string_view plain);
  void AddNulls(int64_t n) { null_count_ += n; }

  bool has_min_max() const { return has_min_max_; }
  int64_t null_count() const { return null_count_; }
  Statistics Finish() const;

 private:
  // a < b in this order.
  bool Less(std::string_view a, std::string_view b) const;

  SortOrder order_;
  bool has_min_max_ = false;
  std::string min_;
  std::string max_;
  int64_t null_count_ = 0;
};

}  // namespace hoglake::parquet
