import pytest

from stallbench_lib.atomic import atomic_write


def test_replaces_whole_and_leaves_no_temporaries(tmp_path):
    target = tmp_path / "meta.json"
    atomic_write(target, "old")
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["meta.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "results.csv"
    atomic_write(target, "complete old content")

    with pytest.raises(TypeError):
        atomic_write(target, 12345)  # not str or bytes: fails after the temporary file was opened
    assert target.read_text() == "complete old content"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]
