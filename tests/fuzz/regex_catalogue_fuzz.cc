// The bench's pattern catalogue loader (workloads/regex/catalogue.cc) on any bytes: a catalogue, or
// std::runtime_error with one line. For a loaded one, every variant is looked up and every
// pattern's attack input built at a few lengths of whole pumps, as the bench does before it times
// anything; a length that would cut a pump is refused.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "memory_file.h"
#include "workloads/regex/catalogue.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  stallbench::fuzz::MemoryFile file(data, size);
  stallbench::regex::Catalogue catalogue;
  try {
    catalogue = stallbench::regex::Catalogue::load(file.path());
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const auto& name : catalogue.variant_names()) catalogue.variant(name);
  for (const auto& pattern : catalogue.patterns()) {
    // A pattern without a pump waits for the orchestrator to find its attack (recheck): the bench
    // refuses to time it, which is attack_input's documented std::invalid_argument, not a crash.
    if (pattern.pumps.empty()) continue;
    auto [fixed, period] = stallbench::regex::pump_shape(pattern);
    // Lengths of whole pumps are built, of exactly that length; any other is the documented
    // std::invalid_argument (a cut pump is never built).
    for (std::int64_t length : {fixed, fixed + period, fixed + 17 * period})
      if (static_cast<std::int64_t>(stallbench::regex::attack_input(pattern, length).size()) != length) std::abort();
    if (period > 1) {
      try {
        stallbench::regex::attack_input(pattern, fixed + 1);
        std::abort();
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return 0;
}
