// The random program generator (random_program.h). Each op is drawn from a menu of what the
// callback being written may still do: its mode (fan-out or one line), whether a free slot is left
// for a timer, how deep it is, how many ops and how much busy work the program has left. The
// timers it draws are random_timers.cc's.
#include "random_program.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>

#include "random_generator.h"

namespace stallbench::loop {
namespace random_draw {

json Generator::program() {
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

json Generator::list(Body& b, std::uint64_t count) {
  json out = json::array();
  for (std::uint64_t i = 0; i < count && ops_left_ > 0; ++i) append(out, b);
  return out;
}

void Generator::append(json& out, Body& b) {
  --ops_left_;
  std::vector<std::pair<int, std::function<void()>>> menu;
  menu.push_back({4, [&] { out.push_back({{"op", "log"}, {"text", label("log")}}); }});
  if (busy_left_ > 0) menu.push_back({3, [&] { out.push_back(busy()); }});
  if (!names_.empty()) menu.push_back({5, [&] { out.push_back(clear()); }});
  if (b.depth < kMaxDepth) {
    menu.push_back({14, [&] { out.push_back(microtask(b)); }});
    menu.push_back({5, [&] { out.push_back(awaiting(chance(50) ? "await" : chance(50) ? "promiseAll" : "promiseRace", b, false)); }});
    if (b.timers && !free_slots(b).empty()) menu.push_back({10, [&] { timers(out, b); }});
    if (b.timers && !interval_slots(b, 1, 1).empty()) menu.push_back({3, [&] { out.push_back(interval(b)); }});
    bool burst_fits = b.mode == Mode::fan_out ? b.phase != Phase::timer_drain : b.continuations > 0;
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

json Generator::busy() {
  int ms = std::min(busy_left_, 1 + static_cast<int>(below(2)));
  busy_left_ -= ms;
  return {{"op", "busy"}, {"ms", ms}, {"log", label("busy")}};
}

json Generator::clear() {
  const auto& [name, kind] = names_[below(names_.size())];
  const char* op = kind == "setImmediate" ? "clearImmediate" : kind == "setInterval" ? "clearInterval" : "clearTimeout";
  return {{"op", op}, {"name", name}};
}

std::string Generator::name(const std::string& kind) {
  names_.emplace_back(std::string("n").append(std::to_string(names_.size() + 1)), kind);  // appended: GCC 12 -Wrestrict
  return names_.back().first;
}

json Generator::microtask(Body& b, bool awaited) {
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

bool Generator::awaitable(json& into, Body& b, bool may_continue) {
  if (may_continue && b.mode == Mode::line && b.continuations > 0 && chance(50)) {
    into.push_back(loop_op(b, true));
    return true;
  }
  if (b.mode == Mode::fan_out && chance(40)) {
    into.push_back(fast(b));
    return false;
  }
  Body quiet{b.slot, b.mode, 0, b.timers, b.depth, false, b.phase};  // its callback starts nothing on the loop
  into.push_back(microtask(quiet, true));
  return false;
}

json Generator::awaiting(const std::string& kind, Body& b, bool toplevel) {
  bool timers = b.timers;  // before a pool request among the awaited ones takes them away
  json op = {{"op", kind}, {"log", label(kind == "await" ? "await" : kind == "promiseAll" ? "all" : "race")}};
  if (toplevel) op["toplevel"] = true;
  json children = json::array();
  bool continued = false;
  bool of_null = kind == "await" && !toplevel && chance(30);  // `await null`
  std::uint64_t count = of_null ? 0 : kind == "await" ? 1 : 2 + below(2);
  for (std::uint64_t i = 0; i < count; ++i) continued = awaitable(children, b, kind == "await") || continued;
  if (kind == "await" && !of_null) op["on"] = children[0];
  if (kind != "await") op["of"] = children;
  Body then = continued ? Body{b.slot, mode(), 1, timers, b.depth + 1, true} : b.inside();
  with_then(op, list(then, below(3)));
  if (!continued) b.continuations = then.continuations;
  return op;
}

}  // namespace random_draw

nlohmann::json random_program(std::uint64_t seed, std::uint64_t index) {
  return random_draw::Generator(seed, index).program();
}

std::string write_random_program(std::uint64_t seed, std::uint64_t index, const std::string& folder) {
  nlohmann::json program = random_program(seed, index);
  std::string path = (std::filesystem::path(folder) / (program.at("name").get<std::string>() + ".json")).string();
  std::ofstream out(path);
  out << program.dump(2) << "\n";
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace stallbench::loop
