//! The confinement a program starts in, built in gametrace (where it may allocate, read
//! directories and report errors) and entered by the child between `fork` and `exec` with
//! system calls only.
//!
//! Layers, each used where [`super::protections`] found the kernel allows it:
//! - **who**: an ordinary user's program runs as that user; root's as a uid of its own for
//!   the run ([`super::identity`]), never root inside or outside, with no capability;
//! - **namespaces**: network, PID (whose first process is a tiny init of gametrace's: when
//!   the program ends, the kernel kills everything left in it), mount (its own `/proc`, an
//!   empty `/run`, and a size-limited tmpfs for its temp folder: the disk quota is the
//!   kernel's), IPC (SysV objects die with it) and UTS. Root makes them itself; an ordinary
//!   user needs a user namespace first;
//! - **Landlock**: reads, runs and writes only what [`FilePolicy`] computed;
//! - **seccomp**: system calls by allow-list ([`super::syscalls`]);
//! - **a cgroup** (as root): the memory of the whole command;
//! - **resource limits** on every process.

use super::cgroup::CgroupKind;
use super::policy::{FilePolicy, ProcView};
use super::{Job, Scratch};
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The layers a plan may use (as probed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layers {
    pub landlock: bool,
    pub seccomp: bool,
    /// A mount namespace: a fresh `/proc` for the PID namespace (so no process outside is
    /// even visible), and the temp folder on a tmpfs of the quota's size.
    pub mount_namespace: bool,
    pub user_namespace: bool,
    pub network_namespace: bool,
    /// With it, IPC and UTS namespaces.
    pub pid_namespace: bool,
    pub cgroup: Option<CgroupKind>,
}

/// Who the program runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// An ordinary user runs it as themself (no capabilities once it execs).
    Same,
    /// Root runs it as this uid (and gid), a [`super::identity::Seat`]'s, once the setup that
    /// needs root is done: every capability dropped, the bounding set emptied.
    Seat(u32),
}

/// What [`Plan::enter`] does in the child, prepared in the parent.
pub struct Plan {
    parent: u32,
    rlimits: Vec<(libc::__rlimit_resource_t, u64)>,
    unshare: libc::c_int,
    /// `/proc/self/uid_map` and `gid_map` contents, for an ordinary user's user namespace.
    id_maps: Option<(Vec<u8>, Vec<u8>)>,
    pid_namespace: bool,
    /// The status pipe from the program's init to the process gametrace waits for.
    status: Option<(OwnedFd, OwnedFd)>,
    /// The pipe of init's extras (temp folder full, processes left) to gametrace: its write
    /// end; gametrace keeps the read end ([`Plan::extras`]).
    extras: Option<OwnedFd>,
    extras_reader: Option<OwnedFd>,
    cgroup_procs: Vec<OwnedFd>,
    ruleset: Option<landlock::RulesetCreated>,
    /// The same Landlock ruleset, to add what is mounted in the child to (a rule names an
    /// inode, and a fresh `/proc` or tmpfs is not the one the parent saw).
    ruleset_fd: Option<OwnedFd>,
    mounts: Option<Mounts>,
    identity: Identity,
    /// The highest capability number, for emptying the bounding set.
    last_cap: libc::c_int,
    seccomp: Option<Vec<seccompiler::sock_filter>>,
    /// The CPU limit, for init's verdict on a program killed at the hard limit.
    cpu_limit: u64,
    /// The file-system rights the Landlock ruleset handles (a rule added in the child may not
    /// name more).
    handled_fs: u64,
    /// Where gametrace's command line lies in its memory (and so in its forked init's), to be
    /// blanked in the init: the program would otherwise read the grader's command line in
    /// `/proc/1/cmdline`.
    argv: Option<(usize, usize)>,
}

/// What the child mounts in its own mount namespace.
struct Mounts {
    /// The temp folder: a tmpfs over it of the quota's size, with the files gametrace put
    /// there copied in.
    scratch: Option<ScratchMount>,
    /// Runtimes the program's uid could not reach by their path (pyenv's in a private
    /// `/root`): each folder in the way is covered by an empty tmpfs that any user may pass,
    /// and the runtime is bound back into it, at the same path.
    binds: Vec<Bind>,
    /// The folders it may write besides its temp folder (a staged course folder): the only
    /// ones left writable when every other mount is made read-only.
    writable: Vec<CString>,
    /// The hidden paths, each covered (a folder by an empty tmpfs, a file by `/dev/null`):
    /// Landlock keeps the program from reading them, and this from learning their names,
    /// sizes and times by `stat` or watching them with inotify, which Landlock does not look
    /// at. (true: a folder.)
    covers: Vec<(CString, bool)>,
}

