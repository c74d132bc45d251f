//! The policy proven from inside: a program run in the sandbox, as a student's would be, walks
//! the file system from every place it could start (each folder at the top, every path the
//! policy names, every hidden path, the usual private and shared folders), never following
//! a link. It lists what it can list, opens what it can read, tries to make a file in every
//! folder it reaches and to open every file it finds for writing. Everything it managed must
//! lie inside the set [`file_policy`] computed (what `gametrace doctor --policy` prints), and
//! no hidden file may be read.
//!
//! The program's own script is the attack of round three: its shebang is
//! `#!/usr/../bin/python3`, whose interpreter's "installation" read as written is `/`.
//!
//! Run in each mode the machine has: as it is (namespaces), and, as root, again in a process
//! of its own as a container's sandbox (`GAMETRACE_SANDBOX=container`) and as an ordinary
//! user (`setpriv` to uid 65534).

use gametrace_sandbox::policy::FilePolicy;
use gametrace_sandbox::{file_policy, run, Job, Limits, Policy, Ran, Scratch};
use std::path::{Path, PathBuf};
use std::time::Duration;

const WALKER: &str = r#"#!/usr/../bin/python3
import os, stat, sys
out = sys.stdout
seen = set()
def probe_write(d):
    p = os.path.join(d, ".gametrace-walk-probe")
    try:
        fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
        os.unlink(p)
        out.write("W " + d + "\n")
    except OSError:
        pass
def walk(path, depth):
    if path in seen or depth > 40:
        return
    seen.add(path)
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        try:
            names = os.listdir(path)
        except OSError:
            return
        out.write("L " + path + "\n")
        probe_write(path)
        for n in names:
            # Other processes' folders of a /proc are theirs, not files of the disk.
            if path == "/proc" and n.isdigit() and n != str(os.getpid()):
                continue
            walk(os.path.join(path, n), depth + 1)
    elif stat.S_ISREG(st.st_mode):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            os.close(fd)
            out.write("R " + path + "\n")
        except OSError:
            pass
        # /proc and /sys files "open for writing" to say they may be set: not the disk.
        if not path.startswith(("/proc/", "/sys/")):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_NOFOLLOW)
                os.close(fd)
                out.write("w " + path + "\n")
            except OSError:
                pass
for start in open(os.path.join(os.environ["TMPDIR"], "starts.txt")).read().split("\n"):
    if start:
        walk(start, 0)
out.write("done\n")
"#;

/// Where the walk starts: every entry at the top of the file system, each path the policy
/// names (and its parent), each hidden path, and the usual private and shared folders.
fn starts(policy: &FilePolicy) -> Vec<PathBuf> {
    let mut s: Vec<PathBuf> = std::fs::read_dir("/")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    s.push("/".into());
    for r in &policy.rules {
        s.push(r.path.clone());
        if let Some(p) = r.path.parent() {
            s.push(p.to_owned());
        }
    }
    s.extend(policy.hidden.iter().cloned());
    for p in [
        "/root",
        "/home",
        "/tmp",
        "/var/tmp",
        "/dev/shm",
        "/run",
        "/run/lock",
    ] {
        s.push(p.into());
    }
    s.sort();
    s.dedup();
    s
}

/// Is `path` under a rule that lets one list it (any access: `List` rights reach every
/// folder beneath)?
fn may_list(policy: &FilePolicy, path: &Path) -> bool {
    policy
        .rules
        .iter()
        .any(|r| path.starts_with(&r.path) && (r.path.is_dir() || path == r.path))
}

fn hidden(policy: &FilePolicy, path: &Path) -> bool {
    policy.hidden.iter().any(|h| path.starts_with(h))
}

