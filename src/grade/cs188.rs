//! CS188's `PacmanGameTreeTest`s, played by the course's own project (`--project DIR`).
//!
//! gametrace searches the game-tree tests itself; a Pacman game needs the course's game
//! engine. With the course's folder, such a test is run as the autograder runs it: in the
//! sandbox, in a private copy of the project (its `test_cases` left out but for the one test
//! and its `.solution`) with the student's `multiAgents.py` in place of the project's,
//! `python autograder.py -t test_cases/qN/NAME --no-graphics`; its `*** PASS` or `*** FAIL`
//! is the test's verdict, and an exception that stops the game (the autograder gives the
//! question 0 for it) is a CRASHED test with the exception's words.

use crate::check::case::Program;
use crate::report::{CaseResult, Report, Status};
use std::path::{Path, PathBuf};

/// The file the project's `autograder.py` grades, which the student brings.
pub const STUDENT_FILE: &str = "multiAgents.py";

/// `--project DIR`, checked: a folder with the course's `autograder.py`.
pub fn project(dir: &Path) -> Result<PathBuf, String> {
    if !dir.join("autograder.py").is_file() {
        let what = if dir.is_dir() {
            "has no autograder.py"
        } else if dir.exists() {
            "is a file, not a folder"
        } else {
            "does not exist"
        };
        return Err(format!(
            "--project {} {what}\n  = expected: the course's project folder (autograder.py, pacman.py, test_cases/, ...)\n  = hint: the folder the course hands out for the multiagent project",
            dir.display()
        ));
    }
    Ok(std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned()))
}

/// The student's `multiAgents.py` for `program`: in its submission's folder, or the word of
/// its command line that names one (`python3 driver.py path/multiAgents.py {tree_json}`).
fn student_file(program: &Program) -> Option<PathBuf> {
    if let Some(dir) = &program.submission {
        let p = dir.join(STUDENT_FILE);
        if p.is_file() {
            return Some(p);
        }
    }
    let words = crate::sandbox::split(&program.line).unwrap_or_default();
    let sub = program.submission.clone().unwrap_or_default();
    words
        .iter()
        .filter(|w| w.ends_with(STUDENT_FILE))
        .flat_map(|w| {
            let filled = PathBuf::from(w.replace("{submission}", &sub.display().to_string()));
            // A relative path is the submission's (where the command runs), or the current
            // folder's.
            [sub.join(&filled), filled]
        })
        .find(|p| p.is_file())
}

/// The Python the command runs (its first word, when that is a Python), else `python3`.
fn python(program: &Program) -> String {
    let words = crate::sandbox::split(&program.line).unwrap_or_default();
    words
        .first()
        .filter(|w| {
            Path::new(w)
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("python"))
        })
        .cloned()
        .unwrap_or_else(|| "python3".to_owned())
}

/// A `PacmanGameTreeTest` to play: its name, its question, and how reports show it.
struct Game {
    name: String,
    question: String,
    shown: String,
}

impl Game {
    fn of(test: &Path) -> Game {
        let name = test
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let question = test
            .parent()
            .and_then(Path::file_name)
            .map_or_else(|| "q".to_owned(), |s| s.to_string_lossy().into_owned());
        Game {
            name,
            question,
            shown: test.display().to_string(),
        }
    }

    fn result(&self, status: Status, message: String, details: String) -> CaseResult {
        CaseResult::new(&self.shown, &self.name, status, 1.0)
            .message(message)
            .details(details)
    }
}

/// Test `test` (a `PacmanGameTreeTest`'s `.test` file) played by `project`'s autograder with
/// the student's `multiAgents.py`: staged, run, judged.
pub fn play(program: &Program, project: &Path, test: &Path) -> CaseResult {
    let game = Game::of(test);
    let Some(student) = student_file(program) else {
        return game.result(
            Status::NotFound,
            format!("no {STUDENT_FILE} to play the game with"),
            format!(
                "--project plays this test with the student's {STUDENT_FILE}: the submission's folder holds none, and no word of the command names one\n"
            ),
        );
    };
    let line = format!(
        "{} autograder.py -t test_cases/{}/{} --no-graphics",
        python(program),
        game.question,
        game.name
    );
    let run = match staged(program, project, test, &game, (&student, &line)) {
        Ok(run) => run,
        Err(failed) => return *failed,
    };
    let details = format!(
        "played by the course's project: {line} (in a copy of {}, with {})\n",
        project.display(),
        student.display()
    );
    judged(&game, &run.run(), details)
}

