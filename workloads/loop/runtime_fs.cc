// Node's fs calls as the modelled line makes them (node_line.h): each uv_fs request (or, on Node
// 26, each whole-call pool job) is one completion in a poll phase, so a call costs one loop turn
// per request, and its callback lands as far down a chain of immediates as in Node.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include "../common/uv_check.h"
#include "runtime.h"

namespace stallbench::loop {
namespace {

struct FsStep {
  uv_fs_t req;
  std::function<void(uv_fs_t*)> next;
  std::uint64_t issued_ns;
};

std::string error_code(std::int64_t result) { return result < 0 ? uv_err_name(static_cast<int>(result)) : ""; }

// Reads until `size` bytes (or, when the size is unknown, 0), until EOF; the job's own reads.
std::string read_all(int fd, std::size_t size, std::string& error) {
  std::string bytes;
  char buffer[kReadFileUnknownChunk];
  while (size == 0 || bytes.size() < size) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = uv_err_name(-errno);
    if (n <= 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return bytes;
}

}  // namespace

// One fs.readFile: the file's bytes so far, where the reads are, what went wrong first.
struct Runtime::FileRead {
  std::string path;
  FileReadDone done;
  int fd = -1;
  std::size_t size = 0;  // from fstat; 0: unknown, read until a read returns 0
  std::string bytes;
  std::string error;
  std::vector<char> buffer;
};

void Runtime::fs_step(const std::function<int(uv_fs_t*, uv_fs_cb)>& issue, std::function<void(uv_fs_t*)> next) {
  auto* step = new FsStep{{}, std::move(next), uv_hrtime()};
  step->req.data = step;
  ++fs_requests_;
  int rc = issue(&step->req, [](uv_fs_t* req) {
    std::unique_ptr<FsStep> step(static_cast<FsStep*>(req->data));
    static_cast<Runtime*>(req->loop->data)->note_stall(uv_hrtime() - step->issued_ns);
    step->next(req);
    uv_fs_req_cleanup(req);
  });
  if (rc < 0) {
    delete step;
    throw UvError("uv_fs request", rc);
  }
}

void Runtime::fs_job(std::function<void()> work, Callback after) {
  struct Job {
    uv_work_t req;
    std::function<void()> work;
    Callback after;
    std::uint64_t issued_ns;
  };
  auto* job = new Job{{}, std::move(work), std::move(after), uv_hrtime()};
  job->req.data = job;
  ++fs_requests_;
  int rc = uv_queue_work(
      loop(), &job->req, [](uv_work_t* req) { static_cast<Job*>(req->data)->work(); },
      [](uv_work_t* req, int) {
        std::unique_ptr<Job> job(static_cast<Job*>(req->data));
        static_cast<Runtime*>(req->loop->data)->note_stall(uv_hrtime() - job->issued_ns);
        job->after();
      });
  if (rc < 0) {
    delete job;
    throw UvError("uv_queue_work", rc);
  }
}

void Runtime::read_file(std::string path, FileReadDone done) {
  auto read = std::make_shared<FileRead>(FileRead{std::move(path), std::move(done)});
  if (model_.fs_requests == FsRequests::one_shot) {
    // Open, fstat, read and close in one request; a file over one chunk comes back open, with
    // its size, and is read like any other.
    fs_job([read] {
      read->fd = ::open(read->path.c_str(), O_RDONLY | O_CLOEXEC);
      if (read->fd < 0) {
        read->error = uv_err_name(-errno);
        return;
      }
      struct stat st {};
      if (::fstat(read->fd, &st) == 0 && S_ISREG(st.st_mode)) read->size = static_cast<std::size_t>(st.st_size);
      if (read->size > kReadFileChunk) return;
      read->bytes = read_all(read->fd, read->size, read->error);
      ::close(read->fd);
      read->fd = -1;
    }, [this, read] { read->fd >= 0 ? read_chunks(read) : finish_read(read); });
    return;
  }
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_open(loop(), req, read->path.c_str(), O_RDONLY | O_CLOEXEC, 0, cb); },
          [this, read](uv_fs_t* req) {
            if (req->result < 0) {
              read->error = error_code(req->result);
              return finish_read(read);
            }
            read->fd = static_cast<int>(req->result);
            fs_step([&](uv_fs_t* r, uv_fs_cb cb) { return uv_fs_fstat(loop(), r, read->fd, cb); },
                    [this, read](uv_fs_t* r) {
                      if (r->result < 0) {
                        read->error = error_code(r->result);
                      } else if (S_ISREG(r->statbuf.st_mode)) {
                        read->size = r->statbuf.st_size;
                      }
                      read->error.empty() ? read_chunks(read) : finish_read(read);
                    });
          });
}

