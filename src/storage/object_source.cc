#include "storage/object_source.h"

#include <cstring>

namespace hoglake {

Result<std::shared_ptr<ObjectSource>> ObjectSource::Open(ObjectStore* store, std::string path,
                                                         std::optional<int64_t> size) {
  if (!size.has_value()) {
    HOGLAKE_ASSIGN_OR_RETURN(uint64_t head, store->Head(path));
    size = static_cast<int64_t>(head);
  }
  return std::make_shared<ObjectSource>(store, std::move(path), *size);
}

ObjectSource::ObjectSource(ObjectStore* store, std::string path, int64_t size)
    : store_(store), path_(std::move(path)), size_(size) {}

int64_t ObjectSource::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

Result<std::string> ObjectSource::Fetch(int64_t offset, int64_t length) {
  {
    std::lock_guard lock(mutex_);
    ++requests_;
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, store_->GetRange(path_, static_cast<uint64_t>(offset),
                                                               static_cast<uint64_t>(length)));
  if (static_cast<int64_t>(bytes.size()) != length) {
    return IoError("reading ", path_, ": ", bytes.size(), " bytes at offset ", offset, " where ",
                   length, " were expected (the object is shorter than its recorded ", size_,
                   " bytes)");
  }
  return bytes;
}

Status ObjectSource::ReadInto(int64_t offset, int64_t length, char* out) {
  if (length <= 0) return Status::Ok();
  std::shared_ptr<const std::string> held;
  int64_t held_offset = 0;
  {
    std::lock_guard lock(mutex_);
    for (const Kept& k : kept_) {
      if (offset >= k.range.offset && offset + length <= k.range.end()) {
        held = k.bytes;
        held_offset = k.range.offset;
        break;
      }
    }
  }
  if (held) {
    std::memcpy(out, held->data() + (offset - held_offset), static_cast<size_t>(length));
    return Status::Ok();
  }
  HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, Fetch(offset, length));
  std::memcpy(out, bytes.data(), bytes.size());
  return Status::Ok();
}

Status ObjectSource::WillRead(std::span<const ByteRange> ranges) {
  std::vector<Kept> kept;
  for (const ByteRange& r : CoalesceRanges(ranges, kCoalesceGapBytes, kCoalesceMaxBytes)) {
    if (r.offset < 0 || r.end() > size_) {
      return InvalidArgument("reading ", path_, ": range [", r.offset, ", +", r.length,
                             ") lies outside its ", size_, " bytes");
    }
    HOGLAKE_ASSIGN_OR_RETURN(std::string bytes, Fetch(r.offset, r.length));
    kept.push_back({r, std::make_shared<const std::string>(std::move(bytes))});
  }
  std::lock_guard lock(mutex_);
  kept_ = std::move(kept);
  return Status::Ok();
}

}  // namespace hoglake
