// HoglakeClient, ClientContext, Catalog, Namespace, View and
// SnapshotIterator (client.h; routes per pyhoglake-writer §1.2–§1.4, §14).
//
// Every path segment goes through EncodeSegment. Requests that create
// something (POST) are not replayed after they may have reached the server;
// Catalog::Commit with keyed=true is (the server returns the stored receipt).
// Client-side refusals (travel given twice, `before` with a non-zero
// `after`, reserved or malformed column definitions) happen before any
// request. Table methods live in client_table.cc; the atomic
// CreateTable (table-creations) in create_table.cc.
#include <mutex>
#include <unordered_map>

#include "client/client.h"
#include "client/request_wire.h"
#include "storage/object_store.h"

namespace hoglake::client {
namespace {

HttpCall Get(std::string path, QueryParams query = {}) {
  HttpCall call;
  call.method = HttpMethod::kGet;
  call.path = std::move(path);
  call.query = std::move(query);
  return call;
}

HttpCall WithBody(HttpMethod method, std::string path, std::string body,
                  RetryPolicy retry = RetryPolicy::kUnsafe) {
  HttpCall call;
  call.method = method;
  call.path = std::move(path);
  call.body = std::move(body);
  call.retry = retry;
  return call;
}

std::string NameBody(std::string_view name) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.EndObject();
  return w.Take();
}

// ?batch= when given.
QueryParams BatchQuery(std::optional<int64_t> batch) {
  QueryParams query;
  if (batch) query.emplace_back("batch", std::to_string(*batch));
  return query;
}

}  // namespace

// ---- ClientContext / HoglakeClient -------------------------------------------------

struct ClientContext::Stores {
  std::mutex mu;
  std::unordered_map<std::string, std::unique_ptr<ObjectStore>> by_root;
};

struct ClientContext::Retentions {
  struct Entry {
    std::optional<int64_t> seconds;
    bool assumed = false;  // the options were unreadable: 1800 s until a retry
    std::chrono::steady_clock::time_point read_at;
  };
  std::mutex mu;
  std::unordered_map<std::string, Entry> by_catalog;
};

namespace {
constexpr int64_t kAssumedRetentionSeconds = 1800;
constexpr auto kRetentionRetry = std::chrono::seconds(60);
}  // namespace

ClientContext::ClientContext(std::string base_url, S3Config s3_config, ClientOptions options)
    : transport(std::move(base_url), std::move(options)),
      s3(std::move(s3_config)),
      stores(new Stores),
      retentions(new Retentions) {}

ClientContext::~ClientContext() = default;

Result<ObjectStore*> ClientContext::StoreFor(std::string_view data_path) {
  std::string root(data_path);
  while (!root.empty() && root.back() == '/' && !root.ends_with("://")) root.pop_back();
  std::lock_guard<std::mutex> lock(stores->mu);
  auto it = stores->by_root.find(root);
  if (it != stores->by_root.end()) return it->second.get();
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectStore> store, OpenObjectStore(root, s3));
  ObjectStore* raw = store.get();
  stores->by_root.emplace(root, std::move(store));
  return raw;
}

HoglakeClient::HoglakeClient(std::string base_url, S3Config s3, ClientOptions options)
    : context_(std::make_shared<ClientContext>(std::move(base_url), std::move(s3),
                                               std::move(options))) {}

HoglakeClient::~HoglakeClient() = default;

Result<Catalog> HoglakeClient::CreateCatalog(std::string_view name, std::string_view data_path) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.Field("data_path", data_path);
  w.EndObject();
  HOGLAKE_ASSIGN_OR_RETURN(
      CatalogInfo info,
      wire::Call(*context_, WithBody(HttpMethod::kPost, "/catalogs", w.Take()), ParseCatalogInfo));
  return Catalog(context_, std::move(info));
}

Result<Catalog> HoglakeClient::GetCatalog(std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(
      CatalogInfo info,
      wire::Call(*context_, Get("/catalogs/" + EncodeSegment(name)), ParseCatalogInfo));
  return Catalog(context_, std::move(info));
}

