// Operator and function resolution: PostgreSQL's rules for the operators
// and functions we implement, reduced to what our types need. Operands are
// cast (implicitly) to the chosen signature's types here, so kernels see
// exactly the types they were chosen for.
#include <algorithm>
#include <string>

#include "sql/function/array_functions.h"
#include "sql/function/builtins.h"
#include "sql/function/cast.h"
#include "sql/function/function_kernels.h"
#include "sql/sql_error.h"
#include "sql/types/value_text.h"

namespace hoglake::sql {
namespace {

bool IsComparison(std::string_view op) {
  return op == "=" || op == "<>" || op == "!=" || op == "<" || op == "<=" || op == ">" ||
         op == ">=";
}

const ScalarFunction* ComparisonFunction(std::string_view op) {
  if (op == "=") return &kEqual;
  if (op == "<>" || op == "!=") return &kNotEqual;
  if (op == "<") return &kLess;
  if (op == "<=") return &kLessEqual;
  if (op == ">") return &kGreater;
  return &kGreaterEqual;
}

Error NoOperator(std::string_view op, const BoundExprPtr& left, const BoundExprPtr& right) {
  if (left == nullptr) {
    return SqlError(SqlErrorKind::kUndefinedFunction, "operator does not exist: ", op, " ",
                    PgTypeName(right->type));
  }
  return SqlError(SqlErrorKind::kUndefinedFunction, "operator does not exist: ",
                  PgTypeName(left->type), " ", op, " ", PgTypeName(right->type));
}

Error NotUnique(std::string_view op, const BoundExprPtr& left, const BoundExprPtr& right) {
  if (left == nullptr) {
    return SqlError(SqlErrorKind::kAmbiguousFunction, "operator is not unique: ", op, " ",
                    PgTypeName(right->type));
  }
  return SqlError(SqlErrorKind::kAmbiguousFunction,
                  "operator is not unique: ", PgTypeName(left->type), " ", op, " ",
                  PgTypeName(right->type));
}

// Casts both operands to `type`, keeping a numeric operand's own scale.
Result<std::pair<BoundExprPtr, BoundExprPtr>> CastBoth(BoundExprPtr l, BoundExprPtr r,
                                                        const SqlType& type) {
  SqlType target = type;
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr lc, BindCast(std::move(l), target, false));
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr rc, BindCast(std::move(r), target, false));
  return std::make_pair(std::move(lc), std::move(rc));
}

// PostgreSQL's select_div_scale, for a quotient of two known values: enough
// fraction digits for 16 significant digits, judged from each operand's
// leading base-10000 digit and its weight, and no fewer than either
// operand's scale.
int PgDivisionScale(const Value& a, const Value& b) {
  auto leading = [](const Value& v, int* first) {
    const __int128 u = v.n < 0 ? -v.n : v.n;
    *first = 0;
    if (u == 0) return 0;
    const int e10 = DecimalDigits(u) - 1 - v.type.scale;  // 10^e10 ≤ |v| < 10^(e10+1)
    const int weight = e10 >= 0 ? e10 / 4 : -((3 - e10) / 4);
    const int shift = v.type.scale + 4 * weight;  // |v| / 10000^weight = u / 10^shift
    *first = static_cast<int>(shift >= 0 ? u / PowerOfTen(shift) : u * PowerOfTen(-shift));
    return weight;
  };
  int first_a, first_b;
  int weight = leading(a, &first_a) - leading(b, &first_b);
  if (first_a <= first_b) --weight;
  return std::max({16 - weight * 4, a.type.scale, b.type.scale, 0});
}

