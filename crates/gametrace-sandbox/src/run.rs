//! Running an implementation: confined (see [`super::confine`]), in its own process group
//! (so the whole group can be killed, children included), under a timeout and a cap on what
//! it prints, with empty stdin unless a file is given. Whatever happens, everything it started
//! is killed before [`run`] returns: nothing is left behind.

#[cfg(target_os = "linux")]
use super::cgroup::{self, Cgroup};
#[cfg(target_os = "linux")]
use super::confine::{Extras, Identity, Plan};
#[cfg(target_os = "linux")]
use super::identity::Seat;
#[cfg(not(target_os = "linux"))]
pub(super) use super::unconfined::{start, Cpu, Disk, Started};
use super::Job;
#[cfg(target_os = "linux")]
use super::{contain, Limits};
use std::io::Read;
#[cfg(target_os = "linux")]
use std::process::Command;
use std::process::{ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A limit of the sandbox that a program ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Memory(u64),
    Cpu(Duration),
    Processes(u32),
    FileSize(u64),
    /// Its files together outgrew the disk quota (`Limits::disk`).
    Disk(u64),
    /// It tried to open a network connection.
    Network,
}

impl Limit {
    pub fn word(self) -> &'static str {
        match self {
            Limit::Memory(_) => "MEMORY-LIMIT",
            Limit::Cpu(_) => "CPU-LIMIT",
            Limit::Processes(_) => "PROCESS-LIMIT",
            Limit::FileSize(_) => "FILE-SIZE-LIMIT",
            Limit::Disk(_) => "DISK-LIMIT",
            Limit::Network => "NETWORK",
        }
    }

    /// The sentence a report gives.
    pub fn problem(self) -> String {
        let bytes = |n: u64| crate::human_bytes(n);
        match self {
            Limit::Memory(n) => format!(
                "the implementation exceeded the memory limit of {} and was stopped (raise it with --memory-limit)",
                bytes(n)
            ),
            Limit::Cpu(t) => format!(
                "the implementation used more than {} s of CPU time and was killed (raise it with --cpu-limit)",
                t.as_secs()
            ),
            Limit::Processes(n) => format!(
                "the implementation tried to run more than {n} processes at once and was stopped (raise it with --process-limit)"
            ),
            Limit::FileSize(n) => format!(
                "the implementation tried to write a file larger than {} and was stopped (raise it with --file-size-limit)",
                bytes(n)
            ),
            Limit::Disk(n) => format!(
                "the implementation's files took more than {} on disk in all and it was stopped (raise it with --disk-limit)",
                bytes(n)
            ),
            Limit::Network => "the implementation tried to open a network connection, which the sandbox forbids".to_owned(),
        }
    }
}

/// How much of stderr a report shows.
const STDERR_TAIL: usize = 2048;
/// After the command exits, how long to wait for pipes still held open by what it started.
const GRACE: Duration = Duration::from_millis(500);

/// What running a command came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// It exited with status 0.
    Exited { stdout: Vec<u8>, stderr: String },
    /// It exited with another status, or was killed by a signal.
    Crashed {
        how: String,
        stdout: Vec<u8>,
        stderr: String,
    },
    /// It used more CPU time than its timeout (or, `wall`, ran past its wall-clock
    /// backstop).
    TimedOut {
        after: Duration,
        wall: bool,
        stdout: Vec<u8>,
        stderr: String,
    },
    OutputLimit {
        cap: usize,
        stdout: Vec<u8>,
        stderr: String,
    },
    /// It ran into a limit of the sandbox.
    LimitHit {
        limit: Limit,
        stdout: Vec<u8>,
        stderr: String,
    },
    /// The program does not exist.
    NotFound { program: String },
    /// It exists but could not be started (not executable, a directory, ...).
    CannotStart { program: String, error: String },
}

impl Ran {
    /// The verdict word for a report.
    pub fn word(&self) -> &'static str {
        match self {
            Ran::Exited { .. } => "EXITED",
            Ran::Crashed { .. } => "CRASHED",
            Ran::TimedOut { .. } => "TIMEOUT",
            Ran::OutputLimit { .. } => "OUTPUT-LIMIT",
            Ran::LimitHit { limit, .. } => limit.word(),
            Ran::NotFound { .. } => "NOT-FOUND",
            Ran::CannotStart { .. } => "NOT-FOUND",
        }
    }

    /// What it printed on stdout (empty if it never ran).
    pub fn stdout(&self) -> &[u8] {
        match self {
            Ran::Exited { stdout, .. }
            | Ran::Crashed { stdout, .. }
            | Ran::TimedOut { stdout, .. }
            | Ran::OutputLimit { stdout, .. }
            | Ran::LimitHit { stdout, .. } => stdout,
            Ran::NotFound { .. } | Ran::CannotStart { .. } => &[],
        }
    }

    /// The end of what it printed on stderr.
    pub fn stderr(&self) -> &str {
        match self {
            Ran::Exited { stderr, .. }
            | Ran::Crashed { stderr, .. }
            | Ran::TimedOut { stderr, .. }
            | Ran::OutputLimit { stderr, .. }
            | Ran::LimitHit { stderr, .. } => stderr,
            Ran::NotFound { .. } | Ran::CannotStart { .. } => "",
        }
    }

    /// One line saying what went wrong, for anything but a clean exit.
    pub fn problem(&self) -> Option<String> {
        match self {
            Ran::Exited { .. } => None,
            Ran::Crashed { how, .. } => Some(format!("the implementation {how}")),
            Ran::TimedOut {
                after, wall: false, ..
            } => Some(format!(
                "the implementation ran past the {} s timeout (of CPU time, its processes together) and was killed (with everything it started)",
                after.as_secs_f64()
            )),
            Ran::TimedOut {
                after, wall: true, ..
            } => Some(format!(
                "the implementation was still running after {} s of wall-clock time (--wall-time), waiting rather than computing (the time it waited for a CPU others held not counted), and was killed (with everything it started)",
                after.as_secs_f64()
            )),
            Ran::OutputLimit { cap, .. } => Some(format!(
                "the implementation printed more than {} and was killed (raise it with --max-output)",
                crate::human_bytes(*cap as u64)
            )),
            Ran::LimitHit { limit, .. } => Some(limit.problem()),
            Ran::NotFound { program } => Some(format!(
                "no program `{program}` (not a file, and not found on PATH)"
            )),
            Ran::CannotStart { program, error } => {
                Some(format!("cannot start `{program}`: {error}"))
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Stream {
    Out,
    Err,
}

#[cfg(target_os = "linux")]
/// The process group and container marker of each command now running, for the interrupt
/// handler.
static RUNNING: std::sync::Mutex<Vec<(u32, String)>> = std::sync::Mutex::new(Vec::new());

#[cfg(target_os = "linux")]
/// Set by the interrupt handler: a command it killed is not judged (the handler exits 130).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
/// Waits for the interrupt handler to end the process, if it is at work: a command it killed
/// must not be reported as crashed.
fn yield_to_interrupt() {
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

#[cfg(target_os = "linux")]
static CLEAN_UP: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

#[cfg(target_os = "linux")]
/// What else to undo on Ctrl-C or SIGTERM before gametrace exits (the caller's half-written
/// files): the first one given is kept.
pub fn clean_up_on_interrupt(clean_up: fn()) {
    let _ = CLEAN_UP.set(clean_up);
}

#[cfg(target_os = "linux")]
/// On Ctrl-C or SIGTERM, kill everything the running commands started and remove the
/// temporary files being written before gametrace exits (code 130): a command has its own
/// group, so the terminal's signal does not reach it.
pub fn install_interrupt_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
            for (group, marker) in running {
                contain::kill_all(group, &marker);
            }
            if let Some(clean_up) = CLEAN_UP.get() {
                clean_up();
            }
            super::identity::kill_all_taken();
            super::remove_live_scratches();
            super::cgroup::remove_cgroups();
            std::process::exit(130);
        });
    });
}

