#include "common/json_writer.h"

#include <sys/mman.h>

#include <algorithm>
#include <charconv>
#include <cstdint>

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
  out_.append(buf, end);
}

void JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof(buf), value).ptr;
  out_.append(buf, end);
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
  const size_t want = std::max(out_.capacity() * 2, out_.size() + bytes);
  out_.reserve(want);
  constexpr size_t kHuge = size_t{2} << 20;
  if (want < 4 * kHuge) return;
  // The 2 MiB-aligned interior of the new buffer; advice only, errors ignored.
  const auto begin = reinterpret_cast<uintptr_t>(out_.data());
  const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = (begin + out_.capacity()) & ~(kHuge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

void JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ += json;
}

}  // namespace hoglake
