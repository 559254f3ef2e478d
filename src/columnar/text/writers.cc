#include "columnar/text/writers.h"

#include <limits>
#include <vector>

#include "columnar/text/values.h"
#include "common/encoding.h"
#include "common/uuid.h"

namespace hoglake::columnar::text::textimport {

using columnar::ArrayBuilder;
using columnar::Field;
using columnar::TypeId;

ValueWriter::ValueWriter(const Field& field, ArrayBuilder* builder)
    : field_(&field), builder_(builder), label_(TypeLabel(field)) {}

bool ValueWriter::AppendJson(const JsonTree& tree, uint32_t index, std::string* why) {
  if (tree.node(index).kind == JsonNode::kString) return AppendText(tree.node(index).view(), why);
  return WrongJsonType(tree, index, "a JSON string", why);
}

bool ValueWriter::WrongJsonType(const JsonTree& tree, uint32_t index, std::string_view expected,
                                std::string* why) const {
  std::string shown;
  tree.AppendText(index, &shown);
  *why = CannotRead(shown, label_,
                    StrCat("expected ", expected, ", found ", JsonKindName(tree.node(index).kind)));
  return false;
}

bool ValueWriter::Fail(std::string_view text, std::string_view reason, std::string* why) const {
  *why = CannotRead(text, label_, reason);
  return false;
}

bool AppendJsonOrNull(ValueWriter& writer, const JsonTree& tree, uint32_t index, std::string* why) {
  if (tree.node(index).kind != JsonNode::kNull) return writer.AppendJson(tree, index, why);
  if (!writer.field().nullable) {
    *why = StrCat("null for '", writer.field().name, "', which is not nullable");
    return false;
  }
  writer.AppendNull();
  return true;
}

namespace {

// ---- scalars -----------------------------------------------------------------

class BoolWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    bool value = false;
    if (!ParseBool(text, &value, &reason_)) return Fail(text, reason_, why);
    static_cast<columnar::BooleanBuilder*>(builder_)->Append(value);
    return true;
  }
  bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why) override {
    const JsonNode& node = tree.node(index);
    if (node.kind == JsonNode::kTrue || node.kind == JsonNode::kFalse) {
      static_cast<columnar::BooleanBuilder*>(builder_)->Append(node.kind == JsonNode::kTrue);
      return true;
    }
    if (node.kind == JsonNode::kString) return AppendText(node.view(), why);
    return WrongJsonType(tree, index, "a JSON boolean", why);
  }

 private:
  std::string reason_;
};

// Numbers take JSON numbers (their exact text) and strings.
class NumberWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why) override {
    const JsonNode& node = tree.node(index);
    if (node.kind == JsonNode::kNumber || node.kind == JsonNode::kString) {
      return AppendText(node.view(), why);
    }
    return WrongJsonType(tree, index, "a JSON number", why);
  }

 protected:
  std::string reason_;
};

template <typename CType>
class IntWriter : public NumberWriter {
 public:
  using NumberWriter::NumberWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    int64_t value = 0;
    if (!ParseInteger(text, std::numeric_limits<CType>::min(), std::numeric_limits<CType>::max(),
                      &value, &reason_)) {
      return Fail(text, reason_, why);
    }
    static_cast<columnar::NumericBuilder<CType>*>(builder_)->Append(static_cast<CType>(value));
    return true;
  }
};

class UInt64Writer : public NumberWriter {
 public:
  using NumberWriter::NumberWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    uint64_t value = 0;
    if (!ParseUInt64(text, &value, &reason_)) return Fail(text, reason_, why);
    static_cast<columnar::UInt64Builder*>(builder_)->Append(value);
    return true;
  }
};

template <typename F>
class FloatWriter : public NumberWriter {
 public:
  using NumberWriter::NumberWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    F value{};
    bool ok;
    if constexpr (sizeof(F) == 4) {
      ok = ParseFloat32(text, &value, &reason_);
    } else {
      ok = ParseFloat64(text, &value, &reason_);
    }
    if (!ok) return Fail(text, reason_, why);
    static_cast<columnar::NumericBuilder<F>*>(builder_)->Append(value);
    return true;
  }
};

class DecimalWriter : public NumberWriter {
 public:
  using NumberWriter::NumberWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    __int128 value = 0;
    if (!ParseDecimal(text, field_->type->precision, field_->type->scale, &value, &reason_)) {
      return Fail(text, reason_, why);
    }
    static_cast<columnar::Decimal128Builder*>(builder_)->Append(value);
    return true;
  }
};

class DateWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    int32_t days = 0;
    if (!ParseDate(text, &days, &reason_)) return Fail(text, reason_, why);
    static_cast<columnar::Date32Builder*>(builder_)->Append(days);
    return true;
  }

 private:
  std::string reason_;
};

class TimeWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    int64_t ticks = 0;
    if (!ParseTime(text, field_->type->unit, &ticks, &reason_)) return Fail(text, reason_, why);
    static_cast<columnar::Time64Builder*>(builder_)->Append(ticks);
    return true;
  }

 private:
  std::string reason_;
};

class TimestampWriter : public ValueWriter {
 public:
  TimestampWriter(const Field& field, ArrayBuilder* builder)
      : ValueWriter(field, builder), with_zone_(!field.type->timezone.empty()) {}
  bool AppendText(std::string_view text, std::string* why) override {
    int64_t ticks = 0;
    if (!ParseTimestamp(text, field_->type->unit, with_zone_, &ticks, &reason_)) {
      return Fail(text, reason_, why);
    }
    static_cast<columnar::TimestampBuilder*>(builder_)->Append(ticks);
    return true;
  }

