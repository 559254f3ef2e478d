#include "sql/sql_error.h"

namespace hoglake::sql {

const std::vector<SqlErrorKindInfo>& AllSqlErrorKinds() {
  using K = SqlErrorKind;
  using C = ErrorCode;
  static const std::vector<SqlErrorKindInfo> kinds = {
      {K::kSyntaxError, "42601", "syntax_error", C::kInvalidArgument},
      {K::kUndefinedTable, "42P01", "undefined_table", C::kInvalidArgument},
      {K::kUndefinedColumn, "42703", "undefined_column", C::kInvalidArgument},
      {K::kUndefinedFunction, "42883", "undefined_function", C::kInvalidArgument},
      {K::kUndefinedObject, "42704", "undefined_object", C::kInvalidArgument},
      {K::kAmbiguousColumn, "42702", "ambiguous_column", C::kInvalidArgument},
      {K::kAmbiguousFunction, "42725", "ambiguous_function", C::kInvalidArgument},
      {K::kDuplicateAlias, "42712", "duplicate_alias", C::kInvalidArgument},
      {K::kDatatypeMismatch, "42804", "datatype_mismatch", C::kInvalidArgument},
      {K::kIndeterminateDatatype, "42P18", "indeterminate_datatype", C::kInvalidArgument},
      {K::kGroupingError, "42803", "grouping_error", C::kInvalidArgument},
      {K::kInvalidColumnReference, "42P10", "invalid_column_reference", C::kInvalidArgument},
      {K::kCannotCoerce, "42846", "cannot_coerce", C::kInvalidArgument},
      {K::kWindowingError, "42P20", "windowing_error", C::kInvalidArgument},
      {K::kFeatureNotSupported, "0A000", "feature_not_supported", C::kNotImplemented},
      {K::kDivisionByZero, "22012", "division_by_zero", C::kInvalidArgument},
      {K::kNumericValueOutOfRange, "22003", "numeric_value_out_of_range", C::kInvalidArgument},
      {K::kInvalidTextRepresentation, "22P02", "invalid_text_representation",
       C::kInvalidArgument},
      {K::kInvalidDatetimeFormat, "22007", "invalid_datetime_format", C::kInvalidArgument},
      {K::kDatetimeFieldOverflow, "22008", "datetime_field_overflow", C::kInvalidArgument},
      {K::kInvalidTimeZoneDisplacement, "22009", "invalid_time_zone_displacement_value",
       C::kInvalidArgument},
      {K::kStringDataRightTruncation, "22001", "string_data_right_truncation",
       C::kInvalidArgument},
      {K::kInvalidParameterValue, "22023", "invalid_parameter_value", C::kInvalidArgument},
      {K::kInvalidEscapeSequence, "22025", "invalid_escape_sequence", C::kInvalidArgument},
      {K::kSubstringError, "22011", "substring_error", C::kInvalidArgument},
      {K::kInvalidPowerArgument, "2201F", "invalid_argument_for_power_function",
       C::kInvalidArgument},
      {K::kArraySubscriptError, "2202E", "array_subscript_error", C::kInvalidArgument},
      {K::kNullValueNotAllowed, "22004", "null_value_not_allowed", C::kInvalidArgument},
      {K::kInvalidPrecedingOrFollowingSize, "22013", "invalid_preceding_or_following_size",
       C::kInvalidArgument},
      {K::kInvalidNtileArgument, "22014", "invalid_argument_for_ntile_function",
       C::kInvalidArgument},
      {K::kInvalidNthValueArgument, "22016", "invalid_argument_for_nth_value_function",
       C::kInvalidArgument},
      {K::kInvalidLogArgument, "2201E", "invalid_argument_for_logarithm", C::kInvalidArgument},
      {K::kInvalidRegularExpression, "2201B", "invalid_regular_expression",
       C::kInvalidArgument},
      {K::kProgramLimitExceeded, "54000", "program_limit_exceeded", C::kInvalidArgument},
      {K::kCardinalityViolation, "21000", "cardinality_violation", C::kInvalidArgument},
      {K::kInvalidRowCountInLimit, "2201W", "invalid_row_count_in_limit_clause",
       C::kInvalidArgument},
      {K::kInvalidRowCountInOffset, "2201X", "invalid_row_count_in_result_offset_clause",
       C::kInvalidArgument},
      {K::kWrongObjectType, "42809", "wrong_object_type", C::kInvalidArgument},
      {K::kQueryCanceled, "57014", "query_canceled", C::kUnavailable},
      {K::kOutOfMemory, "53200", "out_of_memory", C::kUnavailable},
      {K::kInternalError, "XX000", "internal_error", C::kInternal},
  };
  return kinds;
}

const SqlErrorKindInfo& InfoFor(SqlErrorKind kind) {
  return AllSqlErrorKinds()[static_cast<size_t>(kind)];
}

Error MakeSqlError(SqlErrorKind kind, std::string message) {
  const SqlErrorKindInfo& info = InfoFor(kind);
  Error error{info.code, std::move(message)};
  error.detail.sqlstate = std::string(info.sqlstate);
  return error;
}

std::optional<SqlErrorKind> SqlErrorKindOf(const Error& error) {
  if (error.detail.sqlstate.empty()) return std::nullopt;
  for (const SqlErrorKindInfo& info : AllSqlErrorKinds()) {
    if (info.sqlstate == error.detail.sqlstate) return info.kind;
  }
  return std::nullopt;
}

}  // namespace hoglake::sql
