#include "sql/engine.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "columnar/builder.h"
#include "sql/binder/query_binder.h"
#include "sql/execution/operator.h"
#include "sql/execution/operators.h"
#include "sql/optimizer/column_pruning.h"
#include "sql/optimizer/constant_folding.h"
#include "sql/optimizer/filter_pushdown.h"
#include "sql/optimizer/join_planner.h"
#include "sql/parser/parser.h"
#include "sql/source/lake_files.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

QueryResult TextResult(const std::string& column, const std::string& text) {
  QueryResult result;
  result.columns.push_back(ResultColumn{column, SqlType::Of(SqlTypeId::kText)});
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back(columnar::Field{column, columnar::Utf8(), true, {}});
  result.schema = schema;
  columnar::BinaryBuilder lines(columnar::Utf8());
  int64_t n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.Append(std::string_view(text).substr(start, end - start));
    ++n;
    start = end + 1;
  }
  columnar::RecordBatch batch;
  batch.schema = schema;
  batch.num_rows = n;
  batch.columns.push_back(*lines.Finish());
  result.batches.push_back(std::move(batch));
  return result;
}

}  // namespace

int64_t DefaultQueryMemoryBudget() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return int64_t{1} << 30;
  return static_cast<int64_t>(pages) * page / 4;
}

int64_t QueryResult::num_rows() const {
  int64_t n = 0;
  for (const auto& b : batches) n += b.num_rows;
  return n;
}

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      files_(options_.files ? options_.files : MakeLakeFiles(options_.s3)) {}

Session::~Session() = default;

void Session::Cancel() { cancelled_ = true; }

namespace {

// Collects a statement's result in memory, counting it against the budget.
class CollectingSink : public ResultSink {
 public:
  explicit CollectingSink(int64_t budget) : budget_(budget) {}
  Status Start(const std::vector<ResultColumn>& columns,
               const columnar::SchemaPtr& schema) override {
    result_.columns = columns;
    result_.schema = schema;
    return Status::Ok();
  }
  Status Batch(columnar::RecordBatch batch) override {
    held_ += BatchBytes(batch);
    if (held_ > budget_) {
      return SqlError(SqlErrorKind::kOutOfMemory, "the result exceeds the query memory budget (",
                      budget_, " bytes)");
    }
    result_.batches.push_back(std::move(batch));
    return Status::Ok();
  }
  QueryResult Take() { return std::move(result_); }

 private:
  int64_t budget_;
  int64_t held_ = 0;
  QueryResult result_;
};

Status SendText(ResultSink& sink, const std::string& column, const std::string& text) {
  QueryResult result = TextResult(column, text);
  HOGLAKE_RETURN_IF_ERROR(sink.Start(result.columns, result.schema));
  for (columnar::RecordBatch& b : result.batches) HOGLAKE_RETURN_IF_ERROR(sink.Batch(std::move(b)));
  return Status::Ok();
}

}  // namespace

Result<QueryResult> Session::Execute(std::string_view sql) {
  CollectingSink sink(options_.memory_budget_bytes);
  HOGLAKE_RETURN_IF_ERROR(Execute(sql, sink).status());
  return sink.Take();
}

