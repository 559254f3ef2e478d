// Results written to a local results store and rendered back in each format.
#include "query/result_format.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>

#include <filesystem>
#include <optional>
#include <tuple>

#include "columnar/builder.h"
#include "columnar/ipc/ipc_reader.h"

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