Result<BoundExprPtr> BindArithmetic(std::string_view op, BoundExprPtr l, BoundExprPtr r) {
  SqlTypeId a = l->type.id, b = r->type.id;
  // An unknown literal is first taken as the other operand's type, as
  // PostgreSQL resolves operators: date - '2024-01-01' is date - date and
  // timestamp - '…' timestamp - timestamp; date + '1' fits several
  // operators (integer, interval, time) and '1' + '2' every one.
  if (a == SqlTypeId::kUnknown && b == SqlTypeId::kUnknown) return NotUnique(op, l, r);
  auto is_datetime = [](SqlTypeId t) {
    return t == SqlTypeId::kDate || t == SqlTypeId::kTimestamp || t == SqlTypeId::kTimestampTz;
  };
  if ((is_datetime(a) && b == SqlTypeId::kUnknown) ||
      (a == SqlTypeId::kUnknown && is_datetime(b))) {
    const SqlType known = is_datetime(a) ? l->type : r->type;
    if (op == "-") {
      HOGLAKE_ASSIGN_OR_RETURN(l, BindCast(l, known, false));
      HOGLAKE_ASSIGN_OR_RETURN(r, BindCast(r, known, false));
      return BindArithmetic(op, l, r);
    }
    if (op == "+" && known.id == SqlTypeId::kDate) return NotUnique(op, l, r);
    // timestamp + '…' is timestamp + interval, the one operator left.
    if (op == "+" && a == SqlTypeId::kUnknown) return BindArithmetic(op, r, l);
  }
  // Dates and times first.
  if (a == SqlTypeId::kDate && r->type.is_integer() && (op == "+" || op == "-")) {
    HOGLAKE_ASSIGN_OR_RETURN(r, BindCast(r, SqlType::Of(SqlTypeId::kInteger), false));
    auto call = MakeCall(&kDatePlusDays, {l, r}, SqlType::Of(SqlTypeId::kDate));
    const_cast<BoundExpr&>(*call).name = std::string(op);
    return call;
  }
  if (l->type.is_integer() && b == SqlTypeId::kDate && op == "+") {
    return BindArithmetic(op, r, l);
  }
  if (a == SqlTypeId::kDate && b == SqlTypeId::kDate && op == "-") {
    return MakeCall(&kDateMinusDate, {l, r}, SqlType::Of(SqlTypeId::kInteger));
  }
  bool l_time = a == SqlTypeId::kDate || a == SqlTypeId::kTimestamp || a == SqlTypeId::kTimestampTz;
  bool r_time = b == SqlTypeId::kDate || b == SqlTypeId::kTimestamp || b == SqlTypeId::kTimestampTz;
  if (l_time && r_time && op == "-") {
    // timestamp − timestamp (a date is widened to the other side's type).
    HOGLAKE_ASSIGN_OR_RETURN(SqlType common, CommonType({l->type, r->type}, "operator"));
    HOGLAKE_ASSIGN_OR_RETURN(auto operands, CastBoth(l, r, common));
    return MakeCall(&kTimestampMinusTimestamp, {operands.first, operands.second},
                    SqlType::Of(SqlTypeId::kInterval));
  }
  if (l_time && (b == SqlTypeId::kInterval || b == SqlTypeId::kUnknown) &&
      (op == "+" || op == "-")) {
    SqlType result = SqlType::Of(a == SqlTypeId::kTimestampTz ? SqlTypeId::kTimestampTz
                                                              : SqlTypeId::kTimestamp);
    HOGLAKE_ASSIGN_OR_RETURN(l, BindCast(l, result, false));
    HOGLAKE_ASSIGN_OR_RETURN(r, BindCast(r, SqlType::Of(SqlTypeId::kInterval), false));
    auto call = MakeCall(&kTimestampPlusInterval, {l, r}, result);
    const_cast<BoundExpr&>(*call).name = std::string(op);
    return call;
  }
  if (a == SqlTypeId::kInterval && (b == SqlTypeId::kDate || b == SqlTypeId::kTimestamp ||
                                    b == SqlTypeId::kTimestampTz) && op == "+") {
    return BindArithmetic(op, r, l);
  }
  bool l_num = l->type.is_numeric_kind() || a == SqlTypeId::kUnknown;
  bool r_num = r->type.is_numeric_kind() || b == SqlTypeId::kUnknown;
  if (!l_num || !r_num || (a == SqlTypeId::kUnknown && b == SqlTypeId::kUnknown)) {
    return NoOperator(op, l, r);
  }
  HOGLAKE_ASSIGN_OR_RETURN(SqlType common, CommonType({l->type, r->type}, "operator"));
  if (common.id == SqlTypeId::kReal && (l->type.id != r->type.id) &&
      l->type.id != SqlTypeId::kUnknown && r->type.id != SqlTypeId::kUnknown) {
    common = SqlType::Of(SqlTypeId::kDouble);
  }
  if (common.id == SqlTypeId::kNumeric) {
    SqlType operand = SqlType::Numeric(-1, 0);
    HOGLAKE_ASSIGN_OR_RETURN(l, BindCast(l, operand, false));
    HOGLAKE_ASSIGN_OR_RETURN(r, BindCast(r, operand, false));
    int sa = l->type.scale, sb = r->type.scale;
    int scale = std::max(sa, sb);
    if (op == "*") scale = sa + sb;
    if (op == "/") {
      scale = std::max({16, sa, sb});
      // Constants get PostgreSQL's scale (1 / 3.0 has 20 fraction digits);
      // columns one scale for every row.
      if (l->kind == BoundKind::kConstant && r->kind == BoundKind::kConstant && !l->value.is_null &&
          !r->value.is_null) {
        const int exact = PgDivisionScale(l->value, r->value);
        if (exact <= kMaxNumericPrecision) scale = exact;
      }
    }
    if (scale > kMaxNumericPrecision) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "numeric result scale ", scale,
                      " exceeds the maximum 38");
    }
    SqlType result = SqlType::Numeric(-1, scale);
    const ScalarFunction* f = op == "+" ? &kAdd : op == "-" ? &kSubtract : op == "*" ? &kMultiply
                              : op == "/" ? &kDivide : &kModulo;
    return MakeCall(f, {l, r}, result);
  }
  if (op == "%" && common.is_float()) return NoOperator(op, l, r);
  HOGLAKE_ASSIGN_OR_RETURN(auto operands, CastBoth(l, r, common));
  const ScalarFunction* f = op == "+" ? &kAdd : op == "-" ? &kSubtract : op == "*" ? &kMultiply
                            : op == "/" ? &kDivide : &kModulo;
  return MakeCall(f, {operands.first, operands.second}, common);
}

}  // namespace

