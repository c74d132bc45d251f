//! Running student code: every program `check --cmd`, `check-game`, `test --against` and `grade` start goes
//! through this module, and nothing else starts one.
//!
//! - [`run`] runs a command under [`Limits`] (time, output, memory, CPU, processes, file size,
//!   open files), kills everything it started when it ends ([`contain`]), and says what it
//!   came to as a [`Ran`], with a verdict of its own for each limit hit.
//! - [`Session`] starts a program the same way and talks with it a line at a time
//!   (`check-game`'s probe protocol).
//! - [`confine`] builds, in gametrace, the confinement the program is started in: Landlock
//!   (files and TCP), a seccomp filter (no Internet sockets), user, network and PID
//!   namespaces, a cgroup, resource limits. Each layer is used where the kernel allows it;
//!   [`protections`] says which are in force on this machine and why any is not.
//! - A [`Scratch`] is the program's private, writable home and temp directory; the files it is
//!   handed (`{tree_json}`, a copy of the spec holding only its case) are written there.

#[cfg(target_os = "linux")]
pub mod cgroup;
#[cfg(target_os = "linux")]
pub mod confine;
#[cfg(target_os = "linux")]
pub mod contain;
#[cfg(target_os = "linux")]
pub mod files;
#[cfg(target_os = "linux")]
pub mod identity;
#[cfg(target_os = "linux")]
pub mod policy;
#[cfg(target_os = "linux")]
mod probe;
mod run;
mod session;
mod stage;
#[cfg(target_os = "linux")]
pub mod syscalls;
/// macOS and Windows: no sandbox, the user's own program run as it is.
#[cfg(not(target_os = "linux"))]
mod unconfined;

#[cfg(target_os = "linux")]
pub use probe::{protections, Layer, Protections};
#[cfg(target_os = "linux")]
pub use run::{clean_up_on_interrupt, install_interrupt_handler};
pub use run::{run, served, split, substitute, Limit, Ran};
pub use session::Session;
#[cfg(not(target_os = "linux"))]
pub use unconfined::{
    clean_up_on_interrupt, contain, files, install_interrupt_handler, policy, protections,
    unsandboxed_system, Layer, Protections,
};

/// The system gametrace runs on when it has no sandbox there (`Some("macOS")`): student
/// code is then run only as the user's own, and `grade` wants `--no-sandbox`.
#[cfg(target_os = "linux")]
pub fn unsandboxed_system() -> Option<&'static str> {
    None
}

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The limits a command runs under.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The CPU time the command may use in all, its processes together (TIMEOUT past it):
    /// what a program that computes is judged by, the same on a busy machine as on a quiet
    /// one.
    pub timeout: Duration,
    /// The wall-clock time it may run (TIMEOUT past it too): a generous backstop for a
    /// program that waits instead of computing (a `sleep`, a read that never returns).
    pub wall: Duration,
    /// The most bytes (stdout and stderr together) it may print before it is killed.
    pub output_cap: usize,
    /// Memory each process may allocate (and the whole command, where a cgroup is writable).
    pub memory: u64,
    /// CPU time of each process.
    pub cpu: Duration,
    /// Processes (and threads) the command may have at once.
    pub processes: u32,
    /// The largest file it may write.
    pub file_size: u64,
    /// Files each process may hold open.
    pub open_files: u32,
    /// What it may add on disk in all: its temp directory (and a staged course folder)
    /// together.
    pub disk: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            wall: wall_for(Duration::from_secs(10)),
            output_cap: 8 << 20,
            memory: 1 << 30,
            cpu: Duration::from_secs(60),
            processes: 256,
            file_size: 64 << 20,
            open_files: 1024,
            disk: 256 << 20,
        }
    }
}

/// The wall-clock backstop for a CPU-time limit (`--wall-time`'s default): three times it
/// and two seconds more, so a program that computes within its time is never stopped by a
/// busy machine, and one that waits is stopped all the same.
pub fn wall_for(timeout: Duration) -> Duration {
    timeout * 3 + Duration::from_secs(2)
}

/// What the teacher chose about the sandbox (`--no-sandbox`, `--sandbox-read`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// `--no-sandbox`: run with the limits of time and output only, as gametrace did before it
    /// had a sandbox.
    pub off: bool,
    /// More paths the program may read (`--sandbox-read`), besides its runtime, its
    /// submission and the files its command line names.
    pub readable: Vec<PathBuf>,
    /// Paths it must not read even where they lie inside one it may (the specs, the expected
    /// traces, the reports being written).
    pub hidden: Vec<PathBuf>,
    /// More folders the program may write besides its [`Scratch`]: the staged copy of a
    /// course folder (`grade --course-dir`), private to one submission.
    pub writable: Vec<PathBuf>,
    /// More of gametrace's environment variables the program is given (`--sandbox-env`),
    /// besides the allow-list ([`run::passed_env`]).
    pub env: Vec<String>,
}

