// The timers of a random program (random_generator.h): one due at the start of a free slot (or a
// pair sharing a list), an interval taking one slot per tick, a burst of timers due in one pass with
// clears between them, and a 'beforeExit' listener after every slot.
#include <algorithm>

#include "random_generator.h"

namespace stallbench::loop::random_draw {

bool Generator::pool_request_fits(const Body& b) const {
  return std::none_of(pending_.begin(), pending_.end(),
                      [&](const auto& timer) { return timer.first <= b.slot && b.slot < timer.second; });
}

bool Generator::timer_fits(const Body& b, int last_due) const {
  return std::none_of(pool_slots_.begin(), pool_slots_.end(), [&](int slot) {
    return b.slot <= slot && slot < last_due && !(slot == b.slot && b.after_pool);
  });
}

std::vector<int> Generator::free_slots(const Body& b) const {
  std::vector<int> free;
  for (int s = b.slot + 1; s <= std::min(b.slot + kSlotsAhead, kLastSlot); ++s)
    if (!taken_.count(s) && timer_fits(b, s)) free.push_back(s);
  return free;
}

void Generator::timers(json& out, Body& b) {
  std::vector<int> free = free_slots(b);
  int slot = free[below(free.size())];
  taken_.insert(slot);
  arm(b, slot);
  int ms = (slot - b.slot) * kRandomSlotMs;
  bool pair = chance(15);
  for (int i = 0; i < (pair ? 2 : 1); ++i) {
    json op = {{"op", "setTimeout"}, {"ms", ms}, {"log", label("timeout")}};
    if (!pair && chance(25)) op["name"] = name("setTimeout");
    if (!pair && chance(5)) op["unref"] = true;
    Body inside = pair ? Body{slot, Mode::line, 0, false, b.depth + 1, false, Phase::timer_callback}
                       : Body{slot, mode(), 1, true, b.depth + 1, false, Phase::timer_callback};
    with_then(op, list(inside, below(4)));
    out.push_back(op);
  }
}

void Generator::burst(json& out, Body& b) {
  --bursts_left_;
  bool line = b.mode == Mode::line;
  if (line) b.continuations = 0;
  std::vector<json> timers;
  std::vector<int> durations;
  for (std::uint64_t i = 0, n = 2 + below(3); i < n; ++i) {
    // Never shorter than the one armed before it: a shorter one armed later runs first or not
    // depending on whether the clock ticked between the two calls.
    int previous = durations.empty() ? 0 : durations.back();
    int ms = chance(40) ? previous : std::min(kBurstMaxMs, previous + 1 + static_cast<int>(below(2)));
    durations.push_back(std::max(ms, 1));
    bool interval = chance(25);
    json op = {{"op", interval ? "setInterval" : "setTimeout"}, {"ms", ms}, {"log", label(interval ? "interval" : "timeout")}};
    if (interval) op["count"] = 1;
    if (chance(60)) op["name"] = name(interval ? "setInterval" : "setTimeout");
    timers.push_back(op);
  }
  bool nested = line;
  for (std::size_t i = 0; i < timers.size(); ++i) {
    Body quiet{b.slot, Mode::line, 0, false, b.depth + 1};
    json then = list(quiet, below(3));
    if (nested && chance(30)) {
      nested = false;
      then.push_back({{"op", "setTimeout"}, {"ms", timers[i]["ms"]}, {"log", label("nested")}});
    }
    with_then(timers[i], then);
    out.push_back(timers[i]);
  }
  out.push_back({{"op", "busy"}, {"ms", kBurstBusyMs}, {"log", label("busy")}});
}

std::vector<int> Generator::interval_slots(const Body& b, int every, int count) const {
  std::vector<int> slots;
  for (int i = 1; i <= count; ++i) {
    int s = b.slot + i * every;
    if (s > kLastSlot || taken_.count(s)) return {};
    slots.push_back(s);
  }
  return timer_fits(b, slots.back()) ? slots : std::vector<int>{};
}

json Generator::interval(Body& b) {
  int every = 1 + static_cast<int>(below(2));
  int count = 1 + static_cast<int>(below(3));
  while (interval_slots(b, every, count).empty()) every > 1 ? --every : --count;  // (1, 1) was free
  std::vector<int> slots = interval_slots(b, every, count);
  for (int s : slots) taken_.insert(s);
  arm(b, slots.back());
  json op = {{"op", "setInterval"}, {"ms", every * kRandomSlotMs}, {"count", count}, {"log", label("interval")}};
  if (chance(25)) op["name"] = name("setInterval");
  Body tick{b.slot + every, mode(), 1, false, b.depth + 1, false, Phase::timer_callback};  // every tick runs the same ops
  with_then(op, list(tick, below(3)));
  return op;
}

json Generator::before_exit() {
  json op = {{"op", "beforeExit"}, {"log", label("exit")}};
  if (chance(30)) op["count"] = 2;
  Body body{kLastSlot + 1, mode(), 1, false, 1};
  with_then(op, list(body, below(3)));
  return op;
}

}  // namespace stallbench::loop::random_draw
