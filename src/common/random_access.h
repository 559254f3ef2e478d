// RandomAccessSource: the bytes of one immutable file or object, read by
// ranges (LevelDB's RandomAccessFile is the model). Readers of file formats
// (the Parquet reader) take one, so they read a local file, a buffer in
// memory or an object in a store (storage/object_source.h: S3 ranged GETs)
// the same way, without knowing which.
//
// The contract:
//   - size() is fixed for the source's life (objects are immutable);
//   - ReadInto(offset, length, out) fills out[0, length) with the bytes
//     [offset, offset + length), which the caller has checked lie within
//     size(); a short file or object is kIoError naming the source;
//   - View() hands out bytes the source already holds, without a copy
//     (a source in memory); nullopt means "use ReadInto";
//   - WillRead(ranges) tells the source which ranges are about to be read,
//     so a remote source can fetch them in a few coalesced requests (nearby
//     ranges merged, CoalesceRanges); local sources ignore it;
//   - ReadInto, View and WillRead are safe to call from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake {

struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
  bool operator==(const ByteRange&) const = default;
};

class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  // For error messages: the file's path or the object's URI.
  virtual const std::string& name() const = 0;
  virtual int64_t size() const = 0;
  virtual Status ReadInto(int64_t offset, int64_t length, char* out) = 0;
  virtual std::optional<std::string_view> View(int64_t /*offset*/, int64_t /*length*/) {
    return std::nullopt;
  }
  virtual Status WillRead(std::span<const ByteRange> /*ranges*/) { return Status::Ok(); }
};

// A local file read with pread(2). kIoError naming the path when it cannot
// be opened.
Result<std::shared_ptr<RandomAccessSource>> OpenLocalFileSource(const std::string& path);

// Bytes in memory, shared with the caller; View() never copies.
std::shared_ptr<RandomAccessSource> MemorySource(std::shared_ptr<const std::string> bytes,
                                                 std::string name = "buffer");

// The ranges to request for `ranges`: sorted, empty ones dropped, and
// neighbours merged when the gap between them is at most `max_gap` bytes and
// the merged range stays within `max_merged` bytes; overlapping ranges are
// always merged, so no byte is fetched twice (a range larger than the bound
// is kept whole). The output ranges are disjoint, and every input range lies
// inside exactly one of them.
std::vector<ByteRange> CoalesceRanges(std::span<const ByteRange> ranges, int64_t max_gap,
                                      int64_t max_merged);

}  // namespace hoglake
