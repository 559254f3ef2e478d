// Footer statistics → catalog column stats (pyhoglake-writer §4) for files
// our writer produces: counts, every type's bound encoding, NaN and signed
// zero, decimals, timestamp units, strings untruncated, selection across row
// groups, the drop-the-bound cases and the wire JSON.
#include "parquet/footer_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "common/encoding.h"
#include "iceberg/bounds.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

using namespace hoglake::columnar;  // NOLINT
using iceberg::ColumnType;
using iceberg::TypeSpec;
using testing::F;

ArrayPtr Done(ArrayBuilder& builder) {
  auto array = builder.Finish();
  EXPECT_TRUE(array.ok()) << array.error().ToString();
  return *array;
}

// Writes `columns` (one batch per entry of `batches`, each its own row
// group) and returns the footer.
FileMetaData WriteFile(const std::vector<Field>& fields,
                       const std::vector<std::vector<ArrayPtr>>& batches,
                       WriterOptions options = {}) {
  auto schema = std::make_shared<Schema>(Schema{fields, {}});
  std::string bytes;
  auto writer = ParquetWriter::OpenBuffer(&bytes, schema, options);
  EXPECT_TRUE(writer.ok()) << writer.error().ToString();
  for (const auto& columns : batches) {
    auto batch = MakeRecordBatch(schema, columns);
    EXPECT_TRUE(batch.ok()) << batch.error().ToString();
    Status st = (*writer)->WriteBatch(*batch);
    EXPECT_TRUE(st.ok()) << st.ToString();
    st = (*writer)->FlushRowGroup();
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto summary = (*writer)->Close();
  EXPECT_TRUE(summary.ok()) << summary.error().ToString();
  return summary->metadata;
}

std::vector<ColumnStats> Extract(const FileMetaData& metadata,
                                 const std::vector<StatsColumn>& columns) {
  auto stats = ExtractColumnStats(metadata, columns);
  EXPECT_TRUE(stats.ok()) << stats.error().ToString();
  return stats.ok() ? *stats : std::vector<ColumnStats>{};
}

const ColumnStats* Find(const std::vector<ColumnStats>& stats, int32_t field_id) {
  for (const ColumnStats& s : stats) {
    if (s.field_id == field_id) return &s;
  }
  return nullptr;
}

std::string Bound(const TypeSpec& type, const iceberg::BoundValue& value) {
  auto bytes = iceberg::EncodeBound(type, value);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  return *bytes;
}

std::string Hex(const std::optional<std::string>& bytes) {
  return bytes ? HexEncode(*bytes) : std::string("<none>");
}

void ExpectBounds(const std::vector<ColumnStats>& stats, int32_t field_id, const TypeSpec& type,
                  const iceberg::BoundValue& lower, const iceberg::BoundValue& upper) {
  const ColumnStats* s = Find(stats, field_id);
  ASSERT_NE(s, nullptr) << "field " << field_id;
  EXPECT_EQ(Hex(s->lower_bound), HexEncode(Bound(type, lower))) << "lower of field " << field_id;
  EXPECT_EQ(Hex(s->upper_bound), HexEncode(Bound(type, upper))) << "upper of field " << field_id;
}

void ExpectNoBounds(const std::vector<ColumnStats>& stats, int32_t field_id) {
  const ColumnStats* s = Find(stats, field_id);
  ASSERT_NE(s, nullptr) << "field " << field_id;
  EXPECT_FALSE(s->lower_bound) << "field " << field_id << " lower " << Hex(s->lower_bound);
  EXPECT_FALSE(s->upper_bound) << "field " << field_id << " upper " << Hex(s->upper_bound);
}

using BV = iceberg::BoundValue;

TEST(FooterStatsTest, EveryScalarTypeYieldsItsIcebergBounds) {
  BooleanBuilder b(Bool());
  b.Append(true);
  b.AppendNull();
  b.Append(true);
  Int8Builder i8;
  for (int v : {5, -3, 100}) i8.Append(static_cast<int8_t>(v));
  Int16Builder i16;
  for (int v : {-300, 7, 0}) i16.Append(static_cast<int16_t>(v));
  Int32Builder i32;
  i32.Append(INT32_MIN);
  i32.AppendNull();
  i32.Append(42);
  Int64Builder i64;
  for (int64_t v : {int64_t{1} << 40, int64_t{-1}, int64_t{3}}) i64.Append(v);
  UInt8Builder u8;
  for (int v : {200, 3, 128}) u8.Append(static_cast<uint8_t>(v));
  UInt16Builder u16;
  for (int v : {65535, 1, 2}) u16.Append(static_cast<uint16_t>(v));
  UInt32Builder u32;
  for (uint32_t v : {4000000000u, 1u, 2u}) u32.Append(v);
  UInt64Builder u64;
  u64.Append(1);
  u64.Append(UINT64_MAX);
  u64.Append(uint64_t{1} << 63);
  Float32Builder f32;
  for (float v : {1.5f, -2.5f, 0.25f}) f32.Append(v);
  Float64Builder f64;
  for (double v : {0.1, 1e300, -7.0}) f64.Append(v);
  Decimal128Builder dec(Decimal128(5, 2));
  for (int v : {-12345, 1, 99999}) dec.Append(v);
  Decimal128Builder dec38(Decimal128(38, 10));
  const __int128 big = static_cast<__int128>(INT64_MAX) * 1000000;
  dec38.Append(-big);
  dec38.AppendNull();
  dec38.Append(big);
  Date32Builder d;
  for (int v : {-719162, 0, 2932896}) d.Append(v);
  Time64Builder t(Time64(TimeUnit::kMicro));
  for (int64_t v : {int64_t{86399999999}, int64_t{0}, int64_t{49062123456}}) t.Append(v);
  StringBuilder s;
  s.Append("h\xc3\xa9llo");
  s.Append("");
  s.Append("\xf0\x9f\xa6\x94");
  StringBuilder j;
  for (const char* v : {"{\"k\":2}", "{\"k\":10}", "[]"}) j.Append(v);
  BinaryBuilder bin(Binary());
  bin.Append(std::string("\x00\x01\xff", 3));
  bin.Append(std::string("\x80", 1));
  bin.AppendNull();
  FixedSizeBinaryBuilder uuid(FixedSizeBinary(16));
  ASSERT_TRUE(uuid.Append(std::string(16, '\x7f')).ok());
  ASSERT_TRUE(uuid.Append(std::string(16, '\x80')).ok());
  ASSERT_TRUE(uuid.Append(std::string(16, '\x01')).ok());

  std::vector<Field> fields = {
      F("b", Bool(), 1),
      F("i8", Int8(), 2),
      F("i16", Int16(), 3),
      F("i32", Int32(), 4),
      F("i64", Int64(), 5),
      F("u8", UInt8(), 6),
      F("u16", UInt16(), 7),
      F("u32", UInt32(), 8),
      F("u64", UInt64(), 9),
      F("f32", Float32(), 10),
      F("f64", Float64(), 11),
      F("dec", Decimal128(5, 2), 12),
      F("dec38", Decimal128(38, 10), 13),
      F("d", Date32(), 14),
      F("t", Time64(TimeUnit::kMicro), 15),
      F("s", Utf8(), 16),
      JsonField("j").WithFieldId(17),
      F("bin", Binary(), 18),
      UuidField("uuid").WithFieldId(19),
  };
  const std::vector<ArrayPtr> columns = {Done(b),   Done(i8),  Done(i16),   Done(i32), Done(i64),
                                         Done(u8),  Done(u16), Done(u32),   Done(u64), Done(f32),
                                         Done(f64), Done(dec), Done(dec38), Done(d),   Done(t),
                                         Done(s),   Done(j),   Done(bin),   Done(uuid)};
  const FileMetaData md = WriteFile(fields, {columns});

  const std::vector<StatsColumn> catalog = {
      {1, ColumnType::kBoolean},       {2, ColumnType::kInt8},    {3, ColumnType::kInt16},
      {4, ColumnType::kInt},           {5, ColumnType::kLong},    {6, ColumnType::kUInt8},
      {7, ColumnType::kUInt16},        {8, ColumnType::kUInt32},  {9, ColumnType::kUInt64},
      {10, ColumnType::kFloat},        {11, ColumnType::kDouble}, {12, TypeSpec::Decimal(5, 2)},
      {13, TypeSpec::Decimal(38, 10)}, {14, ColumnType::kDate},   {15, ColumnType::kTime},
      {16, ColumnType::kString},       {17, ColumnType::kJson},   {18, ColumnType::kBinary},
      {19, ColumnType::kUuid},
  };
  const auto stats = Extract(md, catalog);
  ASSERT_EQ(stats.size(), catalog.size());
  for (size_t i = 0; i < stats.size(); ++i) {
    EXPECT_EQ(stats[i].field_id, catalog[i].field_id) << "footer leaf order";
    EXPECT_EQ(stats[i].value_count, 3);
    EXPECT_FALSE(stats[i].nan_count);
    const ColumnMetaData& chunk = *md.row_groups[0].columns[i].meta_data;
    EXPECT_EQ(stats[i].size_bytes, chunk.total_compressed_size);
  }
  EXPECT_EQ(Find(stats, 1)->null_count, 1);
  EXPECT_EQ(Find(stats, 2)->null_count, 0);
  EXPECT_EQ(Find(stats, 13)->null_count, 1);

  ExpectBounds(stats, 1, ColumnType::kBoolean, BV::Bool(true), BV::Bool(true));
  ExpectBounds(stats, 2, ColumnType::kInt8, BV::Int(-3), BV::Int(100));
  ExpectBounds(stats, 3, ColumnType::kInt16, BV::Int(-300), BV::Int(7));
  ExpectBounds(stats, 4, ColumnType::kInt, BV::Int(INT32_MIN), BV::Int(42));
  ExpectBounds(stats, 5, ColumnType::kLong, BV::Int(-1), BV::Int(int64_t{1} << 40));
  ExpectBounds(stats, 6, ColumnType::kUInt8, BV::Int(3), BV::Int(200));
  ExpectBounds(stats, 7, ColumnType::kUInt16, BV::Int(1), BV::Int(65535));
  ExpectBounds(stats, 8, ColumnType::kUInt32, BV::Int(1), BV::Int(4000000000));
  ExpectBounds(stats, 9, ColumnType::kUInt64, BV::Decimal(1),
               BV::Decimal(static_cast<__int128>(UINT64_MAX)));
  EXPECT_EQ(HexEncode(*Find(stats, 9)->upper_bound), "00ffffffffffffffff");
  ExpectBounds(stats, 10, ColumnType::kFloat, BV::Float(-2.5f), BV::Float(1.5f));
  ExpectBounds(stats, 11, ColumnType::kDouble, BV::Double(-7.0), BV::Double(1e300));
  ExpectBounds(stats, 12, TypeSpec::Decimal(5, 2), BV::Decimal(-12345), BV::Decimal(99999));
  EXPECT_EQ(HexEncode(*Find(stats, 12)->lower_bound), "cfc7");  // minimal, not 3 bytes
  ExpectBounds(stats, 13, TypeSpec::Decimal(38, 10), BV::Decimal(-big), BV::Decimal(big));
  ExpectBounds(stats, 14, ColumnType::kDate, BV::Int(-719162), BV::Int(2932896));
  ExpectBounds(stats, 15, ColumnType::kTime, BV::Int(0), BV::Int(86399999999));
  ExpectBounds(stats, 16, ColumnType::kString, BV::Bytes(""), BV::Bytes("\xf0\x9f\xa6\x94"));
  ExpectBounds(stats, 17, ColumnType::kJson, BV::Bytes("[]"), BV::Bytes("{\"k\":2}"));
  ExpectBounds(stats, 18, ColumnType::kBinary, BV::Bytes(std::string("\x00\x01\xff", 3)),
               BV::Bytes("\x80"));
  ExpectBounds(stats, 19, ColumnType::kUuid, BV::Bytes(std::string(16, '\x01')),
               BV::Bytes(std::string(16, '\x80')));

  // Without catalog columns the file's own field ids and types are used;
  // the only difference is uint32, which the file stores as a plain INT64.
  auto derived = ExtractColumnStats(md);
  ASSERT_TRUE(derived.ok()) << derived.error().ToString();
  ASSERT_EQ(derived->size(), stats.size());
  for (size_t i = 0; i < stats.size(); ++i) EXPECT_EQ((*derived)[i], stats[i]) << i;
}

TEST(FooterStatsTest, TimestampsInEveryUnitBecomeMicrosOrNanos) {
  TimestampBuilder ts_s(Timestamp(TimeUnit::kSecond));
  for (int64_t v : {2, -4, 3}) ts_s.Append(v);
  TimestampBuilder ts_ms(Timestamp(TimeUnit::kMilli));
  for (int64_t v : {int64_t{1500}, int64_t{-1}, int64_t{1788609600123}}) ts_ms.Append(v);
  TimestampBuilder ts_us(Timestamp(TimeUnit::kMicro));
  for (int64_t v : {int64_t{7}, int64_t{-62135596800000000}, int64_t{8}}) ts_us.Append(v);
  TimestampBuilder ts_ns(Timestamp(TimeUnit::kNano));
  for (int64_t v : {int64_t{1788609600123456789}, int64_t{5}, int64_t{1000}}) ts_ns.Append(v);
  TimestampBuilder ns_whole(Timestamp(TimeUnit::kNano));
  for (int64_t v : {int64_t{3000}, int64_t{-2000}, int64_t{1000}}) ns_whole.Append(v);
  TimestampBuilder tstz(Timestamp(TimeUnit::kMicro, "UTC"));
  for (int64_t v : {int64_t{1788609600000000}, int64_t{0}, int64_t{-1}}) tstz.Append(v);
  TimestampBuilder far(Timestamp(TimeUnit::kMicro));
  // Past year 9999: pyarrow cannot render it, so the writer path drops it.
  for (int64_t v : {int64_t{0}, int64_t{253402300800000000}, int64_t{1}}) far.Append(v);

  std::vector<Field> fields = {F("ts_s", Timestamp(TimeUnit::kSecond), 1),
                               F("ts_ms", Timestamp(TimeUnit::kMilli), 2),
                               F("ts_us", Timestamp(TimeUnit::kMicro), 3),
                               F("ts_ns", Timestamp(TimeUnit::kNano), 4),
                               F("ns_whole", Timestamp(TimeUnit::kNano), 5),
                               F("tstz", Timestamp(TimeUnit::kMicro, "UTC"), 6),
                               F("far", Timestamp(TimeUnit::kMicro), 7)};
  const FileMetaData md = WriteFile(fields, {{Done(ts_s), Done(ts_ms), Done(ts_us), Done(ts_ns),
                                              Done(ns_whole), Done(tstz), Done(far)}});
  const auto stats = Extract(md, {{1, ColumnType::kTimestampS},
                                  {2, ColumnType::kTimestampMs},
                                  {3, ColumnType::kTimestamp},
                                  {4, ColumnType::kTimestampNs},
                                  {5, ColumnType::kTimestamp},
                                  {6, ColumnType::kTimestamptz},
                                  {7, ColumnType::kTimestamp}});
  ASSERT_EQ(stats.size(), 7u);
  // timestamp_s is stored as MILLIS (seconds × 1000); bounds are micros.
  ExpectBounds(stats, 1, ColumnType::kTimestampS, BV::Int(-4000000), BV::Int(3000000));
  ExpectBounds(stats, 2, ColumnType::kTimestampMs, BV::Int(-1000), BV::Int(1788609600123000));
  ExpectBounds(stats, 3, ColumnType::kTimestamp, BV::Int(-62135596800000000), BV::Int(8));
  ExpectBounds(stats, 4, ColumnType::kTimestampNs, BV::Int(5), BV::Int(1788609600123456789));
  EXPECT_EQ(HexEncode(*Find(stats, 4)->upper_bound), "154d3671f46ad218");
  ExpectBounds(stats, 5, ColumnType::kTimestamp, BV::Int(-2), BV::Int(3));
  ExpectBounds(stats, 6, ColumnType::kTimestamptz, BV::Int(-1), BV::Int(1788609600000000));
  ExpectNoBounds(stats, 7);

  // Nanos that are not whole micros cannot be a micros bound; a millis
  // footer scales into timestamp_ns.
  const auto other = Extract(md, {{4, ColumnType::kTimestamp}, {2, ColumnType::kTimestampNs}});
  ExpectNoBounds(other, 4);
  ExpectBounds(other, 2, ColumnType::kTimestampNs, BV::Int(-1000000),
               BV::Int(int64_t{1788609600123} * 1000000));
  // A timestamp footer under a non-timestamp type, or vice versa: no bounds.
  const auto wrong = Extract(md, {{3, ColumnType::kDate}});
  ExpectNoBounds(wrong, 3);
  EXPECT_EQ(Find(wrong, 3)->null_count, 0);
}

TEST(FooterStatsTest, NanIsNeverABoundAndAnAllNanChunkDropsTheBounds) {
  Float64Builder some;
  for (double v : {double{NAN}, 2.0, -1.0}) some.Append(v);
  Float32Builder all_nan;
  for (int i = 0; i < 3; ++i) all_nan.Append(NAN);
  Float64Builder later;  // NaN only in the second row group
  for (double v : {1.0, 2.0, 3.0}) later.Append(v);
  Float64Builder some2;
  for (double v : {4.0, double{NAN}, 0.5}) some2.Append(v);
  Float32Builder all_nan2;
  for (int i = 0; i < 3; ++i) all_nan2.Append(1.0f);
  Float64Builder later2;
  for (int i = 0; i < 3; ++i) later2.Append(NAN);
  std::vector<Field> fields = {F("some", Float64(), 1), F("all_nan", Float32(), 2),
                               F("later", Float64(), 3)};
  const FileMetaData md = WriteFile(fields, {{Done(some), Done(all_nan), Done(later)},
                                             {Done(some2), Done(all_nan2), Done(later2)}});
  ASSERT_EQ(md.row_groups.size(), 2u);
  const auto stats =
      Extract(md, {{1, ColumnType::kDouble}, {2, ColumnType::kFloat}, {3, ColumnType::kDouble}});
  ExpectBounds(stats, 1, ColumnType::kDouble, BV::Double(-1.0), BV::Double(4.0));
  // All-NaN chunk: values but no min/max → the column loses its bounds.
  ExpectNoBounds(stats, 2);
  ExpectNoBounds(stats, 3);
  EXPECT_EQ(Find(stats, 2)->value_count, 6);
  EXPECT_EQ(Find(stats, 2)->null_count, 0);
  EXPECT_FALSE(Find(stats, 2)->nan_count);  // Parquet footers carry no NaN count
}

TEST(FooterStatsTest, SignedZeroSelectionIsIndependentOfRowGroupOrder) {
  auto zeros = [](float first, float second) {
    Float32Builder a;
    a.Append(first);
    Float32Builder b;
    b.Append(second);
    Float64Builder da;
    da.Append(first);
    Float64Builder db;
    db.Append(second);
    return WriteFile({F("f", Float32(), 1), F("d", Float64(), 2)},
                     {{Done(a), Done(da)}, {Done(b), Done(db)}});
  };
  for (const auto& md : {zeros(0.0f, -0.0f), zeros(-0.0f, 0.0f), zeros(0.0f, 0.0f)}) {
    const auto stats = Extract(md, {{1, ColumnType::kFloat}, {2, ColumnType::kDouble}});
    EXPECT_EQ(Hex(Find(stats, 1)->lower_bound), "00000080");
    EXPECT_EQ(Hex(Find(stats, 1)->upper_bound), "00000000");
    EXPECT_EQ(Hex(Find(stats, 2)->lower_bound), "0000000000000080");
    EXPECT_EQ(Hex(Find(stats, 2)->upper_bound), "0000000000000000");
  }
  // A float footer under a double column widens.
  const auto widened = Extract(zeros(1.5f, -0.0f), {{1, ColumnType::kDouble}});
  ExpectBounds(widened, 1, ColumnType::kDouble, BV::Double(-0.0), BV::Double(1.5));
}

TEST(FooterStatsTest, MinAndMaxAreSelectedAcrossManyRowGroups) {
  Int64Builder id;
  StringBuilder name;
  Float64Builder score;
  Decimal128Builder dec(Decimal128(9, 2));
  for (int i = 0; i < 100; ++i) {
    // Values in a scrambled order so no single row group holds both extremes.
    const int v = (i * 37) % 100;
    id.Append(v);
    if (v % 10 == 0) {
      name.AppendNull();
    } else {
      char text[16];
      std::snprintf(text, sizeof(text), "name-%04d", v);
      name.Append(text);
    }
    if (v % 7 == 0) {
      score.AppendNull();
    } else {
      score.Append(v / 2.0);
    }
    dec.Append(v * 99);
  }
  WriterOptions options;
  options.max_row_group_rows = 25;
  const FileMetaData md = WriteFile({F("id", Int64(), 1), F("name", Utf8(), 2),
                                     F("score", Float64(), 3), F("dec", Decimal128(9, 2), 4)},
                                    {{Done(id), Done(name), Done(score), Done(dec)}}, options);
  ASSERT_EQ(md.row_groups.size(), 4u);
  const auto stats = Extract(md, {{1, ColumnType::kLong},
                                  {2, ColumnType::kString},
                                  {3, ColumnType::kDouble},
                                  {4, TypeSpec::Decimal(9, 2)}});
  ExpectBounds(stats, 1, ColumnType::kLong, BV::Int(0), BV::Int(99));
  EXPECT_EQ(Find(stats, 2)->null_count, 10);
  EXPECT_EQ(Find(stats, 2)->value_count, 100);
  ExpectBounds(stats, 2, ColumnType::kString, BV::Bytes("name-0001"), BV::Bytes("name-0099"));
  EXPECT_EQ(Find(stats, 3)->null_count, 15);
  ExpectBounds(stats, 3, ColumnType::kDouble, BV::Double(0.5), BV::Double(49.5));
  EXPECT_EQ(Hex(Find(stats, 4)->lower_bound), "00");
  EXPECT_EQ(Hex(Find(stats, 4)->upper_bound), "2649");  // 9801
  int64_t size = 0;
  for (const RowGroup& rg : md.row_groups) size += rg.columns[1].meta_data->total_compressed_size;
  EXPECT_EQ(Find(stats, 2)->size_bytes, size);
}

TEST(FooterStatsTest, NullsAllNullColumnsAndAllNullRowGroups) {
  Int32Builder all_null;
  Int32Builder first_null;
  for (int i = 0; i < 3; ++i) {
    all_null.AppendNull();
    first_null.AppendNull();
  }
  Int32Builder all_null2;
  Int32Builder first_null2;
  for (int i = 0; i < 3; ++i) {
    all_null2.AppendNull();
    first_null2.Append(i + 10);
  }
  const FileMetaData md =
      WriteFile({F("a", Int32(), 1), F("b", Int32(), 2)},
                {{Done(all_null), Done(first_null)}, {Done(all_null2), Done(first_null2)}});
  const auto stats = Extract(md, {{1, ColumnType::kInt}, {2, ColumnType::kInt}});
  ASSERT_EQ(stats.size(), 2u);
  ExpectNoBounds(stats, 1);
  EXPECT_EQ(Find(stats, 1)->value_count, 6);
  EXPECT_EQ(Find(stats, 1)->null_count, 6);
  ExpectBounds(stats, 2, ColumnType::kInt, BV::Int(10), BV::Int(12));
  EXPECT_EQ(Find(stats, 2)->null_count, 3);
}

TEST(FooterStatsTest, DropTheBoundCasesKeepTheCounts) {
  Int64Builder wide;
  for (int64_t v : {int64_t{1} << 40, int64_t{0}}) wide.Append(v);
  BooleanBuilder flag(Bool());
  flag.Append(true);
  flag.Append(false);
  Decimal128Builder dec(Decimal128(9, 2));
  dec.Append(1);
  dec.Append(2);
  StringBuilder s;
  s.Append("x");
  s.Append("y");
  const FileMetaData md =
      WriteFile({F("wide", Int64(), 1), F("flag", Bool(), 2), F("dec", Decimal128(9, 2), 3),
                 F("s", Utf8(), 4), F("extra", Utf8(), 5)},
                {{Done(wide), Done(flag), Done(dec), Done(s), [] {
                    StringBuilder e;
                    e.Append("e");
                    e.Append("f");
                    return Done(e);
                  }()}});
  // INT64 2^40 under int / uint8; a boolean footer under long (never 0/1);
  // a decimal whose scale differs; string footer under uuid.
  const auto stats = Extract(md, {{1, ColumnType::kInt},
                                  {2, ColumnType::kLong},
                                  {3, TypeSpec::Decimal(9, 3)},
                                  {4, ColumnType::kUuid}});
  ASSERT_EQ(stats.size(), 4u) << "the footer column unknown to the catalog has no row";
  for (int32_t id : {1, 2, 3, 4}) {
    ExpectNoBounds(stats, id);
    EXPECT_EQ(Find(stats, id)->value_count, 2);
    EXPECT_EQ(Find(stats, id)->null_count, 0);
  }
  ExpectNoBounds(Extract(md, {{1, ColumnType::kUInt8}}), 1);

  // A row group without a null count: no row at all (no fabricated counts).
  FileMetaData no_nulls = md;
  no_nulls.row_groups[0].columns[3].meta_data->statistics->null_count.reset();
  const auto partial = Extract(no_nulls, {{1, ColumnType::kLong}, {4, ColumnType::kString}});
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(partial[0].field_id, 1);
  // Min/max missing in a row group that has values: counts, no bounds.
  FileMetaData no_minmax = md;
  no_minmax.row_groups[0].columns[3].meta_data->statistics->min_value.reset();
  ExpectNoBounds(Extract(no_minmax, {{4, ColumnType::kString}}), 4);
  // Statistics absent altogether: no row.
  FileMetaData no_stats = md;
  no_stats.row_groups[0].columns[0].meta_data->statistics.reset();
  EXPECT_TRUE(Extract(no_stats, {{1, ColumnType::kLong}}).empty());
}

TEST(FooterStatsTest, StringsAreNeverTruncated) {
  StringBuilder s;
  const std::string long_value = "\xc3\xa9" + std::string(10000, 'z');
  s.Append("b");
  s.Append(long_value);
  s.Append("a");
  const FileMetaData md = WriteFile({F("s", Utf8(), 1)}, {{Done(s)}});
  ExpectBounds(Extract(md, {{1, ColumnType::kString}}), 1, ColumnType::kString, BV::Bytes("a"),
               BV::Bytes(long_value));
}

TEST(FooterStatsTest, NestedLeavesMatchByPathOrFieldIdAndCountValues) {
  // l: list<int32 element id 2> (id 1); st: struct<a.b: utf8 id 4> (id 3).
  ListBuilder l(List(F("element", Int32(), 2)));
  auto* elements = &l.value_builder<Int32Builder>();
  l.Append();
  for (int v : {1, 2, 3}) elements->Append(v);
  l.Append();
  elements->Append(4);
  l.AppendNull();
  l.Append();
  StructBuilder st(Struct({F("a.b", Utf8(), 4)}));
  auto* leaf = &st.child<StringBuilder>(0);
  for (const char* v : {"q", "r", "p", "s"}) {
    st.Append();
    leaf->Append(v);
  }
  const FileMetaData md = WriteFile(
      {F("l", List(F("element", Int32(), 2)), 1), F("st", Struct({F("a.b", Utf8(), 4)}), 3)},
      {{Done(l), Done(st)}});
  const auto by_id =
      Extract(md, {{1, ColumnType::kList}, {2, ColumnType::kInt}, {4, ColumnType::kString}});
  ASSERT_EQ(by_id.size(), 2u) << "containers have no row";
  EXPECT_EQ(Find(by_id, 2)->value_count, 6);  // [[1,2,3],[4],null,[]]
  EXPECT_EQ(Find(by_id, 2)->null_count, 2);
  ExpectBounds(by_id, 2, ColumnType::kInt, BV::Int(1), BV::Int(4));
  // Paths match verbatim ("st.a.b" is the struct leaf named "a.b"), even
  // under a different field id.
  const auto by_path = Extract(md, {{20, ColumnType::kInt, "l.list.element"},
                                    {40, ColumnType::kString, "st.a.b"},
                                    {41, ColumnType::kString, "st.a"}});
  ASSERT_EQ(by_path.size(), 2u);
  ExpectBounds(by_path, 20, ColumnType::kInt, BV::Int(1), BV::Int(4));
  ExpectBounds(by_path, 40, ColumnType::kString, BV::Bytes("p"), BV::Bytes("s"));
}

TEST(FooterStatsTest, ColumnStatsJsonIsTheCommitWireShape) {
  std::vector<ColumnStats> stats(2);
  stats[0].field_id = 1;
  stats[0].value_count = 3;
  stats[0].null_count = 0;
  stats[0].size_bytes = 52;
  stats[0].lower_bound = std::string("\x01\0\0\0\0\0\0\0", 8);
  stats[0].upper_bound = std::string("\x03\0\0\0\0\0\0\0", 8);
  stats[1].field_id = 2;
  stats[1].value_count = 3;
  stats[1].null_count = 3;
  stats[1].lower_bound = std::string();
  stats[1].upper_bound = std::string("b");
  EXPECT_EQ(ColumnStatsJson(stats),
            "[{\"field_id\":1,\"value_count\":3,\"null_count\":0,\"size_bytes\":52,"
            "\"lower_bound\":\"AQAAAAAAAAA=\",\"upper_bound\":\"AwAAAAAAAAA=\"},"
            "{\"field_id\":2,\"value_count\":3,\"null_count\":3,\"lower_bound\":\"\","
            "\"upper_bound\":\"Yg==\"}]");
  EXPECT_EQ(ColumnStatsJson({}), "[]");
}

TEST(FooterStatsTest, AFooterThatContradictsItsSchemaIsAnError) {
  Int32Builder a;
  a.Append(1);
  FileMetaData md = WriteFile({F("a", Int32(), 1)}, {{Done(a)}});
  md.row_groups[0].columns[0].meta_data->path_in_schema = {"b"};
  auto stats = ExtractColumnStats(md, {{1, ColumnType::kInt}});
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.error().code, ErrorCode::kInvalidData);
  md.row_groups[0].columns.clear();
  EXPECT_FALSE(ExtractColumnStats(md).ok());
}

}  // namespace
}  // namespace hoglake::parquet
