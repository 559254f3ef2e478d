#include "common/config.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "common/status.h"

namespace hoglake {
namespace {

constexpr std::array kVariables = {
    EnvVariable{"AWS_ACCESS_KEY_ID", "(none)",
                "S3 access key id, when a store's configuration names no credentials"},
    EnvVariable{"AWS_DEFAULT_REGION", "us-east-1", "S3 region when AWS_REGION is unset"},
    EnvVariable{"AWS_ENDPOINT_URL", "(none)", "S3 endpoint when AWS_ENDPOINT_URL_S3 is unset"},
    EnvVariable{"AWS_ENDPOINT_URL_S3", "(none)",
                "S3 endpoint (an S3-compatible server); default: AWS"},
    EnvVariable{"AWS_REGION", "us-east-1", "S3 region"},
    EnvVariable{"AWS_SECRET_ACCESS_KEY", "(none)", "S3 secret access key"},
    EnvVariable{"AWS_SESSION_TOKEN", "(none)", "S3 session token"},
    EnvVariable{"HOGLAKE_ALLOWED_DATA_PATHS", "(none)",
                "data path roots catalogs may use besides the data root: file:///dir/ and "
                "s3://bucket[/prefix]/ URIs separated by commas or spaces"},
    EnvVariable{"HOGLAKE_ANALYZE_INTERVAL_MS", "10000",
                "how often the catalog tables' planner statistics are refreshed (0 = off)"},
    EnvVariable{"HOGLAKE_API_TOKEN", "(none)",
                "the API token the hoglake CLI sends to the server (Authorization: Bearer)"},
    EnvVariable{"HOGLAKE_API_TOKENS", "(none)",
                "API tokens (at least 16 characters each, separated by commas or spaces) the query "
                "API accepts as Authorization: Bearer; set, they are required (catalog routes too "
                "when not on loopback)"},
    EnvVariable{"HOGLAKE_API_TOKEN_FILE", "(none)",
                "a file of API tokens, one per line (# comments), added to HOGLAKE_API_TOKENS"},
    EnvVariable{"HOGLAKE_AUDIT_LOG", "-",
                "where audit lines go: a file to append to, - for standard error, off"},
    EnvVariable{"HOGLAKE_CLEANUP_CLAIM_LEASE_SECONDS", "900",
                "how long a cleanup claim keeps other workers off its paths"},
    EnvVariable{"HOGLAKE_COMMIT_GATHER_US", "1000",
                "how long a group-commit batch waits for recent writers (0 = off)"},
    EnvVariable{"HOGLAKE_COMMIT_LOCK_TIMEOUT_MS", "30000",
                "bound on waiting for a catalog's commit lock (0 = unbounded)"},
    EnvVariable{"HOGLAKE_COMMIT_STATE_CACHE", "1",
                "whether a batch may write on the state its catalog's last batch left"},
    EnvVariable{"HOGLAKE_COMPACTION_TARGET_BYTES", "536870912",
                "the compaction target GET .../maintenance/status reports"},
    EnvVariable{"HOGLAKE_DATA_ROOT", "file://DIR/lake/ (embedded)",
                "where new catalogs' data goes (GET /v1/info's data_root)"},
    EnvVariable{"HOGLAKE_EMBEDDED_PG_SETTINGS", "(none)",
                "name=value settings passed to the embedded PostgreSQL"},
    EnvVariable{"HOGLAKE_EXPIRY_INTERVAL_MS", "60000",
                "cadence of the background expiry and cleanup sweep (0 = off)"},
    EnvVariable{"HOGLAKE_HISTORY", "~/.hoglake_history",
                "the history file of `hoglake sql`'s interactive prompt"},
    EnvVariable{"HOGLAKE_HTTP_HEADER_TIMEOUT_MS", "10000",
                "time a client has to send a request's headers (else 408)"},
    EnvVariable{"HOGLAKE_HTTP_KEEP_ALIVE_TIMEOUT_MS", "60000",
                "how long an idle kept-alive connection stays open"},
    EnvVariable{"HOGLAKE_HYDRATOR_BATCH", "1000", "files per deferred-stats hydration sweep"},
    EnvVariable{"HOGLAKE_HYDRATOR_CLAIM_TIMEOUT_MS", "10000",
                "statement timeout of one catalog's hydration claim"},
    EnvVariable{"HOGLAKE_HYDRATOR_INTERVAL_MS", "900000",
                "cadence of deferred-stats hydration (0 = off)"},
    EnvVariable{"HOGLAKE_HYDRATOR_LEASE_SECONDS", "900",
                "how long a hydration claim keeps other servers off a file"},
    EnvVariable{"HOGLAKE_INSTANCE_NAME", "(none)", "this server's name in GET /v1/info"},
    EnvVariable{"HOGLAKE_LOAD_FILE_BYTES", "536870912",
                "size at which a load into a managed table closes a data file and starts the "
                "next"},
    EnvVariable{"HOGLAKE_MAX_CONCURRENT_UPLOADS", "8",
                "upload bodies (POST /v1/files, presigned PUTs) streamed at once; more are "
                "refused with 429 OVERLOADED"},
    EnvVariable{"HOGLAKE_MAX_CONNECTIONS", "4096",
                "open client connections (at the bound the oldest idle one is closed, "
                "else the new one is refused)"},
    EnvVariable{"HOGLAKE_MAX_JSON_PARSE_MEMORY_BYTES", "1073741824",
                "memory all parsed JSON bodies may hold at once (else 503)"},
    EnvVariable{"HOGLAKE_MAX_REQUEST_BODY_BYTES", "67108864", "largest request body (else 413)"},
    EnvVariable{"HOGLAKE_MAX_REQUEST_BODY_MEMORY_BYTES", "536870912",
                "memory all request bodies being read may hold at once (else 503)"},
    EnvVariable{"HOGLAKE_MAX_REQUEST_HEADER_BYTES", "65536",
                "largest request header block (else 431)"},
    EnvVariable{"HOGLAKE_MAX_UPLOAD_BYTES", "17179869184",
                "largest raw upload (POST /v1/files), streamed to storage (else 413)"},
    EnvVariable{"HOGLAKE_METRICS_SAMPLE_INTERVAL_MS", "15000",
                "cadence of the catalog gauges' sampler (0 = off)"},
    EnvVariable{"HOGLAKE_PG_BINDIR", "/usr/lib/postgresql/15/bin",
                "where the embedded PostgreSQL's server binaries are"},
    EnvVariable{"HOGLAKE_QUERY_FOOTER_CACHE_BYTES", "67108864",
                "memory the query service's cache of parsed Parquet footers may hold, shared by "
                "all SQL queries (least recently used evicted first; 0 = no cache)"},
    EnvVariable{"HOGLAKE_QUERY_MEMORY_BYTES", "0",
                "memory one SQL query may hold in hash tables, sorts and joins, past which it "
                "fails with 53200 (0 = a quarter of RAM)"},
    EnvVariable{"HOGLAKE_QUERY_QUEUE_LIMIT", "64",
                "SQL queries that may wait for a worker beyond those running; more are refused "
                "with 429 OVERLOADED"},
    EnvVariable{"HOGLAKE_QUERY_STALE_MS", "15000",
                "a query run whose server has not reported for this long is taken as interrupted "
                "and marked failed"},
    EnvVariable{"HOGLAKE_QUERY_SWEEP_INTERVAL_MS", "60000",
                "cadence of the query service's sweep: interrupted runs failed, expired results "
                "and unfinalized uploads removed"},
    EnvVariable{"HOGLAKE_QUERY_TIMEOUT_MS", "3600000",
                "longest a SQL query may run before its run fails (0 = no limit)"},
    EnvVariable{"HOGLAKE_QUERY_WORKERS", "4", "SQL queries the query service runs at once"},
    EnvVariable{"HOGLAKE_RESULTS_ROOT", "results/ beside the data root",
                "where query results are stored as Parquet (a file:// or s3:// URI)"},
    EnvVariable{"HOGLAKE_RESULT_RETENTION_SECONDS", "604800",
                "how long query results are kept before they and their files are removed"},
    EnvVariable{"HOGLAKE_RETIREMENT_BATCH", "8000",
                "dropped tables' file rows retired per batch transaction"},
    EnvVariable{"HOGLAKE_RETIREMENT_INTERVAL_MS", "0",
                "cadence of retiring dropped tables' files (0 = off)"},
    EnvVariable{"HOGLAKE_RETIREMENT_PAUSE_MS", "750", "pause between two retirement batches"},
    EnvVariable{"HOGLAKE_RETIREMENT_QUEUE_CEILING", "500000",
                "undrained removal-queue rows above which a retirement run skips"},
    EnvVariable{"HOGLAKE_RETIREMENT_RUN_BUDGET_MS", "60000",
                "wall clock of one retirement run; no batch starts after it"},
    EnvVariable{"HOGLAKE_SECRET_KEY", "(none)",
                "a passphrase (at least 16 characters) whose SHA-256 seals federated connections' "
                "passwords (AES-256-GCM); unset, a key derived from the API tokens; with neither, "
                "connections with a password are refused"},
    EnvVariable{"HOGLAKE_UPLOAD_TTL_SECONDS", "86400",
                "how long an upload may stay unfinalized before it and its parts are removed"},
    EnvVariable{"HOGLAKE_URL", "http://127.0.0.1:8080", "the server the hoglake CLI talks to"},
};

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool Blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

}  // namespace

std::span<const EnvVariable> EnvironmentVariables() { return kVariables; }

EnvReader::EnvReader()
    : EnvReader([](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
      }) {}

EnvReader::EnvReader(Lookup lookup) : lookup_(std::move(lookup)) {}

std::optional<std::string> EnvReader::Get(std::string_view name) {
  const bool known = std::any_of(kVariables.begin(), kVariables.end(),
                                 [&](const EnvVariable& v) { return v.name == name; });
  if (!known) {
    AddError(name, "is read but not listed in EnvironmentVariables() (common/config.cc)");
    return std::nullopt;
  }
  std::optional<std::string> value = lookup_(name);
  if (!value.has_value() || Blank(*value)) return std::nullopt;
  return value;
}

int64_t EnvReader::Integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) {
  const std::optional<std::string> value = Get(name);
  if (!value.has_value()) return fallback;
  std::string_view text = *value;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t parsed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (ec == std::errc::result_out_of_range) {
    AddError(name, StrCat("='", *value, "' is out of range (", min, "..", max, ")"));
    return fallback;
  }
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    AddError(name, StrCat("='", *value, "' is not an integer"));
    return fallback;
  }
  if (parsed < min || parsed > max) {
    AddError(name, StrCat("=", parsed, " is out of range (", min, "..", max, ")"));
    return fallback;
  }
  return parsed;
}

bool EnvReader::Boolean(std::string_view name, bool fallback) {
  const std::optional<std::string> value = Get(name);
  if (!value.has_value()) return fallback;
  const std::string word = Lower(*value);
  if (word == "1" || word == "true" || word == "yes" || word == "on") return true;
  if (word == "0" || word == "false" || word == "no" || word == "off") return false;
  AddError(name, StrCat("='", *value, "' is not a boolean (1/0, true/false, yes/no, on/off)"));
  return fallback;
}

std::string EnvReader::Text(std::string_view name, std::string fallback) {
  std::optional<std::string> value = Get(name);
  return value.has_value() ? std::move(*value) : std::move(fallback);
}

void EnvReader::AddError(std::string_view name, std::string_view message) {
  const bool joined = message.starts_with("=") || message.starts_with(":");
  errors_.push_back(StrCat(name, joined ? "" : " ", message));
}

Status EnvReader::status() const {
  if (errors_.empty()) return Status::Ok();
  std::string joined;
  for (const std::string& error : errors_) {
    if (!joined.empty()) joined += "; ";
    joined += error;
  }
  return InvalidArgument("invalid environment: ", joined);
}

}  // namespace hoglake
