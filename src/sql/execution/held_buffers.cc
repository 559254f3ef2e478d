#include "sql/execution/held_buffers.h"

#include <vector>

namespace hoglake::sql {
namespace {

void CollectBuffers(const columnar::ArrayData& array, std::vector<const columnar::Buffer*>* out) {
  for (const auto& buffer : array.buffers) {
    if (buffer) out->push_back(buffer.get());
  }
  for (const auto& child : array.children) CollectBuffers(*child, out);
}

std::vector<const columnar::Buffer*> BuffersOf(const columnar::RecordBatch& batch) {
  std::vector<const columnar::Buffer*> buffers;
  for (const auto& column : batch.columns) CollectBuffers(*column, &buffers);
  return buffers;
}

}  // namespace

HeldBuffers::~HeldBuffers() { ctx_.Release(bytes_); }

Status HeldBuffers::Hold(const columnar::RecordBatch& batch) {
  const std::vector<const columnar::Buffer*> buffers = BuffersOf(batch);
  std::lock_guard<std::mutex> lock(mu_);
  int64_t fresh = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto it = pins_.find(buffers[i]);
    if (it != pins_.end() && it->second.holders > 0) continue;
    // A buffer listed twice in one batch is charged once.
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = buffers[j] == buffers[i];
    if (!seen) fresh += buffers[i]->size();
  }
  HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(fresh));
  bytes_ += fresh;
  for (const columnar::Buffer* buffer : buffers) {
    Pin& pin = pins_[buffer];
    ++pin.holders;
    pin.size = buffer->size();
  }
  return Status::Ok();
}

void HeldBuffers::Drop(const columnar::RecordBatch& batch) {
  const std::vector<const columnar::Buffer*> buffers = BuffersOf(batch);
  std::lock_guard<std::mutex> lock(mu_);
  int64_t freed = 0;
  for (const columnar::Buffer* buffer : buffers) {
    auto it = pins_.find(buffer);
    if (it == pins_.end()) continue;
    if (--it->second.holders == 0) {
      freed += it->second.size;
      pins_.erase(it);
    }
  }
  bytes_ -= freed;
  ctx_.Release(freed);
}

int64_t HeldBuffers::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

}  // namespace hoglake::sql
