//! The confinement a program starts in, built in gametrace (where it may allocate, read
//! directories and report errors) and entered by the child between `fork` and `exec` with
//! system calls only.
//!
//! Layers, each used where [`super::protections`] found the kernel allows it:
//! - **Landlock** (unprivileged, works inside containers): the program may read its runtime,
//!   its submission and the files its command names; it may write only its [`Scratch`]; no
//!   TCP connect or bind; no signals to processes outside.
//! - **seccomp**: creating an Internet or packet socket is refused with `ENETUNREACH`
//!   ("Network is unreachable", which is how gametrace tells a network attempt from a
//!   crash when the program then fails); a program that only probes, as the JVM's network
//!   library does when `javac` starts, goes on.
//! - **namespaces**: a new network namespace (no interfaces but a downed loopback) and a new
//!   PID namespace, whose first process is a tiny init of gametrace's: when the program ends,
//!   the kernel kills everything left in it. Without root, a user namespace comes first.
//! - **a cgroup** (where gametrace may create one): the number of processes and the memory of
//!   the whole command, and a count of the times each limit was hit.
//! - **resource limits** on every process: memory (`RLIMIT_DATA`), CPU time, processes, file
//!   size, open files, no core dumps.

use super::{Job, Limits, Policy, Scratch};
use std::collections::BTreeSet;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// What [`Plan::enter`] does in the child, prepared in the parent.
pub struct Plan {
    parent: u32,
    rlimits: Vec<(libc::__rlimit_resource_t, u64)>,
    unshare: libc::c_int,
    /// `/proc/self/uid_map` and `gid_map` contents, for a user namespace.
    id_maps: Option<(Vec<u8>, Vec<u8>)>,
    pid_namespace: bool,
    /// The status pipe from the program's init to the process gametrace waits for.
    status: Option<(OwnedFd, OwnedFd)>,
    cgroup_procs: Vec<OwnedFd>,
    ruleset: Option<landlock::RulesetCreated>,
    /// The same Landlock ruleset, to add the fresh `/proc` to once it is mounted (a rule
    /// names a mount, and the new `/proc` is not the one the parent saw).
    ruleset_fd: Option<OwnedFd>,
    mount_namespace: bool,
    /// Root's way out of root (see [`Identity`]).
    identity: Identity,
    /// The highest capability number, for emptying the bounding set.
    last_cap: libc::c_int,
    seccomp: Option<seccompiler::BpfProgram>,
}

/// Who the program runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// An ordinary user runs it as themself (no capabilities once it execs).
    Same,
    /// Root, in a user namespace where it is [`SANDBOX_UID`]: no capability outside the
    /// namespace, none inside once it execs.
    Mapped,
    /// Root without user namespaces (a container): after the setup that needs root, every
    /// capability is dropped (the bounding set too) and the ids become [`SANDBOX_UID`].
    Dropped,
}

/// The user and group a program started by root runs as: `nobody`.
pub const SANDBOX_UID: u32 = 65534;

/// A cgroup for one command at a time, used when gametrace runs as root (for whom
/// RLIMIT_NPROC does not hold). Moving a process into a cgroup costs about 9 ms (the kernel
/// waits for an RCU grace period), more than the rest of the sandbox together, which is why an
/// ordinary user, limited by RLIMIT_NPROC, goes without. They are kept in a pool and reused: a command's
/// events are the counters' growth while it ran. All are removed at gametrace's end
/// ([`remove_cgroups`]), and any an earlier, killed gametrace left are removed when the next
/// one makes its first.
pub struct Cgroup {
    dirs: Vec<PathBuf>,
    /// The counters when the command started: (pids max, memory oom kills).
    before: (u64, u64),
}

impl Cgroup {
    fn counters(&self) -> (u64, u64) {
        let mut pids = 0;
        let mut memory = 0;
        for dir in &self.dirs {
            if let Ok(text) = std::fs::read_to_string(dir.join("pids.events")) {
                pids += counter(&text, "max");
            }
            // v2, then v1.
            if let Ok(text) = std::fs::read_to_string(dir.join("memory.events")) {
                memory += counter(&text, "oom_kill");
            }
            if let Ok(text) = std::fs::read_to_string(dir.join("memory.oom_control")) {
                memory += counter(&text, "oom_kill");
            }
        }
        (pids, memory)
    }

    /// Did the command hit its process limit, or run out of its memory?
    pub fn events(&self) -> (bool, bool) {
        let (pids, memory) = self.counters();
        (pids > self.before.0, memory > self.before.1)
    }
}

fn counter(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or(0)
}

/// The cgroups not in use.
static POOL: std::sync::Mutex<Vec<Cgroup>> = std::sync::Mutex::new(Vec::new());
/// Every cgroup this process made.
static MADE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

impl Drop for Cgroup {
    fn drop(&mut self) {
        // Back to the pool, for the next command (its processes are gone: killed before).
        let dirs = std::mem::take(&mut self.dirs);
        if let Ok(mut pool) = POOL.lock() {
            pool.push(Cgroup {
                dirs,
                before: (0, 0),
            });
        }
    }
}

