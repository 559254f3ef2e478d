#include "sql/function/constant_comparison.h"

#include <cstring>
#include <string_view>
#include <unordered_set>

#include "sql/execution/vector_ops.h"
#include "sql/function/compare_values.h"
#include "sql/function/scalar_function.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;

// Above this many text constants an IN list probes a hash set instead of
// comparing each constant in turn.
constexpr size_t kHashSetThreshold = 8;

bool Holds(ComparisonOp op, int c) {
  switch (op) {
    case ComparisonOp::kEq:
      return c == 0;
    case ComparisonOp::kNe:
      return c != 0;
    case ComparisonOp::kLt:
      return c < 0;
    case ComparisonOp::kLe:
      return c <= 0;
    case ComparisonOp::kGt:
      return c > 0;
    case ComparisonOp::kGe:
      return c >= 0;
  }
  return false;
}

template <typename T>
void CompareFixed(const ArrayData& values, T constant, ComparisonOp op, int64_t rows,
                  BoolOutput* out) {
  const T* x = values.values<T>();
  for (int64_t i = 0; i < rows; ++i) {
    out->Set(i, Holds(op, x[i] < constant ? -1 : (x[i] > constant ? 1 : 0)));
  }
}

// Text and bytes: an equality test looks at the bytes only when the
// lengths agree.
void CompareBytes(const ArrayData& values, std::string_view constant, ComparisonOp op,
                  int64_t rows, BoolOutput* out) {
  const int32_t* offsets = values.offsets();
  const char* data =
      values.buffers[2] ? reinterpret_cast<const char*>(values.buffers[2]->data()) : nullptr;
  const size_t size = constant.size();
  if (op == ComparisonOp::kEq || op == ComparisonOp::kNe) {
    const bool want = op == ComparisonOp::kEq;
    for (int64_t i = 0; i < rows; ++i) {
      const size_t len = static_cast<size_t>(offsets[i + 1] - offsets[i]);
      bool equal = len == size && (size == 0 || std::memcmp(data + offsets[i], constant.data(), size) == 0);
      out->Set(i, equal == want);
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i) {
    std::string_view v(data == nullptr ? "" : data + offsets[i],
                       static_cast<size_t>(offsets[i + 1] - offsets[i]));
    out->Set(i, Holds(op, v.compare(constant)));
  }
}

// Every other type through the kernels' own comparison, against the
// constant as a one-row array.
Status CompareGeneric(const ArrayData& values, const SqlType& type, ComparisonOp op,
                      const Value& constant, int64_t rows, BoolOutput* out) {
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr one, BroadcastValue(constant, 1));
  for (int64_t i = 0; i < rows; ++i) {
    if (values.IsNull(i)) continue;
    out->Set(i, Holds(op, CompareValues(values, i, type, *one, 0, constant.type)));
  }
  return Status::Ok();
}

void NullWhereNull(const ArrayData& values, int64_t rows, BoolOutput* out) {
  if (values.null_count == 0) return;
  for (int64_t i = 0; i < rows; ++i) {
    if (values.IsNull(i)) out->SetNull(i);
  }
}

ArrayPtr AllNull(int64_t rows) {
  BoolOutput out(rows);
  for (int64_t i = 0; i < rows; ++i) out.SetNull(i);
  return out.Finish();
}

}  // namespace

std::optional<ComparisonOp> ComparisonOf(const BoundExpr& expr) {
  if (expr.kind != BoundKind::kCall || expr.args.size() != 2) return std::nullopt;
  if (expr.function == &kEqual) return ComparisonOp::kEq;
  if (expr.function == &kNotEqual) return ComparisonOp::kNe;
  if (expr.function == &kLess) return ComparisonOp::kLt;
  if (expr.function == &kLessEqual) return ComparisonOp::kLe;
  if (expr.function == &kGreater) return ComparisonOp::kGt;
  if (expr.function == &kGreaterEqual) return ComparisonOp::kGe;
  return std::nullopt;
}

ComparisonOp Mirrored(ComparisonOp op) {
  switch (op) {
    case ComparisonOp::kLt:
      return ComparisonOp::kGt;
    case ComparisonOp::kLe:
      return ComparisonOp::kGe;
    case ComparisonOp::kGt:
      return ComparisonOp::kLt;
    case ComparisonOp::kGe:
      return ComparisonOp::kLe;
    default:
      return op;
  }
}

