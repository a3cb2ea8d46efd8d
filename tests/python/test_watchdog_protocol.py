"""The framing between the orchestrator and its watchdog (watchdog_protocol.py), fuzzed: no path or
name, whatever it holds (newlines, NUL-free control characters, U+2028, undecodable bytes carried as
surrogate escapes), can end a message or start another; any bytes at all decode to nothing or to a
well-formed message, never to an exception; and the attack of the issue — a `--out` holding a newline
and a `watch` request — neither kills an unrelated process group nor, with a SIGKILL, deletes an
unrelated file. The number of generated cases per property is STALLBENCH_FUZZ_EXAMPLES (default 300;
the fuzz figure in docs/reliability.md ran far more)."""
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from hypothesis import given, strategies as st

from conftest import ROOT
from property_settings import fuzzed
from test_child_lifetime import TAG, _gone
from stallbench_lib.watchdog_protocol import LineReader, decode, encode


# Text as paths may hold it: any code point but NUL, lone surrogates (undecodable bytes) included.
paths = st.text(st.characters(blacklist_characters="\0", blacklist_categories=()), min_size=1, max_size=300)
pgids = st.integers(min_value=2, max_value=2**62)
sizes = st.integers(min_value=0, max_value=2**62)
messages = st.one_of(
    st.tuples(st.just("watch"), pgids, st.fixed_dictionaries({"cap": sizes})),
    st.tuples(st.just("release"), pgids, st.just({})),
    st.tuples(st.sampled_from(["remove", "keep"]), paths, st.just({})),
    st.tuples(st.just("memory"), pgids, st.fixed_dictionaries({"rss": sizes, "cap": sizes})),
)


@fuzzed
@given(messages)
def test_a_message_is_one_line_of_printable_ascii_and_decodes_to_itself(message):
    verb, value, fields = message
    line = encode(verb, value, **fields)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert all(0x20 <= byte < 0x7f for byte in line[:-1])
    assert decode(line[:-1]) == (verb, value, fields)


@fuzzed
@given(st.lists(messages, max_size=20), st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=50))
def test_a_stream_of_messages_read_in_any_pieces_is_exactly_those_messages(sent, cuts):
    stream = b"".join(encode(verb, value, **fields) for verb, value, fields in sent)
    reader, heard, at = LineReader(), [], 0
    for cut in cuts * (len(stream) // max(sum(cuts), 1) + 1):
        heard += [decode(line) for line in reader.feed(stream[at:at + cut])]
        at += cut
        if at >= len(stream):
            break
    assert heard == list(sent)


@fuzzed
@given(st.binary(max_size=2000))
def test_any_bytes_decode_to_nothing_or_to_a_well_formed_message(data):
    for line in LineReader().feed(data + b"\n"):
        message = decode(line)
        if message is not None:
            verb, value, fields = message
            assert encode(verb, value, **fields)  # the same checks would let it through again


@pytest.mark.parametrize("verb, value, fields", [
    ("watch", 1, {"cap": 1}), ("watch", 0, {"cap": 1}), ("watch", -1, {"cap": 1}), ("watch", True, {"cap": 1}),
    ("watch", "12", {"cap": 1}), ("watch", 12.0, {"cap": 1}), ("watch", 12, {"cap": -1}), ("watch", 12, {}),
    ("remove", "", {}), ("remove", "a\0b", {}), ("remove", 12, {}), ("release", 12, {"cap": 1}),
])
def test_what_the_protocol_has_no_place_for_is_refused_at_both_ends(verb, value, fields):
    with pytest.raises(ValueError):
        encode(verb, value, **fields)
    assert decode(json.dumps({verb: value, **fields}).encode()) is None


def test_two_verbs_or_an_unknown_one_are_refused():
    assert decode(b'{"watch": 12, "cap": 0, "release": 12}') is None
    assert decode(b'{"kill": 12}') is None
    assert decode(b"watch 12 1") is None  # the old framing's words mean nothing now


def test_a_line_over_the_limit_is_dropped_whole_and_its_tail_is_not_a_message():
    reader = LineReader()
    tail = encode("watch", 12, cap=1)
    lines = reader.feed(b"x" * (2 << 20)) + reader.feed(tail) + reader.feed(encode("release", 13))
    assert [decode(line) for line in lines] == [("release", 13, {})]


ORCHESTRATOR = """
import sys, time
sys.path.insert(0, {scripts!r})
from pathlib import Path
from stallbench_lib import children
with children.removed_if_killed(Path({path!r})):
    proc = children.start(["sleep", "600"], memory_bytes=1 << 30)  # a group: the watchdog polls memory
    print("ready", flush=True)
    time.sleep(600)
"""


def test_a_path_carrying_requests_neither_kills_another_group_nor_deletes_another_file(tmp_path):
    """The issue's attack: `--out "/tmp/a"$'\\n'"watch PGID 1"` killed the unrelated group (a 1-byte
    memory cap), and `--out "/tmp/victim"$'\\n'"x"` made a SIGKILL of the run delete /tmp/victim."""
    victim_file = tmp_path / "victim"
    victim_file.write_text("keep me")
    victim = subprocess.Popen(["sleep", "600"], start_new_session=True)
    path = f"{victim_file}\nwatch {victim.pid} 1\nremove {victim_file}\n{{\"watch\": {victim.pid}, \"cap\": 1}}\nx"
    tag = uuid.uuid4().hex
    orchestrator = subprocess.Popen([sys.executable, "-c", ORCHESTRATOR.format(scripts=str(ROOT / "scripts"),
                                                                               path=path)],
                                    stdout=subprocess.PIPE, text=True, start_new_session=True,
                                    env={**os.environ, TAG: tag})
    try:
        assert orchestrator.stdout.readline() == "ready\n"
        time.sleep(1.0)  # four memory polls of the watchdog: a 1-byte cap would have fired by now
        assert victim.poll() is None, "the unrelated group was killed"
        orchestrator.send_signal(signal.SIGKILL)
        orchestrator.wait()
        assert not _gone(tag)  # the watchdog, and the orchestrator's child, have done their work
        assert victim.poll() is None and victim_file.read_text() == "keep me"
    finally:
        orchestrator.kill()
        victim.kill()
        victim.wait()
