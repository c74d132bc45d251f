//! Checking one case end to end: get what the implementation printed (a file, stdin, or a
//! command run under limits), judge it against the reference, and say so as a
//! [`CaseResult`].

use super::subject::no_case;
use crate::report::{CaseResult, Status};
use crate::sandbox::{self as command, Limits, Ran};
use crate::spec::{Diagnostic, Document};
use std::path::{Path, PathBuf};

/// Where the implementation's output comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file, or `-` for stdin.
    File(PathBuf),
    Command(Box<CommandLine>),
}

/// `--cmd` and its settings.
#[derive(Clone, Debug)]
pub struct CommandLine {
    pub line: String,
    /// Run through `sh -c` (placeholders are then shell-quoted).
    pub shell: bool,
    pub stdin: Option<PathBuf>,
    pub limits: Limits,
    /// The submission graded (`gametrace grade`): the command runs inside this directory,
    /// which `{submission}` names, and `{spec}` is then an absolute path.
    pub submission: Option<PathBuf>,
    /// The sandbox's settings (`--no-sandbox`, `--sandbox-read`, what stays hidden).
    pub sandbox: crate::sandbox::Policy,
}

/// The placeholders a command line may use.
pub const PLACEHOLDERS: [&str; 6] = [
    "{spec}",
    "{case}",
    "{depth}",
    "{tree_json}",
    "{position_json}",
    "{submission}",
];

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
    let blank = blank(doc, name);
    let result = |status: Status| {
        let mut r = blank.clone();
        r.status = status;
        r.points = if status.passed() { r.max_points } else { 0.0 };
        r
    };
    let (output, actual_name) = match source {
        Source::File(path) => match read_actual(path, options.max_input)? {
            Ok(text) => (text, path.display().to_string()),
            Err(size) => {
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
                return Ok(result(Status::InputTooLarge)
                    .message(format!(
                        "{what} is larger than the {} gametrace reads; it was not judged",
                        crate::input::human_bytes(options.max_input)
                    ))
                    .details(format!(
                        "the output is {size}; a cut output is never judged, because the part not read could be wrong\nraise the limit with --max-input, or keep only the trace in the output\n"
                    )));
            }
        },
        Source::Command(cmd) => {
            let ran = run_command(doc, name, cmd)?;
            let shown = format!("the output of `{}`", cmd.line);
            if let Some(problem) = ran.problem() {
                let status = match ran {
                    Ran::TimedOut { .. } => Status::Timeout,
                    Ran::OutputLimit { .. } => Status::OutputLimit,
                    Ran::Crashed { .. } => Status::Crashed,
                    Ran::LimitHit { limit, .. } => crate::report::limit_status(limit),
                    _ => Status::NotFound,
                };
                // An empty or incomplete submission: the file the command names is not
                // there, which is what to say, not the traceback it caused.
                let missing = if status == Status::Crashed {
                    missing_files(&cmd.line, cmd.submission.as_deref(), ran.stderr())
                } else {
                    Vec::new()
                };
                if !missing.is_empty() {
                    let whose = if cmd.submission.is_some() {
                        "the submission"
                    } else {
                        "the folder it runs in"
                    };
                    let message = match missing.as_slice() {
                        [one] => format!("{whose} has no {one}, which the command names"),
                        many => format!(
                            "{whose} has none of {}, which the command names",
                            many.join(", ")
                        ),
                    };
                    return Ok(result(Status::NotFound).message(message).details(format!(
                        "command: {}\nhint: an empty or incomplete submission; its program was not judged\n",
                        cmd.line
                    )));
                }
                let mut details = format!("command: {}\n", cmd.line);
                let err = ran.stderr().trim_end();
                if !err.is_empty() {
                    details.push_str("the end of its stderr:\n");
                    for line in err.lines() {
                        // Escaped: what a program printed never reaches a terminal raw.
                        details.push_str(&format!("  | {}\n", crate::diff::visible(line)));
                    }
                }
                // What it printed before it stopped still says how far it got.
                let printed = ran.stdout();
                if !printed.is_empty() && status != Status::NotFound {
                    let text = String::from_utf8_lossy(printed);
                    let shown = format!("what `{}` printed before it stopped", cmd.line);
                    // Diagnosed as far as it goes: a search whose mistake makes the program
                    // crash (a root left with no move) is named by what it printed first.
                    let brief = Options {
                        cut_short: true,
                        ..options
                    };
                    let so_far = judge(doc, name, &text, &shown, brief, result(Status::Fail))?;
                    let mut r = result(status).message(problem);
                    r.diagnosis = so_far.diagnosis.clone();
                    r.judged = so_far.judged.clone();
                    details.push_str(&format!(
                        "its output so far ({} bytes), checked: {} {}\n{}",
                        printed.len(),
                        so_far.status.word(),
                        so_far.message,
                        so_far.details
                    ));
                    return Ok(r.details(details));
                }
                return Ok(result(status).message(problem).details(details));
            }
            (String::from_utf8_lossy(ran.stdout()).into_owned(), shown)
        }
    };
    judge(
        doc,
        name,
        &output,
        &actual_name,
        options,
        result(Status::Fail),
    )
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

