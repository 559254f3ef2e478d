#include "columnar/builder.h"

#include <gtest/gtest.h>

#include "columnar/compare.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

ArrayPtr MustFinish(ArrayBuilder& builder) {
  auto result = builder.Finish();
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(Validate(**result).ok()) << Validate(**result).ToString();
  return *result;
}

TEST(BuilderTest, Int64WithNulls) {
  Int64Builder b;
  b.Append(1);
  b.AppendNull();
  b.Append(-3);
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->length, 3);
  EXPECT_EQ(a->null_count, 1);
  EXPECT_FALSE(a->IsNull(0));
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->values<int64_t>()[2], -3);
}

TEST(BuilderTest, NoNullsMeansNoValidityBitmap) {
  Int32Builder b;
  for (int i = 0; i < 100; ++i) b.Append(i);
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->buffers[0], nullptr);
  EXPECT_EQ(a->null_count, 0);
}

TEST(BuilderTest, LateNullBackfillsValidity) {
  BooleanBuilder b;
  for (int i = 0; i < 70; ++i) b.Append(i % 3 == 0);
  b.AppendNull();
  ArrayPtr a = MustFinish(b);
  ASSERT_NE(a->buffers[0], nullptr);
  for (int i = 0; i < 70; ++i) {
    EXPECT_TRUE(a->IsValid(i));
    EXPECT_EQ(a->GetBool(i), i % 3 == 0);
  }
  EXPECT_TRUE(a->IsNull(70));
}

TEST(BuilderTest, StringsAndBinary) {
  StringBuilder b;
  b.Append("héllo");
  b.AppendNull();
  b.Append("");
  b.Append("world");
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->GetView(0), "héllo");
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->GetView(2), "");
  EXPECT_EQ(a->GetView(3), "world");
}

TEST(BuilderTest, FixedSizeBinaryRefusesWrongWidth) {
  FixedSizeBinaryBuilder b(FixedSizeBinary(16));
  EXPECT_TRUE(b.Append(std::string(16, 'x')).ok());
  Status s = b.Append("short");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  b.AppendNull();
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->length, 2);
}

TEST(BuilderTest, Decimal128StoresUnscaledLittleEndian) {
  Decimal128Builder b(Decimal128(38, 2));
  b.Append(-12345);
  __int128 big = static_cast<__int128>(1) << 100;
  b.Append(big);
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->values<__int128>()[0], -12345);
  EXPECT_EQ(a->values<__int128>()[1], big);
}

TEST(BuilderTest, ListOfStringsWithNullListAndNullElement) {
  ListBuilder b(List(Utf8()));
  auto& values = b.value_builder<BinaryBuilder>();
  b.Append();
  values.Append("a");
  values.AppendNull();
  b.AppendNull();
  b.Append();  // empty list
  b.Append();
  values.Append("z");
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->length, 4);
  EXPECT_EQ(a->null_count, 1);
  const int32_t* offsets = a->offsets();
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 2);
  EXPECT_EQ(offsets[2], 2);
  EXPECT_EQ(offsets[3], 2);
  EXPECT_EQ(offsets[4], 3);
  EXPECT_EQ(a->children[0]->GetView(2), "z");
}

TEST(BuilderTest, NonNullableListElementRefusesNull) {
  ListBuilder b(List(Int32(), /*element_nullable=*/false));
  b.Append();
  b.value_builder().AppendNull();
  auto result = b.Finish();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("not nullable"), std::string::npos);
}

TEST(BuilderTest, StructChildrenMustLineUp) {
  StructBuilder b(Struct({{"x", Int32(), true, {}}, {"y", Utf8(), true, {}}}));
  b.Append();
  b.child<Int32Builder>(0).Append(1);
  auto result = b.Finish();  // y has no value for row 0
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("'y'"), std::string::npos);
}

TEST(BuilderTest, StructNullRowFillsChildren) {
  StructBuilder b(Struct({{"x", Int32(), false, {}}}));
  b.Append();
  b.child<Int32Builder>(0).Append(5);
  b.AppendNull();
  ArrayPtr a = MustFinish(b);
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->children[0]->length, 2);
}

TEST(BuilderTest, MapOfStringToLong) {
  MapBuilder b(Map(Utf8(), Int64()));
  b.Append();
  b.key_builder<BinaryBuilder>().Append("k1");
  b.item_builder<Int64Builder>().Append(10);
  b.key_builder<BinaryBuilder>().Append("k2");
  b.item_builder<Int64Builder>().AppendNull();
  b.AppendNull();
  ArrayPtr a = MustFinish(b);
  EXPECT_EQ(a->length, 2);
  const ArrayData& entries = *a->children[0];
  EXPECT_EQ(entries.length, 2);
  EXPECT_EQ(entries.children[0]->GetView(1), "k2");
  EXPECT_TRUE(entries.children[1]->IsNull(1));
}

TEST(BuilderTest, MapRefusesNullKey) {
  MapBuilder b(Map(Utf8(), Int64()));
  b.Append();
  b.key_builder().AppendNull();
  b.item_builder<Int64Builder>().Append(1);
  EXPECT_FALSE(b.Finish().ok());
}

TEST(BuilderTest, BuilderIsReusableAfterFinish) {
  StringBuilder b;
  b.Append("one");
  ArrayPtr first = MustFinish(b);
  b.Append("two");
  b.AppendNull();
  ArrayPtr second = MustFinish(b);
  EXPECT_EQ(first->length, 1);
  EXPECT_EQ(second->length, 2);
  EXPECT_EQ(second->GetView(0), "two");
}

TEST(CompareTest, SlicedEqualsUnsliced) {
  Int32Builder b;
  for (int i = 0; i < 10; ++i) b.Append(i);
  ArrayPtr a = MustFinish(b);
  auto sliced = std::make_shared<ArrayData>(*a);
  sliced->offset = 3;
  sliced->length = 4;
  Int32Builder c;
  for (int i = 3; i < 7; ++i) c.Append(i);
  ArrayPtr expected = MustFinish(c);
  std::string why;
  EXPECT_TRUE(ArrayEquals(*sliced, *expected, &why)) << why;
  c.Append(3);
  EXPECT_FALSE(ArrayEquals(*sliced, **c.Finish(), &why));
}

TEST(CompareTest, ReportsNestedDifference) {
  auto build = [](std::string_view last) {
    ListBuilder b(List(Utf8()));
    b.Append();
    b.value_builder<BinaryBuilder>().Append("a");
    b.value_builder<BinaryBuilder>().Append(last);
    return *b.Finish();
  };
  std::string why;
  EXPECT_FALSE(ArrayEquals(*build("b"), *build("c"), &why));
  EXPECT_NE(why.find("element[0]"), std::string::npos) << why;
  EXPECT_NE(why.find("\"b\" vs \"c\""), std::string::npos) << why;
}

}  // namespace
}  // namespace hoglake::columnar
