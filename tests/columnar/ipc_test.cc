#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "columnar/builder.h"
#include "columnar/compare.h"
#include "columnar/ipc/arrow_message_generated.h"
#include "columnar/ipc/ipc_reader.h"
#include "columnar/ipc/ipc_writer.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

namespace fb = ::hoglake::arrowfb;

// ---- data generation -----------------------------------------------------------

struct Rng {
  uint64_t state;
  uint64_t Next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

__int128 Pow10(int n) {
  __int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

std::string RandomBytes(Rng& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(rng.Next()));
  return s;
}

// Appends one random value (or a null, if the field allows it) of `field`'s
// type to `b`, recursing into nested types.
void AppendRandom(ArrayBuilder& b, const Field& field, Rng& rng) {
  if (field.nullable && rng.Next() % 5 == 0) {
    b.AppendNull();
    return;
  }
  const DataType& type = *field.type;
  const uint64_t r = rng.Next();
  switch (type.id) {
    case TypeId::kBool:
      static_cast<BooleanBuilder&>(b).Append(r & 1);
      return;
    case TypeId::kInt8:
      static_cast<NumericBuilder<int8_t>&>(b).Append(static_cast<int8_t>(r));
      return;
    case TypeId::kInt16:
      static_cast<NumericBuilder<int16_t>&>(b).Append(static_cast<int16_t>(r));
      return;
    case TypeId::kInt32:
    case TypeId::kDate32:
      static_cast<NumericBuilder<int32_t>&>(b).Append(static_cast<int32_t>(r));
      return;
    case TypeId::kInt64:
    case TypeId::kTimestamp:
      static_cast<NumericBuilder<int64_t>&>(b).Append(static_cast<int64_t>(r));
      return;
    case TypeId::kTime64:
      static_cast<NumericBuilder<int64_t>&>(b).Append(static_cast<int64_t>(r % 86400000000ULL));
      return;
    case TypeId::kUInt8:
      static_cast<NumericBuilder<uint8_t>&>(b).Append(static_cast<uint8_t>(r));
      return;
    case TypeId::kUInt16:
      static_cast<NumericBuilder<uint16_t>&>(b).Append(static_cast<uint16_t>(r));
      return;
    case TypeId::kUInt32:
      static_cast<NumericBuilder<uint32_t>&>(b).Append(static_cast<uint32_t>(r));
      return;
    case TypeId::kUInt64:
      static_cast<NumericBuilder<uint64_t>&>(b).Append(r);
      return;
    case TypeId::kFloat32:
      static_cast<NumericBuilder<float>&>(b).Append(static_cast<float>(static_cast<int32_t>(r)) /
                                                    7.0f);
      return;
    case TypeId::kFloat64:
      static_cast<NumericBuilder<double>&>(b).Append(static_cast<double>(static_cast<int64_t>(r)) /
                                                     3.0);
      return;
    case TypeId::kDecimal128: {
      const __int128 limit = Pow10(type.precision);  // |value| < 10^precision
      __int128 v;
      switch (r % 4) {
        case 0:
          v = limit - 1;
          break;
        case 1:
          v = -(limit - 1);
          break;
        default: {
          const __int128 wide = (static_cast<__int128>(rng.Next()) << 64) | rng.Next();
          v = (wide < 0 ? -wide : wide) % limit;
          if (r & 8) v = -v;
        }
      }
      static_cast<Decimal128Builder&>(b).Append(v);
      return;
    }
    case TypeId::kUtf8: {
      static const char* kText[] = {
          "",         "a",           "héllo wörld",
          "✓ 😀 漢字", "line\nbreak", "a rather longer string to move the offsets along"};
      static_cast<BinaryBuilder&>(b).Append(kText[r % 6]);
      return;
    }
    case TypeId::kBinary:
      static_cast<BinaryBuilder&>(b).Append(RandomBytes(rng, r % 9));
      return;
    case TypeId::kFixedSizeBinary:
    case TypeId::kIntervalMonthDayNano:
      ASSERT_TRUE(static_cast<FixedSizeBinaryBuilder&>(b)
                      .Append(RandomBytes(rng, static_cast<size_t>(type.byte_width)))
                      .ok());
      return;
    case TypeId::kList: {
      auto& lb = static_cast<ListBuilder&>(b);
      lb.Append();
      for (uint64_t n = r % 4; n > 0; --n)
        AppendRandom(lb.value_builder(), type.list_element(), rng);
      return;
    }
    case TypeId::kStruct: {
      auto& sb = static_cast<StructBuilder&>(b);
      sb.Append();
      for (int i = 0; i < sb.num_children(); ++i) AppendRandom(sb.child(i), type.children[i], rng);
      return;
    }
    case TypeId::kMap: {
      auto& mb = static_cast<MapBuilder&>(b);
      mb.Append();
      for (uint64_t n = r % 3; n > 0; --n) {
        AppendRandom(mb.key_builder(), type.map_key(), rng);
        AppendRandom(mb.item_builder(), type.map_value(), rng);
      }
      return;
    }
  }
}

Field F(std::string name, DataTypePtr type, int32_t id, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, {}}.WithFieldId(id);
}

// Every type of type.h, nested ones included, with field ids, extension names
// and schema metadata.
SchemaPtr EveryTypeSchema() {
  std::vector<Field> fields = {
      F("b", Bool(), 1),
      F("i8", Int8(), 2),
      F("i16", Int16(), 3),
      F("i32", Int32(), 4),
      F("i64", Int64(), 5, false),
      F("u8", UInt8(), 6),
      F("u16", UInt16(), 7),
      F("u32", UInt32(), 8),
      F("u64", UInt64(), 9),
      F("f32", Float32(), 10),
      F("f64", Float64(), 11),
      F("dec38", Decimal128(38, 10), 12),
      F("dec5", Decimal128(5, 2), 13),
      F("d", Date32(), 14),
      F("t_us", Time64(TimeUnit::kMicro), 15),
      F("t_ns", Time64(TimeUnit::kNano), 16),
      F("ts_s", Timestamp(TimeUnit::kSecond), 17),
      F("ts_ms", Timestamp(TimeUnit::kMilli), 18),
      F("ts_us", Timestamp(TimeUnit::kMicro), 19),
      F("ts_ns", Timestamp(TimeUnit::kNano), 20),
      F("tz_s", Timestamp(TimeUnit::kSecond, "UTC"), 21),
      F("tz_ms", Timestamp(TimeUnit::kMilli, "+07:30"), 22),
      F("tz_us", Timestamp(TimeUnit::kMicro, "America/New_York"), 23),
      F("tz_ns", Timestamp(TimeUnit::kNano, "Europe/Paris"), 24),
      F("s", Utf8(), 25),
      JsonField("j").WithFieldId(26),
      F("bin", Binary(), 27),
      UuidField("uuid").WithFieldId(28),
      F("fsb3", FixedSizeBinary(3), 29, false),
      F("l", List(F("element", Int32(), 31)), 30),
      F("ls", List(F("element", Struct({F("a", Utf8(), 34), F("b", Float64(), 35)}), 33, false)),
        32),
      F("m", Map(Utf8(), F("value", List(F("element", Int32(), 39)), 38)), 36),
      F("st",
        Struct({F("x", Int64(), 41, false), F("y", List(F("element", Utf8(), 43)), 42),
                F("z", Struct({F("q", Bool(), 45)}), 44)}),
        40),
      F("empty", Struct({}), 46),
      F("mm", Map(Int64(), Map(Utf8(), Bool())), 47),
      F("ivl", IntervalMonthDayNano(), 48),
      F("ivls", List(F("element", IntervalMonthDayNano(), 50)), 49),
  };
  return std::make_shared<Schema>(
      Schema{fields, {{"origin", "hoglake ipc test"}, {"empty value", ""}}});
}

