#include "iceberg/partition_keys.h"

#include <cstring>
#include <functional>
#include <unordered_map>

#include "columnar/json_rows.h"
#include "common/encoding.h"
#include "iceberg/partition_text.h"

namespace hoglake::iceberg {
namespace {

using columnar::ArrayData;
using columnar::TimeUnit;
using columnar::TypeId;
using T = ColumnType;

struct Int128Hash {
  size_t operator()(__int128 v) const {
    const auto u = static_cast<unsigned __int128>(v);
    const auto lo = static_cast<uint64_t>(u);
    const auto hi = static_cast<uint64_t>(u >> 64);
    return std::hash<uint64_t>{}(lo ^ (hi * 0x9E3779B97F4A7C15ull));
  }
};

// Hands out one code per distinct key; renders a key's wire string the first
// time the key is seen, and folds keys that render alike into one code.
template <typename Key, typename Hash = std::hash<Key>>
class Coder {
 public:
  explicit Coder(PartitionKeyColumn* out) : out_(out) {}

  template <typename Render>
  int32_t Code(const Key& key, Render& render) {
    if (has_last_ && key == last_key_) return last_code_;
    auto [it, inserted] = by_key_.try_emplace(key, 0);
    if (inserted) {
      std::string text;
      Status rendered = render(key, &text);
      if (!rendered.ok()) {
        status_ = std::move(rendered);
        return PartitionKeyColumn::kNull;
      }
      const auto next = static_cast<int32_t>(out_->values.size());
      auto [text_it, new_text] = by_text_.try_emplace(text, next);
      if (new_text) out_->values.push_back(std::move(text));
      it->second = text_it->second;
    }
    has_last_ = true;
    last_key_ = key;
    last_code_ = it->second;
    return last_code_;
  }
  const Status& status() const { return status_; }

 private:
  PartitionKeyColumn* out_;
  std::unordered_map<Key, int32_t, Hash> by_key_;
  std::unordered_map<std::string, int32_t> by_text_;
  bool has_last_ = false;
  Key last_key_{};
  int32_t last_code_ = 0;
  Status status_;
};

// Runs the per-row loop: get_key(i, &key, &error) → bool, then the coder.
template <typename Key, typename Hash = std::hash<Key>, typename GetKey, typename Render>
Result<PartitionKeyColumn> Encode(const ArrayData& a, GetKey get_key, Render render) {
  PartitionKeyColumn out;
  out.codes.resize(static_cast<size_t>(a.length));
  Coder<Key, Hash> coder(&out);
  Error error{ErrorCode::kInternal, {}};
  for (int64_t i = 0; i < a.length; ++i) {
    if (a.IsNull(i)) {
      out.codes[static_cast<size_t>(i)] = PartitionKeyColumn::kNull;
      continue;
    }
    Key key{};
    if (!get_key(i, &key, &error)) return error;
    out.codes[static_cast<size_t>(i)] = coder.Code(key, render);
    if (!coder.status().ok()) return coder.status().error();
  }
  return out;
}

// ---- reading source values --------------------------------------------------

using IntReader = __int128 (*)(const ArrayData&, int64_t);

template <typename C>
__int128 ReadInt(const ArrayData& a, int64_t i) {
  C value;
  std::memcpy(&value, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(C)),
              sizeof(C));
  return static_cast<__int128>(value);
}

// Integer-valued arrays: ints, date32 (days), time64 and timestamp (ticks).
IntReader IntReaderFor(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
      return &ReadInt<int8_t>;
    case TypeId::kInt16:
      return &ReadInt<int16_t>;
    case TypeId::kInt32:
    case TypeId::kDate32:
      return &ReadInt<int32_t>;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return &ReadInt<int64_t>;
    case TypeId::kUInt8:
      return &ReadInt<uint8_t>;
    case TypeId::kUInt16:
      return &ReadInt<uint16_t>;
    case TypeId::kUInt32:
      return &ReadInt<uint32_t>;
    case TypeId::kUInt64:
      return &ReadInt<uint64_t>;
    case TypeId::kDecimal128:
      return &ReadInt<__int128>;
    default:
      return nullptr;
  }
}

bool IsIntegerArray(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
      return true;
    default:
      return false;
  }
}

