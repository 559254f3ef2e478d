#include "iceberg/bounds.h"

#include <cmath>
#include <cstring>

#include "columnar/json_rows.h"
#include "common/encoding.h"
#include "common/json_text.h"
#include "common/time_text.h"

namespace hoglake::iceberg {
namespace {

using Kind = BoundValue::Kind;
constexpr int64_t kMicrosPerDay = 86'400'000'000;

// How a type's bound is laid out.
enum class Layout { kNone, kBool, kInt4, kInt8, kDecimal, kFloat4, kFloat8, kUtf8, kUuid, kRaw };

Layout LayoutOf(ColumnType type) {
  switch (IcebergTypeOf(type)) {
    case IcebergType::kBoolean:
      return Layout::kBool;
    case IcebergType::kInt:
    case IcebergType::kDate:
      return Layout::kInt4;
    case IcebergType::kLong:
    case IcebergType::kTime:
    case IcebergType::kTimestamp:
    case IcebergType::kTimestampNs:
    case IcebergType::kTimestamptz:
      return Layout::kInt8;
    case IcebergType::kDecimal:
      return Layout::kDecimal;
    case IcebergType::kFloat:
      return Layout::kFloat4;
    case IcebergType::kDouble:
      return Layout::kFloat8;
    case IcebergType::kString:
      return Layout::kUtf8;
    case IcebergType::kUuid:
      return Layout::kUuid;
    case IcebergType::kBinary:
      return Layout::kRaw;
    default:
      return Layout::kNone;
  }
}

template <typename T>
std::string LittleEndian(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));  // hoglake targets little-endian hosts
  return out;
}

template <typename T>
T FromLittleEndian(std::string_view bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

// Java Double.compare order for non-NaN values: a signed key that orders
// -0.0 before +0.0.
int64_t TotalOrderKey(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits ^ ((bits >> 63) & INT64_MAX);
}

template <typename T>
int ThreeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

Error KindMismatch(const TypeSpec& type, std::string_view expected) {
  return InvalidArgument("a ", ColumnTypeName(type.type), " bound needs ", expected, " value");
}

constexpr __int128 kUInt64Limit = static_cast<__int128>(1) << 64;

}  // namespace

BoundValue BoundValue::Bool(bool v) {
  BoundValue out;
  out.kind = Kind::kBool;
  out.b = v;
  return out;
}
BoundValue BoundValue::Int(int64_t v) {
  BoundValue out;
  out.kind = Kind::kInt;
  out.i = v;
  return out;
}
BoundValue BoundValue::Decimal(__int128 unscaled) {
  BoundValue out;
  out.kind = Kind::kDecimal;
  out.unscaled = unscaled;
  return out;
}
BoundValue BoundValue::Float(float v) {
  BoundValue out;
  out.kind = Kind::kFloat;
  out.f = v;
  return out;
}
BoundValue BoundValue::Double(double v) {
  BoundValue out;
  out.kind = Kind::kDouble;
  out.d = v;
  return out;
}
BoundValue BoundValue::Bytes(std::string v) {
  BoundValue out;
  out.kind = Kind::kBytes;
  out.bytes = std::move(v);
  return out;
}

std::string MinimalTwosComplement(__int128 value) {
  // Emit bytes least significant first, stopping once the rest is pure sign
  // extension of the last byte written.
  std::string reversed;
  for (;;) {
    const auto byte = static_cast<uint8_t>(value & 0xFF);
    reversed.push_back(static_cast<char>(byte));
    value >>= 8;  // arithmetic shift keeps the sign
    const bool sign_bit = (byte & 0x80) != 0;
    if ((value == 0 && !sign_bit) || (value == -1 && sign_bit)) break;
  }
  return std::string(reversed.rbegin(), reversed.rend());
}

Result<__int128> ParseTwosComplement(std::string_view bytes) {
  if (bytes.empty()) return InvalidData("a two's complement value needs at least one byte");
  const bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
  const char sign_byte = negative ? '\xff' : '\0';
  while (bytes.size() > 16 && bytes[0] == sign_byte &&
         ((static_cast<uint8_t>(bytes[1]) & 0x80) != 0) == negative) {
    bytes.remove_prefix(1);
  }
  if (bytes.size() > 16) {
    return InvalidData("a ", bytes.size(), "-byte two's complement value exceeds 128 bits");
  }
  unsigned __int128 acc = negative ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) acc = (acc << 8) | static_cast<uint8_t>(c);
  return static_cast<__int128>(acc);
}

