#include "server/query_api/routes_query_uploads.h"

#include <algorithm>

#include "common/json_text.h"
#include "common/json_writer.h"
#include "query/upload_store.h"
#include "server/auth_guard.h"
#include "server/http/json_body.h"
#include "server/http/request_params.h"
#include "server/query_api/routes_query.h"

namespace hoglake::server {
namespace {

constexpr ErrorBodyStyle kHotdata = ErrorBodyStyle::kHotdata;

Status NoUploads() {
  return MakeError(ErrorCode::kUnavailable, "uploads are not available on this server");
}

// 429 OVERLOADED: every transfer slot is streaming a body.
HttpResponse TransfersBusy(const query::UploadStore& uploads) {
  HttpResponse r =
      HotdataError(429, "OVERLOADED",
                   StrCat("the server is receiving ", uploads.options().max_concurrent_transfers,
                          " uploads at once (HOGLAKE_MAX_CONCURRENT_UPLOADS); retry later"));
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// UploadResponse (POST /v1/files: id) or FinalizeUploadResponse (upload_id).
HttpResponse UploadResponse(int status, std::string_view id_key, const query::UploadRecord& u) {
  JsonWriter w;
  w.BeginObject();
  w.Field(id_key, u.upload_id);
  w.Field("status", query::UploadStateName(u.state));
  w.Field("size_bytes", u.size_bytes.value_or(0));
  w.OptionalField("content_type", u.content_type);
  w.Field("created_at", u.created_at);
  w.EndObject();
  return HttpResponse::Json(status, w.Take());
}

// The request body as the upload store reads it: streamed on the streaming
// routes (the body is written as it arrives), else the body read whole.
query::ByteSource BodySource(HttpRequest& req) {
  if (req.body_stream) {
    return [stream = req.body_stream](std::string* piece) { return stream->Next(piece); };
  }
  return [&req, done = false](std::string* piece) mutable -> Result<bool> {
    if (done) return false;
    done = true;
    *piece = std::move(req.body);
    return true;
  };
}

// Body limits of the streaming routes: a raw upload's, and a presigned
// PUT's (one part, or a single upload).
uint64_t RawUploadLimit(const query::UploadStore* uploads) {
  return static_cast<uint64_t>(uploads ? uploads->options().max_raw_bytes
                                       : query::UploadStoreOptions().max_raw_bytes);
}
uint64_t PutLimit(const query::UploadStore* uploads) {
  return static_cast<uint64_t>(uploads ? uploads->options().max_single_bytes
                                       : query::UploadStoreOptions().max_single_bytes);
}

// The URL the client PUTs part `part` (0: the whole single upload) to.
std::string PutUrl(const query::UploadStore& uploads, const HttpRequest& req,
                   const std::string& upload_id, int64_t part) {
  std::string url = StrCat("http://", req.Header("host").value_or("localhost"), "/v1/uploads/",
                           upload_id, "/data?");
  if (part > 0) url += StrCat("part=", part, "&");
  return url + "signature=" + uploads.Signature(upload_id, part);
}

Result<query::SessionRequest> ParseSessionRequest(JsonObject& body) {
  query::SessionRequest request;
  HOGLAKE_ASSIGN_OR_RETURN(request.content_type, body.OptionalString("content_type"));
  HOGLAKE_ASSIGN_OR_RETURN(request.declared_size_bytes, body.OptionalInt64("declared_size_bytes"));
  HOGLAKE_ASSIGN_OR_RETURN(request.part_size, body.OptionalInt64("part_size"));
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<std::string> algo, body.OptionalString("checksum_algo"));
  if (algo && *algo != "sha256") {
    return MakeError(ErrorCode::kBadRequest, StrCat("checksum_algo '", *algo, "' is not sha256"));
  }
  return request;
}

void WriteSession(JsonWriter& w, const query::UploadStore& uploads, const HttpRequest& req,
                  const query::UploadSession& s) {
  w.BeginObject();
  w.Field("upload_id", s.upload.upload_id);
  w.Field("finalize_token", s.finalize_token);
  w.Field("mode", s.multipart ? "multipart" : "single");
  w.Key("headers");
  w.BeginObject();
  w.EndObject();
  if (!s.multipart) {
    w.Field("url", PutUrl(uploads, req, s.upload.upload_id, 0));
  } else {
    w.Key("part_size");
    w.Int(*s.upload.part_size);
    if (s.part_count > 0) {
      w.Key("part_urls");
      w.BeginArray();
      for (int64_t p = 1; p <= s.part_count; ++p) {
        w.String(PutUrl(uploads, req, s.upload.upload_id, p));
      }
      w.EndArray();
    }
  }
  w.EndObject();
}

Result<std::string> FinalizeToken(const HttpRequest& req) {
  std::optional<std::string_view> token = req.Header("x-upload-finalize-token");
  if (!token || token->empty()) {
    return MakeError(ErrorCode::kBadRequest, "X-Upload-Finalize-Token is required");
  }
  return std::string(*token);
}

Result<int64_t> PartNumber(const HttpRequest& req) {
  HOGLAKE_ASSIGN_OR_RETURN(std::optional<int64_t> part, QueryInt64(req, "part"));
  if (part && (*part < 1 || *part > 10000)) {
    return MakeError(ErrorCode::kBadRequest, "part must be between 1 and 10000");
  }
  return part.value_or(0);
}

void RegisterSessions(Router& router, query::UploadStore* uploads) {
  router.AddStreaming(
      "POST", "/v1/files",
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        std::optional<query::UploadStore::TransferSlot> slot = uploads->TryStartTransfer();
        if (!slot) return TransfersBusy(*uploads);
        std::optional<std::string> content_type;
        if (auto v = req.Header("content-type")) content_type = std::string(*v);
        HOGLAKE_ASSIGN_OR_RETURN(query::UploadRecord u,
                                 uploads->CreateRaw(content_type, BodySource(req)));
        return UploadResponse(201, "id", u);
      },
      kHotdata, RawUploadLimit(uploads));
  router.Add(
      "POST", "/v1/uploads",
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(query::SessionRequest request, ParseSessionRequest(body));
        HOGLAKE_ASSIGN_OR_RETURN(query::UploadSession session, uploads->CreateSession(request));
        JsonWriter w;
        WriteSession(w, *uploads, req, session);
        return HttpResponse::Json(201, w.Take());
      },
      kHotdata);
  router.Add(
      "POST", "/v1/uploads/batch",
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(JsonArray list, body.RequiredArray("uploads"));
        std::vector<query::SessionRequest> requests;
        for (size_t i = 0; i < list.size(); ++i) {
          HOGLAKE_ASSIGN_OR_RETURN(JsonObject one, list.Object(i));
          HOGLAKE_ASSIGN_OR_RETURN(query::SessionRequest request, ParseSessionRequest(one));
          requests.push_back(request);
        }
        JsonWriter w;
        w.BeginObject();
        w.Key("uploads");
        w.BeginArray();
        for (const query::SessionRequest& request : requests) {
          HOGLAKE_ASSIGN_OR_RETURN(query::UploadSession session, uploads->CreateSession(request));
          WriteSession(w, *uploads, req, session);
        }
        w.EndArray();
        w.EndObject();
        return HttpResponse::Json(201, w.Take());
      },
      kHotdata);
}

