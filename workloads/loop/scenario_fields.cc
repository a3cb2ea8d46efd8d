// The value readers of a scenario file (scenario_fields.h).
#include "scenario_fields.h"

#include <algorithm>
#include <cmath>

namespace stallbench::loop {

using nlohmann::json;

namespace {

constexpr double kMaxMs = 10'000;

}  // namespace

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::string shown(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

void ScenarioFields::fail(const std::string& where, const std::string& problem) const {
  throw ScenarioError(name_ + ": " + where + ": " + problem);
}

void ScenarioFields::allow_only(const json& object, const std::string& where, const std::vector<std::string>& fields) const {
  for (const auto& [key, value] : object.items())
    if (std::find(fields.begin(), fields.end(), key) == fields.end())
      fail(where, "unknown field '" + key + "' (valid here: " + join(fields) + ")");
}

const json& ScenarioFields::required(const json& object, const std::string& where, const std::string& field) const {
  if (!object.contains(field)) fail(where, "missing field '" + field + "'");
  return object.at(field);
}

std::string ScenarioFields::text(const json& value, const std::string& where) const {
  if (!value.is_string()) fail(where, "must be a string (got " + shown(value) + ")");
  return value.get<std::string>();
}

bool ScenarioFields::flag(const json& value, const std::string& where) const {
  if (!value.is_boolean()) fail(where, "must be true or false (got " + shown(value) + ")");
  return value.get<bool>();
}

std::int64_t ScenarioFields::integer(const json& value, const std::string& where, std::int64_t low, std::int64_t high) const {
  // The range before anything is converted to an integer: a double past an integer's range (1e300)
  // converted to it is undefined behaviour, not a refusal.
  double number = value.is_number() ? value.get<double>() : NAN;
  if (!(number >= static_cast<double>(low) && number <= static_cast<double>(high)) ||
      (value.is_number_float() && std::trunc(number) != number))
    fail(where, "must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + " (got " + shown(value) + ")");
  return value.is_number_float() ? static_cast<std::int64_t>(number) : value.get<std::int64_t>();
}

double ScenarioFields::milliseconds(const json& value, const std::string& where) const {
  if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > kMaxMs)
    fail(where, "must be a number of milliseconds from 0 to " + std::to_string(static_cast<int>(kMaxMs)) +
                    " (got " + shown(value) + ")");
  return value.get<double>();
}

ModuleKind ScenarioFields::module(const json& value) const {
  if (value == "cjs") return ModuleKind::commonjs;
  if (value == "esm") return ModuleKind::esm;
  fail("$.module", "must be \"cjs\" or \"esm\" (got " + shown(value) + ")");
}

std::vector<Order> ScenarioFields::orders(const json& value, const std::string& where) const {
  if (!value.is_array() || value.empty()) fail(where, "must be a non-empty array of orders (arrays of log labels)");
  std::vector<Order> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string at = where + "[" + std::to_string(i) + "]";
    if (!value[i].is_array()) fail(at, "must be an array of log labels (got " + shown(value[i]) + ")");
    Order order;
    for (std::size_t k = 0; k < value[i].size(); ++k) order.push_back(text(value[i][k], at + "[" + std::to_string(k) + "]"));
    out.push_back(std::move(order));
  }
  return out;
}

std::map<int, std::vector<Order>> ScenarioFields::orders_by_line(const json& value) const {
  if (!value.is_object()) fail("$.expectByLine", "must be an object of Node line -> orders, like {\"18\": [[\"a\", \"b\"]]}");
  std::map<int, std::vector<Order>> out;
  for (const auto& [key, orders_of_line] : value.items()) {
    std::string where = "$.expectByLine." + key;
    int line = 0;
    try {
      std::size_t used = 0;
      line = std::stoi(key, &used);
      if (used != key.size()) throw std::invalid_argument(key);
      node_line_model(line);
    } catch (const std::exception&) {
      fail(where, "'" + key + "' is not a modelled Node line (valid: " + modelled_lines_text() + ")");
    }
    out[line] = orders(orders_of_line, where);
  }
  return out;
}

std::vector<std::string> ScenarioFields::strings(const json& value, const std::string& where) const {
  if (!value.is_array() || value.size() > 8) fail(where, "must be an array of at most 8 strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(text(value[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

bool ScenarioFields::returns(const json& value, const std::string& where) const {
  if (value == "value") return false;
  if (value == "promise") return true;
  fail(where, "must be \"value\" or \"promise\" (got " + shown(value) + ")");
}

std::string ScenarioFields::error_code(const json& value, const std::string& where) const {
  if (value != "ENOENT") fail(where, "must be \"ENOENT\", the error of a missing file (got " + shown(value) + ")");
  return "ENOENT";
}

}  // namespace stallbench::loop
