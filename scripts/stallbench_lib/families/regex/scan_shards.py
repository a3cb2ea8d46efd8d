"""`regex --scan DIR --shard K/N --group ID`: the scanned regexes cut for N machines (the partition
itself is shards.py's). Every shard parses the whole tree, so every shard has the same regexes in
the same order; a unit is one regex with all its engines, its triage and its escalation (never
split: its verdicts are read from one curve per engine), and the throughput cells, when they run,
are one unit more, run by one shard only.

A regex's expected seconds come from its text alone, the same on every machine whatever its cache
or its history holds: the triage costs every regex about the same, and the escalation, where most
of a tree's time goes, only follows a regex that can grow, which needs two unbounded repeats
(nested, `(a+)+`, or in sequence, `.*x.*`). The figures are per engine, from the scan of a
77-package tree in docs/regex.md (triage 273 s for 271 regexes x 15 engines on 2 cores, escalation
261 s for the 80 that grew)."""
from ... import shard_plan, shards
from .patterns import Pattern
from .regex_syntax import QUANTIFIER

TRIAGE_S = 0.15      # per engine, every regex
ESCALATION_S = 0.45  # per engine, a regex with two unbounded repeats or more
THROUGHPUT_S = 0.25  # per engine and throughput cell (three cells per engine)
THROUGHPUT = "throughput"  # the throughput cells' unit (a scanned regex's name always ends in -L<line>)


def unbounded_repeats(regex: str) -> int:
    """How many `*`, `+` and `{n,}` the regex has outside classes and escapes: a light reading, as
    regex_syntax's (the engines judge the syntax)."""
    count, at, in_class, repeated = 0, 0, False, False  # repeated: the last token was a repeat
    while at < len(regex):
        c, step, repeat = regex[at], 1, False
        if c == "\\":
            step = 2
        elif in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            step = 2 if regex[at + 1:at + 2] == "]" else 1  # `[]...]`: a `]` first is a literal
        elif c in "*+":
            repeat = True
            count += not repeated  # `a++`, `a*+`: one repeat, possessive
        elif c == "{" and (bound := QUANTIFIER.match(regex, at)):
            repeat, step = True, bound.end() - at
            count += bound.group(0).endswith(",}") and not repeated
        elif c == "?" and repeated:
            repeat = True  # `a+?`: lazy, the same repeat
        repeated = repeat
        at += step
    return count


def expected_seconds(pattern: Pattern, engines: int) -> float:
    """A regex's expected seconds on `engines` engines, from its text."""
    grows = unbounded_repeats(pattern.regex) >= 2
    return engines * (TRIAGE_S + (ESCALATION_S if grows else 0.0))


def split(found: list[Pattern], engines: int, throughput: bool, shard: shards.Shard,
          group: str) -> tuple[list[Pattern], bool, dict]:
    """This shard's regexes (in scan order), whether it runs the throughput cells, and the `shard`
    record its meta.json keeps (as run's: index, count, group, digest, units)."""
    items = list(found) + ([THROUGHPUT] if throughput else [])
    key = lambda item: item if item == THROUGHPUT else item.name
    seconds = lambda item: 3 * engines * THROUGHPUT_S if item == THROUGHPUT else expected_seconds(item, engines)
    chosen, record = shard_plan.split(items, key, seconds, shard, group)
    mine = [p for p in chosen if p != THROUGHPUT]
    return mine, THROUGHPUT in chosen, {**record, "regexes": len(mine), "estimates": "regex text"}
