#include "storage/s3_store.h"

#include "common/parallel.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "common/encoding.h"
#include "common/md5.h"
#include "storage/xml_text.h"

namespace hoglake {
namespace {

constexpr std::string_view kS3Scheme = "s3://";

Result<uint64_t> ParseSize(std::string_view text, std::string_view what) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return InvalidData("S3 returned a malformed ", what, " '", text, "'");
  }
  return value;
}

S3Request ObjectRequest(std::string_view operation, std::string_view method,
                        const std::string& bucket, const std::string& key) {
  S3Request request;
  request.operation = operation;
  request.method = method;
  request.bucket = bucket;
  request.key = key;
  return request;
}

// Sends and accepts only a 2xx response.
Result<S3Response> SendExpectingSuccess(S3Client& client, const S3Request& request) {
  HOGLAKE_ASSIGN_OR_RETURN(S3Response response, client.Send(request));
  if (response.status < 200 || response.status > 299) {
    return S3Client::ResponseError(request, response);
  }
  return response;
}

// A streamed write: buffered until a part's worth, then a multipart upload.
class S3Writer final : public ObjectWriter {
 public:
  S3Writer(S3Client* client, std::string bucket, std::string key)
      : client_(client), bucket_(std::move(bucket)), key_(std::move(key)) {}
  ~S3Writer() override { (void)Abort(); }

  Status Append(std::string_view bytes) override {
    HOGLAKE_RETURN_IF_ERROR(CheckWritable());
    buffer_.append(bytes);
    written_ += bytes.size();
    if (buffer_.size() >= client_->config().part_size) return Fail(UploadBufferAsPart());
    return Status::Ok();
  }

  Status Commit() override {
    HOGLAKE_RETURN_IF_ERROR(CheckWritable());
    if (upload_id_.empty()) {  // fits in one request
      S3Request request = ObjectRequest("PutObject", "PUT", bucket_, key_);
      request.headers.push_back("Content-Type: application/octet-stream");
      request.body = buffer_;
      HOGLAKE_RETURN_IF_ERROR(Fail(SendExpectingSuccess(*client_, request).status()));
    } else {
      if (!buffer_.empty()) HOGLAKE_RETURN_IF_ERROR(Fail(UploadBufferAsPart()));
      HOGLAKE_RETURN_IF_ERROR(Fail(Complete()));
    }
    done_ = true;
    buffer_.clear();
    return Status::Ok();
  }

  Status Abort() override {
    if (done_) return Status::Ok();
    done_ = true;
    buffer_.clear();
    if (upload_id_.empty()) return Status::Ok();
    S3Request request = ObjectRequest("AbortMultipartUpload", "DELETE", bucket_, key_);
    request.query = {{"uploadId", upload_id_}};
    HOGLAKE_ASSIGN_OR_RETURN(S3Response response, client_->Send(request));
    if (response.status == 404 || (response.status >= 200 && response.status <= 299)) {
      return Status::Ok();
    }
    return S3Client::ResponseError(request, response);
  }

  uint64_t bytes_written() const override { return written_; }

 private:
  Status CheckWritable() const {
    if (!state_.ok()) return state_;
    if (done_) return InvalidArgument("write of s3://", bucket_, "/", key_, " is already finished");
    return Status::Ok();
  }

  // Records the first failure; later calls repeat it.
  Status Fail(Status status) {
    if (!status.ok() && state_.ok()) state_ = status;
    return status;
  }

