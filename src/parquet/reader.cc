#include "parquet/reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "parquet/assemble.h"
#include "parquet/parallel.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

using columnar::RecordBatch;

namespace {

class Source {
 public:
  virtual ~Source() = default;
  virtual int64_t size() const = 0;
  // The bytes [offset, offset + length), read into `*scratch` if they are
  // not in memory already; the view stays valid until `*scratch` changes.
  // The caller checks the range. Safe to call from several threads with
  // different scratch buffers.
  virtual Result<std::string_view> Read(int64_t offset, int64_t length,
                                        PodBuffer<char>* scratch) = 0;
};

class BufferSource : public Source {
 public:
  explicit BufferSource(std::shared_ptr<const std::string> bytes) : bytes_(std::move(bytes)) {}
  int64_t size() const override { return static_cast<int64_t>(bytes_->size()); }
  Result<std::string_view> Read(int64_t offset, int64_t length, PodBuffer<char>*) override {
    return std::string_view(*bytes_).substr(static_cast<size_t>(offset),
                                            static_cast<size_t>(length));
  }

 private:
  std::shared_ptr<const std::string> bytes_;
};

class FileSource : public Source {
 public:
  FileSource(int fd, int64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  ~FileSource() override { ::close(fd_); }
  int64_t size() const override { return size_; }
  Result<std::string_view> Read(int64_t offset, int64_t length, PodBuffer<char>* scratch) override {
    scratch->resize_uninitialized(static_cast<size_t>(length));
    int64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, scratch->data() + done, static_cast<size_t>(length - done),
                                static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return IoError("reading ", path_, ": ", std::strerror(errno));
      if (n == 0) return IoError("reading ", path_, ": file shrank while reading");
      done += n;
    }
    return scratch->view();
  }

 private:
  int fd_;
  int64_t size_;
  std::string path_;
};

}  // namespace

struct ParquetReader::Impl {
  std::unique_ptr<Source> source;
  ReaderOptions options;
  FileMetaData metadata;
  int64_t footer_size = 0;
  std::unique_ptr<ParquetSchema> schema;
  std::vector<int> selected;  // top-level column indices
  columnar::SchemaPtr projected;
  std::vector<int> row_groups;
  size_t next_row_group = 0;
  int threads = 1;
  // Per ParallelFor slot: the chunk's bytes and its decompressed pages.
  struct Scratch {
    PodBuffer<char> chunk;
    PageBuffer pages;
  };
  std::vector<Scratch> scratch;

  Status Open() {
    const int64_t size = source->size();
    if (size < 12) return InvalidData("file of ", size, " bytes is too small to be Parquet");
    scratch.resize(static_cast<size_t>(threads));
    PodBuffer<char>* buffer = &scratch[0].chunk;
    HOGLAKE_ASSIGN_OR_RETURN(std::string_view head, source->Read(0, 4, buffer));
    if (head != "PAR1") return InvalidData("not a Parquet file: bad leading magic");
    HOGLAKE_ASSIGN_OR_RETURN(std::string_view tail, source->Read(size - 8, 8, buffer));
    if (tail.substr(4) == "PARE")
      return NotImplemented("encrypted Parquet footers are not supported");
    if (tail.substr(4) != "PAR1") return InvalidData("not a Parquet file: bad trailing magic");
    uint32_t length;
    std::memcpy(&length, tail.data(), 4);
    footer_size = length;
    if (footer_size > size - 12) {
      return InvalidData("footer length ", footer_size, " runs past the start of the ", size,
                         "-byte file");
    }
    if (footer_size > options.max_footer_bytes) {
      return InvalidData("footer of ", footer_size, " bytes exceeds the limit ",
                         options.max_footer_bytes);
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::string_view footer,
                             source->Read(size - 8 - footer_size, footer_size, buffer));
    auto parsed = ParseFileMetaData(reinterpret_cast<const uint8_t*>(footer.data()), footer.size());
    if (!parsed.ok()) return InvalidData("bad Parquet footer: ", parsed.error().message);
    metadata = std::move(*parsed);
    HOGLAKE_ASSIGN_OR_RETURN(schema, SchemaFromParquet(metadata.schema));
    if (metadata.num_rows < 0) return InvalidData("negative row count in the footer");
    for (size_t g = 0; g < metadata.row_groups.size(); ++g)
      HOGLAKE_RETURN_IF_ERROR(CheckRowGroup(g));
    SelectAll();
    for (size_t g = 0; g < metadata.row_groups.size(); ++g)
      row_groups.push_back(static_cast<int>(g));
    return Status::Ok();
  }

