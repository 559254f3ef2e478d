#include "common/audit.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "common/clock.h"
#include "common/json_writer.h"

namespace hoglake {

namespace {

struct AuditSink {
  std::mutex mutex;
  bool configured = false;
  bool enabled = true;
  int fd = STDERR_FILENO;  // owned when != STDERR_FILENO
};

AuditSink& Sink() {
  static AuditSink sink;
  return sink;
}

void ConfigureLocked(AuditSink& sink, std::string_view value) {
  if (sink.fd != STDERR_FILENO) ::close(sink.fd);
  sink.fd = STDERR_FILENO;
  sink.enabled = true;
  sink.configured = true;
  if (value == "off") {
    sink.enabled = false;
  } else if (!value.empty() && value != "-") {
    const int fd =
        ::open(std::string(value).c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (fd >= 0) {
      sink.fd = fd;
    } else {
      // Stay on standard error rather than lose the audit trail.
      const std::string warning = StrCat("hoglake.audit: cannot open audit log '", value,
                                         "'; writing audit lines to standard error\n");
      (void)!::write(STDERR_FILENO, warning.data(), warning.size());
    }
  }
}

thread_local std::string current_request_id;

}  // namespace

std::string_view AuditOutcomeName(AuditOutcome outcome) {
  switch (outcome) {
    case AuditOutcome::kSuccess:
      return "success";
    case AuditOutcome::kConflict:
      return "conflict";
    case AuditOutcome::kDdlSinceReadSnapshot:
      return "ddl_since_read_snapshot";
    case AuditOutcome::kTableRecreated:
      return "table_recreated";
    case AuditOutcome::kRegression:
      return "regression";
    case AuditOutcome::kTimeout:
      return "timeout";
    case AuditOutcome::kValidation:
      return "validation";
    case AuditOutcome::kNotFound:
      return "not_found";
    case AuditOutcome::kInvariantViolation:
      return "invariant_violation";
    case AuditOutcome::kError:
      return "error";
  }
  return "error";
}

AuditOutcome AuditOutcomeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kAlreadyExists:
    case ErrorCode::kCommitConflict:
    case ErrorCode::kTableDropped:
    case ErrorCode::kIdlessFilesPresent:
    case ErrorCode::kNamespaceNotEmpty:
    case ErrorCode::kReconciliationRequired:
      return AuditOutcome::kConflict;
    case ErrorCode::kDdlSinceReadSnapshot:
      return AuditOutcome::kDdlSinceReadSnapshot;
    case ErrorCode::kTableRecreated:
      return AuditOutcome::kTableRecreated;
    case ErrorCode::kOffsetRegression:
      return AuditOutcome::kRegression;
    case ErrorCode::kCommitQueueTimeout:
      return AuditOutcome::kTimeout;
    case ErrorCode::kBadRequest:
    case ErrorCode::kValidation:
    case ErrorCode::kExpired:
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kInvalidData:
      return AuditOutcome::kValidation;
    case ErrorCode::kNotFound:
      return AuditOutcome::kNotFound;
    case ErrorCode::kCorruptDefinition:
    case ErrorCode::kInternal:
    case ErrorCode::kNotImplemented:
    case ErrorCode::kIoError:
    case ErrorCode::kUnavailable:
    case ErrorCode::kDatabaseUnavailable:
      return AuditOutcome::kError;
  }
  return AuditOutcome::kError;
}

std::string FormatAuditLine(const AuditEvent& event, int64_t micros) {
  JsonWriter w;
  w.BeginObject();
  w.Field("ts", std::string_view(FormatInstant(micros)));
  w.Field("logger", "hoglake.audit");
  w.Field("action", std::string_view(event.action));
  w.Field("actor", "anonymous");
  w.Field("outcome", AuditOutcomeName(event.outcome));
  if (!event.catalog.empty()) w.Field("catalog", std::string_view(event.catalog));
  if (!event.object.empty()) w.Field("object", std::string_view(event.object));
  if (!event.detail.empty()) {
    w.Key("detail");
    w.Raw(event.detail);
  }
  const std::string& request_id =
      event.request_id.empty() ? ScopedRequestId::Current() : event.request_id;
  if (!request_id.empty()) w.Field("request_id", std::string_view(request_id));
  w.EndObject();
  return w.Take();
}

void EmitAudit(const AuditEvent& event) {
  AuditSink& sink = Sink();
  std::string line;
  {
    std::lock_guard lock(sink.mutex);
    if (!sink.configured) ConfigureLocked(sink, "");
    if (!sink.enabled) return;
  }
  line = FormatAuditLine(event, NowMicros());
  line += '\n';
  std::lock_guard lock(sink.mutex);
  (void)!::write(sink.fd, line.data(), line.size());
}

void ConfigureAuditSink(std::string_view target) {
  AuditSink& sink = Sink();
  std::lock_guard lock(sink.mutex);
  ConfigureLocked(sink, target);
}

ScopedRequestId::ScopedRequestId(std::string id) : previous_(std::move(current_request_id)) {
  current_request_id = std::move(id);
}

ScopedRequestId::~ScopedRequestId() { current_request_id = std::move(previous_); }

const std::string& ScopedRequestId::Current() { return current_request_id; }

}  // namespace hoglake
