"""Every file written from a C++ table rather than by hand, because it is read where no build exists
yet (scripts/bootstrap's package lists, its Node pins) or by people (docs tables): the Node line
table's (node_line_table.py) and each family's (the families' generated.py hooks, such as the regex
engines'). `python -m stallbench_lib.generated_files` (scripts/write-generated, and scripts/pin-npm
before it locks the lines) brings the build up to date, reads the tables through the describe
contract and rewrites the files that differ; each table's test fails while one differs."""
import sys
from pathlib import Path

from . import build, catalogue, families as family_folders, node_line_table, paths
from .atomic import atomic_write
from .errors import UsageError


def generated(families: list[catalogue.Family]) -> dict[Path, str]:
    """Each generated file -> the text its table makes of it."""
    texts = node_line_table.generated(node_line_table.declared(families))
    for hook in family_folders.hooks("generated"):
        texts.update(hook.generated(families))
    return texts


def write(texts: dict[Path, str]) -> list[Path]:
    """Writes the files whose text differs; returns them."""
    changed = {path: text for path, text in texts.items() if path.read_text() != text}
    for path, text in changed.items():
        atomic_write(path, text)
    return list(changed)


def main() -> int:
    try:
        families = catalogue.load(build.bench_binaries(build.ensure_built()))
        for path in write(generated(families)):
            print(f"wrote {path.relative_to(paths.ROOT)}")
    except UsageError as e:
        print(f"stallbench: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
