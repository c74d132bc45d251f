//! Where there is no Linux sandbox (macOS, Windows): the user's *own* program, run as it is,
//! with the user's rights. [`super::run`] and [`super::Session`] keep their timeout, their
//! output cap and their verdicts; what this module gives them is a plain start (a process
//! group on macOS, a job object on Windows, so that a timeout kills everything the program
//! started) and nothing that confines. The command line says so once ("no sandbox on macOS:
//! run only your own code"), and `grade` refuses to run a class's code here without
//! `--no-sandbox`.

use super::{Job, Ran};
use std::process::{Command, ExitStatus, Stdio};

/// The system gametrace was built for, as its users name it.
pub fn unsandboxed_system() -> Option<&'static str> {
    Some(if cfg!(target_os = "macos") {
        "macOS"
    } else if cfg!(windows) {
        "Windows"
    } else {
        "this system"
    })
}

/// A protection, as `gametrace doctor` lists them (none holds here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Identity,
    Files,
    Network,
    Orphans,
    Disk,
    Processes,
    Memory,
    OtherLimits,
}

impl Layer {
    pub fn name(self) -> &'static str {
        match self {
            Layer::Identity => "identity",
            Layer::Files => "files",
            Layer::Network => "network",
            Layer::Orphans => "orphans",
            Layer::Disk => "disk",
            Layer::Processes => "processes",
            Layer::Memory => "memory",
            Layer::OtherLimits => "other limits",
        }
    }
}

/// What is in force: nothing.
#[derive(Clone, Debug)]
pub struct Protections {
    pub lines: Vec<(Layer, bool, String)>,
}

impl Protections {
    pub fn complete(&self) -> bool {
        false
    }

    pub fn missing(&self) -> Vec<&'static str> {
        self.lines.iter().map(|(l, _, _)| l.name()).collect()
    }

    pub fn summary(&self) -> String {
        format!(
            "none: no sandbox on {}",
            unsandboxed_system().unwrap_or_default()
        )
    }

    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for (layer, _, how) in &self.lines {
            let _ = writeln!(out, "NO   {:<13} {how}", layer.name());
        }
        out
    }
}

/// The protections of this machine: none, and why.
pub fn protections() -> &'static Protections {
    static FOUND: std::sync::OnceLock<Protections> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        let why = format!(
            "gametrace's sandbox is Linux's (Landlock, seccomp, namespaces, cgroups); on {} the program runs with your user's rights",
            unsandboxed_system().unwrap_or_default()
        );
        let lines = [
            Layer::Identity,
            Layer::Files,
            Layer::Network,
            Layer::Orphans,
            Layer::Disk,
            Layer::Processes,
            Layer::Memory,
            Layer::OtherLimits,
        ]
        .into_iter()
        .map(|l| (l, false, why.clone()))
        .collect();
        Protections { lines }
    })
}

static CLEAN_UP: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// What else to undo on Ctrl-C before gametrace exits: the first one given is kept.
pub fn clean_up_on_interrupt(clean_up: fn()) {
    let _ = CLEAN_UP.set(clean_up);
}

/// On Ctrl-C, remove the temporary files being written and exit 130 (the programs running
/// get the terminal's signal themselves, or die with their job object on Windows). On macOS
/// there is no handler (see Cargo.toml): Ctrl-C ends gametrace as it is, and a run's temp
/// folder may stay behind; a report is never left half-written (each is renamed into place).
#[cfg(target_os = "macos")]
pub fn install_interrupt_handler() {}

/// On Ctrl-C, remove the temporary files being written and exit 130 (the programs running
/// get the terminal's signal themselves, or die with their job object on Windows).
#[cfg(not(target_os = "macos"))]
pub fn install_interrupt_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if let Some(clean_up) = CLEAN_UP.get() {
                clean_up();
            }
            std::process::exit(130);
        });
    });
}

/// What a program's end came to besides its status (nothing is measured here).
#[derive(Debug, Default)]
pub(crate) struct Extras {
    pub disk_full: bool,
}

/// A program started, for [`super::run`] and [`super::Session`]: ended with
/// [`Started::kill_and_wait`].
pub(crate) struct Started {
    pub child: std::process::Child,
    pub group: u32,
    pub extras: Extras,
    reaped: Option<ExitStatus>,
    /// Everything the program starts is in it (win32job: a kept crate's safe wrapper of
    /// Windows' job objects).
    #[cfg(windows)]
    job: Option<win32job::Job>,
}

