// LakeFiles: what the engine's table scans read data files through — the
// object stores serving their paths and the cache of their parsed footers.
// One LakeFiles is meant to live as long as the engine's host (the query
// service keeps one for all its queries, `hoglake sql` one per process), so
// every query it serves shares the stores' connections and the footers
// (footer_cache.h). Both members are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/status.h"
#include "sql/source/footer_cache.h"
#include "storage/object_store.h"
#include "storage/s3_config.h"

namespace hoglake::sql {

// Opens (and keeps) the object store that serves a file path. Thread-safe.
class StoreResolver {
 public:
  virtual ~StoreResolver() = default;
  virtual Result<ObjectStore*> StoreFor(std::string_view path) = 0;
};

// Stores by scheme root (file:/// or s3://bucket), opened on first use with
// the S3 settings given.
std::unique_ptr<StoreResolver> MakeStoreResolver(S3Config s3 = {});

struct LakeFiles {
  std::unique_ptr<StoreResolver> stores;  // never null
  std::unique_ptr<FooterCache> footers;   // never null
};

// Stores by root over `s3` and a footer cache of `footer_cache_bytes`.
std::shared_ptr<LakeFiles> MakeLakeFiles(
    S3Config s3 = {}, int64_t footer_cache_bytes = FooterCache::kDefaultCapacityBytes);

}  // namespace hoglake::sql
