//! The sandbox's third round of attacks, each as a hostile student tried it against gametrace
//! run as root (as autograders run it), in both of its modes: with namespaces, and as in a
//! container that refuses them (`GAMETRACE_SANDBOX=container`); the ones that do not need
//! root are also tried with gametrace run as an ordinary user (`setpriv` to uid 65534).
//!
//! Each attack must fail with its verdict, and each succeeds under `--no-sandbox` (where it is
//! safe to let it), which shows the test would catch a sandbox that does nothing. The Safety
//! chapter of the guide lists them with what stops each.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod common;
use common::cli::{require, require_root};
use common::sandbox::root;

const SPEC: &str = "specs/small.yaml";
const PYTHON: &str = "/usr/bin/python3";

/// How gametrace is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// As root, with the namespaces this machine allows.
    Namespaces,
    /// As root, as in a container that refuses namespaces.
    Container,
    /// As an ordinary user (uid 65534, by `setpriv`), when the tests run as root.
    User,
}

/// The modes to try: both of root's when the tests run as root, and an ordinary user's. A
/// missing `setpriv` as root is a failure, as in `common::sandbox::modes`, not a mode left
/// out.
fn modes() -> Vec<Mode> {
    if root() {
        require("/usr/bin/setpriv");
        vec![Mode::Namespaces, Mode::Container, Mode::User]
    } else {
        vec![Mode::Namespaces]
    }
}

fn root_modes() -> Vec<Mode> {
    modes().into_iter().filter(|m| *m != Mode::User).collect()
}

