// The Hotdata API's uploads (hotdata-api.md §2.7), over query::UploadStore:
//   POST /v1/files                     raw body → 201 UploadResponse
//   POST /v1/uploads, /v1/uploads/batch → 201 UploadSessionResponse(s)
//   PUT  /v1/uploads/{upload_id}/data?part=N&signature=…   the presigned
//        URL the sessions hand out, pointing back at this server (Host
//        header); no token, the signature is the credential → 200 + ETag
//   POST /v1/uploads/{upload_id}/parts    part URLs (X-Upload-Finalize-Token)
//   POST /v1/uploads/{upload_id}/finalize → 200 FinalizeUploadResponse
// Bodies are buffered by the HTTP front end up to
// HOGLAKE_MAX_REQUEST_BODY_BYTES (larger: 413); a single-mode session is
// offered only for declared sizes within that limit, larger uploads go in
// parts. The two body routes (POST /v1/files and the presigned PUT) take a
// transfer slot first (UploadStore::TryStartTransfer): with
// HOGLAKE_MAX_CONCURRENT_UPLOADS bodies already streaming they answer 429
// OVERLOADED with Retry-After: 1 before reading a byte. Without an upload
// store (null in the context) they answer 503.
#pragma once

#include "server/http/http_types.h"
#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterQueryUploads(Router& router, const ServerContext& context);

// Whether `request` (to the presigned PUT route) carries a valid signature.
bool PresignedRequestValid(const query::UploadStore* uploads, const HttpRequest& request);

}  // namespace hoglake::server
