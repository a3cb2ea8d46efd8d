#include "parse_modes.h"

#include <memory>
#include <stdexcept>

#include "../common/enum_names.h"

namespace stallbench {

const std::vector<std::string>& parse_mode_names() {
  static const std::vector<std::string> names = {"inline", "pool", "worker", "incremental", "ndjson"};
  return names;
}

ParseMode parse_mode(const std::string& name) { return enum_named<ParseMode>(parse_mode_names(), name, "json mode"); }

bool mode_steps(ParseMode mode) { return mode == ParseMode::incremental || mode == ParseMode::ndjson; }

Layout mode_layout(ParseMode mode) { return mode == ParseMode::ndjson ? Layout::ndjson : Layout::array; }

StartWork start_parse(ParseJob& job) {
  return [&job](Finished finished) {
    job.turns = 1;
    auto whole = [&job] {
      if (job.walk) job.walked = job.parser->walk(*job.json);
      else job.answer = job.parser->sum_records(*job.json, job.task);
    };
    switch (job.mode) {
      case ParseMode::inline_on_loop:
        return run_placed(job.loop, Placement::loop, nullptr, whole, finished);
      case ParseMode::pool:
        return run_placed(job.loop, Placement::libuv_pool, nullptr, whole, finished);
      case ParseMode::worker:
        return run_placed(job.loop, Placement::worker_pool, job.worker, whole, finished);
      case ParseMode::incremental:
      case ParseMode::ndjson:
        break;
    }
    // The stepper is made in the first slice: On-Demand's stage 1 over the whole document (or
    // iterate_many's first batch) runs there, on the loop.
    std::shared_ptr<RecordStepper> stepper;
    job.turns = 0;
    run_in_slices(job.loop, [&job, stepper]() mutable {
      ++job.turns;
      if (!stepper) {
        stepper = job.mode == ParseMode::ndjson ? job.parser->ndjson_stepper(*job.json, job.task)
                                                : job.parser->array_stepper(*job.json, job.task);
        if (!stepper || job.walk) throw std::invalid_argument("this parser cannot parse a record array incrementally");
      }
      bool done = stepper->step(job.per_turn);
      if (done) job.answer = stepper->answer();
      return done;
    }, finished);
  };
}

}  // namespace stallbench
