#include "node_parse.h"

#include "../common/node_process.h"

namespace stallbench {

extern const char kNodeParseJs[];  // node_parse.js, embedded by CMake
extern const char kNodeWalkJs[];   // node_walk.js

NodeParse run_node_parse(const std::string& node, const std::string& file, const RecordTask& task) {
  nlohmann::json r = run_node_json(node, {"-e", kNodeParseJs, file, task.id, task.a, task.b, task.text});
  NodeParse parse{r.at("first_ms").get<double>(), r.at("steady_ms").get<double>(), {}, r.at("version").get<std::string>()};
  parse.answer.records = r.at("records").get<std::uint64_t>();
  parse.answer.id_sum = r.at("id_sum").get<std::uint64_t>();
  parse.answer.amount_sum = r.at("amount_sum").get<double>();
  parse.answer.text_bytes = r.at("text_bytes").get<std::uint64_t>();
  return parse;
}

NodeWalk run_node_walk(const std::string& node, const std::string& file, double min_ms) {
  nlohmann::json r = run_node_json(node, {"-e", kNodeWalkJs, file, std::to_string(min_ms)});
  NodeWalk walk;
  walk.version = r.at("version").get<std::string>();
  if (r.contains("rejected")) {
    walk.rejected = r.at("rejected").get<std::string>();
    return walk;
  }
  walk.first_ms = r.at("first_ms").get<double>();
  walk.steady_ms = r.at("steady_ms").get<double>();
  walk.iterations = r.at("iterations").get<std::size_t>();
  walk.answer.values = r.at("values").get<std::uint64_t>();
  walk.answer.string_bytes = r.at("string_bytes").get<std::uint64_t>();
  walk.answer.number_sum = r.at("number_sum").get<double>();
  return walk;
}

}  // namespace stallbench
