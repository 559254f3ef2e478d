#include "parquet/column_reader.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "parquet/compression.h"
#include "parquet/rle.h"

namespace hoglake::parquet {
namespace {

class ChunkDecoder {
 public:
  ChunkDecoder(const LeafColumn& leaf, const ColumnMetaData& meta, const ReaderLimits& limits,
               LeafData* out, PageBuffer* buffer)
      : leaf_(leaf), meta_(meta), limits_(limits), out_(out), buffer_(*buffer) {}

  Status Run(std::string_view chunk) {
    out_->values.Reset(leaf_.physical, leaf_.type_length);
    if (meta_.num_values < 0 || meta_.num_values > limits_.max_values_per_chunk) {
      return InvalidData("column '", Path(), "' declares ", meta_.num_values, " values (limit ",
                         limits_.max_values_per_chunk, ")");
    }
    Reserve();
    size_t pos = 0;
    while (out_->num_levels < meta_.num_values) {
      if (pos >= chunk.size()) {
        return InvalidData("column '", Path(), "' ends after ", out_->num_levels, " of ",
                           meta_.num_values, " values");
      }
      size_t header_size = 0;
      auto header = ParsePageHeader(reinterpret_cast<const uint8_t*>(chunk.data()) + pos,
                                    chunk.size() - pos, &header_size);
      if (!header.ok()) {
        return InvalidData("column '", Path(), "': bad page header: ", header.error().message);
      }
      pos += header_size;
      const PageHeader& h = *header;
      if (h.compressed_page_size < 0 ||
          static_cast<size_t>(h.compressed_page_size) > chunk.size() - pos) {
        return InvalidData("column '", Path(), "': page of ", h.compressed_page_size,
                           " bytes runs past the column chunk");
      }
      if (h.uncompressed_page_size < 0 || h.uncompressed_page_size > limits_.max_page_bytes) {
        return InvalidData("column '", Path(), "': page declares ", h.uncompressed_page_size,
                           " uncompressed bytes (limit ", limits_.max_page_bytes, ")");
      }
      const std::string_view body = chunk.substr(pos, static_cast<size_t>(h.compressed_page_size));
      pos += static_cast<size_t>(h.compressed_page_size);
      switch (h.type) {
        case PageType::kDictionaryPage:
          HOGLAKE_RETURN_IF_ERROR(Dictionary(h, body));
          break;
        case PageType::kDataPage:
          HOGLAKE_RETURN_IF_ERROR(DataV1(h, body));
          break;
        case PageType::kDataPageV2:
          HOGLAKE_RETURN_IF_ERROR(DataV2(h, body));
          break;
        default:
          break;  // index pages and unknown page types carry no values
      }
    }
    return Status::Ok();
  }

 private:
  // Sizes the outputs once from the chunk's value count (bounded, since the
  // count is untrusted) instead of growing them page by page.
  void Reserve() {
    const int64_t cap = limits_.max_page_bytes;
    const int64_t n = meta_.num_values;
    PhysicalValues& v = out_->values;
    if (v.is_byte_array()) {
      v.offsets.reserve(static_cast<size_t>(std::min(n + 1, cap / 4)));
      v.bytes.reserve(
          static_cast<size_t>(std::clamp<int64_t>(meta_.total_uncompressed_size, 0, cap)));
    } else if (v.width > 0) {
      v.fixed.reserve(static_cast<size_t>(std::min(n, cap / v.width) * v.width));
    }

    if (leaf_.max_rep > 0) out_->rep.reserve(static_cast<size_t>(std::min(n, cap / 2)));
  }

  std::string Path() const {
    std::string p;
    for (const std::string& s : leaf_.path) p += (p.empty() ? "" : ".") + s;
    return p;
  }

  Status Inflate(std::string_view in, int64_t size, std::string_view* out) {
    if (meta_.codec == Codec::kUncompressed) {
      if (static_cast<int64_t>(in.size()) != size) {
        return InvalidData("column '", Path(), "': uncompressed page of ", in.size(),
                           " bytes declares ", size);
      }
      *out = in;
      return Status::Ok();
    }
    // Bound the allocation by what the codec can expand to, where known.
    const int64_t max_ratio = meta_.codec == Codec::kGzip     ? 1100
                              : meta_.codec == Codec::kLz4Raw ? 256
                                                              : 0;
    if (max_ratio && size > static_cast<int64_t>(in.size()) * max_ratio + 1024) {
      return InvalidData("column '", Path(), "': page claims ", size, " bytes from ", in.size(),
                         " compressed bytes");
    }
    buffer_.resize_uninitialized(static_cast<size_t>(size));
    Status st = DecompressInto(meta_.codec, in, buffer_.data(), size);
    if (!st.ok()) return Error{st.error().code, "column '" + Path() + "': " + st.error().message};
    *out = buffer_.view();
    return Status::Ok();
  }

