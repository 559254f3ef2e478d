#include "columnar/builder.h"

#include <limits>

namespace hoglake::columnar {

Result<ArrayPtr> ArrayBuilder::Finish() {
  auto out = std::make_shared<ArrayData>();
  out->type = type_;
  out->length = length_;
  out->null_count = null_count_;
  out->buffers.push_back(validity_started_ ? validity_.Finish() : nullptr);
  Status status = FinishInto(out.get());
  validity_ = BitmapBuilder();
  validity_started_ = false;
  length_ = 0;
  null_count_ = 0;
  if (!status.ok()) return status.error();
  return ArrayPtr(std::move(out));
}

Status BooleanBuilder::FinishInto(ArrayData* out) {
  out->buffers.push_back(bits_.Finish());
  return Status::Ok();
}

Status Decimal128Builder::FinishInto(ArrayData* out) {
  out->buffers.push_back(values_.Finish());
  return Status::Ok();
}

Status BinaryBuilder::FinishInto(ArrayData* out) {
  const int64_t total = bytes_.size();
  out->buffers.push_back(offsets_.Finish());
  out->buffers.push_back(bytes_.Finish());
  offsets_.AppendValue<int32_t>(0);
  if (total > std::numeric_limits<int32_t>::max()) {
    return InvalidArgument(type()->ToString(), " array holds ", total,
                           " bytes, more than the 2 GiB that int32 offsets address");
  }
  return Status::Ok();
}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (static_cast<int64_t>(value.size()) != type()->byte_width) {
    return InvalidArgument("fixed_size_binary[", type()->byte_width, "] value has ", value.size(),
                           " bytes");
  }
  values_.Append(value.data(), static_cast<int64_t>(value.size()));
  AppendValidity(true);
  return Status::Ok();
}

void FixedSizeBinaryBuilder::AppendNull() {
  values_.Resize(values_.size() + type()->byte_width);
  AppendValidity(false);
}

Status FixedSizeBinaryBuilder::FinishInto(ArrayData* out) {
  out->buffers.push_back(values_.Finish());
  return Status::Ok();
}

// ---- nested ------------------------------------------------------------------

namespace {

// Closes an offsets buffer holding one start per slot with the final end.
Status FinishOffsets(BufferBuilder& offsets, int64_t end, const DataType& type, ArrayData* out) {
  if (end > std::numeric_limits<int32_t>::max()) {
    return InvalidArgument(type.ToString(), " array has ", end,
                           " child values, more than int32 offsets address");
  }
  offsets.AppendValue(static_cast<int32_t>(end));
  out->buffers.push_back(offsets.Finish());
  return Status::Ok();
}

}  // namespace

ListBuilder::ListBuilder(DataTypePtr type)
    : ArrayBuilder(type), values_(MakeBuilder(type->children[0].type)) {}

void ListBuilder::Append() {
  offsets_.AppendValue(static_cast<int32_t>(values_->length()));
  AppendValidity(true);
}

void ListBuilder::AppendNull() {
  offsets_.AppendValue(static_cast<int32_t>(values_->length()));
  AppendValidity(false);
}

Status ListBuilder::FinishInto(ArrayData* out) {
  HOGLAKE_RETURN_IF_ERROR(FinishOffsets(offsets_, values_->length(), *type(), out));
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, values_->Finish());
  const Field& element = type()->children[0];
  if (!element.nullable && child->null_count > 0) {
    return InvalidArgument("list element '", element.name, "' is not nullable but has ",
                           child->null_count, " nulls");
  }
  out->children.push_back(std::move(child));
  return Status::Ok();
}

StructBuilder::StructBuilder(DataTypePtr type) : ArrayBuilder(type) {
  for (const Field& field : type->children) children_.push_back(MakeBuilder(field.type));
}

void StructBuilder::AppendNull() {
  for (auto& child : children_) child->AppendNull();
  AppendValidity(false);
}

