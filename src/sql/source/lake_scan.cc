// The lake table scan: reads the pinned snapshot's live Parquet files
// through the object store (ranged reads via ObjectSource), row group by row
// group, only the columns the plan needs, by field id — so a renamed column
// is found under its new name, a column added after a file was written
// reads as NULL, and a column whose type was promoted (int → long, float →
// double, a wider decimal) or stored in another timestamp unit is widened to
// the table's type — inside lists, maps and structs too, whose members are
// found by field id (by name in files without nested ids; a struct member
// added later reads as NULL). Pushed-down filters are applied to every batch.
// A file's parsed footer comes from the run's footer cache when an earlier
// open kept it (footer_cache.h), else it is read and then kept.
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "columnar/builder.h"
#include "columnar/take.h"
#include "common/parallel.h"
#include "iceberg/arrow_mapping.h"
#include "parquet/footer.h"
#include "parquet/footer_stats.h"
#include "parquet/reader.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/operators.h"
#include "sql/execution/vector_ops.h"
#include "sql/function/cast.h"
#include "sql/source/footer_cache.h"
#include "sql/source/lake_files.h"
#include "sql/source/scan_pruning.h"
#include "sql/sql_error.h"
#include "storage/object_source.h"

namespace hoglake::sql {
namespace {

using columnar::ArrayPtr;
using columnar::RecordBatch;
using columnar::TypeId;

Result<ArrayPtr> ToCarrier(const ArrayPtr& array, const columnar::Field& file_field,
                           const columnar::Field& table_field, const SqlType& target);

// The member of a stored struct that holds the table's struct member
// `table_child`: the one with its field id, or (files without nested ids)
// its name; nullptr when the file has none (a member added later).
const columnar::Field* StoredMember(const columnar::DataType& stored,
                                    const columnar::Field& table_child, int* index) {
  std::optional<int32_t> id = table_child.field_id();
  for (size_t i = 0; i < stored.children.size(); ++i) {
    const columnar::Field& f = stored.children[i];
    std::optional<int32_t> fid = f.field_id();
    if (id && fid ? *id == *fid : f.name == table_child.name) {
      *index = static_cast<int>(i);
      return &f;
    }
  }
  return nullptr;
}

// A list, map or struct converted member by member: elements, keys, values
// and struct members each to the carrier of the table's member type.
Result<ArrayPtr> NestedToCarrier(const ArrayPtr& array, const columnar::Field& table_field,
                                 const SqlType& target) {
  const columnar::DataType& stored = *array->type;
  const columnar::DataType& table = *table_field.type;
  auto out = std::make_shared<columnar::ArrayData>(*array);
  out->type = CarrierType(target);
  switch (stored.id) {
    case TypeId::kList: {
      HOGLAKE_ASSIGN_OR_RETURN(out->children[0],
                               ToCarrier(array->children[0], stored.list_element(),
                                         table.list_element(), target.element()));
      break;
    }
    case TypeId::kMap: {
      const ArrayPtr& entries = array->children[0];
      auto converted = std::make_shared<columnar::ArrayData>(*entries);
      converted->type = out->type->children[0].type;
      HOGLAKE_ASSIGN_OR_RETURN(converted->children[0],
                               ToCarrier(entries->children[0], stored.map_key(), table.map_key(),
                                         target.members[0].second));
      HOGLAKE_ASSIGN_OR_RETURN(converted->children[1],
                               ToCarrier(entries->children[1], stored.map_value(),
                                         table.map_value(), target.members[1].second));
      out->children[0] = std::move(converted);
      break;
    }
    case TypeId::kStruct: {
      // Members are addressed through the parent's offset: children span
      // offset + length rows.
      const int64_t child_rows = array->offset + array->length;
      std::vector<ArrayPtr> children;
      for (size_t m = 0; m < target.members.size(); ++m) {
        const columnar::Field& table_child = table.children.at(m);
        int index = -1;
        const columnar::Field* stored_child = StoredMember(stored, table_child, &index);
        if (stored_child == nullptr) {
          HOGLAKE_ASSIGN_OR_RETURN(
              ArrayPtr nulls, BroadcastValue(Value::Null(target.members[m].second), child_rows));
          children.push_back(std::move(nulls));
          continue;
        }
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr child,
                                 ToCarrier(array->children[index], *stored_child, table_child,
                                           target.members[m].second));
        children.push_back(std::move(child));
      }
      out->children = std::move(children);
      break;
    }
    default:
      return Internal("not a nested type: ", stored.ToString());
  }
  return ArrayPtr(out);
}

// Converts a column as stored in a file to the carrier of the table's SQL
// type (`table_field` is the table's field: nested members by field id).
Result<ArrayPtr> ToCarrier(const ArrayPtr& array, const columnar::Field& file_field,
                           const columnar::Field& table_field, const SqlType& target) {
  columnar::DataTypePtr carrier = CarrierType(target);
  const columnar::DataType& stored = *array->type;
  if (stored.Equals(*carrier)) return array;
  // Same layout, other labels (time zone spelling, decimal precision at the
  // same scale): retag.
  auto retag = [&](columnar::DataTypePtr type) {
    auto out = std::make_shared<columnar::ArrayData>(*array);
    out->type = std::move(type);
    return ArrayPtr(out);
  };
  if (stored.id == TypeId::kDecimal128 && carrier->id == TypeId::kDecimal128 &&
      stored.scale == carrier->scale) {
    return retag(carrier);
  }
  if (stored.id == TypeId::kTimestamp && carrier->id == TypeId::kTimestamp) {
    int64_t tps = columnar::TicksPerSecond(stored.unit);
    if (tps == 1000000) return retag(carrier);
    FixedOutput<int64_t> out(carrier, array->length);
    const int64_t* src = array->values<int64_t>();
    for (int64_t i = 0; i < array->length; ++i) {
      if (array->IsNull(i)) {
        out.SetNull(i);
        continue;
      }
      int64_t v = src[i];
      if (tps > 1000000) {
        int64_t div = tps / 1000000;
        int64_t q = v / div;
        if (v % div != 0 && v < 0) --q;
        out.values()[i] = q;
      } else if (__builtin_mul_overflow(v, 1000000 / tps, &out.values()[i])) {
        return SqlError(SqlErrorKind::kDatetimeFieldOverflow, "timestamp out of range in ",
                        file_field.name);
      }
    }
    return out.Finish();
  }
  if (stored.is_nested() || carrier->is_nested()) {
    if (stored.id == carrier->id) return NestedToCarrier(array, table_field, target);
    return SqlError(SqlErrorKind::kFeatureNotSupported, "column \"", file_field.name,
                    "\" is stored as ", stored.ToString(), ", which cannot be read as ",
                    PgTypeName(target));
  }
  if (stored.id == TypeId::kFixedSizeBinary || stored.id == TypeId::kBinary ||
      stored.id == TypeId::kUtf8) {
    if (stored.id == carrier->id) return retag(carrier);
  }
  // Promotions and unsigned storage: through the SQL types.
  HOGLAKE_ASSIGN_OR_RETURN(SqlType file_type, SqlTypeOfField(file_field));
  columnar::DataTypePtr file_carrier = CarrierType(file_type);
  ArrayPtr normalized = array;
  if (!stored.Equals(*file_carrier)) {
    // Unsigned and narrow integers to their SQL carrier.
    std::unique_ptr<columnar::ArrayBuilder> builder = columnar::MakeBuilder(file_carrier);
    for (int64_t i = 0; i < array->length; ++i) {
      if (array->IsNull(i)) {
        builder->AppendNull();
        continue;
      }
      Value v = Value::Null(file_type);
      v.is_null = false;
      switch (stored.id) {
        case TypeId::kInt8:
          v.i = array->values<int8_t>()[i];
          break;
        case TypeId::kUInt8:
          v.i = array->values<uint8_t>()[i];
          break;
        case TypeId::kUInt16:
          v.i = array->values<uint16_t>()[i];
          break;
        case TypeId::kUInt32:
          v.i = array->values<uint32_t>()[i];
          break;
        case TypeId::kUInt64:
          v.n = array->values<uint64_t>()[i];
          break;
        default:
          return SqlError(SqlErrorKind::kFeatureNotSupported, "column \"", file_field.name,
                          "\" is stored as ", stored.ToString(), ", which cannot be read as ",
                          PgTypeName(target));
      }
      HOGLAKE_RETURN_IF_ERROR(AppendValue(builder.get(), v));
    }
    HOGLAKE_ASSIGN_OR_RETURN(normalized, builder->Finish());
  }
  if (file_type == target) return normalized;
  return CastArray(normalized, file_type, target);
}

std::vector<iceberg::TypeSpec> CatalogTypes(const ScanSpec& spec) {
  std::vector<iceberg::TypeSpec> types;
  for (const columnar::Field& f : spec.fields) {
    auto t = iceberg::ColumnTypeFromArrow(f);
    types.push_back(t.ok() ? *t : iceberg::TypeSpec(iceberg::ColumnType::kVariant));
  }
  return types;
}

// Reads one file: opens it, picks the row groups statistics do not rule
// out, and turns a row group into a batch of the scan's columns with the
// scan's filters applied. One per worker; not shared between threads.
class FileScan {
 public:
  FileScan(const LogicalOp& plan, ExecContext& ctx, const std::vector<iceberg::TypeSpec>& types,
           const PruningPredicate& pruning, ScanCounters& counters)
      : plan_(plan), ctx_(ctx), types_(types), pruning_(pruning), counters_(counters),
        schema_(OutputSchema(plan.output)) {}

