// Random small ordering programs: scenario documents (scenario.h) drawn from the scenario grammar,
// whose order is decided by the program alone, so that the model can be checked against each Node
// line on programs nobody wrote by hand (`stallbench trace --random N`, the nightly benchmark
// `starvation/random_parity`). Program `index` of series `seed` is the same document on every
// machine (std::mt19937_64 and std::seed_seq are fully specified; no std distribution is used).
//
// What the generator leaves out is what would make the order a race:
//  - timers due close to anything else: time is cut into slots of kRandomSlotMs; every timer that
//    is not a continuation (below) is due at the start of a slot of its own, a whole number of
//    slots after the slot that armed it (an interval takes one slot per tick; two timers armed
//    together with one delay share Node's list and run in turn, in one slot), and the busy work of
//    a whole program is a small part of one slot. A slot is long enough for Node's start-up tail
//    (1-6 ms for Node 18 here, under 1 ms for the others) and for a process's first fs call, which
//    loads code and starts libuv's pool: 3-30 ms here, up to 50 ms while two processes spun on the
//    two cores. A machine busier still can hold the loop or the pool up for a slot (once, at load
//    10, 100 ms in a timers pass); Runtime::longest_stall_ms says when, and the tests leave such
//    runs out rather than read their order;
//  - pool completions racing loop turns: a callback either fans out (any number of immediates and
//    socket closes, which the check and close phases order, and no pool request) or continues one
//    line (at most one loop-level op: an fs call, an immediate, a close or a timer of 0-2 ms, whose
//    callback continues the line). While a pool request is in flight nothing else is pending but
//    timers slots away;
//  - the start-up tail: the main module is slot 0, like any other callback, so no timer it arms is
//    due near the loop's start unless it is the only thing pending;
//  - a re-run timers pass: a timer callback that queues an immediate or a close arms its burst in
//    its own body, never in the microtasks it queues (on Node 18 and 20 such a burst runs in the
//    same pass only when libuv's millisecond ticked over between two of its setTimeout calls).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace stallbench::loop {

constexpr int kRandomSlotMs = 100;

// Its name is random-SEED-INDEX; no `expect` (Node decides), an `analysis` saying where it comes
// from. Paths are relative to the folder the document is written to (readFile of the file itself,
// ENOENT cases under missing names).
nlohmann::json random_program(std::uint64_t seed, std::uint64_t index);

// Writes that program into the existing folder `folder` as random-SEED-INDEX.json (where its paths
// point) and returns the file's path, for load_scenario.
std::string write_random_program(std::uint64_t seed, std::uint64_t index, const std::string& folder);

}  // namespace stallbench::loop
