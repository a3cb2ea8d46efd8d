// libuv's pool at one instant, and what a job waits for in it. libuv runs "slow I/O" (getaddrinfo,
// getnameinfo: Node's dns.lookup and dns.lookupService) on at most (threads + 1) / 2 threads at
// once (slow_work_thread_threshold in threadpool.c, every libuv the probe reads): past that share a
// lookup waits in a queue of its own while other threads may sit idle, so an idle thread says
// nothing about a held-back lookup's wait, and a held-back lookup is nothing an ordinary job (fs,
// crypto, zlib, a canary) queues behind. Plain C++ (no Node), so every build tests it.
#pragma once

namespace stallbench {

struct PoolSnapshot {
  unsigned threads = 0;       // 0: the pool has not started
  unsigned idle = 0;
  unsigned queued = 0;        // every job waiting, the lookups' queue and the canaries included
  unsigned slow_queued = 0;   // of them, lookups in libuv's slow-I/O queue
  unsigned slow_running = 0;  // lookups on a thread
  // The probe's canaries, read under libuv's lock with the rest: submitted and not yet begun (a
  // canary a thread has just taken off the queue among them), and running their no-op.
  unsigned canaries_queued = 0;
  unsigned canaries_running = 0;
};

// The threads libuv lets lookups hold at once in a pool of `threads`.
unsigned lookup_threads(unsigned threads);

// The jobs an ordinary job submitted now finds ahead of it: the ordinary ones, and the lookups
// allowed to start.
unsigned competing(const PoolSnapshot& s);

// The pool as the program's own jobs find it: the canaries' jobs left out of the queue, and a thread
// running a canary's no-op counted idle (it is free again at once). A canary behind other canaries
// waits for the probe, not for the program: on a busy machine a burst of them queued behind woken
// threads that waited for a core, and each read as a wait for a thread. A canary a thread has taken
// and not yet begun is still counted queued, its thread busy: for that moment the view has one
// idle thread fewer and may leave one of the program's queued jobs out, but it never counts a
// canary as the program's job.
PoolSnapshot programs_view(const PoolSnapshot& s);

// The jobs waiting for a thread: those competing beyond the idle threads (the rest wait only for the
// woken thread to get a core), and every lookup held back by the lookups' share.
unsigned waiting_for_thread(const PoolSnapshot& s);

}  // namespace stallbench
