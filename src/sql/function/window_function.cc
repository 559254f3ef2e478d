#include "sql/function/window_function.h"

#include "sql/function/cast.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

struct WindowFunctionInfo {
  std::string_view name;
  WindowFunctionKind kind;
};

const WindowFunctionInfo kWindowFunctions[] = {
    {"row_number", WindowFunctionKind::kRowNumber},
    {"rank", WindowFunctionKind::kRank},
    {"dense_rank", WindowFunctionKind::kDenseRank},
    {"percent_rank", WindowFunctionKind::kPercentRank},
    {"cume_dist", WindowFunctionKind::kCumeDist},
    {"ntile", WindowFunctionKind::kNtile},
    {"lag", WindowFunctionKind::kLag},
    {"lead", WindowFunctionKind::kLead},
    {"first_value", WindowFunctionKind::kFirstValue},
    {"last_value", WindowFunctionKind::kLastValue},
    {"nth_value", WindowFunctionKind::kNthValue},
};

Error NoFunction(std::string_view name, const std::vector<BoundExprPtr>& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) list += ", ";
    list += PgTypeName(args[i]->type);
  }
  return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, "(", list,
                  ") does not exist");
}

// An integer parameter: smallint, integer and unknown literals are cast.
Result<BoundExprPtr> IntegerArg(std::string_view name, const std::vector<BoundExprPtr>& args,
                                size_t i) {
  const SqlTypeId id = args[i]->type.id;
  if (id != SqlTypeId::kSmallint && id != SqlTypeId::kInteger && id != SqlTypeId::kUnknown) {
    return NoFunction(name, args);
  }
  return BindCast(args[i], SqlType::Of(SqlTypeId::kInteger), false);
}

// A value parameter: unknown literals are text, as PostgreSQL resolves them.
Result<BoundExprPtr> ValueArg(const BoundExprPtr& arg) {
  if (arg->type.id != SqlTypeId::kUnknown) return arg;
  return BindCast(arg, SqlType::Of(SqlTypeId::kText), false);
}

}  // namespace

bool IsWindowOnlyFunctionName(std::string_view name) {
  for (const WindowFunctionInfo& f : kWindowFunctions) {
    if (f.name == name) return true;
  }
  return false;
}

Result<BoundWindow> BindWindowFunction(std::string_view name, std::vector<BoundExprPtr> args) {
  const WindowFunctionInfo* info = nullptr;
  for (const WindowFunctionInfo& f : kWindowFunctions) {
    if (f.name == name) info = &f;
  }
  if (info == nullptr) return NoFunction(name, args);
  BoundWindow w;
  w.kind = info->kind;
  w.name = std::string(name);
  switch (info->kind) {
    case WindowFunctionKind::kRowNumber:
    case WindowFunctionKind::kRank:
    case WindowFunctionKind::kDenseRank:
      if (!args.empty()) return NoFunction(name, args);
      w.type = SqlType::Of(SqlTypeId::kBigint);
      break;
    case WindowFunctionKind::kPercentRank:
    case WindowFunctionKind::kCumeDist:
      if (!args.empty()) return NoFunction(name, args);
      w.type = SqlType::Of(SqlTypeId::kDouble);
      break;
    case WindowFunctionKind::kNtile: {
      if (args.size() != 1) return NoFunction(name, args);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr n, IntegerArg(name, args, 0));
      w.args = {n};
      w.type = SqlType::Of(SqlTypeId::kInteger);
      break;
    }
    case WindowFunctionKind::kLag:
    case WindowFunctionKind::kLead: {
      if (args.empty() || args.size() > 3) return NoFunction(name, args);
      BoundExprPtr value = args[0];
      SqlType type = value->type;
      if (args.size() == 3) {
        HOGLAKE_ASSIGN_OR_RETURN(type, CommonType({args[0]->type, args[2]->type}, name));
      }
      if (type.id == SqlTypeId::kUnknown) type = SqlType::Of(SqlTypeId::kText);
      HOGLAKE_ASSIGN_OR_RETURN(value, BindCast(value, type, false));
      w.args = {value};
      if (args.size() > 1) {
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr offset, IntegerArg(name, args, 1));
        w.args.push_back(offset);
      }
      if (args.size() > 2) {
        HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr fallback, BindCast(args[2], type, false));
        w.args.push_back(fallback);
      }
      w.type = type;
      break;
    }
    case WindowFunctionKind::kFirstValue:
    case WindowFunctionKind::kLastValue: {
      if (args.size() != 1) return NoFunction(name, args);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr value, ValueArg(args[0]));
      w.args = {value};
      w.type = value->type;
      break;
    }
    case WindowFunctionKind::kNthValue: {
      if (args.size() != 2) return NoFunction(name, args);
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr value, ValueArg(args[0]));
      HOGLAKE_ASSIGN_OR_RETURN(BoundExprPtr n, IntegerArg(name, args, 1));
      w.args = {value, n};
      w.type = value->type;
      break;
    }
    case WindowFunctionKind::kAggregate:
      return Internal("aggregate as window-only function");
  }
  // Like every polymorphic function of PostgreSQL's, the value functions
  // drop the argument's type modifier.
  if (w.type.id == SqlTypeId::kNumeric) w.type = SqlType::Numeric(-1, w.type.scale);
  return w;
}

}  // namespace hoglake::sql
