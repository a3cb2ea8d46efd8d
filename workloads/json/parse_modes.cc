#include "parse_modes.h"

#include <memory>
#include <stdexcept>

namespace stallbench {

const std::vector<std::string>& parse_mode_names() {
  static const std::vector<std::string> names = {"inline", "pool", "worker", "incremental", "ndjson"};
  return names;
}

ParseMode parse_mode(const std::string& name) {
  const auto& names = parse_mode_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<ParseMode>(i);
  throw std::invalid_argument("unknown json mode '" + name + "'");
}

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
        whole();
        return finished(nullptr);
      case ParseMode::pool:
        return run_on_pool(job.loop, whole, finished);
      case ParseMode::worker:
        return job.worker->submit(whole, finished);
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