RecordBatch MakeBatch(const SchemaPtr& schema, int64_t rows, uint64_t seed) {
  Rng rng{seed * 2654435761u + 1};
  std::vector<ArrayPtr> columns;
  for (const Field& field : schema->fields) {
    auto builder = MakeBuilder(field.type);
    for (int64_t r = 0; r < rows; ++r) AppendRandom(*builder, field, rng);
    auto array = builder->Finish();
    EXPECT_TRUE(array.ok()) << array.status().ToString();
    columns.push_back(*array);
  }
  auto batch = MakeRecordBatch(schema, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_TRUE(ValidateBatch(*batch).ok());
  return *batch;
}

// Rows [offset, offset + length) as a zero-copy slice.
RecordBatch Slice(const RecordBatch& batch, int64_t offset, int64_t length) {
  RecordBatch out{batch.schema, length, {}};
  for (const ArrayPtr& column : batch.columns) {
    auto sliced = std::make_shared<ArrayData>(*column);
    sliced->offset += offset;
    sliced->length = length;
    sliced->null_count = 0;
    for (int64_t i = 0; i < length; ++i) sliced->null_count += column->IsNull(offset + i);
    out.columns.push_back(std::move(sliced));
  }
  return out;
}

std::string MustWrite(const Schema& schema, const std::vector<RecordBatch>& batches) {
  auto bytes = WriteIpcStream(schema, batches);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::string();
}

void ExpectRoundTrip(const SchemaPtr& schema, const std::vector<RecordBatch>& batches) {
  const std::string bytes = MustWrite(*schema, batches);
  auto read = ReadIpcStream(bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->first->Equals(*schema)) << read->first->ToString() << "\nvs\n"
                                            << schema->ToString();
  ASSERT_EQ(read->second.size(), batches.size());
  for (size_t i = 0; i < batches.size(); ++i) {
    std::string why;
    EXPECT_TRUE(BatchEquals(read->second[i], batches[i], &why)) << "batch " << i << ": " << why;
    EXPECT_TRUE(ValidateBatch(read->second[i]).ok());
  }
}

// ---- stream surgery ----------------------------------------------------------------

uint32_t U32At(const std::string& s, size_t pos) {
  uint32_t v;
  std::memcpy(&v, s.data() + pos, 4);
  return v;
}

std::string U32Bytes(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

struct MessageSpan {
  size_t start;
  size_t metadata_start;
  size_t metadata_length;
  size_t end;  // one past the body
};

// The messages of a well-formed framed stream written by us (EOS excluded).
std::vector<MessageSpan> Messages(const std::string& s) {
  std::vector<MessageSpan> out;
  size_t pos = 0;
  while (pos + 8 <= s.size()) {
    EXPECT_EQ(U32At(s, pos), 0xFFFFFFFFu);
    const uint32_t length = U32At(s, pos + 4);
    if (length == 0) break;
    const fb::Message* m = fb::GetMessage(s.data() + pos + 8);
    const size_t end = pos + 8 + length + static_cast<size_t>(m->body_length());
    out.push_back({pos, pos + 8, length, end});
    pos = end;
  }
  return out;
}

// Frames a hand-made message: marker, padded length, flatbuffer, body.
std::string Frame(flatbuffers::FlatBufferBuilder& fbb, const std::string& body = "") {
  std::string meta(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  while ((meta.size() + 8) % 8 != 0) meta.push_back('\0');
  return U32Bytes(0xFFFFFFFFu) + U32Bytes(static_cast<uint32_t>(meta.size())) + meta + body;
}

std::string Eos() { return U32Bytes(0xFFFFFFFFu) + U32Bytes(0); }

// The schema message alone, as our writer produces it.
std::string SchemaMessage(const Schema& schema) {
  std::string s = MustWrite(schema, {});
  return s.substr(0, s.size() - 8);
}

struct RawBuffer {
  int64_t offset;
  int64_t length;
};

flatbuffers::Offset<fb::RecordBatch> RecordBatchTable(
    flatbuffers::FlatBufferBuilder& fbb, int64_t rows,
    const std::vector<std::pair<int64_t, int64_t>>& nodes, const std::vector<RawBuffer>& buffers,
    bool compressed = false) {
  std::vector<fb::FieldNode> fb_nodes;
  for (auto [length, nulls] : nodes) fb_nodes.emplace_back(length, nulls);
  std::vector<fb::Buffer> fb_buffers;
  for (const RawBuffer& b : buffers) fb_buffers.emplace_back(b.offset, b.length);
  auto n = fbb.CreateVectorOfStructs(fb_nodes);
  auto b = fbb.CreateVectorOfStructs(fb_buffers);
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (compressed) compression = fb::CreateBodyCompression(fbb, fb::CompressionType_ZSTD);
  return fb::CreateRecordBatch(fbb, rows, n, b, compression);
}

// A RecordBatch message with the given nodes, buffers and body.
std::string BatchMessage(int64_t rows, const std::vector<std::pair<int64_t, int64_t>>& nodes,
                         const std::vector<RawBuffer>& buffers, const std::string& body,
                         int64_t body_length = -1, bool compressed = false) {
  flatbuffers::FlatBufferBuilder fbb;
  auto rb = RecordBatchTable(fbb, rows, nodes, buffers, compressed);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_RecordBatch,
                               rb.Union(),
                               body_length >= 0 ? body_length : static_cast<int64_t>(body.size())));
  return Frame(fbb, body);
}

// A DictionaryBatch message carrying `values` (a utf8 column) for `id`.
std::string DictionaryMessage(int64_t id, const std::vector<std::string>& values,
                              bool delta = false) {
  std::string offsets, data;
  int32_t end = 0;
  offsets.append(reinterpret_cast<const char*>(&end), 4);
  for (const std::string& v : values) {
    data += v;
    end = static_cast<int32_t>(data.size());
    offsets.append(reinterpret_cast<const char*>(&end), 4);
  }
  while (offsets.size() % 8) offsets.push_back('\0');
  const int64_t n = static_cast<int64_t>(values.size());
  const std::string body = offsets + data + std::string((8 - data.size() % 8) % 8, '\0');
  flatbuffers::FlatBufferBuilder fbb;
  auto rb =
      RecordBatchTable(fbb, n, {{n, 0}},
                       {{0, 0},
                        {0, static_cast<int64_t>(4 * (n + 1))},
                        {static_cast<int64_t>(offsets.size()), static_cast<int64_t>(data.size())}});
  auto dict = fb::CreateDictionaryBatch(fbb, id, rb, delta);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_DictionaryBatch,
                               dict.Union(), static_cast<int64_t>(body.size())));
  return Frame(fbb, body);
}

