"""What `stallbench page` is given, checked before any browser starts: the page (a local file, whose
folder the driver serves on 127.0.0.1, or a URL on 127.0.0.1 that answers), the interaction script
(a JSON list of steps, or a module whose default export drives a small page object:
workloads/browser/driver/interactions.mjs) and the references. Anything else is one line naming it
and what is valid (UsageError), before a request leaves for any address but loopback."""
import ipaddress
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from ...documents import json_loads
from ...errors import UsageError, why_not_a_file

LOOPBACK_NAMES = {"localhost"}
ANSWER_TIMEOUT_S = 10
# step -> {field: type}; a step is an object with exactly one of these keys (and its extra fields)
STEPS = {"click": {"click": str}, "type": {"type": str, "text": str}, "press": {"press": str},
         "scroll": {"scroll": (int, float)}, "wait_for": {"wait_for": str, "timeout_ms": int},
         "wait_ms": {"wait_ms": (int, float)}, "goto": {"goto": str}}
OPTIONAL = {"timeout_ms"}
MAX_WAIT_MS = 600_000
REFERENCES = ("web-vitals", "lighthouse")
VALID_PAGE = "valid: a local HTML file, or http://127.0.0.1:PORT/PATH (or localhost, [::1])"


def _loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str) -> str:
    """The URL when it is http(s) on loopback and answers; UsageError otherwise, and no request at
    all to a host that is not loopback."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{url}: not a page ({VALID_PAGE})")
    if not _loopback(parts.hostname):
        raise UsageError(f"{url}: {parts.hostname} is not this machine's loopback; stallbench sends nothing "
                         f"beyond 127.0.0.1 ({VALID_PAGE})")
    no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with no_proxy.open(urllib.request.Request(url, method="GET"), timeout=ANSWER_TIMEOUT_S):
            return url
    except urllib.error.HTTPError as e:
        raise UsageError(f"{url}: answered {e.code} {e.reason} (a page that loads is needed)")
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise UsageError(f"{url}: nothing answers there ({reason}); start your server first")


def check_page(given: str) -> str:
    """A URL as check_url, or a file's absolute path."""
    if "://" in given:
        return check_url(given)
    path = Path(given)
    if not path.is_file():
        raise UsageError(f"{given}: {why_not_a_file(path)} ({VALID_PAGE})")
    return str(path.resolve())


def _step_problem(step) -> str | None:
    if not isinstance(step, dict):
        return "is not an object"
    kinds = [k for k in step if k in STEPS]
    if len(kinds) != 1:
        return f"needs exactly one of {', '.join(STEPS)}"
    fields = STEPS[kinds[0]]
    for key, value in step.items():
        if key not in fields:
            return f"{key}: {kinds[0]} takes {', '.join(fields)}"
        if isinstance(value, bool) or not isinstance(value, fields[key]):
            return f"{key}: must be {'text' if fields[key] is str else 'a number'}"
    missing = [k for k in fields if k not in step and k not in OPTIONAL]
    if missing:
        return f"{kinds[0]} needs {', '.join(missing)}"
    for key in ("wait_ms", "timeout_ms"):
        if key in step and not 0 <= step[key] <= MAX_WAIT_MS:
            return f"{key}: must be 0-{MAX_WAIT_MS}"
    return None


def check_script(given: str | None) -> str:
    """The script's absolute path ("" for none): a .json list of steps, checked here, or a module."""
    if not given:
        return ""
    path = Path(given)
    if not path.is_file():
        raise UsageError(f"--script {given}: {why_not_a_file(path)}")
    if path.suffix in (".mjs", ".js"):
        return str(path.resolve())
    if path.suffix != ".json":
        raise UsageError(f"--script {given}: valid scripts are a .json list of steps or an .mjs module")
    try:
        steps = json_loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"--script {given}: not JSON ({e})")
    if not isinstance(steps, list):
        raise UsageError(f"--script {given}: must be a JSON list of steps, e.g. [{{\"click\": \"#buy\"}}]")
    for i, step in enumerate(steps):
        if problem := _step_problem(step):
            raise UsageError(f"--script {given}: $[{i}] {problem} (steps: {', '.join(STEPS)})")
    return str(path.resolve())


def check_references(given: str | None) -> list[str]:
    chosen = [r for r in (given or "").split(",") if r]
    for r in chosen:
        if r not in REFERENCES:
            raise UsageError(f"--reference {r}: unknown (valid: {', '.join(REFERENCES)})")
    return chosen
