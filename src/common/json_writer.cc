#include "common/json_writer.h"

#include <sys/mman.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <mutex>
#include <utility>

#include "common/json_text.h"

namespace hoglake {

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_.push_back(',');
    first_.back() = false;
  }
}

void JsonWriter::Open(char c) {
  BeforeValue();
  out_.push_back(c);
  first_.push_back(true);
}

void JsonWriter::Close(char c) {
  out_.push_back(c);
  first_.pop_back();
}

void JsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendJsonString(key, &out_);
  out_.push_back(':');
  after_key_ = true;
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendJsonString(value, &out_);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof(buf), value).ptr;
  out_.append(buf, static_cast<size_t>(end - buf));
}

void JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof(buf), value).ptr;
  out_.append(buf, static_cast<size_t>(end - buf));
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

void JsonWriter::EnsureSpare(size_t bytes) {
  if (out_.capacity() - out_.size() >= bytes) return;
  std::string next = AcquireJsonSegment();
  if (next.capacity() < bytes) next.reserve(bytes);
  // A short head (the opening "[", say) moves along rather than becoming a
  // segment of its own.
  constexpr size_t kShortHead = size_t{64} << 10;
  if (out_.size() < kShortHead) {
    next.append(out_);
    RecycleJsonSegment(std::move(out_));
  } else {
    sealed_.push_back(std::move(out_));
  }
  out_ = std::move(next);
}

std::string JsonWriter::Take() {
  if (sealed_.empty()) return std::move(out_);
  size_t total = out_.size();
  for (const std::string& segment : sealed_) total += segment.size();
  std::string text;
  text.reserve(total);
  for (std::string& segment : TakeSegments()) {
    text += segment;
    RecycleJsonSegment(std::move(segment));
  }
  return text;
}

std::vector<std::string> JsonWriter::TakeSegments() {
  std::vector<std::string> segments = std::move(sealed_);
  sealed_.clear();
  if (!out_.empty()) segments.push_back(std::move(out_));
  out_ = std::string();
  return segments;
}

void JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ += json;
}

namespace {

constexpr size_t kMaxFreeSegments = 16;

struct FreeSegments {
  std::mutex mu;
  std::vector<std::string> buffers;
};

// Never destroyed: handler threads may still recycle while the process exits.
FreeSegments& Free() {
  static auto* free = new FreeSegments;
  return *free;
}

// Advises the 2 MiB-aligned interior of `buffer`'s storage to use
// transparent huge pages; advice only, errors ignored.
void AdviseHugePages(std::string& buffer) {
  constexpr size_t kHuge = size_t{2} << 20;
  const auto begin = reinterpret_cast<uintptr_t>(buffer.data());
  const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = (begin + buffer.capacity()) & ~(kHuge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace

std::string AcquireJsonSegment() {
  {
    FreeSegments& free = Free();
    std::lock_guard lock(free.mu);
    if (!free.buffers.empty()) {
      std::string segment = std::move(free.buffers.back());
      free.buffers.pop_back();
      return segment;
    }
  }
  std::string segment;
  segment.reserve(kJsonSegmentBytes);
  AdviseHugePages(segment);
  return segment;
}

void RecycleJsonSegment(std::string segment) {
  if (segment.capacity() < kJsonSegmentBytes || segment.capacity() >= 2 * kJsonSegmentBytes) return;
  segment.clear();
  FreeSegments& free = Free();
  std::lock_guard lock(free.mu);
  if (free.buffers.size() < kMaxFreeSegments) free.buffers.push_back(std::move(segment));
}

}  // namespace hoglake
