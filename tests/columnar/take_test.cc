#include "columnar/take.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "columnar/builder.h"
#include "columnar/json_rows.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

std::string Row(const ArrayData& array, int64_t i) {
  std::string out;
  AppendJsonValue(array, i, &out);
  return out;
}

// Taking `rows` must give exactly the rendered source rows, in that order.
void ExpectTakes(const ArrayPtr& array, const std::vector<int64_t>& rows) {
  auto taken = TakeRows(*array, rows);
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  ASSERT_TRUE(Validate(**taken).ok()) << Validate(**taken).ToString();
  ASSERT_EQ((*taken)->length, static_cast<int64_t>(rows.size()));
  int64_t nulls = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(Row(**taken, static_cast<int64_t>(i)), Row(*array, rows[i])) << "row " << i;
    nulls += array->IsNull(rows[i]) ? 1 : 0;
  }
  EXPECT_EQ((*taken)->null_count, nulls);
}

TEST(TakeTest, Scalars) {
  Int64Builder ints;
  BooleanBuilder bools;
  StringBuilder strings;
  Decimal128Builder decimals(Decimal128(10, 2));
  FixedSizeBinaryBuilder uuids(FixedSizeBinary(16));
  for (int i = 0; i < 20; ++i) {
    if (i % 5 == 3) {
      ints.AppendNull();
      bools.AppendNull();
      strings.AppendNull();
      decimals.AppendNull();
      uuids.AppendNull();
      continue;
    }
    ints.Append(i * 1000);
    bools.Append(i % 2 == 0);
    strings.Append(std::string(static_cast<size_t>(i), 'x'));
    decimals.Append(i * -137);
    ASSERT_TRUE(uuids.Append(std::string(16, static_cast<char>('a' + i))).ok());
  }
  const std::vector<int64_t> rows = {19, 0, 3, 3, 7, 8, 12};
  for (ArrayBuilder* b : std::vector<ArrayBuilder*>{&ints, &bools, &strings, &decimals, &uuids}) {
    auto array = b->Finish();
    ASSERT_TRUE(array.ok());
    ExpectTakes(*array, rows);
    ExpectTakes(*array, {});
  }
}

TEST(TakeTest, NestedListStructMap) {
  auto list_type = List(Int64());
  ListBuilder lists(list_type);
  auto struct_type = Struct({Field{"a", Utf8(), true, {}}, Field{"b", Int32(), true, {}}});
  StructBuilder structs(struct_type);
  MapBuilder maps(Map(Utf8(), Int64()));
  for (int i = 0; i < 12; ++i) {
    if (i % 4 == 1) {
      lists.AppendNull();
      structs.AppendNull();
      maps.AppendNull();
      continue;
    }
    lists.Append();
    for (int j = 0; j < i % 3; ++j) lists.value_builder<Int64Builder>().Append(i * 10 + j);
    structs.Append();
    structs.child<StringBuilder>(0).Append("s" + std::to_string(i));
    if (i % 3 == 0) {
      structs.child<Int32Builder>(1).AppendNull();
    } else {
      structs.child<Int32Builder>(1).Append(i);
    }
    maps.Append();
    for (int j = 0; j < i % 2 + 1; ++j) {
      maps.key_builder<StringBuilder>().Append("k" + std::to_string(j));
      maps.item_builder<Int64Builder>().Append(i - j);
    }
  }
  const std::vector<int64_t> rows = {11, 1, 2, 2, 0, 5, 9};
  for (ArrayBuilder* b : std::vector<ArrayBuilder*>{&lists, &structs, &maps}) {
    auto array = b->Finish();
    ASSERT_TRUE(array.ok());
    ExpectTakes(*array, rows);
  }
}

TEST(TakeTest, RespectsOffsetAndRefusesOutOfRange) {
  Int32Builder ints;
  for (int i = 0; i < 10; ++i) i == 6 ? ints.AppendNull() : ints.Append(i);
  auto whole = ints.Finish();
  ASSERT_TRUE(whole.ok());
  auto sliced = std::make_shared<ArrayData>(**whole);
  sliced->offset = 4;
  sliced->length = 5;
  ExpectTakes(sliced, {0, 2, 4});  // 4, null, 8
  EXPECT_EQ(Row(**TakeRows(*sliced, std::vector<int64_t>{0}), 0), "4");
  EXPECT_FALSE(TakeRows(*sliced, std::vector<int64_t>{5}).ok());
  EXPECT_FALSE(TakeRows(*sliced, std::vector<int64_t>{-1}).ok());
}

}  // namespace
}  // namespace hoglake::columnar
