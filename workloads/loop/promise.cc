#include "promise.h"

namespace stallbench::loop {

Promise Promises::resolved() const {
  Promise p = pending();
  p->fulfilled = true;
  return p;
}

void Promises::on_fulfilled(const Promise& p, Callback reaction) const {
  if (p->fulfilled) {
    runtime_.queue_microtask(std::move(reaction));
  } else {
    p->reactions.push_back(std::move(reaction));
  }
}

void Promises::fulfil(const Promise& p) const {
  if (p->fulfilled) return;  // a promise settles once
  p->fulfilled = true;
  for (auto& reaction : p->reactions) runtime_.queue_microtask(std::move(reaction));
  p->reactions.clear();
}

void Promises::adopt(const Promise& p, const Promise& inner) const {
  runtime_.queue_microtask([this, p, inner] { on_fulfilled(inner, [this, p] { fulfil(p); }); });
}

Promise Promises::then(const Promise& p, std::function<Promise()> handler) const {
  Promise derived = pending();
  on_fulfilled(p, [this, derived, handler = std::move(handler)] {
    Promise returned = handler();
    returned ? adopt(derived, returned) : fulfil(derived);
  });
  return derived;
}

Promise Promises::all(const std::vector<Promise>& children) const {
  Promise combined = pending();
  auto remaining = std::make_shared<std::size_t>(children.size());
  for (const auto& child : children)
    on_fulfilled(child, [this, combined, remaining] {
      if (--*remaining == 0) fulfil(combined);
    });
  return combined;
}

Promise Promises::race(const std::vector<Promise>& children) const {
  Promise combined = pending();
  for (const auto& child : children) on_fulfilled(child, [this, combined] { fulfil(combined); });
  return combined;
}

}  // namespace stallbench::loop
