#include "columnar/c_data.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "columnar/builder.h"
#include "columnar/compare.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

// ---- helpers ---------------------------------------------------------------

ArrayPtr MustFinish(ArrayBuilder& builder) {
  auto result = builder.Finish();
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return nullptr;
  EXPECT_TRUE(Validate(**result).ok()) << Validate(**result).ToString();
  return *result;
}

// A logical slice, as a consumer of our arrays would make one.
ArrayPtr Slice(const ArrayPtr& a, int64_t offset, int64_t length) {
  auto out = std::make_shared<ArrayData>(*a);
  out->offset = a->offset + offset;
  out->length = length;
  out->null_count =
      a->buffers[0] ? length - CountSetBits(a->buffers[0]->data(), out->offset, length) : 0;
  return out;
}

void ExpectArraysEqual(const ArrayData& a, const ArrayData& b) {
  std::string why;
  EXPECT_TRUE(ArrayEquals(a, b, &why)) << why;
}

struct Column {
  Field field;
  ArrayPtr array;
};

template <typename B, typename T>
ArrayPtr Numbers(DataTypePtr type, std::vector<std::optional<T>> values) {
  B b(std::move(type));
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  return MustFinish(b);
}

ArrayPtr Strings(DataTypePtr type, std::vector<std::optional<std::string>> values) {
  BinaryBuilder b(std::move(type));
  for (const auto& v : values) {
    if (v) {
      b.Append(*v);
    } else {
      b.AppendNull();
    }
  }
  return MustFinish(b);
}

// Five rows of every type in type.h, each with nulls.
std::vector<Column> AllTypeColumns() {
  std::vector<Column> cols;
  auto add = [&](Field field, ArrayPtr array) { cols.push_back({std::move(field), array}); };
  auto field = [](std::string name, DataTypePtr type) {
    return Field{std::move(name), std::move(type), true, {}};
  };
  {
    BooleanBuilder b;
    b.Append(true);
    b.AppendNull();
    b.Append(false);
    b.Append(true);
    b.AppendNull();
    add(field("bool", Bool()), MustFinish(b));
  }
  add(field("i8", Int8()), Numbers<Int8Builder, int8_t>(Int8(), {1, {}, -128, 127, 0}));
  add(field("i16", Int16()), Numbers<Int16Builder, int16_t>(Int16(), {1, {}, -2, 3, 4}));
  add(field("i32", Int32()), Numbers<Int32Builder, int32_t>(Int32(), {1, {}, -2, 3, 4}));
  add(field("i64", Int64()), Numbers<Int64Builder, int64_t>(Int64(), {1, {}, -2, 3, 1LL << 60}));
  add(field("u8", UInt8()), Numbers<UInt8Builder, uint8_t>(UInt8(), {1, {}, 255, 3, 4}));
  add(field("u16", UInt16()), Numbers<UInt16Builder, uint16_t>(UInt16(), {1, {}, 2, 3, 65535}));
  add(field("u32", UInt32()), Numbers<UInt32Builder, uint32_t>(UInt32(), {1, {}, 2, 3, 4}));
  add(field("u64", UInt64()), Numbers<UInt64Builder, uint64_t>(UInt64(), {1, {}, ~0ULL, 3, 4}));
  add(field("f32", Float32()), Numbers<Float32Builder, float>(Float32(), {1.5f, {}, -2, 3, 4}));
  add(field("f64", Float64()), Numbers<Float64Builder, double>(Float64(), {1.5, {}, -2, 3, 4}));
  {
    Decimal128Builder b(Decimal128(38, 4));
    b.Append(12345);
    b.AppendNull();
    b.Append(-1);
    b.Append(static_cast<__int128>(1) << 100);
    b.Append(0);
    add(field("dec", Decimal128(38, 4)), MustFinish(b));
  }
  add(field("date", Date32()), Numbers<Date32Builder, int32_t>(Date32(), {0, {}, -1, 19000, 4}));
  for (TimeUnit unit : {TimeUnit::kMicro, TimeUnit::kNano}) {
    add(field("time_" + std::string(TimeUnitName(unit)), Time64(unit)),
        Numbers<Time64Builder, int64_t>(Time64(unit), {0, {}, 1, 86399999999LL, 4}));
  }
  const std::pair<TimeUnit, std::string> stamps[] = {{TimeUnit::kSecond, ""},
                                                     {TimeUnit::kMilli, "UTC"},
                                                     {TimeUnit::kMicro, "America/New_York"},
                                                     {TimeUnit::kNano, "+01:00"}};
  for (const auto& [unit, tz] : stamps) {
    add(field("ts_" + std::string(TimeUnitName(unit)), Timestamp(unit, tz)),
        Numbers<TimestampBuilder, int64_t>(Timestamp(unit, tz), {0, {}, -1, 1LL << 50, 4}));
  }
  add(field("utf8", Utf8()), Strings(Utf8(), {"a", {}, "", "héllo", "xyz"}));
  add(JsonField("json"), Strings(Utf8(), {"{}", "[1]", {}, "null", "\"s\""}));
  add(field("bin", Binary()),
      Strings(Binary(), {std::string("\0\1\2", 3), {}, "", "bytes", "\xff"}));
  {
    FixedSizeBinaryBuilder b(FixedSizeBinary(16));
    EXPECT_TRUE(b.Append("0123456789abcdef").ok());
    b.AppendNull();
    EXPECT_TRUE(b.Append(std::string(16, '\0')).ok());
    EXPECT_TRUE(b.Append("fedcba9876543210").ok());
    b.AppendNull();
    add(UuidField("uuid"), MustFinish(b));
  }
  {
    ListBuilder b(List(Int32()));
    auto& v = b.value_builder<Int32Builder>();
    b.Append();
    v.Append(1);
    v.Append(2);
    b.AppendNull();
    b.Append();
    b.Append();
    v.AppendNull();
    v.Append(3);
    b.Append();
    v.Append(4);
    add(field("list", List(Int32())), MustFinish(b));
  }
  {
    auto type = Struct({{"a", Int32(), true, {}}, {"b", Utf8(), false, {}}});
    StructBuilder b(type);
    const char* names[] = {"x", "", "y", "z", "w"};
    for (int i = 0; i < 5; ++i) {
      if (i == 1) {
        b.AppendNull();
        continue;
      }
      b.Append();
      if (i == 3) {
        b.child<Int32Builder>(0).AppendNull();
      } else {
        b.child<Int32Builder>(0).Append(i);
      }
      b.child<BinaryBuilder>(1).Append(names[i]);
    }
    add(field("struct", type), MustFinish(b));
  }
  for (bool sorted : {false, true}) {
    auto map_type = std::make_shared<DataType>(*Map(Utf8(), Int64()));
    map_type->keys_sorted = sorted;
    MapBuilder b(map_type);
    auto& k = b.key_builder<BinaryBuilder>();
    auto& v = b.item_builder<Int64Builder>();
    b.Append();
    k.Append("a");
    v.Append(1);
    k.Append("b");
    v.AppendNull();
    b.AppendNull();
    b.Append();
    b.Append();
    k.Append("c");
    v.Append(3);
    b.Append();
    k.Append("d");
    v.Append(4);
    add(field(sorted ? "map_sorted" : "map", map_type), MustFinish(b));
  }
  {
    // list<struct<x: int64, y: utf8>>
    auto elem = Struct({{"x", Int64(), true, {}}, {"y", Utf8(), true, {}}});
    auto type = List(Field{"item", elem, true, {}});
    ListBuilder b(type);
    auto& s = b.value_builder<StructBuilder>();
    auto row = [&](std::optional<int64_t> x, std::optional<std::string> y) {
      s.Append();
      if (x) {
        s.child<Int64Builder>(0).Append(*x);
      } else {
        s.child<Int64Builder>(0).AppendNull();
      }
      if (y) {
        s.child<BinaryBuilder>(1).Append(*y);
      } else {
        s.child<BinaryBuilder>(1).AppendNull();
      }
    };
    b.Append();
    row(1, "one");
    row({}, "two");
    b.Append();
    s.AppendNull();
    b.AppendNull();
    b.Append();
    b.Append();
    row(5, {});
    add(field("list_of_struct", type), MustFinish(b));
  }
  {
    // struct<tags: list<utf8>, n: int64>
    auto type = Struct({{"tags", List(Utf8()), true, {}}, {"n", Int64(), true, {}}});
    StructBuilder b(type);
    auto& tags = b.child<ListBuilder>(0);
    auto& items = tags.value_builder<BinaryBuilder>();
    auto& n = b.child<Int64Builder>(1);
    b.Append();
    tags.Append();
    items.Append("a");
    items.Append("b");
    n.Append(1);
    b.AppendNull();
    b.Append();
    tags.AppendNull();
    n.Append(3);
    b.Append();
    tags.Append();
    n.AppendNull();
    b.Append();
    tags.Append();
    items.AppendNull();
    n.Append(5);
    add(field("struct_with_list", type), MustFinish(b));
  }
  return cols;
}

