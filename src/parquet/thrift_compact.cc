#include "parquet/thrift_compact.h"

#include <cstring>

namespace hoglake::parquet::thrift {

std::string_view CTypeName(CType type) {
  switch (type) {
    case CType::kStop:
      return "stop";
    case CType::kTrue:
    case CType::kFalse:
      return "bool";
    case CType::kByte:
      return "i8";
    case CType::kI16:
      return "i16";
    case CType::kI32:
      return "i32";
    case CType::kI64:
      return "i64";
    case CType::kDouble:
      return "double";
    case CType::kBinary:
      return "binary";
    case CType::kList:
      return "list";
    case CType::kSet:
      return "set";
    case CType::kMap:
      return "map";
    case CType::kStruct:
      return "struct";
  }
  return "unknown";
}

// ---- writer ------------------------------------------------------------------

void CompactWriter::Varint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

void CompactWriter::BeginStruct() {
  stack_.push_back(last_id_);
  last_id_ = 0;
}

void CompactWriter::EndStruct() {
  out_->push_back(0);
  last_id_ = stack_.empty() ? 0 : stack_.back();
  if (!stack_.empty()) stack_.pop_back();
}

void CompactWriter::FieldHeader(int16_t id, CType type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    Varint(ZigZag(id));
  }
  last_id_ = id;
}

void CompactWriter::FieldI8(int16_t id, int8_t v) {
  FieldHeader(id, CType::kByte);
  out_->push_back(static_cast<char>(v));
}
void CompactWriter::FieldI16(int16_t id, int16_t v) {
  FieldHeader(id, CType::kI16);
  Varint(ZigZag(v));
}
void CompactWriter::FieldI32(int16_t id, int32_t v) {
  FieldHeader(id, CType::kI32);
  Varint(ZigZag(v));
}
void CompactWriter::FieldI64(int16_t id, int64_t v) {
  FieldHeader(id, CType::kI64);
  Varint(ZigZag(v));
}
void CompactWriter::FieldBool(int16_t id, bool v) {
  FieldHeader(id, v ? CType::kTrue : CType::kFalse);
}
void CompactWriter::FieldDouble(int16_t id, double v) {
  FieldHeader(id, CType::kDouble);
  char bytes[8];
  std::memcpy(bytes, &v, 8);  // little-endian host
  out_->append(bytes, 8);
}
void CompactWriter::FieldBinary(int16_t id, std::string_view v) {
  FieldHeader(id, CType::kBinary);
  ElementBinary(v);
}
void CompactWriter::ElementBinary(std::string_view v) {
  Varint(v.size());
  out_->append(v.data(), v.size());
}
void CompactWriter::FieldStructBegin(int16_t id) {
  FieldHeader(id, CType::kStruct);
  BeginStruct();
}
void CompactWriter::FieldListBegin(int16_t id, CType element_type, int32_t size) {
  FieldHeader(id, CType::kList);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | static_cast<int>(element_type)));
  } else {
    out_->push_back(static_cast<char>(0xF0 | static_cast<int>(element_type)));
    Varint(static_cast<uint64_t>(size));
  }
}

// ---- reader ------------------------------------------------------------------

Error CompactReader::Corrupt(std::string_view what) const {
  return InvalidData("corrupt Thrift metadata at byte ", pos_, ": ", what);
}

Status CompactReader::ReadVarint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= size_) return Corrupt("varint runs past the end");
    const uint8_t byte = data_[pos_++];
    if (shift == 63 && (byte & 0x7E) != 0) return Corrupt("varint overflows 64 bits");
    result |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return Status::Ok();
    }
  }
  return Corrupt("varint longer than 10 bytes");
}

Status CompactReader::ReadZigZag(int64_t* v) {
  uint64_t u;
  HOGLAKE_RETURN_IF_ERROR(ReadVarint(&u));
  *v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  return Status::Ok();
}

Status CompactReader::BeginStruct() {
  if (stack_.size() >= static_cast<size_t>(kMaxDepth)) {
    return Corrupt("structs nested deeper than 64 levels");
  }
  stack_.push_back(last_id_);
  last_id_ = 0;
  return Status::Ok();
}

void CompactReader::EndStruct() {
  if (stack_.empty()) return;
  last_id_ = stack_.back();
  stack_.pop_back();
}

