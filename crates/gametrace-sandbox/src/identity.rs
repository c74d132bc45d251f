//! Who a program runs as. An ordinary user's gametrace runs it as that user (who can harm
//! nothing the user could not). Root's runs each program as a **uid of its own**, taken for
//! the run from a range no account uses ([`FIRST`]..[`FIRST`] + [`COUNT`]): never root,
//! inside its namespaces or outside them, so the kernel's ordinary permissions hold for it
//! everywhere Landlock does not look (chmod, chown, extended attributes, SysV IPC, keyrings).
//!
//! A uid a run has alone also makes its end certain: every process still running as it when
//! the run ends is the run's, whatever it did to its group, environment or parent, and is
//! killed ([`Seat::kill_all`]); nothing one run leaves can reach or starve the next.
//!
//! A [`Seat`] is a uid taken: within one gametrace by a set in memory, and between the
//! gametraces on a machine by a lock (`flock`) on a file of the uid's in a folder only root
//! may write, held as long as the seat and dropped by the kernel if gametrace is killed.

use std::collections::BTreeSet;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The first uid of the range. 60000-61183 lies above Debian's and Red Hat's ordinary users
/// (up to 59999) and below systemd's dynamic users (61184-65519), and within the 65536 ids a
/// remapped container (Docker's `userns-remap`, rootless Podman) has.
pub const FIRST: u32 = 60_100;
/// How many uids the range holds: as many runs at once, on one machine.
pub const COUNT: u32 = 1_000;

/// The seats of this gametrace now in use.
static TAKEN: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// A uid a run has alone, for as long as this lives.
#[derive(Debug)]
pub struct Seat {
    uid: u32,
    _lock: OwnedFd,
    /// Nothing runs as it since the last [`Seat::kill_all`] (or a PID namespace ended all).
    clean: bool,
}

impl Seat {
    /// Takes a free uid of the range; kills whatever an earlier gametrace, killed before it
    /// could, left running as it.
    pub fn take() -> io::Result<Seat> {
        let dir = lock_dir()?;
        let start = (std::process::id().wrapping_mul(7919)) % COUNT;
        for i in 0..COUNT {
            let uid = FIRST + (start + i) % COUNT;
            {
                let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
                if !taken.insert(uid) {
                    continue;
                }
            }
            let file = dir.join(format!("{uid}.lock"));
            if someones(uid, &file) {
                release(uid);
                continue;
            }
            match lock(&file) {
                Ok(Some(fd)) => {
                    // What an earlier gametrace, killed before it could, left as this uid.
                    kill_rounds(uid);
                    return Ok(Seat {
                        uid,
                        _lock: fd,
                        clean: false,
                    });
                }
                Ok(None) => {}
                Err(e) => {
                    release(uid);
                    return Err(e);
                }
            }
            release(uid);
        }
        Err(io::Error::other(format!(
            "all {COUNT} sandbox uids ({FIRST}-{}) are in use by other runs",
            FIRST + COUNT - 1
        )))
    }

    pub fn uid(&self) -> u32 {
        self.uid
    }

    /// Kills every process running as this seat's uid, until none is left; returns how many
    /// there were. A process of that uid cannot change it (it has no capability, and
    /// `no_new_privs` keeps a set-uid program from giving one), so none can escape.
    pub fn kill_all(&mut self) -> usize {
        self.clean = true;
        kill_uid(self.uid)
    }

    /// Says that nothing runs as the seat's uid any more: its run's PID namespace has ended,
    /// and with it every process the run had.
    pub fn ended_with_namespace(&mut self) {
        self.clean = true;
    }
}

/// Kills everything running as any seat this gametrace holds: when it is interrupted, and
/// its seats are not given back one by one.
pub fn kill_all_taken() {
    let taken: Vec<u32> = TAKEN
        .lock()
        .map(|t| t.iter().copied().collect())
        .unwrap_or_default();
    for uid in taken {
        kill_uid(uid);
    }
}