/// A private copy of the project with the test, its `.solution` and the student's file in
/// it, ready to run `line`: or the ERROR that says why not.
fn staged(
    program: &Program,
    project: &Path,
    test: &Path,
    game: &Game,
    (student, line): (&Path, &str),
) -> Result<crate::student::Run, Box<CaseResult>> {
    let cannot =
        |message: String, details: String| Box::new(game.result(Status::Error, message, details));
    let mut course = Program {
        flag: "--project",
        line: line.to_owned(),
        shell: false,
        stdin: None,
        submission: None,
        ..program.clone()
    };
    // It runs in the project's copy, not in the submission: the submission's classmates
    // stay hidden all the same (as `Program::for_case` hides them).
    if let Some(sub) = &program.submission {
        if !course.sandbox.writable.iter().any(|w| sub.starts_with(w)) {
            course
                .sandbox
                .hidden
                .extend(crate::sandbox::classmates(sub));
        }
    }
    let left_out = [project.join("test_cases"), project.join(STUDENT_FILE)];
    let unstaged = "the course's project could not be staged".to_owned();
    let run = course
        .in_course_copy(test, project, &left_out)
        .map_err(|d| cannot(unstaged.clone(), d.to_string()))?;
    let dir = run
        .dir
        .clone()
        .ok_or_else(|| cannot(unstaged, String::new()))?;
    let into = dir.join("test_cases").join(&game.question);
    let name = &game.name;
    std::fs::create_dir_all(&into)
        .and_then(|()| std::fs::copy(test, into.join(format!("{name}.test"))).map(drop))
        .and_then(|()| {
            std::fs::copy(
                crate::spec::cs188::solution_path(test),
                into.join(format!("{name}.solution")),
            )
            .map(drop)
        })
        .and_then(|()| std::fs::copy(student, dir.join(STUDENT_FILE)).map(drop))
        .map_err(|e| {
            cannot(
                format!("cannot stage the test and {STUDENT_FILE} in the project's copy: {e}"),
                String::new(),
            )
        })?;
    Ok(run)
}

/// The game's verdict, from how the course's autograder ended and its `***` lines.
fn judged(game: &Game, ran: &crate::sandbox::Ran, mut details: String) -> CaseResult {
    let stdout = String::from_utf8_lossy(ran.stdout()).into_owned();
    let said: Vec<&str> = stdout.lines().filter(|l| l.starts_with("***")).collect();
    for l in &said {
        details.push_str(&crate::diff::visible(l));
        details.push('\n');
    }
    let verdict = |word: &str| {
        said.iter().any(|l| {
            l.starts_with(&format!("*** {word}: ")) && l.contains(&format!("{}.test", game.name))
        })
    };
    let stderr = ran.stderr();
    let raised = python_exception(stderr);
    if let Some(status) = crate::student::status_of(ran) {
        push_stderr(&mut details, stderr);
        let message = match status {
            Status::Crashed => format!(
                "the game stopped on an exception (the autograder fails the test, and the question gets 0): {}",
                crash_words(&stdout, stderr)
            ),
            _ => format!("the course's autograder.py did not finish: {}", ran.word()),
        };
        return game.result(status, message, details);
    }
    // The course's game catches an agent's exception (`catchExceptions=True`): the traceback
    // on stderr, "Agent crashed" and `*** FAIL`, exit status 0. An exception raised through
    // the student's file is the student's program crashing, as a tree's would be.
    let crashed_in_game = verdict("FAIL")
        && stdout
            .lines()
            .any(|l| l == "Pacman crashed" || l.contains("Agent crashed on"));
    if crashed_in_game {
        push_stderr(&mut details, stderr);
        if let Some(e) = raised.as_ref().filter(|e| e.student_frame.is_some()) {
            return game.result(
                Status::Crashed,
                format!(
                    "the game stopped on an exception in {STUDENT_FILE} (the autograder fails the test, and the question gets 0): {}",
                    e.said()
                ),
                details,
            );
        }
        return game.result(
            Status::Fail,
            format!(
                "the course's autograder fails the game: the game stopped on its move ({})",
                raised.map_or_else(|| "Agent crashed".to_owned(), |e| e.said())
            ),
            details,
        );
    }
    let (status, message) = if verdict("PASS") {
        (Status::Pass, "the course's autograder passes the game")
    } else if verdict("FAIL") {
        (Status::Fail, "the course's autograder fails the game")
    } else {
        (
            Status::Error,
            "the course's autograder.py printed no verdict for the test",
        )
    };
    game.result(status, message.to_owned(), details)
}