  Status UploadBufferAsPart() {
    if (upload_id_.empty()) {
      S3Request request = ObjectRequest("CreateMultipartUpload", "POST", bucket_, key_);
      request.query = {{"uploads", ""}};
      request.headers.push_back("Content-Type: application/octet-stream");
      request.idempotent = false;
      HOGLAKE_ASSIGN_OR_RETURN(S3Response response, SendExpectingSuccess(*client_, request));
      std::optional<std::string> id = XmlFirstText(response.body, "UploadId");
      if (!id || id->empty()) {
        return IoError("S3 CreateMultipartUpload s3://", bucket_, "/", key_,
                       " returned no UploadId");
      }
      upload_id_ = std::move(*id);
    }
    int part_number = static_cast<int>(etags_.size()) + 1;
    if (part_number > 10000) {
      return InvalidArgument("s3://", bucket_, "/", key_,
                             " needs more than 10000 parts; raise S3Config::part_size");
    }
    S3Request request = ObjectRequest("UploadPart", "PUT", bucket_, key_);
    request.query = {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id_}};
    request.body = buffer_;
    HOGLAKE_ASSIGN_OR_RETURN(S3Response response, SendExpectingSuccess(*client_, request));
    if (response.etag.empty()) {
      return IoError("S3 UploadPart ", part_number, " of s3://", bucket_, "/", key_,
                     " returned no ETag");
    }
    etags_.push_back(std::move(response.etag));
    buffer_.clear();
    return Status::Ok();
  }

  Status Complete() {
    std::string body = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags_.size(); ++i) {
      body += StrCat("<Part><PartNumber>", i + 1, "</PartNumber><ETag>", XmlEscape(etags_[i]),
                     "</ETag></Part>");
    }
    body += "</CompleteMultipartUpload>";
    S3Request request = ObjectRequest("CompleteMultipartUpload", "POST", bucket_, key_);
    request.query = {{"uploadId", upload_id_}};
    request.headers.push_back("Content-Type: application/xml");
    request.body = body;
    HOGLAKE_ASSIGN_OR_RETURN(S3Response response, SendExpectingSuccess(*client_, request));
    // S3 may report a failed completion inside a 200 response.
    if (response.body.find("<Error>") != std::string::npos) {
      return S3Client::ResponseError(request, response);
    }
    return Status::Ok();
  }

  S3Client* client_;
  std::string bucket_;
  std::string key_;
  std::string buffer_;
  std::string upload_id_;
  std::vector<std::string> etags_;
  uint64_t written_ = 0;
  bool done_ = false;
  Status state_;
};

// One page of ListObjectsV2: appends its objects, returns the continuation
// token ("" on the last page).
Result<std::string> ParseListPage(std::string_view xml, const std::string& bucket,
                                  std::vector<ObjectInfo>* out) {
  HOGLAKE_ASSIGN_OR_RETURN(auto contents, XmlElements(xml, "Contents"));
  for (std::string_view entry : contents) {
    HOGLAKE_ASSIGN_OR_RETURN(auto keys, XmlElements(entry, "Key"));
    HOGLAKE_ASSIGN_OR_RETURN(auto sizes, XmlElements(entry, "Size"));
    if (keys.size() != 1 || sizes.size() != 1) {
      return InvalidData("S3 ListObjectsV2 of bucket ", bucket,
                         " returned an entry without one Key and one Size");
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::string key, XmlDecode(keys[0]));
    HOGLAKE_ASSIGN_OR_RETURN(uint64_t size, ParseSize(sizes[0], "object size"));
    out->push_back(ObjectInfo{StrCat(kS3Scheme, bucket, "/", key), size});
  }
  if (XmlFirstText(xml, "IsTruncated").value_or("false") != "true") return std::string();
  std::optional<std::string> token = XmlFirstText(xml, "NextContinuationToken");
  if (!token || token->empty()) {
    return InvalidData("S3 ListObjectsV2 of bucket ", bucket,
                       " is truncated but has no NextContinuationToken");
  }
  return std::move(*token);
}

}  // namespace