/// One command to run.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// Program and arguments (no shell: `--shell` lines come as `sh -c LINE`).
    pub argv: &'a [String],
    /// The command line as the grader wrote it, split into words (`sh -c LINE` for a shell
    /// line), its placeholders unfilled: the only words that widen what the program may read
    /// (a program they name brings its runtime, a path they name itself). Nothing the run is
    /// handed (a placeholder's value, a submission's folder or file name, a script's `#!`)
    /// ever adds a rule.
    pub words: &'a [String],
    /// A file for stdin (empty stdin otherwise).
    pub stdin: Option<&'a Path>,
    /// The working directory (gametrace's own when `None`).
    pub dir: Option<&'a Path>,
    pub limits: Limits,
    pub scratch: &'a Scratch,
    pub policy: &'a Policy,
}

/// Is this process inside a gametrace sandbox? The sandbox's seccomp filter answers a
/// probe no other system does ([`syscalls::SANDBOX_PROBE`]), and a filter is inherited by
/// every process started inside and can never be removed: a student's program cannot run a
/// copy of gametrace (the installed one, a copied binary, one behind a script) without it
/// knowing. The probe is a system call made by the processor's own instruction, not through
/// the C library, so a library preloaded to answer it (`LD_PRELOAD`) is never asked.
#[cfg(target_os = "linux")]
pub fn inside_sandbox() -> bool {
    raw_getpriority(syscalls::SANDBOX_PROBE as usize) == -(syscalls::SANDBOX_ERRNO as isize)
}

/// There is no sandbox to be inside where there is none.
#[cfg(not(target_os = "linux"))]
pub fn inside_sandbox() -> bool {
    false
}

/// `getpriority(which, 0)` as the kernel answers it: the result, or minus the errno.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn raw_getpriority(which: usize) -> isize {
    let ret: isize;
    // SAFETY: the getpriority system call (140) with two integer arguments; it reads and
    // writes no memory of ours. `syscall` clobbers rcx and r11.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") 140isize => ret,
            in("rdi") which,
            in("rsi") 0usize,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack)
        );
    }
    ret
}

#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
fn raw_getpriority(which: usize) -> isize {
    let ret: isize;
    // SAFETY: the getpriority system call (141) with two integer arguments.
    unsafe {
        std::arch::asm!(
            "svc 0",
            in("x8") 141usize,
            inlateout("x0") which as isize => ret,
            in("x1") 0usize,
            options(nostack)
        );
    }
    ret
}

#[cfg(all(
    target_os = "linux",
    not(any(target_arch = "x86_64", target_arch = "aarch64"))
))]
fn raw_getpriority(_which: usize) -> isize {
    0
}

/// Can student code be confined here, as `policy` asks? `Err` says why not and what to do.
/// A program that would run as the grader's own uid with no mount namespace could change the
/// permissions, times and attributes of every file of the grader's (Landlock does not look
/// there, and nothing is mounted read-only), and without Landlock it could read the specs:
/// such a run is refused, never started with a warning. `--no-sandbox` (`policy.off`) is the
/// grader's own choice to run it anyway.
#[cfg(target_os = "linux")]
pub fn confinable(policy: &Policy) -> Result<(), String> {
    if policy.off {
        return Ok(());
    }
    let layers = protections().layers;
    let root = rustix::process::geteuid().is_root();
    let why = if !layers.landlock {
        "the kernel gives no Landlock here, so nothing would keep the program from reading the specs and expected traces"
    } else if !(root || layers.mount_namespace && layers.pid_namespace) {
        "it would run as your own user with no namespaces of its own (as in a container that refuses them, or with GAMETRACE_SANDBOX=container): it could change the permissions, times and attributes of your files, which Landlock does not look at, and leave processes behind"
    } else {
        return Ok(());
    };
    Err(format!(
        "the sandbox cannot confine student code on this machine: {why}. Run gametrace as root in the container (each run then gets a uid of its own), or where user namespaces are allowed; `gametrace doctor` says what this machine gives. To run a program you trust (your own) with your user's rights, pass --no-sandbox"
    ))
}

