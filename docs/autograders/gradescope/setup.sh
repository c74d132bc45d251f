#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (as root, in
# /autograder/source): it installs what the students' programs need and gametrace itself.
set -euo pipefail
cd "$(dirname "$0")"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The languages your students write in: keep the ones you need (default-jdk-headless is
# Java's, for CS10).
apt-get install -y -qq python3 smlnj >/dev/null

# gametrace: the binary built for Linux x86-64 (`cargo build --release`, then
# target/release/gametrace) shipped in the zip beside this script; else built from source.
if [ -x ./gametrace ]; then
  install -m 755 ./gametrace /usr/local/bin/gametrace
else
  apt-get install -y -qq curl build-essential >/dev/null
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  "$HOME/.cargo/bin/cargo" install --locked --path ./gametrace-src --root /usr/local
fi
gametrace --version

# CS10's Kalah players graded against the perfect player (`gametrace grade --player-cmd`):
# build the solver's endgame database into the image once, so that no submission pays for
# it. Name the board and rules your course grades on; leave it empty otherwise. Runs as
# root, like run_autograder, so the database lands where every run looks first
# (~/.cache/gametrace). The CS10 chapter of the guide gives the time and size of each choice.
KALAH="${GAMETRACE_KALAH:-}"   # e.g. "--pits 6 --seeds 4", or "--pits 6 --seeds 4 --endgame 22"
if [ -n "$KALAH" ]; then
  # shellcheck disable=SC2086
  gametrace endgame build kalah $KALAH
fi
