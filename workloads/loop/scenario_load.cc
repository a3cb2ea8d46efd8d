// Reading a scenario file. Every problem is reported as one line naming the file, the JSON path
// of the offending value and what would be valid, before anything runs: each field by its reader
// (scenario_fields.h), each op against the op table (scenario_ops.h); the checks that need the
// whole program (names, where a close is, what a run costs) are in scenario_check.cc.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario.h"
#include "scenario_check.h"
#include "scenario_fields.h"
#include "scenario_ops.h"

namespace stallbench::loop {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kMaxCount = 1'000;
constexpr int kMaxBeforeExit = 100;
constexpr int kMaxDepth = 32;
constexpr int kMaxOps = 10'000;
constexpr std::size_t kMaxBytes = 16 << 20;

class Loader : ScenarioFields {
 public:
  using ScenarioFields::ScenarioFields;

  Scenario load() {
    json doc = parse();
    if (!doc.is_object()) fail("$", "must be an object with name, module and program (got " + shown(doc) + ")");
    allow_only(doc, "$", {"name", "module", "program", "analysis", "seed", "expect", "expectByLine", "runs"});
    Scenario s;
    s.file = file();
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
  json parse() const {
    std::error_code ec;
    if (!fs::exists(file(), ec)) fail_file("no such file");
    if (!fs::is_regular_file(file(), ec)) fail_file("not a regular file");
    std::ifstream in(file());
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (!in) fail_file("cannot be read");
    try {
      return json::parse(bytes.str());
    } catch (const json::exception& e) {
      // "[json.exception.parse_error.101] parse error at line 3, ...; last read: '<bytes>'": the
      // bytes read last may be anything (not UTF-8, control characters), so they are left out. A
      // number past a double's range is refused the same way ("out_of_range.406 number overflow").
      std::string what = e.what();
      if (auto end = what.find("] "); end != std::string::npos) what = what.substr(end + 2);
      if (auto last = what.find("; last read"); last != std::string::npos) what = what.substr(0, last);
      fail_file("not valid JSON (UTF-8): " + what);
    }
  }

  // A problem with the whole file: "NAME: problem", no JSON path.
  [[noreturn]] void fail_file(const std::string& problem) const { throw ScenarioError(name() + ": " + problem); }

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

  void count_op(const std::string& where) {
    if (++op_count_ > kMaxOps) fail(where, "more than " + std::to_string(kMaxOps) + " ops in one scenario");
  }

  Op parse_op(const json& value, const std::string& where, int depth) {
    count_op(where);
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

  // A reject's `handled`: the 'rejectionHandled' listener's call, an object with log and then.
  Op listener_call(const json& value, const std::string& where, int depth) {
    if (!value.is_object()) fail(where, "must be an object with log and then (the 'rejectionHandled' listener's call)");
    allow_only(value, where, callback_fields());
    Op op{OpKind::log, where};
    fill(op, value, where, depth);
    return op;
  }

  // A `next`: the callback of a chained .then, written like a promise op without `op`.
  Op chained_then(const json& value, const std::string& where, int depth) {
    count_op(where);
    if (depth > kMaxDepth) fail(where, "ops nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (!value.is_object()) fail(where, "must be an object with log, then, returns, next (a chained .then)");
    allow_only(value, where, {"log", "then", "returns", "next"});
    Op op{OpKind::promise, where};
    fill(op, value, where, depth);
    return op;
  }

  int op_count_ = 0;
};

}  // namespace

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return Loader(path, ec ? path : absolute.lexically_normal().string()).load();
}

}  // namespace stallbench::loop
