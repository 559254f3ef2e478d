#include "catalog/ddl/alter_ops.h"

#include <strings.h>

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "catalog/model/identifiers.h"
#include "iceberg/transforms.h"

namespace hoglake::catalog {
namespace {

using iceberg::ColumnType;

constexpr std::array<std::pair<AlterOpKind, std::string_view>, 11> kOpNames = {{
    {AlterOpKind::kAddColumn, "add_column"},
    {AlterOpKind::kAddColumnWithMetadata, "add_column_with_metadata"},
    {AlterOpKind::kDropColumn, "drop_column"},
    {AlterOpKind::kRenameColumn, "rename_column"},
    {AlterOpKind::kPromoteColumn, "promote_column"},
    {AlterOpKind::kRenameTable, "rename_table"},
    {AlterOpKind::kSetPartitionSpec, "set_partition_spec"},
    {AlterOpKind::kSetSortOrder, "set_sort_order"},
    {AlterOpKind::kSetTableComment, "set_table_comment"},
    {AlterOpKind::kSetColumnComment, "set_column_comment"},
    {AlterOpKind::kSetProperties, "set_properties"},
}};

// A column addressed by a dotted path: its sibling list and position.
struct Located {
  std::vector<ColumnNode>* siblings = nullptr;
  size_t index = 0;
  ColumnNode* parent = nullptr;  // null at top level

  ColumnNode& node() const { return (*siblings)[index]; }
};

// Resolves a dotted path; only struct interiors are addressable.
Result<Located> Locate(std::vector<ColumnNode>& columns, std::string_view path) {
  Located at;
  at.siblings = &columns;
  std::string walked;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string_view segment =
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    auto it = std::find_if(at.siblings->begin(), at.siblings->end(),
                           [&](const ColumnNode& c) { return c.name == segment; });
    if (segment.empty() || it == at.siblings->end()) {
      return Validation("unknown column '", path, "'");
    }
    at.index = static_cast<size_t>(it - at.siblings->begin());
    if (dot == std::string_view::npos) return at;
    walked = std::string(path.substr(0, dot));
    ColumnNode& node = at.node();
    if (node.type.type == ColumnType::kList || node.type.type == ColumnType::kMap) {
      return Validation("column path '", path, "' steps into ",
                        iceberg::ColumnTypeName(node.type.type), " '", walked,
                        "'; only struct fields are addressable");
    }
    if (node.type.type != ColumnType::kStruct) {
      return Validation("column path '", path, "': '", walked, "' is not a struct");
    }
    at.parent = &node;
    at.siblings = &node.children;
    start = dot + 1;
  }
}

// A column found by field id, with what the source rules need to know.
struct FieldRef {
  const ColumnNode* node = nullptr;
  bool under_list_or_map = false;
  std::string path;
};

bool FindField(const std::vector<ColumnNode>& nodes, int64_t id, bool under, const std::string& up,
               FieldRef* out) {
  for (const ColumnNode& n : nodes) {
    const std::string path = up.empty() ? n.name : up + "." + n.name;
    if (n.field_id == id) {
      *out = FieldRef{&n, under, path};
      return true;
    }
    const bool below = under || n.type.type == ColumnType::kList || n.type.type == ColumnType::kMap;
    if (FindField(n.children, id, below, path, out)) return true;
  }
  return false;
}

void CollectIds(const ColumnNode& node, std::set<int32_t>* ids) {
  ids->insert(node.field_id);
  for (const ColumnNode& c : node.children) CollectIds(c, ids);
}

// The partition/sort source rule: a live leaf, not under a list/map, not
// variant.
Result<FieldRef> SourceColumn(const AlterState& state, int64_t id, std::string_view what) {
  FieldRef ref;
  if (!FindField(state.columns, id, false, "", &ref)) {
    return Validation(what, " source_field_id ", id, " is not a live column of table '", state.name,
                      "'");
  }
  const ColumnType type = ref.node->type.type;
  if (iceberg::IsContainer(type)) {
    return Validation(what, " source column '", ref.path, "' (field_id ", id, ") is a ",
                      iceberg::ColumnTypeName(type), "; only leaf columns qualify");
  }
  if (ref.under_list_or_map) {
    return Validation(what, " source column '", ref.path, "' (field_id ", id,
                      ") lies under a list or map");
  }
  if (type == ColumnType::kVariant) {
    return Validation(what, " source column '", ref.path, "' (field_id ", id,
                      ") is a variant, which cannot be a source");
  }
  return ref;
}

Status CheckIdless(const AlterState& state, std::string_view op) {
  if (!state.idless_files_present) return Status::Ok();
  return MakeError(ErrorCode::kIdlessFilesPresent, op, " on table '", state.name,
                   "' is refused while live data files lack parquet field ids or are pending "
                   "statistics");
}

Status AddColumn(AlterState& state, const AlterOp& op) {
  HOGLAKE_RETURN_IF_ERROR(CheckIdless(state, AlterOpName(op.kind)));
  std::vector<ColumnNode>* siblings = &state.columns;
  std::string path = op.column.name;
  if (op.parent) {
    HOGLAKE_ASSIGN_OR_RETURN(Located parent, Locate(state.columns, *op.parent));
    ColumnNode& node = parent.node();
    if (node.type.type != ColumnType::kStruct) {
      return Validation("add_column parent '", *op.parent, "' is a ",
                        iceberg::ColumnTypeName(node.type.type), ", not a struct");
    }
    siblings = &node.children;
    path = *op.parent + "." + op.column.name;
  }
  for (const ColumnNode& s : *siblings) {
    if (s.name == op.column.name) return Validation("column '", path, "' already exists");
  }
  std::vector<ColumnNode> graft = {op.column};
  HOGLAKE_ASSIGN_OR_RETURN(state.next_field_id, AssignFieldIds(graft, state.next_field_id));
  int32_t ordinal = 0;
  for (const ColumnNode& s : *siblings) ordinal = std::max(ordinal, s.ordinal + 1);
  graft[0].ordinal = ordinal;
  siblings->push_back(std::move(graft[0]));
  return Status::Ok();
}

Status DropColumn(AlterState& state, const AlterOp& op) {
  HOGLAKE_ASSIGN_OR_RETURN(Located at, Locate(state.columns, op.path));
  if (at.siblings->size() == 1) {
    if (at.parent == nullptr) {
      return Validation("cannot drop column '", op.path, "': it is the table's last column");
    }
    return Validation("cannot drop column '", op.path, "': it is the last field of its struct");
  }
  std::set<int32_t> ids;
  CollectIds(at.node(), &ids);
  if (state.partition_spec) {
    for (const PartitionFieldInfo& f : state.partition_spec->fields) {
      if (ids.contains(f.source_field_id)) {
        return Validation("cannot drop column '", op.path, "': field_id ", f.source_field_id,
                          " is a source of the live partition spec");
      }
    }
  }
  if (state.sort_spec) {
    for (const SortFieldInfo& f : state.sort_spec->fields) {
      if (ids.contains(f.source_field_id)) {
        return Validation("cannot drop column '", op.path, "': field_id ", f.source_field_id,
                          " is a source of the live sort order");
      }
    }
  }
  for (int32_t id : ids) state.promoted_from.erase(id);
  at.siblings->erase(at.siblings->begin() + static_cast<ptrdiff_t>(at.index));
  return Status::Ok();
}

Status RenameColumn(AlterState& state, const AlterOp& op) {
  HOGLAKE_ASSIGN_OR_RETURN(Located at, Locate(state.columns, op.path));
  HOGLAKE_RETURN_IF_ERROR(CheckIdless(state, "rename_column"));
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("column", op.to));
  if (op.to == at.node().name) return Status::Ok();
  for (const ColumnNode& s : *at.siblings) {
    if (s.name == op.to) {
      return Validation("cannot rename column '", op.path, "' to '", op.to,
                        "': a sibling column already has that name");
    }
  }
  at.node().name = op.to;
  return Status::Ok();
}