  // Whether the file's catalog statistics or its partition values (read
  // through the spec it was written under) rule out every row.
  bool FilePruned(const catalog::DataFileInfo& file) const {
    if (pruning_.empty()) return false;
    const bool by_stats =
        file.column_stats &&
        pruning_.Excludes([&](int32_t field_id) -> std::optional<ColumnStatistics> {
          for (const catalog::ColumnStatRow& row : *file.column_stats) {
            if (row.field_id != field_id) continue;
            return ColumnStatistics{row.value_count, row.null_count, row.nan_count,
                                    row.lower_bound, row.upper_bound, std::nullopt,
                                    std::nullopt};
          }
          return std::nullopt;
        });
    if (by_stats) return true;
    const catalog::PartitionSpecInfo* spec = SpecOf(file);
    return spec != nullptr && file.partition_values &&
           pruning_.ExcludesPartition(*spec, *file.partition_values);
  }

  // The partition spec `file` was written under, when the catalog holds it.
  const catalog::PartitionSpecInfo* SpecOf(const catalog::DataFileInfo& file) const {
    if (!file.spec_id) return nullptr;
    const catalog::ResolvedTable& table = plan_.scan->table;
    if (table.info.partition_spec && table.info.partition_spec->spec_id == *file.spec_id) {
      return &*table.info.partition_spec;
    }
    for (const catalog::PartitionSpecInfo& spec : table.partition_specs) {
      if (spec.spec_id == *file.spec_id) return &spec;
    }
    return nullptr;
  }

