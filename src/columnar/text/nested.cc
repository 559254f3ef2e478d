// Writers of list, struct and map values (see writers.h).
#include <algorithm>
#include <vector>

#include "columnar/text/values.h"
#include "columnar/text/writers.h"

namespace hoglake::columnar::text::textimport {
namespace {

using columnar::ArrayBuilder;
using columnar::Field;
using columnar::TypeId;

// Nested values written as text hold JSON; a JSON string holding JSON text is
// taken the same way.
class NestedWriter : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  bool AppendText(std::string_view text, std::string* why) override {
    buffer_.assign(text);
    if (!tree_.ParseInPlace(buffer_.data(), buffer_.size(), &reason_)) {
      return Fail(text, reason_, why);
    }
    // One level of JSON only: a string here is not parsed again.
    if (tree_.node(0).kind == JsonNode::kString) return AppendNode(tree_, 0, why);
    return AppendJsonOrNull(*this, tree_, 0, why);
  }
  bool AppendJson(const JsonTree& tree, uint32_t index, std::string* why) override {
    // A string is parsed into this writer's own tree, never `tree` (whose
    // strings are not handed back here by AppendText).
    if (tree.node(index).kind == JsonNode::kString) return AppendText(tree.node(index).view(), why);
    return AppendNode(tree, index, why);
  }

 protected:
  virtual bool AppendNode(const JsonTree& tree, uint32_t index, std::string* why) = 0;

 private:
  std::string buffer_;
  JsonTree tree_;
  std::string reason_;
};

class ListWriter : public NestedWriter {
 public:
  ListWriter(const Field& field, ArrayBuilder* builder)
      : NestedWriter(field, builder),
        element_(MakeValueWriter(field.type->list_element(),
                                 &static_cast<columnar::ListBuilder*>(builder)->value_builder())) {}

 protected:
  bool AppendNode(const JsonTree& tree, uint32_t index, std::string* why) override {
    const JsonNode& node = tree.node(index);
    if (node.kind != JsonNode::kArray) return WrongJsonType(tree, index, "a JSON array", why);
    static_cast<columnar::ListBuilder*>(builder_)->Append();
    uint32_t position = 0;
    for (uint32_t e = index + 1; e < node.end; e = tree.node(e).end, ++position) {
      if (!AppendJsonOrNull(*element_, tree, e, why)) {
        *why = StrCat("element ", position, ": ", *why);
        return false;
      }
    }
    return true;
  }

 private:
  std::unique_ptr<ValueWriter> element_;
};

class StructWriter : public NestedWriter {
 public:
  StructWriter(const Field& field, ArrayBuilder* builder) : NestedWriter(field, builder) {
    auto* struct_builder = static_cast<columnar::StructBuilder*>(builder);
    for (int i = 0; i < struct_builder->num_children(); ++i) {
      children_.push_back(
          MakeValueWriter(field.type->children[static_cast<size_t>(i)], &struct_builder->child(i)));
    }
    seen_.resize(children_.size());
  }

 protected:
  bool AppendNode(const JsonTree& tree, uint32_t index, std::string* why) override {
    const JsonNode& node = tree.node(index);
    if (node.kind != JsonNode::kObject) return WrongJsonType(tree, index, "a JSON object", why);
    static_cast<columnar::StructBuilder*>(builder_)->Append();
    std::fill(seen_.begin(), seen_.end(), 0);
    for (uint32_t k = index + 1; k < node.end; k = tree.node(k + 1).end) {
      const std::string_view key = tree.node(k).view();
      size_t child = 0;
      while (child < children_.size() && children_[child]->field().name != key) ++child;
      if (child == children_.size()) {
        *why = StrCat("unknown field '", Excerpt(key), "' in ", label_);
        return false;
      }
      if (seen_[child]) {
        *why = StrCat("field '", Excerpt(key), "' given twice");
        return false;
      }
      seen_[child] = 1;
      if (!AppendJsonOrNull(*children_[child], tree, k + 1, why)) {
        *why = StrCat("field '", key, "': ", *why);
        return false;
      }
    }
    for (size_t child = 0; child < children_.size(); ++child) {
      if (seen_[child]) continue;
      if (!children_[child]->field().nullable) {
        *why = StrCat("field '", children_[child]->field().name, "' is missing and not nullable");
        return false;
      }
      children_[child]->AppendNull();
    }
    return true;
  }