Result<std::vector<CatalogInfo>> HoglakeClient::ListCatalogs() {
  return wire::Call(*context_, Get("/catalogs"), ParseCatalogInfos);
}

std::optional<int64_t> ClientContext::WriterRetention(const std::string& catalog) {
  const auto at = now();
  {
    std::lock_guard<std::mutex> lock(retentions->mu);
    auto it = retentions->by_catalog.find(catalog);
    if (it != retentions->by_catalog.end() &&
        (!it->second.assumed || at - it->second.read_at < kRetentionRetry)) {
      return it->second.seconds;
    }
  }
  // Read outside the lock: two threads may both read once; the last wins.
  Retentions::Entry entry;
  entry.read_at = at;
  Result<CatalogOptions> options = wire::Call(
      *this, Get("/catalogs/" + EncodeSegment(catalog) + "/options"), ParseCatalogOptions);
  if (options.ok()) {
    entry.seconds = options->snapshot_retention_seconds;
  } else {
    entry.seconds = kAssumedRetentionSeconds;
    entry.assumed = true;
  }
  std::lock_guard<std::mutex> lock(retentions->mu);
  retentions->by_catalog[catalog] = entry;
  return entry.seconds;
}

void ClientContext::ForgetRetention(const std::string& catalog) {
  std::lock_guard<std::mutex> lock(retentions->mu);
  retentions->by_catalog.erase(catalog);
}

// ---- Catalog -----------------------------------------------------------------------

std::string Catalog::Route() const { return "/catalogs/" + EncodeSegment(info_.name); }

Result<CatalogInfo> Catalog::Refresh() {
  HOGLAKE_ASSIGN_OR_RETURN(CatalogInfo info, wire::Call(*context_, Get(Route()), ParseCatalogInfo));
  info_ = info;
  return info;
}

Result<Namespace> Catalog::CreateNamespace(std::string_view name) {
  HOGLAKE_RETURN_IF_ERROR(
      context_->transport.Send(WithBody(HttpMethod::kPost, Route() + "/namespaces", NameBody(name)))
          .status());
  return NamespaceHandle(name);
}

Result<Namespace> Catalog::GetNamespace(std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(std::vector<std::string> names, ListNamespaces());
  for (const std::string& n : names) {
    if (n == name) return NamespaceHandle(name);
  }
  return NotFound("namespace '", name, "' not found in catalog '", info_.name, "'");
}

Namespace Catalog::NamespaceHandle(std::string_view name) const {
  return Namespace(context_, info_.name, info_.data_path, std::string(name));
}

Result<std::vector<std::string>> Catalog::ListNamespaces(const TimeTravel& travel) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  return wire::Call(*context_, Get(Route() + "/namespaces", std::move(query)), ParseNamespaceNames);
}

Result<Table> Catalog::GetTable(std::string_view namespace_name, std::string_view table_name) {
  return NamespaceHandle(namespace_name).GetTable(table_name);
}

Result<SnapshotIterator> Catalog::Snapshots(int64_t after, std::optional<int64_t> before,
                                            int64_t limit) {
  if (before && after != 0) {
    return Validation("snapshots: give after or before, not both (after=", after,
                      ", before=", *before, ")");
  }
  if (limit < 1) return Validation("snapshots: limit must be at least 1, got ", limit);
  return SnapshotIterator(context_, Route() + "/snapshots",
                          before ? std::nullopt : std::optional<int64_t>(after), before, limit);
}

Result<CatalogOptions> Catalog::Options() {
  return wire::Call(*context_, Get(Route() + "/options"), ParseCatalogOptions);
}

