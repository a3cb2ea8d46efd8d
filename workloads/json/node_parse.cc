#include "node_parse.h"

#include "../loop/node_process.h"

namespace stallbench {

extern const char kNodeParseJs[];  // node_parse.js, embedded by CMake

NodeParse run_node_parse(const std::string& node, const std::string& file, const RecordTask& task) {
  nlohmann::json r = loop::run_node_json(node, {"-e", kNodeParseJs, file, task.id, task.a, task.b, task.text});
  NodeParse parse{r.at("first_ms").get<double>(), r.at("steady_ms").get<double>(), {}, r.at("version").get<std::string>()};
  parse.answer.records = r.at("records").get<std::uint64_t>();
  parse.answer.id_sum = r.at("id_sum").get<std::uint64_t>();
  parse.answer.amount_sum = r.at("amount_sum").get<double>();
  parse.answer.text_bytes = r.at("text_bytes").get<std::uint64_t>();
  return parse;
}

}  // namespace stallbench
