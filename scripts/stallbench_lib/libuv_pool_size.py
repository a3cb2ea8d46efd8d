"""UV_THREADPOOL_SIZE read exactly as libuv reads it, for the places that say what pool a program
gets (doctor, probe-cost). libuv (src/threadpool.c, init_threads, unchanged from 1.30 to 1.52):

    nthreads = ARRAY_SIZE(default_threads);      // unsigned int, 4
    val = getenv("UV_THREADPOOL_SIZE");
    if (val != NULL) nthreads = atoi(val);
    if (nthreads == 0) nthreads = 1;
    if (nthreads > MAX_THREADPOOL_SIZE) nthreads = MAX_THREADPOOL_SIZE;   // 1024

atoi is glibc's (int) strtol(val, NULL, 10): leading C-locale white space, an optional sign, ASCII
digits up to the first other character; past the range of a long it saturates; the cast to int keeps
the low 32 bits, and the assignment to an unsigned int reads them as unsigned. So "-1" is 4294967295,
clamped to 1024; "١٢" (Arabic-Indic digits) has no ASCII digit and is 0, hence 1; "8 threads" is 8."""
import re

DEFAULT = 4
MAX = 1024
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_ATOI = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", re.ASCII)


def atoi(text: str) -> int:
    """glibc's atoi on a 64-bit machine: (int) strtol(text, NULL, 10)."""
    found = _ATOI.match(text)
    if found is None:
        return 0
    value = min(max(int(found.group(1)), _LONG_MIN), _LONG_MAX)
    low = value & 0xFFFFFFFF
    return low - (1 << 32) if low >= 1 << 31 else low


def pool_size(text: str | None) -> int:
    """The threads libuv starts for UV_THREADPOOL_SIZE=`text` (None: the variable is not set)."""
    if text is None:
        return DEFAULT
    threads = atoi(text) & 0xFFFFFFFF  # int -> unsigned int
    if threads == 0:
        return 1
    return min(threads, MAX)
