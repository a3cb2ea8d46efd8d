// Where libuv keeps its thread pool's state in the running Node: the static variables of libuv's
// threadpool.c (its lock, its queue of work, how many threads it started and how many are idle).
// libuv has no API for them (libuv#1144, #3222 were declined), but official Node binaries keep
// their symbol table, where these statics are local symbols after the FILE symbol "threadpool.c".
// The lookup reads the ELF file that holds uv_queue_work (the node executable, or a shared libuv),
// checks the file is the image that runs (its uv_queue_work lands where the dynamic linker put it)
// and that every variable has the size of what it holds; a stripped binary or any mismatch is an
// answer with the reason, never a guess.
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
};

// Finds the pool's statics; false with `why` set when they cannot be found or trusted.
bool find_libuv_pool(LibuvPool& pool, std::string& why);

}  // namespace stallbench
