#include "columnar/slice.h"

#include "columnar/buffer.h"

namespace hoglake::columnar {

ArrayPtr SliceUnchecked(const ArrayPtr& array, int64_t offset, int64_t length) {
  if (offset == 0 && length == array->length) return array;
  auto out = std::make_shared<ArrayData>(*array);
  out->offset = array->offset + offset;
  out->length = length;
  out->null_count = array->null_count == 0 || !array->buffers[0]
                        ? 0
                        : length - CountSetBits(array->buffers[0]->data(), out->offset, length);
  return out;
}

Result<ArrayPtr> Slice(const ArrayPtr& array, int64_t offset, int64_t length) {
  if (!array) return InvalidArgument("cannot slice a null array");
  if (offset < 0 || length < 0 || offset > array->length - length) {
    return InvalidArgument("slice [", offset, ", +", length, ") is outside the array's ",
                           array->length, " rows");
  }
  return SliceUnchecked(array, offset, length);
}

Result<RecordBatch> SliceBatch(const RecordBatch& batch, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > batch.num_rows - length) {
    return InvalidArgument("slice [", offset, ", +", length, ") is outside the batch's ",
                           batch.num_rows, " rows");
  }
  RecordBatch out{batch.schema, length, {}};
  out.columns.reserve(batch.columns.size());
  for (const ArrayPtr& column : batch.columns) {
    out.columns.push_back(SliceUnchecked(column, offset, length));
  }
  return out;
}

}  // namespace hoglake::columnar
