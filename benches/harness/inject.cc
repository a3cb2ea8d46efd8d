#include "inject.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "grid.h"

namespace stallbench::bench {

std::optional<double> injected_work_pct(const std::string& family, const std::string& benchmark) {
  const char* raw = std::getenv(kInjectWorkVariable);
  if (raw == nullptr || *raw == '\0') return std::nullopt;
  std::string text = raw;
  auto colon = text.rfind(':');
  std::string usage = std::string(kInjectWorkVariable) + "=" + text + ": expected FAMILY/BENCHMARK:PCT with PCT in (0, 1000]";
  if (colon == std::string::npos) throw std::invalid_argument(usage);
  char* end = nullptr;
  std::string pct_text = text.substr(colon + 1);
  double pct = std::strtod(pct_text.c_str(), &end);
  if (pct_text.empty() || *end != '\0' || !(pct > 0 && pct <= 1000)) throw std::invalid_argument(usage);
  if (text.substr(0, colon) != family + "/" + benchmark) return std::nullopt;
  return pct;
}

Cell with_injected_work(const Benchmark& b, const Cell& cell, double pct) {
  auto values = cell.values();
  bool scaled = false;
  for (const auto& p : b.params) {
    if (!p.work || p.per_process) continue;  // a per-process value is the whole process's, not this cell's
    auto declared = cell.integer(p.name);
    auto more = static_cast<std::int64_t>(std::llround(static_cast<double>(declared) * (1 + pct / 100)));
    values[p.name] = std::to_string(std::max(more, declared + 1));
    if (auto problem = check_value(p, values[p.name]); !problem.empty())
      throw std::invalid_argument(std::string(kInjectWorkVariable) + ": " + problem);
    scaled = true;
  }
  if (!scaled)
    throw std::invalid_argument(std::string(kInjectWorkVariable) + ": benchmark " + b.name +
                                " declares no in-process `work` parameter to scale");
  return Cell(values);
}

}  // namespace stallbench::bench
