// The prepared-file validators (prepare_schema_check.h) on files written by
// our own ParquetWriter: the ordinary schema/field-id check (§10.3), the
// physical check with allow_optional_fields (§10.4), native VARIANT (§10.5,
// the annotation spliced into the footer as pyhoglake's §10.6 does) and the
// layout comparison of §10.2.
#include "client/prepare_schema_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "client/writer_schema.h"
#include "columnar/builder.h"
#include "parquet/writer.h"

namespace hoglake::client {
namespace {

using columnar::DataType;
using columnar::Field;
using columnar::TypeId;
using iceberg::ColumnType;

Column Leaf(std::string name, iceberg::TypeSpec type, int32_t id, bool nullable = true) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  c.field_id = id;
  c.nullable = nullable;
  return c;
}
Column Container(std::string name, ColumnType type, int32_t id, std::vector<Column> children) {
  Column c = Leaf(std::move(name), type, id);
  c.children = std::move(children);
  return c;
}

// id long not null, ts timestamp_s, u uuid, j json, tz timestamptz,
// d decimal(10,2), s struct<a string, b int>, l list<uuid>, m map<string, uint32>
std::vector<Column> Destination() {
  return {Leaf("id", ColumnType::kLong, 1, false),
          Leaf("ts", ColumnType::kTimestampS, 2),
          Leaf("u", ColumnType::kUuid, 3),
          Leaf("j", ColumnType::kJson, 4),
          Leaf("tz", ColumnType::kTimestamptz, 5),
          Leaf("d", iceberg::TypeSpec::Decimal(10, 2), 6),
          Container("s", ColumnType::kStruct, 7,
                    {Leaf("a", ColumnType::kString, 8), Leaf("b", ColumnType::kInt, 9)}),
          Container("l", ColumnType::kList, 10, {Leaf("element", ColumnType::kUuid, 11)}),
          Container("m", ColumnType::kMap, 12,
                    {Leaf("key", ColumnType::kString, 13, false),
                     Leaf("value", ColumnType::kUInt32, 14)})};
}

// One value (or a null, where the field allows it) appended for row `i`.
void AppendRow(columnar::ArrayBuilder& b, const Field& f, int64_t i, bool null) {
  if (null && f.nullable) {
    b.AppendNull();
    return;
  }
  const DataType& t = *f.type;
  switch (t.id) {
    case TypeId::kInt32:
      static_cast<columnar::NumericBuilder<int32_t>&>(b).Append(static_cast<int32_t>(i));
      break;
    case TypeId::kInt64:
    case TypeId::kTimestamp:
    case TypeId::kTime64:
      static_cast<columnar::NumericBuilder<int64_t>&>(b).Append(i * 1000);
      break;
    case TypeId::kUtf8:
    case TypeId::kBinary:
      static_cast<columnar::BinaryBuilder&>(b).Append(
          t.id == TypeId::kUtf8 && f.extension_name() == columnar::kJsonExtension
              ? "{}"
              : "v" + std::to_string(i));
      break;
    case TypeId::kFixedSizeBinary:
      ASSERT_TRUE(static_cast<columnar::FixedSizeBinaryBuilder&>(b)
                      .Append(std::string(t.byte_width, static_cast<char>('a' + i % 26)))
                      .ok());
      break;
    case TypeId::kDecimal128:
      static_cast<columnar::Decimal128Builder&>(b).Append(i);
      break;
    case TypeId::kStruct: {
      auto& s = static_cast<columnar::StructBuilder&>(b);
      s.Append();
      for (int k = 0; k < s.num_children(); ++k) AppendRow(s.child(k), t.children[k], i, false);
      break;
    }
    case TypeId::kList: {
      auto& l = static_cast<columnar::ListBuilder&>(b);
      l.Append();
      AppendRow(l.value_builder(), t.list_element(), i, false);
      break;
    }
    case TypeId::kMap: {
      auto& m = static_cast<columnar::MapBuilder&>(b);
      m.Append();
      AppendRow(m.key_builder(), t.map_key(), i, false);
      AppendRow(m.item_builder(), t.map_value(), i, false);
      break;
    }
    default:
      FAIL() << "no test values for " << t.ToString();
  }
}

std::string TempPath(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("hoglake-prepare-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// Writes `rows` rows of `schema` (odd rows null in `null_column`, by name).
std::string WriteFile(const std::string& name, const columnar::Schema& schema, int64_t rows = 3,
                      const std::string& null_column = "") {
  std::vector<columnar::ArrayPtr> arrays;
  for (const Field& field : schema.fields) {
    auto builder = columnar::MakeBuilder(field.type);
    for (int64_t i = 0; i < rows; ++i) {
      AppendRow(*builder, field, i, field.name == null_column && i % 2 == 1);
    }
    auto array = builder->Finish();
    EXPECT_TRUE(array.ok()) << array.status().ToString();
    arrays.push_back(*array);
  }
  auto shared = std::make_shared<columnar::Schema>(schema);
  auto batch = columnar::MakeRecordBatch(shared, arrays);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  const std::string path = TempPath(name);
  auto writer = parquet::ParquetWriter::OpenFile(path, shared);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->WriteBatch(*batch).ok());
  auto summary = (*writer)->Close();
  EXPECT_TRUE(summary.ok()) << summary.status().ToString();
  return path;
}

columnar::Schema WriterSchemaOf(const std::vector<Column>& columns) {
  auto schema = WriterSchema(columns);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return **schema;
}

// Describes and checks `path` against `columns`.
Status Check(const std::string& path, const std::vector<Column>& columns,
             bool allow_optional_fields = false) {
  HOGLAKE_ASSIGN_OR_RETURN(PreparedFileFacts facts, DescribePreparedFile(path));
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr expected, PreparedExpectedSchema(columns));
  return CheckPreparedFile(facts, columns, *expected, allow_optional_fields);
}

void ExpectRefused(const Status& status, const std::string& message) {
  ASSERT_FALSE(status.ok()) << "expected: " << message;
  EXPECT_EQ(status.error().code, ErrorCode::kValidation) << status.ToString();
  EXPECT_EQ(status.error().message, message);
}

Field* FieldNamed(columnar::Schema& schema, const std::string& name) {
  return &schema.fields[schema.FieldIndex(name)];
}

TEST(PrepareSchemaCheck, WriterSchemaFilePassesBothChecks) {
  const std::vector<Column> columns = Destination();
  const std::string path = WriteFile("ok.parquet", WriterSchemaOf(columns));
  EXPECT_TRUE(Check(path, columns).ok()) << Check(path, columns).ToString();
  EXPECT_TRUE(Check(path, columns, true).ok()) << Check(path, columns, true).ToString();

  auto facts = DescribePreparedFile(path);
  ASSERT_TRUE(facts.ok()) << facts.status().ToString();
  EXPECT_EQ(facts->num_rows, 3);
  EXPECT_EQ(facts->file_size, static_cast<int64_t>(std::filesystem::file_size(path)));
  EXPECT_GT(facts->footer_size, 0);
  EXPECT_EQ(facts->raw.size(), facts->metadata.schema.size());
}

TEST(PrepareSchemaCheck, OrdinaryCheckRefusesPinnedMismatches) {
  const std::vector<Column> columns = Destination();
  const std::string kDiffer = "prepared Parquet schema/field IDs differ from destination";
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    Field* id = FieldNamed(schema, "id");
    *id = id->WithFieldId(99);
    ExpectRefused(Check(WriteFile("wrong_id.parquet", schema), columns), kDiffer);
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    FieldNamed(schema, "id")->nullable = true;  // catalog: NOT NULL
    ExpectRefused(Check(WriteFile("nullable.parquet", schema), columns), kDiffer);
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    FieldNamed(schema, "ts")->type = columnar::Timestamp(columnar::TimeUnit::kMicro);
    ExpectRefused(Check(WriteFile("ts_us.parquet", schema), columns), kDiffer);
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    *FieldNamed(schema, "u") = Field{"u", columnar::FixedSizeBinary(15), true, {}}.WithFieldId(3);
    ExpectRefused(Check(WriteFile("uuid15.parquet", schema), columns), kDiffer);
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    *FieldNamed(schema, "u") = Field{"u", columnar::Utf8(), true, {}}.WithFieldId(3);
    ExpectRefused(Check(WriteFile("uuid_string.parquet", schema), columns), kDiffer);
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    *FieldNamed(schema, "j") = Field{"j", columnar::Utf8(), true, {}}.WithFieldId(4);
    ExpectRefused(Check(WriteFile("json_bare.parquet", schema), columns), kDiffer);
  }
  {
    // A nested id: s.a numbered 80.
    columnar::Schema schema = WriterSchemaOf(columns);
    Field* s = FieldNamed(schema, "s");
    auto type = std::make_shared<DataType>(*s->type);
    type->children[0] = type->children[0].WithFieldId(80);
    s->type = type;
    ExpectRefused(Check(WriteFile("nested_id.parquet", schema), columns), kDiffer);
    ExpectRefused(Check(WriteFile("nested_id.parquet", schema), columns, true),
                  "prepared field ID differs for s.a");
  }
}

