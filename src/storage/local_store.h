// LocalStore: ObjectStore over a directory of the local file system.
//
// The store is rooted at an absolute directory (created if missing); an
// object path is `file://` + root + "/" + key, taken literally (no
// percent-decoding). Keys are made of non-empty '/'-separated segments; a
// segment "." or "..", a NUL byte, or a path that resolves through a
// symbolic link to somewhere outside the root is refused (kInvalidArgument)
// before anything is touched.
//
// Writes go to a temporary file beside the target (named
// ".hoglake-tmp-<random>"), are fsynced, then renamed over the target and
// the directory fsynced: readers see the old object or the whole new one,
// and a committed object survives a crash. Temporary files are never
// listed. Parent directories are created as needed; empty ones are left
// behind by Delete. Delete resolves an object's parent directory once per
// store handle (then only lstat + unlink per object); a symbolic-link leaf is
// still resolved in full and refused when it points outside the root.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "storage/object_store.h"

namespace hoglake {

class LocalStore final : public ObjectStore {
 public:
  // `root_uri` is "file:///abs/dir" (a trailing '/' is ignored).
  static Result<std::unique_ptr<LocalStore>> Open(std::string_view root_uri);

  const std::string& root() const override { return root_uri_; }
  Status Put(std::string_view path, std::string_view bytes) override;
  Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view path) override;
  Result<std::string> Get(std::string_view path) override;
  Result<std::string> GetRange(std::string_view path, uint64_t offset, uint64_t length) override;
  Result<uint64_t> Head(std::string_view path) override;
  Result<bool> Delete(std::string_view path) override;
  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override;

 private:
  LocalStore(std::string root_uri, std::string root_dir, std::string real_root)
      : root_uri_(std::move(root_uri)),
        root_dir_(std::move(root_dir)),
        real_root_(std::move(real_root)) {}

  // The file-system path of an object URI, checked to lie under the root.
  Result<std::string> FilePath(std::string_view path) const;
  // kInvalidArgument when `file` (which may not exist) resolves outside the
  // root through a symbolic link.
  Status CheckInsideRoot(const std::string& file, std::string_view path) const;

  std::string root_uri_;   // "file:///abs/dir"
  std::string root_dir_;   // "/abs/dir"
  std::string real_root_;  // root_dir_ with symbolic links resolved
  // Delete: the last parent directory verified to resolve inside the root,
  // so a batch of deletes under one directory resolves it once (a store
  // handle lives for one batch: cleanup opens one per drain).
  std::mutex checked_mutex_;
  std::string checked_dir_;
};

}  // namespace hoglake
