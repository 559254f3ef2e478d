// Builders: append values and nulls, then Finish() into an immutable array.
//
//   Int64Builder ids;             ids.Append(7); ids.AppendNull();
//   ListBuilder tags(List(Utf8()));
//   tags.Append();                // starts a list; its elements go to
//   tags.value_builder<BinaryBuilder>().Append("a");
//   tags.AppendNull();            // a null list
//   StructBuilder addr(Struct({...}));
//   addr.Append();                // a valid row: append to every child
//   addr.AppendNull();            // a null row: children get a null each
//
// MakeBuilder(type) makes the right builder (recursively) for any type.
// Finish() checks what appending cannot (struct children of equal length,
// map keys non-null) and resets the builder for reuse.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/array.h"

namespace hoglake::columnar {

class ArrayBuilder {
 public:
  explicit ArrayBuilder(DataTypePtr type) : type_(std::move(type)) {}
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const DataTypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  // Appends one null slot.
  virtual void AppendNull() = 0;
  // Returns the array built so far and resets the builder.
  Result<ArrayPtr> Finish();

 protected:
  // Records validity of one new slot.
  void AppendValidity(bool valid) {
    if (!valid && !validity_started_) StartValidity();
    if (validity_started_) validity_.Append(valid);
    if (!valid) ++null_count_;
    ++length_;
  }
  // Fills buffers[1..] and children of `out` (validity/length are done).
  virtual Status FinishInto(ArrayData* out) = 0;

 private:
  void StartValidity() {
    validity_.AppendN(length_, true);
    validity_started_ = true;
  }

  DataTypePtr type_;
  BitmapBuilder validity_;
  bool validity_started_ = false;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

// Fixed-width numbers and temporal values: CType is the stored C type.
template <typename CType>
class NumericBuilder : public ArrayBuilder {
 public:
  using ArrayBuilder::ArrayBuilder;
  void Append(CType value) {
    values_.AppendValue(value);
    AppendValidity(true);
  }
  void AppendNull() override {
    values_.AppendValue(CType{});
    AppendValidity(false);
  }
  void Reserve(int64_t n) { values_.Reserve(n * static_cast<int64_t>(sizeof(CType))); }

 protected:
  Status FinishInto(ArrayData* out) override {
    out->buffers.push_back(values_.Finish());
    return Status::Ok();
  }

