#include "query/result_arrow.h"

#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace hoglake::query {
namespace {

using columnar::ArrayData;
using columnar::ArrayPtr;
using columnar::DataType;
using columnar::DataTypePtr;
using columnar::Field;
using columnar::TypeId;

constexpr int64_t kNanosPerMicro = 1000;

bool IsSixteenByteBinary(const DataType& type) {
  return type.id == TypeId::kFixedSizeBinary && type.byte_width == 16;
}

void SetMetadata(Field& field, std::string_view key, std::string_view value) {
  for (auto& [k, v] : field.metadata) {
    if (k == key) {
      v = std::string(value);
      return;
    }
  }
  field.metadata.emplace_back(std::string(key), std::string(value));
}

// The SQL types of the children of nested `type`, in the order of its
// carrier's DataType children: the array element, the composite members, or
// the map's entries (a composite of key and value).
std::vector<sql::SqlType> ChildTypes(const sql::SqlType& type) {
  std::vector<sql::SqlType> children;
  if (type.id == sql::SqlTypeId::kMap) {
    sql::SqlType entries = sql::SqlType::Of(sql::SqlTypeId::kComposite);
    entries.members = type.members;
    children.push_back(std::move(entries));
  } else if (type.id == sql::SqlTypeId::kArray || type.id == sql::SqlTypeId::kComposite) {
    for (const auto& member : type.members) children.push_back(member.second);
  }
  return children;
}

// Replaces the SQL types under `arrow` that are intervals there (and uuid in
// the carrier's reading).
void MarkIntervals(const DataType& arrow, sql::SqlType* type) {
  if (arrow.id == TypeId::kIntervalMonthDayNano) {
    *type = sql::SqlType::Of(sql::SqlTypeId::kInterval);
    return;
  }
  std::vector<sql::SqlType> children = ChildTypes(*type);
  if (children.size() != arrow.children.size()) return;
  for (size_t i = 0; i < children.size(); ++i) MarkIntervals(*arrow.children[i].type, &children[i]);
  if (type->id == sql::SqlTypeId::kMap) {
    type->members = std::move(children[0].members);
  } else {
    for (size_t i = 0; i < children.size(); ++i) type->members[i].second = std::move(children[i]);
  }
}

// `field` with its nested type's children mapped by `child`.
template <typename ChildFn>
Field WithChildren(const Field& field, ChildFn child) {
  if (field.type->children.empty()) return field;
  auto type = std::make_shared<DataType>(*field.type);
  for (size_t i = 0; i < type->children.size(); ++i) type->children[i] = child(i);
  Field out = field;
  out.type = std::move(type);
  return out;
}

// Interval values of `array` with the third member scaled: × 1000 (micros
// to nanos) or ÷ 1000, into a new buffer laid out for `target`.
Result<ArrayPtr> ScaleIntervals(const ArrayData& array, const DataTypePtr& target, bool to_nanos) {
  auto values = columnar::Buffer::Allocate((array.offset + array.length) * 16);
  const uint8_t* in = array.buffers[1] ? array.buffers[1]->data() : nullptr;
  uint8_t* out = values->mutable_data();
  for (int64_t i = array.offset; i < array.offset + array.length; ++i) {
    if (array.IsNull(i - array.offset)) continue;
    int64_t part;
    std::memcpy(out + i * 16, in + i * 16, 8);  // months, days
    std::memcpy(&part, in + i * 16 + 8, 8);
    if (to_nanos) {
      const int64_t micros = part;
      if (__builtin_mul_overflow(micros, kNanosPerMicro, &part)) {
        return MakeError(ErrorCode::kInvalidArgument, "an interval with ", micros,
                         " microseconds beyond its months and days is out of range for Arrow's "
                         "interval[month_day_nano] (int64 nanoseconds)");
      }
    } else {
      if (part % kNanosPerMicro != 0) {
        return MakeError(ErrorCode::kInvalidArgument, "an interval of ", part,
                         " nanoseconds is not whole microseconds, which SQL intervals hold");
      }
      part /= kNanosPerMicro;
    }
    std::memcpy(out + i * 16 + 8, &part, 8);
  }
  auto converted = std::make_shared<ArrayData>(array);
  converted->type = target;
  converted->buffers[1] = std::move(values);
  return ArrayPtr(std::move(converted));
}

}  // namespace

Field ArrowResultField(const Field& stored, const sql::SqlType& type) {
  if (IsSixteenByteBinary(*stored.type) && type.id == sql::SqlTypeId::kInterval) {
    Field out = stored;
    out.type = columnar::IntervalMonthDayNano();
    return out;
  }
  if (IsSixteenByteBinary(*stored.type) && type.id == sql::SqlTypeId::kUuid) {
    Field out = stored;
    SetMetadata(out, columnar::kExtensionNameKey, columnar::kUuidExtension);
    SetMetadata(out, columnar::kExtensionMetadataKey, "");
    return out;
  }
  const std::vector<sql::SqlType> children = ChildTypes(type);
  if (children.size() != stored.type->children.size()) return stored;
  return WithChildren(
      stored, [&](size_t i) { return ArrowResultField(stored.type->children[i], children[i]); });
}

Field CarrierResultField(const Field& arrow) {
  if (arrow.type->id == TypeId::kIntervalMonthDayNano) {
    Field out = arrow;
    out.type = columnar::FixedSizeBinary(16);
    return out;
  }
  return WithChildren(arrow, [&](size_t i) { return CarrierResultField(arrow.type->children[i]); });
}

Result<sql::SqlType> ArrowResultSqlType(const Field& arrow) {
  HOGLAKE_ASSIGN_OR_RETURN(sql::SqlType type, sql::SqlTypeOfField(CarrierResultField(arrow)));
  MarkIntervals(*arrow.type, &type);
  return type;
}

Result<ArrayPtr> RetypeArray(const ArrayPtr& array, const DataTypePtr& target) {
  if (array->type == target || array->type->Equals(*target)) return array;
  const TypeId from = array->type->id;
  if (from == TypeId::kFixedSizeBinary && target->id == TypeId::kIntervalMonthDayNano) {
    return ScaleIntervals(*array, target, /*to_nanos=*/true);
  }
  if (from == TypeId::kIntervalMonthDayNano && target->id == TypeId::kFixedSizeBinary) {
    return ScaleIntervals(*array, target, /*to_nanos=*/false);
  }
  if (from != target->id || array->children.size() != target->children.size()) {
    return MakeError(ErrorCode::kInternal, "cannot retype a ", array->type->ToString(),
                     " array as ", target->ToString());
  }
  auto out = std::make_shared<ArrayData>(*array);
  out->type = target;
  for (size_t i = 0; i < out->children.size(); ++i) {
    HOGLAKE_ASSIGN_OR_RETURN(out->children[i],
                             RetypeArray(array->children[i], target->children[i].type));
  }
  return ArrayPtr(std::move(out));
}

Result<columnar::RecordBatch> RetypeBatch(const columnar::RecordBatch& batch,
                                          const columnar::SchemaPtr& schema) {
  std::vector<ArrayPtr> columns;
  columns.reserve(batch.columns.size());
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column,
                             RetypeArray(batch.columns[c], schema->fields[c].type));
    columns.push_back(std::move(column));
  }
  return columnar::MakeRecordBatch(schema, std::move(columns));
}

}  // namespace hoglake::query
