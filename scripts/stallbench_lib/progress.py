"""Progress on stderr while cells run: which cell, how many are left, which repetition, how long.
On a terminal one line is rewritten in place; otherwise (CI logs) a line per cell."""
import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total_cells: int, repetitions: int, stream=None):
        self.total = total_cells
        self.repetitions = repetitions
        self.stream = stream or sys.stderr  # the one in place now (cli.main puts it behind a pipe guard)
        self.live = self.stream.isatty()
        self.started = time.monotonic()
        self.index = 0
        self.label = ""
        self.rep = -1
        self.cell_started = self.started
        self.last_draw = 0.0
        self.failed = 0
        self.findings = 0
        self.skipped = 0

    def _prefix(self) -> str:
        width = len(str(self.total))
        return f"[{self.index:>{width}}/{self.total}]"

    def start_cell(self, index: int, label: str) -> None:
        self.index, self.label, self.rep = index, label, -1
        self.cell_started = time.monotonic()
        if not self.live:
            print(f"{self._prefix()} {label} ...", file=self.stream, flush=True)
        self._draw(force=True)

    def skip_cell(self) -> None:
        """A planned cell left out (the plan adapted); counted in the summary, not printed."""
        self.skipped += 1

    def repetition(self, rep: int) -> None:
        self.rep = rep
        self._draw(force=True)

    def tick(self) -> None:
        self._draw()

    def _draw(self, force: bool = False) -> None:
        if not self.live:
            return
        now = time.monotonic()
        if not force and now - self.last_draw < 0.5:
            return
        self.last_draw = now
        rep = f"rep {self.rep + 1}/{self.repetitions}" if self.rep >= 0 else "starting"
        line = f"{self._prefix()} {self.label} · {rep} · {_clock(now - self.started)}"
        print(f"\r\033[K{line}", end="", file=self.stream, flush=True)

    def end_cell(self, status: str, detail: str, seconds: float, finding: bool = False) -> None:
        """`finding`: a non-ok status the benchmark measures (a regex engine's guard), not a failure."""
        if finding:
            self.findings += 1
            verdict = f"{status} (a finding): {detail}"
        elif status != "ok":
            self.failed += 1
            verdict = f"{status.upper()}: {detail}"
        else:
            verdict = "ok"
        start = "\r\033[K" if self.live else ""
        print(f"{start}{self._prefix()} {self.label} · {verdict} ({seconds:.1f} s)", file=self.stream, flush=True)

    def summary(self) -> str:
        run = self.total - self.skipped
        skipped = f", {self.skipped} skipped" if self.skipped else ""
        findings = f", {self.findings} findings (statuses the benchmark measures)" if self.findings else ""
        return (f"{run} cells in {_clock(time.monotonic() - self.started)}, "
                f"{run - self.failed - self.findings} ok{findings}, {self.failed} failed{skipped}")