Result<std::string> EncodeBound(const TypeSpec& type, const BoundValue& value) {
  switch (LayoutOf(type.type)) {
    case Layout::kNone:
      return InvalidArgument("a ", ColumnTypeName(type.type), " column has no bounds");
    case Layout::kBool:
      if (value.kind != Kind::kBool) return KindMismatch(type, "a boolean");
      return std::string(1, value.b ? '\x01' : '\x00');
    case Layout::kInt4:
      if (value.kind != Kind::kInt) return KindMismatch(type, "an integer");
      if (value.i < INT32_MIN || value.i > INT32_MAX) {
        return InvalidArgument(ColumnTypeName(type.type), " bound ", value.i,
                               " does not fit the 4-byte Iceberg int");
      }
      return LittleEndian(static_cast<int32_t>(value.i));
    case Layout::kInt8:
      if (value.kind != Kind::kInt) return KindMismatch(type, "an integer");
      return LittleEndian(value.i);
    case Layout::kDecimal:
      if (value.kind != Kind::kDecimal) return KindMismatch(type, "a decimal");
      if (type.type == ColumnType::kUInt64 &&
          (value.unscaled < 0 || value.unscaled >= kUInt64Limit)) {
        return InvalidArgument("uint64 bound is outside 0..18446744073709551615");
      }
      return MinimalTwosComplement(value.unscaled);
    case Layout::kFloat4:
      if (value.kind != Kind::kFloat) return KindMismatch(type, "a float");
      return LittleEndian(value.f);
    case Layout::kFloat8:
      if (value.kind != Kind::kDouble) return KindMismatch(type, "a double");
      return LittleEndian(value.d);
    case Layout::kUuid:
      if (value.kind != Kind::kBytes) return KindMismatch(type, "a 16-byte");
      if (value.bytes.size() != 16) {
        return InvalidArgument("a uuid bound needs 16 bytes, got ", value.bytes.size());
      }
      return value.bytes;
    case Layout::kUtf8:
    case Layout::kRaw:
      if (value.kind != Kind::kBytes) return KindMismatch(type, "a byte string");
      return value.bytes;
  }
  return Internal("unhandled bound layout");
}

Result<BoundValue> DecodeBound(const TypeSpec& type, std::string_view bytes) {
  const auto need_width = [&](size_t width) -> Status {
    if (bytes.size() == width) return Status::Ok();
    return InvalidData("a ", ColumnTypeName(type.type), " bound needs ", width, " bytes, got ",
                       bytes.size());
  };
  switch (LayoutOf(type.type)) {
    case Layout::kNone:
      return InvalidData("a ", ColumnTypeName(type.type), " column has no bounds");
    case Layout::kBool:
      HOGLAKE_RETURN_IF_ERROR(need_width(1));
      return BoundValue::Bool(bytes[0] != 0);
    case Layout::kInt4:
      HOGLAKE_RETURN_IF_ERROR(need_width(4));
      return BoundValue::Int(FromLittleEndian<int32_t>(bytes));
    case Layout::kInt8: {
      HOGLAKE_RETURN_IF_ERROR(need_width(8));
      const auto v = FromLittleEndian<int64_t>(bytes);
      if (type.type == ColumnType::kTime && (v < 0 || v >= kMicrosPerDay)) {
        return InvalidData("time bound ", v, " is outside 0..86399999999 micros");
      }
      return BoundValue::Int(v);
    }
    case Layout::kDecimal: {
      HOGLAKE_ASSIGN_OR_RETURN(__int128 v, ParseTwosComplement(bytes));
      if (type.type == ColumnType::kUInt64 && (v < 0 || v >= kUInt64Limit)) {
        return InvalidData("uint64 bound is outside 0..18446744073709551615");
      }
      return BoundValue::Decimal(v);
    }
    case Layout::kFloat4: {
      HOGLAKE_RETURN_IF_ERROR(need_width(4));
      const auto v = FromLittleEndian<float>(bytes);
      if (std::isnan(v)) return InvalidData("a float bound is NaN");
      return BoundValue::Float(v);
    }
    case Layout::kFloat8: {
      HOGLAKE_RETURN_IF_ERROR(need_width(8));
      const auto v = FromLittleEndian<double>(bytes);
      if (std::isnan(v)) return InvalidData("a double bound is NaN");
      return BoundValue::Double(v);
    }
    case Layout::kUtf8:
      if (!IsValidUtf8(bytes)) {
        return InvalidData("a ", ColumnTypeName(type.type), " bound is not valid UTF-8");
      }
      return BoundValue::Bytes(std::string(bytes));
    case Layout::kUuid:
      HOGLAKE_RETURN_IF_ERROR(need_width(16));
      return BoundValue::Bytes(std::string(bytes));
    case Layout::kRaw:
      return BoundValue::Bytes(std::string(bytes));
  }
  return Internal("unhandled bound layout");
}