  Status Dictionary(const PageHeader& h, std::string_view body) {
    if (!h.dictionary_page_header) return InvalidData("dictionary page without its header");
    const DictionaryPageHeader& d = *h.dictionary_page_header;
    if (dictionary_) return InvalidData("column '", Path(), "' has two dictionary pages");
    if (d.encoding != Encoding::kPlain && d.encoding != Encoding::kPlainDictionary) {
      return NotImplemented("column '", Path(), "': dictionary page encoding ",
                            static_cast<int>(d.encoding));
    }
    std::string_view data;
    HOGLAKE_RETURN_IF_ERROR(Inflate(body, h.uncompressed_page_size, &data));
    if (d.num_values < 0 || d.num_values > static_cast<int64_t>(data.size()) * 8 + 8) {
      return InvalidData("column '", Path(), "': dictionary of ", d.num_values, " values in ",
                         data.size(), " bytes");
    }
    dictionary_.emplace();
    dictionary_->Reset(leaf_.physical, leaf_.type_length);
    HOGLAKE_RETURN_IF_ERROR(Annotate(
        DecodeValues(Encoding::kPlain, reinterpret_cast<const uint8_t*>(data.data()),
                     static_cast<int64_t>(data.size()), d.num_values, nullptr, &*dictionary_)));
    // Slack after the last string lets the gather copy short values in
    // fixed 16-byte moves (decoding.cc).
    dictionary_->bytes.reserve(dictionary_->bytes.size() + 16);
    // Strings gathered from the dictionary: expect its average length.
    PhysicalValues& v = out_->values;
    if (v.is_byte_array() && dictionary_->count > 0) {
      const int64_t average = static_cast<int64_t>(dictionary_->bytes.size()) / dictionary_->count;
      const int64_t expected = std::min(meta_.num_values * (average + 1), limits_.max_page_bytes);
      v.bytes.reserve(std::max(v.bytes.capacity(), static_cast<size_t>(expected)));
    }
    return Status::Ok();
  }

  Status Annotate(Status st) {
    if (st.ok()) return st;
    return Error{st.error().code, "column '" + Path() + "': " + st.error().message};
  }

  Status CheckCount(int32_t n) {
    if (n < 0 || n > meta_.num_values - out_->num_levels) {
      return InvalidData("column '", Path(), "': page of ", n, " values exceeds the chunk's ",
                         meta_.num_values);
    }
    return Status::Ok();
  }

  // Levels of one page; returns the number of present values.
  Status Levels(const uint8_t* rep, int64_t rep_size, const uint8_t* def, int64_t def_size,
                int64_t n, int64_t* present) {
    if (leaf_.max_rep > 0) {
      const size_t at = out_->rep.size();
      RleDecoder decoder(rep, rep_size, BitWidthFor(static_cast<uint64_t>(leaf_.max_rep)));
      HOGLAKE_RETURN_IF_ERROR(Annotate(decoder.DecodeLevels(n, leaf_.max_rep, &out_->rep)));
      if (n > 0 && out_->rep[at] != 0 && out_->num_levels == 0) {
        return InvalidData("column '", Path(), "' starts inside a row");
      }
    }
    *present = n;
    if (leaf_.max_def > 0) {
      // All present (one RLE run of max_def): `def` stays empty while every
      // entry so far was present.
      if (RleDecoder(def, def_size, BitWidthFor(static_cast<uint64_t>(leaf_.max_def)))
              .StartsWithRun(n, static_cast<uint32_t>(leaf_.max_def))) {
        if (!out_->def.empty()) out_->def.resize(out_->def.size() + n, leaf_.max_def);
      } else {
        if (out_->def.empty())
          out_->def.assign(static_cast<size_t>(out_->num_levels), leaf_.max_def);
        const size_t at = out_->def.size();
        RleDecoder decoder(def, def_size, BitWidthFor(static_cast<uint64_t>(leaf_.max_def)));
        HOGLAKE_RETURN_IF_ERROR(Annotate(decoder.DecodeLevels(n, leaf_.max_def, &out_->def)));
        *present = 0;
        for (size_t i = at; i < out_->def.size(); ++i) *present += out_->def[i] == leaf_.max_def;
      }
    }
    out_->num_levels += n;
    return Status::Ok();
  }

