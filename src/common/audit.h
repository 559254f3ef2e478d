// The audit log: one JSON line per consequential action — a mutation
// answered over HTTP, a maintenance run that did work — on the logger
// "hoglake.audit":
//
//   {"ts":"2026-11-30T12:00:00.123456Z","logger":"hoglake.audit",
//    "action":"commit","actor":"anonymous","outcome":"success",
//    "catalog":"lake","object":"web.events","detail":{"snapshot_id":12},
//    "request_id":"abc"}
//
// `catalog`, `object`, `detail` and `request_id` are omitted when empty.
// Auditing never rides a database transaction and never writes to a
// database; a line is emitted after the action resolved.
//
// Sink (ConfigureAuditSink; `hoglake serve` passes HOGLAKE_AUDIT_LOG): a
// file to append to; empty or "-" means standard error (beside the process log); "off" disables it.
// A line is written with one write(2) of the whole line (O_APPEND), so lines from several threads
// or processes never interleave. Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace hoglake {

// The outcome vocabulary. Failures name why: conflict (already exists,
// commit conflict, table dropped), ddl_since_read_snapshot,
// table_recreated, regression (offset), timeout (commit queue), validation
// (400/422), not_found, invariant_violation (cleanup found a referenced
// path), error (anything else).
enum class AuditOutcome {
  kSuccess,
  kConflict,
  kDdlSinceReadSnapshot,
  kTableRecreated,
  kRegression,
  kTimeout,
  kValidation,
  kNotFound,
  kInvariantViolation,
  kError,
};

std::string_view AuditOutcomeName(AuditOutcome outcome);

// The outcome of a request refused with `code`.
AuditOutcome AuditOutcomeFor(ErrorCode code);

struct AuditEvent {
  std::string action;  // "commit", "table_create", "expiry", …
  AuditOutcome outcome = AuditOutcome::kSuccess;
  std::string catalog;
  std::string object;      // "ns", "ns.table", a view, a consumer, a path
  std::string detail;      // one JSON value (already encoded), or empty
  std::string request_id;  // empty: the calling thread's ScopedRequestId
};

// The line for `event` at `micros` since the epoch, without the newline.
std::string FormatAuditLine(const AuditEvent& event, int64_t micros);

// Writes `event` to the sink (see above), stamped now.
void EmitAudit(const AuditEvent& event);

// Points the sink at `target` (see above: a file, "-" or "" for standard
// error, "off"); until called, audit lines go to standard error.
void ConfigureAuditSink(std::string_view target);

// The request id of the HTTP request this thread is serving, if any
// (X-Request-Id); audit events emitted while it is alive carry it.
class ScopedRequestId {
 public:
  explicit ScopedRequestId(std::string id);
  ~ScopedRequestId();
  ScopedRequestId(const ScopedRequestId&) = delete;
  ScopedRequestId& operator=(const ScopedRequestId&) = delete;

  static const std::string& Current();

 private:
  std::string previous_;
};

}  // namespace hoglake
