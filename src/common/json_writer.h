// JsonWriter: builds JSON text in one pass, inserting commas itself.
//
//   JsonWriter w;
//   w.BeginObject();
//   w.Key("name"); w.String("events");
//   w.Key("ids");  w.BeginArray(); w.Int(1); w.Int(2); w.EndArray();
//   w.EndObject();
//   std::string text = w.Take();   // {"name":"events","ids":[1,2]}
//
// Integers are exact (int64/uint64); strings are escaped as JSON.stringify
// does. Nothing checks that keys and values alternate: callers pair them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hoglake {

class JsonWriter {
 public:
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key);
  void String(std::string_view value);
  void Int(int64_t value);
  void UInt(uint64_t value);
  void Bool(bool value);
  void Null();
  // Appends already-encoded JSON as one value.
  void Raw(std::string_view json);
  // Appends one value that `append(std::string*)` encodes straight into the
  // output (no intermediate string).
  template <typename Append>
  void RawWith(Append&& append) {
    BeforeValue();
    append(&out_);
  }
  // Makes room for at least `bytes` more output without ever moving what
  // is already written: when the buffer lacks room, the text so far is
  // sealed as a finished segment and writing continues in a fresh buffer of
  // at least kJsonSegmentBytes (AcquireJsonSegment). A large document (a
  // scan plan with statistics) is thus built without regrowth copies; hand
  // it over with TakeSegments().
  void EnsureSpare(size_t bytes);

  // Key + value helpers; the Optional forms omit the key when empty (the
  // contract's null-omission rule).
  void Field(std::string_view key, std::string_view value) {
    Key(key);
    String(value);
  }
  void Field(std::string_view key, const char* value) {
    Key(key);
    String(value);
  }
  void Field(std::string_view key, int64_t value) {
    Key(key);
    Int(value);
  }
  void Field(std::string_view key, bool value) {
    Key(key);
    Bool(value);
  }
  // key: [..] of strings, JSON null for each nullopt; omitted when `values`
  // is itself nullopt (e.g. a partition tuple).
  void OptionalField(std::string_view key,
                     const std::optional<std::vector<std::optional<std::string>>>& values) {
    if (!values) return;
    Key(key);
    BeginArray();
    for (const auto& v : *values) v ? String(*v) : Null();
    EndArray();
  }
  void OptionalField(std::string_view key, const std::optional<std::string>& value) {
    if (value) Field(key, std::string_view(*value));
  }
  void OptionalField(std::string_view key, const std::optional<int64_t>& value) {
    if (value) Field(key, *value);
  }

  // The text written so far; only while it is one buffer (EnsureSpare never
  // sealed a segment).
  const std::string& text() const { return out_; }
  // The whole text as one string (joined, one copy, if EnsureSpare sealed
  // segments).
  std::string Take();
  // Everything written so far, as segments whose concatenation is the text
  // (none when nothing was written); no byte is copied. The nesting state is
  // kept, so writing may continue: later output continues the document.
  std::vector<std::string> TakeSegments();

 private:
  void BeforeValue();
  void Open(char c);
  void Close(char c);

  std::vector<std::string> sealed_;  // finished segments, before out_
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Segment buffers for large output (JsonWriter::EnsureSpare), reused through
// a small process-wide free list so that a large response does not fault in
// fresh pages each time. Thread-safe.
inline constexpr size_t kJsonSegmentBytes = size_t{4} << 20;
// An empty string with capacity >= kJsonSegmentBytes: a recycled one when
// available, else a new one (advised to use transparent huge pages).
std::string AcquireJsonSegment();
// Gives a buffer back for reuse: kept (cleared) if it came from
// AcquireJsonSegment and the free list holds fewer than 16 (64 MiB, so
// idle memory stays bounded); else freed.
void RecycleJsonSegment(std::string segment);

}  // namespace hoglake
