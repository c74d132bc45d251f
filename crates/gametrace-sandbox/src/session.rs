//! A conversation with a confined program: gametrace writes request lines to its stdin and
//! reads answer lines from its stdout, one at a time (`check-game`'s probe protocol). The
//! program is started exactly as [`super::run`] starts one (same confinement, same limits);
//! each answer has the job's timeout, everything it prints besides its answers the job's
//! output cap (answers are asked for: a long check asks for millions), and when
//! the session ends (or is dropped) everything the program started is killed.

use super::run::{start, Started};
use super::{Job, Ran};
use std::io::{Read, Write};
use std::process::{ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How much of stderr and of the program's stray output a report shows.
const TAIL: usize = 2048;
/// The stray lines (stdout lines that are not answers) kept for a report: the first few and
/// the last ones (where a compiler's error or a runtime's last words are).
const STRAY_HEAD: usize = 10;
const STRAY_TAIL: usize = 30;
/// Lines (or chunks of stderr) read ahead of what gametrace has taken.
const BACKLOG: usize = 1024;

enum Event {
    Line(Vec<u8>),
    /// Bytes of an overlong line that were dropped (they still count against the cap).
    Dropped(usize),
    OutClosed,
    Err(Vec<u8>),
    ErrClosed,
}

/// A running program to talk to.
pub struct Session<'a> {
    job: Job<'a>,
    proc: Started,
    stdin: Option<ChildStdin>,
    events: mpsc::Receiver<Event>,
    stderr: Vec<u8>,
    /// Lines on stdout that were not answers: compiler chatter, the student's debug prints.
    stray: Vec<String>,
    stray_tail: std::collections::VecDeque<String>,
    stray_dropped: usize,
    printed: usize,
    /// How long the last answer was waited for (what a timeout reports).
    waited: Duration,
    out_open: bool,
    err_open: bool,
    /// Its disk quota, and when it was last measured.
    disk: super::run::Disk,
    measured: Instant,
    /// The CPU time its processes have used, by which an answer's time is judged.
    cpu: super::run::Cpu,
}

