#include "columnar/compare.h"

#include <cstring>

namespace hoglake::columnar {
namespace {

class Comparer {
 public:
  explicit Comparer(std::string* why) : why_(why) {}

  // Compares a[a_start + k] with b[b_start + k] for k in [0, n).
  bool Range(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t n,
             const std::string& path) {
    if (!a.type->Equals(*b.type)) {
      return Fail(path, "types differ: " + a.type->ToString() + " vs " + b.type->ToString());
    }
    const DataType& type = *a.type;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t i = a_start + k;
      const int64_t j = b_start + k;
      const bool a_null = a.IsNull(i);
      if (a_null != b.IsNull(j)) {
        return Fail(path, "slot " + std::to_string(k) + ": null vs non-null");
      }
      if (a_null) continue;
      switch (type.id) {
        case TypeId::kBool:
          if (a.GetBool(i) != b.GetBool(j)) return Fail(path, Slot(k, "bool values differ"));
          break;
        case TypeId::kUtf8:
        case TypeId::kBinary:
        case TypeId::kFixedSizeBinary:
        case TypeId::kDecimal128:
          if (a.GetView(i) != b.GetView(j)) {
            return Fail(path, Slot(k, "\"" + std::string(a.GetView(i)) + "\" vs \"" +
                                          std::string(b.GetView(j)) + "\""));
          }
          break;
        case TypeId::kList:
        case TypeId::kMap: {
          const int32_t* ao = a.offsets();
          const int32_t* bo = b.offsets();
          const int64_t a_len = ao[i + 1] - ao[i];
          if (a_len != bo[j + 1] - bo[j]) {
            return Fail(path, Slot(k, "list lengths differ: " + std::to_string(a_len) + " vs " +
                                          std::to_string(bo[j + 1] - bo[j])));
          }
          if (!Range(*a.children[0], ao[i], *b.children[0], bo[j], a_len,
                     path + " > " + type.children[0].name + "[" + std::to_string(k) + "]")) {
            return false;
          }
          break;
        }
        case TypeId::kStruct:
          break;  // children compared below, all slots at once
        default: {
          const int width = type.bit_width() / 8;
          if (std::memcmp(a.buffers[1]->data() + (a.offset + i) * width,
                          b.buffers[1]->data() + (b.offset + j) * width, width) != 0) {
            return Fail(path, Slot(k, "values differ"));
          }
        }
      }
    }
    if (type.id == TypeId::kStruct) {
      for (size_t c = 0; c < type.children.size(); ++c) {
        // Children may hold anything under null struct rows: compare only
        // valid rows, one run at a time.
        int64_t k = 0;
        while (k < n) {
          if (a.IsNull(a_start + k)) {
            ++k;
            continue;
          }
          int64_t run = k;
          while (run < n && a.IsValid(a_start + run)) ++run;
          if (!Range(*a.children[c], a.offset + a_start + k, *b.children[c], b.offset + b_start + k,
                     run - k, path + " > " + type.children[c].name)) {
            return false;
          }
          k = run;
        }
      }
    }
    return true;
  }

 private:
  static std::string Slot(int64_t k, const std::string& what) {
    return "slot " + std::to_string(k) + ": " + what;
  }
  bool Fail(const std::string& path, const std::string& what) {
    if (why_) *why_ = path + ": " + what;
    return false;
  }
  std::string* why_;
};

}  // namespace

bool ArrayEquals(const ArrayData& a, const ArrayData& b, std::string* why) {
  if (a.length != b.length) {
    if (why)
      *why = "lengths differ: " + std::to_string(a.length) + " vs " + std::to_string(b.length);
    return false;
  }
  return Comparer(why).Range(a, 0, b, 0, a.length, "array");
}

bool BatchEquals(const RecordBatch& a, const RecordBatch& b, std::string* why) {
  if (!a.schema->Equals(*b.schema)) {
    if (why) *why = "schemas differ:\n" + a.schema->ToString() + "vs\n" + b.schema->ToString();
    return false;
  }
  if (a.num_rows != b.num_rows) {
    if (why)
      *why =
          "row counts differ: " + std::to_string(a.num_rows) + " vs " + std::to_string(b.num_rows);
    return false;
  }
  for (int i = 0; i < a.num_columns(); ++i) {
    if (!Comparer(why).Range(*a.columns[i], 0, *b.columns[i], 0, a.num_rows,
                             "column '" + a.schema->fields[i].name + "'")) {
      return false;
    }
  }
  return true;
}

}  // namespace hoglake::columnar
