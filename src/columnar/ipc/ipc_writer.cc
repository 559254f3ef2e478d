#include "columnar/ipc/ipc_writer.h"

#include <bit>
#include <cstring>
#include <ostream>
#include <utility>

#include "columnar/ipc/ipc_metadata.h"
#include "columnar/validate.h"

namespace hoglake::columnar {
namespace {

namespace fb = ::hoglake::arrowfb;
using ipc_internal::kContinuation;
using ipc_internal::PadTo8;

static_assert(std::endian::native == std::endian::little,
              "the IPC writer emits the host's byte order and only supports little endian");

constexpr uint8_t kZeros[8] = {0, 0, 0, 0, 0, 0, 0, 0};

// One body buffer: bytes to copy out, kept alive by `keep` when they are a
// temporary (shifted bitmap, rebased offsets).
struct BodyPiece {
  const uint8_t* data;
  int64_t size;
  std::shared_ptr<Buffer> keep;
};

// Flattens a batch into Arrow's pre-order field nodes and buffers.
class BatchSerializer {
 public:
  // Adds slots [start, start + length) of `a` (relative to a.offset).
  void AddArray(const ArrayData& a, int64_t start, int64_t length) {
    const DataType& type = *a.type;
    const int64_t abs = a.offset + start;
    int64_t null_count = 0;
    if (a.null_count != 0 && a.buffers[0] != nullptr) {
      null_count = (start == 0 && length == a.length)
                       ? a.null_count
                       : length - CountSetBits(a.buffers[0]->data(), abs, length);
    }
    nodes_.emplace_back(length, null_count);
    if (null_count == 0) {
      AddBuffer(nullptr, 0);
    } else {
      AddBitmap(a.buffers[0]->data(), abs, length);
    }
    switch (type.id) {
      case TypeId::kStruct:
        // Struct slot i is slot a.offset + i of every child.
        for (const ArrayPtr& child : a.children) AddArray(*child, abs, length);
        return;
      case TypeId::kList:
      case TypeId::kMap: {
        auto [first, last] = AddOffsets(a, abs, length);
        AddArray(*a.children[0], first, last - first);
        return;
      }
      case TypeId::kUtf8:
      case TypeId::kBinary: {
        auto [first, last] = AddOffsets(a, abs, length);
        const uint8_t* data = a.buffers[2] ? a.buffers[2]->data() + first : nullptr;
        AddBuffer(data, last - first);
        return;
      }
      case TypeId::kBool:
        if (length == 0 || a.buffers[1] == nullptr) {
          AddBuffer(nullptr, 0);
        } else {
          AddBitmap(a.buffers[1]->data(), abs, length);
        }
        return;
      default: {
        const int64_t width = type.bit_width() / 8;
        if (length == 0 || a.buffers[1] == nullptr) {
          AddBuffer(nullptr, 0);
        } else {
          AddBuffer(a.buffers[1]->data() + abs * width, length * width);
        }
        return;
      }
    }
  }

  const std::vector<fb::FieldNode>& nodes() const { return nodes_; }
  const std::vector<fb::Buffer>& buffers() const { return buffers_; }
  const std::vector<BodyPiece>& pieces() const { return pieces_; }
  int64_t body_length() const { return body_length_; }

 private:
  void AddBuffer(const uint8_t* data, int64_t size, std::shared_ptr<Buffer> keep = nullptr) {
    buffers_.emplace_back(body_length_, size);
    if (size > 0) pieces_.push_back(BodyPiece{data, size, std::move(keep)});
    body_length_ += PadTo8(size);
  }

  // Bits [bit_offset, bit_offset + length), shifted to start at bit 0 when
  // the slice does not start on a byte boundary.
  void AddBitmap(const uint8_t* bits, int64_t bit_offset, int64_t length) {
    const int64_t bytes = BytesForBits(length);
    if (bit_offset % 8 == 0) {
      AddBuffer(bits + bit_offset / 8, bytes);
      return;
    }
    auto shifted = Buffer::Allocate(bytes);
    uint8_t* out = shifted->mutable_data();
    for (int64_t i = 0; i < length; ++i) {
      if (GetBit(bits, bit_offset + i)) SetBit(out, i);
    }
    const uint8_t* data = shifted->data();
    AddBuffer(data, bytes, std::move(shifted));
  }

  // Writes offsets for slots [abs, abs + length) rebased to start at 0 and
  // returns the original first and last offsets.
  std::pair<int32_t, int32_t> AddOffsets(const ArrayData& a, int64_t abs, int64_t length) {
    static constexpr int32_t kZeroOffset = 0;
    if (a.buffers[1] == nullptr) {  // only legal for an empty array
      AddBuffer(reinterpret_cast<const uint8_t*>(&kZeroOffset), sizeof(int32_t));
      return {0, 0};
    }
    const int32_t* offsets = a.buffers[1]->data_as<int32_t>() + abs;
    const int32_t first = offsets[0];
    const int32_t last = offsets[length];
    const int64_t bytes = (length + 1) * static_cast<int64_t>(sizeof(int32_t));
    if (first == 0) {
      AddBuffer(reinterpret_cast<const uint8_t*>(offsets), bytes);
    } else {
      auto rebased = Buffer::Allocate(bytes);
      auto* out = reinterpret_cast<int32_t*>(rebased->mutable_data());
      for (int64_t i = 0; i <= length; ++i) out[i] = offsets[i] - first;
      const uint8_t* data = rebased->data();
      AddBuffer(data, bytes, std::move(rebased));
    }
    return {first, last};
  }

  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
  std::vector<BodyPiece> pieces_;
  int64_t body_length_ = 0;
};

// The continuation marker, the padded metadata length and the flatbuffer,
// padded so that the body starts at a multiple of 8.
std::string FrameMetadata(const flatbuffers::FlatBufferBuilder& fbb) {
  const int64_t size = fbb.GetSize();
  const int64_t padded = PadTo8(8 + size) - 8;
  std::string out;
  out.reserve(static_cast<size_t>(8 + padded));
  const uint32_t marker = kContinuation;
  const int32_t length = static_cast<int32_t>(padded);
  out.append(reinterpret_cast<const char*>(&marker), 4);
  out.append(reinterpret_cast<const char*>(&length), 4);
  out.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), static_cast<size_t>(size));
  out.append(static_cast<size_t>(padded - size), '\0');
  return out;
}

}  // namespace

