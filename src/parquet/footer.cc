#include "parquet/footer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parquet/pod_buffer.h"
#include "parquet/schema.h"

namespace hoglake::parquet {
namespace {

// The footer is parsed from one read of the file's last bytes when it fits
// in them (most footers are a few KB); a larger one takes one more read.
constexpr int64_t kTailReadBytes = int64_t{16} << 10;

// ---- memory estimate ---------------------------------------------------------

// A string's heap buffer (none while it fits the inline buffer).
int64_t HeapBytes(const std::string& s) {
  return s.capacity() > std::string().capacity() ? static_cast<int64_t>(s.capacity()) + 1 : 0;
}
int64_t HeapBytes(const std::optional<std::string>& s) { return s ? HeapBytes(*s) : 0; }
template <typename T>
int64_t VectorBytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}
int64_t HeapBytes(const std::vector<KeyValue>& kvs) {
  int64_t n = VectorBytes(kvs);
  for (const KeyValue& kv : kvs) n += HeapBytes(kv.key) + HeapBytes(kv.value);
  return n;
}
int64_t HeapBytes(const std::vector<std::string>& strings) {
  int64_t n = VectorBytes(strings);
  for (const std::string& s : strings) n += HeapBytes(s);
  return n;
}

int64_t HeapBytes(const ColumnMetaData& m) {
  int64_t n = VectorBytes(m.encodings) + HeapBytes(m.path_in_schema) + HeapBytes(m.key_value_metadata);
  if (m.statistics) {
    const Statistics& s = *m.statistics;
    n += HeapBytes(s.max) + HeapBytes(s.min) + HeapBytes(s.max_value) + HeapBytes(s.min_value);
  }
  return n;
}

int64_t HeapBytes(const columnar::Field& field);

// A type node (shared between fields in practice; counted per field, an
// over- rather than an under-estimate).
int64_t TypeBytes(const columnar::DataTypePtr& type) {
  if (!type) return 0;
  int64_t n = static_cast<int64_t>(sizeof(columnar::DataType)) + HeapBytes(type->timezone) +
              VectorBytes(type->children);
  for (const columnar::Field& child : type->children) n += HeapBytes(child);
  return n;
}

int64_t HeapBytes(const columnar::Field& field) {
  int64_t n = HeapBytes(field.name) + TypeBytes(field.type) + VectorBytes(field.metadata);
  for (const auto& [key, value] : field.metadata) n += HeapBytes(key) + HeapBytes(value);
  return n;
}

int64_t HeapBytes(const SchemaNode& node) {
  int64_t n = HeapBytes(node.field) + VectorBytes(node.children);
  for (const SchemaNode& child : node.children) n += HeapBytes(child);
  return n;
}

int64_t EstimateMemory(const FileMetaData& meta, const ParquetSchema& schema) {
  int64_t n = static_cast<int64_t>(sizeof(FileMetaData)) + VectorBytes(meta.schema) +
              VectorBytes(meta.row_groups) + HeapBytes(meta.key_value_metadata) +
              HeapBytes(meta.created_by) + static_cast<int64_t>(meta.column_orders.capacity() / 8);
  for (const SchemaElement& e : meta.schema) n += HeapBytes(e.name);
  for (const RowGroup& group : meta.row_groups) {
    n += VectorBytes(group.columns);
    for (const ColumnChunk& chunk : group.columns) {
      n += HeapBytes(chunk.file_path);
      if (chunk.meta_data) n += HeapBytes(*chunk.meta_data);
    }
  }
  n += static_cast<int64_t>(sizeof(ParquetSchema)) + VectorBytes(schema.elements) +
       VectorBytes(schema.columns) + VectorBytes(schema.leaves);
  for (const SchemaElement& e : schema.elements) n += HeapBytes(e.name);
  for (const SchemaNode& node : schema.columns) n += HeapBytes(node);
  for (const LeafColumn& leaf : schema.leaves) n += HeapBytes(leaf.path) + TypeBytes(leaf.type);
  if (schema.arrow_schema) {
    n += static_cast<int64_t>(sizeof(columnar::Schema)) + VectorBytes(schema.arrow_schema->fields);
    for (const columnar::Field& f : schema.arrow_schema->fields) n += HeapBytes(f);
  }
  return n;
}

// ---- checks ------------------------------------------------------------------

Status CheckRowGroup(const FileMetaData& metadata, const ParquetSchema& schema, size_t g,
                     int64_t data_end) {
  const RowGroup& group = metadata.row_groups[g];
  if (group.num_rows < 0) return InvalidData("row group ", g, " has a negative row count");
  if (group.columns.size() != schema.leaves.size()) {
    return InvalidData("row group ", g, " has ", group.columns.size(), " column chunks, the schema ",
                       schema.leaves.size(), " leaves");
  }
  for (size_t c = 0; c < group.columns.size(); ++c) {
    const ColumnChunk& chunk = group.columns[c];
    const LeafColumn& leaf = schema.leaves[c];
    if (chunk.file_path) return NotImplemented("column chunks in other files are not supported");
    if (!chunk.meta_data) return InvalidData("row group ", g, " column ", c, " has no metadata");
    const ColumnMetaData& m = *chunk.meta_data;
    if (m.type != leaf.physical) {
      return InvalidData("row group ", g, " column ", c, " has physical type ",
                         static_cast<int>(m.type), " but the schema says ",
                         static_cast<int>(leaf.physical));
    }
    if (leaf.max_rep == 0 && m.num_values != group.num_rows) {
      return InvalidData("row group ", g, " column ", c, " has ", m.num_values, " values for ",
                         group.num_rows, " rows");
    }
    // An empty row group's chunks hold no values to read (pyarrow leaves
    // their offsets at 0 in an empty table's file).
    if (group.num_rows == 0) continue;
    const int64_t start = ColumnChunkStart(m);
    if (start < 4 || m.total_compressed_size < 0 || start > data_end ||
        m.total_compressed_size > data_end - start) {
      return InvalidData("row group ", g, " column ", c, " byte range [", start, ", +",
                         m.total_compressed_size, ") lies outside the file's data");
    }
  }
  return Status::Ok();
}

// The bytes [offset, offset + length) of `source`: a view of its memory, or
// read into `scratch`.
Result<std::string_view> ReadRange(RandomAccessSource& source, int64_t offset, int64_t length,
                                   PodBuffer<char>* scratch) {
  if (std::optional<std::string_view> view = source.View(offset, length)) return *view;
  scratch->resize_uninitialized(static_cast<size_t>(length));
  HOGLAKE_RETURN_IF_ERROR(source.ReadInto(offset, length, scratch->data()));
  return scratch->view();
}

}  // namespace

