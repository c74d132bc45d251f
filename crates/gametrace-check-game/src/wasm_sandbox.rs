//! The sandbox's part that `check-game` uses, in the browser (`wasm32`): there the student's
//! game is a Python driver running in Pyodide in the same Web Worker as this module, and a
//! conversation is a call into the page's JavaScript ([`host`]), which hands the requests to
//! the driver and returns what it printed. The browser is the sandbox: the program has no
//! files but its own, no network, no processes; the worker's time limit is the page's.
//! The types are the native sandbox's, so `check-game` reads the same on both.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// A limit of the sandbox (never hit in the browser; kept for the verdicts' names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Memory(u64),
    Cpu(Duration),
    Processes(u32),
    FileSize(u64),
    Disk(u64),
    Network,
}

/// What running a command came to, as the native sandbox says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    Exited {
        stdout: Vec<u8>,
        stderr: String,
    },
    Crashed {
        how: String,
        stdout: Vec<u8>,
        stderr: String,
    },
    TimedOut {
        after: Duration,
        stdout: Vec<u8>,
        stderr: String,
    },
    OutputLimit {
        cap: usize,
        stdout: Vec<u8>,
        stderr: String,
    },
    LimitHit {
        limit: Limit,
        stdout: Vec<u8>,
        stderr: String,
    },
    NotFound {
        program: String,
    },
    CannotStart {
        program: String,
        error: String,
    },
}

impl Ran {
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

    /// One line saying what went wrong, for anything but a clean exit (the native words).
    pub fn problem(&self) -> Option<String> {
        match self {
            Ran::Exited { .. } => None,
            Ran::Crashed { how, .. } => Some(format!("the implementation {how}")),
            Ran::TimedOut { after, .. } => Some(format!(
                "the implementation ran past the {} s timeout and was killed (with everything it started)",
                after.as_secs_f64()
            )),
            Ran::OutputLimit { cap, .. } => Some(format!(
                "the implementation printed more than {cap} bytes and was killed (raise it with --max-output)"
            )),
            Ran::LimitHit { .. } => Some("the implementation hit a limit".to_owned()),
            Ran::NotFound { program } => Some(format!(
                "no program `{program}` (not a file, and not found on PATH)"
            )),
            Ran::CannotStart { program, error } => {
                Some(format!("cannot start `{program}`: {error}"))
            }
        }
    }
}

/// The limits a job runs under (the browser keeps only the output cap and the timeout's
/// figure; the page's worker enforces its own time limit).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    pub output_cap: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            output_cap: 8 << 20,
        }
    }
}

/// The sandbox's settings: in the browser, nothing to set.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub off: bool,
}

/// The program's private folder: in the browser, Pyodide's memory-only file system.
#[derive(Debug, Default)]
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// One command to run.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub argv: &'a [String],
    /// The grader's words (the native sandbox's rules come from them; nothing here).
    pub words: &'a [String],
    pub stdin: Option<&'a Path>,
    pub dir: Option<&'a Path>,
    pub limits: Limits,
    pub scratch: &'a Scratch,
    pub policy: &'a Policy,
}

/// Not a system without a sandbox: the browser's is the sandbox (the note says so).
pub fn unsandboxed_system() -> Option<&'static str> {
    None
}

/// What confines the program in the browser.
pub struct Protections;

pub fn protections() -> Protections {
    Protections
}

impl Protections {
    pub fn missing(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub fn summary(&self) -> String {
        "the browser's (Python compiled to WebAssembly, in a Web Worker: no files but its own, no network, no processes)".to_owned()
    }
}

/// The page's side of a conversation (its JavaScript, in the worker): a JSON request in, a
/// JSON answer out (4-byte length, then the text, in memory from `gt_alloc`).
mod host {
    #[link(wasm_import_module = "gametrace")]
    extern "C" {
        fn gt_host(ptr: *const u8, len: usize) -> *mut u8;
    }