template <typename T>
std::string Bytes(std::initializer_list<T> values) {
  std::string s;
  for (T v : values) s.append(reinterpret_cast<const char*>(&v), sizeof(T));
  while (s.size() % 8 != 0) s.push_back('\0');
  return s;
}

void ExpectError(const Result<std::pair<SchemaPtr, std::vector<RecordBatch>>>& result,
                 ErrorCode code, const std::string& fragment) {
  ASSERT_FALSE(result.ok()) << "expected an error containing '" << fragment << "'";
  EXPECT_EQ(result.error().code, code) << result.error().ToString();
  EXPECT_NE(result.error().message.find(fragment), std::string::npos) << result.error().ToString();
}

// ---- round trips -------------------------------------------------------------------

TEST(IpcTest, RoundTripEveryTypeWithNulls) {
  SchemaPtr schema = EveryTypeSchema();
  ExpectRoundTrip(schema, {MakeBatch(schema, 200, 1)});
}

TEST(IpcTest, RoundTripMultipleBatches) {
  SchemaPtr schema = EveryTypeSchema();
  ExpectRoundTrip(schema,
                  {MakeBatch(schema, 50, 2), MakeBatch(schema, 1, 3), MakeBatch(schema, 130, 4)});
}

TEST(IpcTest, RoundTripEmptyBatch) {
  SchemaPtr schema = EveryTypeSchema();
  ExpectRoundTrip(schema, {MakeBatch(schema, 0, 5), MakeBatch(schema, 3, 6)});
}

TEST(IpcTest, RoundTripSlicedArrays) {
  SchemaPtr schema = EveryTypeSchema();
  RecordBatch batch = MakeBatch(schema, 150, 7);
  std::vector<RecordBatch> slices;
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 20}, {3, 61}, {8, 17}, {13, 0}, {0, 149}, {149, 1}, {77, 73}}) {
    slices.push_back(Slice(batch, offset, length));
  }
  ExpectRoundTrip(schema, slices);
}

TEST(IpcTest, RoundTripSlicedNestedChildren) {
  // A sliced list whose child is itself a slice: the list has offset 7, its
  // offsets are rebased to the child's view, and the struct child starts
  // `first` slots into its own buffers (and so do the struct's children).
  auto type = List(F("element", Struct({F("v", Int16(), 2), F("w", Utf8(), 3)}), 1));
  SchemaPtr schema = std::make_shared<Schema>(Schema{{F("col", type, 4)}, {}});
  RecordBatch batch = MakeBatch(schema, 40, 8);
  const ArrayData& list = *batch.columns[0];
  const int32_t first = list.offsets()[7];
  ASSERT_GT(first, 0);

  auto child = std::make_shared<ArrayData>(*list.children[0]);
  child->offset += first;
  child->length -= first;
  child->null_count = 0;
  for (int64_t i = 0; i < child->length; ++i)
    child->null_count += list.children[0]->IsNull(first + i);

  auto offsets = Buffer::Allocate((list.length + 1) * 4);
  auto* out = reinterpret_cast<int32_t*>(offsets->mutable_data());
  for (int64_t i = 7; i <= list.length; ++i) out[i] = list.offsets()[i] - first;

  auto sliced = std::make_shared<ArrayData>(list);
  sliced->offset = 7;
  sliced->length = 20;
  sliced->null_count = 0;
  for (int64_t i = 0; i < 20; ++i) sliced->null_count += list.IsNull(7 + i);
  sliced->buffers[1] = offsets;
  sliced->children = {child};
  RecordBatch view{schema, 20, {sliced}};
  ASSERT_TRUE(ValidateBatch(view).ok()) << ValidateBatch(view).ToString();
  std::string why;
  ASSERT_TRUE(BatchEquals(view, Slice(batch, 7, 20), &why)) << why;
  ExpectRoundTrip(schema, {view});
}

TEST(IpcTest, SchemaOnlyStream) {
  SchemaPtr schema = EveryTypeSchema();
  const std::string bytes = MustWrite(*schema, {});
  auto read = ReadIpcStream(bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->first->Equals(*schema));
  EXPECT_TRUE(read->second.empty());
}

TEST(IpcTest, EmptySchema) {
  SchemaPtr schema = std::make_shared<Schema>();
  auto batch = MakeRecordBatch(schema, {});
  ASSERT_TRUE(batch.ok());
  ExpectRoundTrip(schema, {*batch});
}

TEST(IpcTest, FieldAndSchemaMetadataSurvive) {
  SchemaPtr schema = EveryTypeSchema();
  auto read = ReadIpcStream(MustWrite(*schema, {}));
  ASSERT_TRUE(read.ok());
  const Schema& got = *read->first;
  EXPECT_EQ(got.fields[got.FieldIndex("s")].field_id(), 25);
  EXPECT_EQ(got.fields[got.FieldIndex("j")].extension_name(), kJsonExtension);
  EXPECT_EQ(got.fields[got.FieldIndex("uuid")].extension_name(), kUuidExtension);
  const Field& m = got.fields[got.FieldIndex("m")];
  EXPECT_EQ(m.type->map_value().field_id(), 38);
  EXPECT_EQ(m.type->map_value().type->list_element().field_id(), 39);
  EXPECT_EQ(got.metadata, schema->metadata);
}

TEST(IpcTest, WriterFraming) {
  SchemaPtr schema = EveryTypeSchema();
  const std::string bytes = MustWrite(*schema, {MakeBatch(schema, 33, 9)});
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), Eos());
  auto messages = Messages(bytes);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[1].end, bytes.size() - 8);
  for (const MessageSpan& span : messages) {
    EXPECT_EQ(span.metadata_length % 8, 0u);
    EXPECT_EQ(span.start % 8, 0u);
    const fb::Message* m = fb::GetMessage(bytes.data() + span.metadata_start);
    EXPECT_EQ(m->version(), fb::MetadataVersion_V5);
    EXPECT_EQ(m->body_length() % 8, 0);
  }
  const fb::Message* m = fb::GetMessage(bytes.data() + messages[1].metadata_start);
  const fb::RecordBatch* rb = m->header_as_RecordBatch();
  ASSERT_NE(rb, nullptr);
  EXPECT_EQ(rb->length(), 33);
  EXPECT_EQ(rb->compression(), nullptr);
  for (const fb::Buffer* buffer : *rb->buffers()) {
    EXPECT_EQ(buffer->offset() % 8, 0);
    EXPECT_LE(buffer->offset() + buffer->length(), m->body_length());
  }
  // Top-level schema fields map to Arrow's types.
  const fb::Message* sm = fb::GetMessage(bytes.data() + messages[0].metadata_start);
  const fb::Schema* fs = sm->header_as_Schema();
  ASSERT_NE(fs, nullptr);
  const fb::Field* dec = fs->fields()->Get(11);
  ASSERT_EQ(dec->type_type(), fb::Type_Decimal);
  EXPECT_EQ(dec->type_as_Decimal()->precision(), 38);
  EXPECT_EQ(dec->type_as_Decimal()->scale(), 10);
  EXPECT_EQ(dec->type_as_Decimal()->bit_width(), 128);
  const fb::Field* date = fs->fields()->Get(13);
  ASSERT_EQ(date->type_type(), fb::Type_Date);
  EXPECT_EQ(date->type_as_Date()->unit(), fb::DateUnit_DAY);
  const fb::Field* time = fs->fields()->Get(14);
  ASSERT_EQ(time->type_type(), fb::Type_Time);
  EXPECT_EQ(time->type_as_Time()->bit_width(), 64);
  EXPECT_EQ(time->type_as_Time()->unit(), fb::TimeUnit_MICROSECOND);
  const fb::Field* map = fs->fields()->Get(31);
  ASSERT_EQ(map->type_type(), fb::Type_Map);
  ASSERT_EQ(map->children()->size(), 1u);
  EXPECT_EQ(map->children()->Get(0)->name()->str(), "entries");
  EXPECT_FALSE(map->children()->Get(0)->nullable());
  EXPECT_EQ(map->children()->Get(0)->type_type(), fb::Type_Struct_);
}

