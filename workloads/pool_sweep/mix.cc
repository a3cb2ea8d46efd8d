#include "mix.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

#include "../pool/job_classes.h"
#include "named_mixes.h"

namespace stallbench {
namespace {

constexpr double max_rate = 100'000;
constexpr int max_in_flight = 1024;

std::vector<std::string> split_any(const std::string& text, const char* separators) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find_first_of(separators, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

template <typename Number>
bool parse_number(const std::string& text, Number& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

[[noreturn]] void refuse(const std::string& mix, const std::string& what) {
  throw std::invalid_argument("mix '" + command_line_spelling(mix) + "': " + what);
}

MixEntry parse_entry(const std::string& mix, const std::string& item) {
  auto fields = split_any(item, ":@");
  if (fields.size() < 2 || fields.size() > 3)
    refuse(mix, "'" + command_line_spelling(item) + "' is not CLASS:RATE[:SIZE]");
  MixEntry entry;
  entry.job_class = fields[0];
  const JobClassInfo* info = find_job_class(entry.job_class);
  if (info == nullptr) refuse(mix, "unknown class '" + entry.job_class + "' (valid: " + job_class_names() + ")");
  const std::string& rate = fields[1];
  if (rate.size() > 1 && rate[0] == 'x') {
    if (!parse_number(rate.substr(1), entry.in_flight) || entry.in_flight < 1 || entry.in_flight > max_in_flight)
      refuse(mix, entry.job_class + " in flight '" + rate + "' is not x1-x" + std::to_string(max_in_flight));
  } else if (!parse_number(rate, entry.rate_per_s) || !std::isfinite(entry.rate_per_s) || entry.rate_per_s < 0.01 ||
             entry.rate_per_s > max_rate) {
    refuse(mix, entry.job_class + " rate '" + rate + "' is not a number of jobs per second in 0.01-100000 "
                "(or xN for N jobs kept in flight)");
  }
  entry.size = info->default_size;
  if (fields.size() == 3) {
    if (info->size_meaning.empty()) refuse(mix, entry.job_class + " takes no SIZE");
    if (!parse_number(fields[2], entry.size) || entry.size < info->min_size || entry.size > info->max_size)
      refuse(mix, entry.job_class + " SIZE '" + fields[2] + "' is out of range: " + info->size_meaning + " " +
                      std::to_string(info->min_size) + "-" + std::to_string(info->max_size));
    if (entry.job_class == "scrypt" && (entry.size & (entry.size - 1)) != 0)
      refuse(mix, "scrypt SIZE " + fields[2] + " is not a power of two");
  }
  return entry;
}

}  // namespace

const std::vector<NamedMix>& named_mixes() {
  static const std::vector<NamedMix> mixes = [] {
    std::vector<NamedMix> out;
    const auto doc = nlohmann::json::parse(named_mixes_json);
    for (const auto& m : doc.at("mixes"))
      out.push_back({m.at("name"), m.at("mix"), m.at("analysis")});
    return out;
  }();
  return mixes;
}

std::string command_line_spelling(const std::string& text) {
  std::string out = text;
  std::replace(out.begin(), out.end(), '@', ':');
  std::replace(out.begin(), out.end(), '+', ',');
  return out;
}

Mix parse_mix(const std::string& text) {
  for (const auto& named : named_mixes())
    if (named.name == text) {
      Mix mix = parse_mix(named.mix);
      mix.name = named.name;
      return mix;
    }
  if (text.find_first_of(":@") == std::string::npos) {
    std::string names;
    for (const auto& named : named_mixes()) names += (names.empty() ? "" : ", ") + named.name;
    refuse(text, "not a named mix (" + names + ") nor CLASS:RATE[:SIZE],...");
  }
  Mix mix{text, {}};
  std::set<std::string> seen;
  int closed = 0;
  for (const auto& item : split_any(text, ",+")) {
    MixEntry entry = parse_entry(text, item);
    if (!seen.insert(entry.job_class).second) refuse(text, "class " + entry.job_class + " appears twice");
    closed += entry.closed();
    mix.entries.push_back(entry);
  }
  if (closed > 1) refuse(text, "at most one class may be kept in flight (xN); the others arrive at rates");
  return mix;
}

std::string mix_problem(const std::string& text) {
  try {
    parse_mix(text);
    return {};
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

}  // namespace stallbench