void RegisterTransfers(Router& router, query::UploadStore* uploads) {
  router.AddStreaming(
      "PUT", std::string(kPresignedPutPattern),
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        if (!PresignedRequestValid(uploads, req)) {
          return MakeError(ErrorCode::kBadRequest,
                           "the upload URL's signature is missing or does not match");
        }
        HOGLAKE_ASSIGN_OR_RETURN(int64_t part, PartNumber(req));
        std::optional<query::UploadStore::TransferSlot> slot = uploads->TryStartTransfer();
        if (!slot) return TransfersBusy(*uploads);
        HOGLAKE_ASSIGN_OR_RETURN(std::string etag,
                                 uploads->PutBytes(req.Param("upload_id"), part, BodySource(req)));
        HttpResponse r = HttpResponse::Text(200, "");
        r.headers.emplace_back("ETag", etag);
        return r;
      },
      kHotdata, PutLimit(uploads));
  router.Add(
      "POST", "/v1/uploads/{upload_id}/parts",
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        const std::string& id = req.Param("upload_id");
        HOGLAKE_ASSIGN_OR_RETURN(std::string token, FinalizeToken(req));
        HOGLAKE_ASSIGN_OR_RETURN(query::UploadRecord upload, uploads->CheckToken(id, token));
        if (!upload.part_size) {
          return MakeError(ErrorCode::kBadRequest, StrCat("upload '", id, "' is a single upload"));
        }
        HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
        HOGLAKE_ASSIGN_OR_RETURN(JsonArray numbers, body.RequiredArray("part_numbers"));
        JsonWriter w;
        w.BeginObject();
        w.Key("parts");
        w.BeginArray();
        for (size_t i = 0; i < numbers.size(); ++i) {
          HOGLAKE_ASSIGN_OR_RETURN(int64_t n, numbers.Int64(i));
          if (n < 1 || n > 10000) {
            return MakeError(ErrorCode::kBadRequest, "part numbers run from 1 to 10000");
          }
          w.BeginObject();
          w.Field("part_number", n);
          w.Field("url", PutUrl(*uploads, req, id, n));
          w.EndObject();
        }
        w.EndArray();
        w.EndObject();
        return HttpResponse::Json(200, w.Take());
      },
      kHotdata);
  router.Add(
      "POST", "/v1/uploads/{upload_id}/finalize",
      [uploads](HttpRequest& req) -> Result<HttpResponse> {
        if (!uploads) return NoUploads();
        HOGLAKE_ASSIGN_OR_RETURN(std::string token, FinalizeToken(req));
        std::vector<int64_t> parts;
        if (!req.body.empty()) {
          HOGLAKE_ASSIGN_OR_RETURN(JsonObject body, JsonBody::Parse(req));
          HOGLAKE_ASSIGN_OR_RETURN(std::optional<JsonArray> list, body.OptionalArray("parts"));
          for (size_t i = 0; list && i < list->size(); ++i) {
            HOGLAKE_ASSIGN_OR_RETURN(JsonObject part, list->Object(i));
            HOGLAKE_ASSIGN_OR_RETURN(int64_t n, part.RequiredInt64("part_number"));
            parts.push_back(n);
          }
        }
        std::sort(parts.begin(), parts.end());
        HOGLAKE_ASSIGN_OR_RETURN(query::UploadRecord u,
                                 uploads->Finalize(req.Param("upload_id"), token, parts));
        return UploadResponse(200, "upload_id", u);
      },
      kHotdata);
}

}  // namespace

bool PresignedRequestValid(const query::UploadStore* uploads, const HttpRequest& request) {
  if (!uploads) return false;
  std::optional<std::string_view> signature = request.Query("signature");
  Result<int64_t> part = PartNumber(request);
  return signature && part.ok() &&
         uploads->VerifySignature(request.Param("upload_id"), *part, *signature);
}

void RegisterQueryUploads(Router& router, const ServerContext& context) {
  for (std::string prefix : {"/v1/files", "/v1/uploads"}) router.SetPrefixStyle(prefix, kHotdata);
  RegisterSessions(router, context.uploads);
  RegisterTransfers(router, context.uploads);
}

}  // namespace hoglake::server
