"""gametrace: reference game-tree searchers that print the course handouts' exact traces.

The wheel carries the compiled ``gametrace`` binary (installed beside ``python``, as ruff and
uv install theirs) and the Python drivers gametrace runs students' code through:

- ``python -m gametrace ARGS`` runs the binary, like ``gametrace ARGS``;
- ``python -m gametrace.csc148 strategy STUDENT.py CLASS {position_json}`` is the CSC148
  adapter (``adapters/python/gametrace_csc148.py`` of a checkout), with gametrace's copies of
  the course's classes;
- ``python -m gametrace.game STUDENT.py`` is the game probe driver for ``check-game``
  (``adapters/python/gametrace_game.py``);
- ``python -m gametrace.cs188 multiAgents.py {tree_json}`` runs a Berkeley CS188 student's
  agents on a game tree (``adapters/python/gametrace_cs188.py``), with gametrace's stand-ins
  for the project's modules.
"""

import os
import sys
import sysconfig

__all__ = ["find_gametrace_bin", "csc148_adapter", "game_driver", "cs188_driver"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def find_gametrace_bin():
    """The path of the gametrace binary this package installed."""
    exe = "gametrace" + (sysconfig.get_config_var("EXE") or "")
    candidates = [os.path.join(sysconfig.get_path("scripts"), exe)]
    user = sysconfig.get_path("scripts", scheme=_user_scheme()) if _user_scheme() else None
    if user:
        candidates.append(os.path.join(user, exe))
    # A `pip install --target DIR` puts scripts in DIR/bin beside the package.
    candidates.append(os.path.join(os.path.dirname(_HERE), "bin", exe))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "the gametrace binary is not where pip installs it (looked in: {})".format(
            ", ".join(candidates)
        )
    )


def _user_scheme():
    if sys.platform == "win32":
        return "nt_user"
    if sys.platform == "darwin" and sys._framework:
        return "osx_framework_user"
    return "posix_user"


def csc148_adapter():
    """The path of the CSC148 adapter script (``gametrace_csc148.py``)."""
    return os.path.join(_HERE, "drivers", "gametrace_csc148.py")


def game_driver():
    """The path of the game probe driver for Python games (``gametrace_game.py``)."""
    return os.path.join(_HERE, "drivers", "gametrace_game.py")


def cs188_driver():
    """The path of the CS188 multiagent driver (``gametrace_cs188.py``)."""
    return os.path.join(_HERE, "drivers", "gametrace_cs188.py")
