// Status and Result<T>: how every fallible call in hoglake reports failure.
//
// A function that can fail for a reason its caller handles returns `Status`
// (no value) or `Result<T>` (a value or an error). An `Error` carries a closed
// `ErrorCode` plus a human message that names what was wrong ("IPC message
// length 4294967295 exceeds the 64 MiB limit", not "bad input"). The HTTP
// layer maps codes to statuses in one table; nothing else interprets them.
//
// Exceptions are not used for expected failures. Use the macros below to
// propagate: HOGLAKE_RETURN_IF_ERROR(status) and
// HOGLAKE_ASSIGN_OR_RETURN(lhs, result_expression).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace hoglake {

// The closed set of error codes: hoglake REST contract v1's wire codes
// (contract §1.5) followed by library-level codes that the HTTP layer folds
// into a wire code. ErrorCodeInfo() below is the one table that spells them
// (the HTTP status each API answers with is the server's: http_types.h);
// tests check every other spelling against it.
enum class ErrorCode {
  // ---- wire codes ----
  kBadRequest,              // 400 bad_request: unparseable or structurally malformed
  kNotFound,                // 404 not_found
  kAlreadyExists,           // 409 already_exists
  kCommitConflict,          // 409 commit_conflict: lost an optimistic-concurrency race
  kDdlSinceReadSnapshot,    // 409 ddl_since_read_snapshot
  kTableRecreated,          // 409 table_recreated
  kTableDropped,            // 409 table_dropped
  kOffsetRegression,        // 409 offset_regression
  kIdlessFilesPresent,      // 409 idless_files_present
  kNamespaceNotEmpty,       // 409 namespace_not_empty
  kReconciliationRequired,  // 409 reconciliation_required
  kExpired,                 // 410 expired: below the expiry floor
  kValidation,              // 422 validation: well-formed but semantically wrong
  kCorruptDefinition,       // 500 corrupt_definition
  kInternal,                // 500 internal_error: a broken invariant, a bug
  kNotImplemented,          // 501 not_implemented
  kCommitQueueTimeout,      // 503 commit_queue_timeout (with Retry-After: 1)
  kDatabaseUnavailable,     // 503 database_unavailable: the catalog database cannot be
                            // reached (with Retry-After: 1; detail is a fixed text)
  // ---- library codes (never on the wire as such) ----
  kInvalidArgument,  // a caller passed something malformed or out of range (→ 422)
  kInvalidData,      // bytes from a file/stream/peer are corrupt (→ 422)
  kIoError,          // the OS or a remote store failed (→ 500)
  kUnavailable,      // a dependency is down; retrying later may work (→ 503)
};

struct ErrorCodeInfo {
  ErrorCode code;
  std::string_view name;       // lower_snake_case spelling, e.g. "invalid_data"
  std::string_view wire_name;  // the contract's `error` string sent for it
};

// Every code, in declaration order.
const std::vector<ErrorCodeInfo>& AllErrorCodes();
const ErrorCodeInfo& InfoFor(ErrorCode code);
// The lower_snake_case spelling of a code, e.g. "invalid_data".
std::string_view ErrorCodeName(ErrorCode code);

// Structured facts about an error beyond its code and message, set where
// the error is made (a commit naming the tables whose DDL it lost to) and
// rendered by each API's error body in src/server; empty for most errors.
struct ErrorDetail {
  std::vector<std::string> tables;       // qualified "ns.table" names involved
  std::optional<int64_t> read_snapshot;  // the snapshot the request read at
  bool re_prepare = false;               // the client must re-read and prepare again
  // The SQL engine's classification of a failed statement, as PostgreSQL's
  // five-character SQLSTATE ("42P01" undefined table, "22012" division by
  // zero; src/sql/sql_error.h names them); empty outside SQL.
  std::string sqlstate;

  bool empty() const { return tables.empty() && !read_snapshot && !re_prepare && sqlstate.empty(); }
};

struct Error {
  ErrorCode code;
  std::string message;
  ErrorDetail detail = {};
  // The SDK's record of the other members a server's error body carried, as
  // JSON text without braces (e.g. "\"tables\":[\"ns.t\"],\"retry\":
  // \"re-prepare\""); the server never reads it. Usually empty.
  std::string wire_extra = {};

