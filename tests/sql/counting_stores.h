// CountingStores: a StoreResolver over the real ones (MakeStoreResolver)
// whose stores count the ranged reads they serve — which files were opened
// and how many reads took a file's last byte (the footer) — so tests can
// say what a query read at the store.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "sql/source/lake_files.h"

namespace hoglake::sql::testing {

class CountingStores : public StoreResolver {
 public:
  CountingStores() : inner_(MakeStoreResolver()) {}

  Result<ObjectStore*> StoreFor(std::string_view path) override {
    HOGLAKE_ASSIGN_OR_RETURN(ObjectStore * store, inner_->StoreFor(path));
    std::lock_guard<std::mutex> lock(mu_);
    std::unique_ptr<Counting>& wrapped = wrapped_[store];
    if (!wrapped) wrapped = std::make_unique<Counting>(store, this);
    return wrapped.get();
  }

  // Files read since the last Reset, and reads that ended at a file's end.
  std::set<std::string> files_read() const {
    std::lock_guard<std::mutex> lock(mu_);
    return files_read_;
  }
  int64_t footer_reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return footer_reads_;
  }
  int64_t reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reads_;
  }
  void Reset() {
    std::lock_guard<std::mutex> lock(mu_);
    files_read_.clear();
    footer_reads_ = 0;
    reads_ = 0;
  }

 private:
  class Counting : public ObjectStore {
   public:
    Counting(ObjectStore* inner, CountingStores* owner) : inner_(inner), owner_(owner) {}
    const std::string& root() const override { return inner_->root(); }
    Status Put(std::string_view path, std::string_view bytes) override {
      return inner_->Put(path, bytes);
    }
    Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view path) override {
      return inner_->OpenWriter(path);
    }
    Result<std::string> Get(std::string_view path) override {
      owner_->Count(path, true);
      return inner_->Get(path);
    }
    Result<std::string> GetRange(std::string_view path, uint64_t offset,
                                 uint64_t length) override {
      HOGLAKE_ASSIGN_OR_RETURN(uint64_t size, inner_->Head(path));
      owner_->Count(path, offset + length >= size);
      return inner_->GetRange(path, offset, length);
    }
    Result<uint64_t> Head(std::string_view path) override { return inner_->Head(path); }
    Result<bool> Delete(std::string_view path) override { return inner_->Delete(path); }
    Result<std::vector<ObjectInfo>> List(std::string_view prefix) override {
      return inner_->List(prefix);
    }

   private:
    ObjectStore* inner_;
    CountingStores* owner_;
  };

  void Count(std::string_view path, bool footer) {
    std::lock_guard<std::mutex> lock(mu_);
    files_read_.emplace(path);
    ++reads_;
    if (footer) ++footer_reads_;
  }

  std::unique_ptr<StoreResolver> inner_;
  mutable std::mutex mu_;
  std::map<ObjectStore*, std::unique_ptr<Counting>> wrapped_;
  std::set<std::string> files_read_;
  int64_t footer_reads_ = 0;
  int64_t reads_ = 0;
};

// LakeFiles reading through `stores` (kept alive by the caller) with a
// footer cache of `footer_cache_bytes`.
inline std::shared_ptr<LakeFiles> CountedLakeFiles(
    std::unique_ptr<StoreResolver> stores,
    int64_t footer_cache_bytes = FooterCache::kDefaultCapacityBytes) {
  auto files = std::make_shared<LakeFiles>();
  files->stores = std::move(stores);
  files->footers = std::make_unique<FooterCache>(footer_cache_bytes);
  return files;
}

}  // namespace hoglake::sql::testing
