#include "columnar/text/text_import.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "columnar/json_rows.h"
#include "columnar/validate.h"

namespace hoglake::columnar::text {
namespace {

using columnar::Field;
using columnar::SchemaPtr;
using columnar::TimeUnit;

SchemaPtr MakeSchema(std::vector<Field> fields) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = std::move(fields);
  return schema;
}

Field F(std::string name, columnar::DataTypePtr type, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, {}};
}

struct Imported {
  std::string rows;                  // every batch rendered as JSON lines
  std::vector<int64_t> batch_sizes;  // rows per batch
};

// Reads all of `text`; the error of Open or of any Next().
Result<Imported> Import(const std::string& text, TextFormat format, SchemaPtr schema,
                        TextImportOptions options = {}) {
  std::istringstream input(text);
  HOGLAKE_ASSIGN_OR_RETURN(auto reader, TextBatchReader::Open(&input, format, schema, options));
  Imported out;
  int64_t total = 0;
  for (;;) {
    HOGLAKE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    EXPECT_EQ(batch->schema, schema);  // the target schema itself, field ids and all
    for (const auto& column : batch->columns) {
      Status valid = columnar::Validate(*column);
      EXPECT_TRUE(valid.ok()) << valid.ToString();
    }
    columnar::AppendJsonLines(*batch, &out.rows);
    out.batch_sizes.push_back(batch->num_rows);
    total += batch->num_rows;
  }
  EXPECT_EQ(reader->rows_read(), total);
  return out;
}

std::string Csv(const std::string& text, SchemaPtr schema, TextImportOptions options = {}) {
  Result<Imported> result = Import(text, TextFormat::kCsv, std::move(schema), options);
  if (!result.ok()) return "ERROR " + result.error().message;
  return result->rows;
}

std::string Jsonl(const std::string& text, SchemaPtr schema) {
  Result<Imported> result = Import(text, TextFormat::kJsonLines, std::move(schema));
  if (!result.ok()) return "ERROR " + result.error().message;
  return result->rows;
}

// The error an import reports (empty when it succeeds), checking its code.
std::string CsvError(const std::string& text, SchemaPtr schema, TextImportOptions options = {}) {
  Result<Imported> result = Import(text, TextFormat::kCsv, std::move(schema), options);
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, ErrorCode::kValidation) << result.error().ToString();
  return result.error().message;
}

std::string JsonlError(const std::string& text, SchemaPtr schema) {
  Result<Imported> result = Import(text, TextFormat::kJsonLines, std::move(schema));
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, ErrorCode::kValidation) << result.error().ToString();
  return result.error().message;
}

SchemaPtr OneColumn(columnar::DataTypePtr type, bool nullable = true) {
  return MakeSchema({F("v", std::move(type), nullable)});
}

// ---- CSV scalars --------------------------------------------------------------

TEST(TextImportCsvTest, EveryScalarType) {
  SchemaPtr schema = MakeSchema({
      F("b", columnar::Bool()).WithFieldId(1),
      F("i8", columnar::Int8()),
      F("i16", columnar::Int16()),
      F("i32", columnar::Int32()),
      F("i64", columnar::Int64()),
      F("u8", columnar::UInt8()),
      F("u16", columnar::UInt16()),
      F("u64", columnar::UInt64()),
      F("f32", columnar::Float32()),
      F("f64", columnar::Float64()),
      F("dec", columnar::Decimal128(10, 2)),
      F("d", columnar::Date32()),
      F("t", columnar::Time64(TimeUnit::kMicro)),
      F("ts_s", columnar::Timestamp(TimeUnit::kSecond)),
      F("ts_ms", columnar::Timestamp(TimeUnit::kMilli)),
      F("ts", columnar::Timestamp(TimeUnit::kMicro)),
      F("ts_ns", columnar::Timestamp(TimeUnit::kNano)),
      F("tstz", columnar::Timestamp(TimeUnit::kMicro, "UTC")),
      F("s", columnar::Utf8()),
      columnar::JsonField("j"),
      F("bin", columnar::Binary()),
      columnar::UuidField("u"),
  });
  const std::string csv =
      "b,i8,i16,i32,i64,u8,u16,u64,f32,f64,dec,d,t,ts_s,ts_ms,ts,ts_ns,tstz,s,j,bin,u\n"
      "true,-128,32767,-2147483648,9223372036854775807,255,65535,18446744073709551615,"
      "1.5,-2.5e-3,12345678.9,2024-02-29,13:37:42.123456,2024-01-02T03:04:05,"
      "2024-01-02 03:04:05.123,2024-01-02T03:04:05.000001,1677-09-22T00:12:43.145224193,"
      "2024-01-02T03:04:05Z,héllo,\"{\"\"a\"\": [1, 2]}\",Zm9v,"
      "123E4567-E89B-12D3-A456-426614174000\n"
      "NO,0,-1,7,-9223372036854775808,0,1,0,NaN,-Infinity,-0.05,1970-01-01,00:00:00,"
      "1969-12-31T23:59:59,1970-01-01T00:00:00.5,1970-01-01T00:00:00,"
      "2262-04-11T23:47:16.854775807,1970-01-01T00:00:00,\"a,b\",[],,"
      "00000000-0000-0000-0000-000000000000\n";
  EXPECT_EQ(Csv(csv, schema),
            "{\"b\":true,\"i8\":-128,\"i16\":32767,\"i32\":-2147483648,"
            "\"i64\":9223372036854775807,\"u8\":255,\"u16\":65535,"
            "\"u64\":18446744073709551615,\"f32\":1.5,\"f64\":-0.0025,\"dec\":\"12345678.90\","
            "\"d\":\"2024-02-29\",\"t\":\"13:37:42.123456\",\"ts_s\":\"2024-01-02T03:04:05\","
            "\"ts_ms\":\"2024-01-02T03:04:05.123\",\"ts\":\"2024-01-02T03:04:05.000001\","
            "\"ts_ns\":\"1677-09-22T00:12:43.145224193\","
            "\"tstz\":\"2024-01-02T03:04:05.000000Z\",\"s\":\"héllo\","
            "\"j\":\"{\\\"a\\\": [1, 2]}\",\"bin\":\"Zm9v\","
            "\"u\":\"123e4567-e89b-12d3-a456-426614174000\"}\n"
            "{\"b\":false,\"i8\":0,\"i16\":-1,\"i32\":7,\"i64\":-9223372036854775808,\"u8\":0,"
            "\"u16\":1,\"u64\":0,\"f32\":\"NaN\",\"f64\":\"-Infinity\",\"dec\":\"-0.05\","
            "\"d\":\"1970-01-01\",\"t\":\"00:00:00.000000\",\"ts_s\":\"1969-12-31T23:59:59\","
            "\"ts_ms\":\"1970-01-01T00:00:00.500\",\"ts\":\"1970-01-01T00:00:00.000000\","
            "\"ts_ns\":\"2262-04-11T23:47:16.854775807\","
            "\"tstz\":\"1970-01-01T00:00:00.000000Z\",\"s\":\"a,b\",\"j\":\"[]\",\"bin\":null,"
            "\"u\":\"00000000-0000-0000-0000-000000000000\"}\n");
}