// ReadFileContext.read: 512 KiB at most per request, 64 KiB while the size is unknown, until the
// size is reached or a read returns 0 bytes; then close.
void Runtime::read_chunks(const std::shared_ptr<FileRead>& read) {
  std::size_t length = read->size == 0 ? kReadFileUnknownChunk : std::min(kReadFileChunk, read->size - read->bytes.size());
  read->buffer.resize(length);
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) {
            uv_buf_t buf = uv_buf_init(read->buffer.data(), static_cast<unsigned>(length));
            return uv_fs_read(loop(), req, read->fd, &buf, 1, -1, cb);
          },
          [this, read](uv_fs_t* req) {
            if (req->result < 0) {
              read->error = error_code(req->result);
              return finish_read(read);
            }
            read->bytes.append(read->buffer.data(), static_cast<std::size_t>(req->result));
            bool done = req->result == 0 || (read->size > 0 && read->bytes.size() >= read->size);
            done ? finish_read(read) : read_chunks(read);
          });
}

// Closes the file when it is open, then calls back: the call's last request.
void Runtime::finish_read(const std::shared_ptr<FileRead>& read) {
  auto call_back = [this, read] { invoke([&] { read->done(std::move(read->bytes), read->error); }); };
  if (read->fd < 0) return call_back();
  int fd = std::exchange(read->fd, -1);
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_close(loop(), req, fd, cb); },
          [read, call_back](uv_fs_t* req) {
            if (read->error.empty()) read->error = error_code(req->result);
            call_back();
          });
}

void Runtime::stat(std::string path, FsDone done) {
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_stat(loop(), req, path.c_str(), cb); },
          [this, done = std::move(done)](uv_fs_t* req) { invoke([&] { done(error_code(req->result)); }); });
}

void Runtime::open(std::string path, OpenDone done) {
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_open(loop(), req, path.c_str(), O_RDONLY | O_CLOEXEC, 0, cb); },
          [this, done = std::move(done)](uv_fs_t* req) {
            int fd = static_cast<int>(req->result);
            if (stopped() && fd >= 0) ::close(fd);  // nobody is left to close it
            invoke([&] { done(fd >= 0 ? fd : -1, error_code(req->result)); });
          });
}

void Runtime::close(int fd, FsDone done) {
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_close(loop(), req, fd, cb); },
          [this, done = std::move(done)](uv_fs_t* req) { invoke([&] { done(error_code(req->result)); }); });
}

// fs.writeFile: open, write until every byte is written (at least one write), close; or, on
// Node 26, all three in one pool request.
void Runtime::write_file(std::string path, std::string bytes, FsDone done) {
  struct Write {
    std::string path, bytes, error;
    std::size_t written = 0;
    int fd = -1;
    FsDone done;
  };
  auto write = std::make_shared<Write>(Write{std::move(path), std::move(bytes), "", 0, -1, std::move(done)});
  auto call_back = [this, write] { invoke([&] { write->done(write->error); }); };
  if (model_.fs_requests == FsRequests::one_shot) {
    fs_job([write] {
      int fd = ::open(write->path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd < 0) {
        write->error = uv_err_name(-errno);
        return;
      }
      while (write->written < write->bytes.size()) {
        ssize_t n = ::write(fd, write->bytes.data() + write->written, write->bytes.size() - write->written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) write->error = uv_err_name(-errno);
        if (n <= 0) break;
        write->written += static_cast<std::size_t>(n);
      }
      ::close(fd);
    }, call_back);
    return;
  }
  auto close_then_call_back = [this, write, call_back] {
    fs_step([&](uv_fs_t* req, uv_fs_cb cb) { return uv_fs_close(loop(), req, write->fd, cb); },
            [write, call_back](uv_fs_t* req) {
              if (write->error.empty()) write->error = error_code(req->result);
              call_back();
            });
  };
  auto write_rest = std::make_shared<std::function<void()>>();
  *write_rest = [this, write, close_then_call_back, write_rest] {
    fs_step([&](uv_fs_t* req, uv_fs_cb cb) {
              uv_buf_t buf = uv_buf_init(write->bytes.data() + write->written,
                                         static_cast<unsigned>(write->bytes.size() - write->written));
              return uv_fs_write(loop(), req, write->fd, &buf, 1, -1, cb);
            },
            [write, close_then_call_back, write_rest](uv_fs_t* req) {
              if (req->result < 0) write->error = error_code(req->result);
              if (req->result > 0) write->written += static_cast<std::size_t>(req->result);
              bool more = req->result > 0 && write->written < write->bytes.size();
              if (more) return (*write_rest)();
              *write_rest = nullptr;  // the last step: break the cycle through the captured pointer
              close_then_call_back();
            });
  };
  fs_step([&](uv_fs_t* req, uv_fs_cb cb) {
            return uv_fs_open(loop(), req, write->path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666, cb);
          },
          [write, call_back, write_rest](uv_fs_t* req) {
            if (req->result < 0) {
              write->error = error_code(req->result);
              *write_rest = nullptr;
              return call_back();
            }
            write->fd = static_cast<int>(req->result);
            (*write_rest)();
          });
}

}  // namespace stallbench::loop
