// Value writers: append one field's values, given as text or as JSON, to its
// columnar builder, converting to the field's type as text_import.h
// specifies. Internal to text import.
//
// A writer appends exactly one slot per successful call. On failure it
// returns false with the reason in *why ("cannot read 'x' as long: not an
// integer", prefixed by the path inside nested values: "element 2: ...",
// "field 'zip': ..."), and may have appended part of a nested value: the
// caller discards the whole batch then.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "columnar/builder.h"
#include "columnar/text/json.h"

namespace hoglake::columnar::text::textimport {

class ValueWriter {
 public:
  // `field` and `builder` must outlive the writer; `builder` is of the
  // field's type (as MakeBuilder makes it).
  ValueWriter(const columnar::Field& field, columnar::ArrayBuilder* builder);
  virtual ~ValueWriter() = default;
  ValueWriter(const ValueWriter&) = delete;
  ValueWriter& operator=(const ValueWriter&) = delete;

  const columnar::Field& field() const { return *field_; }
  // The type as messages spell it ("long", "timestamptz").
  const std::string& label() const { return label_; }

  // A value written as text: a CSV cell or the content of a JSON string.
  // Nested types take JSON text.
  virtual bool AppendText(std::string_view text, std::string* why) = 0;
  // A non-null JSON node of `tree`. The default takes strings as text and
  // refuses other kinds.
  virtual bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why);
  void AppendNull() { builder_->AppendNull(); }
  // Whether a quoted empty CSV cell is an empty value (string, binary)
  // rather than a null.
  virtual bool empty_is_value() const { return false; }

 protected:
  // Fails with "cannot read <json> as <label>: expected <expected>, found ...".
  bool WrongJsonType(const JsonTree& tree, uint32_t index, std::string_view expected,
                     std::string* why) const;
  bool Fail(std::string_view text, std::string_view reason, std::string* why) const;

  const columnar::Field* field_;
  columnar::ArrayBuilder* builder_;
  std::string label_;
};

// Node `index` of `tree` into `writer`: a JSON null appends a null (refused
// for a non-nullable field), anything else goes to AppendJson.
bool AppendJsonOrNull(ValueWriter& writer, const JsonTree& tree, uint32_t index, std::string* why);

// The writer for `field`, recursively for nested types.
std::unique_ptr<ValueWriter> MakeValueWriter(const columnar::Field& field,
                                             columnar::ArrayBuilder* builder);
// MakeValueWriter for list, struct and map fields (nested.cc);
// null for other types.
std::unique_ptr<ValueWriter> MakeNestedWriter(const columnar::Field& field,
                                              columnar::ArrayBuilder* builder);

}  // namespace hoglake::columnar::text::textimport