TEST(TextImportCsvTest, BooleanSpellings) {
  EXPECT_EQ(Csv("v\ntrue\nFALSE\nt\nF\n1\n0\nYes\nno\n", OneColumn(columnar::Bool())),
            "{\"v\":true}\n{\"v\":false}\n{\"v\":true}\n{\"v\":false}\n{\"v\":true}\n"
            "{\"v\":false}\n{\"v\":true}\n{\"v\":false}\n");
  EXPECT_EQ(CsvError("v\ntrue\nmaybe\n", OneColumn(columnar::Bool())),
            "line 3, column 'v': cannot read 'maybe' as boolean: expected true/false, t/f, 1/0 "
            "or yes/no");
}

TEST(TextImportCsvTest, OutOfRangeIntegers) {
  EXPECT_EQ(CsvError("v\n127\n128\n", OneColumn(columnar::Int8())),
            "line 3, column 'v': cannot read '128' as int8: out of range -128..127");
  EXPECT_EQ(CsvError("v\n-32769\n", OneColumn(columnar::Int16())),
            "line 2, column 'v': cannot read '-32769' as int16: out of range -32768..32767");
  EXPECT_EQ(CsvError("v\n2147483648\n", OneColumn(columnar::Int32())),
            "line 2, column 'v': cannot read '2147483648' as int: out of range "
            "-2147483648..2147483647");
  EXPECT_EQ(CsvError("v\n9223372036854775808\n", OneColumn(columnar::Int64())),
            "line 2, column 'v': cannot read '9223372036854775808' as long: out of range "
            "-9223372036854775808..9223372036854775807");
  EXPECT_EQ(CsvError("v\n-9223372036854775809\n", OneColumn(columnar::Int64())),
            "line 2, column 'v': cannot read '-9223372036854775809' as long: out of range "
            "-9223372036854775808..9223372036854775807");
  EXPECT_EQ(CsvError("v\n99999999999999999999999\n", OneColumn(columnar::Int64())),
            "line 2, column 'v': cannot read '99999999999999999999999' as long: out of range "
            "-9223372036854775808..9223372036854775807");
  EXPECT_EQ(CsvError("v\n256\n", OneColumn(columnar::UInt8())),
            "line 2, column 'v': cannot read '256' as uint8: out of range 0..255");
  EXPECT_EQ(CsvError("v\n-1\n", OneColumn(columnar::UInt16())),
            "line 2, column 'v': cannot read '-1' as uint16: out of range 0..65535");
  EXPECT_EQ(CsvError("v\n18446744073709551616\n", OneColumn(columnar::UInt64())),
            "line 2, column 'v': cannot read '18446744073709551616' as uint64: out of range "
            "0..18446744073709551615");
  EXPECT_EQ(CsvError("v\n-1\n", OneColumn(columnar::UInt64())),
            "line 2, column 'v': cannot read '-1' as uint64: out of range "
            "0..18446744073709551615");
  EXPECT_EQ(CsvError("v\n1.0\n", OneColumn(columnar::Int64())),
            "line 2, column 'v': cannot read '1.0' as long: not an integer");
  EXPECT_EQ(CsvError("v\n12abc\n", OneColumn(columnar::Int32())),
            "line 2, column 'v': cannot read '12abc' as int: not an integer");
  // uint32 columns are written as int64 (arrow_mapping.h); plain uint32 works too.
  EXPECT_EQ(Csv("v\n4294967295\n", OneColumn(columnar::UInt32())), "{\"v\":4294967295}\n");
  EXPECT_EQ(CsvError("v\n4294967296\n", OneColumn(columnar::UInt32())),
            "line 2, column 'v': cannot read '4294967296' as uint32: out of range "
            "0..4294967295");
  // Blanks around numbers are tolerated, a sign is allowed.
  EXPECT_EQ(Csv("v\n +5 \n-0\n", OneColumn(columnar::Int64())), "{\"v\":5}\n{\"v\":0}\n");
}

TEST(TextImportCsvTest, Floats) {
  EXPECT_EQ(Csv("v\n1e300\n-0\ninfinity\n+2.5\n0.1\n", OneColumn(columnar::Float64())),
            "{\"v\":1e+300}\n{\"v\":-0.0}\n{\"v\":\"Infinity\"}\n{\"v\":2.5}\n{\"v\":0.1}\n");
  EXPECT_EQ(Csv("v\n0.1\n3.4e38\n", OneColumn(columnar::Float32())),
            "{\"v\":0.1}\n{\"v\":3.4e+38}\n");
  EXPECT_EQ(CsvError("v\n1e39\n", OneColumn(columnar::Float32())),
            "line 2, column 'v': cannot read '1e39' as float: out of range");
  EXPECT_EQ(CsvError("v\n1e999\n", OneColumn(columnar::Float64())),
            "line 2, column 'v': cannot read '1e999' as double: out of range");
  EXPECT_EQ(CsvError("v\n0x10\n", OneColumn(columnar::Float64())),
            "line 2, column 'v': cannot read '0x10' as double: not a number");
  EXPECT_EQ(CsvError("v\nnan(1)\n", OneColumn(columnar::Float64())),
            "line 2, column 'v': cannot read 'nan(1)' as double: not a number");
}