 private:
  std::vector<std::unique_ptr<ValueWriter>> children_;
  std::vector<uint8_t> seen_;
};

// A JSON object with string keys, or an array of {"key": …, "value": …}.
class MapWriter : public NestedWriter {
 public:
  MapWriter(const Field& field, ArrayBuilder* builder)
      : NestedWriter(field, builder),
        key_(MakeValueWriter(field.type->map_key(),
                             &static_cast<columnar::MapBuilder*>(builder)->key_builder())),
        value_(MakeValueWriter(field.type->map_value(),
                               &static_cast<columnar::MapBuilder*>(builder)->item_builder())) {}

 protected:
  bool AppendNode(const JsonTree& tree, uint32_t index, std::string* why) override {
    const JsonNode& node = tree.node(index);
    if (node.kind == JsonNode::kObject) {
      static_cast<columnar::MapBuilder*>(builder_)->Append();
      for (uint32_t k = index + 1; k < node.end; k = tree.node(k + 1).end) {
        if (!key_->AppendText(tree.node(k).view(), why)) {
          *why = StrCat("key: ", *why);
          return false;
        }
        if (!AppendJsonOrNull(*value_, tree, k + 1, why)) {
          *why = StrCat("value of key '", Excerpt(tree.node(k).view()), "': ", *why);
          return false;
        }
      }
      return true;
    }
    if (node.kind != JsonNode::kArray) {
      return WrongJsonType(tree, index, "a JSON object or an array of {\"key\", \"value\"}", why);
    }
    static_cast<columnar::MapBuilder*>(builder_)->Append();
    uint32_t position = 0;
    for (uint32_t e = index + 1; e < node.end; e = tree.node(e).end, ++position) {
      if (!AppendEntry(tree, e, why)) {
        *why = StrCat("entry ", position, ": ", *why);
        return false;
      }
    }
    return true;
  }

 private:
  bool AppendEntry(const JsonTree& tree, uint32_t index, std::string* why) {
    const JsonNode& entry = tree.node(index);
    if (entry.kind != JsonNode::kObject) {
      *why = StrCat("expected {\"key\": ..., \"value\": ...}, found ", JsonKindName(entry.kind));
      return false;
    }
    uint32_t key = 0, value = 0;  // node indexes; 0 is never a member value
    for (uint32_t k = index + 1; k < entry.end; k = tree.node(k + 1).end) {
      const std::string_view name = tree.node(k).view();
      uint32_t* slot = name == "key" ? &key : name == "value" ? &value : nullptr;
      if (slot == nullptr || *slot != 0) {
        *why = StrCat("expected the members \"key\" and \"value\", found '", Excerpt(name), "'");
        return false;
      }
      *slot = k + 1;
    }
    if (key == 0 || tree.node(key).kind == JsonNode::kNull) {
      *why = "map keys cannot be null";
      return false;
    }
    if (!key_->AppendJson(tree, key, why)) {
      *why = StrCat("key: ", *why);
      return false;
    }
    if (value == 0) {
      if (!value_->field().nullable) {
        *why = "missing value, which is not nullable";
        return false;
      }
      value_->AppendNull();
      return true;
    }
    if (!AppendJsonOrNull(*value_, tree, value, why)) {
      *why = StrCat("value: ", *why);
      return false;
    }
    return true;
  }

  std::unique_ptr<ValueWriter> key_;
  std::unique_ptr<ValueWriter> value_;
};

}  // namespace

std::unique_ptr<ValueWriter> MakeNestedWriter(const Field& field, ArrayBuilder* builder) {
  switch (field.type->id) {
    case TypeId::kList:
      return std::make_unique<ListWriter>(field, builder);
    case TypeId::kStruct:
      return std::make_unique<StructWriter>(field, builder);
    case TypeId::kMap:
      return std::make_unique<MapWriter>(field, builder);
    default:
      return nullptr;
  }
}

}  // namespace hoglake::columnar::text::textimport