/// Removes the cgroups this process made (at its end: they are empty by then).
pub fn remove_cgroups() {
    let made = MADE.lock().map(|m| m.clone()).unwrap_or_default();
    for dir in made {
        let _ = std::fs::remove_dir(dir);
    }
}

/// Removes empty gametrace cgroups whose gametrace is gone (killed before it could).
fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("gametrace-"))
            .and_then(|n| n.split('-').next())
        else {
            continue;
        };
        if !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir(e.path());
        }
    }
}

/// The layers a plan may use (as probed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layers {
    pub landlock: bool,
    pub seccomp: bool,
    /// A mount namespace with a fresh `/proc` for the PID namespace (so no process outside
    /// is even visible).
    pub mount_namespace: bool,
    pub user_namespace: bool,
    pub network_namespace: bool,
    pub pid_namespace: bool,
    pub cgroup: Option<CgroupKind>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CgroupKind {
    /// cgroup v1: one directory under each of `pids/` and `memory/`.
    V1,
    /// cgroup v2: one directory.
    V2,
}

const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// A cgroup for one command with its limits (from the pool, or made); `None` if it cannot.
pub fn make_cgroup(kind: CgroupKind, limits: &Limits) -> Option<(Cgroup, Vec<OwnedFd>)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let pooled = POOL.lock().ok().and_then(|mut p| p.pop());
    let mut cgroup = match pooled {
        Some(c) => c,
        None => {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = format!("gametrace-{}-{n}", std::process::id());
            let parents: Vec<PathBuf> = match kind {
                CgroupKind::V1 => ["pids", "memory"]
                    .iter()
                    .map(|c| Path::new(CGROUP_ROOT).join(c))
                    .collect(),
                CgroupKind::V2 => vec![PathBuf::from(CGROUP_ROOT)],
            };
            let mut dirs = Vec::new();
            for parent in parents {
                if n == 0 {
                    remove_stale(&parent);
                }
                let dir = parent.join(&name);
                let made = std::fs::create_dir(&dir);
                if made.is_ok() {
                    if let Ok(mut m) = MADE.lock() {
                        m.push(dir.clone());
                    }
                }
                dirs.push(dir);
                made.ok()?;
            }
            Cgroup {
                dirs,
                before: (0, 0),
            }
        }
    };
    // A process is counted per task: a little room for the sandbox's own init.
    let pids = (limits.processes + 2).to_string();
    let memory = limits.memory.to_string();
    for dir in &cgroup.dirs {
        for (file, value) in [
            ("pids.max", &pids),
            ("memory.max", &memory),
            ("memory.limit_in_bytes", &memory),
        ] {
            let path = dir.join(file);
            if path.exists() {
                std::fs::write(path, value).ok()?;
            }
        }
    }
    let mut procs = Vec::new();
    for dir in &cgroup.dirs {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
            .ok()?;
        procs.push(OwnedFd::from(f));
    }
    cgroup.before = cgroup.counters();
    Some((cgroup, procs))
}

impl Plan {
    /// The plan for `job`: `layers` as probed, its limits, and the paths it may read worked
    /// out from its command line (a `sh -c` line when `shell`), its folder and its policy.
    pub fn new(
        layers: Layers,
        job: &Job,
        shell: bool,
        cgroup_procs: Vec<OwnedFd>,
    ) -> io::Result<Plan> {
        let limits = &job.limits;
        let memory = limits.memory;
        let rlimits = vec![
            (libc::RLIMIT_DATA, memory),
            (libc::RLIMIT_CPU, limits.cpu.as_secs().max(1)),
            (libc::RLIMIT_NPROC, u64::from(limits.processes)),
            (libc::RLIMIT_FSIZE, limits.file_size),
            (libc::RLIMIT_NOFILE, u64::from(limits.open_files)),
            (libc::RLIMIT_CORE, 0),
        ];
        let mut unshare = 0;
        if layers.network_namespace {
            unshare |= libc::CLONE_NEWNET;
        }
        if layers.pid_namespace {
            // With its own PID namespace, its own host name too: `sethostname` then renames
            // nothing but the sandbox (the same rights create both).
            unshare |= libc::CLONE_NEWPID | libc::CLONE_NEWUTS;
        }
        let mount_namespace = layers.mount_namespace && layers.pid_namespace;
        if mount_namespace {
            unshare |= libc::CLONE_NEWNS;
        }
        // SAFETY: no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let root = uid == 0;
        let mut id_maps = None;
        let mut identity = if root {
            Identity::Dropped
        } else {
            Identity::Same
        };
        if unshare != 0 && layers.user_namespace {
            unshare |= libc::CLONE_NEWUSER;
            // Root is `nobody` inside: its own id maps to SANDBOX_UID, so nothing it runs is
            // root there, and it has no capability outside.
            let (inside_uid, inside_gid) = if root {
                identity = Identity::Mapped;
                (SANDBOX_UID, SANDBOX_UID)
            } else {
                (uid, gid)
            };
            id_maps = Some((
                format!("{inside_uid} {uid} 1\n").into_bytes(),
                format!("{inside_gid} {gid} 1\n").into_bytes(),
            ));
        }
        if identity == Identity::Dropped {
            // The program will be `nobody`: its temp directory (and a staged course folder)
            // must be its to write.
            for dir in std::iter::once(job.scratch.path())
                .chain(job.policy.writable.iter().map(PathBuf::as_path))
            {
                hand_over(dir, SANDBOX_UID)?;
            }
        }
        let last_cap = std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(63);
        let status = if layers.pid_namespace {
            let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
            Some((r, w))
        } else {
            None
        };
        let ruleset = if layers.landlock {
            let reach = Reach::new(job.argv, shell, job.dir, job.scratch, job.policy);
            Some(reach.ruleset().map_err(io::Error::other)?)
        } else {
            None
        };
        let ruleset_fd = match (&ruleset, mount_namespace) {
            (Some(r), true) => Option::<OwnedFd>::from(r.try_clone()?),
            _ => None,
        };
        let seccomp = if layers.seccomp {
            network_filter()
        } else {
            None
        };
        Ok(Plan {
            parent: std::process::id(),
            rlimits,
            unshare,
            id_maps,
            pid_namespace: layers.pid_namespace,
            status,
            cgroup_procs,
            ruleset,
            ruleset_fd,
            mount_namespace,
            identity,
            last_cap,
            seccomp,
        })
    }

