// Results written to a local results store and rendered back in each format.
#include "query/result_format.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstring>

#include <filesystem>
#include <optional>
#include <tuple>

#include "columnar/builder.h"
#include "columnar/ipc/ipc_reader.h"
#include "query/result_arrow.h"
#include "sql/function/builtins.h"

namespace hoglake::query {
namespace {

class ResultFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / ("results-" + std::to_string(getpid()));
    auto store = ResultStore::Open("file://" + dir_.string());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = {{"n", columnar::Int64(), true, {}},
                      {"x", columnar::Float64(), true, {}},
                      {"s", columnar::Utf8(), true, {}}};
    auto writer = store_->Create("rsltformat", schema);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int part = 0; part < 2; ++part) {
      columnar::Int64Builder n;
      columnar::Float64Builder x;
      columnar::StringBuilder s;
      for (int i = 0; i < 3; ++i) {
        const int row = part * 3 + i;
        n.Append(row);
        if (row == 4) {
          x.AppendNull();
        } else {
          x.Append(row == 5 ? std::nan("") : row + 0.5);
        }
        s.Append(row == 1 ? "a,\"b\"" : "r" + std::to_string(row));
      }
      auto batch = columnar::MakeRecordBatch(schema, {*n.Finish(), *x.Finish(), *s.Finish()});
      ASSERT_TRUE(batch.ok());
      ASSERT_TRUE((*writer)->Write(*batch).ok());
    }
    auto written = (*writer)->Finish();
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    EXPECT_EQ(written->rows, 6);
    path_ = written->path;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Render(ResultFormat format, int64_t offset, std::optional<int64_t> limit,
                     int64_t* rows = nullptr) {
    auto reader = store_->OpenReader(path_);
    EXPECT_TRUE(reader.ok());
    auto rendered = RenderResult(std::move(*reader), columns_, "rsltformat", format, offset, limit);
    EXPECT_TRUE(rendered.ok()) << rendered.status().ToString();
    std::string body;
    for (const std::string& s : rendered->segments) body += s;
    if (rows) *rows = rendered->rows;
    return body;
  }

  std::filesystem::path dir_;
  std::unique_ptr<ResultStore> store_;
  std::string path_;
  std::vector<ResultColumnSpec> columns_ = {
      {"n", "bigint"}, {"x", "double precision"}, {"s", "text"}};
};

TEST_F(ResultFormatTest, CsvQuotesAndEmptiesNullAndNan) {
  EXPECT_EQ(Render(ResultFormat::kCsv, 0, std::nullopt),
            "n,x,s\n0,0.5,r0\n1,1.5,\"a,\"\"b\"\"\"\n2,2.5,r2\n3,3.5,r3\n4,,r4\n5,,r5\n");
}

TEST_F(ResultFormatTest, JsonRowsWithNullsForNanAndSlicesAcrossBatches) {
  int64_t rows = 0;
  const std::string body = Render(ResultFormat::kJson, 2, 3, &rows);
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(body,
            "{\"result_id\":\"rsltformat\",\"status\":\"ready\",\"columns\":[\"n\",\"x\",\"s\"],"
            "\"rows\":[[2,2.5,\"r2\"],[3,3.5,\"r3\"],[4,null,\"r4\"]],\"nullable\":[true,true,"
            "true],\"row_count\":3}");
}

TEST_F(ResultFormatTest, MarkdownEscapesPipes) {
  EXPECT_EQ(Render(ResultFormat::kMarkdown, 5, 10),
            "| n | x | s |\n| --- | --- | --- |\n| 5 |  | r5 |\n");
}

TEST_F(ResultFormatTest, ArrowIsAStreamWithRawFloats) {
  const std::string body = Render(ResultFormat::kArrow, 1, 4);
  auto stream = columnar::ReadIpcStream(body);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  int64_t rows = 0;
  for (const auto& b : stream->second) rows += b.num_rows;
  EXPECT_EQ(rows, 4);
  EXPECT_EQ(stream->first->fields[2].name, "s");
}

