#include "columnar/validate.h"

#include <string>

namespace hoglake::columnar {
namespace {

constexpr int kMaxDepth = 64;

class Validator {
 public:
  Status Check(const ArrayData& a, const std::string& path, int depth) {
    auto fail = [&](auto... parts) { return InvalidData(path, ": ", parts...); };
    if (depth > kMaxDepth) return fail("nesting deeper than ", kMaxDepth, " levels");
    if (!a.type) return fail("array has no type");
    const DataType& type = *a.type;
    if (a.length < 0 || a.offset < 0) {
      return fail("negative length ", a.length, " or offset ", a.offset);
    }
    const int64_t end = a.offset + a.length;
    if (end < a.offset) return fail("offset + length overflows");
    const int expected_buffers = BufferCount(type.id);
    if (static_cast<int>(a.buffers.size()) != expected_buffers) {
      return fail(type.ToString(), " array has ", a.buffers.size(), " buffers, expected ",
                  expected_buffers);
    }
    // Validity.
    if (a.buffers[0]) {
      if (a.buffers[0]->size() < BytesForBits(end)) {
        return fail("validity bitmap has ", a.buffers[0]->size(), " bytes, needs ",
                    BytesForBits(end));
      }
      int64_t nulls = a.length - CountSetBits(a.buffers[0]->data(), a.offset, a.length);
      if (nulls != a.null_count) {
        return fail("null_count is ", a.null_count, " but the validity bitmap has ", nulls,
                    " nulls");
      }
    } else if (a.null_count != 0) {
      return fail("null_count is ", a.null_count, " but there is no validity bitmap");
    }
    switch (type.id) {
      case TypeId::kDecimal128:
        if (type.precision < 1 || type.precision > 38 || type.scale < 0 ||
            type.scale > type.precision) {
          return fail("illegal ", type.ToString());
        }
        [[fallthrough]];
      case TypeId::kFixedSizeBinary:
        if (type.byte_width <= 0) return fail("fixed width ", type.byte_width, " is not positive");
        [[fallthrough]];
      default:
        break;
    }
    if (!type.is_nested() && !type.is_binary_like()) {
      const int bits = type.bit_width();
      if (a.length > 0 || a.buffers[1]) {
        if (!a.buffers[1]) return fail("values buffer is missing");
        const int64_t need = BytesForBits(end * bits);
        if (a.buffers[1]->size() < need) {
          return fail("values buffer has ", a.buffers[1]->size(), " bytes, needs ", need, " for ",
                      a.length, " values at offset ", a.offset);
        }
      }
      return Status::Ok();
    }
    if (type.id == TypeId::kStruct) {
      if (a.children.size() != type.children.size()) {
        return fail("struct has ", a.children.size(), " children, type has ", type.children.size());
      }
      for (size_t i = 0; i < a.children.size(); ++i) {
        const ArrayData& child = *a.children[i];
        const std::string child_path = path + " > " + type.children[i].name;
        if (child.length < end) {
          return InvalidData(child_path, ": child has ", child.length, " values, struct needs ",
                             end);
        }
        HOGLAKE_RETURN_IF_ERROR(CheckChildType(child, type.children[i], child_path));
        HOGLAKE_RETURN_IF_ERROR(Check(child, child_path, depth + 1));
      }
      return Status::Ok();
    }
    // Offsets-based: utf8, binary, list, map.
    int64_t child_length;
    if (type.is_binary_like()) {
      if (!a.buffers[2]) {
        if (a.length > 0) return fail("data buffer is missing");
      }
      child_length = a.buffers[2] ? a.buffers[2]->size() : 0;
    } else {
      if (a.children.size() != 1) return fail("expected 1 child, found ", a.children.size());
      child_length = a.children[0]->length;
    }
    if (a.length == 0 && !a.buffers[1]) {
      // Arrow allows an empty offsets buffer for zero-length arrays.
    } else {
      if (!a.buffers[1]) return fail("offsets buffer is missing");
      const int64_t need = (end + 1) * 4;
      if (a.buffers[1]->size() < need) {
        return fail("offsets buffer has ", a.buffers[1]->size(), " bytes, needs ", need);
      }
      const int32_t* offsets = a.offsets();
      if (offsets[0] < 0) return fail("first offset ", offsets[0], " is negative");
      for (int64_t i = 0; i < a.length; ++i) {
        if (offsets[i + 1] < offsets[i]) {
          return fail("offsets decrease at slot ", i, " (", offsets[i], " > ", offsets[i + 1], ")");
        }
      }
      if (offsets[a.length] > child_length) {
        return fail("last offset ", offsets[a.length], " is past the end of the ",
                    type.is_binary_like() ? "data buffer" : "child", " (", child_length, ")");
      }
    }
    if (type.is_binary_like()) return Status::Ok();
    const Field& child_field = type.children[0];
    const std::string child_path = path + " > " + child_field.name;
    HOGLAKE_RETURN_IF_ERROR(CheckChildType(*a.children[0], child_field, child_path));
    if (type.id == TypeId::kMap) {
      const ArrayData& entries = *a.children[0];
      if (entries.type->id != TypeId::kStruct || entries.type->children.size() != 2) {
        return InvalidData(child_path, ": map entries must be a struct of key and value");
      }
    }
    return Check(*a.children[0], child_path, depth + 1);
  }

 private:
  static Status CheckChildType(const ArrayData& child, const Field& field,
                               const std::string& path) {
    if (!child.type || !child.type->Equals(*field.type)) {
      return InvalidData(path, ": child array type ", child.type ? child.type->ToString() : "?",
                         " differs from the declared ", field.type->ToString());
    }
    return Status::Ok();
  }
};

}  // namespace

Status Validate(const ArrayData& array) { return Validator().Check(array, "array", 0); }

Status ValidateBatch(const RecordBatch& batch) {
  if (!batch.schema) return InvalidData("record batch has no schema");
  if (batch.num_columns() != batch.schema->num_fields()) {
    return InvalidData("record batch has ", batch.num_columns(), " columns, schema has ",
                       batch.schema->num_fields());
  }
  for (int i = 0; i < batch.num_columns(); ++i) {
    const Field& field = batch.schema->fields[i];
    const ArrayData& column = *batch.columns[i];
    const std::string path = "column '" + field.name + "'";
    if (column.length != batch.num_rows) {
      return InvalidData(path, ": has ", column.length, " rows, batch has ", batch.num_rows);
    }
    if (!column.type || !column.type->Equals(*field.type)) {
      return InvalidData(path, ": array type differs from the schema's ", field.type->ToString());
    }
    HOGLAKE_RETURN_IF_ERROR(Validator().Check(column, path, 0));
  }
  return Status::Ok();
}

}  // namespace hoglake::columnar
