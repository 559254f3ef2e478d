#include "pg/pg_pool.h"

#include <chrono>

namespace hoglake::pg {

PgPool::PgPool(std::string conninfo, int max_size, int acquire_timeout_ms)
    : conninfo_(std::move(conninfo)),
      max_size_(max_size),
      acquire_timeout_ms_(acquire_timeout_ms) {}

PgPool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->Release(std::move(conn_));
}

void PgPool::SetFailureHook(std::function<void()> hook) {
  std::lock_guard lock(mutex_);
  failure_hook_ = std::move(hook);
}

void PgPool::ReportFailure() {
  std::function<void()> hook;
  {
    std::lock_guard lock(mutex_);
    hook = failure_hook_;
  }
  if (hook) hook();
}

Result<PgPool::Lease> PgPool::Acquire() {
  std::unique_lock lock(mutex_);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(acquire_timeout_ms_);
  while (true) {
    while (idle_.empty() && open_ >= max_size_) {
      if (available_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
          open_ >= max_size_) {
        return Unavailable("no PostgreSQL connection became free within ", acquire_timeout_ms_,
                           " ms (pool size ", max_size_, ")");
      }
    }
    if (idle_.empty()) break;
    std::unique_ptr<PgConnection> conn = std::move(idle_.back());
    idle_.pop_back();
    lock.unlock();
    // A connection the database closed while it sat idle (the server was
    // restarted, or crashed) is dropped here rather than failing the request.
    if (conn->Alive()) return Lease(this, std::move(conn));
    conn.reset();
    ReportFailure();
    lock.lock();
    --open_;
  }
  ++open_;
  lock.unlock();
  Result<PgConnection> conn = PgConnection::Open(conninfo_);
  if (!conn.ok()) {
    {
      std::lock_guard relock(mutex_);
      --open_;
      available_.notify_one();
    }
    ReportFailure();
    return conn.error();
  }
  return Lease(this, std::make_unique<PgConnection>(std::move(conn).value()));
}

void PgPool::Release(std::unique_ptr<PgConnection> conn) {
  const bool broken = !conn || conn->broken();
  {
    std::lock_guard lock(mutex_);
    if (!broken) {
      idle_.push_back(std::move(conn));
    } else {
      --open_;
    }
    available_.notify_one();
  }
  if (broken) ReportFailure();
}

}  // namespace hoglake::pg
