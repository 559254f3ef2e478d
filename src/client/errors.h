// How the SDK reports failures (pyhoglake-writer §13, contract §1.4–§1.6).
//
// Every SDK call returns Status / Result<T>. An error the server sent keeps
// the server's code: Error.code is the ErrorCode of the body's `error`
// member (e.g. kTableRecreated for `table_recreated`), Error.message is
// "<error>: <detail> (HTTP <status>)" and Error.wire_extra holds the body's
// other members (`tables`, `read_snapshot`, `retry`) as JSON text without
// braces. A body without a known code falls back to the status's code
// (404 → kNotFound, 409 → kCommitConflict, 410 → kExpired, 422 → kValidation,
// 503 → kUnavailable, anything else → kInternal). The query API's Hotdata
// body, {"error": {"code": "UNAUTHORIZED", "message": …}}, reads the same
// way with its code lower-cased: "unauthorized: <message> (HTTP 401)".
//
// Client-made refusals use the same codes: a pre-flight incarnation check
// that fails is kTableRecreated (message "... was recreated ..."), a batch
// that does not fit the table is kValidation, a transport failure after the
// retries is kUnavailable, a response of the wrong shape is kInvalidData
// whose message starts "malformed response".
//
// ErrorKindOf() maps an error to the pyhoglake exception class a caller
// would catch (by code; bad_request, internal_error and other codes without
// a class of their own are kHoglake; kInvalidArgument and kInvalidData other
// than malformed responses are kValidation), and Retryable()/RePrepare()
// give its flags:
//   retryable  — replay the same request (commit_conflict, commit_queue_timeout)
//   re-prepare — re-read the table and build a new request
//                (table_recreated, ddl_since_read_snapshot, 410 on a commit)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::client {

enum class ErrorKind {
  kHoglake,                 // anything below does not fit (500, 502, usage)
  kNotFound,                // 404
  kAlreadyExists,           // 409 already_exists
  kCommitConflict,          // 409 commit_conflict / commit_queue_timeout: retryable
  kDdlSinceReadSnapshot,    // 409 ddl_since_read_snapshot: re-prepare
  kIncarnationChanged,      // 409 table_recreated (or the pre-flight check): re-prepare
  kTableDropped,            // 409 table_dropped
  kOffsetRegression,        // 409 offset_regression
  kReconciliationRequired,  // 409 reconciliation_required
  kExpired,                 // 410 on a read
  kReadSnapshotExpired,     // 410 on a commit: re-prepare
  kValidation,              // 422 and every client-side refusal of input
  kMalformedResponse,       // the server's answer had the wrong shape
  kTransport,               // kUnavailable: unreachable, or 503 without a known code;
                            // database_unavailable
};

std::string_view ErrorKindName(ErrorKind kind);

ErrorKind ErrorKindOf(const Error& error);
bool Retryable(const Error& error);
bool RePrepare(const Error& error);

// The `tables` member of a server error body ("ns.t"), empty when absent.
std::vector<std::string> ErrorTables(const Error& error);
// The `read_snapshot` member of a ddl_since_read_snapshot body.
std::optional<int64_t> ErrorReadSnapshot(const Error& error);

// An atomic table creation (Namespace::CreateTable with a spec) that was
// refused durably carries "reason" (target_exists → kAlreadyExists,
// namespace_changed → kNotFound, target_changed → kTableRecreated,
// definition_invalid → kValidation, expired → kExpired, client_abort →
// kInternal) and "operation_id" in wire_extra; a failure after the
// operation was prepared carries "operation_id" alone (pass it back as
// CreateTableOptions::operation_id to resume the same operation).
std::optional<std::string> ErrorCreationReason(const Error& error);
std::optional<std::string> ErrorCreationOperation(const Error& error);

// The error for a non-2xx response: status, body text (JSON or not). For a
// commit, `on_commit` turns a 410 into a re-prepare error (kReadSnapshotExpired):
// the code stays kExpired and wire_extra gains "retry":"re-prepare", which is
// what ErrorKindOf/RePrepare read. A body with an `error` member gives the
// message "<error>: <detail> (HTTP <status>)" (": <detail>" only when the
// body has one); a body without one gives "HTTP <status>: <detail>" where
// detail is the body's `detail` or, for a body that is not a JSON object, its
// first 500 bytes. The wire name maps to the first ErrorCode spelling it
// (AllErrorCodes order), so `validation` is kValidation and `internal_error`
// kInternal.
Error ErrorFromResponse(long http_status, std::string_view body, bool on_commit = false);

// A malformed-response error naming the model and member:
// MalformedResponse("Table", "columns", "is not an array").
Error MalformedResponse(std::string_view model, std::string_view member, std::string_view what);

}  // namespace hoglake::client
