// Namespace::CreateTable with options and Namespace::ReplaceTable (client.h)
// over the atomic table-creation routes (contract §2.10), and the promised
// field ids a create's partition and sort fields name (PromisedColumns).
//
// Wire, under /catalogs/{c}/table-creations/{op}:
//   PUT  …[/partitioned|/sorted|/metadata]  {namespace, name, columns,
//        replacement?, partition_fields?, sort_fields?, comment?, properties?}
//   POST …/commit {"files":[]}   (publish: the table appears, empty)
//   POST …/abort                 (the fence after a publish lost in transit)
// then GET …/namespaces/{ns}/tables/{name}?snapshot=S&totals=false for the
// Table the committed snapshot S holds (its json gains "snapshot_id":S, the
// shape of a POST …/tables receipt). Every table-creation answer is a
// TableCreation, 200 whatever happened: its `state` decides, never the
// status. The prepare is a PUT and the publish a kSafe POST because both
// are idempotent per operation id (identical replays answer the stored
// operation), so the transport retries them without starting a new op.
#include "client/client.h"
#include "client/request_wire.h"
#include "common/uuid.h"

namespace hoglake::client {
namespace {

bool AnyComment(const std::vector<ColumnDef>& columns) {
  for (const ColumnDef& c : columns) {
    if (c.comment || AnyComment(c.children)) return true;
  }
  return false;
}

void StripComments(std::vector<ColumnDef>& columns) {
  for (ColumnDef& c : columns) {
    c.comment.reset();
    StripComments(c.children);
  }
}

// set_column_comment ops for every commented column; set_column_comment
// addresses struct members only, so a comment under a list or map is
// refused here, before any request.
Status CommentOps(const std::vector<ColumnDef>& columns, const std::string& prefix,
                  bool addressable, std::vector<AlterOp>* ops) {
  for (const ColumnDef& c : columns) {
    const std::string path = prefix.empty() ? c.name : prefix + "." + c.name;
    if (c.comment) {
      if (!addressable) {
        return Validation("column '", path,
                          "': a comment inside a list or map cannot be given together with a "
                          "partition spec or sort order (no single table-creation endpoint "
                          "takes both, and alter cannot reach it); create without it");
      }
      ops->push_back(SetColumnComment(path, c.comment));
    }
    const bool into = addressable && c.type.type == iceberg::ColumnType::kStruct;
    HOGLAKE_RETURN_IF_ERROR(CommentOps(c.children, path, into, ops));
  }
  return Status::Ok();
}

int32_t Promise(const std::vector<ColumnDef>& defs, iceberg::ColumnType parent, int32_t next,
                std::vector<Column>* out) {
  for (size_t i = 0; i < defs.size(); ++i) {
    const ColumnDef& def = defs[i];
    Column column;
    column.name = def.name;
    column.nullable = def.nullable;
    if (parent == iceberg::ColumnType::kList) column.name = "element";
    if (parent == iceberg::ColumnType::kMap) {
      column.name = i == 0 ? "key" : "value";
      if (i == 0) column.nullable = false;
    }
    column.type = def.type;
    column.comment = def.comment;
    column.ordinal = static_cast<int32_t>(i);
    column.field_id = next++;
    next = Promise(def.children, def.type.type, next, &column.children);
    out->push_back(std::move(column));
  }
  return next;
}

bool SameIds(const std::vector<Column>& a, const std::vector<Column>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].field_id != b[i].field_id || !SameIds(a[i].children, b[i].children)) return false;
  }
  return true;
}

std::string JsonString(std::string_view text) {
  JsonWriter w;
  w.String(text);
  return w.Take();
}

// `error` naming the operation (wire_extra "operation_id"), once.
Error WithOperation(Error error, const std::string& op) {
  if (ErrorCreationOperation(error)) return error;
  if (!error.wire_extra.empty()) error.wire_extra += ",";
  error.wire_extra += "\"operation_id\":" + JsonString(op);
  return error;
}