/// Kills every process of `uid` (see [`Seat::kill_all`]); how many there were.
fn kill_uid(uid: u32) -> usize {
    let found = processes_of(uid);
    if found == 0 {
        return 0;
    }
    for _ in 0..100 {
        kill_rounds(uid);
        if processes_of(uid) == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    found
}

/// `kill(-1, SIGKILL)` as `uid` itself, a few times: it reaches exactly the uid's processes
/// (and what one of them started meanwhile, by the next round). Costs a fork, not a walk of
/// `/proc` (whose answer `kill(-1, 0)` cannot give: it counts processes it may not signal).
fn kill_rounds(uid: u32) {
    as_uid(uid, || {
        for _ in 0..20 {
            // SAFETY: kill is a plain system call.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        }
    });
}

/// Runs `f` in a child process that has become `uid` (no groups). The child makes system
/// calls only (a fork of a threaded process may call nothing else): `f` must too.
fn as_uid(uid: u32, f: impl Fn()) {
    // SAFETY: fork; the child calls setgroups, setresgid, setresuid, `f` (system calls only,
    // by contract) and _exit.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            let id = uid as libc::c_long;
            if libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0
                || libc::syscall(libc::SYS_setresgid, id, id, id) != 0
                || libc::syscall(libc::SYS_setresuid, id, id, id) != 0
            {
                libc::_exit(1);
            }
            f();
            libc::_exit(0);
        }
        if pid > 0 {
            let mut st = 0;
            while libc::waitpid(pid, &mut st, 0) < 0 && *libc::__errno_location() == libc::EINTR {}
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        if !self.clean {
            kill_uid(self.uid);
        }
        release(self.uid);
    }
}

fn release(uid: u32) {
    TAKEN.lock().unwrap_or_else(|e| e.into_inner()).remove(&uid);
}

/// How many processes run as `uid` now, by their real uid as `/proc/PID/status` shows it
/// (a process that made itself non-dumpable, whose `/proc` folder is then root's, included;
/// a zombie, already dead, not).
pub fn processes_of(uid: u32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter(|e| {
            std::fs::read_to_string(e.path().join("status")).is_ok_and(|s| {
                let field = |name: &str| {
                    s.lines()
                        .find_map(|l| l.strip_prefix(name))
                        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
                };
                field("Uid:").and_then(|u| u.parse::<u32>().ok()) == Some(uid)
                    && !matches!(field("State:").as_deref(), Some("Z" | "X"))
            })
        })
        .count()
}

/// Is `uid` someone's: known to the name service (files, LDAP, SSSD), or running a process
/// that no gametrace started (no seat of ours has ever had its lock file)? Such a uid is
/// never taken, and none of its processes killed.
fn someones(uid: u32, lock_file: &Path) -> bool {
    known_account(uid) || (!lock_file.exists() && processes_of(uid) > 0)
}

/// Does the name service know `uid` (`getpwuid`: `/etc/passwd`, and LDAP or SSSD where
/// configured)? Such a uid is someone's, whatever the range says.
fn known_account(uid: u32) -> bool {
    // SAFETY: `passwd` is plain data (integers and pointers), valid all zero.
    let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
    let mut buf = vec![0 as libc::c_char; 16 << 10];
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: getpwuid_r with a zeroed struct, a buffer and its length, and an out pointer,
    // all ours and alive for the call.
    let r = unsafe { libc::getpwuid_r(uid, &mut pw, buf.as_mut_ptr(), buf.len(), &mut found) };
    // "Not found" is 0 with no entry, or one of the errors some name services give for it;
    // any other error (a directory service that cannot answer) counts as known: never guess
    // a uid free.
    let not_found = [libc::ENOENT, libc::ESRCH, libc::EBADF, libc::EPERM];
    !found.is_null() || (r != 0 && !not_found.contains(&r))
}

/// The folder of the seats' lock files: `/run/gametrace-seats`, or one in the temp folder
/// where `/run` is missing; made by root, mode 0700, and refused if anyone else could have
/// made or changed it (a lock file another user could hold would keep a seat from us, or
/// hand us one in use).
fn lock_dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let mut tried = Vec::new();
    for base in [PathBuf::from("/run"), std::env::temp_dir()] {
        if !base.is_dir() {
            continue;
        }
        let dir = base.join("gametrace-seats");
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() && m.uid() == 0 && m.mode() & 0o022 == 0 => return Ok(dir),
            Ok(_) => tried.push(format!(
                "{} is not a folder of root's that only root may write",
                dir.display()
            )),
            Err(e) => tried.push(format!("{}: {e}", dir.display())),
        }
    }
    Err(io::Error::other(format!(
        "no folder for the sandbox's uid locks: {}",
        tried.join("; ")
    )))
}

