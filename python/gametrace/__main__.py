"""``python -m gametrace ARGS``: the gametrace binary, run with ARGS."""

import os
import subprocess
import sys

from gametrace import find_gametrace_bin


def main():
    binary = find_gametrace_bin()
    if sys.platform == "win32":
        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execvp(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
