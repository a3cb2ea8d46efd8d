// Reading one field of a scenario file (private to the scenario loader): each reader checks the
// value's type and range and throws ScenarioError, one line naming the file, the JSON path of the
// value and what would be valid. The values are scenario_fields.cc's, the paths (fs calls, the
// temporary folder, hosts-file names) scenario_paths.cc's.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenario.h"

namespace stallbench::loop {

std::string join(const std::vector<std::string>& words);  // "a, b, c"
std::string shown(const nlohmann::json& value);          // a value as a message shows it: short, on one line

class ScenarioFields {
 public:
  // `name` is the path as given, for messages; `file` the absolute one.
  ScenarioFields(std::string name, std::string file) : name_(std::move(name)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const;

  void allow_only(const nlohmann::json& object, const std::string& where, const std::vector<std::string>& fields) const;
  const nlohmann::json& required(const nlohmann::json& object, const std::string& where, const std::string& field) const;
  std::string text(const nlohmann::json& value, const std::string& where) const;
  bool flag(const nlohmann::json& value, const std::string& where) const;
  std::int64_t integer(const nlohmann::json& value, const std::string& where, std::int64_t low, std::int64_t high) const;
  double milliseconds(const nlohmann::json& value, const std::string& where) const;
  ModuleKind module(const nlohmann::json& value) const;
  std::vector<Order> orders(const nlohmann::json& value, const std::string& where) const;
  std::map<int, std::vector<Order>> orders_by_line(const nlohmann::json& value) const;
  std::vector<std::string> strings(const nlohmann::json& value, const std::string& where) const;  // at most 8
  bool returns(const nlohmann::json& value, const std::string& where) const;  // "promise": true
  std::string error_code(const nlohmann::json& value, const std::string& where) const;

  // scenario_paths.cc. An fs call's path: absolute, existing unless `error` says it must not.
  std::string fs_path(const nlohmann::json& op, const std::string& where, const std::string& error) const;
  // A file name in the run's temporary folder (under a missing folder with ENOENT).
  std::string temporary_name(const nlohmann::json& value, const std::string& where, const std::string& error) const;
  std::string hosts_file_name(const nlohmann::json& op, const std::string& where) const;

 protected:
  const std::string& name() const { return name_; }
  const std::string& file() const { return file_; }

 private:
  std::string name_;
  std::string file_;
};

}  // namespace stallbench::loop