Status CompactReader::ReadFieldHeader(int16_t* id, CType* type) {
  if (pos_ >= size_) return Corrupt("struct runs past the end (no stop byte)");
  const uint8_t byte = data_[pos_++];
  const uint8_t t = byte & 0x0F;
  if (t > static_cast<uint8_t>(CType::kStruct)) {
    return Corrupt("unknown field type " + std::to_string(t));
  }
  *type = static_cast<CType>(t);
  if (*type == CType::kStop) {
    if (byte != 0) return Corrupt("stop byte with a field delta");
    return Status::Ok();
  }
  const int delta = byte >> 4;
  if (delta != 0) {
    const int next = last_id_ + delta;
    if (next > INT16_MAX) return Corrupt("field id overflows i16");
    *id = static_cast<int16_t>(next);
  } else {
    int64_t v;
    HOGLAKE_RETURN_IF_ERROR(ReadZigZag(&v));
    if (v < INT16_MIN || v > INT16_MAX) return Corrupt("field id out of i16 range");
    *id = static_cast<int16_t>(v);
  }
  last_id_ = *id;
  return Status::Ok();
}

namespace {
bool IsInt(CType t) {
  return t == CType::kByte || t == CType::kI16 || t == CType::kI32 || t == CType::kI64;
}
}  // namespace

Status CompactReader::ReadBool(CType type, bool* v) {
  if (type == CType::kTrue || type == CType::kFalse) {
    *v = type == CType::kTrue;
    return Status::Ok();
  }
  return Corrupt(std::string("expected a bool field, found ") + std::string(CTypeName(type)));
}

Status CompactReader::ReadElementBool(bool* v) {
  if (pos_ >= size_) return Corrupt("bool runs past the end");
  *v = data_[pos_++] == 1;
  return Status::Ok();
}

Status CompactReader::ReadI64(CType type, int64_t* v) {
  if (!IsInt(type)) {
    return Corrupt(std::string("expected an integer field, found ") + std::string(CTypeName(type)));
  }
  if (type == CType::kByte) {
    if (pos_ >= size_) return Corrupt("i8 runs past the end");
    *v = static_cast<int8_t>(data_[pos_++]);
    return Status::Ok();
  }
  return ReadZigZag(v);
}

Status CompactReader::ReadI32(CType type, int32_t* v) {
  int64_t wide;
  HOGLAKE_RETURN_IF_ERROR(ReadI64(type, &wide));
  if (wide < INT32_MIN || wide > INT32_MAX) return Corrupt("value out of i32 range");
  *v = static_cast<int32_t>(wide);
  return Status::Ok();
}

Status CompactReader::ReadI16(CType type, int16_t* v) {
  int64_t wide;
  HOGLAKE_RETURN_IF_ERROR(ReadI64(type, &wide));
  if (wide < INT16_MIN || wide > INT16_MAX) return Corrupt("value out of i16 range");
  *v = static_cast<int16_t>(wide);
  return Status::Ok();
}

Status CompactReader::ReadI8(CType type, int8_t* v) {
  int64_t wide;
  HOGLAKE_RETURN_IF_ERROR(ReadI64(type, &wide));
  if (wide < INT8_MIN || wide > INT8_MAX) return Corrupt("value out of i8 range");
  *v = static_cast<int8_t>(wide);
  return Status::Ok();
}

Status CompactReader::ReadDouble(CType type, double* v) {
  if (type != CType::kDouble) return Corrupt("expected a double field");
  if (remaining() < 8) return Corrupt("double runs past the end");
  std::memcpy(v, data_ + pos_, 8);
  pos_ += 8;
  return Status::Ok();
}

Status CompactReader::ReadBinary(CType type, std::string* v) {
  if (type != CType::kBinary) {
    return Corrupt(std::string("expected a binary field, found ") + std::string(CTypeName(type)));
  }
  uint64_t length;
  HOGLAKE_RETURN_IF_ERROR(ReadVarint(&length));
  if (length > remaining()) {
    return Corrupt("binary of " + std::to_string(length) + " bytes but only " +
                   std::to_string(remaining()) + " remain");
  }
  v->assign(reinterpret_cast<const char*>(data_ + pos_), length);
  pos_ += length;
  return Status::Ok();
}

