#include "parquet/decoding.h"

#include <algorithm>
#include <cstring>

#include "parquet/rle.h"

namespace hoglake::parquet {

int32_t PhysicalWidth(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kBoolean:
      return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    case PhysicalType::kFixedLenByteArray:
      return type_length;
    case PhysicalType::kByteArray:
      return 0;
  }
  return 0;
}

void PhysicalValues::Reset(PhysicalType t, int32_t type_length) {
  type = t;
  width = PhysicalWidth(t, type_length);
  count = 0;
  fixed.clear();
  bytes.clear();
  offsets.assign(1, 0);
}

void PhysicalValues::AppendByteArray(std::string_view v) {
  bytes.append(v.data(), v.size());
  offsets.push_back(static_cast<uint32_t>(bytes.size()));
  ++count;
}

void PhysicalValues::AppendFrom(const PhysicalValues& other, int64_t i) {
  if (is_byte_array()) {
    AppendByteArray(other.ByteArray(i));
  } else {
    fixed.append(other.Fixed(i));
    ++count;
  }
}

namespace {

constexpr int64_t kMaxByteArrayTotal = int64_t{1} << 31;  // int32 Arrow offsets

Status CheckByteTotal(const PhysicalValues& out, int64_t more) {
  if (static_cast<int64_t>(out.bytes.size()) + more >= kMaxByteArrayTotal) {
    return InvalidData("BYTE_ARRAY values of one column chunk exceed 2 GiB");
  }
  return Status::Ok();
}

uint32_t LoadLe32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// PLAIN BYTE_ARRAY values one by one, checking the 2 GiB total per value.
Status DecodePlainByteArraysChecked(const uint8_t* data, int64_t size, int64_t count,
                                    PhysicalValues* out) {
  int64_t pos = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (size - pos < 4) return InvalidData("PLAIN BYTE_ARRAY length runs past the page");
    const int64_t n = LoadLe32(data + pos);
    pos += 4;
    if (n > size - pos)
      return InvalidData("PLAIN BYTE_ARRAY value of ", n, " bytes runs past the page");
    HOGLAKE_RETURN_IF_ERROR(CheckByteTotal(*out, n));
    out->AppendByteArray(
        std::string_view(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(n)));
    pos += n;
  }
  return Status::Ok();
}

Status DecodePlain(const uint8_t* data, int64_t size, int64_t count, PhysicalValues* out) {
  if (out->type == PhysicalType::kBoolean) {
    if ((count + 7) / 8 > size) return InvalidData("PLAIN booleans run past the page");
    const size_t at = out->fixed.size();
    out->fixed.resize(at + static_cast<size_t>(count));
    char* dst = out->fixed.data() + at;
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<char>((data[i >> 3] >> (i & 7)) & 1);
    out->count += count;
    return Status::Ok();
  }
  if (out->is_byte_array()) {
    if (static_cast<int64_t>(out->bytes.size()) + size >= kMaxByteArrayTotal) {
      return DecodePlainByteArraysChecked(data, size, count, out);
    }
    // The values take at most `size` bytes: grow once, then write through
    // raw pointers.
    const size_t first = out->offsets.size();
    out->offsets.resize_uninitialized(first + static_cast<size_t>(std::min(count, size / 4)));
    const size_t base = out->bytes.size();
    out->bytes.reserve(base + static_cast<size_t>(size) + 16);
    uint32_t* offsets = out->offsets.data() + first;
    char* bytes = out->bytes.data();
    uint32_t end = static_cast<uint32_t>(base);
    int64_t pos = 0;
    int64_t i = 0;
    for (; i < count; ++i) {
      if (size - pos < 4) break;
      const int64_t n = LoadLe32(data + pos);
      pos += 4;
      if (n > size - pos) {
        out->offsets.resize_uninitialized(first + static_cast<size_t>(i));
        out->bytes.resize_uninitialized(end);
        out->count += i;
        return InvalidData("PLAIN BYTE_ARRAY value of ", n, " bytes runs past the page");
      }
      // Short values: one fixed 16-byte move (the output has 16 bytes of
      // slack, see the reserve above) instead of a variable-length memcpy.
      if (n <= 16 && size - pos >= 16) {
        std::memcpy(bytes + end, data + pos, 16);
      } else {
        std::memcpy(bytes + end, data + pos, static_cast<size_t>(n));
      }
      end += static_cast<uint32_t>(n);
      offsets[i] = end;
      pos += n;
    }
    out->offsets.resize_uninitialized(first + static_cast<size_t>(i));
    out->bytes.resize_uninitialized(end);
    out->count += i;
    if (i < count) return InvalidData("PLAIN BYTE_ARRAY length runs past the page");
    return Status::Ok();
  }
  const int64_t width = out->width;
  if (width <= 0) return InvalidData("fixed-width column without a width");
  if (count > size / width) {
    return InvalidData("PLAIN page holds ", size / width, " values of ", width, " bytes, needs ",
                       count);
  }
  out->fixed.append(reinterpret_cast<const char*>(data), static_cast<size_t>(count * width));
  out->count += count;
  return Status::Ok();
}

