// `hoglake serve`'s settings from the environment, read and validated at
// once before anything starts (common/config.h): every library gets its
// options struct from here and never reads the environment itself. A bad
// value stops the server with a message naming each bad variable.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/maintenance/hydrator.h"
#include "catalog/maintenance/maintenance_loop.h"
#include "catalog/maintenance/maintenance_status.h"
#include "common/config.h"
#include "query/query_service.h"
#include "server/http/http_server.h"
#include "server/http/json_body.h"

namespace hoglake::cli {

struct ServeConfig {
  // Commit path and cleanup (the data paths are filled in by serve).
  int64_t commit_lock_timeout_ms = 30000;
  int64_t commit_gather_micros = 1000;
  bool commit_state_cache = true;
  int64_t cleanup_claim_lease_seconds = 900;
  // Background work.
  catalog::MaintenanceLoopOptions maintenance;
  catalog::HydratorOptions hydrator;
  int64_t compaction_target_bytes = catalog::kDefaultCompactionTargetBytes;
  int64_t metrics_sample_interval_ms = 15000;
  // The HTTP front end's limits (host, port, threads come from flags).
  server::HttpServerOptions http;
  int64_t json_parse_memory_bytes = server::kDefaultJsonParseMemoryBudget;
  // The largest raw upload (POST /v1/files), streamed to storage.
  int64_t max_upload_bytes = int64_t{16} << 30;
  // A load's data files close at this size (the next one starts).
  int64_t load_file_bytes = int64_t{512} << 20;
  // Upload bodies streamed at once (beyond: 429 OVERLOADED).
  int max_concurrent_uploads = 8;
  // Where data may live, and the embedded PostgreSQL.
  std::string data_root;           // HOGLAKE_DATA_ROOT as given ("" = unset)
  std::string allowed_data_paths;  // HOGLAKE_ALLOWED_DATA_PATHS as given
  std::vector<std::string> embedded_pg_settings;
  std::string pg_bin_dir;
  // The query service (the Hotdata-compatible API). results_root "" =
  // beside the data root (or the data directory).
  query::QueryServiceOptions query;
  std::string results_root;
  std::string api_tokens;      // HOGLAKE_API_TOKENS as given
  std::string api_token_file;  // HOGLAKE_API_TOKEN_FILE
  std::string secret_key;      // HOGLAKE_SECRET_KEY
  int64_t query_stale_after_ms = 15000;
  // An upload session not finalized within this long is removed.
  int64_t upload_ttl_seconds = 24 * 3600;
  // Naming and audit.
  std::string instance_name;
  std::string audit_log;
};

// Reads every variable `hoglake serve` uses; the error names each bad one.
Result<ServeConfig> ReadServeConfig(EnvReader& env);

}  // namespace hoglake::cli