Status CompactReader::ReadListHeader(CType type, CType* element_type, int32_t* size) {
  if (type != CType::kList && type != CType::kSet) {
    return Corrupt(std::string("expected a list field, found ") + std::string(CTypeName(type)));
  }
  if (pos_ >= size_) return Corrupt("list header runs past the end");
  const uint8_t byte = data_[pos_++];
  const uint8_t t = byte & 0x0F;
  if (t == 0 || t > static_cast<uint8_t>(CType::kStruct)) {
    return Corrupt("unknown list element type " + std::to_string(t));
  }
  *element_type = static_cast<CType>(t);
  uint64_t n = byte >> 4;
  if (n == 15) HOGLAKE_RETURN_IF_ERROR(ReadVarint(&n));
  // Every element takes at least one byte.
  if (n > remaining()) {
    return Corrupt("list of " + std::to_string(n) + " elements but only " +
                   std::to_string(remaining()) + " bytes remain");
  }
  *size = static_cast<int32_t>(n);
  return Status::Ok();
}

Status CompactReader::Skip(CType type) { return SkipAt(type, static_cast<int>(stack_.size())); }

Status CompactReader::SkipAt(CType type, int depth) {
  if (depth > kMaxDepth) return Corrupt("values nested deeper than 64 levels");
  switch (type) {
    case CType::kTrue:
    case CType::kFalse:
      return Status::Ok();
    case CType::kByte:
      if (pos_ >= size_) return Corrupt("i8 runs past the end");
      ++pos_;
      return Status::Ok();
    case CType::kI16:
    case CType::kI32:
    case CType::kI64: {
      uint64_t ignored;
      return ReadVarint(&ignored);
    }
    case CType::kDouble:
      if (remaining() < 8) return Corrupt("double runs past the end");
      pos_ += 8;
      return Status::Ok();
    case CType::kBinary: {
      uint64_t length;
      HOGLAKE_RETURN_IF_ERROR(ReadVarint(&length));
      if (length > remaining()) return Corrupt("binary runs past the end");
      pos_ += length;
      return Status::Ok();
    }
    case CType::kList:
    case CType::kSet: {
      CType element;
      int32_t n;
      HOGLAKE_RETURN_IF_ERROR(ReadListHeader(type, &element, &n));
      for (int32_t i = 0; i < n; ++i) {
        if (element == CType::kTrue || element == CType::kFalse) {
          bool ignored;
          HOGLAKE_RETURN_IF_ERROR(ReadElementBool(&ignored));
        } else {
          HOGLAKE_RETURN_IF_ERROR(SkipAt(element, depth + 1));
        }
      }
      return Status::Ok();
    }
    case CType::kMap: {
      uint64_t n;
      HOGLAKE_RETURN_IF_ERROR(ReadVarint(&n));
      if (n == 0) return Status::Ok();
      if (n > remaining()) return Corrupt("map size exceeds the remaining bytes");
      if (pos_ >= size_) return Corrupt("map header runs past the end");
      const uint8_t kv = data_[pos_++];
      const uint8_t kt = kv >> 4, vt = kv & 0x0F;
      if (kt == 0 || kt > 12 || vt == 0 || vt > 12) return Corrupt("unknown map key/value type");
      for (uint64_t i = 0; i < n; ++i) {
        for (uint8_t t : {kt, vt}) {
          if (t == 1 || t == 2) {
            bool ignored;
            HOGLAKE_RETURN_IF_ERROR(ReadElementBool(&ignored));
          } else {
            HOGLAKE_RETURN_IF_ERROR(SkipAt(static_cast<CType>(t), depth + 1));
          }
        }
      }
      return Status::Ok();
    }
    case CType::kStruct: {
      // Nested struct: field ids restart inside it.
      int16_t saved = last_id_;
      last_id_ = 0;
      while (true) {
        int16_t id;
        CType t;
        HOGLAKE_RETURN_IF_ERROR(ReadFieldHeader(&id, &t));
        if (t == CType::kStop) break;
        HOGLAKE_RETURN_IF_ERROR(SkipAt(t, depth + 1));
      }
      last_id_ = saved;
      return Status::Ok();
    }
    case CType::kStop:
      break;
  }
  return Corrupt("cannot skip a value of type stop");
}

}  // namespace hoglake::parquet::thrift
