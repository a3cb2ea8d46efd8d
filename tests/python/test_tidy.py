import pytest

from stallbench_lib.parameters import Params
from stallbench_lib.tidy import Row, read_csv, to_csv, validate_row, write_csv


def row(**changes):
    base = dict(run_id="r", family="pool", benchmark="saturation", params=Params({"pool": 1, "jobs": 4}), repetition=0,
                metric="fs_latency_ms", value=1.5, unit="ms", status="ok", detail="")
    return Row(**{**base, **changes})


def test_a_row_carries_params_as_data_and_its_csv_line_spells_them_once():
    assert to_csv([row()]).splitlines()[1].split(",")[3] == "jobs=4;pool=1"
    with pytest.raises(TypeError, match="Row.params is str, not Params"):
        row(params="jobs=4;pool=1")


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
    assert validate_row(row(value=float("nan")))
