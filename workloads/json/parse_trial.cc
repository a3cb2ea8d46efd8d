#include "parse_trial.h"

#include "../common/rss.h"
#include "memcpy_floor.h"

namespace stallbench {

ParseTrial run_parse_trial(StallSession& session, const ParserEntry& entry, const ParseJob& job,
                           std::vector<char>& memcpy_target) {
  ParseTrial trial;
  reset_peak_rss();  // returns freed heap first, so the fresh parser's pages are new pages
  double rss_before = rss_mb();
  auto parser = entry.make(job.json->size());
  trial.first = job;
  trial.first.parser = parser.get();
  trial.first_ms = run_until_finished(job.loop, start_parse(trial.first));
  trial.rss_growth_mb = peak_rss_mb() - rss_before;

  trial.steady = job;
  trial.steady.parser = parser.get();
  trial.window = session.run(start_parse(trial.steady));
  parser.reset();
  trial.floor_ms = memcpy_floor_ms(*job.json, memcpy_target);
  return trial;
}

}  // namespace stallbench
