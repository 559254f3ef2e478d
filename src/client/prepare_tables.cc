// Table::PrepareAppendTables (client.h; pyhoglake-writer §10.1–§10.2,
// prepare_append_tables): PreparePath::Resolve, a refusal of destinations
// with a variant column (an Arrow rewrite cannot write native Parquet
// VARIANT), then per group, in input order: reserved names, AlignBatch to
// WriterSchema(columns) and a batch validity check, an in-memory Parquet
// encoding (ParquetWriter::OpenBuffer, default writer options — what
// Table::Append writes), whose WriteSummary gives the registration's
// metadata, sizes and rows; PreparePath::RegisterAndUpload does the rest
// exactly as for files.
#include <string>
#include <vector>

#include "client/client.h"
#include "client/prepare_path.h"
#include "client/writer_schema.h"
#include "columnar/validate.h"
#include "parquet/writer.h"

namespace hoglake::client {
namespace {

bool HasVariant(const std::vector<Column>& columns) {
  for (const Column& column : columns) {
    if (column.type.type == iceberg::ColumnType::kVariant || HasVariant(column.children)) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<PreparedAppend> Table::PrepareAppendTables(const std::vector<PreparedBatches>& groups,
                                                  const PrepareOptions& options,
                                                  std::vector<std::string>* uploaded) {
  if (uploaded) uploaded->clear();
  HOGLAKE_ASSIGN_OR_RETURN(PrepareTarget target, PreparePath::Resolve(*this, options));
  if (HasVariant(target.table.columns)) {
    return Validation(
        "cannot prepare Arrow tables for a destination with variant columns: an Arrow rewrite "
        "loses the native Parquet VARIANT annotation; write native VARIANT Parquet files and "
        "use PrepareAppendFiles");
  }
  HOGLAKE_ASSIGN_OR_RETURN(columnar::SchemaPtr writer_schema, WriterSchema(target.table.columns));
  auto encode = [&](size_t index) -> Result<PreparedSource> {
    const PreparedBatches& group = groups[index];
    PreparedSource source;
    source.label = StrCat("group ", index);
    source.partition_values = group.partition_values;
    HOGLAKE_ASSIGN_OR_RETURN(
        std::unique_ptr<parquet::ParquetWriter> writer,
        parquet::ParquetWriter::OpenBuffer(&source.bytes, writer_schema, parquet::WriterOptions{}));
    for (const columnar::RecordBatch& batch : group.batches) {
      HOGLAKE_RETURN_IF_ERROR(CheckReservedNames(*batch.schema));
      HOGLAKE_ASSIGN_OR_RETURN(columnar::RecordBatch aligned, AlignBatch(batch, writer_schema));
      if (auto valid = columnar::ValidateBatch(aligned); !valid.ok()) {
        return Validation("the data is not a valid batch: ", valid.error().message);
      }
      HOGLAKE_RETURN_IF_ERROR(writer->WriteBatch(aligned));
      source.num_rows += aligned.num_rows;
    }
    HOGLAKE_ASSIGN_OR_RETURN(parquet::WriteSummary summary, writer->Close());
    writer.reset();
    source.metadata = std::move(summary.metadata);
    source.file_size = summary.file_size;
    source.footer_size = summary.footer_size;
    return source;
  };
  return PreparePath::RegisterAndUpload(*this, target, groups.size(), encode, options, uploaded);
}

}  // namespace hoglake::client