IpcStreamWriter::IpcStreamWriter(std::string* out)
    : sink_([out](std::string_view bytes) {
        out->append(bytes);
        return Status::Ok();
      }) {}

IpcStreamWriter::IpcStreamWriter(std::ostream* out)
    : sink_([out](std::string_view bytes) -> Status {
        out->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!*out) return IoError("writing the IPC stream to the output stream failed");
        return Status::Ok();
      }) {}

IpcStreamWriter::IpcStreamWriter(IpcSink sink) : sink_(std::move(sink)) {}

Status IpcStreamWriter::Emit(std::string_view bytes) {
  if (bytes.empty()) return Status::Ok();
  Status status = sink_(bytes);
  if (!status.ok()) {
    state_ = State::kFailed;
    failure_ = status.error();
    return status;
  }
  bytes_written_ += static_cast<int64_t>(bytes.size());
  return Status::Ok();
}

Status IpcStreamWriter::CheckUsable(const char* operation) const {
  switch (state_) {
    case State::kFailed:
      return failure_;
    case State::kClosed:
      return InvalidArgument("IPC stream writer: ", operation, " after Close()");
    case State::kNew:
      return InvalidArgument("IPC stream writer: ", operation, " before Start()");
    case State::kStarted:
      return Status::Ok();
  }
  return Status::Ok();
}

Status IpcStreamWriter::Start(const Schema& schema) {
  if (state_ != State::kNew) {
    if (state_ == State::kFailed) return failure_;
    return InvalidArgument("IPC stream writer: Start() called twice");
  }
  flatbuffers::FlatBufferBuilder fbb;
  HOGLAKE_ASSIGN_OR_RETURN(auto fb_schema, ipc_internal::BuildSchema(fbb, schema));
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_Schema,
                               fb_schema.Union(), 0));
  schema_ = std::make_shared<Schema>(schema);
  HOGLAKE_RETURN_IF_ERROR(Emit(FrameMetadata(fbb)));
  state_ = State::kStarted;
  return Status::Ok();
}

Status IpcStreamWriter::WriteBatch(const RecordBatch& batch) {
  HOGLAKE_RETURN_IF_ERROR(CheckUsable("WriteBatch()"));
  if (batch.num_columns() != schema_->num_fields()) {
    return InvalidArgument("IPC stream writer: batch has ", batch.num_columns(),
                           " columns, the stream's schema has ", schema_->num_fields());
  }
  for (int i = 0; i < batch.num_columns(); ++i) {
    const Field& field = schema_->fields[i];
    if (!batch.columns[i] || !batch.columns[i]->type ||
        !batch.columns[i]->type->Equals(*field.type)) {
      return InvalidArgument("IPC stream writer: column '", field.name, "' is not of type ",
                             field.type->ToString(), " as the stream's schema says");
    }
  }
  HOGLAKE_RETURN_IF_ERROR(ValidateBatch(batch));

  BatchSerializer serializer;
  for (const ArrayPtr& column : batch.columns) serializer.AddArray(*column, 0, batch.num_rows);

  flatbuffers::FlatBufferBuilder fbb;
  auto nodes = fbb.CreateVectorOfStructs(serializer.nodes());
  auto buffers = fbb.CreateVectorOfStructs(serializer.buffers());
  auto record_batch = fb::CreateRecordBatch(fbb, batch.num_rows, nodes, buffers);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_RecordBatch,
                               record_batch.Union(), serializer.body_length()));
  HOGLAKE_RETURN_IF_ERROR(Emit(FrameMetadata(fbb)));
  for (const BodyPiece& piece : serializer.pieces()) {
    HOGLAKE_RETURN_IF_ERROR(Emit(std::string_view(reinterpret_cast<const char*>(piece.data),
                                                  static_cast<size_t>(piece.size))));
    const int64_t padding = PadTo8(piece.size) - piece.size;
    HOGLAKE_RETURN_IF_ERROR(Emit(
        std::string_view(reinterpret_cast<const char*>(kZeros), static_cast<size_t>(padding))));
  }
  return Status::Ok();
}

Status IpcStreamWriter::Close() {
  HOGLAKE_RETURN_IF_ERROR(CheckUsable("Close()"));
  const uint32_t end_of_stream[2] = {kContinuation, 0};
  HOGLAKE_RETURN_IF_ERROR(
      Emit(std::string_view(reinterpret_cast<const char*>(end_of_stream), sizeof(end_of_stream))));
  state_ = State::kClosed;
  return Status::Ok();
}

Result<std::string> WriteIpcStream(const Schema& schema, const std::vector<RecordBatch>& batches) {
  std::string out;
  IpcStreamWriter writer(&out);
  HOGLAKE_RETURN_IF_ERROR(writer.Start(schema));
  for (const RecordBatch& batch : batches) HOGLAKE_RETURN_IF_ERROR(writer.WriteBatch(batch));
  HOGLAKE_RETURN_IF_ERROR(writer.Close());
  return out;
}

}  // namespace hoglake::columnar