// A rejected or aborted creation as an error whose code follows its reason.
Error RefusalOf(const TableCreation& op, const std::string& qualified) {
  const std::string reason = op.reason.value_or("");
  ErrorCode code = ErrorCode::kInternal;  // client_abort, or a reason this SDK does not know
  if (reason == "target_exists") {
    code = ErrorCode::kAlreadyExists;
  } else if (reason == "namespace_changed") {
    code = ErrorCode::kNotFound;
  } else if (reason == "target_changed") {
    code = ErrorCode::kTableRecreated;
  } else if (reason == "definition_invalid") {
    code = ErrorCode::kValidation;
  } else if (reason == "expired") {
    code = ErrorCode::kExpired;
  }
  Error error{code, StrCat("table '", qualified, "' was not created: table creation ",
                           op.operation_id, " is ", op.state, " (",
                           reason.empty() ? std::string("no reason given") : reason, ")")};
  error.wire_extra =
      "\"reason\":" + JsonString(reason) + ",\"operation_id\":" + JsonString(op.operation_id);
  return error;
}

HttpCall Request(HttpMethod method, std::string path, std::string body) {
  HttpCall call;
  call.method = method;
  call.path = std::move(path);
  call.body = std::move(body);
  call.retry = RetryPolicy::kSafe;  // idempotent per operation id
  return call;
}

}  // namespace

std::vector<Column> PromisedColumns(const std::vector<ColumnDef>& columns) {
  std::vector<Column> out;
  Promise(columns, iceberg::ColumnType::kStruct, 1, &out);
  return out;
}

Result<int32_t> PromisedFieldId(const std::vector<ColumnDef>& columns, std::string_view path) {
  const std::vector<Column> promised = PromisedColumns(columns);
  const std::vector<Column>* siblings = &promised;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string_view segment =
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    const Column* found = nullptr;
    for (const Column& c : *siblings) {
      if (c.name == segment) found = &c;
    }
    if (found == nullptr) return Validation("unknown column '", path, "'");
    if (dot == std::string_view::npos) return found->field_id;
    if (found->type.type != iceberg::ColumnType::kStruct) {
      return Validation("column path '", path, "': '", path.substr(0, dot), "' is not a struct");
    }
    siblings = &found->children;
    start = dot + 1;
  }
}

