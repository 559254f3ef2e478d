// Overload resolution for the row-at-a-time built-ins (builtins.h):
// PostgreSQL's rules reduced to what these signatures need. An argument
// fits a parameter when it has the parameter's type, is an unknown literal,
// or casts to it implicitly; among the overloads every argument fits, the
// one with the most exact matches wins and ties go to the first listed
// (listed so that PostgreSQL's preferred types — double precision,
// timestamptz — come first). An overload without a function is one
// PostgreSQL has and the engine does not yet: 0A000.
#include <string>

#include "sql/function/builtins.h"
#include "sql/function/cast.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using T = SqlTypeId;

struct Overload {
  std::string_view name;
  std::vector<SqlType> params;
  SqlType result;
  const ScalarFunction* function;  // null: PostgreSQL has it, the engine not yet
};

SqlType Ty(T id) { return SqlType::Of(id); }
const SqlType kText = Ty(T::kText), kInt = Ty(T::kInteger), kBig = Ty(T::kBigint),
              kDouble = Ty(T::kDouble), kBool = Ty(T::kBoolean), kNum = SqlType::Numeric(-1, 0),
              kNum16 = SqlType::Numeric(-1, 16), kDate = Ty(T::kDate), kTime = Ty(T::kTime),
              kTs = Ty(T::kTimestamp), kTsTz = Ty(T::kTimestampTz), kInterval = Ty(T::kInterval),
              kTextArray = SqlType::Array(kText);

const std::vector<Overload>& Overloads() {
  static const std::vector<Overload> kOverloads = {
      {"starts_with", {kText, kText}, kBool, &kStartsWith},
      {"lpad", {kText, kInt}, kText, &kLpad},
      {"lpad", {kText, kInt, kText}, kText, &kLpad},
      {"rpad", {kText, kInt}, kText, &kRpad},
      {"rpad", {kText, kInt, kText}, kText, &kRpad},
      {"split_part", {kText, kText, kInt}, kText, &kSplitPart},
      {"reverse", {kText}, kText, &kReverse},
      {"repeat", {kText, kInt}, kText, &kRepeat},
      {"ascii", {kText}, kInt, &kAscii},
      {"chr", {kInt}, kText, &kChr},
      {"initcap", {kText}, kText, &kInitcap},
      {"md5", {kText}, kText, &kMd5},
      {"translate", {kText, kText, kText}, kText, &kTranslate},
      {"levenshtein", {kText, kText}, kInt, &kLevenshtein},
      {"levenshtein", {kText, kText, kInt, kInt, kInt}, kInt, &kLevenshtein},
      {"sin", {kDouble}, kDouble, &kSin},
      {"cos", {kDouble}, kDouble, &kCos},
      {"tan", {kDouble}, kDouble, &kTan},
      {"cot", {kDouble}, kDouble, &kCot},
      {"asin", {kDouble}, kDouble, &kAsin},
      {"acos", {kDouble}, kDouble, &kAcos},
      {"atan", {kDouble}, kDouble, &kAtan},
      {"atan2", {kDouble, kDouble}, kDouble, &kAtan2},
      {"degrees", {kDouble}, kDouble, &kDegrees},
      {"radians", {kDouble}, kDouble, &kRadians},
      {"cbrt", {kDouble}, kDouble, &kCbrt},
      {"pi", {}, kDouble, &kPi},
      {"random", {}, kDouble, &kRandom},
      {"exp", {kDouble}, kDouble, &kExp},
      {"exp", {kNum}, kNum, nullptr},
      {"ln", {kDouble}, kDouble, &kLn},
      {"ln", {kNum}, kNum16, &kNumericLn},
      {"log10", {kDouble}, kDouble, &kLog10},
      {"log10", {kNum}, kNum16, &kNumericLog10},
      {"log", {kDouble}, kDouble, &kLog10},
      {"log", {kNum}, kNum16, &kNumericLog10},
      {"log", {kNum, kNum}, kNum16, &kNumericLogBase},
      {"power", {kDouble, kDouble}, kDouble, &kPower},
      {"power", {kNum, kNum}, kNum, nullptr},
      {"pow", {kDouble, kDouble}, kDouble, &kPower},
      {"pow", {kNum, kNum}, kNum, nullptr},
      {"sign", {kDouble}, kDouble, &kSign},
      {"sign", {kNum}, kNum, &kSign},
      {"gcd", {kInt, kInt}, kInt, &kGcd},
      {"gcd", {kBig, kBig}, kBig, &kGcd},
      {"gcd", {kNum, kNum}, kNum, nullptr},
      {"lcm", {kInt, kInt}, kInt, &kLcm},
      {"lcm", {kBig, kBig}, kBig, &kLcm},
      {"lcm", {kNum, kNum}, kNum, nullptr},
      {"make_date", {kInt, kInt, kInt}, kDate, &kMakeDate},
      {"make_time", {kInt, kInt, kDouble}, kTime, &kMakeTime},
      {"make_timestamp", {kInt, kInt, kInt, kInt, kInt, kDouble}, kTs, &kMakeTimestamp},
      {"make_timestamptz", {kInt, kInt, kInt, kInt, kInt, kDouble}, kTsTz, &kMakeTimestamp},
      {"make_timestamptz", {kInt, kInt, kInt, kInt, kInt, kDouble, kText}, kTsTz, nullptr},
      {"make_interval", {kInt, kInt, kInt, kInt, kInt, kInt, kDouble}, kInterval, &kMakeInterval},
      {"date_bin", {kInterval, kTsTz, kTsTz}, kTsTz, &kDateBin},
      {"date_bin", {kInterval, kTs, kTs}, kTs, &kDateBin},
      {"to_timestamp", {kDouble}, kTsTz, &kToTimestampEpoch},
      {"to_timestamp", {kText, kText}, kTsTz, &kToTimestampText},
      {"to_date", {kText, kText}, kDate, &kToDate},
      {"to_char", {kTsTz, kText}, kText, &kToChar},
      {"to_char", {kTs, kText}, kText, &kToChar},
      {"to_char", {kInterval, kText}, kText, &kToChar},
      {"to_char", {kInt, kText}, kText, &kToChar},
      {"to_char", {kBig, kText}, kText, &kToChar},
      {"to_char", {kDouble, kText}, kText, &kToChar},
      {"to_char", {Ty(T::kReal), kText}, kText, &kToChar},
      {"to_char", {kNum, kText}, kText, &kToChar},
      {"regexp_like", {kText, kText}, kBool, &kRegexpLike},
      {"regexp_like", {kText, kText, kText}, kBool, &kRegexpLike},
      {"regexp_replace", {kText, kText, kText}, kText, &kRegexpReplace},
      {"regexp_replace", {kText, kText, kText, kText}, kText, &kRegexpReplace},
      {"regexp_count", {kText, kText}, kInt, &kRegexpCount},
      {"regexp_substr", {kText, kText}, kText, &kRegexpSubstr},
      {"regexp_match", {kText, kText}, kTextArray, &kRegexpMatch},
      {"regexp_match", {kText, kText, kText}, kTextArray, &kRegexpMatch},
      {"regexp_split_to_array", {kText, kText}, kTextArray, &kRegexpSplitToArray},
      {"regexp_split_to_array", {kText, kText, kText}, kTextArray, &kRegexpSplitToArray},
      {"string_to_array", {kText, kText}, kTextArray, &kStringToArray},
      {"string_to_array", {kText, kText, kText}, kTextArray, &kStringToArray},
  };
  return kOverloads;
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

// Exact matches, or -1 when some argument does not fit.
int Fit(const Overload& o, const std::vector<BoundExprPtr>& args) {
  if (o.params.size() != args.size()) return -1;
  int exact = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const SqlType& from = args[i]->type;
    const SqlType& to = o.params[i];
    if (from.id == to.id) {
      ++exact;
    } else if (from.id != T::kUnknown && !CanCastImplicitly(from, to)) {
      return -1;
    }
  }
  return exact;
}

}  // namespace