struct ScratchMount {
    path: CString,
    options: CString,
    /// The files to copy in, relative to the folder, in an order where each folder comes
    /// before what it holds.
    entries: Vec<Entry>,
}

enum Entry {
    Dir(CString),
    File(CString, u32),
    Link(CString, CString),
}

struct Bind {
    /// The folder the program's uid cannot pass.
    over: CString,
    /// The folders to make inside the tmpfs, outermost first.
    dirs: Vec<CString>,
    /// The runtimes to bind back: (path, is a folder).
    targets: Vec<(CString, bool)>,
    /// Links of the grader's on the way to a named path, made again inside the tmpfs
    /// (their folders first): (the link, what it points to, as written).
    links: Vec<(CString, CString)>,
}

/// What init tells gametrace besides the program's exit status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Its temp folder (a tmpfs of the quota's size) was full when it ended.
    pub disk_full: bool,
    /// Processes it left running, killed with the namespace.
    pub left: u32,
}

impl Extras {
    /// Reads what init sent on `fd` (once the program's end is known: init has written by
    /// then, or died and written nothing).
    pub fn read(fd: &OwnedFd) -> Extras {
        let mut bytes = [0u8; 8];
        // SAFETY: a non-blocking read into a local buffer.
        let n = unsafe {
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK);
            libc::read(fd.as_raw_fd(), bytes.as_mut_ptr().cast(), 8)
        };
        if n != 8 {
            return Extras::default();
        }
        Extras {
            disk_full: u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) != 0,
            left: u32::from_ne_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        }
    }
}

