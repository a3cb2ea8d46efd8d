// Playing a scenario on the runtime (private to scenario_run.cc and the player's files): each op
// schedules its callback through the queue it names; the callback prints the op's label and plays
// its children. An op another op waits for (await's `on`, promiseAll's `of`) also has a promise,
// settled when its callback has run. The dispatch by op is scenario_player.cc; the helpers that
// schedule one kind of callback (repeating ones, fs calls, intervals, chains) scenario_player_ops.cc.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "promise.h"
#include "scenario.h"
#include "temporary_folder.h"

namespace stallbench::loop {

class Player {
 public:
  Player(Runtime& runtime, Order& printed, const Scenario& s);
  ~Player();  // closes the files a scenario (or a failed run) left open

  void play(const std::vector<Op>& ops) { play(ops, {}); }

  // The op whose callback ran last: where a run that fails is reported.
  const Op* last_callback() const { return last_; }

 private:
  struct Scope {
    std::shared_ptr<const int> file;  // the file of the nearest open whose callback this is in
  };

  void play(const std::vector<Op>& ops, const Scope& scope);
  void callback(const Op& op, const Scope& scope, int call = 1);

  // Schedules `op`; returns its promise when `awaited` (nullptr otherwise, and for ops that have
  // none of their own).
  Promise start(const Op& op, const Scope& scope, bool awaited);
  Promise start_loop_op(const Op& op, const Scope& scope, const Promise& promise);  // timers, immediates, clears
  Promise start_fs_op(const Op& op, const Scope& scope, const Promise& promise);    // fs calls and lookup
  Promise start_listener(const Op& op, const Scope& scope);  // reject, catch, exit, uncaughtException

  // scenario_player_ops.cc
  void repeating(const Op& op, const Scope& scope, const std::function<void(Callback)>& schedule);
  Promise scheduled(const Op& op, const Scope& scope, const Promise& promise, const std::function<void(Callback)>& schedule);
  Promise plain_callback(const Op& op, const Scope& scope);
  Callback settling(const Op& op, const Scope& scope, const Promise& promise);
  std::function<void(std::string)> fs_callback(const Op& op, const Scope& scope, const Promise& promise);
  void name_timer(const Op& op, TimerId id);
  void start_interval(const Op& op, const Scope& scope);
  void start_open(const Op& op, const Promise& promise);
  void start_close(const Op& op, const Scope& scope, const Promise& promise);
  Promise start_chain(const Op& op, const Scope& scope);
  void start_before_exit(const Op& op, const Scope& scope);
  Promise start_thenable(const Op& op, const Scope& scope, const Promise& promise);

  Runtime& runtime_;
  Promises promises_;
  Order& printed_;
  std::unique_ptr<TemporaryFolder> folder_;  // for writeFile ops
  std::unordered_map<std::string, TimerId> timers_;
  std::unordered_map<std::string, ImmediateId> immediates_;
  std::unordered_map<std::string, Runtime::RejectionId> rejections_;
  std::set<int> open_files_;
  const Op* last_ = nullptr;
};

}  // namespace stallbench::loop
