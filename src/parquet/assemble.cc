#include "parquet/assemble.h"

#include <cstring>

namespace hoglake::parquet {

using columnar::ArrayData;
using columnar::ArrayPtr;
using columnar::BitmapBuilder;
using columnar::BufferBuilder;
using columnar::TypeId;

namespace {

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Levels of one leaf, with the implicit zeros of absent streams.
struct Levels {
  const LeafData& data;
  int16_t def(int64_t i) const { return data.def.empty() ? max_def : data.def[i]; }
  int16_t rep(int64_t i) const { return data.rep.empty() ? 0 : data.rep[i]; }
  int16_t max_def;
};

class Assembler {
 public:
  Assembler(const std::vector<LeafColumn>& info, std::vector<LeafData>& leaves)
      : info_(info), leaves_(leaves) {}

  Result<ArrayPtr> Node(const SchemaNode& node) {
    const Levels levels{leaves_[node.leaf_begin], info_[node.leaf_begin].max_def};
    const int64_t n = levels.data.num_levels;
    auto out = std::make_shared<ArrayData>();
    out->type = node.field.type;
    BitmapBuilder validity;
    int64_t nulls = 0;
    auto slot = [&](int64_t i) {
      return levels.rep(i) <= node.rep_level && levels.def(i) >= node.slot_def;
    };
    auto add_slot = [&](int64_t i) {
      const bool valid = !node.optional || levels.def(i) >= node.def_level;
      if (node.optional) validity.Append(valid);
      nulls += !valid;
      ++out->length;
      return valid;
    };
    if (node.kind == SchemaNode::Kind::kLeaf && node.rep_level == 0 && node.slot_def == 0 &&
        levels.data.rep.empty() && FlatLeaf(node, out.get())) {
      return ArrayPtr(std::move(out));
    }
    switch (node.kind) {
      case SchemaNode::Kind::kLeaf:
        HOGLAKE_RETURN_IF_ERROR(Leaf(node, levels, slot, add_slot, out.get()));
        break;
      case SchemaNode::Kind::kStruct: {
        for (int64_t i = 0; i < n; ++i) {
          if (slot(i)) add_slot(i);
        }
        for (const SchemaNode& child : node.children) {
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr c, Node(child));
          if (c->length != out->length) {
            return InvalidData("Parquet column '", child.field.name, "' has ", c->length,
                               " values where its struct has ", out->length);
          }
          out->children.push_back(std::move(c));
        }
        break;
      }
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap: {
        BufferBuilder offsets;
        int32_t count = 0;
        for (int64_t i = 0; i < n; ++i) {
          const int16_t r = levels.rep(i), d = levels.def(i);
          if (slot(i)) {
            offsets.AppendValue(count);
            add_slot(i);
          }
          if (r <= node.rep_level + 1 && d >= node.repeated_def) {
            if (count == INT32_MAX) return InvalidData("list with more than 2^31 elements");
            ++count;
          }
        }
        offsets.AppendValue(count);
        out->buffers.resize(2);
        out->buffers[1] = offsets.Finish();
        std::vector<ArrayPtr> kids;
        for (const SchemaNode& child : node.children) {
          HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr c, Node(child));
          if (c->length != count) {
            return InvalidData("Parquet column '", child.field.name, "' has ", c->length,
                               " values where its container has ", count, " elements");
          }
          kids.push_back(std::move(c));
        }
        if (node.kind == SchemaNode::Kind::kList) {
          out->children.push_back(std::move(kids[0]));
        } else {
          auto entries = std::make_shared<ArrayData>();
          entries->type = node.field.type->children[0].type;
          entries->length = count;
          entries->buffers.resize(1);
          entries->children = std::move(kids);
          out->children.push_back(std::move(entries));
        }
        break;
      }
    }
    if (out->buffers.empty()) out->buffers.resize(1);
    out->null_count = nulls;
    if (nulls > 0) out->buffers[0] = validity.Finish();
    return ArrayPtr(std::move(out));
  }