    /// Enters the plan: called in the child between fork and exec. Only system calls, on
    /// memory prepared by [`Plan::new`] (async-signal-safe); returns in the process that goes
    /// on to exec the program.
    pub fn enter(&mut self) -> io::Result<()> {
        // A session of its own: its own process group (killed as one), and no controlling
        // terminal to print on or push input into.
        // SAFETY: a plain system call.
        if unsafe { libc::setsid() } < 0 {
            return Err(io::Error::last_os_error());
        }
        super::contain::die_with_parent(self.parent)?;
        for fd in &self.cgroup_procs {
            // "0" is the writer itself.
            write_all(fd.as_raw_fd(), b"0")?;
        }
        for &(resource, value) in &self.rlimits {
            if resource == libc::RLIMIT_CORE {
                set_rlimit(resource, value)?;
            }
        }
        if self.unshare != 0 {
            // SAFETY: a plain system call.
            if unsafe { libc::unshare(self.unshare) } != 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some((uid_map, gid_map)) = &self.id_maps {
                write_file(c"/proc/self/setgroups", b"deny")?;
                write_file(c"/proc/self/uid_map", uid_map)?;
                write_file(c"/proc/self/gid_map", gid_map)?;
            }
        }
        if self.pid_namespace {
            self.become_init()?;
        }
        if self.mount_namespace {
            self.fresh_proc()?;
        }
        if self.identity != Identity::Same {
            self.drop_root()?;
        }
        for &(resource, value) in &self.rlimits {
            set_rlimit(resource, value)?;
        }
        if let Some(ruleset) = self.ruleset.take() {
            use landlock::RulesetStatus;
            let status = ruleset
                .restrict_self()
                .map_err(|_| io::Error::last_os_error())?;
            if status.ruleset == RulesetStatus::NotEnforced {
                return Err(io::Error::other("landlock not enforced"));
            }
        }
        if let Some(filter) = &self.seccomp {
            seccompiler::apply_filter(filter).map_err(|_| io::Error::last_os_error())?;
        }
        Ok(())
    }

