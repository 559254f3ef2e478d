// What the audit log records for an HTTP request (common/audit.h): each
// mutating route's action, and the object a request names.
//
// Every POST/PUT/PATCH/DELETE route the server implements has an entry
// (a unit test holds the router to it): an action name from the audit
// vocabulary, or kSelfAudited for the maintenance routes — a run audits
// itself, and only when it did work — or kNotAMutation for POSTs that change
// nothing (decoding a bound).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/audit.h"
#include "server/http/http_types.h"

namespace hoglake::server {

inline constexpr std::string_view kSelfAudited = "<self-audited>";
inline constexpr std::string_view kNotAMutation = "<not-a-mutation>";

// The entry for (method, route pattern); nullopt when the route has none
// (every GET, and — a bug the unit test catches — a new mutating route).
std::optional<std::string_view> AuditActionForRoute(std::string_view method,
                                                    std::string_view pattern);

// The object a request acts on, from its bound path parameters:
// "ns.table", "ns", "ns.view", "consumer/<uuid>", an upload or operation
// id; empty for catalog-level requests.
std::string AuditObjectOf(const HttpRequest& request);

// The audit event for a finished request to a route whose action is
// `action`: catalog from the path (or, for a created catalog, the response's
// `name`); object from AuditObjectOf, extended by the response's `name` for
// a successful create; outcome from the response's error code; detail
// {"snapshot_id":N} when a successful response carries one, and
// {"status":S,"error":"<code>","message":"…"} for a refusal.
AuditEvent AuditEventFor(std::string_view action, const HttpRequest& request,
                         const HttpResponse& response);

}  // namespace hoglake::server
