"""UV_THREADPOOL_SIZE read exactly as libuv reads it (libuv_pool_size.py), against the ground truth:
the threads a real Node's pool starts with that value, on each installed Node line (libuv 1.44.2 to
1.52.1, which ignores a value of 16 bytes or more). The doctor used to say 1 for `-1` (libuv: 1024)
and 12 for Arabic-Indic `١٢` (libuv: 1)."""
import os
import subprocess

import pytest

from conftest import DATA
from stallbench_lib import node as nodejs
from stallbench_lib.families.doctor.libuv_pool_size import atoi, pool_size

VALUES = ["1", "4", "-1", "\u0661\u0662", "0", "", " 8", "\t\n8", "8abc", "1025", "4294967297", "-1024", "+3", "abc",
          "99999999999999999999", "-99999999999999999999", "0x10", "1e3", "\uff18"]


def _lines() -> list[nodejs.Node]:
    """The oldest pinned line, the newest, and the newest before libuv 1.52 (Node 22: 1.51.0)."""
    pinned = list(nodejs.pinned())
    chosen = dict.fromkeys([pinned[0], "22", pinned[-1]])
    return [nodejs.resolve([line])[0] for line in chosen if line in pinned and nodejs.installed_path(line) is not None]


@pytest.mark.parametrize("node", _lines(), ids=lambda n: f"node{n.line}-uv{n.libuv}")
def test_the_size_is_the_number_of_threads_node_starts(node):
    started = {value: subprocess.Popen([node.path, str(DATA / "libuv" / "pool_threads.js")], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True,
                                       env={**os.environ, "UV_THREADPOOL_SIZE": value})
               for value in VALUES}  # side by side: each value needs a process of its own
    for value, proc in started.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert int(out) == pool_size(value, node.libuv), f"UV_THREADPOOL_SIZE={value!r}"


def test_unset_is_libuv_s_default_and_atoi_keeps_the_low_32_bits():
    assert pool_size(None) == 4 and pool_size("0000000000000008", "1.51.0") == 8 and pool_size("0000000000000008") == 4
    assert atoi("4294967297") == 1 and atoi("-1") == -1 and atoi("2147483648") == -2147483648
