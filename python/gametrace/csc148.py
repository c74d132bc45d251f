"""``python -m gametrace.csc148 ...``: the CSC148 adapter, as ``gametrace_csc148.py ...``.

For ``gametrace check --cmd``: it imports a student's strategy or game_state_tree module with
gametrace's copies of the course's classes first on the path and prints what ``check`` reads.
"""

import runpy
import sys

from gametrace import csc148_adapter

if __name__ == "__main__":
    sys.argv[0] = csc148_adapter()
    runpy.run_path(csc148_adapter(), run_name="__main__")