#[cfg(target_os = "linux")]
/// A command started under its job's confinement, in its own process group, registered with
/// the interrupt handler. Whoever holds one must end it with [`Started::kill_and_wait`].
pub(super) struct Started {
    pub child: std::process::Child,
    pub group: u32,
    pub marker: String,
    /// Lives until the command's processes are gone.
    pub cgroup: Option<Cgroup>,
    /// The uid it runs as (root's gametrace): every process of it is killed at the end.
    seat: Option<Seat>,
    /// Init's extras, read when it has ended.
    extras_pipe: Option<std::os::fd::OwnedFd>,
    /// Whether they were: the run had a PID namespace, and it has ended.
    extras_read: bool,
    /// What its end came to besides its status: filled by [`Started::kill_and_wait`].
    pub extras: Extras,
    /// The CPU time it and its children used, once reaped.
    cpu_used: Duration,
    /// The most memory one of its processes held (bytes), once reaped.
    max_rss: u64,
    reaped: Option<ExitStatus>,
}

#[cfg(target_os = "linux")]
impl Started {
    /// Has it exited? (Without reaping it: its resource usage is read when it is.)
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if let Some(s) = self.reaped {
            return Some(s);
        }
        let pid = self.child.id() as libc::id_t;
        // SAFETY: waitid into a local struct, on our own child, without reaping it.
        let done = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            ) == 0
                && info.si_pid() != 0
        };
        if done {
            self.reap().ok()
        } else {
            None
        }
    }

    /// Waits for it to end and reaps it, keeping its CPU time.
    fn reap(&mut self) -> std::io::Result<ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        if let Some(s) = self.reaped {
            return Ok(s);
        }
        let pid = self.child.id() as libc::pid_t;
        let mut st = 0;
        // SAFETY: wait4 on our own child into local structs.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            loop {
                if libc::wait4(pid, &mut st, 0, &mut usage) == pid {
                    break usage;
                }
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        };
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        self.cpu_used = time(usage.ru_utime) + time(usage.ru_stime);
        self.max_rss = (usage.ru_maxrss.max(0) as u64).saturating_mul(1024);
        let status = ExitStatus::from_raw(st);
        self.reaped = Some(status);
        Ok(status)
    }

    /// The CPU time it and the children it waited for used (once reaped).
    pub fn cpu_used(&self) -> Duration {
        self.cpu_used
    }

    /// The uid it runs as, when root gave it one of its own.
    pub fn uid(&self) -> Option<u32> {
        self.seat.as_ref().map(Seat::uid)
    }

    /// Does a PID namespace or a uid of its own hold every process of the command? Then
    /// killing its group, and its uid, is enough; else every process carrying its marker
    /// and every orphan is looked for (see [`contain`]).
    fn held(&self) -> bool {
        self.seat.is_some() || self.extras_pipe.is_some() || self.extras_read
    }

    /// Kills what the command left running once it has exited on its own, and counts it.
    pub fn kill_left(&mut self) {
        let killed = if self.held() {
            contain::kill_group(self.group);
            match (&mut self.seat, self.extras_pipe.is_some()) {
                (Some(seat), false) => seat.kill_all(),
                _ => 0,
            }
        } else {
            contain::kill_all(self.group, &self.marker)
        };
        self.extras.left += killed as u32;
    }

    /// Kills everything the command started and reaps it; unregisters it; reads what its
    /// end came to. What is killed after the program ended on its own is counted as left
    /// running; a program stopped (timed out, too much output) is not counted against.
    pub fn kill_and_wait(&mut self, exited: Option<ExitStatus>) -> std::io::Result<ExitStatus> {
        let ended = exited.is_some() || self.reaped.is_some();
        let killed = if self.held() {
            contain::kill_group(self.group);
            0
        } else {
            contain::kill_all(self.group, &self.marker)
        };
        let status = match exited.or(self.reaped) {
            Some(s) => Ok(s),
            None => self.reap(),
        };
        let left_by_init = self.extras.left;
        if let Some(pipe) = self.extras_pipe.take() {
            self.extras = Extras::read(&pipe);
            self.extras.left += left_by_init;
            self.extras_read = true;
        }
        // With a PID namespace, every process of the run ended with it (its init counted
        // what was left); without one, its uid is killed whole.
        // (A run killed here, its namespace still being torn down, has its uid killed too.)
        let by_seat = match (&mut self.seat, self.extras_read && ended) {
            (Some(seat), true) => {
                seat.ended_with_namespace();
                0
            }
            (Some(seat), false) => seat.kill_all(),
            (None, _) => 0,
        };
        if ended {
            self.extras.left += (killed + by_seat) as u32;
        } else {
            self.extras.left = 0;
        }
        yield_to_interrupt();
        contain::unregister(self.group);
        if let Ok(mut r) = RUNNING.lock() {
            r.retain(|(g, _)| *g != self.group);
        }
        status
    }

    /// The limit the command ran into, if that is why it failed.
    pub fn limit_hit(&self, job: &Job, stderr: &str, status: ExitStatus) -> Option<Limit> {
        if job.policy.off {
            return None;
        }
        if self.extras.disk_full {
            return Some(Limit::Disk(job.limits.disk));
        }
        let (pids, oom) = self.cgroup.as_ref().map_or((false, false), |c| c.events());
        let ev = Evidence {
            cgroup: self.cgroup.is_some(),
            pids,
            oom,
            // The soft limit's SIGXCPU comes as the time runs out; a second's slack for how
            // the kernel counts it.
            cpu_spent: self.cpu_used + Duration::from_secs(1) >= job.limits.cpu,
            big: self.max_rss.saturating_mul(4) >= job.limits.memory,
        };
        limit_hit(stderr, status, &job.limits, ev)
    }

    /// A line for the report when the program left processes running (killed now).
    pub fn left_note(&self) -> Option<String> {
        match self.extras.left {
            0 => None,
            1 => Some("gametrace killed 1 process the program left running".to_owned()),
            n => Some(format!(
                "gametrace killed {n} processes the program left running"
            )),
        }
    }
}

