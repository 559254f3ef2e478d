#include "parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include "parquet/metadata.h"

namespace hoglake::parquet {
namespace {

using thrift::CompactReader;
using thrift::CompactWriter;
using thrift::CType;

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST(ThriftCompactTest, FieldHeadersUseDeltasAndLongForm) {
  std::string out;
  CompactWriter w(&out);
  w.BeginStruct();
  w.FieldI32(1, 5);    // delta 1: 0x15, zigzag(5)=10
  w.FieldI32(17, -1);  // delta 16: long form 0x05, zigzag(17)=34, zigzag(-1)=1
  w.FieldBool(18, true);
  w.EndStruct();
  EXPECT_EQ(out, std::string("\x15\x0a\x05\x22\x01\x11\x00", 7));

  CompactReader r(U(out), out.size());
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  CType t;
  int32_t v;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 1);
  ASSERT_TRUE(r.ReadI32(t, &v).ok());
  EXPECT_EQ(v, 5);
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 17);
  ASSERT_TRUE(r.ReadI32(t, &v).ok());
  EXPECT_EQ(v, -1);
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  bool b = false;
  ASSERT_TRUE(r.ReadBool(t, &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(t, CType::kStop);
}

TEST(ThriftCompactTest, SkipsUnknownFieldsOfEveryType) {
  std::string out;
  CompactWriter w(&out);
  w.BeginStruct();
  w.FieldI8(1, -3);
  w.FieldI16(2, 300);
  w.FieldI64(3, INT64_MIN);
  w.FieldDouble(4, 2.5);
  w.FieldBinary(5, "hello");
  w.FieldListBegin(6, CType::kI32, 20);
  for (int i = 0; i < 20; ++i) w.ElementI32(i * 1000);
  w.FieldListBegin(7, CType::kTrue, 3);
  for (int i = 0; i < 3; ++i) w.ElementBool(i % 2);
  w.FieldStructBegin(8);
  w.FieldStructBegin(1);
  w.FieldBinary(2, "deep");
  w.EndStruct();
  w.EndStruct();
  w.FieldI32(9, 42);
  w.EndStruct();
  // Add a map field by hand: field 10, type map, 1 entry i32→binary.
  out.pop_back();
  out += std::string("\x1b\x01\x58\x02\x01x\x00", 7);

  CompactReader r(U(out), out.size());
  ASSERT_TRUE(r.BeginStruct().ok());
  int32_t found = 0;
  while (true) {
    int16_t id;
    CType t;
    ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
    if (t == CType::kStop) break;
    if (id == 9) {
      ASSERT_TRUE(r.ReadI32(t, &found).ok());
    } else {
      ASSERT_TRUE(r.Skip(t).ok()) << id;
    }
  }
  EXPECT_EQ(found, 42);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactTest, RefusesCorruptInput) {
  // Binary length past the end.
  std::string bad = "\x18\x7f" + std::string("abc");
  CompactReader r(U(bad), bad.size());
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  CType t;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  std::string s;
  Status st = r.ReadBinary(t, &s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kInvalidData);

  // Absurd list size.
  std::string list = std::string("\x19\xf5\xff\xff\xff\xff\x07", 7);
  CompactReader r2(U(list), list.size());
  ASSERT_TRUE(r2.BeginStruct().ok());
  ASSERT_TRUE(r2.ReadFieldHeader(&id, &t).ok());
  EXPECT_FALSE(r2.Skip(t).ok());

  // Deep nesting: 1000 nested structs.
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep += "\x1c";
  CompactReader r3(U(deep), deep.size());
  ASSERT_TRUE(r3.BeginStruct().ok());
  ASSERT_TRUE(r3.ReadFieldHeader(&id, &t).ok());
  st = r3.Skip(t);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("nested"), std::string::npos) << st.error().message;

  // Overlong varint.
  std::string varint = std::string("\x15") + std::string(12, '\xff');
  CompactReader r4(U(varint), varint.size());
  ASSERT_TRUE(r4.BeginStruct().ok());
  ASSERT_TRUE(r4.ReadFieldHeader(&id, &t).ok());
  int64_t v;
  EXPECT_FALSE(r4.ReadI64(t, &v).ok());
}

FileMetaData SampleMetadata() {
  FileMetaData m;
  m.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  m.schema.push_back(root);
  SchemaElement a;
  a.name = "a";
  a.type = PhysicalType::kInt32;
  a.repetition_type = Repetition::kOptional;
  a.field_id = 7;
  a.converted_type = ConvertedType::kInt16;
  LogicalType it = LogicalType::Of(LogicalType::Kind::kInteger);
  it.bit_width = 16;
  it.is_signed = true;
  a.logical_type = it;
  m.schema.push_back(a);
  SchemaElement ts;
  ts.name = "ts";
  ts.type = PhysicalType::kInt64;
  ts.repetition_type = Repetition::kRequired;
  LogicalType tl = LogicalType::Of(LogicalType::Kind::kTimestamp);
  tl.unit = LogicalTimeUnit::kNanos;
  tl.is_adjusted_to_utc = true;
  ts.logical_type = tl;
  ts.field_id = 300;
  m.schema.push_back(ts);
  m.num_rows = 123456789012;
  RowGroup g;
  g.num_rows = 5;
  g.total_byte_size = 99;
  g.ordinal = 0;
  ColumnChunk c;
  c.file_offset = 4;
  ColumnMetaData& cm = c.meta_data.emplace();
  cm.type = PhysicalType::kInt32;
  cm.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  cm.path_in_schema = {"a"};
  cm.codec = Codec::kZstd;
  cm.num_values = 5;
  cm.total_compressed_size = 40;
  cm.total_uncompressed_size = 50;
  cm.data_page_offset = 4;
  cm.dictionary_page_offset = 4;
  Statistics& s = cm.statistics.emplace();
  s.min_value = std::string("\x01\x00\x00\x00", 4);
  s.max_value = std::string("\x09\x00\x00\x00", 4);
  s.null_count = 1;
  s.is_min_value_exact = true;
  s.is_max_value_exact = false;
  g.columns.push_back(c);
  m.row_groups.push_back(g);
  m.key_value_metadata.push_back({"k", "v"});
  m.key_value_metadata.push_back({"novalue", std::nullopt});
  m.created_by = "hoglake version test";
  m.column_orders = {true, true};
  return m;
}

TEST(MetadataTest, FileMetaDataRoundTrips) {
  FileMetaData m = SampleMetadata();
  std::string bytes;
  SerializeFileMetaData(m, &bytes);
  auto parsed = ParseFileMetaData(U(bytes), bytes.size());
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  std::string again;
  SerializeFileMetaData(*parsed, &again);
  EXPECT_EQ(bytes, again);
  EXPECT_EQ(parsed->schema[1].field_id, 7);
  EXPECT_EQ(parsed->schema[2].field_id, 300);
  EXPECT_EQ(parsed->schema[2].logical_type->unit, LogicalTimeUnit::kNanos);
  EXPECT_TRUE(parsed->schema[2].logical_type->is_adjusted_to_utc);
  EXPECT_EQ(parsed->schema[1].logical_type->bit_width, 16);
  EXPECT_EQ(parsed->num_rows, 123456789012);
  const auto& st = *parsed->row_groups[0].columns[0].meta_data->statistics;
  EXPECT_EQ(*st.null_count, 1);
  EXPECT_FALSE(*st.is_max_value_exact);
  EXPECT_FALSE(parsed->key_value_metadata[1].value.has_value());
  EXPECT_EQ(*parsed->created_by, "hoglake version test");
}

TEST(MetadataTest, PageHeaderRoundTrips) {
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = 100;
  h.compressed_page_size = 60;
  DataPageHeaderV2& d = h.data_page_header_v2.emplace();
  d.num_values = 10;
  d.num_nulls = 2;
  d.num_rows = 8;
  d.encoding = Encoding::kDeltaBinaryPacked;
  d.definition_levels_byte_length = 3;
  d.repetition_levels_byte_length = 4;
  d.is_compressed = false;
  std::string bytes;
  SerializePageHeader(h, &bytes);
  bytes += "trailing page bytes";
  size_t consumed = 0;
  auto parsed = ParsePageHeader(U(bytes), bytes.size(), &consumed);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(bytes.substr(consumed), "trailing page bytes");
  EXPECT_EQ(parsed->data_page_header_v2->repetition_levels_byte_length, 4);
  EXPECT_EQ(*parsed->data_page_header_v2->is_compressed, false);
}

TEST(MetadataTest, EveryTruncationAndByteFlipIsAnErrorNotACrash) {
  FileMetaData m = SampleMetadata();
  std::string bytes;
  SerializeFileMetaData(m, &bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto parsed = ParseFileMetaData(U(bytes), n);
    ASSERT_FALSE(parsed.ok()) << "prefix " << n;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidData);
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t x : {0x01, 0x10, 0x80, 0xff}) {
      std::string flipped = bytes;
      flipped[i] = static_cast<char>(flipped[i] ^ x);
      auto parsed = ParseFileMetaData(U(flipped), flipped.size());  // must not crash
      if (!parsed.ok()) {
        EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidData);
      }
    }
  }
}

TEST(MetadataTest, MissingRequiredFieldIsNamed) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldI32(1, 2);
  w.EndStruct();
  auto parsed = ParseFileMetaData(U(bytes), bytes.size());
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("required field 2"), std::string::npos)
      << parsed.error().message;
  EXPECT_NE(parsed.error().message.find("FileMetaData"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::parquet
