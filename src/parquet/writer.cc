#include "parquet/writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "columnar/validate.h"
#include "common/parallel.h"
#include "parquet/compression.h"
#include "parquet/decoding.h"
#include "parquet/schema.h"
#include "parquet/shred.h"

namespace hoglake::parquet {

std::string CreatedBy() { return std::string("hoglake version ") + HOGLAKE_VERSION; }

namespace {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status Write(std::string_view bytes) = 0;
  virtual Status Close() = 0;
  int64_t position() const { return position_; }

 protected:
  int64_t position_ = 0;
};

class FileSink : public Sink {
 public:
  FileSink(std::FILE* f, std::string path) : file_(f), path_(std::move(path)) {}
  ~FileSink() override {
    if (file_) std::fclose(file_);
  }
  Status Write(std::string_view bytes) override {
    if (bytes.empty()) return Status::Ok();
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
      return IoError("writing ", path_, ": ", std::strerror(errno));
    }
    position_ += static_cast<int64_t>(bytes.size());
    return Status::Ok();
  }
  Status Close() override {
    std::FILE* f = file_;
    file_ = nullptr;
    if (f && std::fclose(f) != 0) return IoError("closing ", path_, ": ", std::strerror(errno));
    return Status::Ok();
  }

 private:
  std::FILE* file_;
  std::string path_;
};

class BufferSink : public Sink {
 public:
  explicit BufferSink(std::string* out) : out_(out) {}
  Status Write(std::string_view bytes) override {
    out_->append(bytes);
    position_ += static_cast<int64_t>(bytes.size());
    return Status::Ok();
  }
  Status Close() override { return Status::Ok(); }

 private:
  std::string* out_;
};

class FunctionSink : public Sink {
 public:
  explicit FunctionSink(std::function<Status(std::string_view)> sink) : sink_(std::move(sink)) {}
  Status Write(std::string_view bytes) override {
    if (bytes.empty()) return Status::Ok();
    HOGLAKE_RETURN_IF_ERROR(sink_(bytes));
    position_ += static_cast<int64_t>(bytes.size());
    return Status::Ok();
  }
  Status Close() override { return Status::Ok(); }

 private:
  std::function<Status(std::string_view)> sink_;
};

constexpr int64_t kRowsPerStep = 4096;

}  // namespace

struct ParquetWriter::Impl {
  std::unique_ptr<Sink> sink;
  std::unique_ptr<ParquetSchema> schema;
  WriterOptions options;
  ColumnWriterOptions column_options;
  std::vector<std::unique_ptr<ColumnChunkWriter>> writers;
  int64_t group_rows = 0;
  FileMetaData metadata;
  bool closed = false;
  int threads = 1;
  bool flat = true;  // every top-level column is a leaf

  // Physical value bytes of rows [offset, offset + length) of top-level leaf
  // column c, or -1 when not known cheaply.
  int64_t ValueBytes(int c, const columnar::ArrayData& a, int64_t offset, int64_t length) const {
    const LeafColumn& leaf = schema->leaves[schema->columns[c].leaf_begin];
    if (leaf.physical == PhysicalType::kByteArray) {
      if (!a.type->is_binary_like()) return -1;
      const int32_t* offsets = a.offsets();
      return offsets[offset + length] - offsets[offset];
    }
    return static_cast<int64_t>(PhysicalWidth(leaf.physical, leaf.type_length)) * length;
  }

