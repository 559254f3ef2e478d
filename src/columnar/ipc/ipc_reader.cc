#include "columnar/ipc/ipc_reader.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <map>
#include <string>

#include "columnar/builder.h"
#include "columnar/ipc/ipc_metadata.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

namespace fb = ::hoglake::arrowfb;
using ipc_internal::FieldLayout;
using ipc_internal::kContinuation;
using ipc_internal::kMaxMetadataLength;
using ipc_internal::SchemaLayout;

static_assert(std::endian::native == std::endian::little,
              "the IPC reader assumes a little-endian host");

// Generous bound for the flatbuffer verifier; DecodeSchema enforces the real
// nesting limit with a better message.
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 256;
// Streams are read in pieces of at least this size, growing geometrically.
constexpr int64_t kReadChunk = int64_t{1} << 20;
// A dictionary-encoded column may expand to this many times its message body,
// and to at least kMinDictionaryExpansion bytes.
constexpr int64_t kDictionaryExpansion = 64;
constexpr int64_t kMinDictionaryExpansion = int64_t{256} << 20;

bool IsAligned(const uint8_t* p, int64_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(alignment) == 0;
}

// ceil(n / 8) without overflow.
int64_t BitmapBytes(int64_t n) { return n / 8 + (n % 8 != 0 ? 1 : 0); }

// ---- byte sources ------------------------------------------------------------

class Source {
 public:
  virtual ~Source() = default;
  // Copies up to `n` bytes into `out`; fewer only at the end of the input.
  virtual Result<int64_t> Read(uint8_t* out, int64_t n) = 0;
  // Up to `n` bytes as a buffer; fewer only at the end of the input.
  virtual Result<std::shared_ptr<Buffer>> ReadBuffer(int64_t n) = 0;
  // Bytes left in the input, or -1 when unknown.
  virtual int64_t Remaining() const = 0;
  // Bytes consumed so far.
  int64_t position() const { return position_; }

 protected:
  int64_t position_ = 0;
};

class MemorySource : public Source {
 public:
  explicit MemorySource(std::shared_ptr<Buffer> bytes) : bytes_(std::move(bytes)) {}

  Result<int64_t> Read(uint8_t* out, int64_t n) override {
    const int64_t got = std::min(n, Remaining());
    if (got > 0) std::memcpy(out, bytes_->data() + position_, static_cast<size_t>(got));
    position_ += got;
    return got;
  }
  Result<std::shared_ptr<Buffer>> ReadBuffer(int64_t n) override {
    const int64_t got = std::min(n, Remaining());
    auto slice = Buffer::Slice(bytes_, position_, got);
    position_ += got;
    return slice;
  }
  int64_t Remaining() const override { return bytes_->size() - position_; }

 private:
  std::shared_ptr<Buffer> bytes_;
};

// An input read front to back through `read`, which fills up to n bytes and
// returns how many it got (0 at the end).
class StreamSource : public Source {
 public:
  using RawRead = std::function<Result<int64_t>(uint8_t* out, int64_t n)>;
  explicit StreamSource(RawRead read) : read_(std::move(read)) {}

  Result<int64_t> Read(uint8_t* out, int64_t n) override {
    int64_t total = 0;
    while (total < n) {
      HOGLAKE_ASSIGN_OR_RETURN(int64_t got, read_(out + total, n - total));
      if (got <= 0) break;
      total += got;
    }
    position_ += total;
    return total;
  }
  // Grows the buffer with the bytes that actually arrive, so a length the
  // input claims but does not deliver never becomes one huge allocation.
  Result<std::shared_ptr<Buffer>> ReadBuffer(int64_t n) override {
    BufferBuilder builder;
    int64_t total = 0;
    while (total < n) {
      const int64_t chunk = std::min(n - total, std::max(kReadChunk, total));
      builder.Resize(total + chunk);
      HOGLAKE_ASSIGN_OR_RETURN(int64_t got, Read(builder.data() + total, chunk));
      total += got;
      if (got < chunk) break;
    }
    builder.Resize(total);
    return builder.Finish();
  }
  int64_t Remaining() const override { return -1; }