RecordBatch AllTypesBatch() {
  auto schema = std::make_shared<Schema>();
  std::vector<ArrayPtr> arrays;
  for (auto& col : AllTypeColumns()) {
    schema->fields.push_back(col.field);
    arrays.push_back(col.array);
  }
  schema->metadata = {{"origin", "hoglake"}, {"empty", ""}};
  auto batch = MakeRecordBatch(schema, arrays);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// A hand-built (foreign) ArrowArray whose release only counts.
struct FakeArray {
  ArrowArray array{};
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
  int releases = 0;

  static void Release(ArrowArray* a) {
    auto* self = static_cast<FakeArray*>(a->private_data);
    for (int64_t i = 0; a->children != nullptr && i < a->n_children; ++i) {
      if (a->children[i] != nullptr && a->children[i]->release != nullptr) {
        a->children[i]->release(a->children[i]);
      }
    }
    if (a->dictionary != nullptr && a->dictionary->release != nullptr) {
      a->dictionary->release(a->dictionary);
    }
    ++self->releases;
    a->release = nullptr;
  }

  // `length` values at `offset`, pointing at `bufs`; n_buffers = bufs.size().
  FakeArray(int64_t length, int64_t null_count, int64_t offset, std::vector<const void*> bufs,
            std::vector<FakeArray*> kids = {})
      : buffers(std::move(bufs)) {
    for (FakeArray* kid : kids) children.push_back(&kid->array);
    array.length = length;
    array.null_count = null_count;
    array.offset = offset;
    array.n_buffers = static_cast<int64_t>(buffers.size());
    array.n_children = static_cast<int64_t>(children.size());
    array.buffers = buffers.data();
    array.children = children.empty() ? nullptr : children.data();
    array.release = &Release;
    array.private_data = this;
  }
  FakeArray(const FakeArray&) = delete;
  FakeArray& operator=(const FakeArray&) = delete;
};

// A hand-built ArrowSchema whose release only counts.
struct FakeSchema {
  ArrowSchema schema{};
  std::string format;
  std::string name;
  std::vector<ArrowSchema*> children;
  int releases = 0;

  static void Release(ArrowSchema* s) {
    auto* self = static_cast<FakeSchema*>(s->private_data);
    for (int64_t i = 0; s->children != nullptr && i < s->n_children; ++i) {
      if (s->children[i]->release != nullptr) s->children[i]->release(s->children[i]);
    }
    if (s->dictionary != nullptr && s->dictionary->release != nullptr) {
      s->dictionary->release(s->dictionary);
    }
    ++self->releases;
    s->release = nullptr;
  }

  FakeSchema(std::string fmt, std::string field_name, int64_t flags,
             std::vector<FakeSchema*> kids = {})
      : format(std::move(fmt)), name(std::move(field_name)) {
    for (FakeSchema* kid : kids) children.push_back(&kid->schema);
    schema.format = format.c_str();
    schema.name = name.c_str();
    schema.flags = flags;
    schema.n_children = static_cast<int64_t>(children.size());
    schema.children = children.empty() ? nullptr : children.data();
    schema.release = &Release;
    schema.private_data = this;
  }
  FakeSchema(const FakeSchema&) = delete;
  FakeSchema& operator=(const FakeSchema&) = delete;
};

// ---- types and schemas -------------------------------------------------------

std::string FormatOf(const DataTypePtr& type) {
  ArrowSchema c{};
  Status status = ExportType(*type, &c);
  EXPECT_TRUE(status.ok()) << status.ToString();
  if (!status.ok()) return "";
  std::string format = c.format;
  EXPECT_EQ(c.flags, ARROW_FLAG_NULLABLE);
  EXPECT_EQ(std::string(c.name), "");
  auto back = ImportType(&c);  // releases c
  EXPECT_EQ(c.release, nullptr);
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  if (back.ok()) {
    EXPECT_TRUE((*back)->Equals(*type)) << (*back)->ToString();
  }
  return format;
}

TEST(CDataTest, FormatStringsForEveryType) {
  EXPECT_EQ(FormatOf(Bool()), "b");
  EXPECT_EQ(FormatOf(Int8()), "c");
  EXPECT_EQ(FormatOf(UInt8()), "C");
  EXPECT_EQ(FormatOf(Int16()), "s");
  EXPECT_EQ(FormatOf(UInt16()), "S");
  EXPECT_EQ(FormatOf(Int32()), "i");
  EXPECT_EQ(FormatOf(UInt32()), "I");
  EXPECT_EQ(FormatOf(Int64()), "l");
  EXPECT_EQ(FormatOf(UInt64()), "L");
  EXPECT_EQ(FormatOf(Float32()), "f");
  EXPECT_EQ(FormatOf(Float64()), "g");
  EXPECT_EQ(FormatOf(Decimal128(10, 2)), "d:10,2");
  EXPECT_EQ(FormatOf(Date32()), "tdD");
  EXPECT_EQ(FormatOf(Time64(TimeUnit::kMicro)), "ttu");
  EXPECT_EQ(FormatOf(Time64(TimeUnit::kNano)), "ttn");
  EXPECT_EQ(FormatOf(Timestamp(TimeUnit::kSecond)), "tss:");
  EXPECT_EQ(FormatOf(Timestamp(TimeUnit::kMilli, "UTC")), "tsm:UTC");
  EXPECT_EQ(FormatOf(Timestamp(TimeUnit::kMicro, "Europe/Paris")), "tsu:Europe/Paris");
  EXPECT_EQ(FormatOf(Timestamp(TimeUnit::kNano)), "tsn:");
  EXPECT_EQ(FormatOf(Utf8()), "u");
  EXPECT_EQ(FormatOf(Binary()), "z");
  EXPECT_EQ(FormatOf(FixedSizeBinary(16)), "w:16");
  EXPECT_EQ(FormatOf(List(Utf8())), "+l");
  EXPECT_EQ(FormatOf(Struct({{"a", Int32(), true, {}}})), "+s");
  EXPECT_EQ(FormatOf(Map(Utf8(), Int64())), "+m");
}

TEST(CDataTest, Time64InSecondsHasNoFormat) {
  ArrowSchema c{};
  Status status = ExportType(*Time64(TimeUnit::kSecond), &c);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(c.release, nullptr);  // untouched
}

TEST(CDataTest, FieldNullabilityAndMetadataEncoding) {
  Field field = UuidField("id", false).WithFieldId(7);
  ArrowSchema c{};
  ASSERT_TRUE(ExportField(field, &c).ok());
  EXPECT_EQ(std::string(c.name), "id");
  EXPECT_EQ(std::string(c.format), "w:16");
  EXPECT_EQ(c.flags & ARROW_FLAG_NULLABLE, 0);
  // Decode the binary metadata by hand: count, then (len, key, len, value)*.
  ASSERT_NE(c.metadata, nullptr);
  const char* p = c.metadata;
  auto read_int = [&p] {
    int32_t v;
    std::memcpy(&v, p, 4);
    p += 4;
    return v;
  };
  auto read_str = [&p, &read_int] {
    int32_t n = read_int();
    std::string s(p, static_cast<size_t>(n));
    p += n;
    return s;
  };
  ASSERT_EQ(read_int(), 2);
  EXPECT_EQ(read_str(), "ARROW:extension:name");
  EXPECT_EQ(read_str(), "arrow.uuid");
  EXPECT_EQ(read_str(), "PARQUET:field_id");
  EXPECT_EQ(read_str(), "7");

  auto back = ImportField(&c);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->Equals(field)) << back->ToString();
  EXPECT_EQ(back->field_id(), 7);
  EXPECT_EQ(back->extension_name(), "arrow.uuid");

  Field nullable{"n", Int32(), true, {}};
  ASSERT_TRUE(ExportField(nullable, &c).ok());
  EXPECT_EQ(c.flags, ARROW_FLAG_NULLABLE);
  EXPECT_EQ(c.metadata, nullptr);
  c.release(&c);
}

