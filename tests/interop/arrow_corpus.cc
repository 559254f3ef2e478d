// arrow_corpus OUT: writes an Arrow IPC stream that exercises every column
// type of the vocabulary with nulls, extreme values, nested values, field ids
// and extension names, in two record batches (the second one sliced), for the
// apache-arrow interop test to read.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>

#include "columnar/builder.h"
#include "columnar/ipc/ipc_writer.h"

using namespace hoglake;
using namespace hoglake::columnar;

namespace {

Field F(std::string name, DataTypePtr type, int32_t id, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, {}}.WithFieldId(id);
}

SchemaPtr CorpusSchema() {
  auto ls_struct = Struct({F("a", Utf8(), 41), F("b", Float64(), 42)});
  auto st = Struct({F("x", Int64(), 51, false), F("y", List(F("element", Utf8(), 53)), 52),
                    F("z", Struct({F("q", Bool(), 55)}), 54)});
  auto m = Map(Utf8(), F("value", List(F("element", Int32(), 64)), 63));
  // Give the map key a field id too.
  auto map_type = std::make_shared<DataType>(*m);
  auto entries = std::make_shared<DataType>(*map_type->children[0].type);
  entries->children[0] = entries->children[0].WithFieldId(62);
  map_type->children[0].type = entries;

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
      F("dec", Decimal128(38, 10), 12),
      F("dec_small", Decimal128(5, 2), 13),
      F("d", Date32(), 14),
      F("t", Time64(TimeUnit::kMicro), 15),
      F("ts_s", Timestamp(TimeUnit::kSecond), 16),
      F("ts_ms", Timestamp(TimeUnit::kMilli), 17),
      F("ts_us", Timestamp(TimeUnit::kMicro), 18),
      F("ts_ns", Timestamp(TimeUnit::kNano), 19),
      F("tstz", Timestamp(TimeUnit::kMicro, "UTC"), 20),
      F("s", Utf8(), 21),
      JsonField("j").WithFieldId(22),
      F("bin", Binary(), 23),
      UuidField("uuid").WithFieldId(24),
      F("l", List(F("element", Int32(), 31)), 30),
      F("ls", List(F("element", ls_struct, 40, false)), 39),
      F("st", st, 50),
      Field{"m", map_type, true, {}}.WithFieldId(60),
  };
  return std::make_shared<Schema>(Schema{fields, {{"origin", "hoglake interop corpus"}}});
}

