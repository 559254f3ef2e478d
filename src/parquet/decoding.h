// Value decoders for Parquet data and dictionary pages, into a dense
// "physical values" container (present values only, in page order).
//
// Supported encodings: PLAIN (all physical types), RLE_DICTIONARY /
// PLAIN_DICTIONARY indices (gathered from a decoded dictionary), RLE
// (booleans), DELTA_BINARY_PACKED (INT32/INT64), DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY (BYTE_ARRAY, and FIXED_LEN_BYTE_ARRAY for the latter),
// BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY).
// Not supported: the deprecated BIT_PACKED encoding (NotImplemented).
//
// Every decoder reads untrusted bytes: counts come from the caller (bounded
// by the page's level count), sizes are checked against the bytes present,
// and a stream that ends early or claims more than it holds is InvalidData.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "parquet/metadata.h"
#include "parquet/pod_buffer.h"

namespace hoglake::parquet {

struct PhysicalValues {
  PhysicalType type = PhysicalType::kBoolean;
  int32_t width = 0;  // bytes per value for fixed-width types (BOOLEAN: 1 byte 0/1)
  int64_t count = 0;
  PodBuffer<char> fixed;        // fixed-width values, count * width bytes
  PodBuffer<uint32_t> offsets;  // BYTE_ARRAY: count + 1 offsets into `bytes`
  PodBuffer<char> bytes;        // BYTE_ARRAY: the values, back to back

  void Reset(PhysicalType t, int32_t type_length);
  bool is_byte_array() const { return type == PhysicalType::kByteArray; }
  std::string_view ByteArray(int64_t i) const {
    return std::string_view(bytes.data() + offsets[i], offsets[i + 1] - offsets[i]);
  }
  std::string_view Fixed(int64_t i) const {
    return std::string_view(fixed.data() + i * width, static_cast<size_t>(width));
  }
  // Appends value i of `other` (same type).
  void AppendFrom(const PhysicalValues& other, int64_t i);
  void AppendByteArray(std::string_view v);
};

// Byte width of fixed-width physical types; 0 for BYTE_ARRAY.
int32_t PhysicalWidth(PhysicalType type, int32_t type_length);

// Decodes `count` values of `encoding` from [data, data + size) and appends
// them to `*out` (whose type is already set). `dictionary` is required for
// the dictionary encodings.
Status DecodeValues(Encoding encoding, const uint8_t* data, int64_t size, int64_t count,
                    const PhysicalValues* dictionary, PhysicalValues* out);

// DELTA_BINARY_PACKED integers (wrapping arithmetic); `*consumed` is the
// stream's length in bytes. At most `max_count` values are accepted.
Status DecodeDeltaBinaryPacked(const uint8_t* data, int64_t size, int64_t max_count,
                               std::vector<int64_t>* out, int64_t* consumed);

}  // namespace hoglake::parquet