BoundExprPtr MakeCall(const ScalarFunction* function, std::vector<BoundExprPtr> args,
                      SqlType type) {
  auto e = std::make_shared<BoundExpr>();
  e->kind = BoundKind::kCall;
  e->function = function;
  e->args = std::move(args);
  e->type = std::move(type);
  e->name = std::string(function->name);
  return e;
}

Result<BoundExprPtr> BindComparison(std::string_view op, BoundExprPtr l, BoundExprPtr r,
                                    const ScalarFunction* f) {
  if (l->type.is_nested() || r->type.is_nested()) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "comparing values of type ",
                    PgTypeName(l->type.is_nested() ? l->type : r->type), " is not supported");
  }
  auto common = CommonType({l->type, r->type}, "operator");
  if (!common.ok()) return NoOperator(op, l, r);
  if (common->id == SqlTypeId::kNumeric) common = SqlType::Numeric(-1, 0);
  auto cast = CastBoth(l, r, *common);
  if (!cast.ok()) {
    // A literal that does not read as the other side's type fails as input
    // (1 = 'a': 22P02); only a missing cast means no such operator.
    if (cast.error().detail.sqlstate != InfoFor(SqlErrorKind::kCannotCoerce).sqlstate) {
      return cast.status();
    }
    return NoOperator(op, l, r);
  }
  return MakeCall(f, {cast->first, cast->second}, SqlType::Of(SqlTypeId::kBoolean));
}

