//! The system calls a program may make: an **allow-list**, by what each call is for, of what
//! programs of the supported languages need (Python, SML/NJ's 32-bit runtime, a JVM with
//! `javac`, `sh` and the usual tools, C). Everything else — keyrings, io_uring, BPF,
//! `perf_event_open`, mounts and namespaces, `ptrace`, `fallocate`, and every call the
//! kernel adds later — is refused with `ENOSYS`, which runtimes take as "not on this kernel"
//! and work around. A few calls are allowed with their arguments checked ([`guarded`]).
//!
//! The filter covers the native architecture and its 32-bit companion (x86-64 and i386,
//! AArch64 and Arm): SML/NJ's runtime is a 32-bit program. The numbers come from the
//! `syscalls` crate's tables, by name; a name an architecture lacks is simply not there.

use seccompiler::sock_filter;
use std::str::FromStr;

/// Calls allowed whatever their arguments, by purpose.
pub const ALLOWED: &[(&str, &[&str])] = &[
    (
        "files and folders",
        &[
            "read",
            "write",
            "readv",
            "writev",
            "pread64",
            "pwrite64",
            "preadv",
            "pwritev",
            "preadv2",
            "pwritev2",
            "open",
            "openat",
            "openat2",
            "creat",
            "close",
            "close_range",
            "lseek",
            "_llseek",
            "stat",
            "fstat",
            "lstat",
            "newfstatat",
            "fstatat64",
            "stat64",
            "fstat64",
            "lstat64",
            "statx",
            "statfs",
            "fstatfs",
            "statfs64",
            "fstatfs64",
            "access",
            "faccessat",
            "faccessat2",
            "readlink",
            "readlinkat",
            "getdents",
            "getdents64",
            "mkdir",
            "mkdirat",
            "rmdir",
            "unlink",
            "unlinkat",
            "rename",
            "renameat",
            "renameat2",
            "link",
            "linkat",
            "symlink",
            "symlinkat",
            "chmod",
            "fchmod",
            "fchmodat",
            "fchmodat2",
            "chown",
            "fchown",
            "lchown",
            "fchownat",
            "chown32",
            "fchown32",
            "lchown32",
            "truncate",
            "ftruncate",
            "truncate64",
            "ftruncate64",
            "fsync",
            "fdatasync",
            "sync",
            "syncfs",
            "sync_file_range",
            "umask",
            "utime",
            "utimes",
            "utimensat",
            "utimensat_time64",
            "futimesat",
            "getcwd",
            "chdir",
            "fchdir",
            "dup",
            "dup2",
            "dup3",
            "fcntl",
            "fcntl64",
            "flock",
            "pipe",
            "pipe2",
            "sendfile",
            "sendfile64",
            "copy_file_range",
            "splice",
            "tee",
            "vmsplice",
            "fadvise64",
            "fadvise64_64",
            "arm_fadvise64_64",
            "readahead",
            "getxattr",
            "lgetxattr",
            "fgetxattr",
            "listxattr",
            "llistxattr",
            "flistxattr",
            "setxattr",
            "lsetxattr",
            "fsetxattr",
            "removexattr",
            "lremovexattr",
            "fremovexattr",
            "inotify_init",
            "inotify_init1",
            "inotify_add_watch",
            "inotify_rm_watch",
            "memfd_create",
        ],
    ),
    (
        "memory",
        &[
            "brk",
            "mmap",
            "mmap2",
            "munmap",
            "mremap",
            "mprotect",
            "madvise",
            "mlock",
            "mlock2",
            "munlock",
            "mlockall",
            "munlockall",
            "msync",
            "mincore",
            "membarrier",
            "pkey_mprotect",
            "pkey_alloc",
            "pkey_free",
            "get_mempolicy",
            "set_mempolicy",
            "mbind",
        ],
    ),
    (
        "processes and threads",
        &[
            "fork",
            "vfork",
            "execve",
            "execveat",
            "exit",
            "exit_group",
            "wait4",
            "waitid",
            "waitpid",
            "getpid",
            "getppid",
            "gettid",
            "getpgid",
            "setpgid",
            "getpgrp",
            "getsid",
            "setsid",
            "arch_prctl",
            "set_tid_address",
            "set_robust_list",
            "get_robust_list",
            "rseq",
            "futex",
            "futex_time64",
            "futex_waitv",
            "sched_yield",
            "sched_getaffinity",
            "sched_setaffinity",
            "sched_getparam",
            "sched_setparam",
            "sched_getscheduler",
            "sched_setscheduler",
            "sched_get_priority_max",
            "sched_get_priority_min",
            "sched_rr_get_interval",
            "sched_rr_get_interval_time64",
            "sched_getattr",
            "sched_setattr",
            "setpriority",
            "getrlimit",
            "setrlimit",
            "prlimit64",
            "ugetrlimit",
            "getrusage",
            "times",
            "set_thread_area",
            "get_thread_area",
            "capget",
            "capset",
            "getuid",
            "geteuid",
            "getgid",
            "getegid",
            "getresuid",
            "getresgid",
            "getgroups",
            "getuid32",
            "geteuid32",
            "getgid32",
            "getegid32",
            "getresuid32",
            "getresgid32",
            "getgroups32",
            "setuid",
            "setgid",
            "setreuid",
            "setregid",
            "setresuid",
            "setresgid",
            "setgroups",
            "setfsuid",
            "setfsgid",
            "setuid32",
            "setgid32",
            "setreuid32",
            "setregid32",
            "setresuid32",
            "setresgid32",
            "setgroups32",
            "setfsuid32",
            "setfsgid32",
            "personality",
            "uname",
            "olduname",
            "sysinfo",
            "getrandom",
            "getcpu",
            "ioprio_get",
            "ioprio_set",
            "restart_syscall",
            "pidfd_open",
            "pidfd_send_signal",
        ],
    ),
    (
        "signals",
        &[
            "rt_sigaction",
            "rt_sigprocmask",
            "rt_sigreturn",
            "rt_sigpending",
            "rt_sigtimedwait",
            "rt_sigtimedwait_time64",
            "rt_sigqueueinfo",
            "rt_tgsigqueueinfo",
            "rt_sigsuspend",
            "sigaltstack",
            "kill",
            "tkill",
            "tgkill",
            "signal",
            "sigaction",
            "sigprocmask",
            "sigreturn",
            "sigsuspend",
            "sigpending",
            "signalfd",
            "signalfd4",
            "pause",
            "alarm",
        ],
    ),
    (
        "time",
        &[
            "clock_gettime",
            "clock_gettime64",
            "clock_getres",
            "clock_getres_time64",
            "clock_nanosleep",
            "clock_nanosleep_time64",
            "nanosleep",
            "gettimeofday",
            "time",
            "timer_create",
            "timer_settime",
            "timer_settime64",
            "timer_gettime",
            "timer_gettime64",
            "timer_getoverrun",
            "timer_delete",
            "timerfd_create",
            "timerfd_settime",
            "timerfd_settime64",
            "timerfd_gettime",
            "timerfd_gettime64",
            "getitimer",
            "setitimer",
        ],
    ),
    (
        "waiting on several files",
        &[
            "poll",
            "ppoll",
            "ppoll_time64",
            "select",
            "_newselect",
            "pselect6",
            "pselect6_time64",
            "epoll_create",
            "epoll_create1",
            "epoll_ctl",
            "epoll_wait",
            "epoll_pwait",
            "epoll_pwait2",
            "eventfd",
            "eventfd2",
        ],
    ),
    (
        "sockets made by socket or socketpair (which are checked)",
        &[
            "accept",
            "accept4",
            "getsockname",
            "getpeername",
            "getsockopt",
            "setsockopt",
            "shutdown",
            "recvfrom",
            "recvmsg",
            "recvmmsg",
            "recvmmsg_time64",
            "sendmsg",
            "sendmmsg",
            "recv",
            "send",
        ],
    ),
];

