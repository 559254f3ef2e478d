// Access to nested values and the array functions, PostgreSQL's semantics:
//
//   a[i]           element i of an array, 1-based; NULL when i is out of
//                  range or NULL, or the array is NULL. The index is an
//                  integer (smallint, bigint, numeric and unknown literals
//                  are cast to it as PostgreSQL's assignment cast does;
//                  other types are 42804). An array of arrays takes one
//                  subscript per level; a subscript past the last level
//                  gives NULL, as an extra subscript does in PostgreSQL.
//   a[l:u]         the elements l..u as an array (a bound left out is the
//                  array's first or last); empty when nothing is in range.
//   m[k]           a map's value under key k (NULL when absent), the key
//                  cast to the map's key type. (PostgreSQL has no maps; this
//                  is the form other engines give it.)
//   (s).f          field f of a composite; 42703 when it has none, 42809
//                  for field notation on a non-composite.
//   ARRAY[x, …]    the elements brought to one type (CommonType); an empty
//                  ARRAY[] has no type (42P18), nested ARRAY[ARRAY[…]] (a
//                  multidimensional array) is 0A000.
//   cardinality(a) the number of elements (of every level, for arrays of
//                  arrays, as PostgreSQL counts a multidimensional array);
//                  of a map, its entries.
//   array_length(a, d), array_lower(a, d), array_upper(a, d): dimension 1
//                  of an array (NULL for an empty array or another
//                  dimension; dimension 2 of an array of arrays is 0A000).
#include "sql/function/array_functions.h"

#include <algorithm>

#include "sql/function/cast.h"
#include "sql/function/row_function.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

using T = SqlTypeId;

const SqlType kInt = SqlType::Of(T::kInteger);

// (array, index)
Result<Value> ElementRow(const std::vector<Value>& a, const BoundExpr& call) {
  const int64_t i = a[1].i;
  if (i < 1 || i > static_cast<int64_t>(a[0].elements.size())) return NullOf(call);
  Value out = a[0].elements[i - 1];
  out.type = call.type;
  return out;
}

// (array, lower or NULL, upper or NULL, has lower, has upper): a NULL bound
// that was written is NULL; one left out is the array's end.
Result<Value> SliceRow(const std::vector<Value>& a, const BoundExpr& call) {
  if (a[0].is_null || (a[3].b && a[1].is_null) || (a[4].b && a[2].is_null)) return NullOf(call);
  const int64_t n = static_cast<int64_t>(a[0].elements.size());
  const int64_t lower = std::max<int64_t>(a[3].b ? a[1].i : 1, 1);
  const int64_t upper = std::min<int64_t>(a[4].b ? a[2].i : n, n);
  Value out{call.type};
  out.is_null = false;
  for (int64_t i = lower; i <= upper; ++i) out.elements.push_back(a[0].elements[i - 1]);
  return out;
}

// (map, key)
Result<Value> MapValueRow(const std::vector<Value>& a, const BoundExpr& call) {
  const std::vector<Value>& entries = a[0].elements;
  for (size_t i = 0; i + 1 < entries.size(); i += 2) {
    if (!entries[i].is_null && CompareValue(entries[i], a[1]) == 0) {
      Value out = entries[i + 1];
      out.type = call.type;
      return out;
    }
  }
  return NullOf(call);
}

// (composite, field index)
Result<Value> FieldRow(const std::vector<Value>& a, const BoundExpr& call) {
  Value out = a[0].elements.at(static_cast<size_t>(a[1].i));
  out.type = call.type;
  return out;
}

// The elements of `v`, recursively for arrays of arrays.
int64_t CountLeaves(const Value& v) {
  if (v.type.id != T::kArray) return 1;
  int64_t n = 0;
  for (const Value& e : v.elements) n += e.is_null && e.type.id == T::kArray ? 0 : CountLeaves(e);
  return n;
}

Result<Value> CardinalityRow(const std::vector<Value>& a, const BoundExpr&) {
  if (a[0].type.id == T::kMap) {
    return Value::Integer(T::kInteger, static_cast<int64_t>(a[0].elements.size() / 2));
  }
  int64_t n = 0;
  for (const Value& e : a[0].elements) {
    n += e.type.id == T::kArray && !e.is_null ? CountLeaves(e) : 1;
  }
  return Value::Integer(T::kInteger, n);
}

