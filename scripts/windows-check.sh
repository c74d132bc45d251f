#!/usr/bin/env bash
# Builds gametrace for Windows (x86_64-pc-windows-gnu, linked by Debian's mingw-w64) and runs
# the Windows binary's own suite under Wine, from an empty folder with nothing beside it:
# `gametrace test` on the built-in specs, `check --actual` (a pass, and a failure with its
# diagnosis), `check --cmd` on a program of the user's (a .bat file: Wine has no Python, and
# a Windows Python cannot be fetched here), the one "no sandbox" warning, and `grade`
# refusing without --no-sandbox.
# Usage: scripts/windows-check.sh [WORKDIR]   (CI runs it; it needs wine and mingw-w64)
# GAMETRACE_WINDOWS_PROFILE=cross builds it unoptimised (CI, for time); the default is release.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-$(mktemp -d)}
target=x86_64-pc-windows-gnu
if ! rustup target list --installed 2>/dev/null | grep -q "^$target\$"; then
  rustup target add "$target"
fi
profile=${GAMETRACE_WINDOWS_PROFILE:-release}
echo "== cargo build --profile $profile --target $target"
cargo build --profile "$profile" --locked --quiet --target "$target" --bin gametrace
exe="target/$target/$profile/gametrace.exe"

bin="$work/bin"
ta="$work/ta"
rm -rf "$bin" "$ta"
mkdir -p "$bin" "$ta"
cp "$exe" "$bin/"
export WINEDEBUG=-all WINEPREFIX="$work/wine"
# Wine 8 lacks bcryptprimitives.dll (Wine 9 and Windows 10 have it): a stand-in beside the
# binary, for this run only.
wine_major=$(wine --version | sed -n 's/^wine-\([0-9]*\).*/\1/p')
if [ "${wine_major:-0}" -lt 9 ]; then
  x86_64-w64-mingw32-gcc -O2 -shared -o "$bin/bcryptprimitives.dll" \
    scripts/wine/bcryptprimitives.c -ladvapi32
fi
gt() { wine "$bin/gametrace.exe" "$@"; }
fail() { echo "windows-check: $*" >&2; exit 1; }
expect() { # expect CODE CMD...: run CMD, which must exit CODE; its output is kept in $out
  local code=$1; shift
  set +e; out=$("$@" 2>&1); local got=$?; set -e
  echo "$out" | tail -n 4
  [ "$got" = "$code" ] || fail "\`$*\` exited $got, expected $code"
}

cd "$ta"
echo "== $(gt --version) under $(wine --version), in an empty folder"
echo "== gametrace test (every built-in spec)"
expect 0 gt test
case $out in *" passed, 0 failed"*) ;; *) fail "the suite did not pass" ;; esac

echo "== check --actual"
gt run 15150-s14/handout-small --case alphabeta > mine.trace
expect 0 gt check 15150-s14/handout-small --case alphabeta --actual mine.trace
# The README's bug: Minnie's bound a child's own value, not Step(move, value).
gt explain 15150-s14/handout-small --case alphabeta --bug child-value-as-bound --trace > buggy.trace
expect 1 gt check 15150-s14/handout-small --case alphabeta --actual buggy.trace
case $out in *"child-value-as-bound"*) ;; *) fail "the mistake was not named" ;; esac

echo "== check --cmd on the user's own program (a .bat file), unsandboxed"
printf '@type mine.trace\r\n' > mine.bat
# A program in this folder is named with ./ (Windows programs are not looked for in the
# current folder), and paths in a command take / (the line is split as a POSIX shell would).
expect 0 gt check 15150-s14/handout-small --case alphabeta --cmd ./mine.bat
case $out in *"no sandbox on Windows: run only your own code"*) ;; *) fail "no warning" ;; esac
[ "$(printf '%s\n' "$out" | grep -c 'no sandbox on Windows')" = 1 ] || fail "the warning is not said once"
printf '@type buggy.trace\r\n' > buggy.bat
expect 1 gt test 15150-s14/handout-small --case alphabeta --against ./buggy.bat

echo "== grade refuses without --no-sandbox"
mkdir -p class/s1 && cp mine.bat class/s1/
expect 2 gt grade class --specs 15150-s14/handout-small --case alphabeta --against ./mine.bat
case $out in *"no sandbox on Windows"*) ;; *) fail "grade did not say why" ;; esac

echo "windows-check: the Windows binary passes its suite under Wine"
