#include "server/wire.h"

#include "common/clock.h"

namespace hoglake::server {

const std::vector<std::string>& Capabilities() {
  // Each one names endpoints this server implements (contract §1.9, §6.20):
  // receipts for idempotent appends, truncate and guarded drops, and alter
  // with expected_table_uuid / read_snapshot guards, and atomic table
  // creation (plain, partitioned, sorted, with a replacement guard).
  static const std::vector<std::string> kCapabilities = {"idempotent-append-v1",
                                                         "guarded-table-lifecycle-v1",
                                                         "guarded-schema-evolution-v1",
                                                         "atomic-table-creation-v1",
                                                         "atomic-partitioned-table-creation-v1",
                                                         "atomic-sorted-table-creation-v1",
                                                         "atomic-table-replacement-v1"};
  return kCapabilities;
}

void WriteCatalog(const catalog::CatalogInfo& info, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(info.name));
  w.Field("data_path", std::string_view(info.data_path));
  w.Field("head_snapshot_id", info.head_snapshot_id);
  w.Field("schema_version", info.schema_version);
  if (info.earliest_snapshot_time_micros) {
    w.Field("earliest_snapshot_time",
            std::string_view(FormatInstant(*info.earliest_snapshot_time_micros)));
  }
  w.Key("capabilities");
  w.BeginArray();
  for (const auto& capability : Capabilities()) w.String(capability);
  w.EndArray();
  w.EndObject();
}

void WriteNamespace(const catalog::NamespaceInfo& info, JsonWriter& w) {
  w.BeginObject();
  w.Field("name", std::string_view(info.name));
  w.Field("namespace_id", info.namespace_id);
  w.EndObject();
}

void WriteSnapshotPage(const catalog::SnapshotPage& page, JsonWriter& w) {
  w.BeginObject();
  w.Key("snapshots");
  w.BeginArray();
  for (const auto& s : page.snapshots) {
    w.BeginObject();
    w.Field("snapshot_id", s.snapshot_id);
    w.Field("snapshot_time", std::string_view(FormatInstant(s.snapshot_time_micros)));
    w.Field("schema_version", s.schema_version);
    w.OptionalField("author", s.author);
    w.OptionalField("message", s.message);
    w.Key("changes");
    w.BeginArray();
    for (const auto& change : s.changes) {
      w.BeginObject();
      w.Field("kind", std::string_view(change.kind));
      w.Field("object_id", change.object_id);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Field("has_more", page.has_more);
  w.EndObject();
}

void WriteCommitResult(const catalog::CommitResult& result, JsonWriter& w) {
  w.BeginObject();
  w.Field("snapshot_id", result.snapshot_id);
  w.Field("schema_version", result.schema_version);
  w.EndObject();
}

}  // namespace hoglake::server