/// Where there is no sandbox at all (macOS, Windows) a program runs as the user's own, and the
/// command line says so once; `grade` wants `--no-sandbox` there.
#[cfg(not(target_os = "linux"))]
pub fn confinable(_policy: &Policy) -> Result<(), String> {
    Ok(())
}

/// The files `job`'s program may read, run and write, as its sandbox on this machine would
/// compute them (what `gametrace doctor --policy` prints).
#[cfg(target_os = "linux")]
pub fn file_policy(job: &Job) -> policy::FilePolicy {
    let layers = protections().layers;
    let proc = if layers.mount_namespace && layers.pid_namespace {
        policy::ProcView::Own
    } else {
        policy::ProcView::Host
    };
    policy::FilePolicy::compute(job.words, job.dir, job.scratch, job.policy, proc)
}

/// A private directory: the program's home, temp directory and the only place it may write.
/// Removed with everything in it when dropped.
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
}

/// The scratch folders now alive, for the interrupt handler to remove (Ctrl-C and SIGTERM
/// end gametrace without dropping them).
static LIVE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes every scratch folder still alive: called when gametrace is interrupted, after the
/// commands are killed.
pub fn remove_live_scratches() {
    let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
    for path in live {
        let _ = files::remove(&path);
    }
}

impl Drop for Scratch {
    /// Removes everything the program left, walking by file descriptors (a folder it swapped
    /// for a link is never followed), folders it made unreadable opened again. What still
    /// cannot be removed is named on stderr.
    fn drop(&mut self) {
        let path = self.dir.path().to_owned();
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|p| p != &path);
        }
        if let Err(e) = files::remove(&path) {
            if path.exists() {
                eprintln!(
                    "warning: could not remove the program's temporary folder {}: {e}",
                    path.display()
                );
            }
        }
    }
}

/// The start of a scratch folder's name; the gametrace process's id follows.
const SCRATCH_PREFIX: &str = "gametrace-run-";

/// Removes the scratch folders a gametrace that no longer runs left in `tmp` (one killed
/// with SIGKILL cannot remove its own): those whose process id is no process's now.
#[cfg(target_os = "linux")]
fn remove_stale_scratches(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX))
            .and_then(|n| n.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = files::remove(&e.path());
        }
    }
}

impl Scratch {
    pub fn new() -> std::io::Result<Scratch> {
        #[cfg(target_os = "linux")]
        {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| remove_stale_scratches(&std::env::temp_dir()));
        }
        let dir = tempfile::Builder::new()
            .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
            .tempdir()?;
        if let Ok(mut live) = LIVE.lock() {
            live.push(dir.path().to_owned());
        }
        Ok(Scratch { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Copies the folder `from` into this one, under its own name, and returns the copy's
    /// path: the program works in the copy, so a compiler that writes its caches beside the
    /// sources (SML/NJ's `.cm/` folders) can, and the original is never written. Caches found
    /// in the original (`.cm/`, `__pycache__/`) are left out, so the copy compiles afresh;
    /// links are copied as links; a FIFO, socket or device, or files past `limit` in all
    /// (0: no limit), are refused ([`files::stage`]). What lies at the paths of `skip` (made
    /// canonical here) is left out: the grader's files and the class when they sit inside
    /// the folder copied.
    pub fn copy_in_without(
        &self,
        from: &Path,
        limit: u64,
        skip: &[PathBuf],
    ) -> Result<PathBuf, files::StageError> {
        let name = from
            .file_name()
            .map_or_else(|| "course".into(), |n| n.to_os_string());
        let to = self.dir.path().join(name);
        let skip: Vec<PathBuf> = skip
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        files::stage_without(from, &to, limit, &skip)?;
        Ok(to)
    }

    /// Copies the files of the folder `from` over the folder `onto` (made if missing),
    /// replacing what is there, never writing through a link: a submission's files over the
    /// course folder's stubs.
    pub fn overlay(&self, from: &Path, onto: &Path, limit: u64) -> Result<(), files::StageError> {
        debug_assert!(onto.starts_with(self.dir.path()));
        files::stage(from, onto, limit)
    }

    /// Writes a file the program is handed; returns its path.
    pub fn write(&self, name: &str, contents: &[u8]) -> std::io::Result<PathBuf> {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents)?;
        Ok(path)
    }
}

/// A submission's classmates, for `grade`: every other entry of the folder the submission
/// sits in, which its program must not read (nor copy their output from).
pub fn classmates(submission: &Path) -> Vec<PathBuf> {
    let Some(class) = submission.parent() else {
        return Vec::new();
    };
    let me = std::fs::canonicalize(submission).unwrap_or_else(|_| submission.to_owned());
    std::fs::read_dir(class)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| std::fs::canonicalize(p).map_or(true, |c| c != me))
                .collect()
        })
        .unwrap_or_default()
}

