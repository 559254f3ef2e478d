// A thin RAII wrapper over one libpq connection.
//
//   HOGLAKE_ASSIGN_OR_RETURN(PgConnection conn, PgConnection::Open(url));
//   HOGLAKE_ASSIGN_OR_RETURN(PgResult r, conn.Exec("SELECT $1::bigint + 1", {"41"}));
//   int64_t v = r.GetInt64(0, 0);
//
// Parameters and results travel in text form (ExecBinary: results in binary). Errors carry the
// server's message and are classified by SQLSTATE: lock_not_available (55P03) →
// kCommitQueueTimeout; a database that cannot be reached or is going away
// (08xxx, 57P01–57P03, a dead socket, and a failed Open) →
// kDatabaseUnavailable; unique_violation (23505) → kAlreadyExists;
// everything else → kInternal. A connection that failed that way reports
// broken() and should be discarded.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"

struct pg_conn;
struct pg_result;

namespace hoglake::pg {

using PgParam = std::optional<std::string>;  // nullopt = SQL NULL

// One statement of a pipeline (PgConnection::ExecPipeline): a constant text,
// prepared once per connection as ExecPrepared does, and its parameters.
// `fusable`: params[0] names what the statement works in (a catalog id) and
// every other parameter is an array literal (PgIntArray, PgTextArray), one
// element per row written, so statements with the same text and params[0]
// can run as one with those arrays concatenated (statement_fusion.h; such a
// statement must commute with the other statements of a batch).
struct PgStatement {
  std::string_view sql;
  std::vector<PgParam> params;
  bool fusable = false;
};

class PgResult {
 public:
  PgResult() = default;
  explicit PgResult(pg_result* result);

  int rows() const;
  int columns() const;
  bool IsNull(int row, int col) const;
  std::string_view GetText(int row, int col) const;
  std::string GetString(int row, int col) const { return std::string(GetText(row, col)); }
  int64_t GetInt64(int row, int col) const;
  bool GetBool(int row, int col) const { return GetText(row, col) == "t"; }
  std::optional<int64_t> GetOptionalInt64(int row, int col) const;
  std::optional<std::string> GetOptionalString(int row, int col) const;
  // Values of a result fetched with ExecBinary: bigint (int8) and integer
  // (int4) in PostgreSQL's binary (network-order) form; bytea and text are
  // their raw bytes through GetText.
  int64_t GetBinaryInt64(int row, int col) const;
  int32_t GetBinaryInt32(int row, int col) const;
  // Rows affected by INSERT/UPDATE/DELETE.
  int64_t affected_rows() const;

 private:
  std::shared_ptr<pg_result> result_;
};

class PgConnection {
 public:
  // Connects with a libpq connection string or postgresql:// URL, with
  // connect_timeout=10 and TCP keepalives (15 s idle, 5 s apart, 3 probes)
  // unless it sets them; failure is kDatabaseUnavailable. Notices go to the
  // log.
  static Result<PgConnection> Open(const std::string& conninfo);

  PgConnection(PgConnection&&) noexcept = default;
  PgConnection& operator=(PgConnection&&) noexcept = default;

