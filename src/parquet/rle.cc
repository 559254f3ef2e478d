#include "parquet/rle.h"

#include <algorithm>
#include <cstring>
#include <utility>

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

template <typename T>
int64_t RunLength(const T* values, int64_t count, int64_t i) {
  const T v = values[i];
  int64_t j = i + 1;
  while (j < count && values[j] == v) ++j;
  return j - i;
}

void AppendRleRun(uint32_t value, int64_t length, int bit_width, std::string* out) {
  AppendUleb128(static_cast<uint64_t>(length) << 1, out);
  const int bytes = (bit_width + 7) / 8;
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<char>((value >> (8 * b)) & 0xFF));
}

template <typename T>
void AppendBitPacked(const T* values, int64_t count, int bit_width, std::string* out) {
  const int64_t groups = (count + 7) / 8;
  AppendUleb128((static_cast<uint64_t>(groups) << 1) | 1, out);
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(groups * bit_width), '\0');
  uint8_t* bytes = reinterpret_cast<uint8_t*>(out->data() + start);
  // LSB first through a 64-bit accumulator (bit_width <= 32, < 8 bits pending).
  uint64_t acc = 0;
  int bits = 0;
  for (int64_t i = 0; i < count; ++i) {
    acc |= static_cast<uint64_t>(static_cast<uint32_t>(values[i])) << bits;
    bits += bit_width;
    while (bits >= 8) {
      *bytes++ = static_cast<uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) *bytes = static_cast<uint8_t>(acc);
}

