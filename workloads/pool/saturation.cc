#include "saturation.h"

#include <algorithm>
#include <stdexcept>

#include "../common/uv_check.h"
#include "file_read.h"
#include "lookup.h"

namespace stallbench {

namespace {

// Counts outstanding completions and stops the loop at the last one: the HTTP server on the
// same loop keeps it alive, so uv_run would not return by itself.
struct Tracker {
  uv_loop_t* loop;
  double start_ms;
  int outstanding = 0;
  SaturationResult* result;

  double arrived(const char* what, int index, const std::string& error) {
    double at = hrtime_ms() - start_ms;
    result->order.push_back({what, index, at});
    if (!error.empty()) result->errors.push_back(std::string(what) + ": " + error);
    if (--outstanding == 0) uv_stop(loop);
    return at;
  }
};

}  // namespace

SaturationResult run_saturation(uv_loop_t* loop, const SaturationConfig& config) {
  SaturationResult result;
  result.pbkdf2_done_ms.assign(config.jobs, 0.0);
  result.keys.resize(config.jobs);
  Tracker tracker{loop, hrtime_ms(), config.jobs + 3, &result};

  for (int i = 0; i < config.jobs; ++i) {
    queue_pbkdf2(loop, config.pbkdf2, [&, i](Key key, std::string error) {
      result.pbkdf2_done_ms[i] = tracker.arrived("pbkdf2", i, error);
      result.keys[i] = std::move(key);
    });
  }
  read_file(loop, config.file_path, [&](std::string bytes, std::string error) {
    result.fs_ms = tracker.arrived("fs", 0, error);
    result.file_bytes = std::move(bytes);
  });
  lookup(loop, config.host, [&](std::string address, std::string error) {
    result.dns_ms = tracker.arrived("dns", 0, error);
    result.address = std::move(address);
  });
  http_get(loop, config.http_port, "/", [&](HttpGetResult r) {
    result.tcp_ms = tracker.arrived("tcp", 0, r.error);
    result.http = std::move(r);
  });
  uv_run(loop, UV_RUN_DEFAULT);
  if (tracker.outstanding != 0) result.errors.push_back("loop stopped with work outstanding");
  return result;
}

void warm_pool(uv_loop_t* loop, int threads) {
  // Other handles (a server) may keep the loop alive, so the last completion stops it.
  struct Warm {
    uv_work_t req;
    int* outstanding;
  };
  int outstanding = threads;
  std::vector<Warm> work(threads);
  for (auto& w : work) {
    w.outstanding = &outstanding;
    w.req.data = &w;
    uv_check(uv_queue_work(loop, &w.req, [](uv_work_t*) {},
                           [](uv_work_t* req, int) {
                             auto* w = static_cast<Warm*>(req->data);
                             if (--*w->outstanding == 0) uv_stop(req->loop);
                           }),
             "uv_queue_work(warm-up)");
  }
  uv_run(loop, UV_RUN_DEFAULT);
}

double time_pbkdf2_alone(uv_loop_t* loop, const Pbkdf2Params& params, Key* key) {
  double start = hrtime_ms(), done = 0;
  std::string failure;
  queue_pbkdf2(loop, params, [&](Key k, std::string error) {
    done = hrtime_ms();
    *key = std::move(k);
    failure = std::move(error);
    uv_stop(loop);
  });
  uv_run(loop, UV_RUN_DEFAULT);
  if (!failure.empty()) throw std::runtime_error(failure);
  return done - start;
}

double time_http_get_alone(uv_loop_t* loop, std::uint16_t port) {
  double start = hrtime_ms(), done = 0;
  HttpGetResult result;
  http_get(loop, port, "/", [&](HttpGetResult r) {
    done = hrtime_ms();
    result = std::move(r);
    uv_stop(loop);
  });
  uv_run(loop, UV_RUN_DEFAULT);
  if (!result.error.empty() || result.status != 200) throw std::runtime_error("HTTP GET alone failed: " + result.error);
  return done - start;
}

std::vector<std::string> check_saturation(const SaturationResult& r, const SaturationConfig& config,
                                          const Key& expected_key, const std::string& expected_bytes) {
  std::vector<std::string> problems = r.errors;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  expect(static_cast<int>(r.order.size()) == config.jobs + 3,
         "expected " + std::to_string(config.jobs + 3) + " completions, saw " + std::to_string(r.order.size()));
  for (int i = 0; i < config.jobs; ++i)
    expect(r.keys[i] == expected_key, "pbkdf2 job " + std::to_string(i) + " derived " + to_hex(r.keys[i]) +
                                          ", expected " + to_hex(expected_key));
  expect(r.file_bytes == expected_bytes, "file read returned " + std::to_string(r.file_bytes.size()) +
                                             " bytes that differ from the file's " +
                                             std::to_string(expected_bytes.size()));
  expect(is_loopback(r.address), "lookup of " + config.host + " gave '" + r.address + "', not loopback");
  expect(r.http.status == 200 && r.http.body == "ok",
         "HTTP GET returned " + std::to_string(r.http.status) + " '" + r.http.body + "'");
  return problems;
}

double pool_efficiency(int jobs, double last_done_ms, double alone_ms, int threads, int cores) {
  if (last_done_ms <= 0 || alone_ms <= 0) return 0;
  double throughput = jobs / last_done_ms;
  double ceiling = std::min({threads, cores, jobs}) / alone_ms;
  return throughput / ceiling;
}

}  // namespace stallbench