TEST(IpcTest, ValidityOmittedWithoutNulls) {
  Int32Builder b;
  for (int i = 0; i < 10; ++i) b.Append(i);
  SchemaPtr schema = std::make_shared<Schema>(Schema{{Field{"x", Int32(), true, {}}}, {}});
  auto batch = MakeRecordBatch(schema, {*b.Finish()});
  ASSERT_TRUE(batch.ok());
  const std::string bytes = MustWrite(*schema, {*batch});
  const fb::Message* m = fb::GetMessage(bytes.data() + Messages(bytes)[1].metadata_start);
  EXPECT_EQ(m->header_as_RecordBatch()->buffers()->Get(0)->length(), 0);
  EXPECT_EQ(m->header_as_RecordBatch()->nodes()->Get(0)->null_count(), 0);
}

TEST(IpcTest, ZeroCopyFromAlignedMemory) {
  SchemaPtr schema = EveryTypeSchema();
  const std::string bytes = MustWrite(*schema, {MakeBatch(schema, 64, 10)});
  auto input = Buffer::CopyOf(bytes.data(), static_cast<int64_t>(bytes.size()));
  auto read = ReadIpcStream(input);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const ArrayData& i64 = *read->second[0].columns[schema->FieldIndex("i64")];
  EXPECT_GE(i64.buffers[1]->data(), input->data());
  EXPECT_LT(i64.buffers[1]->data(), input->data() + input->size());
}

TEST(IpcTest, MisalignedInputIsCopiedNotMisread) {
  SchemaPtr schema = EveryTypeSchema();
  RecordBatch batch = MakeBatch(schema, 64, 11);
  const std::string bytes = MustWrite(*schema, {batch});
  // Place the stream at an odd address.
  auto holder = Buffer::Allocate(static_cast<int64_t>(bytes.size()) + 1);
  std::memcpy(holder->mutable_data() + 1, bytes.data(), bytes.size());
  auto input = Buffer::Slice(holder, 1, static_cast<int64_t>(bytes.size()));
  auto read = ReadIpcStream(input);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  std::string why;
  EXPECT_TRUE(BatchEquals(read->second[0], batch, &why)) << why;
  const ArrayData& i64 = *read->second[0].columns[schema->FieldIndex("i64")];
  EXPECT_EQ(reinterpret_cast<uintptr_t>(i64.buffers[1]->data()) % 8, 0u);
  const ArrayData& dec = *read->second[0].columns[schema->FieldIndex("dec38")];
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dec.buffers[1]->data()) % 16, 0u);
}

TEST(IpcTest, LegacyFramingWithoutContinuationMarker) {
  SchemaPtr schema = EveryTypeSchema();
  std::vector<RecordBatch> batches = {MakeBatch(schema, 20, 12), MakeBatch(schema, 7, 13)};
  const std::string bytes = MustWrite(*schema, batches);
  std::string legacy;
  for (const MessageSpan& span : Messages(bytes)) {
    legacy += bytes.substr(span.start + 4, span.end - span.start - 4);
  }
  legacy += U32Bytes(0);
  auto read = ReadIpcStream(legacy);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->second.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_TRUE(BatchEquals(read->second[i], batches[i]));
  // And without any end marker.
  legacy.resize(legacy.size() - 4);
  read = ReadIpcStream(legacy);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->second.size(), 2u);
}

TEST(IpcTest, StreamWithoutEndMarker) {
  SchemaPtr schema = EveryTypeSchema();
  RecordBatch batch = MakeBatch(schema, 10, 14);
  std::string bytes = MustWrite(*schema, {batch});
  bytes.resize(bytes.size() - 8);
  auto read = ReadIpcStream(bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->second.size(), 1u);
  EXPECT_TRUE(BatchEquals(read->second[0], batch));
}

TEST(IpcTest, IncrementalReaderOverIstreamAndFile) {
  SchemaPtr schema = EveryTypeSchema();
  std::vector<RecordBatch> batches = {MakeBatch(schema, 30, 15), MakeBatch(schema, 0, 16),
                                      MakeBatch(schema, 5, 17)};
  const std::string bytes = MustWrite(*schema, batches);

  std::istringstream in(bytes);
  IpcStreamReader reader(&in);
  auto read_schema = reader.ReadSchema();
  ASSERT_TRUE(read_schema.ok()) << read_schema.status().ToString();
  EXPECT_TRUE((*read_schema)->Equals(*schema));
  for (const RecordBatch& expected : batches) {
    auto batch = reader.Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_TRUE(batch->has_value());
    EXPECT_TRUE(BatchEquals(**batch, expected));
  }
  auto end = reader.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
  end = reader.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());

  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file), bytes.size());
  std::rewind(file);
  IpcStreamReader file_reader(file);
  int count = 0;
  while (true) {  // Next() reads the schema itself
    auto batch = file_reader.Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch->has_value()) break;
    EXPECT_TRUE(BatchEquals(**batch, batches[count]));
    ++count;
  }
  EXPECT_EQ(count, 3);
  std::fclose(file);
}

TEST(IpcTest, WriterSinksProduceTheSameBytes) {
  SchemaPtr schema = EveryTypeSchema();
  RecordBatch batch = MakeBatch(schema, 25, 18);
  const std::string expected = MustWrite(*schema, {batch});

  std::ostringstream out;
  IpcStreamWriter to_stream(&out);
  ASSERT_TRUE(to_stream.Start(*schema).ok());
  ASSERT_TRUE(to_stream.WriteBatch(batch).ok());
  ASSERT_TRUE(to_stream.Close().ok());
  EXPECT_EQ(out.str(), expected);

  std::string collected;
  int calls = 0;
  IpcStreamWriter to_callback([&](std::string_view bytes) {
    collected.append(bytes);
    ++calls;
    return Status::Ok();
  });
  ASSERT_TRUE(to_callback.Start(*schema).ok());
  ASSERT_TRUE(to_callback.WriteBatch(batch).ok());
  ASSERT_TRUE(to_callback.Close().ok());
  EXPECT_EQ(collected, expected);
  EXPECT_EQ(to_callback.bytes_written(), static_cast<int64_t>(expected.size()));
  EXPECT_GT(calls, 3);
}