  // "invalid_data: IPC stream truncated in message body"
  std::string ToString() const;
};

// The outcome of an operation that returns no value.
class [[nodiscard]] Status {
 public:
  Status() = default;                                            // OK
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit by design

  static Status Ok() { return Status(); }

  bool ok() const { return ok_; }
  const Error& error() const { return error_; }
  std::string ToString() const { return ok_ ? "ok" : error_.ToString(); }

 private:
  Error error_{ErrorCode::kInternal, {}};
  bool ok_ = true;
};

// A value or the error that prevented computing it.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}                // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}            // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status.error())) {  // NOLINT
    if (status.ok()) std::abort();                             // a Result needs a value when ok
  }

  bool ok() const { return std::holds_alternative<T>(state_); }
  const Error& error() const { return std::get<Error>(state_); }
  Status status() const { return ok() ? Status() : Status(error()); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> state_;
};

inline std::string ToMessagePart(std::string_view s) { return std::string(s); }
inline std::string ToMessagePart(const std::string& s) { return s; }
inline std::string ToMessagePart(const char* s) { return s; }
inline std::string ToMessagePart(char c) { return std::string(1, c); }
template <typename N>
requires std::is_arithmetic_v<N> std::string ToMessagePart(N n) { return std::to_string(n); }

// Concatenates strings, characters and numbers: StrCat("offset ", 12).
template <typename... Parts>
std::string StrCat(const Parts&... parts) {
  std::string out;
  ((out += ToMessagePart(parts)), ...);
  return out;
}

// Builders for the common cases: InvalidData("offset ", i, " past end").
template <typename... Parts>
Error MakeError(ErrorCode code, const Parts&... parts) {
  return Error{code, StrCat(parts...)};
}

template <typename... P>
Error InvalidArgument(const P&... p) {
  return MakeError(ErrorCode::kInvalidArgument, p...);
}
template <typename... P>
Error InvalidData(const P&... p) {
  return MakeError(ErrorCode::kInvalidData, p...);
}
template <typename... P>
Error NotImplemented(const P&... p) {
  return MakeError(ErrorCode::kNotImplemented, p...);
}
template <typename... P>
Error IoError(const P&... p) {
  return MakeError(ErrorCode::kIoError, p...);
}
template <typename... P>
Error BadRequest(const P&... p) {
  return MakeError(ErrorCode::kBadRequest, p...);
}
template <typename... P>
Error Validation(const P&... p) {
  return MakeError(ErrorCode::kValidation, p...);
}
template <typename... P>
Error NotFound(const P&... p) {
  return MakeError(ErrorCode::kNotFound, p...);
}
template <typename... P>
Error AlreadyExists(const P&... p) {
  return MakeError(ErrorCode::kAlreadyExists, p...);
}
template <typename... P>
Error Unavailable(const P&... p) {
  return MakeError(ErrorCode::kUnavailable, p...);
}
template <typename... P>
Error DatabaseUnavailable(const P&... p) {
  return MakeError(ErrorCode::kDatabaseUnavailable, p...);
}
template <typename... P>
Error Internal(const P&... p) {
  return MakeError(ErrorCode::kInternal, p...);
}

}  // namespace hoglake

#define HOGLAKE_CONCAT_INNER(a, b) a##b
#define HOGLAKE_CONCAT(a, b) HOGLAKE_CONCAT_INNER(a, b)

// Returns the error of a Status/Result expression from the enclosing function.
#define HOGLAKE_RETURN_IF_ERROR(expr)                          \
  do {                                                         \
    auto&& hoglake_status_ = (expr);                           \
    if (!hoglake_status_.ok()) return hoglake_status_.error(); \
  } while (0)

// `lhs = value of result_expr`, or return its error.
#define HOGLAKE_ASSIGN_OR_RETURN(lhs, expr)                   \
  auto HOGLAKE_CONCAT(hoglake_result_, __LINE__) = (expr);    \
  if (!HOGLAKE_CONCAT(hoglake_result_, __LINE__).ok())        \
    return HOGLAKE_CONCAT(hoglake_result_, __LINE__).error(); \
  lhs = std::move(HOGLAKE_CONCAT(hoglake_result_, __LINE__)).value()
