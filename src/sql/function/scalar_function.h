// Scalar functions and operators: the kernels that compute one result array
// from argument arrays, and how a call by name with bound arguments is
// resolved to one (PostgreSQL's rules, simplified: the arguments are cast to
// the function's parameter types first, so each kernel sees arguments of
// exactly the types it was resolved for).
//
// Kernels propagate NULL unless documented otherwise, and fail the query
// with PostgreSQL's errors: integer out of range (22003), division by zero
// (22012), invalid input (22P02).
#pragma once

#include <string_view>
#include <vector>

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

using ScalarKernel = Result<columnar::ArrayPtr> (*)(const std::vector<columnar::ArrayPtr>& args,
                                                    const BoundExpr& call, int64_t rows);

struct ScalarFunction {
  std::string_view name;
  ScalarKernel kernel;
};

// Resolves operator `op` ("+", "=", "||", "~~", …) over bound operands;
// `left` is null for a prefix operator. Errors: kUndefinedFunction
// "operator does not exist: text + integer".
Result<BoundExprPtr> BindOperator(std::string_view op, BoundExprPtr left, BoundExprPtr right);

// Resolves a scalar function call by name (lower case, without schema).
// kUndefinedFunction "function f(integer) does not exist" when no overload
// fits.
Result<BoundExprPtr> BindScalarFunction(std::string_view name, std::vector<BoundExprPtr> args);

// A call with named arguments (f(a, b => x)): the arguments in parameter
// order, defaults filled in. Only functions with named parameters take
// them (make_interval); others, unknown or repeated names are 42883.
Result<std::vector<BoundExprPtr>> ResolveNamedArguments(std::string_view name,
                                                        std::vector<BoundExprPtr> args,
                                                        const std::vector<std::string>& names);

// Whether `name` is a scalar function we know (any overload).
bool IsScalarFunctionName(std::string_view name);

// The bound call of `function` over `args` returning `type`.
BoundExprPtr MakeCall(const ScalarFunction* function, std::vector<BoundExprPtr> args,
                      SqlType type);

// The kernels (defined with their families), for binders and the optimizer.
extern const ScalarFunction kAdd, kSubtract, kMultiply, kDivide, kModulo, kNegate;
extern const ScalarFunction kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual;
extern const ScalarFunction kIsDistinctFrom, kIsNotDistinctFrom;
extern const ScalarFunction kLike, kConcat;

}  // namespace hoglake::sql
