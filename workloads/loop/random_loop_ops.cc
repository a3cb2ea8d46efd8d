// The loop-level ops of a random program (random_generator.h): an immediate or a socket close among
// others (fan-out mode), or a line's one continuation: an fs call (a pool request, where no timer of a
// later slot is pending: Generator::pool_request_fits), an immediate, a close or a short timer.
#include <map>

#include "random_generator.h"

namespace stallbench::loop::random_draw {

json Generator::fast(Body& b) {
  bool immediate = chance(75);
  json op = {{"op", immediate ? "setImmediate" : "socketClose"}, {"log", label(immediate ? "immediate" : "close")}};
  if (immediate && chance(25)) op["name"] = name("setImmediate");
  Body inside = b.inside();
  inside.phase = Phase::other;  // the check or close phase
  with_then(op, list(inside, below(3)));
  return op;
}

json Generator::loop_op(Body& b, bool quiet) {
  b.continuations = 0;
  // No dns.lookup: getaddrinfo("localhost") took 2-25 ms here (the first call the longest), as long
  // as a slot, so its callback would race the next slot's timer.
  static const std::vector<const char*> kinds = {"readFile", "readFile", "stat", "open", "writeFile",
                                                 "setImmediate", "socketClose", "setTimeout"};
  static const std::vector<const char*> off_the_pool = {"setImmediate", "socketClose", "setTimeout"};
  std::string kind = kinds[below(kinds.size())];
  if (kind == "open" && quiet) kind = "stat";  // its close would still be in flight when the awaiting callback runs
  bool pool = kind != "setImmediate" && kind != "socketClose" && kind != "setTimeout";
  if (pool && !pool_request_fits(b)) kind = off_the_pool[below(off_the_pool.size())], pool = false;
  bool timers = b.timers;
  if (pool) {
    pool_slots_.insert(b.slot);
    b.timers = false;  // the rest of this callback and its microtasks run while the request is in flight
  }
  Body then = quiet ? Body{b.slot, Mode::line, 0, timers, b.depth + 1, pool} : Body{b.slot, mode(), 1, timers, b.depth + 1, pool};
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
    Body open_body{b.slot, Mode::line, 0, false, b.depth + 1};  // its microtasks run while the close is in flight
    json ops = list(open_body, below(2));
    json close = {{"op", "close"}, {"log", label("fclose")}};
    Body after{b.slot, mode(), 1, timers, b.depth + 2, true};
    with_then(close, list(after, below(3)));
    ops.push_back(close);
    op["then"] = ops;
    return op;
  }
  with_then(op, list(then, below(3)));
  return op;
}

}  // namespace stallbench::loop::random_draw
