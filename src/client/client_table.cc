// Table's read, DDL and drop methods (client.h; pyhoglake-writer §1.5, §14).
// Table::Append (the writer path) lives in append*.cc.
//
// The DDL pin: a create or alter receipt carries snapshot_id, which becomes
// ddl_snapshot_. Files() and ScanPlan() without explicit travel read at
// snapshot=<pin> while one is set (the table as this handle last shaped it);
// Drop() clears it. Info() without travel adopts the response into info_
// (the pin is kept). Alter adopts its receipt (name included, so a
// rename_table moves the handle) and replaces the pin.
//
// The writer cache (client.h, §8.4) is seeded by Info() without travel and
// by the Alter receipt (reset when either lacks read_snapshot_id), and
// dropped by Drop(). The prepared path that reads it is prepare.cc.
#include "client/client.h"
#include "client/request_wire.h"

namespace hoglake::client {
namespace {

HttpCall Get(std::string path, QueryParams query = {}) {
  HttpCall call;
  call.method = HttpMethod::kGet;
  call.path = std::move(path);
  call.query = std::move(query);
  return call;
}

bool HasTravel(const TimeTravel& travel) { return travel.snapshot || travel.at_timestamp; }

}  // namespace

Table::Table(std::shared_ptr<ClientContext> context, std::string catalog, std::string data_path,
             TableInfo info)
    : context_(std::move(context)),
      catalog_(std::move(catalog)),
      data_path_(std::move(data_path)),
      info_(std::move(info)) {}

void Table::SeedWriterCache(const TableInfo& head) {
  if (!head.read_snapshot_id) {
    writer_cache_.reset();
    return;
  }
  writer_cache_ = WriterCache{*head.read_snapshot_id, context_->now(), head.table_uuid};
}

std::string Table::qualified_name() const { return info_.namespace_name + "." + info_.name; }

std::string Table::Route() const {
  return "/catalogs/" + EncodeSegment(catalog_) + "/namespaces/" +
         EncodeSegment(info_.namespace_name) + "/tables/" + EncodeSegment(info_.name);
}

Result<TableInfo> Table::Info(const TimeTravel& travel, bool totals) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  if (!totals) query.emplace_back("totals", "false");
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info,
                           wire::Call(*context_, Get(Route(), std::move(query)), ParseTableInfo));
  if (!HasTravel(travel)) {
    info_ = info;
    SeedWriterCache(info);
  }
  return info;
}

Result<std::vector<DataFile>> Table::Files(const TimeTravel& travel, const FilesQuery& files) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  if (!HasTravel(travel) && ddl_snapshot_) {
    query.emplace_back("snapshot", std::to_string(*ddl_snapshot_));
  }
  if (files.sort) query.emplace_back("sort", *files.sort);
  if (files.order) query.emplace_back("order", *files.order);
  if (files.limit) query.emplace_back("limit", std::to_string(*files.limit));
  if (files.offset) query.emplace_back("offset", std::to_string(*files.offset));
  return wire::Call(*context_, Get(Route() + "/files", std::move(query)), ParseDataFiles);
}

Result<std::vector<ScanFile>> Table::ScanPlan(const TimeTravel& travel) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  if (!HasTravel(travel) && ddl_snapshot_) {
    query.emplace_back("snapshot", std::to_string(*ddl_snapshot_));
  }
  return wire::Call(*context_, Get(Route() + "/scan", std::move(query)), ParseScanFiles);
}

Result<FileStats> Table::GetFileStats(int64_t data_file_id, const TimeTravel& travel) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  return wire::Call(
      *context_,
      Get(Route() + "/files/" + std::to_string(data_file_id) + "/stats", std::move(query)),
      ParseFileStats);
}

Result<ChangesPlan> Table::Changes(int64_t from_snapshot, std::optional<int64_t> to_snapshot) {
  QueryParams query = {{"from_snapshot", std::to_string(from_snapshot)}};
  if (to_snapshot) query.emplace_back("to_snapshot", std::to_string(*to_snapshot));
  return wire::Call(*context_, Get(Route() + "/changes", std::move(query)), ParseChangesPlan);
}

Result<TableInfo> Table::Alter(const std::vector<AlterOp>& ops) {
  if (ops.empty()) return Validation("alter needs at least one op");
  std::string body = "{\"ops\":[";
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i != 0) body += ",";
    JsonWriter op;
    op.String(ops[i].op);
    body += "{\"op\":" + op.Take();
    if (!ops[i].body_json.empty()) body += "," + ops[i].body_json;
    body += "}";
  }
  body += "]}";
  HttpCall call;
  call.method = HttpMethod::kPost;
  call.path = Route() + "/alter";
  call.body = std::move(body);
  call.retry = RetryPolicy::kUnsafe;
  HOGLAKE_ASSIGN_OR_RETURN(TableInfo info, wire::Call(*context_, call, ParseTableInfo));
  info_ = info;
  SeedWriterCache(info);
  if (info.snapshot_id) ddl_snapshot_ = info.snapshot_id;
  return info;
}

Result<CommitResult> Table::Drop() {
  HttpCall call;
  call.method = HttpMethod::kDelete;
  call.path = Route();
  HOGLAKE_ASSIGN_OR_RETURN(CommitResult result, wire::Call(*context_, call, ParseCommitResult));
  ddl_snapshot_.reset();
  writer_cache_.reset();
  return result;
}

}  // namespace hoglake::client