Status StructBuilder::FinishInto(ArrayData* out) {
  for (size_t i = 0; i < children_.size(); ++i) {
    const Field& field = type()->children[i];
    if (children_[i]->length() != out->length) {
      return InvalidArgument("struct field '", field.name, "' has ", children_[i]->length(),
                             " values but the struct has ", out->length, " rows");
    }
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, children_[i]->Finish());
    // Nulls under a null struct row are allowed even in a non-nullable field.
    if (!field.nullable && child->null_count > out->null_count) {
      int64_t stray = 0;
      for (int64_t r = 0; r < out->length; ++r) stray += child->IsNull(r) && out->IsValid(r);
      if (stray > 0) {
        return InvalidArgument("struct field '", field.name, "' is not nullable but has ", stray,
                               " nulls in valid rows");
      }
    }
    out->children.push_back(std::move(child));
  }
  return Status::Ok();
}

MapBuilder::MapBuilder(DataTypePtr type)
    : ArrayBuilder(type),
      keys_(MakeBuilder(type->map_key().type)),
      items_(MakeBuilder(type->map_value().type)) {}

void MapBuilder::Append() {
  offsets_.AppendValue(static_cast<int32_t>(keys_->length()));
  AppendValidity(true);
}

void MapBuilder::AppendNull() {
  offsets_.AppendValue(static_cast<int32_t>(keys_->length()));
  AppendValidity(false);
}

Status MapBuilder::FinishInto(ArrayData* out) {
  const int64_t entries = keys_->length();
  if (items_->length() != entries) {
    return InvalidArgument("map has ", entries, " keys but ", items_->length(), " values");
  }
  HOGLAKE_RETURN_IF_ERROR(FinishOffsets(offsets_, entries, *type(), out));
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr keys, keys_->Finish());
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr items, items_->Finish());
  if (keys->null_count > 0) {
    return InvalidArgument("map has ", keys->null_count, " null keys; map keys are never null");
  }
  const Field& value = type()->map_value();
  if (!value.nullable && items->null_count > 0) {
    return InvalidArgument("map value '", value.name, "' is not nullable but has ",
                           items->null_count, " nulls");
  }
  auto struct_data = std::make_shared<ArrayData>();
  struct_data->type = type()->children[0].type;
  struct_data->length = entries;
  struct_data->buffers.push_back(nullptr);
  struct_data->children = {std::move(keys), std::move(items)};
  out->children.push_back(std::move(struct_data));
  return Status::Ok();
}

std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type) {
  switch (type->id) {
    case TypeId::kBool:
      return std::make_unique<BooleanBuilder>(type);
    case TypeId::kInt8:
      return std::make_unique<Int8Builder>(type);
    case TypeId::kInt16:
      return std::make_unique<Int16Builder>(type);
    case TypeId::kInt32:
      return std::make_unique<Int32Builder>(type);
    case TypeId::kInt64:
      return std::make_unique<Int64Builder>(type);
    case TypeId::kUInt8:
      return std::make_unique<UInt8Builder>(type);
    case TypeId::kUInt16:
      return std::make_unique<UInt16Builder>(type);
    case TypeId::kUInt32:
      return std::make_unique<UInt32Builder>(type);
    case TypeId::kUInt64:
      return std::make_unique<UInt64Builder>(type);
    case TypeId::kFloat32:
      return std::make_unique<Float32Builder>(type);
    case TypeId::kFloat64:
      return std::make_unique<Float64Builder>(type);
    case TypeId::kDate32:
      return std::make_unique<Date32Builder>(type);
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return std::make_unique<NumericBuilder<int64_t>>(type);
    case TypeId::kDecimal128:
      return std::make_unique<Decimal128Builder>(type);
    case TypeId::kUtf8:
    case TypeId::kBinary:
      return std::make_unique<BinaryBuilder>(type);
    case TypeId::kFixedSizeBinary:
    case TypeId::kIntervalMonthDayNano:
      return std::make_unique<FixedSizeBinaryBuilder>(type);
    case TypeId::kList:
      return std::make_unique<ListBuilder>(type);
    case TypeId::kStruct:
      return std::make_unique<StructBuilder>(type);
    case TypeId::kMap:
      return std::make_unique<MapBuilder>(type);
  }
  return nullptr;
}

}  // namespace hoglake::columnar