  // Opens `file`; returns the row groups worth reading (`count`: add the
  // pruned ones to the counters — once per file, not per worker).
  Result<std::vector<int>> Open(const catalog::DataFileInfo& file, int decode_threads,
                                bool count = true) {
    HOGLAKE_ASSIGN_OR_RETURN(ObjectStore * store, ctx_.stores->StoreFor(file.path));
    HOGLAKE_ASSIGN_OR_RETURN(std::shared_ptr<ObjectSource> source,
                             ObjectSource::Open(store, file.path, file.file_size_bytes));
    parquet::ReaderOptions options;
    options.threads = decode_threads;
    const FooterCache::Key key{file.path, file.file_size_bytes, file.data_file_id};
    std::shared_ptr<const parquet::ParquetFooter> footer;
    if (ctx_.footers != nullptr) footer = ctx_.footers->Find(key);
    if (footer) {
      if (count) ++counters_.footer_cache_hits;
      HOGLAKE_ASSIGN_OR_RETURN(reader_, parquet::ParquetReader::Open(source, footer, options));
    } else {
      HOGLAKE_ASSIGN_OR_RETURN(reader_, parquet::ParquetReader::Open(source, options));
      if (ctx_.footers != nullptr) ctx_.footers->Insert(key, reader_->footer());
    }
    const ScanSpec& spec = *plan_.scan;
    const columnar::Schema& file_schema = *reader_->schema();
    std::vector<int32_t> present;
    file_fields_.assign(spec.field_ids.size(), std::nullopt);
    position_.assign(spec.field_ids.size(), -1);
    for (size_t c = 0; c < spec.field_ids.size(); ++c) {
      for (const columnar::Field& f : file_schema.fields) {
        if (f.field_id() == spec.field_ids[c]) {
          file_fields_[c] = f;
          position_[c] = static_cast<int>(present.size());
          present.push_back(spec.field_ids[c]);
          break;
        }
      }
    }
    count_only_ = false;
    if (present.empty() && !file_schema.fields.empty()) {
      // Still read one column for the row count.
      std::optional<int32_t> any = file_schema.fields[0].field_id();
      if (any) {
        present.push_back(*any);
        count_only_ = true;
      } else {
        reader_->SelectAllColumns();
      }
    }
    if (!present.empty()) HOGLAKE_RETURN_IF_ERROR(reader_->SelectFieldIds(present));
    return ChooseRowGroups(count);
  }

