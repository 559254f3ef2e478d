#include "query/load/load_rows.h"

#include "catalog/model/identifiers.h"
#include "columnar/text/text_import.h"
#include "common/random_access_stream.h"
#include "parquet/reader.h"
#include "query/managed_databases.h"

namespace hoglake::query {
namespace {

using columnar::RecordBatch;
using columnar::SchemaPtr;

bool Contains(const std::optional<std::string>& text, std::string_view word) {
  return text && LowerIdentifier(*text).find(word) != std::string::npos;
}

// `schema` with lower-cased top-level names.
SchemaPtr Lowered(const columnar::Schema& schema) {
  auto out = std::make_shared<columnar::Schema>(schema);
  for (columnar::Field& f : out->fields) f.name = LowerIdentifier(f.name);
  return out;
}

// What a CSV with the `inferred` header columns is read as into an existing
// table (`table`, its writer schema): a header column the table has takes
// the table's type, a new one its inferred type (PlanTableChanges adds it),
// and table columns the header lacks are read as NULL.
SchemaPtr CsvTarget(const columnar::Schema& inferred, const columnar::Schema& table) {
  auto target = std::make_shared<columnar::Schema>();
  std::vector<bool> named(table.fields.size(), false);
  for (const columnar::Field& f : inferred.fields) {
    const int index = table.FieldIndex(LowerIdentifier(f.name));
    if (index < 0) {
      target->fields.push_back(f);
      continue;
    }
    named[static_cast<size_t>(index)] = true;
    columnar::Field typed = table.fields[static_cast<size_t>(index)];
    typed.name = f.name;
    target->fields.push_back(std::move(typed));
  }
  for (size_t i = 0; i < table.fields.size(); ++i) {
    if (!named[i]) target->fields.push_back(table.fields[i]);
  }
  return target;
}

class ParquetRows : public LoadRows {
 public:
  explicit ParquetRows(std::unique_ptr<parquet::ParquetReader> reader)
      : reader_(std::move(reader)), schema_(Lowered(*reader_->schema())) {}

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::optional<RecordBatch>> Next() override {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader_->Next());
    if (batch) batch->schema = schema_;
    return batch;
  }

 private:
  std::unique_ptr<parquet::ParquetReader> reader_;
  SchemaPtr schema_;
};

class TextRows : public LoadRows {
 public:
  TextRows(std::unique_ptr<RandomAccessStream> stream, SchemaPtr schema)
      : stream_(std::move(stream)), schema_(std::move(schema)) {}

  Status Start(columnar::text::TextFormat format, const SchemaPtr& target) {
    columnar::text::TextImportOptions options;
    options.batch_rows = kTextBatchRows;
    Result<std::unique_ptr<columnar::text::TextBatchReader>> reader =
        columnar::text::TextBatchReader::Open(stream_.get(), format, target, options);
    if (!reader.ok()) return StoreErrorOr(reader.error());
    reader_ = std::move(*reader);
    return Status::Ok();
  }

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::optional<RecordBatch>> Next() override {
    Result<std::optional<RecordBatch>> batch = reader_->Next();
    if (!batch.ok()) return StoreErrorOr(batch.error());
    if (*batch) (*batch)->schema = schema_;
    return batch;
  }

  // The store's error when a ranged read failed (the parser only saw its
  // input end badly), else `error`.
  Error StoreErrorOr(Error error) const {
    if (stream_->error()) return *stream_->error();
    return error;
  }

 private:
  std::unique_ptr<RandomAccessStream> stream_;
  SchemaPtr schema_;
  std::unique_ptr<columnar::text::TextBatchReader> reader_;
};

}  // namespace

Result<LoadFormat> DetectLoadFormat(RandomAccessSource& bytes,
                                    const std::optional<std::string>& content_type,
                                    LoadFormat asked) {
  if (asked != LoadFormat::kAuto) return asked;
  if (bytes.size() >= 4) {
    char magic[4];
    HOGLAKE_RETURN_IF_ERROR(bytes.ReadInto(0, 4, magic));
    if (std::string_view(magic, 4) == "PAR1") return LoadFormat::kParquet;
  }
  if (Contains(content_type, "parquet")) return LoadFormat::kParquet;
  if (Contains(content_type, "json")) return LoadFormat::kJsonLines;
  return LoadFormat::kCsv;
}

Result<std::unique_ptr<LoadRows>> LoadRows::Open(const LoadSourceBytes& source, LoadFormat asked,
                                                 const SchemaPtr& table) {
  HOGLAKE_ASSIGN_OR_RETURN(LoadFormat format,
                           DetectLoadFormat(*source.bytes, source.content_type, asked));
  if (format == LoadFormat::kParquet) {
    auto reader = parquet::ParquetReader::Open(source.bytes);
    if (!reader.ok()) {
      return MakeError(ErrorCode::kBadRequest,
                       "the data is not readable Parquet: " + reader.error().message);
    }
    return std::unique_ptr<LoadRows>(new ParquetRows(std::move(*reader)));
  }
  if (!table && format == LoadFormat::kJsonLines) {
    return MakeError(ErrorCode::kBadRequest,
                     "a JSON-lines load needs an existing table (its columns); load Parquet or CSV "
                     "to create one");
  }
  auto stream = std::make_unique<RandomAccessStream>(source.bytes, kTextChunkBytes);
  SchemaPtr target = table;
  if (format == LoadFormat::kCsv) {
    Result<SchemaPtr> inferred = columnar::text::InferCsvSchema(stream.get(), kInferenceSampleRows);
    if (!inferred.ok()) {
      if (stream->error()) return *stream->error();
      return inferred.error();
    }
    stream->Rewind();
    target = table ? CsvTarget(**inferred, *table) : *inferred;
  }
  auto rows = std::make_unique<TextRows>(std::move(stream), Lowered(*target));
  HOGLAKE_RETURN_IF_ERROR(rows->Start(format == LoadFormat::kCsv
                                          ? columnar::text::TextFormat::kCsv
                                          : columnar::text::TextFormat::kJsonLines,
                                      target));
  return std::unique_ptr<LoadRows>(std::move(rows));
}

}  // namespace hoglake::query