TEST(CDataTest, MapFlagsAndChildren) {
  auto type = std::make_shared<DataType>(*Map(Utf8(), Int64(), false));
  type->keys_sorted = true;
  ArrowSchema c{};
  ASSERT_TRUE(ExportField(Field{"m", type, true, {}}, &c).ok());
  EXPECT_EQ(c.flags, ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED);
  ASSERT_EQ(c.n_children, 1);
  const ArrowSchema* entries = c.children[0];
  EXPECT_EQ(std::string(entries->format), "+s");
  EXPECT_EQ(std::string(entries->name), "entries");
  EXPECT_EQ(entries->flags, 0);
  ASSERT_EQ(entries->n_children, 2);
  EXPECT_EQ(std::string(entries->children[0]->name), "key");
  EXPECT_EQ(entries->children[0]->flags, 0);
  EXPECT_EQ(std::string(entries->children[1]->format), "l");
  EXPECT_EQ(entries->children[1]->flags, 0);
  auto back = ImportField(&c);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->type->Equals(*type)) << back->type->ToString();
  EXPECT_TRUE(back->type->keys_sorted);
}

TEST(CDataTest, SchemaRoundTrip) {
  RecordBatch batch = AllTypesBatch();
  ArrowSchema c{};
  ASSERT_TRUE(ExportSchema(*batch.schema, &c).ok());
  EXPECT_EQ(std::string(c.format), "+s");
  EXPECT_EQ(c.n_children, batch.schema->num_fields());
  auto back = ImportSchema(&c);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(c.release, nullptr);
  EXPECT_TRUE((*back)->Equals(*batch.schema)) << (*back)->ToString();
}

