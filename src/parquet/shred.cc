#include "parquet/shred.h"

namespace hoglake::parquet {
namespace {

using columnar::ArrayData;

class Shredder {
 public:
  explicit Shredder(const std::vector<std::unique_ptr<ColumnChunkWriter>>& writers)
      : writers_(writers) {}

  // Slot `i` of `array` under `node`; `def` is the level reached by the
  // ancestors and `rep` the repetition level of this entry.
  Status Visit(const SchemaNode& node, const ArrayData& array, int64_t i, int16_t def,
               int16_t rep) {
    if (node.optional && array.IsNull(i)) return Absent(node, def, rep);
    const int16_t d = node.def_level;
    switch (node.kind) {
      case SchemaNode::Kind::kLeaf:
        return writers_[node.leaf_begin]->Add(d, rep, &array, i);
      case SchemaNode::Kind::kStruct:
        for (size_t c = 0; c < node.children.size(); ++c) {
          HOGLAKE_RETURN_IF_ERROR(
              Visit(node.children[c], *array.children[c], array.offset + i, d, rep));
        }
        return Status::Ok();
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap: {
        const int32_t* offsets = array.offsets();
        const int64_t begin = offsets[i], end = offsets[i + 1];
        if (begin == end) return Absent(node, d, rep);
        const int16_t element_rep = static_cast<int16_t>(node.rep_level + 1);
        const ArrayData& child = *array.children[0];
        for (int64_t k = begin; k < end; ++k) {
          const int16_t r = k == begin ? rep : element_rep;
          if (node.kind == SchemaNode::Kind::kList) {
            HOGLAKE_RETURN_IF_ERROR(Visit(node.children[0], child, k, node.repeated_def, r));
          } else {
            // child is the entries struct: key and value at entries.offset + k.
            const int64_t e = child.offset + k;
            HOGLAKE_RETURN_IF_ERROR(
                Visit(node.children[0], *child.children[0], e, node.repeated_def, r));
            HOGLAKE_RETURN_IF_ERROR(
                Visit(node.children[1], *child.children[1], e, node.repeated_def, r));
          }
        }
        return Status::Ok();
      }
    }
    return Status::Ok();
  }

 private:
  // No value below `node`: one entry at level `def` for each of its leaves.
  Status Absent(const SchemaNode& node, int16_t def, int16_t rep) {
    for (int l = node.leaf_begin; l < node.leaf_end; ++l) {
      HOGLAKE_RETURN_IF_ERROR(writers_[l]->Add(def, rep, nullptr, 0));
    }
    return Status::Ok();
  }

  const std::vector<std::unique_ptr<ColumnChunkWriter>>& writers_;
};

}  // namespace

Status ShredColumn(const SchemaNode& node, const ArrayData& column, int64_t offset, int64_t length,
                   const std::vector<std::unique_ptr<ColumnChunkWriter>>& writers) {
  if (node.kind == SchemaNode::Kind::kLeaf) {
    // A top-level leaf: one entry per row, a batch at a time.
    return writers[node.leaf_begin]->AddLeafBatch(column, offset, length, node.def_level);
  }
  Shredder shredder(writers);
  for (int64_t i = offset; i < offset + length; ++i) {
    HOGLAKE_RETURN_IF_ERROR(shredder.Visit(node, column, i, 0, 0));
  }
  return Status::Ok();
}

}  // namespace hoglake::parquet
