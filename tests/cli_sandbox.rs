//! The sandbox, tried by hostile students. Each program below is what a student could hand in
//! instead of an alpha-beta search, written in Python, in shell and (where SML/NJ is
//! installed, as `.ci/run` makes sure) in SML. A teacher's course folder holds `specs/`,
//! `expected/` and `grades/`; the program is checked from there, as `gametrace check` is run.
//!
//! Each attack is run twice: sandboxed (the default), where it must be stopped with the right
//! verdict, the grader's files unchanged and no process left; and with `--no-sandbox`, where
//! it must succeed, which shows the test would catch a sandbox that does nothing. Under
//! `--no-sandbox` the sizes are smaller (2 GiB of memory instead of 8, 300 processes instead
//! of 10,000, a 300 MiB file instead of 2 GiB) so as not to exhaust the machine running the
//! tests; each is still past the sandbox's default limit.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod common;
use common::cli::{require, require_root, require_sml};

const SPEC: &str = "specs/small.yaml";

/// A course folder: the spec (the S12 handout's small tree), its expected traces, a grades
/// folder with a gradebook, and the student's program.
struct Course {
    dir: tempfile::TempDir,
}

impl Course {
    fn new() -> Course {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("specs")).unwrap();
        std::fs::create_dir_all(root.join("expected/small")).unwrap();
        std::fs::create_dir_all(root.join("grades")).unwrap();
        std::fs::create_dir_all(root.join("student")).unwrap();
        std::fs::copy(
            "specs/15150-s12/handout-small.yaml",
            root.join("specs/small.yaml"),
        )
        .unwrap();
        std::fs::copy(
            "expected/15150-s12/handout-small/alphabeta.trace",
            root.join("expected/small/alphabeta.trace"),
        )
        .unwrap();
        std::fs::write(
            root.join("grades/gradebook.csv"),
            "student,score\nalice,4\n",
        )
        .unwrap();
        Course { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Writes the student's program; returns its path relative to the course folder.
    fn program(&self, name: &str, text: &str) -> String {
        std::fs::write(self.root().join("student").join(name), text).unwrap();
        format!("student/{name}")
    }

    /// Every file of the grader's, with its contents.
    fn grader_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        for dir in ["specs", "expected/small", "grades"] {
            let mut entries: Vec<_> = std::fs::read_dir(self.root().join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for p in entries {
                if p.is_file() {
                    let bytes = std::fs::read(&p).unwrap();
                    files.push((p, bytes));
                }
            }
        }
        files
    }

    /// `gametrace check` of the alpha-beta case against `cmd`, from the course folder, with
    /// gametrace on PATH; returns the verdict word and the JSON report.
    fn check(&self, cmd: &str, extra: &[&str]) -> (String, String) {
        let me = Path::new(env!("CARGO_BIN_EXE_gametrace"));
        let path = format!(
            "{}:{}",
            me.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let before = self.grader_files();
        let out = Command::new(me)
            .current_dir(self.root())
            .env("PATH", path)
            .args(["check", SPEC, "--case", "alphabeta", "--format", "json"])
            .args(["--timeout", "30"])
            .args(extra)
            .arg("--cmd")
            .arg(cmd)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        let json: serde_json::Value = serde_json::from_str(&report)
            .unwrap_or_else(|e| panic!("{e}: {report}\n{}", String::from_utf8_lossy(&out.stderr)));
        let status = json["cases"][0]["status"].as_str().unwrap().to_uppercase();
        if !extra.contains(&"--no-sandbox") {
            assert_eq!(
                before,
                self.grader_files(),
                "`{cmd}` changed the grader's files"
            );
        }
        (status.replace('_', "-"), report)
    }
}

/// No process whose command line holds `marker` is running.
fn none_left(marker: &str) {
    for _ in 0..100 {
        let found: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
            .filter_map(|e| {
                let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
                let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
                let zombie = stat
                    .rsplit_once(") ")
                    .is_some_and(|(_, r)| r.starts_with('Z'));
                let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                (!zombie && text.contains(marker)).then_some(text)
            })
            .collect();
        if found.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("processes with {marker} still run");
}

/// The expected trace printed by the student: what a cheat would hand in.
const CHEAT_PY: &str = r#"
import sys
for path in sys.argv[1:]:
    try:
        print(open(path).read(), end="")
        sys.exit(0)
    except OSError as e:
        print(f"cannot read {path}: {e}", file=sys.stderr)
sys.exit(1)
"#;

#[test]
fn reading_the_expected_trace_is_stopped() {
    let c = Course::new();
    let abs = c.root().join("expected/small/alphabeta.trace");
    let py = c.program("cheat.py", CHEAT_PY);
    for target in [
        abs.display().to_string(),
        "expected/small/alphabeta.trace".into(),
    ] {
        let python = format!("python3 {py} {target}");
        let shell = format!("cat {target}");
        for cmd in [python.as_str(), shell.as_str()] {
            let (sandboxed, report) = c.check(cmd, &[]);
            assert_eq!(sandboxed, "CRASHED", "{cmd}: {report}");
            assert!(report.contains("ermission denied"), "{cmd}: {report}");
            assert_eq!(c.check(cmd, &["--no-sandbox"]).0, "PASS", "{cmd}");
        }
    }
}

/// Exits 10 when it read the spec and found a case beside `alphabeta` in it (`jamboree`),
/// 11 when it read only `alphabeta`, 12 when it could not read it.
const SPEC_PROBE_PY: &str = r#"
import sys
try:
    text = open(sys.argv[1]).read()
except OSError as e:
    print(e, file=sys.stderr)
    sys.exit(12)
sys.exit(10 if "jamboree" in text else 11 if "alphabeta" in text else 13)
"#;

#[test]
fn reading_the_spec_and_its_hidden_cases_is_stopped() {
    let c = Course::new();
    let abs = c.root().join(SPEC);
    let py = c.program("probe.py", SPEC_PROBE_PY);
    let status = |report: &str| {
        let json: serde_json::Value = serde_json::from_str(report).unwrap();
        json["cases"][0]["message"].as_str().unwrap().to_owned()
    };
    for target in [abs.display().to_string(), SPEC.to_owned()] {
        let cmd = format!("python3 {py} {target}");
        let (_, report) = c.check(&cmd, &[]);
        assert!(status(&report).ends_with("status 12"), "{report}");
        assert!(report.contains("ermission denied"), "{report}");
        let (_, report) = c.check(&cmd, &["--no-sandbox"]);
        assert!(status(&report).ends_with("status 10"), "{report}");
        let shell = format!("cat {target}");
        assert_eq!(c.check(&shell, &[]).0, "CRASHED");
        assert_eq!(c.check(&shell, &["--no-sandbox"]).0, "FAIL");
    }
    // `{spec}` is a copy holding this case alone: the others (hidden ones among them) are not
    // in it.
    let (_, report) = c.check(&format!("python3 {py} {{spec}}"), &[]);
    assert!(status(&report).ends_with("status 11"), "{report}");
}

#[test]
fn running_gametrace_on_the_spec_is_stopped() {
    let c = Course::new();
    let me = env!("CARGO_BIN_EXE_gametrace");
    let abs_spec = c.root().join(SPEC).display().to_string();
    for program in ["gametrace", me] {
        for spec in [abs_spec.as_str(), "{spec}"] {
            let shell = format!("{program} run {spec} --case alphabeta");
            let python = format!(
                "python3 -c \"import subprocess,sys; sys.exit(subprocess.run(['{program}','run','{spec}','--case','alphabeta']).returncode)\""
            );
            for cmd in [shell, python] {
                let (sandboxed, report) = c.check(&cmd, &["--shell"]);
                assert_ne!(sandboxed, "PASS", "{cmd}: {report}");
                assert_eq!(sandboxed, "CRASHED", "{cmd}: {report}");
                if spec != "{spec}" {
                    assert_eq!(
                        c.check(&cmd, &["--shell", "--no-sandbox"]).0,
                        "PASS",
                        "{cmd}"
                    );
                }
            }
        }
    }
}

/// A listener on 127.0.0.1 that says whether anything connected to it.
fn listener() -> (u16, std::thread::JoinHandle<bool>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    l.set_nonblocking(true).unwrap();
    let handle = std::thread::spawn(move || {
        for _ in 0..200 {
            if let Ok((mut s, _)) = l.accept() {
                let mut buf = [0u8; 16];
                let _ = s.read(&mut buf);
                return true;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        false
    });
    (port, handle)
}

#[test]
fn connecting_to_the_network_is_stopped() {
    let c = Course::new();
    let py = c.program(
        "net.py",
        "import socket, sys\ns = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\ns.sendall(b'leak')\n",
    );
    let programs = |port: u16| {
        vec![
            format!("python3 {py} {port}"),
            format!("bash -c 'echo leak > /dev/tcp/127.0.0.1/{port}'"),
        ]
    };
    for i in 0..2 {
        let (port, heard) = listener();
        let cmd = programs(port).swap_remove(i);
        let (status, report) = c.check(&cmd, &[]);
        assert_eq!(status, "NETWORK", "{cmd}: {report}");
        assert!(!heard.join().unwrap(), "{cmd} reached the listener");
        let (port, heard) = listener();
        let cmd = programs(port).swap_remove(i);
        c.check(&cmd, &["--no-sandbox"]);
        assert!(heard.join().unwrap(), "{cmd} without the sandbox");
    }
}

#[test]
fn allocating_8_gib_is_stopped_with_a_memory_verdict() {
    let c = Course::new();
    let py = c.program(
        "alloc.py",
        "import sys\nb = bytearray(int(sys.argv[1]) << 30)\nb[-1] = 1\nprint('allocated')\n",
    );
    let (status, report) = c.check(&format!("python3 {py} 8"), &[]);
    assert_eq!(status, "MEMORY-LIMIT", "{report}");
    assert!(report.contains("memory limit of 1 GiB"), "{report}");
    // Shell: `tail` keeps a line without an end in memory.
    let (status, report) = c.check("sh -c 'head -c 8G /dev/zero | tail'", &[]);
    assert_eq!(status, "MEMORY-LIMIT", "{report}");
    // A smaller limit is a flag away.
    let (status, report) = c.check(&format!("python3 {py} 1"), &["--memory-limit", "512M"]);
    assert_eq!(status, "MEMORY-LIMIT", "{report}");
    assert!(report.contains("512 MiB"), "{report}");
    assert_eq!(
        c.check(&format!("python3 {py} 2"), &["--no-sandbox"]).0,
        "FAIL"
    );
}

#[test]
fn forking_10000_processes_is_stopped_with_a_process_verdict() {
    let c = Course::new();
    let py = c.program(
        "fork.py",
        "import os, sys, time\nfor i in range(int(sys.argv[1])):\n    if os.fork() == 0:\n        time.sleep(60)\n        os._exit(0)\nprint('forked')\n",
    );
    let (status, report) = c.check(&format!("python3 {py} 10000"), &[]);
    assert_eq!(status, "PROCESS-LIMIT", "{report}");
    let (status, report) = c.check(
        "sh -c 'for i in $(seq 10000); do sleep 61 & done; wait'",
        &[],
    );
    assert_eq!(status, "PROCESS-LIMIT", "{report}");
    none_left("sleep 61");
    // 300 is past the default limit of 256.
    assert_eq!(
        c.check(&format!("python3 {py} 300"), &["--no-sandbox"]).0,
        "FAIL"
    );
}

#[test]
fn writing_a_2_gib_file_is_stopped_with_a_file_size_verdict() {
    let c = Course::new();
    let py = c.program(
        "big.py",
        "import os, sys\nwith open(os.path.join(os.environ['TMPDIR'], 'big'), 'wb') as f:\n    for i in range(int(sys.argv[1])):\n        f.write(b'x' * (1 << 20))\nprint('written')\n",
    );
    let (status, report) = c.check(&format!("python3 {py} 2048"), &[]);
    assert_eq!(status, "FILE-SIZE-LIMIT", "{report}");
    let (status, report) = c.check(
        "sh -c 'head -c 2G /dev/zero > \"$TMPDIR/big\"'",
        &["--shell"],
    );
    assert_eq!(status, "FILE-SIZE-LIMIT", "{report}");
    assert_eq!(
        c.check(&format!("python3 {py} 300"), &["--no-sandbox"]).0,
        "FAIL"
    );
}

#[test]
fn writing_outside_its_temp_directory_is_stopped() {
    let c = Course::new();
    let gradebook = c.root().join("grades/gradebook.csv");
    let py = c.program(
        "write.py",
        "import sys\nfor path in sys.argv[1:]:\n    open(path, 'a').write('hacked\\n')\n",
    );
    for target in [
        gradebook.display().to_string(),
        "grades/gradebook.csv".to_owned(),
        "student/new-file.txt".to_owned(),
        c.root()
            .join("expected/small/alphabeta.trace")
            .display()
            .to_string(),
    ] {
        let python = format!("python3 {py} {target}");
        let shell = format!("sh -c 'echo hacked >> {target}'");
        for cmd in [python, shell] {
            let (status, report) = c.check(&cmd, &[]);
            assert_eq!(status, "CRASHED", "{cmd}: {report}");
        }
    }
    assert!(!c.root().join("student/new-file.txt").exists());
    c.check(
        &format!("python3 {py} grades/gradebook.csv"),
        &["--no-sandbox"],
    );
    assert!(std::fs::read_to_string(&gradebook)
        .unwrap()
        .contains("hacked"));
}

#[test]
fn a_daemon_left_behind_with_setsid_and_a_double_fork_dies_with_the_case() {
    let c = Course::new();
    let py = c.program(
        "daemon.py",
        "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.close(1)\n        os.close(2)\n        os.execvp('sleep', ['sleep', '4242.5'])\n    os._exit(0)\nprint('F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))')\n",
    );
    for extra in [&[][..], &["--no-sandbox"][..]] {
        let (status, report) = c.check(&format!("python3 {py}"), extra);
        assert_eq!(status, "FAIL", "{report}");
        none_left("sleep 4242.5");
        let (status, _) = c.check(
            "sh -c '(setsid sleep 4343.5 >/dev/null 2>&1 &) ; echo started'",
            extra,
        );
        assert_eq!(status, "FAIL");
        none_left("sleep 4343.5");
    }
}

#[test]
fn an_honest_program_still_passes_and_the_report_says_how_it_ran() {
    let c = Course::new();
    // The Python S12 alpha-beta reads the tree gametrace writes for it, in its private
    // folder.
    std::fs::copy(
        "tests/fixtures/python/alphabeta_s12.py",
        c.root().join("student/alphabeta.py"),
    )
    .unwrap();
    let (status, report) = c.check("python3 student/alphabeta.py {tree_json}", &[]);
    assert_eq!(status, "PASS", "{report}");
    assert!(report.contains("\"sandbox\""), "{report}");
    assert!(report.contains("\"on\": true"), "{report}");
    let (_, report) = c.check("true", &["--no-sandbox"]);
    assert!(report.contains("off (--no-sandbox)"), "{report}");
}

/// The same attacks in SML, as a 15-150 student would write them (Basis library only).
#[test]
#[cfg_attr(
    not(gametrace_sml),
    ignore = "needs SML/NJ (sml): apt-get install smlnj"
)]
fn sml_programs_are_stopped_too() {
    require_sml();
    let c = Course::new();
    let abs = c.root().join("expected/small/alphabeta.trace");
    let read = c.program(
        "cheat.sml",
        &format!(
            "val ins = TextIO.openIn \"{}\"\nval () = print (TextIO.inputAll ins)\nval () = OS.Process.exit OS.Process.success\n",
            abs.display()
        ),
    );
    let (status, report) = c.check(&format!("sml {read}"), &[]);
    assert_eq!(status, "CRASHED", "{report}");
    assert_eq!(c.check(&format!("sml {read}"), &["--no-sandbox"]).0, "PASS");

    let run = c.program(
        "run.sml",
        &format!(
            "val _ = OS.Process.system \"gametrace run {} --case alphabeta\"\nval () = OS.Process.exit OS.Process.success\n",
            c.root().join(SPEC).display()
        ),
    );
    assert_ne!(c.check(&format!("sml {run}"), &[]).0, "PASS");
    assert_eq!(c.check(&format!("sml {run}"), &["--no-sandbox"]).0, "PASS");

    let write = c.program(
        "write.sml",
        &format!(
            "val out = TextIO.openAppend \"{}\"\nval () = TextIO.output (out, \"hacked\")\nval () = TextIO.closeOut out\nval () = OS.Process.exit OS.Process.success\n",
            c.root().join("grades/gradebook.csv").display()
        ),
    );
    assert_eq!(c.check(&format!("sml {write}"), &[]).0, "CRASHED");

    let (port, heard) = listener();
    let net = c.program(
        "net.sml",
        &format!(
            "val s : Socket.active INetSock.stream_sock = INetSock.TCP.socket ()\nval SOME h = NetHostDB.fromString \"127.0.0.1\"\nval () = Socket.connect (s, INetSock.toAddr (h, {port}))\nval () = OS.Process.exit OS.Process.success\n"
        ),
    );
    let (status, report) = c.check(&format!("sml {net}"), &[]);
    assert_eq!(status, "NETWORK", "{report}");
    assert!(!heard.join().unwrap());
}

#[test]
fn doctor_says_what_is_in_force_and_strict_fails_on_anything_missing() {
    let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for layer in [
        "files",
        "network",
        "orphans",
        "processes",
        "memory",
        "other limits",
    ] {
        assert!(text.contains(layer), "{text}");
    }
    assert!(text.contains("python3"), "{text}");
    let complete = text.contains("every protection is in force");
    assert_eq!(out.status.code(), Some(0), "{text}");
    let strict = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .args(["doctor", "--strict"])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(if complete { 0 } else { 1 }));
}

#[test]
fn bad_sandbox_flags_exit_2_naming_the_flag_and_what_was_wrong() {
    for (flag, value, says) in [
        ("--memory-limit", "12Q", "expected bytes like 8M"),
        ("--file-size-limit", "0", "expected bytes like 8M"),
        ("--cpu-limit", "0", "expected a number of seconds"),
        ("--process-limit", "lots", "invalid digit"),
        ("--open-files-limit", "3", "not in 16..=1000000"),
        ("--sandbox-read", "/no/such/folder", "does not exist"),
        (
            "--sandbox-env",
            "1NOT=A NAME",
            "expected an environment variable's name",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
            .args([
                "check",
                "specs/15150-s12/handout-small.yaml",
                "--case",
                "alphabeta",
                flag,
                value,
                "--cmd",
                "true",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(
            err.contains(flag) && err.contains(says),
            "{flag} {value}: {err}"
        );
    }
}

/// A copy of gametrace the student brings along (here, the binary copied into the student's
/// own folder, next to a copy of the spec it can read) would print the reference's trace.
/// The sandbox's mark, which no program can shed, makes every copy refuse.
#[test]
fn a_copy_of_gametrace_in_the_students_folder_refuses_to_run() {
    let c = Course::new();
    let student = c.root().join("student");
    std::fs::copy(env!("CARGO_BIN_EXE_gametrace"), student.join("gt")).unwrap();
    std::fs::copy(c.root().join(SPEC), student.join("tree.yaml")).unwrap();
    let cmd = c.program(
        "copy.sh",
        "#!/bin/sh\nhere=$(dirname \"$0\")\nexec \"$here/gt\" run \"$here/tree.yaml\" --case alphabeta\n",
    );
    let cmd = format!("sh {cmd}");
    let (sandboxed, report) = c.check(&cmd, &[]);
    assert_eq!(sandboxed, "CRASHED", "{report}");
    assert!(
        report.contains("gametrace will not run inside its own sandbox"),
        "{report}"
    );
    assert_eq!(c.check(&cmd, &["--no-sandbox"]).0, "PASS");
}

/// What a program learns of its surroundings, on stderr, which the report shows (it then
/// fails): each line `name: result` (Python, so errno values read the same everywhere).
const PROBE: &str = r#"
import errno, fcntl, os, socket, struct, sys, termios
def say(line):
    sys.stderr.write(line + "\n")
def tried(name, f):
    try:
        f()
        say(name + ": ok")
    except OSError as e:
        say(name + ": " + (errno.errorcode.get(e.errno) or str(e.errno)))
tried("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close())
tried("vsock", lambda: socket.socket(40, socket.SOCK_STREAM, 0).close())
tried("tiocsti", lambda: fcntl.ioctl(0, termios.TIOCSTI, b"x"))
tried("mknod", lambda: os.mknod(os.path.join(os.environ.get("TMPDIR", "/tmp"), "disk"),
                               0o600 | 0o060000, os.makedev(8, 0)))
tried("fifo", lambda: os.mkfifo(os.path.join(os.environ.get("TMPDIR", "/tmp"), "fifo")))
say("token: " + os.environ.get("GRADER_API_TOKEN", "(none)"))
sys.exit(1)
"#;

/// Checks `cmd` as the student's program with a secret in the grader's environment (and
/// `env` set for gametrace): the case's details (the program's stderr), and the report.
fn secret_run(c: &Course, cmd: &str, env: &[(&str, &str)], extra: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .current_dir(c.root())
        .env("GRADER_API_TOKEN", "s3cret-token")
        .envs(env.iter().copied())
        .args(["check", SPEC, "--case", "alphabeta", "--format", "json"])
        .args(["--timeout", "30"])
        .args(extra)
        .arg("--cmd")
        .arg(cmd)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let json: serde_json::Value = serde_json::from_str(&report).unwrap();
    let details = json["cases"][0]["details"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    (details, report)
}

/// Runs the probe as the student's program, sandboxed or not, with a secret in the
/// grader's environment; its output, by name.
fn probe(c: &Course, extra: &[&str]) -> std::collections::BTreeMap<String, String> {
    let program = c.program("probe.py", PROBE);
    let (details, report) = secret_run(c, &format!("python3 {program}"), &[], extra);
    let mut seen = std::collections::BTreeMap::new();
    for name in ["netlink", "vsock", "tiocsti", "mknod", "fifo", "token"] {
        let key = format!("{name}: ");
        if let Some(at) = details.find(&key) {
            let rest = &details[at + key.len()..];
            let value = rest.split(['\n', ' ']).next().unwrap_or("").to_owned();
            seen.insert(name.to_owned(), value);
        }
    }
    assert_eq!(seen.len(), 6, "{report}");
    seen
}

/// Sockets other than local ones (netlink, vsock: a VM's host), device nodes (as root, the
/// disk's) and pushing input into a terminal are refused; the grader's environment (an API
/// token) never reaches the program; a FIFO, which is harmless, is still allowed. Each is
/// shown to work, or to fail otherwise, without the sandbox.
#[test]
fn sockets_devices_terminal_input_and_the_graders_environment_are_out_of_reach() {
    let c = Course::new();
    let free = probe(&c, &["--no-sandbox"]);
    let boxed = probe(&c, &[]);
    assert_eq!(free["token"], "s3cret-token");
    assert_eq!(boxed["token"], "(none)", "{boxed:?}");
    assert_eq!(free["netlink"], "ok");
    assert_eq!(boxed["netlink"], "EAFNOSUPPORT", "{boxed:?}");
    assert_eq!(boxed["vsock"], "EAFNOSUPPORT", "{boxed:?}");
    // stdin is not a terminal: the ioctl fails either way, but only the sandbox refuses it
    // before the terminal is even looked at.
    assert_eq!(free["tiocsti"], "ENOTTY");
    assert_eq!(boxed["tiocsti"], "EPERM", "{boxed:?}");
    assert_eq!(boxed["mknod"], "EPERM", "{boxed:?}");
    // SAFETY: no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        assert_eq!(
            free["mknod"], "ok",
            "root makes a block device without the sandbox"
        );
    }
    assert_eq!(boxed["fifo"], "ok", "{boxed:?}");
}

/// Thousands of threads stop at the process limit with its verdict, not as a crash; a loop
/// that ignores SIGXCPU is killed at the hard CPU limit and still gets the CPU verdict. Both
/// programs pass without the sandbox: they then print the reference's trace.
#[test]
fn threads_and_a_loop_ignoring_sigxcpu_get_their_limits_verdicts() {
    let c = Course::new();
    let trace =
        std::fs::read_to_string("expected/15150-s12/handout-small/alphabeta.trace").unwrap();
    std::fs::write(c.root().join("student/answer.trace"), &trace).unwrap();
    let threads = c.program(
        "threads.py",
        "import threading, time, sys, os\nts = [threading.Thread(target=time.sleep, args=(2,)) for _ in range(int(sys.argv[1]))]\nfor t in ts:\n    t.start()\nfor t in ts:\n    t.join()\nsys.stdout.write(open(os.path.join(os.path.dirname(__file__), 'answer.trace')).read())\n",
    );
    let (status, report) = c.check(&format!("python3 {threads} 5000"), &[]);
    assert_eq!(status, "PROCESS-LIMIT", "{report}");
    assert_eq!(
        c.check(&format!("python3 {threads} 300"), &["--no-sandbox"])
            .0,
        "PASS"
    );
    let spin = c.program(
        "spin.py",
        "import signal, time, sys, os\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nend = time.process_time() + float(sys.argv[1])\nwhile time.process_time() < end:\n    pass\nsys.stdout.write(open(os.path.join(os.path.dirname(__file__), 'answer.trace')).read())\n",
    );
    let (status, report) = c.check(&format!("python3 {spin} 5"), &["--cpu-limit", "1"]);
    assert_eq!(status, "CPU-LIMIT", "{report}");
    assert_eq!(
        c.check(&format!("python3 {spin} 3"), &["--no-sandbox"]).0,
        "PASS"
    );
}

/// In `grade`, a submission sees only its own folder: bob hands in no search at all, only a
/// program that prints alice's saved output (by its path in the class folder, and through
/// a shebang whose extra word names her folder). Sandboxed he fails; without the sandbox
/// he would pass.
#[test]
fn in_grade_a_submission_cannot_read_a_classmates_folder() {
    let c = Course::new();
    let subs = c.root().join("subs");
    let alice = subs.join("alice");
    let bob = subs.join("bob");
    std::fs::create_dir_all(&alice).unwrap();
    std::fs::create_dir_all(&bob).unwrap();
    let trace =
        std::fs::read_to_string("expected/15150-s12/handout-small/alphabeta.trace").unwrap();
    std::fs::write(alice.join("answer.trace"), &trace).unwrap();
    std::fs::write(alice.join("run.py"), "import os, sys\nsys.stdout.write(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'answer.trace')).read())\n").unwrap();
    std::fs::write(
        bob.join("run.py"),
        format!(
            "#!/usr/bin/env -S python3 -X {}\nimport sys\nsys.stdout.write(open({:?}).read())\n",
            alice.display(),
            alice.join("answer.trace").display().to_string()
        ),
    )
    .unwrap();
    let gradebook = |extra: &[&str]| {
        let out_dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
            .current_dir(c.root())
            .args([
                "grade",
                "subs",
                "--against",
                "python3 run.py",
                "--specs",
                "specs",
            ])
            .arg("--out")
            .arg(out_dir.path().join("grades"))
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let csv = std::fs::read_to_string(out_dir.path().join("grades/gradebook.csv"))
            .unwrap_or_else(|e| panic!("{e}: {stdout}"));
        csv
    };
    let score = |csv: &str, who: &str| -> String {
        let line = csv
            .lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("{csv}"));
        line.split(',').nth(1).unwrap().to_owned()
    };
    let free = gradebook(&["--no-sandbox"]);
    let boxed = gradebook(&[]);
    assert_eq!(
        score(&free, "alice"),
        score(&boxed, "alice"),
        "{free}\n{boxed}"
    );
    assert_eq!(
        score(&free, "bob"),
        score(&free, "alice"),
        "without the sandbox bob copies: {free}"
    );
    assert_ne!(
        score(&boxed, "bob"),
        score(&boxed, "alice"),
        "bob read alice's folder: {boxed}"
    );
}

/// A script's shebang line names its interpreter; an extra word in it (an option's
/// argument naming some folder) does not make that folder readable.
#[test]
fn a_shebangs_extra_words_do_not_widen_what_a_script_may_read() {
    let c = Course::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let trace =
        std::fs::read_to_string("expected/15150-s12/handout-small/alphabeta.trace").unwrap();
    let answer = elsewhere.path().join("answer.trace");
    std::fs::write(&answer, &trace).unwrap();
    let script = c.program(
        "run.py",
        &format!(
            "#!/usr/bin/env -S python3 -X {}\nimport sys\nsys.stdout.write(open({:?}).read())\n",
            elsewhere.path().display(),
            answer.display().to_string()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        c.root().join(&script),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let cmd = format!("./{script}");
    let (sandboxed, report) = c.check(&cmd, &[]);
    assert_eq!(sandboxed, "CRASHED", "{report}");
    assert!(report.contains("Permission denied"), "{report}");
    assert_eq!(c.check(&cmd, &["--no-sandbox"]).0, "PASS");
}

/// Who the program is and what it sees, on stderr, one `name: value` a line; it exits 1, so
/// its stderr is in the report. (The shell's own `/proc/$$`: without a `/proc` of its own, a
/// program may read its own folder of the host's `/proc`, and no other process's.)
const WHO_SH: &str = r#"{
echo "uid: $(id -u)"
sed -n 's/^CapEff:[[:space:]]*/capeff: /p; s/^CapBnd:[[:space:]]*/capbnd: /p; s/^NoNewPrivs:[[:space:]]*/nonewprivs: /p' /proc/$$/status
echo "pids: $(ls /proc | grep -c '^[0-9]')"
echo "environ: $(cat /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' | grep -c s3cret-token)"
} >&2
exit 1
"#;

/// Runs [`WHO_SH`] as the student's program with a secret in the grader's environment and
/// `env` set for gametrace; what it printed, by name.
fn who(
    c: &Course,
    env: &[(&str, &str)],
    extra: &[&str],
) -> std::collections::BTreeMap<String, String> {
    let program = c.program("who.sh", WHO_SH);
    let (details, report) = secret_run(c, &format!("sh {program}"), env, extra);
    let mut seen = std::collections::BTreeMap::new();
    for line in details.lines() {
        let line = line.trim_start().trim_start_matches("| ");
        if let Some((k, v)) = line.split_once(": ") {
            if ["uid", "capeff", "capbnd", "nonewprivs", "pids", "environ"].contains(&k) {
                seen.insert(k.to_owned(), v.trim().to_owned());
            }
        }
    }
    assert_eq!(seen.len(), 6, "{report}");
    seen
}

/// A course folder every user may read: a program that runs as an unprivileged uid of its
/// own (gametrace as root) reads its submission as any other user would.
fn open_course() -> Course {
    use std::os::unix::fs::PermissionsExt;
    let c = Course::new();
    std::fs::set_permissions(c.root(), std::fs::Permissions::from_mode(0o755)).unwrap();
    c
}

/// As root (autograders run gametrace so), the program is never root, inside or outside its
/// namespaces: it runs as a uid of its own from the sandbox's range, unprivileged on the
/// host, with no capability left (the bounding set too) and no_new_privs, with namespaces or,
/// in a container without them (forced here with `GAMETRACE_SANDBOX=container`), without. With its PID
/// namespace comes a `/proc` of its own, where no process outside it is even listed; in
/// either mode no process's environment shows the grader's token. Without the sandbox the
/// same program is root with every capability and finds the token in gametrace's own
/// `/proc/PID/environ`.
#[test]
fn as_root_the_program_is_an_unprivileged_uid_with_no_capabilities_and_sees_no_other_process() {
    let c = open_course();
    // SAFETY: no preconditions.
    let (root, me) = unsafe { (libc::geteuid() == 0, libc::geteuid()) };
    let free = who(&c, &[], &["--no-sandbox"]);
    assert_eq!(free["uid"], me.to_string());
    assert_ne!(
        free["environ"], "0",
        "without the sandbox the token is there: {free:?}"
    );
    for env in [&[][..], &[("GAMETRACE_SANDBOX", "container")][..]] {
        let boxed = who(&c, env, &[]);
        let zero = "0000000000000000";
        assert_eq!(boxed["capeff"], zero, "{env:?}: {boxed:?}");
        assert_eq!(boxed["environ"], "0", "{env:?}: {boxed:?}");
        if root {
            assert_ne!(free["capeff"], zero, "root has capabilities: {free:?}");
            // A uid of its own, of the sandbox's range: unprivileged on the host too.
            let uid: u32 = boxed["uid"].parse().unwrap();
            assert!((60_100..61_100).contains(&uid), "{env:?}: {boxed:?}");
            assert_eq!(boxed["capbnd"], zero, "{env:?}: {boxed:?}");
            assert_eq!(boxed["nonewprivs"], "1", "{env:?}: {boxed:?}");
        }
        let fresh_proc = env.is_empty()
            && std::process::Command::new(env!("CARGO_BIN_EXE_gametrace"))
                .arg("doctor")
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("its own /proc"));
        if fresh_proc {
            let pids: usize = boxed["pids"].parse().unwrap();
            let outside: usize = free["pids"].parse().unwrap();
            // Its init, the shell, `ls` and `grep` at most.
            assert!(pids <= 5, "{boxed:?}");
            assert!(outside > pids, "{free:?}");
        }
    }
}

/// In a container without namespaces (forced with `GAMETRACE_SANDBOX=container`), the
/// layers that do not need them still hold: the expected trace is out of reach, a write
/// outside the temp directory fails, an Internet socket is a NETWORK verdict; an honest
/// program still passes.
#[test]
fn in_container_mode_the_other_layers_still_hold_and_an_honest_program_passes() {
    let c = open_course();
    let container = [("GAMETRACE_SANDBOX", "container")];
    let run = |cmd: &str| -> (String, String) {
        let me = Path::new(env!("CARGO_BIN_EXE_gametrace"));
        let out = Command::new(me)
            .current_dir(c.root())
            .envs(container)
            .args(["check", SPEC, "--case", "alphabeta", "--format", "json"])
            .args(["--timeout", "30", "--cmd", cmd])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        let json: serde_json::Value = serde_json::from_str(&report).unwrap();
        let status = json["cases"][0]["status"].as_str().unwrap().to_uppercase();
        (status.replace('_', "-"), report)
    };
    let (status, report) = run("cat expected/small/alphabeta.trace");
    assert_eq!(status, "CRASHED", "{report}");
    assert!(report.contains("ermission denied"), "{report}");
    let (status, report) = run("sh -c 'echo x > grades/gradebook.csv'");
    assert_eq!(status, "CRASHED", "{report}");
    assert_eq!(
        std::fs::read_to_string(c.root().join("grades/gradebook.csv")).unwrap(),
        "student,score\nalice,4\n"
    );
    // Python as installed for every user (a runtime under a private home, as pyenv's in
    // /root, is out of an unprivileged uid's reach without a mount namespace: `gametrace
    // doctor` says so).
    let Some(python) = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        panic!("no python3 in /usr/bin or /usr/local/bin");
    };
    let py = c.program(
        "net.py",
        "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(('127.0.0.1', 9))\n",
    );
    let (status, report) = run(&format!("{python} {py}"));
    assert_eq!(status, "NETWORK", "{report}");
    std::fs::copy(
        "tests/fixtures/python/alphabeta_s12.py",
        c.root().join("student/alphabeta.py"),
    )
    .unwrap();
    let (status, report) = run(&format!("{python} student/alphabeta.py {{tree_json}}"));
    assert_eq!(status, "PASS", "{report}");
}

/// Many files, each under the file-size limit, that together fill the disk (here 40 MiB
/// against a 20 MiB quota, half of it in a folder made unreadable to hide it) stop the
/// program with DISK-LIMIT, whether it is still writing or already done; without the
/// sandbox it writes them all and prints the reference's trace.
#[test]
fn filling_the_disk_with_many_small_files_is_stopped_with_a_disk_verdict() {
    let c = Course::new();
    let fill = c.program(
        "fill.sh",
        r#"mkdir "$TMPDIR/hide"
for i in 1 2 3 4 5; do head -c 4194304 /dev/zero > "$TMPDIR/hide/$i"; done
chmod 000 "$TMPDIR/hide"
for i in 1 2 3 4 5; do head -c 4194304 /dev/zero > "$TMPDIR/f$i"; done
cat expected/small/alphabeta.trace
"#,
    );
    let cmd = format!("sh {fill}");
    let (status, report) = c.check(&cmd, &["--disk-limit", "20M"]);
    assert_eq!(status, "DISK-LIMIT", "{report}");
    assert!(report.contains("--disk-limit"), "{report}");
    // Slowly, so that it is caught while it runs.
    let slow = c.program(
        "slow.sh",
        r#"for i in 1 2 3 4 5 6 7 8 9 10; do head -c 4194304 /dev/zero > "$TMPDIR/f$i"; sleep 0.2; done
sleep 30
"#,
    );
    // Not TIMEOUT: caught while it runs (the check at the end would come after the timeout).
    let (status, report) = c.check(&format!("sh {slow}"), &["--disk-limit", "20M"]);
    assert_eq!(status, "DISK-LIMIT", "{report}");
    let (status, report) = c.check(&cmd, &["--no-sandbox"]);
    assert_eq!(status, "PASS", "{report}");
}

/// The report's details (the program's stderr) of `cmd`, run with `extra`.
fn details_of(c: &Course, cmd: &str, extra: &[&str]) -> String {
    let (_, report) = c.check(cmd, extra);
    let json: serde_json::Value = serde_json::from_str(&report).unwrap();
    json["cases"][0]["details"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

/// A pathname Unix socket of a service on the host is out of reach: `connect` is refused
/// (seccomp) whatever the path, in a container's mode too, and the program's mount
/// namespace covers `/run` (where `docker.sock` and D-Bus listen) with an empty folder. A
/// pair of connected sockets (`socketpair`), which reaches nothing outside, still works.
/// Without the sandbox it connects to both listeners the test makes: one in `/run` (as root,
/// who may make one there) and one in a folder of the grader's.
#[test]
fn a_unix_socket_of_a_host_service_is_out_of_reach() {
    // SAFETY: no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let c = open_course();
    let mut paths = vec![c.root().join("grades/service.sock")];
    if root {
        paths.push(PathBuf::from(format!(
            "/run/gametrace-test-{}.sock",
            std::process::id()
        )));
    }
    let mut listeners = Vec::new();
    for p in &paths {
        let _ = std::fs::remove_file(p);
        let l = std::os::unix::net::UnixListener::bind(p).unwrap();
        l.set_nonblocking(true).unwrap();
        // Open to every user (as a display server's is): only the sandbox stands between.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
        listeners.push(l);
    }
    let mut script = String::from("import socket, sys\n");
    for (i, p) in paths.iter().enumerate() {
        script.push_str(&format!(
            "s = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect({:?})\n    print('unix{i}: connected', file=sys.stderr)\nexcept OSError as e:\n    print('unix{i}:', type(e).__name__, file=sys.stderr)\n",
            p.display().to_string()
        ));
    }
    // A datagram to a path (as to /dev/log): refused too.
    let dgram_path = c.root().join("grades/dgram.sock");
    let _ = std::fs::remove_file(&dgram_path);
    let dgram = std::os::unix::net::UnixDatagram::bind(&dgram_path).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dgram_path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    // A datagram socket can send to any path, connected or not (sendto, and sendmsg whose
    // address the filter cannot see): the socket itself is refused.
    script.push_str(&format!(
        "try:\n    d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n    d.sendto(b'x', {p:?})\n    d.sendmsg([b'x'], [], 0, {p:?})\n    print('dgram: sent', file=sys.stderr)\nexcept OSError as e:\n    print('dgram:', type(e).__name__, file=sys.stderr)\n",
        p = dgram_path.display().to_string()
    ));
    script.push_str("a, b = socket.socketpair()\na.send(b'x')\nprint('pair:', b.recv(1).decode(), file=sys.stderr)\nsys.exit(1)\n");
    let program = c.program("unix.py", &script);
    // A Python every user may run (without a mount namespace, the program's uid cannot
    // reach pyenv's in /root).
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .unwrap_or("python3");
    let cmd = format!("{python} {program}");
    let free = details_of(&c, &cmd, &["--no-sandbox"]);
    for i in 0..paths.len() {
        assert!(free.contains(&format!("unix{i}: connected")), "{free}");
    }
    assert!(free.contains("dgram: sent"), "{free}");
    for env in [&[][..], &[("GAMETRACE_SANDBOX", "container")][..]] {
        let (boxed, _) = secret_run(&c, &cmd, env, &[]);
        for i in 0..paths.len() {
            assert!(
                !boxed.contains(&format!("unix{i}: connected")),
                "{env:?}: {boxed}"
            );
            assert!(boxed.contains(&format!("unix{i}: ")), "{env:?}: {boxed}");
        }
        assert!(boxed.contains("pair: x"), "{env:?}: {boxed}");
        assert!(
            boxed.contains("dgram: ") && !boxed.contains("dgram: sent"),
            "{env:?}: {boxed}"
        );
    }
    drop(dgram);
    for p in paths.iter().chain([&dgram_path]) {
        let _ = std::fs::remove_file(p);
    }
}

/// As an ordinary user (here `nobody`, by `setpriv`, when the tests run as root as CI does),
/// where the sandbox has no cgroup and maps the user to itself in its user namespace: the
/// program is that user with no capability, the expected trace is out of reach, and without
/// the sandbox the same program reads it and passes.
#[test]
#[cfg_attr(
    not(all(gametrace_root, gametrace_setpriv)),
    ignore = "needs root and /usr/bin/setpriv: runs gametrace as an ordinary user"
)]
fn as_an_ordinary_user_the_same_attacks_fail() {
    require_root();
    require("/usr/bin/setpriv");
    let c = open_course();
    let who = c.program("who.sh", WHO_SH);
    let run = |cmd: &str, extra: &[&str]| -> serde_json::Value {
        let out = Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_gametrace"))
            .current_dir(c.root())
            .env("GRADER_API_TOKEN", "s3cret-token")
            .env("HOME", "/tmp")
            .args(["check", SPEC, "--case", "alphabeta", "--format", "json"])
            .args(["--timeout", "30"])
            .args(extra)
            .arg("--cmd")
            .arg(cmd)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        serde_json::from_str(&report)
            .unwrap_or_else(|e| panic!("{e}: {report}\n{}", String::from_utf8_lossy(&out.stderr)))
    };
    let status = |j: &serde_json::Value| j["cases"][0]["status"].as_str().unwrap().to_owned();
    let cheat = "cat expected/small/alphabeta.trace";
    let boxed = run(cheat, &[]);
    assert_eq!(status(&boxed), "crashed", "{boxed}");
    assert!(boxed.to_string().contains("ermission denied"), "{boxed}");
    assert_eq!(status(&run(cheat, &["--no-sandbox"])), "pass");
    let details = run(&format!("sh {who}"), &[])["cases"][0]["details"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(details.contains("uid: 65534"), "{details}");
    assert!(details.contains("capeff: 0000000000000000"), "{details}");
    assert!(details.contains("environ: 0"), "{details}");
}
