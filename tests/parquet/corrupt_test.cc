// The reader against damaged files: truncation at many byte positions, bytes
// flipped in pages and footers, footers with absurd counts and ranges. Every
// case must end in a clean error (or, for harmless value bytes, a read), never
// a crash, a hang or a huge allocation. Also unit checks of the decoders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "columnar/validate.h"
#include "parquet/decoding.h"
#include "parquet/reader.h"
#include "parquet/rle.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

std::string SmallFile(Codec codec = Codec::kSnappy, bool dictionary = true) {
  auto batch = testing::CorpusBatch(40, 13);
  WriterOptions options;
  options.codec = codec;
  options.dictionary = dictionary;
  options.max_row_group_rows = 25;
  options.max_page_rows = 10;
  std::string out;
  auto writer = ParquetWriter::OpenBuffer(&out, batch.schema, options);
  EXPECT_TRUE((*writer)->WriteBatch(batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return out;
}

// Opens and reads every row group; returns the first error (or OK).
Status ReadEverything(const std::string& bytes) {
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  if (!reader.ok()) return reader.status();
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto batch = (*reader)->ReadRowGroup(g);
    if (!batch.ok()) return batch.status();
    HOGLAKE_RETURN_IF_ERROR(columnar::ValidateBatch(*batch));
  }
  return Status::Ok();
}

void ExpectCleanError(const Status& st, const std::string& what) {
  if (st.ok()) return;
  const ErrorCode code = st.error().code;
  EXPECT_TRUE(code == ErrorCode::kInvalidData || code == ErrorCode::kNotImplemented)
      << what << ": " << st.ToString();
  EXPECT_FALSE(st.error().message.empty());
}

TEST(CorruptFileTest, TruncationAtEveryPositionIsAnError) {
  const std::string bytes = SmallFile();
  ASSERT_TRUE(ReadEverything(bytes).ok());
  for (size_t n = 0; n < bytes.size(); n += (n < 64 || n > bytes.size() - 200) ? 1 : 7) {
    Status st = ReadEverything(bytes.substr(0, n));
    ASSERT_FALSE(st.ok()) << "prefix of " << n << " bytes was accepted";
    ExpectCleanError(st, "prefix " + std::to_string(n));
  }
}

TEST(CorruptFileTest, DataCutOutOfTheMiddleIsAnError) {
  const std::string bytes = SmallFile(Codec::kZstd);
  uint32_t footer;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  const size_t data_end = bytes.size() - 8 - footer;
  for (size_t at = 4; at < data_end; at += 29) {
    for (size_t cut : {1u, 100u}) {
      if (at + cut > data_end) continue;
      std::string damaged = bytes.substr(0, at) + bytes.substr(at + cut, data_end - at - cut) +
                            std::string(cut, '\0') + bytes.substr(data_end);
      ExpectCleanError(ReadEverything(damaged), "cut at " + std::to_string(at));
    }
  }
}

TEST(CorruptFileTest, FlippedBytesNeverCrash) {
  for (Codec codec : {Codec::kUncompressed, Codec::kGzip}) {
    const std::string bytes = SmallFile(codec, codec != Codec::kGzip);
    for (size_t i = 4; i < bytes.size() - 8; i += 11) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ (i % 2 ? 0xff : 0x41));
      ExpectCleanError(ReadEverything(damaged), "flip at " + std::to_string(i));
    }
  }
}

TEST(CorruptFileTest, BadMagicAndFooterLengths) {
  const std::string bytes = SmallFile();
  auto check = [](const std::string& b, const char* needle) {
    Status st = ReadEverything(b);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidData);
    EXPECT_NE(st.error().message.find(needle), std::string::npos) << st.error().message;
  };
  std::string bad = bytes;
  bad[0] = 'X';
  check(bad, "leading magic");
  bad = bytes;
  bad[bad.size() - 1] = 'X';
  check(bad, "trailing magic");
  bad = bytes;
  const uint32_t huge = 0x7fffffff;
  std::memcpy(bad.data() + bad.size() - 8, &huge, 4);
  check(bad, "footer length");
  const uint32_t zero = 0;
  bad = bytes;
  std::memcpy(bad.data() + bad.size() - 8, &zero, 4);
  check(bad, "footer");
  check("PAR1PAR1", "too small");
  check(std::string(100, '\0'), "magic");
}