    /// In the program's mount namespace (private: nothing propagates back), a `/proc` of its
    /// own PID namespace over the host's, added to the Landlock ruleset as readable, and an
    /// empty `/run`.
    fn fresh_proc(&mut self) -> io::Result<()> {
        // SAFETY: system calls with valid C strings and a valid attribute struct.
        unsafe {
            if libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The host's `/run` (where `docker.sock`, D-Bus and the like listen: pathname Unix
            // sockets, which no other layer stops) is covered by an empty, read-only folder.
            // Best effort: a system without `/run` loses nothing.
            libc::mount(
                c"tmpfs".as_ptr(),
                c"/run".as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
                c"size=4k,mode=755".as_ptr().cast(),
            );
            if let Some(ruleset) = &self.ruleset_fd {
                let proc = libc::open(c"/proc".as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                if proc < 0 {
                    return Err(io::Error::last_os_error());
                }
                #[repr(C, packed)]
                struct PathBeneath {
                    allowed_access: u64,
                    parent_fd: i32,
                }
                // LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR.
                let attr = PathBeneath {
                    allowed_access: (1 << 2) | (1 << 3),
                    parent_fd: proc,
                };
                // LANDLOCK_RULE_PATH_BENEATH = 1.
                let r = libc::syscall(
                    libc::SYS_landlock_add_rule,
                    ruleset.as_raw_fd(),
                    1,
                    std::ptr::addr_of!(attr),
                    0,
                );
                libc::close(proc);
                if r != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        Ok(())
    }

    /// Root's way out: an empty capability bounding set, then (without a user namespace)
    /// the groups, gid and uid of [`SANDBOX_UID`] (which clears every other capability), and
    /// the parent-death signal again (a change of ids clears it).
    fn drop_root(&mut self) -> io::Result<()> {
        // SAFETY: system calls only.
        unsafe {
            for cap in 0..=self.last_cap {
                if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0
                    && *libc::__errno_location() != libc::EINVAL
                {
                    return Err(io::Error::last_os_error());
                }
            }
            if self.identity == Identity::Dropped {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID) != 0
                    || libc::setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// After `unshare(CLONE_NEWPID)`: this process (the one gametrace waits for) forks the
    /// namespace's init, which forks the program. Init reaps orphans and, when the program
    /// ends, passes its wait status up a pipe and exits, and the kernel kills whatever is left
    /// in the namespace. This process then ends the way the program did, so gametrace sees
    /// the program's own exit status or signal.
    fn become_init(&mut self) -> io::Result<()> {
        let Some((read, write)) = &self.status else {
            return Ok(());
        };
        let (read, write) = (read.as_raw_fd(), write.as_raw_fd());
        // SAFETY: fork in a single-threaded child; each branch only makes system calls.
        let init = unsafe { libc::fork() };
        if init < 0 {
            return Err(io::Error::last_os_error());
        }
        if init > 0 {
            close_all_but(read);
            let mut st = 0;
            // SAFETY: system calls on our own child and fds.
            unsafe {
                while libc::waitpid(init, &mut st, 0) < 0 {
                    if *libc::__errno_location() != libc::EINTR {
                        libc::_exit(125);
                    }
                }
                let mut buf = [0u8; 4];
                if libc::read(read, buf.as_mut_ptr().cast(), 4) == 4 {
                    st = i32::from_ne_bytes(buf);
                }
                end_like(st);
            }
        }
        // The namespace's init: a copy of gametrace's memory (its environment too), so not
        // dumpable: the program cannot read its `/proc/1/environ`.
        // SAFETY: system calls only.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
            let program = libc::fork();
            if program < 0 {
                libc::_exit(125);
            }
            if program == 0 {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                // The namespace's init is its process 1.
                if libc::getppid() != 1 {
                    libc::_exit(125);
                }
                self.status = None;
                return Ok(());
            }
            close_all_but(write);
            let mut st = 0;
            let cpu_limit = self
                .rlimits
                .iter()
                .find(|(r, _)| *r == libc::RLIMIT_CPU)
                .map_or(u64::MAX, |&(_, v)| v);
            loop {
                let mut usage: libc::rusage = std::mem::zeroed();
                let pid = libc::wait4(-1, &mut st, 0, &mut usage);
                if pid == program {
                    // A program that ignored SIGXCPU is killed at the hard limit: still a CPU
                    // verdict, told from any other SIGKILL by the CPU time it used.
                    let used = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec;
                    if libc::WIFSIGNALED(st)
                        && libc::WTERMSIG(st) == libc::SIGKILL
                        && used >= 0
                        && used as u64 >= cpu_limit
                    {
                        st = libc::SIGXCPU;
                    }
                    let bytes = st.to_ne_bytes();
                    libc::write(write, bytes.as_ptr().cast(), 4);
                    libc::_exit(0);
                }
                if pid < 0 && *libc::__errno_location() == libc::ECHILD {
                    libc::_exit(0);
                }
            }
        }
    }
}

/// Can a program running as `uid` (no groups, no capabilities) run the program at `path`?
/// Every folder on the way must let it search, and the file let it execute; a runtime under
/// a private home (pyenv's in `/root`) fails for [`SANDBOX_UID`].
pub fn runnable_by(path: &Path, uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    let may = |p: &Path, bit: u32| {
        std::fs::metadata(p).is_ok_and(|m| {
            let mode = m.mode();
            if m.uid() == uid {
                mode & (bit << 6) != 0
            } else if m.gid() == uid {
                mode & (bit << 3) != 0
            } else {
                mode & bit != 0
            }
        })
    };
    real.ancestors().skip(1).all(|dir| may(dir, 0o1)) && may(&real, 0o1)
}

/// Makes `dir` and everything under it belong to `uid` (and its group), for a program that
/// runs as `uid`.
fn hand_over(dir: &Path, uid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(uid))?;
    if dir.is_dir() && !dir.is_symlink() {
        for entry in std::fs::read_dir(dir)? {
            hand_over(&entry?.path(), uid)?;
        }
    }
    Ok(())
}

/// Ends this process as a process with wait status `st` ended.
unsafe fn end_like(st: libc::c_int) -> ! {
    if libc::WIFSIGNALED(st) {
        let sig = libc::WTERMSIG(st);
        libc::signal(sig, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig);
    }
    libc::_exit(if libc::WIFEXITED(st) {
        libc::WEXITSTATUS(st)
    } else {
        125
    })
}

/// Closes every file descriptor from 3 up but `keep` (stdio stays: it is the program's).
fn close_all_but(keep: libc::c_int) {
    // SAFETY: close_range on fds this process owns; nothing uses them after the fork.
    unsafe {
        if keep > 3 {
            libc::syscall(libc::SYS_close_range, 3u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
    }
}

fn set_rlimit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let mut lim = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    if resource == libc::RLIMIT_CPU {
        // The soft limit sends SIGXCPU (a verdict of its own); the hard one, a second later,
        // SIGKILL for a program that catches it.
        lim.rlim_max = value + 1;
    }
    // SAFETY: a plain system call on a valid struct.
    unsafe {
        let mut old: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(resource, &mut old) == 0 && old.rlim_max != libc::RLIM_INFINITY {
            // Never above what gametrace itself may have: lowering is always allowed.
            lim.rlim_max = lim.rlim_max.min(old.rlim_max);
            lim.rlim_cur = lim.rlim_cur.min(lim.rlim_max);
        }
        if libc::setrlimit(resource, &lim) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

fn write_all(fd: libc::c_int, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: writing from a valid buffer.
    let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: open, write, close with valid arguments.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let r = write_all(fd, bytes);
        libc::close(fd);
        r
    }
}

/// The system call numbers the filter needs, for one architecture.
struct Arch {
    /// `AUDIT_ARCH_*`, as the kernel reports it in `seccomp_data.arch`.
    audit: u32,
    socket: u32,
    /// `connect(2)`: the only sockets a program may make are local ones, and connecting one
    /// to a path reaches whatever service listens there (`docker.sock`, a display server).
    connect: u32,
    /// `sendto(2)`, refused with an address (a datagram to a path, as to `/dev/log`).
    sendto: u32,
    /// `socketcall(2)`, the 32-bit x86 multiplexer. Its arguments are in memory, out of a
    /// filter's reach, so its SYS_SOCKET kills whatever the family: SML/NJ's 32-bit runtime
    /// opens its sockets this way, and no 15-150 program needs one.
    socketcall: Option<u32>,
    /// `mknod(2)` where the architecture still has it, and `mknodat(2)`.
    mknod: Option<u32>,
    mknodat: u32,
    ioctl: u32,
    getpriority: u32,
}

// The ABI constants of <linux/audit.h> and the syscall tables: libc has them only for the
// architecture it is built for, and seccompiler's filters cover one architecture, which would
// kill every 32-bit program (SML/NJ's runtime is one) at its first system call.
const X86_64: Arch = Arch {
    sendto: 44,
    connect: 42,
    audit: 0xC000_003E,
    socket: 41,
    socketcall: None,
    mknod: Some(133),
    mknodat: 259,
    ioctl: 16,
    getpriority: 140,
};
const I386: Arch = Arch {
    sendto: 369,
    connect: 362,
    audit: 0x4000_0003,
    socket: 359,
    socketcall: Some(102),
    mknod: Some(14),
    mknodat: 297,
    ioctl: 54,
    getpriority: 96,
};
const AARCH64: Arch = Arch {
    sendto: 206,
    connect: 203,
    audit: 0xC000_00B7,
    socket: 198,
    socketcall: None,
    mknod: None,
    mknodat: 33,
    ioctl: 29,
    getpriority: 141,
};
const ARM: Arch = Arch {
    sendto: 290,
    connect: 283,
    audit: 0x4000_0028,
    socket: 281,
    socketcall: None,
    mknod: Some(14),
    mknodat: 324,
    ioctl: 54,
    getpriority: 96,
};
/// io_uring_setup has the same number everywhere (a new system call).
const IO_URING_SETUP: u32 = 425;
/// x32 system calls are x86-64's with this bit set.
const X32_BIT: u32 = 0x4000_0000;
/// `ioctl`s that push bytes into a terminal's input or a console: refused.
const TIOCSTI: u32 = 0x5412;
const TIOCLINUX: u32 = 0x541C;

/// The sandbox's mark: inside it, `getpriority(SANDBOX_PROBE, 0)` fails with this errno
/// (outside, the `which` is invalid and the errno is EINVAL). A seccomp filter is inherited
/// by every process a program starts and can never be removed, so no student program can
/// hide it from a copy of gametrace it runs ([`super::inside_sandbox`]).
pub const SANDBOX_PROBE: u32 = 0x4754_5342;
pub const SANDBOX_ERRNO: u32 = 4000;

/// The sandbox's seccomp filter, for the native architecture and its 32-bit companion:
/// - `socket(2)` for AF_INET, AF_INET6 and AF_PACKET is refused with ENETUNREACH, which
///   nothing else gives `socket(2)`: a program that fails after it says "Network is
///   unreachable", and that is the NETWORK verdict. (It used to kill the process, but the
///   JVM's network library opens and closes an Internet socket as it loads, to learn
///   whether IPv4 and IPv6 are there: every `javac` run in the sandbox was killed.)
///   32-bit x86's socketcall(SYS_SOCKET) still kills (its family is out of a filter's
///   reach); any other family but AF_UNIX (netlink, vsock, XDP, ...) is refused
///   (EAFNOSUPPORT);
/// - `connect(2)`, and `sendto(2)` with an address, are refused (EACCES): a Unix socket
///   addressed to a path reaches a service of the host's (a pair of them, `socketpair`,
///   still works);
/// - `mknod`/`mknodat` of a character or block device is refused (EPERM), as is
///   `ioctl(TIOCSTI)` and `ioctl(TIOCLINUX)`, which push input into a terminal;
/// - io_uring, which could open sockets without `socket(2)`, and x32 calls are refused;
/// - `getpriority(SANDBOX_PROBE, _)` answers the sandbox's mark.
///
/// Everything else is allowed. `None` on an architecture it does not know.
pub fn network_filter() -> Option<seccompiler::BpfProgram> {
    use libc::{
        BPF_ABS, BPF_ALU, BPF_AND, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W,
        SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, SECCOMP_RET_KILL_PROCESS,
    };
    use seccompiler::sock_filter;
    let stmt = |code: u32, k: u32| sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |op: u32, k: u32, jt: u8, jf: u8| sock_filter {
        code: (BPF_JMP | op | BPF_K) as u16,
        jt,
        jf,
        k,
    };
    // Offsets in struct seccomp_data: nr, arch, then the arguments (low word first).
    let load = |offset: u32| stmt(BPF_LD | BPF_W | BPF_ABS, offset);
    let arg = |n: u32| 16 + 8 * n;
    let (nr, arch) = (0, 4);
    let allow = || stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    let kill = || stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    let errno = |e: u32| stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | e);
    // One system call's rule: if the call is `number`, `body` (which ends in a return);
    // else on to the next rule.
    let rule = |number: u32, body: Vec<sock_filter>| {
        let mut r = vec![load(nr), jump(BPF_JEQ, number, 0, body.len() as u8)];
        r.extend(body);
        r
    };
    let sockets = || {
        vec![
            load(arg(0)),
            jump(BPF_JEQ, libc::AF_UNIX as u32, 4, 0),
            jump(BPF_JEQ, libc::AF_INET as u32, 4, 0),
            jump(BPF_JEQ, libc::AF_INET6 as u32, 3, 0),
            jump(BPF_JEQ, libc::AF_PACKET as u32, 2, 0),
            errno(libc::EAFNOSUPPORT as u32),
            allow(),
            errno(libc::ENETUNREACH as u32),
        ]
    };
    // mknod's mode is argument `n`: a device is refused, anything else (a FIFO) allowed.
    let devices = |n: u32| {
        vec![
            load(arg(n)),
            stmt(BPF_ALU | BPF_AND | BPF_K, libc::S_IFMT),
            jump(BPF_JEQ, libc::S_IFCHR, 1, 0),
            jump(BPF_JEQ, libc::S_IFBLK, 0, 1),
            errno(libc::EPERM as u32),
            allow(),
        ]
    };
    let block = |a: &Arch, x32: bool| {
        let mut b = Vec::new();
        b.extend(rule(a.socket, sockets()));
        b.extend(rule(a.connect, vec![errno(libc::EACCES as u32)]));
        // sendto's address is argument 4: allowed only when null (both words 0).
        b.extend(rule(
            a.sendto,
            vec![
                load(arg(4)),
                jump(BPF_JEQ, 0, 0, 2),
                load(arg(4) + 4),
                jump(BPF_JEQ, 0, 1, 0),
                errno(libc::EACCES as u32),
                allow(),
            ],
        ));
        b.extend(rule(IO_URING_SETUP, vec![errno(libc::EACCES as u32)]));
        if let Some(mknod) = a.mknod {
            b.extend(rule(mknod, devices(1)));
        }
        b.extend(rule(a.mknodat, devices(2)));
        b.extend(rule(
            a.ioctl,
            vec![
                load(arg(1)),
                jump(BPF_JEQ, TIOCSTI, 1, 0),
                jump(BPF_JEQ, TIOCLINUX, 0, 1),
                errno(libc::EPERM as u32),
                allow(),
            ],
        ));
        b.extend(rule(
            a.getpriority,
            vec![
                load(arg(0)),
                jump(BPF_JEQ, SANDBOX_PROBE, 0, 1),
                errno(SANDBOX_ERRNO),
                allow(),
            ],
        ));
        if let Some(socketcall) = a.socketcall {
            b.extend(rule(
                socketcall,
                vec![
                    load(arg(0)),
                    // SYS_SOCKET
                    jump(BPF_JEQ, 1, 0, 1),
                    kill(),
                    // SYS_CONNECT
                    jump(BPF_JEQ, 3, 0, 1),
                    errno(libc::EACCES as u32),
                    allow(),
                ],
            ));
        }
        if x32 {
            b.extend([
                load(nr),
                jump(BPF_JGE, X32_BIT, 0, 1),
                errno(libc::EACCES as u32),
            ]);
        }
        b.push(allow());
        b
    };
    let (native, companion, x32) = match std::env::consts::ARCH {
        "x86_64" => (X86_64, Some(I386), true),
        "aarch64" => (AARCH64, Some(ARM), false),
        _ => return None,
    };
    let mut program = vec![load(arch)];
    let first = block(&native, x32);
    program.push(jump(BPF_JEQ, native.audit, 0, first.len() as u8));
    program.extend(first);
    if let Some(c) = companion {
        let second = block(&c, false);
        program.push(jump(BPF_JEQ, c.audit, 0, second.len() as u8));
        program.extend(second);
    }
    program.push(allow());
    Some(program)
}

/// Where the program may read and write.
struct Reach {
    /// Read and execute.
    read: BTreeSet<PathBuf>,
    /// Read only the files themselves (named on the command line inside a hidden directory).
    files: BTreeSet<PathBuf>,
    /// Read, write, create, remove.
    write: BTreeSet<PathBuf>,
    /// Never readable, even inside a readable directory.
    hidden: Vec<PathBuf>,
}

/// The system's directories of programs, libraries and configuration.
const SYSTEM: [&str; 10] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
];
/// What a program may read of the kernel's views (a JVM reads its cgroup limits in /sys).
const KERNEL: [&str; 2] = ["/proc", "/sys"];
/// Devices a program may read and write.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

impl Reach {
    fn new(
        argv: &[String],
        shell: bool,
        dir: Option<&Path>,
        scratch: &Scratch,
        policy: &Policy,
    ) -> Reach {
        let canon = |p: &Path| std::fs::canonicalize(p).ok();
        let mut hidden: Vec<PathBuf> = policy.hidden.iter().filter_map(|p| canon(p)).collect();
        if let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) {
            // A cargo build's whole `target/` too: it holds hard links to the binary.
            if let Some(target) = me
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "target"))
            {
                hidden.push(target.to_owned());
            }
            hidden.push(me);
        }
        let mut a = Reach {
            read: BTreeSet::new(),
            files: BTreeSet::new(),
            write: BTreeSet::new(),
            hidden,
        };
        for p in SYSTEM.iter().chain(&KERNEL) {
            if let Some(p) = canon(Path::new(p)) {
                a.read.insert(p);
            }
        }
        for p in DEVICES {
            a.write.insert(PathBuf::from(p));
        }
        for p in std::iter::once(scratch.path()).chain(policy.writable.iter().map(PathBuf::as_path))
        {
            if let Some(p) = canon(p) {
                a.write.insert(p);
            }
        }
        let base = dir
            .map(Path::to_owned)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        if let Some(d) = dir.and_then(canon) {
            a.read.insert(d);
        }
        for p in &policy.readable {
            if let Some(p) = canon(&base.join(p)) {
                a.read.insert(p);
            }
        }
        // The words of the command: programs (found on PATH) bring their runtime; paths bring
        // themselves and, for a file, its folder (a script's modules sit beside it).
        let mut words: Vec<String> = argv.to_vec();
        if shell {
            if let Some(line) = argv.last().and_then(|l| shlex::split(l)) {
                words.extend(line);
            }
        }
        for (i, word) in words.iter().enumerate() {
            for part in word.split([':', '=', ',']) {
                if part.is_empty() {
                    continue;
                }
                if !part.contains('/') {
                    // A program's name: its first word, or any word in a shell line.
                    if i == 0 || shell {
                        if let Some(found) = on_path(part) {
                            a.program(&found);
                        }
                    }
                    if i == 0 {
                        continue;
                    }
                }
                let Some(path) = canon(&base.join(part)) else {
                    continue;
                };
                if i == 0 {
                    a.program(&path);
                }
                a.named(&path);
            }
        }
        a
    }

