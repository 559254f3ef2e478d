// A bounded pool of PostgreSQL connections shared by request threads.
//
//   HOGLAKE_ASSIGN_OR_RETURN(PgPool::Lease conn, pool.Acquire());
//   conn->Exec(...);              // returned to the pool when `conn` dies
//
// Connections are opened lazily up to `max_size`. Acquire() waits up to
// `acquire_timeout_ms` for a free one, then fails with kUnavailable; a
// connection that cannot be opened fails with kDatabaseUnavailable. Broken
// connections are dropped on return, and an idle one the database closed
// meanwhile is dropped (and replaced) on Acquire, so the pool heals by
// itself after a database restart: no request is handed a dead connection
// left over from before it. The failure hook (SetFailureHook), if any, is
// called, without the pool's lock, whenever a connection could not be
// opened or was found broken — the embedded database's supervisor uses it
// to look at its server at once. Thread-safe.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pg/pg_connection.h"

namespace hoglake::pg {

class PgPool {
 public:
  PgPool(std::string conninfo, int max_size, int acquire_timeout_ms = 5000);
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), conn_(std::move(other.conn_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    PgConnection* operator->() { return conn_.get(); }
    PgConnection& operator*() { return *conn_; }

   private:
    friend class PgPool;
    Lease(PgPool* pool, std::unique_ptr<PgConnection> conn) : pool_(pool), conn_(std::move(conn)) {}
    PgPool* pool_;
    std::unique_ptr<PgConnection> conn_;
  };

  Result<Lease> Acquire();
  const std::string& conninfo() const { return conninfo_; }
  void SetFailureHook(std::function<void()> hook);

 private:
  void Release(std::unique_ptr<PgConnection> conn);
  void ReportFailure();

  const std::string conninfo_;
  const int max_size_;
  const int acquire_timeout_ms_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;  // connections handed out or idle
  std::function<void()> failure_hook_;
};

}  // namespace hoglake::pg