TEST(PrepareSchemaCheck, BareFixedSizeBinary16IsAUuid) {
  const std::vector<Column> columns = Destination();
  columnar::Schema schema = WriterSchemaOf(columns);
  *FieldNamed(schema, "u") = Field{"u", columnar::FixedSizeBinary(16), true, {}}.WithFieldId(3);
  Field* l = FieldNamed(schema, "l");
  l->type =
      columnar::List(Field{"element", columnar::FixedSizeBinary(16), true, {}}.WithFieldId(11));
  const std::string path = WriteFile("bare_uuid.parquet", schema);
  EXPECT_TRUE(Check(path, columns).ok()) << Check(path, columns).ToString();
  EXPECT_TRUE(Check(path, columns, true).ok()) << Check(path, columns, true).ToString();
}

TEST(PrepareSchemaCheck, AllowOptionalFieldsNeedsZeroNullStatistics) {
  const std::vector<Column> columns = Destination();
  columnar::Schema schema = WriterSchemaOf(columns);
  FieldNamed(schema, "id")->nullable = true;  // what DuckDB writes
  const std::string clean = WriteFile("optional_clean.parquet", schema);
  EXPECT_TRUE(Check(clean, columns, true).ok()) << Check(clean, columns, true).ToString();
  ExpectRefused(Check(clean, columns), "prepared Parquet schema/field IDs differ from destination");

  const std::string nulls = WriteFile("optional_nulls.parquet", schema, 4, "id");
  ExpectRefused(Check(nulls, columns, true), "prepared file cannot prove non-null values for id");
}