/// Allowed only where the program has an IPC namespace of its own, so that what it makes
/// dies with it: SysV shared memory, queues and semaphores, POSIX message queues.
pub const IPC: &[&str] = &[
    "shmget",
    "shmat",
    "shmdt",
    "shmctl",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semtimedop_time64",
    "semctl",
    "ipc",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedsend_time64",
    "mq_timedreceive",
    "mq_timedreceive_time64",
    "mq_notify",
    "mq_getsetattr",
];

/// Allowed only where the program has a network namespace of its own: naming a socket
/// (`bind`, `listen`, which names an unnamed one). Without one, an abstract Unix name is the
/// host's: a program could take a service's name before it starts.
pub const NET: &[&str] = &["bind", "listen"];

/// Allowed with their arguments checked, and what the check refuses.
pub const GUARDED: &[(&str, &str)] = &[
    ("socket", "anything but a Unix stream or seqpacket socket: an Internet or packet socket with ENETUNREACH (the NETWORK verdict), a Unix datagram socket (which could send to any path) with EACCES, other families with EAFNOSUPPORT"),
    ("socketpair", "anything but a Unix stream or seqpacket pair (EACCES)"),
    ("socketcall", "32-bit x86's socket multiplexer: its socket() is refused with ENETUNREACH whatever the family (its arguments are out of a filter's reach; no program of the courses needs one), every other call EACCES"),
    ("connect", "always (EACCES): a Unix socket addressed to a path reaches a host's service"),
    ("sendto", "with an address (EACCES)"),
    ("clone", "with any namespace flag (EPERM)"),
    ("clone3", "always (ENOSYS): its flags are out of a filter's reach, and the C library falls back to clone"),
    ("mknod", "of a character or block device (EPERM); a FIFO is allowed"),
    ("mknodat", "of a character or block device (EPERM); a FIFO is allowed"),
    ("ioctl", "TIOCSTI and TIOCLINUX, which push input into a terminal (EPERM)"),
    ("getpriority", "answers the sandbox's mark (see inside_sandbox)"),
    ("prctl", "PR_SET_SECCOMP (EPERM): a filter of the program's own would answer before the sandbox's, and could fake its mark (see inside_sandbox)"),
    ("fallocate", "always (EOPNOTSUPP): disk space is only taken by writing it, which the quota sees; the C library's posix_fallocate then writes instead"),
];