Result<ArrayPtr> CompareToConstant(const ArrayData& values, const SqlType& type, ComparisonOp op,
                                   const Value& constant, int64_t rows) {
  if (constant.is_null) return AllNull(rows);
  if (type.is_nested()) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "comparing values of type ",
                    PgTypeName(type), " is not supported");
  }
  BoolOutput out(rows);
  const bool same_type = constant.type.id == type.id;
  switch (same_type ? type.id : SqlTypeId::kUnknown) {
    case SqlTypeId::kSmallint:
      CompareFixed<int16_t>(values, static_cast<int16_t>(constant.i), op, rows, &out);
      break;
    case SqlTypeId::kInteger:
    case SqlTypeId::kDate:
      CompareFixed<int32_t>(values, static_cast<int32_t>(constant.i), op, rows, &out);
      break;
    case SqlTypeId::kBigint:
    case SqlTypeId::kTimestamp:
    case SqlTypeId::kTimestampTz:
    case SqlTypeId::kTime:
      CompareFixed<int64_t>(values, constant.i, op, rows, &out);
      break;
    case SqlTypeId::kNumeric:
      if (constant.type.scale == type.scale) {
        const __int128 c = constant.n;
        for (int64_t i = 0; i < rows; ++i) {
          const __int128 x = LoadDecimal(values, i);
          out.Set(i, Holds(op, x < c ? -1 : (x > c ? 1 : 0)));
        }
        break;
      }
      HOGLAKE_RETURN_IF_ERROR(CompareGeneric(values, type, op, constant, rows, &out));
      break;
    case SqlTypeId::kText:
    case SqlTypeId::kBytea:
    case SqlTypeId::kJson:
      if (values.type->is_binary_like()) {
        CompareBytes(values, constant.s, op, rows, &out);
        break;
      }
      [[fallthrough]];
    default:
      HOGLAKE_RETURN_IF_ERROR(CompareGeneric(values, type, op, constant, rows, &out));
  }
  NullWhereNull(values, rows, &out);
  return out.Finish();
}

Result<ArrayPtr> InConstants(const ArrayData& values, const SqlType& type,
                             const std::vector<const Value*>& constants, int64_t rows) {
  bool any_null_constant = false;
  std::vector<const Value*> present;
  for (const Value* c : constants) {
    if (c->is_null) {
      any_null_constant = true;
    } else {
      present.push_back(c);
    }
  }
  BoolOutput out(rows);
  bool all_bytes = values.type->is_binary_like() &&
                   (type.id == SqlTypeId::kText || type.id == SqlTypeId::kBytea ||
                    type.id == SqlTypeId::kJson);
  for (const Value* c : present) all_bytes &= c->type.id == type.id;
  if (all_bytes && present.size() > kHashSetThreshold) {
    std::unordered_set<std::string_view> set;
    for (const Value* c : present) set.insert(c->s);
    const int32_t* offsets = values.offsets();
    const char* data =
        values.buffers[2] ? reinterpret_cast<const char*>(values.buffers[2]->data()) : "";
    for (int64_t i = 0; i < rows; ++i) {
      std::string_view v(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
      if (set.count(v) > 0) out.Set(i, true);
    }
  } else {
    // One pass per constant, each a vectorized equality, OR-ed together.
    for (const Value* c : present) {
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr eq,
                               CompareToConstant(values, type, ComparisonOp::kEq, *c, rows));
      for (int64_t i = 0; i < rows; ++i) {
        if (IsTrue(*eq, i)) out.Set(i, true);
      }
    }
  }
  // Not matched: NULL when the value or any constant is NULL.
  if (any_null_constant || values.null_count > 0) {
    const ArrayPtr bits = out.Finish();
    BoolOutput with_nulls(rows);
    for (int64_t i = 0; i < rows; ++i) {
      if (bits->GetBool(i) && !values.IsNull(i)) {
        with_nulls.Set(i, true);
      } else if (any_null_constant || values.IsNull(i)) {
        with_nulls.SetNull(i);
      }
    }
    return with_nulls.Finish();
  }
  return out.Finish();
}

}  // namespace hoglake::sql
