// Where libuv keeps its thread pool's state in the running Node: the static variables of libuv's
// threadpool.c (its lock, its queues of work, how many threads it started, how many are idle and how
// many run lookups).
// libuv has no API for them (libuv#1144, #3222 were declined), but official Node binaries keep
// their symbol table, where these statics are local symbols after the FILE symbol "threadpool.c".
// The lookup reads the ELF file that holds uv_queue_work (the node executable, or a shared libuv),
// checks the file is the image that runs (its uv_queue_work lands where the dynamic linker put it)
// and that every variable has the size of what it holds; a stripped binary or any mismatch is an
// answer with the reason, never a guess. Names and sizes cannot say what a variable means, so the
// running libuv's version (uv_version(), exported) must also be one whose threadpool.c was read and
// tested here: every pinned Node line's (tests/python/test_probe_pool.py); any other libuv is "not
// available on this line", said with its version, until its threadpool.c is checked and the range
// below widened.
#pragma once

#include <pthread.h>

#include <string>

namespace stallbench {

// libuv's struct uv__queue (QUEUE before 1.46): two pointers, the same layout in every libuv.
struct UvQueue {
  UvQueue* next;
  UvQueue* prev;
};

struct LibuvPool {
  pthread_mutex_t* mutex = nullptr;      // guards everything below (uv_mutex_t is a pthread mutex)
  UvQueue* wq = nullptr;                 // work waiting for a thread
  UvQueue* slow_io_pending = nullptr;    // slow I/O (getaddrinfo) waiting for its share of threads
  UvQueue* run_slow_marker = nullptr;    // the marker wq holds while slow I/O waits
  UvQueue* exit_marker = nullptr;        // posted to wq at shutdown
  const unsigned* idle_threads = nullptr;
  const unsigned* nthreads = nullptr;    // 0 until the first submission starts the pool
  const unsigned* slow_io_running = nullptr;  // slow I/O on a thread (at most (nthreads + 1) / 2)
};

// The libuv versions (uv_version(): major << 16 | minor << 8 | patch) whose threadpool.c keeps these
// statics with these meanings: 1.44 (Node 18) to 1.52 (Node 24 and 26), every patch of them.
constexpr unsigned kOldestCheckedLibuv = (1u << 16) | (44u << 8);
constexpr unsigned kNewestCheckedLibuv = (1u << 16) | (52u << 8) | 0xffu;

// "" for a version in that range, else "not available on this line: libuv X.Y.Z's ...".
std::string unchecked_libuv(unsigned version);

// How many threads those libuvs start (init_threads in threadpool.c) for UV_THREADPOOL_SIZE's value
// (null: unset): 4 unset, else as atoi reads it, 0 -> 1, more than 1024 (a negative number too, as
// an unsigned) -> 1024.
unsigned threads_libuv_starts(const char* threadpool_size);

// Finds the pool's statics; false with `why` set when they cannot be found or trusted.
bool find_libuv_pool(LibuvPool& pool, std::string& why);

}  // namespace stallbench
