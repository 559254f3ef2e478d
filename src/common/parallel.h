// The process's one task scheduler: bounded fork/join over a shared pool of
// helper threads, for CPU work (Parquet decoding and encoding, and the SQL
// engine's morsels to come) and for I/O fan-out (object deletes, uploads,
// expiry's purge shards) alike.
//
//   ParallelFor(n, threads, [&](int64_t i, int slot) { ... });
//
// calls fn(i, slot) once for every i in [0, n) and returns when all calls
// have finished. At most `threads` calls run at a time; `slot` (in
// [0, threads)) names the running caller, so fn can keep per-slot state
// (scratch buffers, a database connection) without locking. Indices are
// handed out in increasing order, each to the first free caller. The calling
// thread always works (slot 0); helpers come from one process-wide pool of at
// most kMaxPoolThreads threads, created on demand, and a helper that has not
// started by the time the work runs out is dropped instead of waited for.
// So:
//   - nesting is safe: fn may call ParallelFor itself; an inner call whose
//     helpers are all busy runs on its caller alone, never waits for them,
//     and so can neither deadlock nor push the process past the pool's
//     threads (a busy pool costs parallelism, never progress);
//   - with threads <= 1 or n <= 1 every call runs inline, in index order.
//
// An exception thrown by fn stops new indices being handed out (calls
// already running finish) and is rethrown to the caller after the others
// return; ParallelForStatus does the same for the first failed Status
// (cancellation: nothing after the first failure starts).
//
// ResolveThreads maps a CPU-work option to a thread count: 0 means the
// default (hardware concurrency, capped at kMaxThreads), anything else is
// clamped to [1, kMaxThreads]. I/O fan-out passes its own count (up to
// kMaxPoolThreads + 1 run at once).
#pragma once

#include <cstdint>
#include <functional>

#include "common/status.h"

namespace hoglake {

inline constexpr int kMaxThreads = 8;
inline constexpr int kMaxPoolThreads = 31;

int ResolveThreads(int requested);

void ParallelFor(int64_t n, int threads, const std::function<void(int64_t index, int slot)>& fn);

Status ParallelForStatus(int64_t n, int threads,
                         const std::function<Status(int64_t index, int slot)>& fn);

}  // namespace hoglake
