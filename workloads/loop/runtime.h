// A small runtime with Node's scheduling semantics on one uv_loop_t: the model every ordering
// trace and starvation benchmark runs on. Callbacks are C++ closures where Node has JavaScript
// functions; the queues and the points where they are drained are Node's:
//
//   next_tick        process.nextTick: the tick queue
//   queue_microtask  queueMicrotask, a promise reaction, the rest of an async function after an
//                    await (promises themselves: promise.h)
//   set_immediate    setImmediate: run by a check handle; an idle handle is active while any are
//                    pending so that poll does not block; those queued while the check phase
//                    runs wait for the next iteration (Node's processImmediate)
//   set_timeout      setTimeout / setInterval: a delay below 1 ms (or above 2^31-1) becomes 1 ms
//   set_interval     and is truncated to whole ms. Timers of one duration share a list ordered by
//                    start, lists are ordered by expiry, all behind one libuv timer, as in Node's
//                    lib/internal/timers.js, so Node's orderings hold even where they differ from
//                    a plain deadline order
//   read_file ...    fs calls as the modelled line makes them: one uv_fs request per step, or one
//                    pool request for the whole call (node_line.h)
//   close_socket     a TCP handle closed at once: its callback runs in the close phase
//   reject_unhandled a rejected promise nobody handles: its listener runs once the queues are empty
//   on_before_exit   process.on('beforeExit'): when the loop has nothing left, the listeners run,
//                    and the loop runs again if they gave it something
//
// After every callback the loop makes (the timers, an immediate, an I/O completion) the tick
// queue is drained completely, then the microtask queue, repeated until both are empty, then the
// unhandled rejections are reported (Node's processTicksAndRejections); also between individual
// timers and between individual immediates.
//
// The loop's phases are the modelled line's libuv, whatever libuv this process links: the runtime
// drives uv_run one iteration at a time and runs Node's timers itself, at the start of each
// iteration (libuv 1.44, Node 18) or after poll, check and close, and once before the first
// iteration (1.45+, Node 20 on). A libuv timer only bounds poll's wait.
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
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "../common/owned_loop.h"
#include "../pool/file_read.h"
#include "../pool/lookup.h"
#include "node_line.h"

namespace stallbench::loop {

using Callback = std::function<void()>;
using TimerId = std::uint64_t;
using ImmediateId = std::uint64_t;

// How the main module is evaluated. CommonJS: the body runs, then ticks, then microtasks. ES
// module: the body is evaluated inside a microtask, so microtasks it queues run before its ticks;
// when it runs depends on the line (EsmEntry).
enum class ModuleKind { commonjs, esm };

// Where a libuv version runs its timers phase.
struct TimerPhase {
  bool after_poll;        // libuv 1.45 and later
  bool reruns_rearmed;    // before libuv 1.48: uv__run_timers looks at its heap again after each
                          // callback, so a timer re-armed due during the pass runs again in it
  std::string text;       // one line, for trace output and meta.json
};
TimerPhase timer_phase(unsigned major, unsigned minor);

// An fs call's outcome: empty, or the error's code as Node names it (ENOENT, EISDIR, ...).
using FsDone = std::function<void(std::string error)>;
using OpenDone = std::function<void(int fd, std::string error)>;

class Runtime {
 public:
  explicit Runtime(const NodeLineModel& model = node_line_model(newest_modelled_line()));
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  uv_loop_t* loop() { return loop_.get(); }
  const NodeLineModel& model() const { return model_; }

  // The longest the loop ran without reaching poll (its waits there left out), a timers pass began
  // after its deadline, or a pool request took from its submission to its callback, in ms so far:
  // what a busy machine adds to a run. A program whose order rests on spacing its events (the
  // random programs' 100 ms slots) decides its order only while this stays well under that spacing.
  double longest_stall_ms() const { return static_cast<double>(longest_stall_ns_) / 1e6; }

  // What Node spends between the end of the main module and the loop's first timers check
  // (the rest of its bootstrap): the runtime spends as long, synchronously, before its loop. It
  // decides whether a timer armed by the main module is already due when the loop starts.
  void set_startup_tail(double ms) { startup_tail_ms_ = ms; }

  // Where this run drains what a handled throw left in the queues, on a line where that varies
  // from run to run (ThrownQueues::either): next_callback (until set) or drained_in_poll.
  void set_thrown_queues(ThrownQueues where);

  // Evaluates `body` as Node evaluates its main module, then runs the loop (and the beforeExit
  // listeners) until nothing is left to do. `module_file` is what an ES module entry is read
  // from on lines that read it on the pool. An exception thrown by any callback stops the loop and
  // is rethrown here (in Node an uncaught exception ends the process). A Runtime runs one main
  // module.
  void run_main(ModuleKind kind, Callback body, const std::string& module_file = "/dev/null");