 private:
  RawRead read_;
};

// ---- record batch bodies -------------------------------------------------------

// Rebuilds arrays from a RecordBatch's field nodes and buffers, consuming them
// in the schema's depth-first pre-order.
class ArrayLoader {
 public:
  // `dictionaries` holds the values of each dictionary id seen so far.
  ArrayLoader(const fb::RecordBatch& batch, std::shared_ptr<Buffer> body,
              const std::map<int64_t, ArrayPtr>* dictionaries)
      : nodes_(batch.nodes()),
        buffers_(batch.buffers()),
        body_(std::move(body)),
        dictionaries_(dictionaries) {}

  Result<ArrayPtr> Load(const FieldLayout& layout, const std::string& path) {
    auto fail = [&](auto... parts) { return InvalidData(path, ": ", parts...); };
    if (nodes_ == nullptr || node_index_ >= nodes_->size()) {
      return fail("the record batch has too few field nodes");
    }
    const fb::FieldNode* node = nodes_->Get(node_index_++);
    const int64_t length = node->length();
    const int64_t null_count = node->null_count();
    if (length < 0 || null_count < 0 || null_count > length) {
      return fail("field node has length ", length, " and null count ", null_count);
    }
    const DataType& type = *layout.type;
    auto array = std::make_shared<ArrayData>();
    array->type = layout.type;
    array->length = length;
    array->null_count = null_count;

    HOGLAKE_ASSIGN_OR_RETURN(auto validity, NextBuffer(path, "validity", 1));
    if (null_count == 0) {
      validity = nullptr;  // nothing to consult; saves the reader a bitmap
    } else if (!validity) {
      return fail("null count is ", null_count, " but the validity bitmap is empty");
    } else if (validity->size() < BitmapBytes(length)) {
      return fail("validity bitmap has ", validity->size(), " bytes, needs ", BitmapBytes(length),
                  " for ", length, " values");
    }
    if (layout.dictionary_id) return LoadDictionaryEncoded(layout, length, validity, path);
    array->buffers.push_back(std::move(validity));

    switch (type.id) {
      case TypeId::kStruct:
        for (size_t i = 0; i < layout.children.size(); ++i) {
          HOGLAKE_ASSIGN_OR_RETURN(auto child,
                                   Load(layout.children[i], path + " > " + type.children[i].name));
          array->children.push_back(std::move(child));
        }
        break;
      case TypeId::kList:
      case TypeId::kMap: {
        HOGLAKE_ASSIGN_OR_RETURN(auto offsets, LoadOffsets(layout, length, path));
        array->buffers.push_back(std::move(offsets));
        HOGLAKE_ASSIGN_OR_RETURN(auto child,
                                 Load(layout.children[0], path + " > " + type.children[0].name));
        array->children.push_back(std::move(child));
        break;
      }
      case TypeId::kUtf8:
      case TypeId::kBinary: {
        HOGLAKE_ASSIGN_OR_RETURN(auto offsets, LoadOffsets(layout, length, path));
        array->buffers.push_back(std::move(offsets));
        HOGLAKE_ASSIGN_OR_RETURN(auto data, NextBuffer(path, "data", 1));
        array->buffers.push_back(data ? std::move(data) : Empty());
        break;
      }
      case TypeId::kBool: {
        HOGLAKE_ASSIGN_OR_RETURN(auto values, NextBuffer(path, "values", 1));
        if (!values) values = Empty();
        if (values->size() < BitmapBytes(length)) {
          return fail("values bitmap has ", values->size(), " bytes, needs ", BitmapBytes(length),
                      " for ", length, " values");
        }
        array->buffers.push_back(std::move(values));
        break;
      }
      default: {
        const int64_t width = type.bit_width() / 8;
        // Fixed-size binary is bytes; an interval's widest member is 8 bytes.
        const int64_t alignment = type.id == TypeId::kFixedSizeBinary        ? 1
                                  : type.id == TypeId::kIntervalMonthDayNano ? 8
                                                                             : width;
        HOGLAKE_ASSIGN_OR_RETURN(auto values, NextBuffer(path, "values", alignment));
        if (!values) values = Empty();
        if (values->size() / width < length) {
          return fail("values buffer has ", values->size(), " bytes, needs ", length, " values of ",
                      width, " bytes");
        }
        array->buffers.push_back(std::move(values));
        break;
      }
    }
    return ArrayPtr(std::move(array));
  }

