// Parse modes, as the loop sees them: every mode gives the generator's answer; an inline parse
// stalls the loop for at least the parse and holds every /health request until it ends; offloaded,
// the loop answers /health while the parse runs.
#include <gtest/gtest.h>

#include "session_order.h"
#include "workloads/common/owned_loop.h"
#include "workloads/json/parse_modes.h"

using namespace stallbench;

namespace {

struct Bench {
  OwnedLoop loop;
  WorkerPool worker{loop.get(), 1};
  const Shape& shape = find_shape("orders");

  ParseJob job(ParseMode mode, JsonParser* parser, const JsonText* json, std::size_t per_turn = 0) {
    return ParseJob{loop.get(), mode, parser, json, shape.task, false, per_turn, &worker, {}, {}, 0};
  }
};

}  // namespace

TEST(JsonModes, EveryModeGivesTheAnswer) {
  Bench s;
  for (const auto& mode_name : parse_mode_names()) {
    ParseMode mode = parse_mode(mode_name);
    Payload p = generate_payload(s.shape, 5000, mode_layout(mode));
    for (const auto& entry : parsers()) {
      if (mode_steps(mode) && !entry.steps) continue;
      auto parser = entry.make(p.json.size());
      ParseJob job = s.job(mode, parser.get(), &p.json, 300);
      run_until_finished(s.loop.get(), start_parse(job));
      EXPECT_EQ(job.answer, p.expected) << entry.name << " " << mode_name;
      if (mode_steps(mode)) {
        EXPECT_EQ(job.turns, 17u) << mode_name;  // 5000 records, 300 per turn
      }
    }
  }
}

TEST(JsonModes, AFailedParseReachesTheLoop) {
  Bench s;
  JsonText broken(R"([{"orderId":0,"quantity":2,"unitPrice":)");
  for (const auto& mode_name : parse_mode_names()) {
    ParseMode mode = parse_mode(mode_name);
    auto parser = find_parser("simdjson-ondemand").make(broken.size());
    ParseJob job = s.job(mode, parser.get(), &broken, 10);
    EXPECT_THROW(run_until_finished(s.loop.get(), start_parse(job)), ParseError) << mode_name;
  }
}

TEST(JsonModes, InlineStallsOffloadedDoesNot) {
  Bench s;
  StallSession session(s.loop.get());
  // nlohmann on 150,000 orders: a parse of a good fraction of a second, long beside the probe's
  // 20 ms interval.
  Payload p = generate_payload(s.shape, 150'000, Layout::array);
  auto parser = find_parser("nlohmann").make(p.json.size());
  auto measure = [&](ParseMode mode) {
    ParseJob job = s.job(mode, parser.get(), &p.json);
    SessionRecord r = session.run(start_parse(job));
    EXPECT_EQ(job.answer, p.expected);
    EXPECT_EQ(r.health.failures, 0) << r.health.first_failure;
    return r;
  };
  SessionRecord in_line = measure(ParseMode::inline_on_loop);
  SessionRecord pool = measure(ParseMode::pool);
  SessionRecord worker = measure(ParseMode::worker);

  // Inline, the loop was blocked for the whole parse: the meter saw it in one iteration, and no
  // request sent during it was answered before it ended.
  EXPECT_GE(in_line.instruments.stall.max, in_line.work_ms());
  EXPECT_GE(in_line.instruments.stalls.size(), 1u);
  RequestsDuringWork held = requests_during_work(in_line);
  EXPECT_GE(held.sent, 1u);
  EXPECT_EQ(held.answered_before, 0u);
  // Offloaded, the loop stays free: it answered /health while the parse ran, and none of its
  // iterations lasted the parse (one that did would be the parse back on the loop). An offloaded
  // iteration is a callback of microseconds: to last the parse, a busy machine would have to keep
  // the loop thread off the cores for all of it while the parse's own thread ran.
  for (const SessionRecord* r : {&pool, &worker}) {
    EXPECT_GE(requests_during_work(*r).answered_before, 1u) << "no /health answered during an offloaded parse";
    EXPECT_LT(r->instruments.stall.max, r->work_ms());
  }
}
