#include "server/wire.h"

#include "common/clock.h"

namespace hoglake::server {

const std::vector<std::string>& Capabilities() {
  static const std::vector<std::string> kCapabilities = {};
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

void WriteCommitResult(const catalog::CommitResult& result, JsonWriter& w) {
  w.BeginObject();
  w.Field("snapshot_id", result.snapshot_id);
  w.Field("schema_version", result.schema_version);
  w.EndObject();
}

}  // namespace hoglake::server
