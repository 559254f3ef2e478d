#include "pg/pg_connection.h"

#include <libpq-fe.h>
#include <poll.h>

#include <charconv>
#include <cstring>
#include <iterator>
#include <optional>

#include "common/log.h"

namespace hoglake::pg {

PgResult::PgResult(pg_result* result) : result_(result, &PQclear) {}

int PgResult::rows() const { return result_ ? PQntuples(result_.get()) : 0; }
int PgResult::columns() const { return result_ ? PQnfields(result_.get()) : 0; }
bool PgResult::IsNull(int row, int col) const { return PQgetisnull(result_.get(), row, col); }

std::string_view PgResult::GetText(int row, int col) const {
  return std::string_view(PQgetvalue(result_.get(), row, col),
                          static_cast<size_t>(PQgetlength(result_.get(), row, col)));
}

int64_t PgResult::GetInt64(int row, int col) const {
  std::string_view text = GetText(row, col);
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

int64_t PgResult::GetBinaryInt64(int row, int col) const {
  const auto* p = reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row, col));
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return static_cast<int64_t>(v);
}

int32_t PgResult::GetBinaryInt32(int row, int col) const {
  const auto* p = reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row, col));
  return static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) |
                              (uint32_t{p[2]} << 8) | uint32_t{p[3]});
}

std::optional<int64_t> PgResult::GetOptionalInt64(int row, int col) const {
  if (IsNull(row, col)) return std::nullopt;
  return GetInt64(row, col);
}

std::optional<std::string> PgResult::GetOptionalString(int row, int col) const {
  if (IsNull(row, col)) return std::nullopt;
  return GetString(row, col);
}

int64_t PgResult::affected_rows() const {
  const char* text = PQcmdTuples(result_.get());
  int64_t value = 0;
  std::from_chars(text, text + std::strlen(text), value);
  return value;
}

void PgConnection::Closer::operator()(pg_conn* conn) const { PQfinish(conn); }

PgConnection::PgConnection(pg_conn* conn) : conn_(conn) {}

namespace {

// Notices and the errors a server sends outside a query ("terminating
// connection due to unexpected postmaster exit") go to our log, not raw to
// standard error.
void LogNotice(void* /*arg*/, const char* message) {
  std::string_view text(message);
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (text.starts_with("NOTICE") || text.starts_with("INFO") || text.starts_with("LOG") ||
      text.starts_with("DEBUG")) {
    LogInfo("PostgreSQL: ", text);
  } else {
    LogWarn("PostgreSQL: ", text);
  }
}

}  // namespace

Result<PgConnection> PgConnection::Open(const std::string& conninfo) {
  // Defaults that `conninfo` may override (they come before it): a database
  // that does not answer fails the attempt within 10 s, and a TCP peer that
  // vanished mid-query is noticed within about half a minute rather than
  // the system's two hours. Unix sockets ignore the keepalives.
  const char* keywords[] = {"connect_timeout",  "keepalives_idle", "keepalives_interval",
                            "keepalives_count", "dbname",          nullptr};
  const char* values[] = {"10", "15", "5", "3", conninfo.c_str(), nullptr};
  pg_conn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) return DatabaseUnavailable("cannot allocate a PostgreSQL connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return DatabaseUnavailable("cannot connect to PostgreSQL: ", message);
  }
  PQsetNoticeProcessor(conn, &LogNotice, nullptr);
  return PgConnection(conn);
}

bool PgConnection::broken() const {
  return poisoned_ || !conn_ || PQstatus(conn_.get()) != CONNECTION_OK;
}

bool PgConnection::Alive() {
  if (broken()) return false;
  // An idle connection has nothing to read: anything readable is the
  // server's goodbye (a FATAL error, then end of file: it was shut down,
  // crashed, or its postmaster died) or something unasked for. Either way
  // the connection is not worth keeping; a fresh one costs little.
  pollfd fd{PQsocket(conn_.get()), POLLIN, 0};
  if (fd.fd < 0 || poll(&fd, 1, 0) != 0) {
    poisoned_ = true;
    return false;
  }
  return PQtransactionStatus(conn_.get()) == PQTRANS_IDLE;
}

