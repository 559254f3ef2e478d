// RandomAccessStream: a std::istream over a RandomAccessSource
// (random_access.h), read front to back in ranged reads of `chunk_bytes`
// (an object in a store: one ranged GET per chunk), so a text reader that
// takes an istream (CSV, JSON lines) parses an object of any size while only
// one chunk of it is in memory. The reader sees one continuous byte stream:
// a record, a quoted field or a multi-byte UTF-8 character that spans two
// chunks is whole to it.
//
// A read that fails (the store unreachable, the object shorter than its
// size) sets the stream's badbit; error() then holds the source's error, so
// a reader's "reading the input failed" can be replaced by what happened.
// Rewind() starts again from the first byte (a second pass). Not
// thread-safe.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <vector>

#include "common/random_access.h"
#include "common/status.h"

namespace hoglake {

class RandomAccessStreamBuf : public std::streambuf {
 public:
  static constexpr int64_t kDefaultChunkBytes = int64_t{4} << 20;

  RandomAccessStreamBuf(std::shared_ptr<RandomAccessSource> source, int64_t chunk_bytes);

  // Back to the first byte, clearing any error.
  void Rewind();
  // The first failed read's error, if any.
  const std::optional<Error>& error() const { return error_; }
  // Bytes fetched from the source so far (all passes).
  int64_t bytes_fetched() const { return bytes_fetched_; }

 protected:
  int_type underflow() override;

 private:
  std::shared_ptr<RandomAccessSource> source_;
  std::vector<char> chunk_;
  int64_t next_offset_ = 0;  // of the byte after the current chunk
  int64_t bytes_fetched_ = 0;
  std::optional<Error> error_;
};

class RandomAccessStream : public std::istream {
 public:
  explicit RandomAccessStream(std::shared_ptr<RandomAccessSource> source,
                              int64_t chunk_bytes = RandomAccessStreamBuf::kDefaultChunkBytes);

  // Back to the first byte with the stream's state cleared.
  void Rewind();
  const std::optional<Error>& error() const { return buffer_.error(); }
  int64_t bytes_fetched() const { return buffer_.bytes_fetched(); }

 private:
  RandomAccessStreamBuf buffer_;
};

}  // namespace hoglake