TEST(PrepareSchemaCheck, PhysicalCheckMessages) {
  const std::vector<Column> columns = Destination();
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    Field* id = FieldNamed(schema, "id");
    *id = id->WithFieldId(99);
    ExpectRefused(Check(WriteFile("phys_id.parquet", schema), columns, true),
                  "prepared field ID differs for id");
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    schema.fields.pop_back();
    ExpectRefused(Check(WriteFile("phys_cols.parquet", schema), columns, true),
                  "prepared Parquet columns differ from destination");
  }
  {
    columnar::Schema schema = WriterSchemaOf(columns);
    FieldNamed(schema, "ts")->type = columnar::Timestamp(columnar::TimeUnit::kMicro);
    ExpectRefused(Check(WriteFile("phys_ts.parquet", schema), columns, true),
                  "prepared Parquet type differs for ts");
  }
}

// ---- native VARIANT ------------------------------------------------------------

// Reads a whole file.
std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Adds logicalType {VARIANT: {specification_version: version}} to schema
// element `element` of the file's footer (long-form field headers, so the
// element's previous field does not matter), fixing the trailer length.
void SpliceVariant(const std::string& path, size_t element, int version) {
  std::string bytes = ReadAll(path);
  const size_t size = bytes.size();
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(bytes[size - 8 + i]);
  std::string footer = bytes.substr(size - 8 - length, length);
  auto raw = ScanRawSchema(footer);
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  ASSERT_LT(element, raw->size());
  const std::string annotation = {
      '\x0C', '\x14', '\x0C', '\x20', '\x13', static_cast<char>(version), '\x00', '\x00'};
  footer.insert((*raw)[element].end_offset, annotation);
  std::string out = bytes.substr(0, size - 8 - length) + footer;
  const uint32_t new_length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((new_length >> (8 * i)) & 0xFF));
  out += "PAR1";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
}

