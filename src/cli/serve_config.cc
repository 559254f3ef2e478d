#include "cli/serve_config.h"

#include <algorithm>
#include <sstream>

namespace hoglake::cli {
namespace {

constexpr int64_t kMaxIntervalMs = int64_t{7} * 24 * 3600 * 1000;  // a week
constexpr int64_t kMaxTimeoutMs = int64_t{24} * 3600 * 1000;       // a day
constexpr int64_t kMaxLeaseSeconds = int64_t{30} * 24 * 3600;      // a month
constexpr int64_t kMaxBytes = int64_t{1} << 40;                    // 1 TiB
constexpr int64_t kMaxCount = 1000000000;

}  // namespace

Result<ServeConfig> ReadServeConfig(EnvReader& env) {
  ServeConfig c;
  c.commit_lock_timeout_ms =
      env.Integer("HOGLAKE_COMMIT_LOCK_TIMEOUT_MS", c.commit_lock_timeout_ms, 0, kMaxTimeoutMs);
  c.commit_gather_micros =
      env.Integer("HOGLAKE_COMMIT_GATHER_US", c.commit_gather_micros, 0, 1000000);
  c.commit_state_cache = env.Boolean("HOGLAKE_COMMIT_STATE_CACHE", c.commit_state_cache);
  c.cleanup_claim_lease_seconds = env.Integer("HOGLAKE_CLEANUP_CLAIM_LEASE_SECONDS",
                                              c.cleanup_claim_lease_seconds, 1, kMaxLeaseSeconds);

  catalog::MaintenanceLoopOptions& m = c.maintenance;
  m.expiry_interval_ms =
      env.Integer("HOGLAKE_EXPIRY_INTERVAL_MS", m.expiry_interval_ms, 0, kMaxIntervalMs);
  m.retirement_interval_ms =
      env.Integer("HOGLAKE_RETIREMENT_INTERVAL_MS", m.retirement_interval_ms, 0, kMaxIntervalMs);
  m.hydrator_interval_ms =
      env.Integer("HOGLAKE_HYDRATOR_INTERVAL_MS", m.hydrator_interval_ms, 0, kMaxIntervalMs);
  m.analyze_interval_ms =
      env.Integer("HOGLAKE_ANALYZE_INTERVAL_MS", m.analyze_interval_ms, 0, kMaxIntervalMs);
  catalog::RetirementOptions& r = m.retirement;
  r.batch = env.Integer("HOGLAKE_RETIREMENT_BATCH", r.batch, 1, kMaxCount);
  r.run_budget_ms =
      env.Integer("HOGLAKE_RETIREMENT_RUN_BUDGET_MS", r.run_budget_ms, 0, kMaxTimeoutMs);
  r.pause_ms = env.Integer("HOGLAKE_RETIREMENT_PAUSE_MS", r.pause_ms, 0, kMaxTimeoutMs);
  r.queue_ceiling =
      env.Integer("HOGLAKE_RETIREMENT_QUEUE_CEILING", r.queue_ceiling, 0, int64_t{1} << 50);

  catalog::HydratorOptions& h = c.hydrator;
  h.batch = env.Integer("HOGLAKE_HYDRATOR_BATCH", h.batch, 1, kMaxCount);
  h.lease_seconds =
      env.Integer("HOGLAKE_HYDRATOR_LEASE_SECONDS", h.lease_seconds, 1, kMaxLeaseSeconds);
  h.claim_timeout_ms =
      env.Integer("HOGLAKE_HYDRATOR_CLAIM_TIMEOUT_MS", h.claim_timeout_ms, 1, kMaxTimeoutMs);
  c.compaction_target_bytes =
      env.Integer("HOGLAKE_COMPACTION_TARGET_BYTES", c.compaction_target_bytes, 2, kMaxBytes);
  c.metrics_sample_interval_ms = env.Integer("HOGLAKE_METRICS_SAMPLE_INTERVAL_MS",
                                             c.metrics_sample_interval_ms, 0, kMaxIntervalMs);

  server::HttpServerOptions& http = c.http;
  http.max_connections =
      static_cast<int>(env.Integer("HOGLAKE_MAX_CONNECTIONS", http.max_connections, 1, 1000000));
  http.max_header_bytes = env.Integer("HOGLAKE_MAX_REQUEST_HEADER_BYTES", http.max_header_bytes,
                                      1024, int64_t{1} << 30);
  http.max_body_bytes =
      env.Integer("HOGLAKE_MAX_REQUEST_BODY_BYTES", http.max_body_bytes, 1, kMaxBytes);
  http.max_body_memory_bytes = env.Integer("HOGLAKE_MAX_REQUEST_BODY_MEMORY_BYTES",
                                           http.max_body_memory_bytes, 1, kMaxBytes);
  http.header_timeout_ms =
      env.Integer("HOGLAKE_HTTP_HEADER_TIMEOUT_MS", http.header_timeout_ms, 1, kMaxTimeoutMs);
  http.keep_alive_timeout_ms = env.Integer("HOGLAKE_HTTP_KEEP_ALIVE_TIMEOUT_MS",
                                           http.keep_alive_timeout_ms, 1, kMaxTimeoutMs);
  c.json_parse_memory_bytes =
      env.Integer("HOGLAKE_MAX_JSON_PARSE_MEMORY_BYTES", c.json_parse_memory_bytes, 1, kMaxBytes);
  c.max_upload_bytes =
      env.Integer("HOGLAKE_MAX_UPLOAD_BYTES", c.max_upload_bytes, 1, kMaxBytes);
  c.load_file_bytes = env.Integer("HOGLAKE_LOAD_FILE_BYTES", c.load_file_bytes, 1, kMaxBytes);
  c.max_concurrent_uploads = static_cast<int>(
      env.Integer("HOGLAKE_MAX_CONCURRENT_UPLOADS", c.max_concurrent_uploads, 1, 100000));

  query::QueryServiceOptions& q = c.query;
  q.workers = static_cast<int>(env.Integer("HOGLAKE_QUERY_WORKERS", q.workers, 1, 1024));
  q.queue_limit =
      static_cast<int>(env.Integer("HOGLAKE_QUERY_QUEUE_LIMIT", q.queue_limit, 0, 1000000));
  q.timeout_ms = env.Integer("HOGLAKE_QUERY_TIMEOUT_MS", q.timeout_ms, 0, kMaxIntervalMs);
  q.memory_budget_bytes =
      env.Integer("HOGLAKE_QUERY_MEMORY_BYTES", q.memory_budget_bytes, 0, kMaxBytes);
  q.footer_cache_bytes =
      env.Integer("HOGLAKE_QUERY_FOOTER_CACHE_BYTES", q.footer_cache_bytes, 0, kMaxBytes);
  q.retention_seconds = env.Integer("HOGLAKE_RESULT_RETENTION_SECONDS", q.retention_seconds, 1,
                                    int64_t{3650} * 24 * 3600);
  q.sweep_interval_ms =
      env.Integer("HOGLAKE_QUERY_SWEEP_INTERVAL_MS", q.sweep_interval_ms, 100, kMaxIntervalMs);
  c.upload_ttl_seconds = env.Integer("HOGLAKE_UPLOAD_TTL_SECONDS", c.upload_ttl_seconds, 1,
                                     int64_t{3650} * 24 * 3600);
  c.query_stale_after_ms =
      env.Integer("HOGLAKE_QUERY_STALE_MS", c.query_stale_after_ms, 300, kMaxTimeoutMs);
  // Three heartbeats fit in the stale limit, so a live run is never taken
  // for an interrupted one.
  q.heartbeat_ms = std::min<int64_t>(q.heartbeat_ms, c.query_stale_after_ms / 3);
  c.results_root = env.Text("HOGLAKE_RESULTS_ROOT");
  c.api_tokens = env.Text("HOGLAKE_API_TOKENS");
  c.api_token_file = env.Text("HOGLAKE_API_TOKEN_FILE");
  c.secret_key = env.Text("HOGLAKE_SECRET_KEY");

  c.data_root = env.Text("HOGLAKE_DATA_ROOT");
  c.allowed_data_paths = env.Text("HOGLAKE_ALLOWED_DATA_PATHS");
  {
    std::istringstream words(env.Text("HOGLAKE_EMBEDDED_PG_SETTINGS"));
    for (std::string word; words >> word;) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos || eq == 0) {
        env.AddError("HOGLAKE_EMBEDDED_PG_SETTINGS", StrCat(": '", word, "' is not name=value"));
      }
      c.embedded_pg_settings.push_back(std::move(word));
    }
  }
  c.pg_bin_dir = env.Text("HOGLAKE_PG_BINDIR");
  c.instance_name = env.Text("HOGLAKE_INSTANCE_NAME");
  c.audit_log = env.Text("HOGLAKE_AUDIT_LOG");
  HOGLAKE_RETURN_IF_ERROR(env.status());
  return c;
}

}  // namespace hoglake::cli