    pub fn ask(request: &serde_json::Value) -> serde_json::Value {
        let text = request.to_string();
        // SAFETY: the host reads `len` bytes at `ptr`, and answers with memory it took from
        // the module's `gt_alloc`: a 4-byte little-endian length, then that many bytes.
        unsafe {
            let answer = gt_host(text.as_ptr(), text.len());
            if answer.is_null() {
                return serde_json::Value::Null;
            }
            let mut len = [0u8; 4];
            std::ptr::copy_nonoverlapping(answer, len.as_mut_ptr(), 4);
            let len = u32::from_le_bytes(len) as usize;
            let bytes = Vec::from_raw_parts(answer, len + 4, len + 4);
            serde_json::from_slice(&bytes[4..]).unwrap_or(serde_json::Value::Null)
        }
    }
}

/// A conversation with the driver, a batch of requests at a time.
pub struct Session<'a> {
    job: Job<'a>,
    id: u64,
    pending: String,
    lines: std::collections::VecDeque<String>,
    stray: Vec<String>,
    printed: usize,
    ended: Option<Ran>,
}

impl<'a> Session<'a> {
    pub fn start(job: Job<'a>, env: &[(String, String)]) -> Result<Session<'a>, Ran> {
        let answer = host::ask(&serde_json::json!({
            "op": "start",
            "argv": job.argv,
            "env": env,
        }));
        let Some(id) = answer.get("session").and_then(|s| s.as_u64()) else {
            return Err(Ran::CannotStart {
                program: job.argv.first().cloned().unwrap_or_default(),
                error: answer
                    .get("error")
                    .and_then(|e| e.as_str())
                    .unwrap_or("the page has no Python")
                    .to_owned(),
            });
        };
        let mut s = Session {
            job,
            id,
            pending: String::new(),
            lines: Default::default(),
            stray: Vec::new(),
            printed: 0,
            ended: None,
        };
        s.take(&answer);
        Ok(s)
    }

    /// What the driver printed and whether it ended, from the host's answer.
    fn take(&mut self, answer: &serde_json::Value) {
        if let Some(out) = answer.get("output").and_then(|o| o.as_str()) {
            self.lines.extend(out.lines().map(str::to_owned));
        }
        if let Some(end) = answer.get("ended").filter(|e| !e.is_null()) {
            let stderr = end
                .get("stderr")
                .and_then(|e| e.as_str())
                .unwrap_or("")
                .to_owned();
            let stdout = self.stray.join("\n").into_bytes();
            self.ended = Some(match end.get("exit").and_then(|e| e.as_i64()) {
                Some(0) => Ran::Exited { stdout, stderr },
                Some(code) => Ran::Crashed {
                    how: format!("exited with status {code}"),
                    stdout,
                    stderr,
                },
                None => Ran::Crashed {
                    how: "ended abnormally".to_owned(),
                    stdout,
                    stderr,
                },
            });
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), Ran> {
        if let Some(ran) = &self.ended {
            return Err(ran.clone());
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        Ok(())
    }

    pub fn answer(&mut self, is_answer: impl Fn(&str) -> bool) -> Result<String, Ran> {
        self.answer_within(is_answer, self.job.limits.timeout)
    }

    pub fn answer_within(
        &mut self,
        is_answer: impl Fn(&str) -> bool,
        _wait: Duration,
    ) -> Result<String, Ran> {
        loop {
            while let Some(line) = self.lines.pop_front() {
                if is_answer(&line) {
                    return Ok(line);
                }
                self.printed += line.len() + 1;
                if self.printed > self.job.limits.output_cap {
                    return Err(Ran::OutputLimit {
                        cap: self.job.limits.output_cap,
                        stdout: Vec::new(),
                        stderr: String::new(),
                    });
                }
                if self.stray.len() < 40 {
                    self.stray.push(line.chars().take(300).collect());
                }
            }
            if let Some(ran) = &self.ended {
                return Err(ran.clone());
            }
            if self.pending.is_empty() {
                // Nothing asked and nothing said: the driver waits for a request that will
                // not come, which a process would sit out until its timeout.
                return Err(Ran::TimedOut {
                    after: self.job.limits.timeout,
                    stdout: Vec::new(),
                    stderr: String::new(),
                });
            }
            let input = std::mem::take(&mut self.pending);
            let answer = host::ask(&serde_json::json!({
                "op": "converse",
                "session": self.id,
                "input": input,
            }));
            self.take(&answer);
        }
    }

    pub fn stray(&self) -> Vec<String> {
        self.stray.clone()
    }

    pub fn close(self) -> Ran {
        let answer = host::ask(&serde_json::json!({"op": "close", "session": self.id}));
        let stderr = answer
            .get("stderr")
            .and_then(|e| e.as_str())
            .unwrap_or("")
            .to_owned();
        Ran::Exited {
            stdout: Vec::new(),
            stderr,
        }
    }
}
