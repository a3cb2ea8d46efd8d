"""One comment per pull request that each push updates in place (a "sticky" comment), through
GitHub's REST API with Python's urllib: the comment carrying MARKER is found among the pull
request's issue comments and edited; the first push creates it. The API's address comes from
GITHUB_API_URL (GitHub sets it; a test points it at a fake server), the token from GITHUB_TOKEN.

The marker names the job that wrote the comment (`<!-- stallbench-pr run=RUN_ID-ATTEMPT -->`): a
run superseded by a newer push that still gets as far as its comment finds the newer run's comment
and leaves it alone (GitHub's run ids grow with time), so an older result never replaces a newer one."""
import json
import os
import re
import urllib.error
import urllib.request

from ..errors import UsageError

MARKER = "<!-- stallbench-pr"
RUN = re.compile(r"<!-- stallbench-pr run=(\d+)-(\d+) -->")


def marker(run: str) -> str:
    """The hidden line that finds the comment again and names the job that wrote it."""
    return f"{MARKER} run={run} -->" if RUN.fullmatch(f"{MARKER} run={run} -->") else f"{MARKER} -->"


def _run_of(body: str) -> tuple[int, int] | None:
    found = RUN.search(body or "")
    return (int(found.group(1)), int(found.group(2))) if found else None
PAGE_SIZE = 100
TIMEOUT_S = 30


class _Api:
    def __init__(self, repository: str):
        self.base = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
        self.repository = repository
        token = os.environ.get("GITHUB_TOKEN", "")
        if not token:
            raise UsageError("GITHUB_TOKEN is not set: the comment needs a token that may write to the pull request")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
                        "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "stallbench-pull-request"}

    def call(self, method: str, path: str, body: dict | None = None):
        url = f"{self.base}/repos/{self.repository}/{path}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={**self.headers, **({"Content-Type": "application/json"} if data else {})})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            said = e.read().decode("utf-8", "replace")
            try:
                said = json.loads(said).get("message", said)
            except (ValueError, AttributeError):
                pass
            raise UsageError(f"GitHub API {method} {url}: HTTP {e.code} {e.reason}: {said.strip()[:200]}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as e:
            raise UsageError(f"GitHub API {method} {url}: {getattr(e, 'reason', e)}") from None


def _ours(api: _Api, number: int) -> dict | None:
    """The comment with MARKER on pull request `number`, looking through every page."""
    page = 1
    while True:
        comments = api.call("GET", f"issues/{number}/comments?per_page={PAGE_SIZE}&page={page}")
        for comment in comments:
            if MARKER in (comment.get("body") or ""):
                return comment
        if len(comments) < PAGE_SIZE:
            return None
        page += 1


def post(repository: str, number: int, body: str) -> str:
    """Creates or updates our comment on pull request `number` of `repository` (owner/name); returns
    what was done, for the log."""
    api = _Api(repository)
    text = body if MARKER in body else f"{body}\n{marker('')}\n"
    found = _ours(api, number)
    if found is None:
        made = api.call("POST", f"issues/{number}/comments", {"body": text})
        return f"created comment {made.get('id')} on pull request {number}"
    theirs, mine = _run_of(found.get("body")), _run_of(text)
    if theirs and mine and theirs > mine:
        return (f"left comment {found['id']} on pull request {number} as it is: it is run {theirs[0]}-{theirs[1]}'s, "
                f"newer than this run ({mine[0]}-{mine[1]})")
    api.call("PATCH", f"issues/comments/{found['id']}", {"body": text})
    return f"updated comment {found['id']} on pull request {number}"