TEST(IpcTest, WriterReportsSinkFailure) {
  SchemaPtr schema = EveryTypeSchema();
  IpcStreamWriter writer([](std::string_view) { return Status(IoError("disk full")); });
  Status status = writer.Start(*schema);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kIoError);
  status = writer.Close();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "disk full");
}

TEST(IpcTest, WriterRejectsMisuse) {
  SchemaPtr schema = EveryTypeSchema();
  RecordBatch batch = MakeBatch(schema, 3, 19);
  std::string out;
  IpcStreamWriter writer(&out);
  EXPECT_EQ(writer.WriteBatch(batch).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(writer.Close().error().code, ErrorCode::kInvalidArgument);
  ASSERT_TRUE(writer.Start(*schema).ok());
  EXPECT_FALSE(writer.Start(*schema).ok());

  SchemaPtr other = std::make_shared<Schema>(Schema{{Field{"x", Int32(), true, {}}}, {}});
  Int32Builder ints;
  ints.Append(1);
  auto wrong = MakeRecordBatch(other, {*ints.Finish()});
  ASSERT_TRUE(wrong.ok());
  EXPECT_EQ(writer.WriteBatch(*wrong).error().code, ErrorCode::kInvalidArgument);

  // A corrupt batch is refused before anything is written.
  const size_t before = out.size();
  RecordBatch broken = batch;
  auto column = std::make_shared<ArrayData>(*broken.columns[schema->FieldIndex("s")]);
  column->null_count += 1;
  broken.columns[schema->FieldIndex("s")] = column;
  EXPECT_FALSE(writer.WriteBatch(broken).ok());
  EXPECT_EQ(out.size(), before);

  ASSERT_TRUE(writer.WriteBatch(batch).ok());
  ASSERT_TRUE(writer.Close().ok());
  EXPECT_EQ(writer.WriteBatch(batch).error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(writer.Close().ok());
}

TEST(IpcTest, WriterRejectsWhatArrowCannotExpress) {
  auto schema = Schema{{Field{"t", Time64(TimeUnit::kMilli), true, {}}}, {}};
  auto result = WriteIpcStream(schema, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("'t'"), std::string::npos);

  DataTypePtr deep = Int32();
  for (int i = 0; i < 70; ++i) deep = List(deep);
  result = WriteIpcStream(Schema{{Field{"deep", deep, true, {}}}, {}}, {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("nesting"), std::string::npos);
}

// ---- hand-made streams ---------------------------------------------------------------

// Schema helpers for hand-built schema messages.
flatbuffers::Offset<fb::Field> FbField(flatbuffers::FlatBufferBuilder& fbb, const char* name,
                                       fb::Type tag, flatbuffers::Offset<void> type,
                                       std::vector<flatbuffers::Offset<fb::Field>> children = {},
                                       flatbuffers::Offset<fb::DictionaryEncoding> dict = 0) {
  auto n = fbb.CreateString(name);
  auto c = fbb.CreateVector(children);
  return fb::CreateField(fbb, n, true, tag, type, dict, c);
}

std::string FbSchemaMessage(flatbuffers::FlatBufferBuilder& fbb,
                            std::vector<flatbuffers::Offset<fb::Field>> fields) {
  auto f = fbb.CreateVector(fields);
  auto schema = fb::CreateSchema(fbb, fb::Endianness_Little, f);
  fbb.Finish(
      fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_Schema, schema.Union()));
  return Frame(fbb);
}

// s: large_utf8 = ["ab", null, "cde"], l: large_list<int32> = [[1, 2], [], [3]].
std::string LargeTypesStream() {
  flatbuffers::FlatBufferBuilder fbb;
  auto s = FbField(fbb, "s", fb::Type_LargeUtf8, fb::CreateLargeUtf8(fbb).Union());
  auto item = FbField(fbb, "item", fb::Type_Int, fb::CreateInt(fbb, 32, true).Union());
  auto l = FbField(fbb, "l", fb::Type_LargeList, fb::CreateLargeList(fbb).Union(), {item});
  std::string stream = FbSchemaMessage(fbb, {s, l});
  std::string body;
  auto add = [&](const std::string& bytes) {
    RawBuffer b{static_cast<int64_t>(body.size()), static_cast<int64_t>(bytes.size())};
    body += bytes;
    return b;
  };
  RawBuffer s_validity = add(Bytes<uint8_t>({0b101}));
  RawBuffer s_offsets = add(Bytes<int64_t>({0, 2, 2, 5}));
  RawBuffer s_data = add(Bytes<char>({'a', 'b', 'c', 'd', 'e'}));
  RawBuffer l_offsets = add(Bytes<int64_t>({0, 2, 2, 3}));
  RawBuffer item_values = add(Bytes<int32_t>({1, 2, 3}));
  stream +=
      BatchMessage(3, {{3, 1}, {3, 0}, {3, 0}},
                   {s_validity, s_offsets, s_data, {0, 0}, l_offsets, {0, 0}, item_values}, body);
  return stream + Eos();
}

TEST(IpcTest, ReadsLargeUtf8AndLargeList) {
  auto read = ReadIpcStream(LargeTypesStream());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->first->fields[0].type->Equals(*Utf8()));
  EXPECT_TRUE(read->first->fields[1].type->Equals(*List(Field{"item", Int32(), true, {}})));
  const RecordBatch& batch = read->second.at(0);
  StringBuilder sb;
  sb.Append("ab");
  sb.AppendNull();
  sb.Append("cde");
  EXPECT_TRUE(ArrayEquals(*batch.columns[0], **sb.Finish()));
  EXPECT_EQ(batch.columns[1]->offsets()[3], 3);
  EXPECT_EQ(batch.columns[1]->children[0]->values<int32_t>()[2], 3);
}

TEST(IpcTest, LargeOffsetsBeyondInt32AreNotImplemented) {
  flatbuffers::FlatBufferBuilder fbb;
  auto s = FbField(fbb, "s", fb::Type_LargeBinary, fb::CreateLargeBinary(fbb).Union());
  std::string stream = FbSchemaMessage(fbb, {s});
  std::string body = Bytes<int64_t>({0, int64_t{1} << 33}) + Bytes<char>({'x'});
  stream += BatchMessage(1, {{1, 0}}, {{0, 0}, {0, 16}, {16, 8}}, body);
  ExpectError(ReadIpcStream(stream), ErrorCode::kNotImplemented, "32-bit offsets");
}

// A schema with one dictionary-encoded utf8 field "s" (dictionary `id`,
// int8 indices) and a list of dictionary-encoded strings "l" (id 9, uint16).
std::string DictionarySchema(int64_t id, fb::Type value_tag = fb::Type_Utf8) {
  flatbuffers::FlatBufferBuilder fbb;
  auto value_type = value_tag == fb::Type_Utf8 ? fb::CreateUtf8(fbb).Union()
                                               : fb::CreateInt(fbb, 32, true).Union();
  auto s = FbField(fbb, "s", value_tag, value_type, {},
                   fb::CreateDictionaryEncoding(fbb, id, fb::CreateInt(fbb, 8, true)));
  auto item = FbField(fbb, "item", fb::Type_Utf8, fb::CreateUtf8(fbb).Union(), {},
                      fb::CreateDictionaryEncoding(fbb, 9, fb::CreateInt(fbb, 16, false)));
  auto l = FbField(fbb, "l", fb::Type_List, fb::CreateList(fbb).Union(), {item});
  return FbSchemaMessage(fbb, {s, l});
}

// A batch of `s` indices (int8; -1 = null) and l = [[i0], [i1], ...] with the
// given uint16 indices.
std::string DictionaryBatchRows(const std::vector<int8_t>& s, const std::vector<uint16_t>& l) {
  const int64_t n = static_cast<int64_t>(s.size());
  std::string body;
  auto add = [&](std::string bytes) {
    RawBuffer b{static_cast<int64_t>(body.size()), static_cast<int64_t>(bytes.size())};
    while (bytes.size() % 8) bytes.push_back('\0');
    body += bytes;
    return b;
  };
  std::string validity((n + 7) / 8, '\0');
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (s[i] >= 0)
      validity[i / 8] = static_cast<char>(validity[i / 8] | (1 << (i % 8)));
    else
      ++nulls;
  }
  RawBuffer s_validity = add(validity);
  RawBuffer s_indices = add(std::string(reinterpret_cast<const char*>(s.data()), s.size()));
  std::vector<int32_t> offsets;
  for (int32_t i = 0; i <= static_cast<int32_t>(l.size()); ++i) offsets.push_back(i);
  RawBuffer l_offsets =
      add(std::string(reinterpret_cast<const char*>(offsets.data()), 4 * offsets.size()));
  RawBuffer item_indices = add(std::string(reinterpret_cast<const char*>(l.data()), 2 * l.size()));
  const int64_t m = static_cast<int64_t>(l.size());
  return BatchMessage(n, {{n, nulls}, {m, 0}, {m, 0}},
                      {s_validity, s_indices, {0, 0}, l_offsets, {0, 0}, item_indices}, body);
}

