#include "columnar/json_rows.h"

#include <gtest/gtest.h>

#include "columnar/builder.h"

namespace hoglake::columnar {
namespace {

std::string Render(ArrayBuilder& builder) {
  auto array = builder.Finish();
  EXPECT_TRUE(array.ok());
  std::string out;
  for (int64_t i = 0; i < (*array)->length; ++i) {
    if (i) out += " ";
    AppendJsonValue(**array, i, &out);
  }
  return out;
}

TEST(JsonRowsTest, Scalars) {
  UInt64Builder u;
  u.Append(18446744073709551615ull);
  u.AppendNull();
  EXPECT_EQ(Render(u), "18446744073709551615 null");

  Decimal128Builder d(Decimal128(10, 2));
  d.Append(-5);
  d.Append(150);
  d.Append(0);
  EXPECT_EQ(Render(d), "\"-0.05\" \"1.50\" \"0.00\"");

  TimestampBuilder ts(Timestamp(TimeUnit::kMilli, "UTC"));
  ts.Append(1000);
  EXPECT_EQ(Render(ts), "\"1970-01-01T00:00:01.000Z\"");

  BinaryBuilder bin(Binary());
  bin.Append("foo");
  EXPECT_EQ(Render(bin), "\"Zm9v\"");
}

TEST(JsonRowsTest, NestedRowsAsJsonLines) {
  auto schema = std::make_shared<Schema>(Schema{
      {
          {"id", Int64(), false, {}},
          {"tags", List(Utf8()), true, {}},
          {"props", Map(Utf8(), Int64()), true, {}},
          {"addr", Struct({{"city", Utf8(), true, {}}, {"zip", Int32(), true, {}}}), true, {}},
      },
      {}});
  Int64Builder id;
  ListBuilder tags(schema->fields[1].type);
  MapBuilder props(schema->fields[2].type);
  StructBuilder addr(schema->fields[3].type);
  id.Append(1);
  tags.Append();
  tags.value_builder<BinaryBuilder>().Append("a");
  tags.value_builder<BinaryBuilder>().AppendNull();
  props.Append();
  props.key_builder<BinaryBuilder>().Append("k");
  props.item_builder<Int64Builder>().Append(7);
  addr.Append();
  addr.child<BinaryBuilder>(0).Append("Oslo");
  addr.child<Int32Builder>(1).AppendNull();
  id.Append(2);
  tags.AppendNull();
  props.Append();
  addr.AppendNull();
  auto batch =
      MakeRecordBatch(schema, {*id.Finish(), *tags.Finish(), *props.Finish(), *addr.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  std::string out;
  AppendJsonLines(*batch, &out);
  EXPECT_EQ(out,
            "{\"id\":1,\"tags\":[\"a\",null],\"props\":[{\"key\":\"k\",\"value\":7}],"
            "\"addr\":{\"city\":\"Oslo\",\"zip\":null}}\n"
            "{\"id\":2,\"tags\":null,\"props\":[],\"addr\":null}\n");
}

}  // namespace
}  // namespace hoglake::columnar
