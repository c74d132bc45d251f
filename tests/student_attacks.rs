//! The fifth round of attacks: gametrace itself handing a student what the kernel hides, and
//! a student's own strings widening the policy. Each as a hostile student tried it, against
//! gametrace run as root in both sandbox modes and as an ordinary user; each must fail with
//! the right verdict, and each succeeds without the sandbox where that is safe to show (so
//! the test would catch a protection that does nothing).
#![cfg(target_os = "linux")]

mod common;

use common::sandbox::{gametrace, modes, open_to_all, root, root_modes, Mode};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PYTHON: &str = "/usr/bin/python3";

/// A course folder every user may read, in a folder of its own: `specs/` holding the given
/// specs (paths under the checkout's `specs/`), `expected/`, and a class folder.
struct Course {
    dir: tempfile::TempDir,
}

impl Course {
    fn new(specs: &[&str]) -> Course {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for s in specs {
            let to = root.join("specs").join(s);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(Path::new(ROOT).join("specs").join(s), &to).unwrap();
        }
        std::fs::create_dir_all(root.join("class")).unwrap();
        Course { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// A student's file in the class folder (made executable).
    fn student_file(&self, who: &str, name: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root().join("class").join(who).join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// `gametrace grade class` as `mode` runs it, `args` after; the gradebook's rows and
    /// gametrace's stderr.
    fn grade(&self, mode: Mode, out: &str, args: &[&str]) -> (Vec<String>, String) {
        open_to_all(self.root());
        let out_dir = writable_out(self.root(), out, mode);
        let run = gametrace(mode)
            .current_dir(self.root())
            .args(["grade", "class", "--out"])
            .arg(&out_dir)
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        let book = std::fs::read_to_string(out_dir.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: no gradebook ({e}): {stderr}"));
        (book.lines().skip(1).map(str::to_owned).collect(), stderr)
    }
}

/// The folder `out` of `root` for `mode`'s reports: an ordinary user's gametrace must be
/// able to write it.
fn writable_out(root: &Path, out: &str, mode: Mode) -> PathBuf {
    let dir = root.join(out);
    std::fs::create_dir_all(&dir).unwrap();
    if mode == Mode::User && common::sandbox::root() {
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
    }
    dir
}

/// A row's score: `alice,8,8,...` → 8.
fn score(rows: &[String], who: &str) -> String {
    rows.iter()
        .find(|r| r.starts_with(&format!("{who},")))
        .and_then(|r| r.split(',').nth(1))
        .unwrap_or_else(|| panic!("no row for {who}: {rows:?}"))
        .to_owned()
}

/// What prints a look-and-say case's answer from a spec: the `expect:` under the case.
const PRINT_EXPECT: &str = r##"import sys
spec, case = sys.argv[1], sys.argv[2]
inside = False
for line in open(spec):
    if line.split("#")[0].strip() == case + ":":
        inside = True
    elif inside and line.strip().startswith("expect:"):
        print(line.split(":", 1)[1].strip().strip('"').replace('\\"', '"'))
        break
"##;

/// Attack 1: the copy of a task spec handed as `{spec}` held the case's `expect:`: a
/// 9-line program that prints it scored 8/8 on look-and-say. Now the copy is the case's
/// public part, in every mode (`--no-sandbox` too): 0/8. The same program given the real
/// spec's path scores 8/8 without the sandbox, and 0 within it (the spec is hidden).
#[test]
fn a_task_specs_copy_holds_no_answer() {
    let c = Course::new(&["sequences/look-and-say.yaml"]);
    c.student_file("mallory", "print_expect.py", PRINT_EXPECT);
    let spec = "specs/sequences/look-and-say.yaml";
    let copy = format!("{PYTHON} print_expect.py {{spec}} {{case}}");
    let real = format!(
        "{PYTHON} print_expect.py {} {{case}}",
        c.root().join(spec).display()
    );
    for mode in modes() {
        for (i, cmd) in [&copy, &real].into_iter().enumerate() {
            let (rows, err) = c.grade(
                mode,
                &format!("grades-{mode:?}-{i}"),
                &["--specs", spec, "--against", cmd],
            );
            assert_eq!(
                score(&rows, "mallory"),
                "0",
                "{mode:?} `{cmd}`: {rows:?} {err}"
            );
        }
    }
    let (rows, _) = c.grade(
        Mode::Namespaces,
        "grades-free-copy",
        &["--specs", spec, "--against", &copy, "--no-sandbox"],
    );
    assert_eq!(
        score(&rows, "mallory"),
        "0",
        "the copy is public without the sandbox too"
    );
    let (rows, _) = c.grade(
        Mode::Namespaces,
        "grades-free-real",
        &["--specs", spec, "--against", &real, "--no-sandbox"],
    );
    assert_eq!(
        score(&rows, "mallory"),
        "8",
        "the attack works where nothing stops it"
    );
}

/// Attack 2: a student's `#!` widened the policy. `#!/usr/bin/env -S -u coursetool ...` made
/// gametrace take `coursetool` (the argument of `-u`) for the interpreter, find it in the
/// course's `bin/` on PATH and grant its "installation", the whole course folder with its
/// solutions; `#!coursetool` (relative) was looked up on PATH too. A shebang now adds no
/// rule in any mode; without the sandbox both read the solutions.
#[test]
fn a_shebang_never_widens_the_policy() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let course = c.root().join("course");
    std::fs::create_dir_all(course.join("bin")).unwrap();
    std::fs::create_dir_all(course.join("solutions")).unwrap();
    std::fs::write(
        course.join("bin/coursetool"),
        "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n",
    )
    .unwrap();
    let answer = course.join("solutions/alphabeta.trace");
    std::fs::copy(
        Path::new(ROOT).join("expected/15150-s14/handout-small/alphabeta.trace"),
        &answer,
    )
    .unwrap();
    let body = format!(
        "import sys\nsys.stdout.write(open({:?}).read())\n",
        answer.display().to_string()
    );
    c.student_file(
        "env",
        "run",
        &format!("#!/usr/bin/env -S -u coursetool /usr/bin/python3\n{body}"),
    );
    c.student_file("relative", "run", &format!("#!coursetool\n{body}"));
    c.student_file(
        "relative",
        "coursetool",
        "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n",
    );
    open_to_all(c.root());
    let path = format!(
        "{}:{}",
        course.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let spec = "specs/15150-s14/handout-small.yaml";
    let args = ["--specs", spec, "--case", "alphabeta", "--against", "./run"];
    for mode in modes() {
        let out = writable_out(c.root(), &format!("grades-{mode:?}"), mode);
        let run = gametrace(mode)
            .current_dir(c.root())
            .env("PATH", &path)
            .args(["grade", "class", "--out"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        let book = std::fs::read_to_string(out.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&run.stderr)));
        let rows: Vec<String> = book.lines().map(str::to_owned).collect();
        for who in ["env", "relative"] {
            assert_eq!(score(&rows, who), "0", "{mode:?} {who}: {book}");
        }
    }
    let out = c.root().join("grades-free");
    gametrace(Mode::Namespaces)
        .current_dir(c.root())
        .env("PATH", &path)
        .args(["grade", "class", "--no-sandbox", "--out"])
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let book = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let rows: Vec<String> = book.lines().map(str::to_owned).collect();
    assert_eq!(score(&rows, "env"), "1", "{book}");
}

/// Attack 3: a hidden case's `--for-students` report stated the reference ("expected root
/// value: Guess:4, chosen move: 1"; the missing states of a `visited` case), in every format:
/// a second try built from the two messages scored 2/2. Now it says the verdict and what the
/// student's program printed, and nothing of the reference, in every format.
#[test]
fn a_hidden_cases_report_gives_nothing_of_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("hw.yaml");
    // The reference: value Guess: 4 by move 1 (b is worth 3, e 4); it visits c, d, f, g.
    std::fs::write(
        &spec,
        "tree:\n  a:\n    b: {c: 3, d: 7}\n    e: {f: 4, g: 9}\ncases:\n  value:\n    algorithm: minimax\n    check: value\n    visibility: hidden\n  visited:\n    algorithm: minimax\n    check: visited\n    visibility: hidden\n",
    )
    .unwrap();
    let output = dir.path().join("out.txt");
    std::fs::write(
        &output,
        "F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\nTherefore value of (Maxie,a) is Guess: 1, and best move is 0.\n",
    )
    .unwrap();
    for case in ["value", "visited"] {
        for format in [
            "human",
            "json",
            "junit",
            "tap",
            "gradescope",
            "gradescope-html",
            "gradescope-md",
            "autolab",
            "prairielearn",
            "html",
        ] {
            let out = gametrace(Mode::Namespaces)
                .args(["check"])
                .arg(&spec)
                .args(["--case", case, "--for-students", "--format", format])
                .arg("--actual")
                .arg(&output)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{case} {format}");
            let text = String::from_utf8_lossy(&out.stdout);
            for secret in [
                "Guess: 4",
                "Guess:4",
                "move is 1",
                "(Maxie,c)",
                "(Maxie,f)",
                "(Minnie,e)",
                "states missing",
                "state b visited",
                "first divergence",
            ] {
                assert!(
                    !text.contains(secret),
                    "{case} {format} says `{secret}`:\n{text}"
                );
            }
            assert!(
                text.contains("FAIL") || text.contains("fail"),
                "{case} {format}: {text}"
            );
        }
        // Staff see the reference.
        let out = gametrace(Mode::Namespaces)
            .args(["check"])
            .arg(&spec)
            .args(["--case", case, "--actual"])
            .arg(&output)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            ["Guess: 4", "Guess:4", "(Maxie,c)", "state b visited"]
                .iter()
                .any(|s| text.contains(s)),
            "{text}"
        );
    }
}

/// Attack 4: `--course-dir` copied, as root, a file only root may read (`private/answer.txt`,
/// 0600 in a 0700 folder) into the staged copy handed to the run's uid: the program read it.
/// Staging now leaves out what the run's uid could not read where it was.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: a root-only course file, staged by gametrace run as root"
)]
fn a_course_folders_private_file_is_not_staged() {
    common::cli::require_root();
    use std::os::unix::fs::PermissionsExt;
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let course = c.root().join("course");
    std::fs::create_dir_all(course.join("private")).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("expected/15150-s14/handout-small/alphabeta.trace"),
        course.join("private/answer.txt"),
    )
    .unwrap();
    std::fs::write(course.join("README"), "the course's files\n").unwrap();
    c.student_file(
        "mallory",
        "run.py",
        "import sys\nsys.stdout.write(open('private/answer.txt').read())\n",
    );
    open_to_all(c.root());
    std::fs::set_permissions(
        course.join("private"),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    std::fs::set_permissions(
        course.join("private/answer.txt"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let spec = "specs/15150-s14/handout-small.yaml";
    for mode in root_modes() {
        let out = c.root().join(format!("grades-{mode:?}"));
        let run = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", spec, "--case", "alphabeta"])
            .args(["--against", &format!("{PYTHON} run.py")])
            .args(["--course-dir", "course", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let book = std::fs::read_to_string(out.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&run.stderr)));
        let rows: Vec<String> = book.lines().map(str::to_owned).collect();
        assert_eq!(score(&rows, "mallory"), "0", "{mode:?}: {book}");
    }
    // Where nothing stops it (root's own program), the same read succeeds.
    c.student_file(
        "mallory",
        "run.py",
        &format!(
            "import sys\nsys.stdout.write(open({:?}).read())\n",
            course.join("private/answer.txt").display().to_string()
        ),
    );
    let out = c.root().join("grades-free");
    gametrace(Mode::Namespaces)
        .current_dir(c.root())
        .args([
            "grade",
            "class",
            "--specs",
            spec,
            "--case",
            "alphabeta",
            "--no-sandbox",
        ])
        .args(["--against", &format!("{PYTHON} run.py")])
        .args(["--course-dir", "course", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let book = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let rows: Vec<String> = book.lines().map(str::to_owned).collect();
    assert_eq!(score(&rows, "mallory"), "1", "{book}");
}

/// Attack 5: in a container as an ordinary user, student code ran as the grader's own uid,
/// and every protection said "ok": it made the grader's key world-readable, a binary
/// set-uid, a classmate's folder 000. A mode that cannot confine now refuses, with why and
/// what to do, and `doctor` marks it; `--no-sandbox` is the grader's choice to run anyway.
#[test]
fn a_mode_that_cannot_confine_refuses_to_run_student_code() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let victim = c.root().join("key");
    std::fs::write(&victim, "secret").unwrap();
    open_to_all(c.root());
    if root() {
        // The grader's own file: the ordinary user's.
        std::os::unix::fs::chown(&victim, Some(65534), Some(65534)).unwrap();
    }
    let spec = c.root().join("specs/15150-s14/handout-small.yaml");
    let chmod = format!("chmod 0600 {}", victim.display());
    let run = |extra: &[&str]| {
        gametrace(Mode::UserContainer)
            .current_dir(c.root())
            .args(["check"])
            .arg(&spec)
            .args(["--case", "alphabeta", "--shell", "--cmd", &chmod])
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = run(&[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("refused to run student code"), "{err}");
    assert!(
        err.contains("--no-sandbox") && err.contains("root"),
        "{err}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&victim), 0o644, "nothing ran");
    let doctor = gametrace(Mode::UserContainer)
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("NO") && l.contains("identity")),
        "{text}"
    );
    // Its last line says what happens, not that code "still runs" (round six found it).
    assert!(
        text.contains("student code is refused") && !text.contains("still runs"),
        "{text}"
    );
    // The grader's explicit choice runs it, as the grader's own program.
    if root() {
        run(&["--no-sandbox"]);
        assert_eq!(mode(&victim), 0o600, "--no-sandbox runs the command");
    }
}

/// Attack 5 (disk): files written, mapped (`MAP_SHARED`), closed and unlinked took 1.5 GB
/// against `--disk-limit 256M` (verdict CRASHED); and 200,000 empty files passed any quota.
/// Every byte counts now, a file at least 4 KiB: DISK-LIMIT in every mode.
#[test]
fn mapped_unlinked_and_empty_files_count_against_the_quota() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    c.student_file(
        "mapper",
        "run.py",
        r#"import mmap, os
d = os.environ["TMPDIR"]
maps = []
for i in range(24):
    p = os.path.join(d, "f%d" % i)
    with open(p, "w+b") as f:
        f.truncate(64 << 20)
        m = mmap.mmap(f.fileno(), 64 << 20)
        for at in range(0, 64 << 20, 4096):
            m[at] = 1
        maps.append(m)
    os.unlink(p)
print("mapped all")
"#,
    );
    c.student_file(
        "flooder",
        "run.py",
        r#"import os
d = os.environ["TMPDIR"]
for i in range(200000):
    open(os.path.join(d, str(i)), "w").close()
print("made all")
"#,
    );
    let spec = "specs/15150-s14/handout-small.yaml";
    for mode in modes() {
        open_to_all(c.root());
        let out = writable_out(c.root(), &format!("grades-{mode:?}"), mode);
        let run = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", spec, "--case", "alphabeta"])
            .args(["--against", &format!("{PYTHON} run.py")])
            .args([
                "--disk-limit",
                "256M",
                "--timeout",
                "120",
                "--format",
                "json",
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        for who in ["mapper", "flooder"] {
            let report = std::fs::read_to_string(out.join(format!("reports/{who}.json")))
                .unwrap_or_else(|e| {
                    panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&run.stderr))
                });
            assert!(
                report.contains("\"status\": \"disk-limit\""),
                "{mode:?} {who}: {report}"
            );
        }
    }
}

/// Smaller (6): a student's exception text with terminal escapes reached `check-game`'s human
/// report and `grade`'s `reports/NAME.txt` raw (a fake "PASS all cases", a cleared screen).
/// Every human report escapes them.
#[test]
fn a_students_escapes_reach_no_human_report_raw() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("tippy_game_state.py");
    std::fs::write(
        &game,
        "raise ValueError('\\x1b[2J\\x1b[32mPASS all cases\\x07')\n",
    )
    .unwrap();
    open_to_all(dir.path());
    let out = gametrace(Mode::Namespaces)
        .current_dir(ROOT)
        .args(["check-game", "specs/csc148/tippy-rules.yaml", "--cmd"])
        .arg(format!(
            "python3 adapters/python/gametrace_game.py {} TippyGameState",
            game.display()
        ))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\\e[2J"),
        "the escape is shown escaped: {text}"
    );
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );

    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    c.student_file(
        "eve",
        "run.py",
        "import sys\nsys.stderr.write('\\x1b[2J\\x1b[32mPASS all cases\\x07\\n')\nsys.exit(1)\n",
    );
    let (_, _) = c.grade(
        Mode::Namespaces,
        "grades",
        &[
            "--specs",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabeta",
            "--against",
            &format!("{PYTHON} run.py"),
        ],
    );
    let report = std::fs::read_to_string(c.root().join("grades/reports/eve.txt")).unwrap();
    assert!(report.contains("\\e[2J"), "{report}");
    assert!(
        !report.contains('\u{1b}') && !report.contains('\u{7}'),
        "{report}"
    );
}

/// Smaller (6): two submission folders whose names differ only in bytes that are not UTF-8
/// (`a\xff`, `a\xfe`) got one report file (one student's lost) and two identical rows.
#[test]
fn folders_named_apart_by_bytes_that_are_not_utf8_get_a_report_each() {
    use std::os::unix::ffi::OsStrExt;
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let pass = std::fs::read_to_string(
        Path::new(ROOT).join("expected/15150-s14/handout-small/alphabeta.trace"),
    )
    .unwrap();
    for (name, text) in [(&b"a\xff"[..], pass.as_str()), (&b"a\xfe"[..], "nothing\n")] {
        let d = c
            .root()
            .join("class")
            .join(std::ffi::OsStr::from_bytes(name));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("out.txt"), text).unwrap();
    }
    let (rows, err) = c.grade(
        Mode::Namespaces,
        "grades",
        &[
            "--specs",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabeta",
            "--against",
            "cat out.txt",
        ],
    );
    assert_eq!(rows.len(), 2, "{rows:?} {err}");
    assert_ne!(rows[0], rows[1]);
    assert_eq!(score(&rows, "a\\xfe"), "0", "{rows:?}");
    assert_eq!(score(&rows, "a\\xff"), "1", "{rows:?}");
    let reports: Vec<_> = std::fs::read_dir(c.root().join("grades/reports"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(reports.len(), 2);
}

/// Smaller (6): `stat` and inotify showed the names and sizes of hidden files (the spec, the
/// expected traces, a classmate's output) to a program graded beside them. Where there are
/// namespaces they are covered now; in a container without them `stat` still sees them
/// (the Safety chapter says so).
#[test]
fn hidden_files_cannot_be_measured_where_there_are_namespaces() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let spec = c.root().join("specs/15150-s14/handout-small.yaml");
    let size = std::fs::metadata(&spec).unwrap().len();
    let answer = "a classmate's answer\n";
    c.student_file("alice", "out.txt", answer);
    c.student_file(
        "mallory",
        "run.py",
        &format!(
            "import os, sys\nfor p in [{:?}, '../alice/out.txt']:\n    try:\n        print('size', p, os.stat(p).st_size, file=sys.stderr)\n    except OSError as e:\n        print('hidden', p, e.errno, file=sys.stderr)\nsys.exit(1)\n",
            spec.display().to_string()
        ),
    );
    for mode in modes().into_iter().filter(|m| *m != Mode::Container) {
        open_to_all(c.root());
        let out = writable_out(c.root(), &format!("grades-{mode:?}"), mode);
        gametrace(mode)
            .current_dir(c.root())
            .args([
                "grade",
                "class",
                "--specs",
                "specs/15150-s14/handout-small.yaml",
            ])
            .args([
                "--case",
                "alphabeta",
                "--against",
                &format!("{PYTHON} run.py"),
            ])
            .args(["--format", "json", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let report = std::fs::read_to_string(out.join("reports/mallory.json")).unwrap();
        assert!(
            !report.contains(&format!("size {} {size}", spec.display())),
            "{mode:?}: {report}"
        );
        assert!(
            !report.contains(&format!("size ../alice/out.txt {}", answer.len())),
            "{mode:?}: {report}"
        );
    }
}

/// A submission graded on the course folder's own files: a folder holding only a README got
/// full marks on the course's own solution. With `--student-file` it is NOT-FOUND; without,
/// its report says that the course's files were graded.
#[test]
fn a_submission_is_graded_on_its_own_files() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let course = c.root().join("course");
    std::fs::create_dir_all(&course).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("expected/15150-s14/handout-small/alphabeta.trace"),
        course.join("answer.txt"),
    )
    .unwrap();
    c.student_file("lazy", "README", "I did not do it\n");
    c.student_file("honest", "answer.txt", "my own answer\n");
    let base = [
        "--specs",
        "specs/15150-s14/handout-small.yaml",
        "--case",
        "alphabeta",
        "--against",
        "cat answer.txt",
        "--course-dir",
        "course",
    ];
    let mut declared = base.to_vec();
    declared.extend(["--student-file", "answer.txt"]);
    let (rows, err) = c.grade(Mode::Namespaces, "declared", &declared);
    assert_eq!(score(&rows, "lazy"), "0", "{rows:?} {err}");
    let report = std::fs::read_to_string(c.root().join("declared/reports/lazy.txt")).unwrap();
    assert!(
        report.contains("NOT-FOUND") && report.contains("answer.txt"),
        "{report}"
    );
    let (rows, _) = c.grade(Mode::Namespaces, "undeclared", &base);
    assert_eq!(score(&rows, "honest"), "0");
    let report = std::fs::read_to_string(c.root().join("undeclared/reports/lazy.txt")).unwrap();
    assert!(
        report.contains("replaces none of the course's files"),
        "{report}"
    );
}

/// Smaller (6): the diagnosis ignored `--time-limit` (an 8 MB visited-mode output held the
/// grader for 12 s with `--time-limit 2`). It keeps to it now, and says it stopped.
#[test]
fn the_diagnosis_keeps_to_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.txt");
    let mut text = String::new();
    for i in 0..150_000 {
        text.push_str(&format!(
            "F: state (Maxie,z{i}) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))\n"
        ));
    }
    std::fs::write(&output, text).unwrap();
    let out = gametrace(Mode::Namespaces)
        .current_dir(ROOT)
        .args([
            "check",
            "specs/15150-s14/handout-big.yaml",
            "--case",
            "alphabeta",
        ])
        .args(["--mode", "visited", "--time-limit", "0.05", "--actual"])
        .arg(&output)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("diagnosis: not made"), "{report}");
}