std::vector<std::string> Strings(const ArrayData& a) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < a.length; ++i) {
    out.push_back(a.IsNull(i) ? "<null>" : std::string(a.GetView(i)));
  }
  return out;
}

std::string DictionaryStream() {
  return DictionarySchema(7) + DictionaryMessage(7, {"x", "yy", "", "zzz"}) +
         DictionaryMessage(9, {"a", "b"}) + DictionaryBatchRows({1, 0, -1, 3, 2}, {1, 1, 0, 1, 0}) +
         DictionaryMessage(7, {"q"}) + DictionaryBatchRows({0}, {0}) + Eos();
}

TEST(IpcTest, DictionaryEncodedUtf8IsMaterialized) {
  auto read = ReadIpcStream(DictionaryStream());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->first->fields[0].type->Equals(*Utf8()));
  EXPECT_TRUE(read->first->fields[1].type->Equals(*List(Field{"item", Utf8(), true, {}})));
  ASSERT_EQ(read->second.size(), 2u);
  const RecordBatch& first = read->second[0];
  EXPECT_EQ(Strings(*first.columns[0]), (std::vector<std::string>{"yy", "x", "<null>", "zzz", ""}));
  EXPECT_EQ(Strings(*first.columns[1]->children[0]),
            (std::vector<std::string>{"b", "b", "a", "b", "a"}));
  // The second dictionary batch for id 7 replaced the first.
  EXPECT_EQ(Strings(*read->second[1].columns[0]), (std::vector<std::string>{"q"}));
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// Written by apache-arrow (JS) 21.2.0: tableToIPC(new Table({dict}),
// "stream") with dict = vectorFromArray(["x", "y", "x", null],
// new Dictionary(new Utf8(), new Int32())).
std::string ArrowJsDictionaryStream() {
  return FromHex(
      "ffffffff980000001000000000000a0010000e00070008000a000000000000010800000000000400acffffff0400"
      "0000"
      "010000001400000010001c0008000f00170018000400100010000000380000001400000000000001180000000000"
      "0005"
      "180000000400000064696374000000000000000004000400040000000800080000000400080000000c0000000800"
      "0c00"
      "08000700080000000000000120000000ffffffffb000000014000000000000000c001c001a001300140004000c00"
      "0000"
      "18000000000000000000000000000002100000000000040008000a0000000400080000001000000000000a001800"
      "0c00"
      "080004000a0000001400000048000000020000000000000000000000030000000000000000000000000000000000"
      "0000"
      "00000000000000001000000000000000100000000000000008000000000000000000000001000000020000000000"
      "0000"
      "0000000000000000000000000100000002000000000000007879000000000000ffffffff88000000140000000000"
      "0000"
      "0c00160014000f00100004000c0000005000000000000000000000031000000004000a0018000c00080004000a00"
      "0000"
      "14000000380000000400000000000000000000000200000000000000000000004000000000000000400000000000"
      "0000"
      "10000000000000000000000001000000040000000000000001000000000000000700000000000000000000000000"
      "0000"
      "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
      "0000"
      "00000000010000000000000000000000ffffffff00000000");
}

TEST(IpcTest, DictionaryStreamFromArrowJs) {
  const std::string stream = ArrowJsDictionaryStream();
  auto read = ReadIpcStream(stream);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->first->num_fields(), 1);
  EXPECT_EQ(read->first->fields[0].name, "dict");
  EXPECT_TRUE(read->first->fields[0].type->Equals(*Utf8()));
  ASSERT_EQ(read->second.size(), 1u);
  EXPECT_EQ(Strings(*read->second[0].columns[0]),
            (std::vector<std::string>{"x", "y", "x", "<null>"}));
}

TEST(IpcTest, DictionaryErrors) {
  const std::string head = DictionarySchema(7);
  const std::string dicts = DictionaryMessage(7, {"x", "y"}) + DictionaryMessage(9, {"a"});
  ExpectError(ReadIpcStream(head + dicts + DictionaryBatchRows({2}, {0})), ErrorCode::kInvalidData,
              "outside the 2-entry dictionary");
  ExpectError(ReadIpcStream(head + dicts + DictionaryBatchRows({0}, {1})), ErrorCode::kInvalidData,
              "outside the 1-entry dictionary");
  ExpectError(ReadIpcStream(head + DictionaryMessage(7, {"x"}) + DictionaryBatchRows({0}, {0})),
              ErrorCode::kInvalidData, "no DictionaryBatch with id 9");
  ExpectError(ReadIpcStream(head + DictionaryMessage(5, {"x"})), ErrorCode::kInvalidData,
              "no dictionary-encoded field");
  ExpectError(ReadIpcStream(head + dicts + DictionaryMessage(7, {"z"}, true)),
              ErrorCode::kNotImplemented, "delta");
  ExpectError(ReadIpcStream(DictionarySchema(7, fb::Type_Int)), ErrorCode::kNotImplemented,
              "only utf8 and binary");
  {
    flatbuffers::FlatBufferBuilder fbb;
    auto a = FbField(fbb, "a", fb::Type_Utf8, fb::CreateUtf8(fbb).Union(), {},
                     fb::CreateDictionaryEncoding(fbb, 1));
    auto b = FbField(fbb, "b", fb::Type_Binary, fb::CreateBinary(fbb).Union(), {},
                     fb::CreateDictionaryEncoding(fbb, 1));
    ExpectError(ReadIpcStream(FbSchemaMessage(fbb, {a, b})), ErrorCode::kInvalidData,
                "two different value types");
  }
}

