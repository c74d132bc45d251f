#!/usr/bin/env python3
"""Do gametrace and CS188's own autograder agree on students' multiAgents.py files?

    python3 scripts/cs188_agreement.py GAMETRACE PROJECT STUDENTS RESULTS [--project-b DIR]

For each folder of STUDENTS (each holds a student's `multiAgents.py`), runs

    GAMETRACE test PROJECT/test_cases/qN --against \
        'python3 adapters/python/gametrace_cs188.py STUDENT/multiAgents.py {tree_json}'

for q2, q3 and q4, and compares every game-tree test's verdict (PASS, or FAIL/CRASHED) with
the autograder's, read from RESULTS/<student>/pertest.txt (`q2/0-small-tree PASS`, `FAIL`,
`EXC ...`: each test run alone, `autograder.py -t`), and each question's verdict with
RESULTS/<student>/qN.txt (`### Question q2: 5/5 ###`; `qN.out` and `qN.log` are read too,
the names autograder output is often saved under). A student whose
RESULTS/<student>/project_used.txt names another project folder (the 2021-22 `getNextState`
variant) is run against --project-b's tests. Prints one line a student and question, the
mistakes gametrace names, and the totals. Nothing here is the course's or the students':
the folders are given on the command line.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(os.path.dirname(HERE), "adapters", "python", "gametrace_cs188.py")


def autograder(results, student, q):
    """The question's points, and each tree test's PASS (True) or not (False)."""
    folder = os.path.join(results, student)
    points = None
    for name in (q + ".txt", q + ".out", q + ".log"):
        try:
            with open(os.path.join(folder, name)) as f:
                m = re.search(r"### Question %s: (\d+)/(\d+) ###" % q, f.read())
        except OSError:
            continue
        if m:
            points = int(m.group(1)) == int(m.group(2))
            break
    tests = {}
    for name in ("pertest.txt", "pertest.out", "pertest.log"):
        try:
            with open(os.path.join(folder, name)) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) >= 2 and parts[0].startswith(q + "/"):
                        tests[parts[0].split("/", 1)[1]] = parts[1] == "PASS"
        except OSError:
            continue
        break
    return points, tests


def gametrace(binary, project, q, student_file):
    cmd = [binary, "test", os.path.join(project, "test_cases", q), "--format", "json",
           "--against", "python3 {} {} {{tree_json}}".format(DRIVER, student_file)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    report = json.loads(out.stdout)
    # The tests gametrace does not run (a Pacman game) are listed as skipped: not verdicts.
    return {os.path.basename(c["spec"])[:-len(".test")]: c for c in report["cases"]
            if c["status"] != "skipped"}


def named(case):
    d = case.get("diagnosis")
    if not d:
        # A program that stopped before its first call says why on stderr.
        said = [l.strip()[2:] for l in case.get("details", "").splitlines()
                if l.strip().startswith("| ")]
        why = said[-1] if said else case.get("message", "")
        return "{} ({})".format(case["status"], why[:120])
    names = ["+".join(n["bug"] for n in e) for e in d["explanations"]]
    return "{}: {}".format(d["finding"], " | ".join(names) or "nothing")


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, project, students, results = argv[:4]
    project_b = argv[argv.index("--project-b") + 1] if "--project-b" in argv else None
    totals = {"q_agree": 0, "q_all": 0, "t_agree": 0, "t_all": 0, "tree_q_agree": 0,
              "tree_q_all": 0}
    for student in sorted(os.listdir(students)):
        path = os.path.join(students, student, "multiAgents.py")
        if not os.path.isfile(path):
            continue
        used = project
        try:
            with open(os.path.join(results, student, "project_used.txt")) as f:
                if "getNextState" in f.read() and project_b:
                    used = project_b
        except OSError:
            pass
        for q in ("q2", "q3", "q4"):
            points, tests = autograder(results, student, q)
            if points is None:
                print("{:<62} {} autograder: no points line (no qN.txt, .out or .log here, or the student file did not load); left out"
                      .format(student, q))
                continue
            cases = gametrace(binary, used, q, path)
            ours_pass = all(c["status"] == "pass" for c in cases.values())
            # The autograder's verdict on the tree tests alone (its question also plays a
            # Pacman game, which gametrace does not run).
            # (None where no per-test verdicts were saved: shown as "?", never as FAIL.)
            tree_pass = all(tests.get(t, False) for t in cases) if tests else None
            disagree = [t for t, c in cases.items()
                        if t in tests and tests[t] != (c["status"] == "pass")]
            totals["t_all"] += len([t for t in cases if t in tests])
            totals["t_agree"] += len([t for t in cases if t in tests]) - len(disagree)
            totals["q_all"] += 1
            totals["q_agree"] += int(points == ours_pass)
            totals["tree_q_agree"] += int(tree_pass == ours_pass)
            totals["tree_q_all"] += int(tree_pass is not None)
            failing = [(t, c) for t, c in sorted(cases.items()) if c["status"] != "pass"]
            names = sorted({named(c) for _, c in failing})
            print("{:<62} {} autograder {} (trees {}) gametrace {} {}{}".format(
                student, q,
                "PASS" if points else "FAIL",
                "?" if tree_pass is None else "PASS" if tree_pass else "FAIL",
                "PASS" if ours_pass else "FAIL",
                "" if not failing else "[{} failing: {}]".format(
                    len(failing), "; ".join(names)),
                "" if not disagree else " DISAGREE on " + ", ".join(disagree)))
            sys.stdout.flush()
    if totals["q_all"] == 0:
        print("no verdicts found: no RESULTS/<student>/qN.txt (or .out, .log) holds a line"
              " `### Question qN: P/M ###` for a student folder under {}".format(students))
        return 1
    print("questions: {q_agree}/{q_all} agree with the autograder's points, {tree_q_agree}/"
          "{tree_q_all} with its verdict on the tree tests; tests: {t_agree}/{t_all} agree"
          .format(**totals))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
