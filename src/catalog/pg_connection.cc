#include "catalog/pg_connection.h"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>

namespace hoglake::catalog {

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

Result<PgConnection> PgConnection::Open(const std::string& conninfo) {
  pg_conn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) return Unavailable("cannot allocate a PostgreSQL connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return Unavailable("cannot connect to PostgreSQL: ", message);
  }
  return PgConnection(conn);
}

bool PgConnection::broken() const { return !conn_ || PQstatus(conn_.get()) != CONNECTION_OK; }

Error PgConnection::ErrorFrom(pg_result* result, std::string_view sql) const {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_.get());
  while (!message.empty() && message.back() == '\n') message.pop_back();
  std::string_view sqlstate = state ? state : "";
  ErrorCode code = ErrorCode::kInternal;
  if (sqlstate == "55P03") {
    code = ErrorCode::kCommitQueueTimeout;
  } else if (sqlstate.starts_with("08") || broken()) {
    code = ErrorCode::kUnavailable;
  } else if (sqlstate == "23505") {
    code = ErrorCode::kAlreadyExists;
  }
  std::string_view head = sql.substr(0, 80);
  return MakeError(code, "PostgreSQL ", sqlstate.empty() ? "error" : sqlstate, ": ", message,
                   " (in: ", head, sql.size() > 80 ? "…" : "", ")");
}

Result<PgResult> PgConnection::Exec(std::string_view sql, const std::vector<PgParam>& params) {
  return ExecFormat(sql, params, 0);
}

Result<PgResult> PgConnection::ExecBinary(std::string_view sql,
                                          const std::vector<PgParam>& params) {
  return ExecFormat(sql, params, 1);
}

Result<PgResult> PgConnection::ExecFormat(std::string_view sql, const std::vector<PgParam>& params,
                                          int result_format) {
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

PgTransaction::~PgTransaction() {
  if (conn_ != nullptr && !conn_->broken()) (void)conn_->Exec("ROLLBACK");
}

Status PgTransaction::Commit() {
  PgConnection* conn = conn_;
  conn_ = nullptr;
  return conn->Exec("COMMIT").status();
}

}  // namespace hoglake::catalog
