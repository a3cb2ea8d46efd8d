// Where a blocking job runs relative to the loop under test, and how its completion comes back:
// always as a callback on the loop thread, as a Node program sees it.
//
//   run_on_pool        libuv's thread pool (uv_queue_work), as Node's own offloaded builtins do
//   run_on_new_thread  a thread started for this one job, as `new Worker()` per request does:
//                      thread start and the hop back are part of what the caller waits for
//   WorkerPool         threads started once and fed from one queue, as a worker pool is
//   run_in_slices      on the loop itself, one slice per loop turn, yielding between slices as
//                      `await setImmediate()` does
#pragma once

#include <uv.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace stallbench {

using Work = std::function<void()>;
using Done = std::function<void(std::exception_ptr)>;  // null when the work succeeded

void run_on_pool(uv_loop_t* loop, Work work, Done done);
void run_on_new_thread(uv_loop_t* loop, Work work, Done done);

class WorkerPool;

// Where a whole job runs: on the loop itself (`done` is then called before this returns, with the
// job's exception if it threw), on libuv's pool, on a new thread, or on `workers`.
enum class Placement { loop, libuv_pool, new_thread, worker_pool };
void run_placed(uv_loop_t* loop, Placement placement, WorkerPool* workers, Work work, Done done);

// `step` does one slice and returns true when nothing is left. The first slice runs at once, in
// the caller's callback (an async function runs until its first await); each next one in the
// check phase of the following turn, with an idle handle keeping poll from blocking meanwhile,
// which is how Node schedules immediates. An exception from a slice ends the job.
void run_in_slices(uv_loop_t* loop, std::function<bool()> step, Done done);

class WorkerPool {
 public:
  WorkerPool(uv_loop_t* loop, int threads);
  ~WorkerPool();  // jobs not yet started are dropped; running ones are waited for
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void submit(Work work, Done done);
  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  struct Job {
    Work work;
    Done done;
    std::exception_ptr error;
  };
  void serve();
  static void on_completed(uv_async_t* async);

  uv_async_t* completed_signal_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> waiting_;
  std::deque<Job> completed_;
  std::size_t outstanding_ = 0;  // loop thread only
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace stallbench
