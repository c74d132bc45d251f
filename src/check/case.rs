//! Checking one case end to end: get what the implementation printed (a file, stdin, or a
//! command run under limits), judge it against the reference, and say so as a
//! [`CaseResult`].

use crate::report::{CaseResult, Status};
use crate::sandbox::Ran;
use crate::spec::{Diagnostic, Document};
use std::path::{Path, PathBuf};

/// Where the implementation's output comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file, or `-` for stdin.
    File(PathBuf),
    Command(Box<Program>),
}

pub use crate::spec::public::PLACEHOLDERS;
pub use crate::student::Program;

pub use gametrace_core::check::judge::{
    blank, case_json, judge, position_json, Options, MAX_ACTUAL,
};
pub use gametrace_core::check::trace::MAX_FIGURE_NODES;

/// Checks case `name` of `doc` against what `source` gives. `Err` is unusable input (a file
/// that cannot be read, a command line that cannot be parsed): exit 2, not a verdict.
pub fn check_case(
    doc: &Document,
    name: &str,
    source: &Source,
    options: Options,
) -> Result<CaseResult, Diagnostic> {
    let result = result_of(blank(doc, name));
    match source {
        Source::File(path) => match read_actual(path, options.max_input)? {
            Ok(text) => {
                let shown = path.display().to_string();
                let mut r = judge(doc, name, &text, &shown, options, result(Status::Fail))?;
                r.own = Some(crate::report::Own {
                    printed: text.len(),
                    ..Default::default()
                });
                Ok(r)
            }
            Err(size) => Ok(too_large(path, size, options, result)),
        },
        Source::Command(cmd) => {
            let ran = cmd.for_case(doc, name)?.run();
            judge_ran(doc, name, cmd, &ran, options)
        }
    }
}

/// The verdict on case `name` of `doc` from what a run of `cmd` came to: a run of its own,
/// or a tree a serving command answered ([`crate::sandbox::served`]).
pub fn judge_ran(
    doc: &Document,
    name: &str,
    cmd: &Program,
    ran: &Ran,
    options: Options,
) -> Result<CaseResult, Diagnostic> {
    let result = result_of(blank(doc, name));
    judge_run(doc, name, cmd, ran, options, result)
}

/// A case's result with `status`, worth its points only when it passed.
fn result_of(blank: CaseResult) -> impl Fn(Status) -> CaseResult {
    move |status: Status| {
        let mut r = blank.clone();
        r.status = status;
        r.points = if status.passed() { r.max_points } else { 0.0 };
        r
    }
}

/// INPUT-TOO-LARGE: an output past `--max-input` is never judged.
fn too_large(
    path: &Path,
    size: u64,
    options: Options,
    result: impl Fn(Status) -> CaseResult,
) -> CaseResult {
    let what = if path.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    // A stream is read one byte past the cap; a file's size is known.
    let size = if size > options.max_input + 1 {
        format!("{size} bytes")
    } else {
        format!("more than {} bytes", options.max_input)
    };
    result(Status::InputTooLarge)
        .message(format!(
            "{what} is larger than the {} gametrace reads; it was not judged",
            crate::input::human_bytes(options.max_input)
        ))
        .details(format!(
            "the output is {size}; a cut output is never judged, because the part not read could be wrong\nraise the limit with --max-input, or keep only the trace in the output\n"
        ))
}

/// The verdict on what a run of the student's program came to: a submission missing the
/// file its command names is NOT-FOUND (what to say, not the traceback it caused); anything
/// else is the core's one judgement of a run's end ([`gametrace_core::check::judge::judge_run`]).
fn judge_run(
    doc: &Document,
    name: &str,
    cmd: &Program,
    ran: &Ran,
    options: Options,
    result: impl Fn(Status) -> CaseResult,
) -> Result<CaseResult, Diagnostic> {
    let problem = crate::student::status_of(ran).zip(ran.problem());
    if matches!(problem, Some((Status::Crashed, _))) {
        let missing = missing_files(&cmd.line, cmd.submission.as_deref(), ran.stderr());
        if !missing.is_empty() {
            return Ok(not_found(cmd, &missing, result(Status::NotFound)));
        }
    }
    let stdout = String::from_utf8_lossy(ran.stdout());
    let ended = gametrace_core::check::judge::Ended {
        command: &cmd.line,
        stdout: &stdout,
        stderr: ran.stderr(),
        problem,
    };
    gametrace_core::check::judge::judge_run(doc, name, &ended, options, result(Status::Fail))
}

