// UploadStore: bytes Hotdata clients upload for loads into managed tables
// (hotdata-api.md §2.7): rows in PostgreSQL (migration V20,
// hog_query_upload), bytes as objects under `<results root>/uploads/`.
//
// Two ways in:
//   * CreateRaw (POST /v1/files): the request body is the upload, ready at
//     once;
//   * CreateSession (POST /v1/uploads) → PutBytes (the presigned PUT, one
//     object per part) → Finalize (once, with the finalize token, which is
//     stored only as its SHA-256): mode "single" when the declared size fits
//     one request body (`max_single_bytes`), else "multipart" with parts of
//     `part_size` (known size: every part URL at once; unknown: minted by
//     PartNumbers). Finalize joins the parts, checks the declared size and
//     makes the upload ready.
// Bytes are streamed (ByteSource): written to the object store piece by
// piece as the request body arrives, never held whole, and an object is
// published only once every byte is in; a source that fails (the body
// past its limit, the client gone) aborts the write, leaving no object and
// no row. At most `max_concurrent_transfers` bodies stream at once
// (TryStartTransfer; the routes refuse more with 429).
//
// A ready upload is consumed by exactly one load: Claim moves it to claimed
// atomically (a second claim is kConflict-like kCommitConflict, 409); a load
// that fails gives it back (Release); one that succeeds removes its bytes
// (Consume). Pending sessions expire after `pending_ttl_seconds`
// (ExpirePending, run by the query service's housekeeping).
//
// Presigned URLs: the PUT carries no Authorization header, so its URL holds
// an HMAC-SHA-256 signature of (upload id, part) under this store's signing
// key; VerifySignature checks it (the auth guard exempts a PUT that passes).
// `hoglake serve` passes the key every server on the catalog database shares
// (server_secrets.h), so any replica accepts a URL another minted; without
// one the key is random per process (only the minting process accepts).
//
// Errors: kNotFound naming the id; kBadRequest for a wrong size, a missing
// part, a bad token or signature (kUnauthorized-like refusals are 400 here
// too: the Hotdata SDK treats any 4xx as fatal); kCommitConflict (409) for
// a finalize after the first or a claim of an upload not ready.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/random_access.h"
#include "common/sha256.h"
#include "common/status.h"
#include "pg/pg_pool.h"
#include "query/query_vocabulary.h"
#include "storage/object_store.h"

namespace hoglake::query {

struct UploadRecord {
  std::string upload_id;
  UploadState state = UploadState::kPending;
  std::optional<std::string> content_type;
  std::optional<int64_t> declared_size_bytes;
  std::optional<int64_t> part_size;  // multipart sessions
  std::optional<int64_t> size_bytes;
  std::string created_at;  // RFC 3339, UTC
};

struct SessionRequest {
  std::optional<std::string> content_type;
  std::optional<int64_t> declared_size_bytes;
  std::optional<int64_t> part_size;
};

struct UploadSession {
  UploadRecord upload;
  std::string finalize_token;
  bool multipart = false;
  int64_t part_count = 0;  // multipart with a declared size; else 0
};

// An upload's bytes as they arrive: each call moves the next piece into
// `*piece` and returns true, false once there are no more, or the error
// that cut the bytes short.
using ByteSource = std::function<Result<bool>(std::string* piece)>;

struct UploadStoreOptions {
  int64_t max_single_bytes = int64_t{64} << 20;  // a single PUT's body limit
  int64_t max_raw_bytes = int64_t{16} << 30;     // a POST /v1/files body's limit
  int64_t pending_ttl_seconds = 24 * 3600;
  // Bodies (raw uploads, presigned PUTs) streamed in at once; see
  // TryStartTransfer.
  int max_concurrent_transfers = 8;
  std::string signing_key;  // empty: random per process (see above)
};

class UploadStore {
 public:
  // One of the max_concurrent_transfers slots, held while a body streams
  // in; destroying it frees the slot.
  class TransferSlot {
   public:
    explicit TransferSlot(std::atomic<int>* in_use) : in_use_(in_use) {}
    TransferSlot(TransferSlot&& other) noexcept : in_use_(std::exchange(other.in_use_, nullptr)) {}
    TransferSlot(const TransferSlot&) = delete;
    TransferSlot& operator=(const TransferSlot&) = delete;
    TransferSlot& operator=(TransferSlot&&) = delete;
    ~TransferSlot() {
      if (in_use_) in_use_->fetch_sub(1);
    }

   private:
    std::atomic<int>* in_use_;
  };

  static constexpr int64_t kDefaultPartSize = int64_t{8} << 20;
  static constexpr int64_t kMinPartSize = int64_t{5} << 20;

  // `objects` is rooted where the uploads go (e.g. <results root>/uploads).
  UploadStore(pg::PgPool* pool, std::unique_ptr<ObjectStore> objects, UploadStoreOptions options);

  // A transfer slot, or nullopt when max_concurrent_transfers bodies are
  // streaming already (the caller answers 429 OVERLOADED without reading
  // the body). Separate from the HTTP handler threads, so uploads cannot
  // take every one of them.
  std::optional<TransferSlot> TryStartTransfer();
  int transfers_in_progress() const { return transfers_.load(); }

  Result<UploadRecord> CreateRaw(const std::optional<std::string>& content_type,
                                 const ByteSource& bytes);
  Result<UploadSession> CreateSession(const SessionRequest& request);
  // Stores one part (0 for a single-mode upload) of a pending upload; the
  // ETag to answer with.
  // The upload must be pending before any byte is read.
  Result<std::string> PutBytes(const std::string& upload_id, int64_t part, const ByteSource& bytes);
  // The upload if `finalize_token` is its token (kBadRequest otherwise).
  Result<UploadRecord> CheckToken(const std::string& upload_id, const std::string& finalize_token);
  // `parts`: part numbers in order (multipart), empty for single.
  Result<UploadRecord> Finalize(const std::string& upload_id, const std::string& finalize_token,
                                const std::vector<int64_t>& parts);

  Result<UploadRecord> Claim(const std::string& upload_id);
  Status Release(const std::string& upload_id);
  Status Consume(const std::string& upload_id);
  // The upload's bytes to be read by ranges (storage/object_source.h),
  // never whole; its size known up front.
  Result<std::shared_ptr<RandomAccessSource>> OpenBytes(const std::string& upload_id);
  // Deletes expired pending uploads and their objects; how many.
  Result<int64_t> ExpirePending();

  const UploadStoreOptions& options() const { return options_; }

  std::string Signature(const std::string& upload_id, int64_t part) const;
  bool VerifySignature(const std::string& upload_id, int64_t part,
                       std::string_view signature) const;

 private:
  Result<UploadRecord> Get(const std::string& upload_id);
  std::string ObjectPath(const std::string& upload_id, int64_t part) const;
  // Streams `bytes` into the object at `path` (hashing them into `hash`
  // when given); its size. Nothing is left at `path` unless it succeeds;
  // an empty stream is refused unless `allow_empty`.
  Result<uint64_t> WriteStreamed(const std::string& path, const ByteSource& bytes,
                                 Sha256Hasher* hash, bool allow_empty);

  pg::PgPool* pool_;
  std::unique_ptr<ObjectStore> objects_;
  UploadStoreOptions options_;
  std::string key_;
  std::atomic<int> transfers_{0};
};

}  // namespace hoglake::query