TEST(TextImportCsvTest, DecimalScaleAndPrecision) {
  SchemaPtr schema = OneColumn(columnar::Decimal128(5, 2));
  EXPECT_EQ(Csv("v\n1\n-1.5\n999.99\n.5\n007.10\n-0\n", schema),
            "{\"v\":\"1.00\"}\n{\"v\":\"-1.50\"}\n{\"v\":\"999.99\"}\n{\"v\":\"0.50\"}\n"
            "{\"v\":\"7.10\"}\n{\"v\":\"0.00\"}\n");
  EXPECT_EQ(CsvError("v\n1.234\n", schema),
            "line 2, column 'v': cannot read '1.234' as decimal(5, 2): more than 2 fraction "
            "digits (scale 2)");
  EXPECT_EQ(CsvError("v\n1000\n", schema),
            "line 2, column 'v': cannot read '1000' as decimal(5, 2): more than 3 integer "
            "digits (precision 5, scale 2)");
  EXPECT_EQ(CsvError("v\n1e2\n", schema),
            "line 2, column 'v': cannot read '1e2' as decimal(5, 2): not a plain decimal number");
  EXPECT_EQ(CsvError("v\n.\n", schema),
            "line 2, column 'v': cannot read '.' as decimal(5, 2): not a plain decimal number");
  // 38 digits, exact.
  EXPECT_EQ(
      Csv("v\n-9999999999999999999999999999.9999999999\n", OneColumn(columnar::Decimal128(38, 10))),
      "{\"v\":\"-9999999999999999999999999999.9999999999\"}\n");
  EXPECT_EQ(Csv("v\n0.12\n", OneColumn(columnar::Decimal128(2, 2))), "{\"v\":\"0.12\"}\n");
  EXPECT_EQ(CsvError("v\n1.12\n", OneColumn(columnar::Decimal128(2, 2))),
            "line 2, column 'v': cannot read '1.12' as decimal(2, 2): more than 0 integer "
            "digits (precision 2, scale 2)");
}

TEST(TextImportCsvTest, DatesAndTimes) {
  EXPECT_EQ(Csv("v\n2024-12-31\n0001-01-01\n+12026-01-01\n", OneColumn(columnar::Date32())),
            "{\"v\":\"2024-12-31\"}\n{\"v\":\"0001-01-01\"}\n{\"v\":\"+12026-01-01\"}\n");
  EXPECT_EQ(CsvError("v\n2023-02-29\n", OneColumn(columnar::Date32())),
            "line 2, column 'v': cannot read '2023-02-29' as date: no such date");
  EXPECT_EQ(CsvError("v\n2023/02/01\n", OneColumn(columnar::Date32())),
            "line 2, column 'v': cannot read '2023/02/01' as date: expected YYYY-MM-DD");
  EXPECT_EQ(Csv("v\n23:59:59.999999\n12:00:00.5\n", OneColumn(columnar::Time64())),
            "{\"v\":\"23:59:59.999999\"}\n{\"v\":\"12:00:00.500000\"}\n");
  EXPECT_EQ(CsvError("v\n24:00:00\n", OneColumn(columnar::Time64())),
            "line 2, column 'v': cannot read '24:00:00' as time: no such time of day");
  EXPECT_EQ(CsvError("v\n12:00:00.1234567\n", OneColumn(columnar::Time64())),
            "line 2, column 'v': cannot read '12:00:00.1234567' as time: time holds at most 6 "
            "fraction digits; found 7");
}

TEST(TextImportCsvTest, TimestamptzOffsetsConvertToUtc) {
  SchemaPtr schema = OneColumn(columnar::Timestamp(TimeUnit::kMicro, "UTC"));
  EXPECT_EQ(Csv("v\n2024-03-01T10:00:00+02:00\n2024-03-01 10:00:00.25-05:30\n"
                "2024-03-01T00:30:00+0100\n2024-03-01T10:00:00z\n2024-03-01T10:00:00\n",
                schema),
            "{\"v\":\"2024-03-01T08:00:00.000000Z\"}\n"
            "{\"v\":\"2024-03-01T15:30:00.250000Z\"}\n"
            "{\"v\":\"2024-02-29T23:30:00.000000Z\"}\n"
            "{\"v\":\"2024-03-01T10:00:00.000000Z\"}\n"
            "{\"v\":\"2024-03-01T10:00:00.000000Z\"}\n");
  EXPECT_EQ(CsvError("v\n2024-03-01T10:00:00+25:00\n", schema),
            "line 2, column 'v': cannot read '2024-03-01T10:00:00+25:00' as timestamptz: offset "
            "out of range");
}

TEST(TextImportCsvTest, NaiveTimestampRefusesOffsets) {
  SchemaPtr schema = OneColumn(columnar::Timestamp(TimeUnit::kMicro));
  EXPECT_EQ(CsvError("v\n2024-03-01T10:00:00+02:00\n", schema),
            "line 2, column 'v': cannot read '2024-03-01T10:00:00+02:00' as timestamp: a "
            "timestamp without time zone takes no offset (found '+02:00')");
  EXPECT_EQ(CsvError("v\n2024-03-01T10:00:00Z\n", schema),
            "line 2, column 'v': cannot read '2024-03-01T10:00:00Z' as timestamp: a timestamp "
            "without time zone takes no offset (found 'Z')");
  EXPECT_EQ(CsvError("v\n2024-03-01\n", schema),
            "line 2, column 'v': cannot read '2024-03-01' as timestamp: expected "
            "YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|+HH:MM]");
}

TEST(TextImportCsvTest, FractionDigitsBeyondTheUnit) {
  EXPECT_EQ(
      CsvError("v\n2024-01-01T00:00:00.5\n", OneColumn(columnar::Timestamp(TimeUnit::kSecond))),
      "line 2, column 'v': cannot read '2024-01-01T00:00:00.5' as timestamp_s: "
      "timestamp_s holds whole seconds; found 1 fraction digits");
  EXPECT_EQ(
      CsvError("v\n2024-01-01T00:00:00.1234\n", OneColumn(columnar::Timestamp(TimeUnit::kMilli))),
      "line 2, column 'v': cannot read '2024-01-01T00:00:00.1234' as timestamp_ms: "
      "timestamp_ms holds at most 3 fraction digits; found 4");
  EXPECT_EQ(CsvError("v\n2024-01-01T00:00:00.1234567\n",
                     OneColumn(columnar::Timestamp(TimeUnit::kMicro, "UTC"))),
            "line 2, column 'v': cannot read '2024-01-01T00:00:00.1234567' as timestamptz: "
            "timestamptz holds at most 6 fraction digits; found 7");
  EXPECT_EQ(CsvError("v\n2024-01-01T00:00:00.1234567891\n",
                     OneColumn(columnar::Timestamp(TimeUnit::kNano))),
            "line 2, column 'v': cannot read '2024-01-01T00:00:00.1234567891' as timestamp_ns: "
            "timestamp_ns holds at most 9 fraction digits; found 10");
  // Beyond the int64 range of nanoseconds.
  EXPECT_EQ(CsvError("v\n2263-01-01T00:00:00\n", OneColumn(columnar::Timestamp(TimeUnit::kNano))),
            "line 2, column 'v': cannot read '2263-01-01T00:00:00' as timestamp_ns: out of range "
            "for timestamp_ns");
}

