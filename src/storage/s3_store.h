// S3Store: ObjectStore over an S3-compatible service (AWS S3, MinIO, s3rver).
//
// The store serves one bucket, optionally under a key prefix: root
// "s3://bucket" serves every key, "s3://bucket/lake" the keys under "lake/".
// An object path is "s3://bucket/" + key; keys follow CheckObjectKey (no
// "." or ".." segments, no empty segments).
//
// Cost per call, in requests: Put/Commit 1 when the object fits in one part
// (S3Config::part_size), else 2 + the number of parts (multipart upload);
// Get/GetRange 1 (2 when a range starts at or past the end); Head 1;
// Delete 2 (HeadObject to report existence, then DeleteObject); DeleteMany
// one DeleteObjects per 1,000 keys (up to kDeleteManyWorkers at once; a key
// that did not exist reads as deleted: S3 does not tell them apart), or
// Delete per key on a service that answers DeleteObjects NotImplemented;
// List one ListObjectsV2 per S3Config::list_page_size keys.
//
// Retries follow S3Config (idempotent requests on 5xx, 429, timeouts and
// transport errors); CreateMultipartUpload is retried only when it never
// reached the server. Errors name the s3:// path and carry the server's
// error code and message (e.g. "NoSuchBucket: The specified bucket does not
// exist"); a missing bucket is kNotFound.
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/object_store.h"
#include "storage/s3_client.h"
#include "storage/s3_config.h"

namespace hoglake {

class S3Store final : public ObjectStore {
 public:
  // `root_uri` is "s3://bucket[/prefix]"; `config` is completed from the
  // environment with ResolveS3Config. No request is made.
  static Result<std::unique_ptr<S3Store>> Open(std::string_view root_uri, const S3Config& config);

  const std::string& root() const override { return root_uri_; }
  Status Put(std::string_view path, std::string_view bytes) override;
  Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view path) override;
  Result<std::string> Get(std::string_view path) override;
  Result<std::string> GetRange(std::string_view path, uint64_t offset, uint64_t length) override;
  Result<uint64_t> Head(std::string_view path) override;
  Result<bool> Delete(std::string_view path) override;
  std::vector<Result<bool>> DeleteMany(const std::vector<std::string>& paths) override;
  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override;

 private:
  S3Store(std::string root_uri, std::string bucket, std::unique_ptr<S3Client> client)
      : root_uri_(std::move(root_uri)), bucket_(std::move(bucket)), client_(std::move(client)) {}

  // The key of an object URI, checked to lie under the root.
  Result<std::string> Key(std::string_view path) const;
  // One DeleteObjects request for `keyed` ((index into outcomes, key) pairs,
  // at most kDeleteManyChunk); sets each pair's outcome.
  // (A service without DeleteObjects: key by key, with Delete.)
  void DeleteChunk(std::span<const std::pair<size_t, std::string>> keyed,
                   std::vector<Result<bool>>& outcomes);
  // Sets every pair's outcome to `error`.
  static void FailChunk(std::span<const std::pair<size_t, std::string>> keyed, const Error& error,
                        std::vector<Result<bool>>& outcomes);
  // Each key's outcome from a 2xx DeleteObjects response.
  void SettleChunk(std::span<const std::pair<size_t, std::string>> keyed,
                   const S3Response& response, std::vector<Result<bool>>& outcomes);

  std::string root_uri_;  // "s3://bucket" or "s3://bucket/prefix"
  std::string bucket_;
  std::unique_ptr<S3Client> client_;
  // Set once the service answered DeleteObjects NotImplemented.
  std::atomic<bool> multi_delete_unsupported_{false};
};

}  // namespace hoglake