Result<BoundExprPtr> BindOperator(std::string_view op, BoundExprPtr left, BoundExprPtr right) {
  if (left == nullptr) {
    // An unknown operand: prefix + exists for numeric types only, so the
    // category's preferred double precision; prefix - for interval too.
    if (right->type.id == SqlTypeId::kUnknown && op == "-") return NotUnique(op, left, right);
    if (right->type.id == SqlTypeId::kUnknown && op == "+") {
      return BindCast(right, SqlType::Of(SqlTypeId::kDouble), false);
    }
    if (op == "+") return right;
    if (op == "-" && (right->type.is_numeric_kind() || right->type.id == SqlTypeId::kUnknown)) {
      if (right->type.id == SqlTypeId::kUnknown) {
        HOGLAKE_ASSIGN_OR_RETURN(right, BindCast(right, SqlType::Numeric(-1, 0), false));
      }
      SqlType type = right->type;
      // -x of a numeric(p,s) is an unconstrained numeric, as in PostgreSQL.
      if (type.id == SqlTypeId::kNumeric) type = SqlType::Numeric(-1, type.scale);
      return MakeCall(&kNegate, {right}, type);
    }
    return NoOperator(op, left, right);
  }
  if (IsComparison(op)) return BindComparison(op, left, right, ComparisonFunction(op));
  if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
    return BindArithmetic(op, std::move(left), std::move(right));
  }
  if (op == "~" || op == "~*" || op == "!~" || op == "!~*") {
    // POSIX regular-expression match (regex.h).
    SqlType text = SqlType::Of(SqlTypeId::kText);
    for (BoundExprPtr* e : {&left, &right}) {
      if ((*e)->type.id == SqlTypeId::kUnknown) {
        HOGLAKE_ASSIGN_OR_RETURN(*e, BindCast(*e, text, false));
      }
    }
    if (left->type.id != SqlTypeId::kText || right->type.id != SqlTypeId::kText) {
      return NoOperator(op, left, right);
    }
    auto call = MakeCall(&kRegexMatchOperator, {left, right}, SqlType::Of(SqlTypeId::kBoolean));
    const_cast<BoundExpr&>(*call).name = std::string(op);
    return call;
  }
  if (op == "||") {
    if (left->type.is_nested() || right->type.is_nested()) return NoOperator(op, left, right);
    SqlType text = SqlType::Of(SqlTypeId::kText);
    HOGLAKE_ASSIGN_OR_RETURN(left, BindCast(left, text, true));
    HOGLAKE_ASSIGN_OR_RETURN(right, BindCast(right, text, true));
    return MakeCall(&kConcat, {left, right}, text);
  }
  return SqlError(SqlErrorKind::kUndefinedFunction, "operator does not exist: ",
                  PgTypeName(left->type), " ", op, " ", PgTypeName(right->type));
}

namespace {

Result<BoundExprPtr> TextArg(BoundExprPtr arg) {
  if (arg->type.id == SqlTypeId::kText) return arg;
  if (arg->type.id == SqlTypeId::kUnknown || arg->type.id == SqlTypeId::kJson) {
    return BindCast(arg, SqlType::Of(SqlTypeId::kText), true);
  }
  return arg;  // the signature check below names it
}

Result<BoundExprPtr> IntArg(BoundExprPtr arg) {
  if (arg->type.id == SqlTypeId::kUnknown || arg->type.id == SqlTypeId::kSmallint) {
    return BindCast(arg, SqlType::Of(SqlTypeId::kInteger), false);
  }
  return arg;
}

Error NoFunction(std::string_view name, const std::vector<BoundExprPtr>& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) list += ", ";
    list += PgTypeName(args[i]->type);
  }
  return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, "(", list,
                  ") does not exist");
}

struct TextSignature {
  std::string_view name;
  const ScalarFunction* function;
  int min_args;
  int max_args;
  // argument kinds after the first text argument: 't' text, 'i' integer
  std::string_view rest;
  SqlTypeId result;
};

const TextSignature kTextFunctions[] = {
    {"lower", &kLower, 1, 1, "", SqlTypeId::kText},
    {"upper", &kUpper, 1, 1, "", SqlTypeId::kText},
    {"length", &kLength, 1, 1, "", SqlTypeId::kInteger},
    {"char_length", &kLength, 1, 1, "", SqlTypeId::kInteger},
    {"character_length", &kLength, 1, 1, "", SqlTypeId::kInteger},
    {"octet_length", &kOctetLength, 1, 1, "", SqlTypeId::kInteger},
    {"strpos", &kStrpos, 2, 2, "t", SqlTypeId::kInteger},
    {"position", &kStrpos, 2, 2, "t", SqlTypeId::kInteger},
    {"substring", &kSubstring, 2, 3, "ii", SqlTypeId::kText},
    {"substr", &kSubstring, 2, 3, "ii", SqlTypeId::kText},
    {"btrim", &kBtrim, 1, 2, "t", SqlTypeId::kText},
    {"ltrim", &kLtrim, 1, 2, "t", SqlTypeId::kText},
    {"rtrim", &kRtrim, 1, 2, "t", SqlTypeId::kText},
    {"replace", &kReplace, 3, 3, "tt", SqlTypeId::kText},
    {"left", &kLeft, 2, 2, "i", SqlTypeId::kText},
    {"right", &kRight, 2, 2, "i", SqlTypeId::kText},
};