impl Plan {
    /// The plan for `job`: `layers` as probed, its limits, who runs it, and the file policy
    /// worked out from the grader's words, its folder and its policy.
    pub fn new(
        layers: Layers,
        job: &Job,
        identity: Identity,
        cgroup_procs: Vec<OwnedFd>,
    ) -> io::Result<Plan> {
        let limits = &job.limits;
        // With a cgroup its pids.max binds first (and counts it); RLIMIT_NPROC stays behind.
        let nproc = u64::from(limits.processes) + if cgroup_procs.is_empty() { 0 } else { 16 };
        let mut rlimits = vec![
            (libc::RLIMIT_CPU, limits.cpu.as_secs().max(1)),
            (libc::RLIMIT_NPROC, nproc),
            (libc::RLIMIT_FSIZE, limits.file_size),
            (libc::RLIMIT_NOFILE, u64::from(limits.open_files)),
            (libc::RLIMIT_CORE, 0),
        ];
        // With a cgroup the whole command's memory is the kernel's to limit (and a process
        // that passes it is killed and counted: MEMORY-LIMIT); without, each process's.
        if cgroup_procs.is_empty() {
            rlimits.push((libc::RLIMIT_DATA, limits.memory));
        }
        let mut unshare = 0;
        if layers.network_namespace {
            unshare |= libc::CLONE_NEWNET;
        }
        if layers.pid_namespace {
            // With its own PID namespace, its own host name and SysV objects too.
            unshare |= libc::CLONE_NEWPID | libc::CLONE_NEWUTS | libc::CLONE_NEWIPC;
        }
        let mount_namespace = layers.mount_namespace && layers.pid_namespace;
        if mount_namespace {
            unshare |= libc::CLONE_NEWNS;
        }
        let mut id_maps = None;
        if unshare != 0 && identity == Identity::Same && layers.user_namespace {
            // SAFETY: no preconditions.
            let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
            unshare |= libc::CLONE_NEWUSER;
            id_maps = Some((
                format!("{uid} {uid} 1\n").into_bytes(),
                format!("{gid} {gid} 1\n").into_bytes(),
            ));
        }
        if unshare != 0 && identity == Identity::Same && !layers.user_namespace {
            return Err(io::Error::other(
                "namespaces need a user namespace for an ordinary user",
            ));
        }
        if let Identity::Seat(uid) = identity {
            // Its temp folder and a staged course folder are its to write.
            for dir in std::iter::once(job.scratch.path())
                .chain(job.policy.writable.iter().map(PathBuf::as_path))
            {
                super::files::hand_over(dir, uid)?;
            }
        }
        let last_cap = std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(63);
        let (status, extras, extras_reader) = if layers.pid_namespace {
            let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
            let (xr, xw) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
            (Some((r, w)), Some(xw), Some(xr))
        } else {
            (None, None, None)
        };
        let proc = if mount_namespace {
            ProcView::Own
        } else {
            ProcView::Host
        };
        let files = FilePolicy::compute(job.words, job.dir, job.scratch, job.policy, proc);
        let mounts = if mount_namespace {
            Some(Mounts {
                scratch: Some(scratch_mount(job.scratch, job.limits.disk)?),
                writable: job
                    .policy
                    .writable
                    .iter()
                    .map(|w| cstring(&super::policy::resolve(w)))
                    .collect(),
                binds: match identity {
                    Identity::Seat(uid) => binds(&files, uid),
                    Identity::Same => Vec::new(),
                },
                covers: covers(&files, job),
            })
        } else {
            None
        };
        let ruleset = if layers.landlock {
            let skip = mount_namespace.then(|| super::policy::resolve(job.scratch.path()));
            Some(ruleset(&files, skip.as_deref()).map_err(io::Error::other)?)
        } else {
            None
        };
        let ruleset_fd = match &ruleset {
            Some(r) => Option::<OwnedFd>::from(r.try_clone()?),
            None => None,
        };
        let seccomp = if layers.seccomp {
            super::syscalls::filter(layers.pid_namespace, layers.network_namespace)
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
            extras,
            extras_reader,
            cgroup_procs,
            ruleset,
            ruleset_fd,
            mounts,
            identity,
            last_cap,
            seccomp,
            cpu_limit: limits.cpu.as_secs().max(1),
            argv: argv_area(),
            handled_fs: match super::probe::landlock_abi() {
                i64::MIN..=1 => (1 << 13) - 1,
                2 => (1 << 14) - 1,
                3 | 4 => (1 << 15) - 1,
                _ => (1 << 16) - 1,
            },
        })
    }

    /// The read end of init's extras, for gametrace to keep (taken once).
    pub fn extras(&mut self) -> Option<OwnedFd> {
        self.extras_reader.take()
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
        // Nothing gametrace's own caller left open reaches the program: a descriptor is
        // checked by Landlock only when it is opened, so one inherited open (a grader's
        // expected trace, its log) would be read or written through `/proc/self/fd`.
        keep_only_stdio_across_exec();
        for fd in &self.cgroup_procs {
            // "0" is the writer itself.
            write_all(fd.as_raw_fd(), b"0")?;
        }
        set_rlimit(libc::RLIMIT_CORE, 0)?;
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
        if let Some(mounts) = self.mounts.take() {
            self.mount(&mounts)?;
        } else {
            // The host's /proc: the program may read its own folder there (its status, its
            // open files), never another process's.
            self.allow_mounted(c"/proc/self", (1 << 2) | (1 << 3))?;
        }
        self.drop_privileges()?;
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

    /// In the program's mount namespace (private: nothing propagates back): the runtimes
    /// bound back where the uid could not reach them, a `/proc` of its own PID namespace, an
    /// empty `/run`, and the tmpfs temp folder with gametrace's files copied in; the fresh
    /// mounts are added to the Landlock ruleset.
    fn mount(&mut self, mounts: &Mounts) -> io::Result<()> {
        // SAFETY: system calls with valid C strings.
        unsafe {
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
        }
        for bind in &mounts.binds {
            bind_back(bind)?;
        }
        for (path, folder) in &mounts.covers {
            // Best effort: Landlock holds the hidden path whether or not it is covered (one
            // inside a folder covered first is already out of sight).
            // SAFETY: mounts with valid C strings.
            unsafe {
                if *folder {
                    libc::mount(
                        c"tmpfs".as_ptr(),
                        path.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
                        c"size=4k,nr_inodes=1,mode=000".as_ptr().cast(),
                    );
                } else {
                    libc::mount(
                        c"/dev/null".as_ptr(),
                        path.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND,
                        std::ptr::null(),
                    );
                }
            }
        }
        // SAFETY: system calls with valid C strings.
        unsafe {
            check(libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ))?;
            // The host's `/run` (where `docker.sock`, D-Bus and the like listen) is covered
            // by an empty, read-only folder. Best effort: a system without `/run` loses
            // nothing.
            libc::mount(
                c"tmpfs".as_ptr(),
                c"/run".as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
                c"size=4k,mode=755".as_ptr().cast(),
            );
        }
        self.allow_mounted(c"/proc", (1 << 2) | (1 << 3))?;
        if let Some(scratch) = &mounts.scratch {
            let owner = match self.identity {
                Identity::Seat(uid) => Some(uid),
                Identity::Same => None,
            };
            fill_scratch(scratch, owner)?;
            // Everything but making device nodes (LANDLOCK_ACCESS_FS_MAKE_CHAR, _BLOCK).
            let all: u64 = (1 << 16) - 1;
            let devices: u64 = (1 << 6) | (1 << 11);
            self.allow_mounted(&scratch.path, (all & !devices) & self.handled_fs)?;
        }
        read_only_but(mounts)
    }

    /// Adds a rule for a folder mounted in the child to the Landlock ruleset.
    fn allow_mounted(&self, path: &std::ffi::CStr, access: u64) -> io::Result<()> {
        let Some(ruleset) = &self.ruleset_fd else {
            return Ok(());
        };
        #[repr(C, packed)]
        struct PathBeneath {
            allowed_access: u64,
            parent_fd: i32,
        }
        // SAFETY: system calls with a valid C string and attribute struct.
        unsafe {
            let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            let attr = PathBeneath {
                allowed_access: access,
                parent_fd: fd,
            };
            // LANDLOCK_RULE_PATH_BENEATH = 1.
            let r = libc::syscall(
                libc::SYS_landlock_add_rule,
                ruleset.as_raw_fd(),
                1,
                std::ptr::addr_of!(attr),
                0,
            );
            libc::close(fd);
            if r != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Gives up every privilege before the program runs: the capability bounding set
    /// emptied, root's ids changed for the seat's (which clears every capability), the
    /// parent-death signal set again (a change of ids clears it), and `no_new_privs`, so no
    /// set-uid program gives any back.
    fn drop_privileges(&mut self) -> io::Result<()> {
        // SAFETY: system calls only.
        unsafe {
            for cap in 0..=self.last_cap {
                if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0
                    && *libc::__errno_location() != libc::EINVAL
                    && *libc::__errno_location() != libc::EPERM
                {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Identity::Seat(uid) = self.identity {
                let id = libc::c_long::from(uid as i32);
                if libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0
                    || libc::syscall(libc::SYS_setresgid, id, id, id) != 0
                    || libc::syscall(libc::SYS_setresuid, id, id, id) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                if libc::getppid() != self.expected_parent() {
                    return Err(io::Error::other(
                        "gametrace ended before the command started",
                    ));
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The parent the program has at this point: its init (1) in a PID namespace, else
    /// gametrace.
    fn expected_parent(&self) -> libc::pid_t {
        if self.pid_namespace {
            1
        } else {
            self.parent as libc::pid_t
        }
    }

    /// After `unshare(CLONE_NEWPID)`: this process (the one gametrace waits for) forks the
    /// namespace's init, which forks the program. Init reaps orphans and, when the program
    /// ends, sends up a pipe its wait status, whether its temp folder is full and how many
    /// processes it left, and exits; the kernel kills whatever is left in the namespace. This
    /// process then ends the way the program did, so gametrace sees the program's own exit
    /// status or signal (and reads the rest from the pipe).
    fn become_init(&mut self) -> io::Result<()> {
        let Some((read, write)) = &self.status else {
            return Ok(());
        };
        let (read, write) = (read.as_raw_fd(), write.as_raw_fd());
        let extras = self.extras.as_ref().map_or(-1, |f| f.as_raw_fd());
        // SAFETY: fork in a single-threaded child; each branch only makes system calls.
        let init = unsafe { libc::fork() };
        if init < 0 {
            return Err(io::Error::last_os_error());
        }
        if init > 0 {
            close_all_but(&[read]);
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
        let scratch = self
            .mounts
            .as_ref()
            .and_then(|m| m.scratch.as_ref())
            .map(|s| s.path.clone());
        // SAFETY: system calls, and zeros written over this process's own command line.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
            if let Some((start, end)) = self.argv {
                std::ptr::write_bytes(start as *mut u8, 0, end - start);
            }
            // Init waits for SIGCHLD with a timeout, looking at the temp folder's tmpfs
            // between: a program that fills it and then frees it (a file mapped, written,
            // unlinked, then a SIGBUS) was still past its quota.
            let mut chld: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut chld);
            libc::sigaddset(&mut chld, libc::SIGCHLD);
            libc::sigprocmask(libc::SIG_BLOCK, &chld, std::ptr::null_mut());
            let program = libc::fork();
            if program < 0 {
                libc::_exit(125);
            }
            if program == 0 {
                libc::sigprocmask(libc::SIG_UNBLOCK, &chld, std::ptr::null_mut());
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                // The namespace's init is its process 1.
                if libc::getppid() != 1 {
                    libc::_exit(125);
                }
                self.status = None;
                return Ok(());
            }
            close_all_but(&[write, extras]);
            let mut st = 0;
            let mut was_full = false;
            let look = libc::timespec {
                tv_sec: 0,
                tv_nsec: 2_000_000,
            };
            loop {
                let mut usage: libc::rusage = std::mem::zeroed();
                let pid = libc::wait4(-1, &mut st, libc::WNOHANG, &mut usage);
                if pid == 0 {
                    was_full |= scratch.as_deref().is_some_and(is_full);
                    libc::sigtimedwait(&chld, std::ptr::null_mut(), &look);
                    continue;
                }
                if pid == program {
                    // A program that ignored SIGXCPU is killed at the hard limit: still a CPU
                    // verdict, told from any other SIGKILL by the CPU time it used.
                    let used = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec;
                    if libc::WIFSIGNALED(st)
                        && libc::WTERMSIG(st) == libc::SIGKILL
                        && used >= 0
                        && used as u64 >= self.cpu_limit
                    {
                        st = libc::SIGXCPU;
                    }
                    let full = was_full || scratch.as_deref().is_some_and(is_full);
                    let left = count_left();
                    let mut bytes = [0u8; 8];
                    bytes[..4].copy_from_slice(&u32::from(full).to_ne_bytes());
                    bytes[4..].copy_from_slice(&left.to_ne_bytes());
                    if extras >= 0 {
                        libc::write(extras, bytes.as_ptr().cast(), 8);
                    }
                    libc::write(write, st.to_ne_bytes().as_ptr().cast(), 4);
                    libc::_exit(0);
                }
                if pid < 0 && *libc::__errno_location() == libc::ECHILD {
                    libc::_exit(0);
                }
            }
        }
    }
}

/// Where this process's command line lies in its memory (`/proc/self/stat`'s `arg_start` and
/// `arg_end`, fields 48 and 49).
fn argv_area() -> Option<(usize, usize)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command's name (which may hold anything) start at field 3.
    let (_, rest) = stat.rsplit_once(") ")?;
    let mut fields = rest.split_ascii_whitespace().skip(48 - 3);
    let start: usize = fields.next()?.parse().ok()?;
    let end: usize = fields.next()?.parse().ok()?;
    (end > start && end - start < 1 << 20).then_some((start, end))
}

/// Is the tmpfs at `path` full (no block, or no inode, left)? Called by init.
fn is_full(path: &std::ffi::CStr) -> bool {
    // SAFETY: statfs into a local struct.
    unsafe {
        let mut fs: libc::statfs = std::mem::zeroed();
        libc::statfs(path.as_ptr(), &mut fs) == 0 && (fs.f_bavail == 0 || fs.f_ffree == 0)
    }
}

/// The processes in the namespace besides init: what the program left running. Called by
/// init, whose `/proc` is the namespace's.
fn count_left() -> u32 {
    // SAFETY: open, getdents64 into a local buffer, close.
    unsafe {
        let fd = libc::open(
            c"/proc".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return 0;
        }
        let mut buf = [0u8; 4096];
        let mut count = 0;
        loop {
            let n = libc::syscall(libc::SYS_getdents64, fd, buf.as_mut_ptr(), buf.len());
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            while at < n as usize {
                // struct linux_dirent64: u64 ino, i64 off, u16 reclen, u8 type, name.
                let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
                let name = &buf[at + 19..at + reclen];
                let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
                if !name.is_empty() && name.iter().all(u8::is_ascii_digit) && name != b"1" {
                    count += 1;
                }
                at += reclen.max(1);
            }
        }
        libc::close(fd);
        count
    }
}

/// The temp folder's tmpfs and its copy plan: every folder, file and link gametrace put in it
/// (its own files, written before the program starts).
fn scratch_mount(scratch: &Scratch, disk: u64) -> io::Result<ScratchMount> {
    let root = super::policy::resolve(scratch.path());
    let mut entries = Vec::new();
    fn walk(root: &Path, dir: &Path, out: &mut Vec<Entry>) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let mut list: Vec<_> = std::fs::read_dir(dir)?.flatten().collect();
        list.sort_by_key(|e| e.file_name());
        for e in list {
            let path = e.path();
            let rel = cstring(path.strip_prefix(root).unwrap_or(&path));
            let meta = std::fs::symlink_metadata(&path)?;
            if meta.is_symlink() {
                out.push(Entry::Link(rel, cstring(&std::fs::read_link(&path)?)));
            } else if meta.is_dir() {
                out.push(Entry::Dir(rel));
                walk(root, &path, out)?;
            } else if meta.is_file() {
                out.push(Entry::File(rel, meta.permissions().mode() & 0o777));
            }
        }
        Ok(())
    }
    walk(&root, &root, &mut entries)?;
    // A little room for the folders themselves; inodes, one per 4 KiB of quota.
    let size = disk.max(1 << 20);
    let inodes = (size / 4096).clamp(1024, 1 << 20);
    Ok(ScratchMount {
        path: cstring(&root),
        options: CString::new(format!("size={size},nr_inodes={inodes},mode=0700"))
            .expect("no NUL in numbers"),
        entries,
    })
}

fn cstring(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap_or_default()
}

/// Mounts the tmpfs over the temp folder and copies gametrace's files in (through a
/// descriptor of the folder opened before the mount hides it), owned by `owner` if given.
fn fill_scratch(s: &ScratchMount, owner: Option<u32>) -> io::Result<()> {
    // SAFETY: system calls with valid C strings; descriptors this process owns.
    unsafe {
        let from = libc::open(
            s.path.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if from < 0 {
            return Err(io::Error::last_os_error());
        }
        check(libc::mount(
            c"tmpfs".as_ptr(),
            s.path.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            s.options.as_ptr().cast(),
        ))?;
        let to = libc::open(
            s.path.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if to < 0 {
            return Err(io::Error::last_os_error());
        }
        let chown = |fd: libc::c_int, name: &std::ffi::CStr| {
            if let Some(uid) = owner {
                libc::fchownat(fd, name.as_ptr(), uid, uid, libc::AT_SYMLINK_NOFOLLOW);
            }
        };
        if let Some(uid) = owner {
            libc::fchown(to, uid, uid);
        }
        for e in &s.entries {
            match e {
                Entry::Dir(rel) => {
                    check(libc::mkdirat(to, rel.as_ptr(), 0o755))?;
                    chown(to, rel);
                }
                Entry::Link(rel, target) => {
                    check(libc::symlinkat(target.as_ptr(), to, rel.as_ptr()))?;
                    chown(to, rel);
                }
                Entry::File(rel, mode) => {
                    let src = libc::openat(
                        from,
                        rel.as_ptr(),
                        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                    );
                    if src < 0 {
                        return Err(io::Error::last_os_error());
                    }
                    let dst = libc::openat(
                        to,
                        rel.as_ptr(),
                        libc::O_WRONLY
                            | libc::O_CREAT
                            | libc::O_EXCL
                            | libc::O_NOFOLLOW
                            | libc::O_CLOEXEC,
                        *mode,
                    );
                    if dst < 0 {
                        return Err(io::Error::last_os_error());
                    }
                    loop {
                        let n = libc::sendfile(dst, src, std::ptr::null_mut(), 1 << 30);
                        if n == 0 {
                            break;
                        }
                        if n < 0 {
                            return Err(io::Error::last_os_error());
                        }
                    }
                    if let Some(uid) = owner {
                        libc::fchown(dst, uid, uid);
                    }
                    libc::close(src);
                    libc::close(dst);
                }
            }
        }
        libc::close(from);
        libc::close(to);
    }
    Ok(())
}

/// The runtimes the policy lets `uid` read but a folder on the way keeps it from reaching:
/// for each such folder, the runtimes to bind back under an empty tmpfs over it.
fn binds(files: &FilePolicy, uid: u32) -> Vec<Bind> {
    use super::policy::Access;
    let mut by_folder: std::collections::BTreeMap<PathBuf, Vec<PathBuf>> = Default::default();
    for r in &files.rules {
        if !matches!(r.access, Access::Read) || !r.path.exists() {
            continue;
        }
        let Some(blocked) = r
            .path
            .ancestors()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find(|dir| !may(dir, uid, 0o1))
        else {
            continue;
        };
        by_folder
            .entry(blocked.to_owned())
            .or_default()
            .push(r.path.clone());
    }
    let mut out = Vec::new();
    for (over, mut targets) in by_folder {
        targets.sort();
        // A target inside another comes with it.
        let mut kept: Vec<PathBuf> = Vec::new();
        for t in targets {
            if !kept.iter().any(|k| t.starts_with(k)) {
                kept.push(t);
            }
        }
        let mut dirs = std::collections::BTreeSet::new();
        for t in &kept {
            for a in t.ancestors().skip(1) {
                if a.starts_with(&over) && a != over {
                    dirs.insert(a.to_owned());
                }
            }
            if t.is_dir() {
                dirs.insert(t.clone());
            }
        }
        // A named path that passes through a link under this folder: the link again,
        // pointing where it points (its target is bound back by its own rule).
        let mut links = Vec::new();
        for named in &files.links {
            for link in named.ancestors() {
                if !link.starts_with(&over) || link == over {
                    continue;
                }
                let Ok(to) = std::fs::read_link(link) else {
                    continue;
                };
                for a in link.ancestors().skip(1) {
                    if a.starts_with(&over) && a != over {
                        dirs.insert(a.to_owned());
                    }
                }
                links.push((cstring(link), cstring(&to)));
            }
        }
        links.sort();
        links.dedup();
        out.push(Bind {
            over: cstring(&over),
            dirs: dirs.iter().map(|d| cstring(d)).collect(),
            targets: kept.iter().map(|t| (cstring(t), t.is_dir())).collect(),
            links,
        });
    }
    out
}

/// The hidden paths to cover in the program's mount namespace: those that exist and hold
/// none of the places it works in or may read (its working folder, its temp folder, a folder
/// it may write, a rule's path), outermost first.
fn covers(files: &FilePolicy, job: &Job) -> Vec<(CString, bool)> {
    let dir = job
        .dir
        .map(Path::to_owned)
        .or_else(|| std::env::current_dir().ok())
        .map(|d| super::policy::resolve(&d));
    let mut kept: Vec<PathBuf> = dir
        .into_iter()
        .chain([super::policy::resolve(job.scratch.path())])
        .chain(
            job.policy
                .writable
                .iter()
                .map(|w| super::policy::resolve(w)),
        )
        .chain(files.rules.iter().map(|r| r.path.clone()))
        .collect();
    kept.sort();
    let mut out: Vec<(CString, bool)> = Vec::new();
    let mut hidden: Vec<&PathBuf> = files.hidden.iter().collect();
    hidden.sort();
    for h in hidden {
        let Ok(meta) = std::fs::symlink_metadata(h) else {
            continue;
        };
        if meta.is_symlink() || kept.iter().any(|k| k.starts_with(h)) {
            continue;
        }
        if out.last().is_some_and(|(last, _)| {
            h.starts_with(Path::new(std::ffi::OsStr::from_bytes(last.as_bytes())))
        }) {
            continue;
        }
        out.push((cstring(h), meta.is_dir()));
    }
    out
}

/// Clones each target (before the folder over them is covered), covers the folder with an
/// empty tmpfs any user may pass, and moves each clone back to its place inside.
fn bind_back(bind: &Bind) -> io::Result<()> {
    const OPEN_TREE_CLONE: libc::c_uint = 1;
    const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
    let mut clones = Vec::new();
    // SAFETY: system calls with valid C strings; descriptors this process owns.
    unsafe {
        for (target, _) in &bind.targets {
            let fd = libc::syscall(
                libc::SYS_open_tree,
                libc::AT_FDCWD,
                target.as_ptr(),
                OPEN_TREE_CLONE
                    | libc::O_CLOEXEC as libc::c_uint
                    | libc::AT_RECURSIVE as libc::c_uint,
            );
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            clones.push(fd as libc::c_int);
        }
        check(libc::mount(
            c"tmpfs".as_ptr(),
            bind.over.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"size=64k,mode=755".as_ptr().cast(),
        ))?;
        for d in &bind.dirs {
            let r = libc::mkdir(d.as_ptr(), 0o755);
            if r != 0 && *libc::__errno_location() != libc::EEXIST {
                return Err(io::Error::last_os_error());
            }
        }
        for ((target, is_dir), fd) in bind.targets.iter().zip(&clones) {
            if !is_dir {
                let f = libc::open(
                    target.as_ptr(),
                    libc::O_WRONLY | libc::O_CREAT | libc::O_CLOEXEC,
                    0o644,
                );
                if f >= 0 {
                    libc::close(f);
                }
            }
            let r = libc::syscall(
                libc::SYS_move_mount,
                *fd,
                c"".as_ptr(),
                libc::AT_FDCWD,
                target.as_ptr(),
                MOVE_MOUNT_F_EMPTY_PATH,
            );
            if r != 0 {
                return Err(io::Error::last_os_error());
            }
            libc::close(*fd);
        }
        for (link, to) in &bind.links {
            let r = libc::symlink(to.as_ptr(), link.as_ptr());
            if r != 0 && *libc::__errno_location() != libc::EEXIST {
                return Err(io::Error::last_os_error());
            }
        }
        // Read-only from now on: nothing of the program's goes there.
        check(libc::mount(
            std::ptr::null(),
            bind.over.as_ptr(),
            std::ptr::null(),
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            std::ptr::null(),
        ))?;
    }
    Ok(())
}

/// Makes every mount of the program's namespace read-only but its temp folder and the
/// folders it may write (each bound onto itself first, to be a mount of its own). Landlock
/// says what it may write; this holds where Landlock does not look: `chmod`, `utime` and
/// extended attributes of files it may read (its teacher's own, when an ordinary user runs
/// gametrace and the program is that user) fail with EROFS. Devices (`/dev/null`) are still
/// written: a read-only mount does not stop writing to a device.
fn read_only_but(mounts: &Mounts) -> io::Result<()> {
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let setattr = |path: &std::ffi::CStr, recursive: bool, set: u64, clr: u64| -> io::Result<()> {
        let attr = MountAttr {
            attr_set: set,
            attr_clr: clr,
            propagation: 0,
            userns_fd: 0,
        };
        let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
        // SAFETY: mount_setattr with a valid C string and attribute struct.
        let r = unsafe {
            libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                path.as_ptr(),
                flags as libc::c_uint,
                std::ptr::addr_of!(attr),
                std::mem::size_of::<MountAttr>(),
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    };
    for w in &mounts.writable {
        // SAFETY: a bind mount of a folder onto itself, with valid C strings.
        check(unsafe {
            libc::mount(
                w.as_ptr(),
                w.as_ptr(),
                std::ptr::null(),
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            )
        })?;
    }
    match setattr(c"/", true, MOUNT_ATTR_RDONLY, 0) {
        Ok(()) => {}
        // A kernel before 5.12 has no mount_setattr: the mounts stay as they were.
        Err(e) if e.raw_os_error() == Some(libc::ENOSYS) => return Ok(()),
        Err(e) => return Err(e),
    }
    if let Some(scratch) = &mounts.scratch {
        setattr(&scratch.path, false, 0, MOUNT_ATTR_RDONLY)?;
    }
    for w in &mounts.writable {
        setattr(w, true, 0, MOUNT_ATTR_RDONLY)?;
    }
    Ok(())
}

fn check(r: libc::c_int) -> io::Result<()> {
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The Landlock ruleset: everything handled, the policy's rules allowed (but the one for
/// `skip`, the temp folder where it is a tmpfs added in the child).
fn ruleset(
    files: &FilePolicy,
    skip: Option<&Path>,
) -> Result<landlock::RulesetCreated, landlock::RulesetError> {
    use landlock::{
        Access, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
        Scope, ABI,
    };
    let abi = ABI::V6;
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?
        .scope(Scope::AbstractUnixSocket | Scope::Signal)?
        .create()?;
    for (path, access) in files.landlock_rules(abi, skip) {
        if let Ok(fd) = PathFd::new(&path) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
        }
    }
    Ok(ruleset)
}

/// May `uid` (no groups, no capabilities) do `bit` (1 search, 2 write, 4 read) to `p`?
fn may(p: &Path, uid: u32, bit: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
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
}

/// Can a program running as `uid` (no groups, no capabilities) run the program at `path`?
/// Every folder on the way must let it search, and the file let it execute; a runtime under
/// a private home (pyenv's in `/root`) fails.
pub fn runnable_by(path: &Path, uid: u32) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    real.ancestors().skip(1).all(|dir| may(dir, uid, 0o1)) && may(&real, uid, 0o1)
}

/// Can a program running as `uid` read `path` (a folder: list and enter it), given that the
/// folders on the way to it are passable (by permissions, or by the mount namespace's binds
/// when `binds`)?
pub fn readable_by(path: &Path, uid: u32, binds: bool) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    let way = binds || real.ancestors().skip(1).all(|dir| may(dir, uid, 0o1));
    let bits = if real.is_dir() { 0o5 } else { 0o4 };
    way && may(&real, uid, bits & 0o4) && (bits == 0o4 || may(&real, uid, 0o1))
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

/// Marks every file descriptor from 3 up close-on-exec, so that the program starts with
/// its stdio alone (the steps before its exec still use theirs).
fn keep_only_stdio_across_exec() {
    // SAFETY: plain system calls on this process's own descriptors; no allocation.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) != 0
        {
            // A kernel before 5.11: one by one, up to the open-files limit.
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
                lim.rlim_cur.min(1 << 20) as libc::c_int
            } else {
                1 << 16
            };
            for fd in 3..top {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
}

/// Closes every file descriptor from 3 up but those in `keep` (stdio stays: it is the
/// program's).
fn close_all_but(keep: &[libc::c_int]) {
    // No allocation between fork and exec: at most two descriptors, ordered by hand.
    let mut sorted = [-1; 2];
    for (slot, &fd) in sorted.iter_mut().zip(keep) {
        *slot = fd;
    }
    if sorted[0] > sorted[1] {
        sorted.swap(0, 1);
    }
    let mut from = 3u32;
    // SAFETY: close_range on fds this process owns; nothing uses them after the fork.
    unsafe {
        for fd in sorted.into_iter().filter(|&fd| fd >= 3) {
            if fd as u32 > from {
                libc::syscall(libc::SYS_close_range, from, fd as u32 - 1, 0u32);
            }
            from = fd as u32 + 1;
        }
        libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_in_a_private_folder_is_not_runnable_by_another_uid() {
        use std::os::unix::fs::PermissionsExt;
        let other = super::super::identity::FIRST;
        assert!(runnable_by(Path::new("/bin/sh"), other));
        let dir = tempfile::tempdir().unwrap();
        let prog = dir.path().join("tool");
        std::fs::write(&prog, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!runnable_by(&prog, other), "its folder is private");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(runnable_by(&prog, other));
        std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!runnable_by(&prog, other), "only its owner may run it");
        assert!(!runnable_by(&dir.path().join("missing"), other));
    }
}
