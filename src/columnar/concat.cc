#include "columnar/concat.h"

#include <cstring>

#include "columnar/slice.h"

namespace hoglake::columnar {
namespace {

std::shared_ptr<Buffer> ConcatValidity(const std::vector<ArrayPtr>& arrays, int64_t total,
                                       int64_t* null_count) {
  *null_count = 0;
  for (const ArrayPtr& a : arrays) *null_count += a->null_count;
  if (*null_count == 0) return nullptr;
  int64_t bytes = BytesForBits(total) + 1;
  auto out = Buffer::Allocate(bytes);
  std::memset(out->mutable_data(), 0, bytes);
  int64_t at = 0;
  for (const ArrayPtr& a : arrays) {
    for (int64_t i = 0; i < a->length; ++i) {
      if (a->IsValid(i)) SetBit(out->mutable_data(), at + i);
    }
    at += a->length;
  }
  return out;
}

// The child range a list/map array's rows cover, as a slice of its child.
ArrayPtr ListChildRange(const ArrayData& a) {
  const int32_t* offsets = a.offsets();
  return SliceUnchecked(a.children[0], offsets[0], offsets[a.length] - offsets[0]);
}

}  // namespace

Result<ArrayPtr> ConcatArrays(const std::vector<ArrayPtr>& arrays) {
  if (arrays.empty()) return InvalidArgument("ConcatArrays needs at least one array");
  const DataTypePtr& type = arrays[0]->type;
  int64_t total = 0;
  for (const ArrayPtr& a : arrays) {
    if (!a->type->Equals(*type)) {
      return InvalidArgument("ConcatArrays: type ", a->type->ToString(), " differs from ",
                             type->ToString());
    }
    total += a->length;
  }
  if (arrays.size() == 1) return arrays[0];
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = total;
  out->buffers.push_back(ConcatValidity(arrays, total, &out->null_count));
  switch (type->id) {
    case TypeId::kBool: {
      int64_t bytes = BytesForBits(total) + 1;
      auto bits = Buffer::Allocate(bytes);
      std::memset(bits->mutable_data(), 0, bytes);
      int64_t at = 0;
      for (const ArrayPtr& a : arrays) {
        for (int64_t i = 0; i < a->length; ++i) {
          if (a->GetBool(i)) SetBit(bits->mutable_data(), at + i);
        }
        at += a->length;
      }
      out->buffers.push_back(bits);
      return ArrayPtr(out);
    }
    case TypeId::kUtf8:
    case TypeId::kBinary: {
      int64_t bytes = 0;
      for (const ArrayPtr& a : arrays) bytes += a->offsets()[a->length] - a->offsets()[0];
      if (bytes > INT32_MAX) {
        return InvalidArgument("ConcatArrays: ", bytes, " bytes exceed the 2 GiB of int32 offsets");
      }
      auto offsets = Buffer::Allocate((total + 1) * 4);
      auto data = Buffer::Allocate(std::max<int64_t>(bytes, 1));
      int32_t* o = reinterpret_cast<int32_t*>(offsets->mutable_data());
      int64_t row = 0;
      int32_t pos = 0;
      o[0] = 0;
      for (const ArrayPtr& a : arrays) {
        const int32_t* ao = a->offsets();
        int32_t len = ao[a->length] - ao[0];
        if (len > 0) std::memcpy(data->mutable_data() + pos, a->buffers[2]->data() + ao[0], len);
        for (int64_t i = 0; i < a->length; ++i) o[row + i + 1] = pos + (ao[i + 1] - ao[0]);
        row += a->length;
        pos += len;
      }
      out->buffers.push_back(offsets);
      out->buffers.push_back(data);
      return ArrayPtr(out);
    }
    case TypeId::kList:
    case TypeId::kMap: {
      auto offsets = Buffer::Allocate((total + 1) * 4);
      int32_t* o = reinterpret_cast<int32_t*>(offsets->mutable_data());
      std::vector<ArrayPtr> children;
      int64_t row = 0;
      int64_t pos = 0;
      o[0] = 0;
      for (const ArrayPtr& a : arrays) {
        const int32_t* ao = a->offsets();
        for (int64_t i = 0; i < a->length; ++i) {
          o[row + i + 1] = static_cast<int32_t>(pos + (ao[i + 1] - ao[0]));
        }
        pos += ao[a->length] - ao[0];
        row += a->length;
        children.push_back(ListChildRange(*a));
      }
      if (pos > INT32_MAX) return InvalidArgument("ConcatArrays: list offsets overflow int32");
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, ConcatArrays(children));
      out->buffers.push_back(offsets);
      out->children.push_back(child);
      return ArrayPtr(out);
    }
    case TypeId::kStruct: {
      for (size_t c = 0; c < type->children.size(); ++c) {
        std::vector<ArrayPtr> parts;
        for (const ArrayPtr& a : arrays) {
          parts.push_back(SliceUnchecked(a->children[c], a->offset, a->length));
        }
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, ConcatArrays(parts));
        out->children.push_back(child);
      }
      return ArrayPtr(out);
    }
    default: {
      int width = type->id == TypeId::kFixedSizeBinary ? type->byte_width : type->bit_width() / 8;
      auto values = Buffer::Allocate(std::max<int64_t>(total * width, 1));
      int64_t at = 0;
      for (const ArrayPtr& a : arrays) {
        std::memcpy(values->mutable_data() + at * width,
                    a->buffers[1]->data() + a->offset * width, a->length * width);
        at += a->length;
      }
      out->buffers.push_back(values);
      return ArrayPtr(out);
    }
  }
}

Result<RecordBatch> ConcatBatches(const std::vector<RecordBatch>& batches) {
  if (batches.empty()) return InvalidArgument("ConcatBatches needs at least one batch");
  if (batches.size() == 1) return batches[0];
  RecordBatch out;
  out.schema = batches[0].schema;
  for (const RecordBatch& b : batches) out.num_rows += b.num_rows;
  for (int c = 0; c < batches[0].num_columns(); ++c) {
    std::vector<ArrayPtr> parts;
    for (const RecordBatch& b : batches) parts.push_back(b.columns[c]);
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr column, ConcatArrays(parts));
    out.columns.push_back(column);
  }
  return out;
}

}  // namespace hoglake::columnar