  // The most bytes of values one dictionary-encoded column of one batch may
  // expand to: a few indices must not turn into gigabytes of strings.
  int64_t DictionaryExpansionLimit() const {
    return std::min<int64_t>(INT32_MAX, std::max<int64_t>(kMinDictionaryExpansion,
                                                          body_->size() * kDictionaryExpansion));
  }

 private:
  // Materializes a dictionary-encoded utf8/binary column: reads the indices
  // and copies the values they select from the current dictionary.
  Result<ArrayPtr> LoadDictionaryEncoded(const FieldLayout& layout, int64_t length,
                                         const std::shared_ptr<Buffer>& validity,
                                         const std::string& path) {
    const int64_t width = layout.index_bit_width / 8;
    HOGLAKE_ASSIGN_OR_RETURN(auto indices, NextBuffer(path, "indices", width));
    if (!indices) indices = Empty();
    if (indices->size() / width < length) {
      return InvalidData(path, ": indices buffer has ", indices->size(), " bytes, needs ", length,
                         " indices of ", width, " bytes");
    }
    auto found = dictionaries_->find(*layout.dictionary_id);
    if (found == dictionaries_->end()) {
      return InvalidData(path, ": no DictionaryBatch with id ", *layout.dictionary_id,
                         " came before this record batch");
    }
    const ArrayData& dictionary = *found->second;
    // The index of slot i, or -1 when it cannot index anything.
    auto index_at = [&](int64_t i) -> int64_t {
      const uint8_t* p = indices->data() + i * width;
      switch (width) {
        case 1:
          return layout.index_signed ? int64_t{static_cast<int8_t>(*p)} : int64_t{*p};
        case 2: {
          uint16_t v;
          std::memcpy(&v, p, 2);
          return layout.index_signed ? int64_t{static_cast<int16_t>(v)} : int64_t{v};
        }
        case 4: {
          uint32_t v;
          std::memcpy(&v, p, 4);
          return layout.index_signed ? int64_t{static_cast<int32_t>(v)} : int64_t{v};
        }
        default: {
          uint64_t v;
          std::memcpy(&v, p, 8);
          return v > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(v);
        }
      }
    };
    auto is_valid = [&](int64_t i) { return !validity || GetBit(validity->data(), i); };
    // Check every index and the total size before allocating anything.
    const int64_t limit = DictionaryExpansionLimit();
    int64_t total = 0;
    for (int64_t i = 0; i < length; ++i) {
      if (!is_valid(i)) continue;
      const int64_t index = index_at(i);
      if (index < 0 || index >= dictionary.length) {
        return InvalidData(path, ": dictionary index ", index, " at slot ", i, " is outside the ",
                           dictionary.length, "-entry dictionary");
      }
      if (dictionary.IsValid(index))
        total += static_cast<int64_t>(dictionary.GetView(index).size());
      if (total > limit) {
        return NotImplemented(path, ": dictionary-encoded column expands past the ", limit,
                              "-byte limit");
      }
    }
    BinaryBuilder builder(layout.type);
    for (int64_t i = 0; i < length; ++i) {
      const int64_t index = is_valid(i) ? index_at(i) : -1;
      if (index < 0 || dictionary.IsNull(index)) {
        builder.AppendNull();
      } else {
        builder.Append(dictionary.GetView(index));
      }
    }
    auto array = builder.Finish();
    if (!array.ok()) return InvalidData(path, ": ", array.error().message);
    return *array;
  }

  std::shared_ptr<Buffer> Empty() const { return Buffer::Slice(body_, 0, 0); }