Result<CatalogOptions> Catalog::SetRetention(std::optional<int64_t> seconds,
                                             std::optional<bool> consumer_floor) {
  JsonWriter w;
  w.BeginObject();
  w.Key("snapshot_retention_seconds");
  if (seconds) {
    w.Int(*seconds);
  } else {
    w.Null();
  }
  if (consumer_floor) w.Field("consumer_floor", *consumer_floor);
  w.EndObject();
  Result<CatalogOptions> result = wire::Call(
      *context_, WithBody(HttpMethod::kPatch, Route() + "/options", w.Take()), ParseCatalogOptions);
  context_->ForgetRetention(info_.name);
  return result;
}

Result<ExpiryResult> Catalog::Expire(std::optional<int64_t> batch) {
  HttpCall call = WithBody(HttpMethod::kPost, Route() + "/maintenance/expire", "");
  call.query = BatchQuery(batch);
  return wire::Call(*context_, call, ParseExpiryResult);
}

Result<CleanupResult> Catalog::Cleanup(std::optional<int64_t> batch) {
  HttpCall call = WithBody(HttpMethod::kPost, Route() + "/maintenance/cleanup", "");
  call.query = BatchQuery(batch);
  return wire::Call(*context_, call, ParseCleanupResult);
}

Result<ConsumerOffset> Catalog::CommitOffset(std::string_view consumer_id,
                                             std::string_view table_uuid, int64_t snapshot_id) {
  JsonWriter w;
  w.BeginObject();
  w.Field("snapshot_id", snapshot_id);
  w.EndObject();
  const std::string path = Route() + "/consumers/" + EncodeSegment(consumer_id) + "/offsets/" +
                           EncodeSegment(table_uuid);
  return wire::Call(*context_, WithBody(HttpMethod::kPut, path, w.Take()), ParseConsumerOffset);
}

Result<std::vector<ConsumerOffset>> Catalog::Offsets(std::string_view consumer_id) {
  return wire::Call(*context_,
                    Get(Route() + "/consumers/" + EncodeSegment(consumer_id) + "/offsets"),
                    ParseConsumerOffsets);
}

Result<std::optional<ConsumerOffset>> Catalog::Offset(std::string_view consumer_id,
                                                      std::string_view table_uuid) {
  Result<ConsumerOffset> offset =
      wire::Call(*context_,
                 Get(Route() + "/consumers/" + EncodeSegment(consumer_id) + "/offsets/" +
                     EncodeSegment(table_uuid)),
                 ParseConsumerOffset);
  if (!offset.ok()) {
    if (offset.error().code == ErrorCode::kNotFound) return std::optional<ConsumerOffset>();
    return offset.error();
  }
  return std::optional<ConsumerOffset>(std::move(*offset));
}

Result<CommitResult> Catalog::Commit(std::string_view request_json, bool keyed) {
  HttpCall call = WithBody(HttpMethod::kPost, Route() + "/commit", std::string(request_json),
                           keyed ? RetryPolicy::kSafe : RetryPolicy::kUnsafe);
  call.is_commit = true;
  return wire::Call(*context_, call, ParseCommitResult);
}

// ---- SnapshotIterator ------------------------------------------------------------

Result<std::optional<Snapshot>> SnapshotIterator::Next() {
  if (next_ < page_.size()) return std::optional<Snapshot>(std::move(page_[next_++]));
  if (exhausted_) return std::optional<Snapshot>();
  QueryParams query;
  if (before_) {
    query.emplace_back("before", std::to_string(*before_));
  } else {
    query.emplace_back("after", std::to_string(after_.value_or(0)));
  }
  query.emplace_back("limit", std::to_string(limit_));
  HOGLAKE_ASSIGN_OR_RETURN(SnapshotPage page,
                           wire::Call(*context_, Get(route_, std::move(query)), ParseSnapshotPage));
  page_ = std::move(page.snapshots);
  next_ = 0;
  if (!page.has_more || page_.empty()) exhausted_ = true;
  if (page_.empty()) return std::optional<Snapshot>();
  const int64_t cursor = page_.back().snapshot_id;
  if (before_) {
    before_ = cursor;
  } else {
    after_ = cursor;
  }
  return std::optional<Snapshot>(std::move(page_[next_++]));
}

