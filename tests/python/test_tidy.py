from stallbench_lib.tidy import Row, canonical_params, parse_params, read_csv, to_csv, validate_row, write_csv


def row(**changes):
    base = dict(run_id="r", family="pool", benchmark="saturation", params="jobs=4;pool=1", repetition=0,
                metric="fs_latency_ms", value=1.5, unit="ms", status="ok", detail="")
    return Row(**{**base, **changes})


def test_params_are_sorted_key_value_pairs():
    assert canonical_params({"pool": "4", "jobs": "6", "digest": "sha256"}) == "digest=sha256;jobs=6;pool=4"
    assert parse_params("digest=sha256;jobs=6") == {"digest": "sha256", "jobs": "6"}
    assert canonical_params({}) == ""


def test_csv_round_trip(tmp_path):
    rows = [row(), row(repetition=1, value=None, status="timeout", detail="repetition 1 exceeded 60 s")]
    write_csv(tmp_path / "results.csv", rows)
    assert read_csv(tmp_path / "results.csv") == rows
    assert to_csv(rows).splitlines()[0] == "run_id,family,benchmark,params,repetition,metric,value,unit,status,detail"


def test_validation_catches_schema_breaks():
    assert validate_row(row()) == []
    assert validate_row(row(status="weird"))
    assert validate_row(row(value=None))
    assert validate_row(row(status="crashed", value=None, detail=""))
    assert validate_row(row(status="crashed", value=2.0, detail="SIGSEGV"))
    assert validate_row(row(params="pool=1;jobs=4"))
    assert validate_row(row(value=float("nan")))
