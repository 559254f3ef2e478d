// A deterministic corpus of every column type hoglake writes to Parquet, with
// nulls, extreme values and nested lists/structs/maps, plus the batch a
// Parquet round trip is expected to return. Shared by the parquet unit tests
// and the DuckDB interop helper (tests/interop/parquet_tool.cc).
#pragma once

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "columnar/builder.h"

namespace hoglake::parquet::testing {

using namespace hoglake::columnar;  // NOLINT: test helper

inline Field F(std::string name, DataTypePtr type, int32_t id, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, {}}.WithFieldId(id);
}

// map<key, value> whose key field carries a field id.
inline DataTypePtr MapWithIds(DataTypePtr key, int32_t key_id, Field value) {
  auto map_type = std::make_shared<DataType>(*Map(key, value));
  auto entries = std::make_shared<DataType>(*map_type->children[0].type);
  entries->children[0] = entries->children[0].WithFieldId(key_id);
  map_type->children[0].type = entries;
  return map_type;
}

inline SchemaPtr CorpusSchema() {
  auto ls_struct = Struct({F("a", Utf8(), 41), F("b", Float64(), 42)});
  auto st = Struct({F("x", Int64(), 51, false), F("y", List(F("element", Utf8(), 53)), 52),
                    F("z", Struct({F("q", Bool(), 55)}), 54)});
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
      F("fsb", FixedSizeBinary(5), 25),
      F("l", List(F("element", Int32(), 31)), 30),
      F("ls", List(F("element", ls_struct, 40, false)), 39),
      F("st", st, 50),
      F("m", MapWithIds(Utf8(), 61, F("value", List(F("element", Int32(), 63)), 62)), 60),
      F("ll", List(F("element", List(F("element", Utf8(), 72)), 71)), 70),
      F("rl", List(F("element", Int64(), 76, false)), 75, false),
      F("mi", MapWithIds(Int32(), 81, F("value", Struct({F("a", Int16(), 83)}), 82)), 80),
  };
  return std::make_shared<Schema>(Schema{fields, {}});
}