Result<std::unique_ptr<S3Store>> S3Store::Open(std::string_view root_uri, const S3Config& config) {
  if (!root_uri.starts_with(kS3Scheme)) {
    return InvalidArgument("S3 store root ", root_uri, " is not an s3:// URI");
  }
  std::string_view rest = root_uri.substr(kS3Scheme.size());
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  std::string_view bucket = rest.substr(0, rest.find('/'));
  if (bucket.empty() || !std::all_of(bucket.begin(), bucket.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '-' || c == '_';
      })) {
    return InvalidArgument("S3 store root ", root_uri, " does not name a valid bucket");
  }
  if (rest.size() > bucket.size()) {
    HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(rest.substr(bucket.size() + 1), root_uri));
  }
  HOGLAKE_ASSIGN_OR_RETURN(S3Config resolved, ResolveS3Config(config));
  return std::unique_ptr<S3Store>(new S3Store(StrCat(kS3Scheme, rest), std::string(bucket),
                                              std::make_unique<S3Client>(std::move(resolved))));
}

Result<std::string> S3Store::Key(std::string_view path) const {
  if (!path.starts_with(root_uri_) || path.size() <= root_uri_.size() + 1 ||
      path[root_uri_.size()] != '/') {
    return InvalidArgument("path ", path, " is outside the store root ", root_uri_);
  }
  std::string_view key = path.substr(kS3Scheme.size() + bucket_.size() + 1);
  HOGLAKE_RETURN_IF_ERROR(CheckObjectKey(key, path));
  if (key.size() > 1024) return InvalidArgument("S3 key of ", path, " exceeds 1024 bytes");
  return std::string(key);
}

Status S3Store::Put(std::string_view path, std::string_view bytes) {
  HOGLAKE_ASSIGN_OR_RETURN(auto writer, OpenWriter(path));
  HOGLAKE_RETURN_IF_ERROR(writer->Append(bytes));
  return writer->Commit();
}

Result<std::unique_ptr<ObjectWriter>> S3Store::OpenWriter(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string key, Key(path));
  return std::unique_ptr<ObjectWriter>(new S3Writer(client_.get(), bucket_, std::move(key)));
}

Result<std::string> S3Store::Get(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string key, Key(path));
  S3Request request = ObjectRequest("GetObject", "GET", bucket_, key);
  HOGLAKE_ASSIGN_OR_RETURN(S3Response response, SendExpectingSuccess(*client_, request));
  return std::move(response.body);
}

Result<std::string> S3Store::GetRange(std::string_view path, uint64_t offset, uint64_t length) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string key, Key(path));
  auto at_or_past_end = [&]() -> Result<std::string> {
    HOGLAKE_ASSIGN_OR_RETURN(uint64_t size, Head(path));
    if (offset > size) {
      return InvalidArgument("range offset ", offset, " is past the end of ", path, " (", size,
                             " bytes)");
    }
    return std::string();
  };
  if (length == 0) return at_or_past_end();
  uint64_t last = length - 1 > UINT64_MAX - 1 - offset ? UINT64_MAX - 1 : offset + length - 1;
  S3Request request = ObjectRequest("GetObject", "GET", bucket_, key);
  request.headers.push_back(StrCat("Range: bytes=", offset, "-", last));
  HOGLAKE_ASSIGN_OR_RETURN(S3Response response, client_->Send(request));
  if (response.status == 416) return at_or_past_end();
  if (response.status == 206) return std::move(response.body);
  if (response.status == 200) {  // the server ignored the range
    if (offset > response.body.size()) return at_or_past_end();
    return response.body.substr(offset, length);
  }
  return S3Client::ResponseError(request, response);
}

Result<uint64_t> S3Store::Head(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string key, Key(path));
  S3Request request = ObjectRequest("HeadObject", "HEAD", bucket_, key);
  HOGLAKE_ASSIGN_OR_RETURN(S3Response response, client_->Send(request));
  if (response.status == 404) {
    return NotFound("object ", path, " does not exist (S3 HeadObject: HTTP 404)");
  }
  if (response.status < 200 || response.status > 299) {
    return S3Client::ResponseError(request, response);
  }
  return ParseSize(response.content_length, "Content-Length");
}