// List and struct columns survive the stored Parquet result and render as
// JSON arrays and objects, PostgreSQL text in CSV, and nested Arrow.
TEST_F(ResultFormatTest, NestedColumnsRenderInEveryFormat) {
  auto schema = std::make_shared<columnar::Schema>();
  auto list_type = columnar::List(columnar::Int64());
  auto struct_type = columnar::Struct({columnar::Field{"a", columnar::Int32(), true, {}},
                                       columnar::Field{"b", columnar::Utf8(), true, {}}});
  schema->fields = {{"l", list_type, true, {}}, {"s", struct_type, true, {}}};
  auto writer = store_->Create("rsltnested", schema);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  columnar::ListBuilder l(list_type);
  columnar::StructBuilder s(struct_type);
  l.Append();
  l.value_builder<columnar::Int64Builder>().Append(1);
  l.value_builder<columnar::Int64Builder>().AppendNull();
  s.Append();
  s.child<columnar::Int32Builder>(0).Append(7);
  s.child<columnar::BinaryBuilder>(1).Append("x y");
  l.AppendNull();
  s.AppendNull();
  l.Append();
  s.Append();
  s.child<columnar::Int32Builder>(0).AppendNull();
  s.child<columnar::BinaryBuilder>(1).Append("q");
  auto batch = columnar::MakeRecordBatch(schema, {*l.Finish(), *s.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  auto written = (*writer)->Finish();
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const std::vector<ResultColumnSpec> columns = {{"l", "bigint[]"}, {"s", "record(a integer, b text)"}};
  auto render = [&](ResultFormat format) {
    auto reader = store_->OpenReader(written->path);
    EXPECT_TRUE(reader.ok());
    auto rendered = RenderResult(std::move(*reader), columns, "rsltnested", format, 0, std::nullopt);
    EXPECT_TRUE(rendered.ok()) << rendered.status().ToString();
    std::string body;
    for (const std::string& segment : rendered->segments) body += segment;
    return body;
  };
  EXPECT_EQ(render(ResultFormat::kJson),
            "{\"result_id\":\"rsltnested\",\"status\":\"ready\",\"columns\":[\"l\",\"s\"],"
            "\"rows\":[[[1,null],{\"a\":7,\"b\":\"x y\"}],[null,null],[[],{\"a\":null,\"b\":\"q\"}]],"
            "\"nullable\":[true,true],\"row_count\":3}");
  EXPECT_EQ(render(ResultFormat::kCsv), "l,s\n\"{1,NULL}\",\"(7,\"\"x y\"\")\"\n,\n{},\"(,q)\"\n");
  auto stream = columnar::ReadIpcStream(render(ResultFormat::kArrow));
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  EXPECT_EQ(stream->first->fields[0].type->id, columnar::TypeId::kList);
  EXPECT_EQ(stream->first->fields[1].type->id, columnar::TypeId::kStruct);
  ASSERT_EQ(stream->second.size(), 1u);
  EXPECT_EQ(stream->second[0].num_rows, 3);
}

// A result of several slices renders piece by piece, one slice of rows
// per piece (the head with the first, the end marker after the last),
// and the pieces joined are one exact stream, offset and limit honoured.
TEST_F(ResultFormatTest, RendererYieldsOneSliceAPiece) {
  constexpr int64_t kRows = ResultRenderer::kSliceRows * 2 + 1000;
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"n", columnar::Int64(), false, {}}};
  auto writer = store_->Create("rsltmany", schema);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  columnar::Int64Builder n;
  for (int64_t i = 0; i < kRows; ++i) n.Append(i);
  auto batch = columnar::MakeRecordBatch(schema, {*n.Finish()});
  ASSERT_TRUE(batch.ok());
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  auto written = (*writer)->Finish();
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  for (const auto& [offset, limit, pieces] :
       {std::tuple<int64_t, std::optional<int64_t>, int>{0, std::nullopt, 4},
        {10, ResultRenderer::kSliceRows + 5, 3}}) {
    auto reader = store_->OpenReader(written->path);
    ASSERT_TRUE(reader.ok());
    auto renderer = ResultRenderer::Open(std::move(*reader), {{"n", "bigint"}}, "rsltmany",
                                         ResultFormat::kArrow, offset, limit);
    ASSERT_TRUE(renderer.ok()) << renderer.status().ToString();
    std::string body, piece;
    int count = 0;
    while (true) {
      auto more = (*renderer)->Next(&piece);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      body += piece;
      ++count;
    }
    EXPECT_EQ(count, pieces);
    const int64_t expected = limit.value_or(kRows - offset);
    EXPECT_EQ((*renderer)->rows(), expected);
    auto stream = columnar::ReadIpcStream(body);
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    int64_t next = offset;
    for (const auto& b : stream->second) {
      EXPECT_LE(b.num_rows, ResultRenderer::kSliceRows);
      const int64_t* values = b.columns[0]->values<int64_t>();
      for (int64_t r = 0; r < b.num_rows; ++r) ASSERT_EQ(values[r], next++);
    }
    EXPECT_EQ(next, offset + expected);
  }
}

