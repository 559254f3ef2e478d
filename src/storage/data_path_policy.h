// DataPathPolicy: the object-store roots a server may create catalogs under,
// and so read, write and delete objects under.
//
// A policy is a list of allowed roots — `file:///abs/dir/` and
// `s3://bucket[/prefix]/` URIs — and a list of local directories that are
// never allowed even when an allowed root contains them (the embedded
// PostgreSQL's data and socket directories). Check(uri) accepts a data path
// only when it lies at or under an allowed root and under no denied
// directory:
//   - file:// paths are compared after resolving symbolic links: the longest
//     existing ancestor of the path is resolved with realpath(3) and the rest
//     appended, and each root is resolved the same way, at every check (so a
//     link swapped in after start-up is seen);
//   - s3:// paths are compared as strings, segment by segment (an allowed
//     `s3://lake/a/` does not admit `s3://lake/ab/`).
// A default-constructed policy is unrestricted (accepts every path): the SDK
// and CLI write where their user says; only the server restricts.
//
// Refusals are kInvalidArgument naming the path and the allowed roots.
// Thread-safe (immutable after construction).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake {

class DataPathPolicy {
 public:
  // Accepts every path.
  DataPathPolicy() = default;

  // `allowed`: root URIs (a missing trailing '/' is added); each must be
  // `file:///absolute/path` or `s3://bucket[/prefix]` with no "." or ".."
  // segments. `denied_dirs`: absolute local directories. kInvalidArgument
  // naming the bad entry otherwise. An empty `allowed` list allows nothing.
  static Result<DataPathPolicy> Make(const std::vector<std::string>& allowed,
                                     const std::vector<std::string>& denied_dirs);

  // Splits `text` on commas and whitespace into root URIs (empty words
  // dropped), for an environment variable's value.
  static std::vector<std::string> SplitList(std::string_view text);

  bool restricted() const { return restricted_; }
  const std::vector<std::string>& allowed() const { return allowed_; }

  // OK when `uri` may be used as (or lies under) a data path; see above.
  Status Check(std::string_view uri) const;

  // "file:///srv/lake/, s3://bucket/" — for messages and the start-up log.
  std::string Describe() const;

 private:
  bool restricted_ = false;
  std::vector<std::string> allowed_;      // normalized, each ending in '/'
  std::vector<std::string> denied_dirs_;  // absolute, each ending in '/'
};

}  // namespace hoglake