Result<std::vector<BoundExprPtr>> ResolveNamedArguments(std::string_view name,
                                                        std::vector<BoundExprPtr> args,
                                                        const std::vector<std::string>& names) {
  auto no_function = [&] {
    std::string list;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0) list += ", ";
      if (i < names.size() && !names[i].empty()) list += names[i] + " => ";
      list += PgTypeName(args[i]->type);
    }
    return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, "(", list,
                    ") does not exist");
  };
  if (name != "make_interval") return no_function();
  static constexpr std::string_view kParams[] = {"years", "months", "weeks", "days",
                                                 "hours", "mins",   "secs"};
  std::vector<BoundExprPtr> out(7);
  for (size_t i = 0; i < args.size(); ++i) {
    size_t at = i;
    if (i < names.size() && !names[i].empty()) {
      at = 7;
      for (size_t p = 0; p < 7; ++p) {
        if (kParams[p] == names[i]) at = p;
      }
    }
    if (at < 7 && out[at] != nullptr && i < names.size() && !names[i].empty()) {
      return SqlError(SqlErrorKind::kSyntaxError, "argument name \"", names[i],
                      "\" used more than once");
    }
    if (at >= 7 || out[at] != nullptr) return no_function();
    out[at] = args[i];
  }
  for (size_t p = 0; p < 7; ++p) {
    if (out[p] == nullptr) {
      out[p] = p == 6 ? MakeConstant(Value::Double(T::kDouble, 0))
                      : MakeConstant(Value::Integer(T::kInteger, 0));
    }
  }
  return out;
}

bool IsBuiltinFunctionName(std::string_view name) {
  for (const Overload& o : Overloads()) {
    if (o.name == name) return true;
  }
  return name == "date";
}

Result<std::optional<BoundExprPtr>> BindBuiltinFunction(std::string_view name,
                                                        std::vector<BoundExprPtr> args) {
  if (name == "date" && args.size() == 1) {
    // date(x): PostgreSQL's function-style cast (date(timestamp) and
    // date(timestamptz) are functions, text goes through input).
    const T t = args[0]->type.id;
    if (t == T::kUnknown || t == T::kText || t == T::kDate || t == T::kTimestamp ||
        t == T::kTimestampTz) {
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr cast, BindCast(args[0], kDate, true));
      return std::optional<BoundExprPtr>(cast);
    }
    return NoFunction(name, args);
  }
  const Overload* best = nullptr;
  int best_fit = -1;
  bool known = false;
  for (const Overload& o : Overloads()) {
    if (o.name != name) continue;
    known = true;
    const int fit = Fit(o, args);
    if (fit > best_fit) {
      best = &o;
      best_fit = fit;
    }
  }
  if (!known) return std::optional<BoundExprPtr>();
  if (best == nullptr) return NoFunction(name, args);
  if (best->function == nullptr) {
    return SqlError(
        SqlErrorKind::kFeatureNotSupported, "function ", name, "(",
        [&] {
          std::string list;
          for (size_t i = 0; i < best->params.size(); ++i) {
            list += (i > 0 ? ", " : "") + PgTypeName(best->params[i]);
          }
          return list;
        }(),
        ") is not supported yet");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->type.id != best->params[i].id) {
      HOGLAKE_ASSIGN_OR_RETURN(args[i], BindCast(args[i], best->params[i], false));
    }
  }
  return std::optional<BoundExprPtr>(MakeCall(best->function, std::move(args), best->result));
}

}  // namespace hoglake::sql
