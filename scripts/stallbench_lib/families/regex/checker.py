"""Runs build/<preset>/benches/regex_check (benches/regex_check.cc): compiles regexes with engines
and answers match / no match for inputs, in a process of its own with a time and memory limit, so
a crash or an exponential blow-up there costs a report line, not the run."""
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ... import build, children, contract
from ...errors import UsageError
from .engines import Engines
from .patterns import Pattern

CHECK_TIMEOUT_S = 60


@dataclass
class EngineAnswers:
    rejected: str | None  # the engine's compile error
    answers: str          # per input: 1 match, 0 no match, g guarded, e error
    fallback: str | None = None  # why the engine runs the regex with another algorithm than its own


class CheckFailed(Exception):
    pass


def binary(build_dir: Path) -> Path:
    return build.helper_binary(build_dir, "regex_check")


def run(check_binary: Path, engines: list[str], regexes: list[tuple[str, str]], inputs: list[str],
        nodes: dict[str, str] | None = None, timeout_s: float = CHECK_TIMEOUT_S,
        own_inputs: list[list[str]] | None = None) -> dict[str, list[EngineAnswers]]:
    """engine -> one EngineAnswers per (regex, flags). `inputs` are bytes as Latin-1 strings, or
    `own_inputs` one list per regex; `nodes` maps a Node line to its binary for the engines
    node@LINE. Raises CheckFailed when the helper crashed, hung or failed."""
    asked = [{"regex": regex, "flags": flags} for regex, flags in regexes]
    for entry, own in zip(asked, own_inputs or []):
        entry["inputs"] = own
    request = json.dumps({"engines": engines, "nodes": nodes or {}, "inputs": inputs, "regexes": asked})
    try:
        # regex_check's group holds the node processes of the V8 engines too: all of it ends here.
        done = children.run([str(check_binary)], input=request, text=True, timeout_s=timeout_s)
    except subprocess.TimeoutExpired:
        raise CheckFailed(f"did not finish within {timeout_s:g} s")
    except OSError as e:
        raise CheckFailed(f"cannot run {check_binary}: {e}")
    if done.memory_kill:
        raise CheckFailed(done.memory_kill)
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise CheckFailed(reason[0] if done.returncode > 0 else f"killed by signal {-done.returncode}")
    try:
        reply = contract.parse(done.stdout, "regex_check_reply", check_binary.name)["engines"]
    except contract.ProtocolError as e:  # a helper of another checkout: nothing it says can be read
        raise UsageError(str(e)) from None
    return {engine: [EngineAnswers(a["rejected"], a["answers"], a.get("fallback")) for a in per_regex]
            for engine, per_regex in reply.items()}


def require_some_engine_accepts(check_binary: Path, engines: list[str], patterns: list[Pattern], where: Path,
                                nodes: dict[str, str] | None = None, table: Engines | None = None) -> None:
    """UsageError naming the first regex (or safe rewrite) that every engine refuses. The engines
    in the bench's process go first; those in programs (a node or a JVM to start) only for what all
    others refused."""
    table = table or Engines(())
    regexes = [(p, field, text) for p in patterns for field, text in (("regex", p.regex), ("safe", p.safe)) if text]
    in_process = [e for e in engines if table.in_process(e)]
    refusals: list[dict[str, str | None]] = [{} for _ in regexes]
    for group in (in_process, [e for e in engines if e not in in_process]):
        todo = [i for i, r in enumerate(refusals) if all(r.values())]
        if not group or not todo:
            continue
        try:
            compiled = run(check_binary, group, [(regexes[i][2], regexes[i][0].flags) for i in todo], [], nodes)
        except CheckFailed as e:
            raise UsageError(f"{where}: checking the regexes with every engine failed: {e}")
        for k, i in enumerate(todo):
            refusals[i].update({e: compiled[e][k].rejected for e in group})
    for (pattern, field, text), refused in zip(regexes, refusals):
        if all(refused.values()):
            engine, message = next(iter(refused.items()))
            raise UsageError(f"{where}: pattern {pattern.name!r}: {field} {text!r} is invalid for every engine "
                             f"({engine}: {message}; engines tried: {', '.join(refused)})")
