import atexit
import os
import sys

from .cli import main
from .interrupts import STOP_EXITS

try:
    code = main()
except SystemExit as done:
    code = done.code
if code in STOP_EXITS:
    # Stopped by SIGINT or SIGTERM, and cleaned up: the exit handlers (children, space reserves) run,
    # then the process ends without the interpreter's teardown of every module it imported, which on a
    # loaded machine took two seconds more.
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
raise SystemExit(code)
