#include "columnar/c_data.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>
#include <utility>

#include "columnar/slice.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

constexpr int kMaxDepth = 64;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
// Largest offset + length accepted on import: far beyond any real array, and
// small enough that buffer size arithmetic cannot overflow int64.
constexpr int64_t kMaxEnd = int64_t{1} << 59;

// Number of children an array of `type` has.
int64_t ChildCount(const DataType& type) {
  switch (type.id) {
    case TypeId::kList:
    case TypeId::kMap:
      return 1;
    case TypeId::kStruct:
      return static_cast<int64_t>(type.children.size());
    default:
      return 0;
  }
}

// ============================================================================
// Export: schemas
// ============================================================================

struct ExportedSchema {
  std::string format;
  std::string name;
  std::string metadata;  // empty: exported as NULL
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseExportedSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    ArrowSchema* child = schema->children[i];
    if (child != nullptr && child->release != nullptr) child->release(child);
  }
  if (schema->dictionary != nullptr && schema->dictionary->release != nullptr) {
    schema->dictionary->release(schema->dictionary);
  }
  delete static_cast<ExportedSchema*>(schema->private_data);
  schema->private_data = nullptr;
  schema->release = nullptr;
}

// The spec's binary metadata: int32 pair count, then per pair an int32 key
// length, the key bytes, an int32 value length and the value bytes (native
// byte order, no terminators).
Result<std::string> EncodeMetadata(const KeyValueMetadata& metadata) {
  std::string out;
  if (metadata.empty()) return out;
  auto append_int32 = [&out](int64_t n) {
    const auto v = static_cast<int32_t>(n);
    out.append(reinterpret_cast<const char*>(&v), sizeof(v));
  };
  if (metadata.size() > static_cast<size_t>(kInt32Max)) {
    return InvalidArgument("too many metadata entries (", metadata.size(), ")");
  }
  append_int32(static_cast<int64_t>(metadata.size()));
  for (const auto& [key, value] : metadata) {
    if (key.size() > static_cast<size_t>(kInt32Max) ||
        value.size() > static_cast<size_t>(kInt32Max)) {
      return InvalidArgument("metadata entry '", key, "' is larger than 2 GiB");
    }
    append_int32(static_cast<int64_t>(key.size()));
    out += key;
    append_int32(static_cast<int64_t>(value.size()));
    out += value;
  }
  return out;
}

char TimeUnitLetter(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 's';
    case TimeUnit::kMilli:
      return 'm';
    case TimeUnit::kMicro:
      return 'u';
    case TimeUnit::kNano:
      return 'n';
  }
  return '?';
}

Result<std::string> FormatOf(const DataType& type) {
  switch (type.id) {
    case TypeId::kBool:
      return std::string("b");
    case TypeId::kInt8:
      return std::string("c");
    case TypeId::kUInt8:
      return std::string("C");
    case TypeId::kInt16:
      return std::string("s");
    case TypeId::kUInt16:
      return std::string("S");
    case TypeId::kInt32:
      return std::string("i");
    case TypeId::kUInt32:
      return std::string("I");
    case TypeId::kInt64:
      return std::string("l");
    case TypeId::kUInt64:
      return std::string("L");
    case TypeId::kFloat32:
      return std::string("f");
    case TypeId::kFloat64:
      return std::string("g");
    case TypeId::kDecimal128:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case TypeId::kDate32:
      return std::string("tdD");
    case TypeId::kTime64:
      if (type.unit == TimeUnit::kMicro) return std::string("ttu");
      if (type.unit == TimeUnit::kNano) return std::string("ttn");
      return InvalidArgument(type.ToString(),
                             " has no Arrow C format: time64 is microseconds or nanoseconds");
    case TypeId::kTimestamp:
      return std::string("ts") + TimeUnitLetter(type.unit) + ":" + type.timezone;
    case TypeId::kUtf8:
      return std::string("u");
    case TypeId::kBinary:
      return std::string("z");
    case TypeId::kFixedSizeBinary:
      return "w:" + std::to_string(type.byte_width);
    case TypeId::kIntervalMonthDayNano:
      return std::string("tin");
    case TypeId::kList:
      return std::string("+l");
    case TypeId::kStruct:
      return std::string("+s");
    case TypeId::kMap:
      return std::string("+m");
  }
  return Internal("unknown type id ", static_cast<int>(type.id));
}

