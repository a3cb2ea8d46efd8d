"""The server of a user's folder (`stallbench page FILE`, workloads/browser/driver/server.mjs) serves
what a site's links ask for and nothing outside the folder, and no request ends it: a link to
`100%.png` (a `%` that is no escape) used to end the page driver with an uncaught URIError, and a
link inside the folder to a file outside it was served."""
import json
import shutil

import pytest

from conftest import DATA
from stallbench_lib import children
from stallbench_lib import node as nodejs

NODE, WHY_NONE = nodejs.find()


@pytest.mark.skipif(NODE is None, reason=WHY_NONE)
def test_a_sites_paths_are_served_and_nothing_outside_its_folder_and_the_server_lives_on():
    out = children.run([NODE.path, str(DATA / "folder_server_paths.mjs")], text=True, timeout_s=60)
    assert out.returncode == 0, out.stderr[-2000:]
    printed = json.loads(out.stdout.strip().splitlines()[-1])
    shutil.rmtree(printed["folder"], ignore_errors=True)
    answers = printed["answers"]
    served = {path: body for path, (status, body, *_) in answers.items() if status == 200}
    assert served == {"/": "index", "/100%.png": "percent", "/100%25.png": "percent", "/%C3%A9.html": "accent",
                      "/sub/": "sub", "/inside-link.html": "sub"}
    assert {path for path, (status, *_) in answers.items() if status != 200} == set(answers) - set(served)
    assert all(len(answer) == 2 for answer in answers.values()), answers  # "/" answered after every one
    # The links out of the folder are named in the cell's log; a `..` path is simply not found.
    assert sorted(line.split(": ")[2].split(" ")[0] for line in out.stderr.splitlines()
                  if line.startswith("stallbench page: not served")) == ["/outside-link.txt", "/up/secret.txt"]