impl Started {
    /// No uid of its own: the user's program runs as the user.
    pub fn uid(&self) -> Option<u32> {
        None
    }

    /// Not read here (see [`Cpu`]).
    pub fn cpu_used(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }

    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.reaped.is_none() {
            self.reaped = self.child.try_wait().ok().flatten();
        }
        self.reaped
    }

    /// Kills what the program left running once it has exited on its own.
    pub fn kill_left(&mut self) {
        self.kill_group();
    }

    fn kill_group(&mut self) {
        #[cfg(unix)]
        // SAFETY: a signal to the process group the program leads, which is ours.
        unsafe {
            libc::killpg(self.group as libc::pid_t, libc::SIGKILL);
        }
        // Closing the job object kills every process in it (`limit_kill_on_job_close`).
        #[cfg(windows)]
        drop(self.job.take());
        let _ = self.child.kill();
    }

    pub fn kill_and_wait(&mut self, exited: Option<ExitStatus>) -> std::io::Result<ExitStatus> {
        self.kill_group();
        match exited.or(self.reaped) {
            Some(s) => Ok(s),
            None => {
                let s = self.child.wait()?;
                self.reaped = Some(s);
                Ok(s)
            }
        }
    }

    /// No limit but time and output holds here, so none is ever the reason.
    pub fn limit_hit(
        &self,
        _job: &Job,
        _stderr: &str,
        _status: ExitStatus,
    ) -> Option<super::Limit> {
        None
    }

    pub fn left_note(&self) -> Option<String> {
        None
    }
}