    /// A path the command line names: readable, and for a file its folder too, unless the
    /// folder is the graders'.
    fn named(&mut self, path: &Path) {
        if self.is_hidden(path) {
            return;
        }
        if path.is_dir() {
            self.read.insert(path.to_owned());
            return;
        }
        self.files.insert(path.to_owned());
        if let Some(dir) = path.parent() {
            if !self.is_hidden(dir) && dir.parent().is_some() {
                self.read.insert(dir.to_owned());
            }
        }
    }

    /// A program: itself, the installation it belongs to (`.../bin/python3` → `...`), and the
    /// interpreter of a script (`#!`).
    fn program(&mut self, path: &Path) {
        for (depth, p) in [path.to_owned()]
            .into_iter()
            .chain(std::fs::canonicalize(path))
            .enumerate()
        {
            if depth > 1 || self.is_hidden(&p) {
                continue;
            }
            self.files.insert(p.clone());
            if let Some(root) = installation(&p) {
                if !self.is_hidden(&root) {
                    self.read.insert(root);
                }
            }
            for interpreter in shebang(&p) {
                if let Some(root) = installation(&interpreter) {
                    if !self.is_hidden(&root) {
                        self.read.insert(root);
                    }
                }
            }
        }
    }

    fn is_hidden(&self, p: &Path) -> bool {
        self.hidden.iter().any(|h| p.starts_with(h))
    }

