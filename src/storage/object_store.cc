#include "storage/object_store.h"

#include <algorithm>

#include "common/parallel.h"
#include "storage/local_store.h"
#include "storage/s3_store.h"

namespace hoglake {

Status CheckObjectKey(std::string_view key, std::string_view path) {
  if (key.find('\0') != std::string_view::npos) {
    return InvalidArgument("path ", path, " contains a NUL byte");
  }
  size_t start = 0;
  while (true) {
    size_t slash = key.find('/', start);
    std::string_view segment = key.substr(start, slash - start);
    if (segment.empty()) return InvalidArgument("path ", path, " has an empty segment");
    if (segment == "." || segment == "..") {
      return InvalidArgument("path ", path, " has a '", segment, "' segment (escapes are refused)");
    }
    if (slash == std::string_view::npos) return Status::Ok();
    start = slash + 1;
  }
}

std::vector<Result<bool>> ObjectStore::DeleteMany(const std::vector<std::string>& paths) {
  std::vector<Result<bool>> outcomes(paths.size(), Result<bool>(false));
  const size_t workers =
      std::min<size_t>(kDeleteManyWorkers, 1 + paths.size() / kDeleteManyPathsPerWorker);
  ParallelFor(static_cast<int64_t>(paths.size()), static_cast<int>(workers), [&](int64_t i, int) {
    outcomes[static_cast<size_t>(i)] = Delete(paths[static_cast<size_t>(i)]);
  });
  return outcomes;
}

Result<std::unique_ptr<ObjectStore>> OpenObjectStore(std::string_view root_uri,
                                                     const S3Config& s3) {
  if (root_uri.starts_with("file://")) {
    HOGLAKE_ASSIGN_OR_RETURN(auto store, LocalStore::Open(root_uri));
    return std::unique_ptr<ObjectStore>(std::move(store));
  }
  if (root_uri.starts_with("s3://")) {
    HOGLAKE_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(s3));
    HOGLAKE_ASSIGN_OR_RETURN(auto store, S3Store::Open(root_uri, config));
    return std::unique_ptr<ObjectStore>(std::move(store));
  }
  return InvalidArgument("unsupported object store URI ", root_uri,
                         " (expected file:///abs/dir or s3://bucket[/prefix])");
}

}  // namespace hoglake
