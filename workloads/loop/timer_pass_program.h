// Programs of timers due in one pass, decoded from bytes: what the scenario fuzz target runs on the
// model of every line (tests/fuzz/timer_pass_fuzz.cc) and `stallbench_trace timer-pass` writes for
// Node to run too. The main module arms two to eight timers and intervals of 0-3 ms, some sharing a
// list and none shorter than one armed before it (a shorter one armed later would race the
// clock), then works 5 ms, so that every one is due in the loop's first timers pass whatever the load.
// Each callback may clear any of them (the next ones of its list, a list due after it, itself, one
// already run), at once or from a tick, a microtask, a promise reaction or an immediate, and may arm
// a timer into its own list. Its order is decided by the program alone: what the queues clear
// between two timers of the pass never runs and the others still do (lib/internal/timers.js), the
// immediates run after the pass, the nested timers in a later one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace stallbench::loop {

// The program `data` stands for, named `name`; any bytes give a valid scenario document.
nlohmann::json timer_pass_program(const std::uint8_t* data, std::size_t size, const std::string& name);

// Program `index` of series `seed` (bytes from std::mt19937_64): the same document on every machine.
nlohmann::json timer_pass_program(std::uint64_t seed, std::uint64_t index);

}  // namespace stallbench::loop