template <typename T>
bool GatherFixed(const PhysicalValues& dictionary, const uint32_t* indices, int64_t n, char* out) {
  const T* dict = reinterpret_cast<const T*>(dictionary.fixed.data());
  const uint32_t size = static_cast<uint32_t>(dictionary.count);
  T* dst = reinterpret_cast<T*>(out);
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t idx = indices[i];
    bad |= idx >= size;
    std::memcpy(dst + i, dict + (idx < size ? idx : 0), sizeof(T));
  }
  return bad == 0;
}

// Appends the dictionary strings named by `indices` (all in range). Values
// of up to 16 bytes are copied 16 bytes at a time when both buffers have
// that much room (the dictionary keeps 16 bytes of slack, see below).
Status GatherByteArrays(const PhysicalValues& dictionary, const uint32_t* indices, int64_t n,
                        PhysicalValues* out) {
  const uint32_t* doff = dictionary.offsets.data();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += doff[indices[i] + 1] - doff[indices[i]];
  HOGLAKE_RETURN_IF_ERROR(CheckByteTotal(*out, total));
  const size_t first = out->offsets.size();
  out->offsets.resize_uninitialized(first + static_cast<size_t>(n));
  const size_t base = out->bytes.size();
  out->bytes.reserve(base + static_cast<size_t>(total) + 16);
  const bool wide_ok = dictionary.bytes.capacity() >= dictionary.bytes.size() + 16;
  const char* src = dictionary.bytes.data();
  char* dst = out->bytes.data();
  uint32_t* offsets = out->offsets.data() + first;
  uint32_t end = static_cast<uint32_t>(base);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = doff[indices[i]], len = doff[indices[i] + 1] - b;
    if (len <= 16 && wide_ok) {
      std::memcpy(dst + end, src + b, 16);
    } else {
      std::memcpy(dst + end, src + b, len);
    }
    end += len;
    offsets[i] = end;
  }
  out->bytes.resize_uninitialized(end);
  out->count += n;
  return Status::Ok();
}

Status DecodeDictionaryIndices(const uint8_t* data, int64_t size, int64_t count,
                               const PhysicalValues* dictionary, PhysicalValues* out) {
  if (!dictionary) return InvalidData("dictionary-encoded page without a dictionary page");
  if (count == 0) return Status::Ok();
  if (size < 1) return InvalidData("dictionary page data has no bit width byte");
  const int width = data[0];
  if (width > 32) return InvalidData("dictionary index bit width ", width, " above 32");
  RleDecoder decoder(data + 1, size - 1, width);
  thread_local PodBuffer<uint32_t> indices;
  const int64_t w = out->width;
  const uint32_t dict_size = static_cast<uint32_t>(dictionary->count);
  int64_t done = 0;
  while (done < count) {
    const int64_t step = std::min<int64_t>(count - done, 1 << 16);
    indices.resize_uninitialized(static_cast<size_t>(step));
    HOGLAKE_RETURN_IF_ERROR(decoder.Decode(step, indices.data()));
    if (!out->is_byte_array() && (w == 4 || w == 8)) {
      const size_t at = out->fixed.size();
      out->fixed.resize_uninitialized(at + static_cast<size_t>(step * w));
      const bool ok =
          w == 4 ? GatherFixed<uint32_t>(*dictionary, indices.data(), step, out->fixed.data() + at)
                 : GatherFixed<uint64_t>(*dictionary, indices.data(), step, out->fixed.data() + at);
      if (ok) {
        out->count += step;
        done += step;
        continue;
      }
      out->fixed.resize_uninitialized(at);  // report the bad index below
    }
    uint32_t max_index = 0;
    for (int64_t i = 0; i < step; ++i) max_index = std::max(max_index, indices[i]);
    if (max_index >= dict_size) {
      return InvalidData("dictionary index ", max_index, " out of range (dictionary has ",
                         dictionary->count, " values)");
    }
    if (out->is_byte_array()) {
      HOGLAKE_RETURN_IF_ERROR(GatherByteArrays(*dictionary, indices.data(), step, out));
    } else {
      for (int64_t i = 0; i < step; ++i) out->AppendFrom(*dictionary, indices[i]);
    }
    done += step;
  }
  return Status::Ok();
}

