// The op table (scenario_ops.h) and what is spelled from it: op names, a call's label, a module's
// kind, the orders a scenario expects on a line.
#include "scenario_ops.h"

namespace stallbench::loop {
namespace {

std::vector<std::string> with_callback(std::vector<std::string> fields) {
  fields.insert(fields.end(), callback_fields().begin(), callback_fields().end());
  return fields;
}

}  // namespace

const std::vector<std::string>& callback_fields() {
  static const std::vector<std::string> fields = {"log", "then"};
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
      {"close", OpKind::close, {}, callback_fields()},
      {"writeFile", OpKind::write_file, {"path"}, with_callback({"bytes", "error"})},
      {"lookup", OpKind::lookup, {}, with_callback({"host"})},
      {"socketClose", OpKind::socket_close, {}, callback_fields()},
      {"promiseAll", OpKind::promise_all, {"of"}, callback_fields()},
      {"promiseRace", OpKind::promise_race, {"of"}, callback_fields()},
      {"beforeExit", OpKind::before_exit, {}, with_callback({"count"})},
      {"reject", OpKind::reject, {}, with_callback({"name", "handled"})},
      {"busy", OpKind::busy, {"ms"}, {"log"}},
      {"exit", OpKind::exit, {}, callback_fields()},
      {"uncaughtException", OpKind::uncaught_exception, {}, callback_fields()},
      {"throw", OpKind::throw_error, {}, {"text"}},
      {"catch", OpKind::catch_rejection, {"name"}, callback_fields()},
      {"listen", OpKind::listen, {}, callback_fields()},
      {"thenable", OpKind::thenable, {}, callback_fields()},
  };
  return specs;
}

const char* op_name(OpKind kind) {
  for (const auto& s : op_specs())
    if (s.kind == kind) return s.name;
  return "?";
}

std::string Op::label(int call) const {
  std::string out = log;
  for (const auto& arg : args) out.append(" ").append(arg);
  if (repeat > 1) out.append(" ").append(std::to_string(call));  // appended: GCC 12 misreads " " + string (-Wrestrict)
  return out;
}

const char* module_name(ModuleKind kind) { return kind == ModuleKind::esm ? "esm" : "cjs"; }

const std::vector<Order>& Scenario::expected_on(int line) const {
  auto found = expect_by_line.find(line);
  return found != expect_by_line.end() ? found->second : expect;
}

}  // namespace stallbench::loop