namespace {

// SQLSTATEs of a server that is going away or not yet accepting work:
// connection exceptions (class 08), admin_shutdown (57P01, which is also
// how a backend reports that its postmaster died), crash_shutdown (57P02)
// and cannot_connect_now (57P03, starting up or in recovery).
bool DatabaseGone(std::string_view sqlstate) {
  return sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" ||
         sqlstate == "57P03";
}

}  // namespace

Error PgConnection::ErrorFrom(pg_result* result, std::string_view sql) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_.get());
  while (!message.empty() && message.back() == '\n') message.pop_back();
  std::string_view sqlstate = state ? state : "";
  ErrorCode code = ErrorCode::kInternal;
  if (sqlstate == "55P03") {
    code = ErrorCode::kCommitQueueTimeout;
  } else if (DatabaseGone(sqlstate) || broken()) {
    code = ErrorCode::kDatabaseUnavailable;
    poisoned_ = true;  // whatever the socket says, this session is over
  } else if (sqlstate == "23505") {
    code = ErrorCode::kAlreadyExists;
  } else if (sqlstate == "22003") {
    // numeric_value_out_of_range: a client's numbers (sizes, counts) summed
    // past what the catalog's bigint columns hold. The client is told that,
    // not our SQL.
    return MakeError(ErrorCode::kValidation,
                     "the sizes or counts in this request would take a stored total (a table's "
                     "file_size_bytes or record count) past 2^63 - 1");
  }
  std::string_view head = sql.substr(0, 80);
  return MakeError(code, "PostgreSQL ", sqlstate.empty() ? "error" : sqlstate, ": ", message,
                   " (in: ", head, sql.size() > 80 ? "…" : "", ")");
}

Result<PgResult> PgConnection::Exec(std::string_view sql, const std::vector<PgParam>& params) {
  return ExecFormat(sql, params, 0);
}

namespace {
// A text parameter is sent as a C string, so a NUL would silently cut it
// short (a name "t\0junk" would address "t"): refused instead. The HTTP
// edge refuses such text first, naming the field; this is the backstop.
Status CheckNoNulParams(const std::vector<PgParam>& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] && params[i]->find('\0') != std::string::npos) {
      return InvalidArgument("text with a NUL character cannot be stored (parameter $", i + 1,
                             ")");
    }
  }
  return Status::Ok();
}
}  // namespace

Result<PgResult> PgConnection::ExecBinary(std::string_view sql,
                                          const std::vector<PgParam>& params) {
  return ExecFormat(sql, params, 1);
}

Result<PgResult> PgConnection::ExecFormat(std::string_view sql, const std::vector<PgParam>& params,
                                          int result_format) {
  HOGLAKE_RETURN_IF_ERROR(CheckNoNulParams(params));
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const PgParam& p : params) values.push_back(p ? p->c_str() : nullptr);
  const std::string statement(sql);
  pg_result* raw = PQexecParams(conn_.get(), statement.c_str(), static_cast<int>(params.size()),
                                nullptr, values.data(), nullptr, nullptr, result_format);
  PgResult result(raw);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return ErrorFrom(raw, sql);
  return result;
}

Result<PgResult> PgConnection::ExecPrepared(std::string_view sql,
                                            const std::vector<PgParam>& params) {
  HOGLAKE_RETURN_IF_ERROR(CheckNoNulParams(params));
  std::string statement(sql);
  auto it = prepared_.find(statement);
  if (it == prepared_.end()) {
    if (prepared_.size() >= kMaxPreparedStatements) {
      HOGLAKE_RETURN_IF_ERROR(ExecScript("DEALLOCATE ALL"));
      prepared_.clear();
    }
    std::string name = "hog_" + std::to_string(prepared_.size() + 1);
    pg_result* raw = PQprepare(conn_.get(), name.c_str(), statement.c_str(),
                               static_cast<int>(params.size()), nullptr);
    PgResult prepared(raw);
    const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK) return ErrorFrom(raw, sql);
    it = prepared_.emplace(std::move(statement), std::move(name)).first;
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const PgParam& p : params) values.push_back(p ? p->c_str() : nullptr);
  pg_result* raw = PQexecPrepared(conn_.get(), it->second.c_str(), static_cast<int>(params.size()),
                                  values.data(), nullptr, nullptr, 0);
  PgResult result(raw);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return ErrorFrom(raw, sql);
  return result;
}

