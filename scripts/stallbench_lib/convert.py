"""Google Benchmark JSON (one cell's process) -> tidy rows.

Counters named `metric#i` are one metric's series (one value per job, say) and become rows in
index order. Counters named `metric@key=value` belong to a sub-case the repetition measured side by
side with others (a job class of a mixed load): their rows carry key=value in `params`. A repetition that failed carries `error_message` "<status>: <detail>" (the harness
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


def _metric_and_subcase(name: str) -> tuple[str, dict[str, str]]:
    """'latency_p50_ms@class=read' -> ('latency_p50_ms', {'class': 'read'})."""
    metric, *extras = name.split("@")
    return metric, dict(extra.split("=", 1) for extra in extras if "=" in extra)


def rows_from_counters(counters: dict, run_id: str, benchmark: Benchmark, params: dict[str, str],
                       repetition: int) -> list[Row]:
    """One repetition's counters (any dict holding them, extra keys ignored) -> its ok rows."""
    declared = {m.name: m for m in benchmark.metrics}
    rows = []
    for counter in sorted(counters, key=_series_key):
        metric, subcase = _metric_and_subcase(_series_key(counter)[0])
        if metric in declared:
            rows.append(Row(run_id, benchmark.family, benchmark.name, canonical_params({**params, **subcase}),
                            repetition, metric, float(counters[counter]), declared[metric].unit, "ok", ""))
    return rows


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
