// The RLE / bit-packed hybrid encoding Parquet uses for definition and
// repetition levels, dictionary indices and RLE booleans, plus the small
// bit-level helpers other encodings share.
//
// A hybrid stream is a sequence of runs, each starting with a ULEB128 header:
//   header & 1 == 0: an RLE run of (header >> 1) copies of one value stored in
//                    ceil(bit_width / 8) little-endian bytes;
//   header & 1 == 1: (header >> 1) groups of 8 bit-packed values, LSB first,
//                    bit_width bits each (the last group may be padding).
// The encoder emits RLE runs for 8+ equal values and bit-packs the rest;
// literal groups are only padded at the very end of the stream, so a reader
// that knows the value count decodes it exactly.
//
// The decoder reads untrusted bytes: it never reads past its range, refuses a
// bit width above 32 and stops with InvalidData when the runs end before the
// requested count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace hoglake::parquet {

// Bits needed to store values 0..max_value (0 for max_value 0).
int BitWidthFor(uint64_t max_value);

// Appends an unsigned LEB128 varint.
void AppendUleb128(uint64_t value, std::string* out);

// Appends the hybrid encoding of `values` (each < 2^bit_width) to `out`.
void EncodeRleHybrid(const uint32_t* values, int64_t count, int bit_width, std::string* out);
// Same for levels (each >= 0).
void EncodeRleHybrid(const int16_t* values, int64_t count, int bit_width, std::string* out);
inline void EncodeRleHybrid(const std::vector<uint32_t>& values, int bit_width, std::string* out) {
  EncodeRleHybrid(values.data(), static_cast<int64_t>(values.size()), bit_width, out);
}

// Decodes hybrid runs from a byte range.
class RleDecoder {
 public:
  RleDecoder(const uint8_t* data, int64_t size, int bit_width)
      : data_(data), end_(data + size), bit_width_(bit_width) {}

  // Appends exactly `count` values to `out`, or fails.
  Status Decode(int64_t count, std::vector<uint32_t>* out);
  // Writes exactly `count` values to out[0..count), or fails.
  Status Decode(int64_t count, uint32_t* out);
  // Same for 16-bit levels; values above max_level are refused.
  Status DecodeLevels(int64_t count, int16_t max_level, std::vector<int16_t>* out);
  Status DecodeLevels(int64_t count, int16_t max_level, int16_t* out);
  // True when the next run is an RLE run of at least `count` copies of
  // `value` (e.g. a page's definition levels when nothing is null). Reads
  // the run header; use on a fresh decoder, not before Decode.
  bool StartsWithRun(int64_t count, uint32_t value);

 private:
  Status NextRun();
  // Values above `limit` are refused as levels above the maximum.
  template <typename T>
  Status DecodeInto(int64_t count, T* out, uint32_t limit);

  const uint8_t* data_;
  const uint8_t* end_;
  int bit_width_;
  // Current run.
  bool literal_ = false;
  int64_t run_left_ = 0;
  uint32_t run_value_ = 0;
  const uint8_t* literal_bits_ = nullptr;
  const uint8_t* literal_end_ = nullptr;
  int64_t literal_index_ = 0;
};

// Reads `bit_width`-bit values LSB first from a byte range (bit-packed
// runs, DELTA_BINARY_PACKED miniblocks). Width up to 64.
class BitReader {
 public:
  BitReader(const uint8_t* data, int64_t size) : data_(data), size_(size) {}
  // Reads one value; false when it would run past the end.
  bool Read(int bit_width, uint64_t* value);
  // Skips to the next whole byte; returns the byte position.
  int64_t AlignedBytePosition() const { return (bit_pos_ + 7) / 8; }

 private:
  const uint8_t* data_;
  int64_t size_;
  int64_t bit_pos_ = 0;
};

}  // namespace hoglake::parquet