 private:
  bool with_zone_;
  std::string reason_;
};

class StringWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    if (!IsUtf8(text)) return Fail(text, "not valid UTF-8", why);
    static_cast<columnar::BinaryBuilder*>(builder_)->Append(text);
    return true;
  }
  bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why) override {
    if (tree.node(index).kind != JsonNode::kString) {
      return WrongJsonType(tree, index, "a JSON string", why);
    }
    // The JSON parser has validated the string's UTF-8.
    static_cast<columnar::BinaryBuilder*>(builder_)->Append(tree.node(index).view());
    return true;
  }
  bool empty_is_value() const override { return true; }
};

// utf8 + arrow.json: text must be one JSON value and is stored as written; a
// non-string JSON node is stored as its compact text.
class JsonTextWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    if (!IsUtf8(text)) return Fail(text, "not valid UTF-8", why);
    if (!IsJsonText(text, &reason_)) return Fail(text, reason_, why);
    static_cast<columnar::BinaryBuilder*>(builder_)->Append(text);
    return true;
  }
  bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why) override {
    if (tree.node(index).kind == JsonNode::kString) {
      return AppendText(tree.node(index).view(), why);
    }
    text_.clear();
    tree.AppendText(index, &text_);
    static_cast<columnar::BinaryBuilder*>(builder_)->Append(text_);
    return true;
  }

 private:
  std::string reason_;
  std::string text_;
};

class BinaryWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    Result<std::string> bytes = Base64Decode(TrimBlanks(text));
    if (!bytes.ok()) return Fail(text, "not base64: " + bytes.error().message, why);
    static_cast<columnar::BinaryBuilder*>(builder_)->Append(*bytes);
    return true;
  }
  bool empty_is_value() const override { return true; }
};

class UuidWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    Result<UuidBytes> uuid = ParseUuid(TrimBlanks(text));
    if (!uuid.ok()) return Fail(text, "expected 8-4-4-4-12 hex digits", why);
    const std::string_view bytes(reinterpret_cast<const char*>(uuid->data()), uuid->size());
    Status status = static_cast<columnar::FixedSizeBinaryBuilder*>(builder_)->Append(bytes);
    if (!status.ok()) return Fail(text, status.error().message, why);
    return true;
  }
};

// fixed_size_binary(n ≠ 16): base64 of exactly n bytes.
class FixedBinaryWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    Result<std::string> bytes = Base64Decode(TrimBlanks(text));
    if (!bytes.ok()) return Fail(text, "not base64: " + bytes.error().message, why);
    if (static_cast<int32_t>(bytes->size()) != field_->type->byte_width) {
      return Fail(text,
                  StrCat("expected ", field_->type->byte_width, " bytes, found ", bytes->size()),
                  why);
    }
    Status status = static_cast<columnar::FixedSizeBinaryBuilder*>(builder_)->Append(*bytes);
    if (!status.ok()) return Fail(text, status.error().message, why);
    return true;
  }
};

}  // namespace

std::unique_ptr<ValueWriter> MakeValueWriter(const Field& field, ArrayBuilder* builder) {
  switch (field.type->id) {
    case TypeId::kBool:
      return std::make_unique<BoolWriter>(field, builder);
    case TypeId::kInt8:
      return std::make_unique<IntWriter<int8_t>>(field, builder);
    case TypeId::kInt16:
      return std::make_unique<IntWriter<int16_t>>(field, builder);
    case TypeId::kInt32:
      return std::make_unique<IntWriter<int32_t>>(field, builder);
    case TypeId::kInt64:
      return std::make_unique<IntWriter<int64_t>>(field, builder);
    case TypeId::kUInt8:
      return std::make_unique<IntWriter<uint8_t>>(field, builder);
    case TypeId::kUInt16:
      return std::make_unique<IntWriter<uint16_t>>(field, builder);
    case TypeId::kUInt32:
      return std::make_unique<IntWriter<uint32_t>>(field, builder);
    case TypeId::kUInt64:
      return std::make_unique<UInt64Writer>(field, builder);
    case TypeId::kFloat32:
      return std::make_unique<FloatWriter<float>>(field, builder);
    case TypeId::kFloat64:
      return std::make_unique<FloatWriter<double>>(field, builder);
    case TypeId::kDecimal128:
      return std::make_unique<DecimalWriter>(field, builder);
    case TypeId::kDate32:
      return std::make_unique<DateWriter>(field, builder);
    case TypeId::kTime64:
      return std::make_unique<TimeWriter>(field, builder);
    case TypeId::kTimestamp:
      return std::make_unique<TimestampWriter>(field, builder);
    case TypeId::kUtf8:
      if (field.extension_name() == columnar::kJsonExtension) {
        return std::make_unique<JsonTextWriter>(field, builder);
      }
      return std::make_unique<StringWriter>(field, builder);
    case TypeId::kBinary:
      return std::make_unique<BinaryWriter>(field, builder);
    case TypeId::kFixedSizeBinary:
      if (field.type->byte_width == 16) return std::make_unique<UuidWriter>(field, builder);
      return std::make_unique<FixedBinaryWriter>(field, builder);
    case TypeId::kIntervalMonthDayNano:
      return std::make_unique<FixedBinaryWriter>(field, builder);  // the 16 raw bytes
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return MakeNestedWriter(field, builder);
  }
  return nullptr;
}

}  // namespace hoglake::columnar::text::textimport
