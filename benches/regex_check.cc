// regex_check: answers the orchestrator's correctness questions about regexes, outside any timed
// cell. Reads one JSON request on stdin, writes one JSON answer on stdout:
//
//   {"engines": ["re2", "node@26", ...], "nodes": {"26": "/path/to/node"},
//    "regexes": [{"regex": "^a+$", "flags": "i"}, ...], "inputs": ["aa!", ...]}
//   -> {"engines": {"re2": [{"rejected": null, "answers": "0101...", "fallback": null}, ...one per regex], ...}}
//
// Inputs are bytes, carried as the Latin-1 characters they are (each code point 0-255 is one
// byte). `rejected` is the engine's compile error (null when it compiled); `answers` has one
// character per input: 1 match, 0 no match, g the engine's guard fired, e any other failure;
// `fallback` why the engine runs the regex with another algorithm than its own (null: it does not). Used
// to refuse a catalogue whose regex no engine accepts, and to compare engines with each other and
// safe rewrites with their originals on sample inputs. The orchestrator runs it in its own process
// with a time limit: keep inputs short.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "../workloads/regex/engine.h"
#include "../workloads/regex/engines.h"

namespace rx = stallbench::regex;
using nlohmann::json;

namespace {

char answer(rx::Regex& regex, const std::string& input) {
  try {
    return regex.matches(input) ? '1' : '0';
  } catch (const rx::EngineFailure&) {
    return 'g';
  } catch (const std::exception&) {
    return 'e';
  }
}

// UTF-8 text whose code points are all below 256 -> those code points as bytes.
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

json check(const std::string& engine, const json& regex, const std::map<std::string, std::string>& nodes,
           const std::vector<std::string>& inputs) {
  std::unique_ptr<rx::Regex> compiled;
  try {
    std::string base = engine.substr(0, engine.find('@'));
    rx::Options options{.flags = rx::Flags::parse(regex.value("flags", ""))};
    if (rx::runs_in_node(base)) options.node = nodes.at(engine.substr(engine.find('@') + 1));
    compiled = rx::compile(base, regex.at("regex").get<std::string>(), options);
  } catch (const std::out_of_range&) {
    throw std::invalid_argument("engine " + engine + " names no Node line of the request's \"nodes\"");
  } catch (const std::exception& e) {
    return {{"rejected", e.what()}, {"answers", ""}, {"fallback", nullptr}};
  }
  std::string answers;
  for (const auto& input : inputs) answers.push_back(answer(*compiled, input));
  std::string fallback = compiled->fallback();
  return {{"rejected", nullptr}, {"answers", answers}, {"fallback", fallback.empty() ? json(nullptr) : json(fallback)}};
}

}  // namespace

int main() {
  try {
    json request = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    std::vector<std::string> inputs;
    for (const auto& text : request.at("inputs")) inputs.push_back(latin1_bytes(text.get<std::string>()));
    auto nodes = request.value("nodes", std::map<std::string, std::string>{});
    json out = json::object();
    for (const auto& engine : request.at("engines").get<std::vector<std::string>>()) {
      json per_regex = json::array();
      for (const auto& regex : request.at("regexes")) per_regex.push_back(check(engine, regex, nodes, inputs));
      out[engine] = per_regex;
    }
    std::puts(json{{"engines", out}}.dump().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regex_check: %s\n", e.what());
    return 2;
  }
}
