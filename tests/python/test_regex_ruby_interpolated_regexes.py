"""A Regexp interpolated into a Ruby regex or string goes in as Ruby puts it there (Regexp#to_s): a
group with its own options. Read as bare text, rack 2.2.6's RFC2183 regex (CVE-2022-44572) was
another regex: `#{SECTION}?` made `\\*[0-9]+?` (a lazy repeat, not an optional section) and
`#{EXTENDED_OTHER_VALUE}*` split an alternation, and no attack made it grow. Each regex the Ruby
reader writes is compiled here by Ruby itself and must match exactly what the constant Ruby built
from the same code matches, on inputs chosen to tell the misreadings apart."""
import json
import shutil
import subprocess

import pytest

from stallbench_lib.families.regex import languages

CODE = r'''SECTION = /\*[0-9]+/
NAME = /a#{SECTION}?/
ALT = /%[0-9]{2}|b/
VALUES = /=#{ALT}*$/
LOWER = /x/
MIXED_CASE = /#{LOWER}y/i
UPPER = /q/i
PLAIN = /#{UPPER}r/
STR = "#{SECTION}"
FROM_STR = Regexp.new("^" + STR + "$")
NESTED = /(?:#{VALUES})+z/i
INLINE = /(?i)k#{LOWER}/
SPACED = /a b #{LOWER}/x
DOTTED = /a.b/m
DOTS = /#{DOTTED}c/
COPIED = Regexp.new(MIXED_CASE)
COPIED_DOTS = Regexp.compile(DOTS)
FLAGS_IGNORED = Regexp.new(UPPER, Regexp::MULTILINE)
ALIASED = UPPER
FROM_ALIAS = Regexp.new(ALIASED)
'''
NO_REGEX_OF_THEIR_OWN = ("STR", "ALIASED")  # a string, and a second name for a regex written elsewhere
INPUTS = ["a", "a*", "a*12", "a*12*3", "*12", "*", "=", "=b", "=%12b", "=b%12", "=%1", "=%12%34",
          "xy", "XY", "xY", "Xy", "qr", "Qr", "qR", "QR", "=bz", "=BZ", "=bZ", "=Bz", "=%12z", "=%12b=bz",
          "kx", "KX", "Kx", "kX", "abx", "a b x", "ab x", "a\nbc", "axbc", "a\nbC"]
# Each regex the reader found, by its line, rebuilt from what the reader wrote (its `(?x)` included),
# against the constant on that line; what each matches.
COMPARE = r'''
require 'json'
request = JSON.parse($stdin.read)
load request['file']
names = File.readlines(request['file']).map { |l| l[/\A([A-Z_]+) =/, 1] }
options = { 'i' => Regexp::IGNORECASE, 's' => Regexp::MULTILINE }
out = request['found'].map do |f|
  name = names[f['line'] - 1]
  theirs = Object.const_get(name)
  theirs = Regexp.new(theirs) if theirs.is_a?(String)
  ours = Regexp.new(f['source'], f['flags'].chars.sum { |c| options.fetch(c) })
  { name: name, differ: request['inputs'].reject { |s| theirs.match?(s) == ours.match?(s) } }
end
puts JSON.dump(out)
'''


@pytest.fixture(scope="module")
def ruby():
    if shutil.which("ruby") is None:
        pytest.skip("ruby (the regex family's package) is not installed here")


def test_every_regex_read_matches_what_ruby_built_from_the_same_code(tmp_path, ruby):
    (tmp_path / "built.rb").write_text(CODE)
    reader = languages.reader_of("built.rb")
    found = languages.read(reader, tmp_path, ["built.rb"])["regexes"]
    assert sorted(f["line"] for f in found) == [n for n, line in enumerate(CODE.splitlines(), 1)
                                                if line.split(" =")[0] not in NO_REGEX_OF_THEIR_OWN]
    request = {"file": str(tmp_path / "built.rb"), "found": found, "inputs": INPUTS}
    done = subprocess.run(["ruby", "-e", COMPARE], input=json.dumps(request), capture_output=True, text=True,
                          timeout=60, check=True)
    assert {r["name"]: r["differ"] for r in json.loads(done.stdout)} == {
        name: [] for name in (line.split(" =")[0] for line in CODE.splitlines()) if name not in NO_REGEX_OF_THEIR_OWN}


def test_a_regex_interpolated_into_a_literal_is_a_plain_group_unless_its_options_differ(tmp_path, ruby):
    (tmp_path / "built.rb").write_text(CODE)
    found = languages.read(languages.reader_of("built.rb"), tmp_path, ["built.rb"])["regexes"]
    by_line = {f["line"]: (f["source"], f["flags"]) for f in found}
    assert by_line[2] == (r"a(?:\*[0-9]+)?", "")                # the ? repeats the whole section
    assert by_line[4] == (r"=(?:%[0-9]{2}|b)*$", "")            # the * repeats the whole alternation
    assert by_line[6] == (r"(?-i:x)y", "i")                     # LOWER stays case-sensitive
    assert by_line[10] == (r"^(?-mix:\*[0-9]+)$", "")           # through a string: Ruby's own text
    assert by_line[12] == (r"(?i)k(?-mix:x)", "")               # an inline option: every option written