Result<bool> S3Store::Delete(std::string_view path) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string key, Key(path));
  Result<uint64_t> head = Head(path);
  if (!head.ok() && head.error().code != ErrorCode::kNotFound) return head.error();
  // DeleteObject also when HEAD said 404: a missing bucket then shows as
  // NoSuchBucket instead of passing for an absent object.
  S3Request request = ObjectRequest("DeleteObject", "DELETE", bucket_, key);
  HOGLAKE_ASSIGN_OR_RETURN(S3Response response, client_->Send(request));
  if (response.status == 404 && XmlFirstText(response.body, "Code") == "NoSuchKey") return false;
  if (response.status < 200 || response.status > 299) {
    return S3Client::ResponseError(request, response);
  }
  return head.ok();
}

std::vector<Result<bool>> S3Store::DeleteMany(const std::vector<std::string>& paths) {
  std::vector<Result<bool>> outcomes(paths.size(), Result<bool>(false));
  std::vector<std::pair<size_t, std::string>> keyed;  // (index in paths, key)
  for (size_t i = 0; i < paths.size(); ++i) {
    Result<std::string> key = Key(paths[i]);
    if (key.ok()) {
      keyed.emplace_back(i, std::move(*key));
    } else {
      outcomes[i] = key.error();
    }
  }
  const size_t chunks = (keyed.size() + kDeleteManyChunk - 1) / kDeleteManyChunk;
  ParallelFor(static_cast<int64_t>(chunks),
              static_cast<int>(std::min<size_t>(chunks, kDeleteManyWorkers)),
              [&](int64_t chunk, int) {
                const size_t c = static_cast<size_t>(chunk);
                const size_t begin = c * kDeleteManyChunk;
                const size_t end = std::min(keyed.size(), begin + kDeleteManyChunk);
                DeleteChunk({keyed.data() + begin, end - begin}, outcomes);
              });
  return outcomes;
}

void S3Store::FailChunk(std::span<const std::pair<size_t, std::string>> keyed, const Error& error,
                        std::vector<Result<bool>>& outcomes) {
  for (const auto& entry : keyed) outcomes[entry.first] = error;
}

void S3Store::DeleteChunk(std::span<const std::pair<size_t, std::string>> keyed,
                          std::vector<Result<bool>>& outcomes) {
  if (!multi_delete_unsupported_.load()) {
    std::string body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>false</Quiet>";
    for (const auto& entry : keyed) {
      body += StrCat("<Object><Key>", XmlEscape(entry.second), "</Key></Object>");
    }
    body += "</Delete>";
    S3Request request = ObjectRequest("DeleteObjects", "POST", bucket_, "");
    request.query = {{"delete", ""}};
    request.headers.push_back("Content-Type: application/xml");
    // S3 refuses a DeleteObjects request without a body checksum.
    request.headers.push_back(StrCat("Content-MD5: ", Base64Encode(Md5(body))));
    request.body = body;  // deleting twice is harmless: retried like a GET
    Result<S3Response> sent = client_->Send(request);
    if (!sent.ok()) return FailChunk(keyed, sent.error(), outcomes);
    const bool not_implemented =
        sent->status == 501 ||
        (sent->status >= 400 && XmlFirstText(sent->body, "Code") == "NotImplemented");
    if (!not_implemented) {
      if (sent->status >= 200 && sent->status <= 299) return SettleChunk(keyed, *sent, outcomes);
      return FailChunk(keyed, S3Client::ResponseError(request, *sent), outcomes);
    }
    // An S3-compatible service without multi-object delete (answering 501,
    // or 400 with the code NotImplemented): from now on this store deletes
    // key by key.
    multi_delete_unsupported_.store(true);
  }
  for (const auto& [index, key] : keyed) {
    outcomes[index] = Delete(StrCat(kS3Scheme, bucket_, "/", key));
  }
}

