// The random program generator (random_program.h). Each op is drawn from a menu of what the
// callback being written may still do: its mode (fan-out or one line), whether a free slot is left
// for a timer, how deep it is, how many ops and how much busy work the program has left.
#include "random_program.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stallbench::loop {
namespace {

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

// The callback whose ops are being drawn.
struct Body {
  int slot;           // the slot it runs in
  Mode mode;
  int continuations;  // line mode: loop-level ops it may still start (1 or 0); the microtask
                      // callbacks inside it run before it returns to the loop, so they share it
  bool timers;        // it may arm timers in free slots (not an interval's ticks, not beforeExit)
  int depth;

  Body inside() const { return {slot, mode, continuations, timers, depth + 1}; }
};

class Generator {
 public:
  Generator(std::uint64_t seed, std::uint64_t index) : seed_(seed), index_(index) {
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                           static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32)};
    random_.seed(sequence);
  }

  json program() {
    bool esm = chance(30);
    Body main{0, mode(), 1, true, 0};
    json ops = list(main, 2 + below(4));
    if (chance(15)) ops.push_back(before_exit());
    if (esm && chance(30) && ops_left_ > 0) ops.push_back(awaiting("await", main, true));
    std::string where = "seed " + std::to_string(seed_) + ", index " + std::to_string(index_);
    return {{"name", "random-" + std::to_string(seed_) + "-" + std::to_string(index_)},
            {"module", esm ? "esm" : "cjs"},
            {"analysis", "A random program (" + where + ") from stallbench's generator (workloads/loop/random_program.h): "
                         "its order is decided by the program alone, so Node's own order is the answer"},
            {"program", ops}};
  }

 private:
  std::uint64_t below(std::uint64_t n) { return random_() % n; }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  Mode mode() { return chance(50) ? Mode::fan_out : Mode::line; }
  std::string label(const std::string& prefix) { return prefix + std::to_string(++labels_); }

  // `count` ops for `b` (fewer when the program's ops run out).
  json list(Body& b, std::uint64_t count) {
    json out = json::array();
    for (std::uint64_t i = 0; i < count && ops_left_ > 0; ++i) append(out, b);
    return out;
  }

  static void with_then(json& op, json then) {
    if (!then.empty()) op["then"] = std::move(then);
  }

  // One op drawn from what `b` may still do (two for a pair of timers).
  void append(json& out, Body& b) {
    --ops_left_;
    std::vector<std::pair<int, std::function<void()>>> menu;
    menu.push_back({4, [&] { out.push_back({{"op", "log"}, {"text", label("log")}}); }});
    if (busy_left_ > 0) menu.push_back({3, [&] { out.push_back(busy()); }});
    if (!names_.empty()) menu.push_back({5, [&] { out.push_back(clear()); }});
    if (b.depth < kMaxDepth) {
      menu.push_back({14, [&] { out.push_back(microtask(b)); }});
      menu.push_back({5, [&] { out.push_back(awaiting(chance(50) ? "await" : chance(50) ? "promiseAll" : "promiseRace", b, false)); }});
      if (b.timers && !free_slots(b.slot).empty()) menu.push_back({10, [&] { timers(out, b); }});
      if (b.timers && !interval_slots(b.slot, 1, 1).empty()) menu.push_back({3, [&] { out.push_back(interval(b)); }});
      bool burst_fits = b.mode == Mode::fan_out || b.continuations > 0;
      if (b.timers && bursts_left_ > 0 && burst_fits) menu.push_back({6, [&] { burst(out, b); }});
      if (b.mode == Mode::fan_out) menu.push_back({14, [&] { out.push_back(fast(b)); }});
      if (b.mode == Mode::line && b.continuations > 0) menu.push_back({16, [&] { out.push_back(loop_op(b, false)); }});
    }
    int total = 0;
    for (const auto& [weight, draw] : menu) total += weight;
    auto pick = static_cast<int>(below(static_cast<std::uint64_t>(total)));
    for (const auto& [weight, draw] : menu) {
      if (pick < weight) return draw();
      pick -= weight;
    }
  }

  json busy() {
    int ms = std::min(busy_left_, 1 + static_cast<int>(below(2)));
    busy_left_ -= ms;
    return {{"op", "busy"}, {"ms", ms}, {"log", label("busy")}};
  }

  // Whatever it names has already been drawn, so the clear runs at a point the program fixes.
  json clear() {
    const auto& [name, kind] = names_[below(names_.size())];
    const char* op = kind == "setImmediate" ? "clearImmediate" : kind == "setInterval" ? "clearInterval" : "clearTimeout";
    return {{"op", op}, {"name", name}};
  }

  std::string name(const std::string& kind) {
    names_.emplace_back("n" + std::to_string(names_.size() + 1), kind);
    return names_.back().first;
  }

  // A callback that runs before its caller returns to the loop: its ops share the caller's `b`. An
  // unhandled rejection's listener is one too, but has no promise to wait for (`awaited`).
  json microtask(Body& b, bool awaited = false) {
    static const std::vector<std::pair<const char*, const char*>> kinds = {
        {"nextTick", "tick"}, {"queueMicrotask", "micro"}, {"promise", "then"}, {"promise", "then"}, {"reject", "reject"}};
    const auto& [op_name, prefix] = kinds[below(kinds.size() - (awaited ? 1 : 0))];
    json op = {{"op", op_name}, {"log", label(prefix)}};
    Body inside = b.inside();
    with_then(op, list(inside, below(3)));
    if (std::string(op_name) == "promise") {
      if (chance(30)) op["returns"] = "promise";
      if (chance(30)) {
        json next = {{"log", label("then")}};
        with_then(next, list(inside, below(2)));
        if (chance(30)) next["returns"] = "promise";
        op["next"] = next;
      }
    }
    b.continuations = inside.continuations;
    return op;
  }

  // An op with a promise for `await`, Promise.all or Promise.race: a microtask callback, a fast one
  // in fan-out mode, or (line mode, await only) the line's one loop-level op. Returns whether it
  // is the line's continuation, after which the awaiting callback starts a line of its own.
  bool awaitable(json& into, Body& b, bool may_continue) {
    if (may_continue && b.mode == Mode::line && b.continuations > 0 && chance(50)) {
      into.push_back(loop_op(b, true));
      return true;
    }
    if (b.mode == Mode::fan_out && chance(40)) {
      into.push_back(fast(b));
      return false;
    }
    Body quiet{b.slot, b.mode, 0, b.timers, b.depth};  // its callback starts nothing on the loop
    into.push_back(microtask(quiet, true));
    return false;
  }

  json awaiting(const std::string& kind, Body& b, bool toplevel) {
    json op = {{"op", kind}, {"log", label(kind == "await" ? "await" : kind == "promiseAll" ? "all" : "race")}};
    if (toplevel) op["toplevel"] = true;
    json children = json::array();
    bool continued = false;
    bool of_null = kind == "await" && !toplevel && chance(30);  // `await null`
    std::uint64_t count = of_null ? 0 : kind == "await" ? 1 : 2 + below(2);
    for (std::uint64_t i = 0; i < count; ++i) continued = awaitable(children, b, kind == "await") || continued;
    if (kind == "await" && !of_null) op["on"] = children[0];
    if (kind != "await") op["of"] = children;
    Body then = continued ? Body{b.slot, mode(), 1, b.timers, b.depth + 1} : b.inside();
    with_then(op, list(then, below(3)));
    if (!continued) b.continuations = then.continuations;
    return op;
  }

  // An immediate or a socket close among others (fan-out mode).
  json fast(Body& b) {
    bool immediate = chance(75);
    json op = {{"op", immediate ? "setImmediate" : "socketClose"}, {"log", label(immediate ? "immediate" : "close")}};
    if (immediate && chance(25)) op["name"] = name("setImmediate");
    Body inside = b.inside();
    with_then(op, list(inside, below(3)));
    return op;
  }

  // The line's one loop-level op; its callback continues the line (a new one, or fans out), or,
  // when something awaits it (`quiet`), starts nothing on the loop: the awaiting callback does.
  json loop_op(Body& b, bool quiet) {
    b.continuations = 0;
    // No dns.lookup: getaddrinfo("localhost") took 2-25 ms here (the first call the longest), as long
    // as a slot, so its callback would race the next slot's timer.
    static const std::vector<const char*> kinds = {"readFile", "readFile", "stat", "open", "writeFile",
                                                   "setImmediate", "socketClose", "setTimeout"};
    std::string kind = kinds[below(kinds.size())];
    if (kind == "open" && quiet) kind = "stat";  // its close would still be in flight when the awaiting callback runs
    Body then = quiet ? Body{b.slot, Mode::line, 0, b.timers, b.depth + 1} : Body{b.slot, mode(), 1, b.timers, b.depth + 1};
    std::string n = std::to_string(labels_ + 1);
    json op = {{"op", kind}};
    bool missing = chance(15);
    if (kind == "readFile" || kind == "stat" || kind == "open") {
      if (missing) op["path"] = "missing-" + n + ".txt", op["error"] = "ENOENT";  // else the program's own file
    } else if (kind == "writeFile") {
      op["path"] = missing ? "missing/out-" + n + ".txt" : "out-" + n + ".txt";
      op["bytes"] = below(64);
      if (missing) op["error"] = "ENOENT";
    } else if (kind == "setTimeout") {
      op["ms"] = below(3);  // nothing else is pending: a short timer cannot race anything
      if (chance(25)) op["name"] = name("setTimeout");
    }
    static const std::map<std::string, const char*> prefixes = {
        {"readFile", "read"}, {"stat", "stat"}, {"open", "open"}, {"writeFile", "write"},
        {"setImmediate", "immediate"}, {"socketClose", "close"}, {"setTimeout", "timeout"}};
    op["log"] = label(prefixes.at(kind));
    if (kind == "open" && !missing) {
      // The close is the open callback's loop-level op; the open's other ops start nothing.
      Body open_body{b.slot, Mode::line, 0, b.timers, b.depth + 1};
      json ops = list(open_body, below(2));
      json close = {{"op", "close"}, {"log", label("fclose")}};
      Body after{b.slot, mode(), 1, b.timers, b.depth + 2};
      with_then(close, list(after, below(3)));
      ops.push_back(close);
      op["then"] = ops;
      return op;
    }
    with_then(op, list(then, below(3)));
    return op;
  }

  std::vector<int> free_slots(int from) const {
    std::vector<int> free;
    for (int s = from + 1; s <= std::min(from + kSlotsAhead, kLastSlot); ++s)
      if (!taken_.count(s)) free.push_back(s);
    return free;
  }

  // A timer due at the start of a free slot, or (rarely) two armed back to back with one delay:
  // they share Node's list and run in turn. Their callbacks then start nothing on the loop, so it
  // does not matter whether the second is run in the same timers phase or, when the clock ticked
  // between the two calls, in the next one.
  void timers(json& out, Body& b) {
    std::vector<int> free = free_slots(b.slot);
    int slot = free[below(free.size())];
    taken_.insert(slot);
    int ms = (slot - b.slot) * kRandomSlotMs;
    bool pair = chance(15);
    for (int i = 0; i < (pair ? 2 : 1); ++i) {
      json op = {{"op", "setTimeout"}, {"ms", ms}, {"log", label("timeout")}};
      if (!pair && chance(25)) op["name"] = name("setTimeout");
      if (!pair && chance(5)) op["unref"] = true;
      Body inside = pair ? Body{slot, Mode::line, 0, false, b.depth + 1} : Body{slot, mode(), 1, true, b.depth + 1};
      with_then(op, list(inside, below(4)));
      out.push_back(op);
    }
  }

  // Timers due in one pass: two to four timers and intervals of 0-kBurstMaxMs ms (some sharing a
  // list, some in lists of their own, none shorter than one armed before it), then kBurstBusyMs of work, so that all of them are due when
  // the loop next runs timers, whatever the machine's load, and run in Node's list order. Their
  // callbacks are quiet (logs, ticks, microtasks, clears: nothing else pending can race them), and
  // are drawn once every timer has its name, so a tick or microtask of one can clear the next ones
  // of its list or a list due after it (lib/internal/timers.js must then skip them and run the rest).
  // An interval ticks once (its next tick would race the loop's other callbacks). In a line's body
  // the burst is its continuation, and one callback may arm a timer of its own list's duration (a
  // nested list, run in a later pass: nothing else is pending then).
  void burst(json& out, Body& b) {
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

  // The slots an interval of `every` slots and `count` ticks armed in `from` would take; none when
  // one of them is taken.
  std::vector<int> interval_slots(int from, int every, int count) const {
    std::vector<int> slots;
    for (int i = 1; i <= count; ++i) {
      int s = from + i * every;
      if (s > kLastSlot || taken_.count(s)) return {};
      slots.push_back(s);
    }
    return slots;
  }

  json interval(Body& b) {
    int every = 1 + static_cast<int>(below(2));
    int count = 1 + static_cast<int>(below(3));
    while (interval_slots(b.slot, every, count).empty()) every > 1 ? --every : --count;  // (1, 1) was free
    for (int s : interval_slots(b.slot, every, count)) taken_.insert(s);
    json op = {{"op", "setInterval"}, {"ms", every * kRandomSlotMs}, {"count", count}, {"log", label("interval")}};
    if (chance(25)) op["name"] = name("setInterval");
    Body tick{b.slot + every, mode(), 1, false, b.depth + 1};  // every tick runs the same ops
    with_then(op, list(tick, below(3)));
    return op;
  }

  // When the loop has nothing left: a slot after every other one.
  json before_exit() {
    json op = {{"op", "beforeExit"}, {"log", label("exit")}};
    if (chance(30)) op["count"] = 2;
    Body body{kLastSlot + 1, mode(), 1, false, 1};
    with_then(op, list(body, below(3)));
    return op;
  }

  std::uint64_t seed_, index_;
  std::mt19937_64 random_;
  int ops_left_ = kMaxOps;
  int busy_left_ = kBusyMs;
  int bursts_left_ = kBursts;
  int labels_ = 0;
  std::set<int> taken_ = {0};  // slots with a timer due (0: the main module)
  std::vector<std::pair<std::string, std::string>> names_;  // name, the kind of op it names
};

}  // namespace

nlohmann::json random_program(std::uint64_t seed, std::uint64_t index) { return Generator(seed, index).program(); }

std::string write_random_program(std::uint64_t seed, std::uint64_t index, const std::string& folder) {
  nlohmann::json program = random_program(seed, index);
  std::string path = (std::filesystem::path(folder) / (program.at("name").get<std::string>() + ".json")).string();
  std::ofstream out(path);
  out << program.dump(2) << "\n";
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace stallbench::loop
