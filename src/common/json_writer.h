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
  // Makes room for at least `bytes` more output without another
  // reallocation, growing the buffer geometrically. Large buffers (≥ 8 MiB)
  // are advised to use transparent huge pages: first-touch page faults are
  // what a multi-megabyte document (a scan plan with statistics) otherwise
  // spends most of its time on.
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

  const std::string& text() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void BeforeValue();
  void Open(char c);
  void Close(char c);

  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace hoglake
