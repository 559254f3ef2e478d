#include "parquet/column_writer.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parquet/compression.h"
#include "parquet/rle.h"
#include "parquet/statistics.h"

namespace hoglake::parquet {

using columnar::ArrayData;
using columnar::TimeUnit;
using columnar::TypeId;

namespace {

struct ViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename T>
std::string_view Put(char* tmp, T v) {
  std::memcpy(tmp, &v, sizeof(T));
  return std::string_view(tmp, sizeof(T));
}

Status Scale(int64_t v, int64_t factor, int64_t* out) {
  if (__builtin_mul_overflow(v, factor, out)) {
    return InvalidArgument("temporal value ", v, " overflows int64 when scaled by ", factor,
                           " for Parquet");
  }
  return Status::Ok();
}

// Slot `i` of `a` in its Parquet plain form (byte arrays without the length
// prefix). Fixed-size results are written to `tmp` (16 bytes).
Status PhysicalValue(const ArrayData& a, int64_t i, int32_t flba_width, char* tmp,
                     std::string_view* out) {
  const columnar::DataType& t = *a.type;
  switch (t.id) {
    case TypeId::kBool:
      *out = Put<uint8_t>(tmp, a.GetBool(i) ? 1 : 0);
      break;
    case TypeId::kInt8:
      *out = Put<int32_t>(tmp, a.values<int8_t>()[i]);
      break;
    case TypeId::kInt16:
      *out = Put<int32_t>(tmp, a.values<int16_t>()[i]);
      break;
    case TypeId::kInt32:
    case TypeId::kDate32:
      *out = Put<int32_t>(tmp, a.values<int32_t>()[i]);
      break;
    case TypeId::kUInt8:
      *out = Put<int32_t>(tmp, a.values<uint8_t>()[i]);
      break;
    case TypeId::kUInt16:
      *out = Put<int32_t>(tmp, a.values<uint16_t>()[i]);
      break;
    case TypeId::kUInt32:
      *out = Put<int64_t>(tmp, a.values<uint32_t>()[i]);
      break;
    case TypeId::kInt64:
    case TypeId::kUInt64:
      *out = Put<int64_t>(tmp, a.values<int64_t>()[i]);
      break;
    case TypeId::kFloat32:
      *out = Put<float>(tmp, a.values<float>()[i]);
      break;
    case TypeId::kFloat64:
      *out = Put<double>(tmp, a.values<double>()[i]);
      break;
    case TypeId::kTime64: {
      int64_t v = a.values<int64_t>()[i];
      if (t.unit == TimeUnit::kSecond) HOGLAKE_RETURN_IF_ERROR(Scale(v, 1000000, &v));
      if (t.unit == TimeUnit::kMilli) HOGLAKE_RETURN_IF_ERROR(Scale(v, 1000, &v));
      *out = Put<int64_t>(tmp, v);
      break;
    }
    case TypeId::kTimestamp: {
      int64_t v = a.values<int64_t>()[i];
      if (t.unit == TimeUnit::kSecond) HOGLAKE_RETURN_IF_ERROR(Scale(v, 1000, &v));
      *out = Put<int64_t>(tmp, v);
      break;
    }
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * 16, 16);
      for (int b = 0; b < flba_width; ++b) {
        tmp[flba_width - 1 - b] = static_cast<char>(static_cast<uint8_t>(v >> (8 * b)));
      }
      *out = std::string_view(tmp, static_cast<size_t>(flba_width));
      break;
    }
    case TypeId::kUtf8:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      *out = a.GetView(i);
      break;
    default:
      return Internal("no Parquet value for type ", t.ToString());
  }
  return Status::Ok();
}

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
  std::unordered_map<std::string, uint32_t, ViewHash, std::equal_to<>> dict_index;
  std::string dict_plain;
  uint32_t dict_size = 0;

  // The open page.
  std::vector<int16_t> def, rep;
  std::vector<uint32_t> indices;
  std::string plain;
  std::vector<uint8_t> bools;
  int64_t page_rows = 0;

  // Finished pages.
  std::string pages;
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
        dict_mode(o.dictionary && !is_bool) {}

  int64_t PageBytes() const {
    return static_cast<int64_t>(plain.size() + indices.size() * 4 + bools.size() / 8 +
                                (def.size() + rep.size()) / 4);
  }

  void AppendPlain(std::string_view v, std::string* out) const {
    if (byte_array) AppendLe32(static_cast<uint32_t>(v.size()), out);
    out->append(v);
  }

  void AppendLevels(const std::vector<int16_t>& levels, int16_t max_level, std::string* out) {
    std::vector<uint32_t> v(levels.begin(), levels.end());
    const size_t at = out->size();
    AppendLe32(0, out);
    EncodeRleHybrid(v, BitWidthFor(static_cast<uint64_t>(max_level)), out);
    const uint32_t n = static_cast<uint32_t>(out->size() - at - 4);
    std::memcpy(out->data() + at, &n, 4);
  }

  Status WritePage(PageType type, const std::string& body, PageHeader header) {
    HOGLAKE_RETURN_IF_ERROR(Compress(options.codec, body, options.compression_level, &compressed));
    header.type = type;
    header.uncompressed_page_size = static_cast<int32_t>(body.size());
    header.compressed_page_size = static_cast<int32_t>(compressed.size());
    std::string head;
    SerializePageHeader(header, &head);
    uncompressed_total += static_cast<int64_t>(head.size() + body.size());
    pages += head;
    pages += compressed;
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
    return WritePage(PageType::kDataPage, scratch, std::move(header));
  }

  Status Add(int16_t d, int16_t r, const ArrayData* array, int64_t index) {
    if (r == 0) {
      // A row starts here: a page may end before it.
      if (dict_mode &&
          static_cast<int64_t>(dict_plain.size()) > options.dictionary_page_size_limit) {
        HOGLAKE_RETURN_IF_ERROR(FlushPage());
        dict_mode = false;  // fall back to PLAIN for the rest of the chunk
      } else if (PageBytes() >= options.data_page_size || page_rows >= options.max_page_rows) {
        HOGLAKE_RETURN_IF_ERROR(FlushPage());
      }
      ++page_rows;
    }
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
      auto it = dict_index.find(v);
      if (it == dict_index.end()) {
        it = dict_index.emplace(std::string(v), dict_size++).first;
        AppendPlain(v, &dict_plain);
      }
      indices.push_back(it->second);
    } else {
      AppendPlain(v, &plain);
    }
    return Status::Ok();
  }
};