#[cfg(target_os = "linux")]
/// What language runtimes read to find themselves or their libraries: passed on.
const RUNTIME_ENV: [&str; 14] = [
    "JAVA_HOME",
    "CLASSPATH",
    "JAVA_TOOL_OPTIONS",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
    "PYTHONIOENCODING",
    "VIRTUAL_ENV",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "SMLNJ_HOME",
    "LD_LIBRARY_PATH",
    "TZ",
];

#[cfg(target_os = "linux")]
/// The variables of gametrace's own environment a sandboxed program is given: PATH, the
/// locale (LANG, LANGUAGE, LC_*), what runtimes read ([`RUNTIME_ENV`]) and those the grader
/// names (`--sandbox-env`). Everything else (a grader's API token, a cloud key) stays out.
pub fn passed_env(extra: &[String]) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    std::env::vars_os()
        .filter(|(k, _)| {
            let Some(k) = k.to_str() else { return false };
            k == "PATH"
                || k == "LANG"
                || k == "LANGUAGE"
                || k.starts_with("LC_")
                || RUNTIME_ENV.contains(&k)
                || extra.iter().any(|e| e == k)
        })
        .collect()
}

#[cfg(target_os = "linux")]
/// Starts `job`'s program, confined unless its policy turns the sandbox off, with `stdin`
/// and `env` added to its environment. `Err` is what running it came to when it could not
/// start.
pub(super) fn start(job: &Job, stdin: Stdio, env: &[(String, String)]) -> Result<Started, Ran> {
    let Job {
        argv,
        dir,
        limits,
        scratch,
        policy,
        ..
    } = *job;
    let Some((program, args)) = argv.split_first() else {
        return Err(Ran::NotFound {
            program: String::new(),
        });
    };
    // Found on PATH here, as the shell would: run as another uid, the program's own search
    // would meet folders of PATH it may not enter and say "Permission denied" for a program
    // that simply is not there.
    if !program.contains('/') && super::confine::on_path(program).is_none() {
        return Err(Ran::NotFound {
            program: program.clone(),
        });
    }
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let marker = contain::new_marker();
    cmd.env(contain::MARKER_VAR, &marker);
    contain::become_subreaper();
    contain::start_watchdog();
    let mut cgroup = None;
    let mut seat = None;
    let mut extras_pipe = None;
    {
        use std::os::unix::process::CommandExt;
        if policy.off {
            cmd.process_group(0);
            let parent = std::process::id();
            // SAFETY: the closure runs between fork and exec and makes only system calls
            // (prctl, getppid), which are async-signal-safe.
            unsafe {
                cmd.pre_exec(move || contain::die_with_parent(parent));
            }
        } else {
            let layers = super::protections().layers;
            let cannot = |error: String| Ran::CannotStart {
                program: program.clone(),
                error,
            };
            // Fail closed: a mode that cannot confine never starts the program.
            super::confinable(policy).map_err(cannot)?;
            let identity = if rustix::process::geteuid().is_root() {
                let taken =
                    Seat::take().map_err(|e| cannot(format!("cannot prepare the sandbox: {e}")))?;
                let uid = taken.uid();
                seat = Some(taken);
                preflight(job, uid, layers.mount_namespace && layers.pid_namespace)
                    .map_err(cannot)?;
                Identity::Seat(uid)
            } else {
                Identity::Same
            };
            let mut procs = Vec::new();
            if let Some(kind) = layers.cgroup {
                if let Some((c, p)) = cgroup::make_cgroup(kind, &limits) {
                    cgroup = Some(c);
                    procs = p;
                }
            }
            let mut plan = Plan::new(layers, job, identity, procs)
                .map_err(|e| cannot(format!("cannot prepare the sandbox: {e}")))?;
            extras_pipe = plan.extras();
            // Only an allow-list of gametrace's environment (a grader's tokens stay out).
            cmd.env_clear();
            for (k, v) in passed_env(&policy.env) {
                cmd.env(k, v);
            }
            cmd.env("TERM", "dumb");
            for (k, v) in env {
                cmd.env(k, v);
            }
            cmd.env(contain::MARKER_VAR, &marker);
            for var in ["HOME", "TMPDIR", "TMP", "TEMP"] {
                cmd.env(var, scratch.path());
            }
            // SAFETY: Plan::enter makes system calls only, on memory prepared before the fork.
            unsafe {
                cmd.pre_exec(move || plan.enter());
            }
        }
    }
    if policy.off {
        // Still a private temp directory (where `{tree_json}` and its like are written).
        cmd.env("TMPDIR", scratch.path());
    }
    install_interrupt_handler();
    // Held while spawning so an interrupt sees the command as soon as it exists.
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let child = match contain::spawn(&mut cmd) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Ran::NotFound {
                program: program.clone(),
            })
        }
        Err(e) => {
            return Err(Ran::CannotStart {
                program: program.clone(),
                error: e.to_string(),
            })
        }
    };
    let group = child.id();
    running.push((group, marker.clone()));
    drop(running);
    Ok(Started {
        child,
        group,
        marker,
        cgroup,
        seat,
        extras_pipe,
        extras: Extras::default(),
        extras_read: false,
        cpu_used: Duration::ZERO,
        max_rss: 0,
        reaped: None,
    })
}