/// The module a crashed case's Python could not import
/// (`ModuleNotFoundError: No module named 'numpy'`), from its words.
fn missing_module(case: &CaseResult) -> Option<String> {
    if case.status != Status::Crashed {
        return None;
    }
    [&case.message, &case.details].into_iter().find_map(|text| {
        text.lines().find_map(|l| {
            let rest = l.split("ModuleNotFoundError: No module named '").nth(1)?;
            Some(rest.split('\'').next()?.to_owned())
        })
    })
}

/// The Python a case's command ran (the first word of its `command:` or `played by the
/// course's project:` line), with the file PATH finds for it: `python3
/// (/usr/bin/python3)`.
fn python_of(case: &CaseResult) -> String {
    let word = case
        .details
        .lines()
        .find_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("command: ")
                .or_else(|| l.strip_prefix("played by the course's project: "))
        })
        .and_then(|line| crate::sandbox::split(line)?.into_iter().next())
        .unwrap_or_else(|| "python3".to_owned());
    let found = if word.contains('/') {
        Some(PathBuf::from(&word))
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(&word))
                .find(|p| p.is_file())
        })
    };
    match found {
        Some(p) => format!(
            "{word} ({})",
            std::path::absolute(&p).unwrap_or(p).display()
        ),
        None => word,
    }
}

/// Says once, for each question (or the whole report, without questions) whose tests crashed
/// because the student's file imports a module the grading Python lacks, what is missing
/// and where: the sentence is added to the question's line (which every report shows), and
/// returned, one a module, for the gradebook's problems column. Without it, 34 CRASHED
/// tests each showed a traceback and nothing pointed at the environment.
pub fn note_missing_modules(report: &mut Report) -> Vec<String> {
    let mut said: Vec<String> = Vec::new();
    let sentence = |module: &str, python: &str, tests: usize| {
        format!(
            "{STUDENT_FILE} imports {module}, which the grading Python, {python}, lacks (ModuleNotFoundError on {tests} test{}): install it there, or put the students' Python first on PATH",
            if tests == 1 { "" } else { "s" }
        )
    };
    let groups: Vec<Option<usize>> = if report.questions.is_empty() {
        vec![None]
    } else {
        (0..report.questions.len()).map(Some).collect()
    };
    for group in groups {
        let cases: Vec<&CaseResult> = match group {
            Some(q) => report.questions[q]
                .cases
                .iter()
                .filter_map(|&i| report.cases.get(i))
                .collect(),
            None => report.cases.iter().collect(),
        };
        let mut modules: Vec<(String, String, usize)> = Vec::new();
        for case in cases {
            if let Some(m) = missing_module(case) {
                match modules.iter_mut().find(|(n, _, _)| *n == m) {
                    Some(entry) => entry.2 += 1,
                    None => modules.push((m, python_of(case), 1)),
                }
            }
        }
        for (module, python, tests) in modules {
            let line = sentence(&module, &python, tests);
            if let Some(q) = group {
                let question = &mut report.questions[q];
                question.message = format!("{}; {line}", question.message);
            }
            let short = format!("imports {module}, which {python} lacks");
            if !said.contains(&short) {
                said.push(short);
            }
        }
    }
    said
}

/// The end of a run's stderr in `details` (its last 12 lines), when it said anything.
fn push_stderr(details: &mut String, stderr: &str) {
    if stderr.is_empty() {
        return;
    }
    details.push_str("stderr (its end):\n");
    let lines: Vec<&str> = stderr.lines().collect();
    for l in &lines[lines.len().saturating_sub(12)..] {
        details.push_str(&crate::diff::visible(l));
        details.push('\n');
    }
}

/// A Python exception, read from the last traceback a run printed.
#[derive(Debug, PartialEq)]
struct Raised {
    /// Its last line: `TypeError: ...`.
    exception: String,
    /// The innermost frame in the student's file: `multiAgents.py, line 172, in getAction`.
    student_frame: Option<String>,
    /// The innermost frame of all.
    last_frame: Option<String>,
}

impl Raised {
    /// The exception and where: the student's line, else the innermost.
    fn said(&self) -> String {
        let exception = crate::diff::visible(&self.exception);
        match self.student_frame.as_ref().or(self.last_frame.as_ref()) {
            Some(at) => format!("{exception} ({})", crate::diff::visible(at)),
            None => exception.into_owned(),
        }
    }
}