TEST(IpcTest, CompressedBodiesAreNotImplemented) {
  SchemaPtr schema = std::make_shared<Schema>(Schema{{Field{"x", Int32(), true, {}}}, {}});
  std::string stream = SchemaMessage(*schema) +
                       BatchMessage(1, {{1, 0}}, {{0, 0}, {0, 8}}, Bytes<int32_t>({7}), -1, true);
  ExpectError(ReadIpcStream(stream), ErrorCode::kNotImplemented, "compressed");
}

TEST(IpcTest, UnsupportedArrowTypesAreNotImplemented) {
  flatbuffers::FlatBufferBuilder fbb;
  auto h = FbField(fbb, "h", fb::Type_FloatingPoint,
                   fb::CreateFloatingPoint(fbb, fb::Precision_HALF).Union());
  ExpectError(ReadIpcStream(FbSchemaMessage(fbb, {h})), ErrorCode::kNotImplemented, "float16");
  flatbuffers::FlatBufferBuilder fbb2;
  auto d = FbField(fbb2, "d", fb::Type_Duration, fb::CreateDuration(fbb2).Union());
  ExpectError(ReadIpcStream(FbSchemaMessage(fbb2, {d})), ErrorCode::kNotImplemented, "Duration");
  // Intervals: month_day_nano only.
  flatbuffers::FlatBufferBuilder fbb3;
  auto ym = FbField(fbb3, "ym", fb::Type_Interval,
                    fb::CreateInterval(fbb3, fb::IntervalUnit_YEAR_MONTH).Union());
  ExpectError(ReadIpcStream(FbSchemaMessage(fbb3, {ym})), ErrorCode::kNotImplemented,
              "interval unit YEAR_MONTH");
}

// interval[month_day_nano] is Arrow's Interval type with that unit, its
// values 16 bytes apiece.
TEST(IpcTest, MonthDayNanoIntervalsRoundTrip) {
  auto schema = std::make_shared<Schema>();
  schema->fields = {Field{"iv", IntervalMonthDayNano(), true, {}}};
  FixedSizeBinaryBuilder b(IntervalMonthDayNano());
  std::string value(16, '\0');
  const int32_t months = -3, days = 40;
  const int64_t nanos = 1234567890123;
  std::memcpy(value.data(), &months, 4);
  std::memcpy(value.data() + 4, &days, 4);
  std::memcpy(value.data() + 8, &nanos, 8);
  ASSERT_TRUE(b.Append(value).ok());
  b.AppendNull();
  auto batch = MakeRecordBatch(schema, {*b.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto bytes = WriteIpcStream(*schema, {*batch});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto read = ReadIpcStream(*bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->first->fields[0].type->id, TypeId::kIntervalMonthDayNano);
  EXPECT_EQ(read->first->fields[0].type->ToString(), "month_day_nano_interval");
  ASSERT_EQ(read->second.size(), 1u);
  EXPECT_EQ(read->second[0].columns[0]->GetView(0), value);
  EXPECT_TRUE(read->second[0].columns[0]->IsNull(1));
}

TEST(IpcTest, RejectsSchemasNestedTooDeep) {
  flatbuffers::FlatBufferBuilder fbb;
  auto field = FbField(fbb, "leaf", fb::Type_Int, fb::CreateInt(fbb, 32, true).Union());
  for (int i = 0; i < 100; ++i) {
    field = FbField(fbb, "l", fb::Type_List, fb::CreateList(fbb).Union(), {field});
  }
  ExpectError(ReadIpcStream(FbSchemaMessage(fbb, {field})), ErrorCode::kInvalidData, "nesting");
}

TEST(IpcTest, RejectsAbsurdMetadataLength) {
  ExpectError(ReadIpcStream(U32Bytes(0xFFFFFFFFu) + U32Bytes(0x7FFFFFFF) + std::string(64, 'x')),
              ErrorCode::kInvalidData, "exceeds the 64 MiB limit");
  ExpectError(ReadIpcStream(U32Bytes(0xFFFFFFFFu) + U32Bytes(0x80000000u)), ErrorCode::kInvalidData,
              "negative");
  // Within the limit but longer than the input, through both sources.
  const std::string claim = U32Bytes(0xFFFFFFFFu) + U32Bytes(60 << 20) + std::string(100, 'x');
  ExpectError(ReadIpcStream(claim), ErrorCode::kInvalidData, "truncated");
  std::istringstream in(claim);
  IpcStreamReader reader(&in);
  auto schema = reader.ReadSchema();
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.error().code, ErrorCode::kInvalidData);
  EXPECT_NE(schema.error().message.find("truncated"), std::string::npos);
  // Errors stick.
  EXPECT_EQ(reader.Next().error().message, schema.error().message);
}

TEST(IpcTest, RejectsBodyLengthPastEnd) {
  SchemaPtr schema = std::make_shared<Schema>(Schema{{Field{"x", Int32(), true, {}}}, {}});
  std::string stream =
      SchemaMessage(*schema) + BatchMessage(1, {{1, 0}}, {{0, 0}, {0, 8}}, "", int64_t{1} << 40);
  ExpectError(ReadIpcStream(stream), ErrorCode::kInvalidData, "body length");
  std::istringstream in(stream);
  IpcStreamReader reader(&in);
  auto batch = reader.Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.error().message.find("body length"), std::string::npos);
}

TEST(IpcTest, RejectsInconsistentBatches) {
  SchemaPtr schema = std::make_shared<Schema>(
      Schema{{Field{"x", Int32(), true, {}}, Field{"s", Utf8(), true, {}}}, {}});
  const std::string head = SchemaMessage(*schema);
  const std::string body =
      Bytes<int32_t>({1, 2}) + Bytes<int32_t>({0, 1, 3}) + Bytes<char>({'a', 'b', 'c'});
  // Correct: nodes x, s; buffers x.validity, x.values, s.validity, s.offsets, s.data.
  const std::vector<RawBuffer> good = {{0, 0}, {0, 8}, {0, 0}, {8, 12}, {24, 3}};
  auto ok = ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}}, good, body));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();

  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}}, good, body)), ErrorCode::kInvalidData,
              "field nodes");
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}},
                                                {{0, 0}, {0, 8}, {0, 0}, {8, 12}}, body)),
              ErrorCode::kInvalidData, "buffers");
  std::vector<RawBuffer> outside = good;
  outside[4] = {24, 100};
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}}, outside, body)),
              ErrorCode::kInvalidData, "outside");
  outside[4] = {-8, 3};
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}}, outside, body)),
              ErrorCode::kInvalidData, "outside");
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 1}, {2, 0}}, good, body)),
              ErrorCode::kInvalidData, "validity bitmap is empty");
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 3}, {2, 0}}, good, body)),
              ErrorCode::kInvalidData, "null count");
  ExpectError(ReadIpcStream(head + BatchMessage(3, {{3, 0}, {3, 0}}, good, body)),
              ErrorCode::kInvalidData, "needs");
  ExpectError(ReadIpcStream(head + BatchMessage(4, {{2, 0}, {2, 0}}, good, body)),
              ErrorCode::kInvalidData, "rows");
  ExpectError(ReadIpcStream(head + BatchMessage(int64_t{1} << 62,
                                                {{int64_t{1} << 62, 0}, {int64_t{1} << 62, 0}},
                                                good, body)),
              ErrorCode::kInvalidData, "needs");
  // Offsets that decrease or run past the data are caught by validation.
  const std::string bad_body =
      Bytes<int32_t>({1, 2}) + Bytes<int32_t>({0, 3, 1}) + Bytes<char>({'a', 'b', 'c'});
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}}, good, bad_body)),
              ErrorCode::kInvalidData, "offsets decrease");
  const std::string long_body =
      Bytes<int32_t>({1, 2}) + Bytes<int32_t>({0, 1, 9}) + Bytes<char>({'a', 'b', 'c'});
  ExpectError(ReadIpcStream(head + BatchMessage(2, {{2, 0}, {2, 0}}, good, long_body)),
              ErrorCode::kInvalidData, "past the end");
}

