//! Keeping every process a student's command starts within gametrace's reach, so none of them
//! outlives its case.
//!
//! A process group alone is not enough: a descendant can leave it with `setsid()` or
//! `setpgid(0, 0)`, and a double fork hands it to init. So:
//! - gametrace is a *child subreaper* (`PR_SET_CHILD_SUBREAPER`): an orphaned descendant is
//!   reparented to gametrace, never to init;
//! - every command runs with a marker in its environment (`GAMETRACE_CONTAINER`), which its
//!   descendants inherit;
//! - when a command ends (or times out, or gametrace is interrupted), [`kill_all`] kills its
//!   group, every process carrying its marker, and every orphan reparented to gametrace that is
//!   not a running command of its own, and repeats until a pass finds none (a killed process's
//!   children are reparented to gametrace and found by the next pass);
//! - the command itself gets `PR_SET_PDEATHSIG`: if gametrace is killed outright (SIGKILL, when
//!   no code of gametrace's runs), the kernel kills the command with it;
//! - and for the command's descendants in that case, the `gametrace` program starts a watchdog
//!   (itself, run as `gametrace __watchdog`) holding a pipe from it: when gametrace dies the pipe
//!   closes, and the watchdog kills every process carrying one of gametrace's markers.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The environment variable every command and its descendants carry.
pub const MARKER_VAR: &str = "GAMETRACE_CONTAINER";

/// Whether orphans without a marker are gametrace's to kill: true in the `gametrace` program,
/// whose only children are the commands it runs; false in a library user (a test harness)
/// that may have children of its own.
static CLAIM_ORPHANS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that every orphan reparented to this process came from a command it ran.
pub fn claim_orphans() {
    CLAIM_ORPHANS.store(true, Ordering::Relaxed);
}

/// The commands now running, by pid: their own pids are waited for by their runner, never
/// reaped here.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// A new marker value, unique to this process and run: `<gametrace pid>.<n>`.
pub fn new_marker() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}{}",
        marker_prefix(std::process::id()),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Makes gametrace the reaper of orphaned descendants (once; harmless if it fails, as on a
/// kernel without it: the group and marker kills still run).
pub fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// Starts a command and notes it as one of gametrace's (its pid is reaped by its runner, not
/// by [`kill_all`]) in one step: several commands may run at once (`--jobs`), and a
/// [`kill_all`] pass for another must never see this one unregistered. Before it execs, a new
/// child has gametrace's environment, without its marker, and would pass for an orphan.
pub fn spawn(cmd: &mut std::process::Command) -> std::io::Result<std::process::Child> {
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let child = cmd.spawn()?;
    running.push(child.id());
    Ok(child)
}

/// Forgets a command once its runner has waited for it.
pub fn unregister(pid: u32) {
    if let Ok(mut r) = RUNNING.lock() {
        r.retain(|&p| p != pid);
    }
}

/// Called in the child between fork and exec: die with the parent. Only async-signal-safe
/// calls (two system calls).
pub fn die_with_parent(parent: u32) -> std::io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
    // The parent may have died before the request took effect.
    if rustix::process::getppid().map(|p| p.as_raw_nonzero().get() as u32) != Some(parent) {
        return Err(std::io::Error::other(
            "gametrace ended before the command started",
        ));
    }
    Ok(())
}

/// One process as /proc shows it.
struct Proc {
    pid: u32,
    ppid: u32,
    pgid: u32,
    zombie: bool,
}

fn read_proc(pid: u32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold anything; the fields follow the last `)`.
    let (_, rest) = stat.rsplit_once(") ")?;
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    Some(Proc {
        pid,
        ppid,
        pgid,
        zombie: matches!(state, "Z" | "X"),
    })
}

/// The environment variable value prefix of every marker this process gives out.
fn marker_prefix(gametrace: u32) -> String {
    format!("{gametrace}.")
}

