#include "parquet/column_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string_view>
#include <type_traits>
#include <vector>

#include "parquet/compression.h"
#include "parquet/dictionary_builder.h"
#include "parquet/physical_value.h"
#include "parquet/rle.h"
#include "parquet/statistics.h"

namespace hoglake::parquet {

using columnar::ArrayData;
using columnar::TypeId;

namespace {

void AppendLe32(uint32_t v, std::string* out) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

}  // namespace

struct ColumnChunkWriter::State {
  const LeafColumn& leaf;
  ColumnWriterOptions options;
  StatisticsBuilder stats;
  bool byte_array;
  bool is_bool;

  // Dictionary (shared by all pages of the chunk).
  bool dict_mode;
  DictionaryBuilder dict;

  // The open page.
  std::vector<int16_t> def, rep;
  std::vector<uint32_t> indices;
  std::string plain;
  std::vector<uint8_t> bools;
  int64_t page_rows = 0;

  // Finished pages.
  std::string pages;
  std::string dictionary_page;  // written by Finish
  int64_t uncompressed_total = 0;
  int64_t num_values = 0;
  std::set<int32_t> encodings;
  std::string scratch, compressed;

  State(const LeafColumn& l, const ColumnWriterOptions& o)
      : leaf(l),
        options(o),
        stats(SortOrderFor(*l.type)),
        byte_array(l.physical == PhysicalType::kByteArray),
        is_bool(l.physical == PhysicalType::kBoolean),
        dict_mode(o.dictionary && !is_bool),
        dict(byte_array) {}

  // Empties the chunk for the next row group, keeping the buffers.
  void Reset() {
    stats = StatisticsBuilder(SortOrderFor(*leaf.type));
    dict_mode = options.dictionary && !is_bool;
    dict.Clear();
    def.clear();
    rep.clear();
    indices.clear();
    plain.clear();
    bools.clear();
    page_rows = 0;
    pages.clear();
    dictionary_page.clear();
    uncompressed_total = 0;
    num_values = 0;
    encodings.clear();
  }

  int64_t PageBytes() const {
    return static_cast<int64_t>(plain.size() + indices.size() * 4 + bools.size() / 8 +
                                (def.size() + rep.size()) / 4);
  }

  void AppendPlain(std::string_view v, std::string* out) const {
    if (byte_array) AppendLe32(static_cast<uint32_t>(v.size()), out);
    out->append(v);
  }

  void AppendLevels(const std::vector<int16_t>& levels, int16_t max_level, std::string* out) {
    const size_t at = out->size();
    AppendLe32(0, out);
    EncodeRleHybrid(levels.data(), static_cast<int64_t>(levels.size()),
                    BitWidthFor(static_cast<uint64_t>(max_level)), out);
    const uint32_t n = static_cast<uint32_t>(out->size() - at - 4);
    std::memcpy(out->data() + at, &n, 4);
  }

  Status WritePage(PageType type, const std::string& body, PageHeader header, std::string* dest) {
    HOGLAKE_RETURN_IF_ERROR(Compress(options.codec, body, options.compression_level, &compressed));
    header.type = type;
    header.uncompressed_page_size = static_cast<int32_t>(body.size());
    header.compressed_page_size = static_cast<int32_t>(compressed.size());
    std::string head;
    SerializePageHeader(header, &head);
    uncompressed_total += static_cast<int64_t>(head.size() + body.size());
    *dest += head;
    *dest += compressed;
    return Status::Ok();
  }

  Status FlushPage() {
    if (def.empty()) return Status::Ok();
    scratch.clear();
    if (leaf.max_rep > 0) AppendLevels(rep, leaf.max_rep, &scratch);
    if (leaf.max_def > 0) AppendLevels(def, leaf.max_def, &scratch);
    PageHeader header;
    DataPageHeader& d = header.data_page_header.emplace();
    d.num_values = static_cast<int32_t>(def.size());
    d.definition_level_encoding = Encoding::kRle;
    d.repetition_level_encoding = Encoding::kRle;
    if (is_bool) {
      d.encoding = Encoding::kPlain;
      const size_t at = scratch.size();
      scratch.resize(at + (bools.size() + 7) / 8, '\0');
      for (size_t i = 0; i < bools.size(); ++i) {
        if (bools[i]) scratch[at + i / 8] = static_cast<char>(scratch[at + i / 8] | (1 << (i % 8)));
      }
    } else if (!indices.empty()) {
      d.encoding = Encoding::kRleDictionary;
      const uint32_t dict_size = dict.size();
      const int width = std::max(1, BitWidthFor(dict_size > 0 ? dict_size - 1 : 0));
      scratch.push_back(static_cast<char>(width));
      EncodeRleHybrid(indices, width, &scratch);
    } else {
      d.encoding = Encoding::kPlain;
      scratch += plain;
    }
    encodings.insert(static_cast<int32_t>(d.encoding));
    num_values += static_cast<int64_t>(def.size());
    def.clear();
    rep.clear();
    indices.clear();
    plain.clear();
    bools.clear();
    page_rows = 0;
    return WritePage(PageType::kDataPage, scratch, std::move(header), &pages);
  }

