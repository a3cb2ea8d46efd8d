// V8's irregexp through a node process running node_regex.js, plain or with
// --enable-experimental-regexp-engine-on-excessive-backtracks (V8 switches to its linear engine
// after a number of backtracks, when the pattern is one that engine supports). V8's own guard is
// its backtrack stack limit (RangeError): `guarded`. Each batch is timed inside node. The binary is
// the one of the Node line measured (Options::node): the bench gets it from the orchestrator.
// The inputs cross the pipe once: node keeps the last set it was sent, and a batch of the same
// inputs (every timed batch of a cell) sends only the pattern's id and the repeat count; an attack
// input of megabytes would otherwise be encoded, sent and parsed again for every batch, inside the
// cell's budget.
//
// The node process is this process's child, in its process group, and dies with it
// (child_process.h): node busy backtracking reads no end-of-file, so closing its pipe is not
// enough (it kept running for minutes after regex_check was killed on its timeout). One node
// process per binary and flavour serves every pattern this process compiles (starting node costs ~0.1 s;
// regex_check and the tests compile hundreds).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

#include "../common/child_process.h"
#include "adapters.h"

namespace stallbench::regex {
namespace {

using nlohmann::json;

// Inputs are bytes; without the u flag V8 gets them as the Latin-1 characters they are, so `.` and
// classes see the same units as in the byte-oriented engines (JSON carries them as UTF-8). With
// the u flag they are UTF-8 text and V8 gets the characters they encode.
std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

std::string as_text(std::string_view bytes, bool unicode) {
  return unicode ? std::string(bytes) : latin1_to_utf8(bytes);
}

class NodeProcess {
 public:
  NodeProcess(const std::string& node, bool linear_fallback) {
    if (node.empty()) throw std::invalid_argument("the node engines need the Node binary to run (Options::node)");
    std::signal(SIGPIPE, SIG_IGN);  // a dead node must be an error reply, not a killed bench
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe failed");
    std::vector<std::string> args{node};
    if (linear_fallback) args.emplace_back("--enable-experimental-regexp-engine-on-excessive-backtracks");
    args.emplace_back(STALLBENCH_NODE_HELPER);
    std::string failure;
    try {
      pid_ = spawn_dying_with_us(args, to_child[0], from_child[1], -1);
    } catch (const std::runtime_error& e) {
      failure = e.what();
    }
    close(to_child[0]);
    close(from_child[1]);
    to_child_ = to_child[1];
    from_child_ = fdopen(from_child[0], "r");
    if (!failure.empty()) {
      close(to_child_);
      fclose(from_child_);
      throw std::runtime_error("cannot start " + node + ": " + failure);
    }
  }
  ~NodeProcess() {
    close(to_child_);  // node reads end-of-file and exits
    fclose(from_child_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  NodeProcess(const NodeProcess&) = delete;
  NodeProcess& operator=(const NodeProcess&) = delete;

  // Sends `inputs` as node's current set unless they are the set it already has.
  void use_inputs(std::span<const std::string_view> inputs, bool unicode) {
    bool same = unicode == inputs_unicode_ && inputs.size() == inputs_.size() &&
                std::equal(inputs.begin(), inputs.end(), inputs_.begin());
    if (same) return;
    json texts = json::array();
    for (auto input : inputs) texts.push_back(as_text(input, unicode));
    inputs_.clear();  // a failed send leaves node's set unknown: the next batch sends again
    request({{"op", "inputs"}, {"inputs", std::move(texts)}});
    inputs_.assign(inputs.begin(), inputs.end());
    inputs_unicode_ = unicode;
  }

  json request(const json& message) {
    std::string line = message.dump() + "\n";
    for (std::size_t sent = 0; sent < line.size();) {
      ssize_t n = write(to_child_, line.data() + sent, line.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::runtime_error(std::string("node helper: write failed: ") + std::strerror(errno));
      sent += static_cast<std::size_t>(n);
    }
    char* buffer = nullptr;
    std::size_t capacity = 0;
    ssize_t n = getline(&buffer, &capacity, from_child_);
    std::string reply = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
    std::free(buffer);
    if (reply.empty()) throw std::runtime_error("node helper exited without replying (see its stderr in the log)");
    return json::parse(reply);
  }

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  FILE* from_child_ = nullptr;
  std::vector<std::string> inputs_;  // the set node has, as bytes
  bool inputs_unicode_ = false;
};

// Replies that carry a status are the engine's refusal or guard.
json checked(json reply) {
  if (reply.contains("status"))
    throw EngineFailure(reply.at("status").get<std::string>(), reply.at("message").get<std::string>());
  return reply;
}

// Started on first use and never destroyed: compiled patterns may outlive any static (Google
// Benchmark's registry holds them until exit), and at exit the kernel closes the pipe, so node
// reads end-of-file and exits by itself.
NodeProcess& shared_node(const std::string& node, bool linear_fallback) {
  static auto* processes = new std::map<std::pair<std::string, bool>, std::unique_ptr<NodeProcess>>;
  auto& slot = (*processes)[{node, linear_fallback}];
  if (!slot) slot = std::make_unique<NodeProcess>(node, linear_fallback);
  return *slot;
}

class NodeRegex : public Regex {
 public:
  NodeRegex(std::string_view pattern, const Options& options, bool linear_fallback)
      : node_(shared_node(options.node, linear_fallback)), unicode_(options.flags.unicode) {
    json reply = checked(node_.request({{"op", "compile"},
                                        {"pattern", as_text(pattern, unicode_)},
                                        {"flags", options.flags.letters()},
                                        {"full", options.anchoring == Anchoring::full}}));
    id_ = reply.at("id").get<int>();
  }
  ~NodeRegex() override {
    try {
      node_.request({{"op", "free"}, {"id", id_}});
    } catch (const std::exception&) {  // node already gone: nothing to free
    }
  }
  NodeRegex(const NodeRegex&) = delete;
  NodeRegex& operator=(const NodeRegex&) = delete;

  bool matches(std::string_view input) override {
    std::string_view one[] = {input};
    return run_batch(one, 1).matched == 1;
  }

  Batch run_batch(std::span<const std::string_view> inputs, int repeat) override {
    node_.use_inputs(inputs, unicode_);
    json reply = checked(node_.request({{"op", "batch"}, {"id", id_}, {"repeat", repeat}}));
    return {reply.at("matched").get<std::size_t>(), reply.at("ms").get<double>()};
  }

 private:
  NodeProcess& node_;
  bool unicode_;
  int id_ = -1;
};

}  // namespace

std::unique_ptr<Regex> compile_node(std::string_view pattern, const Options& options, bool linear_fallback) {
  return std::make_unique<NodeRegex>(pattern, options, linear_fallback);
}

}  // namespace stallbench::regex