TEST(TextImportCsvTest, StringsJsonBinaryUuid) {
  EXPECT_EQ(CsvError("v\n\"not json\"\n", MakeSchema({columnar::JsonField("v")})),
            "line 2, column 'v': cannot read 'not json' as json: invalid JSON: Invalid value at "
            "offset 1");
  EXPECT_EQ(CsvError("v\n\"{\"\"a\"\":1} x\"\n", MakeSchema({columnar::JsonField("v")})),
            "line 2, column 'v': cannot read '{\"a\":1} x' as json: invalid JSON: The document "
            "root must not be followed by other values at offset 8");
  EXPECT_EQ(CsvError("v\nZm9\n", OneColumn(columnar::Binary())),
            "line 2, column 'v': cannot read 'Zm9' as binary: not base64: base64 text has length "
            "3, not a multiple of 4");
  EXPECT_EQ(
      CsvError("v\n123e4567-e89b-12d3-a456-42661417400\n", MakeSchema({columnar::UuidField("v")})),
      "line 2, column 'v': cannot read '123e4567-e89b-12d3-a456-42661417400' as uuid: "
      "expected 8-4-4-4-12 hex digits");
  // Strings are verbatim: blanks kept, quotes unescaped, CR/LF inside quotes kept.
  EXPECT_EQ(Csv("v\n  a \n\"say \"\"hi\"\"\"\n\"x\r\ny\"\n", OneColumn(columnar::Utf8())),
            "{\"v\":\"  a \"}\n{\"v\":\"say \\\"hi\\\"\"}\n{\"v\":\"x\\r\\ny\"}\n");
}

TEST(TextImportCsvTest, InvalidUtf8IsRefused) {
  EXPECT_EQ(CsvError("a,v\n1,ok\n2,\"ab\xff\"\n",
                     MakeSchema({F("a", columnar::Int64()), F("v", columnar::Utf8())})),
            "line 3, column 'v': cannot read 'ab?' as string: not valid UTF-8");
  // Surrogates encoded in UTF-8 are not UTF-8 either.
  EXPECT_EQ(CsvError("v\n\xed\xa0\x80\n", OneColumn(columnar::Utf8())),
            "line 2, column 'v': cannot read '?\?\?' as string: not valid UTF-8");
  EXPECT_EQ(CsvError("v\n\"\xc3\"\n", MakeSchema({columnar::JsonField("v")})),
            "line 2, column 'v': cannot read '?' as json: not valid UTF-8");
}

// ---- CSV nested cells ------------------------------------------------------------

TEST(TextImportCsvTest, NestedJsonCells) {
  SchemaPtr schema = MakeSchema({
      F("tags", columnar::List(columnar::Utf8())),
      F("pt", columnar::Struct({F("x", columnar::Int32()), F("y", columnar::Float64()),
                                F("when", columnar::Timestamp(TimeUnit::kMicro, "UTC"))})),
      F("m", columnar::Map(columnar::Utf8(), columnar::Int64())),
      F("im", columnar::Map(columnar::Int32(), columnar::Decimal128(5, 1))),
      F("ll", columnar::List(columnar::List(columnar::Int64()))),
  });
  const std::string csv =
      "tags,pt,m,im,ll\n"
      "\"[\"\"a\"\", null, \"\"\"\"]\",\"{\"\"x\"\": 1, \"\"y\"\": \"\"NaN\"\", \"\"when\"\": "
      "\"\"2024-01-01T01:00:00+01:00\"\"}\",\"{\"\"k\"\": 9007199254740993}\","
      "\"[{\"\"key\"\": 2, \"\"value\"\": 1.5}, {\"\"value\"\": \"\"-3\"\", \"\"key\"\": "
      "\"\"7\"\"}]\","
      "\"[[1,2],[],null]\"\n"
      "[],\"{\"\"y\"\":1e3}\", {} ,\"{\"\"1\"\": null}\",\n"
      ",,,,\n";
  EXPECT_EQ(Csv(csv, schema),
            "{\"tags\":[\"a\",null,\"\"],\"pt\":{\"x\":1,\"y\":\"NaN\","
            "\"when\":\"2024-01-01T00:00:00.000000Z\"},\"m\":[{\"key\":\"k\","
            "\"value\":9007199254740993}],\"im\":[{\"key\":2,\"value\":\"1.5\"},{\"key\":7,"
            "\"value\":\"-3.0\"}],\"ll\":[[1,2],[],null]}\n"
            "{\"tags\":[],\"pt\":{\"x\":null,\"y\":1000,\"when\":null},\"m\":[],"
            "\"im\":[{\"key\":1,\"value\":null}],\"ll\":null}\n"
            "{\"tags\":null,\"pt\":null,\"m\":null,\"im\":null,\"ll\":null}\n");

  EXPECT_EQ(CsvError("tags\n\"[1]\"\n", MakeSchema({schema->fields[0]})),
            "line 2, column 'tags': element 0: cannot read '1' as string: expected a JSON "
            "string, found a JSON number");
  EXPECT_EQ(CsvError("tags\n\"[\"\"a\"\"\"\n", MakeSchema({schema->fields[0]})),
            "line 2, column 'tags': cannot read '[\"a\"' as list<string>: invalid JSON: Missing a "
            "comma or ']' after an array element at offset 4");
  EXPECT_EQ(CsvError("pt\n\"{\"\"x\"\": 1, \"\"z\"\": 2}\"\n", MakeSchema({schema->fields[1]})),
            "line 2, column 'pt': unknown field 'z' in struct<x: int, y: double, when: "
            "timestamptz>");
  EXPECT_EQ(CsvError("pt\n\"{\"\"x\"\": 1e10}\"\n", MakeSchema({schema->fields[1]})),
            "line 2, column 'pt': field 'x': cannot read '1e10' as int: not an integer");
  EXPECT_EQ(CsvError("pt\n\"[1]\"\n", MakeSchema({schema->fields[1]})),
            "line 2, column 'pt': cannot read '[1]' as struct<x: int, y: double, when: "
            "timestamptz>: expected a JSON object, found a JSON array");
  EXPECT_EQ(CsvError("im\n\"[{\"\"key\"\": null, \"\"value\"\": 1}]\"\n",
                     MakeSchema({schema->fields[3]})),
            "line 2, column 'im': entry 0: map keys cannot be null");
  EXPECT_EQ(CsvError("im\n\"{\"\"x\"\": 1}\"\n", MakeSchema({schema->fields[3]})),
            "line 2, column 'im': key: cannot read 'x' as int: not an integer");
}

