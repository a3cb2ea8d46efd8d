#include "stall_session.h"

#include "../common/uv_check.h"
#include "../common/uv_clock.h"
#include "../common/uv_close.h"

namespace stallbench {

namespace {

// Calls `fire` once after `ms` on the loop, then frees itself.
void after(uv_loop_t* loop, double ms, std::function<void()> fire) {
  struct Once {
    uv_timer_t timer;
    std::function<void()> fire;
  };
  auto* once = new Once{{}, std::move(fire)};
  uv_check(uv_timer_init(loop, &once->timer), "uv_timer_init(session)");
  once->timer.data = once;
  uv_check(uv_timer_start(&once->timer, [](uv_timer_t* t) {
             auto* once = static_cast<Once*>(t->data);
             auto fire = std::move(once->fire);
             uv_close(reinterpret_cast<uv_handle_t*>(t), [](uv_handle_t* h) { delete static_cast<Once*>(h->data); });
             fire();
           }, static_cast<std::uint64_t>(ms), 0),
           "uv_timer_start(session)");
}

}  // namespace

StallSession::StallSession(uv_loop_t* loop, SessionOptions options)
    : loop_(loop),
      options_(options),
      server_(loop),
      monitor_(loop, options.resolution_ms),
      meter_(loop, options.stall_threshold_ms),
      elu_(loop, options.elu_window_ms) {}

SessionRecord StallSession::run(const StartWork& start) {
  SessionRecord record;
  std::exception_ptr failure;
  // The loop's clock stands where the last uv_run left it; a synchronous parse since then would
  // make the lead-in timer fire at once, in the very first (unmeasured) iteration.
  uv_update_time(loop_);
  std::uint64_t epoch = uv_hrtime();
  auto* drained = new uv_async_t;
  uv_check(uv_async_init(loop_, drained, [](uv_async_t* a) { uv_stop(a->loop); }), "uv_async_init(session)");

  monitor_.start(epoch);
  meter_.start(epoch);
  elu_.start(epoch);
  HealthProbe probe(port(), options_.probe_interval_ms, epoch);

  auto tail = [&] {
    monitor_.stop();
    meter_.stop();
    elu_.stop();
    probe.stop([drained] { uv_async_send(drained); });
  };
  Finished finished = [&](std::exception_ptr error) {
    record.work_end_ms = ms_since(epoch);
    failure = error;
    after(loop_, options_.quiet_ms, tail);
  };
  after(loop_, options_.quiet_ms, [&] {
    record.work_start_ms = ms_since(epoch);
    try {
      start(finished);
    } catch (...) {  // nothing may unwind through libuv
      finished(std::current_exception());
    }
  });
  uv_run(loop_, UV_RUN_DEFAULT);
  close_and_delete(drained);
  record.health = probe.finish();

  auto& r = record.instruments;
  r.delays = monitor_.samples();
  r.delay = monitor_.summary();
  r.stalls = meter_.stalls_over_threshold();
  r.stall = meter_.summary();
  r.iterations = meter_.iterations();
  r.elu_windows = elu_.windows();
  r.elu = elu_.summary();
  r.elu_overall = elu_.overall().utilization;
  if (failure) std::rethrow_exception(failure);
  return record;
}

double run_until_finished(uv_loop_t* loop, const StartWork& start) {
  bool done = false, running = false;
  std::exception_ptr failure;
  std::uint64_t t0 = uv_hrtime(), t1 = 0;
  start([&](std::exception_ptr error) {
    t1 = uv_hrtime();
    done = true;
    failure = error;
    if (running) uv_stop(loop);  // a stop flag set outside uv_run would end the next run at once
  });
  if (!done) {
    running = true;
    uv_run(loop, UV_RUN_DEFAULT);
  }
  if (failure) std::rethrow_exception(failure);
  if (!done) throw std::runtime_error("the loop ran out of work before the job finished");
  return static_cast<double>(t1 - t0) / 1e6;
}

}  // namespace stallbench
