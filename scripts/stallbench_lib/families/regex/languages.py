"""The languages `--scan` reads, each with its own language's parser, never a regex over the text:
JavaScript/TypeScript with acorn (node/scan.mjs), Python with ast (readers/python_regexes.py, under
this interpreter), Ruby with Ruby's own parser (readers/ruby_regexes.rb), Java with javac's tree API
(readers/JavaRegexes.java, run by the JDK's source launcher) and Go with go/parser
(readers/go_regexes.go, `go run`). Each reader is told the root and its files, one a line on stdin,
and answers one JSON reply (python_regexes.py describes it).

A language is named as the regex bench's engine table names it (workloads/regex/engines.cc, the
`language` of each engine): which engine speaks for the regexes of a language is read from that table
(engines.Engines.for_language), never written here."""
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ... import children, node
from . import tools

HERE = Path(__file__).parent / "readers"
TIMEOUT_S = 600
MEMORY_BYTES = 4 << 30
# A JVM sizes its heap and its GC threads by the machine (a quarter of its memory, a thread per core):
# one GC thread and a heap inside the resident cap make it the same small program on any machine, and
# its own OutOfMemoryError, not the watchdog, the usual end of a tree too large for it. A JVM that
# cannot start says why on stdout and leaves an hs_err file in the directory it was run from (the
# user's): its reason goes to stderr, where the failure line is read, and no file is left.
JVM_FLAGS = ["-XX:+UseSerialGC", "-XX:-UsePerfData", f"-Xmx{MEMORY_BYTES // 2 >> 20}m",
             "-XX:+DisplayVMOutputToStderr", "-XX:ErrorFile=/dev/null"]


@dataclass(frozen=True)
class Reader:
    language: str                 # as the engine table's `language`
    label: str                    # what its files are called in messages
    extensions: tuple[str, ...]
    runtime: str                  # the program that runs the reader
    package: str                  # the Debian package that brings it
    # The runtime reserves address space by the machine's size (the JVM: class space, code cache, a
    # thread stack per core): an RLIMIT_AS breaks it on a large machine while bounding nothing resident.
    reserves_address_space: bool = False

    def command(self) -> list[str]:
        """The reader's command line; tools.ToolFailed when its runtime is missing."""
        if self.language == "Python":
            return [sys.executable, "-I", str(HERE / "python_regexes.py")]
        found = shutil.which(self.runtime)
        if found is None:
            raise tools.ToolFailed(f"{self.runtime} is not installed (Debian package {self.package})")
        script = {"Ruby": ["--disable-gems", str(HERE / "ruby_regexes.rb")],
                  "Java": [*JVM_FLAGS, "--add-modules", "jdk.compiler", str(HERE / "JavaRegexes.java")],
                  "Go": ["run", str(HERE / "go_regexes.go")]}[self.language]
        return [found, *script]

    def env(self) -> dict[str, str]:
        if self.language == "Go":  # its build cache with the other dependencies; no module proxy is ever asked
            return {**os.environ, "GOCACHE": str(node.deps_dir() / "go-build"), "GOFLAGS": "-mod=mod",
                    "GOPROXY": "off", "GO111MODULE": "off", "GOTOOLCHAIN": "local"}
        return dict(os.environ)


READERS = (
    Reader("JavaScript", "JavaScript/TypeScript", (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"),
           "node", "the pinned Node lines"),
    Reader("Python", "Python", (".py",), "python3", "python3"),
    Reader("Ruby", "Ruby", (".rb", ".rake"), "ruby", "ruby"),
    Reader("Java", "Java", (".java",), "java", "openjdk-17-jdk-headless", reserves_address_space=True),
    Reader("Go", "Go", (".go",), "go", "golang-go"),
)
DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")  # TypeScript declaration files: types only, no code that runs a regex


def reader_of(file_name: str) -> Reader | None:
    if file_name.endswith(DECLARATIONS):
        return None
    return next((r for r in READERS if file_name.endswith(r.extensions)), None)


def read(reader: Reader, root: Path, files: list[str]) -> dict:
    """The reader's reply for `files` (relative to `root`); tools.ToolFailed (one line) when it cannot run."""
    request = "\n".join([str(root), *files]) + "\n"
    if reader.language == "JavaScript":
        return tools.run_text("scan.mjs", request, TIMEOUT_S)
    try:
        done = children.run(reader.command(), input=request, text=True, env=reader.env(), timeout_s=TIMEOUT_S,
                            memory_bytes=MEMORY_BYTES, reserves_address_space=reader.reserves_address_space)
    except subprocess.TimeoutExpired:
        raise tools.ToolFailed(f"the {reader.label} reader did not finish within {TIMEOUT_S} s") from None
    return tools.reply(done, f"the {reader.label} reader")