#[cfg(target_os = "linux")]
/// Before a program runs as `uid` (root's gametrace): can that uid reach its working folder,
/// its program and the files its command line names? A TA's private folder (mode 0700) would
/// otherwise fail every submission with "Permission denied"; this says which path and how
/// to open it. With `binds`, a runtime behind a private folder is reached by the mount
/// namespace, so only the path itself is judged.
fn preflight(job: &Job, uid: u32, binds: bool) -> Result<(), String> {
    use super::confine::readable_by;
    let hint = |what: &str, path: &std::path::Path| {
        format!(
            "the sandbox runs student code as uid {uid}, an unprivileged user of its own, which cannot read {what} {}: make it readable by every user (chmod -R a+rX {}), or run gametrace as an ordinary user",
            path.display(),
            path.display()
        )
    };
    let dir = job
        .dir
        .map(std::path::Path::to_owned)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    if !readable_by(&dir, uid, binds) {
        return Err(hint("its working folder", &dir));
    }
    let Some(program) = job.argv.first() else {
        return Ok(());
    };
    let path = if program.contains('/') {
        Some(dir.join(program))
    } else {
        super::confine::on_path(program)
    };
    if let Some(path) = path.filter(|p| p.exists()) {
        let ok = if binds {
            readable_by(&path, uid, true)
        } else {
            super::confine::runnable_by(&path, uid)
        };
        if !ok {
            return Err(if program.contains('/') {
                hint("the program", &path)
            } else {
                format!(
                    "the sandbox runs student code as uid {uid}, an unprivileged user of its own, which cannot run `{program}` ({}): a folder on the way is private. Install it where every user may run it (or put such a one first on PATH); `gametrace doctor` checks each runtime",
                    path.display()
                )
            });
        }
    }
    for word in job.argv.iter().skip(1) {
        if !word.contains('/') || word.starts_with('-') {
            continue;
        }
        let path = dir.join(word);
        if path.is_file() && !readable_by(&path, uid, binds) {
            return Err(hint("the file", &path));
        }
    }
    Ok(())
}

/// Runs `job`: its program, confined unless its policy turns the sandbox off, under its
/// limits, inside its folder if it has one.
pub fn run(job: &Job) -> Ran {
    let program = job.argv.first().cloned().unwrap_or_default();
    let stdin = match job.stdin {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Stdio::from(f),
            Err(e) => {
                return Ran::CannotStart {
                    program,
                    error: format!("cannot open the --stdin file {}: {e}", path.display()),
                }
            }
        },
        None => Stdio::null(),
    };
    let mut proc = match start(job, stdin, &[]) {
        Ok(s) => s,
        Err(ran) => return ran,
    };
    let rx = read_pipes(&mut proc.child);
    let mut out = Output::default();
    let started = Instant::now();
    let disk = Disk::new(job, proc.group, proc.uid());
    let (stop, exited) = watch(job, &mut proc, (started, &disk), &rx, &mut out);
    let status = match proc.kill_and_wait(exited) {
        Ok(s) => s,
        Err(e) => {
            return Ran::CannotStart {
                program,
                error: format!("lost track of the process: {e}"),
            }
        }
    };
    ended(job, &proc, &disk, (stop, status), out)
}

/// Why a run's watch stopped.
enum Stop {
    Done,
    /// Past the CPU time (false) or the wall-clock backstop (true).
    Timeout(bool),
    Cap,
    Disk,
}

/// What a run's pipes gave: its stdout (up to the cap), its stderr's tail, how much in all,
/// and how many pipes are still open.
struct Output {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    total: usize,
    open: usize,
}

impl Default for Output {
    fn default() -> Output {
        Output {
            stdout: Vec::new(),
            stderr: Vec::new(),
            total: 0,
            open: 2,
        }
    }
}

impl Output {
    /// A chunk from one of the pipes; false once what the run printed is past `cap` (stdout
    /// then cut to it).
    fn take(&mut self, stream: Stream, chunk: &[u8], cap: usize) -> bool {
        self.total += chunk.len();
        match stream {
            Stream::Out => self.stdout.extend_from_slice(chunk),
            Stream::Err => {
                self.stderr.extend_from_slice(chunk);
                if self.stderr.len() > 4 * STDERR_TAIL {
                    self.stderr.drain(..self.stderr.len() - STDERR_TAIL);
                }
            }
        }
        if self.total > cap {
            self.stdout.truncate(cap);
            return false;
        }
        true
    }
}

/// A chunk of one of a run's pipes, or (None) its end.
type Chunk = (Stream, Option<Vec<u8>>);

