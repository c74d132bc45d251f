//! A `{trees}` command graded from one process: started once (in the sandbox, through the
//! one student runner), sent every tree of the suite, one request a line, and answered one
//! line a tree ([`crate::student::Program::serves`]; the CS188 driver's serve mode).
//!
//! The reports are those of a run per case, byte for byte: a tree the server answers is
//! judged from what a run of its own would have printed (the driver runs each tree in a
//! forked copy of itself and catches its stdout, stderr and exit status), and a tree it
//! cannot answer that way (its process killed, hung, flooding, past a limit; an answer that
//! is not one) is run again in a process of its own, as `--per-case` runs it, and the server
//! is started afresh for the trees after it. A tree's misbehaviour never reaches another's
//! verdict.

use super::Suite;
use crate::check::case::{self, Options, Source};
use crate::report::CaseResult;
use crate::sandbox::Session;
use crate::spec::Document;
use crate::student::{Program, Run};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The lines of a server that are answers; every other line is the server's own chatter.
fn is_answer(line: &str) -> bool {
    line.starts_with("@gt ")
}

impl Suite {
    /// [`Suite::check_all`] for a serving command: `jobs` servers, each answering the next
    /// tree not yet taken; results handed to `emit` in the suite's order.
    pub(super) fn check_all_served(
        &self,
        program: &Program,
        source: &Source,
        options: Options,
        jobs: usize,
        mut emit: impl FnMut(usize, CaseResult),
    ) {
        let n = self.len();
        if n == 0 {
            return;
        }
        let hidden: Vec<std::path::PathBuf> = self
            .spec_paths()
            .flat_map(crate::sandbox::grader_paths)
            .collect();
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<(usize, CaseResult)>();
            for _ in 0..jobs.clamp(1, n) {
                let tx = tx.clone();
                let (next, hidden) = (&next, &hidden);
                scope.spawn(move || {
                    self.serve_worker(program, source, options, hidden, next, &tx);
                });
            }
            drop(tx);
            super::emit_in_order(rx, &mut emit);
        });
    }

    /// One server's share: the trees it takes, answered by its server or run alone.
    fn serve_worker(
        &self,
        program: &Program,
        source: &Source,
        options: Options,
        hidden: &[std::path::PathBuf],
        next: &AtomicUsize,
        tx: &mpsc::Sender<(usize, CaseResult)>,
    ) {
        let shown = self
            .spec_paths()
            .next()
            .unwrap_or(std::path::Path::new("the command line"));
        let run = program.for_serving(shown, hidden.to_vec()).ok();
        let mut server = Server {
            run: run.as_ref(),
            session: None,
            imported: std::time::Duration::ZERO,
            usable: run.is_some(),
            ids: std::collections::hash_map::RandomState::new(),
            count: 0,
        };
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= self.len() {
                break;
            }
            let served = self
                .case_of(i)
                .and_then(|(doc, name)| server.check(program, doc, name, options));
            let r = served.unwrap_or_else(|| self.check(i, source, options));
            if tx.send((i, r)).is_err() {
                break;
            }
        }
        if let Some(s) = server.session.take() {
            let _ = s.close();
        };
    }

    /// The spec and name of result `i`, when it is a case of a spec that loads.
    fn case_of(&self, i: usize) -> Option<(&Document, &str)> {
        let super::Item::Case { spec, case } = self.items[i] else {
            return None;
        };
        let doc = self.specs[spec].1.as_ref().ok()?;
        Some((doc, *doc.checkable_names().get(case)?))
    }
}

/// A worker's server: its run (the command's words, sandbox and scratch), the session while
/// one is up.
struct Server<'r> {
    run: Option<&'r Run>,
    session: Option<Session<'r>>,
    /// The CPU time the session's server spent before its greeting (the runtime's start and
    /// the student's module imported): a process of its own spends it on every tree, so each
    /// tree served is allowed only what is left of `--timeout` (past it, the tree is run
    /// alone, and its verdict is that run's).
    imported: std::time::Duration,
    /// False once the server cannot serve (it does not start, greet, or import the student's
    /// module): every later tree is run alone.
    usable: bool,
    ids: std::collections::hash_map::RandomState,
    count: u64,
}