  // The next buffer of the body: a zero-copy slice when its start is aligned
  // to `alignment`, else a copy; nullptr when its length is 0.
  Result<std::shared_ptr<Buffer>> NextBuffer(const std::string& path, const char* what,
                                             int64_t alignment) {
    if (buffers_ == nullptr || buffer_index_ >= buffers_->size()) {
      return InvalidData(path, ": the record batch has too few buffers");
    }
    const flatbuffers::uoffset_t index = buffer_index_++;
    const fb::Buffer* spec = buffers_->Get(index);
    const int64_t offset = spec->offset();
    const int64_t length = spec->length();
    const int64_t size = body_->size();
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      return InvalidData(path, ": ", what, " buffer (#", index, ", offset ", offset, ", length ",
                         length, ") lies outside the ", size, "-byte message body");
    }
    if (length == 0) return std::shared_ptr<Buffer>();
    const uint8_t* data = body_->data() + offset;
    if (IsAligned(data, alignment)) return Buffer::Slice(body_, offset, length);
    return Buffer::CopyOf(data, length);
  }

  // int32 offsets for `length` slots; int64 (large) offsets are narrowed.
  Result<std::shared_ptr<Buffer>> LoadOffsets(const FieldLayout& layout, int64_t length,
                                              const std::string& path) {
    const int64_t width = layout.large_offsets ? 8 : 4;
    HOGLAKE_ASSIGN_OR_RETURN(auto raw, NextBuffer(path, "offsets", width));
    if (!raw) {
      if (length == 0) return Buffer::Allocate(sizeof(int32_t));  // a single 0
      return InvalidData(path, ": offsets buffer is empty for ", length, " values");
    }
    if (raw->size() / width <= length) {
      return InvalidData(path, ": offsets buffer has ", raw->size(), " bytes, needs ", length,
                         " + 1 offsets of ", width, " bytes");
    }
    if (!layout.large_offsets) return raw;
    auto narrowed = Buffer::Allocate((length + 1) * static_cast<int64_t>(sizeof(int32_t)));
    auto* out = reinterpret_cast<int32_t*>(narrowed->mutable_data());
    for (int64_t i = 0; i <= length; ++i) {
      int64_t value;
      std::memcpy(&value, raw->data() + i * 8, sizeof(value));
      if (value < 0) return InvalidData(path, ": offset ", value, " at slot ", i, " is negative");
      if (value > INT32_MAX) {
        return NotImplemented(path, ": 64-bit offset ", value, " at slot ", i,
                              " does not fit hoglake's 32-bit offsets");
      }
      out[i] = static_cast<int32_t>(value);
    }
    return narrowed;
  }

  const flatbuffers::Vector<const fb::FieldNode*>* nodes_;
  const flatbuffers::Vector<const fb::Buffer*>* buffers_;
  std::shared_ptr<Buffer> body_;
  const std::map<int64_t, ArrayPtr>* dictionaries_;
  flatbuffers::uoffset_t node_index_ = 0;
  flatbuffers::uoffset_t buffer_index_ = 0;
};

uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

}  // namespace

// ---- the reader ---------------------------------------------------------------

class IpcStreamReader::Impl {
 public:
  explicit Impl(std::unique_ptr<Source> source) : source_(std::move(source)) {}

  Result<SchemaPtr> ReadSchema() {
    if (error_) return *error_;
    if (!layout_) {
      Status status = DoReadSchema();
      if (!status.ok()) return Fail(status.error());
    }
    return layout_->schema;
  }

  Result<std::optional<RecordBatch>> Next() {
    if (error_) return *error_;
    if (!layout_) {
      Status status = DoReadSchema();
      if (!status.ok()) return Fail(status.error());
    }
    if (ended_) return std::optional<RecordBatch>();
    auto batch = DoNext();
    if (!batch.ok()) return Fail(batch.error());
    return batch;
  }

 private:
  // One message: the verified flatbuffer (kept alive by `metadata`) and the
  // body. `position` is the stream offset of the message's first byte.
  struct Message {
    std::shared_ptr<Buffer> metadata;
    const fb::Message* message = nullptr;
    std::shared_ptr<Buffer> body;
    int64_t position = 0;
  };

  Error Fail(Error error) {
    error_ = error;
    return error;
  }