  void next_tick(Callback cb);
  void queue_microtask(Callback cb);
  ImmediateId set_immediate(Callback cb);
  void clear_immediate(ImmediateId id);  // unknown or spent ids are ignored, as in Node
  TimerId set_timeout(Callback cb, double ms);
  TimerId set_interval(Callback cb, double ms);
  void clear_timer(TimerId id);  // clearTimeout / clearInterval; unknown ids are ignored, as in Node
  void unref_timer(TimerId id);  // timer.unref(): it no longer keeps the process alive

  // Promise.reject(reason) with no handler yet: `listener` is the 'unhandledRejection' listener's
  // call for it, made after the queues are drained, unless a handler came first (handle_rejection).
  // `on_handled` is the 'rejectionHandled' listener's call when a handler comes after that report.
  using RejectionId = std::uint64_t;
  RejectionId reject_unhandled(Callback listener, Callback on_handled = nullptr);
  // rejected.catch(reaction): the reaction is a microtask; a rejection not reported yet never is;
  // one reported already gets its 'rejectionHandled' at the next report (processPromiseRejections).
  void handle_rejection(RejectionId id, Callback reaction);

  // A JavaScript exception a callback throws (`throw new Error(...)`): Node hands it to the
  // 'uncaughtException' listeners and goes on, or, with none, the process ends ('exit' still runs).
  struct Thrown : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  void on_uncaught_exception(Callback listener);
  // process.on('exit'): called in turn when the process ends; what they queue never runs.
  void on_exit(Callback listener);
  // net.createServer().listen(0, "127.0.0.1", cb): a real TCP server on the loopback address;
  // 'listening' comes two ticks later (the address is looked up in a tick first), and the server
  // is closed after `on_listening` has run. It keeps the loop alive until then.
  void listen(Callback on_listening);
  // process.on('beforeExit', ...); returns an id for off_before_exit.
  std::uint64_t on_before_exit(Callback listener);
  void off_before_exit(std::uint64_t id);

  // fs calls; each completion is a callback like any other, with the queues drained after it.
  void read_file(std::string path, FileReadDone done);  // error: the code (ENOENT ...) or ""
  void stat(std::string path, FsDone done);
  void open(std::string path, OpenDone done);  // for reading
  void close(int fd, FsDone done);
  void write_file(std::string path, std::string bytes, FsDone done);
  // dns.lookup (hosts-file names only) and pool work.
  void lookup(const std::string& name, LookupDone done);
  void queue_work(std::function<void()> work, Callback after);
  // A socket whose handle is created and destroyed at once: 'close' is emitted from the handle's
  // close callback, in the close phase.
  void close_socket(Callback on_close);

  // Pool requests the fs calls above have made so far: what Node's request sequence costs in
  // loop turns.
  std::uint64_t fs_requests() const { return fs_requests_; }

  // Node's delay rule: outside [1, 2^31-1] (or NaN) becomes 1; then truncated to whole ms.
  static std::int64_t timer_duration(double ms);

 private:
  struct Timer;
  struct TimerList;
  struct Immediate;
  struct Work;
  struct FileRead;

  // Runs `cb` as Node runs a callback from the loop (MakeCallback), then drains the queues. A
  // call made while another callback runs (a completion reported synchronously) drains with the
  // outer one. After a failure nothing more runs and the loop is stopped.
  template <typename F>
  void invoke(F&& cb);
  void drain();  // processTicksAndRejections
  bool report_rejections();  // processPromiseRejections
  void report_thrown();      // an uncaught Thrown: the listeners, or the end of the process
  void close_server(uv_tcp_t* server);  // once; it is freed when closed
  void fail(std::exception_ptr error);
  bool stopped() const { return failure_ != nullptr || closing_ || died_; }

  void run_until_exit();  // Node's SpinEventLoop: the loop, then beforeExit, while there is work
  void run_loop();        // uv_run(UV_RUN_DEFAULT) with the modelled line's timers placement
  bool alive();
  void emit_before_exit();

