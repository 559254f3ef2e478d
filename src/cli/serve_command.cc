// `hoglake serve`: the control plane.
//
//   hoglake serve [--data-dir DIR] [--listen HOST:PORT] [--database-url URL]
//
// Without --database-url it runs a private PostgreSQL under DIR/pg (the
// embedded default), restarted if it dies (pg/embedded_postgres.h).
// While the database (embedded or external) cannot be reached, requests
// that need it answer 503 database_unavailable with Retry-After: 1 and
// /healthz 503; the pool reconnects by itself once it is back. Migrations
// run at start under an advisory lock. The server stops cleanly on
// SIGINT/SIGTERM (embedded PostgreSQL included). A --listen address other
// than loopback is refused unless --allow-unauthenticated is given (then a
// warning is logged): no request is authenticated yet.
// --ready-file PATH writes the server's base URL to PATH once it accepts
// requests (for scripts and tests; with --listen HOST:0 it names the port
// picked). Every environment variable is read and checked before anything
// starts (serve_config.h; the list: docs/operations.md).
#include <CLI/CLI.hpp>
#include <filesystem>

#include <signal.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog_service.h"
#include "catalog/lake_tables.h"
#include "catalog/maintenance/hydrator.h"
#include "catalog/maintenance/maintenance_loop.h"
#include "catalog/migrations/embedded_migrations.h"
#include "cli/commands.h"
#include "cli/serve_config.h"
#include "common/audit.h"
#include "common/log.h"
#include "common/uuid.h"
#include "pg/embedded_postgres.h"
#include "pg/pg_pool.h"
#include "query/api_tokens.h"
#include "query/federated_connections.h"
#include "query/lake_directory.h"
#include "query/load/table_loader.h"
#include "query/managed_databases.h"
#include "query/query_service.h"
#include "query/server_secrets.h"
#include "query/upload_store.h"
#include "server/http/http_server.h"
#include "server/http/json_body.h"
#include "server/observability/maintenance_reporter.h"
#include "server/observability/metrics_sampler.h"
#include "server/routes.h"
#include "storage/data_path_policy.h"