struct Rng {
  uint64_t state;
  uint64_t Next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

inline const char* const kCorpusStrings[] = {
    "",
    "a",
    "héllo wörld",
    "tab\there",
    "quote\"back\\slash",
    "line\nbreak",
    "✓ 😀 漢字",
    "\x01\x1f control",
    "a much longer string value that spans more than a few bytes to move offsets along"};

template <typename T>
T Pick(Rng& rng, std::initializer_list<T> extremes) {
  const uint64_t r = rng.Next();
  if (r % 4 == 0) return *(extremes.begin() + (r / 4) % extremes.size());
  return static_cast<T>(rng.Next());
}

inline ArrayPtr FinishOrThrow(ArrayBuilder& b) {
  auto a = b.Finish();
  if (!a.ok()) throw std::runtime_error(a.error().ToString());
  return *a;
}

// `rows` rows; `seed` varies values. Null every 7th slot (shifted by column).
inline RecordBatch CorpusBatch(int64_t rows, uint64_t seed = 42) {
  SchemaPtr schema = CorpusSchema();
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
      const std::string& n = field.name;
      using L = std::numeric_limits<int64_t>;
      if (n == "b") {
        static_cast<BooleanBuilder&>(b).Append(rng.Next() % 2);
      } else if (n == "i8") {
        static_cast<Int8Builder&>(b).Append(Pick<int8_t>(rng, {-128, 127, 0, -1}));
      } else if (n == "i16") {
        static_cast<Int16Builder&>(b).Append(Pick<int16_t>(rng, {-32768, 32767, 0}));
      } else if (n == "i32") {
        static_cast<Int32Builder&>(b).Append(Pick<int32_t>(rng, {INT32_MIN, INT32_MAX, 0}));
      } else if (n == "i64") {
        static_cast<Int64Builder&>(b).Append(Pick<int64_t>(rng, {L::min(), L::max(), 0, -1}));
      } else if (n == "u8") {
        static_cast<UInt8Builder&>(b).Append(Pick<uint8_t>(rng, {255, 0, 128}));
      } else if (n == "u16") {
        static_cast<UInt16Builder&>(b).Append(Pick<uint16_t>(rng, {65535, 0, 32768}));
      } else if (n == "u32") {
        static_cast<UInt32Builder&>(b).Append(Pick<uint32_t>(rng, {UINT32_MAX, 0, 1u << 31}));
      } else if (n == "u64") {
        static_cast<UInt64Builder&>(b).Append(Pick<uint64_t>(rng, {UINT64_MAX, 0, 1ull << 63}));
      } else if (n == "f32") {
        float v = static_cast<float>(static_cast<int32_t>(rng.Next())) / 1024.0f;
        const float special[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.1f, 3.4028235e38f, 1e-45f};
        if (r % 5 == 1) v = special[(r / 5) % 7];
        static_cast<Float32Builder&>(b).Append(v);
      } else if (n == "f64") {
        double v = static_cast<double>(static_cast<int64_t>(rng.Next())) / 1e9;
        const double special[] = {NAN, INFINITY, -INFINITY, -0.0, 0.1, 1e21, 1.5e-7, 5e-324};
        if (r % 5 == 2) v = special[(r / 5) % 8];
        static_cast<Float64Builder&>(b).Append(v);
      } else if (n == "dec") {
        __int128 v = (static_cast<__int128>(static_cast<int64_t>(rng.Next())) << 60) +
                     static_cast<int64_t>(rng.Next() >> 4);
        static_cast<Decimal128Builder&>(b).Append(v % (static_cast<__int128>(1) << 120));
      } else if (n == "dec_small") {
        static_cast<Decimal128Builder&>(b).Append(static_cast<int64_t>(rng.Next() % 199999) -
                                                  99999);
      } else if (n == "d") {
        static_cast<Date32Builder&>(b).Append(static_cast<int32_t>(rng.Next() % 4000000) - 1000000);
      } else if (n == "t") {
        static_cast<Time64Builder&>(b).Append(static_cast<int64_t>(rng.Next() % 86400000000ULL));
      } else if (n == "ts_s") {  // ×1000 (and DuckDB's ×1e6) must stay in int64
        static_cast<TimestampBuilder&>(b).Append(static_cast<int64_t>(rng.Next() >> 22) -
                                                 (int64_t{1} << 41));
      } else if (n == "ts_ms") {
        static_cast<TimestampBuilder&>(b).Append(static_cast<int64_t>(rng.Next() >> 12) -
                                                 (int64_t{1} << 51));
      } else if (n.starts_with("ts")) {
        static_cast<TimestampBuilder&>(b).Append(static_cast<int64_t>(rng.Next() >> 4) -
                                                 (int64_t{1} << 59));
      } else if (n == "s" || n == "j") {
        std::string v = n == "j" ? "{\"k\":" + std::to_string(r) + "}"
                                 : kCorpusStrings[rng.Next() % std::size(kCorpusStrings)];
        static_cast<BinaryBuilder&>(b).Append(v);
      } else if (n == "bin") {
        std::string v;
        for (uint64_t k = rng.Next() % 9; k > 0; --k) v.push_back(static_cast<char>(rng.Next()));
        static_cast<BinaryBuilder&>(b).Append(v);
      } else if (n == "uuid" || n == "fsb") {
        std::string v;
        for (int k = 0; k < (n == "uuid" ? 16 : 5); ++k) v.push_back(static_cast<char>(rng.Next()));
        (void)static_cast<FixedSizeBinaryBuilder&>(b).Append(v);
      } else if (n == "l") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        for (uint64_t k = rng.Next() % 5; k > 0; --k) {
          if (k == 2) {
            lb.value_builder().AppendNull();
          } else {
            lb.value_builder<Int32Builder>().Append(static_cast<int32_t>(rng.Next()));
          }
        }
      } else if (n == "ls") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        auto& sb = lb.value_builder<StructBuilder>();
        for (uint64_t k = rng.Next() % 4; k > 0; --k) {
          sb.Append();
          sb.child<BinaryBuilder>(0).Append(kCorpusStrings[rng.Next() % std::size(kCorpusStrings)]);
          if (k == 1) {
            sb.child(1).AppendNull();
          } else {
            sb.child<Float64Builder>(1).Append(static_cast<double>(k) / 8);
          }
        }
      } else if (n == "st") {
        auto& sb = static_cast<StructBuilder&>(b);
        sb.Append();
        sb.child<Int64Builder>(0).Append(r * 1000003);
        auto& y = sb.child<ListBuilder>(1);
        if (r % 3 == 0) {
          y.AppendNull();
        } else {
          y.Append();
          for (int64_t k = r % 4; k > 0; --k) {
            y.value_builder<BinaryBuilder>().Append("y" + std::to_string(k));
          }
        }
        auto& z = sb.child<StructBuilder>(2);
        if (r % 5 == 0) {
          z.AppendNull();
        } else {
          z.Append();
          z.child<BooleanBuilder>(0).Append(r % 2 == 0);
        }
      } else if (n == "m") {
        auto& mb = static_cast<MapBuilder&>(b);
        mb.Append();
        for (int64_t k = r % 3; k > 0; --k) {
          mb.key_builder<BinaryBuilder>().Append("key" + std::to_string(k));
          auto& vb = mb.item_builder<ListBuilder>();
          if (k == 2) {
            vb.AppendNull();
          } else {
            vb.Append();
            vb.value_builder<Int32Builder>().Append(static_cast<int32_t>(k * r));
          }
        }
      } else if (n == "ll") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        auto& inner = lb.value_builder<ListBuilder>();
        for (int64_t k = r % 4; k > 0; --k) {
          if (k == 3) {
            inner.AppendNull();
            continue;
          }
          inner.Append();
          for (int64_t e = (r + k) % 3; e > 0; --e) {
            if (e == 2) {
              inner.value_builder().AppendNull();
            } else {
              inner.value_builder<BinaryBuilder>().Append("v" + std::to_string(r * 10 + e));
            }
          }
        }
      } else if (n == "rl") {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        for (int64_t k = r % 3; k > 0; --k) {
          lb.value_builder<Int64Builder>().Append(static_cast<int64_t>(rng.Next()));
        }
      } else if (n == "mi") {
        auto& mb = static_cast<MapBuilder&>(b);
        mb.Append();
        for (int64_t k = (r + 1) % 3; k > 0; --k) {
          mb.key_builder<Int32Builder>().Append(static_cast<int32_t>(k * 1000 - r));
          auto& vb = mb.item_builder<StructBuilder>();
          if (k == 1 && r % 2) {
            vb.AppendNull();
          } else {
            vb.Append();
            vb.child<Int16Builder>(0).Append(static_cast<int16_t>(r * k));
          }
        }
      } else {
        throw std::runtime_error("corpus: no generator for column " + n);
      }
    }
  }
  std::vector<ArrayPtr> columns;
  for (auto& b : builders) columns.push_back(FinishOrThrow(*b));
  auto batch = MakeRecordBatch(schema, std::move(columns));
  if (!batch.ok()) throw std::runtime_error(batch.error().ToString());
  return *batch;
}

