// The C++ adapters behind engine.h, one folder each under adapters/ (compiled only when their
// library was found), declared here from the list this build's CMake wrote (regex_adapters.inc, one
// STALLBENCH_REGEX_ADAPTER(id, engine) per engine an adapter brings): an adapter defines
// compile_<id> and <id>_version for each, <id> being the engine's name with `-` as `_`. engines.cc's
// table finds them by the engine's name; the engines in programs of their own are program_engine.h's.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine.h"

namespace stallbench::regex {

#define STALLBENCH_REGEX_ADAPTER(id, engine)                                              \
  std::unique_ptr<Regex> compile_##id(std::string_view pattern, const Options& options); \
  std::string id##_version();
#include "regex_adapters.inc"
#undef STALLBENCH_REGEX_ADAPTER

}  // namespace stallbench::regex