Status CheckSourceArray(const TypeSpec& type, const columnar::DataType& arrow) {
  bool ok = false;
  switch (type.type) {
    case T::kBoolean:
      ok = arrow.id == TypeId::kBool;
      break;
    case T::kFloat:
    case T::kDouble:
      ok = arrow.id == TypeId::kFloat32 || arrow.id == TypeId::kFloat64;
      break;
    case T::kDecimal:
      ok = arrow.id == TypeId::kDecimal128 && (type.precision == 0 || arrow.scale == type.scale);
      break;
    case T::kDate:
      ok = arrow.id == TypeId::kDate32;
      break;
    case T::kTime:
      ok = arrow.id == TypeId::kTime64;
      break;
    case T::kString:
    case T::kJson:
      ok = arrow.id == TypeId::kUtf8;
      break;
    case T::kUuid:
      ok = arrow.id == TypeId::kFixedSizeBinary && arrow.byte_width == 16;
      break;
    case T::kBinary:
      ok = arrow.id == TypeId::kBinary || arrow.id == TypeId::kFixedSizeBinary;
      break;
    default:
      if (IsIntegerType(type.type)) ok = IsIntegerArray(arrow.id);
      if (IsTimestampType(type.type)) ok = arrow.id == TypeId::kTimestamp;
  }
  if (ok) return Status::Ok();
  return InvalidArgument("a partition source array of Arrow type ", arrow.ToString(),
                         " cannot hold catalog type ", type.ToString());
}

// ---- renderers ------------------------------------------------------------

Status RenderInteger(const __int128& v, std::string* out) {
  out->append(columnar::FormatDecimal(v, 0));
  return Status::Ok();
}

Status RenderInt64(const int64_t& v, std::string* out) {
  out->append(std::to_string(v));
  return Status::Ok();
}

// ---- per transform ----------------------------------------------------------

// Integer-like keys read straight from the array (ints, decimals, date days).
template <typename Render>
Result<PartitionKeyColumn> EncodeWide(const ArrayData& a, Render render) {
  const IntReader read = IntReaderFor(a.type->id);
  return Encode<__int128, Int128Hash>(
      a,
      [&](int64_t i, __int128* key, Error*) {
        *key = read(a, i);
        return true;
      },
      render);
}

// Time and timestamp keys in micros (or nanos for timestamp_ns identity).
template <typename Convert, typename Render>
Result<PartitionKeyColumn> EncodeTicks(const ArrayData& a, Convert convert, Render render) {
  const TimeUnit unit = a.type->unit;
  return Encode<int64_t>(
      a,
      [&](int64_t i, int64_t* key, Error* error) {
        auto converted = convert(static_cast<int64_t>(ReadInt<int64_t>(a, i)), unit);
        if (!converted.ok()) {
          *error = converted.error();
          return false;
        }
        *key = *converted;
        return true;
      },
      render);
}

template <typename Render>
Result<PartitionKeyColumn> EncodeViews(const ArrayData& a, int64_t truncate_to, bool code_points,
                                       Render render) {
  return Encode<std::string_view>(
      a,
      [&](int64_t i, std::string_view* key, Error*) {
        *key = a.GetView(i);
        if (truncate_to > 0) {
          *key = code_points ? TruncateUtf8(*key, truncate_to) : TruncateBinary(*key, truncate_to);
        }
        return true;
      },
      render);
}