/// Refused, named for the record and for the tests (everything not allowed is refused).
pub const REFUSED: &[(&str, &[&str])] = &[
    ("keyrings", &["keyctl", "add_key", "request_key"]),
    (
        "the kernel's other doors",
        &[
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
            "bpf",
            "perf_event_open",
            "userfaultfd",
            "ptrace",
            "process_vm_readv",
            "process_vm_writev",
            "kcmp",
            "fanotify_init",
            "fanotify_mark",
            "open_by_handle_at",
            "name_to_handle_at",
            "lookup_dcookie",
        ],
    ),
    (
        "mounts and namespaces",
        &[
            "mount",
            "umount",
            "umount2",
            "pivot_root",
            "chroot",
            "unshare",
            "setns",
            "fsopen",
            "fsconfig",
            "fsmount",
            "fspick",
            "move_mount",
            "open_tree",
            "mount_setattr",
        ],
    ),
    (
        "the machine",
        &[
            "reboot",
            "kexec_load",
            "kexec_file_load",
            "init_module",
            "finit_module",
            "delete_module",
            "swapon",
            "swapoff",
            "acct",
            "quotactl",
            "sethostname",
            "setdomainname",
            "settimeofday",
            "clock_settime",
            "clock_adjtime",
            "adjtimex",
            "iopl",
            "ioperm",
            "vhangup",
            "syslog",
            "move_pages",
            "migrate_pages",
        ],
    ),
    (
        "Landlock and seccomp of the program's own (nothing needs them, and a filter of its own would answer before the sandbox's and fake its mark)",
        &[
            "landlock_create_ruleset",
            "landlock_add_rule",
            "landlock_restrict_self",
            "seccomp",
        ],
    ),
];

