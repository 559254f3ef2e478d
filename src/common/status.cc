#include "common/status.h"

namespace hoglake {

const std::vector<ErrorCodeInfo>& AllErrorCodes() {
  static const std::vector<ErrorCodeInfo> kCodes = {
      {ErrorCode::kBadRequest, "bad_request", 400, "bad_request"},
      {ErrorCode::kNotFound, "not_found", 404, "not_found"},
      {ErrorCode::kAlreadyExists, "already_exists", 409, "already_exists"},
      {ErrorCode::kCommitConflict, "commit_conflict", 409, "commit_conflict"},
      {ErrorCode::kDdlSinceReadSnapshot, "ddl_since_read_snapshot", 409, "ddl_since_read_snapshot"},
      {ErrorCode::kTableRecreated, "table_recreated", 409, "table_recreated"},
      {ErrorCode::kTableDropped, "table_dropped", 409, "table_dropped"},
      {ErrorCode::kOffsetRegression, "offset_regression", 409, "offset_regression"},
      {ErrorCode::kIdlessFilesPresent, "idless_files_present", 409, "idless_files_present"},
      {ErrorCode::kNamespaceNotEmpty, "namespace_not_empty", 409, "namespace_not_empty"},
      {ErrorCode::kReconciliationRequired, "reconciliation_required", 409,
       "reconciliation_required"},
      {ErrorCode::kExpired, "expired", 410, "expired"},
      {ErrorCode::kValidation, "validation", 422, "validation"},
      {ErrorCode::kCorruptDefinition, "corrupt_definition", 500, "corrupt_definition"},
      {ErrorCode::kInternal, "internal_error", 500, "internal_error"},
      {ErrorCode::kNotImplemented, "not_implemented", 501, "not_implemented"},
      {ErrorCode::kCommitQueueTimeout, "commit_queue_timeout", 503, "commit_queue_timeout"},
      {ErrorCode::kDatabaseUnavailable, "database_unavailable", 503, "database_unavailable"},
      {ErrorCode::kInvalidArgument, "invalid_argument", 422, "validation"},
      {ErrorCode::kInvalidData, "invalid_data", 422, "validation"},
      {ErrorCode::kIoError, "io_error", 500, "internal_error"},
      {ErrorCode::kUnavailable, "unavailable", 503, "internal_error"},
  };
  return kCodes;
}

const ErrorCodeInfo& InfoFor(ErrorCode code) { return AllErrorCodes()[static_cast<size_t>(code)]; }

std::string_view ErrorCodeName(ErrorCode code) { return InfoFor(code).name; }

std::string Error::ToString() const { return std::string(ErrorCodeName(code)) + ": " + message; }

}  // namespace hoglake
