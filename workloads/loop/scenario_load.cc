// Reading a scenario file. Every problem is reported as one line naming the file, the JSON path
// of the offending value and what would be valid, before anything runs; the checks that need the
// whole program (names, where a close is, what a run costs) are in scenario_check.cc.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../pool/lookup.h"
#include "scenario.h"
#include "scenario_check.h"

namespace stallbench::loop {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double kMaxMs = 10'000;
constexpr int kMaxCount = 1'000;
constexpr int kMaxBeforeExit = 100;
constexpr int kMaxDepth = 32;
constexpr int kMaxOps = 10'000;
constexpr std::size_t kMaxBytes = 16 << 20;

const std::vector<std::string> kCallback = {"log", "then"};

struct OpSpec {
  const char* name;
  OpKind kind;
  std::vector<std::string> required;
  std::vector<std::string> optional;
};

std::vector<std::string> with_callback(std::vector<std::string> fields) {
  fields.insert(fields.end(), kCallback.begin(), kCallback.end());
  return fields;
}

const std::vector<OpSpec>& op_specs() {
  static const std::vector<OpSpec> specs = {
      {"log", OpKind::log, {"text"}, {}},
      {"nextTick", OpKind::next_tick, {}, with_callback({"repeat"})},
      {"promise", OpKind::promise, {}, with_callback({"returns", "next"})},
      {"queueMicrotask", OpKind::queue_microtask, {}, with_callback({"repeat"})},
      {"await", OpKind::await_null, {}, with_callback({"on", "toplevel"})},
      {"setTimeout", OpKind::set_timeout, {"ms"}, with_callback({"name", "unref", "repeat", "args"})},
      {"setInterval", OpKind::set_interval, {"ms", "count"}, with_callback({"name", "unref", "args"})},
      {"setImmediate", OpKind::set_immediate, {}, with_callback({"name", "repeat", "args"})},
      {"clearTimeout", OpKind::clear_timeout, {"name"}, {}},
      {"clearInterval", OpKind::clear_interval, {"name"}, {}},
      {"clearImmediate", OpKind::clear_immediate, {"name"}, {}},
      {"readFile", OpKind::read_file, {}, with_callback({"path", "error"})},
      {"stat", OpKind::stat, {}, with_callback({"path", "error"})},
      {"open", OpKind::open, {}, with_callback({"path", "error"})},
      {"close", OpKind::close, {}, kCallback},
      {"writeFile", OpKind::write_file, {"path"}, with_callback({"bytes", "error"})},
      {"lookup", OpKind::lookup, {}, with_callback({"host"})},
      {"socketClose", OpKind::socket_close, {}, kCallback},
      {"promiseAll", OpKind::promise_all, {"of"}, kCallback},
      {"promiseRace", OpKind::promise_race, {"of"}, kCallback},
      {"beforeExit", OpKind::before_exit, {}, with_callback({"count"})},
      {"reject", OpKind::reject, {}, with_callback({"name", "handled"})},
      {"busy", OpKind::busy, {"ms"}, {"log"}},
      {"exit", OpKind::exit, {}, kCallback},
      {"uncaughtException", OpKind::uncaught_exception, {}, kCallback},
      {"throw", OpKind::throw_error, {}, {"text"}},
      {"catch", OpKind::catch_rejection, {"name"}, kCallback},
      {"listen", OpKind::listen, {}, kCallback},
      {"thenable", OpKind::thenable, {}, kCallback},
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
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

class Loader {
 public:
  // `name` is the path as given, for messages; `file` the absolute one.
  Loader(std::string name, std::string file) : name_(std::move(name)), file_(std::move(file)) {}

  Scenario load() {
    json doc = parse();
    if (!doc.is_object()) fail("$", "must be an object with name, module and program (got " + shown(doc) + ")");
    allow_only(doc, "$", {"name", "module", "program", "analysis", "seed", "expect", "expectByLine", "runs"});
    Scenario s;
    s.file = file_;
    s.name = text(required(doc, "$", "name"), "$.name");
    s.module = module(required(doc, "$", "module"));
    s.program = ops(required(doc, "$", "program"), "$.program", 0);
    if (doc.contains("analysis")) s.analysis = text(doc["analysis"], "$.analysis");
    if (doc.contains("seed")) s.seed = text(doc["seed"], "$.seed");
    if (doc.contains("expect")) s.expect = orders(doc["expect"], "$.expect");
    if (doc.contains("expectByLine")) s.expect_by_line = orders_by_line(doc["expectByLine"]);
    if (doc.contains("runs")) s.runs = integer(doc["runs"], "$.runs", 1, 1000);
    check_scenario(s, [this](const std::string& where, const std::string& problem) { fail(where, problem); });
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
    } catch (const json::exception& e) {
      // "[json.exception.parse_error.101] parse error at line 3, ...; last read: '<bytes>'": the
      // bytes read last may be anything (not UTF-8, control characters), so they are left out. A
      // number past a double's range is refused the same way ("out_of_range.406 number overflow").
      std::string what = e.what();
      if (auto end = what.find("] "); end != std::string::npos) what = what.substr(end + 2);
      if (auto last = what.find("; last read"); last != std::string::npos) what = what.substr(0, last);
      throw ScenarioError(name_ + ": not valid JSON (UTF-8): " + what);
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

  bool flag(const json& value, const std::string& where) const {
    if (!value.is_boolean()) fail(where, "must be true or false (got " + shown(value) + ")");
    return value.get<bool>();
  }

  std::int64_t integer(const json& value, const std::string& where, std::int64_t low, std::int64_t high) const {
    bool whole = value.is_number_integer() || (value.is_number_float() && value.get<double>() == static_cast<long long>(value.get<double>()));
    if (!whole || value.get<double>() < static_cast<double>(low) || value.get<double>() > static_cast<double>(high))
      fail(where, "must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + " (got " + shown(value) + ")");
    return value.get<std::int64_t>();
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

  std::vector<Order> orders(const json& value, const std::string& where) const {
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

  std::map<int, std::vector<Order>> orders_by_line(const json& value) const {
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

  std::vector<Op> ops(const json& value, const std::string& where, int depth) {
    if (!value.is_array()) fail(where, "must be an array of ops (got " + shown(value) + ")");
    if (depth > kMaxDepth) fail(where, "ops nested deeper than " + std::to_string(kMaxDepth) + " levels");
    std::vector<Op> out;
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(parse_op(value[i], where + "[" + std::to_string(i) + "]", depth));
    return out;
  }

  const OpSpec& spec_of(const json& value, const std::string& where) const {
    std::string kind = text(required(value, where, "op"), where + ".op");
    const auto& specs = op_specs();
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const OpSpec& s) { return kind == s.name; });
    if (spec == specs.end()) {
      std::vector<std::string> names;
      for (const auto& s : specs) names.push_back(s.name);
      fail(where + ".op", "unknown op '" + kind + "' (valid: " + join(names) + ")");
    }
    return *spec;
  }

  Op parse_op(const json& value, const std::string& where, int depth) {
    if (++op_count_ > kMaxOps) fail(where, "more than " + std::to_string(kMaxOps) + " ops in one scenario");
    if (!value.is_object()) fail(where, "must be an op object like {\"op\": \"nextTick\"} (got " + shown(value) + ")");
    const OpSpec& spec = spec_of(value, where);
    std::vector<std::string> fields = {"op"};
    fields.insert(fields.end(), spec.required.begin(), spec.required.end());
    fields.insert(fields.end(), spec.optional.begin(), spec.optional.end());
    for (const auto& [key, v] : value.items())
      if (std::find(fields.begin(), fields.end(), key) == fields.end())
        fail(where + "." + key, "field '" + key + "' does not apply to op '" + spec.name + "' (valid: " + join(fields) + ")");
    for (const auto& field : spec.required) required(value, where, field);
    Op op{spec.kind, where};
    fill(op, value, where, depth);
    return op;
  }

  // The fields every kind may have; which ones it may have was checked against its spec.
  void fill(Op& op, const json& value, const std::string& where, int depth) {
    if (value.contains("text")) op.log = text(value["text"], where + ".text");
    if (value.contains("log")) op.log = text(value["log"], where + ".log");
    if (value.contains("ms")) op.ms = milliseconds(value["ms"], where + ".ms");
    if (value.contains("count"))
      op.count = static_cast<int>(integer(value["count"], where + ".count", 1, op.kind == OpKind::before_exit ? kMaxBeforeExit : kMaxCount));
    if (op.kind == OpKind::before_exit && op.count == 0) op.count = 1;
    if (value.contains("repeat")) op.repeat = static_cast<int>(integer(value["repeat"], where + ".repeat", 1, kMaxCount));
    if (value.contains("args")) op.args = strings(value["args"], where + ".args");
    if (value.contains("handled")) op.handled.push_back(listener_call(value["handled"], where + ".handled", depth + 1));
    if (value.contains("name")) op.name = text(value["name"], where + ".name");
    if (value.contains("name") && op.name.empty()) fail(where + ".name", "must not be empty");
    if (value.contains("unref")) op.unref = flag(value["unref"], where + ".unref");
    if (value.contains("toplevel")) op.toplevel = flag(value["toplevel"], where + ".toplevel");
    if (value.contains("bytes")) op.bytes = static_cast<std::size_t>(integer(value["bytes"], where + ".bytes", 0, kMaxBytes));
    if (value.contains("error")) op.error = error_code(value["error"], where + ".error");
    if (value.contains("returns")) op.returns_promise = returns(value["returns"], where + ".returns");
    if (op.kind == OpKind::read_file || op.kind == OpKind::stat || op.kind == OpKind::open) op.path = fs_path(value, where, op.error);
    if (op.kind == OpKind::write_file) op.path = temporary_name(value["path"], where + ".path", op.error);
    if (op.kind == OpKind::lookup) op.host = hosts_file_name(value, where);
    if (value.contains("then")) op.then = ops(value["then"], where + ".then", depth + 1);
    if (value.contains("next")) op.next.push_back(chained_then(value["next"], where + ".next", depth + 1));
    if (value.contains("on")) op.on.push_back(parse_op(value["on"], where + ".on", depth + 1));
    if (value.contains("of")) {
      op.of = ops(value["of"], where + ".of", depth + 1);
      if (op.of.empty()) fail(where + ".of", "must list at least one op");
    }
  }

  std::vector<std::string> strings(const json& value, const std::string& where) const {
    if (!value.is_array() || value.size() > 8) fail(where, "must be an array of at most 8 strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(text(value[i], where + "[" + std::to_string(i) + "]"));
    return out;
  }

  // A reject's `handled`: the 'rejectionHandled' listener's call, an object with log and then.
  Op listener_call(const json& value, const std::string& where, int depth) {
    if (!value.is_object()) fail(where, "must be an object with log and then (the 'rejectionHandled' listener's call)");
    allow_only(value, where, kCallback);
    Op op{OpKind::log, where};
    fill(op, value, where, depth);
    return op;
  }

  // A `next`: the callback of a chained .then, written like a promise op without `op`.
  Op chained_then(const json& value, const std::string& where, int depth) {
    if (++op_count_ > kMaxOps) fail(where, "more than " + std::to_string(kMaxOps) + " ops in one scenario");
    if (depth > kMaxDepth) fail(where, "ops nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (!value.is_object()) fail(where, "must be an object with log, then, returns, next (a chained .then)");
    allow_only(value, where, {"log", "then", "returns", "next"});
    Op op{OpKind::promise, where};
    fill(op, value, where, depth);
    return op;
  }

  bool returns(const json& value, const std::string& where) const {
    if (value == "value") return false;
    if (value == "promise") return true;
    fail(where, "must be \"value\" or \"promise\" (got " + shown(value) + ")");
  }

  std::string error_code(const json& value, const std::string& where) const {
    if (value != "ENOENT") fail(where, "must be \"ENOENT\", the error of a missing file (got " + shown(value) + ")");
    return "ENOENT";
  }

  std::string fs_path(const json& value, const std::string& where, const std::string& error) const {
    if (!value.contains("path")) {
      if (!error.empty()) fail(where + ".error", "needs a `path` that does not exist");
      return file_;
    }
    std::string given = text(value["path"], where + ".path");
    fs::path path = fs::path(given).is_absolute() ? fs::path(given) : fs::path(file_).parent_path() / given;
    path = path.lexically_normal();
    std::error_code ec;
    bool exists = fs::exists(path, ec);
    if (error.empty() && !exists)
      fail(where + ".path", "no such file: " + path.string() + " (relative paths start at the scenario's folder; "
                            "a missing file on purpose says \"error\": \"ENOENT\")");
    if (!error.empty() && exists) fail(where + ".path", path.string() + " exists, but the op expects ENOENT");
    return path.string();
  }

  // A path inside the run's temporary folder: a file name, or (for ENOENT) one under a folder
  // that is not there.
  std::string temporary_name(const json& value, const std::string& where, const std::string& error) const {
    std::string given = text(value, where);
    fs::path path(given);
    bool plain = !given.empty() && path.is_relative() && path.lexically_normal() == path &&
                 std::none_of(path.begin(), path.end(), [](const fs::path& p) { return p == ".." || p == "."; });
    bool nested = path.has_parent_path();
    if (!plain || nested != !error.empty())
      fail(where, "must be a file name in the run's temporary folder (like \"out.txt\"; with \"error\": \"ENOENT\", "
                  "one under a missing folder, like \"missing/out.txt\") (got " + shown(value) + ")");
    return given;
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

std::string Op::label(int call) const {
  std::string out = log;
  for (const auto& arg : args) out += " " + arg;
  if (repeat > 1) out += " " + std::to_string(call);
  return out;
}

const char* module_name(ModuleKind kind) { return kind == ModuleKind::esm ? "esm" : "cjs"; }

const std::vector<Order>& Scenario::expected_on(int line) const {
  auto found = expect_by_line.find(line);
  return found != expect_by_line.end() ? found->second : expect;
}

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return Loader(path, ec ? path : absolute.lexically_normal().string()).load();
}

}  // namespace stallbench::loop