std::vector<Column> VariantDestination() {
  return {Leaf("id", ColumnType::kLong, 1, false), Leaf("v", ColumnType::kVariant, 2, false)};
}

// id int64 not null, v struct<metadata binary not null, value binary>.
columnar::Schema VariantStorage(bool metadata_nullable = false, bool v_nullable = false) {
  columnar::Schema schema;
  schema.fields.push_back(Field{"id", columnar::Int64(), false, {}}.WithFieldId(1));
  schema.fields.push_back(Field{
      "v",
      columnar::Struct({Field{"metadata", columnar::Binary(), metadata_nullable, {}},
                        Field{"value", columnar::Binary(), true, {}}}),
      v_nullable,
      {}}.WithFieldId(2));
  return schema;
}

TEST(PrepareSchemaCheck, NativeVariantVersionOneAccepted) {
  const std::string path = WriteFile("variant_ok.parquet", VariantStorage());
  SpliceVariant(path, 2, 1);
  auto facts = DescribePreparedFile(path);
  ASSERT_TRUE(facts.ok()) << facts.status().ToString();
  EXPECT_EQ(facts->raw[2].variant_version, 1);
  EXPECT_EQ(facts->raw[2].logical_members, std::vector<int16_t>{16});
  EXPECT_TRUE(Check(path, VariantDestination()).ok())
      << Check(path, VariantDestination()).ToString();
}

TEST(PrepareSchemaCheck, VariantRefusals) {
  const std::string kNotNative = "v must be native Parquet VARIANT version 1";
  const std::string plain = WriteFile("variant_plain.parquet", VariantStorage());
  ExpectRefused(Check(plain, VariantDestination()), kNotNative);

  const std::string v2 = WriteFile("variant_v2.parquet", VariantStorage());
  SpliceVariant(v2, 2, 2);
  ExpectRefused(Check(v2, VariantDestination()), kNotNative);

  const std::string storage = WriteFile("variant_storage.parquet", VariantStorage(true));
  SpliceVariant(storage, 2, 1);
  ExpectRefused(Check(storage, VariantDestination()), "invalid native VARIANT storage for v");

  // An OPTIONAL variant for a NOT NULL column: the metadata leaf must prove it.
  const std::string clean = WriteFile("variant_optional.parquet", VariantStorage(false, true));
  SpliceVariant(clean, 2, 1);
  EXPECT_TRUE(Check(clean, VariantDestination()).ok())
      << Check(clean, VariantDestination()).ToString();
  const std::string nulls = WriteFile("variant_nulls.parquet", VariantStorage(false, true), 4, "v");
  SpliceVariant(nulls, 2, 1);
  ExpectRefused(Check(nulls, VariantDestination()),
                "prepared file cannot prove non-null values for v");
}

TEST(PrepareSchemaCheck, SameLayoutComparesColumnsAndSpecs) {
  TableInfo a;
  a.columns = Destination();
  TableInfo b = a;
  b.comment = "comments are not layout";
  EXPECT_TRUE(SameLayout(a, b));
  b.columns[0].nullable = true;
  EXPECT_FALSE(SameLayout(a, b));
  b = a;
  b.partition_spec = PartitionSpec{1, {PartitionField{1, "identity", {}, 0, "id"}}};
  EXPECT_FALSE(SameLayout(a, b));
  b = a;
  b.sort_spec = SortSpec{1, {SortField{1, "asc", "nulls_last"}}};
  EXPECT_FALSE(SameLayout(a, b));
  b.sort_spec = SortSpec{0, {}};
  EXPECT_TRUE(SameLayout(a, b));
}

}  // namespace
}  // namespace hoglake::client
