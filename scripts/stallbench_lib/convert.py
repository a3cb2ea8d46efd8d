"""The harness's repetition records (benches/harness/records.h) -> tidy rows.

A bench binary writes one JSON line as each repetition starts and one as it ends, on a descriptor
of its own (--stallbench-records-fd); `read_record` is the one reader of that contract. An ended
repetition's values become rows in the order the harness wrote them (a series in index order), a
value's sub-case ({"class": "read"}) joining the row's params. A failed repetition becomes one row
per declared metric with its status. Repetitions with no record (the process died or was stopped)
are filled in by the caller with `failure_rows`. A record also carries the repetition's own time
(`wall_ms`) and the label of its callgrind dump, so nothing reads Google Benchmark's JSON: it is
kept as the raw artefact only."""
from dataclasses import dataclass, field

from . import contract
from .catalogue import Benchmark
from .parameters import Params
from .tidy import Row
from .documents import json_loads


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


def read_record(line: str) -> Record:
    """One record line -> a Record. ValueError says in one line what is wrong with a line that is
    not one of this protocol's records (contract/protocol.schema.json: start_record, end_record)."""
    try:
        data = json_loads(line)
        event = data.get("event") if isinstance(data, dict) else None
        contract.check(data, "end_record" if event == "end" else "start_record", "the bench")
        if event == "start":
            return Record(event, data["rep"])
        if (data["wall_ms"] is None) != (data["status"] != "ok"):
            raise ValueError(f"wall_ms {data['wall_ms']!r} with status {data['status']!r}")
    except ValueError as e:  # contract.ProtocolError and json.JSONDecodeError are ValueErrors
        raise ValueError(f"malformed repetition record ({e}): {line[:200]}") from None
    values = tuple(Value(v["metric"], float(v["value"]), v["index"], v["subcase"]) for v in data["values"])
    return Record(event, data["rep"], data["status"], data["detail"], values,
                  None if data["wall_ms"] is None else float(data["wall_ms"]), data["callgrind_dump"])


def failure_rows(run_id: str, benchmark: Benchmark, params: dict[str, str], repetition: int,
                 status: str, detail: str) -> list[Row]:
    key = Params(params)
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
        rows.append(Row(run_id, benchmark.family, benchmark.name, Params({**params, **v.subcase}),
                        record.rep, v.metric, v.value, metric.unit, "ok", ""))
    return rows
