// The random program generator's state and draws (private to random_program.cc, which draws the
// ops of callbacks, and random_timers.cc, which draws timers into free slots, the same-pass
// bursts, intervals and beforeExit). random_program.h says what it leaves out and why.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "random_program.h"

namespace stallbench::loop::random_draw {

using nlohmann::json;

constexpr int kMaxOps = 20;     // per program: small enough to read when it disagrees
constexpr int kMaxDepth = 4;    // callbacks inside callbacks
constexpr int kLastSlot = 4;    // no timer is due later than this many slots after the start
constexpr int kSlotsAhead = 2;  // a timer is due at most this many slots after the one arming it
constexpr int kBusyMs = 4;      // busy work per program besides bursts, a small part of one slot: every slot's work ends early in it
constexpr int kBursts = 2;      // bursts per program (below)
constexpr int kBurstMaxMs = 3;  // a burst's timers are of 1 to this many ms (0 is 1 in Node) ...
constexpr int kBurstBusyMs = kBurstMaxMs + 2;  // ... and the callback arming them then works this long

enum class Mode { fan_out, line };

// Where a callback runs, as far as a burst cares. A burst armed in the queues' drain after a timer's
// callback (a microtask or tick it queued) runs in the same timers phase on Node 18 and 20 (libuv
// before 1.48 looks at its heap again) only if libuv's time moved on between its first and its last
// setTimeout: one millisecond ticking over, or not (random-24-4 under ASan). With an immediate or
// a close pending that decides which runs first, so a fan-out callback arms its burst in its own
// body, where the pass's time is fixed, never in its drain.
enum class Phase { other, timer_callback, timer_drain };

// The callback whose ops are being drawn.
struct Body {
  int slot;           // the slot it runs in
  Mode mode;
  int continuations;  // line mode: loop-level ops it may still start (1 or 0); the microtask
                      // callbacks inside it run before it returns to the loop, so they share it
  bool timers;        // it may arm timers in free slots (not an interval's ticks, not beforeExit)
  int depth;
  bool after_pool = false;  // it runs after its line's pool request ended (that request's callback)
  Phase phase = Phase::other;

  // A microtask or tick it queues, run before it returns to the loop.
  Body inside() const {
    return {slot, mode, continuations, timers, depth + 1, after_pool, phase == Phase::other ? Phase::other : Phase::timer_drain};
  }
};

class Generator {
 public:
  Generator(std::uint64_t seed, std::uint64_t index) : seed_(seed), index_(index) {
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                           static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32)};
    random_.seed(sequence);
  }
  json program();

 private:
  std::uint64_t below(std::uint64_t n) { return random_() % n; }

  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }

  Mode mode() { return chance(50) ? Mode::fan_out : Mode::line; }

  std::string label(const std::string& prefix) { return prefix + std::to_string(++labels_); }

  // `count` ops for `b` (fewer when the program's ops run out).
  json list(Body& b, std::uint64_t count);

  static void with_then(json& op, json then) {
    if (!then.empty()) op["then"] = std::move(then);
  }

  // One op drawn from what `b` may still do (two for a pair of timers).
  void append(json& out, Body& b);

  json busy();

  // Whatever it names has already been drawn, so the clear runs at a point the program fixes.
  json clear();

  std::string name(const std::string& kind);

  // A callback that runs before its caller returns to the loop: its ops share the caller's `b`. An
  // unhandled rejection's listener is one too, but has no promise to wait for (`awaited`).
  json microtask(Body& b, bool awaited = false);

  // An op with a promise for `await`, Promise.all or Promise.race: a microtask callback, a fast one
  // in fan-out mode, or (line mode, await only) the line's one loop-level op. Returns whether it
  // is the line's continuation, after which the awaiting callback starts a line of its own.
  bool awaitable(json& into, Body& b, bool may_continue);

  json awaiting(const std::string& kind, Body& b, bool toplevel);

  // An immediate or a socket close among others (fan-out mode).
  json fast(Body& b);

  // The line's one loop-level op; its callback continues the line (a new one, or fans out), or,
  // when something awaits it (`quiet`), starts nothing on the loop: the awaiting callback does.
  json loop_op(Body& b, bool quiet);

  // Pool requests and timers due in later slots never overlap: a pool request in flight while such a
  // timer is pending would end before it only while the process is not stalled for the slots between
  // (at load 30-60 here a process stalled for over 100 ms: the timer ran first, then the completion).
  // A pool request fits where no timer armed at or before its slot is due after it; a timer fits
  // where no pool request is in flight in the slots from its arming to its last due one (one in the
  // arming slot is over when the timer is armed from that request's callback).
  bool pool_request_fits(const Body& b) const;
  bool timer_fits(const Body& b, int last_due) const;
  void arm(const Body& b, int last_due) { pending_.emplace_back(b.slot, last_due); }

  std::vector<int> free_slots(const Body& b) const;

  // A timer due at the start of a free slot, or (rarely) two armed back to back with one delay:
  // they share Node's list and run in turn. Their callbacks then start nothing on the loop, so it
  // does not matter whether the second is run in the same timers phase or, when the clock ticked
  // between the two calls, in the next one.
  void timers(json& out, Body& b);

  // Timers due in one pass: two to four timers and intervals of 0-kBurstMaxMs ms (some sharing a
  // list, some in lists of their own, none shorter than one armed before it), then kBurstBusyMs of work, so that all of them are due when
  // the loop next runs timers, whatever the machine's load, and run in Node's list order. Their
  // callbacks are quiet (logs, ticks, microtasks, clears: nothing else pending can race them), and
  // are drawn once every timer has its name, so a tick or microtask of one can clear the next ones
  // of its list or a list due after it (lib/internal/timers.js must then skip them and run the rest).
  // An interval ticks once (its next tick would race the loop's other callbacks). In a line's body
  // the burst is its continuation, and one callback may arm a timer of its own list's duration (a
  // nested list, run in a later pass: nothing else is pending then).
  void burst(json& out, Body& b);

  // The slots an interval of `every` slots and `count` ticks armed in `from` would take; none when
  // one of them is taken.
  std::vector<int> interval_slots(const Body& b, int every, int count) const;

  json interval(Body& b);

  // When the loop has nothing left: a slot after every other one.
  json before_exit();

  std::uint64_t seed_, index_;
  std::mt19937_64 random_;
  int ops_left_ = kMaxOps;
  int busy_left_ = kBusyMs;
  int bursts_left_ = kBursts;
  int labels_ = 0;
  std::set<int> taken_ = {0};  // slots with a timer due (0: the main module)
  std::vector<std::pair<std::string, std::string>> names_;  // name, the kind of op it names
  std::vector<std::pair<int, int>> pending_;  // timers due in a later slot: the slot arming them, the last due
  std::set<int> pool_slots_;                  // slots in which a pool request is in flight
};

}  // namespace stallbench::loop::random_draw