TEST(CDataTest, ImportSchemaNeedsStruct) {
  FakeSchema s("i", "x", 0);
  auto result = ImportSchema(&s.schema);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
  EXPECT_NE(result.error().message.find("'+s'"), std::string::npos) << result.error().message;
  EXPECT_EQ(s.releases, 1);
}

TEST(CDataTest, UnsupportedFormatsAreNamed) {
  const char* formats[] = {"tdm",        "tts",  "ttm", "tDu",     "tiM",     "e",   "n", "vu",
                           "d:40,2,256", "+w:3", "+r",  "+ud:0,1", "+us:0,1", "+vl", "?"};
  for (const char* format : formats) {
    FakeSchema s(format, "col", ARROW_FLAG_NULLABLE);
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok()) << format;
    EXPECT_EQ(result.error().code, ErrorCode::kNotImplemented) << format;
    EXPECT_NE(result.error().message.find(std::string("'") + format + "'"), std::string::npos)
        << result.error().message;
    EXPECT_NE(result.error().message.find("col"), std::string::npos) << result.error().message;
    EXPECT_EQ(s.releases, 1) << format;
  }
}

TEST(CDataTest, LargeFormatsNeedTheirData) {
  for (const char* format : {"U", "Z"}) {
    FakeSchema s(format, "big", ARROW_FLAG_NULLABLE);
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kNotImplemented);
    EXPECT_NE(result.error().message.find("64-bit offsets"), std::string::npos);
    EXPECT_EQ(s.releases, 1);
  }
}

TEST(CDataTest, DictionaryEncodedFieldIsNotImplemented) {
  FakeSchema values("u", "", 0);
  FakeSchema s("i", "dict", ARROW_FLAG_NULLABLE);
  s.schema.dictionary = &values.schema;
  auto result = ImportField(&s.schema);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kNotImplemented);
  EXPECT_NE(result.error().message.find("dictionary"), std::string::npos);
  EXPECT_EQ(s.releases, 1);
  EXPECT_EQ(values.releases, 1);
}

TEST(CDataTest, BadSchemasAreInvalidData) {
  {
    FakeSchema s("+l", "list", 0);  // no child
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
    EXPECT_EQ(s.releases, 1);
  }
  {
    FakeSchema key("u", "key", 0);
    FakeSchema entries("+s", "entries", 0, {&key});  // missing value
    FakeSchema s("+m", "m", 0, {&entries});
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
    EXPECT_EQ(s.releases, 1);
    EXPECT_EQ(entries.releases, 1);
    EXPECT_EQ(key.releases, 1);
  }
  {
    FakeSchema s("i", "x", 0);
    s.schema.format = nullptr;
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
    EXPECT_EQ(s.releases, 1);
  }
  for (const char* format : {"d:x,2", "d:10", "w:0", "w:", "tsx:"}) {
    FakeSchema s(format, "x", 0);
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok()) << format;
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData) << format;
    EXPECT_EQ(s.releases, 1);
  }
  {
    FakeSchema s("i", "x", 0);
    s.schema.release = nullptr;
    auto result = ImportField(&s.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(s.releases, 0);
  }
}

TEST(CDataTest, MapKeysAreForcedNonNull) {
  FakeSchema key("u", "k", ARROW_FLAG_NULLABLE);
  FakeSchema value("l", "v", ARROW_FLAG_NULLABLE);
  FakeSchema entries("+s", "entries", ARROW_FLAG_NULLABLE, {&key, &value});
  FakeSchema s("+m", "m", ARROW_FLAG_NULLABLE, {&entries});
  auto result = ImportField(&s.schema);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_FALSE(result->type->map_key().nullable);
  EXPECT_FALSE(result->type->children[0].nullable);
  EXPECT_TRUE(result->type->map_value().nullable);
  EXPECT_EQ(s.releases, 1);
}

// ---- arrays ------------------------------------------------------------------

TEST(CDataTest, EveryTypeRoundTripsAsArray) {
  for (const Column& col : AllTypeColumns()) {
    SCOPED_TRACE(col.field.ToString());
    ArrowArray c_array{};
    ArrowSchema c_schema{};
    ASSERT_TRUE(ExportArray(col.array, &c_array).ok());
    ASSERT_TRUE(ExportField(col.field, &c_schema).ok());
    EXPECT_EQ(c_array.length, 5);
    EXPECT_EQ(c_array.null_count, col.array->null_count);
    EXPECT_EQ(c_array.n_buffers, BufferCount(col.field.type->id));
    auto field = ImportField(&c_schema);
    ASSERT_TRUE(field.ok()) << field.status().ToString();
    EXPECT_TRUE(field->Equals(col.field));
    auto back = ImportArray(&c_array, field->type);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(c_array.release, nullptr);  // moved into the import
    ExpectArraysEqual(**back, *col.array);
  }
}