/// The paths of a spec's grading material that a program must not read: the specs (the whole
/// `specs/` directory when the spec is under one, which holds the hidden cases of every spec),
/// the expected traces, the git repository beside them (whose objects hold both), and beside a
/// CS188 test (`.test`) every test's answer in its folder (`.solution`).
pub fn grader_paths(spec: &Path) -> Vec<PathBuf> {
    let mut hidden = spec_and_expected(spec);
    if spec.extension().is_some_and(|e| e == "test") {
        if let Some(dir) = std::path::absolute(spec)
            .ok()
            .and_then(|p| p.parent().map(Path::to_owned))
        {
            let answers = std::fs::read_dir(&dir).into_iter().flatten().flatten();
            hidden.extend(
                answers
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "solution")),
            );
        }
    }
    hidden
}

fn spec_and_expected(spec: &Path) -> Vec<PathBuf> {
    let spec = std::path::absolute(spec).unwrap_or_else(|_| spec.to_owned());
    let mut hidden = Vec::new();
    let parts: Vec<std::path::Component> = spec.components().collect();
    if let Some(i) = parts.iter().rposition(|c| c.as_os_str() == "specs") {
        let root: PathBuf = parts[..i].iter().collect();
        hidden.push(root.join("specs"));
        hidden.push(root.join("expected"));
        hidden.push(root.join(".git"));
    } else {
        hidden.push(spec.clone());
        if let Some(dir) = spec.parent() {
            hidden.push(dir.join("expected"));
        }
    }
    hidden
}

/// `n` bytes as a person reads them: "256 MiB", "1.5 MiB", "4 KiB". The core has the same
/// words for its own limits; the two crates share nothing, so that they compile side by side.
pub fn human_bytes(n: u64) -> String {
    if n >= 1 << 30 && n % (1 << 30) == 0 {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 {
        let mib = n as f64 / (1u64 << 20) as f64;
        if n % (1 << 20) == 0 {
            format!("{} MiB", n >> 20)
        } else {
            format!("{mib:.1} MiB")
        }
    } else if n >= 1 << 10 && n % (1 << 10) == 0 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A gametrace killed outright leaves its scratch folders; the next one removes those of
    /// processes that no longer run (an unreadable folder in them too), and never a running
    /// process's or a folder of another name.
    #[test]
    fn scratch_folders_of_a_gametrace_that_is_gone_are_removed() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        // A process id no process has: past any pid_max.
        let dead = tmp.path().join(format!("{SCRATCH_PREFIX}4294967295-abc"));
        std::fs::create_dir_all(dead.join("locked")).unwrap();
        std::fs::set_permissions(dead.join("locked"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
        let alive = tmp
            .path()
            .join(format!("{SCRATCH_PREFIX}{}-abc", std::process::id()));
        std::fs::create_dir(&alive).unwrap();
        let other = tmp.path().join(format!("{SCRATCH_PREFIX}xyz"));
        std::fs::create_dir(&other).unwrap();
        remove_stale_scratches(tmp.path());
        assert!(!dead.exists());
        assert!(alive.exists() && other.exists());
    }

    /// What a program leaves to keep its files: a folder it made unreadable, and (root
    /// only) a file it made immutable. Removing the scratch folder removes them all.
    #[test]
    fn a_scratch_folder_is_removed_whatever_was_left_in_it() {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::PermissionsExt;
        let scratch = Scratch::new().unwrap();
        let root = scratch.path().to_owned();
        let locked = root.join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::write(locked.join("data"), vec![0u8; 1 << 20]).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        let pinned = root.join("pinned");
        std::fs::write(&pinned, b"keep me").unwrap();
        // SAFETY: no preconditions.
        let made_immutable = unsafe { libc::geteuid() } == 0 && {
            let f = std::fs::File::open(&pinned).unwrap();
            let flags: libc::c_long = 0x10;
            // SAFETY: an ioctl on a descriptor we own, with a pointer to a local.
            unsafe { libc::ioctl(f.as_raw_fd(), 0x4008_6602, &flags) == 0 }
        };
        if made_immutable {
            assert!(
                std::fs::remove_file(&pinned).is_err(),
                "the file is immutable"
            );
        }
        drop(scratch);
        assert!(!root.exists(), "{} was left behind", root.display());
    }
}