Result<std::vector<PgResult>> PgConnection::ExecPipeline(
    const std::vector<PgStatement>& statements) {
  PipelineOutcome outcome = RunPipeline(statements);
  if (outcome.error) return *outcome.error;
  return std::move(outcome.results);
}

PgConnection::PipelineOutcome PgConnection::RunPipeline(const std::vector<PgStatement>& statements,
                                                        std::optional<size_t> flush_after) {
  PipelineOutcome outcome;
  outcome.results.resize(statements.size());
  outcome.failed_index = statements.size();
  std::vector<PgResult>& results = outcome.results;
  size_t& failed_at = outcome.failed_index;
  std::optional<Error>& failed = outcome.error;
  const auto fail = [&](Error error) {
    failed = std::move(error);
    return std::move(outcome);
  };
  if (statements.empty()) return outcome;
  for (size_t i = 0; i < statements.size(); ++i) {
    if (Status clean = CheckNoNulParams(statements[i].params); !clean.ok()) {
      failed_at = i;
      return fail(clean.error());
    }
  }
  // Texts this pipeline prepares (each once), named after the ones kept.
  std::unordered_map<std::string, std::string> fresh;
  for (const PgStatement& s : statements) {
    std::string text(s.sql);
    if (!prepared_.contains(text)) fresh.emplace(std::move(text), std::string());
  }
  if (prepared_.size() + fresh.size() > kMaxPreparedStatements) {
    if (Status st = ExecScript("DEALLOCATE ALL"); !st.ok()) return fail(st.error());
    prepared_.clear();
    for (const PgStatement& s : statements) fresh.emplace(std::string(s.sql), std::string());
  }
  pg_conn* conn = conn_.get();
  if (PQenterPipelineMode(conn) != 1) return fail(ErrorFrom(nullptr, statements[0].sql));
  // What was sent, in order: a Parse (prepare) of a fresh text, or an
  // execution of statement `index`.
  struct Sent {
    size_t index;
    bool prepare;
    std::string name;
  };
  std::vector<Sent> sent;
  size_t next_name = prepared_.size();
  bool sending = true;
  for (size_t i = 0; i < statements.size() && sending; ++i) {
    const PgStatement& s = statements[i];
    const std::string text(s.sql);
    std::string name;
    if (auto kept = prepared_.find(text); kept != prepared_.end()) {
      name = kept->second;
    } else {
      std::string& pending = fresh.at(text);
      if (pending.empty()) {
        pending = "hog_" + std::to_string(++next_name);
        sending = PQsendPrepare(conn, pending.c_str(), text.c_str(),
                                static_cast<int>(s.params.size()), nullptr) == 1;
        if (sending) sent.push_back({i, true, pending});
      }
      name = pending;
    }
    if (!sending) break;
    std::vector<const char*> values;
    values.reserve(s.params.size());
    for (const PgParam& p : s.params) values.push_back(p ? p->c_str() : nullptr);
    sending = PQsendQueryPrepared(conn, name.c_str(), static_cast<int>(s.params.size()),
                                  values.data(), nullptr, nullptr, 0) == 1;
    if (sending) sent.push_back({i, false, name});
    // Ask for this statement's results now, and send what is buffered so
    // PostgreSQL starts on it while the rest is built.
    if (sending && flush_after == i) sending = PQsendFlushRequest(conn) == 1 && PQflush(conn) == 0;
  }
  if (!sending || PQpipelineSync(conn) != 1) {
    // Without the sync the results cannot be read to a known end.
    poisoned_ = true;
    return fail(ErrorFrom(nullptr, statements[0].sql));
  }
  for (const Sent& s : sent) {
    std::string_view sql = statements[s.index].sql;
    pg_result* raw = PQgetResult(conn);
    PgResult owned(raw);
    if (raw == nullptr || PQgetResult(conn) != nullptr) {  // each result ends with a nullptr
      poisoned_ = true;
      failed_at = statements.size();
      return fail(ErrorFrom(nullptr, sql));
    }
    const ExecStatusType status = PQresultStatus(raw);
    if (status == PGRES_PIPELINE_ABORTED) continue;  // skipped after the failure
    if (s.prepare) {
      if (status == PGRES_COMMAND_OK) {
        prepared_.emplace(std::string(sql), s.name);
      } else if (!failed) {
        failed = ErrorFrom(raw, sql);
        failed_at = s.index;
      }
      continue;
    }
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      if (!failed) {
        failed = ErrorFrom(raw, sql);
        failed_at = s.index;
      }
      continue;
    }
    if (flush_after == s.index) outcome.flushed_result_at = std::chrono::steady_clock::now();
    results[s.index] = std::move(owned);
  }
  pg_result* sync = PQgetResult(conn);
  if (sync == nullptr || PQresultStatus(sync) != PGRES_PIPELINE_SYNC) poisoned_ = true;
  PgResult sync_owner(sync);
  if (PQexitPipelineMode(conn) != 1) poisoned_ = true;
  if (!failed && poisoned_) return fail(ErrorFrom(nullptr, statements[0].sql));
  return outcome;
}

