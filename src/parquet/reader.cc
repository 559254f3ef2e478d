#include "parquet/reader.h"

#include <algorithm>
#include <cstring>

#include "columnar/builder.h"
#include "common/parallel.h"
#include "parquet/assemble.h"
#include "parquet/footer.h"
#include "parquet/schema.h"

namespace hoglake::parquet {

using columnar::RecordBatch;

struct ParquetReader::Impl {
  std::shared_ptr<RandomAccessSource> source;
  ReaderOptions options;
  // Read by Open or handed in; the leading magic is checked with the tail
  // read when that covers the file's start, else with the first row group
  // read (whose first chunk begins right after it) and recorded there.
  std::shared_ptr<const ParquetFooter> footer;
  const FileMetaData* metadata = nullptr;
  const ParquetSchema* schema = nullptr;
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

  // The bytes [offset, offset + length): a view of the source's memory, or
  // read into `scratch` (valid until it changes). The caller checks the range.
  Result<std::string_view> ReadRange(int64_t offset, int64_t length, PodBuffer<char>* scratch) {
    if (std::optional<std::string_view> view = source->View(offset, length)) return *view;
    scratch->resize_uninitialized(static_cast<size_t>(length));
    HOGLAKE_RETURN_IF_ERROR(source->ReadInto(offset, length, scratch->data()));
    return scratch->view();
  }

  // Adopts `f`, read from a file of the source's size.
  Status Open(std::shared_ptr<const ParquetFooter> f) {
    if (f->file_size() != source->size()) {
      return InvalidArgument("a footer read from a ", f->file_size(), "-byte file cannot serve a ",
                             source->size(), "-byte one");
    }
    footer = std::move(f);
    metadata = &footer->metadata();
    schema = &footer->schema();
    scratch.resize(static_cast<size_t>(threads));
    SelectAll();
    for (size_t g = 0; g < metadata->row_groups.size(); ++g)
      row_groups.push_back(static_cast<int>(g));
    return Status::Ok();
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
                               ReadRange(ColumnChunkStart(m), m.total_compressed_size, &slot.chunk));
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

  // The projected columns with no rows (an empty row group is never read).
  Result<RecordBatch> EmptyBatch() const {
    RecordBatch batch{projected, 0, {}};
    for (const columnar::Field& field : projected->fields) {
      HOGLAKE_ASSIGN_OR_RETURN(columnar::ArrayPtr empty,
                               columnar::MakeBuilder(field.type)->Finish());
      batch.columns.push_back(std::move(empty));
    }
    return batch;
  }

  Result<RecordBatch> Read(int index) {
    if (index < 0 || index >= static_cast<int>(metadata->row_groups.size())) {
      return InvalidArgument("row group ", index, " does not exist (the file has ",
                             metadata->row_groups.size(), ")");
    }
    const RowGroup& group = metadata->row_groups[index];
    if (group.num_rows == 0) return EmptyBatch();
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
    // Tell the source what this row group needs: a remote one fetches it in
    // a few coalesced requests.
    std::vector<ByteRange> ranges;
    const bool check_magic = !footer->leading_magic_checked();
    if (check_magic) ranges.push_back({0, 4});
    for (int c : selected) {
      const SchemaNode& node = schema->columns[c];
      for (int l = node.leaf_begin; l < node.leaf_end; ++l) {
        const ColumnMetaData& m = *group.columns[l].meta_data;
        ranges.push_back({ColumnChunkStart(m), m.total_compressed_size});
      }
    }
    HOGLAKE_RETURN_IF_ERROR(source->WillRead(ranges));
    if (check_magic) {
      HOGLAKE_ASSIGN_OR_RETURN(std::string_view head, ReadRange(0, 4, &scratch[0].chunk));
      if (head.substr(0, 4) != "PAR1") return InvalidData("not a Parquet file: bad leading magic");
      footer->MarkLeadingMagicChecked();
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

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(
    std::shared_ptr<RandomAccessSource> source, ReaderOptions options) {
  if (!source) return InvalidArgument("Parquet reader needs a source");
  auto impl = std::make_unique<Impl>();
  impl->source = std::move(source);
  impl->options = options;
  impl->threads = ResolveThreads(options.threads);
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetFooter> footer,
                           ParquetFooter::Read(*impl->source, options.max_footer_bytes));
  HOGLAKE_RETURN_IF_ERROR(impl->Open(std::move(footer)));
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(
    std::shared_ptr<RandomAccessSource> source, std::shared_ptr<const ParquetFooter> footer,
    ReaderOptions options) {
  if (!source) return InvalidArgument("Parquet reader needs a source");
  if (!footer) return InvalidArgument("Parquet reader needs a footer");
  auto impl = std::make_unique<Impl>();
  impl->source = std::move(source);
  impl->options = options;
  impl->threads = ResolveThreads(options.threads);
  HOGLAKE_RETURN_IF_ERROR(impl->Open(std::move(footer)));
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenFile(const std::string& path,
                                                               ReaderOptions options) {
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<RandomAccessSource> source, OpenLocalFileSource(path));
  Result<std::unique_ptr<ParquetReader>> reader = Open(std::move(source), options);
  if (!reader.ok()) return Error{reader.error().code, path + ": " + reader.error().message};
  return reader;
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenBuffer(
    std::shared_ptr<const std::string> bytes, ReaderOptions options) {
  if (!bytes) return InvalidArgument("Parquet reader needs a buffer");
  return Open(MemorySource(std::move(bytes)), options);
}

const FileMetaData& ParquetReader::metadata() const { return *impl_->metadata; }
const std::shared_ptr<const ParquetFooter>& ParquetReader::footer() const { return impl_->footer; }
int64_t ParquetReader::footer_size() const { return impl_->footer->footer_size(); }
int64_t ParquetReader::file_size() const { return impl_->source->size(); }
int64_t ParquetReader::num_rows() const { return impl_->metadata->num_rows; }
int ParquetReader::num_row_groups() const {
  return static_cast<int>(impl_->metadata->row_groups.size());
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