/// Opens and locks `path` without waiting: `None` if another process holds it.
fn lock(path: &Path) -> io::Result<Option<OwnedFd>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    let fd = OwnedFd::from(file);
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        Ok(Some(fd))
    } else {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Ok(None)
        } else {
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails the test unless it runs as root. A test that needs root says so with
    /// `#[cfg_attr(not(gametrace_root), ignore = ...)]` (see build.rs): ignored, with its
    /// reason, where the build did not run as root, and failed here where it runs without.
    fn require_root() {
        // SAFETY: no preconditions.
        let euid = unsafe { libc::geteuid() };
        assert_eq!(
            euid, 0,
            "this test takes seats as root does: run it as root"
        );
    }

    /// Two seats taken at once are two uids of the range; a seat given back can be taken
    /// again.
    #[test]
    #[cfg_attr(not(gametrace_root), ignore = "needs root: takes seats")]
    fn seats_are_distinct_uids_of_the_range() {
        require_root();
        let a = Seat::take().unwrap();
        let b = Seat::take().unwrap();
        assert_ne!(a.uid(), b.uid());
        for s in [&a, &b] {
            assert!((FIRST..FIRST + COUNT).contains(&s.uid()));
        }
        let uid = a.uid();
        drop(a);
        assert!(!TAKEN.lock().unwrap().contains(&uid));
    }

    /// Held by the two tests below while each uses the last free uid of the range, which the
    /// second runs a process as.
    static FREE_UID: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// A uid the name service knows, or one a process of no gametrace's runs as, is someone's:
    /// never a seat (a directory-service user's process was killed, and student code would
    /// have run as that person).
    #[test]
    fn a_uid_in_use_is_someones() {
        let _one = FREE_UID.lock().unwrap_or_else(|e| e.into_inner());
        assert!(known_account(0), "root is known to every name service");
        assert!(someones(0, Path::new("/nonexistent")));
        let free = (FIRST..FIRST + COUNT)
            .rev()
            .find(|&u| !known_account(u) && processes_of(u) == 0)
            .expect("a uid of the range no one has");
        let never = Path::new("/nonexistent/lock");
        assert!(!someones(free, never));
    }

    /// A uid a process runs as that no gametrace started is someone's; where a seat of ours
    /// held it before, what runs is its leftover, reclaimed.
    #[test]
    #[cfg_attr(
        not(gametrace_root),
        ignore = "needs root: runs a process as another uid"
    )]
    fn a_uid_a_process_of_no_gametrace_runs_as_is_someones() {
        use std::os::unix::process::CommandExt;
        require_root();
        let _one = FREE_UID.lock().unwrap_or_else(|e| e.into_inner());
        let free = (FIRST..FIRST + COUNT)
            .rev()
            .find(|&u| !known_account(u) && processes_of(u) == 0)
            .expect("a uid of the range no one has");
        let never = Path::new("/nonexistent/lock");
        // A process of that uid that no gametrace started.
        let mut child = std::process::Command::new("/bin/sleep")
            .arg("30")
            .uid(free)
            .gid(free)
            .spawn()
            .unwrap();
        while processes_of(free) == 0 {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(someones(free, never), "a process no gametrace ran");
        // Where a seat of ours held it before, what runs is its leftover: reclaimed.
        let lock = tempfile::NamedTempFile::new().unwrap();
        assert!(!someones(free, lock.path()));
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Whatever runs as a seat's uid is killed when the seat is given back: here a process
    /// in a session of its own, with its environment emptied.
    #[test]
    #[cfg_attr(not(gametrace_root), ignore = "needs root: takes a seat")]
    fn a_seat_given_back_kills_everything_of_its_uid() {
        use std::os::unix::process::CommandExt;
        require_root();
        let seat = Seat::take().unwrap();
        let uid = seat.uid();
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "setsid sleep 60 & sleep 60"])
            .env_clear()
            .uid(uid)
            .gid(uid)
            .spawn()
            .unwrap();
        while processes_of(uid) < 2 {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        drop(seat);
        let _ = child.wait();
        for _ in 0..100 {
            if processes_of(uid) == 0 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("processes of uid {uid} were left");
    }
}