// Re-serializes the footer after `edit`.
std::string EditFooter(const std::string& bytes, const std::function<void(FileMetaData&)>& edit) {
  uint32_t footer;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  const size_t data_end = bytes.size() - 8 - footer;
  auto meta = ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()) + data_end, footer);
  EXPECT_TRUE(meta.ok());
  edit(*meta);
  std::string serialized;
  SerializeFileMetaData(*meta, &serialized);
  const uint32_t n = static_cast<uint32_t>(serialized.size());
  std::string out = bytes.substr(0, data_end) + serialized;
  out.append(reinterpret_cast<const char*>(&n), 4);
  return out + "PAR1";
}

TEST(CorruptFileTest, AbsurdCountsAndRangesInTheFooter) {
  const std::string bytes = SmallFile();
  struct Edit {
    const char* name;
    std::function<void(FileMetaData&)> fn;
  };
  const std::vector<Edit> edits = {
      {"huge num_values",
       [](FileMetaData& m) {
         m.row_groups[0].columns[0].meta_data->num_values = int64_t{1} << 40;
       }},
      {"nested huge num_values",
       [](FileMetaData& m) {
         m.row_groups[0].columns[30].meta_data->num_values = int64_t{1} << 26;
       }},
      {"negative num_values",
       [](FileMetaData& m) { m.row_groups[0].columns[3].meta_data->num_values = -5; }},
      {"huge row count", [](FileMetaData& m) { m.row_groups[0].num_rows = int64_t{1} << 50; }},
      {"chunk past the file",
       [](FileMetaData& m) {
         m.row_groups[0].columns[2].meta_data->total_compressed_size = 1 << 30;
       }},
      {"chunk before the file",
       [](FileMetaData& m) { m.row_groups[0].columns[2].meta_data->data_page_offset = -100; }},
      {"missing chunk", [](FileMetaData& m) { m.row_groups[1].columns.pop_back(); }},
      {"wrong physical type",
       [](FileMetaData& m) { m.row_groups[0].columns[1].meta_data->type = PhysicalType::kDouble; }},
      {"absurd num_children", [](FileMetaData& m) { m.schema[0].num_children = 1 << 30; }},
      {"group without children", [](FileMetaData& m) { m.schema[27].num_children = 0; }},
      {"leaf without type", [](FileMetaData& m) { m.schema[1].type.reset(); }},
      {"decimal too wide", [](FileMetaData& m) { m.schema[12].type_length = 40; }},
      {"unknown codec",
       [](FileMetaData& m) {
         m.row_groups[0].columns[0].meta_data->codec = static_cast<Codec>(99);
       }},
      {"shifted chunk offsets",
       [](FileMetaData& m) {
         ColumnMetaData& c = *m.row_groups[0].columns[5].meta_data;
         c.data_page_offset += 3;
         if (c.dictionary_page_offset) *c.dictionary_page_offset += 3;
       }},
  };
  for (const Edit& e : edits) {
    Status st = ReadEverything(EditFooter(bytes, e.fn));
    EXPECT_FALSE(st.ok()) << e.name;
    ExpectCleanError(st, e.name);
  }
}

TEST(DecodingTest, RleHybridRoundTripsRunsAndLiterals) {
  std::vector<uint32_t> values;
  for (int i = 0; i < 1000; ++i) values.push_back(i < 300 ? 5 : (i * 7919) % 13);
  for (int width : {4, 5, 16}) {
    std::string encoded;
    EncodeRleHybrid(values, width, &encoded);
    RleDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()),
                       static_cast<int64_t>(encoded.size()), width);
    std::vector<uint32_t> decoded;
    ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(values.size()), &decoded).ok());
    EXPECT_EQ(decoded, values);
    std::vector<uint32_t> more;
    EXPECT_FALSE(decoder.Decode(9, &more).ok());  // past the end
  }
}