ColumnChunkWriter::ColumnChunkWriter(const LeafColumn& leaf, const ColumnWriterOptions& options)
    : state_(std::make_unique<State>(leaf, options)) {}
ColumnChunkWriter::~ColumnChunkWriter() = default;

Status ColumnChunkWriter::Add(int16_t def, int16_t rep, const ArrayData* array, int64_t index) {
  return state_->Add(def, rep, array, index);
}

int64_t ColumnChunkWriter::buffered_bytes() const {
  return static_cast<int64_t>(state_->pages.size() + state_->dict_plain.size()) +
         state_->PageBytes();
}

Status ColumnChunkWriter::Finish(std::string* bytes, ColumnMetaData* meta) {
  State& s = *state_;
  HOGLAKE_RETURN_IF_ERROR(s.FlushPage());
  bytes->clear();
  *meta = ColumnMetaData{};
  const bool has_dict = s.dict_size > 0;
  if (has_dict) {
    std::string data_pages = std::move(s.pages);
    s.pages.clear();
    PageHeader header;
    DictionaryPageHeader& d = header.dictionary_page_header.emplace();
    d.num_values = static_cast<int32_t>(s.dict_size);
    d.encoding = Encoding::kPlain;
    HOGLAKE_RETURN_IF_ERROR(s.WritePage(PageType::kDictionaryPage, s.dict_plain, header));
    meta->dictionary_page_offset = 0;
    meta->data_page_offset = static_cast<int64_t>(s.pages.size());
    s.pages += data_pages;
    s.encodings.insert(static_cast<int32_t>(Encoding::kPlain));
  }
  s.encodings.insert(static_cast<int32_t>(Encoding::kRle));
  meta->type = s.leaf.physical;
  for (int32_t e : s.encodings) meta->encodings.push_back(static_cast<Encoding>(e));
  meta->path_in_schema = s.leaf.path;
  meta->codec = s.options.codec;
  meta->num_values = s.num_values;
  meta->total_uncompressed_size = s.uncompressed_total;
  meta->total_compressed_size = static_cast<int64_t>(s.pages.size());
  meta->statistics = s.stats.Finish();
  *bytes = std::move(s.pages);
  s.pages.clear();
  return Status::Ok();
}

}  // namespace hoglake::parquet
