// Writes the metadata structs of metadata.h in the Thrift compact protocol.
#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace hoglake::parquet {
namespace {

using thrift::CompactWriter;
using thrift::CType;

int32_t I(auto e) { return static_cast<int32_t>(e); }

void WriteKeyValues(CompactWriter& w, int16_t id, const std::vector<KeyValue>& kvs) {
  w.FieldListBegin(id, CType::kStruct, static_cast<int32_t>(kvs.size()));
  for (const KeyValue& kv : kvs) {
    w.ElementStructBegin();
    w.FieldBinary(1, kv.key);
    if (kv.value) w.FieldBinary(2, *kv.value);
    w.EndStruct();
  }
}

void WriteStatisticsBody(CompactWriter& w, const Statistics& s) {
  if (s.max) w.FieldBinary(1, *s.max);
  if (s.min) w.FieldBinary(2, *s.min);
  if (s.null_count) w.FieldI64(3, *s.null_count);
  if (s.distinct_count) w.FieldI64(4, *s.distinct_count);
  if (s.max_value) w.FieldBinary(5, *s.max_value);
  if (s.min_value) w.FieldBinary(6, *s.min_value);
  if (s.is_max_value_exact) w.FieldBool(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w.FieldBool(8, *s.is_min_value_exact);
}

void WriteTimeUnit(CompactWriter& w, int16_t id, LogicalTimeUnit unit) {
  w.FieldStructBegin(id);
  w.FieldStructBegin(static_cast<int16_t>(unit));  // MILLIS=1, MICROS=2, NANOS=3: empty structs
  w.EndStruct();
  w.EndStruct();
}

void WriteLogicalType(CompactWriter& w, const LogicalType& t) {
  w.FieldStructBegin(static_cast<int16_t>(t.kind));
  switch (t.kind) {
    case LogicalType::Kind::kDecimal:
      w.FieldI32(1, t.scale);
      w.FieldI32(2, t.precision);
      break;
    case LogicalType::Kind::kTime:
    case LogicalType::Kind::kTimestamp:
      w.FieldBool(1, t.is_adjusted_to_utc);
      WriteTimeUnit(w, 2, t.unit);
      break;
    case LogicalType::Kind::kInteger:
      w.FieldI8(1, t.bit_width);
      w.FieldBool(2, t.is_signed);
      break;
    default:
      break;  // the other members are empty structs
  }
  w.EndStruct();
}

void WriteSchemaElement(CompactWriter& w, const SchemaElement& e) {
  w.ElementStructBegin();
  if (e.type) w.FieldI32(1, I(*e.type));
  if (e.type_length) w.FieldI32(2, *e.type_length);
  if (e.repetition_type) w.FieldI32(3, I(*e.repetition_type));
  w.FieldBinary(4, e.name);
  if (e.num_children) w.FieldI32(5, *e.num_children);
  if (e.converted_type) w.FieldI32(6, I(*e.converted_type));
  if (e.scale) w.FieldI32(7, *e.scale);
  if (e.precision) w.FieldI32(8, *e.precision);
  if (e.field_id) w.FieldI32(9, *e.field_id);
  if (e.logical_type) {
    w.FieldStructBegin(10);
    WriteLogicalType(w, *e.logical_type);
    w.EndStruct();
  }
  w.EndStruct();
}

void WriteColumnMetaData(CompactWriter& w, const ColumnMetaData& m) {
  w.FieldI32(1, I(m.type));
  w.FieldListBegin(2, CType::kI32, static_cast<int32_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w.ElementI32(I(e));
  w.FieldListBegin(3, CType::kBinary, static_cast<int32_t>(m.path_in_schema.size()));
  for (const std::string& p : m.path_in_schema) w.ElementBinary(p);
  w.FieldI32(4, I(m.codec));
  w.FieldI64(5, m.num_values);
  w.FieldI64(6, m.total_uncompressed_size);
  w.FieldI64(7, m.total_compressed_size);
  if (!m.key_value_metadata.empty()) WriteKeyValues(w, 8, m.key_value_metadata);
  w.FieldI64(9, m.data_page_offset);
  if (m.index_page_offset) w.FieldI64(10, *m.index_page_offset);
  if (m.dictionary_page_offset) w.FieldI64(11, *m.dictionary_page_offset);
  if (m.statistics) {
    w.FieldStructBegin(12);
    WriteStatisticsBody(w, *m.statistics);
    w.EndStruct();
  }
}

void WriteRowGroup(CompactWriter& w, const RowGroup& g) {
  w.ElementStructBegin();
  w.FieldListBegin(1, CType::kStruct, static_cast<int32_t>(g.columns.size()));
  for (const ColumnChunk& c : g.columns) {
    w.ElementStructBegin();
    if (c.file_path) w.FieldBinary(1, *c.file_path);
    w.FieldI64(2, c.file_offset);
    if (c.meta_data) {
      w.FieldStructBegin(3);
      WriteColumnMetaData(w, *c.meta_data);
      w.EndStruct();
    }
    w.EndStruct();
  }
  w.FieldI64(2, g.total_byte_size);
  w.FieldI64(3, g.num_rows);
  if (g.file_offset) w.FieldI64(5, *g.file_offset);
  if (g.total_compressed_size) w.FieldI64(6, *g.total_compressed_size);
  if (g.ordinal) w.FieldI16(7, *g.ordinal);
  w.EndStruct();
}

}  // namespace

void SerializeStatistics(const Statistics& statistics, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  WriteStatisticsBody(w, statistics);
  w.EndStruct();
}

void SerializeFileMetaData(const FileMetaData& m, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, m.version);
  w.FieldListBegin(2, CType::kStruct, static_cast<int32_t>(m.schema.size()));
  for (const SchemaElement& e : m.schema) WriteSchemaElement(w, e);
  w.FieldI64(3, m.num_rows);
  w.FieldListBegin(4, CType::kStruct, static_cast<int32_t>(m.row_groups.size()));
  for (const RowGroup& g : m.row_groups) WriteRowGroup(w, g);
  if (!m.key_value_metadata.empty()) WriteKeyValues(w, 5, m.key_value_metadata);
  if (m.created_by) w.FieldBinary(6, *m.created_by);
  if (!m.column_orders.empty()) {
    w.FieldListBegin(7, CType::kStruct, static_cast<int32_t>(m.column_orders.size()));
    for (size_t i = 0; i < m.column_orders.size(); ++i) {
      w.ElementStructBegin();
      w.FieldStructBegin(1);  // TYPE_ORDER: an empty struct
      w.EndStruct();
      w.EndStruct();
    }
  }
  w.EndStruct();
}

void SerializePageHeader(const PageHeader& h, std::string* out) {
  CompactWriter w(out);
  w.BeginStruct();
  w.FieldI32(1, I(h.type));
  w.FieldI32(2, h.uncompressed_page_size);
  w.FieldI32(3, h.compressed_page_size);
  if (h.crc) w.FieldI32(4, *h.crc);
  if (h.data_page_header) {
    const DataPageHeader& d = *h.data_page_header;
    w.FieldStructBegin(5);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, I(d.encoding));
    w.FieldI32(3, I(d.definition_level_encoding));
    w.FieldI32(4, I(d.repetition_level_encoding));
    if (d.statistics) {
      w.FieldStructBegin(5);
      WriteStatisticsBody(w, *d.statistics);
      w.EndStruct();
    }
    w.EndStruct();
  }
  if (h.dictionary_page_header) {
    const DictionaryPageHeader& d = *h.dictionary_page_header;
    w.FieldStructBegin(7);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, I(d.encoding));
    if (d.is_sorted) w.FieldBool(3, *d.is_sorted);
    w.EndStruct();
  }
  if (h.data_page_header_v2) {
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    w.FieldStructBegin(8);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.num_nulls);
    w.FieldI32(3, d.num_rows);
    w.FieldI32(4, I(d.encoding));
    w.FieldI32(5, d.definition_levels_byte_length);
    w.FieldI32(6, d.repetition_levels_byte_length);
    if (d.is_compressed) w.FieldBool(7, *d.is_compressed);
    if (d.statistics) {
      w.FieldStructBegin(8);
      WriteStatisticsBody(w, *d.statistics);
      w.EndStruct();
    }
    w.EndStruct();
  }
  w.EndStruct();
}

}  // namespace hoglake::parquet
