#include "common/status.h"

namespace hoglake {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kInvalidData: return "invalid_data";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kAlreadyExists: return "already_exists";
    case ErrorCode::kConflict: return "conflict";
    case ErrorCode::kNotImplemented: return "not_implemented";
    case ErrorCode::kIoError: return "io_error";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

std::string Error::ToString() const {
  return std::string(ErrorCodeName(code)) + ": " + message;
}

}  // namespace hoglake