namespace hoglake::cli {
namespace {

struct ServeOptions {
  std::string data_dir = "hoglake-data";
  std::string listen = "127.0.0.1:8080";
  std::string database_url;
  std::string ready_file;
  int pool_size = 32;
  // Each kept-alive client connection holds a handler thread while it is
  // open (idle ones up to 5 s), so there must be more threads than
  // concurrent clients or new connections wait for an idle one to time out.
  int http_threads = 64;
  // Serve a non-loopback address although no request is authenticated.
  bool allow_unauthenticated = false;
};

// True for addresses only this machine can reach: 127.0.0.0/8, ::1,
// "localhost".
bool IsLoopbackHost(const std::string& host) {
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

Result<std::pair<std::string, int>> ParseListen(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    return InvalidArgument("--listen '", listen, "' must be HOST:PORT");
  }
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  try {
    size_t used = 0;
    const int port = std::stoi(listen.substr(colon + 1), &used);
    if (used != listen.size() - colon - 1 || port < 0 || port > 65535) throw std::out_of_range("");
    return std::make_pair(host, port);
  } catch (const std::exception&) {
    return InvalidArgument("--listen '", listen, "' has an invalid port");
  }
}

// The data directory, absolute and normalized ("" if it cannot be made so).
std::string AbsoluteDataDir(const ServeOptions& options) {
  std::error_code ec;
  const auto dir = std::filesystem::absolute(options.data_dir, ec);
  if (ec) return "";
  std::string text = dir.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// Where new catalogs' data goes (GET /v1/info's data_root): HOGLAKE_DATA_ROOT,
// else DIR/lake/ when embedded, else none.
std::string DataRoot(const ServeOptions& options, const ServeConfig& config) {
  if (!config.data_root.empty()) {
    std::string text = config.data_root;
    if (text.back() != '/') text += '/';
    return text;
  }
  if (!options.database_url.empty()) return "";
  const std::string dir = AbsoluteDataDir(options);
  return dir.empty() ? "" : "file://" + dir + "/lake/";
}

// Where query results go: HOGLAKE_RESULTS_ROOT, else beside the data root
// ("<data root>/../results"), else DIR/results.
Result<std::string> ResultsRoot(const ServeOptions& options, const ServeConfig& config,
                                const std::string& data_root) {
  if (!config.results_root.empty()) return config.results_root;
  if (!data_root.empty()) {
    std::string root = data_root;
    while (!root.empty() && root.back() == '/') root.pop_back();
    const size_t slash = root.rfind('/');
    if (slash != std::string::npos && slash > root.find("://") + 2) {
      return root.substr(0, slash) + "/results";
    }
    return root + "/_results";
  }
  const std::string dir = AbsoluteDataDir(options);
  if (dir.empty()) {
    return InvalidArgument("no place for query results: set HOGLAKE_RESULTS_ROOT");
  }
  return "file://" + dir + "/results";
}

// The data root and HOGLAKE_ALLOWED_DATA_PATHS (URIs separated by commas or
// spaces); the embedded PostgreSQL's data and socket directories are denied.
Result<DataPathPolicy> DataPaths(const ServeOptions& options, const ServeConfig& config,
                                 const std::string& data_root) {
  std::vector<std::string> allowed;
  if (!data_root.empty()) allowed.push_back(data_root);
  for (std::string& uri : DataPathPolicy::SplitList(config.allowed_data_paths)) {
    allowed.push_back(std::move(uri));
  }
  std::vector<std::string> denied;
  if (options.database_url.empty()) {
    if (const std::string dir = AbsoluteDataDir(options); !dir.empty()) {
      denied.push_back(dir + "/pg");
      denied.push_back(dir + "/run");
    }
  }
  Result<DataPathPolicy> policy = DataPathPolicy::Make(allowed, denied);
  if (!policy.ok()) {
    return InvalidArgument("HOGLAKE_DATA_ROOT / HOGLAKE_ALLOWED_DATA_PATHS: ",
                           policy.error().message);
  }
  return policy;
}

Status Serve(const ServeOptions& options) {
  HOGLAKE_ASSIGN_OR_RETURN(auto listen, ParseListen(options.listen));
  EnvReader env;
  HOGLAKE_ASSIGN_OR_RETURN(const ServeConfig config, ReadServeConfig(env));
  ConfigureAuditSink(config.audit_log);
  HOGLAKE_ASSIGN_OR_RETURN(const query::ApiTokens tokens,
                           query::ApiTokens::Load(config.api_tokens, config.api_token_file));
  if (tokens.enabled()) LogInfo(tokens.size(), " API token(s) configured");
  // Without API tokens nothing is authenticated: anyone who can reach the
  // port can change or drop every catalog. Only loopback unless the
  // operator says otherwise.
  const bool loopback = IsLoopbackHost(listen.first);
  if (!loopback && !tokens.enabled()) {
    if (!options.allow_unauthenticated) {
      return InvalidArgument("--listen ", options.listen,
                             " is reachable from other machines, and requests are not "
                             "authenticated: listen on 127.0.0.1, set API tokens "
                             "(HOGLAKE_API_TOKENS), or pass --allow-unauthenticated to serve it "
                             "anyway");
    }
    LogWarn("serving ", options.listen,
            " WITHOUT AUTHENTICATION (--allow-unauthenticated): anyone who reaches this port can "
            "read, change and drop every catalog");
  }
  // Signals are taken synchronously by the main thread only.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // Where catalogs may keep data: the data root plus the operator's list;
  // never the embedded PostgreSQL's own directories.
  const std::string data_root = DataRoot(options, config);
  HOGLAKE_ASSIGN_OR_RETURN(DataPathPolicy data_paths, DataPaths(options, config, data_root));
  LogInfo("catalogs may keep data under: ",
          data_paths.allowed().empty() ? std::string("(nothing: set HOGLAKE_ALLOWED_DATA_PATHS)")
                                       : data_paths.Describe());
  pg::EmbeddedPostgres embedded;
  std::string conninfo = options.database_url;
  if (conninfo.empty()) {
    HOGLAKE_RETURN_IF_ERROR(
        embedded.Start(options.data_dir, config.embedded_pg_settings, config.pg_bin_dir));
    conninfo = embedded.conninfo();
  }
  {
    HOGLAKE_ASSIGN_OR_RETURN(pg::PgConnection conn, pg::PgConnection::Open(conninfo));
    HOGLAKE_ASSIGN_OR_RETURN(int version, pg::Migrate(conn, catalog::EmbeddedMigrations()));
    LogInfo("catalog schema at version ", version);
  }
  pg::PgPool pool(conninfo, options.pool_size);
  // A failed connection makes the supervisor look at its server at once
  // (an external database is not ours to restart).
  if (options.database_url.empty()) pool.SetFailureHook([&embedded] { embedded.CheckSoon(); });
  // Declared before the service so it outlives every commit that reports to it.
  server::Metrics metrics;
  catalog::CatalogServiceOptions service_options;
  service_options.commit_lock_timeout_ms = config.commit_lock_timeout_ms;
  service_options.commit_gather_micros = config.commit_gather_micros;
  service_options.cleanup_claim_lease_seconds = config.cleanup_claim_lease_seconds;
  service_options.commit_lock_observer = [&metrics](double seconds, bool timed_out) {
    metrics.RecordCommitLockWait(seconds, timed_out);
  };
  service_options.commit_batch_observer = [&metrics](size_t requests) {
    metrics.RecordCommitBatch(requests);
  };
  service_options.commit_state_cache = config.commit_state_cache;
  service_options.commit_path_observer = [&metrics](std::string_view path) {
    metrics.AddToCounter(server::metric::kCommitBatches, {{"path", std::string(path)}}, 1);
  };
  service_options.data_paths = data_paths;
  catalog::CatalogService service(&pool, service_options);
  // Declared before the loop so a loop hook may use it (destroyed after).
  catalog::HydratorOptions hydrator_options = config.hydrator;
  hydrator_options.data_paths = data_paths;
  catalog::Hydrator hydrator(&pool, hydrator_options);
  // Declared before the loop, which reports to it until stopped.
  server::MaintenanceReporter reporter(&metrics);
  catalog::MaintenanceLoop maintenance(&service, &pool, config.maintenance, &hydrator);
  maintenance.SetObserver(&reporter);
  maintenance.Start();
  server::MetricsSampler sampler(&pool, &metrics, config.metrics_sample_interval_ms);
  sampler.Start();
  // The query service: runs in the catalog database, results as Parquet
  // under the results root.
  std::unique_ptr<catalog::LakeTables> lake_tables = catalog::LakeTablesOver(service);
  HOGLAKE_ASSIGN_OR_RETURN(const std::string results_root, ResultsRoot(options, config, data_root));
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<query::ResultStore> results,
                           query::ResultStore::Open(results_root));
  query::RunStore runs(&pool, NewUuid(), config.query_stale_after_ms);
  query::QueryService queries(lake_tables.get(), &runs, results.get(), config.query);
  query::ManagedRegistry managed_registry(&pool);
  query::ManagedDatabases managed(&service, &managed_registry, data_root);
  HOGLAKE_ASSIGN_OR_RETURN(
      std::string secret_key,
      query::ConnectionSecretKey(config.secret_key,
                                 tokens.DerivedKey(query::kConnectionSecretsPurpose)));
  query::FederatedConnections federated(&pool, lake_tables.get(), std::move(secret_key));
  query::LakeDirectory directory(lake_tables.get(), &managed_registry, &federated);
  queries.SetSchemaListing(&directory);
  // Uploads for loads into managed tables: rows beside the runs, bytes under
  // <results root>/uploads; a single PUT carries at most one request body,
  // a raw upload (streamed) up to HOGLAKE_MAX_UPLOAD_BYTES.
  HOGLAKE_ASSIGN_OR_RETURN(std::unique_ptr<ObjectStore> upload_objects,
                           OpenObjectStore(results->root() + "/uploads", config.query.s3));
  query::UploadStoreOptions upload_options;
  upload_options.max_single_bytes = config.http.max_body_bytes;
  upload_options.pending_ttl_seconds = config.upload_ttl_seconds;
  // Shared by every replica on this database, so any of them accepts a
  // presigned PUT another minted.
  HOGLAKE_ASSIGN_OR_RETURN(upload_options.signing_key,
                           query::SharedSecret(&pool, "upload_signing"));
  upload_options.max_raw_bytes = config.max_upload_bytes;
  upload_options.max_concurrent_transfers = config.max_concurrent_uploads;
  query::UploadStore uploads(&pool, std::move(upload_objects), upload_options);
  query::LoadFileOptions load_files;
  load_files.target_file_bytes = config.load_file_bytes;
  query::TableLoader loader(&managed, &uploads, &runs, results.get(), config.query.s3, load_files);
  queries.AddSweep([&uploads] {
    Result<int64_t> expired = uploads.ExpirePending();
    if (expired.ok() && *expired > 0) LogInfo("removed ", *expired, " expired upload(s)");
  });
  queries.Start();
  LogInfo("query results go under ", results_root);
  server::ServerContext context;
  context.query = &queries;
  context.directory = &directory;
  context.managed = &managed;
  context.federated = &federated;
  context.uploads = &uploads;
  context.loader = &loader;
  context.tokens = &tokens;
  context.catalog_routes_open = loopback;
  context.maintenance_observer = &reporter;
  context.metrics_sampler = &sampler;
  context.catalogs = &service;
  context.hydrator = &hydrator;
  context.maintenance_status.compaction_target_bytes = config.compaction_target_bytes;
  context.maintenance_status.loops = maintenance.intervals();
  context.metrics = &metrics;
  context.version = HOGLAKE_VERSION;
  context.instance_name = config.instance_name;
  context.data_root = data_root;
  server::Router router;
  server::RegisterRoutes(router, context);

  // Front-end limits from the environment (http_server.h); the defaults
  // suit one machine.
  server::HttpServerOptions http_options = config.http;
  http_options.host = listen.first;
  http_options.port = listen.second;
  http_options.threads = options.http_threads;
  http_options.admission_ms = service_options.commit_lock_timeout_ms;
  // Parsed JSON bodies cost up to ~17× their text; all of them at once are
  // bounded (json_body.h).
  server::JsonBody::SetParseMemoryBudget(config.json_parse_memory_bytes);
  server::HttpServer http(&router, &metrics, http_options);
  HOGLAKE_ASSIGN_OR_RETURN(int port, http.Bind());
  const std::string url = "http://" + listen.first + ":" + std::to_string(port);
  std::thread serving([&http] { http.Serve(); });
  LogInfo("hoglake ", HOGLAKE_VERSION, " serving on ", url,
          options.database_url.empty() ? " (embedded PostgreSQL)" : "");
  if (!options.ready_file.empty()) {
    std::ofstream ready(options.ready_file + ".tmp");
    ready << url << "\n";
    ready.close();
    std::rename((options.ready_file + ".tmp").c_str(), options.ready_file.c_str());
  }
  int received = 0;
  sigwait(&signals, &received);
  LogInfo("received ", received == SIGINT ? "SIGINT" : "SIGTERM", ", shutting down");
  http.Stop();
  serving.join();
  queries.Stop();
  maintenance.Stop();
  sampler.Stop();
  embedded.Stop();
  return Status::Ok();
}

}  // namespace

void RegisterServeCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<ServeOptions>();
  auto* serve = app.add_subcommand("serve", "Run the catalog server (hoglake REST contract v1)");
  serve
      ->add_option("--data-dir", options->data_dir,
                   "Directory for the embedded PostgreSQL and local data")
      ->capture_default_str();
  serve->add_option("--listen", options->listen, "HOST:PORT to listen on (port 0 picks one)")
      ->capture_default_str();
  serve->add_option("--database-url", options->database_url,
                    "PostgreSQL URL of an external catalog database (no embedded server)");
  serve->add_option("--ready-file", options->ready_file,
                    "Write the base URL to this file once serving");
  serve->add_option("--http-threads", options->http_threads, "HTTP handler threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  serve->add_flag("--allow-unauthenticated", options->allow_unauthenticated,
                  "Listen on a non-loopback address although requests are not authenticated");
  serve->add_option("--pool-size", options->pool_size, "PostgreSQL connections")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  serve->callback([options, &context] {
    Status status = Serve(*options);
    if (!status.ok()) {
      LogError(status.ToString());
      context.exit_code = 1;
    }
  });
}

}  // namespace hoglake::cli
