// Whether a scenario's order can depend on where Node 26 drains what a handled throw left in the
// queues (scenario.h, ThrownQueues::either). Read from the program, like the start-up race.
#include "scenario.h"

namespace stallbench::loop {

bool throw_race(const Scenario& scenario, const NodeLineModel& model) {
  return model.thrown_queues == ThrownQueues::either && uses(scenario.program, OpKind::throw_error) &&
         uses(scenario.program, OpKind::uncaught_exception);
}

}  // namespace stallbench::loop