/// The sandbox's mark: inside it, `getpriority(SANDBOX_PROBE, 0)` fails with this errno
/// (outside, the `which` is invalid and the errno is EINVAL).
pub const SANDBOX_PROBE: u32 = 0x4754_5342;
pub const SANDBOX_ERRNO: u32 = 4000;

/// Namespace flags of clone(2) (CLONE_NEWTIME's bit is the exit signal's in clone(2)).
const CLONE_NEW_ANY: u32 = 0x7E02_0000;
/// `ioctl`s that push bytes into a terminal's input or a console.
const TIOCSTI: u32 = 0x5412;
const TIOCLINUX: u32 = 0x541C;
/// socketcall(2)'s calls.
const SYS_SOCKET: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arch {
    X86_64,
    I386,
    Aarch64,
    Arm,
}

impl Arch {
    /// `AUDIT_ARCH_*`, as the kernel reports it in `seccomp_data.arch`.
    fn audit(self) -> u32 {
        match self {
            Arch::X86_64 => 0xC000_003E,
            Arch::I386 => 0x4000_0003,
            Arch::Aarch64 => 0xC000_00B7,
            Arch::Arm => 0x4000_0028,
        }
    }

    /// The call's number on this architecture, if it has it.
    fn number(self, name: &str) -> Option<u32> {
        let n = match self {
            Arch::X86_64 => syscalls::x86_64::Sysno::from_str(name).ok()?.id(),
            Arch::I386 => syscalls::x86::Sysno::from_str(name).ok()?.id(),
            Arch::Aarch64 => syscalls::aarch64::Sysno::from_str(name).ok()?.id(),
            Arch::Arm => syscalls::arm::Sysno::from_str(name).ok()?.id(),
        };
        u32::try_from(n).ok()
    }
}

/// A BPF program with labels: jumps are resolved when it is finished.
struct Asm {
    code: Vec<sock_filter>,
    /// (instruction, label if true, label if false)
    jumps: Vec<(usize, Option<usize>, Option<usize>)>,
    /// (instruction, label): unconditional jumps, whose offset is 32 bits.
    long: Vec<(usize, usize)>,
    labels: Vec<Option<usize>>,
}

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const RET_K: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
const AND_K: u16 = (libc::BPF_ALU | libc::BPF_AND | libc::BPF_K) as u16;
const JEQ_K: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
const JSET_K: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
const JA: u16 = (libc::BPF_JMP | libc::BPF_JA) as u16;
/// Offsets in `struct seccomp_data`: nr, arch, then the arguments (low word first).
const NR: u32 = 0;
const ARCH: u32 = 4;
fn arg(n: u32) -> u32 {
    16 + 8 * n
}

