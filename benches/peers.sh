#!/usr/bin/env bash
# gametrace against its peers in one run: OpenSpiel (PyPI `open_spiel`, installed into a venv
# under target/) and pure-Python searches, same positions, same depth, answers checked.
# Usage: bash benches/peers.sh [REPEATS]   (best of REPEATS runs, default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
venv=target/peers-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import pyspiel' 2>/dev/null; then
  "$venv/bin/pip" install --quiet open_spiel ||
    echo "peers: open_spiel did not install; its rows are left out" >&2
fi
if ! "$venv/bin/python" -c 'import yaml' 2>/dev/null; then
  "$venv/bin/pip" install --quiet pyyaml ||
    echo "peers: PyYAML did not install; its row is left out" >&2
fi
"$venv/bin/python" benches/peers.py target/release/gametrace "${1:-5}"
