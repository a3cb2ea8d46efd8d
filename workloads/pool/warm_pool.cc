#include "warm_pool.h"

#include <vector>

#include "../common/uv_check.h"

namespace stallbench {

void warm_pool(uv_loop_t* loop, int threads) {
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

}  // namespace stallbench