    /// The Landlock ruleset: everything handled, the rules above allowed.
    fn ruleset(&self) -> Result<landlock::RulesetCreated, landlock::RulesetError> {
        use landlock::{
            Access, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr,
            RulesetCreatedAttr, Scope, ABI,
        };
        let abi = ABI::V6;
        let read = AccessFs::from_read(abi);
        let mut rules: Vec<(PathBuf, landlock::BitFlags<AccessFs>)> = Vec::new();
        for root in &self.read {
            self.beneath(root, read, &mut rules);
        }
        for file in &self.files {
            rules.push((
                file.clone(),
                read & (AccessFs::ReadFile | AccessFs::Execute),
            ));
        }
        for w in &self.write {
            // Never a device node, even in its own folder (root could make the disk's).
            let all = if w.is_dir() {
                AccessFs::from_all(abi) & !(AccessFs::MakeChar | AccessFs::MakeBlock)
            } else {
                AccessFs::from_file(abi)
            };
            rules.push((w.clone(), all));
        }
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(abi))?
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?
            .scope(Scope::AbstractUnixSocket | Scope::Signal)?
            .create()?;
        for (path, access) in rules {
            if let Ok(fd) = PathFd::new(&path) {
                ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
            }
        }
        Ok(ruleset)
    }

    /// Rules for `root` without the hidden paths inside it: the folders on the way to a
    /// hidden path may be listed but not read; everything beside them is readable.
    fn beneath(
        &self,
        root: &Path,
        read: landlock::BitFlags<landlock::AccessFs>,
        rules: &mut Vec<(PathBuf, landlock::BitFlags<landlock::AccessFs>)>,
    ) {
        use landlock::AccessFs;
        if self.hidden.iter().any(|h| root.starts_with(h)) {
            return;
        }
        if !self.hidden.iter().any(|h| h.starts_with(root)) {
            rules.push((root.to_owned(), read));
            return;
        }
        // A hidden path is inside: listing is allowed, so a program's imports beside it still
        // resolve; every entry but the hidden ones is allowed on its own.
        rules.push((root.to_owned(), read & AccessFs::ReadDir));
        let Ok(entries) = std::fs::read_dir(root) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if self.hidden.iter().any(|h| h == &path) {
                continue;
            }
            if is_dir {
                self.beneath(&path, read, rules);
            } else if !self.hidden.iter().any(|h| h.starts_with(&path)) {
                rules.push((path, read));
            }
        }
    }
}