  Status CheckRowGroup(size_t g) {
    const RowGroup& group = metadata.row_groups[g];
    if (group.num_rows < 0) return InvalidData("row group ", g, " has a negative row count");
    if (group.columns.size() != schema->leaves.size()) {
      return InvalidData("row group ", g, " has ", group.columns.size(),
                         " column chunks, the schema ", schema->leaves.size(), " leaves");
    }
    const int64_t data_end = source->size() - 8 - footer_size;
    for (size_t c = 0; c < group.columns.size(); ++c) {
      const ColumnChunk& chunk = group.columns[c];
      const LeafColumn& leaf = schema->leaves[c];
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
      const int64_t start = ChunkStart(m);
      if (start < 4 || m.total_compressed_size < 0 || start > data_end ||
          m.total_compressed_size > data_end - start) {
        return InvalidData("row group ", g, " column ", c, " byte range [", start, ", +",
                           m.total_compressed_size, ") lies outside the file's data");
      }
    }
    return Status::Ok();
  }

  static int64_t ChunkStart(const ColumnMetaData& m) {
    // Some writers set dictionary_page_offset to 0 when there is none.
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 &&
        *m.dictionary_page_offset < m.data_page_offset) {
      return *m.dictionary_page_offset;
    }
    return m.data_page_offset;
  }

  void SelectAll() {
    selected.clear();
    for (size_t i = 0; i < schema->columns.size(); ++i) selected.push_back(static_cast<int>(i));
    Project();
  }

  void Project() {
    auto s = std::make_shared<columnar::Schema>();
    for (int i : selected) s->fields.push_back(schema->arrow_schema->fields[i]);
    projected = s;
  }

  // Reads and assembles top-level column `c` of `group` using `slot`'s
  // scratch; `leaves` has an entry per leaf, of which only c's are touched.
  Result<columnar::ArrayPtr> ReadColumn(const RowGroup& group, int c, Scratch& slot,
                                        std::vector<LeafData>& leaves) {
    const SchemaNode& node = schema->columns[c];
    for (int l = node.leaf_begin; l < node.leaf_end; ++l) {
      const ColumnMetaData& m = *group.columns[l].meta_data;
      HOGLAKE_ASSIGN_OR_RETURN(std::string_view bytes,
                               source->Read(ChunkStart(m), m.total_compressed_size, &slot.chunk));
      HOGLAKE_RETURN_IF_ERROR(
          ReadColumnChunk(schema->leaves[l], m, bytes, options.limits, &leaves[l], &slot.pages));
    }
    HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr array,
                             AssembleColumn(node, schema->leaves, leaves));
    if (array->length != group.num_rows) {
      return InvalidData("column '", node.field.name, "' has ", array->length,
                         " rows in a row group of ", group.num_rows);
    }
    for (int l = node.leaf_begin; l < node.leaf_end; ++l) leaves[l] = LeafData{};
    return array;
  }

  Result<RecordBatch> Read(int index) {
    if (index < 0 || index >= static_cast<int>(metadata.row_groups.size())) {
      return InvalidArgument("row group ", index, " does not exist (the file has ",
                             metadata.row_groups.size(), ")");
    }
    const RowGroup& group = metadata.row_groups[index];
    std::vector<LeafData> leaves(schema->leaves.size());
    const size_t n = selected.size();
    std::vector<Result<columnar::ArrayPtr>> columns(n, columnar::ArrayPtr());
    // Largest columns first, so the last one to finish is a small one.
    std::vector<size_t> order(n);
    std::vector<int64_t> cost(n, 0);
    for (size_t i = 0; i < n; ++i) {
      order[i] = i;
      const SchemaNode& node = schema->columns[selected[i]];
      for (int l = node.leaf_begin; l < node.leaf_end; ++l)
        cost[i] += group.columns[l].meta_data->total_uncompressed_size;
    }
    if (threads > 1) {
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    }
    ParallelFor(static_cast<int64_t>(n), threads, [&](int64_t t, int slot) {
      const size_t i = order[static_cast<size_t>(t)];
      columns[i] = ReadColumn(group, selected[i], scratch[static_cast<size_t>(slot)], leaves);
    });
    RecordBatch batch{projected, group.num_rows, {}};
    for (auto& column : columns) {
      if (!column.ok()) return column.error();
      batch.columns.push_back(std::move(*column));
    }
    return batch;
  }
};