  Status DoReadSchema() {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<Message> m, ReadMessage());
    if (!m) {
      if (source_->position() == 0) return InvalidData("IPC stream is empty: no schema message");
      return InvalidData("IPC stream ended before its schema message");
    }
    const fb::Schema* schema = m->message->header_as_Schema();
    if (schema == nullptr) {
      return InvalidData("IPC stream must start with a Schema message, found ",
                         HeaderName(m->message->header_type()));
    }
    auto layout = ipc_internal::DecodeSchema(*schema);
    if (!layout.ok()) {
      Error error = layout.error();
      error.message = "IPC schema: " + error.message;
      return error;
    }
    layout_ = std::move(layout).value();
    return Status::Ok();
  }

  // Reads messages until a record batch (absorbing dictionary batches).
  Result<std::optional<RecordBatch>> DoNext() {
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(std::optional<Message> m, ReadMessage());
      if (!m) {
        ended_ = true;
        return std::optional<RecordBatch>();
      }
      const fb::MessageHeader header = m->message->header_type();
      switch (header) {
        case fb::MessageHeader_RecordBatch: {
          HOGLAKE_ASSIGN_OR_RETURN(RecordBatch batch, DecodeBatch(*m));
          return std::optional<RecordBatch>(std::move(batch));
        }
        case fb::MessageHeader_DictionaryBatch:
          HOGLAKE_RETURN_IF_ERROR(DecodeDictionary(*m));
          break;
        case fb::MessageHeader_Schema:
          return InvalidData("IPC message at byte ", m->position,
                             ": a second Schema message inside the stream");
        default:
          return InvalidData("IPC message at byte ", m->position, ": unexpected ",
                             HeaderName(header), " message in a record batch stream");
      }
    }
  }

  static std::string HeaderName(fb::MessageHeader header) {
    const char* name = fb::EnumNameMessageHeader(header);
    if (name == nullptr || *name == '\0') {
      return "unknown header type #" + std::to_string(static_cast<int>(header));
    }
    if (header == fb::MessageHeader_NONE) return "a message without header";
    return name;
  }

  // The next message, or nullopt at the end-of-stream marker or when the
  // input ends exactly at a message boundary.
  Result<std::optional<Message>> ReadMessage() {
    const int64_t start = source_->position();
    auto truncated = [&](auto... parts) {
      return InvalidData("IPC stream truncated in the message at byte ", start, ": ", parts...);
    };
    uint8_t word[4];
    HOGLAKE_ASSIGN_OR_RETURN(int64_t got, source_->Read(word, 4));
    if (got == 0) return std::optional<Message>();
    if (got < 4) return truncated("only ", got, " of 4 bytes of the length prefix");
    int32_t length;
    if (LoadU32(word) == kContinuation) {
      HOGLAKE_ASSIGN_OR_RETURN(got, source_->Read(word, 4));
      if (got < 4) {
        return truncated("only ", got, " of 4 bytes of the metadata length after the marker");
      }
      length = static_cast<int32_t>(LoadU32(word));
    } else {
      length = static_cast<int32_t>(LoadU32(word));  // legacy framing: no marker
    }
    if (length == 0) return std::optional<Message>();  // end-of-stream marker
    if (length < 0) {
      return InvalidData("IPC message at byte ", start, ": metadata length ", length,
                         " is negative");
    }
    if (length > kMaxMetadataLength) {
      return InvalidData("IPC message at byte ", start, ": metadata length ", length,
                         " exceeds the 64 MiB limit");
    }
    const int64_t remaining = source_->Remaining();
    if (remaining >= 0 && length > remaining) {
      return truncated("metadata length ", length, " but only ", remaining, " bytes remain");
    }
    HOGLAKE_ASSIGN_OR_RETURN(auto metadata, source_->ReadBuffer(length));
    if (metadata->size() < length) {
      return truncated("metadata length ", length, " but only ", metadata->size(), " bytes remain");
    }
    // flatbuffers loads scalars in place: give it 8-byte aligned memory.
    if (!IsAligned(metadata->data(), 8)) {
      metadata = Buffer::CopyOf(metadata->data(), metadata->size());
    }
    flatbuffers::Verifier::Options options;
    options.max_depth = kVerifierMaxDepth;
    flatbuffers::Verifier verifier(metadata->data(), static_cast<size_t>(metadata->size()),
                                   options);
    if (!fb::VerifyMessageBuffer(verifier)) {
      return InvalidData("IPC message at byte ", start,
                         ": metadata is not a valid Arrow Message flatbuffer");
    }
    Message m;
    m.position = start;
    m.metadata = std::move(metadata);
    m.message = fb::GetMessage(m.metadata->data());
    const int version = static_cast<int>(m.message->version());
    if (version < fb::MetadataVersion_V4) {
      return NotImplemented("IPC message at byte ", start, ": metadata version V", version + 1,
                            " predates V4 and is not supported");
    }
    if (version > fb::MetadataVersion_V5) {
      return InvalidData("IPC message at byte ", start, ": unknown metadata version ", version);
    }
    const int64_t body_length = m.message->body_length();
    if (body_length < 0) {
      return InvalidData("IPC message at byte ", start, ": body length ", body_length,
                         " is negative");
    }
    const int64_t body_remaining = source_->Remaining();
    if (body_remaining >= 0 && body_length > body_remaining) {
      return truncated("body length ", body_length, " exceeds the ", body_remaining,
                       " bytes left in the stream");
    }
    HOGLAKE_ASSIGN_OR_RETURN(m.body, source_->ReadBuffer(body_length));
    if (m.body->size() < body_length) {
      return truncated("body length ", body_length, " but only ", m.body->size(), " bytes remain");
    }
    return std::optional<Message>(std::move(m));
  }

  // Checks what every RecordBatch table (also inside a DictionaryBatch) needs
  // before its arrays are loaded.
  static Status CheckBatchHeader(const fb::RecordBatch& header, const std::string& where,
                                 int64_t expected_nodes, int64_t expected_buffers) {
    if (header.compression() != nullptr) {
      return NotImplemented(where, ": compressed bodies (",
                            fb::EnumNameCompressionType(header.compression()->codec()),
                            ") are not supported");
    }
    if (header.length() < 0) {
      return InvalidData(where, ": row count ", header.length(), " is negative");
    }
    const int64_t nodes = header.nodes() ? header.nodes()->size() : 0;
    const int64_t buffers = header.buffers() ? header.buffers()->size() : 0;
    if (nodes != expected_nodes) {
      return InvalidData(where, ": has ", nodes, " field nodes, the schema needs ", expected_nodes);
    }
    if (buffers != expected_buffers) {
      return InvalidData(where, ": has ", buffers, " buffers, the schema needs ", expected_buffers);
    }
    return Status::Ok();
  }

  // Decodes a DictionaryBatch and makes it the current dictionary of its id.
  Status DecodeDictionary(const Message& m) {
    const fb::DictionaryBatch* header = m.message->header_as_DictionaryBatch();
    std::string where = "IPC dictionary batch at byte " + std::to_string(m.position);
    if (header == nullptr) return InvalidData(where, ": the DictionaryBatch header is missing");
    where += " (id " + std::to_string(header->id()) + ")";
    auto found = layout_->dictionaries.find(header->id());
    if (found == layout_->dictionaries.end()) {
      return InvalidData(where, ": no dictionary-encoded field of the schema uses this id");
    }
    if (header->is_delta()) {
      return NotImplemented(where, ": delta dictionary batches are not supported");
    }
    const fb::RecordBatch* data = header->data();
    if (data == nullptr) return InvalidData(where, ": the dictionary's RecordBatch is missing");
    const FieldLayout& values = found->second;
    HOGLAKE_RETURN_IF_ERROR(CheckBatchHeader(*data, where, 1, BufferCount(values.type->id)));
    ArrayLoader loader(*data, m.body, &dictionaries_);
    auto array = loader.Load(values, "values");
    if (!array.ok()) {
      Error error = array.error();
      error.message = where + ": " + error.message;
      return error;
    }
    if ((*array)->length != data->length()) {
      return InvalidData(where, ": has ", (*array)->length, " values but a row count of ",
                         data->length());
    }
    Status valid = Validate(**array);
    if (!valid.ok()) return InvalidData(where, ": ", valid.error().message);
    dictionaries_[header->id()] = *array;
    return Status::Ok();
  }

  Result<RecordBatch> DecodeBatch(const Message& m) {
    const std::string where = "IPC record batch at byte " + std::to_string(m.position);
    const fb::RecordBatch* header = m.message->header_as_RecordBatch();
    if (header == nullptr) return InvalidData(where, ": the RecordBatch header is missing");
    HOGLAKE_RETURN_IF_ERROR(
        CheckBatchHeader(*header, where, layout_->num_nodes, layout_->num_buffers));
    const Schema& schema = *layout_->schema;
    ArrayLoader loader(*header, m.body, &dictionaries_);
    RecordBatch batch{layout_->schema, header->length(), {}};
    batch.columns.reserve(schema.fields.size());
    for (size_t i = 0; i < schema.fields.size(); ++i) {
      auto column = loader.Load(layout_->fields[i], "column '" + schema.fields[i].name + "'");
      if (!column.ok()) {
        Error error = column.error();
        error.message = where + ": " + error.message;
        return error;
      }
      batch.columns.push_back(std::move(column).value());
    }
    Status valid = ValidateBatch(batch);
    if (!valid.ok()) return InvalidData(where, ": ", valid.error().message);
    return batch;
  }

  std::unique_ptr<Source> source_;
  std::optional<SchemaLayout> layout_;
  std::map<int64_t, ArrayPtr> dictionaries_;  // current values per dictionary id
  bool ended_ = false;
  std::optional<Error> error_;
};