Status DecodeRleBooleans(const uint8_t* data, int64_t size, int64_t count, PhysicalValues* out) {
  if (size < 4) return InvalidData("RLE booleans without a length prefix");
  const int64_t n = LoadLe32(data);
  if (n > size - 4) return InvalidData("RLE booleans run past the page");
  RleDecoder decoder(data + 4, n, 1);
  std::vector<uint32_t> bits;
  HOGLAKE_RETURN_IF_ERROR(decoder.Decode(count, &bits));
  for (uint32_t b : bits) out->fixed.push_back(static_cast<char>(b));
  out->count += count;
  return Status::Ok();
}

Status DecodeByteStreamSplit(const uint8_t* data, int64_t size, int64_t count,
                             PhysicalValues* out) {
  const int64_t width = out->width;
  if (out->is_byte_array() || out->type == PhysicalType::kBoolean || width <= 0) {
    return InvalidData("BYTE_STREAM_SPLIT on a column without fixed-width values");
  }
  if (count > size / width) return InvalidData("BYTE_STREAM_SPLIT page is too short");
  // The streams are sized by the page's value count (size / width).
  const int64_t stride = size / width;
  const size_t at = out->fixed.size();
  out->fixed.resize(at + static_cast<size_t>(count * width));
  char* dst = out->fixed.data() + at;
  for (int64_t i = 0; i < count; ++i) {
    for (int64_t b = 0; b < width; ++b)
      dst[i * width + b] = static_cast<char>(data[b * stride + i]);
  }
  out->count += count;
  return Status::Ok();
}

Status DecodeDeltaLength(const uint8_t* data, int64_t size, int64_t count, PhysicalValues* out) {
  std::vector<int64_t> lengths;
  int64_t pos = 0;
  HOGLAKE_RETURN_IF_ERROR(DecodeDeltaBinaryPacked(data, size, count, &lengths, &pos));
  if (static_cast<int64_t>(lengths.size()) != count) {
    return InvalidData("DELTA_LENGTH_BYTE_ARRAY holds ", lengths.size(), " lengths, expected ",
                       count);
  }
  for (int64_t n : lengths) {
    if (n < 0 || n > size - pos)
      return InvalidData("DELTA_LENGTH_BYTE_ARRAY value runs past the page");
    HOGLAKE_RETURN_IF_ERROR(CheckByteTotal(*out, n));
    out->AppendByteArray(
        std::string_view(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(n)));
    pos += n;
  }
  return Status::Ok();
}

Status DecodeDeltaByteArray(const uint8_t* data, int64_t size, int64_t count, PhysicalValues* out) {
  std::vector<int64_t> prefixes, suffixes;
  int64_t pos = 0, used = 0;
  HOGLAKE_RETURN_IF_ERROR(DecodeDeltaBinaryPacked(data, size, count, &prefixes, &used));
  pos += used;
  HOGLAKE_RETURN_IF_ERROR(DecodeDeltaBinaryPacked(data + pos, size - pos, count, &suffixes, &used));
  pos += used;
  if (static_cast<int64_t>(prefixes.size()) != count ||
      static_cast<int64_t>(suffixes.size()) != count) {
    return InvalidData("DELTA_BYTE_ARRAY length streams do not hold ", count, " values");
  }
  std::string previous, value;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t p = prefixes[i], s = suffixes[i];
    if (p < 0 || p > static_cast<int64_t>(previous.size())) {
      return InvalidData("DELTA_BYTE_ARRAY prefix ", p, " longer than the previous value");
    }
    if (s < 0 || s > size - pos) return InvalidData("DELTA_BYTE_ARRAY suffix runs past the page");
    value.assign(previous, 0, static_cast<size_t>(p));
    value.append(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(s));
    pos += s;
    if (out->is_byte_array()) {
      HOGLAKE_RETURN_IF_ERROR(CheckByteTotal(*out, static_cast<int64_t>(value.size())));
      out->AppendByteArray(value);
    } else {
      if (static_cast<int64_t>(value.size()) != out->width) {
        return InvalidData("DELTA_BYTE_ARRAY value of ", value.size(), " bytes in a ", out->width,
                           "-byte column");
      }
      out->fixed.append(value);
      ++out->count;
    }
    previous.swap(value);
  }
  return Status::Ok();
}

}  // namespace