impl<'a> Session<'a> {
    /// Starts the job's program with a pipe for its stdin and `env` added to its
    /// environment.
    pub fn start(job: Job<'a>, env: &[(String, String)]) -> Result<Session<'a>, Ran> {
        let mut proc = start(&job, Stdio::piped(), env)?;
        let disk = super::run::Disk::new(&job, proc.group, proc.uid());
        let cpu = super::run::Cpu::new(&job, proc.group, proc.uid());
        let stdin = proc.child.stdin.take();
        // Bounded: a program printing faster than gametrace reads waits on its pipe instead
        // of filling gametrace's memory.
        let (tx, rx) = mpsc::sync_channel(BACKLOG);
        if let Some(out) = proc.child.stdout.take() {
            let tx = tx.clone();
            std::thread::spawn(move || read_lines(out, &tx));
        }
        if let Some(mut err) = proc.child.stderr.take() {
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 16 << 10];
                loop {
                    match err.read(&mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::ErrClosed);
                            return;
                        }
                        Ok(n) => {
                            if tx.send(Event::Err(buf[..n].to_vec())).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        Ok(Session {
            job,
            proc,
            stdin,
            events: rx,
            stderr: Vec::new(),
            stray: Vec::new(),
            stray_tail: std::collections::VecDeque::new(),
            stray_dropped: 0,
            printed: 0,
            waited: job.limits.timeout,
            out_open: true,
            err_open: true,
            disk,
            measured: Instant::now(),
            cpu,
        })
    }

    /// Writes one request line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), Ran> {
        let ok = match self.stdin.as_mut() {
            Some(pipe) => pipe
                .write_all(line.as_bytes())
                .and_then(|()| pipe.write_all(b"\n"))
                .and_then(|()| pipe.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            // It stopped reading: it has ended, or is about to.
            Err(self.ended(Instant::now() + Duration::from_millis(500)))
        }
    }

    /// Waits (up to the job's timeout) for the next stdout line that `is_answer` accepts,
    /// keeping the others as stray output. `Err` is what the program came to if it ended,
    /// hung or printed too much first.
    pub fn answer(&mut self, is_answer: impl Fn(&str) -> bool) -> Result<String, Ran> {
        self.answer_within(is_answer, self.job.limits.timeout)
    }

    /// The CPU time the program's processes have used so far, together.
    pub fn cpu_used(&self) -> Duration {
        self.cpu.used()
    }

    /// [`Session::answer`], allowing `wait` of CPU time (a program's first answer may come
    /// after its runtime has started and compiled the student's code), and of the wall clock
    /// the generous backstop [`super::wall_for`] gives it. The CPU time is read at the first
    /// look past [`super::run::DISK_EVERY`], so an answer that comes quickly costs no look.
    pub fn answer_within(
        &mut self,
        is_answer: impl Fn(&str) -> bool,
        wait: Duration,
    ) -> Result<String, Ran> {
        let mut backstop = super::run::Backstop::new(Instant::now(), super::wall_for(wait));
        self.waited = wait;
        let mut cpu_from: Option<Duration> = None;
        loop {
            if !self.out_open {
                return Err(self.ended(backstop.deadline()));
            }
            let now = Instant::now();
            if now >= backstop.deadline() {
                return Err(self.stop(Stop::Timeout(true)));
            }
            if now.duration_since(self.measured) >= super::run::DISK_EVERY {
                self.measured = now;
                if self.disk.over() {
                    return Err(self.stop(Stop::Disk));
                }
                let used = self.cpu.used();
                match cpu_from {
                    None => cpu_from = Some(used),
                    Some(from) if used.saturating_sub(from) > wait => {
                        return Err(self.stop(Stop::Timeout(false)));
                    }
                    Some(_) => {}
                }
                backstop.update(&self.cpu);
            }
            let wait = backstop
                .deadline()
                .saturating_duration_since(now)
                .min(super::run::DISK_EVERY);
            match self.events.recv_timeout(wait) {
                Ok(Event::Line(bytes)) => {
                    let text = String::from_utf8_lossy(&bytes);
                    let text = text.trim_end_matches(['\n', '\r']);
                    // Answers were asked for (a long check asks for millions); the cap is
                    // on everything else, and each line is at most LONGEST_LINE anyway.
                    if is_answer(text) {
                        return Ok(text.to_owned());
                    }
                    self.printed += bytes.len();
                    if self.printed > self.job.limits.output_cap {
                        return Err(self.stop(Stop::Cap));
                    }
                    let text = text.to_owned();
                    self.keep_stray(text);
                }
                Ok(Event::Dropped(n)) => {
                    self.printed += n;
                    if self.printed > self.job.limits.output_cap {
                        return Err(self.stop(Stop::Cap));
                    }
                }
                Ok(Event::Err(bytes)) => self.keep_stderr(&bytes),
                Ok(Event::ErrClosed) => self.err_open = false,
                Ok(Event::OutClosed) => self.out_open = false,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => self.out_open = false,
            }
        }
    }

    /// The stdout lines so far that were not answers: the first few and the last ones, with
    /// a line saying how many were left out between.
    pub fn stray(&self) -> Vec<String> {
        let mut out = self.stray.clone();
        if self.stray_dropped > 0 {
            out.push(format!("... ({} lines left out)", self.stray_dropped));
        }
        out.extend(self.stray_tail.iter().cloned());
        out
    }

    fn keep_stray(&mut self, line: String) {
        let line: String = line.trim_end().chars().take(300).collect();
        if self.stray.len() < STRAY_HEAD {
            self.stray.push(line);
        } else {
            self.stray_tail.push_back(line);
            if self.stray_tail.len() > STRAY_TAIL {
                self.stray_tail.pop_front();
                self.stray_dropped += 1;
            }
        }
    }

    fn keep_stderr(&mut self, bytes: &[u8]) {
        self.stderr.extend_from_slice(bytes);
        if self.stderr.len() > 4 * TAIL {
            self.stderr.drain(..self.stderr.len() - TAIL);
        }
    }

    /// Its stdout closed: waits (until `deadline`, and a little for stderr) for it to exit
    /// and says how it ended.
    fn ended(&mut self, deadline: Instant) -> Ran {
        let grace = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while status.is_none() && Instant::now() < deadline.max(grace) {
            status = self.proc.exited();
            if status.is_none() {
                if let Ok(Event::Err(b)) = self.events.recv_timeout(Duration::from_millis(10)) {
                    self.keep_stderr(&b);
                }
            }
        }
        match status {
            Some(s) => self.stop(Stop::Exited(s)),
            None => self.stop(Stop::Timeout(true)),
        }
    }

    /// Ends the program and says what it came to.
    fn stop(&mut self, why: Stop) -> Ran {
        self.stdin = None;
        let exited = match why {
            Stop::Exited(s) => Some(s),
            _ => None,
        };
        let status = self.proc.kill_and_wait(exited);
        // What stderr still holds (the end of a traceback).
        let until = Instant::now() + Duration::from_millis(200);
        while self.err_open && Instant::now() < until {
            match self.events.recv_timeout(Duration::from_millis(20)) {
                Ok(Event::Err(b)) => self.keep_stderr(&b),
                Ok(Event::ErrClosed) => self.err_open = false,
                Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(_) => break,
            }
        }
        let mut stderr = super::run::tail(&self.stderr);
        if let Some(note) = self.proc.left_note() {
            if !stderr.is_empty() && !stderr.ends_with('\n') {
                stderr.push('\n');
            }
            stderr.push_str(&note);
            stderr.push('\n');
        }
        let stdout = self.stray().join("\n").into_bytes();
        // However it ended, files past the quota are the verdict.
        let why = if self.disk.over() || self.proc.extras.disk_full {
            Stop::Disk
        } else {
            why
        };
        let status = match status {
            Ok(s) => s,
            Err(e) => {
                return Ran::CannotStart {
                    program: self.job.argv.first().cloned().unwrap_or_default(),
                    error: format!("lost track of the process: {e}"),
                }
            }
        };
        if !matches!(why, Stop::Cap | Stop::Disk) && !status.success() {
            if let Some(limit) = self.proc.limit_hit(&self.job, &stderr, status) {
                return Ran::LimitHit {
                    limit,
                    stdout,
                    stderr,
                };
            }
        }
        match why {
            Stop::Timeout(wall) => Ran::TimedOut {
                after: if wall {
                    super::wall_for(self.waited)
                } else {
                    self.waited
                },
                wall,
                stdout,
                stderr,
            },
            Stop::Cap => Ran::OutputLimit {
                cap: self.job.limits.output_cap,
                stdout,
                stderr,
            },
            Stop::Disk => Ran::LimitHit {
                limit: super::run::Limit::Disk(self.job.limits.disk),
                stdout,
                stderr,
            },
            Stop::Exited(s) if s.success() => Ran::Exited { stdout, stderr },
            Stop::Exited(s) => Ran::Crashed {
                how: super::run::describe_status(s),
                stdout,
                stderr,
            },
        }
    }

    /// Closes its stdin (the polite way to say goodbye) and ends it.
    pub fn close(mut self) -> Ran {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while self.out_open && Instant::now() < deadline {
            match self.events.recv_timeout(Duration::from_millis(20)) {
                Ok(Event::OutClosed) => self.out_open = false,
                Ok(Event::Err(b)) => self.keep_stderr(&b),
                _ => {}
            }
        }
        self.ended(deadline)
    }
}

/// The longest line kept whole; the rest of a longer one is counted and dropped, so a program
/// that prints without newlines cannot make gametrace hold it all.
const LONGEST_LINE: usize = 1 << 20;

/// Sends stdout to the session a line at a time.
fn read_lines(out: impl Read, tx: &mpsc::SyncSender<Event>) {
    let mut reader = std::io::BufReader::with_capacity(64 << 10, out);
    let mut line = Vec::new();
    loop {
        let (consumed, done) = match std::io::BufRead::fill_buf(&mut reader) {
            Ok([]) | Err(_) => {
                if !line.is_empty() {
                    let _ = tx.send(Event::Line(std::mem::take(&mut line)));
                }
                let _ = tx.send(Event::OutClosed);
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let take = (i + 1).min(LONGEST_LINE.saturating_sub(line.len()));
                    line.extend_from_slice(&buf[..take]);
                    if take < i + 1 && tx.send(Event::Dropped(i + 1 - take)).is_err() {
                        return;
                    }
                    (i + 1, true)
                }
                None => {
                    let room = LONGEST_LINE.saturating_sub(line.len());
                    if buf.len() > room {
                        line.extend_from_slice(&buf[..room]);
                        if tx.send(Event::Dropped(buf.len() - room)).is_err() {
                            return;
                        }
                    } else {
                        line.extend_from_slice(buf);
                    }
                    (buf.len(), false)
                }
            },
        };
        std::io::BufRead::consume(&mut reader, consumed);
        if done && tx.send(Event::Line(std::mem::take(&mut line))).is_err() {
            return;
        }
    }
}

enum Stop {
    Exited(ExitStatus),
    /// Past the CPU time an answer may take (false), or the wall-clock backstop (true).
    Timeout(bool),
    Cap,
    /// Its files outgrew the disk quota.
    Disk,
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.stdin = None;
        // Kills whatever is left; a second call after `stop` finds nothing to kill.
        if self.proc.exited().is_none() || self.out_open {
            let _ = self.proc.kill_and_wait(None);
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::{Limits, Policy, Scratch};

    fn session<'a>(script: &str, scratch: &'a Scratch, argv: &'a mut Vec<String>) -> Session<'a> {
        *argv = vec!["sh".into(), "-c".into(), script.into()];
        let job = Job {
            argv,
            words: argv,
            stdin: None,
            dir: None,
            limits: Limits {
                timeout: Duration::from_millis(1500),
                ..Limits::default()
            },
            scratch,
            policy: Box::leak(Box::new(Policy::default())),
        };
        Session::start(job, &[("GREETING".into(), "hello".into())]).unwrap()
    }

    #[test]
    fn answers_each_request_and_keeps_stray_lines() {
        let scratch = Scratch::new().unwrap();
        let mut argv = Vec::new();
        let mut s = session(
            r#"echo "noise"; echo "@ $GREETING"; while read l; do echo "debug"; echo "@ $l$l"; done"#,
            &scratch,
            &mut argv,
        );
        let is = |l: &str| l.starts_with("@ ");
        assert_eq!(s.answer(is).unwrap(), "@ hello");
        s.send("ab").unwrap();
        assert_eq!(s.answer(is).unwrap(), "@ abab");
        s.send("c").unwrap();
        assert_eq!(s.answer(is).unwrap(), "@ cc");
        assert_eq!(s.stray(), ["noise", "debug", "debug"]);
        assert_eq!(s.close().word(), "EXITED");
    }

    #[test]
    fn a_crash_a_hang_and_a_flood_each_end_the_session_with_their_verdict() {
        let scratch = Scratch::new().unwrap();
        let mut argv = Vec::new();
        let mut s = session(
            "read l; echo 'Traceback: boom' >&2; exit 3",
            &scratch,
            &mut argv,
        );
        s.send("x").unwrap();
        let r = s.answer(|_| true).unwrap_err();
        assert_eq!(r.word(), "CRASHED");
        assert!(r.stderr().contains("boom"), "{r:?}");

        let mut argv = Vec::new();
        let mut s = session("sleep 30", &scratch, &mut argv);
        assert_eq!(s.answer(|_| true).unwrap_err().word(), "TIMEOUT");

        let mut argv = Vec::new();
        let mut s = session("yes", &scratch, &mut argv);
        s.job.limits.output_cap = 100_000;
        assert_eq!(s.answer(|_| false).unwrap_err().word(), "OUTPUT-LIMIT");
        // No newline at all: counted as it comes, never held whole.
        let mut argv = Vec::new();
        let mut s = session("head -c 50000000 /dev/zero", &scratch, &mut argv);
        s.job.limits.output_cap = 10_000_000;
        assert_eq!(s.answer(|_| false).unwrap_err().word(), "OUTPUT-LIMIT");
    }

    /// A driver that fills its temp directory and then waits is stopped for its files, not
    /// left to its timeout.
    #[test]
    fn a_driver_filling_the_disk_gets_the_disk_verdict() {
        let scratch = Scratch::new().unwrap();
        let argv = vec![
            "sh".to_owned(),
            "-c".to_owned(),
            r#"head -c 3000000 /dev/zero > "$TMPDIR/x"; sleep 30"#.to_owned(),
        ];
        let job = Job {
            argv: &argv,
            words: &argv,
            stdin: None,
            dir: None,
            limits: Limits {
                timeout: Duration::from_secs(20),
                disk: 1_000_000,
                ..Limits::default()
            },
            scratch: &scratch,
            policy: Box::leak(Box::new(Policy::default())),
        };
        let mut s = Session::start(job, &[]).unwrap();
        let r = s.answer(|_| true).unwrap_err();
        assert_eq!(r.word(), "DISK-LIMIT", "{r:?}");
    }
}

#[cfg(all(test, target_os = "linux"))]
mod lifetimes {
    use super::*;
    use crate::{Limits, Policy, Scratch};

    /// A session that ended (here by its timeout) and is dropped after the next one started
    /// must not take the next one with it.
    #[test]
    fn dropping_an_ended_session_leaves_the_next_alone() {
        let scratch = Scratch::new().unwrap();
        let policy = Policy::default();
        let argv: Vec<String> = ["sh", "-c", "echo '@ hi'; while read l; do if [ \"$l\" = hang ]; then sleep 30; fi; echo \"@ $l\"; done"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let job = Job {
            argv: &argv,
            words: &argv,
            stdin: None,
            dir: None,
            limits: Limits {
                timeout: Duration::from_millis(800),
                ..Limits::default()
            },
            scratch: &scratch,
            policy: &policy,
        };
        let is = |l: &str| l.starts_with("@ ");
        let mut a = Session::start(job, &[]).unwrap();
        a.answer(is).unwrap();
        a.send("hang").unwrap();
        assert_eq!(a.answer(is).unwrap_err().word(), "TIMEOUT");
        let mut b = Session::start(job, &[]).unwrap();
        assert_eq!(b.answer(is).unwrap(), "@ hi");
        drop(a);
        b.send("x").unwrap();
        assert_eq!(b.answer(is).unwrap(), "@ x");
    }
}
