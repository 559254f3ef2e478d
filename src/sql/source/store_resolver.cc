// StoreResolver over OpenObjectStore: one store per directory for local
// paths, per bucket for S3 ("s3://bucket"), opened on first use; and
// MakeLakeFiles pairing one with a footer cache.
#include <mutex>
#include <unordered_map>

#include "sql/source/lake_files.h"

namespace hoglake::sql {
namespace {

class RootStoreResolver : public StoreResolver {
 public:
  explicit RootStoreResolver(S3Config s3) : s3_(std::move(s3)) {}

  Result<ObjectStore*> StoreFor(std::string_view path) override {
    std::string root;
    if (path.rfind("file:///", 0) == 0) {
      // A local store is rooted at the file's directory (never at "/").
      size_t slash = path.rfind('/');
      root = std::string(path.substr(0, slash));
    } else if (path.rfind("s3://", 0) == 0) {
      size_t slash = path.find('/', 5);
      root = std::string(path.substr(0, slash));
    } else {
      return InvalidArgument("data file path ", path, " is neither file:// nor s3://");
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto it = stores_.find(root);
    if (it != stores_.end()) return it->second.get();
    HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectStore> store, OpenObjectStore(root, s3_));
    ObjectStore* raw = store.get();
    stores_.emplace(root, std::move(store));
    return raw;
  }

 private:
  S3Config s3_;
  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<ObjectStore>> stores_;
};

}  // namespace

std::unique_ptr<StoreResolver> MakeStoreResolver(S3Config s3) {
  return std::make_unique<RootStoreResolver>(std::move(s3));
}

std::shared_ptr<LakeFiles> MakeLakeFiles(S3Config s3, int64_t footer_cache_bytes) {
  auto files = std::make_shared<LakeFiles>();
  files->stores = MakeStoreResolver(std::move(s3));
  files->footers = std::make_unique<FooterCache>(footer_cache_bytes);
  return files;
}

}  // namespace hoglake::sql
