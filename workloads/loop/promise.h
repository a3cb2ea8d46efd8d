// Promises as V8 runs them, for what the order of callbacks can tell apart: a promise is pending
// or fulfilled (rejections are Runtime::reject_unhandled), a reaction is one microtask, and a
// promise resolved with another promise adopts it through two more microtasks
// (NewPromiseResolveThenableJob, then the inner promise's reaction): `return promise` from a
// `then` callback costs two extra hops, so a racing plain chain gets ahead by two links.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "runtime.h"

namespace stallbench::loop {

struct PromiseState {
  bool fulfilled = false;
  std::vector<Callback> reactions;
};
using Promise = std::shared_ptr<PromiseState>;

class Promises {
 public:
  explicit Promises(Runtime& runtime) : runtime_(runtime) {}

  Promise pending() const { return std::make_shared<PromiseState>(); }
  Promise resolved() const;  // Promise.resolve()

  void fulfil(const Promise& p) const;                       // resolve(value): p's reactions are queued
  void adopt(const Promise& p, const Promise& inner) const;  // resolve(promise)
  // p.then(handler): the promise it returns is resolved with what `handler` returns (nullptr: a
  // plain value; a promise: adopted).
  Promise then(const Promise& p, std::function<Promise()> handler) const;
  // Promise.all / Promise.race over `children`: fulfilled when all of them are / the first is, one
  // reaction after that child.
  Promise all(const std::vector<Promise>& children) const;
  Promise race(const std::vector<Promise>& children) const;

 private:
  void on_fulfilled(const Promise& p, Callback reaction) const;  // PerformPromiseThen

  Runtime& runtime_;
};

}  // namespace stallbench::loop