  // A row starts here: a page may end before it.
  Status StartRow() {
    if (dict_mode && dict.plain_size() > options.dictionary_page_size_limit) {
      HOGLAKE_RETURN_IF_ERROR(FlushPage());
      dict_mode = false;  // fall back to PLAIN for the rest of the chunk
    } else if (PageBytes() >= options.data_page_size || page_rows >= options.max_page_rows) {
      HOGLAKE_RETURN_IF_ERROR(FlushPage());
    }
    ++page_rows;
    return Status::Ok();
  }

  Status Add(int16_t d, int16_t r, const ArrayData* array, int64_t index) {
    if (r == 0) HOGLAKE_RETURN_IF_ERROR(StartRow());
    def.push_back(d);
    if (leaf.max_rep > 0) rep.push_back(r);
    if (d < leaf.max_def) {
      stats.AddNulls(1);
      return Status::Ok();
    }
    char tmp[16];
    std::string_view v;
    HOGLAKE_RETURN_IF_ERROR(PhysicalValue(*array, index, leaf.type_length, tmp, &v));
    stats.AddValue(v);
    if (is_bool) {
      bools.push_back(static_cast<uint8_t>(v[0]));
    } else if (dict_mode) {
      indices.push_back(DictIndex(v));
    } else {
      AppendPlain(v, &plain);
    }
    return Status::Ok();
  }

  uint32_t DictIndex(std::string_view v) {
    if (!byte_array && v.size() == 4) {
      uint32_t bits;
      std::memcpy(&bits, v.data(), 4);
      return dict.AddFixed(bits);
    }
    if (!byte_array && v.size() == 8) {
      uint64_t bits;
      std::memcpy(&bits, v.data(), 8);
      return dict.AddFixed(bits);
    }
    return dict.AddBytes(v);
  }

  // ---- whole batches of a top-level leaf (one entry per row, no repetition)

  Status AddLeafBatch(const ArrayData& a, int64_t offset, int64_t length, int16_t present_def) {
    const uint8_t* validity =
        present_def > 0 && a.null_count != 0 && a.buffers[0] ? a.buffers[0]->data() : nullptr;
    const int64_t vo = a.offset + offset;  // bit offset of the first slot in `validity`
    const SortOrder order = SortOrderFor(*a.type);
    switch (a.type->id) {
      case TypeId::kInt32:
      case TypeId::kDate32:
        return AddFixed(a.values<int32_t>() + offset, validity, vo, length, present_def);
      case TypeId::kFloat32:
        return AddFixed(a.values<float>() + offset, validity, vo, length, present_def);
      case TypeId::kFloat64:
        return AddFixed(a.values<double>() + offset, validity, vo, length, present_def);
      case TypeId::kInt64:
      case TypeId::kUInt64:
      case TypeId::kTimestamp:
      case TypeId::kTime64: {
        const int64_t* v = a.values<int64_t>() + offset;
        const int64_t scale = TemporalScale(*a.type);
        if (scale != 1) {
          scratch64.resize(static_cast<size_t>(length));
          for (int64_t k = 0; k < length; ++k) {
            scratch64[k] = 0;
            if (validity && !columnar::GetBit(validity, vo + k)) continue;
            HOGLAKE_RETURN_IF_ERROR(ScaleTemporal(v[k], scale, &scratch64[k]));
          }
          v = scratch64.data();
        }
        if (order == SortOrder::kUnsigned) {
          return AddFixed(reinterpret_cast<const uint64_t*>(v), validity, vo, length, present_def);
        }
        return AddFixed(v, validity, vo, length, present_def);
      }
      case TypeId::kUInt32:
        return AddWidened<uint32_t, int64_t>(a, offset, validity, vo, length, present_def);
      case TypeId::kInt8:
        return AddWidened<int8_t, int32_t>(a, offset, validity, vo, length, present_def);
      case TypeId::kInt16:
        return AddWidened<int16_t, int32_t>(a, offset, validity, vo, length, present_def);
      case TypeId::kUInt8:
        return AddWidened<uint8_t, int32_t>(a, offset, validity, vo, length, present_def);
      case TypeId::kUInt16:
        return AddWidened<uint16_t, int32_t>(a, offset, validity, vo, length, present_def);
      case TypeId::kUtf8:
      case TypeId::kBinary:
        return AddByteArrays(a, offset, validity, vo, length, present_def);
      default:
        for (int64_t k = 0; k < length; ++k) {
          const bool valid = !validity || columnar::GetBit(validity, vo + k);
          HOGLAKE_RETURN_IF_ERROR(valid ? Add(present_def, 0, &a, offset + k)
                                        : Add(0, 0, nullptr, 0));
        }
        return Status::Ok();
    }
  }