// A DELTA_BINARY_PACKED stream: one block of 128 values in 4 miniblocks.
std::string DeltaStream(const std::vector<int64_t>& values) {
  std::string out;
  AppendUleb128(128, &out);
  AppendUleb128(4, &out);
  AppendUleb128(values.size(), &out);
  auto zigzag = [](int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  };
  AppendUleb128(values.empty() ? 0 : zigzag(values[0]), &out);
  for (size_t start = 1; start < values.size(); start += 128) {
    std::vector<int64_t> deltas;
    for (size_t i = start; i < std::min(values.size(), start + 128); ++i)
      deltas.push_back(values[i] - values[i - 1]);
    const int64_t min_delta = *std::min_element(deltas.begin(), deltas.end());
    AppendUleb128(zigzag(min_delta), &out);
    const int width = 8;
    for (int m = 0; m < 4; ++m)
      out.push_back(static_cast<char>(m * 32 < static_cast<int>(deltas.size()) ? width : 0));
    for (int m = 0; m < 4 && m * 32 < static_cast<int>(deltas.size()); ++m) {
      for (int k = 0; k < 32; ++k) {
        const size_t i = static_cast<size_t>(m * 32 + k);
        out.push_back(static_cast<char>(i < deltas.size() ? deltas[i] - min_delta : 0));
      }
    }
  }
  return out;
}

TEST(DecodingTest, DeltaEncodingsDecode) {
  const std::vector<int64_t> ints = {100, 101, 99, 150, 150, 160, -20, 7};
  std::string stream = DeltaStream(ints);
  std::vector<int64_t> decoded;
  int64_t used = 0;
  ASSERT_TRUE(DecodeDeltaBinaryPacked(reinterpret_cast<const uint8_t*>(stream.data()),
                                      static_cast<int64_t>(stream.size()), 100, &decoded, &used)
                  .ok());
  EXPECT_EQ(decoded, ints);
  EXPECT_EQ(used, static_cast<int64_t>(stream.size()));
  EXPECT_FALSE(DecodeDeltaBinaryPacked(reinterpret_cast<const uint8_t*>(stream.data()),
                                       static_cast<int64_t>(stream.size()), 3, &decoded, &used)
                   .ok());  // more values than the page holds

  // DELTA_BYTE_ARRAY: "apple", "apply", "banana" = prefixes 0,4,0; suffixes.
  std::string dba = DeltaStream({0, 4, 0}) + DeltaStream({5, 1, 6}) + "apple" + "y" + "banana";
  PhysicalValues out;
  out.Reset(PhysicalType::kByteArray, 0);
  ASSERT_TRUE(DecodeValues(Encoding::kDeltaByteArray, reinterpret_cast<const uint8_t*>(dba.data()),
                           static_cast<int64_t>(dba.size()), 3, nullptr, &out)
                  .ok());
  ASSERT_EQ(out.count, 3);
  EXPECT_EQ(out.ByteArray(1), "apply");
  EXPECT_EQ(out.ByteArray(2), "banana");
  std::string bad = DeltaStream({0, 9, 0}) + DeltaStream({5, 1, 6}) + "apple" + "y" + "banana";
  out.Reset(PhysicalType::kByteArray, 0);
  EXPECT_FALSE(DecodeValues(Encoding::kDeltaByteArray, reinterpret_cast<const uint8_t*>(bad.data()),
                            static_cast<int64_t>(bad.size()), 3, nullptr, &out)
                   .ok());

  // BYTE_STREAM_SPLIT of two floats.
  const float f[2] = {1.5f, -2.25f};
  uint8_t raw[8], split[8];
  std::memcpy(raw, f, 8);
  for (int b = 0; b < 4; ++b) {
    split[b * 2] = raw[b];
    split[b * 2 + 1] = raw[4 + b];
  }
  out.Reset(PhysicalType::kFloat, 0);
  ASSERT_TRUE(DecodeValues(Encoding::kByteStreamSplit, split, 8, 2, nullptr, &out).ok());
  float back[2];
  std::memcpy(back, out.fixed.data(), 8);
  EXPECT_EQ(back[0], 1.5f);
  EXPECT_EQ(back[1], -2.25f);
}

}  // namespace
}  // namespace hoglake::parquet
