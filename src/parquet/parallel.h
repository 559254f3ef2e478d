// Bounded fork/join parallelism for the Parquet reader and writer.
//
//   ParallelFor(n, threads, [&](int64_t i, int slot) { ... });
//
// calls fn(i, slot) once for every i in [0, n) and returns when all calls
// have finished. At most `threads` calls run at a time; `slot` (in
// [0, threads)) names the running caller, so fn can keep per-slot scratch
// without locking. Indices are handed out in increasing order, each to the
// first free caller. The calling thread always works (slot 0): helpers come
// from a small process-wide pool, and a helper that has not started by the
// time the work runs out is dropped instead of waited for, so a busy pool
// only costs parallelism, never progress. With threads <= 1 or n <= 1 every
// call runs inline, in index order. fn must not throw and must not call
// ParallelFor itself.
//
// ResolveThreads maps an option value to a thread count: 0 means the
// default (hardware concurrency, capped at kMaxThreads), anything else is
// clamped to [1, kMaxThreads].
#pragma once

#include <cstdint>
#include <functional>

namespace hoglake::parquet {

inline constexpr int kMaxThreads = 8;

int ResolveThreads(int requested);

void ParallelFor(int64_t n, int threads, const std::function<void(int64_t index, int slot)>& fn);

}  // namespace hoglake::parquet