// ---- Namespace -------------------------------------------------------------------

std::string Namespace::Route() const {
  return "/catalogs/" + EncodeSegment(catalog_) + "/namespaces/" + EncodeSegment(name_);
}

Result<Table> Namespace::CreateTable(std::string_view name, const std::vector<ColumnDef>& columns,
                                     const std::map<std::string, std::string>& properties) {
  return PostTable(name, columns, std::nullopt, properties);
}

Result<Table> Namespace::PostTable(std::string_view name, const std::vector<ColumnDef>& columns,
                                   const std::optional<std::string>& comment,
                                   const std::map<std::string, std::string>& properties) {
  HOGLAKE_RETURN_IF_ERROR(wire::CheckColumnDefs(columns));
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.Key("columns");
  w.BeginArray();
  for (const ColumnDef& column : columns) wire::WriteColumnDef(column, w);
  w.EndArray();
  if (!properties.empty()) {
    w.Key("properties");
    w.BeginObject();
    for (const auto& [key, value] : properties) w.Field(key, std::string_view(value));
    w.EndObject();
  }
  w.OptionalField("comment", comment);
  w.EndObject();
  HOGLAKE_ASSIGN_OR_RETURN(
      TableInfo info,
      wire::Call(*context_, WithBody(HttpMethod::kPost, Route() + "/tables", w.Take()),
                 ParseTableInfo));
  Table table(context_, catalog_, data_path_, std::move(info));
  table.ddl_snapshot_ = table.info_.snapshot_id;
  return table;
}

Result<Table> Namespace::GetTable(std::string_view name) {
  HOGLAKE_ASSIGN_OR_RETURN(
      TableInfo info,
      wire::Call(*context_, Get(Route() + "/tables/" + EncodeSegment(name)), ParseTableInfo));
  Table table(context_, catalog_, data_path_, std::move(info));
  table.SeedWriterCache(table.info());
  return table;
}

Result<std::vector<TableSummary>> Namespace::ListTables(const TimeTravel& travel) {
  QueryParams query;
  HOGLAKE_RETURN_IF_ERROR(wire::AddTravel(travel, &query));
  return wire::Call(*context_, Get(Route() + "/tables", std::move(query)), ParseTableSummaries);
}

Result<View> Namespace::CreateView(std::string_view name, std::string_view sql,
                                   std::string_view dialect) {
  JsonWriter w;
  w.BeginObject();
  w.Field("name", name);
  w.Field("sql", sql);
  w.Field("dialect", dialect);
  w.EndObject();
  HOGLAKE_ASSIGN_OR_RETURN(
      ViewInfo info,
      wire::Call(*context_, WithBody(HttpMethod::kPost, Route() + "/views", w.Take()),
                 ParseViewInfo));
  std::string route = Route() + "/views/" + EncodeSegment(info.name);
  return View(context_, std::move(route), std::move(info));
}

Result<View> Namespace::GetView(std::string_view name) {
  std::string route = Route() + "/views/" + EncodeSegment(name);
  HOGLAKE_ASSIGN_OR_RETURN(ViewInfo info, wire::Call(*context_, Get(route), ParseViewInfo));
  return View(context_, std::move(route), std::move(info));
}

Result<std::vector<ViewInfo>> Namespace::ListViews() {
  return wire::Call(*context_, Get(Route() + "/views"), ParseViewInfos);
}

Result<CommitResult> Namespace::Drop() {
  return wire::Call(*context_, WithBody(HttpMethod::kDelete, Route(), "", RetryPolicy::kSafe),
                    ParseCommitResult);
}

// ---- View ------------------------------------------------------------------------

Result<CommitResult> View::Drop() {
  return wire::Call(*context_, WithBody(HttpMethod::kDelete, route_, "", RetryPolicy::kSafe),
                    ParseCommitResult);
}

}  // namespace hoglake::client