  // The filtered batch of row group `index` of the open file (maybe empty).
  Result<RecordBatch> Read(int index) {
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch group, reader_->ReadRowGroup(index));
    ++counters_.row_groups_total;
    ctx_.CountScanned(group.num_rows);
    HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch, Assemble(group));
    for (const BoundExprPtr& filter : plan_.scan->filters) {
      if (batch.num_rows == 0) break;
      HOGLAKE_ASSIGN_OR_RETURN(std::vector<int64_t> rows, SelectTrue(*filter, batch));
      if (static_cast<int64_t>(rows.size()) != batch.num_rows) {
        HOGLAKE_ASSIGN_OR_RETURN(batch, columnar::TakeRows(batch, rows));
        batch.schema = schema_;
      }
    }
    return batch;
  }

 private:
  Result<std::vector<int>> ChooseRowGroups(bool count) {
    std::vector<int> chosen;
    const parquet::FileMetaData& meta = reader_->metadata();
    int n = reader_->num_row_groups();
    std::vector<parquet::StatsColumn> columns;
    if (!pruning_.empty()) {
      for (int32_t id : pruning_.field_ids()) {
        for (size_t c = 0; c < plan_.scan->field_ids.size(); ++c) {
          if (plan_.scan->field_ids[c] == id) columns.emplace_back(id, types_[c]);
        }
      }
    }
    // The file's metadata with one row group at a time (copying the whole
    // footer per row group would cost the square of its row groups).
    parquet::FileMetaData one;
    if (!columns.empty()) {
      one.version = meta.version;
      one.schema = meta.schema;
      one.num_rows = meta.num_rows;
      one.key_value_metadata = meta.key_value_metadata;
      one.created_by = meta.created_by;
      one.column_orders = meta.column_orders;
    }
    for (int i = 0; i < n; ++i) {
      if (!columns.empty()) {
        one.row_groups = {meta.row_groups[i]};
        auto stats = parquet::ExtractColumnStats(one, columns);
        if (stats.ok()) {
          bool excluded = pruning_.Excludes([&](int32_t id) -> std::optional<ColumnStatistics> {
            for (const parquet::ColumnStats& s : *stats) {
              if (s.field_id == id) {
                return ColumnStatistics{s.value_count, s.null_count, s.nan_count,
                                        s.lower_bound, s.upper_bound, std::nullopt,
                                        std::nullopt};
              }
            }
            return std::nullopt;
          });
          if (excluded) {
            if (count) ++counters_.row_groups_pruned;
            continue;
          }
        }
      }
      chosen.push_back(i);
    }
    return chosen;
  }

  Result<RecordBatch> Assemble(const RecordBatch& group) {
    const ScanSpec& spec = *plan_.scan;
    std::vector<ArrayPtr> columns;
    for (size_t c = 0; c < spec.field_ids.size(); ++c) {
      const SqlType& type = plan_.output[c].type;
      if (position_[c] < 0 || count_only_) {
        HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr nulls, BroadcastValue(Value::Null(type), group.num_rows));
        columns.push_back(nulls);
        continue;
      }
      HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr v,
                               ToCarrier(group.columns[position_[c]], *file_fields_[c],
                                         spec.fields[c], type));
      columns.push_back(v);
    }
    RecordBatch batch;
    batch.schema = schema_;
    batch.num_rows = group.num_rows;
    batch.columns = std::move(columns);
    return batch;
  }

  const LogicalOp& plan_;
  ExecContext& ctx_;
  const std::vector<iceberg::TypeSpec>& types_;
  const PruningPredicate& pruning_;
  ScanCounters& counters_;
  columnar::SchemaPtr schema_;
  std::unique_ptr<parquet::ParquetReader> reader_;
  std::vector<std::optional<columnar::Field>> file_fields_;
  std::vector<int> position_;
  bool count_only_ = false;
};

