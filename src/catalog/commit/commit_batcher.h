// CommitBatcher: in-process group commit of concurrent requests to ONE
// catalog (issue 7, "append contention").
//
// Contract:
//  * Requests are grouped per key (the catalog id). The first request to
//    arrive while no batch runs for its key becomes the leader; requests
//    arriving while a batch is open (the leader has not drained the queue
//    yet) or running queue behind it.
//  * The leader calls the runner on its own thread. The runner calls drain()
//    to take the batch (commit.cc does so just before it asks PostgreSQL
//    for the catalog commit lock): every queued request in arrival order, up to
//    `max_requests` requests and `max_weight` total weight (the first request
//    is always taken, whatever its weight). Requests arriving after the drain
//    wait for the next batch. The runner must set every drained request's
//    result before it returns; results are released to their callers only
//    then, so nothing is acknowledged before the batch's COMMIT returned.
//  * When a batch ends, the oldest queued request (if any) becomes the next
//    leader. A request with nobody ahead of it and no batch before it runs at
//    once, alone.
//  * Wake-ups: a waiting request sleeps on a semaphore of its own, posted
//    exactly once (its batch ended, or it leads the next) after the mutex is
//    released, so a woken writer never queues on the mutex behind the rest
//    of its batch; a gathering drain is woken once, by the arrival that
//    completes its target.
//  * Gathering: when a batch ends, the requests it answered plus those
//    queued behind it are the key's recent writers, and most come straight
//    back with their next commit. So the next drain waits — at most
//    `gather_micros`, and only while fewer than that many are queued — for
//    them, instead of starting at once with half of them (writers would
//    otherwise settle into two alternating half-size batches). The target
//    follows the last batch, so it shrinks as writers leave; a key with one
//    writer never waits. 0 turns gathering off. (A key's queue therefore
//    stays once created, idle, to keep its target: one per catalog that
//    committed in this process.)
//  * Batches of different keys run concurrently; batches of one key never
//    overlap in this process. Across processes the catalog's advisory lock
//    (taken by the runner) still serializes them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include <semaphore.h>

#include "catalog/commit/commit_batch.h"
#include "catalog/commit/commit_scope.h"

namespace hoglake::catalog {

class CommitBatcher {
 public:
  // One queued request: what the runner executes, and where it puts the
  // outcome.
  struct Request {
    Request() { sem_init(&wake, 0, 0); }
    ~Request() { sem_destroy(&wake); }
    Request(const Request&) = delete;
    Request& operator=(const Request&) = delete;

    // The request's commit, driven by the runner (commit_batch.h); the
    // runner moves its result here.
    BatchMember* member = nullptr;
    int64_t weight = 1;
    std::optional<Result<CommitResult>> result;

   private:
    friend class CommitBatcher;
    // Set under the batcher's mutex before `wake` is posted.
    bool done = false;
    bool lead = false;
    // POSIX semaphores may be destroyed as soon as the wait returns, even
    // while the post that ended it is still returning.
    sem_t wake;
  };
  using Drain = std::function<std::vector<Request*>()>;
  using Runner = std::function<void(const Drain& drain)>;

  CommitBatcher(size_t max_requests, int64_t max_weight, int64_t gather_micros = 0)
      : max_requests_(max_requests), max_weight_(max_weight), gather_micros_(gather_micros) {}
  CommitBatcher(const CommitBatcher&) = delete;
  CommitBatcher& operator=(const CommitBatcher&) = delete;

  // Queues `request` under `key` and blocks until its batch finished; returns
  // its result. `runner` is used if this request ends up leading a batch.
  Result<CommitResult> Submit(int64_t key, Request& request, const Runner& runner);

 private:
  struct Queue {
    std::deque<Request*> waiting;
    bool running = false;
    // Requests the next drain gathers (the last batch's plus those queued
    // when it ended); 0 before the key's first batch ended.
    size_t gather_target = 0;
    // While a drain waits on `arrivals`: the queue length it waits for.
    size_t gathering_for = 0;
    std::condition_variable arrivals;
  };

  const size_t max_requests_;
  const int64_t max_weight_;
  const int64_t gather_micros_;
  std::mutex mutex_;
  std::map<int64_t, Queue> queues_;
};

}  // namespace hoglake::catalog