Result<PartitionKeyColumn> Identity(const ArrayData& a, const TypeSpec& type) {
  switch (type.type) {
    case T::kBoolean:
      return Encode<int64_t>(
          a,
          [&](int64_t i, int64_t* key, Error*) {
            *key = a.GetBool(i) ? 1 : 0;
            return true;
          },
          [](const int64_t& v, std::string* out) {
            out->append(v ? "true" : "false");
            return Status::Ok();
          });
    case T::kFloat:
    case T::kDouble: {
      const bool f32 = a.type->id == TypeId::kFloat32;
      return Encode<int64_t>(
          a,
          [&](int64_t i, int64_t* key, Error*) {
            const double v =
                f32 ? static_cast<double>(a.values<float>()[i]) : a.values<double>()[i];
            std::memcpy(key, &v, sizeof(v));
            return true;
          },
          [](const int64_t& bits, std::string* out) {
            double v;
            std::memcpy(&v, &bits, sizeof(v));
            AppendPythonFloatRepr(v, out);
            return Status::Ok();
          });
    }
    case T::kDecimal: {
      const int32_t scale = a.type->scale;
      return EncodeWide(a, [scale](const __int128& v, std::string* out) {
        AppendPythonDecimalStr(v, scale, out);
        return Status::Ok();
      });
    }
    case T::kDate:
      return EncodeWide(a, [](const __int128& v, std::string* out) {
        return AppendPythonDate(static_cast<int64_t>(v), out);
      });
    case T::kTime:
      return EncodeTicks(a, TicksToMicros, [](const int64_t& v, std::string* out) {
        return AppendPythonTime(v, out);
      });
    case T::kTimestampNs:
      return EncodeTicks(a, TicksToNanos, RenderInt64);
    case T::kString:
    case T::kJson:
      return EncodeViews(a, 0, false, [](const std::string_view& v, std::string* out) {
        out->append(v);
        return Status::Ok();
      });
    case T::kUuid:
      return EncodeViews(a, 0, false, [](const std::string_view& v, std::string* out) {
        AppendUuid(v, out);
        return Status::Ok();
      });
    case T::kBinary:
      return EncodeViews(a, 0, false, [](const std::string_view& v, std::string* out) {
        AppendBase64(v, out);
        return Status::Ok();
      });
    default:
      if (IsTimestampType(type.type)) {
        const bool tz = type.type == T::kTimestamptz;
        return EncodeTicks(a, TicksToMicros, [tz](const int64_t& v, std::string* out) {
          return AppendPythonDatetime(v, tz, out);
        });
      }
      return EncodeWide(a, RenderInteger);  // every integer width
  }
}

Result<PartitionKeyColumn> Bucket(const ArrayData& a, const TypeSpec& type, int32_t n) {
  switch (type.type) {
    case T::kDecimal:
      return EncodeWide(a, [n](const __int128& v, std::string* out) {
        out->append(std::to_string(BucketOf(IcebergHashDecimal(v), n)));
        return Status::Ok();
      });
    case T::kString:
    case T::kUuid:
    case T::kBinary:
      return EncodeViews(a, 0, false, [n](const std::string_view& v, std::string* out) {
        out->append(std::to_string(BucketOf(IcebergHashBytes(v), n)));
        return Status::Ok();
      });
    case T::kTime:
    case T::kTimestamp:
    case T::kTimestamptz:
      return EncodeTicks(a, TicksToMicros, [n](const int64_t& v, std::string* out) {
        out->append(std::to_string(BucketOf(IcebergHashLong(v), n)));
        return Status::Ok();
      });
    default:  // integers and date days, hashed as longs
      return EncodeWide(a, [n](const __int128& v, std::string* out) {
        out->append(std::to_string(BucketOf(IcebergHashLong(static_cast<int64_t>(v)), n)));
        return Status::Ok();
      });
  }
}

Result<PartitionKeyColumn> Truncate(const ArrayData& a, const TypeSpec& type, int32_t w) {
  switch (type.type) {
    case T::kString:
      return EncodeViews(a, w, true, [](const std::string_view& v, std::string* out) {
        out->append(v);
        return Status::Ok();
      });
    case T::kBinary:
      return EncodeViews(a, w, false, [](const std::string_view& v, std::string* out) {
        AppendBase64(v, out);
        return Status::Ok();
      });
    default: {  // integers and decimals: key on the truncated value
      const IntReader read = IntReaderFor(a.type->id);
      const bool decimal = type.type == T::kDecimal;
      const int32_t scale = a.type->scale;
      return Encode<__int128, Int128Hash>(
          a,
          [&](int64_t i, __int128* key, Error*) {
            *key = TruncateInteger(read(a, i), w);
            return true;
          },
          [decimal, scale](const __int128& v, std::string* out) {
            if (decimal) {
              AppendPythonDecimalStr(v, scale, out);
            } else {
              out->append(columnar::FormatDecimal(v, 0));
            }
            return Status::Ok();
          });
    }
  }
}