  // Runs one statement with text parameters $1..$n.
  Result<PgResult> Exec(std::string_view sql, const std::vector<PgParam>& params = {});
  // The same, with every result column in binary form (read it with the
  // GetBinary* accessors): no text conversion on either side, bytea as raw
  // bytes. For large reads.
  Result<PgResult> ExecBinary(std::string_view sql, const std::vector<PgParam>& params = {});
  // As Exec, through a statement prepared once per connection and reused:
  // PostgreSQL parses and analyzes it once, and after a few executions may
  // keep a generic plan. For the small fixed statements a commit repeats;
  // `sql` must be a constant text (at most kMaxPreparedStatements distinct
  // texts are kept per connection; more start the cache afresh).
  Result<PgResult> ExecPrepared(std::string_view sql, const std::vector<PgParam>& params = {});
  static constexpr size_t kMaxPreparedStatements = 128;
  // Runs `statements` in order in ONE round trip (libpq pipeline mode), each
  // as ExecPrepared would, and returns their results in order — or the error
  // of the first that failed (PostgreSQL skips every statement after it).
  // Outside an explicit transaction the statements form one implicit
  // transaction: all of them or none. Results that arrive while the
  // statements are still being sent are buffered by libpq (it reads whenever
  // it waits to write), so a pipeline may be large both ways without
  // stalling (PgPipelineTest.LargeBothWaysDoesNotStall); every result is held
  // in memory until the call returns.
  Result<std::vector<PgResult>> ExecPipeline(const std::vector<PgStatement>& statements);
  // As ExecPipeline, keeping what ran before a failure.
  struct PipelineOutcome {
    std::vector<PgResult> results;  // one per statement; those after a failure are empty
    std::optional<Error> error;     // the first failure
    size_t failed_index = 0;        // its statement (statements.size(): not one statement's)
    // When statement `flush_after`'s result reached this process (unset
    // without one, or when the pipeline failed at or before it).
    std::optional<std::chrono::steady_clock::time_point> flushed_result_at;
  };
  // `flush_after`: PostgreSQL is asked to send the results up to that
  // statement as soon as it has run it, rather than with the rest at the
  // end, and the outcome tells when they arrived (the time a lock was
  // granted, say).
  PipelineOutcome RunPipeline(const std::vector<PgStatement>& statements,
                              std::optional<size_t> flush_after = std::nullopt);
  // Runs a script of several statements without parameters.
  Status ExecScript(std::string_view sql);
  // One statement in flight, so the caller can work while PostgreSQL runs
  // it: SendBinary sends `sql` (no parameters, binary results, as
  // ExecBinary) and returns at once; ConsumeInput moves whatever has
  // arrived into libpq's buffer without blocking (so the server is not
  // stalled on a full socket); ReceiveResult waits for and returns the
  // result. Between SendBinary and ReceiveResult only ConsumeInput may be
  // called on the connection; ReceiveResult must always follow (an
  // abandoned statement leaves the connection busy).
  Status SendBinary(std::string_view sql);
  void ConsumeInput();
  Result<PgResult> ReceiveResult();
  // True once the socket failed (or a pipeline left the connection in an
  // unknown state, or the server said it is going away); the pool drops
  // such connections.
  bool broken() const;
  // For an idle connection about to be reused: false when it is broken, when
  // the server has sent anything since (a restarted or crashed database
  // leaves its idle connections dead until they are used; each got a FATAL
  // error and end of file), or when it is not idle; a connection found so
  // is broken() from then on. Never blocks.
  bool Alive();

 private:
  explicit PgConnection(pg_conn* conn);
  Result<PgResult> ExecFormat(std::string_view sql, const std::vector<PgParam>& params,
                              int result_format);
  // Classifies a failure (see above); marks the connection broken when the
  // database is gone.
  Error ErrorFrom(pg_result* result, std::string_view sql);

  struct Closer {
    void operator()(pg_conn* conn) const;
  };
  std::unique_ptr<pg_conn, Closer> conn_;
  // Statement text → its prepared name on this connection.
  std::unordered_map<std::string, std::string> prepared_;
  std::string in_flight_;  // the statement SendBinary sent, for errors
  bool poisoned_ = false;  // a pipeline could not be completed
};

// Text of a PostgreSQL array literal for a text[] parameter: {"a",NULL,"b"}
// with quotes and backslashes escaped.
std::string PgTextArray(const std::vector<std::optional<std::string>>& values);
// {1,2,3} for a bigint[] / integer[] parameter.
std::string PgIntArray(const std::vector<int64_t>& values);
// {t,f} for a boolean[] parameter.
std::string PgBoolArray(const std::vector<bool>& values);

// BEGIN on construction, ROLLBACK on destruction unless Commit() succeeded.
class PgTransaction {
 public:
  static Result<PgTransaction> Begin(PgConnection& conn);
  // BEGIN and then `statements`, in one round trip (ExecPipeline); their
  // results go to `*results`. When one fails the transaction is rolled back
  // and its error returned.
  static Result<PgTransaction> Begin(PgConnection& conn, const std::vector<PgStatement>& statements,
                                     std::vector<PgResult>* results);
  // Adopts a transaction the caller began itself (BEGIN sent in a pipeline):
  // rolled back on destruction unless committed.
  static PgTransaction Begun(PgConnection& conn) { return PgTransaction(&conn); }
  PgTransaction(PgTransaction&& other) noexcept : conn_(other.conn_) { other.conn_ = nullptr; }
  PgTransaction& operator=(PgTransaction&&) = delete;
  ~PgTransaction();

  Status Commit();
  // `statements` and then COMMIT, in one round trip. When a statement fails
  // nothing is committed: the transaction is rolled back and its error
  // returned.
  Status Commit(const std::vector<PgStatement>& statements);
  // For a caller that sent COMMIT itself (in a pipeline) and saw it succeed:
  // there is nothing left to roll back.
  void Committed() { conn_ = nullptr; }

 private:
  explicit PgTransaction(PgConnection* conn) : conn_(conn) {}
  PgConnection* conn_;
};

}  // namespace hoglake::pg