/// The walk, in this process's sandbox mode; panics on anything outside the policy.
fn walk_here() {
    use std::os::unix::fs::PermissionsExt;
    let course = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(course.path()).unwrap();
    for d in ["specs", "expected/small", "student"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("specs/small.yaml"), "hidden: the spec\n").unwrap();
    std::fs::write(root.join("expected/small/a.trace"), "hidden: the answer\n").unwrap();
    std::fs::write(root.join("student/notes.txt"), "the student's\n").unwrap();
    std::fs::write(root.join("student/walk"), WALKER).unwrap();
    for (p, mode) in [
        ("", 0o755),
        ("specs", 0o755),
        ("expected", 0o755),
        ("expected/small", 0o755),
        ("student", 0o755),
        ("student/walk", 0o755),
    ] {
        std::fs::set_permissions(root.join(p), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let argv = vec!["./student/walk".to_owned()];
    let scratch = Scratch::new().unwrap();
    let policy = Policy {
        hidden: gametrace_sandbox::grader_paths(&root.join("specs/small.yaml")),
        ..Policy::default()
    };
    let job = Job {
        argv: &argv,
        words: &argv,
        stdin: None,
        dir: Some(&root),
        limits: Limits {
            timeout: Duration::from_secs(600),
            output_cap: 512 << 20,
            cpu: Duration::from_secs(600),
            ..Limits::default()
        },
        scratch: &scratch,
        policy: &policy,
    };
    let computed = file_policy(&job);
    assert!(
        computed.rules.iter().all(|r| r.path != Path::new("/")),
        "{}",
        computed.describe()
    );
    let list: Vec<String> = starts(&computed)
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    scratch
        .write("starts.txt", list.join("\n").as_bytes())
        .unwrap();
    let ran = run(&job);
    let Ran::Exited { stdout, .. } = &ran else {
        panic!("the walk did not finish: {ran:?}");
    };
    let text = String::from_utf8_lossy(stdout);
    assert!(
        text.ends_with("done\n"),
        "{}",
        &text[text.len().saturating_sub(500)..]
    );
    let mut outside = Vec::new();
    let (mut listed, mut read, mut written) = (0, 0, 0);
    for line in text.lines() {
        let Some((kind, path)) = line.split_once(' ') else {
            continue;
        };
        // In a mount namespace the temp folder the walk sees is the tmpfs over the same path.
        let path = Path::new(path);
        let ok = match kind {
            "L" => {
                listed += 1;
                may_list(&computed, path)
            }
            "R" => {
                read += 1;
                computed.may_read(path) && !hidden(&computed, path)
            }
            "W" | "w" => {
                written += 1;
                computed.may_write(path)
            }
            _ => true,
        };
        if !ok {
            outside.push(line.to_owned());
        }
    }
    assert!(
        outside.is_empty(),
        "{} things outside the policy (of {listed} listed, {read} read, {written} written), the first: {:#?}\npolicy:\n{}",
        outside.len(),
        &outside[..outside.len().min(20)],
        computed.describe()
    );
    // The walk reached what it must: the student's own file, the system's, its temp folder.
    assert!(text.contains(&format!("R {}", root.join("student/notes.txt").display())));
    assert!(text.contains("R /etc/hostname") || text.contains("R /etc/passwd"));
    assert!(read > 1000, "the walk read only {read} files");
    assert!(written >= 1, "not even its temp folder was writable");
    eprintln!(
        "walk ({}): {listed} folders listed, {read} files read, {written} writable, none outside",
        std::env::var("GAMETRACE_SANDBOX").unwrap_or_else(|_| "namespaces".into())
    );
}

/// Runs this test binary's `walk_from_inside` again in a process of its own, with `env` set
/// and as `setpriv` says, so that the sandbox probes that mode afresh.
fn again(env: &[(&str, &str)], setpriv: bool) {
    let me = std::env::current_exe().unwrap();
    let mut cmd = if setpriv {
        let mut c = std::process::Command::new("/usr/bin/setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&me)
            .env("HOME", "/tmp");
        c
    } else {
        std::process::Command::new(&me)
    };
    let out = cmd
        .args([
            "--exact",
            "walk_from_inside",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{env:?} setpriv={setpriv}:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The walk in the mode the tests run in (run again by [`again`] in the others).
#[test]
fn walk_from_inside() {
    walk_here();
}

/// As root, the walk again as a container's sandbox (`GAMETRACE_SANDBOX=container`) and as an
/// ordinary user (`setpriv` to uid 65534): ignored, with its reason, where the tests do not
/// run as root or setpriv is missing (see build.rs); failed where they run without either
/// all the same (CI, `GAMETRACE_REQUIRE_ALL=1`).
#[test]
#[cfg_attr(
    not(all(gametrace_root, gametrace_setpriv)),
    ignore = "needs root and /usr/bin/setpriv: walks as a container's sandbox and as an ordinary user"
)]
fn walk_from_inside_as_a_container_and_as_an_ordinary_user() {
    // SAFETY: no preconditions.
    let euid = unsafe { libc::geteuid() };
    assert_eq!(
        euid, 0,
        "this test runs the walk as root's modes: run it as root"
    );
    assert!(
        Path::new("/usr/bin/setpriv").is_file(),
        "setpriv (util-linux: apt-get install util-linux) runs the walk as an ordinary user"
    );
    again(&[("GAMETRACE_SANDBOX", "container")], false);
    again(&[], true);
}