// Interval and uuid share the engine's fixed_size_binary(16) carrier; the
// Arrow stream tells them apart: interval[month_day_nano] with nanoseconds,
// and fixed_size_binary(16) marked arrow.uuid, top level and in a list. The
// stream decodes back to the carrier and the SQL types.
TEST_F(ResultFormatTest, ArrowIntervalsAndUuidsAreDistinctTypes) {
  auto schema = std::make_shared<columnar::Schema>();
  auto list_type = columnar::List(columnar::FixedSizeBinary(16));
  schema->fields = {{"iv", columnar::FixedSizeBinary(16), true, {}},
                    {"u", columnar::FixedSizeBinary(16), true, {}},
                    {"ivs", list_type, true, {}}};
  auto writer = store_->Create("rsltinterval", schema);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  const std::string uuid_bytes = "\xa0\xee\xbc\x99\x9c\x0b\x4e\xf8\xbb\x6d\x6b\xb9\xbd\x38\x0a\x11";
  columnar::FixedSizeBinaryBuilder iv(columnar::FixedSizeBinary(16));
  columnar::FixedSizeBinaryBuilder u(columnar::FixedSizeBinary(16));
  columnar::ListBuilder ivs(list_type);
  ASSERT_TRUE(iv.Append(sql::IntervalBytes(14, 3, 14706789012)).ok());
  ASSERT_TRUE(u.Append(uuid_bytes).ok());
  ivs.Append();
  ASSERT_TRUE(ivs.value_builder<columnar::FixedSizeBinaryBuilder>()
                  .Append(sql::IntervalBytes(0, -7, -1))
                  .ok());
  ivs.value_builder<columnar::FixedSizeBinaryBuilder>().AppendNull();
  iv.AppendNull();
  u.AppendNull();
  ivs.AppendNull();
  auto batch = columnar::MakeRecordBatch(schema, {*iv.Finish(), *u.Finish(), *ivs.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  auto written = (*writer)->Finish();
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto reader = store_->OpenReader(written->path);
  ASSERT_TRUE(reader.ok());
  auto rendered =
      RenderResult(std::move(*reader), {{"iv", "interval"}, {"u", "uuid"}, {"ivs", "interval[]"}},
                   "rsltinterval", ResultFormat::kArrow, 0, std::nullopt);
  ASSERT_TRUE(rendered.ok()) << rendered.status().ToString();
  std::string body;
  for (const std::string& segment : rendered->segments) body += segment;

  auto stream = columnar::ReadIpcStream(body);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  const columnar::Schema& arrow = *stream->first;
  EXPECT_EQ(arrow.fields[0].type->id, columnar::TypeId::kIntervalMonthDayNano);
  EXPECT_EQ(arrow.fields[0].type->ToString(), "month_day_nano_interval");
  EXPECT_EQ(arrow.fields[1].type->id, columnar::TypeId::kFixedSizeBinary);
  EXPECT_EQ(arrow.fields[1].Metadata(columnar::kExtensionNameKey), "arrow.uuid");
  EXPECT_EQ(arrow.fields[1].Metadata(columnar::kExtensionMetadataKey), "");
  EXPECT_EQ(arrow.fields[0].Metadata(columnar::kExtensionNameKey), std::nullopt);
  EXPECT_EQ(arrow.fields[2].type->list_element().type->id, columnar::TypeId::kIntervalMonthDayNano);
  ASSERT_EQ(stream->second.size(), 1u);
  const columnar::RecordBatch& got = stream->second[0];
  ASSERT_EQ(got.num_rows, 2);
  auto month_day_nano = [](std::string_view bytes) {
    int32_t months, days;
    int64_t nanos;
    std::memcpy(&months, bytes.data(), 4);
    std::memcpy(&days, bytes.data() + 4, 4);
    std::memcpy(&nanos, bytes.data() + 8, 8);
    return std::tuple<int32_t, int32_t, int64_t>{months, days, nanos};
  };
  EXPECT_EQ(month_day_nano(got.columns[0]->GetView(0)),
            (std::tuple<int32_t, int32_t, int64_t>{14, 3, 14706789012000}));
  EXPECT_TRUE(got.columns[0]->IsNull(1));
  EXPECT_EQ(got.columns[1]->GetView(0), uuid_bytes);
  EXPECT_TRUE(got.columns[1]->IsNull(1));
  const columnar::ArrayData& elements = *got.columns[2]->children[0];
  EXPECT_EQ(month_day_nano(elements.GetView(0)),
            (std::tuple<int32_t, int32_t, int64_t>{0, -7, -1000}));
  EXPECT_TRUE(elements.IsNull(1));
  EXPECT_TRUE(got.columns[2]->IsNull(1));

  // Back to the carrier: the stored bytes and the SQL types.
  auto carrier = std::make_shared<columnar::Schema>();
  std::vector<std::string> type_names;
  for (const columnar::Field& field : arrow.fields) {
    carrier->fields.push_back(CarrierResultField(field));
    auto type = ArrowResultSqlType(field);
    ASSERT_TRUE(type.ok()) << type.status().ToString();
    type_names.push_back(sql::PgTypeName(*type));
  }
  EXPECT_EQ(type_names, (std::vector<std::string>{"interval", "uuid", "interval[]"}));
  auto back = RetypeBatch(got, carrier);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->columns[0]->GetView(0), sql::IntervalBytes(14, 3, 14706789012));
  EXPECT_EQ(back->columns[2]->children[0]->GetView(0), sql::IntervalBytes(0, -7, -1));
}

// Microseconds whose nanoseconds overflow int64, and nanoseconds that are
// not whole microseconds, are errors rather than wrapped or rounded values.
TEST_F(ResultFormatTest, IntervalsBeyondArrowsRangeAreErrors) {
  columnar::FixedSizeBinaryBuilder huge(columnar::FixedSizeBinary(16));
  ASSERT_TRUE(huge.Append(sql::IntervalBytes(0, 0, INT64_MAX / 100)).ok());
  auto to_arrow = RetypeArray(*huge.Finish(), columnar::IntervalMonthDayNano());
  ASSERT_FALSE(to_arrow.ok());
  EXPECT_EQ(to_arrow.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(to_arrow.error().message.find("out of range"), std::string::npos);

  columnar::FixedSizeBinaryBuilder nanos(columnar::IntervalMonthDayNano());
  ASSERT_TRUE(nanos.Append(sql::IntervalBytes(0, 0, 1500)).ok());  // 1500 ns
  auto to_carrier = RetypeArray(*nanos.Finish(), columnar::FixedSizeBinary(16));
  ASSERT_FALSE(to_carrier.ok());
  EXPECT_NE(to_carrier.error().message.find("not whole microseconds"), std::string::npos);
}

TEST_F(ResultFormatTest, NothingAppearsUntilFinish) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"n", columnar::Int64(), true, {}}};
  {
    auto writer = store_->Create("rsltabandoned", schema);
    ASSERT_TRUE(writer.ok());
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "rsltabandoned.parquet"));
}

}  // namespace
}  // namespace hoglake::query
