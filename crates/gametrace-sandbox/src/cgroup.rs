//! A cgroup for one command at a time: the number of processes and the memory of the whole
//! command, and a count of the times each limit was hit.

use super::Limits;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

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
