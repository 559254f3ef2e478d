// ObjectSource: a RandomAccessSource (common/random_access.h) over one object
// of an ObjectStore, read by ranged GETs, so a Parquet file in S3 is read
// without downloading it whole.
//
// WillRead(ranges) fetches the ranges a reader is about to read (a row
// group's column chunks) in as few requests as CoalesceRanges gives (gaps up
// to kCoalesceGapBytes merged, requests up to kCoalesceMaxBytes) and keeps
// them until the next WillRead; a ReadInto inside a kept range is served
// from it, any other is its own ranged GET. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/random_access.h"
#include "storage/object_store.h"

namespace hoglake {

class ObjectSource : public RandomAccessSource {
 public:
  // Nearby ranges closer than this are fetched in one request: reading a
  // gap costs less than a request's round trip to S3.
  static constexpr int64_t kCoalesceGapBytes = int64_t{1} << 20;
  static constexpr int64_t kCoalesceMaxBytes = int64_t{64} << 20;

  // `size` when the caller knows it (the catalog records every file's size),
  // else the store is asked (one HEAD). The store must outlive the source.
  static Result<std::shared_ptr<ObjectSource>> Open(ObjectStore* store, std::string path,
                                                    std::optional<int64_t> size = std::nullopt);

  ObjectSource(ObjectStore* store, std::string path, int64_t size);

  const std::string& name() const override { return path_; }
  int64_t size() const override { return size_; }
  Status ReadInto(int64_t offset, int64_t length, char* out) override;
  Status WillRead(std::span<const ByteRange> ranges) override;

  // Ranged GETs this source has sent.
  int64_t requests() const;

 private:
  Result<std::string> Fetch(int64_t offset, int64_t length);

  ObjectStore* store_;
  std::string path_;
  int64_t size_;
  mutable std::mutex mutex_;
  struct Kept {
    ByteRange range;
    std::shared_ptr<const std::string> bytes;
  };
  std::vector<Kept> kept_;
  int64_t requests_ = 0;
};

}  // namespace hoglake
