// Scalar functions computed one row at a time over Values: the form the
// less-travelled built-ins take (text padding, calendar constructors,
// to_char, regular expressions, …), where clarity beats a vectorized loop.
// A RowFunction is a ScalarFunction whose kernel (RowKernel) reads each
// row's arguments as Values, calls `row` and appends what it returns in the
// call's result type. Strict functions (the default) give NULL without
// calling `row` when any argument is NULL. Internal to src/sql/function.
#pragma once

#include <vector>

#include "sql/function/scalar_function.h"
#include "sql/types/value.h"

namespace hoglake::sql {

// One row: `args` in the bound call's argument types; the result must be of
// call.type (or null).
using RowFn = Result<Value> (*)(const std::vector<Value>& args, const BoundExpr& call);

struct RowFunction : ScalarFunction {
  RowFn row = nullptr;
  bool strict = true;
};

Result<columnar::ArrayPtr> RowKernel(const std::vector<columnar::ArrayPtr>& args,
                                     const BoundExpr& call, int64_t rows);

constexpr RowFunction MakeRowFunction(std::string_view name, RowFn row, bool strict = true) {
  RowFunction f;
  f.name = name;
  f.kernel = RowKernel;
  f.row = row;
  f.strict = strict;
  return f;
}

// Small constructors for results.
inline Value NullOf(const BoundExpr& call) { return Value::Null(call.type); }
inline Value TextValue(std::string s) { return Value::Text(std::move(s)); }

}  // namespace hoglake::sql
