#include "sql/execution/vector_ops.h"

namespace hoglake::sql {

BoolOutput::BoolOutput(int64_t rows)
    : rows_(rows), bits_(columnar::Buffer::Allocate(columnar::BytesForBits(rows) + 1)) {
  std::memset(bits_->mutable_data(), 0, columnar::BytesForBits(rows) + 1);
}

void BoolOutput::SetNull(int64_t i) {
  if (!validity_) {
    int64_t bytes = columnar::BytesForBits(rows_) + 1;
    validity_ = columnar::Buffer::Allocate(bytes);
    std::memset(validity_->mutable_data(), 0xFF, bytes);
  }
  if (columnar::GetBit(validity_->data(), i)) {
    columnar::ClearBit(validity_->mutable_data(), i);
    ++null_count_;
  }
}

columnar::ArrayPtr BoolOutput::Finish() {
  auto out = std::make_shared<columnar::ArrayData>();
  out->type = columnar::Bool();
  out->length = rows_;
  out->null_count = null_count_;
  out->buffers = {null_count_ > 0 ? validity_ : nullptr, bits_};
  return out;
}

std::shared_ptr<columnar::Buffer> AndValidity(const columnar::ArrayData& a,
                                              const columnar::ArrayData* b, int64_t rows,
                                              int64_t* null_count) {
  *null_count = 0;
  if (a.null_count == 0 && (b == nullptr || b->null_count == 0)) return nullptr;
  int64_t bytes = columnar::BytesForBits(rows) + 1;
  auto out = columnar::Buffer::Allocate(bytes);
  std::memset(out->mutable_data(), 0, bytes);
  uint8_t* bits = out->mutable_data();
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    bool valid = a.IsValid(i) && (b == nullptr || b->IsValid(i));
    if (valid) {
      columnar::SetBit(bits, i);
    } else {
      ++nulls;
    }
  }
  *null_count = nulls;
  return nulls > 0 ? out : nullptr;
}

}  // namespace hoglake::sql