/// A thread for each of the child's pipes, sending what it reads.
fn read_pipes(child: &mut std::process::Child) -> mpsc::Receiver<Chunk> {
    let pipes = [
        (
            Stream::Out,
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
        (
            Stream::Err,
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
    ];
    let (tx, rx) = mpsc::channel::<Chunk>();
    for (stream, pipe) in pipes {
        let Some(mut pipe) = pipe else { continue };
        let tx = tx.clone();
        // Readers own nothing else: if something outside the group keeps a pipe open, they
        // are left behind blocked and end with gametrace.
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 64 << 10];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send((stream, None));
                        return;
                    }
                    Ok(n) => {
                        if tx.send((stream, Some(buf[..n].to_vec()))).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }
    rx
}

/// Watches the running command until it is done (and its pipes closed, or the grace after
/// its end is over) or a limit stops it: the CPU time, the wall-clock backstop, the output
/// cap, the disk (`disk`, measured from `started`). Returns why it stopped and the
/// command's status if it ended.
fn watch(
    job: &Job,
    proc: &mut Started,
    (started, disk): (Instant, &Disk),
    rx: &mpsc::Receiver<Chunk>,
    out: &mut Output,
) -> (Stop, Option<ExitStatus>) {
    let limits = job.limits;
    // The CPU time is the limit; the wall clock only a backstop (see `Limits`).
    let mut backstop = Backstop::new(started, limits.wall);
    let mut exited: Option<(ExitStatus, Instant)> = None;
    let cpu = Cpu::new(job, proc.group, proc.uid());
    let mut measured = started;
    let stop = loop {
        let now = Instant::now();
        if exited.is_none() && now >= backstop.deadline() {
            break Stop::Timeout(true);
        }
        if now.duration_since(measured) >= DISK_EVERY {
            measured = now;
            if disk.over() {
                break Stop::Disk;
            }
            if exited.is_none() && cpu.used() > limits.timeout {
                break Stop::Timeout(false);
            }
            backstop.update(&cpu);
        }
        let wait = backstop
            .deadline()
            .saturating_duration_since(now)
            .min(Duration::from_millis(20));
        match rx.recv_timeout(wait) {
            Ok((stream, Some(chunk))) => {
                if !out.take(stream, &chunk, limits.output_cap) {
                    break Stop::Cap;
                }
            }
            Ok((_, None)) => out.open -= 1,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => out.open = 0,
        }
        if exited.is_none() {
            if let Some(status) = proc.exited() {
                // The command is done; anything it left running goes now, wherever it went.
                proc.kill_left();
                exited = Some((status, Instant::now()));
            }
        }
        match exited {
            Some(_) if out.open == 0 => break Stop::Done,
            Some((_, at)) if at.elapsed() > GRACE => break Stop::Done,
            _ => {}
        }
    };
    (stop, exited.map(|(s, _)| s))
}

/// What a run that stopped so, its processes reaped with `status`, came to.
fn ended(
    job: &Job,
    proc: &Started,
    disk: &Disk,
    (stop, status): (Stop, ExitStatus),
    out: Output,
) -> Ran {
    let limits = job.limits;
    let Output { stdout, stderr, .. } = out;
    // Measured once more at the end: a program quick enough to fill the disk between two
    // looks is caught all the same; and a temp folder of the kernel's that it filled.
    let stop = match stop {
        Stop::Done if disk.over() || proc.extras.disk_full => Stop::Disk,
        // Past its CPU time between two looks, and done: a verdict on the time it used, not
        // on when it was looked at.
        Stop::Done if proc.cpu_used() > limits.timeout => Stop::Timeout(false),
        s => s,
    };
    let mut stderr = tail(&stderr);
    if let Some(note) = proc.left_note() {
        if !stderr.is_empty() && !stderr.ends_with('\n') {
            stderr.push('\n');
        }
        stderr.push_str(&note);
        stderr.push('\n');
    }
    let clean = matches!(stop, Stop::Done) && status.success();
    if !matches!(stop, Stop::Cap | Stop::Disk) && !clean {
        if let Some(limit) = proc.limit_hit(job, &stderr, status) {
            return Ran::LimitHit {
                limit,
                stdout,
                stderr,
            };
        }
    }
    match stop {
        Stop::Timeout(wall) => Ran::TimedOut {
            after: if wall { limits.wall } else { limits.timeout },
            wall,
            stdout,
            stderr,
        },
        Stop::Cap => Ran::OutputLimit {
            cap: limits.output_cap,
            stdout,
            stderr,
        },
        Stop::Disk => Ran::LimitHit {
            limit: Limit::Disk(limits.disk),
            stdout,
            stderr,
        },
        Stop::Done if status.success() => Ran::Exited { stdout, stderr },
        Stop::Done => Ran::Crashed {
            how: describe_status(status),
            stdout,
            stderr,
        },
    }
}

/// What a tree served by a long-lived driver came to, as [`run`] would have said it of a run
/// of its own that exited with `code` after printing `stdout` and `stderr` (the driver ran it
/// in a process of its own and caught both): `Exited` or `Crashed`, the stderr's tail as a run
/// keeps it. `None` where only a run of its own can say: past the output cap, or a failure
/// whose stderr speaks of a limit (a run of its own weighs that against what the sandbox
/// measured of it).
pub fn served(code: i32, stdout: Vec<u8>, stderr: &[u8], limits: &super::Limits) -> Option<Ran> {
    served_as(code, stdout, stderr, limits)
}

#[cfg(target_os = "linux")]
fn served_as(code: i32, stdout: Vec<u8>, stderr: &[u8], limits: &Limits) -> Option<Ran> {
    use std::os::unix::process::ExitStatusExt;
    if !(0..=255).contains(&code) || stdout.len() + stderr.len() > limits.output_cap {
        return None;
    }
    let status = ExitStatus::from_raw(code << 8);
    let stderr = tail(stderr);
    if status.success() {
        return Some(Ran::Exited { stdout, stderr });
    }
    // Every piece of evidence granted: any limit its words could mean sends it to a run of
    // its own.
    let ev = Evidence {
        cgroup: false,
        pids: true,
        oom: true,
        cpu_spent: true,
        big: true,
    };
    if limit_hit(&stderr, status, limits, ev).is_some() {
        return None;
    }
    Some(Ran::Crashed {
        how: describe_status(status),
        stdout,
        stderr,
    })
}

#[cfg(not(target_os = "linux"))]
fn served_as(_: i32, _: Vec<u8>, _: &[u8], _: &super::Limits) -> Option<Ran> {
    None
}

/// How often a running program's files are measured against the disk quota.
pub(super) const DISK_EVERY: Duration = Duration::from_millis(100);

#[cfg(target_os = "linux")]
/// The disk quota of one run: the folders it may write, and what they held when it started;
/// and, where its temp folder is a tmpfs of the quota's size in its own mount namespace,
/// that tmpfs (seen through `/proc/PID/root`), full or not.
pub(super) struct Disk {
    dirs: Vec<std::path::PathBuf>,
    before: u64,
    limit: u64,
    tmpfs: Option<std::path::PathBuf>,
    /// Whose open files count too (a file deleted but held open takes its space, and no walk
    /// of the folders finds it): the processes of this uid (root's runs), or of this PID
    /// namespace (by its inode).
    owner: Option<Owner>,
}

/// The processes of one run, as the host's `/proc` shows them.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy)]
pub(super) enum Owner {
    Uid(u32),
    PidNamespace(u64),
}

#[cfg(target_os = "linux")]
impl Owner {
    fn has(self, pid: &std::path::Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match self {
            Owner::Uid(uid) => std::fs::symlink_metadata(pid).is_ok_and(|m| m.uid() == uid),
            Owner::PidNamespace(ino) => {
                std::fs::metadata(pid.join("ns/pid")).is_ok_and(|m| m.ino() == ino)
            }
        }
    }

    /// The blocks of the regular files of the disks in `devs` its processes hold, open or
    /// mapped (`mmap`, then closed), that no longer have a name.
    fn deleted_open(self, devs: &[u64]) -> u64 {
        use std::os::unix::fs::MetadataExt;
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return 0;
        };
        let mut seen = std::collections::HashSet::new();
        let mut used: u64 = 0;
        for p in procs.flatten() {
            let path = p.path();
            if !p
                .file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                || !self.has(&path)
            {
                continue;
            }
            // stat through /proc/PID/fd and /proc/PID/map_files (root's to read): the file
            // itself, named or not.
            let held = ["fd", "map_files"]
                .into_iter()
                .filter_map(|d| std::fs::read_dir(path.join(d)).ok())
                .flat_map(|d| d.flatten());
            for entry in held {
                if let Ok(m) = std::fs::metadata(entry.path()) {
                    if m.is_file()
                        && m.nlink() == 0
                        && devs.contains(&m.dev())
                        && seen.insert((m.dev(), m.ino()))
                    {
                        used = used.saturating_add(m.blocks() * 512);
                    }
                }
            }
        }
        used
    }
}