impl Asm {
    fn new() -> Asm {
        Asm {
            code: Vec::new(),
            jumps: Vec::new(),
            long: Vec::new(),
            labels: Vec::new(),
        }
    }
    fn label(&mut self) -> usize {
        self.labels.push(None);
        self.labels.len() - 1
    }
    fn here(&mut self, label: usize) {
        self.labels[label] = Some(self.code.len());
    }
    fn stmt(&mut self, code: u16, k: u32) {
        self.code.push(sock_filter {
            code,
            jt: 0,
            jf: 0,
            k,
        });
    }
    fn load(&mut self, offset: u32) {
        self.stmt(LD_W_ABS, offset);
    }
    fn ret(&mut self, action: u32) {
        self.stmt(RET_K, action);
    }
    /// `if A op k goto t else goto f` (a missing label: the next instruction).
    fn jump(&mut self, op: u16, k: u32, t: Option<usize>, f: Option<usize>) {
        self.jumps.push((self.code.len(), t, f));
        self.stmt(op, k);
    }
    /// `goto l`, however far.
    fn long_jump(&mut self, l: usize) {
        self.long.push((self.code.len(), l));
        self.stmt(JA, 0);
    }
    fn finish(mut self) -> Vec<sock_filter> {
        for (at, l) in std::mem::take(&mut self.long) {
            let target = self.labels[l].expect("a label used is placed");
            self.code[at].k = (target - at - 1) as u32;
        }
        for (at, t, f) in std::mem::take(&mut self.jumps) {
            let offset = |l: Option<usize>| -> u8 {
                let Some(l) = l else { return 0 };
                let target = self.labels[l].expect("a label used is placed");
                u8::try_from(target - at - 1).expect("a jump within 255 instructions")
            };
            self.code[at].jt = offset(t);
            self.code[at].jf = offset(f);
        }
        self.code
    }
}

fn allow() -> u32 {
    libc::SECCOMP_RET_ALLOW
}
fn errno(e: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA)
}
fn kill() -> u32 {
    libc::SECCOMP_RET_KILL_PROCESS
}

