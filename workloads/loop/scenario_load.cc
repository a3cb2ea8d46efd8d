// Reading and checking a scenario file. Every problem is reported as one line naming the file,
// the JSON path of the offending value and what would be valid, before anything runs.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../pool/lookup.h"
#include "scenario.h"

namespace stallbench::loop {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double kMaxMs = 10'000;  // every run stays bounded
constexpr int kMaxCount = 1'000;
constexpr int kMaxDepth = 32;
constexpr int kMaxOps = 10'000;

struct OpSpec {
  const char* name;
  OpKind kind;
  std::vector<std::string> required;
  std::vector<std::string> optional;
};

const std::vector<OpSpec>& op_specs() {
  static const std::vector<OpSpec> specs = {
      {"log", OpKind::log, {"text"}, {}},
      {"nextTick", OpKind::next_tick, {}, {"log", "then"}},
      {"promise", OpKind::promise, {}, {"log", "then"}},
      {"queueMicrotask", OpKind::queue_microtask, {}, {"log", "then"}},
      {"setTimeout", OpKind::set_timeout, {"ms"}, {"log", "then"}},
      {"setImmediate", OpKind::set_immediate, {}, {"log", "then"}},
      {"setInterval", OpKind::set_interval, {"ms", "count"}, {"log", "then"}},
      {"readFile", OpKind::read_file, {}, {"path", "log", "then"}},
      {"lookup", OpKind::lookup, {}, {"host", "log", "then"}},
      {"busy", OpKind::busy, {"ms"}, {"log"}},
      {"await", OpKind::await_null, {}, {"log", "then"}},
  };
  return specs;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// A value as the message shows it: short, on one line.
std::string shown(const json& value) {
  std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

class Loader {
 public:
  // `name` is the path as given, for messages; `file` the absolute one.
  Loader(std::string name, std::string file) : name_(std::move(name)), file_(std::move(file)) {}

  Scenario load() {
    json doc = parse();
    if (!doc.is_object()) fail("$", "must be an object with name, module and program (got " + shown(doc) + ")");
    allow_only(doc, "$", {"name", "module", "program", "analysis", "seed", "expect", "runs"});
    Scenario s;
    s.file = file_;
    s.name = text(required(doc, "$", "name"), "$.name");
    s.module = module(required(doc, "$", "module"));
    s.program = ops(required(doc, "$", "program"), "$.program", 0);
    if (doc.contains("analysis")) s.analysis = text(doc["analysis"], "$.analysis");
    if (doc.contains("seed")) s.seed = text(doc["seed"], "$.seed");
    if (doc.contains("expect")) s.expect = orders(doc["expect"]);
    if (doc.contains("runs")) s.runs = integer(doc["runs"], "$.runs", 1, 1000);
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw ScenarioError(name_ + ": " + where + ": " + problem);
  }

  json parse() const {
    std::error_code ec;
    if (!fs::exists(file_, ec)) throw ScenarioError(name_ + ": no such file");
    if (!fs::is_regular_file(file_, ec)) throw ScenarioError(name_ + ": not a regular file");
    std::ifstream in(file_);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (!in) throw ScenarioError(name_ + ": cannot be read");
    try {
      return json::parse(bytes.str());
    } catch (const json::parse_error& e) {
      std::string what = e.what();  // "[json.exception.parse_error.101] parse error at line 3, ..."
      if (auto end = what.find("] "); end != std::string::npos) what = what.substr(end + 2);
      throw ScenarioError(name_ + ": not valid JSON: " + what);
    }
  }

  void allow_only(const json& object, const std::string& where, const std::vector<std::string>& fields) const {
    for (const auto& [key, value] : object.items())
      if (std::find(fields.begin(), fields.end(), key) == fields.end())
        fail(where, "unknown field '" + key + "' (valid here: " + join(fields) + ")");
  }

  const json& required(const json& object, const std::string& where, const std::string& field) const {
    if (!object.contains(field)) fail(where, "missing field '" + field + "'");
    return object.at(field);
  }

  std::string text(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, "must be a string (got " + shown(value) + ")");
    return value.get<std::string>();
  }

  int integer(const json& value, const std::string& where, int low, int high) const {
    bool whole = value.is_number_integer() || (value.is_number_float() && value.get<double>() == static_cast<long long>(value.get<double>()));
    if (!whole || value.get<double>() < low || value.get<double>() > high)
      fail(where, "must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + " (got " + shown(value) + ")");
    return value.get<int>();
  }

  double milliseconds(const json& value, const std::string& where) const {
    if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > kMaxMs)
      fail(where, "must be a number of milliseconds from 0 to " + std::to_string(static_cast<int>(kMaxMs)) +
                      " (got " + shown(value) + ")");
    return value.get<double>();
  }

  ModuleKind module(const json& value) const {
    if (value == "cjs") return ModuleKind::commonjs;
    if (value == "esm") return ModuleKind::esm;
    fail("$.module", "must be \"cjs\" or \"esm\" (got " + shown(value) + ")");
  }

  std::vector<std::vector<std::string>> orders(const json& value) const {
    if (!value.is_array() || value.empty()) fail("$.expect", "must be a non-empty array of orders (arrays of log labels)");
    std::vector<std::vector<std::string>> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string where = "$.expect[" + std::to_string(i) + "]";
      if (!value[i].is_array()) fail(where, "must be an array of log labels (got " + shown(value[i]) + ")");
      std::vector<std::string> order;
      for (std::size_t k = 0; k < value[i].size(); ++k)
        order.push_back(text(value[i][k], where + "[" + std::to_string(k) + "]"));
      out.push_back(std::move(order));
    }
    return out;
  }

  std::vector<Op> ops(const json& value, const std::string& where, int depth) {
    if (!value.is_array()) fail(where, "must be an array of ops (got " + shown(value) + ")");
    if (depth > kMaxDepth) fail(where, "ops nested deeper than " + std::to_string(kMaxDepth) + " levels");
    std::vector<Op> out;
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(op(value[i], where + "[" + std::to_string(i) + "]", depth));
    return out;
  }

  Op op(const json& value, const std::string& where, int depth) {
    if (++op_count_ > kMaxOps) fail(where, "more than " + std::to_string(kMaxOps) + " ops in one scenario");
    if (!value.is_object()) fail(where, "must be an op object like {\"op\": \"nextTick\"} (got " + shown(value) + ")");
    std::string kind = text(required(value, where, "op"), where + ".op");
    const auto& specs = op_specs();
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const OpSpec& s) { return kind == s.name; });
    if (spec == specs.end()) {
      std::vector<std::string> names;
      for (const auto& s : specs) names.push_back(s.name);
      fail(where + ".op", "unknown op '" + kind + "' (valid: " + join(names) + ")");
    }
    std::vector<std::string> fields = {"op"};
    fields.insert(fields.end(), spec->required.begin(), spec->required.end());
    fields.insert(fields.end(), spec->optional.begin(), spec->optional.end());
    for (const auto& [key, v] : value.items())
      if (std::find(fields.begin(), fields.end(), key) == fields.end())
        fail(where + "." + key, "field '" + key + "' does not apply to op '" + kind + "' (valid: " + join(fields) + ")");
    for (const auto& field : spec->required) required(value, where, field);

