"""Python's re in stallbench's line protocol (../README.md). re.ASCII always: \\w and \\d are
ASCII, as JavaScript's (with or without u). Without u the pattern and inputs are bytes read as
Latin-1 text (one character per byte); with u, UTF-8 text. Python's `$` also matches before a final
newline (re has no option to stop it): docs/regex.md lists it."""
import math
import re
import sys
import time

FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "u": 0, "g": 0, "y": 0}


def matcher(compiled, anchoring: str, flags: str):
    """What a match is: the whole input (full); with y one match at the start (sticky); with g a global
    replace's loop, each search from the end of the last match (one character on after an empty one)."""
    if anchoring == "full":
        return compiled.fullmatch
    step = compiled.match if "y" in flags else compiled.search
    if "g" not in flags:
        return step

    def every(s: str):
        first, at = None, 0
        while at <= len(s) and (found := step(s, at)) is not None:
            first = first or found
            at = found.end() + (found.end() == found.start())
        return first
    return every


def text(hex_bytes: str, unicode: bool) -> str:
    data = b"" if hex_bytes == "-" else bytes.fromhex(hex_bytes)
    return data.decode("utf-8", "replace") if unicode else data.decode("latin-1")


regexes: dict[int, tuple] = {}
inputs: list[str] = []
decoded: dict[bool, list[str]] = {}


def compile_regex(flags: str, anchoring: str, pattern: str) -> str:
    unicode = "u" in flags
    options = re.ASCII
    for letter in flags.replace("-", ""):
        options |= FLAGS[letter]
    try:
        compiled = re.compile(text(pattern, unicode), options)
    except re.error as e:
        return f"rejected {e}"
    except (OverflowError, RecursionError) as e:
        return f"rejected {type(e).__name__}: {e}"
    regexes[len(regexes)] = (matcher(compiled, anchoring, flags), unicode)
    return f"ok {len(regexes) - 1}"


def batch(regex_id: str, repeat: str) -> str:
    match, unicode = regexes[int(regex_id)]
    if unicode not in decoded:
        decoded[unicode] = [text(h, unicode) for h in inputs]
    strings = decoded[unicode]
    matched = 0
    started = time.perf_counter()
    for _ in range(int(repeat)):
        for s in strings:
            if match(s) is not None:
                matched += 1
    return f"ok {matched} {(time.perf_counter() - started) * 1000}"


def timed(regex_id: str, rounds: str, floor_ms: str, below_ms: str, one_round_from_ms: str) -> str:
    """A first run, then (when faster than below_ms) the fastest of `rounds` batches (one from
    one_round_from_ms) repeated to floor_ms, per match: the probe's timing protocol in one request
    (../README.md)."""
    first = batch(regex_id, "1").split(" ")
    if first[0] != "ok":
        return " ".join(first)
    best = float(first[2])
    if best < float(below_ms):
        repeat = min(10000, math.ceil(float(floor_ms) / max(best, 1e-4)))
        for _ in range(1 if best >= float(one_round_from_ms) else int(rounds)):
            best = min(best, float(batch(regex_id, str(repeat)).split(" ")[2]) / repeat)
    return f"ok {first[1]} {best}"


def answers(regex_id: str) -> str:
    match, unicode = regexes[int(regex_id)]
    if unicode not in decoded:
        decoded[unicode] = [text(h, unicode) for h in inputs]
    return "ok " + ("".join("0" if match(s) is None else "1" for s in decoded[unicode]) or "-")


def handle(words: list[str]) -> str:
    if words[0] == "compile":
        return compile_regex(*words[1:4])
    if words[0] == "inputs":
        inputs[:] = words[1:]
        decoded.clear()
        return "ok"
    if words[0] == "batch":
        return batch(*words[1:3])
    if words[0] == "timed":
        return timed(*words[1:6])
    if words[0] == "answers":
        return answers(words[1])
    if words[0] == "free":
        return "ok"  # ids are not reused; the compiled pattern stays in re's cache anyway
    return f"error unknown request {words[0]}"


for line in sys.stdin:
    try:
        reply = handle(line.rstrip("\n").split(" "))
    except Exception as e:  # a broken request: say so and go on
        reply = f"error {type(e).__name__}: {e}"
    sys.stdout.write(reply.replace("\n", " ") + "\n")
    sys.stdout.flush()