// promote_column's "decimal(P,S)": a decimal column of scale S and a
// precision below P (Iceberg's decimal promotion). Sets *to.
Status PromoteDecimal(const ColumnNode& node, const AlterOp& op, iceberg::TypeSpec* to) {
  // "decimal(" digits "," digits ")", nothing else.
  std::string_view text = std::string_view(op.to).substr(std::string_view("decimal(").size());
  auto number = [&text](int* out) {
    size_t digits = 0;
    *out = 0;
    while (digits < text.size() && digits < 3 && text[digits] >= '0' && text[digits] <= '9') {
      *out = *out * 10 + (text[digits] - '0');
      ++digits;
    }
    text.remove_prefix(digits);
    return digits > 0;
  };
  auto take = [&text](char c) {
    if (text.empty() || text.front() != c) return false;
    text.remove_prefix(1);
    return true;
  };
  int precision = 0, scale = 0;
  const bool spelled =
      number(&precision) && take(',') && number(&scale) && take(')') && text.empty();
  if (!spelled || precision < 1 || precision > 38 || scale < 0 || scale > precision) {
    return Validation("cannot promote column '", op.path, "' to '", op.to,
                      "': a decimal is spelled decimal(P,S) with precision 1..38 and scale "
                      "0..precision");
  }
  const iceberg::TypeSpec& from = node.type;
  if (from.type != ColumnType::kDecimal) {
    return Validation("cannot promote column '", op.path, "' from ", from.ToString(), " to ", op.to,
                      ": only a decimal column widens to a decimal");
  }
  if (scale != from.scale) {
    return Validation("cannot promote column '", op.path, "' from ", from.ToString(), " to ", op.to,
                      ": a decimal's scale cannot change");
  }
  if (precision <= from.precision) {
    return Validation("cannot promote column '", op.path, "' from ", from.ToString(), " to ", op.to,
                      ": a decimal's precision can only grow");
  }
  *to = iceberg::TypeSpec::Decimal(precision, scale);
  return Status::Ok();
}

