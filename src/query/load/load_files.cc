#include "query/load/load_files.h"

#include "common/uuid.h"
#include "parquet/footer_stats.h"
#include "parquet/writer.h"

namespace hoglake::query {

LoadFiles::LoadFiles(ObjectStore* store, std::string directory, const catalog::TableInfo& table,
                     columnar::SchemaPtr writer_schema, LoadFileOptions options)
    : store_(store),
      directory_(std::move(directory)),
      schema_(std::move(writer_schema)),
      options_(options) {
  for (const catalog::ColumnNode& c : table.columns) leaves_.emplace_back(c.field_id, c.type);
}

LoadFiles::~LoadFiles() {
  if (!finished_) Abandon();
}

Status LoadFiles::OpenFile() {
  open_path_ = StrCat(directory_, NewUuid(), ".parquet");
  HOGLAKE_ASSIGN_OR_RETURN(object_, store_->OpenWriter(open_path_));
  parquet::WriterOptions options;
  options.max_row_group_rows = options_.rows_per_row_group;
  ObjectWriter* object = object_.get();
  HOGLAKE_ASSIGN_OR_RETURN(
      writer_,
      parquet::ParquetWriter::OpenSink(
          [object](std::string_view bytes) { return object->Append(bytes); }, schema_, options));
  open_rows_ = 0;
  return Status::Ok();
}

Status LoadFiles::CloseFile() {
  HOGLAKE_ASSIGN_OR_RETURN(parquet::WriteSummary summary, writer_->Close());
  writer_.reset();
  HOGLAKE_RETURN_IF_ERROR(object_->Commit());
  object_.reset();
  catalog::FileRegistration file;
  file.path = open_path_;
  file.record_count = open_rows_;
  file.file_size_bytes = summary.file_size;
  file.footer_size = summary.footer_size;
  closed_.push_back(file);  // from here on Abandon deletes it
  std::vector<parquet::StatsColumn> leaves;
  for (const auto& [field_id, type] : leaves_) leaves.emplace_back(field_id, type);
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<parquet::ColumnStats> stats,
                           parquet::ExtractColumnStats(summary.metadata, leaves));
  auto& column_stats = closed_.back().column_stats.emplace();
  for (const parquet::ColumnStats& s : stats) {
    column_stats.push_back(catalog::ColumnStatsInput{s.field_id, s.value_count, s.null_count,
                                                     s.nan_count, s.size_bytes, s.lower_bound,
                                                     s.upper_bound});
  }
  return Status::Ok();
}

Status LoadFiles::Write(const columnar::RecordBatch& batch) {
  if (batch.num_rows == 0) return Status::Ok();
  if (!writer_) HOGLAKE_RETURN_IF_ERROR(OpenFile());
  HOGLAKE_RETURN_IF_ERROR(writer_->WriteBatch(batch));
  open_rows_ += batch.num_rows;
  rows_ += batch.num_rows;
  if (object_->bytes_written() >= static_cast<uint64_t>(options_.target_file_bytes)) {
    HOGLAKE_RETURN_IF_ERROR(CloseFile());
  }
  return Status::Ok();
}

Result<std::vector<catalog::FileRegistration>> LoadFiles::Finish() {
  if (writer_) HOGLAKE_RETURN_IF_ERROR(CloseFile());
  finished_ = true;
  return closed_;
}

void LoadFiles::Abandon() {
  writer_.reset();
  if (object_) (void)object_->Abort();
  object_.reset();
  std::vector<std::string> paths;
  for (const catalog::FileRegistration& f : closed_) paths.push_back(f.path);
  if (!paths.empty()) (void)store_->DeleteMany(paths);
  closed_.clear();
  finished_ = true;
}

}  // namespace hoglake::query
