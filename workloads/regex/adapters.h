// The adapters behind engine.h, one file each, compiled only when their library was found
// (workloads/regex/CMakeLists.txt defines STALLBENCH_HAVE_<ENGINE>). engines.cc lists them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine.h"

namespace stallbench::regex {

std::unique_ptr<Regex> compile_boost(std::string_view pattern, Anchoring anchoring);
std::string boost_version();

std::unique_ptr<Regex> compile_std(std::string_view pattern, Anchoring anchoring);
std::string std_version();

std::unique_ptr<Regex> compile_pcre2(std::string_view pattern, Anchoring anchoring, bool jit);
std::string pcre2_version();

std::unique_ptr<Regex> compile_re2(std::string_view pattern, Anchoring anchoring);
std::string re2_version();

std::unique_ptr<Regex> compile_hyperscan(std::string_view pattern, Anchoring anchoring);
std::string hyperscan_version();

// V8 through a node process; `linear_fallback` adds V8's experimental linear engine on excessive
// backtracking. node_path() is empty when node is not installed.
std::unique_ptr<Regex> compile_node(std::string_view pattern, Anchoring anchoring, bool linear_fallback);
std::string node_path();
std::string node_version();

}  // namespace stallbench::regex
