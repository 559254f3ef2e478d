// Changefeed, consumer offsets and catalog options (contract §2.6 changes,
// §2.12, §2.13).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/model/file_info.h"

namespace hoglake::catalog {

struct ChangePlan {
  std::string table_uuid;
  int64_t from_snapshot = 0;
  int64_t to_snapshot = 0;
  std::vector<DataFileInfo> files;  // appended in (from, to], compaction outputs excluded
};

struct ConsumerOffset {
  std::string consumer_id;
  std::string table_uuid;
  int64_t committed_snapshot = 0;
  int64_t updated_at_micros = 0;
  // For GET …/consumers: the table's latest names, and whether it is dropped.
  std::optional<std::string> namespace_name;
  std::optional<std::string> table_name;
  bool table_dropped = false;
};

struct CatalogOptions {
  std::optional<int64_t> snapshot_retention_seconds;  // nullopt = expiry disabled
  bool consumer_floor = true;
  int64_t earliest_snapshot_id = 0;
};

// PATCH …/options: each member absent = unchanged.
struct OptionsPatch {
  bool set_retention = false;
  std::optional<int64_t> retention_seconds;  // with set_retention: nullopt = disable
  std::optional<bool> consumer_floor;
};

}  // namespace hoglake::catalog
