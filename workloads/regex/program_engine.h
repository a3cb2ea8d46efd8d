// Engines that run in a program of their own (programs/<engine>/: Python's re, Ruby, Java, Go,
// Rust, V8 in node), spoken to in the line protocol of programs/README.md. One program per command
// line serves every pattern this process compiles (starting a JVM or node costs a noticeable part
// of a cell's budget; regex_check and the tests compile hundreds of patterns); inputs cross the
// pipe once per set, not once per timed batch, and each batch is timed inside the program, so the
// pipe is not measured.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"

namespace stallbench::regex {

struct ProgramSpec {
  std::string engine;
  std::vector<std::string> command;  // argv; "{node}" stands for the Node binary (Options::node)
  std::string version;               // read at configure time; empty: recorded elsewhere (Node's)
};

// The program CMake built or found for `engine` (workloads/regex/CMakeLists.txt writes the list);
// null when this build has none.
const ProgramSpec* find_program(std::string_view engine);

// Throws EngineFailure("rejected", ...) with the engine's message, std::runtime_error when the
// program cannot start or breaks the protocol.
std::unique_ptr<Regex> compile_program(const ProgramSpec& spec, std::string_view pattern, const Options& options);

// Starts the program `spec` runs in for these options (shared, as compile_program's) and returns
// once it has answered a request; at once when it already has. Throws as compile_program does.
void start_program(const ProgramSpec& spec, const Options& options);

}  // namespace stallbench::regex
