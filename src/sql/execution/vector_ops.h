// Small helpers the kernels share for building result arrays directly in
// Arrow layout: a fixed-width output with its validity bitmap, validity
// combined from inputs, and typed views of inputs. Internal to src/sql.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "columnar/array.h"
#include "columnar/buffer.h"

namespace hoglake::sql {

// A fixed-width result being filled: values[i] and SetNull(i).
template <typename T>
class FixedOutput {
 public:
  FixedOutput(columnar::DataTypePtr type, int64_t rows)
      : type_(std::move(type)), rows_(rows),
        values_(columnar::Buffer::Allocate(std::max<int64_t>(rows, 1) * sizeof(T))) {
    std::memset(values_->mutable_data(), 0, std::max<int64_t>(rows, 1) * sizeof(T));
  }
  T* values() { return reinterpret_cast<T*>(values_->mutable_data()); }
  void SetNull(int64_t i) {
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
  // Starts from a validity copied from `bits` (offset 0, rows_ bits) or none.
  void AdoptValidity(std::shared_ptr<columnar::Buffer> bits, int64_t null_count) {
    validity_ = std::move(bits);
    null_count_ = null_count;
  }
  columnar::ArrayPtr Finish() {
    auto out = std::make_shared<columnar::ArrayData>();
    out->type = type_;
    out->length = rows_;
    out->null_count = null_count_;
    out->buffers = {null_count_ > 0 ? validity_ : nullptr, values_};
    return out;
  }

 private:
  columnar::DataTypePtr type_;
  int64_t rows_;
  std::shared_ptr<columnar::Buffer> values_;
  std::shared_ptr<columnar::Buffer> validity_;
  int64_t null_count_ = 0;
};

// A boolean result: bits and validity.
class BoolOutput {
 public:
  explicit BoolOutput(int64_t rows);
  void Set(int64_t i, bool v) {
    if (v) columnar::SetBit(bits_->mutable_data(), i);
  }
  void SetNull(int64_t i);
  columnar::ArrayPtr Finish();

 private:
  int64_t rows_;
  std::shared_ptr<columnar::Buffer> bits_;
  std::shared_ptr<columnar::Buffer> validity_;
  int64_t null_count_ = 0;
};

// Validity of `rows` rows that is valid where every input is valid, with its
// null count; null buffer when no input has nulls.
std::shared_ptr<columnar::Buffer> AndValidity(const columnar::ArrayData& a,
                                              const columnar::ArrayData* b, int64_t rows,
                                              int64_t* null_count);

// Value i of a decimal128 array, unscaled (the buffer may be unaligned).
inline __int128 LoadDecimal(const columnar::ArrayData& a, int64_t i) {
  __int128 v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * 16, 16);
  return v;
}

// Row i of a bool array is valid and true.
inline bool IsTrue(const columnar::ArrayData& a, int64_t i) { return a.IsValid(i) && a.GetBool(i); }

}  // namespace hoglake::sql