  Status DataV1(const PageHeader& h, std::string_view body) {
    if (!h.data_page_header) return InvalidData("data page without its header");
    const DataPageHeader& d = *h.data_page_header;
    HOGLAKE_RETURN_IF_ERROR(CheckCount(d.num_values));
    std::string_view page;
    HOGLAKE_RETURN_IF_ERROR(Inflate(body, h.uncompressed_page_size, &page));
    const uint8_t* p = reinterpret_cast<const uint8_t*>(page.data());
    int64_t left = static_cast<int64_t>(page.size());
    const uint8_t* section[2] = {nullptr, nullptr};
    int64_t section_size[2] = {0, 0};
    const int16_t max_levels[2] = {leaf_.max_rep, leaf_.max_def};
    const Encoding encodings[2] = {d.repetition_level_encoding, d.definition_level_encoding};
    for (int s = 0; s < 2; ++s) {
      if (max_levels[s] == 0) continue;
      if (encodings[s] != Encoding::kRle) {
        return NotImplemented("column '", Path(), "': level encoding ",
                              static_cast<int>(encodings[s]), " (only RLE is supported)");
      }
      if (left < 4) return InvalidData("column '", Path(), "': level length runs past the page");
      uint32_t n;
      std::memcpy(&n, p, 4);
      if (n > left - 4) return InvalidData("column '", Path(), "': levels run past the page");
      section[s] = p + 4;
      section_size[s] = n;
      p += 4 + n;
      left -= 4 + static_cast<int64_t>(n);
    }
    int64_t present = 0;
    HOGLAKE_RETURN_IF_ERROR(
        Levels(section[0], section_size[0], section[1], section_size[1], d.num_values, &present));
    return Annotate(DecodeValues(d.encoding, p, left, present,
                                 dictionary_ ? &*dictionary_ : nullptr, &out_->values));
  }

  Status DataV2(const PageHeader& h, std::string_view body) {
    if (!h.data_page_header_v2) return InvalidData("data page v2 without its header");
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    HOGLAKE_RETURN_IF_ERROR(CheckCount(d.num_values));
    const int64_t rep_size = d.repetition_levels_byte_length,
                  def_size = d.definition_levels_byte_length;
    if (rep_size < 0 || def_size < 0 || rep_size + def_size > static_cast<int64_t>(body.size()) ||
        rep_size + def_size > h.uncompressed_page_size) {
      return InvalidData("column '", Path(), "': v2 level lengths exceed the page");
    }
    const uint8_t* p = reinterpret_cast<const uint8_t*>(body.data());
    int64_t present = 0;
    HOGLAKE_RETURN_IF_ERROR(Levels(p, rep_size, p + rep_size, def_size, d.num_values, &present));
    const std::string_view compressed = body.substr(static_cast<size_t>(rep_size + def_size));
    const int64_t values_size = h.uncompressed_page_size - rep_size - def_size;
    std::string_view values;
    if (d.is_compressed.value_or(true) && meta_.codec != Codec::kUncompressed) {
      HOGLAKE_RETURN_IF_ERROR(Inflate(compressed, values_size, &values));
    } else {
      if (static_cast<int64_t>(compressed.size()) != values_size) {
        return InvalidData("column '", Path(), "': v2 page sizes disagree");
      }
      values = compressed;
    }
    return Annotate(DecodeValues(d.encoding, reinterpret_cast<const uint8_t*>(values.data()),
                                 static_cast<int64_t>(values.size()), present,
                                 dictionary_ ? &*dictionary_ : nullptr, &out_->values));
  }

  const LeafColumn& leaf_;
  const ColumnMetaData& meta_;
  const ReaderLimits& limits_;
  LeafData* out_;
  std::optional<PhysicalValues> dictionary_;
  PageBuffer& buffer_;  // decompressed page, reused across pages and chunks
};

}  // namespace

Status ReadColumnChunk(const LeafColumn& leaf, const ColumnMetaData& meta, std::string_view chunk,
                       const ReaderLimits& limits, LeafData* out, PageBuffer* page_buffer) {
  *out = LeafData{};
  PageBuffer local;
  return ChunkDecoder(leaf, meta, limits, out, page_buffer ? page_buffer : &local).Run(chunk);
}

}  // namespace hoglake::parquet
