"""Regexes of Python, Ruby, Java and Go read by their own dialect's parser and written as the
JavaScript the attack generators read: the constructs each dialect spells its own way, what has no
exact JavaScript refused (so the entry is "uncertain (no attack)"), and the written JavaScript
answering as the native engine does on generated inputs (V8 against Python's re and Ruby's Onigmo)."""
import json
import random
import re
import shutil
import subprocess

import pytest

from stallbench_lib.errors import UsageError
from stallbench_lib.families.regex import patterns
from stallbench_lib.families.regex.dialects import Unreadable, to_javascript


@pytest.mark.parametrize("dialect, regex, flags, written", [
    ("python", r"[+-]?(\d+)*\.\d+%?", "", r"[\+\-]?([0-9]+)*\.[0-9]+%?"),          # Pygments, CVE-2021-27291
    ("python", r"(?i:ab)c{,3}$", "", r"(?:[aA][bB])c{0,3}(?=\n?$)"),           # scoped flags, {,n}, Python's $
    ("python", "(?x) a b # a comment\n c", "", "abc"),                          # verbose
    ("python", r"(?P<q>['])x(?P=q)\Z", "", r"(['])x(?:\1)$"),                   # named groups; \Z is the end
    ("python", r"(a)(?>(b))\2\1", "", r"(a)(?=((b)))\3(?:\3)(?:\1)"),           # atomic: renumbered references
    ("python", r"a*+\s", "", r"(?=(a*))\1[\x09-\x0d ]"),                        # possessive; Python's ASCII \s
    ("ruby", r"^a$", "", r"(?<![^\n])a(?=\n|$)"),                                # Ruby's ^ $ at every line
    ("ruby", r"(?m:.)\h\z\Z", "", r"(?:[\s\S])[0-9A-Fa-f]$(?=\n?$)"),           # Ruby's m is dotAll; \h hex
    ("ruby", r"(?<n>a)\k<n>[[:digit:]]", "", r"(a)(?:\1)[0-9]"),
    ("ruby", r"(?<o>(?<d>\d)x)\g<o>", "", r"(([0-9])x)(?:(?:[0-9])x)"),  # a call: the group's pattern again
    ("java", r"^(\w+\s?)*$", "", r"^([0-9A-Z_a-z]+[\x09-\x0d ]?)*(?=\n?$)"),   # Java's $ before a final \n
    ("java", r"\p{Alpha}\P{Digit}.", "s", r"[A-Za-z][\x00-\/:-\uffff][\s\S]"),
    ("java", r"(?i)x", "", "[xX]"),
    ("go", r"(?s:.)\z\s", "", r"(?:[\s\S])$[\x09-\x0a\x0c-\x0d ]"),           # Go's \s has no \v
    ("javascript", r"(?i)", "", "(?i)"),                                          # JavaScript is read as it is
])
def test_each_dialect_is_written_as_the_javascript_that_means_the_same(dialect, regex, flags, written):
    assert to_javascript(regex, flags, dialect)[0] == written


@pytest.mark.parametrize("dialect, regex", [
    ("java", "[a-z&&[^b]]"), ("ruby", r"(?<a>x\g<a>?)"), ("python", r"(a)?(?(1)b|c)"), ("go", "(?U)a*"),
    ("java", r"\Ga"), ("python", r"\p{L}"), ("python", r"(a"), ("go", r"\Z"), ("python", r"\2(a)(b)"),
])
def test_what_has_no_exact_javascript_is_refused_with_the_reason(dialect, regex):
    with pytest.raises(Unreadable, match="has no exact JavaScript"):
        to_javascript(regex, "", dialect)


def test_the_catalogue_reads_and_writes_a_dialect():
    text = '[[pattern]]\nname = "p"\nregex = "(?i)a+"\ndialect = "ruby"\nsource = "t"\n'
    (p,) = patterns.parse(text, "t")
    assert p.dialect == "ruby"
    with pytest.raises(UsageError, match="dialect 'perl' is not valid"):
        patterns.parse(text.replace("ruby", "perl"), "t")


SAMPLES = [r"[+-]?(\d+)*\.\d+%?", r"^(?i:ab)c{,3}$", r"(?P<q>['\"])x*(?P=q)\Z", r"(a|b)(?>(b|c))\2\1$",
           r"^\s*\S+?\w\W$", r"(?x) a [ ]b # comment", r"[^a-c\d]+", r"\Ax.y\Z"]
RUBY = [r"^ab$", r"(?m:a.b)", r"\h+\z", r"(?<n>a|b)\k<n>\Z", r"[[:alpha:]]+\s", r"(?i)ab(?-i:c)"]


def inputs(seed: int) -> list[str]:
    rng = random.Random(seed)
    letters = "abcABC019 .+-'\"\nxy_!"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(0, 8))) for _ in range(300)]


def v8_answers(regex: str, texts: list[str]) -> list[bool]:
    program = "const r = new RegExp(process.argv[1]); const t = JSON.parse(require('fs').readFileSync(0, 'utf8'));" \
              "process.stdout.write(JSON.stringify(t.map((s) => r.test(s))));"
    done = subprocess.run(["node", "-e", program, regex], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (V8) to answer the written JavaScript")
def test_the_written_javascript_answers_as_python_re_does():
    texts = inputs(1)
    for regex in SAMPLES:
        native = re.compile(regex, re.ASCII)
        assert v8_answers(to_javascript(regex, "", "python")[0], texts) == [bool(native.search(t)) for t in texts], regex


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("ruby") is None, reason="needs node and ruby")
def test_the_written_javascript_answers_as_onigmo_does():
    texts = inputs(2)
    program = "require 'json'; r = Regexp.new(ARGV[0]); puts JSON.generate(JSON.parse(STDIN.read).map { |s| !!(r =~ s) })"
    for regex in RUBY:
        done = subprocess.run(["ruby", "-e", program, regex], input=json.dumps(texts), capture_output=True, text=True,
                              timeout=60, check=True)
        assert v8_answers(to_javascript(regex, "", "ruby")[0], texts) == json.loads(done.stdout), regex


def test_the_advisories_catalogue_is_each_advisory_s_regex_in_its_own_dialect():
    entries = patterns.load(patterns.paths.ROOT / "workloads" / "regex" / "advisories.toml")
    assert len(entries) >= 18 and len({re.search(r"CVE-\d+-\d+", p.source).group() for p in entries}) >= 16
    for p in entries:
        assert p.dialect in ("python", "ruby", "java") and p.analysis and not p.pumps  # stallbench finds the attack
        for v in p.variants():
            to_javascript(v.regex, p.flags, p.dialect)  # every one is read by its dialect's parser
