#include "parquet/physical_value.h"

#include <cstring>

namespace hoglake::parquet {

using columnar::ArrayData;
using columnar::TimeUnit;
using columnar::TypeId;

namespace {

template <typename T>
std::string_view Put(char* tmp, T v) {
  std::memcpy(tmp, &v, sizeof(T));
  return std::string_view(tmp, sizeof(T));
}

}  // namespace

Status ScaleTemporal(int64_t v, int64_t factor, int64_t* out) {
  if (__builtin_mul_overflow(v, factor, out)) {
    return InvalidArgument("temporal value ", v, " overflows int64 when scaled by ", factor,
                           " for Parquet");
  }
  return Status::Ok();
}

Status PhysicalValue(const ArrayData& a, int64_t i, int32_t flba_width, char* tmp,
                     std::string_view* out) {
  const columnar::DataType& t = *a.type;
  switch (t.id) {
    case TypeId::kBool:
      *out = Put<uint8_t>(tmp, a.GetBool(i) ? 1 : 0);
      break;
    case TypeId::kInt8:
      *out = Put<int32_t>(tmp, a.values<int8_t>()[i]);
      break;
    case TypeId::kInt16:
      *out = Put<int32_t>(tmp, a.values<int16_t>()[i]);
      break;
    case TypeId::kInt32:
    case TypeId::kDate32:
      *out = Put<int32_t>(tmp, a.values<int32_t>()[i]);
      break;
    case TypeId::kUInt8:
      *out = Put<int32_t>(tmp, a.values<uint8_t>()[i]);
      break;
    case TypeId::kUInt16:
      *out = Put<int32_t>(tmp, a.values<uint16_t>()[i]);
      break;
    case TypeId::kUInt32:
      *out = Put<int64_t>(tmp, a.values<uint32_t>()[i]);
      break;
    case TypeId::kInt64:
    case TypeId::kUInt64:
      *out = Put<int64_t>(tmp, a.values<int64_t>()[i]);
      break;
    case TypeId::kFloat32:
      *out = Put<float>(tmp, a.values<float>()[i]);
      break;
    case TypeId::kFloat64:
      *out = Put<double>(tmp, a.values<double>()[i]);
      break;
    case TypeId::kTime64: {
      int64_t v = a.values<int64_t>()[i];
      if (t.unit == TimeUnit::kSecond) HOGLAKE_RETURN_IF_ERROR(ScaleTemporal(v, 1000000, &v));
      if (t.unit == TimeUnit::kMilli) HOGLAKE_RETURN_IF_ERROR(ScaleTemporal(v, 1000, &v));
      *out = Put<int64_t>(tmp, v);
      break;
    }
    case TypeId::kTimestamp: {
      int64_t v = a.values<int64_t>()[i];
      if (t.unit == TimeUnit::kSecond) HOGLAKE_RETURN_IF_ERROR(ScaleTemporal(v, 1000, &v));
      *out = Put<int64_t>(tmp, v);
      break;
    }
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * 16, 16);
      for (int b = 0; b < flba_width; ++b) {
        tmp[flba_width - 1 - b] = static_cast<char>(static_cast<uint8_t>(v >> (8 * b)));
      }
      *out = std::string_view(tmp, static_cast<size_t>(flba_width));
      break;
    }
    case TypeId::kUtf8:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      *out = a.GetView(i);
      break;
    default:
      return Internal("no Parquet value for type ", t.ToString());
  }
  return Status::Ok();
}

int64_t TemporalScale(const columnar::DataType& t) {
  if (t.id == TypeId::kTime64) {
    if (t.unit == TimeUnit::kSecond) return 1000000;
    if (t.unit == TimeUnit::kMilli) return 1000;
  }
  if (t.id == TypeId::kTimestamp && t.unit == TimeUnit::kSecond) return 1000;
  return 1;
}

}  // namespace hoglake::parquet