 private:
  BufferBuilder values_;
};

// Convenience builders whose constructors pick the type.
#define HOGLAKE_NUMERIC_BUILDER(Name, CType, TypeFactory)                       \
  class Name : public NumericBuilder<CType> {                                   \
   public:                                                                      \
    Name() : NumericBuilder<CType>(TypeFactory()) {}                            \
    explicit Name(DataTypePtr type) : NumericBuilder<CType>(std::move(type)) {} \
  };
HOGLAKE_NUMERIC_BUILDER(Int8Builder, int8_t, Int8)
HOGLAKE_NUMERIC_BUILDER(Int16Builder, int16_t, Int16)
HOGLAKE_NUMERIC_BUILDER(Int32Builder, int32_t, Int32)
HOGLAKE_NUMERIC_BUILDER(Int64Builder, int64_t, Int64)
HOGLAKE_NUMERIC_BUILDER(UInt8Builder, uint8_t, UInt8)
HOGLAKE_NUMERIC_BUILDER(UInt16Builder, uint16_t, UInt16)
HOGLAKE_NUMERIC_BUILDER(UInt32Builder, uint32_t, UInt32)
HOGLAKE_NUMERIC_BUILDER(UInt64Builder, uint64_t, UInt64)
HOGLAKE_NUMERIC_BUILDER(Float32Builder, float, Float32)
HOGLAKE_NUMERIC_BUILDER(Float64Builder, double, Float64)
HOGLAKE_NUMERIC_BUILDER(Date32Builder, int32_t, Date32)
#undef HOGLAKE_NUMERIC_BUILDER
// time64 / timestamp: give the type (unit, time zone).
using Time64Builder = NumericBuilder<int64_t>;
using TimestampBuilder = NumericBuilder<int64_t>;

class BooleanBuilder : public ArrayBuilder {
 public:
  BooleanBuilder() : ArrayBuilder(Bool()) {}
  explicit BooleanBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}
  void Append(bool value) {
    bits_.Append(value);
    AppendValidity(true);
  }
  void AppendNull() override {
    bits_.Append(false);
    AppendValidity(false);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BitmapBuilder bits_;
};

// decimal128(p, s): values are unscaled 128-bit integers.
class Decimal128Builder : public ArrayBuilder {
 public:
  explicit Decimal128Builder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}
  void Append(__int128 unscaled) {
    values_.AppendValue(unscaled);
    AppendValidity(true);
  }
  void AppendNull() override {
    values_.AppendValue(__int128{0});
    AppendValidity(false);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BufferBuilder values_;
};

// utf8 and binary. Total bytes must stay below 2 GiB (int32 offsets); Finish
// reports the overflow.
class BinaryBuilder : public ArrayBuilder {
 public:
  explicit BinaryBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {
    offsets_.AppendValue<int32_t>(0);
  }
  void Append(std::string_view value) {
    bytes_.Append(value.data(), static_cast<int64_t>(value.size()));
    offsets_.AppendValue(static_cast<int32_t>(bytes_.size()));
    AppendValidity(true);
  }
  void AppendNull() override {
    offsets_.AppendValue(static_cast<int32_t>(bytes_.size()));
    AppendValidity(false);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BufferBuilder offsets_;
  BufferBuilder bytes_;
};

class StringBuilder : public BinaryBuilder {
 public:
  StringBuilder() : BinaryBuilder(Utf8()) {}
};

// fixed_size_binary(n), e.g. uuid. Append() of a value whose size is not n
// returns an error and appends nothing.
class FixedSizeBinaryBuilder : public ArrayBuilder {
 public:
  explicit FixedSizeBinaryBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}
  Status Append(std::string_view value);
  void AppendNull() override;

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BufferBuilder values_;
};

// list<element>: Append() opens a list whose elements are then appended to
// value_builder().
class ListBuilder : public ArrayBuilder {
 public:
  // Makes the element builder with MakeBuilder.
  explicit ListBuilder(DataTypePtr type);
  void Append();
  void AppendNull() override;
  ArrayBuilder& value_builder() { return *values_; }
  template <typename B>
  B& value_builder() {
    return static_cast<B&>(*values_);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> values_;
};

// struct<fields...>: Append() marks a valid row; append one value to every
// child yourself. AppendNull() appends a null to every child too.
class StructBuilder : public ArrayBuilder {
 public:
  explicit StructBuilder(DataTypePtr type);
  void Append() { AppendValidity(true); }
  void AppendNull() override;
  int num_children() const { return static_cast<int>(children_.size()); }
  ArrayBuilder& child(int i) { return *children_[i]; }
  template <typename B>
  B& child(int i) {
    return static_cast<B&>(*children_[i]);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> children_;
};

// map<key, value>: Append() opens a map; append each entry's key to
// key_builder() and its value to item_builder().
class MapBuilder : public ArrayBuilder {
 public:
  explicit MapBuilder(DataTypePtr type);
  void Append();
  void AppendNull() override;
  ArrayBuilder& key_builder() { return *keys_; }
  ArrayBuilder& item_builder() { return *items_; }
  template <typename B>
  B& key_builder() {
    return static_cast<B&>(*keys_);
  }
  template <typename B>
  B& item_builder() {
    return static_cast<B&>(*items_);
  }

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> items_;
};

// The builder for any type, nested builders included.
std::unique_ptr<ArrayBuilder> MakeBuilder(const DataTypePtr& type);

}  // namespace hoglake::columnar