#[cfg(target_os = "linux")]
impl Disk {
    /// The quota of `job`, whose process (the one gametrace started) is `pid`, running as
    /// `uid` when root gave it a uid of its own.
    pub(super) fn new(job: &Job, pid: u32, uid: Option<u32>) -> Disk {
        // A temp folder on a tmpfs of the quota's size needs no measuring: the kernel refuses
        // the byte past the quota; whether it is full is read through the process's root.
        let layers = super::protections().layers;
        let kernel = !job.policy.off && layers.mount_namespace && layers.pid_namespace;
        let dirs: Vec<_> = std::iter::once(job.scratch.path().to_owned())
            .filter(|_| !kernel)
            .chain(job.policy.writable.iter().cloned())
            .collect();
        let before = dirs.iter().map(|d| super::files::disk_used(d)).sum();
        let tmpfs = kernel.then(|| {
            let scratch = super::policy::resolve(job.scratch.path());
            std::path::Path::new(&format!("/proc/{pid}/root"))
                .join(scratch.strip_prefix("/").unwrap_or(&scratch))
        });
        let owner = owner_of(job, pid, uid);
        Disk {
            dirs,
            before,
            limit: job.limits.disk,
            tmpfs,
            owner,
        }
    }

    /// Has the program added more than the quota, or filled its tmpfs? (Never, without the
    /// sandbox.)
    pub(super) fn over(&self) -> bool {
        if self.limit == 0 {
            return false;
        }
        if let Some(path) = &self.tmpfs {
            if let Ok(fs) = rustix::fs::statfs(path) {
                if fs.f_type == libc::TMPFS_MAGIC as _ && (fs.f_bavail == 0 || fs.f_ffree == 0) {
                    return true;
                }
            }
        }
        let devs: Vec<u64> = self
            .dirs
            .iter()
            .filter_map(|d| std::fs::metadata(d).ok())
            .map(|m| std::os::unix::fs::MetadataExt::dev(&m))
            .collect();
        let hidden = self.owner.map_or(0, |o| o.deleted_open(&devs));
        self.dirs
            .iter()
            .map(|d| super::files::disk_used(d))
            .fold(hidden, u64::saturating_add)
            .saturating_sub(self.before)
            > self.limit
    }
}

#[cfg(target_os = "linux")]
/// The CPU time the processes of one run have used so far: each live process's own and what
/// it reaped (a finished process's time is its reaper's), read from `/proc`.
pub(super) struct Cpu {
    who: Who,
    tick: f64,
    /// At the last [`Cpu::used`]: how long the run's live processes have waited on the
    /// kernel's run queue for a CPU (`/proc/PID/schedstat`), together.
    queued: std::cell::Cell<Duration>,
}

#[cfg(target_os = "linux")]
enum Who {
    /// Its uid's or its PID namespace's processes.
    Owner(Owner),
    /// Without the sandbox: its process group's.
    Group(u32),
}

#[cfg(target_os = "linux")]
impl Cpu {
    pub(super) fn new(job: &Job, pid: u32, uid: Option<u32>) -> Cpu {
        // SAFETY: sysconf has no preconditions.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        Cpu {
            who: owner_of(job, pid, uid).map_or(Who::Group(pid), Who::Owner),
            tick: 1.0 / if hz > 0 { hz as f64 } else { 100.0 },
            queued: std::cell::Cell::new(Duration::ZERO),
        }
    }

    /// How long, at the last [`Cpu::used`], the run's live processes had waited for a CPU
    /// that others held: on a loaded machine, time neither computed nor chosen to wait, by
    /// which the wall-clock backstop moves (see [`Backstop`]).
    pub(super) fn queued(&self) -> Duration {
        self.queued.get()
    }

    /// The CPU time used so far.
    pub(super) fn used(&self) -> Duration {
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return Duration::ZERO;
        };
        let mut ticks: u64 = 0;
        let mut queued_ns: u64 = 0;
        for p in procs.flatten() {
            let name = p.file_name();
            if !name
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
            {
                continue;
            }
            let path = p.path();
            if let Who::Owner(o) = self.who {
                if !o.has(&path) {
                    continue;
                }
            }
            let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
                continue;
            };
            // Past the command's name (which may hold anything): state is field 3.
            let Some((_, rest)) = stat.rsplit_once(") ") else {
                continue;
            };
            let f: Vec<&str> = rest.split_ascii_whitespace().collect();
            if let Who::Group(g) = self.who {
                if f.get(2).and_then(|p| p.parse::<u32>().ok()) != Some(g) {
                    continue;
                }
            }
            // utime, stime, cutime, cstime: fields 14 to 17.
            ticks += f
                .get(11..15)
                .map_or(0, |t| t.iter().filter_map(|x| x.parse::<u64>().ok()).sum());
            // schedstat: time on a CPU, time waiting on a run queue, time slices (ns).
            queued_ns += std::fs::read_to_string(path.join("schedstat"))
                .ok()
                .and_then(|t| t.split_ascii_whitespace().nth(1)?.parse::<u64>().ok())
                .unwrap_or(0);
        }
        self.queued.set(Duration::from_nanos(queued_ns));
        Duration::from_secs_f64(ticks as f64 * self.tick)
    }
}