TEST(CDataTest, BatchRoundTrip) {
  RecordBatch batch = AllTypesBatch();
  ArrowArray c_array{};
  ArrowSchema c_schema{};
  ASSERT_TRUE(ExportRecordBatch(batch, &c_array).ok());
  ASSERT_TRUE(ExportSchema(*batch.schema, &c_schema).ok());
  EXPECT_EQ(c_array.n_buffers, 1);
  EXPECT_EQ(c_array.buffers[0], nullptr);
  EXPECT_EQ(c_array.null_count, 0);
  EXPECT_EQ(c_array.n_children, batch.num_columns());
  auto back = ImportRecordBatch(&c_array, &c_schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  std::string why;
  EXPECT_TRUE(BatchEquals(*back, batch, &why)) << why;

  // The same with a schema we already hold.
  ASSERT_TRUE(ExportRecordBatch(batch, &c_array).ok());
  auto again = ImportRecordBatch(&c_array, batch.schema);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(BatchEquals(*again, batch, &why)) << why;
}

TEST(CDataTest, SlicedArraysExportWithTheirOffset) {
  for (const Column& col : AllTypeColumns()) {
    SCOPED_TRACE(col.field.ToString());
    ArrayPtr sliced = Slice(col.array, 1, 3);
    ArrowArray c{};
    ASSERT_TRUE(ExportArray(sliced, &c).ok());
    EXPECT_EQ(c.offset, 1);
    EXPECT_EQ(c.length, 3);
    EXPECT_EQ(c.null_count, sliced->null_count);
    auto back = ImportArray(&c, col.field.type);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ((*back)->offset, 1);
    ExpectArraysEqual(**back, *sliced);
  }
}

TEST(CDataTest, SlicedBatchStructAppliesOffsetToColumns) {
  RecordBatch batch = AllTypesBatch();
  ArrowArray c{};
  ASSERT_TRUE(ExportRecordBatch(batch, &c).ok());
  c.offset = 2;
  c.length = 2;
  auto back = ImportRecordBatch(&c, batch.schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->num_rows, 2);
  for (int i = 0; i < batch.num_columns(); ++i) {
    SCOPED_TRACE(batch.schema->fields[i].name);
    ExpectArraysEqual(*back->columns[i], *Slice(batch.columns[i], 2, 2));
  }
}

TEST(CDataTest, EmptyArraysRoundTrip) {
  for (const Column& col : AllTypeColumns()) {
    SCOPED_TRACE(col.field.ToString());
    auto builder = MakeBuilder(col.field.type);
    ArrayPtr empty = MustFinish(*builder);
    ArrowArray c{};
    ASSERT_TRUE(ExportArray(empty, &c).ok());
    for (int64_t i = 1; i < c.n_buffers; ++i) EXPECT_NE(c.buffers[i], nullptr);
    auto back = ImportArray(&c, col.field.type);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectArraysEqual(**back, *empty);
  }
}

TEST(CDataTest, ExportAndImportAreZeroCopy) {
  ArrayPtr strings = Strings(Utf8(), {"alpha", {}, "beta"});
  ArrowArray c{};
  ASSERT_TRUE(ExportArray(strings, &c).ok());
  ASSERT_EQ(c.n_buffers, 3);
  EXPECT_EQ(c.buffers[0], strings->buffers[0]->data());
  EXPECT_EQ(c.buffers[1], strings->buffers[1]->data());
  EXPECT_EQ(c.buffers[2], strings->buffers[2]->data());
  auto back = ImportArray(&c, Utf8());
  ASSERT_TRUE(back.ok());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*back)->buffers[i]->data(), strings->buffers[i]->data()) << "buffer " << i;
  }
  // A foreign producer's memory is wrapped, not copied.
  const int64_t values[] = {10, 20, 30};
  FakeArray fake(3, 0, 0, {nullptr, values});
  auto imported = ImportArray(&fake.array, Int64());
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ((*imported)->buffers[1]->data(), reinterpret_cast<const uint8_t*>(values));
  EXPECT_EQ((*imported)->buffers[0], nullptr);
}

TEST(CDataTest, MissingValidityExportsAsNull) {
  ArrayPtr ints = Numbers<Int32Builder, int32_t>(Int32(), {1, 2, 3});
  ASSERT_EQ(ints->buffers[0], nullptr);
  ArrowArray c{};
  ASSERT_TRUE(ExportArray(ints, &c).ok());
  EXPECT_EQ(c.buffers[0], nullptr);
  EXPECT_EQ(c.null_count, 0);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);
}

// ---- release semantics ---------------------------------------------------------

TEST(CDataTest, ImportReleasesProducerOnceWhenLastBufferDies) {
  const int32_t values[] = {1, 2, 3, 4};
  const uint8_t validity[] = {0b1011};
  FakeArray fake(4, -1, 0, {validity, values});
  auto imported = ImportArray(&fake.array, Int32());
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ(fake.array.release, nullptr);  // moved out of the caller's struct
  EXPECT_EQ((*imported)->null_count, 1);   // computed from -1
  EXPECT_TRUE((*imported)->IsNull(2));
  EXPECT_EQ(fake.releases, 0);
  ArrayPtr kept = *imported;
  imported = Result<ArrayPtr>(InvalidArgument("drop"));
  EXPECT_EQ(fake.releases, 0);
  kept.reset();
  EXPECT_EQ(fake.releases, 1);
}

TEST(CDataTest, ExportedReleaseReleasesChildren) {
  RecordBatch batch = AllTypesBatch();
  std::weak_ptr<const ArrayData> weak = batch.columns[0];
  ArrowArray c{};
  ASSERT_TRUE(ExportRecordBatch(batch, &c).ok());
  batch = RecordBatch{};
  EXPECT_FALSE(weak.expired());  // the export keeps the column alive
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);
  EXPECT_TRUE(weak.expired());
}

