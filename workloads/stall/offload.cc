#include "offload.h"

#include "../common/uv_check.h"
#include "../common/uv_close.h"

namespace stallbench {

namespace {

std::exception_ptr run_caught(const Work& work) {
  try {
    work();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

}  // namespace

void run_on_pool(uv_loop_t* loop, Work work, Done done) {
  struct PoolJob {
    uv_work_t req;
    Work work;
    Done done;
    std::exception_ptr error;
  };
  auto* job = new PoolJob{{}, std::move(work), std::move(done), nullptr};
  job->req.data = job;
  int rc = uv_queue_work(
      loop, &job->req, [](uv_work_t* req) {
        auto* job = static_cast<PoolJob*>(req->data);
        job->error = run_caught(job->work);
      },
      [](uv_work_t* req, int status) {
        auto* job = static_cast<PoolJob*>(req->data);
        if (status < 0 && !job->error) job->error = std::make_exception_ptr(UvError("uv_queue_work", status));
        Done done = std::move(job->done);
        std::exception_ptr error = job->error;
        delete job;
        done(error);
      });
  if (rc < 0) {
    delete job;
    throw UvError("uv_queue_work", rc);
  }
}

void run_on_new_thread(uv_loop_t* loop, Work work, Done done) {
  struct ThreadJob {
    uv_async_t finished;
    std::thread thread;
    Done done;
    std::exception_ptr error;
  };
  auto* job = new ThreadJob{};
  job->done = std::move(done);
  job->finished.data = job;
  uv_check(uv_async_init(loop, &job->finished,
                         [](uv_async_t* async) {
                           auto* job = static_cast<ThreadJob*>(async->data);
                           job->thread.join();
                           Done done = std::move(job->done);
                           std::exception_ptr error = job->error;
                           uv_close(reinterpret_cast<uv_handle_t*>(async),
                                    [](uv_handle_t* h) { delete static_cast<ThreadJob*>(h->data); });
                           done(error);
                         }),
           "uv_async_init(new thread)");
  job->thread = std::thread([job, work = std::move(work)] {
    job->error = run_caught(work);
    uv_async_send(&job->finished);
  });
}

void run_placed(uv_loop_t* loop, Placement placement, WorkerPool* workers, Work work, Done done) {
  switch (placement) {
    case Placement::loop:
      return done(run_caught(work));
    case Placement::libuv_pool:
      return run_on_pool(loop, std::move(work), std::move(done));
    case Placement::new_thread:
      return run_on_new_thread(loop, std::move(work), std::move(done));
    case Placement::worker_pool:
      return workers->submit(std::move(work), std::move(done));
  }
}

void run_in_slices(uv_loop_t* loop, std::function<bool()> step, Done done) {
  struct SlicedJob {
    uv_check_t check;
    uv_idle_t idle;
    std::function<bool()> step;
    Done done;
    int open_handles = 2;

    // Runs one slice; true when the job has ended (finished or failed) and `done` was called.
    bool slice() {
      bool finished = false;
      std::exception_ptr error;
      try {
        finished = step();
      } catch (...) {
        error = std::current_exception();
      }
      if (!finished && !error) return false;
      done(error);
      return true;
    }
    void close() {
      auto closed = [](uv_handle_t* h) {
        auto* job = static_cast<SlicedJob*>(h->data);
        if (--job->open_handles == 0) delete job;
      };
      uv_close(reinterpret_cast<uv_handle_t*>(&check), closed);
      uv_close(reinterpret_cast<uv_handle_t*>(&idle), closed);
    }
  };
  auto* job = new SlicedJob{};
  job->step = std::move(step);
  job->done = std::move(done);
  job->check.data = job->idle.data = job;
  uv_check(uv_check_init(loop, &job->check), "uv_check_init(slices)");
  uv_check(uv_idle_init(loop, &job->idle), "uv_idle_init(slices)");
  if (job->slice()) return job->close();
  uv_check_start(&job->check, [](uv_check_t* check) {
    auto* job = static_cast<SlicedJob*>(check->data);
    if (job->slice()) job->close();
  });
  uv_idle_start(&job->idle, [](uv_idle_t*) {});
}

WorkerPool::WorkerPool(uv_loop_t* loop, int threads) : completed_signal_(new uv_async_t) {
  uv_check(uv_async_init(loop, completed_signal_, on_completed), "uv_async_init(worker pool)");
  completed_signal_->data = this;
  uv_unref(reinterpret_cast<uv_handle_t*>(completed_signal_));  // ref'd only while jobs are out
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { serve(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    waiting_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
  close_and_delete(completed_signal_);
}

void WorkerPool::submit(Work work, Done done) {
  if (outstanding_++ == 0) uv_ref(reinterpret_cast<uv_handle_t*>(completed_signal_));
  {
    std::lock_guard lock(mutex_);
    waiting_.push_back({std::move(work), std::move(done), nullptr});
  }
  wake_.notify_one();
}

void WorkerPool::serve() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      job = std::move(waiting_.front());
      waiting_.pop_front();
    }
    job.error = run_caught(job.work);
    {
      std::lock_guard lock(mutex_);
      completed_.push_back(std::move(job));
    }
    uv_async_send(completed_signal_);
  }
}

void WorkerPool::on_completed(uv_async_t* async) {
  auto* self = static_cast<WorkerPool*>(async->data);
  std::deque<Job> completed;
  {
    std::lock_guard lock(self->mutex_);
    completed.swap(self->completed_);
  }
  for (auto& job : completed) {
    if (--self->outstanding_ == 0) uv_unref(reinterpret_cast<uv_handle_t*>(async));
    job.done(job.error);
  }
}

}  // namespace stallbench
