// RowKernel: the adapter that runs a RowFunction over argument arrays.
#include "sql/function/row_function.h"

#include "columnar/builder.h"

namespace hoglake::sql {

Result<columnar::ArrayPtr> RowKernel(const std::vector<columnar::ArrayPtr>& args,
                                     const BoundExpr& call, int64_t rows) {
  const auto& f = static_cast<const RowFunction&>(*call.function);
  std::unique_ptr<columnar::ArrayBuilder> out = columnar::MakeBuilder(CarrierType(call.type));
  std::vector<Value> values(args.size());
  for (int64_t i = 0; i < rows; ++i) {
    bool any_null = false;
    for (size_t a = 0; a < args.size(); ++a) {
      values[a] = ValueAt(*args[a], i, call.args[a]->type);
      any_null |= values[a].is_null;
    }
    if (any_null && f.strict) {
      out->AppendNull();
      continue;
    }
    HOGLAKE_ASSIGN_OR_RETURN(Value v, f.row(values, call));
    if (!v.is_null) v.type = call.type;
    HOGLAKE_RETURN_IF_ERROR(AppendValue(out.get(), v));
  }
  return out->Finish();
}

}  // namespace hoglake::sql