ParquetFooter::ParquetFooter() = default;
ParquetFooter::~ParquetFooter() = default;

const columnar::SchemaPtr& ParquetFooter::arrow_schema() const { return schema_->arrow_schema; }

int64_t ColumnChunkStart(const ColumnMetaData& m) {
  // Some writers set dictionary_page_offset to 0 when there is none.
  if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 &&
      *m.dictionary_page_offset < m.data_page_offset) {
    return *m.dictionary_page_offset;
  }
  return m.data_page_offset;
}

Result<std::shared_ptr<const ParquetFooter>> ParquetFooter::Read(RandomAccessSource& source,
                                                                 int64_t max_footer_bytes) {
  const int64_t size = source.size();
  if (size < 12) return InvalidData("file of ", size, " bytes is too small to be Parquet");
  std::shared_ptr<ParquetFooter> footer(new ParquetFooter());
  footer->file_size_ = size;
  PodBuffer<char> buffer;
  const int64_t tail_size = std::min(size, kTailReadBytes);
  const int64_t tail_offset = size - tail_size;
  HOGLAKE_ASSIGN_OR_RETURN(std::string_view tail_bytes,
                           ReadRange(source, tail_offset, tail_size, &buffer));
  if (tail_offset == 0) {
    if (tail_bytes.substr(0, 4) != "PAR1") {
      return InvalidData("not a Parquet file: bad leading magic");
    }
    footer->leading_magic_checked_ = true;
  }
  const std::string_view tail = tail_bytes.substr(tail_bytes.size() - 8);
  if (tail.substr(4) == "PARE") return NotImplemented("encrypted Parquet footers are not supported");
  if (tail.substr(4) != "PAR1") return InvalidData("not a Parquet file: bad trailing magic");
  uint32_t length;
  std::memcpy(&length, tail.data(), 4);
  const int64_t footer_size = length;
  if (footer_size > size - 12) {
    return InvalidData("footer length ", footer_size, " runs past the start of the ", size,
                       "-byte file");
  }
  if (footer_size > max_footer_bytes) {
    return InvalidData("footer of ", footer_size, " bytes exceeds the limit ", max_footer_bytes);
  }
  footer->footer_size_ = footer_size;
  std::string_view bytes;
  PodBuffer<char> large_footer;
  if (footer_size + 8 <= tail_size) {
    bytes = tail_bytes.substr(static_cast<size_t>(tail_size - 8 - footer_size),
                              static_cast<size_t>(footer_size));
  } else {
    HOGLAKE_ASSIGN_OR_RETURN(bytes,
                             ReadRange(source, size - 8 - footer_size, footer_size, &large_footer));
  }
  auto parsed = ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!parsed.ok()) return InvalidData("bad Parquet footer: ", parsed.error().message);
  footer->metadata_ = std::move(*parsed);
  HOGLAKE_ASSIGN_OR_RETURN(footer->schema_, SchemaFromParquet(footer->metadata_.schema));
  if (footer->metadata_.num_rows < 0) return InvalidData("negative row count in the footer");
  const int64_t data_end = size - 8 - footer_size;
  for (size_t g = 0; g < footer->metadata_.row_groups.size(); ++g) {
    HOGLAKE_RETURN_IF_ERROR(CheckRowGroup(footer->metadata_, *footer->schema_, g, data_end));
  }
  footer->memory_bytes_ = EstimateMemory(footer->metadata_, *footer->schema_);
  return std::shared_ptr<const ParquetFooter>(std::move(footer));
}

}  // namespace hoglake::parquet