ParquetReader::ParquetReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetReader::~ParquetReader() = default;

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenFile(const std::string& path,
                                                               ReaderOptions options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open ", path, ": ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return IoError("cannot stat ", path, ": ", std::strerror(errno));
  }
  auto impl = std::make_unique<Impl>();
  impl->source = std::make_unique<FileSource>(fd, static_cast<int64_t>(st.st_size), path);
  impl->options = options;
  impl->threads = ResolveThreads(options.threads);
  Status status = impl->Open();
  if (!status.ok()) return Error{status.error().code, path + ": " + status.error().message};
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenBuffer(
    std::shared_ptr<const std::string> bytes, ReaderOptions options) {
  if (!bytes) return InvalidArgument("Parquet reader needs a buffer");
  auto impl = std::make_unique<Impl>();
  impl->source = std::make_unique<BufferSource>(std::move(bytes));
  impl->options = options;
  impl->threads = ResolveThreads(options.threads);
  HOGLAKE_RETURN_IF_ERROR(impl->Open());
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

const FileMetaData& ParquetReader::metadata() const { return impl_->metadata; }
int64_t ParquetReader::footer_size() const { return impl_->footer_size; }
int64_t ParquetReader::file_size() const { return impl_->source->size(); }
int64_t ParquetReader::num_rows() const { return impl_->metadata.num_rows; }
int ParquetReader::num_row_groups() const {
  return static_cast<int>(impl_->metadata.row_groups.size());
}
const columnar::SchemaPtr& ParquetReader::schema() const { return impl_->schema->arrow_schema; }
const columnar::SchemaPtr& ParquetReader::projected_schema() const { return impl_->projected; }

Status ParquetReader::SelectColumns(const std::vector<std::string>& names) {
  std::vector<int> picked;
  for (const std::string& name : names) {
    const int i = impl_->schema->arrow_schema->FieldIndex(name);
    if (i < 0) return InvalidArgument("the Parquet file has no column '", name, "'");
    picked.push_back(i);
  }
  impl_->selected = std::move(picked);
  impl_->Project();
  return Status::Ok();
}

Status ParquetReader::SelectFieldIds(const std::vector<int32_t>& field_ids) {
  std::vector<int> picked;
  const auto& fields = impl_->schema->arrow_schema->fields;
  for (int32_t id : field_ids) {
    int found = -1;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].field_id() == id) found = static_cast<int>(i);
    }
    if (found < 0) return InvalidArgument("the Parquet file has no top-level field id ", id);
    picked.push_back(found);
  }
  impl_->selected = std::move(picked);
  impl_->Project();
  return Status::Ok();
}

void ParquetReader::SelectAllColumns() { impl_->SelectAll(); }

Result<RecordBatch> ParquetReader::ReadRowGroup(int index) { return impl_->Read(index); }

Status ParquetReader::SelectRowGroups(const std::vector<int>& indices) {
  for (int i : indices) {
    if (i < 0 || i >= num_row_groups()) return InvalidArgument("row group ", i, " does not exist");
  }
  impl_->row_groups = indices;
  impl_->next_row_group = 0;
  return Status::Ok();
}

Result<std::optional<RecordBatch>> ParquetReader::Next() {
  if (impl_->next_row_group >= impl_->row_groups.size()) return std::optional<RecordBatch>();
  HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch,
                           impl_->Read(impl_->row_groups[impl_->next_row_group++]));
  return std::optional<RecordBatch>(std::move(batch));
}

}  // namespace hoglake::parquet