// The lake scan: morsels are row groups. With one thread it reads them in
// order on the caller's thread; with more, workers take files and row
// groups from a shared dispenser and hand filtered batches to the consumer
// through a bounded queue (output order is then not the file order, which
// SQL does not promise without ORDER BY).
class LakeScanOperator : public PhysicalOperator {
 public:
  LakeScanOperator(const LogicalOp& plan, ExecContext& ctx)
      : PhysicalOperator(plan),
        ctx_(ctx),
        types_(CatalogTypes(*plan.scan)),
        pruning_(plan.scan->filters, types_, plan.scan->field_ids) {
    // Parallel only when there is more than one row group's worth of data.
    int64_t rows = 0;
    for (const auto& f : plan.scan->files) rows += f.record_count;
    workers_ = rows > 100000 ? ResolveThreads(ctx.threads) : 1;
  }

  ~LakeScanOperator() override { Stop(); }

  // Workers and consumers meet at the queue; the serial path locks.
  bool concurrent() const override { return true; }

  std::string Describe() const override {
    std::string line = PhysicalOperator::Describe();
    line += StrCat(" files=", counters_.files_total.load(), "/", plan_.scan->files.size(),
                   " (pruned ", counters_.files_pruned.load(), ") row_groups=",
                   counters_.row_groups_total.load(), " (pruned ",
                   counters_.row_groups_pruned.load(), ") bytes=", counters_.bytes_read.load(),
                   " footers_cached=", counters_.footer_cache_hits.load(), " workers=", workers_);
    return line;
  }