/// Round six (a red team with the binary and the guide): a folder named with a newline wrote
/// a line of its own into the grading log (`[2/2] victim: 0 / 1`), and a folder that was a
/// link to a classmate's was graded on the classmate's files (full marks). Names are shown
/// on one line now, and a link is not graded.
#[test]
fn a_folders_name_or_link_forges_no_grade() {
    let c = Course::new(&["15150-s14/handout-small.yaml"]);
    let pass = std::fs::read_to_string(
        Path::new(ROOT).join("expected/15150-s14/handout-small/alphabeta.trace"),
    )
    .unwrap();
    c.student_file("victim", "out.txt", &pass);
    // (A name holds no `/`: the look-alike U+2215 reads as one.)
    let forged = "evil: 1 \u{2215} 1 (0.3 s)\n[2\u{2215}2] victim: 0 \u{2215} 1 (9.9 s)\nx";
    c.student_file(forged, "out.txt", "nothing\n");
    std::os::unix::fs::symlink("victim", c.root().join("class/linked")).unwrap();
    let (rows, err) = c.grade(
        Mode::Namespaces,
        "grades",
        &[
            "--specs",
            "specs/15150-s14/handout-small.yaml",
            "--case",
            "alphabeta",
            "--against",
            "cat out.txt",
            "--jobs",
            "1",
        ],
    );
    assert!(
        !err.lines().any(|l| l.starts_with("[2\u{2215}2] victim")),
        "a folder's name wrote a line of the log:\n{err}"
    );
    assert!(err.contains("\\n[2\u{2215}2] victim"), "{err}");
    assert!(!rows.iter().any(|r| r.starts_with("linked")), "{rows:?}");
    assert!(
        err.contains("not a folder (links are not followed), so not graded: linked"),
        "{err}"
    );
    assert_eq!(score(&rows, "victim"), "1", "{rows:?}");
}