/// Runs the command for a case, placeholders filled in.
fn run_command(doc: &Document, name: &str, cmd: &CommandLine) -> Result<Ran, Diagnostic> {
    let spec_path = doc.path();
    let bad = |message: String, found: String, hint: &str| {
        Diagnostic::new(spec_path, message)
            .expected(format!(
                "a command line; placeholders {}",
                PLACEHOLDERS.join(" ")
            ))
            .found(found)
            .hint(hint.to_owned())
    };
    // The program's private directory: the files it is handed are written there, and
    // removed with it once the command is done.
    let scratch = command::Scratch::new().map_err(|e| {
        bad(
            format!("cannot make a temporary directory for the command: {e}"),
            e.to_string(),
            "check that the temporary directory ($TMPDIR) is writable",
        )
    })?;
    let sandboxed = !cmd.sandbox.off;
    // Sandboxed, the program gets a copy of the spec holding its own case only: the spec
    // itself, with every hidden case, is out of its reach. Run inside a submission, the spec
    // must be found from there.
    let shown_spec = if sandboxed && cmd.line.contains("{spec}") {
        let copy = one_case_spec(spec_path, name).map_err(|e| {
            bad(
                format!("cannot write the spec's case for {{spec}}: {e}"),
                e.to_string(),
                "check that the spec is readable and the temporary directory ($TMPDIR) writable",
            )
        })?;
        let file = spec_path
            .file_name()
            .unwrap_or(std::ffi::OsStr::new("spec.yaml"));
        scratch.write(&file.to_string_lossy(), &copy).map_err(|e| {
            bad(
                format!("cannot write the spec's case for {{spec}}: {e}"),
                e.to_string(),
                "check that the temporary directory ($TMPDIR) is writable",
            )
        })?
    } else {
        match &cmd.submission {
            Some(_) => std::path::absolute(spec_path).unwrap_or_else(|_| spec_path.to_owned()),
            None => spec_path.to_owned(),
        }
    };
    let mut values: Vec<(&str, String)> = vec![
        ("spec", shown_spec.display().to_string()),
        ("case", name.to_owned()),
    ];
    match &cmd.submission {
        Some(dir) => values.push(("submission", dir.display().to_string())),
        None if cmd.line.contains("{submission}") => {
            return Err(bad(
                "{submission} names the submission `gametrace grade` runs the command in"
                    .to_owned(),
                cmd.line.clone(),
                "grade a folder of submissions with `gametrace grade SUBMISSIONS --against CMD`",
            ))
        }
        None => {}
    }
    match doc {
        Document::Tree(spec) => {
            let case = spec.case(name).ok_or_else(|| no_case(spec_path, name))?;
            values.push(("depth", case.depth.to_string()));
            if cmd.line.contains("{tree_json}") {
                let file = scratch
                    .write("tree.json", crate::export::tree_json(spec, case).as_bytes())
                    .map_err(|e| {
                        bad(
                            format!("cannot write the tree for {{tree_json}}: {e}"),
                            e.to_string(),
                            "check that the temporary directory ($TMPDIR) is writable",
                        )
                    })?;
                values.push(("tree_json", file.display().to_string()));
            }
        }
        Document::Game(g) => {
            let depth = crate::with_game_spec!(g, s => s.case(name).map(|c| c.case.depth));
            let depth = depth.ok_or_else(|| no_case(spec_path, name))?;
            values.push((
                "depth",
                if depth == crate::search::csc148::TO_THE_END {
                    "none".to_owned()
                } else {
                    depth.to_string()
                },
            ));
            if cmd.line.contains("{position_json}") {
                let json = crate::with_game_spec!(g, s => s.case(name).and_then(position_json));
                let Some(json) = json else {
                    return Err(bad(
                        "{position_json} is for the games a course driver rebuilds (subtract_square, tippy)".to_owned(),
                        cmd.line.clone(),
                        "this game's programs read the position from the spec ({spec}, {case}, {depth})",
                    ));
                };
                values.push(("position_json", json.to_string()));
            }
            if cmd.line.contains("{tree_json}") {
                return Err(bad(
                    "{tree_json} is a tree spec's placeholder, and this is a game spec".to_owned(),
                    cmd.line.clone(),
                    "game specs have {spec}, {case} and {depth}; the program reads the position from the spec",
                ));
            }
        }
        Document::Task(_) => {
            for p in ["{depth}", "{tree_json}"] {
                if cmd.line.contains(p) {
                    return Err(bad(
                        format!("{p} is a tree spec's placeholder, and this is a task spec"),
                        cmd.line.clone(),
                        "task specs have {spec} and {case}",
                    ));
                }
            }
        }
    }
    let argv: Vec<String> = if cmd.shell {
        let quoted: Vec<(&str, String)> = values
            .iter()
            .map(|(k, v)| {
                (
                    *k,
                    shlex::try_quote(v).map_or_else(|_| v.clone(), |q| q.into_owned()),
                )
            })
            .collect();
        let pairs: Vec<(&str, &str)> = quoted.iter().map(|(k, v)| (*k, v.as_str())).collect();
        vec![
            "sh".to_owned(),
            "-c".to_owned(),
            command::substitute(&cmd.line, &pairs),
        ]
    } else {
        let words = command::split(&cmd.line).ok_or_else(|| {
            bad(
                "cannot split the command line into arguments".to_owned(),
                cmd.line.clone(),
                "close every quote, or pass --shell to hand the line to sh",
            )
        })?;
        let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        words
            .iter()
            .map(|w| command::substitute(w, &pairs))
            .collect()
    };
    // The drivers and examples it names that are not there, from gametrace's own copies.
    let argv =
        crate::adapters::provide(argv, cmd.submission.as_deref(), &scratch).map_err(|e| {
            bad(
                format!("cannot write gametrace's drivers for the command: {e}"),
                e.to_string(),
                "check that the temporary directory ($TMPDIR) is writable",
            )
        })?;
    let mut policy = cmd.sandbox.clone();
    policy.hidden.extend(command::grader_paths(spec_path));
    // A submission's classmates are hidden; but where it runs in a staged copy of the course
    // folder (its own to write), the copy's other entries are the course's files, not
    // classmates (the real classmates were hidden when it was staged).
    if let Some(dir) = &cmd.submission {
        if !policy.writable.iter().any(|w| dir.starts_with(w)) {
            policy.hidden.extend(crate::sandbox::classmates(dir));
        }
    }
    let ran = command::run(&command::Job {
        argv: &argv,
        stdin: cmd.stdin.as_deref(),
        dir: cmd.submission.as_deref(),
        limits: cmd.limits,
        scratch: &scratch,
        policy: &policy,
    });
    Ok(ran)
}