/// The last traceback in `stderr`, if any: the exception it ends on and its frames.
fn python_exception(stderr: &str) -> Option<Raised> {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last):"))?;
    let mut student_frame = None;
    let mut last_frame = None;
    for l in &lines[start + 1..] {
        if let Some(frame) = frame(l) {
            if frame.starts_with(STUDENT_FILE) {
                student_frame = Some(frame.clone());
            }
            last_frame = Some(frame);
        } else if !l.starts_with(' ') && !l.trim().is_empty() {
            return Some(Raised {
                exception: (*l).to_owned(),
                student_frame,
                last_frame,
            });
        }
    }
    None
}

/// `  File "/tmp/x/multiAgents.py", line 172, in getAction` as `multiAgents.py, line 172, in
/// getAction` (the file's name without its folder).
fn frame(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (path, after) = rest.split_once('"')?;
    let name = Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned());
    Some(format!("{name}{after}"))
}

/// What stopped a run of the course's autograder that exited with an error: its traceback's
/// exception, or what the course's `util.raiseNotDefined()` printed (it exits without one), or
/// else the last line of stderr that is not a warning (a `DeprecationWarning` of the course's
/// own `import imp` under Python 3.11, a student's `SyntaxWarning`, and the source line Python
/// prints under each).
fn crash_words(stdout: &str, stderr: &str) -> String {
    if let Some(raised) = python_exception(stderr) {
        return raised.said();
    }
    if let Some(l) = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("*** Method not implemented"))
    {
        return crate::diff::visible(l.trim_start_matches("*** ")).into_owned();
    }
    let mut said = "";
    let mut after_warning = false;
    for l in stderr.lines() {
        if is_warning(l) {
            after_warning = true;
        } else if after_warning && l.starts_with(' ') {
            // The source line Python prints under a warning.
        } else if !l.trim().is_empty() {
            after_warning = false;
            said = l;
        }
    }
    crate::diff::visible(said).into_owned()
}

/// `path:17: DeprecationWarning: ...`: a line of Python's warnings.
fn is_warning(line: &str) -> bool {
    line.split(": ")
        .nth(1)
        .is_some_and(|kind| kind.ends_with("Warning") && !kind.contains(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IMP: &str = "/tmp/p/autograder.py:17: DeprecationWarning: the imp module is deprecated in favour of importlib\n  import imp\n";

    #[test]
    fn a_crash_is_read_from_its_traceback_not_its_warnings() {
        let stderr = format!(
            "{IMP}Traceback (most recent call last):\n  File \"/tmp/p/game.py\", line 688, in run\n    action = timed_func(observation)\n  File \"multiAgents.py\", line 172, in getAction\n    x = gameState[0]\n        ~~~~~~~~~^^^\nTypeError: 'GameState' object is not subscriptable\n{IMP}"
        );
        let raised = python_exception(&stderr).unwrap();
        assert_eq!(
            raised.said(),
            "TypeError: 'GameState' object is not subscriptable (multiAgents.py, line 172, in getAction)"
        );
        assert_eq!(crash_words("", &stderr), raised.said());
        // No traceback: the course's raiseNotDefined() said it on stdout.
        assert_eq!(
            crash_words(
                "*** Running MinimaxAgent on smallClassic 1 time(s).\n*** Method not implemented: getAction at line 183 of multiAgents.py\n",
                IMP
            ),
            "Method not implemented: getAction at line 183 of multiAgents.py"
        );
        // Neither: the last line that is not a warning's.
        assert_eq!(
            crash_words("", &format!("Killed by the rules\n{IMP}")),
            "Killed by the rules"
        );
    }

    #[test]
    fn a_traceback_outside_the_students_file_says_its_innermost_frame() {
        let stderr = "Traceback (most recent call last):\n  File \"/p/game.py\", line 739, in run\n    self.state = self.state.generateSuccessor(agentIndex, action)\nException: Illegal action Stop\n";
        let raised = python_exception(stderr).unwrap();
        assert_eq!(raised.student_frame, None);
        assert_eq!(
            raised.said(),
            "Exception: Illegal action Stop (game.py, line 739, in run)"
        );
        assert!(is_warning(
            "multiAgents.py:96: SyntaxWarning: \"is\" with a literal. Did you mean \"==\"?"
        ));
        assert!(!is_warning("TypeError: bad operand"));
    }
}