// What reading the Parquet file back yields: timestamp[s] comes back as
// timestamp[ms] (ticks × 1000) and uint32 as int64 (pyhoglake-writer §2.2).
inline RecordBatch ExpectedReadBack(const RecordBatch& batch) {
  auto schema = std::make_shared<Schema>(*batch.schema);
  RecordBatch out{schema, batch.num_rows, {}};
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ArrayData& a = *batch.columns[c];
    Field& f = schema->fields[c];
    if (a.type->id == TypeId::kTimestamp && a.type->unit == TimeUnit::kSecond) {
      f.type = Timestamp(TimeUnit::kMilli, a.type->timezone);
      TimestampBuilder b(f.type);
      for (int64_t i = 0; i < a.length; ++i) {
        if (a.IsNull(i)) {
          b.AppendNull();
        } else {
          b.Append(a.values<int64_t>()[i] * 1000);
        }
      }
      out.columns.push_back(FinishOrThrow(b));
    } else if (a.type->id == TypeId::kUInt32) {
      f.type = Int64();
      Int64Builder b;
      for (int64_t i = 0; i < a.length; ++i) {
        if (a.IsNull(i)) {
          b.AppendNull();
        } else {
          b.Append(a.values<uint32_t>()[i]);
        }
      }
      out.columns.push_back(FinishOrThrow(b));
    } else {
      out.columns.push_back(batch.columns[c]);
    }
  }
  return out;
}

// Rows [offset, offset + length) as a zero-copy slice.
inline RecordBatch SliceBatch(const RecordBatch& batch, int64_t offset, int64_t length) {
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

}  // namespace hoglake::parquet::testing