// Deterministic pseudo-random numbers.
struct Rng {
  uint64_t state;
  uint64_t Next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

const char* kStrings[] = {"",
                          "a",
                          "héllo wörld",
                          "tab\there",
                          "quote\"back\\slash",
                          "line\nbreak",
                          "✓ 😀 漢字",
                          "\x01\x1f control",
                          "a much longer string value that "
                          "spans more than a few bytes to move offsets along"};

template <typename T>
T Pick(Rng& rng, std::initializer_list<T> extremes) {
  const uint64_t r = rng.Next();
  if (r % 4 == 0) return *(extremes.begin() + (r / 4) % extremes.size());
  return static_cast<T>(rng.Next());
}

RecordBatch MakeBatch(const SchemaPtr& schema, int64_t rows, uint64_t seed) {
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (const Field& f : schema->fields) builders.push_back(MakeBuilder(f.type));
  Rng rng{seed};
  for (int64_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < builders.size(); ++c) {
      ArrayBuilder& b = *builders[c];
      const Field& field = schema->fields[c];
      if (field.nullable && (r + static_cast<int64_t>(c)) % 7 == 3) {
        b.AppendNull();
        continue;
      }
      const std::string& name = field.name;
      using L = std::numeric_limits<int64_t>;
      if (name == "b")
        static_cast<BooleanBuilder&>(b).Append(rng.Next() % 2);
      else if (name == "i8")
        static_cast<Int8Builder&>(b).Append(Pick<int8_t>(rng, {-128, 127, 0, -1}));
      else if (name == "i16")
        static_cast<Int16Builder&>(b).Append(Pick<int16_t>(rng, {-32768, 32767, 0}));
      else if (name == "i32")
        static_cast<Int32Builder&>(b).Append(Pick<int32_t>(rng, {INT32_MIN, INT32_MAX, 0}));
      else if (name == "i64")
        static_cast<Int64Builder&>(b).Append(Pick<int64_t>(rng, {L::min(), L::max(), 0, -1}));
      else if (name == "u8")
        static_cast<UInt8Builder&>(b).Append(Pick<uint8_t>(rng, {255, 0}));
      else if (name == "u16")
        static_cast<UInt16Builder&>(b).Append(Pick<uint16_t>(rng, {65535, 0}));
      else if (name == "u32")
        static_cast<UInt32Builder&>(b).Append(Pick<uint32_t>(rng, {UINT32_MAX, 0}));
      else if (name == "u64")
        static_cast<UInt64Builder&>(b).Append(Pick<uint64_t>(rng, {UINT64_MAX, 0}));
      else if (name == "f32") {
        float v = static_cast<float>(static_cast<int32_t>(rng.Next())) / 1024.0f;
        const float special[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.1f, 3.4028235e38f, 1e-45f};
        if (r % 5 == 1) v = special[(r / 5) % 7];
        static_cast<Float32Builder&>(b).Append(v);
      } else if (name == "f64") {
        double v = static_cast<double>(static_cast<int64_t>(rng.Next())) / 1e9;
        const double special[] = {NAN, INFINITY, -INFINITY, -0.0, 0.1, 1e21, 1.5e-7, 5e-324};
        if (r % 5 == 2) v = special[(r / 5) % 8];
        static_cast<Float64Builder&>(b).Append(v);
      } else if (name == "dec") {
        __int128 v = (static_cast<__int128>(static_cast<int64_t>(rng.Next())) << 60) +
                     static_cast<int64_t>(rng.Next() >> 4);
        static_cast<Decimal128Builder&>(b).Append(v % (static_cast<__int128>(1) << 120));
      } else if (name == "dec_small") {
        static_cast<Decimal128Builder&>(b).Append(static_cast<int64_t>(rng.Next() % 199999) -
                                                  99999);
      } else if (name == "d") {
        static_cast<Date32Builder&>(b).Append(static_cast<int32_t>(rng.Next() % 4000000) - 1000000);
      } else if (name == "t") {
        static_cast<Time64Builder&>(b).Append(static_cast<int64_t>(rng.Next() % 86400000000ULL));
      } else if (name.starts_with("ts")) {
        static_cast<TimestampBuilder&>(b).Append(static_cast<int64_t>(rng.Next() >> 2) -
                                                 (static_cast<int64_t>(1) << 60));
      } else if (name == "s" || name == "j") {
        std::string v = name == "j" ? "{\"k\":" + std::to_string(r) + "}"
                                    : kStrings[rng.Next() % std::size(kStrings)];
        static_cast<BinaryBuilder&>(b).Append(v);
      } else if (name == "bin") {
        std::string v;
        for (uint64_t n = rng.Next() % 9; n > 0; --n) v.push_back(static_cast<char>(rng.Next()));
        static_cast<BinaryBuilder&>(b).Append(v);
      } else if (name == "uuid") {
        std::string v;
        for (int n = 0; n < 16; ++n) v.push_back(static_cast<char>(rng.Next()));
        (void)static_cast<FixedSizeBinaryBuilder&>(b).Append(v);
      } else if (name == "l") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        for (uint64_t n = rng.Next() % 5; n > 0; --n) {
          if (n == 2)
            lb.value_builder().AppendNull();
          else
            lb.value_builder<Int32Builder>().Append(static_cast<int32_t>(rng.Next()));
        }
      } else if (name == "ls") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        auto& sb = lb.value_builder<StructBuilder>();
        for (uint64_t n = rng.Next() % 4; n > 0; --n) {
          sb.Append();
          sb.child<BinaryBuilder>(0).Append(kStrings[rng.Next() % std::size(kStrings)]);
          if (n == 1)
            sb.child(1).AppendNull();
          else
            sb.child<Float64Builder>(1).Append(static_cast<double>(n) / 8);
        }
      } else if (name == "st") {
        auto& sb = static_cast<StructBuilder&>(b);
        sb.Append();
        sb.child<Int64Builder>(0).Append(r * 1000003);
        auto& y = sb.child<ListBuilder>(1);
        if (r % 3 == 0) {
          y.AppendNull();
        } else {
          y.Append();
          for (int64_t n = r % 4; n > 0; --n)
            y.value_builder<BinaryBuilder>().Append("y" + std::to_string(n));
        }
        auto& z = sb.child<StructBuilder>(2);
        if (r % 5 == 0) {
          z.AppendNull();
        } else {
          z.Append();
          z.child<BooleanBuilder>(0).Append(r % 2 == 0);
        }
      } else if (name == "m") {
        auto& mb = static_cast<MapBuilder&>(b);
        mb.Append();
        for (int64_t n = r % 3; n > 0; --n) {
          mb.key_builder<BinaryBuilder>().Append("key" + std::to_string(n));
          auto& vb = mb.item_builder<ListBuilder>();
          if (n == 2) {
            vb.AppendNull();
          } else {
            vb.Append();
            vb.value_builder<Int32Builder>().Append(static_cast<int32_t>(n * r));
          }
        }
      } else {
        std::cerr << "corpus: no generator for column " << name << "\n";
        std::exit(1);
      }
    }
  }
  std::vector<ArrayPtr> columns;
  for (auto& b : builders) {
    auto array = b->Finish();
    if (!array.ok()) {
      std::cerr << "corpus: " << array.error().ToString() << "\n";
      std::exit(1);
    }
    columns.push_back(*array);
  }
  auto batch = MakeRecordBatch(schema, std::move(columns));
  if (!batch.ok()) {
    std::cerr << "corpus: " << batch.error().ToString() << "\n";
    std::exit(1);
  }
  return *batch;
}

// Rows [offset, offset + length) of `batch` as a zero-copy slice.
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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: arrow_corpus OUT.arrows\n";
    return 2;
  }
  SchemaPtr schema = CorpusSchema();
  std::vector<RecordBatch> batches = {MakeBatch(schema, 300, 42),
                                      Slice(MakeBatch(schema, 100, 7), 13, 70),
                                      MakeBatch(schema, 0, 1)};
  auto bytes = WriteIpcStream(*schema, batches);
  if (!bytes.ok()) {
    std::cerr << "corpus: " << bytes.error().ToString() << "\n";
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  return out.good() ? 0 : 1;
}