    Op op{spec->kind, where};
    if (value.contains("text")) op.log = text(value["text"], where + ".text");
    if (value.contains("log")) op.log = text(value["log"], where + ".log");
    if (value.contains("ms")) op.ms = milliseconds(value["ms"], where + ".ms");
    if (value.contains("count")) op.count = integer(value["count"], where + ".count", 1, kMaxCount);
    if (op.kind == OpKind::read_file) op.path = readable_file(value, where);
    if (op.kind == OpKind::lookup) op.host = hosts_file_name(value, where);
    if (value.contains("then")) op.then = ops(value["then"], where + ".then", depth + 1);
    return op;
  }

  std::string readable_file(const json& value, const std::string& where) const {
    if (!value.contains("path")) return file_;
    std::string given = text(value["path"], where + ".path");
    fs::path path = fs::path(given).is_absolute() ? fs::path(given) : fs::path(file_).parent_path() / given;
    path = path.lexically_normal();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) fail(where + ".path", "no such file: " + path.string() + " (relative paths start at the scenario's folder)");
    return path.string();
  }

  std::string hosts_file_name(const json& value, const std::string& where) const {
    if (!value.contains("host")) return "localhost";
    std::string host = text(value["host"], where + ".host");
    try {
      require_hosts_file_name(host);
    } catch (const std::invalid_argument& e) {
      fail(where + ".host", e.what());
    }
    return host;
  }

  std::string name_;
  std::string file_;
  int op_count_ = 0;
};

}  // namespace

const char* op_name(OpKind kind) {
  for (const auto& s : op_specs())
    if (s.kind == kind) return s.name;
  return "?";
}

const char* module_name(ModuleKind kind) { return kind == ModuleKind::esm ? "esm" : "cjs"; }

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return Loader(path, ec ? path : absolute.lexically_normal().string()).load();
}

}  // namespace stallbench::loop
