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
use crate::report::{CaseResult, Status};
use std::path::{Path, PathBuf};

/// The file the project's `autograder.py` grades, which the student brings.
pub const STUDENT_FILE: &str = "multiAgents.py";

/// `--project DIR`, checked: a folder with the course's `autograder.py`.
pub fn project(dir: &Path) -> Result<PathBuf, String> {
    if !dir.join("autograder.py").is_file() {
        return Err(format!(
            "--project {} has no autograder.py\n  = expected: the course's project folder (autograder.py, pacman.py, test_cases/, ...)\n  = hint: the folder the course hands out for the multiagent project",
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

/// Test `test` (a `PacmanGameTreeTest`'s `.test` file) played by `project`'s autograder with
/// the student's `multiAgents.py`.
pub fn play(program: &Program, project: &Path, test: &Path) -> CaseResult {
    let name = test
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let question = test
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "q".to_owned(), |s| s.to_string_lossy().into_owned());
    let shown = test.display().to_string();
    let result = |status: Status, message: String, details: String| {
        CaseResult::new(&shown, &name, status, 1.0)
            .message(message)
            .details(details)
    };
    let Some(student) = student_file(program) else {
        return result(
            Status::NotFound,
            format!("no {STUDENT_FILE} to play the game with"),
            format!(
                "--project plays this test with the student's {STUDENT_FILE}: the submission's folder holds none, and no word of the command names one\n"
            ),
        );
    };
    let line = format!(
        "{} autograder.py -t test_cases/{question}/{name} --no-graphics",
        python(program)
    );
    let mut course = Program {
        flag: "--project",
        line: line.clone(),
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
    let run = match course.in_course_copy(test, project, &left_out) {
        Ok(r) => r,
        Err(d) => {
            return result(
                Status::Error,
                "the course's project could not be staged".to_owned(),
                d.to_string(),
            )
        }
    };
    let Some(dir) = run.dir.clone() else {
        return result(
            Status::Error,
            "the course's project could not be staged".to_owned(),
            String::new(),
        );
    };
    let into = dir.join("test_cases").join(&question);
    let staged = std::fs::create_dir_all(&into)
        .and_then(|()| std::fs::copy(test, into.join(format!("{name}.test"))).map(drop))
        .and_then(|()| {
            std::fs::copy(
                crate::spec::cs188::solution_path(test),
                into.join(format!("{name}.solution")),
            )
            .map(drop)
        })
        .and_then(|()| std::fs::copy(&student, dir.join(STUDENT_FILE)).map(drop));
    if let Err(e) = staged {
        return result(
            Status::Error,
            format!("cannot stage the test and {STUDENT_FILE} in the project's copy: {e}"),
            String::new(),
        );
    }
    let ran = run.run();
    let stdout = String::from_utf8_lossy(ran.stdout()).into_owned();
    let said: Vec<&str> = stdout.lines().filter(|l| l.starts_with("***")).collect();
    let mut details = format!(
        "played by the course's project: {line} (in a copy of {}, with {})\n",
        project.display(),
        student.display()
    );
    for l in &said {
        details.push_str(&crate::diff::visible(l));
        details.push('\n');
    }
    let verdict = |word: &str| {
        said.iter()
            .any(|l| l.starts_with(&format!("*** {word}: ")) && l.contains(&format!("{name}.test")))
    };
    if let Some(status) = crate::student::status_of(&ran) {
        let last = ran
            .stderr()
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .to_owned();
        if !ran.stderr().is_empty() {
            details.push_str("stderr (its end):\n");
            let lines: Vec<&str> = ran.stderr().lines().collect();
            for l in &lines[lines.len().saturating_sub(12)..] {
                details.push_str(&crate::diff::visible(l));
                details.push('\n');
            }
        }
        let message = match status {
            Status::Crashed => format!(
                "the game stopped on an exception (the autograder fails the test, and the question gets 0): {}",
                crate::diff::visible(&last)
            ),
            _ => format!("the course's autograder.py did not finish: {}", ran.word()),
        };
        return result(status, message, details);
    }
    if verdict("PASS") {
        result(
            Status::Pass,
            "the course's autograder passes the game".to_owned(),
            details,
        )
    } else if verdict("FAIL") {
        result(
            Status::Fail,
            "the course's autograder fails the game".to_owned(),
            details,
        )
    } else {
        result(
            Status::Error,
            "the course's autograder.py printed no verdict for the test".to_owned(),
            details,
        )
    }
}
