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
clamped to 1024; "١٢" (Arabic-Indic digits) has no ASCII digit and is 0, hence 1; "8 threads" is 8.

libuv 1.52 (libuv/libuv#4888; Node 24 and 26) reads the variable with uv_os_getenv into a 16-byte
buffer and ignores a value that does not fit (16 bytes or more): "0000000000000008" is then the
default 4, where 1.51 and earlier read 8. Both measured here with Node's own pool
(tests/python/test_libuv_pool_size.py)."""
import os
import re

DEFAULT = 4
MAX = 1024
LONG_VALUE_BYTES = 16  # libuv 1.52+: uv_os_getenv into char buf[16] fails for a value this long
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


def _ignores_long_values(libuv: str | None) -> bool:
    """Whether this libuv version (e.g. '1.52.1'; None: not known, the newest assumed) ignores a value
    of LONG_VALUE_BYTES or more."""
    if libuv is None:
        return True
    try:
        return tuple(int(part) for part in libuv.split(".")[:2]) >= (1, 52)
    except ValueError:
        return True


def pool_size(text: str | None, libuv: str | None = None) -> int:
    """The threads libuv `libuv` (a version, e.g. '1.44.2'; None: the newest) starts for
    UV_THREADPOOL_SIZE=`text` (None: the variable is not set)."""
    if text is None:
        return DEFAULT
    if _ignores_long_values(libuv) and len(os.fsencode(text)) >= LONG_VALUE_BYTES:
        return DEFAULT
    threads = atoi(text) & 0xFFFFFFFF  # int -> unsigned int
    if threads == 0:
        return 1
    return min(threads, MAX)