Result<ExecutionStats> Session::Execute(std::string_view sql, ResultSink& sink) {
  cancelled_ = false;
  rows_scanned_so_far_ = 0;
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<ast::Statement> statements, ParseSql(sql));
  if (statements.empty()) {
    return SqlError(SqlErrorKind::kSyntaxError, "empty query: there is no statement to run");
  }
  if (statements.size() > 1) {
    return SqlError(SqlErrorKind::kFeatureNotSupported, "run one statement at a time (got ",
                    statements.size(), ")");
  }
  const ast::Statement& statement = statements[0];
  if (statement.kind == ast::StatementKind::kOther) {
    return SqlError(SqlErrorKind::kWrongObjectType, statement.other_tag,
                    " is not supported: hoglake SQL runs queries (SELECT, VALUES, WITH, EXPLAIN)");
  }

  ExecutionStats stats;
  auto make_context = [&]() {
    auto ctx = std::make_unique<ExecContext>();
    ctx->cancelled = &cancelled_;
    ctx->rows_scanned_so_far = &rows_scanned_so_far_;
    ctx->memory_budget_bytes = options_.memory_budget_bytes;
    ctx->stores = files_->stores.get();
    ctx->footers = files_->footers.get();
    ctx->threads = options_.threads;
    return ctx;
  };
  auto add_scanned = [&](const ExecContext& ctx) {
    stats.rows_scanned += ctx.rows_scanned.load();
    stats.bytes_scanned += ctx.bytes_scanned.load();
  };

  std::unique_ptr<SchemaListing> lake_listing;
  SchemaListing* listing = options_.listing;
  if (listing == nullptr && options_.tables != nullptr) {
    lake_listing = SchemaListingOver(options_.tables);
    listing = lake_listing.get();
  }
  BinderOptions binder_options;
  binder_options.tables = options_.tables;
  binder_options.listing = listing;
  binder_options.default_catalog = options_.default_catalog;
  binder_options.default_schema = options_.default_schema;
  binder_options.catalog_aliases = options_.catalog_aliases;
  binder_options.search_lake = options_.search_lake;
  binder_options.at = options_.at;
  binder_options.statement_time_micros = NowMicros();
  binder_options.run_plan =
      [&](const LogicalOpPtr& plan) -> Result<std::vector<std::vector<Value>>> {
    std::unique_ptr<ExecContext> ctx = make_context();
    FoldConstants(*plan);
    HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr pruned, PruneColumns(PushFiltersIntoScans(plan)));
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<PhysicalOperator> op, BuildOperator(*pruned, *ctx));
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<columnar::RecordBatch> batches, DrainAll(*op, *ctx));
    add_scanned(*ctx);
    std::vector<std::vector<Value>> rows;
    for (const columnar::RecordBatch& b : batches) {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        std::vector<Value> row;
        for (size_t c = 0; c < pruned->output.size(); ++c) {
          row.push_back(ValueAt(*b.columns[c], r, pruned->output[c].type));
        }
        rows.push_back(std::move(row));
      }
    }
    return rows;
  };
  QueryBinder binder(binder_options);
  HOGLAKE_ASSIGN_OR_RETURN(LogicalOpPtr plan, binder.BindQuery(*statement.query));
  FoldConstants(*plan);
  plan = PushFiltersIntoScans(plan);
  HOGLAKE_ASSIGN_OR_RETURN(plan, PruneColumns(plan));

  if (statement.kind == ast::StatementKind::kExplain && !statement.explain_analyze) {
    HOGLAKE_RETURN_IF_ERROR(SendText(sink, "QUERY PLAN", ExplainText(*plan)));
    return stats;
  }
  std::unique_ptr<ExecContext> ctx = make_context();
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<PhysicalOperator> op, BuildOperator(*plan, *ctx));
  if (statement.kind == ast::StatementKind::kExplain) {
    HOGLAKE_RETURN_IF_ERROR(DrainAll(*op, *ctx).status());
    add_scanned(*ctx);
    std::string text;
    op->Render(0, &text);
    HOGLAKE_RETURN_IF_ERROR(SendText(sink, "QUERY PLAN", text));
    return stats;
  }
  std::vector<ResultColumn> columns;
  for (const OutputColumn& c : plan->output) {
    SqlType type = c.type.id == SqlTypeId::kUnknown ? SqlType::Of(SqlTypeId::kText) : c.type;
    columns.push_back(ResultColumn{c.name, type});
  }
  columnar::SchemaPtr schema = OutputSchema(plan->output);
  HOGLAKE_RETURN_IF_ERROR(sink.Start(columns, schema));
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, op->Next());
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    batch->schema = schema;
    stats.rows += batch->num_rows;
    HOGLAKE_RETURN_IF_ERROR(sink.Batch(std::move(*batch)));
    HOGLAKE_RETURN_IF_ERROR(ctx->CheckCancelled());
  }
  add_scanned(*ctx);
  return stats;
}

}  // namespace hoglake::sql