  // Rows [row, row + length) of `batch` go to the column writers
  // concurrently (one task per column) when the row-group size check,
  // which the sequential path makes every kRowsPerStep rows, provably
  // cannot fire before the last of them: then the result is the same.
  // Returns false (nothing done) otherwise.
  Result<bool> TryParallelSegment(const columnar::RecordBatch& batch, int64_t row, int64_t length) {
    if (threads <= 1 || !flat || length <= kRowsPerStep) return false;
    const int columns = batch.num_columns();
    std::vector<int64_t> cost(static_cast<size_t>(columns));
    int64_t bound = 0;
    for (int c = 0; c < columns; ++c) {
      const int64_t bytes = ValueBytes(c, *batch.columns[c], row, length);
      if (bytes < 0) return false;
      cost[c] = bytes;
      bound += writers[schema->columns[c].leaf_begin]->BufferedBytesBound(length, bytes);
    }
    if (bound >= options.max_row_group_bytes) return false;
    std::vector<int> order(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost[a] > cost[b]; });
    std::vector<Status> status(static_cast<size_t>(columns));
    ParallelFor(columns, threads, [&](int64_t t, int) {
      const int c = order[static_cast<size_t>(t)];
      status[c] = ShredColumn(schema->columns[c], *batch.columns[c], row, length, writers);
    });
    for (const Status& st : status) HOGLAKE_RETURN_IF_ERROR(st);
    return true;
  }

  void StartRowGroup() {
    writers.clear();
    for (const LeafColumn& leaf : schema->leaves) {
      writers.push_back(std::make_unique<ColumnChunkWriter>(leaf, column_options));
    }
    group_rows = 0;
  }

  int64_t BufferedBytes() const {
    int64_t total = 0;
    for (const auto& w : writers) total += w->buffered_bytes();
    return total;
  }

  Status Flush() {
    if (group_rows == 0) return Status::Ok();
    RowGroup group;
    group.num_rows = group_rows;
    group.file_offset = sink->position();
    group.ordinal = static_cast<int16_t>(metadata.row_groups.size());
    int64_t compressed = 0;
    // Closing a chunk compresses its last data page and its dictionary
    // page: done for all chunks concurrently, then written in order.
    const size_t n = writers.size();
    std::vector<ColumnMetaData> metas(n);
    std::vector<std::string_view> dictionary_pages(n), data_page_runs(n);
    std::vector<Status> status(n);
    ParallelFor(static_cast<int64_t>(n), threads, [&](int64_t i, int) {
      status[i] = writers[i]->Finish(&metas[i], &dictionary_pages[i], &data_page_runs[i]);
    });
    for (const Status& st : status) HOGLAKE_RETURN_IF_ERROR(st);
    for (size_t i = 0; i < n; ++i) {
      ColumnMetaData& meta = metas[i];
      const std::string_view dictionary_page = dictionary_pages[i], data_pages = data_page_runs[i];
      const int64_t base = sink->position();
      meta.data_page_offset += base;
      if (meta.dictionary_page_offset) *meta.dictionary_page_offset += base;
      HOGLAKE_RETURN_IF_ERROR(sink->Write(dictionary_page));
      HOGLAKE_RETURN_IF_ERROR(sink->Write(data_pages));
      ColumnChunk chunk;
      chunk.file_offset = base;
      group.total_byte_size += meta.total_uncompressed_size;
      compressed += meta.total_compressed_size;
      chunk.meta_data = std::move(meta);
      group.columns.push_back(std::move(chunk));
    }
    group.total_compressed_size = compressed;
    metadata.num_rows += group_rows;
    metadata.row_groups.push_back(std::move(group));
    for (auto& w : writers) w->Reset();
    group_rows = 0;
    return Status::Ok();
  }
};

ParquetWriter::ParquetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetWriter::~ParquetWriter() = default;