/// Starts the watchdog (once, in the `gametrace` program only: see [`claim_orphans`]). It
/// runs until gametrace's end, however that comes, then kills what gametrace's commands left.
pub fn start_watchdog() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if !CLAIM_ORPHANS.load(Ordering::Relaxed) {
        return;
    }
    ONCE.call_once(|| {
        use std::os::unix::process::CommandExt;
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        let spawned = spawn(
            std::process::Command::new(exe)
                .arg(WATCHDOG_ARG)
                .arg(std::process::id().to_string())
                .env_remove(MARKER_VAR)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                // Its own group: Ctrl-C at the terminal is gametrace's to handle, not the
                // watchdog's.
                .process_group(0),
        );
        if let Ok(mut child) = spawned {
            // The pipe's write end lives as long as gametrace: leaked on purpose.
            std::mem::forget(child.stdin.take());
            std::mem::forget(child);
        }
    });
}

/// The hidden first argument that makes `gametrace` a watchdog.
pub const WATCHDOG_ARG: &str = "__watchdog";

/// The watchdog's life: wait for gametrace (`gametrace`'s pid) to close the pipe on stdin,
/// by exiting or being killed, then kill every process carrying one of its markers.
pub fn watchdog(gametrace: u32) -> i32 {
    let mut buf = [0u8; 64];
    let mut stdin = std::io::stdin().lock();
    loop {
        match std::io::Read::read(&mut stdin, &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let prefix = marker_prefix(gametrace);
    for _ in 0..200 {
        let mut found = 0;
        for pid in all_pids() {
            let carries = marker_of(pid).is_some_and(|m| m.starts_with(prefix.as_bytes()));
            if carries && read_proc(pid).is_some_and(|p| !p.zombie) {
                kill(pid);
                found += 1;
            }
        }
        if found == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    0
}

/// Does process `pid` carry `GAMETRACE_CONTAINER` = `marker`? (`None`: it carries none.)
fn marker_of(pid: u32) -> Option<Vec<u8>> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let key = format!("{MARKER_VAR}=");
    environ
        .split(|&b| b == 0)
        .find_map(|v| v.strip_prefix(key.as_bytes()).map(<[u8]>::to_vec))
}

fn all_pids() -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

fn kill(pid: u32) {
    if let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
    }
}

/// Kills the process group `group` (a command whose processes a PID namespace or a uid of
/// its own holds needs no more: [`kill_all`]'s walk of `/proc` is for those that could
/// escape it).
pub fn kill_group(group: u32) {
    if let Some(p) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // ESRCH (nothing left in the group) is the usual, happy answer.
        let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
    }
}

fn reap(pid: u32) {
    if let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::NOHANG);
    }
}

/// Kills everything the command with process group `group` and marker `marker` started: its
/// group, every process with its marker, and every orphan gametrace has inherited. Returns how
/// many processes it found and killed.
pub fn kill_all(group: u32, marker: &str) -> usize {
    let me = std::process::id();
    let mut killed = HashSet::new();
    // Each pass kills what it finds; their children are reparented to gametrace and found by
    // the next. A fork bomb could keep this going, so the passes are bounded (a process that
    // outruns 200 passes of SIGKILL is beyond any student program).
    for pass in 0..200 {
        kill_group(group);
        // Held for the pass: no command starts while it looks (see [`spawn`]).
        let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        let mut found = 0;
        for pid in all_pids() {
            if pid == me {
                continue;
            }
            let Some(p) = read_proc(pid) else { continue };
            let ours = p.ppid == me;
            if ours
                && p.zombie
                && !running.contains(&p.pid)
                && CLAIM_ORPHANS.load(Ordering::Relaxed)
            {
                reap(p.pid);
                continue;
            }
            if p.zombie {
                continue;
            }
            let in_group = p.pgid == group;
            let marked = match marker_of(p.pid) {
                Some(m) => m == marker.as_bytes(),
                // An orphan that dropped its environment: ours if gametrace inherited it and
                // it is not a command some other runner is waiting for.
                None => ours && !running.contains(&p.pid) && CLAIM_ORPHANS.load(Ordering::Relaxed),
            };
            if in_group || marked {
                killed.insert(p.pid);
                kill(p.pid);
                found += 1;
            }
        }
        drop(running);
        if found == 0 {
            break;
        }
        // SIGKILL is delivered asynchronously; give it a moment before looking again.
        std::thread::sleep(Duration::from_millis(if pass < 10 { 2 } else { 20 }));
    }
    killed.len()
}
