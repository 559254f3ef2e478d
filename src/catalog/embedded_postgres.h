// The embedded default: a private PostgreSQL server owned by this process.
//
// Start(dir) runs Debian's PostgreSQL 15 binaries on the catalog's behalf:
//   * `initdb` into DIR/pg on first start (superuser "hoglake", trust auth,
//     UTF-8, no TCP listener);
//   * `postgres` listening only on a Unix socket in DIR/run;
//   * a "hoglake" database created on first start.
// When this process runs as root, PostgreSQL runs as the unprivileged
// "postgres" system user (PostgreSQL refuses root), and DIR/pg and DIR/run
// are handed to that user. The server child gets SIGINT (fast shutdown) if
// this process dies, even by SIGKILL, so no orphan holds the data directory;
// a stale postmaster.pid from a crash is handled by PostgreSQL itself.
// Stop() (also run by the destructor) shuts it down cleanly and waits.
#pragma once

#include <sys/types.h>
#include <string>
#include <vector>

#include "common/status.h"

namespace hoglake::catalog {

class EmbeddedPostgres {
 public:
  EmbeddedPostgres() = default;
  EmbeddedPostgres(const EmbeddedPostgres&) = delete;
  EmbeddedPostgres& operator=(const EmbeddedPostgres&) = delete;
  ~EmbeddedPostgres();

  // Initializes (if needed) and starts the server; returns once it accepts
  // connections (or fails with the server's log tail in the message).
  // `settings` ("name=value", each passed as `-c`) come after the server's
  // own (no TCP listener, socket permissions, max_connections=200,
  // synchronous_commit=on), so they override them; a word without a name
  // and '=' is refused before anything is initialized.
  Status Start(const std::string& data_dir, const std::vector<std::string>& settings = {});
  // Fast shutdown; waits up to 30 s, then kills.
  void Stop();

  // libpq connection string for the "hoglake" database.
  const std::string& conninfo() const { return conninfo_; }

 private:
  Status EnsureInitialized();
  Status WaitUntilReady();

  std::string dir_;
  std::string pg_dir_;
  std::string socket_dir_;
  std::string bin_dir_;
  std::string conninfo_;
  pid_t pid_ = -1;
};

}  // namespace hoglake::catalog