TEST(TextImportCsvTest, NonNullableNestedChildren) {
  SchemaPtr schema = MakeSchema({
      F("l", columnar::List(columnar::Int64(), /*element_nullable=*/false)),
      F("s", columnar::Struct({F("a", columnar::Int64(), /*nullable=*/false)})),
  });
  EXPECT_EQ(Csv("l,s\n[1],\"{\"\"a\"\":2}\"\n,\n", schema),
            "{\"l\":[1],\"s\":{\"a\":2}}\n{\"l\":null,\"s\":null}\n");
  EXPECT_EQ(CsvError("l,s\n\"[1,null]\",\n", schema),
            "line 2, column 'l': element 1: null for 'element', which is not nullable");
  EXPECT_EQ(CsvError("l,s\n,{}\n", schema),
            "line 2, column 's': field 'a' is missing and not nullable");
}

// ---- nulls and columns ---------------------------------------------------------------

TEST(TextImportCsvTest, NullsVersusEmptyStrings) {
  SchemaPtr schema = MakeSchema({F("s", columnar::Utf8()), F("n", columnar::Int64()),
                                 F("b", columnar::Binary()), columnar::JsonField("j")});
  EXPECT_EQ(Csv("s,n,b,j\n,,,\n\"\",\"\",\"\",\"\"\n", schema),
            "{\"s\":null,\"n\":null,\"b\":null,\"j\":null}\n"
            "{\"s\":\"\",\"n\":null,\"b\":\"\",\"j\":null}\n");
  TextImportOptions options;
  options.null_token = "NULL";
  EXPECT_EQ(Csv("s,n,b,j\nNULL,NULL,NULL,NULL\n\"NULL\",,,\n,1,,null\n", schema, options),
            "{\"s\":null,\"n\":null,\"b\":null,\"j\":null}\n"
            "{\"s\":\"NULL\",\"n\":null,\"b\":null,\"j\":null}\n"
            "{\"s\":null,\"n\":1,\"b\":null,\"j\":\"null\"}\n");
}

TEST(TextImportCsvTest, NotNullColumnRefusesNull) {
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64(), false), F("s", columnar::Utf8())});
  EXPECT_EQ(CsvError("id,s\n1,a\n,b\n", schema),
            "line 3, column 'id': null, but the column is not nullable");
}

TEST(TextImportCsvTest, HeaderMatchesColumns) {
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64(), false).WithFieldId(1),
                                 F("name", columnar::Utf8()).WithFieldId(2),
                                 F("score", columnar::Float64()).WithFieldId(3)});
  // Any order; a missing nullable column is null-filled.
  EXPECT_EQ(Csv("name,id\nx,1\ny,2\n", schema),
            "{\"id\":1,\"name\":\"x\",\"score\":null}\n{\"id\":2,\"name\":\"y\",\"score\":null}\n");
  EXPECT_EQ(CsvError("name,score\nx,1\n", schema),
            "line 1: column 'id' is missing from the header and not nullable");
  EXPECT_EQ(CsvError("id,nmae\n1,x\n", schema),
            "line 1: column 'nmae' is not in the table (its columns: id, name, score)");
  EXPECT_EQ(CsvError("id,id\n1,1\n", schema), "line 1: column 'id' appears twice");
  EXPECT_EQ(CsvError("id,\n1,1\n", schema), "line 1: column 2 has no name");
  EXPECT_EQ(CsvError("", schema), "empty input: expected a CSV header line");
  EXPECT_EQ(CsvError("\n\n", schema), "empty input: expected a CSV header line");
  EXPECT_EQ(CsvError("id,name\n1,a\n2\n", schema), "line 3: expected 2 fields, found 1");
  EXPECT_EQ(CsvError("id,name\n1,a,\n", schema), "line 2: expected 2 fields, found 3");
  // A header alone is no rows; a BOM before it is ignored.
  EXPECT_EQ(Csv("\xEF\xBB\xBFid,name\n", schema), "");
  EXPECT_EQ(Csv("\xEF\xBB\xBFid\n5", schema), "{\"id\":5,\"name\":null,\"score\":null}\n");
}

TEST(TextImportCsvTest, QuotingAndLineEnds) {
  SchemaPtr schema = MakeSchema({F("a", columnar::Utf8()), F("b", columnar::Int64())});
  // CRLF, quoted delimiters, a missing final newline, blank lines.
  EXPECT_EQ(Csv("a,b\r\n\"x,y\",1\r\n\r\n\"\",2\r\n\n z ,3", schema),
            "{\"a\":\"x,y\",\"b\":1}\n{\"a\":\"\",\"b\":2}\n{\"a\":\" z \",\"b\":3}\n");
  // A quote inside an unquoted field is taken literally.
  EXPECT_EQ(Csv("a,b\n5\" screen,1\n", schema), "{\"a\":\"5\\\" screen\",\"b\":1}\n");
  EXPECT_EQ(CsvError("a,b\n\"x\"y,1\n", schema),
            "line 2, column 'a': unexpected 'y' after a closing quote");
  TextImportOptions tabs;
  tabs.delimiter = '\t';
  EXPECT_EQ(Csv("a\tb\n\"t\tu\"\t4\n", schema, tabs), "{\"a\":\"t\\tu\",\"b\":4}\n");
  TextImportOptions semicolons;
  semicolons.delimiter = ';';
  EXPECT_EQ(Csv("a;b\nx,y;4\n", schema, semicolons), "{\"a\":\"x,y\",\"b\":4}\n");
}

TEST(TextImportCsvTest, LineNumbersAfterEmbeddedNewlines) {
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64()), F("note", columnar::Utf8())});
  EXPECT_EQ(CsvError("id,note\n1,\"two\nlines\"\n2,\"three\r\nmore\nlines\"\n\nx,y\n", schema),
            "line 8, column 'id': cannot read 'x' as long: not an integer");
  EXPECT_EQ(CsvError("id,note\n1,\"a\nb\"\n2,\"open\nstill open\n", schema),
            "line 4: unterminated quoted field");
  EXPECT_EQ(CsvError("id,note\n\"1", schema), "line 2: unterminated quoted field");
  EXPECT_EQ(CsvError("id,note\n1,\"x\"\"", schema), "line 2: unterminated quoted field");
}