/// The wall-clock backstop of a run or an answer: `wall` past its start, moved on by the time
/// its processes waited for a CPU on a loaded machine. A program that computes is judged by
/// its CPU time; the backstop catches one that waits (sleeps, reads a pipe no one writes),
/// and a loaded machine must not make a computing program look like one: two busy loops
/// beside a Connect 4 check had its SML estimator "still running after 32 s of wall-clock
/// time" with 10 s of CPU time not yet used.
pub(super) struct Backstop {
    base: Instant,
    /// The processes' queued time when first read (a run's processes start near 0).
    queued_from: Option<Duration>,
    deadline: Instant,
}

impl Backstop {
    pub(super) fn new(start: Instant, wall: Duration) -> Backstop {
        Backstop {
            base: start + wall,
            queued_from: None,
            deadline: start + wall,
        }
    }

    /// Moves the backstop by the queued time `cpu` last read. Never earlier: a process that
    /// ended takes its queued time with it.
    pub(super) fn update(&mut self, cpu: &Cpu) {
        let queued = cpu.queued();
        let from = *self.queued_from.get_or_insert(queued);
        self.deadline = self.deadline.max(self.base + queued.saturating_sub(from));
    }

    pub(super) fn deadline(&self) -> Instant {
        self.deadline
    }
}

/// Whose processes make one run, as the host's `/proc` shows them: its uid's (root's runs),
/// or its PID namespace's; `None` without the sandbox.
#[cfg(target_os = "linux")]
fn owner_of(job: &Job, pid: u32, uid: Option<u32>) -> Option<Owner> {
    use std::os::unix::fs::MetadataExt;
    match uid {
        _ if job.policy.off => None,
        Some(uid) => Some(Owner::Uid(uid)),
        None => std::fs::metadata(format!("/proc/{pid}/ns/pid_for_children"))
            .ok()
            .zip(std::fs::metadata("/proc/self/ns/pid").ok())
            .filter(|(theirs, mine)| theirs.ino() != mine.ino())
            .map(|(theirs, _)| Owner::PidNamespace(theirs.ino())),
    }
}

#[cfg(target_os = "linux")]
/// What the kernel tells of a run besides its exit status: the evidence a limit verdict
/// rests on, so that a program cannot earn one by printing its words or signalling itself.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Evidence {
    /// A cgroup counted the run: its word on memory and processes is final.
    pub cgroup: bool,
    /// The cgroup's process limit was hit.
    pub pids: bool,
    /// The cgroup's memory limit killed a process.
    pub oom: bool,
    /// The CPU time the run used reached its limit.
    pub cpu_spent: bool,
    /// Its largest process reached a quarter of the memory limit (a runtime's own heap, sized
    /// from the limit, ends there: a JVM's default).
    pub big: bool,
}

#[cfg(target_os = "linux")]
/// Words a runtime prints when an allocation is refused.
const MEMORY_WORDS: [&str; 11] = [
    "MemoryError",
    "OutOfMemoryError",
    "memory exhausted",
    "Cannot allocate memory",
    "cannot allocate memory",
    "Out of memory",
    "out of memory",
    "insufficient memory",
    "Unable to allocate",
    "unable to allocate",
    "std::bad_alloc",
];

#[cfg(target_os = "linux")]
/// Words a runtime prints when a fork or a thread is refused.
const PROCESS_WORDS: [&str; 8] = [
    "Resource temporarily unavailable",
    "BlockingIOError",
    "unable to create native thread",
    "can't start new thread",
    "Thread creation failed",
    "fork: retry",
    "Cannot fork",
    "can't fork",
];

/// The limit a command that failed ran into, on the kernel's evidence where there is some:
/// CPU time only when the run used its CPU time (a program that sends itself SIGXCPU is
/// CRASHED); memory and processes on the cgroup's counts where a cgroup counted the run
/// (else on what the runtime said, with its memory near the limit for memory). The file-size
/// and network verdicts rest on the signal or the words of the refused call (`SIGXFSZ`,
/// "File too large", "Network is unreachable"), which a program could also produce itself:
/// either way it has failed.
#[cfg(target_os = "linux")]
fn limit_hit(stderr: &str, status: ExitStatus, limits: &Limits, ev: Evidence) -> Option<Limit> {
    use std::os::unix::process::ExitStatusExt;
    let signal = status
        .signal()
        .or_else(|| status.code().filter(|c| *c > 128).map(|c| c - 128));
    let said = |patterns: &[&str]| patterns.iter().any(|p| stderr.contains(p));
    let cpu_words =
        matches!(signal, Some(libc::SIGXCPU | libc::SIGKILL)) || said(&["CPU time limit exceeded"]);
    if ev.cpu_spent && cpu_words {
        return Some(Limit::Cpu(limits.cpu));
    }
    if signal == Some(libc::SIGXFSZ) || said(&["File too large", "File size limit exceeded"]) {
        return Some(Limit::FileSize(limits.file_size));
    }
    // "Network is unreachable" is the sandbox's answer to an Internet socket (ENETUNREACH,
    // which `socket(2)` gives for nothing else), as the runtime reports it; SML/NJ names only
    // the C file of its failed socket call (every socket call is refused in the sandbox).
    if said(&["Network is unreachable", "raised at <socket.c>"]) {
        return Some(Limit::Network);
    }
    let memory = if ev.cgroup {
        ev.oom || (ev.big && said(&MEMORY_WORDS))
    } else {
        ev.big && said(&MEMORY_WORDS)
    };
    if memory {
        return Some(Limit::Memory(limits.memory));
    }
    let processes = if ev.cgroup {
        ev.pids
    } else {
        said(&PROCESS_WORDS)
    };
    if processes {
        return Some(Limit::Processes(limits.processes));
    }
    None
}

/// The last [`STDERR_TAIL`] bytes of stderr, as text, starting at a line if it can.
pub(super) fn tail(bytes: &[u8]) -> String {
    let start = bytes.len().saturating_sub(STDERR_TAIL);
    let text = String::from_utf8_lossy(&bytes[start..]).into_owned();
    if start > 0 {
        match text.find('\n') {
            Some(i) => format!("...\n{}", &text[i + 1..]),
            None => format!("...{text}"),
        }
    } else {
        text
    }
}

pub(super) fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                13 => " (SIGPIPE)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("was killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "ended abnormally".to_owned(),
    }
}

/// Splits a command line into arguments as a POSIX shell would (quotes and backslashes),
/// without running a shell.
pub fn split(command: &str) -> Option<Vec<String>> {
    shlex::split(command).filter(|v| !v.is_empty())
}

