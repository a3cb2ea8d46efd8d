#include "timer_pass_program.h"

#include <algorithm>
#include <random>
#include <vector>

namespace stallbench::loop {
namespace {

using nlohmann::json;

// "t3": the name of timer 3 (appended, not `"t" + std::to_string(i)`, which GCC 12 misreads as an
// overlapping copy, -Wrestrict).
std::string timer_name(int i) { return std::string("t").append(std::to_string(i)); }

constexpr int kMaxTimers = 8;
constexpr int kMaxOps = 4;  // per callback
constexpr int kBusyMs = 5;  // longer than the longest timer (3 ms)

// Reads the bytes one at a time; past their end, zeros.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  int next(int n) { return n <= 1 ? 0 : (at_ < size_ ? data_[at_++] : 0) % n; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

class Decoder {
 public:
  explicit Decoder(Bytes bytes) : bytes_(bytes) {}

  json program() {
    int count = 2 + bytes_.next(kMaxTimers - 1);
    json ops = json::array();
    for (int i = 0; i < count; ++i) {
      bool interval = bytes_.next(4) == 0;
      // Durations never shrink in arming order: a list's expiry is its first timer's start plus its
      // duration, so a shorter timer armed after a longer one would run first or not depending on
      // whether the clock ticked between the two calls (a race on a busy machine).
      int previous = i > 0 ? durations_.back() : 0;
      int ms = std::min(3, previous + bytes_.next(3) / 2);  // the same list half the time
      durations_.push_back(std::max(ms, 1));
      json op = {{"op", interval ? "setInterval" : "setTimeout"}, {"ms", ms}, {"name", timer_name(i)},
                 {"log", std::string(interval ? "interval " : "timeout ") + timer_name(i)}};
      if (interval) op["count"] = 1;
      ops.push_back(op);
    }
    for (int i = 0; i < count; ++i) {  // drawn once every timer has its name
      json then = callback_ops(i, count);
      if (!then.empty()) ops[static_cast<std::size_t>(i)]["then"] = then;
    }
    ops.push_back({{"op", "busy"}, {"ms", kBusyMs}});
    return ops;
  }

 private:
  json clear(int count) {
    int k = bytes_.next(count);
    return {{"op", bytes_.next(2) == 0 ? "clearTimeout" : "clearInterval"}, {"name", timer_name(k)}};
  }

  json callback_ops(int i, int count) {
    json ops = json::array();
    std::string label = timer_name(i);
    for (int n = bytes_.next(kMaxOps + 1), k = 0; k < n; ++k) {
      static const char* kinds[] = {"clear", "nextTick", "queueMicrotask", "promise", "setImmediate", "nested", "log"};
      std::string kind = kinds[bytes_.next(7)];
      std::string tag = label + "." + std::to_string(k);
      if (kind == "clear") {
        ops.push_back(clear(count));
      } else if (kind == "nested") {
        ops.push_back({{"op", "setTimeout"}, {"ms", durations_[static_cast<std::size_t>(i)]}, {"log", "nested " + tag}});
      } else if (kind == "log") {
        ops.push_back({{"op", "log"}, {"text", "log " + tag}});
      } else {
        ops.push_back({{"op", kind}, {"log", kind + " " + tag}, {"then", json::array({clear(count)})}});
      }
    }
    return ops;
  }

  Bytes bytes_;
  std::vector<int> durations_;
};

}  // namespace

nlohmann::json timer_pass_program(const std::uint8_t* data, std::size_t size, const std::string& name) {
  return {{"name", name},
          {"module", "cjs"},
          {"analysis", "Timers due in one pass with clears between them, decoded from bytes "
                       "(workloads/loop/timer_pass_program.h): Node's own order is the answer"},
          {"program", Decoder(Bytes(data, size)).program()}};
}

nlohmann::json timer_pass_program(std::uint64_t seed, std::uint64_t index) {
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32)};
  std::mt19937_64 random(sequence);
  std::vector<std::uint8_t> bytes(64);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(random() >> 56);
  return timer_pass_program(bytes.data(), bytes.size(),
                            std::string("timer-pass-").append(std::to_string(seed)).append("-").append(std::to_string(index)));
}

}  // namespace stallbench::loop