TEST(TextImportCsvTest, BatchRowsSplitting) {
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64()), F("s", columnar::Utf8())});
  std::string csv = "id,s\n";
  std::string expected;
  for (int i = 0; i < 2500; ++i) {
    csv += std::to_string(i) + ",\"r" + std::to_string(i) + "\"\n";
    expected += "{\"id\":" + std::to_string(i) + ",\"s\":\"r" + std::to_string(i) + "\"}\n";
  }
  TextImportOptions options;
  options.batch_rows = 1000;
  Result<Imported> result = Import(csv, TextFormat::kCsv, schema, options);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result->batch_sizes, (std::vector<int64_t>{1000, 1000, 500}));
  EXPECT_EQ(result->rows, expected);

  options.batch_rows = 2500;
  result = Import(csv, TextFormat::kCsv, schema, options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->batch_sizes, (std::vector<int64_t>{2500}));

  options.batch_rows = 0;
  std::istringstream input(csv);
  EXPECT_FALSE(TextBatchReader::Open(&input, TextFormat::kCsv, schema, options).ok());
}

TEST(TextImportCsvTest, ErrorIsStickyAndNamesTheBatch) {
  SchemaPtr schema = OneColumn(columnar::Int64());
  std::istringstream input("v\n1\n2\nx\n4\n");
  TextImportOptions options;
  options.batch_rows = 2;
  auto reader = TextBatchReader::Open(&input, TextFormat::kCsv, schema, options);
  ASSERT_TRUE(reader.ok());
  auto first = (*reader)->Next();
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->num_rows, 2);
  auto second = (*reader)->Next();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().message, "line 4, column 'v': cannot read 'x' as long: not an integer");
  EXPECT_FALSE((*reader)->Next().ok());
}

TEST(TextImportCsvTest, RecordsSpanningBufferRefills) {
  // Cells larger than the 1 MiB read buffer, quoted and not, with "" escapes
  // and newlines landing on refill boundaries.
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64()), F("s", columnar::Utf8())});
  std::string big(3 << 19, 'x');
  for (size_t i = 0; i < big.size(); i += 4099) big[i] = '\n';
  std::string escaped;
  for (char c : big) {
    escaped += c;
    if (c == '\n') escaped += "\"\"";
  }
  std::string csv = "id,s\n";
  for (int i = 0; i < 3; ++i) csv += std::to_string(i) + ",\"" + escaped + "\"\r\n";
  csv += "3," + std::string(2 << 20, 'y') + "\n";
  csv += "x,y\n";
  std::string unescaped;
  for (char c : big) {
    unescaped += c;
    if (c == '\n') unescaped += '"';
  }
  std::istringstream input(csv);
  auto reader = TextBatchReader::Open(&input, TextFormat::kCsv, schema);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->Next();
  ASSERT_FALSE(batch.ok());
  const int64_t newlines_per_cell = static_cast<int64_t>((big.size() + 4098) / 4099);
  EXPECT_EQ(batch.error().message, "line " + std::to_string(2 + 3 * (1 + newlines_per_cell) + 1) +
                                       ", column 'id': cannot read 'x' as long: not an integer");

  std::istringstream good(csv.substr(0, csv.size() - 4));
  reader = TextBatchReader::Open(&good, TextFormat::kCsv, schema);
  ASSERT_TRUE(reader.ok());
  batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok()) << batch.error().ToString();
  ASSERT_TRUE(batch->has_value());
  ASSERT_EQ((*batch)->num_rows, 4);
  EXPECT_EQ((*batch)->columns[1]->GetView(0), unescaped);
  EXPECT_EQ((*batch)->columns[1]->GetView(2), unescaped);
  EXPECT_EQ((*batch)->columns[1]->GetView(3), std::string(2 << 20, 'y'));
}

TEST(TextImportCsvTest, EveryRefillBoundaryPosition) {
  // The reader refills after its first 1 MiB: put that boundary at every
  // position of a tail holding escapes, CRLFs and newlines inside quotes.
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64()), F("s", columnar::Utf8())});
  const std::string header = "id,s\n";
  const std::string tail =
      "1,\"a\"\"b\"\r\n2,\"x\ny\"\r\n3,\r\n\r\n4,\"\"\r\n5,\"\"\"\"\n6,e\r\n7,\"\"\r";
  const std::string expected_tail = Csv(header + tail, schema);
  ASSERT_EQ(expected_tail,
            "{\"id\":1,\"s\":\"a\\\"b\"}\n{\"id\":2,\"s\":\"x\\ny\"}\n{\"id\":3,\"s\":null}\n"
            "{\"id\":4,\"s\":\"\"}\n{\"id\":5,\"s\":\"\\\"\"}\n{\"id\":6,\"s\":\"e\"}\n"
            "{\"id\":7,\"s\":\"\"}\n");
  const size_t boundary = size_t{1} << 20;
  for (size_t k = 0; k <= tail.size(); ++k) {
    const size_t filler = boundary - k - header.size();
    const std::string first_row = "0," + std::string(filler - 3, 'z') + "\n";
    const std::string csv = header + first_row + tail;
    const std::string rows = Csv(csv, schema);
    ASSERT_EQ(rows, "{\"id\":0,\"s\":\"" + std::string(filler - 3, 'z') + "\"}\n" + expected_tail)
        << "boundary at tail offset " << k;
    // Line numbers stay right: the tail has 9 lines, so a bad row after it is line 12.
    EXPECT_EQ(CsvError(csv + "\nx,y\n", schema),
              "line 12, column 'id': cannot read 'x' as long: not an integer")
        << "boundary at tail offset " << k;
  }
  const std::string jsonl_tail = "{\"id\": 1, \"s\": \"a\\\"b\"}\r\n\r\n{\"id\": 2}\r\n{\"id\": 3}";
  const std::string expected_jsonl = Jsonl(jsonl_tail, schema);
  ASSERT_EQ(expected_jsonl,
            "{\"id\":1,\"s\":\"a\\\"b\"}\n{\"id\":2,\"s\":null}\n{\"id\":3,\"s\":null}\n");
  for (size_t k = 0; k <= jsonl_tail.size(); ++k) {
    const std::string first_line =
        "{\"id\":0,\"s\":\"" + std::string(boundary - k - 16, 'z') + "\"}\n";
    ASSERT_EQ(first_line.size(), boundary - k);
    EXPECT_EQ(Jsonl(first_line + jsonl_tail, schema),
              "{\"id\":0,\"s\":\"" + std::string(boundary - k - 16, 'z') + "\"}\n" + expected_jsonl)
        << "boundary at tail offset " << k;
    EXPECT_EQ(JsonlError(first_line + jsonl_tail + "\n{\"id\": true}", schema).substr(0, 7),
              "line 6,")
        << "boundary at tail offset " << k;
  }
}

