// How the SQL engine reports a failed statement: PostgreSQL's SQLSTATE
// classes for the kinds of failure a query can meet, carried in
// Error::detail.sqlstate beside a code the HTTP layer maps (a user's mistake
// is kInvalidArgument; an unsupported feature kNotImplemented; resource
// limits kUnavailable) and a message in PostgreSQL's words that names what
// was wrong and, when known, where ("column \"x\" does not exist at
// position 8").
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::sql {

enum class SqlErrorKind {
  kSyntaxError,              // 42601
  kUndefinedTable,           // 42P01
  kUndefinedColumn,          // 42703
  kUndefinedFunction,        // 42883
  kUndefinedObject,          // 42704 (unknown type, schema, catalog)
  kAmbiguousColumn,          // 42702
  kAmbiguousFunction,        // 42725
  kDuplicateAlias,           // 42712
  kDatatypeMismatch,         // 42804
  kIndeterminateDatatype,    // 42P18 (an empty ARRAY[])
  kGroupingError,            // 42803
  kInvalidColumnReference,   // 42P10 (ORDER BY 5 past the select list)
  kCannotCoerce,             // 42846
  kWindowingError,           // 42P20
  kFeatureNotSupported,      // 0A000
  kDivisionByZero,           // 22012
  kNumericValueOutOfRange,   // 22003
  kInvalidTextRepresentation,// 22P02
  kInvalidDatetimeFormat,    // 22007
  kDatetimeFieldOverflow,    // 22008
  kInvalidTimeZoneDisplacement,  // 22009
  kStringDataRightTruncation,// 22001
  kInvalidParameterValue,    // 22023
  kInvalidEscapeSequence,    // 22025 (LIKE's escape)
  kSubstringError,           // 22011 (a negative substring length)
  kInvalidPowerArgument,     // 2201F (sqrt of a negative number)
  kArraySubscriptError,      // 2202E
  kNullValueNotAllowed,      // 22004 (a NULL window frame offset)
  kInvalidPrecedingOrFollowingSize,  // 22013 (a negative window frame offset)
  kInvalidNtileArgument,     // 22014
  kInvalidNthValueArgument,  // 22016
  kInvalidLogArgument,       // 2201E (log of zero or a negative number)
  kInvalidRegularExpression, // 2201B
  kProgramLimitExceeded,     // 54000 (chr(0), a regular expression too complex)
  kCardinalityViolation,     // 21000 (a scalar subquery returned two rows)
  kInvalidRowCountInLimit,   // 2201W
  kInvalidRowCountInOffset,  // 2201X
  kWrongObjectType,          // 42809 (not a query: DDL, DML, COPY, …)
  kQueryCanceled,            // 57014
  kOutOfMemory,              // 53200 (the query's memory budget)
  kInternalError,            // XX000
};

struct SqlErrorKindInfo {
  SqlErrorKind kind;
  std::string_view sqlstate;  // "42P01"
  std::string_view name;      // PostgreSQL's condition name, "undefined_table"
  ErrorCode code;             // what the HTTP layer maps
};

// Every kind, in declaration order: the one table of these spellings.
const std::vector<SqlErrorKindInfo>& AllSqlErrorKinds();
const SqlErrorKindInfo& InfoFor(SqlErrorKind kind);

// An Error of `kind` whose message is the parts concatenated.
Error MakeSqlError(SqlErrorKind kind, std::string message);
template <typename... Parts>
Error SqlError(SqlErrorKind kind, const Parts&... parts) {
  return MakeSqlError(kind, StrCat(parts...));
}

// The kind an error carries, by its sqlstate; nullopt for errors from outside
// the SQL engine.
std::optional<SqlErrorKind> SqlErrorKindOf(const Error& error);

}  // namespace hoglake::sql
