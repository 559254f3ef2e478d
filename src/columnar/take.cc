// TakeRows over every layout (see take.h).
#include "columnar/take.h"

#include <cstring>
#include <memory>
#include <vector>

namespace hoglake::columnar {
namespace {

// Validity of the taken rows; nullptr when none of them is null.
std::shared_ptr<Buffer> TakeValidity(const ArrayData& array, std::span<const int64_t> rows,
                                     int64_t* null_count) {
  *null_count = 0;
  if (array.null_count == 0 || !array.buffers[0]) return nullptr;
  auto bits = Buffer::Allocate(BytesForBits(static_cast<int64_t>(rows.size())));
  uint8_t* out = bits->mutable_data();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (array.IsValid(rows[i])) {
      SetBit(out, static_cast<int64_t>(i));
    } else {
      ++*null_count;
    }
  }
  if (*null_count == 0) return nullptr;
  return bits;
}

}  // namespace

Result<ArrayPtr> TakeRows(const ArrayData& array, std::span<const int64_t> rows) {
  for (int64_t row : rows) {
    if (row < 0 || row >= array.length) {
      return InvalidArgument("TakeRows: row ", row, " outside an array of length ", array.length);
    }
  }
  auto out = std::make_shared<ArrayData>();
  out->type = array.type;
  out->length = static_cast<int64_t>(rows.size());
  out->buffers.push_back(TakeValidity(array, rows, &out->null_count));
  const DataType& type = *array.type;
  const size_t n = rows.size();
  switch (type.id) {
    case TypeId::kBool: {
      auto values = Buffer::Allocate(BytesForBits(static_cast<int64_t>(n)));
      for (size_t i = 0; i < n; ++i) {
        if (array.GetBool(rows[i])) SetBit(values->mutable_data(), static_cast<int64_t>(i));
      }
      out->buffers.push_back(values);
      return ArrayPtr(out);
    }
    case TypeId::kUtf8:
    case TypeId::kBinary: {
      const int32_t* offsets = array.offsets();
      int64_t total = 0;
      for (int64_t row : rows) total += offsets[row + 1] - offsets[row];
      if (total > INT32_MAX) return InvalidArgument("TakeRows: more than 2 GiB of values");
      auto out_offsets = Buffer::Allocate(static_cast<int64_t>((n + 1) * sizeof(int32_t)));
      auto out_data = Buffer::Allocate(total);
      auto* o = reinterpret_cast<int32_t*>(out_offsets->mutable_data());
      const uint8_t* data = array.buffers[2] ? array.buffers[2]->data() : nullptr;
      int32_t pos = 0;
      o[0] = 0;
      for (size_t i = 0; i < n; ++i) {
        const int32_t begin = offsets[rows[i]];
        const int32_t len = offsets[rows[i] + 1] - begin;
        if (len > 0) std::memcpy(out_data->mutable_data() + pos, data + begin, len);
        pos += len;
        o[i + 1] = pos;
      }
      out->buffers.push_back(out_offsets);
      out->buffers.push_back(out_data);
      return ArrayPtr(out);
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int32_t* offsets = array.offsets();
      std::vector<int64_t> child_rows;
      auto out_offsets = Buffer::Allocate(static_cast<int64_t>((n + 1) * sizeof(int32_t)));
      auto* o = reinterpret_cast<int32_t*>(out_offsets->mutable_data());
      o[0] = 0;
      for (size_t i = 0; i < n; ++i) {
        for (int32_t c = offsets[rows[i]]; c < offsets[rows[i] + 1]; ++c) child_rows.push_back(c);
        if (child_rows.size() > static_cast<size_t>(INT32_MAX)) {
          return InvalidArgument("TakeRows: more than 2^31 list elements");
        }
        o[i + 1] = static_cast<int32_t>(child_rows.size());
      }
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child, TakeRows(*array.children[0], child_rows));
      out->buffers.push_back(out_offsets);
      out->children.push_back(std::move(child));
      return ArrayPtr(out);
    }
    case TypeId::kStruct: {
      std::vector<int64_t> child_rows(n);
      for (size_t i = 0; i < n; ++i) child_rows[i] = rows[i] + array.offset;
      for (const ArrayPtr& child : array.children) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr taken, TakeRows(*child, child_rows));
        out->children.push_back(std::move(taken));
      }
      return ArrayPtr(out);
    }
    default: {
      const int bits = type.bit_width();
      if (bits == 0 || bits % 8 != 0) {
        return InvalidArgument("TakeRows: unsupported type ", type.ToString());
      }
      const int64_t width = bits / 8;
      auto values = Buffer::Allocate(width * static_cast<int64_t>(n));
      const uint8_t* src = array.buffers[1]->data() + array.offset * width;
      uint8_t* dst = values->mutable_data();
      switch (width) {
        case 4:
          for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * 4, src + rows[i] * 4, 4);
          break;
        case 8:
          for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * 8, src + rows[i] * 8, 8);
          break;
        default:
          for (size_t i = 0; i < n; ++i) {
            std::memcpy(dst + i * width, src + rows[i] * width, static_cast<size_t>(width));
          }
      }
      out->buffers.push_back(values);
      return ArrayPtr(out);
    }
  }
}

Result<RecordBatch> TakeRows(const RecordBatch& batch, std::span<const int64_t> rows) {
  RecordBatch out;
  out.schema = batch.schema;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (const ArrayPtr& column : batch.columns) {
    HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr taken, TakeRows(*column, rows));
    out.columns.push_back(std::move(taken));
  }
  return out;
}

}  // namespace hoglake::columnar