void S3Store::SettleChunk(std::span<const std::pair<size_t, std::string>> keyed,
                          const S3Response& response, std::vector<Result<bool>>& outcomes) {
  std::multimap<std::string_view, size_t> positions_of_key;  // key → positions in `keyed`
  for (size_t p = 0; p < keyed.size(); ++p) positions_of_key.emplace(keyed[p].second, p);
  // Every key comes back either <Deleted> or as a keyed <Error>; one the
  // response does not mention was not confirmed and counts as failed.
  std::vector<bool> settled(keyed.size(), false);
  auto each_keyed = [&](std::string_view tag, auto&& settle) -> Status {
    HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string_view> elements,
                             XmlElements(response.body, tag));
    for (std::string_view element : elements) {
      std::optional<std::string> key = XmlFirstText(element, "Key");
      if (!key) continue;
      auto [first, last] = positions_of_key.equal_range(*key);
      for (auto it = first; it != last; ++it) {
        outcomes[keyed[it->second].first] = settle(element, *key);
        settled[it->second] = true;
      }
    }
    return Status::Ok();
  };
  Status parsed = each_keyed(
      "Deleted", [](std::string_view, const std::string&) -> Result<bool> { return true; });
  if (parsed.ok()) {
    parsed = each_keyed("Error", [&](std::string_view element, const std::string& key) {
      return Result<bool>(IoError("S3 DeleteObjects s3://", bucket_, "/", key,
                                  " failed: ", XmlFirstText(element, "Code").value_or("(no code)"),
                                  ": ", XmlFirstText(element, "Message").value_or("(no message)")));
    });
  }
  if (!parsed.ok()) {
    return FailChunk(keyed,
                     InvalidData("S3 DeleteObjects on bucket ", bucket_,
                                 " returned a malformed response: ", parsed.error().message),
                     outcomes);
  }
  for (size_t p = 0; p < keyed.size(); ++p) {
    if (settled[p]) continue;
    outcomes[keyed[p].first] =
        IoError("S3 DeleteObjects s3://", bucket_, "/", keyed[p].second,
                " failed: the response neither lists the key as deleted nor names an error "
                "for it");
  }
}

Result<std::vector<ObjectInfo>> S3Store::List(std::string_view prefix) {
  if (!prefix.starts_with(root_uri_) ||
      (prefix.size() > root_uri_.size() && prefix[root_uri_.size()] != '/')) {
    return InvalidArgument("list prefix ", prefix, " is outside the store root ", root_uri_);
  }
  const std::string bucket_uri = StrCat(kS3Scheme, bucket_);
  std::string key_prefix(prefix.substr(std::min(prefix.size(), bucket_uri.size() + 1)));
  // With root s3://b/lake, a prefix of exactly the root must not match lake2/….
  const std::string root_dir = StrCat(root_uri_, "/");
  std::vector<ObjectInfo> out;
  std::string token;
  do {
    S3Request request;
    request.operation = "ListObjectsV2";
    request.method = "GET";
    request.bucket = bucket_;
    request.query = {{"list-type", "2"},
                     {"max-keys", std::to_string(client_->config().list_page_size)}};
    if (!key_prefix.empty()) request.query.emplace_back("prefix", key_prefix);
    if (!token.empty()) request.query.emplace_back("continuation-token", token);
    HOGLAKE_ASSIGN_OR_RETURN(S3Response response, SendExpectingSuccess(*client_, request));
    HOGLAKE_ASSIGN_OR_RETURN(token, ParseListPage(response.body, bucket_, &out));
  } while (!token.empty());
  std::erase_if(out, [&](const ObjectInfo& info) {
    return bucket_uri != root_uri_ && !std::string_view(info.path).starts_with(root_dir);
  });
  std::sort(out.begin(), out.end(),
            [](const ObjectInfo& a, const ObjectInfo& b) { return a.path < b.path; });
  return out;
}

}  // namespace hoglake