// (array, dimension); call.name is array_length, array_lower or array_upper.
Result<Value> DimensionRow(const std::vector<Value>& a, const BoundExpr& call) {
  const int64_t n = static_cast<int64_t>(a[0].elements.size());
  if (a[1].i != 1 || n == 0) {
    if (a[1].i >= 2 && a[0].type.element().id == T::kArray) {
      return SqlError(SqlErrorKind::kFeatureNotSupported, call.name,
                      " of a dimension past the first is not supported");
    }
    return NullOf(call);
  }
  if (call.name == "array_lower") return Value::Integer(T::kInteger, 1);
  return Value::Integer(T::kInteger, n);
}

// The elements as they are (non-strict: NULL elements stay).
Result<Value> ArrayRow(const std::vector<Value>& a, const BoundExpr& call) {
  Value out{call.type};
  out.is_null = false;
  const SqlType& element = call.type.element();
  for (const Value& e : a) {
    if (element.id == T::kNumeric && !e.is_null && e.type.scale != element.scale) {
      HOGLAKE_ASSIGN_OR_RETURN(Value v,
                               CastValue(e, SqlType::Numeric(kMaxNumericPrecision, element.scale)));
      v.type = element;
      out.elements.push_back(std::move(v));
      continue;
    }
    out.elements.push_back(e);
    out.elements.back().type = element;
  }
  return out;
}

const RowFunction kArrayElement = MakeRowFunction("[]", ElementRow);
const RowFunction kArraySlice = MakeRowFunction("[:]", SliceRow, false);
const RowFunction kMapValue = MakeRowFunction("[]", MapValueRow);
const RowFunction kFieldSelect = MakeRowFunction(".", FieldRow);
const RowFunction kCardinality = MakeRowFunction("cardinality", CardinalityRow);
const RowFunction kArrayLength = MakeRowFunction("array_length", DimensionRow);
const RowFunction kArrayLower = MakeRowFunction("array_lower", DimensionRow);
const RowFunction kArrayUpper = MakeRowFunction("array_upper", DimensionRow);
const RowFunction kArrayConstructor = MakeRowFunction("array", ArrayRow, false);

Error NoArrayFunction(std::string_view name, const std::vector<BoundExprPtr>& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) list += (i > 0 ? ", " : "") + PgTypeName(args[i]->type);
  return SqlError(SqlErrorKind::kUndefinedFunction, "function ", name, "(", list,
                  ") does not exist");
}

// An array subscript: an integer, as PostgreSQL's assignment cast makes one.
Result<BoundExprPtr> SubscriptIndex(BoundExprPtr index) {
  const T t = index->type.id;
  if (t == T::kUnknown || t == T::kSmallint || t == T::kBigint || t == T::kNumeric ||
      t == T::kReal || t == T::kDouble) {
    HOGLAKE_ASSIGN_OR_RETURN(index, BindCast(index, kInt, true));
  }
  if (index->type.id != T::kInteger) {
    return SqlError(SqlErrorKind::kDatatypeMismatch, "array subscript must have type integer");
  }
  return index;
}

}  // namespace

Result<BoundExprPtr> BindSubscript(BoundExprPtr base, BoundExprPtr index) {
  if (base->type.id == T::kMap) {
    const SqlType& key = base->type.members[0].second;
    if (index->type != key) {
      auto cast = BindCast(index, key, false);
      if (!cast.ok()) {
        return SqlError(SqlErrorKind::kDatatypeMismatch, "map key must have type ",
                        PgTypeName(key), ", not ", PgTypeName(index->type));
      }
      index = *cast;
    }
    SqlType value = base->type.members[1].second;
    return MakeCall(&kMapValue, {std::move(base), std::move(index)}, std::move(value));
  }
  if (base->type.id != T::kArray) {
    return SqlError(SqlErrorKind::kDatatypeMismatch, "cannot subscript type ",
                    PgTypeName(base->type), " because it does not support subscripting");
  }
  HOGLAKE_ASSIGN_OR_RETURN(index, SubscriptIndex(std::move(index)));
  SqlType element = base->type.element();
  return MakeCall(&kArrayElement, {std::move(base), std::move(index)}, std::move(element));
}

