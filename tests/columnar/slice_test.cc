// Slices share their source's buffers and read as its rows
// [offset, offset + length): rendered values, null counts, validation,
// taking rows from a slice, a slice of a slice, and an IPC round trip.
#include "columnar/slice.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "columnar/builder.h"
#include "columnar/compare.h"
#include "columnar/ipc/ipc_reader.h"
#include "columnar/ipc/ipc_writer.h"
#include "columnar/json_rows.h"
#include "columnar/take.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

std::string Row(const ArrayData& array, int64_t i) {
  std::string out;
  AppendJsonValue(array, i, &out);
  return out;
}

RecordBatch SampleBatch() {
  Int64Builder ints;
  StringBuilder strings;
  ListBuilder lists(List(Int64()));
  auto struct_type = Struct({Field{"a", Utf8(), true, {}}, Field{"b", Int32(), true, {}}});
  StructBuilder structs(struct_type);
  for (int i = 0; i < 100; ++i) {
    if (i % 7 == 2) {
      ints.AppendNull();
      strings.AppendNull();
      lists.AppendNull();
      structs.AppendNull();
      continue;
    }
    ints.Append(i * 3);
    strings.Append(std::string(static_cast<size_t>(i % 9), static_cast<char>('a' + i % 26)));
    lists.Append();
    for (int j = 0; j < i % 4; ++j) lists.value_builder<Int64Builder>().Append(i * 10 + j);
    structs.Append();
    if (i % 5 == 0) {
      structs.child<StringBuilder>(0).AppendNull();
    } else {
      structs.child<StringBuilder>(0).Append("s" + std::to_string(i));
    }
    structs.child<Int32Builder>(1).Append(-i);
  }
  std::vector<ArrayPtr> columns;
  for (ArrayBuilder* b : std::vector<ArrayBuilder*>{&ints, &strings, &lists, &structs}) {
    columns.push_back(*b->Finish());
  }
  auto schema = std::make_shared<Schema>();
  for (size_t c = 0; c < columns.size(); ++c) {
    schema->fields.push_back(Field{"c" + std::to_string(c), columns[c]->type, true, {}});
  }
  return *MakeRecordBatch(schema, columns);
}

void ExpectRowsOf(const RecordBatch& slice, const RecordBatch& source, int64_t offset) {
  ASSERT_TRUE(ValidateBatch(slice).ok()) << ValidateBatch(slice).ToString();
  for (int c = 0; c < slice.num_columns(); ++c) {
    int64_t nulls = 0;
    for (int64_t i = 0; i < slice.num_rows; ++i) {
      EXPECT_EQ(Row(*slice.columns[c], i), Row(*source.columns[c], offset + i))
          << "column " << c << " row " << i;
      nulls += source.columns[c]->IsNull(offset + i) ? 1 : 0;
    }
    EXPECT_EQ(slice.columns[c]->null_count, nulls) << "column " << c;
  }
}

TEST(SliceTest, ASliceReadsAsItsWindowOfTheSource) {
  const RecordBatch batch = SampleBatch();
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 100}, {0, 0}, {3, 17}, {50, 50}, {99, 1}, {100, 0}, {9, 64}}) {
    SCOPED_TRACE(std::to_string(offset) + "+" + std::to_string(length));
    auto slice = SliceBatch(batch, offset, length);
    ASSERT_TRUE(slice.ok()) << slice.error().ToString();
    EXPECT_EQ(slice->num_rows, length);
    ExpectRowsOf(*slice, batch, offset);
    // Shared, not copied.
    EXPECT_EQ(slice->columns[0]->buffers[1], batch.columns[0]->buffers[1]);
  }
}

TEST(SliceTest, SlicesOfSlicesAndTakesFromSlices) {
  const RecordBatch batch = SampleBatch();
  auto outer = SliceBatch(batch, 10, 80);
  ASSERT_TRUE(outer.ok());
  auto inner = SliceBatch(*outer, 5, 30);
  ASSERT_TRUE(inner.ok());
  ExpectRowsOf(*inner, batch, 15);
  for (int c = 0; c < inner->num_columns(); ++c) {
    const std::vector<int64_t> rows = {29, 0, 4};
    auto taken = TakeRows(*inner->columns[c], rows);
    ASSERT_TRUE(taken.ok());
    EXPECT_EQ(Row(**taken, 0), Row(*batch.columns[c], 44));
    EXPECT_EQ(Row(**taken, 1), Row(*batch.columns[c], 15));
    EXPECT_EQ(Row(**taken, 2), Row(*batch.columns[c], 19));
  }
}

TEST(SliceTest, ASlicedBatchRoundTripsThroughIpc) {
  const RecordBatch batch = SampleBatch();
  auto slice = SliceBatch(batch, 13, 41);
  ASSERT_TRUE(slice.ok());
  std::string bytes;
  IpcStreamWriter writer(&bytes);
  ASSERT_TRUE(writer.Start(*batch.schema).ok());
  ASSERT_TRUE(writer.WriteBatch(*slice).ok());
  ASSERT_TRUE(writer.Close().ok());
  IpcStreamReader reader(Buffer::CopyOf(bytes.data(), bytes.size()));
  ASSERT_TRUE(reader.ReadSchema().ok());
  auto read = reader.Next();
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  ASSERT_TRUE(read->has_value());
  ExpectRowsOf(**read, batch, 13);
  std::string why;
  EXPECT_TRUE(BatchEquals(**read, *slice, &why)) << why;
}

TEST(SliceTest, WindowsOutsideTheRowsAreRefused) {
  const RecordBatch batch = SampleBatch();
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {-1, 5}, {0, 101}, {101, 0}, {90, 11}, {5, -1}, {INT64_MAX, 2}}) {
    auto slice = SliceBatch(batch, offset, length);
    ASSERT_FALSE(slice.ok()) << offset << "+" << length;
    EXPECT_EQ(slice.error().code, ErrorCode::kInvalidArgument);
    EXPECT_FALSE(Slice(batch.columns[0], offset, length).ok());
  }
  EXPECT_FALSE(Slice(nullptr, 0, 0).ok());
}

}  // namespace
}  // namespace hoglake::columnar
