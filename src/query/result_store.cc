#include "query/result_store.h"

#include "common/log.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "storage/object_source.h"

namespace hoglake::query {

ResultWriter::~ResultWriter() {
  if (object_) (void)object_->Abort();
}

Status ResultWriter::Write(const columnar::RecordBatch& batch) {
  HOGLAKE_RETURN_IF_ERROR(parquet_->WriteBatch(batch));
  rows_ += batch.num_rows;
  return Status::Ok();
}

Result<WrittenResult> ResultWriter::Finish() {
  HOGLAKE_ASSIGN_OR_RETURN(parquet::WriteSummary summary, parquet_->Close());
  HOGLAKE_RETURN_IF_ERROR(object_->Commit());
  object_.reset();
  return WrittenResult{path_, rows_, summary.file_size};
}

ResultReader::~ResultReader() = default;

const columnar::SchemaPtr& ResultReader::schema() const { return reader_->schema(); }

int64_t ResultReader::num_rows() const { return reader_->num_rows(); }

Result<std::optional<columnar::RecordBatch>> ResultReader::Next() {
  if (next_group_ >= reader_->num_row_groups()) return std::optional<columnar::RecordBatch>();
  HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch batch, reader_->ReadRowGroup(next_group_++));
  return std::optional<columnar::RecordBatch>(std::move(batch));
}

Result<std::unique_ptr<ResultStore>> ResultStore::Open(const std::string& root_uri,
                                                       const S3Config& s3) {
  auto store = std::unique_ptr<ResultStore>(new ResultStore());
  store->root_ = root_uri;
  while (store->root_.size() > 1 && store->root_.back() == '/') store->root_.pop_back();
  HOGLAKE_ASSIGN_OR_RETURN(store->store_, OpenObjectStore(store->root_, s3));
  return store;
}

Result<std::unique_ptr<ResultWriter>> ResultStore::Create(const std::string& result_id,
                                                          const columnar::SchemaPtr& schema) {
  auto writer = std::unique_ptr<ResultWriter>(new ResultWriter());
  writer->path_ = root_ + "/" + result_id + ".parquet";
  HOGLAKE_ASSIGN_OR_RETURN(writer->object_, store_->OpenWriter(writer->path_));
  parquet::WriterOptions options;
  options.max_row_group_rows = kRowGroupRows;
  options.threads = 1;
  ObjectWriter* object = writer->object_.get();
  HOGLAKE_ASSIGN_OR_RETURN(
      writer->parquet_,
      parquet::ParquetWriter::OpenSink(
          [object](std::string_view bytes) { return object->Append(bytes); }, schema, options));
  return writer;
}

Result<std::unique_ptr<ResultReader>> ResultStore::OpenReader(const std::string& path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<ObjectSource> source,
                           ObjectSource::Open(store_.get(), path));
  auto reader = std::unique_ptr<ResultReader>(new ResultReader());
  HOGLAKE_ASSIGN_OR_RETURN(reader->reader_, parquet::ParquetReader::Open(source));
  return reader;
}

Result<std::string> ResultStore::ReadBytes(const std::string& path) { return store_->Get(path); }

Result<std::shared_ptr<RandomAccessSource>> ResultStore::OpenBytes(const std::string& path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<ObjectSource> source,
                           ObjectSource::Open(store_.get(), path));
  return std::shared_ptr<RandomAccessSource>(std::move(source));
}

void ResultStore::Remove(const std::vector<std::string>& paths) {
  std::vector<Result<bool>> outcomes = store_->DeleteMany(paths);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (!outcomes[i].ok()) LogWarn("removing result ", paths[i], ": ", outcomes[i].error().message);
  }
}

}  // namespace hoglake::query