Result<BoundExprPtr> BindSlice(BoundExprPtr base, BoundExprPtr lower, BoundExprPtr upper) {
  if (base->type.id != T::kArray) {
    return SqlError(SqlErrorKind::kDatatypeMismatch, "cannot subscript type ",
                    PgTypeName(base->type), " because it does not support subscripting");
  }
  const bool has_lower = lower != nullptr, has_upper = upper != nullptr;
  for (BoundExprPtr* bound : {&lower, &upper}) {
    if (*bound == nullptr) {
      *bound = MakeConstant(Value::Null(kInt));
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(*bound, SubscriptIndex(*bound));
    }
  }
  SqlType type = base->type;
  return MakeCall(&kArraySlice,
                  {std::move(base), std::move(lower), std::move(upper),
                   MakeConstant(Value::Boolean(has_lower)), MakeConstant(Value::Boolean(has_upper))},
                  std::move(type));
}

Result<BoundExprPtr> BindFieldSelect(BoundExprPtr base, const std::string& field) {
  if (base->type.id != T::kComposite) {
    return SqlError(SqlErrorKind::kWrongObjectType, "column notation .", field,
                    " applied to type ", PgTypeName(base->type),
                    ", which is not a composite type");
  }
  for (size_t i = 0; i < base->type.members.size(); ++i) {
    if (base->type.members[i].first != field) continue;
    SqlType type = base->type.members[i].second;
    return MakeCall(&kFieldSelect,
                    {std::move(base), MakeConstant(Value::Integer(T::kInteger, static_cast<int64_t>(i)))},
                    std::move(type));
  }
  return SqlError(SqlErrorKind::kUndefinedColumn, "column \"", field, "\" not found in data type ",
                  PgTypeName(base->type));
}

Result<BoundExprPtr> BindArrayConstructor(std::vector<BoundExprPtr> elements) {
  if (elements.empty()) {
    return SqlError(SqlErrorKind::kIndeterminateDatatype, "cannot determine type of empty array");
  }
  std::vector<SqlType> types;
  for (const BoundExprPtr& e : elements) {
    if (e->type.id == T::kArray) {
      return SqlError(SqlErrorKind::kFeatureNotSupported,
                      "multidimensional arrays are not supported");
    }
    types.push_back(e->type);
  }
  HOGLAKE_ASSIGN_OR_RETURN(SqlType element, CommonType(types, "ARRAY"));
  if (element.id == T::kUnknown) element = SqlType::Of(T::kText);
  if (element.id == T::kNumeric) element = SqlType::Numeric(-1, 0);
  int scale = 0;
  for (BoundExprPtr& e : elements) {
    if (e->type != element) {
      HOGLAKE_ASSIGN_OR_RETURN(e, BindCast(e, element, false));
    }
    scale = std::max(scale, e->type.scale);
  }
  // One carrier, one scale: ArrayRow brings every numeric to the finest.
  if (element.id == T::kNumeric) element.scale = scale;
  return MakeCall(&kArrayConstructor, std::move(elements), SqlType::Array(std::move(element)));
}

bool IsArrayFunctionName(std::string_view name) {
  return name == "cardinality" || name == "array_length" || name == "array_lower" ||
         name == "array_upper";
}

Result<BoundExprPtr> BindArrayFunction(std::string_view name, std::vector<BoundExprPtr> args) {
  if (name == "cardinality") {
    if (args.size() != 1 || (args[0]->type.id != T::kArray && args[0]->type.id != T::kMap)) {
      return NoArrayFunction(name, args);
    }
    return MakeCall(&kCardinality, std::move(args), kInt);
  }
  if (args.size() != 2 || args[0]->type.id != T::kArray) return NoArrayFunction(name, args);
  if (args[1]->type.id == T::kUnknown || args[1]->type.id == T::kSmallint) {
    HOGLAKE_ASSIGN_OR_RETURN(args[1], BindCast(args[1], kInt, false));
  }
  if (args[1]->type.id != T::kInteger) return NoArrayFunction(name, args);
  const RowFunction* f = name == "array_length" ? &kArrayLength
                         : name == "array_lower" ? &kArrayLower
                                                 : &kArrayUpper;
  return MakeCall(f, std::move(args), kInt);
}

}  // namespace hoglake::sql