/// Starts `job`'s program with `stdin`, `env` added to the user's own environment, and its
/// scratch folder as its temp folder.
pub(crate) fn start(job: &Job, stdin: Stdio, env: &[(String, String)]) -> Result<Started, Ran> {
    let Some((program, args)) = job.argv.split_first() else {
        return Err(Ran::NotFound {
            program: String::new(),
        });
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    for var in ["TMPDIR", "TMP", "TEMP"] {
        cmd.env(var, job.scratch.path());
    }
    if let Some(dir) = job.dir {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    install_interrupt_handler();
    let child = match cmd.spawn() {
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
    #[cfg(windows)]
    let job_object = {
        use std::os::windows::io::AsRawHandle;
        let mut info = win32job::ExtendedLimitInfo::new();
        info.limit_kill_on_job_close();
        win32job::Job::create_with_limit_info(&info)
            .ok()
            .filter(|j| j.assign_process(child.as_raw_handle() as isize).is_ok())
    };
    Ok(Started {
        group: child.id(),
        child,
        extras: Extras::default(),
        reaped: None,
        #[cfg(windows)]
        job: job_object,
    })
}

/// Where a run's CPU time cannot be read, its wall-clock time stands for it: the timeout is
/// the wall clock's, as it was everywhere before.
pub(crate) struct Cpu {
    started: std::time::Instant,
}

impl Cpu {
    pub(crate) fn new(_job: &Job, _pid: u32, _uid: Option<u32>) -> Cpu {
        Cpu {
            started: std::time::Instant::now(),
        }
    }

    pub(crate) fn used(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// Not read here: the wall clock is the measure.
    pub(crate) fn queued(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// No disk quota holds here.
pub(crate) struct Disk;

impl Disk {
    pub(crate) fn new(_job: &Job, _pid: u32, _uid: Option<u32>) -> Disk {
        Disk
    }

    pub(crate) fn over(&self) -> bool {
        false
    }
}

/// `--sandbox-read` and its like: only checked, since nothing is confined.
pub mod policy {
    use std::path::{Path, PathBuf};

    /// `path` made absolute and canonical where it exists.
    pub fn resolve(path: &Path) -> PathBuf {
        std::fs::canonicalize(path)
            .unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_owned()))
    }

    /// Whether a `--sandbox-read` path may be given: never the root of the file system.
    pub fn readable_path(path: &Path) -> Result<PathBuf, String> {
        let real = resolve(path);
        if real.parent().is_none() {
            return Err(format!(
                "`{}` is the root of the file system: a rule for it would make the whole disk readable",
                path.display()
            ));
        }
        Ok(real)
    }
}

/// Copying a course folder or a submission, measuring and removing folders, with the
/// standard library (nothing here runs as another user).
pub mod files {
    use std::io;
    use std::path::Path;

    /// Folders a compiler or interpreter writes its caches to beside the sources.
    const CACHES: [&str; 2] = [".cm", "__pycache__"];
    /// Deeper than this, a folder is not walked.
    const DEEPEST: usize = 64;

    pub use crate::stage::StageError;

    fn special(kind: std::fs::FileType) -> Option<&'static str> {
        (!kind.is_file() && !kind.is_dir() && !kind.is_symlink()).then_some("special file")
    }

    /// The regular files under `from`: how many, and their sizes.
    pub fn contents(from: &Path) -> Result<(usize, u64), StageError> {
        fn walk(dir: &Path, depth: usize) -> Result<(usize, u64), StageError> {
            let (mut files, mut size) = (0, 0u64);
            for e in std::fs::read_dir(dir)? {
                let e = e?;
                let kind = e.file_type()?;
                if let Some(kind) = special(kind) {
                    return Err(StageError::Special {
                        path: e.path(),
                        kind,
                    });
                }
                if kind.is_dir() {
                    if CACHES.iter().any(|c| e.file_name() == *c) || depth >= DEEPEST {
                        continue;
                    }
                    let (f, s) = walk(&e.path(), depth + 1)?;
                    files += f;
                    size = size.saturating_add(s);
                } else if kind.is_file() {
                    files += 1;
                    size = size.saturating_add(e.metadata()?.len());
                }
            }
            Ok((files, size))
        }
        walk(from, 0)
    }

    /// [`contents`]' sizes alone.
    pub fn apparent_size(from: &Path) -> Result<u64, StageError> {
        contents(from).map(|(_, size)| size)
    }

    /// Copies the folder `from` into `to` (made if missing), replacing what is there, links
    /// as links where the system allows it.
    pub fn stage(from: &Path, to: &Path, limit: u64) -> Result<(), StageError> {
        stage_without(from, to, limit, &[])
    }

    /// [`stage`], leaving out the entries at the (canonical) paths of `skip`.
    pub fn stage_without(
        from: &Path,
        to: &Path,
        limit: u64,
        skip: &[std::path::PathBuf],
    ) -> Result<(), StageError> {
        let size = apparent_size(from)?;
        if limit > 0 && size > limit {
            return Err(StageError::TooBig { size, limit });
        }
        let from = &std::fs::canonicalize(from)?;
        fn copy(
            from: &Path,
            to: &Path,
            depth: usize,
            skip: &[std::path::PathBuf],
        ) -> Result<(), StageError> {
            std::fs::create_dir_all(to)?;
            for e in std::fs::read_dir(from)? {
                let e = e?;
                if skip.contains(&e.path()) {
                    continue;
                }
                let kind = e.file_type()?;
                let dest = to.join(e.file_name());
                if let Ok(m) = std::fs::symlink_metadata(&dest) {
                    if m.is_dir() && !kind.is_dir() {
                        std::fs::remove_dir_all(&dest)?;
                    } else if !m.is_dir() {
                        std::fs::remove_file(&dest)?;
                    }
                }
                if kind.is_dir() {
                    if CACHES.iter().any(|c| e.file_name() == *c) || depth >= DEEPEST {
                        continue;
                    }
                    copy(&e.path(), &dest, depth + 1, skip)?;
                } else if kind.is_symlink() {
                    let target = std::fs::read_link(e.path())?;
                    #[cfg(unix)]
                    std::os::unix::fs::symlink(&target, &dest)?;
                    #[cfg(not(unix))]
                    let _ = target;
                } else {
                    std::fs::copy(e.path(), &dest)?;
                }
            }
            Ok(())
        }
        copy(from, to, 0, skip)
    }

    /// Removes `path` and everything under it.
    pub fn remove(path: &Path) -> io::Result<()> {
        match std::fs::remove_dir_all(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            r => r,
        }
    }

    /// The bytes the files under `path` take (their lengths).
    pub fn disk_used(path: &Path) -> u64 {
        apparent_size(path).unwrap_or(0)
    }
}

/// gametrace's watchdog and orphans are Linux's.
pub mod contain {
    /// The argument the Linux build's watchdog is started with: never typed by a user.
    pub const WATCHDOG_ARG: &str = "__watchdog";

    /// Nothing to watch here.
    pub fn watchdog(_gametrace: u32) -> i32 {
        2
    }

    /// Orphans are not reaped here.
    pub fn claim_orphans() {}
}
