// The fast-I/O classes. A read is fs.readFile's sequence (open, fstat, read up to 512 KiB at a
// time, close), each step a separate trip through the pool, so under load every step queues
// again behind whatever arrived meanwhile. The system calls are the ones uv_fs makes.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "../common/temp_file.h"
#include "job_class_parts.h"

namespace stallbench {
namespace {

constexpr std::size_t read_chunk = 512 * 1024;  // Node's kReadFileBufferLength

std::string errno_text(const char* call, const std::string& path) {
  return std::string(call) + " " + path + ": " + std::strerror(errno);
}

// One read in flight: the steps still to come and what they share.
struct FileReadJob : std::enable_shared_from_this<FileReadJob> {
  uv_loop_t* loop;
  JobHandle* handle;
  const TempFile* file;
  JobDone done;
  JobResult result;
  int fd = -1;
  std::string bytes;
  std::size_t filled = 0;

  // Queues `work`; when it comes back, `next` decides the following step (or the end).
  void step(StepWork work, void (FileReadJob::*next)()) {
    auto self = shared_from_this();
    handle->queued = queue_timed_step(loop, std::move(work), [self, next](const StepTiming& t, std::string error, bool cancelled) {
      self->handle->queued = nullptr;
      self->result.step_service_ms.push_back(t.service_ms());
      self->result.completed_ns = t.completed_ns;
      if (cancelled || !error.empty()) return self->finish(std::move(error), cancelled);
      (self.get()->*next)();
    });
  }

  void open() {
    step([this] { return (fd = ::open(file->path().c_str(), O_RDONLY | O_CLOEXEC)) < 0 ? errno_text("open", file->path()) : ""; },
         &FileReadJob::size_up);
  }
  void size_up() {
    step([this] {
      struct stat st;
      if (::fstat(fd, &st) != 0) return errno_text("fstat", file->path());
      bytes.resize(static_cast<std::size_t>(st.st_size));
      return std::string();
    }, &FileReadJob::read_more);
  }
  void read_more() {
    if (filled == bytes.size()) return close();
    step([this] {
      ssize_t n = ::pread(fd, bytes.data() + filled, std::min(read_chunk, bytes.size() - filled), static_cast<off_t>(filled));
      if (n < 0) return errno_text("read", file->path());
      if (n == 0) bytes.resize(filled);  // the file shrank under us: keep what was read
      filled += static_cast<std::size_t>(n);
      return std::string();
    }, &FileReadJob::read_more);
  }
  void close() {
    step([this] {
      int rc = ::close(fd);
      fd = -1;
      return rc != 0 ? errno_text("close", file->path()) : "";
    }, &FileReadJob::check);
  }
  void check() {
    finish(bytes == file->bytes() ? "" : "read returned " + std::to_string(bytes.size()) + " bytes that differ from the file", false);
  }
  void finish(std::string error, bool cancelled) {
    if (fd >= 0) ::close(fd);  // a failed or cancelled step left the file open
    fd = -1;
    result.error = std::move(error);
    result.cancelled = cancelled;
    done(std::move(result));
  }
};

class ReadClass : public JobClass {
 public:
  ReadClass(const JobClassInfo& info, std::size_t bytes)
      : JobClass(info), file_(patterned_bytes(bytes), "stallbench-pool-read") {}

  void submit(uv_loop_t* loop, JobHandle& handle, JobDone done) override {
    auto job = std::make_shared<FileReadJob>();
    job->loop = loop;
    job->handle = &handle;
    job->file = &file_;
    job->done = std::move(done);
    job->open();
  }

 private:
  TempFile file_;
};

class StatClass : public JobClass {
 public:
  explicit StatClass(const JobClassInfo& info) : JobClass(info), file_(patterned_bytes(4096), "stallbench-pool-stat") {}

  void submit(uv_loop_t* loop, JobHandle& handle, JobDone done) override {
    submit_one_step(loop, handle, [this]() -> std::string {
      struct stat st;
      if (::stat(file_.path().c_str(), &st) != 0) return errno_text("stat", file_.path());
      return st.st_size == static_cast<off_t>(file_.bytes().size()) ? "" : "stat saw a size the file does not have";
    }, std::move(done));
  }

 private:
  TempFile file_;
};

}  // namespace

std::unique_ptr<JobClass> make_read_class(const JobClassInfo& info, std::int64_t bytes) {
  return std::make_unique<ReadClass>(info, static_cast<std::size_t>(bytes));
}

std::unique_ptr<JobClass> make_stat_class(const JobClassInfo& info) { return std::make_unique<StatClass>(info); }

}  // namespace stallbench
