#include "common/status.h"

namespace hoglake {

const std::vector<ErrorCodeInfo>& AllErrorCodes() {
  static const std::vector<ErrorCodeInfo> kCodes = {
      {ErrorCode::kBadRequest, "bad_request", "bad_request"},
      {ErrorCode::kNotFound, "not_found", "not_found"},
      {ErrorCode::kAlreadyExists, "already_exists", "already_exists"},
      {ErrorCode::kCommitConflict, "commit_conflict", "commit_conflict"},
      {ErrorCode::kDdlSinceReadSnapshot, "ddl_since_read_snapshot", "ddl_since_read_snapshot"},
      {ErrorCode::kTableRecreated, "table_recreated", "table_recreated"},
      {ErrorCode::kTableDropped, "table_dropped", "table_dropped"},
      {ErrorCode::kOffsetRegression, "offset_regression", "offset_regression"},
      {ErrorCode::kIdlessFilesPresent, "idless_files_present", "idless_files_present"},
      {ErrorCode::kNamespaceNotEmpty, "namespace_not_empty", "namespace_not_empty"},
      {ErrorCode::kReconciliationRequired, "reconciliation_required", "reconciliation_required"},
      {ErrorCode::kExpired, "expired", "expired"},
      {ErrorCode::kValidation, "validation", "validation"},
      {ErrorCode::kCorruptDefinition, "corrupt_definition", "corrupt_definition"},
      {ErrorCode::kInternal, "internal_error", "internal_error"},
      {ErrorCode::kNotImplemented, "not_implemented", "not_implemented"},
      {ErrorCode::kCommitQueueTimeout, "commit_queue_timeout", "commit_queue_timeout"},
      {ErrorCode::kDatabaseUnavailable, "database_unavailable", "database_unavailable"},
      {ErrorCode::kInvalidArgument, "invalid_argument", "validation"},
      {ErrorCode::kInvalidData, "invalid_data", "validation"},
      {ErrorCode::kIoError, "io_error", "internal_error"},
      {ErrorCode::kUnavailable, "unavailable", "internal_error"},
  };
  return kCodes;
}

const ErrorCodeInfo& InfoFor(ErrorCode code) { return AllErrorCodes()[static_cast<size_t>(code)]; }

std::string_view ErrorCodeName(ErrorCode code) { return InfoFor(code).name; }

std::string Error::ToString() const { return std::string(ErrorCodeName(code)) + ": " + message; }

}  // namespace hoglake