TEST(TextImportCsvTest, MalformedInputNeverCrashes) {
  SchemaPtr schema =
      MakeSchema({F("a", columnar::Int64()), F("b", columnar::Utf8()),
                  F("c", columnar::List(columnar::Int64())), columnar::JsonField("d")});
  // An unbalanced quote at the start of a large input.
  std::string huge = "a,b,c,d\n1,\"" + std::string(4 << 20, 'z');
  EXPECT_EQ(CsvError(huge, schema), "line 2: unterminated quoted field");
  // Random bytes from a small alphabet of CSV and JSON syntax.
  std::mt19937 random(42);
  const char kAlphabet[] = "ab1,\"\n\r[]{}: \\-.\xff\0e";
  const std::string alphabet(kAlphabet, sizeof(kAlphabet) - 1);
  for (int round = 0; round < 2000; ++round) {
    std::string text = "a,b,c,d\n";
    const int length = static_cast<int>(random() % 200);
    for (int i = 0; i < length; ++i) text += alphabet[random() % alphabet.size()];
    Result<Imported> result = Import(text, TextFormat::kCsv, schema);
    if (!result.ok()) {
      EXPECT_FALSE(result.error().message.empty());
    }
    Result<Imported> jsonl = Import(text, TextFormat::kJsonLines, schema);
    if (!jsonl.ok()) {
      EXPECT_FALSE(jsonl.error().message.empty());
    }
  }
  // Deep nesting is refused, not recursed into.
  std::string deep = "a,b,c,d\n1,x,[1],\"" + std::string(100000, '[') + "\"\n";
  EXPECT_EQ(CsvError(deep, schema).substr(0, 40), "line 2, column 'd': cannot read '[[[[[[[");
  std::string deep_jsonl = "{\"d\":" + std::string(100000, '[') + "}\n";
  EXPECT_EQ(JsonlError(deep_jsonl, schema), "line 1: invalid JSON: nesting deeper than 128");
}

// ---- JSON lines ---------------------------------------------------------------------

TEST(TextImportJsonLinesTest, EveryType) {
  SchemaPtr schema = MakeSchema({
      F("b", columnar::Bool()),
      F("i64", columnar::Int64()),
      F("u64", columnar::UInt64()),
      F("f64", columnar::Float64()),
      F("dec", columnar::Decimal128(38, 18)),
      F("d", columnar::Date32()),
      F("ts", columnar::Timestamp(TimeUnit::kNano)),
      F("tstz", columnar::Timestamp(TimeUnit::kMicro, "UTC")),
      F("s", columnar::Utf8()),
      columnar::JsonField("j"),
      F("bin", columnar::Binary()),
      columnar::UuidField("u"),
      F("l", columnar::List(columnar::Int32())),
      F("st", columnar::Struct({F("a", columnar::Utf8()), F("b", columnar::Bool())})),
      F("m", columnar::Map(columnar::Utf8(), columnar::Float32())),
  });
  const std::string jsonl =
      "{\"b\": true, \"i64\": -9223372036854775808, \"u64\": 18446744073709551615, "
      "\"f64\": 0.1, \"dec\": 12345678901234567890.123456789012345678, \"d\": \"2024-05-06\", "
      "\"ts\": \"2024-05-06T07:08:09.123456789\", \"tstz\": \"2024-05-06T07:08:09-01:00\", "
      "\"s\": \"caf\\u00e9 \\\"q\\\"\", \"j\": {\"x\": [1, 2.50, null], \"y\": \"\\n\"}, "
      "\"bin\": \"AAE=\", \"u\": \"123e4567-e89b-12d3-a456-426614174000\", "
      "\"l\": [1, null, 3], \"st\": {\"b\": false, \"a\": \"z\"}, "
      "\"m\": [{\"key\": \"k\", \"value\": 1.25}]}\n"
      "\r\n"
      "{\"b\": \"no\", \"i64\": \"42\", \"dec\": \"-0.5\", \"f64\": \"NaN\", \"j\": \"[1]\", "
      "\"s\": null, \"m\": {\"a\": null}, \"st\": null}\r\n"
      "   \n"
      "{}";
  EXPECT_EQ(
      Jsonl(jsonl, schema),
      "{\"b\":true,\"i64\":-9223372036854775808,\"u64\":18446744073709551615,\"f64\":0.1,"
      "\"dec\":\"12345678901234567890.123456789012345678\",\"d\":\"2024-05-06\","
      "\"ts\":\"2024-05-06T07:08:09.123456789\",\"tstz\":\"2024-05-06T08:08:09.000000Z\","
      "\"s\":\"café \\\"q\\\"\",\"j\":\"{\\\"x\\\":[1,2.50,null],\\\"y\\\":\\\"\\\\n\\\"}\","
      "\"bin\":\"AAE=\",\"u\":\"123e4567-e89b-12d3-a456-426614174000\",\"l\":[1,null,3],"
      "\"st\":{\"a\":\"z\",\"b\":false},\"m\":[{\"key\":\"k\",\"value\":1.25}]}\n"
      "{\"b\":false,\"i64\":42,\"u64\":null,\"f64\":\"NaN\",\"dec\":\"-0.500000000000000000\","
      "\"d\":null,\"ts\":null,\"tstz\":null,\"s\":null,\"j\":\"[1]\",\"bin\":null,"
      "\"u\":null,\"l\":null,\"st\":null,\"m\":[{\"key\":\"a\",\"value\":null}]}\n"
      "{\"b\":null,\"i64\":null,\"u64\":null,\"f64\":null,\"dec\":null,\"d\":null,"
      "\"ts\":null,\"tstz\":null,\"s\":null,\"j\":null,\"bin\":null,\"u\":null,\"l\":null,"
      "\"st\":null,\"m\":null}\n");
}

