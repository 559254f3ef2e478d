#include "sql/execution/aggregate_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "sql/function/aggregate_function.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;

Error NumericOverflow() {
  return SqlError(SqlErrorKind::kNumericValueOutOfRange,
                  "numeric value exceeds 38 digits of precision");
}

__int128 LoadUnscaled(const ArrayData& a, int64_t i, const SqlType& t) {
  switch (t.id) {
    case SqlTypeId::kSmallint:
      return a.values<int16_t>()[i];
    case SqlTypeId::kInteger:
      return a.values<int32_t>()[i];
    case SqlTypeId::kBigint:
      return a.values<int64_t>()[i];
    default: {
      __int128 v;
      std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * 16, 16);
      return v;
    }
  }
}

double LoadDouble(const ArrayData& a, int64_t i, const SqlType& t) {
  return t.id == SqlTypeId::kReal ? a.values<float>()[i] : a.values<double>()[i];
}

int CompareExtreme(const Value& a, const Value& b) {
  switch (a.type.id) {
    case SqlTypeId::kReal:
    case SqlTypeId::kDouble: {
      bool na = std::isnan(a.d), nb = std::isnan(b.d);
      if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
      return a.d < b.d ? -1 : (a.d > b.d ? 1 : 0);
    }
    case SqlTypeId::kNumeric:
      return a.n < b.n ? -1 : (a.n > b.n ? 1 : 0);
    case SqlTypeId::kInterval: {
      // By span (months of 30 days, days of 24 hours), as interval_cmp.
      auto span = [](const std::string& bytes) {
        int32_t months, days;
        int64_t micros;
        std::memcpy(&months, bytes.data(), 4);
        std::memcpy(&days, bytes.data() + 4, 4);
        std::memcpy(&micros, bytes.data() + 8, 8);
        return (static_cast<__int128>(months) * 30 + days) * 86400000000LL + micros;
      };
      const __int128 x = span(a.s), y = span(b.s);
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case SqlTypeId::kText:
    case SqlTypeId::kBytea:
    case SqlTypeId::kUuid:
    case SqlTypeId::kUnknown: {
      int c = a.s.compare(b.s);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  }
}

// round(sqrt(v · 10^shift)) for v ≥ 0, exactly: the long-hand square root,
// two decimal digits at a time (the root stays below 10^27, so every step
// fits 128 bits).
__int128 SqrtScaled(__int128 v, int shift) {
  std::string digits;
  for (__int128 rest = v; rest > 0; rest /= 10) digits.insert(digits.begin(), '0' + rest % 10);
  digits.append(shift, '0');
  if (digits.size() % 2 == 1) digits.insert(digits.begin(), '0');
  __int128 root = 0, remainder = 0;
  for (size_t i = 0; i < digits.size(); i += 2) {
    remainder = remainder * 100 + (digits[i] - '0') * 10 + (digits[i + 1] - '0');
    int d = 0;
    while ((20 * root + d + 1) * (d + 1) <= remainder) ++d;
    remainder -= (20 * root + d) * d;
    root = root * 10 + d;
  }
  // sqrt ≥ root + ½ ⇔ remainder = M − root² ≥ root + ¼.
  return remainder > root ? root + 1 : root;
}

}  // namespace

Status Update(const BoundAggregate& agg, AggState& st, const ArrayData* arg, int64_t row) {
  AggregateKind kind = agg.function->kind;
  if (kind == AggregateKind::kCountStar) {
    ++st.count;
    return Status::Ok();
  }
  if (arg->IsNull(row)) return Status::Ok();
  const SqlType& t = agg.args[0]->type;
  ++st.count;
  st.has = true;
  switch (kind) {
    case AggregateKind::kCount:
    case AggregateKind::kCountStar:
      break;
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      if (t.is_float()) {
        const double x = LoadDouble(*arg, row, t);
        // sum(real) adds in real (float4pl); avg(real) and double in double.
        const double sum =
            kind == AggregateKind::kSum && t.id == SqlTypeId::kReal
                ? static_cast<float>(static_cast<float>(st.dsum) + static_cast<float>(x))
                : st.dsum + x;
        if (std::isinf(sum) && !std::isinf(st.dsum) && !std::isinf(x)) {
          return SqlError(SqlErrorKind::kNumericValueOutOfRange, "value out of range: overflow");
        }
        st.dsum = sum;
      } else if (__builtin_add_overflow(st.isum, LoadUnscaled(*arg, row, t), &st.isum)) {
        return NumericOverflow();
      }
      break;
    case AggregateKind::kVarSamp:
    case AggregateKind::kVarPop:
    case AggregateKind::kStddevSamp:
    case AggregateKind::kStddevPop:
      if (t.is_float()) {
        double x = LoadDouble(*arg, row, t);
        double delta = x - st.mean;
        st.mean += delta / static_cast<double>(st.count);
        st.m2 += delta * (x - st.mean);
      } else {
        __int128 x = LoadUnscaled(*arg, row, t), x2;
        if (st.count == 1) st.shift = x;
        if (__builtin_sub_overflow(x, st.shift, &x) || __builtin_mul_overflow(x, x, &x2) ||
            __builtin_add_overflow(st.sq, x2, &st.sq) ||
            __builtin_add_overflow(st.isum, x, &st.isum)) {
          return NumericOverflow();
        }
      }
      break;
    case AggregateKind::kMin:
    case AggregateKind::kMax: {
      Value v = ValueAt(*arg, row, t);
      if (st.count == 1) {
        st.extreme = std::move(v);
      } else {
        int c = CompareExtreme(v, st.extreme);
        if (kind == AggregateKind::kMin ? c < 0 : c > 0) st.extreme = std::move(v);
      }
      break;
    }
    case AggregateKind::kPercentileCont:
    case AggregateKind::kPercentileDisc:
    case AggregateKind::kMode:
      st.values.push_back(ValueAt(*arg, row, t));
      break;
    case AggregateKind::kBoolAnd:
      st.b = st.count == 1 ? arg->GetBool(row) : (st.b && arg->GetBool(row));
      break;
    case AggregateKind::kBoolOr:
      st.b = st.count == 1 ? arg->GetBool(row) : (st.b || arg->GetBool(row));
      break;
  }
  return Status::Ok();
}

namespace {

template <typename T>
Status SumIntegerRows(AggState* states, const int64_t* group_of, const ArrayData& arg,
                      int64_t rows) {
  const T* x = arg.values<T>();
  for (int64_t i = 0; i < rows; ++i) {
    if (arg.IsNull(i)) continue;
    AggState& st = states[group_of[i]];
    ++st.count;
    st.has = true;
    if (__builtin_add_overflow(st.isum, static_cast<__int128>(x[i]), &st.isum)) {
      return NumericOverflow();
    }
  }
  return Status::Ok();
}

Status SumDecimalRows(AggState* states, const int64_t* group_of, const ArrayData& arg,
                      int64_t rows) {
  const uint8_t* base = arg.buffers[1]->data() + arg.offset * 16;
  for (int64_t i = 0; i < rows; ++i) {
    if (arg.IsNull(i)) continue;
    __int128 v;
    std::memcpy(&v, base + i * 16, 16);
    AggState& st = states[group_of[i]];
    ++st.count;
    st.has = true;
    if (__builtin_add_overflow(st.isum, v, &st.isum)) return NumericOverflow();
  }
  return Status::Ok();
}

}  // namespace

Status UpdateRows(const BoundAggregate& agg, AggState* states, const int64_t* group_of,
                  const ArrayData* arg, const ArrayData* filter, int64_t rows) {
  const AggregateKind kind = agg.function->kind;
  if (filter == nullptr) {
    if (kind == AggregateKind::kCountStar) {
      for (int64_t i = 0; i < rows; ++i) ++states[group_of[i]].count;
      return Status::Ok();
    }
    if (kind == AggregateKind::kCount) {
      for (int64_t i = 0; i < rows; ++i) {
        if (arg->IsNull(i)) continue;
        AggState& st = states[group_of[i]];
        ++st.count;
        st.has = true;
      }
      return Status::Ok();
    }
    if (kind == AggregateKind::kSum || kind == AggregateKind::kAvg) {
      switch (agg.args[0]->type.id) {
        case SqlTypeId::kSmallint:
          return SumIntegerRows<int16_t>(states, group_of, *arg, rows);
        case SqlTypeId::kInteger:
          return SumIntegerRows<int32_t>(states, group_of, *arg, rows);
        case SqlTypeId::kBigint:
          return SumIntegerRows<int64_t>(states, group_of, *arg, rows);
        case SqlTypeId::kNumeric:
          return SumDecimalRows(states, group_of, *arg, rows);
        default:
          break;
      }
    }
  }
  for (int64_t i = 0; i < rows; ++i) {
    if (filter != nullptr && !(filter->IsValid(i) && filter->GetBool(i))) continue;
    HOGLAKE_RETURN_IF_ERROR(Update(agg, states[group_of[i]], arg, i));
  }
  return Status::Ok();
}

bool IsMergeable(const BoundAggregate& agg) {
  if (agg.distinct) return false;
  switch (agg.function->kind) {
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      return true;
    default:
      return IsInvertible(agg);  // count, and exact sums and averages
  }
}

Status Merge(const BoundAggregate& agg, AggState& into, const AggState& from) {
  const AggregateKind kind = agg.function->kind;
  if (from.count == 0) return Status::Ok();
  if (into.count == 0) {
    into = from;
    return Status::Ok();
  }
  into.count += from.count;
  into.has = into.has || from.has;
  switch (kind) {
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      if (__builtin_add_overflow(into.isum, from.isum, &into.isum)) return NumericOverflow();
      break;
    case AggregateKind::kMin:
    case AggregateKind::kMax: {
      const int c = CompareExtreme(from.extreme, into.extreme);
      if (kind == AggregateKind::kMin ? c < 0 : c > 0) into.extreme = from.extreme;
      break;
    }
    case AggregateKind::kBoolAnd:
      into.b = into.b && from.b;
      break;
    case AggregateKind::kBoolOr:
      into.b = into.b || from.b;
      break;
    default:
      break;
  }
  return Status::Ok();
}

bool IsInvertible(const BoundAggregate& agg) {
  switch (agg.function->kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      return true;
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      return !agg.args[0]->type.is_float();
    default:
      return false;
  }
}

void Remove(const BoundAggregate& agg, AggState& st, const ArrayData* arg, int64_t row) {
  AggregateKind kind = agg.function->kind;
  if (kind == AggregateKind::kCountStar) {
    --st.count;
    return;
  }
  if (arg->IsNull(row)) return;
  --st.count;
  st.has = st.count > 0;
  if (kind == AggregateKind::kSum || kind == AggregateKind::kAvg) {
    // Every partial sum of the rows left was a sum Update computed, so it fits.
    st.isum -= LoadUnscaled(*arg, row, agg.args[0]->type);
  }
}

namespace {

// percentile_cont / percentile_disc / mode over the group's values, as
// PostgreSQL's orderedsetaggs.c: sorted by the WITHIN GROUP order; cont
// interpolates between rows floor and ceil of q·(n − 1); disc takes row
// ceil(q·n) (the first when that is below 1); mode the most frequent value,
// the first in sort order among ties.
Result<Value> FinalizeOrderedSet(const BoundAggregate& agg, const AggState& st) {
  const AggregateKind kind = agg.function->kind;
  double q = 0;
  if (kind != AggregateKind::kMode) {
    const Value& fraction = agg.args[1]->value;
    if (fraction.is_null) return Value::Null(agg.type);
    q = fraction.d;
    if (!(q >= 0 && q <= 1)) {
      std::string text;
      AppendPgDouble(q, &text);
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "percentile value ", text,
                      " is not between 0 and 1");
    }
  }
  std::vector<Value> v = st.values;
  if (v.empty()) return Value::Null(agg.type);
  const bool desc = agg.order_descending;
  std::stable_sort(v.begin(), v.end(), [desc](const Value& a, const Value& b) {
    const int c = CompareValue(a, b);
    return desc ? c > 0 : c < 0;
  });
  const auto n = static_cast<int64_t>(v.size());
  Value out;
  if (kind == AggregateKind::kPercentileCont) {
    const double position = q * static_cast<double>(n - 1);
    const auto first = static_cast<int64_t>(std::floor(position));
    const auto second = static_cast<int64_t>(std::ceil(position));
    const double lo = v[first].d, hi = v[second].d;
    out = Value::Double(
        SqlTypeId::kDouble,
        first == second ? lo : lo + (hi - lo) * (position - static_cast<double>(first)));
  } else if (kind == AggregateKind::kPercentileDisc) {
    const auto row = static_cast<int64_t>(std::ceil(q * static_cast<double>(n)));
    out = v[std::max<int64_t>(row, 1) - 1];
  } else {
    size_t best = 0, best_count = 0;
    for (size_t i = 0; i < v.size();) {
      size_t j = i + 1;
      while (j < v.size() && CompareValue(v[i], v[j]) == 0) ++j;
      if (j - i > best_count) {
        best = i;
        best_count = j - i;
      }
      i = j;
    }
    out = v[best];
  }
  out.type = agg.type;
  return out;
}

}  // namespace

