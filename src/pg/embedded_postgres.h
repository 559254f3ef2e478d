// The embedded default: a private PostgreSQL server owned and supervised by
// this process.
//
// Start(dir) runs Debian's PostgreSQL 15 binaries on the catalog's behalf:
//   * `initdb` into DIR/pg on first start (superuser "hoglake", trust auth,
//     UTF-8, no TCP listener);
//   * `postgres` listening only on a Unix socket in DIR/run;
//   * a "hoglake" database created on first start.
// When this process runs as root, PostgreSQL runs as the unprivileged
// "postgres" system user (PostgreSQL refuses root), and DIR/pg and DIR/run
// are handed to that user. The server child gets SIGINT (fast shutdown) if
// this process dies, even by SIGKILL, so no orphan holds the data directory.
//
// Supervision. Once started, a supervisor thread watches the postmaster:
// it reaps it (it is our child) every kPollInterval, and at once after
// CheckSoon() (the connection pool calls it when a connection fails). When
// the postmaster has died it is started again — PostgreSQL's crash recovery
// runs on start — after a delay that doubles from kFirstRestartDelay up to
// kMaxRestartDelay while attempts fail, or while the server keeps dying
// within kStableAfter of its last start (otherwise the delay starts afresh).
// Every death, attempt and restart is logged. Before an attempt the
// postmaster.pid the dead server left is looked at: while its pid is a live
// process of this data directory, or processes of the old server are still
// attached to the shared memory it names (backends that have not yet seen
// their postmaster die), nothing is started — never two servers on one data
// directory — and the attempt counts as failed; once neither holds, the
// stale postmaster.pid (and the socket's lock file) is removed. Meanwhile
// connections fail with kDatabaseUnavailable and the pool heals by itself
// once the server is back.
//
// Stop() (also run by the destructor) ends supervision, also while a
// restart is pending or under way, then shuts the server down cleanly and
// waits.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"

namespace hoglake::pg {

// Where Debian installs the PostgreSQL 15 server binaries.
inline constexpr const char* kDefaultPgBinDir = "/usr/lib/postgresql/15/bin";

class EmbeddedPostgres {
 public:
  static constexpr std::chrono::milliseconds kPollInterval{250};
  static constexpr std::chrono::milliseconds kFirstRestartDelay{250};
  static constexpr std::chrono::milliseconds kMaxRestartDelay{10000};
  static constexpr std::chrono::seconds kStableAfter{30};

  EmbeddedPostgres() = default;
  EmbeddedPostgres(const EmbeddedPostgres&) = delete;
  EmbeddedPostgres& operator=(const EmbeddedPostgres&) = delete;
  ~EmbeddedPostgres();

  // Initializes (if needed) and starts the server, then supervises it;
  // returns once it accepts connections (or fails with the server's log tail
  // in the message). `settings` ("name=value", each passed as `-c`) come
  // after the server's own (no TCP listener, socket permissions,
  // max_connections=200, synchronous_commit=on), so they override them; a
  // word without a name and '=' is refused before anything is initialized.
  // `bin_dir` holds the server binaries (empty: kDefaultPgBinDir).
  Status Start(const std::string& data_dir, const std::vector<std::string>& settings = {},
               const std::string& bin_dir = "");
  // Ends supervision, then fast shutdown; waits up to 30 s, then kills.
  void Stop();
  // Asks the supervisor to look at the postmaster now rather than at its
  // next poll (a connection failed). Cheap; callable from any thread.
  void CheckSoon();

  // libpq connection string for the "hoglake" database.
  const std::string& conninfo() const { return conninfo_; }
  // The conninfo of the catalog database of an embedded PostgreSQL started
  // (by this or another process) with `data_dir`.
  static std::string ConninfoFor(const std::string& data_dir);
  // How many times the server was restarted after dying.
  int restarts() const { return restarts_.load(); }

 private:
  Status EnsureInitialized();
  // Spawns the postmaster and waits until it accepts connections; on
  // failure no child is left running.
  Status Launch();
  Status WaitUntilReady();
  // Refuses while the data directory's postmaster.pid names a live server
  // or attached shared memory; removes a stale one.
  Status ClearStaleLockFiles();
  // The supervisor thread's body, and one restart with backoff.
  void Supervise();
  bool Restart(std::chrono::milliseconds* delay);
  // Reaps the postmaster if it exited; how it ended, or "" while it runs.
  std::string Reap();
  bool stopping();
  // Fast shutdown of the current child (if any) and wait.
  void StopChild();

  std::string dir_;
  std::string pg_dir_;
  std::string socket_dir_;
  std::string bin_dir_;
  std::string log_path_;
  std::string conninfo_;
  std::vector<std::string> server_argv_;
  // The running postmaster (-1: none). Written by Start, then only by the
  // supervisor thread, then by Stop once the supervisor has ended.
  pid_t pid_ = -1;
  std::atomic<int> restarts_{0};
  std::thread supervisor_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;   // guarded by mutex_
  bool check_now_ = false;  // guarded by mutex_
};

}  // namespace hoglake::pg
