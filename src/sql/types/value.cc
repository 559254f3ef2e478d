#include "sql/types/value.h"

#include <algorithm>
#include <cstring>

#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "common/encoding.h"
#include "sql/types/nested_value.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {

Value Value::Boolean(bool v) {
  Value out{SqlType::Of(SqlTypeId::kBoolean)};
  out.is_null = false;
  out.b = v;
  return out;
}

Value Value::Integer(SqlTypeId id, int64_t v) {
  Value out{SqlType::Of(id)};
  out.is_null = false;
  out.i = v;
  return out;
}

Value Value::Double(SqlTypeId id, double v) {
  Value out{SqlType::Of(id)};
  out.is_null = false;
  out.d = v;
  return out;
}

Value Value::Numeric(int precision, int scale, __int128 unscaled) {
  Value out{SqlType::Numeric(precision, scale)};
  out.is_null = false;
  out.n = unscaled;
  return out;
}

Value Value::Text(std::string v, SqlTypeId id) {
  Value out{SqlType::Of(id)};
  out.is_null = false;
  out.s = std::move(v);
  return out;
}

Status AppendValue(columnar::ArrayBuilder* builder, const Value& value) {
  if (value.is_null) {
    builder->AppendNull();
    return Status::Ok();
  }
  switch (value.type.id) {
    case SqlTypeId::kBoolean:
      static_cast<columnar::BooleanBuilder*>(builder)->Append(value.b);
      return Status::Ok();
    case SqlTypeId::kSmallint:
      static_cast<columnar::NumericBuilder<int16_t>*>(builder)->Append(
          static_cast<int16_t>(value.i));
      return Status::Ok();
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      static_cast<columnar::NumericBuilder<int32_t>*>(builder)->Append(
          static_cast<int32_t>(value.i));
      return Status::Ok();
    case SqlTypeId::kBigint:
    case SqlTypeId::kTime:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      static_cast<columnar::NumericBuilder<int64_t>*>(builder)->Append(value.i);
      return Status::Ok();
    case SqlTypeId::kReal:
      static_cast<columnar::NumericBuilder<float>*>(builder)->Append(static_cast<float>(value.d));
      return Status::Ok();
    case SqlTypeId::kDouble:
      static_cast<columnar::NumericBuilder<double>*>(builder)->Append(value.d);
      return Status::Ok();
    case SqlTypeId::kNumeric:
      static_cast<columnar::Decimal128Builder*>(builder)->Append(value.n);
      return Status::Ok();
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
    case SqlTypeId::kBytea:
      static_cast<columnar::BinaryBuilder*>(builder)->Append(value.s);
      return Status::Ok();
    case SqlTypeId::kUuid:
    case SqlTypeId::kInterval:
      return static_cast<columnar::FixedSizeBinaryBuilder*>(builder)->Append(value.s);
    case SqlTypeId::kArray:
    case SqlTypeId::kComposite:
    case SqlTypeId::kMap:
      return AppendNestedValue(builder, value);
    default:
      return NotImplemented("values of type ", PgTypeName(value.type),
                            " cannot be built one by one");
  }
}

namespace {

// Fills `size` bytes at `dst` with copies of the `width` bytes at `src`.
void Repeat(uint8_t* dst, const uint8_t* src, int64_t width, int64_t size) {
  if (size <= 0) return;
  std::memcpy(dst, src, static_cast<size_t>(std::min(width, size)));
  for (int64_t filled = width; filled < size; filled *= 2) {
    std::memcpy(dst + filled, dst, static_cast<size_t>(std::min(filled, size - filled)));
  }
}

}  // namespace

Result<columnar::ArrayPtr> BroadcastValue(const Value& value, int64_t rows) {
  // One value built the ordinary way, then its buffers repeated.
  std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(CarrierType(value.type));
  HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), value));
  HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr one, builder->Finish());
  if (rows == 1) return one;
  const columnar::DataType& type = *one->type;
  const int bits = type.bit_width();
  const bool fixed = !type.is_nested() && bits > 0 && bits % 8 == 0;
  if (one->offset != 0 || (!fixed && !type.is_binary_like() && type.id != columnar::TypeId::kBool)) {
    std::unique_ptr<columnar::ArrayBuilder> all = columnar::MakeBuilder(CarrierType(value.type));
    for (int64_t r = 0; r < rows; ++r) HOGLAKE_RETURN_IF_ERROR(AppendValue(all.get(), value));
    return all->Finish();
  }
  auto out = std::make_shared<columnar::ArrayData>();
  out->type = one->type;
  out->length = rows;
  out->buffers.resize(one->buffers.size());
  const int64_t bitmap_bytes = columnar::BytesForBits(rows);
  auto bitmap = [&](bool set) {
    auto buffer = columnar::Buffer::Allocate(bitmap_bytes);
    std::memset(buffer->mutable_data(), set ? 0xFF : 0, static_cast<size_t>(bitmap_bytes));
    return buffer;
  };
  if (value.is_null) {
    out->null_count = rows;
    out->buffers[0] = bitmap(false);
  }
  if (type.id == columnar::TypeId::kBool) {
    out->buffers[1] = bitmap(!value.is_null && one->GetBool(0));
  } else if (fixed) {
    const int64_t width = bits / 8;
    auto buffer = columnar::Buffer::Allocate(rows * width);
    Repeat(buffer->mutable_data(), one->buffers[1]->data(), width, rows * width);
    out->buffers[1] = std::move(buffer);
  } else {
    const std::string_view bytes = value.is_null ? std::string_view() : one->GetView(0);
    const auto length = static_cast<int64_t>(bytes.size());
    if (length * rows > INT32_MAX) return Internal("constant repeated past 2 GiB");
    auto offsets = columnar::Buffer::Allocate((rows + 1) * 4);
    auto* o = reinterpret_cast<int32_t*>(offsets->mutable_data());
    for (int64_t r = 0; r <= rows; ++r) o[r] = static_cast<int32_t>(r * length);
    auto data = columnar::Buffer::Allocate(length * rows);
    Repeat(data->mutable_data(), reinterpret_cast<const uint8_t*>(bytes.data()), length,
           length * rows);
    out->buffers[1] = std::move(offsets);
    out->buffers[2] = std::move(data);
  }
  return columnar::ArrayPtr(out);
}

