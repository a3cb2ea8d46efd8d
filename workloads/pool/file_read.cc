#include "file_read.h"

#include <fcntl.h>

#include <memory>

namespace stallbench {
namespace {

struct FileRead {
  uv_fs_t req;
  uv_loop_t* loop;
  std::string path;
  uv_file file = -1;
  std::string bytes;
  std::size_t filled = 0;
  std::string error;
  FileReadDone done;

  // Each step takes ownership back from req.data; a failed step skips to close (or to the end).
  static FileRead* from(uv_fs_t* req) {
    auto* self = static_cast<FileRead*>(req->data);
    uv_fs_req_cleanup(req);
    return self;
  }

  void fail(const char* step, int code) {
    error = std::string(step) + " " + path + ": " + uv_strerror(code);
  }

  void start() {
    req.data = this;
    int rc = uv_fs_open(loop, &req, path.c_str(), O_RDONLY, 0, on_open);
    if (rc < 0) { fail("open", rc); finish(); }
  }

  static void on_open(uv_fs_t* req) {
    auto* self = from(req);
    if (req->result < 0) { self->fail("open", static_cast<int>(req->result)); return self->finish(); }
    self->file = static_cast<uv_file>(req->result);
    int rc = uv_fs_fstat(self->loop, &self->req, self->file, on_stat);
    if (rc < 0) { self->fail("fstat", rc); self->close(); }
  }

  static void on_stat(uv_fs_t* req) {
    auto* self = from(req);
    if (req->result < 0) { self->fail("fstat", static_cast<int>(req->result)); return self->close(); }
    self->bytes.resize(req->statbuf.st_size);
    self->read_more();
  }

  void read_more() {
    if (filled == bytes.size()) return close();
    uv_buf_t buf = uv_buf_init(bytes.data() + filled, static_cast<unsigned>(bytes.size() - filled));
    int rc = uv_fs_read(loop, &req, file, &buf, 1, static_cast<int64_t>(filled), on_read);
    if (rc < 0) { fail("read", rc); close(); }
  }

  static void on_read(uv_fs_t* req) {
    auto* self = from(req);
    if (req->result < 0) { self->fail("read", static_cast<int>(req->result)); return self->close(); }
    if (req->result == 0) {  // the file shrank under us: keep what was read
      self->bytes.resize(self->filled);
      return self->close();
    }
    self->filled += static_cast<std::size_t>(req->result);
    self->read_more();
  }

  void close() {
    int rc = uv_fs_close(loop, &req, file, on_close);
    if (rc < 0) { fail("close", rc); finish(); }
  }

  static void on_close(uv_fs_t* req) {
    auto* self = from(req);
    if (req->result < 0 && self->error.empty()) self->fail("close", static_cast<int>(req->result));
    self->finish();
  }

  void finish() {
    std::unique_ptr<FileRead> owned(this);
    if (!error.empty()) bytes.clear();
    done(std::move(bytes), std::move(error));
  }
};

}  // namespace

void read_file(uv_loop_t* loop, std::string path, FileReadDone done) {
  auto* read = new FileRead{};
  read->loop = loop;
  read->path = std::move(path);
  read->done = std::move(done);
  read->start();
}

}  // namespace stallbench
