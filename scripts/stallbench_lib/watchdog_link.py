"""The orchestrator's end of the pipe to its watchdog (watchdog.py), started on first use. Every
message goes through watchdog_protocol.encode, so no path or name can become a request; what is
registered is kept here too, so a watchdog that was killed is replaced by one that knows it all."""
import os
import subprocess
import sys
import threading
from pathlib import Path

from .watchdog_protocol import LineReader, decode, encode

# The watchdog runs as `python -I`: no environment variable, user site or current folder reaches it.
_LAUNCH = "import sys; sys.path.insert(0, sys.argv[1]); from {package}.watchdog import main; main()"


class WatchdogLink:
    def __init__(self, start_thread):
        self._start_thread = start_thread  # children.thread: a thread that never takes SIGINT/SIGTERM
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._watched: dict[int, int] = {}  # pgid -> memory cap
        self._paths: set[str] = set()
        self._memory_kills: dict[int, str] = {}
        self._heard = threading.Condition()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _started(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            # The one child not started through children.start(): it must outlive us, so no death
            # signal; its own session keeps a terminal's Ctrl-C from reaching it before we cleaned up.
            scripts = Path(__file__).resolve().parents[1]
            self._proc = subprocess.Popen([sys.executable, "-I", "-c", _LAUNCH.format(package=__package__),
                                           str(scripts)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
            self._start_thread(self._listen, self._proc.stdout)
        return self._proc

    def _listen(self, stream) -> None:
        # os.read on the descriptor, not the stream's own read: a thread blocked inside a buffered
        # stream holds its lock, and the interpreter's exit then waits a second for it per stream.
        reader, fd = LineReader(), stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # closed under us at exit
                return
            if not chunk:
                return
            for line in reader.feed(chunk):
                message = decode(line)
                if message is None or message[0] != "memory":
                    continue
                _, pgid, fields = message
                with self._heard:
                    self._memory_kills[pgid] = (f"killed at {fields['rss'] / 2**20:.0f} MiB resident, over its "
                                                f"{fields['cap'] / 2**20:.0f} MiB memory cap")
                    self._heard.notify_all()

    def _send(self, line: bytes) -> None:
        proc = self._started()
        try:
            proc.stdin.write(line)
            proc.stdin.flush()
        except OSError:  # it was killed: a new one takes over everything still registered
            self._proc = None
            proc = self._started()
            proc.stdin.write(b"".join([*(encode("watch", pgid, cap=cap) for pgid, cap in self._watched.items()),
                                       *(encode("remove", path) for path in self._paths)]))
            proc.stdin.flush()

    def watch(self, pgid: int, cap: int) -> None:
        with self._lock:
            self._watched[pgid] = cap
            self._send(encode("watch", pgid, cap=cap))

    def release(self, pgid: int) -> None:
        with self._lock:
            if self._watched.pop(pgid, None) is not None:
                self._send(encode("release", pgid))

    def remove_if_killed(self, path: str) -> None:
        with self._lock:
            self._paths.add(path)
            self._send(encode("remove", path))

    def keep(self, path: str) -> None:
        with self._lock:
            self._paths.discard(path)
            self._send(encode("keep", path))

    def memory_kill(self, pgid: int, wait_s: float) -> str | None:
        with self._heard:
            self._heard.wait_for(lambda: pgid in self._memory_kills, timeout=wait_s)
            return self._memory_kills.pop(pgid, None)