/// `name` found on PATH, as the shell would find it.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The installation a program belongs to: the folder above its `bin/` (or pyenv's `shims/`),
/// else its own folder; never `/` or a home directory as a whole.
fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let root = match dir.file_name().and_then(|n| n.to_str()) {
        Some("bin" | "sbin" | "shims" | "libexec") => dir.parent()?,
        _ => dir,
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if root.components().count() < 3 || Some(root) == home.as_deref() {
        // `/usr/bin` → `/usr` is a system folder, already readable; `/home/x/bin` → the
        // folder of the program only.
        return if dir.components().count() >= 2 && Some(dir) != home.as_deref() {
            Some(dir.to_owned())
        } else {
            None
        };
    }
    Some(root.to_owned())
}

/// The interpreters a script's `#!` line names (`/usr/bin/env python3` → both).
fn shebang(program: &Path) -> Vec<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let Ok(n) = std::fs::File::open(program).and_then(|mut f| f.read(&mut head)) else {
        return Vec::new();
    };
    let Some(line) = head[..n].strip_prefix(b"#!") else {
        return Vec::new();
    };
    let line = String::from_utf8_lossy(line.split(|&b| b == b'\n').next().unwrap_or(&[]));
    // Only the interpreter counts, and for `env` the program it starts: other words (an
    // option's argument, `-X /some/path`) never widen what the script may read.
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Vec::new();
    };
    let mut interpreters = vec![first.to_owned()];
    if Path::new(first).file_name().is_some_and(|n| n == "env") {
        if let Some(program) = words.find(|w| !w.starts_with('-') && !w.contains('=')) {
            interpreters.push(program.to_owned());
        }
    }
    let mut found = Vec::new();
    for word in interpreters {
        if word.starts_with('/') {
            found.push(PathBuf::from(&word));
            if let Ok(c) = std::fs::canonicalize(&word) {
                found.push(c);
            }
        } else if let Some(p) = on_path(&word) {
            if let Ok(c) = std::fs::canonicalize(&p) {
                found.push(c);
            }
            found.push(p);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_in_a_private_folder_is_not_runnable_by_nobody() {
        use std::os::unix::fs::PermissionsExt;
        assert!(runnable_by(Path::new("/bin/sh"), SANDBOX_UID));
        let dir = tempfile::tempdir().unwrap();
        let prog = dir.path().join("tool");
        std::fs::write(&prog, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!runnable_by(&prog, SANDBOX_UID), "its folder is private");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(runnable_by(&prog, SANDBOX_UID));
        std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(
            !runnable_by(&prog, SANDBOX_UID),
            "only its owner may run it"
        );
        assert!(!runnable_by(&dir.path().join("missing"), SANDBOX_UID));
    }

    #[test]
    fn an_installation_is_the_folder_above_bin() {
        assert_eq!(
            installation(Path::new("/opt/py/3.11/bin/python3")),
            Some(PathBuf::from("/opt/py/3.11"))
        );
        assert_eq!(
            installation(Path::new("/root/.pyenv/shims/python3")),
            Some(PathBuf::from("/root/.pyenv"))
        );
        // Never the whole file system.
        assert_eq!(
            installation(Path::new("/bin/sh")),
            Some(PathBuf::from("/bin"))
        );
    }

    #[test]
    fn a_cgroup_counter_is_read_by_name() {
        assert_eq!(
            counter("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n", "max"),
            3
        );
        assert_eq!(
            counter("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", "oom_kill"),
            2
        );
        assert_eq!(counter("max 0\n", "max"), 0);
        assert_eq!(counter("", "oom_kill"), 0);
    }
}
