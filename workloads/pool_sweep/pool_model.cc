#include "pool_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace stallbench {
namespace {

double erlang_c_integer(int servers, double load) {
  if (servers <= 0 || load >= servers) return 1;
  double blocking = 1;  // Erlang B by its recursion
  for (int k = 1; k <= servers; ++k) blocking = load * blocking / (k + load * blocking);
  return servers * blocking / (servers - load * (1 - blocking));
}

struct Queue {
  double servers = 0, load = 0;     // load in threads (arrivals x service)
  double visits_per_s = 0;          // arrivals of steps
  double mean_ms = 0, scv = 0;      // service time of a step: mean and squared coefficient of variation
  double wait_p = 0, wait_mean_ms = 0;  // chance a step waits, and the mean wait of a step that does
  bool stable() const { return servers > 0 && load < servers; }
  double rho() const { return servers > 0 ? load / servers : INFINITY; }
};

// Allen-Cunneen: the M/M/c wait scaled by (1 + scv) / 2 for Poisson arrivals.
void solve_waits(Queue& q) {
  if (q.visits_per_s <= 0 || !q.stable()) return;
  q.wait_p = erlang_c(q.servers, q.load);
  double mean_wait = q.wait_p * q.mean_ms / (q.servers - q.load) * (1 + q.scv) / 2;
  q.wait_mean_ms = q.wait_p > 0 ? mean_wait / q.wait_p : 0;
}

// Adds the steps of `c` (stretched) to a queue's load and service moments.
void add_steps(Queue& q, const ModelClass& c, const std::vector<double>& stretched, double& sum_sq) {
  for (double s : stretched) {
    q.visits_per_s += c.rate_per_s;
    q.load += c.rate_per_s * s / 1000;
    sum_sq += c.rate_per_s * s * s;
  }
}

void finish_moments(Queue& q, double sum_sq) {
  if (q.visits_per_s <= 0) return;
  q.mean_ms = q.load * 1000 / q.visits_per_s;
  double second = sum_sq / q.visits_per_s;
  q.scv = q.mean_ms > 0 ? std::max(0.0, second / (q.mean_ms * q.mean_ms) - 1) : 0;
}

struct Sharing {
  double stretch = 1;      // how much longer CPU time takes, as seen by a job in service
  double cores_full = 0;   // the share of time every core is computing (a woken thread must wait)
};

// CPU sharing when `fixed` threads are always busy computing `fixed_cpu` of their time and the
// open load `open_load` runs on `open_servers` threads computing `open_cpu` of their time.
Sharing cpu_sharing(double fixed, double fixed_cpu, double open_load, int open_servers, double open_cpu, double cores) {
  std::vector<double> states(open_servers + 1, 0.0);  // P(b open threads busy), M/M/c shape
  if (open_servers == 0 || open_load >= open_servers) {
    states.back() = 1;
  } else {
    double term = 1, sum = 0;
    for (int b = 0; b <= open_servers; ++b) {
      states[b] = term;
      if (b < open_servers) term *= open_load / (b + 1);
    }
    states.back() /= 1 - open_load / open_servers;  // the waiting states keep every thread busy
    sum = std::accumulate(states.begin(), states.end(), 0.0);
    for (auto& s : states) s /= sum;
  }
  double weighted = 0, weight = 0;
  Sharing out;
  for (int b = 0; b <= open_servers; ++b) {
    double in_service = fixed + b;
    double computing = fixed * fixed_cpu + b * open_cpu;
    weighted += states[b] * in_service * std::max(1.0, computing / cores);
    weight += states[b] * in_service;
    if (computing >= cores - 1e-9) out.cores_full += states[b];
  }
  out.stretch = weight > 0 ? weighted / weight : 1;
  return out;
}

std::vector<double> stretch_steps(const ModelClass& c, double stretch) {
  std::vector<double> out;
  for (double s : c.step_ms) out.push_back(s * (c.cpu_share * stretch + 1 - c.cpu_share));
  return out;
}

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

double erlang_c(double servers, double load) {
  if (load <= 0) return 0;
  if (load >= servers) return 1;
  if (servers < 1) return load / servers;  // one slower server
  int low = static_cast<int>(std::floor(servers));
  double frac = servers - low;
  double at_low = erlang_c_integer(low, load), at_high = erlang_c_integer(low + 1, load);
  return frac == 0 ? at_low : (1 - frac) * at_low + frac * at_high;
}

double wait_quantile(double p, double mean_ms, double q) {
  // P(W > t) = p exp(-t / mean): solve p exp(-t / mean) = 1 - q.
  if (p <= 1 - q || mean_ms <= 0) return 0;
  return mean_ms * std::log(p / (1 - q));
}

Prediction predict(const ModelInput& in) {
  if (in.threads < 1 || in.cores <= 0) throw std::invalid_argument("the model needs threads >= 1 and cores > 0");
  const int c = in.threads;
  const int slow_cap = (c + 1) / 2;
  const ModelClass* closed = nullptr;
  for (const auto& k : in.classes)
    if (k.in_flight > 0) closed = &k;
  const double fixed = closed ? std::min(closed->in_flight, c) : 0;
  const int open_servers = c - static_cast<int>(fixed);

  // Solve the CPU-sharing stretch as a fixed point.
  Prediction out;
  double stretch = 1, open_load = 0, open_cpu = 0;
  Sharing sharing;
  for (int i = 0; i < 500; ++i) {
    double load = 0, cpu_load = 0;
    for (const auto& k : in.classes) {
      if (k.in_flight > 0) continue;
      double job = total(stretch_steps(k, stretch)) / 1000;
      load += k.rate_per_s * job;
      cpu_load += k.rate_per_s * total(k.step_ms) / 1000 * k.cpu_share * stretch;
    }
    open_load = load;
    open_cpu = load > 0 ? cpu_load / load : 0;
    sharing = cpu_sharing(fixed, closed ? closed->cpu_share : 0, open_load, open_servers, open_cpu, in.cores);
    if (std::abs(sharing.stretch - stretch) < 1e-9) break;
    stretch = 0.5 * stretch + 0.5 * sharing.stretch;
  }
  out.stretch = stretch;

  // The queues, on the threads the closed class leaves. `shared`: what a CPU or file step waits
  // in; lookups hold threads there too, so their long holds lengthen everyone's waits, until
  // they reach libuv's cap, from when on they simply keep (threads+1)/2 threads to themselves.
  // `slow`: lookups alone, on at most (threads+1)/2 threads.
  Queue shared, slow;
  double shared_sq = 0, slow_sq = 0, lookups_sq = 0;
  for (const auto& k : in.classes) {
    if (k.in_flight > 0) continue;
    auto stretched = stretch_steps(k, stretch);
    if (k.slow_io) add_steps(slow, k, stretched, slow_sq);
    else add_steps(shared, k, stretched, shared_sq);
  }
  slow.servers = std::min(slow_cap, std::max(open_servers, 0));
  const bool cap_binds = slow.load >= slow.servers && slow.load > 0;
  if (cap_binds) {
    shared.servers = open_servers - slow.servers;
  } else {
    shared.servers = open_servers;
    lookups_sq = slow_sq;
    shared.load += slow.load;
    shared.visits_per_s += slow.visits_per_s;
  }
  finish_moments(shared, shared_sq + lookups_sq);
  finish_moments(slow, slow_sq);
  solve_waits(shared);
  solve_waits(slow);
  const double cpu_demand = [&] {
    double d = 0;
    for (const auto& k : in.classes)
      d += k.in_flight > 0 ? std::min<double>(k.in_flight, c) * k.cpu_share : k.rate_per_s * total(k.step_ms) / 1000 * k.cpu_share;
    return d;
  }();
  out.cores_busy = std::min({cpu_demand, in.cores, static_cast<double>(c)});

  const double window_ms = in.window_s * 1000, drain_ms = in.drain_s * 1000;
  const double wave_ms = closed ? total(stretch_steps(*closed, stretch)) : 0;
  const bool waves = closed && closed->in_flight >= c;  // the closed class holds every thread
  const double extra_waves = waves ? std::floor(static_cast<double>(closed->in_flight - c) / c) : 0;
  // A no-op's wait in the shared queue: a canary's, whatever class it stands before.
  auto shared_wait = [&](double q) { return shared.stable() ? wait_quantile(shared.wait_p, shared.wait_mean_ms, q) : 0.0; };
  // With every thread held: an arrival waits out the current wave, uniformly placed in it, and any
  // queued background ahead of it.
  auto wave_wait = [&](double q) { return (q + extra_waves) * wave_ms; };

  for (const auto& k : in.classes) {
    ClassPrediction p;
    const auto stretched = stretch_steps(k, stretch);
    p.service_ms = total(stretched);
    const int visits = static_cast<int>(stretched.size());
    // Latency with no wait at all, and the measured delay of an arrival while every core computes.
    const double base_ms = p.service_ms + k.overhead_ms + in.busy_cores_delay_ms * sharing.cores_full;
    if (k.in_flight > 0) {
      double cycle = waves ? p.service_ms * k.in_flight / c + k.overhead_ms : base_ms + shared.wait_p * shared.wait_mean_ms;
      p.p50_ms = cycle;
      p.p99_ms = waves ? p.service_ms * std::ceil(static_cast<double>(k.in_flight) / c) + k.overhead_ms : cycle;
      p.mean_wait_ms = cycle - p.service_ms;
      p.throughput_per_s = k.in_flight / cycle * 1000;
      // A job resubmitted as one ends: with every thread held, it queues behind the (N - c) jobs
      // queued before it, (N - c) / c waves on average, ceil(N / c) - 1 at most; otherwise it waits
      // in the shared queue as any arrival.
      p.pool_wait_p50_ms = waves ? p.service_ms * (k.in_flight - c) / c : shared_wait(0.5);
      p.pool_wait_p99_ms = waves ? p.service_ms * (std::ceil(static_cast<double>(k.in_flight) / c) - 1) : shared_wait(0.99);
    } else if (waves && k.slow_io && closed->in_flight > c) {
      // Lookups start only when libuv's marker reaches the head of the main queue, and after each
      // start it goes back to the tail, behind the background jobs queued meanwhile: one lookup
      // per pass through the queued background, whatever the cap. Faster arrivals pile up.
      double pass_ms = wave_ms * std::max(1.0, static_cast<double>(closed->in_flight - c + 1) / c);
      double rho = k.rate_per_s * pass_ms / 1000;
      p.pool_wait_p50_ms = wave_wait(0.5);  // the canary is not slow I/O: it waits as any arrival does
      p.pool_wait_p99_ms = wave_wait(0.99);
      if (rho < 1) {
        p.p50_ms = 0.5 * pass_ms + base_ms;
        p.p99_ms = 0.99 * pass_ms + base_ms;
        p.mean_wait_ms = 0.5 * pass_ms;
        p.throughput_per_s = k.rate_per_s;
      } else {
        double last = std::min(window_ms, (window_ms + drain_ms) / rho);
        p.saturated = true;
        p.mean_wait_ms = 0.5 * last * (rho - 1);
        p.p50_ms = p.mean_wait_ms + base_ms;
        p.p99_ms = 0.99 * last * (rho - 1) + base_ms;
        p.throughput_per_s = 1000 / pass_ms;
      }
    } else if (waves) {
      // Each arrival waits out the current wave (uniformly placed in it) and any queued
      // background ahead of it. A later step, submitted as its previous one ends: with background
      // jobs queued it goes behind them and waits a whole wave (and any more queued ahead); with
      // none queued it waits only when the background's resubmission takes the last free thread
      // first, one time in `threads`.
      double later = closed->in_flight > c ? 1 + extra_waves : 1.0 / c;
      auto wait_at = [&](double q) { return wave_wait(q) + (visits - 1) * later * wave_ms; };
      p.p50_ms = wait_at(0.5) + base_ms;
      p.p99_ms = wait_at(0.99) + base_ms;
      p.mean_wait_ms = wait_at(0.5);
      p.pool_wait_p50_ms = wave_wait(0.5);
      p.pool_wait_p99_ms = wave_wait(0.99);
      p.throughput_per_s = k.rate_per_s;
    } else {
      bool saturated = !shared.stable() || (k.slow_io && !slow.stable());
      if (!saturated) {
        // The first step waits as any arrival does. A later step is submitted just as the
        // previous one finished, and waits only for what arrived meanwhile and queued ahead of
        // it: on average a share rho of the wait before, so a job's whole wait is its first
        // wait times 1 + rho + rho^2 + ... (one term per step).
        double wp = shared.wait_p, wm = shared.wait_mean_ms, later = 0, term = 1;
        for (int v = 1; v < visits; ++v) later += (term *= shared.rho());
        if (k.slow_io) {
          // Through the shared queue (as libuv's marker), then the lookups' own: one wait with
          // the same mean and the same chance of waiting at all.
          double mean = shared.wait_p * shared.wait_mean_ms + slow.wait_p * slow.wait_mean_ms;
          wp = 1 - (1 - shared.wait_p) * (1 - slow.wait_p);
          wm = wp > 0 ? mean / wp : 0;
        }
        p.mean_wait_ms = wp * wm * (1 + later);
        p.p50_ms = wait_quantile(wp, wm, 0.5) * (1 + later) + base_ms;
        p.p99_ms = wait_quantile(wp, wm, 0.99) * (1 + later) + base_ms;
        p.pool_wait_p50_ms = shared_wait(0.5);
        p.pool_wait_p99_ms = shared_wait(0.99);
        p.throughput_per_s = k.rate_per_s;
      } else {
        // The backlog grows at (rho - 1) per unit time for each trip through the queue; only
        // arrivals early enough to finish by the end of the drain period are measured.
        const Queue& growing = shared.stable() ? slow : shared;
        double growth = (shared.stable() ? 0 : shared.rho() - 1) + (k.slow_io && !slow.stable() ? slow.rho() - 1 : 0);
        int trips = k.slow_io ? 1 : visits;
        double per_ms = trips * growth;
        double last = std::min(window_ms, (window_ms + drain_ms - p.service_ms) / (1 + per_ms));
        p.saturated = true;
        p.mean_wait_ms = 0.5 * last * per_ms;
        p.p50_ms = 0.5 * last * per_ms + base_ms;
        p.p99_ms = 0.99 * last * per_ms + base_ms;
        p.throughput_per_s = k.rate_per_s / std::max(1.0, growing.rho());
        // The first trip: the shared queue's backlog when the job arrived (only lookups' own queue
        // growing: the shared queue's ordinary wait).
        p.pool_wait_p50_ms = shared.stable() ? shared_wait(0.5) : 0.5 * last * (shared.rho() - 1);
        p.pool_wait_p99_ms = shared.stable() ? shared_wait(0.99) : 0.99 * last * (shared.rho() - 1);
      }
    }
    out.classes.push_back(p);
  }
  return out;
}

}  // namespace stallbench