 protected:
  Result<std::optional<RecordBatch>> NextImpl() override {
    if (workers_ <= 1) {
      std::lock_guard<std::mutex> serial(serial_mu_);
      return NextSerial();
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (!started_) {
      started_ = true;
      Start();
    }
    while (true) {
      if (!error_.ok()) return error_;
      if (!queue_.empty()) {
        RecordBatch batch = std::move(queue_.front());
        queue_.pop_front();
        space_.notify_one();
        return Emit(std::move(batch));
      }
      if (running_ == 0) return EndOfStream();
      ready_.wait(lock);
    }
  }

 private:
  Result<std::optional<RecordBatch>> NextSerial() {
    const ScanSpec& spec = *plan_.scan;
    if (!serial_) serial_ = std::make_unique<FileScan>(plan_, ctx_, types_, pruning_, counters_);
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      if (next_row_group_ >= row_groups_.size()) {
        if (next_file_ >= spec.files.size()) return EndOfStream();
        const catalog::DataFileInfo& file = spec.files[next_file_++];
        if (serial_->FilePruned(file)) {
          ++counters_.files_pruned;
          continue;
        }
        ++counters_.files_total;
        counters_.bytes_read += file.file_size_bytes;
        ctx_.bytes_scanned += file.file_size_bytes;
        HOGLAKE_ASSIGN_OR_RETURN(row_groups_, serial_->Open(file, ctx_.threads));
        next_row_group_ = 0;
        continue;
      }
      HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch, serial_->Read(row_groups_[next_row_group_++]));
      if (batch.num_rows > 0) return Emit(std::move(batch));
    }
  }

  // Called under mu_.
  void Start() {
    running_ = workers_;
    for (int w = 0; w < workers_; ++w) {
      threads_.emplace_back([this] {
        Status status = Work();
        std::lock_guard<std::mutex> lock(mu_);
        if (!status.ok() && error_.ok()) error_ = status;
        --running_;
        ready_.notify_all();
      });
    }
  }

  void Stop() {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      space_.notify_all();
      threads = std::move(threads_);
    }
    for (std::thread& t : threads) t.join();
    threads_.clear();
  }

  // One worker: takes a morsel (a file's row group), reads it, queues the
  // batch. A worker that takes a new file opens it and offers its other row
  // groups to the rest.
  Status Work() {
    FileScan scan(plan_, ctx_, types_, pruning_, counters_);
    const ScanSpec& spec = *plan_.scan;
    std::optional<size_t> open_file;
    while (true) {
      HOGLAKE_RETURN_IF_ERROR(ctx_.CheckCancelled());
      size_t file;
      int row_group = -1;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_ || !error_.ok()) return Status::Ok();
        if (!pending_.empty()) {
          std::tie(file, row_group) = pending_.front();
          pending_.pop_front();
        } else if (next_file_ < spec.files.size()) {
          file = next_file_++;
        } else {
          return Status::Ok();
        }
      }
      const catalog::DataFileInfo& info = spec.files[file];
      if (row_group < 0) {
        if (scan.FilePruned(info)) {
          ++counters_.files_pruned;
          continue;
        }
        ++counters_.files_total;
        counters_.bytes_read += info.file_size_bytes;
        ctx_.bytes_scanned += info.file_size_bytes;
        HOGLAKE_ASSIGN_OR_RETURN(std::vector<int> groups, scan.Open(info, 1));
        open_file = file;
        if (groups.empty()) continue;
        {
          std::lock_guard<std::mutex> lock(mu_);
          for (size_t g = 1; g < groups.size(); ++g) pending_.emplace_back(file, groups[g]);
        }
        row_group = groups[0];
      } else if (open_file != file) {
        HOGLAKE_RETURN_IF_ERROR(scan.Open(info, 1, /*count=*/false).status());
        open_file = file;
      }
      HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch, scan.Read(row_group));
      if (batch.num_rows == 0) continue;
      std::unique_lock<std::mutex> lock(mu_);
      space_.wait(lock, [&] { return stop_ || queue_.size() < kQueueDepth; });
      if (stop_) return Status::Ok();
      queue_.push_back(std::move(batch));
      ready_.notify_one();
    }
  }

  static constexpr size_t kQueueDepth = 8;

  ExecContext& ctx_;
  std::vector<iceberg::TypeSpec> types_;
  PruningPredicate pruning_;
  ScanCounters counters_;
  int workers_ = 1;
  // serial (under serial_mu_)
  std::mutex serial_mu_;
  std::unique_ptr<FileScan> serial_;
  std::vector<int> row_groups_;
  size_t next_row_group_ = 0;
  // shared by the workers (under mu_)
  size_t next_file_ = 0;
  std::mutex mu_;
  std::condition_variable ready_;
  std::condition_variable space_;
  std::deque<std::pair<size_t, int>> pending_;
  std::deque<RecordBatch> queue_;
  Status error_;
  int running_ = 0;
  bool stop_ = false;
  bool started_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

Result<OperatorPtr> MakeScanOperator(const LogicalOp& plan, ExecContext& ctx) {
  return OperatorPtr(new LakeScanOperator(plan, ctx));
}

}  // namespace hoglake::sql