/// NOT-FOUND for a submission without the files its command names.
fn not_found(cmd: &Program, missing: &[String], blank: CaseResult) -> CaseResult {
    let whose = if cmd.submission.is_some() {
        "the submission"
    } else {
        "the folder it runs in"
    };
    let message = match missing {
        [one] => format!("{whose} has no {one}, which the command names"),
        many => format!(
            "{whose} has none of {}, which the command names",
            many.join(", ")
        ),
    };
    let details = format!(
        "command: {}\nhint: an empty or incomplete submission; its program was not judged\n",
        cmd.line
    );
    let mut r = blank.message(message.clone()).details(details.clone());
    r.own = Some(crate::report::Own {
        message: Some(message),
        details,
        printed: 0,
    });
    r
}

/// Reads the actual output (a file, a pipe, or - for stdin) as text (bytes that are not UTF-8
/// become U+FFFD rather than an error: transcripts can hold anything). `Ok(Err(size))` when it
/// is larger than `cap`: that is a verdict (INPUT-TOO-LARGE), not unusable input, and nothing
/// of it is judged.
pub fn read_actual(path: &Path, cap: u64) -> Result<Result<String, u64>, Diagnostic> {
    use crate::input::{read_output, InputError};
    match read_output(path, cap) {
        Ok(bytes) => Ok(Ok(String::from_utf8_lossy(&bytes).into_owned())),
        Err(InputError::TooLarge { size, .. }) => Ok(Err(size)),
        Err(e) => Err(Diagnostic::new(path, "cannot read the actual output")
            .expected("a file with what the implementation printed, or - for standard input")
            .found(e.to_string())
            .hint("or let gametrace run the implementation with --cmd 'COMMAND ...'")),
    }
}

/// The files a command line names, relative to the folder it runs in (`dir`, else the
/// current one), that are not there and that the program's `stderr` says are missing, by name:
/// a word past the program's that is a path to a file (it has a folder in it or an
/// extension), not an option, a placeholder, an absolute path or a script (`-c CODE`).
fn missing_files(line: &str, dir: Option<&Path>, stderr: &str) -> Vec<String> {
    let base = dir
        .map(Path::to_owned)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    // The program must have said the file is missing, not that it may not be written.
    let said_missing = [
        "No such file",
        "FileNotFoundError",
        "not found",
        "cannot find",
        "does not exist",
    ]
    .iter()
    .any(|p| stderr.contains(p));
    if !said_missing {
        return Vec::new();
    }
    let words = shlex::split(line).unwrap_or_default();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate().skip(1) {
        let code = matches!(words[i - 1].as_str(), "-c" | "-e" | "-m");
        if code
            || w.starts_with('-')
            || w.starts_with('/')
            || w.contains(['{', '=', ':'])
            || w.contains(char::is_whitespace)
        {
            continue;
        }
        let path = Path::new(w.as_str());
        let ext = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            (1..=5).contains(&e.len()) && e.chars().all(|c| c.is_ascii_alphabetic())
        });
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or(w);
        // A built-in driver is provided where it is missing: never the submission's to bring.
        if (ext || w.contains('/'))
            && !base.join(w).exists()
            && !crate::adapters::built_in(w)
            && stderr.contains(name)
        {
            out.push(w.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::missing_files;

    #[test]
    fn a_missing_file_is_one_the_command_names_and_the_program_says_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("there.py"), "").unwrap();
        let d = Some(dir.path());
        let line = "python3 there.py strategy strategy.py StrategyMinimax {position_json}";
        let gone = "FileNotFoundError: [Errno 2] No such file or directory: 'strategy.py'";
        assert_eq!(missing_files(line, d, gone), ["strategy.py"]);
        // Not said missing (a write refused), or said of another file: not this.
        let refused = "PermissionError: [Errno 13] Permission denied: 'strategy.py'";
        assert!(missing_files(line, d, refused).is_empty());
        assert!(missing_files(line, d, "No such file or directory: 'other.py'").is_empty());
        // A script's text, an option, an absolute path: never taken for a file.
        let script = "sh -c 'cat notes.txt'";
        assert!(missing_files(script, d, "cat: notes.txt: No such file or directory").is_empty());
        let abs = "cat /no/such/file.txt";
        assert!(missing_files(abs, d, "cat: /no/such/file.txt: No such file").is_empty());
        // A built-in driver, named in a traceback from its provided copy, is not the
        // submission's to bring: only the student's file is missing.
        let driver =
            "python3 adapters/python/gametrace_csc148.py strategy strategy.py X {position_json}";
        let traceback = "File \"/tmp/s/adapters/python/gametrace_csc148.py\", line 9\nFileNotFoundError: No such file or directory: 'strategy.py'";
        assert_eq!(missing_files(driver, d, traceback), ["strategy.py"]);
    }
}
