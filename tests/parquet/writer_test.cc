// Writer facts a reader of the footer relies on: statistics per type and
// sort order, null counts, footer_size, created_by, dictionary fallback,
// row-group bounds, and projection on read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "columnar/compare.h"
#include "columnar/json_rows.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "parquet_corpus.h"

namespace hoglake::parquet {
namespace {

using namespace hoglake::columnar;  // NOLINT
using testing::F;

template <typename T>
std::string Le(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

RecordBatch MakeBatch(std::vector<Field> fields, std::vector<ArrayPtr> columns) {
  auto schema = std::make_shared<Schema>(Schema{std::move(fields), {}});
  auto batch = MakeRecordBatch(schema, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.error().ToString();
  return *batch;
}

WriteSummary Write(const RecordBatch& batch, std::string* out, WriterOptions options = {}) {
  auto writer = ParquetWriter::OpenBuffer(out, batch.schema, options);
  EXPECT_TRUE(writer.ok()) << writer.error().ToString();
  Status st = (*writer)->WriteBatch(batch);
  EXPECT_TRUE(st.ok()) << st.ToString();
  auto summary = (*writer)->Close();
  EXPECT_TRUE(summary.ok()) << summary.error().ToString();
  return std::move(*summary);
}

const Statistics& StatsOf(const WriteSummary& s, const std::string& dotted_path) {
  for (const ColumnChunk& c : s.metadata.row_groups[0].columns) {
    std::string path;
    for (const auto& p : c.meta_data->path_in_schema) path += (path.empty() ? "" : ".") + p;
    if (path == dotted_path) return *c.meta_data->statistics;
  }
  ADD_FAILURE() << "no column " << dotted_path;
  static Statistics none;
  return none;
}

TEST(WriterStatisticsTest, MinMaxFollowEachTypesSortOrder) {
  Int8Builder i8;
  for (int v : {5, -3, 100}) i8.Append(static_cast<int8_t>(v));
  i8.AppendNull();
  UInt64Builder u64;
  u64.Append(1);
  u64.Append(UINT64_MAX);
  u64.AppendNull();
  u64.Append(1ull << 63);
  UInt8Builder u8;
  u8.Append(200);
  u8.Append(3);
  u8.Append(128);
  u8.Append(7);
  Float64Builder f64;
  for (double v : {double{NAN}, -0.0, 0.0, 2.5}) f64.Append(v);
  Float32Builder nan32;
  for (int k = 0; k < 4; ++k) nan32.Append(NAN);
  Float32Builder zeros;
  for (int k = 0; k < 4; ++k) zeros.Append(k % 2 ? 0.0f : -0.0f);
  StringBuilder s;
  const std::string long_value = "\xc3\xa9" + std::string(5000, 'x');
  s.Append("b");
  s.Append("\xc3\xa9");
  s.Append("a");
  s.Append(long_value);
  Decimal128Builder dec(Decimal128(5, 2));
  for (int v : {-5, 3, -100, 0}) dec.Append(v);
  BinaryBuilder bin(Binary());
  bin.Append("\x80");
  bin.Append("\x7f");
  bin.AppendNull();
  bin.AppendNull();
  TimestampBuilder ts(Timestamp(TimeUnit::kSecond));
  for (int v : {2, 1, 3, -4}) ts.Append(v);
  UInt32Builder u32;
  for (uint32_t v : {4000000000u, 1u, 2u, 3u}) u32.Append(v);

  auto batch = MakeBatch(
      {F("i8", Int8(), 1), F("u64", UInt64(), 2), F("u8", UInt8(), 3), F("f64", Float64(), 4),
       F("nan32", Float32(), 5), F("zeros", Float32(), 6), F("s", Utf8(), 7),
       F("dec", Decimal128(5, 2), 8), F("bin", Binary(), 9),
       F("ts", Timestamp(TimeUnit::kSecond), 10), F("u32", UInt32(), 11)},
      {*i8.Finish(), *u64.Finish(), *u8.Finish(), *f64.Finish(), *nan32.Finish(), *zeros.Finish(),
       *s.Finish(), *dec.Finish(), *bin.Finish(), *ts.Finish(), *u32.Finish()});
  std::string bytes;
  WriteSummary summary = Write(batch, &bytes);

  const Statistics& i8s = StatsOf(summary, "i8");
  EXPECT_EQ(*i8s.min_value, Le<int32_t>(-3));
  EXPECT_EQ(*i8s.max_value, Le<int32_t>(100));
  EXPECT_EQ(*i8s.null_count, 1);
  EXPECT_TRUE(*i8s.is_min_value_exact);
  EXPECT_TRUE(*i8s.is_max_value_exact);

  const Statistics& u64s = StatsOf(summary, "u64");
  EXPECT_EQ(*u64s.min_value, Le<uint64_t>(1));
  EXPECT_EQ(*u64s.max_value, Le<uint64_t>(UINT64_MAX));
  EXPECT_EQ(*StatsOf(summary, "u8").min_value, Le<int32_t>(3));
  EXPECT_EQ(*StatsOf(summary, "u8").max_value, Le<int32_t>(200));

  const Statistics& f = StatsOf(summary, "f64");
  EXPECT_EQ(*f.min_value, Le<double>(-0.0));
  EXPECT_EQ(*f.max_value, Le<double>(2.5));
  EXPECT_FALSE(StatsOf(summary, "nan32").min_value.has_value());  // NaN never bounds
  EXPECT_EQ(*StatsOf(summary, "nan32").null_count, 0);
  EXPECT_EQ(*StatsOf(summary, "zeros").min_value, Le<float>(-0.0f));
  EXPECT_EQ(*StatsOf(summary, "zeros").max_value, Le<float>(0.0f));

  const Statistics& ss = StatsOf(summary, "s");
  EXPECT_EQ(*ss.min_value, "a");
  EXPECT_EQ(*ss.max_value, long_value);  // byte order, untruncated

  const Statistics& ds = StatsOf(summary, "dec");
  EXPECT_EQ(*ds.min_value, std::string("\xff\xff\x9c", 3));  // -100, 3 big-endian bytes
  EXPECT_EQ(*ds.max_value, std::string("\x00\x00\x03", 3));

  EXPECT_EQ(*StatsOf(summary, "bin").min_value, "\x7f");
  EXPECT_EQ(*StatsOf(summary, "bin").max_value, "\x80");
  EXPECT_EQ(*StatsOf(summary, "bin").null_count, 2);
  EXPECT_EQ(*StatsOf(summary, "ts").min_value, Le<int64_t>(-4000));
  EXPECT_EQ(*StatsOf(summary, "ts").max_value, Le<int64_t>(3000));
  EXPECT_EQ(*StatsOf(summary, "u32").max_value, Le<int64_t>(4000000000));

  // The file's statistics survive the trip through the reader's footer parse.
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  EXPECT_EQ((*reader)->metadata().row_groups[0].columns[6].meta_data->statistics->max_value,
            long_value);
}

TEST(WriterStatisticsTest, NestedListCountsValuesAndNulls) {
  // [[1,2,3],[4],null,[]]: 6 level entries, 2 of them without a value.
  ListBuilder lb(List(F("element", Int32(), 2)));
  lb.Append();
  for (int v : {1, 2, 3}) lb.value_builder<Int32Builder>().Append(v);
  lb.Append();
  lb.value_builder<Int32Builder>().Append(4);
  lb.AppendNull();
  lb.Append();
  auto batch = MakeBatch({F("l", List(F("element", Int32(), 2)), 1)}, {*lb.Finish()});
  std::string bytes;
  WriteSummary summary = Write(batch, &bytes);
  const ColumnMetaData& m = *summary.metadata.row_groups[0].columns[0].meta_data;
  EXPECT_EQ(m.path_in_schema, (std::vector<std::string>{"l", "list", "element"}));
  EXPECT_EQ(m.num_values, 6);
  EXPECT_EQ(*m.statistics->null_count, 2);
  EXPECT_EQ(*m.statistics->min_value, Le<int32_t>(1));
  EXPECT_EQ(*m.statistics->max_value, Le<int32_t>(4));
}

TEST(WriterTest, FooterSizeConventionAndCreatedBy) {
  auto batch = testing::CorpusBatch(50);
  std::string bytes;
  WriteSummary summary = Write(batch, &bytes);
  ASSERT_GE(bytes.size(), 12u);
  EXPECT_EQ(bytes.substr(0, 4), "PAR1");
  EXPECT_EQ(bytes.substr(bytes.size() - 4), "PAR1");
  uint32_t stored;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 4);
  EXPECT_EQ(summary.footer_size, stored);  // excludes the 8-byte suffix
  EXPECT_EQ(summary.file_size, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(*summary.metadata.created_by, "hoglake version " HOGLAKE_VERSION);
  EXPECT_EQ(summary.metadata.num_rows, 50);
  auto parsed = ParseFileMetaData(
      reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8 - stored, stored);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->schema.size(), summary.metadata.schema.size());
  EXPECT_EQ(parsed->column_orders.size(), parsed->row_groups[0].columns.size());
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->footer_size(), summary.footer_size);
  // Every chunk has statistics with a null count.
  for (const ColumnChunk& c : parsed->row_groups[0].columns) {
    ASSERT_TRUE(c.meta_data->statistics.has_value());
    EXPECT_TRUE(c.meta_data->statistics->null_count.has_value());
  }
}

TEST(WriterTest, DictionaryFallsBackToPlainWhenItGrowsTooBig) {
  StringBuilder s;
  for (int i = 0; i < 5000; ++i)
    s.Append("value number " + std::to_string(i * 7919) + std::string(40, 'p'));
  auto batch = MakeBatch({F("s", Utf8(), 1)}, {*s.Finish()});
  WriterOptions options;
  options.dictionary_page_size_limit = 16 << 10;
  options.max_page_rows = 500;
  std::string bytes;
  WriteSummary summary = Write(batch, &bytes, options);
  const auto& encodings = summary.metadata.row_groups[0].columns[0].meta_data->encodings;
  auto has = [&](Encoding e) {
    return std::find(encodings.begin(), encodings.end(), e) != encodings.end();
  };
  EXPECT_TRUE(has(Encoding::kRleDictionary));
  EXPECT_TRUE(has(Encoding::kPlain));
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(reader.ok());
  auto read = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  std::string why;
  EXPECT_TRUE(BatchEquals(batch, *read, &why)) << why;
}

TEST(WriterTest, RowGroupsAreBoundedByRowsAndBytes) {
  auto batch = testing::CorpusBatch(1000, 5);
  WriterOptions by_rows;
  by_rows.max_row_group_rows = 300;
  std::string a;
  EXPECT_EQ(Write(batch, &a, by_rows).metadata.row_groups.size(), 4u);
  WriterOptions by_bytes;
  by_bytes.max_row_group_bytes = 1;  // flush at every check (every 4096 rows)
  std::string b;
  auto big = testing::CorpusBatch(9000, 6);
  WriteSummary s = Write(big, &b, by_bytes);
  EXPECT_EQ(s.metadata.row_groups.size(), 3u);
  EXPECT_EQ(s.metadata.row_groups[0].num_rows, 4096);
}

TEST(WriterTest, RefusesMismatchedBatches) {
  auto batch = testing::CorpusBatch(10);
  std::string out;
  auto other_schema = std::make_shared<Schema>(Schema{{F("x", Int32(), 1)}, {}});
  auto writer = ParquetWriter::OpenBuffer(&out, other_schema);
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->WriteBatch(batch);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
}

TEST(WriterTest, EmptyFileReadsBackWithItsSchema) {
  auto schema = testing::CorpusSchema();
  std::string out;
  auto writer = ParquetWriter::OpenBuffer(&out, schema);
  ASSERT_TRUE(writer.ok());
  auto summary = (*writer)->Close();
  ASSERT_TRUE(summary.ok());
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(out));
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  EXPECT_EQ((*reader)->num_row_groups(), 0);
  EXPECT_EQ((*reader)->schema()->num_fields(), schema->num_fields());
  auto next = (*reader)->Next();
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->has_value());
}