 private:
  // A leaf whose every level entry is a row (no repetition, no parent):
  // builds the Arrow buffers in bulk, handing over the decoded values
  // without copying when the layouts agree. Returns false (nothing done)
  // for types that need per-value conversion or inconsistent streams, which
  // the general path handles and reports.
  bool FlatLeaf(const SchemaNode& node, ArrayData* out) {
    LeafData& data = leaves_[node.leaf_begin];
    PhysicalValues& values = data.values;
    const columnar::DataType& type = *node.field.type;
    const int64_t n = data.num_levels;
    const bool var = type.is_binary_like() && values.is_byte_array();
    const bool fixed =
        !type.is_binary_like() && type.id != TypeId::kBool && type.id != TypeId::kDecimal128 &&
        !values.is_byte_array() &&
        (values.type == PhysicalType::kInt32 || values.type == PhysicalType::kInt64 ||
         values.type == PhysicalType::kFloat || values.type == PhysicalType::kDouble) &&
        type.bit_width() / 8 == values.width;
    // Decimals stored as INT32/INT64: widened to 128 bits in one pass.
    const bool widened_decimal =
        type.id == TypeId::kDecimal128 && !values.is_byte_array() &&
        (values.type == PhysicalType::kInt32 || values.type == PhysicalType::kInt64) &&
        values.width == (values.type == PhysicalType::kInt32 ? 4 : 8);
    if (!var && !fixed && !widened_decimal) return false;
    int64_t nulls = 0;
    const bool has_def = node.optional && !data.def.empty();
    if (has_def) {
      for (int64_t i = 0; i < n; ++i) nulls += data.def[i] < node.def_level;
    }
    if (values.count != n - nulls) return false;
    out->length = n;
    out->null_count = nulls;
    out->buffers.assign(1, nullptr);
    if (nulls > 0) {
      auto bitmap = columnar::Buffer::Allocate(columnar::BytesForBits(n));
      uint8_t* bits = bitmap->mutable_data();
      for (int64_t i = 0; i < n; ++i) {
        if (data.def[i] >= node.def_level) columnar::SetBit(bits, i);
      }
      out->buffers[0] = std::move(bitmap);
    }
    if (widened_decimal) {
      auto buffer = columnar::Buffer::Allocate(n * 16);
      uint8_t* dst = buffer->mutable_data();
      const char* src = values.fixed.data();
      const bool narrow = values.type == PhysicalType::kInt32;
      for (int64_t i = 0, k = 0; i < n; ++i) {
        __int128 v = 0;
        if (nulls == 0 || data.def[i] >= node.def_level) {
          v = narrow ? static_cast<__int128>(Load<int32_t>(src + k * 4))
                     : static_cast<__int128>(Load<int64_t>(src + k * 8));
          ++k;
        }
        std::memcpy(dst + i * 16, &v, 16);
      }
      out->buffers.push_back(std::move(buffer));
      return true;
    }
    if (fixed) {
      const int64_t width = values.width;
      if (nulls == 0) {
        out->buffers.push_back(values.fixed.ReleaseToBuffer());
      } else {
        auto buffer = columnar::Buffer::Allocate(n * width);
        uint8_t* dst = buffer->mutable_data();
        const char* src = values.fixed.data();
        for (int64_t i = 0, k = 0; i < n; ++i) {
          if (data.def[i] < node.def_level) continue;
          std::memcpy(dst + i * width, src + k * width, static_cast<size_t>(width));
          ++k;
        }
        out->buffers.push_back(std::move(buffer));
      }
      return true;
    }
    if (nulls == 0) {
      static_assert(sizeof(uint32_t) == sizeof(int32_t));
      out->buffers.push_back(values.offsets.ReleaseToBuffer());
    } else {
      auto buffer = columnar::Buffer::Allocate((n + 1) * 4);
      int32_t* dst = reinterpret_cast<int32_t*>(buffer->mutable_data());
      dst[0] = 0;
      for (int64_t i = 0, k = 0; i < n; ++i) {
        if (data.def[i] >= node.def_level) ++k;
        dst[i + 1] = static_cast<int32_t>(values.offsets[k]);
      }
      out->buffers.push_back(std::move(buffer));
    }
    out->buffers.push_back(values.bytes.ReleaseToBuffer());
    return true;
  }

