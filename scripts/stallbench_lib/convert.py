"""Google Benchmark JSON (one cell's process) -> tidy rows.

Counters named `metric#i` are one metric's series (one value per job, say) and become rows in
index order. A repetition that failed carries `error_message` "<status>: <detail>" (the harness
writes it so); it becomes one row per declared metric with that status. Repetitions the JSON
lacks (the process died or was stopped) are filled in by the caller: from the counters the
harness printed as each repetition ended (`rows_from_counters`), else with `failure_rows`."""
from .catalogue import Benchmark
from .tidy import STATUSES, Row, canonical_params


def split_status(message: str) -> tuple[str, str]:
    status, sep, detail = message.partition(": ")
    if sep and status in STATUSES and status != "ok":
        return status, detail
    return "error", message


def failure_rows(run_id: str, benchmark: Benchmark, params: dict[str, str], repetition: int,
                 status: str, detail: str) -> list[Row]:
    key = canonical_params(params)
    return [Row(run_id, benchmark.family, benchmark.name, key, repetition, m.name, None, m.unit, status, detail)
            for m in benchmark.metrics]


def _series_key(counter: str) -> tuple[str, int]:
    name, _, index = counter.partition("#")
    return name, int(index) if index else -1


def rows_from_counters(counters: dict, run_id: str, benchmark: Benchmark, params: dict[str, str],
                       repetition: int) -> list[Row]:
    """One repetition's counters (any dict holding them, extra keys ignored) -> its ok rows."""
    key = canonical_params(params)
    declared = {m.name: m for m in benchmark.metrics}
    names = sorted((k for k in counters if _series_key(k)[0] in declared), key=_series_key)
    return [Row(run_id, benchmark.family, benchmark.name, key, repetition, declared[_series_key(n)[0]].name,
                float(counters[n]), declared[_series_key(n)[0]].unit, "ok", "") for n in names]


def rows_from_gbench(doc: dict, run_id: str, benchmark: Benchmark, params: dict[str, str]) -> list[Row]:
    rows = []
    for entry in doc.get("benchmarks", []):
        if entry.get("run_type") != "iteration":
            continue
        repetition = int(entry.get("repetition_index", 0))
        if entry.get("error_occurred"):
            status, detail = split_status(entry.get("error_message", ""))
            rows += failure_rows(run_id, benchmark, params, repetition, status, detail)
        else:
            rows += rows_from_counters(entry, run_id, benchmark, params, repetition)
    return rows


def repetitions_seen(doc: dict) -> set[int]:
    return {int(e.get("repetition_index", 0)) for e in doc.get("benchmarks", []) if e.get("run_type") == "iteration"}
