// What the orchestrator's regex helpers (regex_check, regex_probe) share: inputs carried in JSON as
// Latin-1 characters, and an engine named as the orchestrator names it (node@26: V8 in that Node
// line's binary, given in the request's "nodes").
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "../workloads/regex/engine.h"

namespace stallbench::regex_check {

// A request the helper cannot serve (an engine naming no Node line of it): not the regex's fault.
struct BadRequest : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// UTF-8 text whose code points are all below 256 -> those code points as bytes; throws
// std::invalid_argument on a character above U+00FF.
std::string latin1_bytes(const std::string& text);

// Compiles `regex` with `flags` (letters of imsu) by `engine` (a name, or NAME@LINE for the engines
// that run per Node line); throws regex::EngineFailure when the engine refuses it,
// BadRequest when NAME@LINE names no line of `nodes`.
std::unique_ptr<regex::Regex> compile(const std::string& engine, const std::string& regex, const std::string& flags,
                                      const std::map<std::string, std::string>& nodes);

}  // namespace stallbench::regex_check