  template <typename SlotFn, typename AddFn>
  Status Leaf(const SchemaNode& node, const Levels& levels, SlotFn slot, AddFn add_slot,
              ArrayData* out) {
    const LeafColumn& info = info_[node.leaf_begin];
    const PhysicalValues& values = levels.data.values;
    const columnar::DataType& type = *node.field.type;
    const int64_t n = levels.data.num_levels;
    int64_t k = 0;
    BufferBuilder data, offsets;
    BitmapBuilder bits;
    const bool var = type.is_binary_like();
    const int width = type.id == TypeId::kBool ? 0 : var ? 0 : type.bit_width() / 8;
    if (var) offsets.AppendValue<int32_t>(0);
    char zero[16] = {};
    for (int64_t i = 0; i < n; ++i) {
      if (!slot(i)) continue;
      const bool present = levels.def(i) >= node.def_level;
      add_slot(i);
      if (present && k >= values.count) {
        return InvalidData("Parquet column '", node.field.name, "' has fewer values than levels");
      }
      if (type.id == TypeId::kBool) {
        bits.Append(present && values.fixed[k] != 0);
      } else if (var) {
        if (present) {
          const std::string_view v = values.ByteArray(k);
          data.Append(v.data(), static_cast<int64_t>(v.size()));
          if (data.size() > INT32_MAX) return InvalidData("string column exceeds 2 GiB");
        }
        offsets.AppendValue(static_cast<int32_t>(data.size()));
      } else if (!present) {
        data.Append(zero, width);
      } else {
        HOGLAKE_RETURN_IF_ERROR(Convert(info, type, values, k, &data));
      }
      if (present) ++k;
    }
    if (k != values.count) {
      return InvalidData("Parquet column '", node.field.name, "' has ", values.count,
                         " values but its levels define ", k);
    }
    out->buffers.resize(1);
    if (type.id == TypeId::kBool) {
      out->buffers.push_back(bits.Finish());
    } else if (var) {
      out->buffers.push_back(offsets.Finish());
      out->buffers.push_back(data.Finish());
    } else {
      out->buffers.push_back(data.Finish());
    }
    return Status::Ok();
  }

  // Appends value k converted to the Arrow storage of `type`.
  static Status Convert(const LeafColumn& info, const columnar::DataType& type,
                        const PhysicalValues& values, int64_t k, BufferBuilder* out) {
    const std::string_view raw = values.is_byte_array() ? values.ByteArray(k) : values.Fixed(k);
    const char* p = raw.data();
    switch (info.physical) {
      case PhysicalType::kInt32: {
        const int32_t v = Load<int32_t>(p);
        switch (type.id) {
          case TypeId::kInt8:
            out->AppendValue(static_cast<int8_t>(v));
            return Status::Ok();
          case TypeId::kInt16:
            out->AppendValue(static_cast<int16_t>(v));
            return Status::Ok();
          case TypeId::kUInt8:
            out->AppendValue(static_cast<uint8_t>(v));
            return Status::Ok();
          case TypeId::kUInt16:
            out->AppendValue(static_cast<uint16_t>(v));
            return Status::Ok();
          case TypeId::kUInt32:
            out->AppendValue(static_cast<uint32_t>(v));
            return Status::Ok();
          case TypeId::kTime64:
            out->AppendValue(static_cast<int64_t>(v));
            return Status::Ok();
          case TypeId::kDecimal128:
            out->AppendValue(static_cast<__int128>(v));
            return Status::Ok();
          default:
            out->AppendValue(v);
            return Status::Ok();
        }
      }
      case PhysicalType::kInt64: {
        const int64_t v = Load<int64_t>(p);
        if (type.id == TypeId::kDecimal128) {
          out->AppendValue(static_cast<__int128>(v));
        } else {
          out->AppendValue(v);
        }
        return Status::Ok();
      }
      case PhysicalType::kInt96: {
        const int64_t nanos = Load<int64_t>(p);
        const int64_t julian = Load<uint32_t>(p + 8);
        const uint64_t v = static_cast<uint64_t>(julian - 2440588) * 86400000000000ull +
                           static_cast<uint64_t>(nanos);
        out->AppendValue(static_cast<int64_t>(v));
        return Status::Ok();
      }
      case PhysicalType::kFixedLenByteArray:
      case PhysicalType::kByteArray:
        if (type.id == TypeId::kDecimal128) {
          if (raw.size() > 16) {
            return InvalidData("decimal value of ", raw.size(), " bytes exceeds 128 bits");
          }
          unsigned __int128 v = 0;
          if (!raw.empty() && (static_cast<uint8_t>(raw[0]) & 0x80)) v = ~v;  // sign-extend
          for (char c : raw) v = (v << 8) | static_cast<uint8_t>(c);
          out->AppendValue(static_cast<__int128>(v));
          return Status::Ok();
        }
        out->Append(raw.data(), static_cast<int64_t>(raw.size()));
        return Status::Ok();
      default:
        out->Append(raw.data(), static_cast<int64_t>(raw.size()));  // FLOAT, DOUBLE
        return Status::Ok();
    }
  }

  const std::vector<LeafColumn>& info_;
  std::vector<LeafData>& leaves_;
};

}  // namespace

Result<ArrayPtr> AssembleColumn(const SchemaNode& node, const std::vector<LeafColumn>& leaf_info,
                                std::vector<LeafData>& leaves) {
  return Assembler(leaf_info, leaves).Node(node);
}

}  // namespace hoglake::parquet
