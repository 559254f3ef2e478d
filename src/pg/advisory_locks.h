// PostgreSQL advisory lock keys: one bigint (class << 32) | (catalog_id &
// 0xFFFFFFFF), as the hoglake server does (the two-int form overflows int4).
#pragma once

#include <cstdint>

namespace hoglake::pg {

enum class LockClass : int64_t {
  kMigration = 4740870,       // session lock while migrations run (instance-wide)
  kCatalogCommit = 4740871,   // transaction lock around every commit and DDL of a catalog
  kRetirement = 4740872,      // single-flight retirement per catalog
  kCompactionPlan = 4740873,  // compaction planning per catalog
  kReindex = 4740874,         // instance-wide reindex
  kExpiry = 4740875,          // single-flight background expiry per catalog (session lock)
};

constexpr int64_t AdvisoryLockKey(LockClass lock_class, int64_t catalog_id) {
  return (static_cast<int64_t>(lock_class) << 32) | (catalog_id & 0xFFFFFFFF);
}

}  // namespace hoglake::pg
