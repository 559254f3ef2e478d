// ObjectStore: the handful of calls hoglake needs from an object store —
// whole-object put (also streamed), whole or ranged get, head, delete and list
// by prefix. Two implementations: local files (`file://`, local_store.h) and
// S3 (`s3://`, s3_store.h); OpenObjectStore picks one by the URI's scheme.
//
// Paths are full URIs, exactly as the catalog records them:
//   file:///abs/dir/data/ns/t/0b1c….parquet
//   s3://bucket/lake/data/ns/t/0b1c….parquet
// A store serves the objects under its root URI (the one it was opened
// with); a path outside the root is kInvalidArgument and touches nothing.
//
// Objects are immutable blobs written whole: a reader sees either the
// previous object (or none) or the complete new one, never a partial write.
// Writing an existing path replaces it.
//
// Errors: kNotFound when the object does not exist, kInvalidArgument for a
// malformed or out-of-root path, kUnavailable when the store could not be
// reached (after the implementation's retries), kIoError for any other
// failure. Messages name the path (and for S3 the server's error code).
//
// Implementations are safe to use from several threads at once (DeleteMany
// itself may use a few).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/s3_config.h"

namespace hoglake {

// One entry of a listing.
struct ObjectInfo {
  std::string path;  // full URI
  uint64_t size = 0;
};

// A streamed write of one object: Append chunks in order, then Commit makes
// the object visible at its path in one step. Until Commit succeeds nothing
// is visible at the path. Abort (or destroying the writer without a
// successful Commit) discards what was written. After an error, Commit
// fails and only Abort or destruction remain useful. Not thread-safe.
class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;

  virtual Status Append(std::string_view bytes) = 0;
  // Publishes the object; durable when it returns OK.
  virtual Status Commit() = 0;
  // Discards the write. OK if there was nothing to discard.
  virtual Status Abort() = 0;
  // Bytes appended so far.
  virtual uint64_t bytes_written() const = 0;
};

class ObjectStore {
 public:
  // DeleteMany's batching (see there).
  static constexpr size_t kDeleteManyChunk = 1000;
  // Eight: on file:// an unlink mostly waits in the kernel, and a 2,000-path
  // cleanup batch drained at 19.0K paths/s on eight vs 15.7K on four (mean
  // of five interleaved full maintenance_bench runs each).
  static constexpr int kDeleteManyWorkers = 8;
  static constexpr size_t kDeleteManyPathsPerWorker = 64;

  virtual ~ObjectStore() = default;

  // The URI this store serves (e.g. "file:///var/lake", "s3://bucket/lake").
  virtual const std::string& root() const = 0;

  // Writes `bytes` as the whole object at `path`, replacing any object there.
  virtual Status Put(std::string_view path, std::string_view bytes) = 0;

  // Starts a streamed write of the object at `path` (see ObjectWriter).
  virtual Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view path) = 0;

  // The whole object.
  virtual Result<std::string> Get(std::string_view path) = 0;

  // Up to `length` bytes starting at `offset`: fewer only when the object
  // ends first. offset == size gives an empty string; offset > size is
  // kInvalidArgument.
  virtual Result<std::string> GetRange(std::string_view path, uint64_t offset, uint64_t length) = 0;

  // The object's size in bytes; kNotFound when absent.
  virtual Result<uint64_t> Head(std::string_view path) = 0;

  // Removes the object. An absent object is not an error: the result says
  // whether there was one to remove.
  virtual Result<bool> Delete(std::string_view path) = 0;

  // Removes the objects at `paths`, each as Delete would. Element i of the
  // result is paths[i]'s outcome: true when an object was removed, false
  // when there was none, or that path's own error (a bad path fails only
  // itself). Stores remove in bulk where they can: S3 sends one
  // DeleteObjects request per kDeleteManyChunk keys, which does not say
  // whether a key existed, so every key it confirms deleted reads true. The
  // default runs Delete on up to kDeleteManyWorkers threads (one per
  // kDeleteManyPathsPerWorker paths).
  virtual std::vector<Result<bool>> DeleteMany(const std::vector<std::string>& paths);

  // Every object whose path starts with `prefix` (a plain string prefix of
  // the full URI, not only a "directory"), sorted by path. The prefix must
  // lie under the root. Cost: proportional to the objects under the
  // prefix's directory (local) or one request per 1000 keys (S3).
  virtual Result<std::vector<ObjectInfo>> List(std::string_view prefix) = 0;
};

// Checks an object key (the part of a path below a store's root): non-empty
// '/'-separated segments, none "." or "..", no NUL byte. kInvalidArgument
// naming `path` (the whole URI, for the message) otherwise.
Status CheckObjectKey(std::string_view key, std::string_view path);

// Opens the store serving `root_uri`:
//   file:///abs/dir       → LocalStore rooted at /abs/dir (created if missing)
//   s3://bucket[/prefix]  → S3Store for that bucket (and key prefix), using
//                           `s3` completed from the AWS environment variables
//                           (ResolveS3Config)
// Any other scheme is kInvalidArgument.
Result<std::unique_ptr<ObjectStore>> OpenObjectStore(std::string_view root_uri,
                                                     const S3Config& s3 = {});

}  // namespace hoglake