  template <typename From, typename To>
  Status AddWidened(const ArrayData& a, int64_t offset, const uint8_t* validity, int64_t vo,
                    int64_t length, int16_t present_def) {
    std::vector<To>& out = Scratch<To>();
    out.resize(static_cast<size_t>(length));
    const From* v = a.values<From>() + offset;
    for (int64_t k = 0; k < length; ++k) out[k] = static_cast<To>(v[k]);
    return AddFixed(out.data(), validity, vo, length, present_def);
  }

  template <typename To>
  std::vector<To>& Scratch() {
    if constexpr (sizeof(To) == 4) {
      return scratch32;
    } else {
      return scratch64;
    }
  }

  // How many of the next rows (the first already past StartRow) can be added
  // without any page or dictionary check firing: bounds on the bytes each
  // row adds keep the result exact.
  int64_t SafeRun(int64_t left, int64_t value_bytes) const {
    int64_t n = std::min(left, options.max_page_rows - page_rows + 1);
    const int64_t per_row = (dict_mode ? 4 : value_bytes) + 1;
    const int64_t room = options.data_page_size - 1 - PageBytes();
    n = std::min(n, 1 + std::max<int64_t>(room, 0) / per_row);
    if (dict_mode) {
      const int64_t dict_room = options.dictionary_page_size_limit - dict.plain_size();
      n = std::min(n, 1 + std::max<int64_t>(dict_room, 0) / value_bytes);
    }
    return std::max<int64_t>(n, 1);
  }

  template <typename T>
  Status AddFixed(const T* v, const uint8_t* validity, int64_t vo, int64_t length,
                  int16_t present_def) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    constexpr bool kFloat = std::is_floating_point_v<T>;
    T lo{}, hi{};
    bool any = false;
    int64_t nulls = 0;
    int64_t i = 0;
    while (i < length) {
      HOGLAKE_RETURN_IF_ERROR(StartRow());
      const int64_t n = SafeRun(length - i, sizeof(T));
      page_rows += n - 1;
      const size_t at = def.size();
      def.resize(at + static_cast<size_t>(n), present_def);
      if (dict_mode) indices.reserve(indices.size() + static_cast<size_t>(n));
      if (!validity && !dict_mode) {
        plain.append(reinterpret_cast<const char*>(v + i), static_cast<size_t>(n) * sizeof(T));
      }
      for (int64_t k = i; k < i + n; ++k) {
        if (validity && !columnar::GetBit(validity, vo + k)) {
          def[at + static_cast<size_t>(k - i)] = 0;
          ++nulls;
          continue;
        }
        const T x = v[k];
        if (dict_mode) {
          Bits bits;
          std::memcpy(&bits, &x, sizeof(T));
          indices.push_back(dict.AddFixed(bits));
        } else if (validity) {
          plain.append(reinterpret_cast<const char*>(&x), sizeof(T));
        }
        if constexpr (kFloat) {
          if (std::isnan(x)) continue;
        }
        if (!any) {
          lo = hi = x;
          any = true;
        } else {
          if (x < lo) lo = x;
          if (hi < x) hi = x;
        }
      }
      i += n;
    }
    stats.AddNulls(nulls);
    if (any) {
      stats.AddValue(std::string_view(reinterpret_cast<const char*>(&lo), sizeof(T)));
      stats.AddValue(std::string_view(reinterpret_cast<const char*>(&hi), sizeof(T)));
    }
    return Status::Ok();
  }