/// `gametrace` as `mode` runs it.
fn gametrace(mode: Mode) -> Command {
    let me = env!("CARGO_BIN_EXE_gametrace");
    let mut cmd = match mode {
        Mode::User => {
            let mut c = Command::new("/usr/bin/setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                .arg(me)
                .env("HOME", "/tmp");
            c
        }
        _ => Command::new(me),
    };
    if mode == Mode::Container {
        cmd.env("GAMETRACE_SANDBOX", "container");
    }
    cmd
}

/// A course folder every user may read: the spec (the S12 handout's small tree), its expected
/// traces, a grades folder, and the student's folder.
struct Course {
    dir: tempfile::TempDir,
}

impl Course {
    fn new() -> Course {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in ["specs", "expected/small", "grades", "student"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
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
        std::fs::write(root.join("grades/gradebook.csv"), "student,score\n").unwrap();
        for d in [
            "",
            "specs",
            "expected",
            "expected/small",
            "grades",
            "student",
        ] {
            std::fs::set_permissions(root.join(d), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Course { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Writes the student's program (executable); returns its path relative to the course.
    fn program(&self, name: &str, text: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root().join("student").join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        format!("student/{name}")
    }

    /// `gametrace check` of the alpha-beta case against `cmd`, from the course folder:
    /// (the verdict word, the case's details, the whole report).
    fn check(&self, mode: Mode, cmd: &str, extra: &[&str]) -> (String, String, String) {
        let out = gametrace(mode)
            .current_dir(self.root())
            .args(["check", SPEC, "--case", "alphabeta", "--format", "json"])
            .args(["--timeout", "60"])
            .args(extra)
            .arg("--cmd")
            .arg(cmd)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        let json: serde_json::Value = serde_json::from_str(&report).unwrap_or_else(|e| {
            panic!(
                "{mode:?} `{cmd}`: {e}: {report}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let case = &json["cases"][0];
        let status = case["status"].as_str().unwrap().to_uppercase();
        let details = format!(
            "{}\n{}",
            case["message"].as_str().unwrap_or(""),
            case["details"].as_str().unwrap_or("")
        );
        (status.replace('_', "-"), details, report)
    }
}

/// Attack 1: A shebang with `..` (`#!/usr/../bin/sh`): its interpreter's installation was `/usr/..`,
/// which is `/`, and a read rule for `/` let the script read the expected trace and PASS.
/// Resolved first, the interpreter is the system's `sh` and brings nothing else.
#[test]
fn a_shebang_through_dot_dot_reads_nothing_outside() {
    let c = Course::new();
    let answer = c.root().join("expected/small/alphabeta.trace");
    let run = c.program(
        "run",
        &format!("#!/usr/../bin/sh\ncat {}\n", answer.display()),
    );
    let cmd = format!("./{run}");
    for mode in modes() {
        let (status, details, _) = c.check(mode, &cmd, &[]);
        assert_eq!(status, "CRASHED", "{mode:?}: {details}");
        assert!(details.contains("ermission denied"), "{mode:?}: {details}");
    }
    assert_eq!(c.check(Mode::Namespaces, &cmd, &["--no-sandbox"]).0, "PASS");
    // `--sandbox-read` of the root, however it is written, is refused outright.
    let out = gametrace(Mode::Namespaces)
        .current_dir(c.root())
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--sandbox-read",
            "/usr/..",
        ])
        .args(["--cmd", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("whole disk"));
}

/// The same script as a classmate's copier under `grade --against ./run`: it reads the
/// classmate's output (`../alice/out.txt`) through the `..` shebang, and must not.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_shebang_through_dot_dot_does_not_reach_a_classmate_in_grade() {
    use std::os::unix::fs::PermissionsExt;
    require_root();
    let c = Course::new();
    let class = c.root().join("class");
    for who in ["alice", "mallory"] {
        std::fs::create_dir_all(class.join(who)).unwrap();
        std::fs::set_permissions(class.join(who), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(&class, std::fs::Permissions::from_mode(0o755)).unwrap();
    let trace = std::fs::read_to_string(c.root().join("expected/small/alphabeta.trace")).unwrap();
    std::fs::write(class.join("alice/out.txt"), &trace).unwrap();
    let alice = class.join("alice/run");
    std::fs::write(&alice, "#!/bin/sh\ncat out.txt\n").unwrap();
    std::fs::set_permissions(&alice, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mallory = class.join("mallory/run");
    std::fs::write(
        &mallory,
        format!(
            "#!/usr/../bin/sh\ncat {}\n",
            class.join("alice/out.txt").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&mallory, std::fs::Permissions::from_mode(0o755)).unwrap();
    for mode in root_modes() {
        let out_dir = c.root().join(format!("grades/{mode:?}"));
        let out = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
            .args(["--against", "./run"])
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        let book = std::fs::read_to_string(out_dir.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let row = |who: &str| {
            book.lines()
                .find(|l| l.starts_with(who))
                .unwrap_or_else(|| panic!("{book}"))
                .to_owned()
        };
        assert!(row("alice").starts_with("alice,1,1"), "{mode:?}: {book}");
        assert!(
            row("mallory").starts_with("mallory,0,1"),
            "{mode:?}: {book}"
        );
    }
}

/// Attack 2: Root's program was root outside for every root-owned file (its user namespace mapped
/// it to uid 0): it read `/etc/shadow`, made a set-uid-root copy of `id`, made the running
/// gametrace unreadable, set extended attributes. Now it is a uid of its own, unprivileged
/// everywhere: each fails (a set-uid bit on its own copy is harmless: the copy is its own).
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn root_owned_files_are_not_the_programs() {
    require_root();
    let c = Course::new();
    let me = std::fs::canonicalize(env!("CARGO_BIN_EXE_gametrace")).unwrap();
    let mode_before = std::fs::metadata(&me).unwrap().permissions();
    let probe = c.program(
        "root.sh",
        &format!(
            r#"{{
cat /etc/shadow >/dev/null 2>&1 && echo "shadow: read" || echo "shadow: denied"
cp /usr/bin/id "$HOME/id" && chmod 4755 "$HOME/id"
echo "copy owner: $(stat -c %u "$HOME/id")"
chown 0 "$HOME/id" 2>/dev/null && echo "chown: done" || echo "chown: denied"
chmod 000 {me} 2>/dev/null && echo "chmod gametrace: done" || echo "chmod gametrace: denied"
{PYTHON} -c 'import os; os.setxattr("/etc/hostname", "user.x", b"1")' 2>/dev/null && echo "xattr: set" || echo "xattr: denied"
}} >&2
exit 1
"#,
            me = me.display()
        ),
    );
    let cmd = format!("sh {probe}");
    for mode in root_modes() {
        let (_, details, _) = c.check(mode, &cmd, &[]);
        assert!(details.contains("shadow: denied"), "{mode:?}: {details}");
        assert!(!details.contains("copy owner: 0\n"), "{mode:?}: {details}");
        assert!(details.contains("chown: denied"), "{mode:?}: {details}");
        assert!(
            details.contains("chmod gametrace: denied"),
            "{mode:?}: {details}"
        );
        assert!(details.contains("xattr: denied"), "{mode:?}: {details}");
        assert_eq!(std::fs::metadata(&me).unwrap().permissions(), mode_before);
    }
}

/// Host root's SysV shared memory (mode 0600): the program read and overwrote it. With an
/// IPC namespace it is not there; without one, SysV IPC is refused. Without the sandbox the
/// same program reads it.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn host_sysv_shared_memory_is_out_of_reach() {
    require_root();
    let key = 0x4754_0000 + (std::process::id() & 0xffff) as i32;
    // SAFETY: SysV calls on a segment this test makes and removes.
    let id = unsafe { libc::shmget(key, 4096, libc::IPC_CREAT | 0o600) };
    assert!(id >= 0);
    // SAFETY: the segment is 4096 bytes, attached for writing.
    unsafe {
        let at = libc::shmat(id, std::ptr::null(), 0);
        std::ptr::copy_nonoverlapping(b"s3cret".as_ptr(), at.cast::<u8>(), 6);
        libc::shmdt(at);
    }
    let c = Course::new();
    let probe = c.program(
        "shm.py",
        &format!(
            r#"import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
i = libc.shmget({key}, 0, 0)
if i < 0:
    print("shm: errno", ctypes.get_errno(), file=sys.stderr); sys.exit(1)
p = libc.shmat(i, None, 0)
if p in (None, ctypes.c_void_p(-1).value):
    print("shm: attach errno", ctypes.get_errno(), file=sys.stderr); sys.exit(1)
print("shm:", ctypes.string_at(p, 6).decode(), file=sys.stderr); sys.exit(1)
"#
        ),
    );
    let cmd = format!("{PYTHON} {probe}");
    let results: Vec<(Mode, String)> = root_modes()
        .into_iter()
        .map(|m| (m, c.check(m, &cmd, &[]).1))
        .chain([(
            Mode::Namespaces,
            c.check(Mode::Namespaces, &cmd, &["--no-sandbox"]).1,
        )])
        .collect();
    // SAFETY: removing the segment this test made.
    unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
    let (free, boxed) = results.split_last().unwrap();
    assert!(free.1.contains("shm: s3cret"), "{}", free.1);
    for (mode, details) in boxed {
        assert!(!details.contains("s3cret"), "{mode:?}: {details}");
        assert!(details.contains("shm: "), "{mode:?}: {details}");
    }
}

/// Attack 3: gametrace's own root code never follows a student's link: a program that swaps a
/// folder of its temp folder with a link to a folder of the host's (`renameat2` with
/// RENAME_EXCHANGE, as fast as it can) while gametrace measures its disk use, never gets
/// that host folder's mode or contents changed.
#[test]
fn measuring_the_disk_never_follows_a_swapped_link() {
    use std::os::unix::fs::PermissionsExt;
    let victim = tempfile::tempdir().unwrap();
    std::fs::set_permissions(victim.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(victim.path().join("keep"), "keep").unwrap();
    let c = Course::new();
    let swap = c.program(
        "swap.py",
        &format!(
            r#"import ctypes, os, time, sys
libc = ctypes.CDLL(None, use_errno=True)
home = os.environ["TMPDIR"]
d = os.path.join(home, "d"); l = os.path.join(home, "l")
os.mkdir(d)
os.chmod(d, 0)
os.symlink({victim:?}, l)
end = time.time() + 2.5
n = 0
while time.time() < end:
    libc.syscall(316, -100, d.encode(), -100, l.encode(), 2)
    n += 1
print("swaps:", n, file=sys.stderr)
sys.exit(1)
"#,
            victim = victim.path().display().to_string()
        ),
    );
    let cmd = format!("{PYTHON} {swap}");
    for mode in modes() {
        let (_, details, _) = c.check(mode, &cmd, &[]);
        assert!(details.contains("swaps:"), "{mode:?}: {details}");
        let m = std::fs::metadata(victim.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(m & 0o777, 0o755, "{mode:?}: the host folder's mode changed");
        assert_eq!(
            std::fs::read_to_string(victim.path().join("keep")).unwrap(),
            "keep"
        );
    }
}

/// A course folder whose library is an absolute link (`lib -> /somewhere`), and a
/// submission that brings `lib/planted.sml`: staging wrote the file through the link, as
/// root, outside. The link is replaced in the copy, never written through.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn staging_never_writes_through_a_course_folders_link() {
    require_root();
    let c = Course::new();
    let outside = tempfile::tempdir().unwrap();
    let course = c.root().join("course");
    std::fs::create_dir_all(&course).unwrap();
    std::os::unix::fs::symlink(outside.path(), course.join("lib")).unwrap();
    std::fs::write(course.join("run"), "#!/bin/sh\nexit 1\n").unwrap();
    let class = c.root().join("class");
    std::fs::create_dir_all(class.join("eve/lib")).unwrap();
    std::fs::write(class.join("eve/lib/planted.sml"), "(* planted *)").unwrap();
    for mode in root_modes() {
        let out = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
            .args(["--against", "sh run"])
            .args(["--course-dir", "course", "--submission-into", "."])
            .arg("--out")
            .arg(c.root().join(format!("grades/{mode:?}")))
            .output()
            .unwrap();
        assert!(
            std::fs::read_dir(outside.path()).unwrap().next().is_none(),
            "{mode:?}: a file was planted outside: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Attack 4: Staging before the sandbox: a FIFO in a submission hung `grade` for ever; a sparse
/// 2 GiB file was written out in full; a device node was an ERROR counted under "full
/// marks"; an empty folder was graded on the course folder's own files. Now each is refused before anything is copied, with its verdict and every case's
/// points lost, and the rest of the class is graded.
#[test]
fn staging_refuses_fifos_sparse_files_and_devices() {
    use std::os::unix::fs::PermissionsExt;
    let c = Course::new();
    let course = c.root().join("course");
    std::fs::create_dir_all(&course).unwrap();
    let trace = std::fs::read_to_string(c.root().join("expected/small/alphabeta.trace")).unwrap();
    std::fs::write(course.join("answer.txt"), &trace).unwrap();
    let class = c.root().join("class");
    for who in ["alice", "bob", "carol", "dave"] {
        std::fs::create_dir_all(class.join(who)).unwrap();
        std::fs::write(class.join(who).join("notes.txt"), who).unwrap();
    }
    // erin hands in an empty folder: staged over the course folder, the course's own
    // answer.txt would be graded as hers (full marks for nothing).
    std::fs::create_dir_all(class.join("erin/empty")).unwrap();
    assert!(mknod(&class.join("bob/pipe"), libc::S_IFIFO | 0o644, 0));
    std::fs::File::create(class.join("carol/big"))
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let device = root()
        && mknod(
            &class.join("dave/null"),
            libc::S_IFCHR | 0o666,
            libc::makedev(1, 3),
        );
    for entry in walk(c.root()) {
        let mode = if entry.is_dir() { 0o755 } else { 0o644 };
        let _ = std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(mode));
    }
    for mode in modes() {
        let out_dir =
            std::env::temp_dir().join(format!("gametrace-attack-{}-{mode:?}", std::process::id()));
        std::fs::create_dir_all(&out_dir).unwrap();
        std::fs::set_permissions(&out_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let out = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
            .args(["--against", "cat answer.txt"])
            .args(["--course-dir", "course", "--submission-into", "."])
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        let book = std::fs::read_to_string(out_dir.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let row = |who: &str| {
            book.lines()
                .find(|l| l.starts_with(who))
                .unwrap()
                .to_owned()
        };
        assert!(row("alice").starts_with("alice,1,1,"), "{mode:?}: {book}");
        assert!(row("bob").contains("REFUSED"), "{mode:?}: {book}");
        assert!(row("bob").starts_with("bob,0,1,"), "{mode:?}: {book}");
        assert!(row("carol").contains("DISK-LIMIT"), "{mode:?}: {book}");
        if device {
            assert!(row("dave").contains("REFUSED"), "{mode:?}: {book}");
        }
        assert!(row("erin").starts_with("erin,0,1,"), "{mode:?}: {book}");
        assert!(row("erin").contains("NOT-FOUND"), "{mode:?}: {book}");
        let summary = String::from_utf8_lossy(&out.stdout);
        assert!(summary.contains("full marks 1 of 5"), "{mode:?}: {summary}");
        let _ = std::fs::remove_dir_all(&out_dir);
    }
}

fn mknod(path: &Path, mode: libc::mode_t, dev: libc::dev_t) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a plain system call with a valid C string.
    unsafe { libc::mknod(c.as_ptr(), mode, dev) == 0 }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_owned()];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let t = e.file_type().unwrap();
        if t.is_dir() {
            out.extend(walk(&e.path()));
        } else if t.is_file() {
            out.push(e.path());
        }
    }
    out
}

/// Attack 5: The quota was polled: `fallocate` of 80 × 60 MB put 4.8 GB on disk in under 10 ms
/// before DISK-LIMIT came. Now the temp folder is a tmpfs of the quota's size where a mount
/// namespace exists, and `fallocate` is refused everywhere (the C library then writes, which
/// the quota sees): DISK-LIMIT, with nothing near 4.8 GB ever taken.
#[test]
fn fallocate_cannot_take_disk_past_the_quota() {
    let c = Course::new();
    let fill = c.program(
        "fill.py",
        r#"import os
home = os.environ["TMPDIR"]
for i in range(80):
    fd = os.open(os.path.join(home, "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o600)
    os.posix_fallocate(fd, 0, 60 * 1000 * 1000)
    os.close(fd)
print(open("/dev/null").read())
"#,
    );
    let cmd = format!("{PYTHON} {fill}");
    let free_before = free_tmp();
    for mode in modes() {
        let (status, details, _) = c.check(mode, &cmd, &["--disk-limit", "64M"]);
        assert_eq!(status, "DISK-LIMIT", "{mode:?}: {details}");
    }
    // Nothing near 4.8 GB was ever left taken.
    assert!(free_tmp() + (512 << 20) > free_before);
}

fn free_tmp() -> u64 {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::ffi::CString::new(std::env::temp_dir().as_os_str().as_bytes()).unwrap();
    // SAFETY: statvfs into a local struct.
    unsafe {
        let mut s: libc::statvfs = std::mem::zeroed();
        assert_eq!(libc::statvfs(dir.as_ptr(), &mut s), 0);
        s.f_bavail * s.f_frsize
    }
}

/// Attack 6: What was left open: the grader's session keyring, SysV objects that outlived the run
/// (a 200 MiB segment made the next student's run fail), and the host's processes in
/// container mode's `/proc`.
#[test]
fn keyrings_and_host_processes_are_out_of_reach() {
    let c = Course::new();
    let probe = c.program(
        "left.py",
        r#"import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def say(*a): print(*a, file=sys.stderr)
# keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0)
r = libc.syscall(250, 0, -3, 0)
say("keyring:", "ok" if r >= 0 else "errno %d" % ctypes.get_errno())
r = libc.syscall(248, b"user", b"gametrace-test", b"x", 1, -3)
say("add_key:", "ok" if r >= 0 else "errno %d" % ctypes.get_errno())
try:
    say("init cmdline:", len(open("/proc/1/cmdline", "rb").read()))
except OSError as e:
    say("init cmdline: denied")
try:
    say("processes:", len([p for p in os.listdir("/proc") if p.isdigit()]))
except OSError:
    say("processes: denied")
sys.exit(1)
"#,
    );
    let cmd = format!("{PYTHON} {probe}");
    let (_, free, _) = c.check(Mode::Namespaces, &cmd, &["--no-sandbox"]);
    assert!(free.contains("keyring: ok"), "{free}");
    for mode in modes() {
        let (_, details, _) = c.check(mode, &cmd, &[]);
        assert!(details.contains("keyring: errno 38"), "{mode:?}: {details}");
        assert!(details.contains("add_key: errno 38"), "{mode:?}: {details}");
        match mode {
            Mode::Container => {
                assert!(details.contains("init cmdline: denied"), "{details}");
                assert!(details.contains("processes: denied"), "{details}");
            }
            _ => {
                // Its own /proc: its init and itself, nothing of the host's.
                let n: usize = details
                    .split("processes: ")
                    .nth(1)
                    .and_then(|r| r.split_whitespace().next()?.parse().ok())
                    .unwrap_or(usize::MAX);
                assert!(n <= 4, "{mode:?}: {details}");
            }
        }
    }
}

/// A SysV segment made and left by one run is gone before the next (it died with the IPC
/// namespace) or was never made (refused without one); without the sandbox it stays.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_sysv_segment_does_not_outlive_its_run() {
    require_root();
    let c = Course::new();
    let key = 0x4755_0000 + (std::process::id() & 0xffff) as i32;
    let leave = c.program(
        "leave.py",
        &format!(
            r#"import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
i = libc.shmget({key}, 200 << 20, 0o1666)
print("made:", i, ctypes.get_errno(), file=sys.stderr)
sys.exit(1)
"#
        ),
    );
    let cmd = format!("{PYTHON} {leave}");
    let there = || {
        std::fs::read_to_string("/proc/sysvipc/shm")
            .unwrap()
            .lines()
            .any(|l| l.split_whitespace().next() == Some(&key.to_string()))
    };
    for mode in root_modes() {
        c.check(mode, &cmd, &[]);
        assert!(!there(), "{mode:?}: the segment outlived the run");
    }
    c.check(Mode::Namespaces, &cmd, &["--no-sandbox"]);
    let left = there();
    // SAFETY: removing the segment the unsandboxed run left.
    unsafe {
        let id = libc::shmget(key, 0, 0);
        if id >= 0 {
            libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
        }
    }
    assert!(left, "without the sandbox the segment stays");
}

/// A daemon that leaves its group and rewrites its environment (so no marker finds it) is
/// killed when the run ends, and the report says how many such processes were killed; no
/// process of the sandbox's uids is left.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_daemon_that_sheds_its_marks_is_killed_and_counted() {
    require_root();
    let c = Course::new();
    let daemon = c.program(
        "daemon.sh",
        "setsid sh -c 'exec env -i sleep 6061 & exec env -i sleep 6062 &' </dev/null >/dev/null 2>&1\nsleep 0.3\nexit 1\n",
    );
    let cmd = format!("sh {daemon}");
    for mode in root_modes() {
        let (_, details, _) = c.check(mode, &cmd, &[]);
        assert!(
            details.contains("processes the program left running"),
            "{mode:?}: {details}"
        );
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            running("sleep 606"),
            0,
            "{mode:?}: the daemons were left running"
        );
    }
}

/// Processes (not zombies) whose command line holds `text`.
fn running(text: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let status = std::fs::read_to_string(e.path().join("status")).unwrap_or_default();
            let zombie = status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'));
            !zombie
                && String::from_utf8_lossy(&cmdline)
                    .replace('\0', " ")
                    .contains(text)
        })
        .count()
}

/// A copy of gametrace run with a preloaded library that answers the sandbox's mark the
/// way the outside would (`getpriority` replaced): the mark is asked of the kernel directly,
/// so the copy still refuses.
#[test]
#[cfg_attr(
    not(gametrace_cc),
    ignore = "needs a C compiler (cc) to build the shim"
)]
fn a_preloaded_library_cannot_fake_the_sandboxs_mark() {
    let cc = require("cc");
    let c = Course::new();
    let student = c.root().join("student");
    let shim_c = student.join("shim.c");
    std::fs::write(
        &shim_c,
        "#include <errno.h>\nint getpriority(int which, unsigned id) { (void)id; errno = 22; return -1; }\n",
    )
    .unwrap();
    let built = Command::new(cc)
        .args(["-shared", "-fPIC", "-o"])
        .arg(student.join("shim.so"))
        .arg(&shim_c)
        .status()
        .unwrap();
    assert!(built.success());
    std::fs::copy(env!("CARGO_BIN_EXE_gametrace"), student.join("gt")).unwrap();
    std::fs::copy(c.root().join(SPEC), student.join("tree.yaml")).unwrap();
    let copy = c.program(
        "copy.sh",
        "here=$(dirname \"$0\")\nLD_PRELOAD=\"$here/shim.so\" exec \"$here/gt\" run \"$here/tree.yaml\" --case alphabeta\n",
    );
    let cmd = format!("sh {copy}");
    for mode in modes() {
        let (status, details, _) = c.check(mode, &cmd, &[]);
        assert_eq!(status, "CRASHED", "{mode:?}: {details}");
        assert!(
            details.contains("will not run inside its own sandbox"),
            "{mode:?}: {details}"
        );
    }
    assert_eq!(c.check(Mode::Namespaces, &cmd, &["--no-sandbox"]).0, "PASS");
}

/// Attack 7: Labels: a loop that ignores SIGXCPU is CPU-LIMIT in both modes (it was CRASHED "signal
/// 9" without a PID namespace); a memory bomb whose allocation the kernel refuses is
/// MEMORY-LIMIT, not CRASHED.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn cpu_and_memory_limits_have_their_words_in_both_modes() {
    require_root();
    let c = Course::new();
    let spin = c.program(
        "spin.py",
        "import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass\n",
    );
    let bomb = c.program(
        "bomb.py",
        "import ctypes\nlibc = ctypes.CDLL(None)\nlibc.malloc.restype = ctypes.c_void_p\nlibc.malloc.argtypes = [ctypes.c_size_t]\nn = 6 << 30\nctypes.memset(libc.malloc(n), 1, n)\n",
    );
    for mode in root_modes() {
        let (status, details, _) =
            c.check(mode, &format!("{PYTHON} {spin}"), &["--cpu-limit", "1"]);
        assert_eq!(status, "CPU-LIMIT", "{mode:?}: {details}");
        let (status, details, _) = c.check(
            mode,
            &format!("{PYTHON} {bomb}"),
            &["--memory-limit", "256M"],
        );
        assert_eq!(status, "MEMORY-LIMIT", "{mode:?}: {details}");
    }
}

/// `doctor` tells the truth about an Internet socket (it is refused with "Network is
/// unreachable", not killed) and says which uid student code runs as.
#[test]
fn doctor_says_how_sockets_are_refused_and_who_runs_student_code() {
    let out = gametrace(Mode::Namespaces).arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Network is unreachable"), "{text}");
    assert!(!text.contains("kills the program"), "{text}");
    if root() {
        assert!(text.contains("60100-61099"), "{text}");
    }
}

/// A submission folder's name is the student's to choose: escape sequences in it never
/// reach the grader's terminal raw, and a name that a spreadsheet would run as a formula is
/// text in the gradebook.
#[test]
fn a_folder_name_cannot_reach_the_terminal_or_the_spreadsheet() {
    let c = Course::new();
    let class = c.root().join("class");
    let evil = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J";
    let formula = "=HYPERLINK(\"http://x\";\"y\")";
    for who in [evil, formula] {
        std::fs::create_dir_all(class.join(who)).unwrap();
    }
    let out = gametrace(Mode::Namespaces)
        .current_dir(c.root())
        .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
        .args(["--against", "false"])
        .arg("--out")
        .arg(c.root().join("grades/names"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(stderr.contains("\\e]0;pwned"), "{stderr:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
    let summary = std::fs::read_to_string(c.root().join("grades/names/summary.txt")).unwrap();
    assert!(!summary.contains('\u{1b}'), "{summary:?}");
    let book = std::fs::read_to_string(c.root().join("grades/names/gradebook.csv")).unwrap();
    assert!(book.contains("'=HYPERLINK"), "{book}");
    assert!(!book.contains('\u{1b}'), "{book:?}");
    assert!(!book.lines().any(|l| l.starts_with('=')), "{book}");
}

/// The working folder is readable, as the guide says: `check --cmd 'java Honest'` run where
/// `Honest.class` is passes (it was CRASHED: the folder was not in the readable set).
#[test]
#[cfg_attr(
    not(gametrace_javac),
    ignore = "needs a JDK (javac): apt-get install default-jdk-headless"
)]
fn a_java_program_in_the_working_folder_runs() {
    require("javac");
    let c = Course::new();
    let trace = std::fs::read_to_string(c.root().join("expected/small/alphabeta.trace")).unwrap();
    let source = format!(
        "public class Honest {{ public static void main(String[] a) {{ System.out.print({:?}); }} }}\n",
        trace
    );
    let student = c.root().join("student");
    std::fs::write(student.join("Honest.java"), source).unwrap();
    let built = Command::new("javac")
        .arg("Honest.java")
        .current_dir(&student)
        .status()
        .unwrap();
    assert!(built.success());
    for mode in modes() {
        let out = gametrace(mode)
            .current_dir(&student)
            .args(["check", "../specs/small.yaml", "--case", "alphabeta"])
            .args(["--timeout", "60", "--cmd", "java Honest"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{mode:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Honest programs still pass in every mode: Python, SML, Java and shell under `check`;
/// Python under `test --against`, `grade` (with and without a course folder) and
/// `check-game`. Run from the checkout, as the guide's recipes are.
#[test]
#[cfg_attr(
    not(all(gametrace_sml, gametrace_javac)),
    ignore = "needs SML/NJ (sml) and a JDK (javac): apt-get install smlnj default-jdk-headless"
)]
fn honest_programs_pass_in_every_mode() {
    use std::os::unix::fs::PermissionsExt;
    require("sml");
    require("javac");
    let work = tempfile::tempdir().unwrap();
    std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let trace =
        std::fs::read_to_string("expected/15150-s12/handout-small/alphabeta.trace").unwrap();
    std::fs::write(work.path().join("trace.txt"), &trace).unwrap();
    let source = format!(
        "public class Honest {{ public static void main(String[] a) {{ System.out.print({trace:?}); }} }}\n"
    );
    std::fs::write(work.path().join("Honest.java"), source).unwrap();
    assert!(Command::new("javac")
        .arg("Honest.java")
        .current_dir(work.path())
        .status()
        .unwrap()
        .success());
    // A class of one, and a course folder whose script runs the submission's file (the
    // commands run where the submission's files go in the copy: `sub`).
    let class = work.path().join("class/alice");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(
        "tests/fixtures/python/alphabeta_s12.py",
        class.join("ab.py"),
    )
    .unwrap();
    let course = work.path().join("course");
    std::fs::create_dir_all(course.join("sub")).unwrap();
    std::fs::write(
        course.join("run.sh"),
        format!("exec {PYTHON} ab.py \"$1\"\n"),
    )
    .unwrap();
    for p in walk(work.path()) {
        let mode = if p.is_dir() { 0o777 } else { 0o644 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let s12 = "specs/15150-s12/handout-small.yaml";
    let py = format!("{PYTHON} tests/fixtures/python/alphabeta_s12.py {{tree_json}}");
    // A checkout every user may reach. CI's clone is not (it lies in a `mktemp -d` folder,
    // 0700): with namespaces the folders on the way are bound back for the program's uid;
    // in a container, which has none, the runs from the checkout must say how to open it.
    let checkout_open = std::env::current_dir()
        .unwrap()
        .ancestors()
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
    for mode in modes() {
        if mode == Mode::User && !checkout_open {
            // An ordinary user with a checkout it cannot reach: not a user's setting.
            continue;
        }
        let closed = mode == Mode::Container && !checkout_open;
        let from_checkout = |what: &str, out: &std::process::Output| {
            let said = String::from_utf8_lossy(&out.stdout);
            if closed {
                assert!(
                    said.contains("make it readable by every user"),
                    "{mode:?} {what}: {said}"
                );
            } else {
                assert!(
                    out.status.success(),
                    "{mode:?} {what}: {said}{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        };
        let check = |spec: &str, cmd: &str, dir: Option<&Path>| {
            let mut c = gametrace(mode);
            if let Some(d) = dir {
                c.current_dir(d);
            }
            let out = c
                .args([
                    "check",
                    spec,
                    "--case",
                    "alphabeta",
                    "--timeout",
                    "120",
                    "--cmd",
                    cmd,
                ])
                .output()
                .unwrap();
            if dir.is_none() {
                from_checkout(cmd, &out);
                return;
            }
            assert!(
                out.status.success(),
                "{mode:?} `{cmd}`: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        };
        check(s12, &py, None);
        let spec = std::fs::canonicalize(s12).unwrap();
        let spec = spec.to_str().unwrap();
        check(spec, "sh -c 'cat trace.txt'", Some(work.path()));
        check(spec, "java Honest", Some(work.path()));
        check(
            "specs/15150-s14/handout-small.yaml",
            "sml tests/fixtures/sml/alphabeta.sml tests/fixtures/sml/small.sml",
            None,
        );
        let out = gametrace(mode)
            .args(["test", s12, "--case", "alphabeta", "--against", &py])
            .output()
            .unwrap();
        from_checkout("test --against", &out);
        for (name, extra) in [
            (
                "plain",
                vec!["--against", "/usr/bin/python3 ab.py {tree_json}"],
            ),
            (
                "course",
                vec![
                    "--against",
                    "sh ../run.sh {tree_json}",
                    "--course-dir",
                    course.to_str().unwrap(),
                    "--submission-into",
                    "sub",
                ],
            ),
        ] {
            let out_dir = work.path().join(format!("grades-{mode:?}-{name}"));
            let out = gametrace(mode)
                .args(["grade", work.path().join("class").to_str().unwrap()])
                .args(["--specs", s12, "--case", "alphabeta"])
                .args(&extra)
                .arg("--out")
                .arg(&out_dir)
                .output()
                .unwrap();
            let book = std::fs::read_to_string(out_dir.join("gradebook.csv")).unwrap_or_default();
            assert!(
                book.lines().any(|l| l.starts_with("alice,1,1,")),
                "{mode:?} grade {name}: {book}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let out = gametrace(mode)
            .args(["check-game", "specs/csc148/subtract-square-rules.yaml", "--cmd"])
            .arg(format!(
                "{PYTHON} adapters/python/gametrace_game.py tests/fixtures/python/csc148/games/subtract_square/subtract_square_state.py SubtractSquareState"
            ))
            .output()
            .unwrap();
        from_checkout("check-game", &out);
    }
}

// What a red team found against the round above (each fixed, each a test).

/// A program that installs a seccomp filter of its own (`seccomp(2)` is not the sandbox's to
/// give: it could answer the mark's probe before the sandbox's filter does) and then runs a
/// copy of gametrace: the filter is refused, and the copy still refuses to run.
#[test]
#[cfg_attr(
    not(gametrace_cc),
    ignore = "needs a C compiler (cc) to build the shim"
)]
fn a_filter_of_the_programs_own_cannot_fake_the_mark() {
    let cc = require("cc");
    let c = Course::new();
    let student = c.root().join("student");
    let source = student.join("unmark.c");
    std::fs::write(
        &source,
        r#"#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/seccomp.h>
#include <linux/filter.h>
int main(int c, char **v) {
  struct sock_filter f[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpriority, 0, 3),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x47545342, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  struct sock_fprog p = {6, f};
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p) != 0) perror("seccomp");
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p) != 0) perror("prctl");
  execv(v[1], v + 1);
  return 1;
}
"#,
    )
    .unwrap();
    assert!(Command::new(cc)
        .args(["-O2", "-o"])
        .arg(student.join("unmark"))
        .arg(&source)
        .status()
        .unwrap()
        .success());
    std::fs::copy(env!("CARGO_BIN_EXE_gametrace"), student.join("gt")).unwrap();
    std::fs::copy(c.root().join(SPEC), student.join("tree.yaml")).unwrap();
    let cmd = "student/unmark student/gt run student/tree.yaml --case alphabeta";
    for mode in modes() {
        let (status, details, _) = c.check(mode, cmd, &[]);
        assert_eq!(status, "CRASHED", "{mode:?}: {details}");
        assert!(
            details.contains("will not run inside its own sandbox"),
            "{mode:?}: {details}"
        );
    }
    assert_eq!(c.check(Mode::Namespaces, cmd, &["--no-sandbox"]).0, "PASS");
}

/// A link in a submission named like a word of the grader's command (`small.sml -> a
/// folder outside`) brought that folder into the readable set. A link in the program's own
/// folders is never followed to grant anything.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_link_named_like_a_word_of_the_command_grants_nothing() {
    use std::os::unix::fs::PermissionsExt;
    require_root();
    let c = Course::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::set_permissions(outside.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::copy(
        c.root().join("expected/small/alphabeta.trace"),
        outside.path().join("secret.txt"),
    )
    .unwrap();
    let class = c.root().join("class");
    std::fs::create_dir_all(class.join("mallory")).unwrap();
    std::os::unix::fs::symlink(outside.path(), class.join("mallory/small.sml")).unwrap();
    for mode in root_modes() {
        for (sandbox, want) in [(true, "mallory,0,1,"), (false, "mallory,1,1,")] {
            let out_dir = c.root().join(format!("grades/{mode:?}-{sandbox}"));
            let mut cmd = gametrace(mode);
            cmd.current_dir(c.root())
                .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
                .args(["--against", "cat small.sml/secret.txt"])
                .arg("--out")
                .arg(&out_dir);
            if !sandbox {
                cmd.arg("--no-sandbox");
            }
            cmd.output().unwrap();
            let book = std::fs::read_to_string(out_dir.join("gradebook.csv")).unwrap();
            assert!(
                book.lines().any(|l| l.starts_with(want)),
                "{mode:?} sandbox={sandbox}: {book}"
            );
        }
    }
}

/// Run by an ordinary user, the program is that user: it could `chmod`, `utime` or set
/// extended attributes on the user's own files (a class folder made unreadable, a set-uid bit
/// on the teacher's interpreter), which Landlock does not cover. In its mount namespace every
/// mount but its temp folder is read-only.
#[test]
#[cfg_attr(
    not(all(gametrace_root, gametrace_setpriv)),
    ignore = "needs root and /usr/bin/setpriv: runs gametrace as an ordinary user"
)]
fn an_ordinary_users_files_keep_their_modes() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    require_root();
    require("/usr/bin/setpriv");
    let c = Course::new();
    let teachers = c.root().join("student/tool");
    std::fs::write(&teachers, "#!/bin/sh\n").unwrap();
    // The teacher is uid 65534 here: their files are theirs.
    for p in walk(c.root()) {
        std::os::unix::fs::lchown(&p, Some(65534), Some(65534)).unwrap();
    }
    std::fs::set_permissions(&teachers, std::fs::Permissions::from_mode(0o755)).unwrap();
    let probe = c.program(
        "modes.py",
        &format!(
            r#"import os, sys
for what, f in [("chmod", lambda: os.chmod({t:?}, 0o4755)),
                ("utime", lambda: os.utime({t:?}, (0, 0))),
                ("xattr", lambda: os.setxattr({t:?}, "user.x", b"1"))]:
    try:
        f(); print(what + ": done", file=sys.stderr)
    except OSError as e:
        print(what + ": refused", e.strerror, file=sys.stderr)
sys.exit(1)
"#,
            t = teachers.display().to_string()
        ),
    );
    std::os::unix::fs::lchown(c.root().join(&probe), Some(65534), Some(65534)).unwrap();
    let (_, details, _) = c.check(Mode::User, &format!("{PYTHON} {probe}"), &[]);
    for what in ["chmod", "utime", "xattr"] {
        assert!(details.contains(&format!("{what}: refused")), "{details}");
    }
    let m = std::fs::metadata(&teachers).unwrap();
    assert_eq!(m.mode() & 0o7777, 0o755);
    assert_ne!(m.mtime(), 0);
}

/// The disk quota where it is measured (a container's temp folder, a staged course folder):
/// files deleted but held open take their space, and a tree deeper than the walk goes could
/// hide files. Both are DISK-LIMIT.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn deleted_open_files_and_deep_trees_count_against_the_quota() {
    require_root();
    let c = Course::new();
    let held = c.program(
        "held.py",
        r#"import os, time
home = os.environ["TMPDIR"]
fds = []
for i in range(12):
    p = os.path.join(home, "f%d" % i)
    fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o600)
    os.unlink(p)
    os.write(fd, b"x" * (8 << 20))
    fds.append(fd)
time.sleep(2)
"#,
    );
    let deep = c.program(
        "deep.py",
        r#"import os, time
os.chdir(os.environ["TMPDIR"])
for i in range(300):
    os.mkdir("d"); os.chdir("d")
with open("big", "wb") as f:
    f.write(b"x" * (40 << 20))
time.sleep(2)
"#,
    );
    for mode in [Mode::Container] {
        for prog in [&held, &deep] {
            let (status, details, _) =
                c.check(mode, &format!("{PYTHON} {prog}"), &["--disk-limit", "32M"]);
            assert_eq!(status, "DISK-LIMIT", "{mode:?} {prog}: {details}");
        }
    }
}

/// A FIFO as the command's program (`./run`), in the submission or made by the program in its
/// staged course folder for the next case: gametrace, as root, waited for ever to read its
/// first line. It never opens a program file but to read it, and never waits to.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_fifo_as_the_program_never_holds_gametrace() {
    use std::os::unix::fs::PermissionsExt;
    require_root();
    let c = Course::new();
    let class = c.root().join("class");
    std::fs::create_dir_all(class.join("fifo")).unwrap();
    assert!(mknod(&class.join("fifo/run"), libc::S_IFIFO | 0o777, 0));
    std::fs::create_dir_all(class.join("swap")).unwrap();
    std::fs::write(
        class.join("swap/run"),
        "#!/bin/sh\nrm -f run; mkfifo -m 777 run; exit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(
        class.join("swap/run"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let course = c.root().join("course");
    std::fs::create_dir_all(&course).unwrap();
    for mode in root_modes() {
        for staged in [false, true] {
            let out_dir = c.root().join(format!("grades/{mode:?}-{staged}"));
            let mut cmd = gametrace(mode);
            cmd.current_dir(c.root())
                .args(["grade", "class", "--specs", SPEC])
                .args([
                    "--case",
                    "alphabeta",
                    "--case",
                    "minimax",
                    "--against",
                    "./run",
                ])
                .arg("--out")
                .arg(&out_dir);
            if staged {
                cmd.args(["--course-dir", "course", "--submission-into", "."]);
            }
            let mut child = cmd
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut done = false;
            for _ in 0..600 {
                if child.try_wait().unwrap().is_some() {
                    done = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            if !done {
                let _ = child.kill();
            }
            assert!(done, "{mode:?} staged={staged}: grade hung on a FIFO");
        }
    }
}

/// A verdict on a limit rests on the kernel's evidence: a program that prints a runtime's
/// words ("MemoryError", "can't start new thread") or signals itself (SIGXCPU, SIGSYS) is
/// CRASHED, not MEMORY-LIMIT, PROCESS-LIMIT, CPU-LIMIT or NETWORK.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_program_cannot_claim_a_limit_it_did_not_hit() {
    require_root();
    let c = Course::new();
    for (name, text) in [
        ("mem", "import sys\nprint('MemoryError', file=sys.stderr)\nsys.exit(1)\n"),
        (
            "thr",
            "import sys\nprint(\"RuntimeError: can't start new thread\", file=sys.stderr)\nsys.exit(1)\n",
        ),
        ("xcpu", "import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)\n"),
        ("sys", "import os, signal\nos.kill(os.getpid(), signal.SIGSYS)\n"),
    ] {
        let prog = c.program(&format!("{name}.py"), text);
        for mode in root_modes() {
            let (status, details, _) = c.check(mode, &format!("{PYTHON} {prog}"), &[]);
            assert_eq!(status, "CRASHED", "{mode:?} {name}: {details}");
        }
    }
}

/// Without a network namespace (a container), an abstract Unix socket's name is the host's:
/// a program could take a service's name before it starts. Naming a socket is refused there;
/// with its own network namespace, the name is the namespace's.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn an_abstract_socket_name_is_not_the_hosts() {
    require_root();
    let c = Course::new();
    let name = format!("gametrace-test-{}", std::process::id());
    let prog = c.program(
        "abs.py",
        &format!(
            r#"import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.bind("\0{name}"); s.listen(1); print("bound", file=sys.stderr)
except OSError as e:
    print("refused", e.strerror, file=sys.stderr)
sys.exit(1)
"#
        ),
    );
    let (_, details, _) = c.check(Mode::Container, &format!("{PYTHON} {prog}"), &[]);
    assert!(details.contains("refused"), "{details}");
    let (_, details, _) = c.check(Mode::Namespaces, &format!("{PYTHON} {prog}"), &[]);
    assert!(details.contains("bound"), "{details}");
}

/// The namespace's init is a copy of gametrace: its command line (the grader's, with the
/// specs' paths) is blanked before the program starts.
#[test]
fn the_graders_command_line_is_not_in_proc() {
    let c = Course::new();
    let prog = c.program(
        "cmdline.sh",
        "tr '\\0' ' ' < /proc/1/cmdline >&2; echo '|end' >&2; exit 1\n",
    );
    let (_, details, _) = c.check(Mode::Namespaces, &format!("sh {prog}"), &[]);
    assert!(!details.contains("alphabeta"), "{details}");
    assert!(!details.contains("specs/small.yaml"), "{details}");
}

/// Descriptors gametrace's caller left open (a wrapper script's, make's, a CI runner's)
/// reached the program: Landlock checks a file when it is opened, so the expected trace held
/// open on fd 8 was read through it (PASS), and a grader's log on fd 7 written. Now the
/// program starts with its stdio alone.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn descriptors_the_grader_holds_open_do_not_reach_the_program() {
    use std::os::unix::io::AsRawFd;
    use std::os::unix::process::CommandExt;
    require_root();
    let c = Course::new();
    let log = c.root().join("grades/log.txt");
    std::fs::write(&log, "grader log\n").unwrap();
    let run = c.program("run", "#!/bin/sh\ncat <&8\necho planted >&7\n");
    let cmd = format!("./{run}");
    let check = |mode: Mode, extra: &[&str]| {
        let trace = std::fs::File::open(c.root().join("expected/small/alphabeta.trace")).unwrap();
        let log = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let (t, l) = (trace.as_raw_fd(), log.as_raw_fd());
        let mut command = gametrace(mode);
        // SAFETY: dup2 only, between fork and exec; dup2 leaves the copies inheritable.
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(t, 8) < 0 || libc::dup2(l, 7) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = command
            .current_dir(c.root())
            .args(["check", SPEC, "--case", "alphabeta", "--cmd", &cmd])
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for mode in root_modes() {
        let report = check(mode, &[]);
        assert!(!report.contains("PASS"), "{mode:?}: {report}");
    }
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "grader log\n");
    // Without the sandbox the attack works, which proves the test's attack.
    assert!(check(Mode::Namespaces, &["--no-sandbox"]).contains("PASS"));
    assert!(std::fs::read_to_string(&log).unwrap().contains("planted"));
}

/// A course folder that holds the grader's specs and expected traces, the class and the
/// reports (`grade class --course-dir .`, a natural layout): each submission's copy of it held
/// them all, so mallory copied the expected trace and zed a classmate's answer (full marks).
/// What the program's sandbox hides is now never copied with the course folder.
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_course_folder_copy_holds_no_grader_file_and_no_classmate() {
    use std::os::unix::fs::PermissionsExt;
    require_root();
    let c = Course::new();
    let trace = std::fs::read_to_string(c.root().join("expected/small/alphabeta.trace")).unwrap();
    let class = c.root().join("class");
    for (who, run) in [
        ("alice", "cat answer.txt"),
        ("mallory", "cat expected/small/alphabeta.trace"),
        ("zed", "cat class/alice/answer.txt"),
    ] {
        std::fs::create_dir_all(class.join(who)).unwrap();
        std::fs::write(class.join(who).join("run.sh"), format!("{run}\n")).unwrap();
    }
    std::fs::write(class.join("alice/answer.txt"), &trace).unwrap();
    for entry in walk(c.root()) {
        let mode = if entry.is_dir() { 0o755 } else { 0o644 };
        let _ = std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(mode));
    }
    for mode in root_modes() {
        let out_dir = c.root().join(format!("grades/{mode:?}"));
        let out = gametrace(mode)
            .current_dir(c.root())
            .args(["grade", "class", "--specs", SPEC, "--case", "alphabeta"])
            .args(["--against", "sh run.sh", "--course-dir", "."])
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        let book = std::fs::read_to_string(out_dir.join("gradebook.csv"))
            .unwrap_or_else(|e| panic!("{mode:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert!(book.contains("\nalice,1,1,"), "{mode:?}: {book}");
        assert!(book.contains("\nmallory,0,1,"), "{mode:?}: {book}");
        assert!(book.contains("\nzed,0,1,"), "{mode:?}: {book}");
    }
}

/// A grader whose course lies in a private folder (`mktemp -d`: mode 0700, as CI's clone)
/// names a driver through a link of its own (`tools/via -> real`, as `adapters/python`
/// is): with namespaces the folder is covered for the program's uid and the granted places
/// bound back, and the link is made again there, so the name as written still leads to the
/// driver. (It was "can't open file": only the canonical place was bound back.)
#[test]
#[cfg_attr(
    not(gametrace_root),
    ignore = "needs root: gametrace run as root, as autograders run it"
)]
fn a_driver_named_through_a_link_in_a_private_folder_runs() {
    use std::os::unix::fs::PermissionsExt;
    require_root();
    let d = tempfile::tempdir().unwrap();
    let root_dir = d.path();
    std::fs::set_permissions(root_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::create_dir_all(root_dir.join("tools/real")).unwrap();
    std::fs::create_dir_all(root_dir.join("student")).unwrap();
    std::os::unix::fs::symlink("real", root_dir.join("tools/via")).unwrap();
    std::fs::write(root_dir.join("tools/real/answer.sh"), "cat \"$1\"\n").unwrap();
    std::fs::copy(
        "expected/15150-s12/handout-small/alphabeta.trace",
        root_dir.join("student/answer.txt"),
    )
    .unwrap();
    let driver = root_dir.join("tools/via/answer.sh");
    let out = gametrace(Mode::Namespaces)
        .current_dir(root_dir.join("student"))
        .args(["check", "15150-s12/handout-small", "--case", "alphabeta"])
        .arg("--cmd")
        .arg(format!("sh {} answer.txt", driver.display()))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with("PASS"), "{report}");
}
