"""``python -m gametrace.game STUDENT.py``: the game probe driver, as ``gametrace_game.py``.

For ``gametrace check-game --cmd``: it speaks the probe protocol for a CSC148 ``GameState``
subclass.
"""

import runpy
import sys

from gametrace import game_driver

if __name__ == "__main__":
    sys.argv[0] = game_driver()
    runpy.run_path(game_driver(), run_name="__main__")