impl<'r> Server<'r> {
    /// Case `name` of `doc` answered by the server and judged; `None` when only a run of its
    /// own can say (the caller runs it so).
    fn check(
        &mut self,
        program: &Program,
        doc: &Document,
        name: &str,
        options: Options,
    ) -> Option<CaseResult> {
        if !self.usable {
            return None;
        }
        let tree = program.served_tree(doc, name).ok()?;
        let run = self.run?;
        if self.session.is_none() {
            match start(run) {
                Some(s) => {
                    self.imported = s.cpu_used();
                    self.session = Some(s);
                }
                None => {
                    self.usable = false;
                    return None;
                }
            }
        }
        let session = self.session.as_mut()?;
        self.count += 1;
        let mut h = self.ids.build_hasher();
        h.write_u64(self.count);
        let id = format!("{:016x}-{}", h.finish(), self.count);
        let request = serde_json::json!({
            "id": id,
            "cap": run.limits.output_cap,
            "tree": tree,
        });
        let allowed = run.limits.timeout.saturating_sub(self.imported);
        let answered = session
            .send(&request.to_string())
            .and_then(|()| session.answer_within(is_answer, allowed));
        let ran = match answered.ok().and_then(|line| answer(&line, &id)) {
            Some(Answer::Ran {
                code,
                stdout,
                stderr,
            }) => crate::sandbox::served(code, stdout, &stderr, &run.limits),
            Some(Answer::PerCase) => None,
            None => {
                // Ended, hung, flooded, or answered something else: this tree alone, and a
                // new server for the next.
                self.session = None;
                None
            }
        }?;
        case::judge_ran(doc, name, program, &ran, options).ok()
    }
}

/// The server started, and its greeting read: `None` when it cannot serve.
fn start(run: &Run) -> Option<Session<'_>> {
    let mut s = Session::start(run.job(), &[]).ok()?;
    let greeting = s.answer_within(is_answer, run.limits.timeout).ok()?;
    let v: serde_json::Value = serde_json::from_str(&greeting["@gt ".len()..]).ok()?;
    let speaks = v.get("protocol") == Some(&serde_json::json!(1)) && v.get("per_case").is_none();
    speaks.then_some(s)
}

enum Answer {
    Ran {
        code: i32,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// The server ran the tree and says only a run of its own reproduces how it ended.
    PerCase,
}

/// An answer line for the request `id`: `None` when it is not one.
fn answer(line: &str, id: &str) -> Option<Answer> {
    let v: serde_json::Value = serde_json::from_str(line.get("@gt ".len()..)?).ok()?;
    if v.get("id")?.as_str()? != id {
        return None;
    }
    if v.get("per_case").is_some() {
        return Some(Answer::PerCase);
    }
    let code = i32::try_from(v.get("exit")?.as_i64()?).ok()?;
    Some(Answer::Ran {
        code,
        stdout: latin1(v.get("stdout")?.as_str()?)?,
        stderr: latin1(v.get("stderr")?.as_str()?)?,
    })
}

/// Bytes sent as Latin-1 text (each character one byte).
fn latin1(text: &str) -> Option<Vec<u8>> {
    text.chars().map(|c| u8::try_from(c).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_its_requests_and_well_formed() {
        let line = r#"@gt {"id": "a-1", "exit": 1, "stdout": "x\u00ff\n", "stderr": "boom"}"#;
        match answer(line, "a-1") {
            Some(Answer::Ran {
                code,
                stdout,
                stderr,
            }) => {
                assert_eq!(code, 1);
                assert_eq!(stdout, b"x\xff\n");
                assert_eq!(stderr, b"boom");
            }
            _ => panic!("not read"),
        }
        // Another request's answer, a character past a byte, a missing field: not answers.
        assert!(answer(line, "a-2").is_none());
        let wide = r#"@gt {"id": "a-1", "exit": 0, "stdout": "\u0100", "stderr": ""}"#;
        assert!(answer(wide, "a-1").is_none());
        assert!(answer(r#"@gt {"id": "a-1", "exit": 0}"#, "a-1").is_none());
        assert!(matches!(
            answer(r#"@gt {"id": "a-1", "per_case": "killed"}"#, "a-1"),
            Some(Answer::PerCase)
        ));
    }
}
