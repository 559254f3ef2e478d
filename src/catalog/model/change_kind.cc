#include "catalog/model/change_kind.h"

namespace hoglake::catalog {

std::string_view ChangeKindName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kNamespaceCreated:
      return "namespace_created";
    case ChangeKind::kNamespaceDropped:
      return "namespace_dropped";
    case ChangeKind::kTableCreated:
      return "table_created";
    case ChangeKind::kTableDropped:
      return "table_dropped";
    case ChangeKind::kTableAltered:
      return "table_altered";
    case ChangeKind::kTableInsertedInto:
      return "table_inserted_into";
    case ChangeKind::kTableDeletedFrom:
      return "table_deleted_from";
    case ChangeKind::kTableCompacted:
      return "table_compacted";
    case ChangeKind::kViewCreated:
      return "view_created";
    case ChangeKind::kViewDropped:
      return "view_dropped";
  }
  return "?";
}

const std::vector<ChangeKind>& AllChangeKinds() {
  static const std::vector<ChangeKind> kAll = {
      ChangeKind::kNamespaceCreated, ChangeKind::kNamespaceDropped, ChangeKind::kTableCreated,
      ChangeKind::kTableDropped,     ChangeKind::kTableAltered,     ChangeKind::kTableInsertedInto,
      ChangeKind::kTableDeletedFrom, ChangeKind::kTableCompacted,   ChangeKind::kViewCreated,
      ChangeKind::kViewDropped};
  return kAll;
}

std::optional<ChangeKind> ParseChangeKind(std::string_view name) {
  for (ChangeKind kind : AllChangeKinds()) {
    if (ChangeKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace hoglake::catalog
