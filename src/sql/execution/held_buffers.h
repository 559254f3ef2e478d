// HeldBuffers: the memory an operator pins, counted once per buffer against
// the run's budget. A scan hands out zero-copy slices of its decoded row
// groups, so counting every batch's buffers in full would charge a row
// group once per morsel; here a buffer is charged when the first batch
// holding it is held and released when the last one is dropped.
// Thread-safe: workers hold and drop batches concurrently.
//
// ScopedReservation: scratch bytes (not buffers) reserved until it goes.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "columnar/array.h"
#include "sql/execution/operator.h"

namespace hoglake::sql {

class HeldBuffers {
 public:
  explicit HeldBuffers(ExecContext& ctx) : ctx_(ctx) {}
  ~HeldBuffers();
  HeldBuffers(const HeldBuffers&) = delete;
  HeldBuffers& operator=(const HeldBuffers&) = delete;

  // Pins the buffers of `batch`, reserving those not pinned yet; past the
  // budget fails with 53200 and pins nothing.
  Status Hold(const columnar::RecordBatch& batch);
  // Unpins what Hold pinned for `batch`; a buffer no batch holds any more
  // is released.
  void Drop(const columnar::RecordBatch& batch);

  int64_t bytes() const;

 private:
  struct Pin {
    int64_t holders = 0;
    int64_t size = 0;
  };

  ExecContext& ctx_;
  mutable std::mutex mu_;
  std::unordered_map<const columnar::Buffer*, Pin> pins_;
  int64_t bytes_ = 0;
};

class ScopedReservation {
 public:
  explicit ScopedReservation(ExecContext& ctx) : ctx_(ctx) {}
  ~ScopedReservation() { ctx_.Release(bytes_); }
  ScopedReservation(const ScopedReservation&) = delete;
  ScopedReservation& operator=(const ScopedReservation&) = delete;

  // Reserves `bytes` more; past the budget fails with 53200.
  Status Add(int64_t bytes) {
    HOGLAKE_RETURN_IF_ERROR(ctx_.Reserve(bytes));
    bytes_ += bytes;
    return Status::Ok();
  }

 private:
  ExecContext& ctx_;
  int64_t bytes_ = 0;
};

}  // namespace hoglake::sql