// Fills `out` with a schema node of `type` named `name`. On error nothing is
// left allocated and `out` is untouched.
Status ExportSchemaNode(const DataType& type, const std::string& name, int64_t flags,
                        const KeyValueMetadata& metadata, ArrowSchema* out, int depth) {
  if (depth > kMaxDepth) return InvalidArgument("type nested deeper than ", kMaxDepth, " levels");
  auto priv = std::make_unique<ExportedSchema>();
  HOGLAKE_ASSIGN_OR_RETURN(priv->format, FormatOf(type));
  HOGLAKE_ASSIGN_OR_RETURN(priv->metadata, EncodeMetadata(metadata));
  priv->name = name;
  if (type.id == TypeId::kMap && type.keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  const size_t n = type.children.size();
  priv->children.assign(n, ArrowSchema{});
  for (size_t i = 0; i < n; ++i) priv->child_pointers.push_back(&priv->children[i]);

  ArrowSchema node{};
  node.format = priv->format.c_str();
  node.name = priv->name.c_str();
  node.metadata = priv->metadata.empty() ? nullptr : priv->metadata.data();
  node.flags = flags;
  node.n_children = static_cast<int64_t>(n);
  node.children = n == 0 ? nullptr : priv->child_pointers.data();
  node.dictionary = nullptr;
  node.release = &ReleaseExportedSchema;
  node.private_data = priv.release();
  for (size_t i = 0; i < n; ++i) {
    const Field& child = type.children[i];
    Status status =
        ExportSchemaNode(*child.type, child.name, child.nullable ? ARROW_FLAG_NULLABLE : 0,
                         child.metadata, node.children[i], depth + 1);
    if (!status.ok()) {
      node.release(&node);  // releases the children exported so far
      return status;
    }
  }
  *out = node;
  return Status::Ok();
}

// ============================================================================
// Export: arrays
// ============================================================================

struct ExportedArray {
  ArrayPtr data;  // keeps the exported buffers alive (null for a batch)
  std::vector<std::shared_ptr<Buffer>> fillers;  // zeroed stand-ins for absent buffers
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseExportedArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  for (int64_t i = 0; i < array->n_children; ++i) {
    ArrowArray* child = array->children[i];
    // A child the consumer moved out has release == NULL here.
    if (child != nullptr && child->release != nullptr) child->release(child);
  }
  if (array->dictionary != nullptr && array->dictionary->release != nullptr) {
    array->dictionary->release(array->dictionary);
  }
  delete static_cast<ExportedArray*>(array->private_data);
  array->private_data = nullptr;
  array->release = nullptr;
}

// Bytes buffer `index` (> 0) of `data` must hold; used to size stand-ins.
int64_t RequiredSize(const ArrayData& data, size_t index) {
  const DataType& type = *data.type;
  const int64_t end = data.offset + data.length;
  if (type.is_binary_like() || type.id == TypeId::kList || type.id == TypeId::kMap) {
    return index == 1 ? (end + 1) * 4 : 0;
  }
  return BytesForBits(end * type.bit_width());
}

// Wraps `priv` into `out` with the given children, exporting them; on error
// releases what was built and leaves `out` untouched.
Status FinishExportedArray(std::unique_ptr<ExportedArray> priv, int64_t length, int64_t null_count,
                           int64_t offset, const std::vector<ArrayPtr>& children, ArrowArray* out,
                           int depth);

Status ExportArrayNode(const ArrayPtr& data, ArrowArray* out, int depth) {
  if (depth > kMaxDepth) return InvalidArgument("array nested deeper than ", kMaxDepth, " levels");
  if (!data || !data->type) return InvalidArgument("cannot export a null array or untyped array");
  const DataType& type = *data->type;
  if (static_cast<int>(data->buffers.size()) != BufferCount(type.id)) {
    return InvalidArgument(type.ToString(), " array has ", data->buffers.size(),
                           " buffers, expected ", BufferCount(type.id));
  }
  if (static_cast<int64_t>(data->children.size()) != ChildCount(type)) {
    return InvalidArgument(type.ToString(), " array has ", data->children.size(),
                           " children, expected ", ChildCount(type));
  }
  auto priv = std::make_unique<ExportedArray>();
  priv->data = data;
  for (size_t i = 0; i < data->buffers.size(); ++i) {
    const std::shared_ptr<Buffer>& buffer = data->buffers[i];
    if (i == 0) {
      // No bitmap: NULL, as the spec allows when there are no nulls.
      priv->buffers.push_back(buffer ? buffer->data() : nullptr);
    } else if (buffer && buffer->data() != nullptr) {
      priv->buffers.push_back(buffer->data());
    } else {
      auto filler = Buffer::Allocate(RequiredSize(*data, i));
      priv->buffers.push_back(filler->data());
      priv->fillers.push_back(std::move(filler));
    }
  }
  return FinishExportedArray(std::move(priv), data->length, data->null_count, data->offset,
                             data->children, out, depth);
}

Status FinishExportedArray(std::unique_ptr<ExportedArray> priv, int64_t length, int64_t null_count,
                           int64_t offset, const std::vector<ArrayPtr>& children, ArrowArray* out,
                           int depth) {
  const size_t n = children.size();
  priv->children.assign(n, ArrowArray{});
  for (size_t i = 0; i < n; ++i) priv->child_pointers.push_back(&priv->children[i]);

  ArrowArray node{};
  node.length = length;
  node.null_count = null_count;
  node.offset = offset;
  node.n_buffers = static_cast<int64_t>(priv->buffers.size());
  node.n_children = static_cast<int64_t>(n);
  node.buffers = priv->buffers.data();
  node.children = n == 0 ? nullptr : priv->child_pointers.data();
  node.dictionary = nullptr;
  node.release = &ReleaseExportedArray;
  node.private_data = priv.release();
  for (size_t i = 0; i < n; ++i) {
    Status status = ExportArrayNode(children[i], node.children[i], depth + 1);
    if (!status.ok()) {
      node.release(&node);
      return status;
    }
  }
  *out = node;
  return Status::Ok();
}

// ============================================================================
// Export: streams
// ============================================================================

struct ExportedStream {
  SchemaPtr schema;
  std::vector<RecordBatch> batches;
  size_t next = 0;
  std::string last_error;
};

int ErrnoFor(const Error& error) {
  switch (error.code) {
    case ErrorCode::kNotImplemented:
      return ENOSYS;
    case ErrorCode::kIoError:
      return EIO;
    default:
      return EINVAL;
  }
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* priv = static_cast<ExportedStream*>(stream->private_data);
  Status status = ExportSchema(*priv->schema, out);
  if (!status.ok()) {
    priv->last_error = status.ToString();
    return ErrnoFor(status.error());
  }
  return 0;
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* priv = static_cast<ExportedStream*>(stream->private_data);
  if (priv->next >= priv->batches.size()) {
    *out = ArrowArray{};  // release == NULL: end of stream
    return 0;
  }
  Status status = ExportRecordBatch(priv->batches[priv->next], out);
  if (!status.ok()) {
    priv->last_error = status.ToString();
    return ErrnoFor(status.error());
  }
  // Drop our reference: the exported array keeps what it needs alive.
  priv->batches[priv->next] = RecordBatch{};
  ++priv->next;
  return 0;
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  auto* priv = static_cast<ExportedStream*>(stream->private_data);
  return priv->last_error.empty() ? nullptr : priv->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<ExportedStream*>(stream->private_data);
  stream->private_data = nullptr;
  stream->release = nullptr;
}

// ============================================================================
// Import: schemas
// ============================================================================

// What our DataType cannot say about the foreign layout: whether offsets are
// 64-bit ("U", "Z", "+L"). Mirrors the type tree; missing children default.
struct ForeignLayout {
  bool large_offsets = false;
  std::vector<ForeignLayout> children;

  const ForeignLayout& child(size_t i) const {
    static const ForeignLayout kDefault;
    return i < children.size() ? children[i] : kDefault;
  }
};

// Calls the producer's release of a schema once, when the import is done.
class SchemaReleaser {
 public:
  explicit SchemaReleaser(ArrowSchema* schema) : schema_(schema) {}
  SchemaReleaser(const SchemaReleaser&) = delete;
  SchemaReleaser& operator=(const SchemaReleaser&) = delete;
  ~SchemaReleaser() {
    if (schema_->release != nullptr) schema_->release(schema_);
  }

 private:
  ArrowSchema* schema_;
};

Status CheckLiveSchema(const ArrowSchema* schema) {
  if (schema == nullptr) return InvalidArgument("ArrowSchema pointer is NULL");
  if (schema->release == nullptr) {
    return InvalidArgument("ArrowSchema is already released (release callback is NULL)");
  }
  return Status::Ok();
}

int32_t ReadInt32(const char* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

Result<KeyValueMetadata> DecodeMetadata(const char* p, const std::string& path) {
  KeyValueMetadata out;
  if (p == nullptr) return out;
  const int32_t count = ReadInt32(p);
  p += 4;
  if (count < 0) return InvalidData(path, ": metadata has a negative entry count ", count);
  for (int32_t i = 0; i < count; ++i) {
    const int32_t key_length = ReadInt32(p);
    p += 4;
    if (key_length < 0) {
      return InvalidData(path, ": metadata key ", i, " has negative length ", key_length);
    }
    std::string key(p, static_cast<size_t>(key_length));
    p += key_length;
    const int32_t value_length = ReadInt32(p);
    p += 4;
    if (value_length < 0) {
      return InvalidData(path, ": metadata value of '", key, "' has negative length ",
                         value_length);
    }
    std::string value(p, static_cast<size_t>(value_length));
    p += value_length;
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

bool ParseInt32(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// A human name for formats we recognize but do not support, or "".
std::string_view UnsupportedFormatName(std::string_view f) {
  if (f == "n") return "null";
  if (f == "e") return "float16";
  if (f == "vu") return "utf8 view";
  if (f == "vz") return "binary view";
  if (f == "tdm") return "date64";
  if (f == "tts" || f == "ttm") return "time32";
  if (f.starts_with("tD")) return "duration";
  if (f.starts_with("ti")) return "interval";
  if (f == "+vl" || f == "+vL") return "list view";
  if (f.starts_with("+w:")) return "fixed-size list";
  if (f.starts_with("+ud:")) return "dense union";
  if (f.starts_with("+us:")) return "sparse union";
  if (f == "+r") return "run-end encoded";
  return "";
}

class SchemaImporter {
 public:
  explicit SchemaImporter(bool allow_large) : allow_large_(allow_large) {}

  // A field from a live (child) schema node.
  Result<Field> ImportFieldNode(const ArrowSchema* s, const std::string& path, int depth,
                                ForeignLayout* layout) {
    if (s == nullptr) return InvalidData(path, ": schema pointer is NULL");
    if (s->release == nullptr) return InvalidData(path, ": schema is released");
    Field field;
    field.name = s->name != nullptr ? s->name : "";
    field.nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
    HOGLAKE_ASSIGN_OR_RETURN(field.metadata, DecodeMetadata(s->metadata, path));
    HOGLAKE_ASSIGN_OR_RETURN(field.type, ImportTypeNode(s, path, depth, layout));
    return field;
  }

  Result<DataTypePtr> ImportTypeNode(const ArrowSchema* s, const std::string& path, int depth,
                                     ForeignLayout* layout) {
    if (depth > kMaxDepth) return InvalidData(path, ": nested deeper than ", kMaxDepth, " levels");
    if (s->format == nullptr) return InvalidData(path, ": format is NULL");
    const std::string_view f(s->format);
    if (s->dictionary != nullptr) {
      return NotImplemented(path, ": dictionary-encoded fields are not supported (index format '",
                            f, "')");
    }
    if (s->n_children < 0) return InvalidData(path, ": negative n_children ", s->n_children);
    if (s->n_children > 0 && s->children == nullptr) {
      return InvalidData(path, ": n_children is ", s->n_children, " but children is NULL");
    }
    auto expect_children = [&](int64_t n) -> Status {
      if (s->n_children != n) {
        return InvalidData(path, ": format '", f, "' takes ", n, " children, schema has ",
                           s->n_children);
      }
      return Status::Ok();
    };
    auto leaf = [&](DataTypePtr type) -> Result<DataTypePtr> {
      HOGLAKE_RETURN_IF_ERROR(expect_children(0));
      return type;
    };
    auto large = [&](DataTypePtr type, std::string_view what) -> Result<DataTypePtr> {
      if (!allow_large_) {
        return NotImplemented(path, ": format '", f, "' (", what,
                              ") has 64-bit offsets; import it together with its data "
                              "(ImportArray/ImportRecordBatch with the ArrowSchema, or "
                              "CStreamReader), which converts them to 32-bit offsets");
      }
      layout->large_offsets = true;
      return type;
    };

    if (f.size() == 1) {
      switch (f[0]) {
        case 'b':
          return leaf(Bool());
        case 'c':
          return leaf(Int8());
        case 'C':
          return leaf(UInt8());
        case 's':
          return leaf(Int16());
        case 'S':
          return leaf(UInt16());
        case 'i':
          return leaf(Int32());
        case 'I':
          return leaf(UInt32());
        case 'l':
          return leaf(Int64());
        case 'L':
          return leaf(UInt64());
        case 'f':
          return leaf(Float32());
        case 'g':
          return leaf(Float64());
        case 'u':
          return leaf(Utf8());
        case 'z':
          return leaf(Binary());
        case 'U':
          HOGLAKE_RETURN_IF_ERROR(expect_children(0));
          return large(Utf8(), "large utf8");
        case 'Z':
          HOGLAKE_RETURN_IF_ERROR(expect_children(0));
          return large(Binary(), "large binary");
        default:
          break;
      }
    }
    if (f == "tdD") return leaf(Date32());
    if (f == "ttu") return leaf(Time64(TimeUnit::kMicro));
    if (f == "ttn") return leaf(Time64(TimeUnit::kNano));
    if (f == "tin") return leaf(IntervalMonthDayNano());
    if (f.size() >= 4 && f.starts_with("ts") && f[3] == ':') {
      TimeUnit unit;
      switch (f[2]) {
        case 's':
          unit = TimeUnit::kSecond;
          break;
        case 'm':
          unit = TimeUnit::kMilli;
          break;
        case 'u':
          unit = TimeUnit::kMicro;
          break;
        case 'n':
          unit = TimeUnit::kNano;
          break;
        default:
          return InvalidData(path, ": bad timestamp unit in format '", f, "'");
      }
      return leaf(Timestamp(unit, std::string(f.substr(4))));
    }
    if (f.starts_with("d:")) return ImportDecimal(f, path, leaf);
    if (f.starts_with("w:")) {
      int32_t width = 0;
      if (!ParseInt32(f.substr(2), &width) || width <= 0) {
        return InvalidData(path, ": bad fixed-size binary format '", f, "'");
      }
      return leaf(FixedSizeBinary(width));
    }
    if (f == "+l" || f == "+L") {
      HOGLAKE_RETURN_IF_ERROR(expect_children(1));
      layout->children.resize(1);
      HOGLAKE_ASSIGN_OR_RETURN(Field element,
                               ImportChild(s->children[0], path, depth, &layout->children[0]));
      DataTypePtr type = List(std::move(element));
      if (f == "+L") return large(std::move(type), "large list");
      return type;
    }
    if (f == "+s") {
      std::vector<Field> fields;
      layout->children.resize(static_cast<size_t>(s->n_children));
      for (int64_t i = 0; i < s->n_children; ++i) {
        HOGLAKE_ASSIGN_OR_RETURN(Field child,
                                 ImportChild(s->children[i], path, depth, &layout->children[i]));
        fields.push_back(std::move(child));
      }
      return Struct(std::move(fields));
    }
    if (f == "+m") return ImportMap(s, path, depth, layout, expect_children);

    std::string_view what = UnsupportedFormatName(f);
    if (!what.empty()) {
      return NotImplemented(path, ": Arrow format '", f, "' (", what, ") is not supported");
    }
    return NotImplemented(path, ": unknown or unsupported Arrow format '", f, "'");
  }

 private:
  Result<Field> ImportChild(const ArrowSchema* child, const std::string& path, int depth,
                            ForeignLayout* layout) {
    std::string child_path = path + " > ";
    child_path += (child != nullptr && child->name != nullptr)
                      ? "'" + std::string(child->name) + "'"
                      : std::string("(child)");
    return ImportFieldNode(child, child_path, depth + 1, layout);
  }

  template <typename Leaf>
  Result<DataTypePtr> ImportDecimal(std::string_view f, const std::string& path, Leaf& leaf) {
    std::vector<std::string_view> parts;
    std::string_view rest = f.substr(2);
    while (true) {
      size_t comma = rest.find(',');
      parts.push_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    int32_t precision = 0, scale = 0, width = 128;
    if (parts.size() < 2 || parts.size() > 3 || !ParseInt32(parts[0], &precision) ||
        !ParseInt32(parts[1], &scale) || (parts.size() == 3 && !ParseInt32(parts[2], &width))) {
      return InvalidData(path, ": bad decimal format '", f, "'");
    }
    if (width != 128) {
      return NotImplemented(path, ": decimal", width, " (format '", f,
                            "') is not supported; only decimal128");
    }
    if (precision < 1 || precision > 38) {
      return InvalidData(path, ": decimal128 precision ", precision, " is outside 1..38");
    }
    if (scale < 0 || scale > precision) {
      return NotImplemented(path, ": decimal128 scale ", scale, " outside 0..precision (",
                            precision, ") is not supported");
    }
    return leaf(Decimal128(precision, scale));
  }

  template <typename ExpectChildren>
  Result<DataTypePtr> ImportMap(const ArrowSchema* s, const std::string& path, int depth,
                                ForeignLayout* layout, ExpectChildren& expect_children) {
    HOGLAKE_RETURN_IF_ERROR(expect_children(1));
    layout->children.resize(1);
    HOGLAKE_ASSIGN_OR_RETURN(Field entries,
                             ImportChild(s->children[0], path, depth, &layout->children[0]));
    if (entries.type->id != TypeId::kStruct || entries.type->children.size() != 2) {
      return InvalidData(path, ": map entries must be a struct of key and value, got ",
                         entries.type->ToString());
    }
    // Keys and entries are never null in a map; some producers do not flag it.
    auto entries_type = std::make_shared<DataType>(*entries.type);
    entries_type->children[0].nullable = false;
    entries.type = std::move(entries_type);
    entries.nullable = false;
    auto type = std::make_shared<DataType>();
    type->id = TypeId::kMap;
    type->keys_sorted = (s->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
    type->children.push_back(std::move(entries));
    return DataTypePtr(std::move(type));
  }

  bool allow_large_;
};

Result<Field> ImportFieldImpl(ArrowSchema* schema, bool allow_large, ForeignLayout* layout) {
  HOGLAKE_RETURN_IF_ERROR(CheckLiveSchema(schema));
  SchemaReleaser releaser(schema);
  const std::string path = schema->name != nullptr && schema->name[0] != '\0'
                               ? "field '" + std::string(schema->name) + "'"
                               : std::string("field");
  return SchemaImporter(allow_large).ImportFieldNode(schema, path, 0, layout);
}

Result<SchemaPtr> ImportSchemaImpl(ArrowSchema* schema, bool allow_large, ForeignLayout* layout) {
  HOGLAKE_RETURN_IF_ERROR(CheckLiveSchema(schema));
  SchemaReleaser releaser(schema);
  if (schema->format == nullptr || std::string_view(schema->format) != "+s") {
    return InvalidData("a schema must be exported as a struct (format '+s'), got format '",
                       schema->format != nullptr ? schema->format : "(NULL)", "'");
  }
  SchemaImporter importer(allow_large);
  HOGLAKE_ASSIGN_OR_RETURN(DataTypePtr type, importer.ImportTypeNode(schema, "schema", 0, layout));
  auto out = std::make_shared<Schema>();
  out->fields = type->children;
  HOGLAKE_ASSIGN_OR_RETURN(out->metadata, DecodeMetadata(schema->metadata, "schema"));
  return SchemaPtr(std::move(out));
}

// ============================================================================
// Import: arrays
// ============================================================================

// Owns a moved-in ArrowArray; the producer's release runs when the last
// Buffer wrapping its memory (or the importer) lets go.
struct ImportedArrayOwner {
  ArrowArray array{};
  ImportedArrayOwner() = default;
  ImportedArrayOwner(const ImportedArrayOwner&) = delete;
  ImportedArrayOwner& operator=(const ImportedArrayOwner&) = delete;
  ~ImportedArrayOwner() {
    if (array.release != nullptr) array.release(&array);
  }
};

// Moves `*array` into a fresh owner (the caller's struct is marked released).
Result<std::shared_ptr<ImportedArrayOwner>> TakeArray(ArrowArray* array) {
  if (array == nullptr) return InvalidArgument("ArrowArray pointer is NULL");
  if (array->release == nullptr) {
    return InvalidArgument("ArrowArray is already released (release callback is NULL)");
  }
  auto owner = std::make_shared<ImportedArrayOwner>();
  owner->array = *array;
  array->release = nullptr;
  return owner;
}

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<const void> owner) : owner_(std::move(owner)) {}

  Result<ArrayPtr> Import(const ArrowArray* a, const DataTypePtr& type_ptr,
                          const ForeignLayout& layout, const std::string& path, int depth) {
    auto fail = [&](const auto&... parts) { return InvalidData(path, ": ", parts...); };
    if (depth > kMaxDepth) return fail("nested deeper than ", kMaxDepth, " levels");
    if (a == nullptr) return fail("array pointer is NULL");
    if (a->release == nullptr) return fail("array is released (release callback is NULL)");
    const DataType& type = *type_ptr;
    if (a->length < 0) return fail("negative length ", a->length);
    if (a->offset < 0) return fail("negative offset ", a->offset);
    if (a->offset > kMaxEnd - a->length) {
      return fail("offset ", a->offset, " + length ", a->length, " exceeds 2^59 slots");
    }
    if (a->null_count < -1 || a->null_count > a->length) {
      return fail("null_count ", a->null_count, " is outside -1..length (", a->length, ")");
    }
    if (a->dictionary != nullptr) {
      return fail("array has a dictionary but ", type.ToString(), " is not dictionary-encoded");
    }
    const int64_t want_buffers = BufferCount(type.id);
    if (a->n_buffers != want_buffers) {
      return fail(type.ToString(), " array must have ", want_buffers, " buffers, n_buffers is ",
                  a->n_buffers);
    }
    if (a->buffers == nullptr) return fail("buffers pointer is NULL");
    const int64_t want_children = ChildCount(type);
    if (a->n_children != want_children) {
      return fail(type.ToString(), " array must have ", want_children, " children, n_children is ",
                  a->n_children);
    }
    if (want_children > 0 && a->children == nullptr) {
      return fail("n_children is ", a->n_children, " but children is NULL");
    }

    auto data = std::make_shared<ArrayData>();
    data->type = type_ptr;
    data->length = a->length;
    if (a->length == 0) {
      // Nothing is read from an empty array's buffers (they may be NULL):
      // import it as empty buffers at offset 0.
      FillEmpty(data.get());
    } else {
      data->offset = a->offset;
      HOGLAKE_RETURN_IF_ERROR(ImportBuffers(*a, layout, path, fail, data.get()));
    }
    for (int64_t i = 0; i < want_children; ++i) {
      const Field& field = type.children[static_cast<size_t>(i)];
      HOGLAKE_ASSIGN_OR_RETURN(
          ArrayPtr child, Import(a->children[i], field.type, layout.child(static_cast<size_t>(i)),
                                 path + " > " + field.name, depth + 1));
      data->children.push_back(std::move(child));
    }
    return ArrayPtr(std::move(data));
  }

 private:
  std::shared_ptr<Buffer> Wrap(const void* p, int64_t size) {
    return Buffer::Wrap(static_cast<const uint8_t*>(p), size, owner_);
  }

  static void FillEmpty(ArrayData* data) {
    const DataType& type = *data->type;
    data->offset = 0;
    data->null_count = 0;
    data->buffers.push_back(nullptr);
    if (type.id == TypeId::kStruct) return;
    if (type.is_nested() || type.is_binary_like()) {
      data->buffers.push_back(Buffer::Allocate(4));  // one zero offset
      if (type.is_binary_like()) data->buffers.push_back(Buffer::Allocate(0));
    } else {
      data->buffers.push_back(Buffer::Allocate(0));
    }
  }

  template <typename Fail>
  Status ImportBuffers(const ArrowArray& a, const ForeignLayout& layout, const std::string& path,
                       const Fail& fail, ArrayData* data) {
    const DataType& type = *data->type;
    const int64_t end = a.offset + a.length;
    // 64-bit offsets are converted into a new buffer of length + 1 entries,
    // so such an array is rebased to offset 0 (its bitmap is copied too).
    const bool rebase = layout.large_offsets && a.offset != 0;
    // Validity.
    if (a.buffers[0] != nullptr) {
      const auto* bits = static_cast<const uint8_t*>(a.buffers[0]);
      data->null_count =
          a.null_count >= 0 ? a.null_count : a.length - CountSetBits(bits, a.offset, a.length);
      if (rebase) {
        auto copy = Buffer::Allocate(BytesForBits(a.length));
        for (int64_t i = 0; i < a.length; ++i) {
          if (GetBit(bits, a.offset + i)) SetBit(copy->mutable_data(), i);
        }
        data->buffers.push_back(std::move(copy));
      } else {
        data->buffers.push_back(Wrap(bits, BytesForBits(end)));
      }
    } else {
      if (a.null_count > 0) {
        return fail("null_count is ", a.null_count, " but the validity buffer is NULL");
      }
      data->buffers.push_back(nullptr);
      data->null_count = 0;
    }
    if (type.id == TypeId::kStruct) return Status::Ok();

    if (!type.is_nested() && !type.is_binary_like()) {
      int64_t bits = 0;
      if (__builtin_mul_overflow(end, static_cast<int64_t>(type.bit_width()), &bits)) {
        return fail("values buffer size overflows for ", a.length, " values at offset ", a.offset);
      }
      if (a.buffers[1] == nullptr) {
        return fail("values buffer is NULL for ", a.length, " values");
      }
      data->buffers.push_back(Wrap(a.buffers[1], BytesForBits(bits)));
      return Status::Ok();
    }

    // Offsets (utf8, binary, list, map), possibly 64-bit.
    if (a.buffers[1] == nullptr) return fail("offsets buffer is NULL for ", a.length, " values");
    int64_t last = 0;
    if (layout.large_offsets) {
      const auto* src = static_cast<const int64_t*>(a.buffers[1]);
      last = src[end];
      if (last > kInt32Max) {
        return NotImplemented(path, ": ", type.ToString(), " array with 64-bit offsets references ",
                              last, " bytes or elements, more than 32-bit offsets can address");
      }
      auto converted = Buffer::Allocate((a.length + 1) * 4);
      auto* dst = reinterpret_cast<int32_t*>(converted->mutable_data());
      for (int64_t i = 0; i <= a.length; ++i) {
        const int64_t v = src[a.offset + i];
        if (v < 0 || v > kInt32Max) {
          return fail("64-bit offset ", v, " at slot ", i, " is outside 0..", kInt32Max);
        }
        dst[i] = static_cast<int32_t>(v);
      }
      data->buffers.push_back(std::move(converted));
      data->offset = 0;
    } else {
      const auto* offsets = static_cast<const int32_t*>(a.buffers[1]);
      last = offsets[end];
      data->buffers.push_back(Wrap(a.buffers[1], (end + 1) * 4));
    }
    if (last < 0) return fail("last offset ", last, " is negative");
    if (!type.is_binary_like()) return Status::Ok();
    if (a.buffers[2] == nullptr) {
      if (last > 0) return fail("data buffer is NULL but the offsets reference ", last, " bytes");
      data->buffers.push_back(Buffer::Allocate(0));
    } else {
      data->buffers.push_back(Wrap(a.buffers[2], last));
    }
    return Status::Ok();
  }

  std::shared_ptr<const void> owner_;
};

Result<ArrayPtr> ImportArrayFrom(const std::shared_ptr<ImportedArrayOwner>& owner,
                                 const DataTypePtr& type, const ForeignLayout& layout) {
  ArrayImporter importer(owner);
  HOGLAKE_ASSIGN_OR_RETURN(ArrayPtr result,
                           importer.Import(&owner->array, type, layout, "array", 0));
  HOGLAKE_RETURN_IF_ERROR(Validate(*result));
  return result;
}

Result<RecordBatch> ImportBatchFrom(const std::shared_ptr<ImportedArrayOwner>& owner,
                                    SchemaPtr schema, const ForeignLayout& layout) {
  if (!schema) return InvalidArgument("ImportRecordBatch needs a schema");
  const ArrowArray& top = owner->array;
  if (top.n_children != schema->num_fields()) {
    return InvalidData("record batch array has ", top.n_children, " children, schema has ",
                       schema->num_fields(), " fields");
  }
  ArrayImporter importer(owner);
  HOGLAKE_ASSIGN_OR_RETURN(
      ArrayPtr array, importer.Import(&top, Struct(schema->fields), layout, "record batch", 0));
  HOGLAKE_RETURN_IF_ERROR(Validate(*array));
  if (array->null_count != 0) {
    return InvalidData("record batch struct array has ", array->null_count, " null rows");
  }
  std::vector<ArrayPtr> columns;
  columns.reserve(array->children.size());
  for (const ArrayPtr& child : array->children) {
    columns.push_back(SliceUnchecked(child, array->offset, array->length));
  }
  auto batch = MakeRecordBatch(std::move(schema), std::move(columns));
  if (!batch.ok()) return InvalidData(batch.error().message);
  batch->num_rows = array->length;  // also right for zero columns
  return std::move(batch).value();
}

std::string LastStreamError(ArrowArrayStream* stream, int code) {
  std::string out = std::generic_category().message(code);
  const char* text = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  if (text != nullptr && text[0] != '\0') {
    out += ": ";
    out += text;
  }
  return out;
}

}  // namespace

// ============================================================================
// Public API
// ============================================================================

Status ExportType(const DataType& type, ArrowSchema* out) {
  return ExportSchemaNode(type, "", ARROW_FLAG_NULLABLE, {}, out, 0);
}

Status ExportField(const Field& field, ArrowSchema* out) {
  if (!field.type) return InvalidArgument("field '", field.name, "' has no type");
  return ExportSchemaNode(*field.type, field.name, field.nullable ? ARROW_FLAG_NULLABLE : 0,
                          field.metadata, out, 0);
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  for (const Field& field : schema.fields) {
    if (!field.type) return InvalidArgument("field '", field.name, "' has no type");
  }
  DataType as_struct;
  as_struct.id = TypeId::kStruct;
  as_struct.children = schema.fields;
  return ExportSchemaNode(as_struct, "", 0, schema.metadata, out, 0);
}

Status ExportArray(const ArrayPtr& array, ArrowArray* out) {
  return ExportArrayNode(array, out, 0);
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out) {
  for (size_t i = 0; i < batch.columns.size(); ++i) {
    if (!batch.columns[i] || batch.columns[i]->length != batch.num_rows) {
      return InvalidArgument("column ", i, " does not have the batch's ", batch.num_rows, " rows");
    }
  }
  auto priv = std::make_unique<ExportedArray>();
  priv->buffers.push_back(nullptr);  // no struct-level nulls
  return FinishExportedArray(std::move(priv), batch.num_rows, 0, 0, batch.columns, out, 0);
}

Status ExportRecordBatchStream(SchemaPtr schema, std::vector<RecordBatch> batches,
                               ArrowArrayStream* out) {
  if (!schema) return InvalidArgument("ExportRecordBatchStream needs a schema");
  for (size_t b = 0; b < batches.size(); ++b) {
    const RecordBatch& batch = batches[b];
    if (batch.num_columns() != schema->num_fields()) {
      return InvalidArgument("batch ", b, " has ", batch.num_columns(),
                             " columns, the stream schema has ", schema->num_fields());
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      const ArrayPtr& column = batch.columns[static_cast<size_t>(i)];
      const Field& field = schema->fields[static_cast<size_t>(i)];
      if (!column || !column->type || !column->type->Equals(*field.type)) {
        return InvalidArgument("batch ", b, " column '", field.name,
                               "' does not have the stream schema's type ", field.type->ToString());
      }
      if (column->length != batch.num_rows) {
        return InvalidArgument("batch ", b, " column '", field.name, "' has ", column->length,
                               " rows, the batch has ", batch.num_rows);
      }
    }
  }
  // Fail now, not in get_schema, if a type has no C format.
  ArrowSchema probe{};
  HOGLAKE_RETURN_IF_ERROR(ExportSchema(*schema, &probe));
  probe.release(&probe);

  auto priv = std::make_unique<ExportedStream>();
  priv->schema = std::move(schema);
  priv->batches = std::move(batches);
  out->get_schema = &StreamGetSchema;
  out->get_next = &StreamGetNext;
  out->get_last_error = &StreamGetLastError;
  out->release = &StreamRelease;
  out->private_data = priv.release();
  return Status::Ok();
}

Result<DataTypePtr> ImportType(ArrowSchema* schema) {
  ForeignLayout layout;
  HOGLAKE_ASSIGN_OR_RETURN(Field field, ImportFieldImpl(schema, false, &layout));
  return field.type;
}

Result<Field> ImportField(ArrowSchema* schema) {
  ForeignLayout layout;
  return ImportFieldImpl(schema, false, &layout);
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  ForeignLayout layout;
  return ImportSchemaImpl(schema, false, &layout);
}

Result<ArrayPtr> ImportArray(ArrowArray* array, const DataTypePtr& type) {
  HOGLAKE_ASSIGN_OR_RETURN(auto owner, TakeArray(array));
  if (!type) return InvalidArgument("ImportArray needs a type");
  return ImportArrayFrom(owner, type, ForeignLayout{});
}

Result<RecordBatch> ImportRecordBatch(ArrowArray* array, SchemaPtr schema) {
  HOGLAKE_ASSIGN_OR_RETURN(auto owner, TakeArray(array));
  return ImportBatchFrom(owner, std::move(schema), ForeignLayout{});
}

Result<ArrayPtr> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  // Take the array first so that it is released even if the schema is bad.
  auto owner = TakeArray(array);
  ForeignLayout layout;
  auto field = ImportFieldImpl(schema, true, &layout);
  if (!owner.ok()) return owner.error();
  if (!field.ok()) return field.error();
  return ImportArrayFrom(*owner, field->type, layout);
}

Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  auto owner = TakeArray(array);
  ForeignLayout layout;
  auto imported_schema = ImportSchemaImpl(schema, true, &layout);
  if (!owner.ok()) return owner.error();
  if (!imported_schema.ok()) return imported_schema.error();
  return ImportBatchFrom(*owner, std::move(imported_schema).value(), layout);
}

// ---- CStreamReader ------------------------------------------------------------

struct CStreamReader::State {
  ArrowArrayStream stream{};
  ForeignLayout layout;
  bool done = false;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    if (stream.release != nullptr) stream.release(&stream);
  }
};

CStreamReader::CStreamReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
CStreamReader::CStreamReader(CStreamReader&&) noexcept = default;
CStreamReader& CStreamReader::operator=(CStreamReader&&) noexcept = default;
CStreamReader::~CStreamReader() = default;

Result<CStreamReader> CStreamReader::Open(ArrowArrayStream* stream) {
  if (stream == nullptr) return InvalidArgument("ArrowArrayStream pointer is NULL");
  if (stream->release == nullptr) {
    return InvalidArgument("ArrowArrayStream is already released (release callback is NULL)");
  }
  auto state = std::make_unique<State>();
  state->stream = *stream;
  stream->release = nullptr;
  ArrowArrayStream* s = &state->stream;
  if (s->get_schema == nullptr || s->get_next == nullptr) {
    return InvalidArgument("ArrowArrayStream has NULL callbacks");
  }
  ArrowSchema c_schema{};
  const int rc = s->get_schema(s, &c_schema);
  if (rc != 0) {
    return IoError("ArrowArrayStream get_schema failed (", LastStreamError(s, rc), ")");
  }
  HOGLAKE_ASSIGN_OR_RETURN(SchemaPtr schema, ImportSchemaImpl(&c_schema, true, &state->layout));
  CStreamReader reader(std::move(state));
  reader.schema_ = std::move(schema);
  return reader;
}

Result<std::optional<RecordBatch>> CStreamReader::Next() {
  if (!state_) return InvalidArgument("CStreamReader was moved from");
  if (state_->done) return std::optional<RecordBatch>();
  ArrowArrayStream* s = &state_->stream;
  ArrowArray c_array{};
  const int rc = s->get_next(s, &c_array);
  if (rc != 0) {
    return IoError("ArrowArrayStream get_next failed (", LastStreamError(s, rc), ")");
  }
  if (c_array.release == nullptr) {
    state_->done = true;
    return std::optional<RecordBatch>();
  }
  HOGLAKE_ASSIGN_OR_RETURN(auto owner, TakeArray(&c_array));
  HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch, ImportBatchFrom(owner, schema_, state_->layout));
  return std::optional<RecordBatch>(std::move(batch));
}

}  // namespace hoglake::columnar