/// The spec with `case` its only case (and no scenarios), for a program to read: what it
/// needs of the spec, and none of the other, perhaps hidden, cases.
fn one_case_spec(spec: &Path, case: &str) -> std::io::Result<Vec<u8>> {
    use yaml_rust2::{Yaml, YamlEmitter, YamlLoader};
    let text = match std::fs::read_to_string(spec) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => crate::builtin::file(spec)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .ok_or(e)?,
        r => r?,
    };
    let mut docs = YamlLoader::load_from_str(&text).map_err(std::io::Error::other)?;
    let Some(mut doc) = docs.pop() else {
        return Ok(Vec::new());
    };
    if let Yaml::Hash(top) = &mut doc {
        for key in ["cases", "scenarios"] {
            if let Some(Yaml::Hash(cases)) = top.get_mut(&Yaml::String(key.to_owned())) {
                cases.retain(|k, _| k.as_str() == Some(case));
            }
        }
    }
    let mut out = format!(
        "# {} with its case `{case}` only (gametrace's sandbox hides the rest)\n",
        spec.display()
    );
    YamlEmitter::new(&mut out)
        .dump(&doc)
        .map_err(|e| std::io::Error::other(format!("{e:?}")))?;
    out.push('\n');
    Ok(out.into_bytes())
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
