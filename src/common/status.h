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
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace hoglake {

// The closed set of error categories. Stable: tests check every spelling.
enum class ErrorCode {
  kInvalidArgument,  // the caller passed something malformed or out of range
  kInvalidData,      // bytes read from a file/stream/peer are corrupt or inconsistent
  kNotFound,         // a named thing does not exist
  kAlreadyExists,    // a named thing exists already
  kConflict,         // the state moved underneath the request
  kNotImplemented,   // a valid request for a feature we do not have yet
  kIoError,          // the operating system or a remote store failed
  kUnavailable,      // a dependency is down; retrying later may work
  kInternal,         // a broken invariant: a bug in hoglake
};

// The lower_snake_case spelling of a code, e.g. "invalid_data".
std::string_view ErrorCodeName(ErrorCode code);

struct Error {
  ErrorCode code;
  std::string message;

  // "invalid_data: IPC stream truncated in message body"
  std::string ToString() const;
};

// The outcome of an operation that returns no value.
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
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
  Result(T value) : state_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}      // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status.error())) {  // NOLINT
    if (status.ok()) std::abort();  // a Result needs a value when ok
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
  requires std::is_arithmetic_v<N>
std::string ToMessagePart(N n) {
  return std::to_string(n);
}

// Builders for the common cases: InvalidData("offset ", i, " past end").
template <typename... Parts>
Error MakeError(ErrorCode code, const Parts&... parts) {
  std::string message;
  ((message += ToMessagePart(parts)), ...);
  return Error{code, std::move(message)};
}

template <typename... P>
Error InvalidArgument(const P&... p) { return MakeError(ErrorCode::kInvalidArgument, p...); }
template <typename... P>
Error InvalidData(const P&... p) { return MakeError(ErrorCode::kInvalidData, p...); }
template <typename... P>
Error NotImplemented(const P&... p) { return MakeError(ErrorCode::kNotImplemented, p...); }
template <typename... P>
Error IoError(const P&... p) { return MakeError(ErrorCode::kIoError, p...); }
template <typename... P>
Error Internal(const P&... p) { return MakeError(ErrorCode::kInternal, p...); }

}  // namespace hoglake

#define HOGLAKE_CONCAT_INNER(a, b) a##b
#define HOGLAKE_CONCAT(a, b) HOGLAKE_CONCAT_INNER(a, b)

// Returns the error of a Status/Result expression from the enclosing function.
#define HOGLAKE_RETURN_IF_ERROR(expr)                      \
  do {                                                     \
    auto&& hoglake_status_ = (expr);                       \
    if (!hoglake_status_.ok()) return hoglake_status_.error(); \
  } while (0)

// `lhs = value of result_expr`, or return its error.
#define HOGLAKE_ASSIGN_OR_RETURN(lhs, expr)                                       \
  auto HOGLAKE_CONCAT(hoglake_result_, __LINE__) = (expr);                        \
  if (!HOGLAKE_CONCAT(hoglake_result_, __LINE__).ok())                            \
    return HOGLAKE_CONCAT(hoglake_result_, __LINE__).error();                     \
  lhs = std::move(HOGLAKE_CONCAT(hoglake_result_, __LINE__)).value()
