"""``python -m gametrace.cs188 multiAgents.py {tree_json}``: the CS188 driver, as
``gametrace_cs188.py``.

For ``gametrace check --cmd`` and ``test --against``: it runs a Berkeley CS188 student's
``multiAgents.py`` unchanged on a game tree, with CS188's tree state, and prints the calls the
autograder counts.
"""

import runpy
import sys

from gametrace import cs188_driver

if __name__ == "__main__":
    sys.argv[0] = cs188_driver()
    runpy.run_path(cs188_driver(), run_name="__main__")