  Status AddByteArrays(const ArrayData& a, int64_t offset, const uint8_t* validity, int64_t vo,
                       int64_t length, int16_t present_def) {
    const int32_t* offs = a.offsets() + offset;
    const char* data = reinterpret_cast<const char*>(a.buffers[2]->data());
    std::string_view lo, hi;
    bool any = false;
    int64_t nulls = 0;
    for (int64_t k = 0; k < length; ++k) {
      HOGLAKE_RETURN_IF_ERROR(StartRow());
      if (validity && !columnar::GetBit(validity, vo + k)) {
        def.push_back(0);
        ++nulls;
        continue;
      }
      def.push_back(present_def);
      const std::string_view x(data + offs[k], static_cast<size_t>(offs[k + 1] - offs[k]));
      if (dict_mode) {
        indices.push_back(dict.AddBytes(x));
      } else {
        AppendPlain(x, &plain);
      }
      if (!any) {
        lo = hi = x;
        any = true;
      } else {
        if (x < lo) lo = x;
        if (hi < x) hi = x;
      }
    }
    stats.AddNulls(nulls);
    if (any) {
      stats.AddValue(lo);
      stats.AddValue(hi);
    }
    return Status::Ok();
  }

  std::vector<int32_t> scratch32;
  std::vector<int64_t> scratch64;
};

ColumnChunkWriter::ColumnChunkWriter(const LeafColumn& leaf, const ColumnWriterOptions& options)
    : state_(std::make_unique<State>(leaf, options)) {}
ColumnChunkWriter::~ColumnChunkWriter() = default;

Status ColumnChunkWriter::Add(int16_t def, int16_t rep, const ArrayData* array, int64_t index) {
  return state_->Add(def, rep, array, index);
}

Status ColumnChunkWriter::AddLeafBatch(const ArrayData& array, int64_t offset, int64_t length,
                                       int16_t present_def) {
  return state_->AddLeafBatch(array, offset, length, present_def);
}

int64_t ColumnChunkWriter::buffered_bytes() const {
  return static_cast<int64_t>(state_->pages.size()) + state_->dict.plain_size() +
         state_->PageBytes();
}

int64_t ColumnChunkWriter::BufferedBytesBound(int64_t entries, int64_t value_bytes) const {
  const State& s = *state_;
  const int64_t open = s.PageBytes();
  // Per entry: a value (+4 length prefix, or a 4-byte dictionary index, plus
  // bit-packing overhead) and up to 5 bytes of encoded levels; the open
  // page's entries are counted through `open` (>= 3/8 byte per entry).
  const int64_t values = value_bytes + 16 * entries;
  const int64_t page_bytes = open + values;  // the open page at any time
  const int64_t encoded = 16 * open + 64 + values;
  const int64_t pages = entries / std::max<int64_t>(s.options.max_page_rows, 1) +
                        page_bytes / std::max<int64_t>(s.options.data_page_size, 1) + 3;
  // Compressed output stays under 1.2 x input + 1 KiB for every codec, plus
  // a page header.
  const int64_t compressed = encoded + encoded / 5 + pages * 1400;
  return buffered_bytes() + compressed + values /* dictionary */ + page_bytes;
}

Status ColumnChunkWriter::Finish(ColumnMetaData* meta, std::string_view* dictionary_page,
                                 std::string_view* data_pages) {
  State& s = *state_;
  HOGLAKE_RETURN_IF_ERROR(s.FlushPage());
  *meta = ColumnMetaData{};
  s.dictionary_page.clear();
  if (s.dict.size() > 0) {
    PageHeader header;
    DictionaryPageHeader& d = header.dictionary_page_header.emplace();
    d.num_values = static_cast<int32_t>(s.dict.size());
    d.encoding = Encoding::kPlain;
    HOGLAKE_RETURN_IF_ERROR(
        s.WritePage(PageType::kDictionaryPage, s.dict.plain(), header, &s.dictionary_page));
    meta->dictionary_page_offset = 0;
    meta->data_page_offset = static_cast<int64_t>(s.dictionary_page.size());
    s.encodings.insert(static_cast<int32_t>(Encoding::kPlain));
  }
  s.encodings.insert(static_cast<int32_t>(Encoding::kRle));
  meta->type = s.leaf.physical;
  for (int32_t e : s.encodings) meta->encodings.push_back(static_cast<Encoding>(e));
  meta->path_in_schema = s.leaf.path;
  meta->codec = s.options.codec;
  meta->num_values = s.num_values;
  meta->total_uncompressed_size = s.uncompressed_total;
  meta->total_compressed_size = static_cast<int64_t>(s.dictionary_page.size() + s.pages.size());
  meta->statistics = s.stats.Finish();
  *dictionary_page = s.dictionary_page;
  *data_pages = s.pages;
  return Status::Ok();
}

void ColumnChunkWriter::Reset() { state_->Reset(); }

}  // namespace hoglake::parquet