void AppendBoundJson(const TypeSpec& type, std::string_view bytes, std::string* out) {
  // Byte bounds are appended from `bytes` itself, with DecodeBound's checks
  // but without its copy (a scan plan appends over a million bounds).
  const Layout layout = LayoutOf(type.type);
  if (layout == Layout::kUtf8 &&
      (type.type == ColumnType::kString || type.type == ColumnType::kJson)) {
    if (IsValidUtf8(bytes)) {
      AppendJsonString(bytes, out);
    } else {
      out->append("null");
    }
    return;
  }
  if (layout == Layout::kUuid && type.type == ColumnType::kUuid) {
    if (bytes.size() != 16) {
      out->append("null");
      return;
    }
    out->push_back('"');
    AppendUuid(bytes, out);
    out->push_back('"');
    return;
  }
  if (layout == Layout::kRaw && type.type == ColumnType::kBinary) {
    out->push_back('"');
    AppendBase64(bytes, out);
    out->push_back('"');
    return;
  }
  auto decoded = DecodeBound(type, bytes);
  if (!decoded.ok()) {
    out->append("null");
    return;
  }
  const BoundValue& v = *decoded;
  switch (type.type) {
    case ColumnType::kBoolean:
      out->append(v.b ? "true" : "false");
      return;
    case ColumnType::kUInt64:
      out->append(columnar::FormatDecimal(v.unscaled, 0));
      return;
    case ColumnType::kDecimal:
      out->append(columnar::FormatDecimal(v.unscaled, type.scale < 0 ? 0 : type.scale));
      return;
    case ColumnType::kFloat:
      AppendJsonFloat(v.f, out);
      return;
    case ColumnType::kDouble:
      AppendJsonDouble(v.d, out);
      return;
    case ColumnType::kDate:
      out->push_back('"');
      AppendDate(v.i, out);
      out->push_back('"');
      return;
    case ColumnType::kTime:
      out->push_back('"');
      AppendTimeOfDay(v.i, 1'000'000, out);
      out->push_back('"');
      return;
    case ColumnType::kTimestampS:
    case ColumnType::kTimestampMs:
    case ColumnType::kTimestamp:
    case ColumnType::kTimestamptz:
      out->push_back('"');
      AppendTimestamp(v.i, 1'000'000, type.type == ColumnType::kTimestamptz, out);
      out->push_back('"');
      return;
    case ColumnType::kTimestampNs:
      out->push_back('"');
      AppendTimestamp(v.i, 1'000'000'000, false, out);
      out->push_back('"');
      return;
    case ColumnType::kString:
    case ColumnType::kJson:
      AppendJsonString(v.bytes, out);
      return;
    case ColumnType::kUuid:
      out->push_back('"');
      AppendUuid(v.bytes, out);
      out->push_back('"');
      return;
    case ColumnType::kBinary:
      out->push_back('"');
      AppendBase64(v.bytes, out);
      out->push_back('"');
      return;
    default:
      if (v.kind == Kind::kInt) {
        out->append(std::to_string(v.i));
      } else {
        out->append("null");
      }
  }
}

std::string BoundJson(const TypeSpec& type, std::string_view bytes) {
  std::string out;
  AppendBoundJson(type, bytes, &out);
  return out;
}

std::string NormalizeZeroBound(ColumnType type, std::string_view bytes, BoundRole role) {
  const bool lower = role == BoundRole::kLower;
  if (type == ColumnType::kFloat && bytes.size() == 4) {
    const auto v = FromLittleEndian<float>(bytes);
    if (v == 0.0f) return LittleEndian(lower ? -0.0f : 0.0f);
  } else if (type == ColumnType::kDouble && bytes.size() == 8) {
    const auto v = FromLittleEndian<double>(bytes);
    if (v == 0.0) return LittleEndian(lower ? -0.0 : 0.0);
  }
  return std::string(bytes);
}

Result<std::string> PromoteBound(ColumnType from, ColumnType to, std::string_view bytes) {
  if (!CanPromote(from, to)) {
    return InvalidArgument("column type ", ColumnTypeName(from), " cannot be promoted to ",
                           ColumnTypeName(to));
  }
  HOGLAKE_ASSIGN_OR_RETURN(BoundValue value, DecodeBound(from, bytes));
  if (value.kind == Kind::kFloat) value = BoundValue::Double(static_cast<double>(value.f));
  return EncodeBound(to, value);
}

Result<int> CompareBounds(const TypeSpec& type, std::string_view a, std::string_view b) {
  HOGLAKE_ASSIGN_OR_RETURN(BoundValue x, DecodeBound(type, a));
  HOGLAKE_ASSIGN_OR_RETURN(BoundValue y, DecodeBound(type, b));
  switch (x.kind) {
    case Kind::kBool:
      return ThreeWay(x.b, y.b);
    case Kind::kInt:
      return ThreeWay(x.i, y.i);
    case Kind::kDecimal:
      return ThreeWay(x.unscaled, y.unscaled);
    case Kind::kFloat:
      return ThreeWay(TotalOrderKey(static_cast<double>(x.f)), TotalOrderKey(y.f));
    case Kind::kDouble:
      return ThreeWay(TotalOrderKey(x.d), TotalOrderKey(y.d));
    case Kind::kBytes: {
      // std::string_view::compare compares char_traits<char>, which orders
      // as unsigned char.
      const int c = std::string_view(x.bytes).compare(y.bytes);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
  return Internal("unhandled bound kind");
}

}  // namespace hoglake::iceberg
