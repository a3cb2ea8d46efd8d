"""Installs a pinned npm set from its lock file alone, without npm: every package the lock names for
this machine (its `os` and `cpu`), fetched from the npm registry as the tarball npm itself fetches,
checked against the lock's integrity hash, unpacked where the lock puts it; what `npm ci
--ignore-scripts` does with these lock files. Why not npm: a machine without Node has no npm, and
Debian's npm brings nodejs and 355 packages of its libraries (measured on a minimal Debian 12) only to
unpack a few tarballs, the Node lines' first of all.

The registry is npm's: $npm_config_registry (or $NPM_CONFIG_REGISTRY), else the public one; proxies
and certificate bundles come from the usual variables (https_proxy, SSL_CERT_FILE). A download that
stalls for TIMEOUT_S fails. Any failure is one line on stderr, exit 2, and nothing in DEST.

    python3 -m stallbench_lib.lock_install SET_FOLDER DEST   (what scripts/install-npm runs)
"""
import base64
import hashlib
import io
import json
import os
import platform
import sys
import tarfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath

DEFAULT_REGISTRY = "https://registry.npmjs.org/"
TIMEOUT_S = 60
PROGRESS_S = 10
CPUS = {"x86_64": "x64", "aarch64": "arm64", "armv7l": "arm"}


class Failed(Exception):
    pass


def registry() -> str:
    given = os.environ.get("npm_config_registry") or os.environ.get("NPM_CONFIG_REGISTRY") or DEFAULT_REGISTRY
    return given.rstrip("/") + "/"


def _fits(entry: dict, key: str) -> bool:
    """npm's rule for `os` and `cpu`: a list of names, or of `!name` exclusions."""
    here = {"os": sys.platform, "cpu": CPUS.get(platform.machine(), platform.machine())}[key]
    wanted = entry.get(key)
    if not wanted:
        return True
    if all(w.startswith("!") for w in wanted):
        return f"!{here}" not in wanted
    return here in wanted


def packages(lock: dict) -> list[tuple[str, str, str, str]]:
    """(folder under DEST, name, version, integrity) of every package to fetch for this machine."""
    chosen = []
    for folder, entry in lock.get("packages", {}).items():
        if not folder or entry.get("inBundle") or entry.get("link") or not (_fits(entry, "os") and _fits(entry, "cpu")):
            continue
        name = entry.get("name") or folder.rsplit("node_modules/", 1)[-1]
        chosen.append((folder, name, entry["version"], entry["integrity"]))
    return chosen


def _url(name: str, version: str) -> str:
    return f"{registry()}{name}/-/{name.rsplit('/', 1)[-1]}-{version}.tgz"


class _Progress:
    """One line every PROGRESS_S while the set's tarballs arrive (four at a time): how many of them
    are in, and the MB received so far. The lock gives no sizes, so there is no total in MB."""

    def __init__(self, total: int):
        self.total, self.done, self.received = total, 0, 0
        self.said = time.monotonic()
        self.lock = threading.Lock()

    def add(self, received: int = 0, done: int = 0) -> None:
        with self.lock:
            self.received += received
            self.done += done
            if time.monotonic() - self.said >= PROGRESS_S:
                self.said = time.monotonic()
                print(f"stallbench: installing: {self.done} of {self.total} packages, {self.received / (1 << 20):.1f} MB",
                      file=sys.stderr, flush=True)


def _fetch(name: str, version: str, integrity: str, progress: _Progress) -> bytes:
    """The tarball, its integrity checked."""
    url = _url(name, version)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            chunks = []
            while chunk := response.read(1 << 20):
                chunks.append(chunk)
                progress.add(received=len(chunk))
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise Failed(f"cannot fetch {name} {version} from {url}: {getattr(e, 'reason', e)}") from None
    data = b"".join(chunks)
    algorithm, _, expected = integrity.split()[0].partition("-")
    if base64.b64encode(hashlib.new(algorithm, data).digest()).decode() != expected:
        raise Failed(f"{name} {version} from {url} does not match the lock file's integrity hash ({algorithm})")
    progress.add(done=1)
    return data


def _unpack(data: bytes, into: Path) -> None:
    """npm's layout: the tarball's first folder (`package/`) stripped; links skipped, as npm does."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar:
            parts = PurePosixPath(member.name).parts[1:]
            if not parts or not (member.isfile() or member.isdir()):
                continue
            if any(p in ("..", "") for p in parts) or PurePosixPath(member.name).is_absolute():
                raise Failed(f"a tarball names a path outside its package: {member.name}")
            target = into.joinpath(*parts)
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as out:
                out.write(src.read())
            target.chmod(0o755 if member.mode & 0o111 else 0o644)


def install(set_folder: Path, dest: Path) -> None:
    lock = json.loads((set_folder / "package-lock.json").read_text(encoding="utf-8"))
    wanted = packages(lock)
    progress = _Progress(len(wanted))
    with ThreadPoolExecutor(max_workers=4) as pool:
        tarballs = list(pool.map(lambda p: _fetch(p[1], p[2], p[3], progress), wanted))
    for (folder, *_), data in zip(wanted, tarballs):
        _unpack(data, dest / folder)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("stallbench: usage: python3 -m stallbench_lib.lock_install SET_FOLDER DEST", file=sys.stderr)
        return 2
    set_folder, dest = Path(argv[0]), Path(argv[1])
    try:
        install(set_folder, dest)
    except (Failed, OSError, ValueError, KeyError, tarfile.TarError) as e:
        print(f"stallbench: {set_folder.name}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