TEST(CDataTest, MovedChildOutlivesItsParent) {
  RecordBatch batch = AllTypesBatch();
  const int moved_index = batch.schema->FieldIndex("list_of_struct");
  ASSERT_GE(moved_index, 0);
  ArrowArray parent{};
  ASSERT_TRUE(ExportRecordBatch(batch, &parent).ok());
  // Move one child out, as the spec allows, then release the parent.
  ArrowArray moved = *parent.children[moved_index];
  parent.children[moved_index]->release = nullptr;
  const ArrayPtr expected = batch.columns[moved_index];
  const DataTypePtr type = batch.schema->fields[moved_index].type;
  batch = RecordBatch{};
  parent.release(&parent);
  EXPECT_EQ(parent.release, nullptr);
  ASSERT_NE(moved.release, nullptr);
  auto back = ImportArray(&moved, type);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectArraysEqual(**back, *expected);
}

TEST(CDataTest, ReleasedArrayIsRefused) {
  const int32_t values[] = {1};
  FakeArray fake(1, 0, 0, {nullptr, values});
  fake.array.release = nullptr;
  auto result = ImportArray(&fake.array, Int32());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("released"), std::string::npos);
  EXPECT_EQ(fake.releases, 0);
}

// ---- bad input: a clear error, no crash, released exactly once --------------------

void ExpectBad(FakeArray& fake, const DataTypePtr& type, std::string_view needle,
               ErrorCode code = ErrorCode::kInvalidData) {
  auto result = ImportArray(&fake.array, type);
  ASSERT_FALSE(result.ok()) << "imported " << type->ToString() << " unexpectedly";
  EXPECT_EQ(result.error().code, code) << result.error().ToString();
  EXPECT_NE(result.error().message.find(needle), std::string::npos) << result.error().message;
  EXPECT_EQ(fake.releases, 1);
}

TEST(CDataTest, WrongBufferCount) {
  const int32_t values[] = {1, 2, 3};
  FakeArray fake(3, 0, 0, {nullptr, values, values});
  ExpectBad(fake, Int32(), "n_buffers is 3");
}

TEST(CDataTest, NullBuffersPointer) {
  FakeArray fake(3, 0, 0, {nullptr, nullptr});
  fake.array.buffers = nullptr;
  ExpectBad(fake, Int32(), "buffers pointer is NULL");
}

TEST(CDataTest, NullValuesWithNonzeroLength) {
  FakeArray fake(3, 0, 0, {nullptr, nullptr});
  ExpectBad(fake, Int32(), "values buffer is NULL");
}

TEST(CDataTest, NullOffsetsWithNonzeroLength) {
  const char bytes[] = "abc";
  FakeArray fake(2, 0, 0, {nullptr, nullptr, bytes});
  ExpectBad(fake, Utf8(), "offsets buffer is NULL");
}

TEST(CDataTest, NullDataBufferWithBytesReferenced) {
  const int32_t offsets[] = {0, 2, 3};
  FakeArray fake(2, 0, 0, {nullptr, offsets, nullptr});
  ExpectBad(fake, Utf8(), "data buffer is NULL");
}

TEST(CDataTest, DecreasingOffsets) {
  const int32_t offsets[] = {0, 3, 1};
  const char bytes[] = "abc";
  FakeArray fake(2, 0, 0, {nullptr, offsets, bytes});
  ExpectBad(fake, Utf8(), "offsets decrease");
}

TEST(CDataTest, NegativeFirstOffset) {
  const int32_t offsets[] = {-4, 1, 2};
  const char bytes[] = "abc";
  FakeArray fake(2, 0, 0, {nullptr, offsets, bytes});
  ExpectBad(fake, Binary(), "negative");
}

TEST(CDataTest, NegativeLastOffset) {
  const int32_t offsets[] = {0, -1};
  const char bytes[] = "abc";
  FakeArray fake(1, 0, 0, {nullptr, offsets, bytes});
  ExpectBad(fake, Binary(), "negative");
}

TEST(CDataTest, NegativeLengthAndOffset) {
  const int32_t values[] = {1};
  {
    FakeArray fake(-1, 0, 0, {nullptr, values});
    ExpectBad(fake, Int32(), "negative length");
  }
  {
    FakeArray fake(1, 0, -1, {nullptr, values});
    ExpectBad(fake, Int32(), "negative offset");
  }
  {
    FakeArray fake(1, 0, std::numeric_limits<int64_t>::max(), {nullptr, values});
    ExpectBad(fake, Int32(), "exceeds");
  }
  {
    FakeArray fake(std::numeric_limits<int64_t>::max(), 0, 0, {nullptr, values});
    ExpectBad(fake, Int32(), "exceeds");
  }
}

TEST(CDataTest, NullCountDisagreesWithBitmap) {
  const int32_t values[] = {1, 2, 3};
  const uint8_t validity[] = {0b101};
  {
    FakeArray fake(3, 2, 0, {validity, values});
    ExpectBad(fake, Int32(), "null_count is 2");
  }
  {
    FakeArray fake(3, 1, 0, {nullptr, values});
    ExpectBad(fake, Int32(), "validity buffer is NULL");
  }
  {
    FakeArray fake(3, 7, 0, {validity, values});
    ExpectBad(fake, Int32(), "null_count 7");
  }
}

TEST(CDataTest, WrongChildCount) {
  const int32_t values[] = {1, 2};
  FakeArray a(2, 0, 0, {nullptr, values});
  FakeArray fake(2, 0, 0, {nullptr}, {&a});
  ExpectBad(fake, Struct({{"a", Int32(), true, {}}, {"b", Int32(), true, {}}}), "n_children is 1");
  EXPECT_EQ(a.releases, 1);  // the producer's parent release released it
}