/// Replaces each `{name}` in `arg` by its value.
pub fn substitute(arg: &str, values: &[(&str, &str)]) -> String {
    let mut out = arg.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn sh(script: &str, limits: Limits) -> Ran {
        argv(&["sh", "-c", script], limits)
    }

    fn argv(words: &[&str], limits: Limits) -> Ran {
        let argv: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let scratch = crate::Scratch::new().unwrap();
        run(&Job {
            argv: &argv,
            words: &argv,
            stdin: None,
            dir: None,
            limits,
            scratch: &scratch,
            policy: &crate::Policy::default(),
        })
    }

    #[test]
    fn a_clean_exit_gives_its_output() {
        let r = sh("echo hi; echo oops >&2", Limits::default());
        assert_eq!(
            r,
            Ran::Exited {
                stdout: b"hi\n".to_vec(),
                stderr: "oops\n".into()
            }
        );
    }

    #[test]
    fn each_failure_has_its_own_verdict() {
        let quick = Limits {
            timeout: Duration::from_millis(300),
            wall: Duration::from_millis(900),
            output_cap: 1000,
            ..Limits::default()
        };
        assert_eq!(sh("exit 3", quick).word(), "CRASHED");
        assert!(sh("kill -SEGV $$", quick)
            .problem()
            .unwrap()
            .contains("signal 11 (SIGSEGV)"));
        assert_eq!(sh("sleep 30", quick).word(), "TIMEOUT");
        let r = sh("yes", quick);
        assert_eq!(r.word(), "OUTPUT-LIMIT");
        assert_eq!(r.stdout().len(), 1000);
        assert_eq!(argv(&["/no/such/program"], quick).word(), "NOT-FOUND");
    }

    /// The timeout is CPU time: a program that waits longer than it (and computes little)
    /// finishes, however busy the machine; one that computes past it is stopped, by its CPU
    /// time, long before the wall-clock backstop; one that waits forever is stopped by the
    /// backstop, and says so.
    #[test]
    fn the_timeout_is_cpu_time_and_the_wall_clock_a_backstop() {
        let limits = Limits {
            timeout: Duration::from_millis(400),
            wall: Duration::from_secs(20),
            ..Limits::default()
        };
        assert_eq!(sh("sleep 1; echo done", limits).word(), "EXITED");
        let started = Instant::now();
        let spin = sh("while :; do :; done", limits);
        assert_eq!(spin.word(), "TIMEOUT");
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "stopped by its CPU time"
        );
        assert!(spin.problem().unwrap().contains("of CPU time"), "{spin:?}");
        let waits = sh(
            "sleep 30",
            Limits {
                wall: Duration::from_millis(700),
                ..limits
            },
        );
        assert_eq!(waits.word(), "TIMEOUT");
        assert!(waits.problem().unwrap().contains("wall-clock"), "{waits:?}");
        // Children's CPU time counts too.
        let children = sh(
            "(while :; do :; done) & (while :; do :; done) & wait",
            limits,
        );
        assert_eq!(children.word(), "TIMEOUT");
    }

    #[test]
    fn a_limit_is_named_on_the_kernels_evidence() {
        use std::os::unix::process::ExitStatusExt;
        let l = Limits::default();
        let killed = |sig: i32| ExitStatus::from_raw(sig);
        let exited = |code: i32| ExitStatus::from_raw(code << 8);
        let none = Evidence::default();
        let cgroup = Evidence {
            cgroup: true,
            ..none
        };
        // CPU: only when the run used its CPU time; a SIGXCPU sent by itself is a crash.
        let spent = Evidence {
            cpu_spent: true,
            ..none
        };
        assert_eq!(
            limit_hit("", killed(libc::SIGXCPU), &l, spent),
            Some(Limit::Cpu(l.cpu))
        );
        assert_eq!(
            limit_hit("", killed(libc::SIGKILL), &l, spent),
            Some(Limit::Cpu(l.cpu))
        );
        assert_eq!(limit_hit("", killed(libc::SIGXCPU), &l, none), None);
        // Memory: the cgroup's OOM kill; or the runtime's words with its memory near the
        // limit; never the words alone.
        let oom = Evidence {
            oom: true,
            ..cgroup
        };
        assert_eq!(
            limit_hit("", killed(libc::SIGKILL), &l, oom),
            Some(Limit::Memory(l.memory))
        );
        assert_eq!(limit_hit("MemoryError", exited(1), &l, cgroup), None);
        assert_eq!(limit_hit("MemoryError", exited(1), &l, none), None);
        let big = Evidence { big: true, ..none };
        assert_eq!(
            limit_hit("MemoryError", exited(1), &l, big),
            Some(Limit::Memory(l.memory))
        );
        // Processes: the cgroup's count where there is one; the runtime's words without.
        let pids = Evidence {
            pids: true,
            ..cgroup
        };
        assert_eq!(
            limit_hit("", exited(1), &l, pids),
            Some(Limit::Processes(l.processes))
        );
        assert_eq!(
            limit_hit("BlockingIOError: [Errno 11]", exited(1), &l, cgroup),
            None
        );
        assert_eq!(
            limit_hit("BlockingIOError: [Errno 11]", exited(1), &l, none),
            Some(Limit::Processes(l.processes))
        );
        // The refused Internet socket, as Python and bash report it.
        assert_eq!(
            limit_hit(
                "OSError: [Errno 101] Network is unreachable",
                exited(1),
                &l,
                none
            ),
            Some(Limit::Network)
        );
        assert_eq!(
            limit_hit("OSError: [Errno 27] File too large", exited(1), &l, none),
            Some(Limit::FileSize(l.file_size))
        );
        // An ordinary crash is a crash; a SIGSYS is no longer the sandbox's (nothing it
        // refuses kills).
        assert_eq!(
            limit_hit("Traceback ... KeyError", exited(1), &l, none),
            None
        );
        assert_eq!(limit_hit("", killed(libc::SIGSEGV), &l, none), None);
        assert_eq!(limit_hit("", killed(libc::SIGSYS), &l, none), None);
    }

    #[test]
    fn splits_like_a_shell_and_fills_placeholders() {
        assert_eq!(
            split("python3 'my dir/ab.py' {tree_json} --depth={depth}").unwrap(),
            ["python3", "my dir/ab.py", "{tree_json}", "--depth={depth}"]
        );
        assert!(split("unclosed 'quote").is_none());
        assert_eq!(
            substitute("--depth={depth}", &[("depth", "4")]),
            "--depth=4"
        );
    }
}