Result<Value> Finalize(const BoundAggregate& agg, const AggState& st) {
  if (agg.function->kind == AggregateKind::kPercentileCont ||
      agg.function->kind == AggregateKind::kPercentileDisc ||
      agg.function->kind == AggregateKind::kMode) {
    return FinalizeOrderedSet(agg, st);
  }
  AggregateKind kind = agg.function->kind;
  const SqlType& out = agg.type;
  if (kind == AggregateKind::kCount || kind == AggregateKind::kCountStar) {
    return Value::Integer(SqlTypeId::kBigint, st.count);
  }
  if (!st.has) return Value::Null(out);
  const SqlType& in = agg.args[0]->type;
  switch (kind) {
    case AggregateKind::kSum:
      if (out.is_float()) return Value::Double(out.id, st.dsum);
      if (out.id == SqlTypeId::kBigint) {
        if (st.isum > INT64_MAX || st.isum < INT64_MIN) {
          return SqlError(SqlErrorKind::kNumericValueOutOfRange, "bigint out of range");
        }
        return Value::Integer(SqlTypeId::kBigint, static_cast<int64_t>(st.isum));
      }
      if (st.isum >= PowerOfTen(38) || st.isum <= -PowerOfTen(38)) return NumericOverflow();
      return Value::Numeric(-1, out.scale, st.isum);
    case AggregateKind::kAvg: {
      if (out.is_float()) return Value::Double(out.id, st.dsum / static_cast<double>(st.count));
      __int128 q;
      int scale_in = in.id == SqlTypeId::kNumeric ? in.scale : 0;
      if (!DivideDecimal(st.isum, scale_in, st.count, 0, out.scale, &q)) return NumericOverflow();
      return Value::Numeric(-1, out.scale, q);
    }
    case AggregateKind::kVarSamp:
    case AggregateKind::kVarPop:
    case AggregateKind::kStddevSamp:
    case AggregateKind::kStddevPop: {
      bool samp = kind == AggregateKind::kVarSamp || kind == AggregateKind::kStddevSamp;
      bool root = kind == AggregateKind::kStddevSamp || kind == AggregateKind::kStddevPop;
      if (samp && st.count < 2) return Value::Null(out);
      int64_t n = st.count;
      if (out.is_float()) {
        double var = st.m2 / static_cast<double>(samp ? n - 1 : n);
        return Value::Double(out.id, root ? std::sqrt(var) : var);
      }
      // var = (n·Σx² − (Σx)²) / (n·(n − 1) or n²), Σx² at scale 2s.
      int s = in.id == SqlTypeId::kNumeric ? in.scale : 0;
      __int128 a, b, num;
      if (__builtin_mul_overflow(static_cast<__int128>(n), st.sq, &a) ||
          __builtin_mul_overflow(st.isum, st.isum, &b) || __builtin_sub_overflow(a, b, &num)) {
        return NumericOverflow();
      }
      __int128 den = static_cast<__int128>(n) * (samp ? n - 1 : n);
      __int128 var;
      if (!DivideDecimal(num, 2 * s, den, 0, out.scale, &var)) return NumericOverflow();
      if (!root) return Value::Numeric(-1, out.scale, var);
      // The root of the variance taken to 4 more digits (when they fit), so
      // the variance's rounding does not reach the root's last digit.
      __int128 finer;
      if (out.scale >= 4 && DivideDecimal(num, 2 * s, den, 0, out.scale + 4, &finer)) {
        return Value::Numeric(-1, out.scale, SqrtScaled(finer, out.scale - 4));
      }
      return Value::Numeric(-1, out.scale, SqrtScaled(var, out.scale));
    }
    case AggregateKind::kMin:
    case AggregateKind::kMax: {
      Value v = st.extreme;
      v.type = out;
      return v;
    }
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      return Value::Boolean(st.b);
    default:
      return Internal("aggregate kind");
  }
}

}  // namespace hoglake::sql
