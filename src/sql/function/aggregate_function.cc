#include "sql/function/aggregate_function.h"

#include "sql/function/cast.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

const AggregateFunction kAggregates[] = {
    {"count", AggregateKind::kCount},
    {"sum", AggregateKind::kSum},
    {"avg", AggregateKind::kAvg},
    {"min", AggregateKind::kMin},
    {"max", AggregateKind::kMax},
    {"bool_and", AggregateKind::kBoolAnd},
    {"every", AggregateKind::kBoolAnd},
    {"bool_or", AggregateKind::kBoolOr},
    {"var_samp", AggregateKind::kVarSamp},
    {"variance", AggregateKind::kVarSamp},
    {"var_pop", AggregateKind::kVarPop},
    {"stddev_samp", AggregateKind::kStddevSamp},
    {"stddev", AggregateKind::kStddevSamp},
    {"stddev_pop", AggregateKind::kStddevPop},
    {"percentile_cont", AggregateKind::kPercentileCont},
    {"percentile_disc", AggregateKind::kPercentileDisc},
    {"mode", AggregateKind::kMode},
};

const AggregateFunction kCountStarFunction{"count", AggregateKind::kCountStar};

Error NoAggregate(std::string_view name, const std::vector<BoundExprPtr>& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) list += ", ";
    list += PgTypeName(args[i]->type);
  }
  return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, "(", list,
                  ") does not exist");
}

}  // namespace

bool IsAggregateName(std::string_view name) {
  for (const AggregateFunction& f : kAggregates) {
    if (f.name == name) return true;
  }
  return false;
}

bool IsOrderedSetAggregateName(std::string_view name) {
  return name == "percentile_cont" || name == "percentile_disc" || name == "mode";
}

Result<BoundAggregate> BindAggregate(std::string_view name, std::vector<BoundExprPtr> args,
                                     bool star) {
  BoundAggregate agg;
  agg.name = std::string(name);
  if (star) {
    if (name != "count") {
      return SqlError(SqlErrorKind::kSyntaxError, name, "(*) is only valid for count");
    }
    agg.function = &kCountStarFunction;
    agg.type = SqlType::Of(SqlTypeId::kBigint);
    return agg;
  }
  const AggregateFunction* f = nullptr;
  for (const AggregateFunction& candidate : kAggregates) {
    if (candidate.name == name) f = &candidate;
  }
  if (f != nullptr && IsOrderedSetAggregateName(name)) {
    // args: the ordered value, then the direct arguments.
    const size_t direct = f->kind == AggregateKind::kMode ? 0 : 1;
    if (args.size() != direct + 1) return NoAggregate(name, args);
    agg.function = f;
    BoundExprPtr x = args[0];
    if (x->type.id == SqlTypeId::kUnknown) {
      HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Of(SqlTypeId::kText), false));
    }
    if (direct == 1) {
      BoundExprPtr q = args[1];
      if (q->type.id == SqlTypeId::kArray) {
        return SqlError(SqlErrorKind::kFeatureNotSupported, name,
                        " of an array of fractions is not supported yet");
      }
      if (!q->type.is_numeric_kind() && q->type.id != SqlTypeId::kUnknown) {
        return NoAggregate(name, args);
      }
      HOGLAKE_ASSIGN_OR_RETURN(q, BindCast(q, SqlType::Of(SqlTypeId::kDouble), false));
      args[1] = q;
    }
    if (f->kind == AggregateKind::kPercentileCont) {
      if (x->type.id == SqlTypeId::kInterval) {
        return SqlError(SqlErrorKind::kFeatureNotSupported,
                        "percentile_cont of intervals is not supported yet");
      }
      if (!x->type.is_numeric_kind()) return NoAggregate(name, args);
      HOGLAKE_ASSIGN_OR_RETURN(x, BindCast(x, SqlType::Of(SqlTypeId::kDouble), false));
    } else if (x->type.is_nested() || x->type.id == SqlTypeId::kJson) {
      return NoAggregate(name, args);
    }
    args[0] = x;
    agg.type = x->type;
    if (agg.type.id == SqlTypeId::kNumeric) agg.type = SqlType::Numeric(-1, x->type.scale);
    agg.args = std::move(args);
    return agg;
  }
  if (f == nullptr || args.size() != 1) return NoAggregate(name, args);
  agg.function = f;
  BoundExprPtr arg = args[0];
  SqlType t = arg->type;
  switch (f->kind) {
    case AggregateKind::kCount:
      agg.type = SqlType::Of(SqlTypeId::kBigint);
      break;
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
    case AggregateKind::kVarSamp:
    case AggregateKind::kVarPop:
    case AggregateKind::kStddevSamp:
    case AggregateKind::kStddevPop: {
      if (t.id == SqlTypeId::kUnknown) {
        HOGLAKE_ASSIGN_OR_RETURN(arg, BindCast(arg, SqlType::Of(SqlTypeId::kDouble), false));
        t = arg->type;
      }
      if (!t.is_numeric_kind()) {
        if (f->kind == AggregateKind::kSum && t.id == SqlTypeId::kInterval) {
          return SqlError(SqlErrorKind::kFeatureNotSupported, "sum(interval) is not supported");
        }
        return NoAggregate(name, {arg});
      }
      if (f->kind == AggregateKind::kSum) {
        if (t.id == SqlTypeId::kSmallint || t.id == SqlTypeId::kInteger) {
          agg.type = SqlType::Of(SqlTypeId::kBigint);
        } else if (t.id == SqlTypeId::kBigint) {
          agg.type = SqlType::Numeric(-1, 0);
        } else if (t.id == SqlTypeId::kNumeric) {
          agg.type = SqlType::Numeric(-1, t.scale);
        } else {
          agg.type = t;
        }
      } else if (t.is_float()) {
        agg.type = SqlType::Of(SqlTypeId::kDouble);
      } else {
        agg.type = SqlType::Numeric(-1, std::max(kNumericDivisionScale, t.scale));
      }
      break;
    }
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (t.id == SqlTypeId::kUnknown) {
        HOGLAKE_ASSIGN_OR_RETURN(arg, BindCast(arg, SqlType::Of(SqlTypeId::kText), false));
        t = arg->type;
      }
      if (t.is_nested() || t.id == SqlTypeId::kBoolean || t.id == SqlTypeId::kJson ||
          t.id == SqlTypeId::kBytea) {
        return NoAggregate(name, {arg});
      }
      agg.type = t;
      // PostgreSQL's min/max(numeric) drop the type modifier.
      if (t.id == SqlTypeId::kNumeric) agg.type = SqlType::Numeric(-1, t.scale);
      break;
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      if (t.id == SqlTypeId::kUnknown) {
        HOGLAKE_ASSIGN_OR_RETURN(arg, BindCast(arg, SqlType::Of(SqlTypeId::kBoolean), false));
        t = arg->type;
      }
      if (t.id != SqlTypeId::kBoolean) return NoAggregate(name, {arg});
      agg.type = t;
      break;
    case AggregateKind::kCountStar:
    case AggregateKind::kPercentileCont:
    case AggregateKind::kPercentileDisc:
    case AggregateKind::kMode:
      break;
  }
  agg.args = {arg};
  return agg;
}

}  // namespace hoglake::sql