Status PromoteColumn(AlterState& state, const AlterOp& op) {
  HOGLAKE_ASSIGN_OR_RETURN(Located at, Locate(state.columns, op.path));
  ColumnNode& node = at.node();
  const ColumnType from = node.type.type;
  iceberg::TypeSpec to_spec;
  const bool to_decimal = strncasecmp(op.to.c_str(), "decimal(", 8) == 0;
  if (to_decimal) {
    HOGLAKE_RETURN_IF_ERROR(PromoteDecimal(node, op, &to_spec));
  } else {
    HOGLAKE_ASSIGN_OR_RETURN(to_spec.type, iceberg::ParseColumnType(op.to, op.path));
  }
  const ColumnType to = to_spec.type;
  if (iceberg::IsContainer(from)) {
    return Validation("column '", op.path, "' is a ", iceberg::ColumnTypeName(from),
                      "; containers are not promotable");
  }
  if (!to_decimal && !iceberg::CanPromote(from, to)) {
    return Validation("cannot promote column '", op.path, "' from ", node.type.ToString(), " to ",
                      iceberg::ColumnTypeName(to),
                      " (allowed: int8→int16/int/long, int16→int/long, int→long, "
                      "uint8→uint16/uint32, uint16→uint32, float→double, "
                      "decimal(P,S)→decimal(P',S) with P' > P)");
  }
  if (state.partition_spec) {  // the live spec must stay valid for the new type
    for (const PartitionFieldInfo& f : state.partition_spec->fields) {
      if (f.source_field_id != node.field_id) continue;
      HOGLAKE_ASSIGN_OR_RETURN(iceberg::Transform transform,
                               iceberg::ParseTransform(f.transform, f.transform_param));
      Status gate = iceberg::CheckTransformSource(transform, to);
      if (!gate.ok()) {
        return Validation("cannot promote column '", op.path, "' to ", iceberg::ColumnTypeName(to),
                          ": it is a source of the live partition "
                          "spec and ",
                          gate.error().message);
      }
    }
  }
  state.promoted_from.emplace(node.field_id, from);  // keeps the first (pre-request) type
  node.type = to_spec;
  return Status::Ok();
}

Status RenameTable(AlterState& state, const AlterOp& op, const AlterEnvironment& env) {
  HOGLAKE_RETURN_IF_ERROR(ValidateIdentifier("table", op.to));
  if (op.to == state.name) return Status::Ok();
  if (env.table_name_taken) {
    HOGLAKE_ASSIGN_OR_RETURN(bool taken, env.table_name_taken(op.to));
    if (taken) {
      return AlreadyExists("cannot rename table '", state.name, "' to '", op.to, "': table '",
                           env.namespace_name, ".", op.to, "' already exists");
    }
  }
  state.name = op.to;
  return Status::Ok();
}

Status SetPartitionSpec(AlterState& state, const AlterOp& op) {
  PartitionSpecInfo spec{state.max_spec_id + 1, {}};
  std::set<std::pair<int64_t, std::string>> seen;
  for (size_t i = 0; i < op.partition_fields.size(); ++i) {
    const PartitionFieldInput& f = op.partition_fields[i];
    const std::string what = StrCat("partition field ", i);
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::Transform transform,
                             iceberg::ParseTransform(f.transform, f.transform_param));
    if (transform.kind == iceberg::TransformKind::kTruncate) {
      return Validation(what,
                        ": the truncate transform is not supported for partition specs "
                        "(identity, bucket, year, month, day, hour)");
    }
    HOGLAKE_ASSIGN_OR_RETURN(FieldRef source, SourceColumn(state, f.source_field_id, what));
    Status gate = iceberg::CheckTransformSource(transform, source.node->type.type);
    if (!gate.ok()) {
      return Validation(what, " (column '", source.path, "'): ", gate.error().message);
    }
    if (!seen.emplace(f.source_field_id, transform.ToString()).second) {
      return Validation(what, " repeats transform ", transform.ToString(), " of column '",
                        source.path, "'");
    }
    std::optional<int32_t> param;
    if (transform.kind == iceberg::TransformKind::kBucket) param = transform.param;
    spec.fields.push_back({static_cast<int32_t>(f.source_field_id),
                           std::string(iceberg::TransformName(transform.kind)), param});
  }
  state.partition_changed = true;
  if (spec.fields.empty()) {
    state.partition_spec.reset();
  } else {
    state.partition_spec = std::move(spec);
  }
  return Status::Ok();
}