TEST(CDataTest, NullChildPointer) {
  FakeArray fake(2, 0, 0, {nullptr});
  fake.children.push_back(nullptr);
  fake.array.n_children = 1;
  fake.array.children = fake.children.data();
  ExpectBad(fake, Struct({{"a", Int32(), true, {}}}), "pointer is NULL");
}

TEST(CDataTest, ChildrenNullWithChildCount) {
  FakeArray fake(2, 0, 0, {nullptr});
  fake.array.n_children = 1;
  ExpectBad(fake, Struct({{"a", Int32(), true, {}}}), "children is NULL");
}

TEST(CDataTest, ListOffsetsPastChild) {
  const int32_t values[] = {1, 2};
  const int32_t offsets[] = {0, 1, 5};
  FakeArray child(2, 0, 0, {nullptr, values});
  FakeArray fake(2, 0, 0, {nullptr, offsets}, {&child});
  ExpectBad(fake, List(Int32()), "past the end");
  EXPECT_EQ(child.releases, 1);
}

TEST(CDataTest, StructChildTooShort) {
  const int32_t values[] = {1};
  FakeArray child(1, 0, 0, {nullptr, values});
  FakeArray fake(3, 0, 0, {nullptr}, {&child});
  ExpectBad(fake, Struct({{"a", Int32(), true, {}}}), "struct needs 3");
}

TEST(CDataTest, ReleasedChildIsRefused) {
  const int32_t values[] = {1};
  FakeArray child(1, 0, 0, {nullptr, values});
  child.array.release = nullptr;
  FakeArray fake(1, 0, 0, {nullptr}, {&child});
  ExpectBad(fake, Struct({{"a", Int32(), true, {}}}), "released");
}

TEST(CDataTest, UnexpectedDictionary) {
  const int32_t values[] = {0};
  FakeArray dict(1, 0, 0, {nullptr, values});
  FakeArray fake(1, 0, 0, {nullptr, values});
  fake.array.dictionary = &dict.array;
  ExpectBad(fake, Int32(), "dictionary");
  EXPECT_EQ(dict.releases, 1);
}

TEST(CDataTest, ZeroLengthArraysMayHaveNullBuffers) {
  {
    FakeArray fake(0, 0, 0, {nullptr, nullptr, nullptr});
    auto result = ImportArray(&fake.array, Utf8());
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ((*result)->length, 0);
    EXPECT_NE((*result)->buffers[1], nullptr);
  }
  {
    FakeArray fake(0, -1, 7, {nullptr, nullptr});
    auto result = ImportArray(&fake.array, Int64());
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ((*result)->null_count, 0);
  }
  {
    FakeArray child(0, 0, 0, {nullptr, nullptr});
    FakeArray fake(0, 0, 0, {nullptr, nullptr}, {&child});
    auto result = ImportArray(&fake.array, List(Int32()));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(fake.releases, 1);  // nothing of the producer's memory is held
    EXPECT_EQ(child.releases, 1);
  }
}

TEST(CDataTest, RecordBatchShapeErrors) {
  auto schema = std::make_shared<Schema>(Schema{{{"a", Int32(), false, {}}}, {}});
  const int32_t values[] = {1, 2};
  const uint8_t validity[] = {0b01};
  {
    FakeArray a(2, 0, 0, {nullptr, values});
    FakeArray b(2, 0, 0, {nullptr, values});
    FakeArray fake(2, 0, 0, {nullptr}, {&a, &b});
    auto result = ImportRecordBatch(&fake.array, schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
    EXPECT_NE(result.error().message.find("2 children"), std::string::npos);
    EXPECT_EQ(fake.releases, 1);
  }
  {
    FakeArray a(2, 0, 0, {nullptr, values});
    FakeArray fake(2, 1, 0, {validity}, {&a});
    auto result = ImportRecordBatch(&fake.array, schema);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("null rows"), std::string::npos);
    EXPECT_EQ(fake.releases, 1);
  }
  {
    // A non-nullable column holding a null.
    FakeArray a(2, 1, 0, {validity, values});
    FakeArray fake(2, 0, 0, {nullptr}, {&a});
    auto result = ImportRecordBatch(&fake.array, schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidData);
    EXPECT_NE(result.error().message.find("not nullable"), std::string::npos);
    EXPECT_EQ(fake.releases, 1);
  }
}

TEST(CDataTest, BadSchemaStillReleasesTheArray) {
  const int32_t values[] = {1};
  FakeArray fake(1, 0, 0, {nullptr, values});
  FakeSchema schema("tdm", "d", 0);
  auto result = ImportArray(&fake.array, &schema.schema);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kNotImplemented);
  EXPECT_EQ(fake.releases, 1);
  EXPECT_EQ(schema.releases, 1);
}

// ---- large formats ---------------------------------------------------------------

TEST(CDataTest, LargeUtf8IsConverted) {
  const int64_t offsets[] = {99, 0, 3, 3, 8};  // slot 0 is before the offset
  const char bytes[] = "abchello";
  const uint8_t validity[] = {0b1010};
  FakeArray fake(3, -1, 1, {validity, offsets, bytes});
  FakeSchema schema("U", "s", ARROW_FLAG_NULLABLE);
  auto result = ImportArray(&fake.array, &schema.schema);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(schema.releases, 1);
  ArrayPtr expected = Strings(Utf8(), {"abc", {}, "hello"});
  ExpectArraysEqual(**result, *expected);
  EXPECT_EQ((*result)->offset, 0);  // rebased onto the converted offsets
  EXPECT_EQ((*result)->null_count, 1);
  // The bytes stay zero-copy.
  EXPECT_EQ((*result)->buffers[2]->data(), reinterpret_cast<const uint8_t*>(bytes));
  result = Result<ArrayPtr>(InvalidArgument("drop"));
  EXPECT_EQ(fake.releases, 1);
}