TEST(TextImportJsonLinesTest, WrongJsonTypes) {
  SchemaPtr schema =
      MakeSchema({F("n", columnar::Int64()), F("s", columnar::Utf8()), F("b", columnar::Bool()),
                  F("d", columnar::Date32()), F("l", columnar::List(columnar::Int64()))});
  EXPECT_EQ(JsonlError("{\"n\": 1}\n{\"n\": true}\n", schema),
            "line 2, column 'n': cannot read 'true' as long: expected a JSON number, found a "
            "JSON boolean");
  EXPECT_EQ(JsonlError("{\"s\": 12}\n", schema),
            "line 1, column 's': cannot read '12' as string: expected a JSON string, found a "
            "JSON number");
  EXPECT_EQ(JsonlError("{\"b\": 1}\n", schema),
            "line 1, column 'b': cannot read '1' as boolean: expected a JSON boolean, found a "
            "JSON number");
  EXPECT_EQ(JsonlError("{\"d\": 20240101}\n", schema),
            "line 1, column 'd': cannot read '20240101' as date: expected a JSON string, found a "
            "JSON number");
  EXPECT_EQ(JsonlError("{\"l\": {\"a\": 1}}\n", schema),
            "line 1, column 'l': cannot read '{\"a\":1}' as list<long>: expected a JSON array, "
            "found a JSON object");
  EXPECT_EQ(JsonlError("{\"n\": 1.5}\n", schema),
            "line 1, column 'n': cannot read '1.5' as long: not an integer");
  EXPECT_EQ(JsonlError("{\"n\": 9223372036854775808}\n", schema),
            "line 1, column 'n': cannot read '9223372036854775808' as long: out of range "
            "-9223372036854775808..9223372036854775807");
  // A JSON string holding JSON is taken for a nested column.
  EXPECT_EQ(Jsonl("{\"l\": \"[1, 2]\"}\n", schema),
            "{\"n\":null,\"s\":null,\"b\":null,\"d\":null,\"l\":[1,2]}\n");
  EXPECT_EQ(JsonlError("{\"l\": \"\\\"[1]\\\"\"}\n", schema),
            "line 1, column 'l': cannot read '\"[1]\"' as list<long>: expected a JSON array, found "
            "a JSON string");
}

TEST(TextImportJsonLinesTest, ColumnsAndLines) {
  SchemaPtr schema = MakeSchema({F("id", columnar::Int64(), false), F("s", columnar::Utf8())});
  EXPECT_EQ(Jsonl("{\"id\": 1}\n{\"s\": \"x\", \"id\": 2}\n", schema),
            "{\"id\":1,\"s\":null}\n{\"id\":2,\"s\":\"x\"}\n");
  EXPECT_EQ(JsonlError("{\"id\": 1}\n\n{\"s\": \"x\"}\n", schema),
            "line 3, column 'id': missing, but the column is not nullable");
  EXPECT_EQ(JsonlError("{\"id\": null}\n", schema),
            "line 1, column 'id': null, but the column is not nullable");
  EXPECT_EQ(JsonlError("{\"id\": 1, \"extra\": 2}\n", schema),
            "line 1: column 'extra' is not in the table (its columns: id, s)");
  EXPECT_EQ(JsonlError("{\"id\": 1, \"id\": 2}\n", schema), "line 1: column 'id' given twice");
  EXPECT_EQ(JsonlError("{\"id\": 1}\n[1]\n", schema),
            "line 2: expected a JSON object, found a JSON array");
  EXPECT_EQ(JsonlError("{\"id\": 1}\n{\"id\": 2\n", schema),
            "line 2: invalid JSON: Missing a comma or '}' after an object member at offset 8");
  EXPECT_EQ(JsonlError("{\"id\": 1} {}\n", schema),
            "line 1: invalid JSON: The document root must not be followed by other values at "
            "offset 10");
  EXPECT_EQ(JsonlError(std::string("{\"id\": 1}\0x\n", 12), schema),
            "line 1: invalid JSON: NUL byte");
  EXPECT_EQ(JsonlError("{\"id\": 1, \"s\": \"\xff\"}\n", schema),
            "line 1: invalid JSON: a string is not valid UTF-8");
  EXPECT_EQ(JsonlError("{\"id\": 1, \"s\": \"\\udc00\"}\n", schema),
            "line 1: invalid JSON: a string is not valid UTF-8");
  EXPECT_EQ(Jsonl("", schema), "");
}

TEST(TextImportJsonLinesTest, BatchRowsSplitting) {
  SchemaPtr schema = OneColumn(columnar::Int64());
  std::string jsonl;
  for (int i = 0; i < 2500; ++i) jsonl += "{\"v\":" + std::to_string(i) + "}\n";
  TextImportOptions options;
  options.batch_rows = 1000;
  Result<Imported> result = Import(jsonl, TextFormat::kJsonLines, schema, options);
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(result->batch_sizes, (std::vector<int64_t>{1000, 1000, 500}));
  EXPECT_EQ(result->rows, jsonl);
}

// ---- schema inference ------------------------------------------------------------------

TEST(InferCsvSchemaTest, InfersEachType) {
  std::istringstream input(
      "l,d,b,dt,ts,tz,s,e,mixed\n"
      "1,1.5,true,2024-01-01,2024-01-01T00:00:00,2024-01-01T00:00:00Z,x,,1\n"
      "-7,2,no,2024-01-02,2024-01-01 12:00:00.5,2024-01-01T00:00:00+02:00,1,,\n"
      ",NaN,,,,2024-01-01T00:00:00,\"\",,2024-01-01\n");
  Result<SchemaPtr> schema = InferCsvSchema(&input);
  ASSERT_TRUE(schema.ok()) << schema.error().ToString();
  EXPECT_EQ(
      (*schema)->ToString(),
      MakeSchema({F("l", columnar::Int64()), F("d", columnar::Float64()), F("b", columnar::Bool()),
                  F("dt", columnar::Date32()), F("ts", columnar::Timestamp(TimeUnit::kMicro)),
                  F("tz", columnar::Timestamp(TimeUnit::kMicro, "UTC")), F("s", columnar::Utf8()),
                  F("e", columnar::Utf8()), F("mixed", columnar::Utf8())})
          ->ToString());
  for (const Field& field : (*schema)->fields) EXPECT_TRUE(field.nullable);
}

TEST(InferCsvSchemaTest, SampleRowsAndErrors) {
  std::istringstream sampled("v;w\n1;a\n2;b\nx;c\n");
  Result<SchemaPtr> schema = InferCsvSchema(&sampled, 2, ';');
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ((*schema)->fields[0].type->id, columnar::TypeId::kInt64);
  EXPECT_EQ((*schema)->fields[1].type->id, columnar::TypeId::kUtf8);

  std::istringstream empty("");
  EXPECT_EQ(InferCsvSchema(&empty).error().message, "empty input: expected a CSV header line");
  std::istringstream ragged("a,b\n1\n");
  EXPECT_EQ(InferCsvSchema(&ragged).error().message, "line 2: expected 2 fields, found 1");
  std::istringstream unterminated("a\n\"1\n");
  EXPECT_EQ(InferCsvSchema(&unterminated).error().message, "line 2: unterminated quoted field");

  // What is inferred imports.
  const std::string csv = "n,t\n1,2024-01-01T00:00:00+01:00\n";
  std::istringstream input(csv);
  schema = InferCsvSchema(&input);
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(Csv(csv, *schema), "{\"n\":1,\"t\":\"2023-12-31T23:00:00.000000Z\"}\n");
}

}  // namespace
}  // namespace hoglake::columnar::text
