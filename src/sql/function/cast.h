// Casts between SQL types: which exist (explicit and implicit, as
// PostgreSQL's pg_cast has them for our types), the common type two
// operands are brought to, and the kernel that converts an array.
//
// Text → any scalar parses PostgreSQL's input syntax (kInvalidTextRepresentation
// "invalid input syntax for type integer: \"x\""); numeric narrowing rounds
// half away from zero and checks precision (22003 "numeric field overflow");
// float → integer rounds half to even and checks range; any → text prints
// PostgreSQL's output syntax.
#pragma once

#include <optional>

#include "columnar/array.h"
#include "common/status.h"
#include "sql/planner/logical_plan.h"

namespace hoglake::sql {

// Whether PostgreSQL casts `from` to `to` implicitly (in operator and
// function argument resolution and in UNION/CASE/COALESCE type unification).
bool CanCastImplicitly(const SqlType& from, const SqlType& to);

// `arg` cast to `to`; `explicit_cast` for CAST/:: (allows the narrowing and
// text casts an implicit one does not). Casting to the same type returns
// `arg`. A constant argument is cast at bind time (a bad literal fails the
// statement before it runs). kCannotCoerce "cannot cast type x to y" when no
// cast exists.
Result<BoundExprPtr> BindCast(BoundExprPtr arg, const SqlType& to, bool explicit_cast);

// The type PostgreSQL brings a set of expressions to for UNION, CASE,
// COALESCE, IN and comparisons: unknown literals take the others' type;
// numbers widen smallint < integer < bigint < numeric < real < double; date <
// timestamp < timestamptz; otherwise the types must be equal.
// kDatatypeMismatch "<context> types text and integer cannot be matched".
Result<SqlType> CommonType(const std::vector<SqlType>& types, std::string_view context);

// Converts `array` of SQL type `from` to `to`.
Result<columnar::ArrayPtr> CastArray(const columnar::ArrayPtr& array, const SqlType& from,
                                     const SqlType& to);

// A constant cast at bind time.
Result<Value> CastValue(const Value& value, const SqlType& to);

}  // namespace hoglake::sql
