#include "scenario_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>
#include <sstream>

namespace stallbench::loop {
namespace {

bool awaitable(OpKind kind) {
  switch (kind) {
    case OpKind::log: case OpKind::busy: case OpKind::clear_timeout: case OpKind::clear_interval:
    case OpKind::clear_immediate: case OpKind::set_interval: case OpKind::before_exit: case OpKind::reject:
    case OpKind::exit: case OpKind::uncaught_exception: case OpKind::throw_error: case OpKind::catch_rejection:
      return false;
    default:
      return true;
  }
}

bool repeats(const Op& op) {
  return op.kind == OpKind::set_interval || (op.kind == OpKind::before_exit && op.count > 1) || op.repeat > 1;
}

// How often its callback runs at most.
double times(const Op& op) {
  if (op.kind == OpKind::set_interval || op.kind == OpKind::before_exit) return op.count;
  return op.repeat;
}

// Ops whose callback may end in a `throw` that is an exception, not a rejected promise's reason
// (a promise's callbacks) or a second exception inside the handling of one (uncaughtException,
// exit: Node would end there).
bool may_throw_in(OpKind kind) {
  switch (kind) {
    case OpKind::next_tick: case OpKind::queue_microtask: case OpKind::set_timeout: case OpKind::set_interval:
    case OpKind::set_immediate: case OpKind::read_file: case OpKind::stat: case OpKind::open: case OpKind::close:
    case OpKind::write_file: case OpKind::socket_close: case OpKind::before_exit: case OpKind::listen:
      return true;
    default:
      return false;
  }
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

class Checker {
 public:
  Checker(Scenario& s, const CheckFailure& fail) : s_(s), fail_(fail) {}

  void check() {
    for (std::size_t i = 0; i < s_.program.size(); ++i) {
      const Op& op = s_.program[i];
      if (op.kind == OpKind::await_null && op.toplevel) {
        if (s_.module != ModuleKind::esm) fail_(op.where + ".toplevel", "a top-level await needs \"module\": \"esm\"");
        if (i + 1 != s_.program.size())
          fail_(op.where + ".toplevel", "a top-level await must be the program's last op (what follows it is its `then`)");
      }
    }
    walk(s_.program, nullptr, false, false);
    check_throws(s_.program, nullptr);
    for (const auto* clear : clears_) check_clear(*clear);
    for (const auto* handler : catches_) check_catch(*handler);
    if (callbacks(s_.program) > kMaxCallbacksPerRun)  // nested lists each under the cap, together over it
      fail_("$.program", "one run would make more than " + number(kMaxCallbacksPerRun) + " callbacks");
    s_.min_run_ms = min_ms(s_.program);
    if (s_.min_run_ms > kRunLimitMs)
      fail_("$.program", "its timers and busy work take at least " + number(s_.min_run_ms / 1000) +
                             " s per run, over the trace's limit of " + number(kRunLimitMs / 1000) + " s");
  }

 private:
  // `open`: the open whose `then` this op is in (nullptr: none); `repeated`: a repeating op lies
  // between that open and here.
  void walk(const std::vector<Op>& ops, const Op* open, bool repeated, bool nested) {
    for (const auto& op : ops) visit(op, open, repeated, nested);
  }

  void visit(const Op& op, const Op* open, bool repeated, bool nested) {
    if (op.kind == OpKind::await_null && op.toplevel && nested)
      fail_(op.where + ".toplevel", "a top-level await can only be one of the program's own ops");
    if (is_clear(op.kind)) {
      clears_.push_back(&op);
    } else if (!op.name.empty()) {
      name(op);
    }
    if (op.kind == OpKind::close) close(op, open, repeated);
    for (const auto* list : {&op.on, &op.of})
      for (const auto& child : *list)
        if (!awaitable(child.kind))
          fail_(child.where + ".op", std::string("'") + op_name(child.kind) + "' has no promise to wait for "
                                     "(valid: an op with a callback, such as setTimeout, promise or readFile)");
    bool opens = op.kind == OpKind::open;
    for_each_child(op, [&](const Op& child) {
      visit(child, opens ? &op : open, !opens && (repeated || (open != nullptr && repeats(op))), true);
    });
  }

  // A throw ends the callback it is in: its last op, in a callback that may throw.
  void check_throws(const std::vector<Op>& ops, const Op* owner) const {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      if (op.kind == OpKind::throw_error) {
        if (owner == nullptr || !may_throw_in(owner->kind))
          fail_(op.where + ".op", std::string("a throw must be in the callback of nextTick, queueMicrotask, a timer, an "
                                              "immediate, an fs call, socketClose, listen or beforeExit (here: ") +
                                      (owner ? op_name(owner->kind) : "the main module") + ")");
        if (i + 1 != ops.size()) fail_(op.where + ".op", "a throw must be the last op of its callback (nothing after it runs)");
      }
      if (op.repeat > 1 && !op.name.empty()) fail_(op.where + ".repeat", "an op that repeats cannot also have a name");
      for (const auto* list : {&op.on, &op.of})
        for (const auto& child : *list)
          if (child.repeat > 1) fail_(child.where + ".repeat", "an op waited for cannot repeat (which call would settle it?)");
      check_throws(op.then, &op);
      for (const auto& link : op.next) check_throws(link.then, &link);
      for (const auto* list : {&op.on, &op.of, &op.handled}) check_throws(*list, &op);
    }
  }

  static bool is_clear(OpKind kind) {
    return kind == OpKind::clear_timeout || kind == OpKind::clear_interval || kind == OpKind::clear_immediate;
  }

  void name(const Op& op) {
    if (op.kind != OpKind::set_timeout && op.kind != OpKind::set_interval && op.kind != OpKind::set_immediate &&
        op.kind != OpKind::reject && op.kind != OpKind::catch_rejection)
      fail_(op.where + ".name", "only setTimeout, setInterval, setImmediate and reject take a name");
    if (op.kind == OpKind::catch_rejection) return catches_.push_back(&op);
    if (auto [it, fresh] = named_.emplace(op.name, &op); !fresh)
      fail_(op.where + ".name", "'" + op.name + "' is already the name of " + it->second->where + " (a name is given once)");
  }

  void check_clear(const Op& clear) const {
    auto found = named_.find(clear.name);
    if (found == named_.end()) {
      std::string known;
      for (const auto& [name, op] : named_) known += (known.empty() ? "" : ", ") + name;
      fail_(clear.where + ".name", "no op is named '" + clear.name + "' (named: " + (known.empty() ? "none" : known) + ")");
    }
    bool immediate = found->second->kind == OpKind::set_immediate;
    if (immediate != (clear.kind == OpKind::clear_immediate))
      fail_(clear.where + ".name", "'" + clear.name + "' is a " + op_name(found->second->kind) + " (" +
                                       found->second->where + "): clear it with " +
                                       (immediate ? "clearImmediate" : "clearTimeout or clearInterval"));
  }

  void check_catch(const Op& handler) const {
    auto found = named_.find(handler.name);
    if (found == named_.end() || found->second->kind != OpKind::reject)
      fail_(handler.where + ".name", "'" + handler.name + "' is not the name of a reject (a catch handles a rejected promise)");
  }

  void close(const Op& op, const Op* open, bool repeated) {
    if (open == nullptr) fail_(op.where + ".op", "a close must be inside an open's `then` (it closes that open's file)");
    if (!open->error.empty()) fail_(op.where + ".op", "the open at " + open->where + " expects ENOENT: there is no file to close");
    if (repeated) fail_(op.where + ".op", "a close that repeats (inside a setInterval or beforeExit) would close the file twice");
    if (!closed_.insert(open).second) fail_(op.where + ".op", "the file opened at " + open->where + " is already closed");
  }

  // Callbacks one run makes at most; the first op over the cap is named.
  double callbacks(const std::vector<Op>& ops) const {
    double total = 0;
    for (const auto& op : ops) total += callbacks(op);
    return total;
  }

  double callbacks(const Op& op) const {
    double inner = 1;
    for_each_child(op, [&](const Op& child) { inner += callbacks(child); });
    double times = repeats(op) ? loop::times(op) : 1;
    if (inner * times > kMaxCallbacksPerRun)
      fail_(op.where, "one run would make over " + number(kMaxCallbacksPerRun) + " callbacks (" + number(times) +
                          " × " + number(inner) + ": repeating ops inside repeating ops multiply)");
    return inner * times;
  }

  // What a list of ops run in one callback takes at least: busy work in turn, and each timer from
  // where it was armed.
  double min_ms(const std::vector<Op>& ops) const {
    double busy = 0, longest = 0;
    for (const auto& op : ops) {
      if (op.kind == OpKind::busy) busy += op.ms;
      longest = std::max(longest, busy + min_ms(op));
    }
    return std::max(busy, longest);
  }

  double min_ms(const Op& op) const {
    if (op.unref) return 0;  // it may never run
    double duration = static_cast<double>(Runtime::timer_duration(op.ms));
    double inside = min_ms(op.then);
    for (const auto& next : op.next) inside = std::max(inside, min_ms(next));
    switch (op.kind) {
      case OpKind::set_timeout: return (duration + inside) * op.repeat;
      case OpKind::set_interval: return duration * op.count + inside;
      case OpKind::before_exit: return inside * op.count;
      case OpKind::await_null: return (op.on.empty() ? 0 : min_ms(op.on.front())) + inside;
      case OpKind::promise_all: case OpKind::promise_race: {
        double all = 0, first = 1e300;
        for (const auto& child : op.of) {
          all = std::max(all, min_ms(child));
          first = std::min(first, min_ms(child));
        }
        return (op.kind == OpKind::promise_all ? all : first) + inside;
      }
      case OpKind::busy: return 0;  // counted by the list it is in
      default: return inside;
    }
  }

  Scenario& s_;
  const CheckFailure& fail_;
  std::map<std::string, const Op*> named_;
  std::vector<const Op*> clears_;
  std::vector<const Op*> catches_;
  std::set<const Op*> closed_;
};

}  // namespace

void check_scenario(Scenario& s, const CheckFailure& fail) { Checker(s, fail).check(); }

}  // namespace stallbench::loop
