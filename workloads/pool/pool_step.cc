#include "pool_step.h"

#include <memory>

#include "../common/uv_check.h"

namespace stallbench {
namespace {

struct TimedStep {
  uv_work_t req;
  StepWork work;
  StepDone done;
  StepTiming timing;
  std::string error;
};

}  // namespace

uv_req_t* queue_timed_step(uv_loop_t* loop, StepWork work, StepDone done) {
  auto step = std::make_unique<TimedStep>();
  step->req.data = step.get();
  step->work = std::move(work);
  step->done = std::move(done);
  step->timing.submitted_ns = uv_hrtime();
  uv_check(uv_queue_work(
               loop, &step->req,
               [](uv_work_t* req) {
                 auto* s = static_cast<TimedStep*>(req->data);
                 s->timing.started_ns = uv_hrtime();
                 try {
                   s->error = s->work();
                 } catch (const std::exception& e) {
                   s->error = e.what();
                 }
                 s->timing.finished_ns = uv_hrtime();
               },
               [](uv_work_t* req, int status) {
                 std::unique_ptr<TimedStep> s(static_cast<TimedStep*>(req->data));
                 s->timing.completed_ns = uv_hrtime();
                 bool cancelled = status == UV_ECANCELED;
                 if (status < 0 && !cancelled) s->error = std::string("pool step: ") + uv_strerror(status);
                 s->done(s->timing, std::move(s->error), cancelled);
               }),
           "uv_queue_work(step)");
  return reinterpret_cast<uv_req_t*>(&step.release()->req);
}

}  // namespace stallbench