  std::uint64_t now();  // getLibuvNow: updates the loop's time first, as Node's GetNow does
  TimerId add_timer(Callback cb, double ms, bool repeat);
  void insert_timer(const std::shared_ptr<Timer>& timer, std::uint64_t start);
  void forget_timer(const Timer& timer);
  void requeue(TimerList& list, std::uint64_t expiry);
  void drop_list(std::int64_t duration);
  void schedule_timer_handle(std::int64_t duration_ms);  // Node's ScheduleTimer
  void update_timer_ref();
  void run_due_timers();  // where libuv's timers phase is: Node's handle, if its time has come
  void run_timers();      // Node's RunTimers
  std::uint64_t process_timers(std::uint64_t now);  // the next expiry, 0 when no timer is left
  void list_on_timeout(const std::shared_ptr<TimerList>& list, std::uint64_t now);
  void check_phase();     // Node's CheckImmediate
  void prepare_phase();   // where V8 may run a task of its own, before poll (ThrownQueues::drained_in_poll)
  void run_immediates();  // Node's processImmediate
  // One uv_fs request of an fs call: `issue` starts it (uv_fs_open(loop, req, ..., cb)), `next`
  // gets the finished request on the loop thread. Steps between Node's requests are not user
  // callbacks: they go on after a failure, so that a file opened is closed again.
  void fs_step(const std::function<int(uv_fs_t*, uv_fs_cb)>& issue, std::function<void(uv_fs_t*)> next);
  // A whole fs call as one pool request (Node 26's ReadFileJob, WriteFileJob).
  void fs_job(std::function<void()> work, Callback after);
  void read_chunks(const std::shared_ptr<FileRead>& read);
  void finish_read(const std::shared_ptr<FileRead>& read);

  NodeLineModel model_;
  OwnedLoop loop_;
  uv_timer_t wakeup_;      // bounds poll's wait by Node's timer deadline
  uv_idle_t timer_due_;    // started when that deadline passed inside uv_run: poll must not block
  uv_check_t check_handle_;
  uv_prepare_t prepare_handle_;  // just before poll: where V8's own tasks stand in (prepare_phase)
  uv_idle_t idle_handle_;  // active while immediates are pending (Node's immediate idle handle)
  double startup_tail_ms_ = 0;
  std::uint64_t busy_since_ns_ = 0;   // the last prepare phase (or the main module's start)
  std::uint64_t idle_since_ns_ = 0;   // the loop's idle time in poll then (uv_metrics_idle_time)
  std::uint64_t longest_stall_ns_ = 0;
  void note_stall(std::uint64_t ns) { longest_stall_ns_ = std::max(longest_stall_ns_, ns); }
  void note_busy_span();  // from busy_since_ns_ to now, its waits in poll left out
  bool reruns_rearmed_timers_;  // TimerPhase::reruns_rearmed of the line's libuv
  ThrownQueues thrown_queues_;  // the model's, or the branch this run took (set_thrown_queues)

  std::deque<Callback> ticks_;
  std::deque<Callback> microtasks_;
  struct Rejection;
  std::deque<std::shared_ptr<Rejection>> rejections_;  // not reported yet (pendingUnhandledRejections)
  std::unordered_map<RejectionId, std::shared_ptr<Rejection>> rejected_;
  std::deque<Callback> handled_late_;  // 'rejectionHandled' calls due (asyncHandledRejections)
  RejectionId next_rejection_id_ = 1;
  std::vector<Callback> uncaught_listeners_;
  std::vector<Callback> exit_listeners_;
  bool died_ = false;  // an exception nobody caught ended the process
  bool looping_ = false;        // the loop has started (run_loop)
  bool thrown_in_loop_ = false;  // a handled throw was reported from a callback of the loop
  std::set<uv_tcp_t*> servers_;  // listening, closed once their 'listening' has run
  std::deque<std::shared_ptr<Immediate>> immediates_;
  std::deque<std::shared_ptr<Immediate>> running_immediates_;
  std::size_t pending_immediates_ = 0;  // queued and not cleared
  ImmediateId next_immediate_id_ = 1;
  std::map<std::uint64_t, Callback> before_exit_;  // by id: registration order
  std::uint64_t next_listener_id_ = 1;

  using ListKey = std::tuple<std::uint64_t, std::uint64_t, std::int64_t>;  // expiry, order, duration
  std::map<std::int64_t, std::shared_ptr<TimerList>> lists_;  // by duration (timerListMap)
  std::set<ListKey> list_queue_;                              // by expiry, then age (timerListQueue)
  std::unordered_map<TimerId, std::shared_ptr<Timer>> timers_;
  std::size_t refed_timers_ = 0;
  std::uint64_t next_expiry_ = UINT64_MAX;
  std::uint64_t next_list_order_ = 0;
  TimerId next_timer_id_ = 1;
  bool timer_armed_ = false;          // Node's uv timer is started
  std::uint64_t timer_deadline_ = 0;  // ... and due at this loop time

  std::uint64_t fs_requests_ = 0;
  int depth_ = 0;  // callbacks running (0 between callbacks)
  std::exception_ptr failure_;
  bool closing_ = false;
};

template <typename F>
void Runtime::invoke(F&& cb) {
  if (stopped()) return;
  if (depth_ > 0) return cb();
  ++depth_;
  try {
    cb();
    drain();
  } catch (const Thrown&) {
    // As Node's InternalCallbackScope marked failed: the listeners run, and the queues this callback
    // left (the ticks behind one that threw, the microtasks) wait for the next callback's drain.
    report_thrown();
  } catch (...) {
    fail(std::current_exception());
  }
  --depth_;
}

}  // namespace stallbench::loop
