// The Thrift compact protocol, hand-written for the few shapes Parquet
// metadata uses: structs of numbered fields, lists, binary/strings, bools,
// i8/i16/i32/i64 (zigzag varints) and doubles.
//
// Wire facts this codec relies on:
//   - integers are zigzag-encoded ULEB128 varints (i8 is one raw byte);
//   - a field header is one byte `delta << 4 | type` when the field id grows
//     by 1..15 from the previous field of the same struct, else `type` then
//     the id as a zigzag varint; type 0 (stop) ends a struct;
//   - a bool field carries its value in the header type (1 true, 2 false);
//     inside a list each bool is one byte (1 true, anything else false);
//   - a list header is `size << 4 | element type` for size < 15, else
//     `0xF0 | element type` then the size as a varint; sets look the same;
//   - a map header is a varint size, then (size > 0) one byte key<<4|value;
//   - binary is a varint length then the bytes; doubles are 8 LE bytes.
//
// CompactReader is built for untrusted bytes: every length is checked
// against the bytes that remain, list sizes cannot exceed the remaining byte
// count (each element takes at least one byte), nesting is bounded by
// kMaxDepth, and unknown fields of any type are skipped. Errors are
// InvalidData naming what was wrong and where.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake::parquet::thrift {

enum class CType : uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// Appends compact-protocol bytes to a string. Field ids within one struct
// must be written in increasing order (deltas), as Thrift generators do.
class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  // Struct framing. The top-level struct starts with BeginStruct() too.
  void BeginStruct();
  void EndStruct();  // writes the stop byte

  void FieldI8(int16_t id, int8_t v);
  void FieldI16(int16_t id, int16_t v);
  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldBool(int16_t id, bool v);
  void FieldDouble(int16_t id, double v);
  void FieldBinary(int16_t id, std::string_view v);
  // A struct-valued field: writes the header and begins the struct; close it
  // with EndStruct().
  void FieldStructBegin(int16_t id);
  // A list-valued field; then write `size` elements with the element calls.
  void FieldListBegin(int16_t id, CType element_type, int32_t size);

  // List elements.
  void ElementI32(int32_t v) { Varint(ZigZag(v)); }
  void ElementI64(int64_t v) { Varint(ZigZag(v)); }
  void ElementBinary(std::string_view v);
  void ElementBool(bool v) { out_->push_back(v ? 1 : 2); }
  void ElementStructBegin() { BeginStruct(); }

 private:
  static uint64_t ZigZag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }
  void Varint(uint64_t v);
  void FieldHeader(int16_t id, CType type);

  std::string* out_;
  std::vector<int16_t> stack_;
  int16_t last_id_ = 0;
};

// Reads compact-protocol bytes from a borrowed range.
class CompactReader {
 public:
  static constexpr int kMaxDepth = 64;

  CompactReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  // Struct framing: BeginStruct() before the first ReadFieldHeader of a
  // struct, EndStruct() after it returned the stop marker.
  Status BeginStruct();
  void EndStruct();
  // The next field header of the current struct. `*type == kStop` at the end.
  Status ReadFieldHeader(int16_t* id, CType* type);

  // Values. `type` is the wire type the field header announced; a reader
  // refuses a type that cannot hold the expected value.
  Status ReadBool(CType type, bool* v);  // field context (value in the header)
  Status ReadElementBool(bool* v);       // list-element context (one byte)
  Status ReadI8(CType type, int8_t* v);
  Status ReadI16(CType type, int16_t* v);
  Status ReadI32(CType type, int32_t* v);
  Status ReadI64(CType type, int64_t* v);
  Status ReadDouble(CType type, double* v);
  Status ReadBinary(CType type, std::string* v);
  // A list (or set) header; `size` is checked against the remaining bytes.
  Status ReadListHeader(CType type, CType* element_type, int32_t* size);

  // Skips one value of wire type `type`, recursing into containers.
  Status Skip(CType type);

 private:
  Status ReadVarint(uint64_t* v);
  Status ReadZigZag(int64_t* v);
  Status SkipAt(CType type, int depth);
  Error Corrupt(std::string_view what) const;

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::vector<int16_t> stack_;
  int16_t last_id_ = 0;
};

// "stop", "bool", "i32", ... for error messages.
std::string_view CTypeName(CType type);

}  // namespace hoglake::parquet::thrift
