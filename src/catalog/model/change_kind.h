// The closed vocabulary of snapshot change kinds (contract §1.7). Each
// mutation records one change row per (object, kind) in its snapshot; the
// SQL CHECK on hog_snapshot_change.kind must list exactly these (a test
// checks it).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace hoglake::catalog {

enum class ChangeKind {
  kNamespaceCreated,
  kNamespaceDropped,
  kTableCreated,
  kTableDropped,
  kTableAltered,
  kTableInsertedInto,
  kTableDeletedFrom,
  kTableCompacted,
  kViewCreated,
  kViewDropped,
};

std::string_view ChangeKindName(ChangeKind kind);
std::optional<ChangeKind> ParseChangeKind(std::string_view name);
const std::vector<ChangeKind>& AllChangeKinds();

}  // namespace hoglake::catalog