Status SetSortOrder(AlterState& state, const AlterOp& op) {
  SortSpecInfo spec{state.max_sort_id + 1, {}};
  std::set<int64_t> seen;
  for (size_t i = 0; i < op.sort_fields.size(); ++i) {
    const SortFieldInput& f = op.sort_fields[i];
    const std::string what = StrCat("sort field ", i);
    if (f.direction != "asc" && f.direction != "desc") {
      return Validation(what, ": unknown direction '", f.direction, "' (asc, desc)");
    }
    if (f.null_order != "nulls_first" && f.null_order != "nulls_last") {
      return Validation(what, ": unknown null_order '", f.null_order,
                        "' (nulls_first, nulls_last)");
    }
    HOGLAKE_ASSIGN_OR_RETURN(FieldRef source, SourceColumn(state, f.source_field_id, what));
    if (!seen.insert(f.source_field_id).second) {
      return Validation(what, ": column '", source.path, "' (field_id ", f.source_field_id,
                        ") is already a sort field");
    }
    spec.fields.push_back({static_cast<int32_t>(f.source_field_id), f.direction, f.null_order});
  }
  state.sort_changed = true;
  if (spec.fields.empty()) {
    state.sort_spec.reset();
  } else {
    state.sort_spec = std::move(spec);
  }
  return Status::Ok();
}

Status SetProperties(AlterState& state, const AlterOp& op) {
  HOGLAKE_RETURN_IF_ERROR(ValidateProperties(op.properties));
  state.properties = op.properties;
  std::erase_if(state.properties, [](const auto& kv) {
    return kv.first == "write.format.default";  // parquet, the default; not stored
  });
  std::sort(state.properties.begin(), state.properties.end());
  return Status::Ok();
}

}  // namespace

std::string_view AlterOpName(AlterOpKind kind) {
  for (const auto& [k, name] : kOpNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<AlterOpKind> ParseAlterOpKind(std::string_view name) {
  for (const auto& [k, n] : kOpNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

AlterState AlterStateOf(const TableInfo& table, int32_t next_field_id) {
  AlterState state;
  state.name = table.name;
  state.comment = table.comment;
  state.properties = table.properties;
  state.columns = table.columns;
  state.next_field_id = next_field_id;
  state.partition_spec = table.partition_spec;
  state.sort_spec = table.sort_spec;
  if (table.partition_spec) state.max_spec_id = table.partition_spec->spec_id;
  if (table.sort_spec) state.max_sort_id = table.sort_spec->sort_id;
  return state;
}

Status ApplyAlterOp(AlterState& state, const AlterOp& op, const AlterEnvironment& env) {
  switch (op.kind) {
    case AlterOpKind::kAddColumn:
    case AlterOpKind::kAddColumnWithMetadata:
      HOGLAKE_RETURN_IF_ERROR(AddColumn(state, op));
      break;
    case AlterOpKind::kDropColumn:
      HOGLAKE_RETURN_IF_ERROR(DropColumn(state, op));
      break;
    case AlterOpKind::kRenameColumn:
      HOGLAKE_RETURN_IF_ERROR(RenameColumn(state, op));
      break;
    case AlterOpKind::kPromoteColumn:
      return PromoteColumn(state, op);
    case AlterOpKind::kRenameTable:
      return RenameTable(state, op, env);
    case AlterOpKind::kSetPartitionSpec:
      return SetPartitionSpec(state, op);
    case AlterOpKind::kSetSortOrder:
      return SetSortOrder(state, op);
    case AlterOpKind::kSetTableComment:
      if (op.comment) HOGLAKE_RETURN_IF_ERROR(ValidateComment("table comment", *op.comment));
      state.comment = op.comment;
      return Status::Ok();
    case AlterOpKind::kSetColumnComment: {
      HOGLAKE_ASSIGN_OR_RETURN(Located at, Locate(state.columns, op.path));
      if (op.comment) {
        HOGLAKE_RETURN_IF_ERROR(ValidateComment("column '" + op.path + "' comment", *op.comment));
      }
      at.node().comment = op.comment;
      return Status::Ok();
    }
    case AlterOpKind::kSetProperties:
      return SetProperties(state, op);
  }
  // Column-tree edits: the whole tree must still satisfy the table rules
  // (names, reserved prefix, depth, node count, container shapes).
  return ValidateColumns(state.columns);
}

Status ApplyAlterOps(AlterState& state, const std::vector<AlterOp>& ops,
                     const AlterEnvironment& env) {
  for (size_t i = 0; i < ops.size(); ++i) {
    Status status = ApplyAlterOp(state, ops[i], env);
    if (!status.ok()) {
      Error e = status.error();
      e.message = StrCat("ops[", i, "] (", AlterOpName(ops[i].kind), "): ", e.message);
      return e;
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::catalog
