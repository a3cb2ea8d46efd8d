// The C++ adapters behind engine.h, one file each, compiled only when their library was found
// (workloads/regex/CMakeLists.txt defines STALLBENCH_HAVE_<ENGINE>). engines.cc's table lists
// them; the engines in programs of their own are program_engine.h's.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine.h"

namespace stallbench::regex {

std::unique_ptr<Regex> compile_boost(std::string_view pattern, const Options& options);
std::string boost_version();

std::unique_ptr<Regex> compile_std(std::string_view pattern, const Options& options);
std::string std_version();

std::unique_ptr<Regex> compile_pcre2(std::string_view pattern, const Options& options, bool jit);
std::string pcre2_version();

std::unique_ptr<Regex> compile_re2(std::string_view pattern, const Options& options);
std::string re2_version();

std::unique_ptr<Regex> compile_hyperscan(std::string_view pattern, const Options& options);
std::string hyperscan_version();

}  // namespace stallbench::regex