template <typename T>
void Encode(const T* values, int64_t count, int bit_width, std::string* out) {
  int64_t i = 0;
  while (i < count) {
    const int64_t run = RunLength(values, count, i);
    if (run >= 8 || bit_width == 0) {
      AppendRleRun(static_cast<uint32_t>(values[i]), run, bit_width, out);
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

}  // namespace

void EncodeRleHybrid(const uint32_t* values, int64_t count, int bit_width, std::string* out) {
  Encode(values, count, bit_width, out);
}

void EncodeRleHybrid(const int16_t* values, int64_t count, int bit_width, std::string* out) {
  Encode(values, count, bit_width, out);
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
      literal_end_ = end_;
      literal_index_ = 0;
      data_ = end_;
      return Status::Ok();
    }
    literal_ = true;
    run_left_ = groups * 8;
    literal_bits_ = data_;
    literal_end_ = data_ + bytes;
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

namespace {

Error LevelTooHigh(uint32_t v, uint32_t max_level) {
  return InvalidData("level ", v, " exceeds the column's maximum ", max_level);
}

}  // namespace

namespace {

// Unpacks `groups` groups of 8 W-bit values from `in` (W bytes per group;
// up to 8 bytes past the last group may be read). Returns false when a
// value exceeds `limit` (all values are written regardless).
template <int W, typename T>
bool UnpackGroupsW(const uint8_t* in, int64_t groups, T* out, uint32_t limit) {
  constexpr uint64_t kMask = W == 32 ? 0xFFFFFFFFull : (uint64_t{1} << W) - 1;
  uint32_t max = 0;
  for (int64_t g = 0; g < groups; ++g, in += W, out += 8) {
    for (int i = 0; i < 8; ++i) {
      const int bit = i * W;
      uint64_t word;
      std::memcpy(&word, in + bit / 8, 8);
      const uint32_t v = static_cast<uint32_t>((word >> (bit % 8)) & kMask);
      max = std::max(max, v);
      out[i] = static_cast<T>(v);
    }
  }
  return max <= limit;
}

template <typename T, int... W>
bool UnpackDispatch(const uint8_t* in, int64_t groups, int width, T* out, uint32_t limit,
                    std::integer_sequence<int, W...>) {
  bool ok = true;
  (void)((width == W + 1 ? (ok = UnpackGroupsW<W + 1>(in, groups, out, limit), true) : false) ||
         ...);
  return ok;
}

template <typename T>
bool UnpackGroups(const uint8_t* in, int64_t groups, int width, T* out, uint32_t limit) {
  if (width == 0) {
    std::fill(out, out + groups * 8, T{0});
    return true;
  }
  return UnpackDispatch(in, groups, width, out, limit, std::make_integer_sequence<int, 32>());
}

}  // namespace

template <typename T>
Status RleDecoder::DecodeInto(int64_t count, T* out, uint32_t limit) {
  if (bit_width_ < 0 || bit_width_ > 32) return InvalidData("bit width ", bit_width_, " above 32");
  const uint64_t mask = bit_width_ == 32 ? 0xFFFFFFFFull : (uint64_t{1} << bit_width_) - 1;
  while (count > 0) {
    if (run_left_ == 0) HOGLAKE_RETURN_IF_ERROR(NextRun());
    const int64_t n = std::min(count, run_left_);
    if (literal_) {
      int64_t k = 0;
      // Whole groups of 8 values whose bytes lie well inside the run: a
      // bit-width-specialized unpack (levels still checked against limit).
      if ((literal_index_ & 7) == 0 && n >= 8) {
        const int64_t bytes_left = literal_end_ - literal_bits_ - (literal_index_ / 8) * bit_width_;
        // Each group reads up to bit_width_ + 8 bytes from its start.
        const int64_t safe_groups =
            std::min<int64_t>(n / 8, (bytes_left - 8) / std::max(bit_width_, 1));
        if (safe_groups > 0) {
          const uint8_t* in = literal_bits_ + (literal_index_ / 8) * bit_width_;
          if (!UnpackGroups(in, safe_groups, bit_width_, out, limit)) {
            // Find the offending value for the message.
            for (int64_t j = 0; j < safe_groups * 8; ++j) {
              if (static_cast<uint32_t>(out[j]) > limit) return LevelTooHigh(out[j], limit);
            }
          }
          k = safe_groups * 8;
          out += k;
          literal_index_ += k;
        }
      }
      for (; k < n; ++k, ++literal_index_) {
        const int64_t bit = literal_index_ * bit_width_;
        const uint8_t* p = literal_bits_ + (bit >> 3);
        uint64_t word = 0;
        const int64_t avail = literal_end_ - p;
        if (avail >= 8) [[likely]] {
          std::memcpy(&word, p, 8);
        } else if (avail > 0) {
          std::memcpy(&word, p, static_cast<size_t>(avail));
        }
        const uint32_t v = static_cast<uint32_t>((word >> (bit & 7)) & mask);
        if (v > limit) [[unlikely]]
          return LevelTooHigh(v, limit);
        *out++ = static_cast<T>(v);
      }
    } else {
      if (run_value_ > limit) return LevelTooHigh(run_value_, limit);
      std::fill(out, out + n, static_cast<T>(run_value_));
      out += n;
    }
    run_left_ -= n;
    count -= n;
  }
  return Status::Ok();
}

bool RleDecoder::StartsWithRun(int64_t count, uint32_t value) {
  if (bit_width_ < 0 || bit_width_ > 32 || run_left_ != 0 || !NextRun().ok()) return false;
  return !literal_ && run_left_ >= count && run_value_ == value;
}

Status RleDecoder::Decode(int64_t count, uint32_t* out) {
  return DecodeInto(count, out, UINT32_MAX);
}

Status RleDecoder::Decode(int64_t count, std::vector<uint32_t>* out) {
  // Decode in bounded steps so a corrupt count fails before a huge buffer.
  while (count > 0) {
    const int64_t step = std::min<int64_t>(count, 1 << 16);
    const size_t at = out->size();
    out->resize(at + static_cast<size_t>(step));
    Status st = Decode(step, out->data() + at);
    if (!st.ok()) {
      out->resize(at);
      return st;
    }
    count -= step;
  }
  return Status::Ok();
}

Status RleDecoder::DecodeLevels(int64_t count, int16_t max_level, int16_t* out) {
  return DecodeInto(count, out, static_cast<uint32_t>(std::max<int16_t>(max_level, 0)));
}

Status RleDecoder::DecodeLevels(int64_t count, int16_t max_level, std::vector<int16_t>* out) {
  while (count > 0) {
    const int64_t step = std::min<int64_t>(count, 1 << 16);
    const size_t at = out->size();
    out->resize(at + static_cast<size_t>(step));
    Status st = DecodeLevels(step, max_level, out->data() + at);
    if (!st.ok()) {
      out->resize(at);
      return st;
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