TEST(IpcTest, RejectsStreamsThatDoNotStartWithASchema) {
  ExpectError(ReadIpcStream(""), ErrorCode::kInvalidData, "empty");
  ExpectError(ReadIpcStream(Eos()), ErrorCode::kInvalidData, "before its schema");
  ExpectError(ReadIpcStream(BatchMessage(0, {}, {}, "")), ErrorCode::kInvalidData,
              "must start with a Schema");
  ExpectError(ReadIpcStream(U32Bytes(0xFFFFFFFFu) + U32Bytes(16) + std::string(16, '\x07')),
              ErrorCode::kInvalidData, "not a valid Arrow Message");
  SchemaPtr schema = std::make_shared<Schema>(Schema{{Field{"x", Int32(), true, {}}}, {}});
  ExpectError(ReadIpcStream(SchemaMessage(*schema) + SchemaMessage(*schema)),
              ErrorCode::kInvalidData, "second Schema");
}

// ---- corruption sweeps --------------------------------------------------------------

// A small stream touching every type: schema, two batches (one sliced), EOS.
std::string SweepStream(std::vector<RecordBatch>* batches) {
  SchemaPtr schema = EveryTypeSchema();
  *batches = {MakeBatch(schema, 6, 21), Slice(MakeBatch(schema, 9, 22), 3, 5)};
  return MustWrite(*schema, *batches);
}

// Reads all of `bytes`, touching every value of every batch it returns.
Result<std::pair<SchemaPtr, std::vector<RecordBatch>>> ReadAndTouch(const std::string& bytes) {
  auto read = ReadIpcStream(bytes);
  if (read.ok()) {
    for (const RecordBatch& batch : read->second) {
      std::string why;
      EXPECT_TRUE(ValidateBatch(batch).ok());
      EXPECT_TRUE(BatchEquals(batch, batch, &why)) << why;
    }
  } else {
    EXPECT_TRUE(read.error().code == ErrorCode::kInvalidData ||
                read.error().code == ErrorCode::kNotImplemented)
        << read.error().ToString();
    EXPECT_FALSE(read.error().message.empty());
  }
  return read;
}

TEST(IpcTest, TruncationAtEveryByteFailsCleanly) {
  std::vector<RecordBatch> batches;
  const std::string bytes = SweepStream(&batches);
  auto spans = Messages(bytes);
  ASSERT_EQ(spans.size(), 3u);
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    const std::string prefix = bytes.substr(0, cut);
    auto read = ReadAndTouch(prefix);
    size_t complete = 0;  // batches fully inside the prefix
    bool boundary = cut == bytes.size();
    for (size_t m = 0; m < spans.size(); ++m) {
      if (spans[m].end == cut) boundary = true;
      if (m > 0 && spans[m].end <= cut) ++complete;
    }
    if (boundary) {
      ASSERT_TRUE(read.ok()) << "cut at " << cut << ": " << read.status().ToString();
      ASSERT_EQ(read->second.size(), complete) << "cut at " << cut;
      for (size_t i = 0; i < complete; ++i) EXPECT_TRUE(BatchEquals(read->second[i], batches[i]));
    } else {
      ASSERT_FALSE(read.ok()) << "cut at " << cut << " read without error";
      EXPECT_EQ(read.error().code, ErrorCode::kInvalidData) << read.error().ToString();
    }
    // The incremental reader agrees, at a coarser stride to keep the test quick.
    if (cut % 7 == 0 || boundary) {
      std::istringstream in(prefix);
      IpcStreamReader reader(&in);
      Status status;
      size_t count = 0;
      while (true) {
        auto batch = reader.Next();
        if (!batch.ok()) {
          status = batch.status();
          break;
        }
        if (!batch->has_value()) break;
        ++count;
      }
      EXPECT_EQ(status.ok(), boundary) << "cut at " << cut << ": " << status.ToString();
      if (boundary) {
        EXPECT_EQ(count, complete);
      }
    }
  }
}

TEST(IpcTest, FlippedBytesNeverCrash) {
  std::vector<RecordBatch> batches;
  const std::string bytes = SweepStream(&batches);
  Rng rng{12345};
  // Every position once.
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    std::string corrupt = bytes;
    corrupt[pos] = static_cast<char>(corrupt[pos] ^ static_cast<char>(1 + rng.Next() % 255));
    (void)ReadAndTouch(corrupt);
  }
  // Then several bytes at once, including likely-sensitive values.
  const uint8_t kSpecial[] = {0x00, 0xFF, 0x7F, 0x80, 0x01, 0x40};
  for (int round = 0; round < 3000; ++round) {
    std::string corrupt = bytes;
    const int flips = 1 + static_cast<int>(rng.Next() % 4);
    for (int k = 0; k < flips; ++k) {
      const size_t pos = rng.Next() % corrupt.size();
      corrupt[pos] = static_cast<char>(rng.Next() % 2 ? kSpecial[rng.Next() % 6] : rng.Next());
    }
    (void)ReadAndTouch(corrupt);
  }
}

TEST(IpcTest, HandMadeStreamsSurviveCorruption) {
  for (const std::string& bytes :
       {LargeTypesStream(), DictionaryStream(), ArrowJsDictionaryStream()}) {
    ASSERT_TRUE(ReadIpcStream(bytes).ok());
    for (size_t cut = 0; cut < bytes.size(); ++cut) (void)ReadAndTouch(bytes.substr(0, cut));
    Rng rng{777};
    for (size_t pos = 0; pos < bytes.size(); ++pos) {
      for (int k = 0; k < 3; ++k) {
        std::string corrupt = bytes;
        corrupt[pos] = static_cast<char>(corrupt[pos] ^ static_cast<char>(1 + rng.Next() % 255));
        (void)ReadAndTouch(corrupt);
      }
    }
  }
}

}  // namespace
}  // namespace hoglake::columnar
