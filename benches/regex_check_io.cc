#include "regex_check_io.h"

#include <stdexcept>

#include "../workloads/regex/engines.h"
#include "harness/node_lines.h"

namespace stallbench::regex_check {

std::string latin1_bytes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if ((c & 0xFE) == 0xC2 && i + 1 < text.size()) {
      out.push_back(static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F)));
    } else {
      throw std::invalid_argument("an input holds a character above U+00FF: inputs are bytes as Latin-1");
    }
  }
  return out;
}

std::unique_ptr<regex::Regex> compile(const std::string& engine, const std::string& regex, const std::string& flags,
                                      const std::map<std::string, std::string>& nodes) {
  auto [base, node_line] = bench::split_node_value(engine);
  regex::Options options{.flags = regex::Flags::parse(flags)};
  if (regex::runs_in_node(base)) {
    auto line = nodes.find(node_line);
    if (line == nodes.end())
      throw BadRequest("engine " + engine + " names no Node line of the request's \"nodes\"");
    options.node = line->second;
  }
  return regex::compile(base, regex, options);
}

}  // namespace stallbench::regex_check