// year / month / day / hour: computed per row, keyed by the result.
Result<PartitionKeyColumn> Temporal(const ArrayData& a, TransformKind kind) {
  const bool date = a.type->id == TypeId::kDate32;
  const TimeUnit unit = a.type->unit;
  return Encode<int64_t>(
      a,
      [&](int64_t i, int64_t* key, Error* error) {
        int64_t days;
        if (date) {
          days = static_cast<int64_t>(ReadInt<int32_t>(a, i));
        } else {
          auto micros = TicksToMicros(static_cast<int64_t>(ReadInt<int64_t>(a, i)), unit);
          if (!micros.ok()) {
            *error = micros.error();
            return false;
          }
          if (kind == TransformKind::kHour) {
            *key = HoursFromMicros(*micros);
            return true;
          }
          days = DaysFromMicros(*micros);
        }
        switch (kind) {
          case TransformKind::kYear:
            *key = YearsFromDays(days);
            break;
          case TransformKind::kMonth:
            *key = MonthsFromDays(days);
            break;
          default:
            *key = days;
            break;
        }
        return true;
      },
      RenderInt64);
}

}  // namespace

Result<PartitionKeyColumn> ComputePartitionKeys(const ArrayData& source, const TypeSpec& type,
                                                const Transform& transform) {
  HOGLAKE_RETURN_IF_ERROR(CheckTransformSource(transform, type.type));
  HOGLAKE_RETURN_IF_ERROR(CheckSourceArray(type, *source.type));
  switch (transform.kind) {
    case TransformKind::kIdentity:
      return Identity(source, type);
    case TransformKind::kBucket:
      if (transform.param < 1) return Validation("bucket requires a positive bucket count");
      return Bucket(source, type, transform.param);
    case TransformKind::kTruncate:
      if (transform.param < 1) return Validation("truncate requires a positive width");
      return Truncate(source, type, transform.param);
    default:
      return Temporal(source, transform.kind);
  }
}

Result<std::vector<PartitionGroup>> GroupRowsByPartition(std::span<const PartitionKeyColumn> keys) {
  if (keys.empty()) return InvalidArgument("grouping by partition needs at least one field");
  const size_t n = keys[0].codes.size();
  for (const PartitionKeyColumn& key : keys) {
    if (key.codes.size() != n) {
      return InvalidArgument("partition key columns have different lengths (", n, " and ",
                             key.codes.size(), ")");
    }
  }
  // Fold the fields in one at a time: a row's tuple id after field k names
  // the distinct (tuple id after k-1, code k) pair, numbered in order of first
  // occurrence, so the final ids are in first-occurrence order of the tuple.
  std::vector<int32_t> ids(n, 0);
  int32_t id_count = 1;  // before any field every row is in one tuple
  for (const PartitionKeyColumn& key : keys) {
    const uint64_t width = key.values.size() + 1;  // codes shifted by one: null → 0
    int32_t next_count = 0;
    const uint64_t dense_size = static_cast<uint64_t>(id_count) * width;
    if (dense_size <= (uint64_t{1} << 22)) {
      std::vector<int32_t> table(dense_size, -1);
      for (size_t row = 0; row < n; ++row) {
        int32_t& slot = table[static_cast<uint64_t>(ids[row]) * width +
                              static_cast<uint64_t>(key.codes[row] + 1)];
        if (slot < 0) slot = next_count++;
        ids[row] = slot;
      }
    } else {
      std::unordered_map<uint64_t, int32_t> table;
      for (size_t row = 0; row < n; ++row) {
        const uint64_t pair =
            (static_cast<uint64_t>(ids[row]) << 32) | static_cast<uint32_t>(key.codes[row] + 1);
        auto [it, inserted] = table.try_emplace(pair, next_count);
        if (inserted) ++next_count;
        ids[row] = it->second;
      }
    }
    id_count = next_count;
  }
  std::vector<int64_t> sizes(static_cast<size_t>(id_count), 0);
  for (size_t row = 0; row < n; ++row) ++sizes[static_cast<size_t>(ids[row])];
  std::vector<PartitionGroup> groups(static_cast<size_t>(id_count));
  for (size_t row = 0; row < n; ++row) {
    PartitionGroup& group = groups[static_cast<size_t>(ids[row])];
    if (group.rows.empty()) {
      group.rows.reserve(static_cast<size_t>(sizes[static_cast<size_t>(ids[row])]));
      group.values.reserve(keys.size());
      for (const PartitionKeyColumn& key : keys) {
        const auto value = key.ValueAt(static_cast<int64_t>(row));
        group.values.push_back(value ? std::optional<std::string>(std::string(*value))
                                     : std::nullopt);
      }
    }
    group.rows.push_back(static_cast<int64_t>(row));
  }
  return groups;
}

}  // namespace hoglake::iceberg