Result<BoundExprPtr> BindTextFunction(const TextSignature& sig, std::vector<BoundExprPtr> args) {
  int n = static_cast<int>(args.size());
  if (n < sig.min_args || n > sig.max_args) return NoFunction(sig.name, args);
  HOGLAKE_ASSIGN_OR_RETURN(args[0], TextArg(args[0]));
  if (args[0]->type.id != SqlTypeId::kText) return NoFunction(sig.name, args);
  for (int i = 1; i < n; ++i) {
    char kind = sig.rest[i - 1];
    if (kind == 't') {
      HOGLAKE_ASSIGN_OR_RETURN(args[i], TextArg(args[i]));
      if (args[i]->type.id != SqlTypeId::kText) return NoFunction(sig.name, args);
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(args[i], IntArg(args[i]));
      if (args[i]->type.id != SqlTypeId::kInteger && args[i]->type.id != SqlTypeId::kBigint) {
        return NoFunction(sig.name, args);
      }
    }
  }
  return MakeCall(sig.function, std::move(args), SqlType::Of(sig.result));
}

Result<BoundExprPtr> BindMath(std::string_view name, const ScalarFunction* f,
                              std::vector<BoundExprPtr> args) {
  if (args.empty() || args.size() > 2 || (args.size() == 2 && name != "round")) {
    return NoFunction(name, args);
  }
  BoundExprPtr x = args[0];
  if (x->type.id == SqlTypeId::kUnknown) {
    HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Of(SqlTypeId::kDouble), false));
  }
  if (!x->type.is_numeric_kind()) return NoFunction(name, args);
  if (name == "sqrt") {
    HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Of(SqlTypeId::kDouble), false));
    return MakeCall(f, {x}, x->type);
  }
  if (name != "abs" && (x->type.is_integer() || x->type.id == SqlTypeId::kReal) &&
      args.size() == 1) {
    // round/floor/ceil of an integer or a real resolve to the double
    // precision overloads (there are none for real; double precision is the
    // numeric category's preferred type).
    HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Of(SqlTypeId::kDouble), false));
  }
  if (args.size() == 2) {
    if (x->type.id != SqlTypeId::kNumeric) {
      HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Numeric(-1, 0), false));
      if (args[0]->type.is_float()) return NoFunction(name, args);
    }
    BoundExprPtr digits = args[1];
    HOGLAKE_ASSIGN_OR_RETURN(digits, IntArg(digits));
    if (digits->kind != BoundKind::kConstant || digits->type.id != SqlTypeId::kInteger) {
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "round(numeric, n) needs a constant integer n");
    }
    int scale = digits->value.is_null ? 0 : static_cast<int>(std::max<int64_t>(0, digits->value.i));
    if (scale > kMaxNumericPrecision) {
      return SqlError(SqlErrorKind::kNumericValueOutOfRange, "round scale ", scale,
                      " exceeds the maximum 38");
    }
    return MakeCall(f, {x, digits}, SqlType::Numeric(-1, scale));
  }
  SqlType result = x->type;
  // numeric results drop the type modifier (abs keeps the scale).
  if (result.id == SqlTypeId::kNumeric) {
    result = SqlType::Numeric(-1, name == "abs" ? result.scale : 0);
  }
  return MakeCall(f, {x}, result);
}

Result<BoundExprPtr> BindFieldFunction(std::string_view name, std::vector<BoundExprPtr> args) {
  if (args.size() != 2) return NoFunction(name, args);
  HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr field, TextArg(args[0]));
  if (field->kind != BoundKind::kConstant || field->type.id != SqlTypeId::kText) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, name,
                    "'s field must be a constant text");
  }
  const std::string lowered = CanonicalDatetimeUnit(field->value.s);
  Value field_value = Value::Text(lowered);
  field = MakeConstant(field_value);
  BoundExprPtr value = args[1];
  if (value->type.id == SqlTypeId::kUnknown) {
    HOGLAKE_ASSIGN_OR_RETURN(value, BindCast(value, SqlType::Of(SqlTypeId::kTimestampTz), false));
  }
  SqlTypeId t = value->type.id;
  if (t == SqlTypeId::kInterval && name != "date_trunc") {
    int scale = 0;
    if (lowered == "second" || lowered == "epoch") scale = 6;
    if (lowered == "milliseconds") scale = 3;
    return MakeCall(&kIntervalPart, {field, value},
                    name == "date_part" ? SqlType::Of(SqlTypeId::kDouble)
                                        : SqlType::Numeric(-1, scale));
  }
  if (name == "date_trunc") {
    if (t == SqlTypeId::kDate) {
      HOGLAKE_ASSIGN_OR_RETURN(value,
                               BindCast(value, SqlType::Of(SqlTypeId::kTimestampTz), false));
    } else if (t != SqlTypeId::kTimestamp && t != SqlTypeId::kTimestampTz) {
      return NoFunction(name, args);
    }
    return MakeCall(&kDateTrunc, {field, value}, value->type);
  }
  if (t != SqlTypeId::kDate && t != SqlTypeId::kTimestamp && t != SqlTypeId::kTimestampTz) {
    return NoFunction(name, args);
  }
  if (name == "date_part") {
    if (t == SqlTypeId::kDate) {
      HOGLAKE_ASSIGN_OR_RETURN(value, BindCast(value, SqlType::Of(SqlTypeId::kTimestamp), false));
    }
    return MakeCall(&kExtractField, {field, value}, SqlType::Of(SqlTypeId::kDouble));
  }
  int scale = 0;
  if (t != SqlTypeId::kDate && (lowered == "second" || lowered == "epoch")) scale = 6;
  if (t != SqlTypeId::kDate && lowered == "milliseconds") scale = 3;
  return MakeCall(&kExtractField, {field, value}, SqlType::Numeric(-1, scale));
}

}  // namespace