Value ValueAt(const columnar::ArrayData& array, int64_t row, const SqlType& type) {
  Value out{type};
  if (array.IsNull(row)) return out;
  out.is_null = false;
  switch (type.id) {
    case SqlTypeId::kBoolean:
      out.b = array.GetBool(row);
      break;
    case SqlTypeId::kSmallint:
      out.i = array.values<int16_t>()[row];
      break;
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      out.i = array.values<int32_t>()[row];
      break;
    case SqlTypeId::kBigint:
    case SqlTypeId::kTime:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      out.i = array.values<int64_t>()[row];
      break;
    case SqlTypeId::kReal:
      out.d = array.values<float>()[row];
      break;
    case SqlTypeId::kDouble:
      out.d = array.values<double>()[row];
      break;
    case SqlTypeId::kNumeric:
      std::memcpy(&out.n, array.buffers[1]->data() + (array.offset + row) * 16, 16);
      break;
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
    case SqlTypeId::kBytea:
    case SqlTypeId::kUuid:
    case SqlTypeId::kInterval:
      out.s = std::string(array.GetView(row));
      break;
    case SqlTypeId::kArray:
    case SqlTypeId::kComposite:
    case SqlTypeId::kMap:
      NestedValueAt(array, row, &out);
      break;
  }
  return out;
}

int CompareValue(const Value& a, const Value& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  switch (a.type.id) {
    case SqlTypeId::kBoolean:
      return sign(a.b, b.b);
    case SqlTypeId::kReal:
    case SqlTypeId::kDouble: {
      bool na = a.d != a.d, nb = b.d != b.d;
      if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
      return sign(a.d, b.d);
    }
    case SqlTypeId::kNumeric: {
      int sa = a.type.scale, sb = b.type.scale;
      __int128 x = a.n, y = b.n;
      if (sa < sb) {
        if (__builtin_mul_overflow(x, PowerOfTen(sb - sa), &x)) return a.n < 0 ? -1 : 1;
      } else if (sb < sa) {
        if (__builtin_mul_overflow(y, PowerOfTen(sa - sb), &y)) return b.n < 0 ? 1 : -1;
      }
      return sign(x, y);
    }
    case SqlTypeId::kUnknown:
    case SqlTypeId::kText:
    case SqlTypeId::kJson:
    case SqlTypeId::kBytea:
    case SqlTypeId::kUuid:
    case SqlTypeId::kInterval: {
      int c = a.s.compare(b.s);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return sign(a.i, b.i);
  }
}

std::string ValueToString(const Value& value) {
  if (value.is_null) return "NULL";
  std::string out;
  switch (value.type.id) {
    case SqlTypeId::kBoolean:
      return value.b ? "t" : "f";
    case SqlTypeId::kSmallint:
    case SqlTypeId::kInteger:
    case SqlTypeId::kBigint:
      return std::to_string(value.i);
    case SqlTypeId::kReal:
      AppendPgReal(static_cast<float>(value.d), &out);
      return out;
    case SqlTypeId::kDouble:
      AppendPgDouble(value.d, &out);
      return out;
    case SqlTypeId::kNumeric:
      return columnar::FormatDecimal(value.n, value.type.scale);
    case SqlTypeId::kDate:
      AppendPgDate(static_cast<int32_t>(value.i), &out);
      return out;
    case SqlTypeId::kTime:
      AppendPgTime(value.i, &out);
      return out;
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
      AppendPgTimestamp(value.i, value.type.id == SqlTypeId::kTimestampTz, &out);
      return out;
    case SqlTypeId::kBytea:
      AppendPgBytea(value.s, &out);
      return out;
    case SqlTypeId::kUuid:
      AppendUuid(value.s, &out);
      return out;
    case SqlTypeId::kInterval: {
      int32_t months, days;
      int64_t micros;
      std::memcpy(&months, value.s.data(), 4);
      std::memcpy(&days, value.s.data() + 4, 4);
      std::memcpy(&micros, value.s.data() + 8, 8);
      AppendPgInterval(months, days, micros, &out);
      return out;
    }
    case SqlTypeId::kArray:
    case SqlTypeId::kComposite:
    case SqlTypeId::kMap:
      AppendNestedText(value, &out);
      return out;
    default:
      return value.s;
  }
}

}  // namespace hoglake::sql