Result<Table> Namespace::CreateTable(std::string_view name, const std::vector<ColumnDef>& columns,
                                     const CreateTableOptions& options) {
  HOGLAKE_RETURN_IF_ERROR(wire::CheckColumnDefs(columns));
  const bool partitioned = !options.partition_by.empty();
  const bool sorted = !options.sort_by.empty();
  const bool metadata = options.comment || !options.properties.empty() || AnyComment(columns);
  if (!partitioned && !sorted && !options.replacement) {
    return PostTable(name, columns, options.comment, options.properties);
  }
  // A spec with metadata: the spec now, the metadata by one Alter after.
  std::vector<ColumnDef> defs = columns;
  std::vector<AlterOp> later;
  const bool split = (partitioned || sorted) && metadata;
  if (split) {
    if (options.comment) later.push_back(SetTableComment(options.comment));
    if (!options.properties.empty()) later.push_back(SetProperties(options.properties));
    HOGLAKE_RETURN_IF_ERROR(CommentOps(columns, "", true, &later));
    StripComments(defs);
  }
  const char* suffix = sorted        ? "/sorted"
                       : partitioned ? "/partitioned"
                       : metadata    ? "/metadata"
                                     : "";

  JsonWriter w;
  w.BeginObject();
  w.Field("namespace", std::string_view(name_));
  w.Field("name", name);
  w.Key("columns");
  w.BeginArray();
  for (const ColumnDef& column : defs) wire::WriteColumnDef(column, w);
  w.EndArray();
  if (options.replacement) {
    w.Key("replacement");
    w.BeginObject();
    w.Key("expected_table_uuid");
    if (options.replacement->expected_table_uuid) {
      w.String(*options.replacement->expected_table_uuid);
    } else {
      w.Null();
    }
    w.Field("read_snapshot", options.replacement->read_snapshot);
    w.EndObject();
  }
  if (partitioned) {
    w.Key("partition_fields");
    wire::WritePartitionFields(options.partition_by, w);
  }
  if (sorted) {
    w.Key("sort_fields");
    wire::WriteSortFields(options.sort_by, w);
  }
  if (!split) {
    w.OptionalField("comment", options.comment);
    if (!options.properties.empty()) {
      w.Key("properties");
      w.BeginObject();
      for (const auto& [key, value] : options.properties) w.Field(key, std::string_view(value));
      w.EndObject();
    }
  }
  w.EndObject();

  const std::string op = options.operation_id.empty() ? NewUuid() : options.operation_id;
  const std::string route =
      "/catalogs/" + EncodeSegment(catalog_) + "/table-creations/" + EncodeSegment(op);
  const std::string qualified = name_ + "." + std::string(name);

  Result<TableCreation> prepared = wire::Call(
      *context_, Request(HttpMethod::kPut, route + suffix, w.Take()), ParseTableCreation);
  if (!prepared.ok()) return WithOperation(prepared.error(), op);
  TableCreation outcome = std::move(prepared).value();
  if (outcome.state == "prepared") {
    if (!SameIds(outcome.columns, PromisedColumns(defs))) {
      (void)wire::Call(*context_, Request(HttpMethod::kPost, route + "/abort", ""),
                       ParseTableCreation);
      return WithOperation(Internal("table creation ", op, " of '", qualified,
                                    "' promised other field ids than the partition and sort "
                                    "fields were built for; the operation was aborted"),
                           op);
    }
    Result<TableCreation> published =
        wire::Call(*context_, Request(HttpMethod::kPost, route + "/commit", R"({"files":[]})"),
                   ParseTableCreation);
    if (published.ok()) {
      outcome = std::move(published).value();
    } else if (ErrorKindOf(published.error()) == ErrorKind::kTransport) {
      // Unknown outcome: the abort fences it (a committed op stays committed).
      Result<TableCreation> fenced = wire::Call(
          *context_, Request(HttpMethod::kPost, route + "/abort", ""), ParseTableCreation);
      if (!fenced.ok() || fenced->state != "committed") {
        return WithOperation(published.error(), op);
      }
      outcome = std::move(fenced).value();
    } else {
      return WithOperation(published.error(), op);
    }
  }
  if (outcome.state != "committed") return RefusalOf(outcome, qualified);
  if (!outcome.snapshot_id) {
    return WithOperation(MalformedResponse("TableCreation", "snapshot_id", "is missing"), op);
  }
  Result<Table> table = CreatedTable(name, *outcome.snapshot_id, outcome.table_uuid);
  if (!table.ok()) return WithOperation(table.error(), op);
  if (!later.empty()) {
    Result<TableInfo> altered = table->Alter(later);
    if (!altered.ok()) {
      Error error = altered.error();
      error.message = StrCat(
          "table '", qualified, "' was created with its spec (snapshot ", *outcome.snapshot_id,
          ") but its comment, properties or column comments were not applied: ", error.message);
      return WithOperation(std::move(error), op);
    }
  }
  return table;
}

Result<Table> Namespace::ReplaceTable(std::string_view name, const std::vector<ColumnDef>& columns,
                                      const TableReplacement& replacement,
                                      CreateTableOptions options) {
  options.replacement = replacement;
  return CreateTable(name, columns, options);
}

Result<Table> Namespace::CreatedTable(std::string_view name, int64_t snapshot,
                                      std::string_view table_uuid) {
  HttpCall call;
  call.method = HttpMethod::kGet;
  call.path = Route() + "/tables/" + EncodeSegment(name);
  call.query = {{"snapshot", std::to_string(snapshot)}, {"totals", "false"}};
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info, wire::Call(*context_, call, ParseTableInfo));
  if (info.table_uuid != table_uuid) {
    return Internal("table '", name_, ".", name, "' at snapshot ", snapshot, " is ",
                    info.table_uuid, ", not the created ", table_uuid);
  }
  // The create receipt's shape: the Table plus the snapshot that made it.
  info.snapshot_id = snapshot;
  if (info.json.size() >= 2 && info.json.back() == '}' &&
      info.json.find("\"snapshot_id\"") == std::string::npos) {
    info.json.insert(info.json.size() - 1,
                     (info.json.size() > 2 ? ",\"snapshot_id\":" : "\"snapshot_id\":") +
                         std::to_string(snapshot));
  }
  Table table(context_, catalog_, data_path_, std::move(info));
  table.ddl_snapshot_ = snapshot;
  return table;
}

}  // namespace hoglake::client
