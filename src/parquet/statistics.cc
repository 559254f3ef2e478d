#include "parquet/statistics.h"

#include <cmath>
#include <cstring>

namespace hoglake::parquet {

using columnar::TypeId;

SortOrder SortOrderFor(const columnar::DataType& type) {
  switch (type.id) {
    case TypeId::kBool:
      return SortOrder::kBool;
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt64:
      return SortOrder::kUnsigned;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return SortOrder::kFloat;
    case TypeId::kDecimal128:
      return SortOrder::kDecimal;
    case TypeId::kUtf8:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return SortOrder::kBytes;
    default:
      return SortOrder::kSigned;  // uint32 is stored as a non-negative INT64
  }
}

namespace {

template <typename T>
T Load(std::string_view s) {
  T v;
  std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

bool IsNan(std::string_view v) {
  return v.size() == 4 ? std::isnan(Load<float>(v)) : std::isnan(Load<double>(v));
}

}  // namespace

bool StatisticsBuilder::Less(std::string_view a, std::string_view b) const {
  switch (order_) {
    case SortOrder::kSigned:
      return a.size() == 4 ? Load<int32_t>(a) < Load<int32_t>(b)
                           : Load<int64_t>(a) < Load<int64_t>(b);
    case SortOrder::kUnsigned:
      return a.size() == 4 ? Load<uint32_t>(a) < Load<uint32_t>(b)
                           : Load<uint64_t>(a) < Load<uint64_t>(b);
    case SortOrder::kFloat:
      return a.size() == 4 ? Load<float>(a) < Load<float>(b) : Load<double>(a) < Load<double>(b);
    case SortOrder::kBool:
      return a[0] < b[0];
    case SortOrder::kBytes:
      return a.compare(b) < 0;  // string_view compares chars as unsigned (char_traits)
    case SortOrder::kDecimal: {
      // Equal-width big-endian two's complement: flip the sign bit, then
      // compare as unsigned bytes.
      const uint8_t a0 = static_cast<uint8_t>(a[0]) ^ 0x80, b0 = static_cast<uint8_t>(b[0]) ^ 0x80;
      if (a0 != b0) return a0 < b0;
      return a.substr(1).compare(b.substr(1)) < 0;
    }
  }
  return false;
}

void StatisticsBuilder::AddValue(std::string_view plain) {
  if (order_ == SortOrder::kFloat && IsNan(plain)) return;
  if (!has_min_max_) {
    min_.assign(plain);
    max_.assign(plain);
    has_min_max_ = true;
    return;
  }
  if (Less(plain, min_)) min_.assign(plain);
  if (Less(max_, plain)) max_.assign(plain);
}

Statistics StatisticsBuilder::Finish() const {
  Statistics s;
  s.null_count = null_count_;
  if (!has_min_max_) return s;
  std::string min = min_, max = max_;
  if (order_ == SortOrder::kFloat) {
    if (min.size() == 4) {
      if (Load<float>(min) == 0.0f) {
        const float z = -0.0f;
        std::memcpy(min.data(), &z, 4);
      }
      if (Load<float>(max) == 0.0f) {
        const float z = 0.0f;
        std::memcpy(max.data(), &z, 4);
      }
    } else {
      if (Load<double>(min) == 0.0) {
        const double z = -0.0;
        std::memcpy(min.data(), &z, 8);
      }
      if (Load<double>(max) == 0.0) {
        const double z = 0.0;
        std::memcpy(max.data(), &z, 8);
      }
    }
  }
  s.min_value = std::move(min);
  s.max_value = std::move(max);
  s.is_min_value_exact = true;
  s.is_max_value_exact = true;
  return s;
}

}  // namespace hoglake::parquet
