#include "parquet/rle.h"

#include <algorithm>
#include <cstring>

namespace hoglake::parquet {

int BitWidthFor(uint64_t max_value) {
  int bits = 0;
  while (max_value) {
    ++bits;
    max_value >>= 1;
  }
  return bits;
}

void AppendUleb128(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

namespace {

int64_t RunLength(const uint32_t* values, int64_t count, int64_t i) {
  int64_t j = i + 1;
  while (j < count && values[j] == values[i]) ++j;
  return j - i;
}

void AppendRleRun(uint32_t value, int64_t length, int bit_width, std::string* out) {
  AppendUleb128(static_cast<uint64_t>(length) << 1, out);
  const int bytes = (bit_width + 7) / 8;
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<char>((value >> (8 * b)) & 0xFF));
}

void AppendBitPacked(const uint32_t* values, int64_t count, int bit_width, std::string* out) {
  const int64_t groups = (count + 7) / 8;
  AppendUleb128((static_cast<uint64_t>(groups) << 1) | 1, out);
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(groups * bit_width), '\0');
  uint8_t* bytes = reinterpret_cast<uint8_t*>(out->data() + start);
  int64_t bit = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t v = values[i];
    for (int b = 0; b < bit_width; ++b, ++bit) {
      if ((v >> b) & 1) bytes[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
    }
  }
}

}  // namespace

void EncodeRleHybrid(const uint32_t* values, int64_t count, int bit_width, std::string* out) {
  int64_t i = 0;
  while (i < count) {
    const int64_t run = RunLength(values, count, i);
    if (run >= 8 || bit_width == 0) {
      AppendRleRun(values[i], run, bit_width, out);
      i += run;
      continue;
    }
    // Literal groups of 8 until a long run starts at a group boundary.
    const int64_t start = i;
    while (i < count) {
      i = std::min(i + 8, count);
      if (i < count && RunLength(values, count, i) >= 8) break;
    }
    AppendBitPacked(values + start, i - start, bit_width, out);
  }
}

Status RleDecoder::NextRun() {
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (data_ >= end_) return InvalidData("RLE/bit-packed data ends before the expected values");
    if (shift > 35) return InvalidData("RLE/bit-packed run header is too long");
    const uint8_t byte = *data_++;
    header |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) break;
  }
  if (header & 1) {
    const int64_t groups = static_cast<int64_t>(header >> 1);
    const int64_t bytes = groups * bit_width_;
    if (groups == 0) return InvalidData("empty bit-packed run");
    if (bytes > end_ - data_) {
      // Writers may truncate the final group's padding: accept what remains.
      const int64_t available = end_ - data_;
      literal_ = true;
      run_left_ = bit_width_ == 0 ? groups * 8 : available * 8 / bit_width_;
      if (run_left_ == 0) return InvalidData("bit-packed run runs past the end of its data");
      literal_bits_ = data_;
      literal_index_ = 0;
      data_ = end_;
      return Status::Ok();
    }
    literal_ = true;
    run_left_ = groups * 8;
    literal_bits_ = data_;
    literal_index_ = 0;
    data_ += bytes;
  } else {
    literal_ = false;
    run_left_ = static_cast<int64_t>(header >> 1);
    if (run_left_ == 0) return InvalidData("empty RLE run");
    const int bytes = (bit_width_ + 7) / 8;
    if (bytes > end_ - data_) return InvalidData("RLE run value runs past the end of its data");
    uint32_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<uint32_t>(data_[b]) << (8 * b);
    data_ += bytes;
    if (bit_width_ < 32 && (v >> bit_width_) != 0) {
      return InvalidData("RLE run value ", v, " does not fit ", bit_width_, " bits");
    }
    run_value_ = v;
  }
  return Status::Ok();
}

Status RleDecoder::Decode(int64_t count, std::vector<uint32_t>* out) {
  if (bit_width_ < 0 || bit_width_ > 32) return InvalidData("bit width ", bit_width_, " above 32");
  while (count > 0) {
    if (run_left_ == 0) HOGLAKE_RETURN_IF_ERROR(NextRun());
    const int64_t n = std::min(count, run_left_);
    if (literal_) {
      for (int64_t k = 0; k < n; ++k, ++literal_index_) {
        uint32_t v = 0;
        int64_t bit = literal_index_ * bit_width_;
        for (int b = 0; b < bit_width_; ++b, ++bit) {
          v |= static_cast<uint32_t>((literal_bits_[bit >> 3] >> (bit & 7)) & 1) << b;
        }
        out->push_back(v);
      }
    } else {
      out->insert(out->end(), static_cast<size_t>(n), run_value_);
    }
    run_left_ -= n;
    count -= n;
  }
  return Status::Ok();
}

Status RleDecoder::DecodeLevels(int64_t count, int16_t max_level, std::vector<int16_t>* out) {
  std::vector<uint32_t> values;
  // Decode in bounded steps so a corrupt count fails before a huge buffer.
  while (count > 0) {
    const int64_t step = std::min<int64_t>(count, 1 << 16);
    values.clear();
    HOGLAKE_RETURN_IF_ERROR(Decode(step, &values));
    for (uint32_t v : values) {
      if (v > static_cast<uint32_t>(max_level)) {
        return InvalidData("level ", v, " exceeds the column's maximum ", max_level);
      }
      out->push_back(static_cast<int16_t>(v));
    }
    count -= step;
  }
  return Status::Ok();
}

bool BitReader::Read(int bit_width, uint64_t* value) {
  if (bit_pos_ + bit_width > size_ * 8) return false;
  uint64_t v = 0;
  for (int b = 0; b < bit_width; ++b, ++bit_pos_) {
    v |= static_cast<uint64_t>((data_[bit_pos_ >> 3] >> (bit_pos_ & 7)) & 1) << b;
  }
  *value = v;
  return true;
}

}  // namespace hoglake::parquet
