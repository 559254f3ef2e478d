#include "query/load/load_columns.h"

#include "iceberg/arrow_mapping.h"

namespace hoglake::query {
namespace {

using columnar::ArrayPtr;
using columnar::TypeId;
using iceberg::ColumnType;
using iceberg::TypeSpec;

std::string TableName(const catalog::TableInfo& table) {
  return StrCat(table.namespace_name, ".", table.name);
}

Error Incompatible(const catalog::TableInfo& table, const std::string& column,
                   const TypeSpec& table_type, const TypeSpec& data_type, std::string_view why) {
  return MakeError(
      ErrorCode::kCommitConflict,
      StrCat("column '", column, "' of table '", TableName(table), "' is ", table_type.ToString(),
             " but the data has ", data_type.ToString(), ": ", why));
}

template <typename From, typename To>
ArrayPtr Convert(const columnar::ArrayData& in, const columnar::DataTypePtr& to) {
  // Same offset as the input, so its validity bitmap is shared as is.
  auto values = columnar::Buffer::Allocate((in.offset + in.length) * int64_t{sizeof(To)});
  To* out = reinterpret_cast<To*>(values->mutable_data()) + in.offset;
  const From* from = in.values<From>();
  for (int64_t i = 0; i < in.length; ++i) out[i] = static_cast<To>(from[i]);
  auto data = std::make_shared<columnar::ArrayData>();
  data->type = to;
  data->length = in.length;
  data->null_count = in.null_count;
  data->offset = in.offset;
  data->buffers = {in.buffers[0], std::move(values)};
  return data;
}

template <typename From>
Result<ArrayPtr> ConvertInteger(const columnar::ArrayData& in, const columnar::DataTypePtr& to) {
  switch (to->id) {
    case TypeId::kInt16:
      return Convert<From, int16_t>(in, to);
    case TypeId::kInt32:
      return Convert<From, int32_t>(in, to);
    case TypeId::kInt64:
      return Convert<From, int64_t>(in, to);
    case TypeId::kUInt16:
      return Convert<From, uint16_t>(in, to);
    case TypeId::kUInt32:
      return Convert<From, uint32_t>(in, to);
    case TypeId::kUInt64:
      return Convert<From, uint64_t>(in, to);
    default:
      return InvalidArgument("cannot widen ", in.type->ToString(), " to ", to->ToString());
  }
}

bool Signed(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 ||
         id == TypeId::kInt64;
}
bool Unsigned(TypeId id) {
  return id == TypeId::kUInt8 || id == TypeId::kUInt16 || id == TypeId::kUInt32 ||
         id == TypeId::kUInt64;
}

}  // namespace

bool Widens(const TypeSpec& from, const TypeSpec& to) {
  if (iceberg::CanPromote(from.type, to.type)) return true;
  return from.type == ColumnType::kDecimal && to.type == ColumnType::kDecimal &&
         from.scale == to.scale && to.precision > from.precision;
}

Result<std::vector<catalog::AlterOp>> PlanTableChanges(const catalog::TableInfo& table,
                                                       const columnar::Schema& data) {
  std::vector<catalog::AlterOp> ops;
  for (const catalog::ColumnNode& column : table.columns) {
    if (data.FieldIndex(column.name) < 0 && !column.nullable) {
      return MakeError(ErrorCode::kCommitConflict,
                       StrCat("the data lacks column '", column.name, "' of table '",
                              TableName(table), "', which is not nullable"));
    }
  }
  for (const columnar::Field& field : data.fields) {
    Result<TypeSpec> type = iceberg::ColumnTypeFromArrow(field);
    if (!type.ok()) {
      return MakeError(ErrorCode::kBadRequest,
                       StrCat("column '", field.name, "': ", type.error().message));
    }
    const catalog::ColumnNode* existing = nullptr;
    for (const catalog::ColumnNode& c : table.columns) {
      if (c.name == field.name) existing = &c;
    }
    if (existing == nullptr) {
      if (field.type->is_nested()) {
        return MakeError(ErrorCode::kBadRequest,
                         StrCat("column '", field.name, "' is ", field.type->ToString(),
                                ": loads write scalar columns only"));
      }
      catalog::AlterOp add;
      add.kind = catalog::AlterOpKind::kAddColumn;
      add.column.name = field.name;
      add.column.type = *type;
      add.column.nullable = true;
      ops.push_back(std::move(add));
      continue;
    }
    if (*type == existing->type || Widens(*type, existing->type)) continue;
    if (!Widens(existing->type, *type)) {
      return Incompatible(table, field.name, existing->type, *type,
                          "only widening type changes are accepted");
    }
    catalog::AlterOp promote;
    promote.kind = catalog::AlterOpKind::kPromoteColumn;
    promote.path = field.name;
    // "long", "double", … or "decimal(P,S)" (the catalog's decimal promotion).
    promote.to = type->type == ColumnType::kDecimal
                     ? type->ToString()
                     : std::string(iceberg::ColumnTypeName(type->type));
    ops.push_back(std::move(promote));
  }
  return ops;
}

Result<ArrayPtr> WidenArray(const ArrayPtr& array, const columnar::DataTypePtr& to) {
  const columnar::DataType& from = *array->type;
  if (from.id == TypeId::kDecimal128 && to->id == TypeId::kDecimal128 && from.scale == to->scale &&
      to->precision >= from.precision) {
    auto relabelled = std::make_shared<columnar::ArrayData>(*array);
    relabelled->type = to;
    return ArrayPtr(relabelled);
  }
  if (from.id == TypeId::kFloat32 && to->id == TypeId::kFloat64) {
    return Convert<float, double>(*array, to);
  }
  const bool same_sign =
      (Signed(from.id) && Signed(to->id)) || (Unsigned(from.id) && Unsigned(to->id));
  if (same_sign && to->bit_width() > from.bit_width()) {
    switch (from.id) {
      case TypeId::kInt8:
        return ConvertInteger<int8_t>(*array, to);
      case TypeId::kInt16:
        return ConvertInteger<int16_t>(*array, to);
      case TypeId::kInt32:
        return ConvertInteger<int32_t>(*array, to);
      case TypeId::kUInt8:
        return ConvertInteger<uint8_t>(*array, to);
      case TypeId::kUInt16:
        return ConvertInteger<uint16_t>(*array, to);
      case TypeId::kUInt32:
        return ConvertInteger<uint32_t>(*array, to);
      default:
        break;
    }
  }
  return InvalidArgument("cannot widen ", from.ToString(), " to ", to->ToString());
}

}  // namespace hoglake::query