Status DecodeDeltaBinaryPacked(const uint8_t* data, int64_t size, int64_t max_count,
                               std::vector<int64_t>* out, int64_t* consumed) {
  int64_t pos = 0;
  auto uleb = [&](uint64_t* v) -> Status {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= size) return InvalidData("DELTA_BINARY_PACKED header runs past the page");
      const uint8_t byte = data[pos++];
      result |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) {
        *v = result;
        return Status::Ok();
      }
    }
    return InvalidData("DELTA_BINARY_PACKED varint is too long");
  };
  auto zigzag = [&](int64_t* v) -> Status {
    uint64_t u;
    HOGLAKE_RETURN_IF_ERROR(uleb(&u));
    *v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
    return Status::Ok();
  };
  uint64_t block_size, miniblocks, total;
  int64_t first;
  HOGLAKE_RETURN_IF_ERROR(uleb(&block_size));
  HOGLAKE_RETURN_IF_ERROR(uleb(&miniblocks));
  HOGLAKE_RETURN_IF_ERROR(uleb(&total));
  HOGLAKE_RETURN_IF_ERROR(zigzag(&first));
  if (block_size == 0 || block_size % 128 != 0 || block_size > (1u << 20) || miniblocks == 0 ||
      block_size % miniblocks != 0 || (block_size / miniblocks) % 8 != 0) {
    return InvalidData("DELTA_BINARY_PACKED block of ", block_size, " values in ", miniblocks,
                       " miniblocks is malformed");
  }
  if (total > static_cast<uint64_t>(max_count)) {
    return InvalidData("DELTA_BINARY_PACKED stream of ", total, " values where at most ", max_count,
                       " are expected");
  }
  const int64_t per_mini = static_cast<int64_t>(block_size / miniblocks);
  int64_t remaining = static_cast<int64_t>(total);
  if (remaining > 0) {
    out->push_back(first);
    --remaining;
  }
  uint64_t last = static_cast<uint64_t>(first);
  while (remaining > 0) {
    int64_t min_delta;
    HOGLAKE_RETURN_IF_ERROR(zigzag(&min_delta));
    if (static_cast<uint64_t>(size - pos) < miniblocks) {
      return InvalidData("DELTA_BINARY_PACKED miniblock widths run past the page");
    }
    const uint8_t* widths = data + pos;
    pos += static_cast<int64_t>(miniblocks);
    for (uint64_t m = 0; m < miniblocks && remaining > 0; ++m) {
      const int w = widths[m];
      if (w > 64) return InvalidData("DELTA_BINARY_PACKED bit width ", w, " above 64");
      const int64_t bytes = per_mini * w / 8;
      if (bytes > size - pos)
        return InvalidData("DELTA_BINARY_PACKED miniblock runs past the page");
      BitReader bits(data + pos, bytes);
      const int64_t n = std::min(per_mini, remaining);
      for (int64_t k = 0; k < n; ++k) {
        uint64_t delta = 0;
        bits.Read(w, &delta);
        last = last + static_cast<uint64_t>(min_delta) + delta;
        out->push_back(static_cast<int64_t>(last));
      }
      remaining -= n;
      pos += bytes;
    }
  }
  *consumed = pos;
  return Status::Ok();
}

Status DecodeValues(Encoding encoding, const uint8_t* data, int64_t size, int64_t count,
                    const PhysicalValues* dictionary, PhysicalValues* out) {
  switch (encoding) {
    case Encoding::kPlain:
      return DecodePlain(data, size, count, out);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return DecodeDictionaryIndices(data, size, count, dictionary, out);
    case Encoding::kRle:
      if (out->type != PhysicalType::kBoolean) break;
      return DecodeRleBooleans(data, size, count, out);
    case Encoding::kDeltaBinaryPacked: {
      if (out->type != PhysicalType::kInt32 && out->type != PhysicalType::kInt64) break;
      std::vector<int64_t> values;
      int64_t used;
      HOGLAKE_RETURN_IF_ERROR(DecodeDeltaBinaryPacked(data, size, count, &values, &used));
      if (static_cast<int64_t>(values.size()) != count) {
        return InvalidData("DELTA_BINARY_PACKED page holds ", values.size(), " values, expected ",
                           count);
      }
      for (int64_t v : values) {
        if (out->type == PhysicalType::kInt32) {
          const int32_t v32 = static_cast<int32_t>(v);
          out->fixed.append(reinterpret_cast<const char*>(&v32), 4);
        } else {
          out->fixed.append(reinterpret_cast<const char*>(&v), 8);
        }
      }
      out->count += count;
      return Status::Ok();
    }
    case Encoding::kDeltaLengthByteArray:
      if (!out->is_byte_array()) break;
      return DecodeDeltaLength(data, size, count, out);
    case Encoding::kDeltaByteArray:
      if (!out->is_byte_array() && out->type != PhysicalType::kFixedLenByteArray) break;
      return DecodeDeltaByteArray(data, size, count, out);
    case Encoding::kByteStreamSplit:
      return DecodeByteStreamSplit(data, size, count, out);
    case Encoding::kBitPacked:
      return NotImplemented("the deprecated BIT_PACKED value encoding is not supported");
  }
  return InvalidData("encoding ", static_cast<int>(encoding),
                     " cannot hold values of physical type ", static_cast<int>(out->type));
}

}  // namespace hoglake::parquet