IpcStreamReader::IpcStreamReader(std::shared_ptr<Buffer> bytes)
    : impl_(std::make_unique<Impl>(std::make_unique<MemorySource>(std::move(bytes)))) {}

IpcStreamReader::IpcStreamReader(std::istream* in)
    : impl_(std::make_unique<Impl>(
          std::make_unique<StreamSource>([in](uint8_t* out, int64_t n) -> Result<int64_t> {
            in->read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
            const int64_t got = in->gcount();
            if (in->bad()) return IoError("reading the IPC stream from the input stream failed");
            return got;
          }))) {}

IpcStreamReader::IpcStreamReader(std::FILE* file)
    : impl_(std::make_unique<Impl>(
          std::make_unique<StreamSource>([file](uint8_t* out, int64_t n) -> Result<int64_t> {
            const size_t got = std::fread(out, 1, static_cast<size_t>(n), file);
            if (got < static_cast<size_t>(n) && std::ferror(file)) {
              return IoError("reading the IPC stream from a file failed");
            }
            return static_cast<int64_t>(got);
          }))) {}

IpcStreamReader::~IpcStreamReader() = default;
IpcStreamReader::IpcStreamReader(IpcStreamReader&&) noexcept = default;
IpcStreamReader& IpcStreamReader::operator=(IpcStreamReader&&) noexcept = default;

Result<SchemaPtr> IpcStreamReader::ReadSchema() { return impl_->ReadSchema(); }

Result<std::optional<RecordBatch>> IpcStreamReader::Next() { return impl_->Next(); }

Result<std::pair<SchemaPtr, std::vector<RecordBatch>>> ReadIpcStream(
    std::shared_ptr<Buffer> bytes) {
  IpcStreamReader reader(std::move(bytes));
  HOGLAKE_ASSIGN_OR_RETURN(SchemaPtr schema, reader.ReadSchema());
  std::vector<RecordBatch> batches;
  while (true) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader.Next());
    if (!batch) break;
    batches.push_back(std::move(*batch));
  }
  return std::make_pair(std::move(schema), std::move(batches));
}

Result<std::pair<SchemaPtr, std::vector<RecordBatch>>> ReadIpcStream(std::string_view bytes) {
  return ReadIpcStream(Buffer::CopyOf(bytes.data(), static_cast<int64_t>(bytes.size())));
}

}  // namespace hoglake::columnar