bool IsScalarFunctionName(std::string_view name) {
  for (const TextSignature& sig : kTextFunctions) {
    if (sig.name == name) return true;
  }
  return name == "abs" || name == "round" || name == "floor" || name == "ceil" ||
         name == "ceiling" || name == "sqrt" || name == "extract" || name == "date_part" ||
         name == "date_trunc" || name == "concat" || IsArrayFunctionName(name) ||
         IsBuiltinFunctionName(name);
}

Result<BoundExprPtr> BindScalarFunction(std::string_view name, std::vector<BoundExprPtr> args) {
  for (const TextSignature& sig : kTextFunctions) {
    if (sig.name == name) return BindTextFunction(sig, std::move(args));
  }
  if (name == "abs") return BindMath(name, &kAbs, std::move(args));
  if (name == "round") return BindMath(name, &kRound, std::move(args));
  if (name == "floor") return BindMath(name, &kFloor, std::move(args));
  if (name == "ceil" || name == "ceiling") return BindMath("ceil", &kCeil, std::move(args));
  if (name == "sqrt") return BindMath(name, &kSqrt, std::move(args));
  if (name == "extract" || name == "date_part" || name == "date_trunc") {
    return BindFieldFunction(name, std::move(args));
  }
  if (IsArrayFunctionName(name)) return BindArrayFunction(name, std::move(args));
  if (name == "concat") {
    // concat is VARIADIC: it needs at least one argument.
    if (args.empty()) return NoFunction(name, args);
    // concat ignores NULLs: coalesce(arg::text, '') for each, joined.
    BoundExprPtr acc = MakeConstant(Value::Text(""));
    for (BoundExprPtr& arg : args) {
      if (arg->type.id == SqlTypeId::kBoolean) {
        // concat prints with the output function (t/f), not the cast
        // (true/false): CASE WHEN arg THEN 't' WHEN arg IS NOT NULL THEN 'f' END.
        auto not_null = std::make_shared<BoundExpr>();
        not_null->kind = BoundKind::kIsNull;
        not_null->negated = true;
        not_null->type = SqlType::Of(SqlTypeId::kBoolean);
        not_null->args = {arg};
        auto output = std::make_shared<BoundExpr>();
        output->kind = BoundKind::kCase;
        output->type = SqlType::Of(SqlTypeId::kText);
        output->args = {arg, MakeConstant(Value::Text("t")), not_null,
                        MakeConstant(Value::Text("f"))};
        arg = output;
      }
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr text, BindCast(arg, SqlType::Of(SqlTypeId::kText), true));
      auto coalesce = std::make_shared<BoundExpr>();
      coalesce->kind = BoundKind::kCoalesce;
      coalesce->type = SqlType::Of(SqlTypeId::kText);
      coalesce->args = {text, MakeConstant(Value::Text(""))};
      acc = MakeCall(&kConcat, {acc, coalesce}, SqlType::Of(SqlTypeId::kText));
    }
    return acc;
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<BoundExprPtr> builtin,
                           BindBuiltinFunction(name, args));
  if (builtin) return *builtin;
  return NoFunction(name, args);
}

}  // namespace hoglake::sql
