// A small runtime with Node's scheduling semantics on one uv_loop_t: the model every ordering
// trace and starvation benchmark runs on. Callbacks are C++ closures where Node has JavaScript
// functions; the queues and the points where they are drained are Node's:
//
//   next_tick        process.nextTick: the tick queue
//   queue_microtask  queueMicrotask, and what a resolved promise's `then` or an `await` does
//   set_immediate    setImmediate: run by a check handle; an idle handle is active while any are
//                    pending so that poll does not block; those queued while the check phase
//                    runs wait for the next iteration (Node's processImmediate)
//   set_timeout      setTimeout / setInterval: a delay below 1 ms (or above 2^31-1) becomes 1 ms
//   set_interval     and is truncated to whole ms. Timers of one duration share a list ordered by
//                    start, lists are ordered by expiry, all on one uv_timer_t, as in Node's
//                    lib/internal/timers.js, so Node's orderings hold even where they differ from
//                    a plain deadline order
//   read_file, lookup, queue_work   uv_fs, uv_getaddrinfo and uv_queue_work through libuv's pool
//
// After every callback the loop makes (the timers, an immediate, an I/O completion) the tick
// queue is drained completely, then the microtask queue, repeated until both are empty (Node's
// processTicksAndRejections); also between individual timers and between individual immediates.
//
// Which phase timers run in is libuv's business: 1.44 (Debian 12) runs them at the start of each
// iteration, 1.45+ (Node 20+) after poll and check. timer_phase() says which applies.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "../common/owned_loop.h"
#include "../pool/file_read.h"
#include "../pool/lookup.h"

namespace stallbench::loop {

using Callback = std::function<void()>;
using TimerId = std::uint64_t;

// How the main module is evaluated. CommonJS: the body runs, then ticks, then microtasks. ES
// module: the body is evaluated inside a microtask, so microtasks it queues run before its ticks.
enum class ModuleKind { commonjs, esm };

// Where a libuv version runs its timers phase.
struct TimerPhase {
  bool after_poll;   // libuv 1.45 and later
  std::string text;  // one line, for trace output and meta.json
};
TimerPhase timer_phase(unsigned major, unsigned minor);
TimerPhase linked_timer_phase();  // of the libuv this process runs on (uv_version())

class Runtime {
 public:
  Runtime();
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  uv_loop_t* loop() { return loop_.get(); }

  // Evaluates `body` as Node evaluates its main module, then runs the loop until nothing is left
  // to do. An exception thrown by any callback stops the loop and is rethrown here (in Node an
  // uncaught exception ends the process). A Runtime runs one main module.
  void run_main(ModuleKind kind, Callback body);

  void next_tick(Callback cb);
  void queue_microtask(Callback cb);
  void set_immediate(Callback cb);
  TimerId set_timeout(Callback cb, double ms);
  TimerId set_interval(Callback cb, double ms);
  void clear_timer(TimerId id);  // clearTimeout / clearInterval; unknown ids are ignored, as in Node

  // fs.readFile, dns.lookup (hosts-file names only) and pool work; each completion is a callback
  // like any other, with the queues drained after it.
  void read_file(std::string path, FileReadDone done);
  void lookup(const std::string& name, LookupDone done);
  void queue_work(std::function<void()> work, Callback after);

  // Node's delay rule: outside [1, 2^31-1] (or NaN) becomes 1; then truncated to whole ms.
  static std::int64_t timer_duration(double ms);

 private:
  struct Timer;
  struct TimerList;
  struct Work;

  // Runs `cb` as Node runs a callback from the loop (MakeCallback), then drains the queues. A
  // call made while another callback runs (a completion reported synchronously) drains with the
  // outer one. After a failure nothing more runs and the loop is stopped.
  template <typename F>
  void invoke(F&& cb);
  void drain();  // processTicksAndRejections
  void fail(std::exception_ptr error);

  std::uint64_t now();  // getLibuvNow: updates the loop's time first, as Node's GetNow does
  TimerId add_timer(Callback cb, double ms, bool repeat);
  void insert_timer(const std::shared_ptr<Timer>& timer, std::uint64_t start);
  void requeue(TimerList& list, std::uint64_t expiry);
  void drop_list(std::int64_t duration);
  void schedule_timer_handle(std::int64_t duration_ms);
  void update_timer_ref();
  void run_timers();                                // Node's RunTimers (the uv_timer_t callback)
  std::uint64_t process_timers(std::uint64_t now);  // the next expiry, 0 when no timer is left
  void list_on_timeout(const std::shared_ptr<TimerList>& list, std::uint64_t now);
  void run_immediates();                            // Node's processImmediate (the check callback)

  OwnedLoop loop_;
  uv_timer_t timer_handle_;
  uv_check_t check_handle_;
  uv_idle_t idle_handle_;

  std::deque<Callback> ticks_;
  std::deque<Callback> microtasks_;
  std::deque<Callback> immediates_;
  std::deque<Callback> running_immediates_;

  using ListKey = std::tuple<std::uint64_t, std::uint64_t, std::int64_t>;  // expiry, order, duration
  std::map<std::int64_t, std::shared_ptr<TimerList>> lists_;  // by duration (timerListMap)
  std::set<ListKey> list_queue_;                              // by expiry, then age (timerListQueue)
  std::unordered_map<TimerId, std::shared_ptr<Timer>> timers_;
  std::uint64_t next_expiry_ = UINT64_MAX;
  std::uint64_t next_list_order_ = 0;
  TimerId next_timer_id_ = 1;

  int depth_ = 0;  // callbacks running (0 between callbacks)
  std::exception_ptr failure_;
  bool closing_ = false;
};

}  // namespace stallbench::loop
