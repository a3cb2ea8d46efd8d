#include "program_engine.h"

#include <algorithm>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>

#include "line_program.h"

namespace stallbench::regex {
namespace {

const ProgramSpec kPrograms[] = {
#include "regex_programs.inc"  // NOLINT: written by CMake, one {engine, command, version} per program built
};

// Bytes as lowercase hex, "-" for none: the protocol's one encoding, which no language needs a
// library to read.
std::string hex(std::string_view bytes) {
  if (bytes.empty()) return "-";
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

struct Reply {
  std::string status;  // ok, rejected, guarded, error
  std::string rest;
};

Reply parse(const std::string& line) {
  auto space = line.find(' ');
  return {line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1)};
}

// `ok ...` -> its words; `rejected` and `guarded` are the engine's own outcome, anything else broke
// the protocol.
std::string expect_ok(const std::string& engine, const std::string& line) {
  Reply reply = parse(line);
  if (reply.status == "ok") return reply.rest;
  if (reply.status == "rejected" || reply.status == "guarded") throw EngineFailure(reply.status, reply.rest);
  throw std::runtime_error(engine + " program: " + (reply.status == "error" ? reply.rest : "unexpected reply: " + line));
}

// One program per command line, started on first use and never destroyed: compiled patterns may
// outlive any static (Google Benchmark's registry holds them until exit), and at exit the kernel
// closes the pipe, so the program reads end-of-file and exits by itself.
struct SharedProgram {
  LineProgram process;
  std::vector<std::string> inputs;  // the set it has, as bytes
  bool has_inputs = false;
};

SharedProgram& shared_program(const std::vector<std::string>& command) {
  static auto* programs = new std::map<std::vector<std::string>, std::unique_ptr<SharedProgram>>;
  auto& slot = (*programs)[command];
  if (!slot) slot.reset(new SharedProgram{LineProgram(command), {}, false});
  return *slot;
}

// Sends `inputs` as the program's current set unless they are the set it already has.
void send_inputs(const std::string& engine, SharedProgram& program, std::span<const std::string_view> inputs) {
  auto& have = program.inputs;
  if (program.has_inputs && std::equal(inputs.begin(), inputs.end(), have.begin(), have.end())) return;
  std::string line = "inputs";
  for (auto input : inputs) line.append(" ").append(hex(input));
  program.has_inputs = false;  // a failed send leaves the program's set unknown: the next batch sends again
  expect_ok(engine, program.process.request(line));
  have.assign(inputs.begin(), inputs.end());
  program.has_inputs = true;
}

std::vector<std::string> command_for(const ProgramSpec& spec, const Options& options) {
  std::vector<std::string> command = spec.command;
  for (auto& arg : command) {
    if (arg != "{node}") continue;
    if (options.node.empty()) throw std::invalid_argument("engine " + spec.engine + " needs a Node binary (Options::node)");
    arg = options.node;
  }
  return command;
}

class ProgramRegex : public Regex {
 public:
  ProgramRegex(const ProgramSpec& spec, std::string_view pattern, const Options& options)
      : engine_(spec.engine), program_(shared_program(command_for(spec, options))) {
    std::string flags = options.flags.letters();
    std::string words = expect_ok(engine_, program_.process.request(
        "compile " + (flags.empty() ? "-" : flags) + (options.anchoring == Anchoring::full ? " full " : " search ") +
        hex(pattern)));
    Reply id_and_note = parse(words);  // "<id>" or "<id> fallback <why>"
    id_ = id_and_note.status;
    if (id_and_note.rest.rfind("fallback ", 0) == 0) fallback_ = id_and_note.rest.substr(9);
  }
  ~ProgramRegex() override {
    try {
      program_.process.request("free " + id_);
    } catch (const std::exception&) {  // the program is already gone: nothing to free
    }
  }
  ProgramRegex(const ProgramRegex&) = delete;
  ProgramRegex& operator=(const ProgramRegex&) = delete;

  bool matches(std::string_view input) override {
    std::string_view one[] = {input};
    return run_batch(one, 1).matched == 1;
  }

  Batch run_batch(std::span<const std::string_view> inputs, int repeat) override {
    send_inputs(engine_, program_, inputs);
    Reply counts = parse(expect_ok(engine_, program_.process.request("batch " + id_ + " " + std::to_string(repeat))));
    try {
      return {std::stoul(counts.status), std::stod(counts.rest)};
    } catch (const std::logic_error&) {
      throw std::runtime_error(engine_ + " program: a batch reply is 'ok <matched> <ms>', not 'ok " + counts.status +
                               " " + counts.rest + "'");
    }
  }

  Batch fastest(std::string_view input, const Rounds& rounds) override {
    std::string_view one[] = {input};
    send_inputs(engine_, program_, one);
    std::ostringstream line;
    line << "timed " << id_ << " " << rounds.rounds << " " << rounds.floor_ms << " " << rounds.below_ms << " "
         << rounds.one_round_from_ms;
    Reply counts = parse(expect_ok(engine_, program_.process.request(line.str())));
    try {
      return {std::stoul(counts.status), std::stod(counts.rest)};
    } catch (const std::logic_error&) {
      throw std::runtime_error(engine_ + " program: a timed reply is 'ok <matched> <ms>', not 'ok " + counts.status +
                               " " + counts.rest + "'");
    }
  }

  // The whole set in one request. A program that answers it otherwise is broken, and says so: asking
  // it input by input instead hid a program whose `answers` failed on every regex (and took a round
  // trip per input, the cost `answers` exists to remove).
  std::string answers(std::span<const std::string_view> inputs) override {
    send_inputs(engine_, program_, inputs);
    std::string bits = expect_ok(engine_, program_.process.request("answers " + id_));
    if (bits == "-") bits.clear();
    if (bits.size() != inputs.size()) {
      throw std::runtime_error(engine_ + " program: " + std::to_string(bits.size()) + " answers to " +
                               std::to_string(inputs.size()) + " inputs");
    }
    return bits;
  }

  std::string fallback() const override { return fallback_; }

 private:
  std::string engine_;
  SharedProgram& program_;
  std::string id_;
  std::string fallback_;
};

}  // namespace

const ProgramSpec* find_program(std::string_view engine) {
  for (const auto& spec : kPrograms)
    if (spec.engine == engine) return &spec;
  return nullptr;
}

std::unique_ptr<Regex> compile_program(const ProgramSpec& spec, std::string_view pattern, const Options& options) {
  return std::make_unique<ProgramRegex>(spec, pattern, options);
}

void start_program(const ProgramSpec& spec, const Options& options) {
  SharedProgram& program = shared_program(command_for(spec, options));
  if (!program.has_inputs) send_inputs(spec.engine, program, {});  // an empty set: the cheapest request
}

}  // namespace stallbench::regex
