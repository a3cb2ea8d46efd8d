// Seed 000's starvation experiments (and seed 002's blocked timer), on the runtime. Each returns
// what it observed; starvation_node.h runs the same experiments under Node.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../pool/pbkdf2_job.h"

namespace stallbench::loop {

// How a self-rescheduling callback queues its next call.
enum class Scheduler { nexttick, microtask, immediate, timeout };

const std::vector<std::string>& scheduler_names();  // indexed by Scheduler
Scheduler parse_scheduler(std::string_view name);  // throws std::invalid_argument naming the valid ones
std::string_view scheduler_name(Scheduler s);

// A callback that reschedules itself until it has run `n` times, with a 1 ms timer and a file
// read armed just before the first call is queued. With nextTick or microtask scheduling the
// chain never yields to the loop: the timer and the read wait for all n calls. With setImmediate
// every call is one loop iteration, so both get in early; setTimeout 0 is one timers phase (at
// least 1 ms) per call.
struct RescheduleResult {
  std::int64_t calls = 0;
  std::int64_t calls_before_timer = -1;  // calls made when the 1 ms timer's callback ran
  std::int64_t calls_before_io = -1;     // calls made when the file read's callback ran
  double total_ms = 0;                   // from queuing the first call to the end of the last
  std::int64_t bytes_read = -1;
  std::string error;                     // from the file read; empty when it worked
};
RescheduleResult run_reschedule(Scheduler scheduler, std::int64_t n, const std::string& file_path);

// Seed 002: a timer of `timer_ms` armed, then `busy_ms` of synchronous work. The timer can only
// run after the work, in the first timers phase.
struct BusyTimerResult {
  double timer_fired_ms = -1;  // since the timer was armed
  double busy_done_ms = -1;    // when the synchronous work ended, same origin
};
BusyTimerResult run_busy_timer(double busy_ms, double timer_ms);

// Seed 000: an "async" function that runs `calls` synchronous pbkdf2 derivations (passwords
// "password-0", "password-1", ...) with no await inside, while a `interval_ms` interval should
// tick. The function only returns its promise when all the work is done; the awaiting code then
// resumes in a microtask and clears the interval, which never got a turn.
struct AsyncHashResult {
  double returned_ms = -1;  // when the function returned its promise, since it was called
  int ticks_before_return = -1;
  int ticks_before_resume = -1;  // when the code awaiting the promise resumed
  std::string last_key_hex;
};
AsyncHashResult run_async_pbkdf2(int calls, int iterations, double interval_ms);

// What call `i` derives: password "password-<i>" and the seed's salt, sha256, 32 bytes. Both
// engines' last keys are checked against it.
Pbkdf2Params async_pbkdf2_params(int i, int iterations);

}  // namespace stallbench::loop