TEST(ReaderTest, ProjectsByNameAndFieldId) {
  auto batch = testing::CorpusBatch(100, 9);
  std::string bytes;
  Write(batch, &bytes);
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->SelectColumns({"st", "i64"}).ok());
  auto read = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  ASSERT_EQ(read->num_columns(), 2);
  EXPECT_EQ(read->schema->fields[0].name, "st");
  std::string why;
  EXPECT_TRUE(ArrayEquals(*batch.columns[27], *read->columns[0], &why)) << why;
  EXPECT_TRUE(ArrayEquals(*batch.columns[4], *read->columns[1], &why)) << why;

  ASSERT_TRUE((*reader)->SelectFieldIds({60, 24}).ok());
  read = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->schema->fields[0].name, "m");
  EXPECT_EQ(read->schema->fields[1].name, "uuid");
  EXPECT_TRUE(ArrayEquals(*batch.columns[28], *read->columns[0], &why)) << why;

  EXPECT_EQ((*reader)->SelectColumns({"nope"}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ((*reader)->SelectFieldIds({999}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE((*reader)->ReadRowGroup(5).ok());
}

TEST(ReaderTest, ReadsFilesFromDisk) {
  auto batch = testing::CorpusBatch(64, 2);
  const std::string path = ::testing::TempDir() + "/hoglake_parquet_disk_test.parquet";
  auto writer = ParquetWriter::OpenFile(path, batch.schema);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  auto summary = (*writer)->Close();
  ASSERT_TRUE(summary.ok());
  auto reader = ParquetReader::OpenFile(path);
  ASSERT_TRUE(reader.ok()) << reader.error().ToString();
  EXPECT_EQ((*reader)->file_size(), summary->file_size);
  auto read = (*reader)->ReadRowGroup(0);
  ASSERT_TRUE(read.ok());
  std::string why;
  EXPECT_TRUE(BatchEquals(testing::ExpectedReadBack(batch), *read, &why)) << why;
  std::remove(path.c_str());
  EXPECT_EQ(ParquetReader::OpenFile(path).error().code, ErrorCode::kIoError);
}

// Nullable flat columns across many small pages, a dictionary that overflows
// mid-chunk and several row groups read back unchanged, with exact stats.
TEST(WriterTest, FlatNullableColumnsAcrossPagesDictionaryFallbackAndRowGroups) {
  Int64Builder ids;
  Float64Builder values;
  StringBuilder names;
  int64_t min_id = INT64_MAX, max_id = INT64_MIN, nulls = 0;
  for (int i = 0; i < 1000; ++i) {
    if (i % 7 == 3) {
      ids.AppendNull();
      values.AppendNull();
      names.AppendNull();
      ++nulls;
      continue;
    }
    const int64_t id = (i * 7919) % 1300 - 600;
    min_id = std::min(min_id, id);
    max_id = std::max(max_id, id);
    ids.Append(id);
    values.Append(i % 5 == 0 ? -0.0 : i / 3.0);
    names.Append("name " + std::to_string(i % 400));
  }
  auto batch = MakeBatch({F("id", Int64(), 1), F("v", Float64(), 2), F("s", Utf8(), 3)},
                         {*ids.Finish(), *values.Finish(), *names.Finish()});
  WriterOptions options;
  options.max_page_rows = 37;
  options.data_page_size = 300;
  options.dictionary_page_size_limit = 2000;
  options.max_row_group_rows = 1000;
  std::string bytes;
  auto writer = ParquetWriter::OpenBuffer(&bytes, batch.schema, options);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  auto summary = (*writer)->Close();
  ASSERT_TRUE(summary.ok());
  ASSERT_EQ(summary->metadata.row_groups.size(), 2u);
  for (const RowGroup& group : summary->metadata.row_groups) {
    const ColumnMetaData& id = *group.columns[0].meta_data;
    EXPECT_EQ(id.statistics->null_count, nulls);
    EXPECT_EQ(id.statistics->min_value, Le(min_id));
    EXPECT_EQ(id.statistics->max_value, Le(max_id));
    const auto& e = id.encodings;
    EXPECT_NE(std::find(e.begin(), e.end(), Encoding::kRleDictionary), e.end());
    EXPECT_NE(std::find(e.begin(), e.end(), Encoding::kPlain), e.end());
    EXPECT_EQ(group.columns[1].meta_data->statistics->min_value, Le(-0.0));
  }
  auto reader = ParquetReader::OpenBuffer(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(reader.ok());
  for (int g = 0; g < 2; ++g) {
    auto read = (*reader)->ReadRowGroup(g);
    ASSERT_TRUE(read.ok()) << read.error().ToString();
    std::string why;
    EXPECT_TRUE(BatchEquals(batch, *read, &why)) << why;
  }
}

}  // namespace
}  // namespace hoglake::parquet