Status PgConnection::SendBinary(std::string_view sql) {
  in_flight_ = std::string(sql);
  if (PQsendQueryParams(conn_.get(), in_flight_.c_str(), 0, nullptr, nullptr, nullptr, nullptr,
                        1) != 1) {
    return ErrorFrom(nullptr, sql);
  }
  return Status::Ok();
}

void PgConnection::ConsumeInput() { PQconsumeInput(conn_.get()); }

Result<PgResult> PgConnection::ReceiveResult() {
  // The first result is the statement's; read on to the end (nullptr) so
  // the connection is idle again.
  pg_result* raw = PQgetResult(conn_.get());
  PgResult result(raw);
  while (pg_result* extra = PQgetResult(conn_.get())) PQclear(extra);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return ErrorFrom(raw, in_flight_);
  return result;
}

Status PgConnection::ExecScript(std::string_view sql) {
  const std::string script(sql);
  pg_result* raw = PQexec(conn_.get(), script.c_str());
  PgResult result(raw);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return ErrorFrom(raw, sql);
  return Status::Ok();
}

std::string PgTextArray(const std::vector<std::optional<std::string>>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    if (!values[i]) {
      out += "NULL";
      continue;
    }
    out += '"';
    for (char c : *values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

std::string PgIntArray(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

std::string PgBoolArray(const std::vector<bool>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += values[i] ? 't' : 'f';
  }
  return out + "}";
}

Result<PgTransaction> PgTransaction::Begin(PgConnection& conn) {
  HOGLAKE_RETURN_IF_ERROR(conn.Exec("BEGIN"));
  return PgTransaction(&conn);
}

Result<PgTransaction> PgTransaction::Begin(PgConnection& conn,
                                           const std::vector<PgStatement>& statements,
                                           std::vector<PgResult>* results) {
  std::vector<PgStatement> all;
  all.reserve(statements.size() + 1);
  all.push_back({"BEGIN", {}});
  all.insert(all.end(), statements.begin(), statements.end());
  PgTransaction txn(&conn);  // rolls back if a statement fails
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<PgResult> out, conn.ExecPipeline(all));
  results->assign(std::make_move_iterator(out.begin() + 1), std::make_move_iterator(out.end()));
  return txn;
}

PgTransaction::~PgTransaction() {
  if (conn_ != nullptr && !conn_->broken()) (void)conn_->Exec("ROLLBACK");
}

Status PgTransaction::Commit() {
  PgConnection* conn = conn_;
  conn_ = nullptr;
  return conn->Exec("COMMIT").status();
}

Status PgTransaction::Commit(const std::vector<PgStatement>& statements) {
  std::vector<PgStatement> all = statements;
  all.push_back({"COMMIT", {}});
  PgConnection* conn = conn_;
  Result<std::vector<PgResult>> done = conn->ExecPipeline(all);
  conn_ = nullptr;
  // A statement that failed left the transaction open (COMMIT was skipped).
  if (!done.ok() && !conn->broken()) (void)conn->Exec("ROLLBACK");
  return done.status();
}

}  // namespace hoglake::pg