namespace {

Result<std::unique_ptr<ParquetWriter::Impl>> MakeImpl(std::unique_ptr<Sink> sink,
                                                      const columnar::SchemaPtr& schema,
                                                      const WriterOptions& options) {
  if (!schema) return InvalidArgument("Parquet writer needs a schema");
  if (!CodecSupported(options.codec)) {
    return NotImplemented("Parquet compression codec ", CodecName(options.codec),
                          " is not supported");
  }
  if (options.max_row_group_rows < 1 || options.max_page_rows < 1) {
    return InvalidArgument("Parquet row group and page row limits must be positive");
  }
  auto impl = std::make_unique<ParquetWriter::Impl>();
  HOGLAKE_ASSIGN_OR_RETURN(impl->schema, SchemaFromArrow(*schema));
  impl->sink = std::move(sink);
  impl->options = options;
  impl->column_options =
      ColumnWriterOptions{options.codec,          options.compression_level,
                          options.dictionary,     options.dictionary_page_size_limit,
                          options.data_page_size, options.max_page_rows};
  impl->threads = ResolveThreads(options.threads);
  for (const SchemaNode& node : impl->schema->columns)
    impl->flat = impl->flat && node.kind == SchemaNode::Kind::kLeaf;
  impl->metadata.version = 2;
  impl->metadata.schema = impl->schema->elements;
  impl->StartRowGroup();
  HOGLAKE_RETURN_IF_ERROR(impl->sink->Write("PAR1"));
  return impl;
}

}  // namespace

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::OpenFile(const std::string& path,
                                                               columnar::SchemaPtr schema,
                                                               WriterOptions options) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return IoError("cannot create ", path, ": ", std::strerror(errno));
  HOGLAKE_ASSIGN_OR_RETURN(auto impl,
                           MakeImpl(std::make_unique<FileSink>(f, path), schema, options));
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::OpenBuffer(std::string* out,
                                                                 columnar::SchemaPtr schema,
                                                                 WriterOptions options) {
  HOGLAKE_ASSIGN_OR_RETURN(auto impl, MakeImpl(std::make_unique<BufferSink>(out), schema, options));
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::OpenSink(
    std::function<Status(std::string_view)> sink, columnar::SchemaPtr schema,
    WriterOptions options) {
  HOGLAKE_ASSIGN_OR_RETURN(
      auto impl, MakeImpl(std::make_unique<FunctionSink>(std::move(sink)), schema, options));
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Status ParquetWriter::WriteBatch(const columnar::RecordBatch& batch) {
  Impl& s = *impl_;
  if (s.closed) return InvalidArgument("Parquet writer is closed");
  if (!batch.schema || batch.schema->num_fields() != s.schema->arrow_schema->num_fields()) {
    return InvalidArgument("batch schema does not match the Parquet writer's schema");
  }
  for (int c = 0; c < batch.schema->num_fields(); ++c) {
    const columnar::Field& a = batch.schema->fields[c];
    const columnar::Field& b = s.schema->arrow_schema->fields[c];
    if (a.name != b.name || !a.type->Equals(*b.type)) {
      return InvalidArgument("batch column ", c, " ('", a.name, ": ", a.type->ToString(),
                             "') does not match the writer's '", b.name, ": ", b.type->ToString(),
                             "'");
    }
  }
  HOGLAKE_RETURN_IF_ERROR(columnar::ValidateBatch(batch));
  int64_t row = 0;
  while (row < batch.num_rows) {
    // Up to the next forced row-group end, all columns at once if that
    // provably gives the same file; otherwise a step at a time.
    const int64_t segment =
        std::min<int64_t>(batch.num_rows - row, s.options.max_row_group_rows - s.group_rows);
    HOGLAKE_ASSIGN_OR_RETURN(const bool whole, s.TryParallelSegment(batch, row, segment));
    const int64_t n = whole ? segment : std::min<int64_t>(segment, kRowsPerStep);
    if (!whole) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        HOGLAKE_RETURN_IF_ERROR(
            ShredColumn(s.schema->columns[c], *batch.columns[c], row, n, s.writers));
      }
    }
    row += n;
    s.group_rows += n;
    if (s.group_rows >= s.options.max_row_group_rows ||
        s.BufferedBytes() >= s.options.max_row_group_bytes) {
      HOGLAKE_RETURN_IF_ERROR(s.Flush());
    }
  }
  return Status::Ok();
}

Status ParquetWriter::FlushRowGroup() {
  if (impl_->closed) return InvalidArgument("Parquet writer is closed");
  return impl_->Flush();
}

Result<WriteSummary> ParquetWriter::Close() {
  Impl& s = *impl_;
  if (s.closed) return InvalidArgument("Parquet writer is closed");
  HOGLAKE_RETURN_IF_ERROR(s.Flush());
  s.closed = true;
  s.metadata.created_by = CreatedBy();
  for (const auto& [k, v] : s.options.key_value_metadata) {
    s.metadata.key_value_metadata.push_back(KeyValue{k, v});
  }
  s.metadata.column_orders.assign(s.schema->leaves.size(), true);
  std::string footer;
  SerializeFileMetaData(s.metadata, &footer);
  const uint32_t length = static_cast<uint32_t>(footer.size());
  char suffix[8];
  std::memcpy(suffix, &length, 4);
  std::memcpy(suffix + 4, "PAR1", 4);
  footer.append(suffix, 8);
  HOGLAKE_RETURN_IF_ERROR(s.sink->Write(footer));
  WriteSummary summary;
  summary.file_size = s.sink->position();
  HOGLAKE_RETURN_IF_ERROR(s.sink->Close());
  summary.footer_size = length;
  summary.metadata = std::move(s.metadata);
  return summary;
}

}  // namespace hoglake::parquet