/// The calls allowed on `arch` whatever their arguments (with those of [`IPC`] when `ipc`,
/// of [`NET`] when `net`).
fn plain(arch: Arch, ipc: bool, net: bool) -> Vec<u32> {
    let mut numbers: Vec<u32> = ALLOWED
        .iter()
        .flat_map(|(_, names)| names.iter())
        .chain(IPC.iter().filter(|_| ipc))
        .chain(NET.iter().filter(|_| net))
        .filter_map(|n| arch.number(n))
        .collect();
    if arch == Arch::Arm {
        // Arm's own calls, outside the tables: breakpoint, cacheflush, usr26, usr32, set_tls.
        numbers.extend([0x0f_0001, 0x0f_0002, 0x0f_0003, 0x0f_0004, 0x0f_0005]);
    }
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// One architecture's block: the guarded calls, then the plain ones, then ENOSYS.
fn block(a: &mut Asm, arch: Arch, ipc: bool, net: bool) {
    let guard = |a: &mut Asm, name: &str, body: &dyn Fn(&mut Asm)| {
        let Some(nr) = arch.number(name) else { return };
        let next = a.label();
        a.load(NR);
        a.jump(JEQ_K, nr, None, Some(next));
        body(a);
        a.here(next);
    };
    let unix_kind = |a: &mut Asm, otherwise: u32| {
        // Argument 1 is the type, with SOCK_NONBLOCK and SOCK_CLOEXEC in its high bits.
        let ok = a.label();
        a.load(arg(1));
        a.stmt(AND_K, 0xf);
        a.jump(JEQ_K, libc::SOCK_STREAM as u32, Some(ok), None);
        a.jump(JEQ_K, libc::SOCK_SEQPACKET as u32, Some(ok), None);
        a.ret(otherwise);
        a.here(ok);
        a.ret(allow());
    };
    guard(a, "socket", &|a| {
        let unix = a.label();
        let net = a.label();
        a.load(arg(0));
        a.jump(JEQ_K, libc::AF_UNIX as u32, Some(unix), None);
        a.jump(JEQ_K, libc::AF_INET as u32, Some(net), None);
        a.jump(JEQ_K, libc::AF_INET6 as u32, Some(net), None);
        a.jump(JEQ_K, libc::AF_PACKET as u32, Some(net), None);
        a.ret(errno(libc::EAFNOSUPPORT));
        a.here(net);
        a.ret(errno(libc::ENETUNREACH));
        a.here(unix);
        unix_kind(a, errno(libc::EACCES));
    });
    guard(a, "socketpair", &|a| {
        let unix = a.label();
        a.load(arg(0));
        a.jump(JEQ_K, libc::AF_UNIX as u32, Some(unix), None);
        a.ret(errno(libc::EACCES));
        a.here(unix);
        unix_kind(a, errno(libc::EACCES));
    });
    guard(a, "socketcall", &|a| {
        let other = a.label();
        a.load(arg(0));
        a.jump(JEQ_K, SYS_SOCKET, None, Some(other));
        a.ret(errno(libc::ENETUNREACH));
        a.here(other);
        a.ret(errno(libc::EACCES));
    });
    guard(a, "connect", &|a| a.ret(errno(libc::EACCES)));
    guard(a, "sendto", &|a| {
        // The address is argument 4: allowed only when null (both words 0).
        let refuse = a.label();
        a.load(arg(4));
        a.jump(JEQ_K, 0, None, Some(refuse));
        a.load(arg(4) + 4);
        a.jump(JEQ_K, 0, None, Some(refuse));
        a.ret(allow());
        a.here(refuse);
        a.ret(errno(libc::EACCES));
    });
    guard(a, "clone", &|a| {
        let refuse = a.label();
        a.load(arg(0));
        a.jump(JSET_K, CLONE_NEW_ANY, Some(refuse), None);
        a.ret(allow());
        a.here(refuse);
        a.ret(errno(libc::EPERM));
    });
    guard(a, "clone3", &|a| a.ret(errno(libc::ENOSYS)));
    guard(a, "fallocate", &|a| a.ret(errno(libc::EOPNOTSUPP)));
    guard(a, "prctl", &|a| {
        let refuse = a.label();
        a.load(arg(0));
        a.jump(JEQ_K, libc::PR_SET_SECCOMP as u32, Some(refuse), None);
        a.ret(allow());
        a.here(refuse);
        a.ret(errno(libc::EPERM));
    });
    for (name, mode_arg) in [("mknod", 1), ("mknodat", 2)] {
        guard(a, name, &|a| {
            let refuse = a.label();
            a.load(arg(mode_arg));
            a.stmt(AND_K, libc::S_IFMT);
            a.jump(JEQ_K, libc::S_IFCHR, Some(refuse), None);
            a.jump(JEQ_K, libc::S_IFBLK, Some(refuse), None);
            a.ret(allow());
            a.here(refuse);
            a.ret(errno(libc::EPERM));
        });
    }
    guard(a, "ioctl", &|a| {
        let refuse = a.label();
        a.load(arg(1));
        a.jump(JEQ_K, TIOCSTI, Some(refuse), None);
        a.jump(JEQ_K, TIOCLINUX, Some(refuse), None);
        a.ret(allow());
        a.here(refuse);
        a.ret(errno(libc::EPERM));
    });
    guard(a, "getpriority", &|a| {
        let mark = a.label();
        a.load(arg(0));
        a.jump(JEQ_K, SANDBOX_PROBE, Some(mark), None);
        a.ret(allow());
        a.here(mark);
        a.ret(errno(SANDBOX_ERRNO as i32));
    });
    // The plain calls: a test and a return each, so no jump is long, and the kernel's cache
    // of results that depend on the number alone answers them without running the filter.
    a.load(NR);
    for nr in plain(arch, ipc, net) {
        let next = a.label();
        a.jump(JEQ_K, nr, None, Some(next));
        a.ret(allow());
        a.here(next);
    }
    a.ret(errno(libc::ENOSYS));
}

/// The filter for this machine's architecture and its 32-bit companion; SysV IPC allowed
/// when `ipc` (the program has an IPC namespace of its own), naming sockets when `net` (a
/// network namespace of its own). A call of any other architecture (x32's included) kills.
/// `None` on an architecture it does not know.
pub fn filter(ipc: bool, net: bool) -> Option<Vec<sock_filter>> {
    let (native, companion) = match std::env::consts::ARCH {
        "x86_64" => (Arch::X86_64, Arch::I386),
        "aarch64" => (Arch::Aarch64, Arch::Arm),
        _ => return None,
    };
    let mut a = Asm::new();
    let second = a.label();
    let unknown = a.label();
    let first = a.label();
    a.load(ARCH);
    a.jump(JEQ_K, native.audit(), Some(first), None);
    a.long_jump(second);
    a.here(first);
    // x32 calls come with the native architecture and bit 30 of the number set.
    if native == Arch::X86_64 {
        let ok = a.label();
        a.load(NR);
        a.jump(JSET_K, 0x4000_0000, None, Some(ok));
        a.ret(errno(libc::ENOSYS));
        a.here(ok);
    }
    block(&mut a, native, ipc, net);
    a.here(second);
    let other = a.label();
    a.load(ARCH);
    a.jump(JEQ_K, companion.audit(), Some(other), None);
    a.long_jump(unknown);
    a.here(other);
    block(&mut a, companion, ipc, net);
    a.here(unknown);
    a.ret(kill());
    Some(a.finish())
}

/// Every call the lists name, with whether it is allowed (for `doctor --policy`).
pub fn describe(ipc: bool, net: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (why, names) in ALLOWED {
        let _ = writeln!(out, "  allowed ({why}): {}", names.join(" "));
    }
    let _ = writeln!(
        out,
        "  {} (SysV IPC, POSIX queues): {}",
        if ipc {
            "allowed, in its own IPC namespace"
        } else {
            "refused, no IPC namespace here"
        },
        IPC.join(" ")
    );
    let _ = writeln!(
        out,
        "  {} (naming a socket): {}",
        if net {
            "allowed, in its own network namespace"
        } else {
            "refused, no network namespace here"
        },
        NET.join(" ")
    );
    for (name, refuses) in GUARDED {
        let _ = writeln!(out, "  checked: {name} refuses {refuses}");
    }
    for (why, names) in REFUSED {
        let _ = writeln!(out, "  refused ({why}): {}", names.join(" "));
    }
    out.push_str("  refused: every other call (ENOSYS)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARCHES: [Arch; 4] = [Arch::X86_64, Arch::I386, Arch::Aarch64, Arch::Arm];

    /// Every name the lists give is a system call of some architecture (a misspelt name
    /// would silently allow or refuse nothing), and none is both allowed and refused.
    #[test]
    fn every_name_is_a_real_call_and_on_one_list() {
        let allowed: Vec<&str> = ALLOWED
            .iter()
            .flat_map(|(_, n)| n.iter().copied())
            .chain(IPC.iter().copied())
            .chain(NET.iter().copied())
            .chain(GUARDED.iter().map(|(n, _)| *n))
            .collect();
        let refused: Vec<&str> = REFUSED
            .iter()
            .flat_map(|(_, n)| n.iter().copied())
            .collect();
        for name in allowed.iter().chain(&refused) {
            assert!(
                ARCHES.iter().any(|a| a.number(name).is_some()),
                "`{name}` is no system call"
            );
        }
        for name in &refused {
            assert!(!allowed.contains(name), "`{name}` is allowed and refused");
        }
        let mut seen = std::collections::BTreeSet::new();
        for name in &allowed {
            assert!(seen.insert(*name), "`{name}` is listed twice");
        }
    }

    /// The program fits the kernel's limit of 4096 instructions, and a refused call is never
    /// among the plain numbers of either architecture.
    #[test]
    fn the_filter_fits_and_refuses_what_it_says() {
        let f = filter(true, true).unwrap();
        assert!(f.len() < 4096, "{}", f.len());
        for arch in ARCHES {
            let plain = plain(arch, false, false);
            for (_, names) in REFUSED {
                for name in *names {
                    if let Some(nr) = arch.number(name) {
                        assert!(!plain.contains(&nr), "{name} on {arch:?}");
                    }
                }
            }
            for name in IPC {
                if let Some(nr) = arch.number(name) {
                    assert!(!plain.contains(&nr), "{name} without an IPC namespace");
                }
            }
        }
    }
}
