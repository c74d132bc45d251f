#!/usr/bin/env bash
# PrairieLearn's external grader entrypoint: grades the student's files in /grade/student
# against the question's specs in /grade/tests/specs and writes /grade/results/results.json.
# In the question's info.json:
#   "externalGradingOptions": {"enabled": true, "image": "<an image with gametrace and python3>",
#     "serverFilesCourse": ["gametrace/"], "entrypoint": "/grade/serverFilesCourse/gametrace/run.sh",
#     "timeout": 60}
set -uo pipefail

# How a student's program prints a case's trace; it runs inside /grade/student.
COMMAND="${GAMETRACE_COMMAND:-python3 alphabeta.py {tree_json}}"
TIMEOUT="${GAMETRACE_TIMEOUT:-10}"

ROOT="${GRADE_ROOT:-/grade}"
GAMETRACE="${GAMETRACE:-gametrace}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
# From the tests folder, so tests are named `specs/x.yaml case`; the command runs inside the
# student's folder.
cd "$ROOT/tests" || exit 1

# The student's program runs as an unprivileged uid of its own (never root): it reads its
# submission as any user would.
chmod -R a+rX "$ROOT/student" 2>/dev/null || true

# What the sandbox for the student's code gives in this container, for the grader's log.
"$GAMETRACE" doctor >&2 || true
"$GAMETRACE" test specs --against "$COMMAND" --submission "$ROOT/student" \
  --format prairielearn --for-students --timeout "$TIMEOUT" --output "$RESULTS" --color never
status=$?
if [ "$status" -ge 2 ] && [ ! -s "$RESULTS" ]; then
  cat > "$RESULTS" <<JSON
{"gradable": false, "format_errors": ["The grader could not run (gametrace exited with status $status); please tell the course staff."]}
JSON
fi
exit 0