TEST(CDataTest, LargeListIsConverted) {
  const int32_t values[] = {1, 2, 3};
  const int64_t offsets[] = {0, 2, 3};
  FakeArray child(3, 0, 0, {nullptr, values});
  FakeArray fake(2, 0, 0, {nullptr, offsets}, {&child});
  FakeSchema item("i", "item", ARROW_FLAG_NULLABLE);
  FakeSchema schema("+L", "l", ARROW_FLAG_NULLABLE, {&item});
  auto result = ImportArray(&fake.array, &schema.schema);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE((*result)->type->Equals(*List(Field{"item", Int32(), true, {}})));
  EXPECT_EQ((*result)->offsets()[1], 2);
  EXPECT_EQ((*result)->children[0]->values<int32_t>()[2], 3);
}

TEST(CDataTest, LargeOffsetsBeyondInt32AreNotImplemented) {
  const int64_t offsets[] = {0, 3'000'000'000LL};
  const char bytes[] = "x";  // never read
  FakeArray fake(1, 0, 0, {nullptr, offsets, bytes});
  FakeSchema schema("Z", "b", 0);
  auto result = ImportArray(&fake.array, &schema.schema);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kNotImplemented);
  EXPECT_NE(result.error().message.find("3000000000"), std::string::npos);
  EXPECT_EQ(fake.releases, 1);
}

// ---- streams ---------------------------------------------------------------------

TEST(CDataTest, StreamRoundTrip) {
  RecordBatch full = AllTypesBatch();
  std::vector<RecordBatch> batches;
  for (int64_t start : {0, 2, 4}) {
    std::vector<ArrayPtr> columns;
    const int64_t n = start == 4 ? 1 : 2;
    for (const ArrayPtr& c : full.columns) columns.push_back(Slice(c, start, n));
    batches.push_back(RecordBatch{full.schema, n, columns});
  }
  const std::vector<RecordBatch> expected = batches;
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchStream(full.schema, std::move(batches), &stream).ok());
  auto reader = CStreamReader::Open(&stream);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(stream.release, nullptr);  // the reader owns it now
  EXPECT_TRUE(reader->schema()->Equals(*full.schema));
  for (const RecordBatch& want : expected) {
    auto next = reader->Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    ASSERT_TRUE(next->has_value());
    std::string why;
    EXPECT_TRUE(BatchEquals(**next, want, &why)) << why;
  }
  for (int i = 0; i < 2; ++i) {
    auto end = reader->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_FALSE(end->has_value());
  }
}

TEST(CDataTest, StreamRefusesMismatchedBatches) {
  RecordBatch batch = AllTypesBatch();
  auto other = std::make_shared<Schema>(Schema{{{"x", Int64(), true, {}}}, {}});
  ArrowArrayStream stream{};
  Status status = ExportRecordBatchStream(other, {batch}, &stream);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(stream.release, nullptr);
}

// A producer whose get_next fails after one batch.
struct FailingStream {
  static inline int releases = 0;
  static inline int calls = 0;
  static int GetSchema(ArrowArrayStream*, ArrowSchema* out) {
    auto schema = std::make_shared<Schema>(Schema{{{"x", Int64(), true, {}}}, {}});
    return ExportSchema(*schema, out).ok() ? 0 : EINVAL;
  }
  static int GetNext(ArrowArrayStream*, ArrowArray* out) {
    if (calls++ == 0) {
      auto schema = std::make_shared<Schema>(Schema{{{"x", Int64(), true, {}}}, {}});
      auto batch = MakeRecordBatch(schema, {Numbers<Int64Builder, int64_t>(Int64(), {1, {}})});
      return ExportRecordBatch(*batch, out).ok() ? 0 : EINVAL;
    }
    return EIO;
  }
  static const char* LastError(ArrowArrayStream*) { return "disk on fire"; }
  static void Release(ArrowArrayStream* s) {
    ++releases;
    s->release = nullptr;
  }
};

TEST(CDataTest, StreamSurfacesProducerErrors) {
  FailingStream::releases = 0;
  FailingStream::calls = 0;
  {
    ArrowArrayStream stream{&FailingStream::GetSchema, &FailingStream::GetNext,
                            &FailingStream::LastError, &FailingStream::Release, nullptr};
    auto reader = CStreamReader::Open(&stream);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto first = reader->Next();
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    ASSERT_TRUE(first->has_value());
    EXPECT_EQ((**first).num_rows, 2);
    auto second = reader->Next();
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::kIoError);
    EXPECT_NE(second.error().message.find("disk on fire"), std::string::npos)
        << second.error().message;
    EXPECT_EQ(FailingStream::releases, 0);
  }
  EXPECT_EQ(FailingStream::releases, 1);
}

TEST(CDataTest, StreamWithBadSchemaIsReleased) {
  FailingStream::releases = 0;
  ArrowArrayStream stream{
      [](ArrowArrayStream*, ArrowSchema* out) { return ExportType(*Int64(), out).ok() ? 0 : 1; },
      &FailingStream::GetNext, &FailingStream::LastError, &FailingStream::Release, nullptr};
  auto reader = CStreamReader::Open(&stream);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.error().code, ErrorCode::kInvalidData);
  EXPECT_EQ(FailingStream::releases, 1);
}

TEST(CDataTest, ExportedStreamEndAndUpFrontChecks) {
  auto schema = std::make_shared<Schema>(Schema{{{"t", Time64(TimeUnit::kMicro), true, {}}}, {}});
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRecordBatchStream(schema, {}, &stream).ok());
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  ArrowArray end{};
  end.release = reinterpret_cast<void (*)(ArrowArray*)>(1);  // must be overwritten
  EXPECT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.release, nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);

  auto bad = std::make_shared<Schema>(Schema{{{"t", Time64(TimeUnit::kSecond), true, {}}}, {}});
  Status status = ExportRecordBatchStream(bad, {}, &stream);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("time64"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::columnar
