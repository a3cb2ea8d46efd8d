"""The harness's repetition records (benches/harness/records.h) -> tidy rows.

A bench binary writes one JSON line as each repetition starts and one as it ends, on a descriptor
of its own (--stallbench-records-fd); `read_record` is the one reader of that contract. An ended
repetition's values become rows in the order the harness wrote them (a series in index order), a
value's sub-case ({"class": "read"}) joining the row's params. A failed repetition becomes one row
per declared metric with its status. Repetitions with no record (the process died or was stopped)
are filled in by the caller with `failure_rows`. A record also carries the repetition's own time
(`wall_ms`) and the label of its callgrind dump, so nothing reads Google Benchmark's JSON: it is
kept as the raw artefact only."""
import json
from dataclasses import dataclass, field

from .catalogue import Benchmark
from .contract import PROTOCOL
from .tidy import STATUSES, Row, canonical_params


@dataclass(frozen=True)
class Value:
    metric: str
    value: float
    index: int | None = None  # its place in a series
    subcase: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Record:
    event: str  # "start" or "end"
    rep: int
    status: str = "ok"
    detail: str = ""
    values: tuple[Value, ...] = ()
    wall_ms: float | None = None  # what the repetition returned; None when it failed
    callgrind_dump: str = ""      # the label of the dump it made under callgrind


def _value(v: dict) -> Value:
    index = v["index"]
    if not isinstance(v["metric"], str) or (index is not None and not isinstance(index, int)):
        raise ValueError(f"malformed value {v!r}")
    subcase = v["subcase"]
    if not isinstance(subcase, dict) or not all(isinstance(x, str) for kv in subcase.items() for x in kv):
        raise ValueError(f"malformed sub-case in {v!r}")
    return Value(v["metric"], float(v["value"]), index, subcase)


def read_record(line: str) -> Record:
    """One record line -> a Record. ValueError says what is wrong with a line that is not one of
    this version's records."""
    try:
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("protocol") != PROTOCOL:
            raise ValueError(f"protocol {data.get('protocol')!r}, expected {PROTOCOL} (rebuild the bench binaries)")
        event, rep = data["event"], data["rep"]
        if event not in ("start", "end") or not isinstance(rep, int) or rep < 0:
            raise ValueError(f"event {event!r} of repetition {rep!r}")
        if event == "start":
            return Record(event, rep)
        status, detail = data["status"], data["detail"]
        if status not in STATUSES or not isinstance(detail, str):
            raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        wall_ms, dump = data["wall_ms"], data["callgrind_dump"]
        if (wall_ms is None) != (status != "ok") or not isinstance(dump, str):
            raise ValueError(f"wall_ms {wall_ms!r} with status {status!r}")
        return Record(event, rep, status, detail, tuple(_value(v) for v in data["values"]),
                      None if wall_ms is None else float(wall_ms), dump)
    except (KeyError, TypeError) as e:
        raise ValueError(f"malformed repetition record ({type(e).__name__}: {e}): {line[:200]}") from None
    except ValueError as e:
        raise ValueError(f"malformed repetition record ({e}): {line[:200]}") from None


def failure_rows(run_id: str, benchmark: Benchmark, params: dict[str, str], repetition: int,
                 status: str, detail: str) -> list[Row]:
    key = canonical_params(params)
    return [Row(run_id, benchmark.family, benchmark.name, key, repetition, m.name, None, m.unit, status, detail)
            for m in benchmark.metrics]


def rows_from_record(record: Record, run_id: str, benchmark: Benchmark, params: dict[str, str]) -> list[Row]:
    """An ended repetition's rows: its values, or one failed row per declared metric."""
    if record.status != "ok":
        return failure_rows(run_id, benchmark, params, record.rep, record.status, record.detail or record.status)
    rows = []
    for v in record.values:
        metric = benchmark.metric(v.metric)
        if metric is None:  # the harness accepts declared metrics only: a record from another build
            raise ValueError(f"metric {v.metric!r} is not declared by {benchmark.full_name}")
        rows.append(Row(run_id, benchmark.family, benchmark.name, canonical_params({**params, **v.subcase}),
                        record.rep, v.metric, v.value, metric.unit, "ok", ""))
    return rows
