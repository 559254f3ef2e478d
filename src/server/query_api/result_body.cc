#include "server/query_api/result_body.h"

#include <algorithm>
#include <string>
#include <utility>

namespace hoglake::server {
namespace {

class RenderedBody final : public BodyProducer {
 public:
  explicit RenderedBody(std::unique_ptr<query::ResultRenderer> renderer)
      : renderer_(std::move(renderer)) {}

  Result<bool> Next(std::string* piece) override {
    if (!renderer_) return false;
    HOGLAKE_ASSIGN_OR_RETURN(bool more, renderer_->Next(piece));
    if (!more) renderer_.reset();
    return more;
  }

 private:
  std::unique_ptr<query::ResultRenderer> renderer_;
};

class StoredBody final : public BodyProducer {
 public:
  explicit StoredBody(std::shared_ptr<RandomAccessSource> source) : source_(std::move(source)) {}

  Result<bool> Next(std::string* piece) override {
    if (!source_) return false;
    const int64_t length = std::min(kStoredPieceBytes, source_->size() - offset_);
    if (length <= 0) {
      source_.reset();
      return false;
    }
    piece->resize(static_cast<size_t>(length));
    HOGLAKE_RETURN_IF_ERROR(source_->ReadInto(offset_, length, piece->data()));
    offset_ += length;
    return true;
  }

 private:
  std::shared_ptr<RandomAccessSource> source_;
  int64_t offset_ = 0;
};

}  // namespace

std::shared_ptr<BodyProducer> RenderedResultBody(std::unique_ptr<query::ResultRenderer> renderer) {
  return std::make_shared<RenderedBody>(std::move(renderer));
}

std::shared_ptr<BodyProducer> StoredBytesBody(std::shared_ptr<RandomAccessSource> source) {
  return std::make_shared<StoredBody>(std::move(source));
}

}  // namespace hoglake::server
