"""Whether a run about to be stored is the run the store already holds under its id. Importing a run
directory twice is the same run (nothing to do); a different run under a stored id — two machines, or
two folders, whose ids were made the same second before ids had a random part (meta.new_run_id), or a
run directory copied and measured again — must not be dropped as "already there". Two runs are the
same when they started at the same time on the same machine at the same commit and hold the same
rows (the rows' values differ between any two measurements)."""
import hashlib

from ..tidy import Row


def _rows_digest(rows: list[Row]) -> str:
    lines = sorted(repr((r.family, r.benchmark, str(r.params), r.repetition, r.metric, r.value, r.unit, r.status, r.detail))
                   for r in rows)
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


def _facts(meta: dict) -> dict[str, object]:
    return {"started": meta.get("started_at"), "machine": (meta.get("machine") or {}).get("fingerprint"),
            "commit": (meta.get("git") or {}).get("commit")}


def difference(stored_meta: dict, stored_rows: list[Row], meta: dict, rows: list[Row]) -> str:
    """'' when both are one run, else what tells them apart, for the refusal's one line."""
    stored, given = _facts(stored_meta), _facts(meta)
    differing = [f"{name} {stored[name]} there, {given[name]} here" for name in stored if stored[name] != given[name]]
    if differing:
        return "; ".join(differing)
    if _rows_digest(stored_rows) != _rows_digest(rows):
        return f"other rows: {len(stored_rows)} there, {len(rows)} here"
    return ""
