"""`stallbench regex --upgrade-catalogue FILE`: a catalogue of an older format rewritten in the
current one (patterns.FORMAT), meaning the same bytes: a format 1 file's backslashes become the
escape `\\\\` of format 2. The rewrite is checked (read back, it must give the same entries) before
it replaces the file, atomically; the original is kept beside it as FILE.format<N>. Comments are not
kept: the file is written by catalogue_file.to_toml."""
from pathlib import Path

from ...atomic import atomic_write
from ...errors import UsageError
from . import catalogue_file, patterns
from ...documents import toml_loads


def upgrade(path: Path) -> str:
    """Rewrites `path` in the current format; returns the line to print. UsageError when it cannot."""
    text = patterns.read_text(path)
    entries = patterns.parse(text, str(path))
    form = patterns.file_format(toml_loads(text), str(path))
    if form == patterns.FORMAT:
        return f"{path}: already format {patterns.FORMAT}: nothing to do"
    rewritten = catalogue_file.to_toml(entries, f"Upgraded from format {form} ({path.name}): the same attacks.")
    if patterns.parse(rewritten, str(path)) != entries:
        raise UsageError(f"{path}: the format {patterns.FORMAT} rewrite would not read back the same entries: "
                         "file left as it is")
    kept = path.with_name(f"{path.name}.format{form}")
    if kept.exists():
        raise UsageError(f"{path}: {kept} exists: move it away to upgrade again (it keeps the original)")
    atomic_write(kept, text)
    atomic_write(path, rewritten)
    return (f"{path}: rewritten in format {patterns.FORMAT} (backslashes in prefix, pump and suffix as the escape "
            f"\\\\; comments are not kept); the original is {kept}")
