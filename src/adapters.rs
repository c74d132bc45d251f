//! The drivers gametrace runs students' code through, compiled into the binary, so that a TA
//! with only `cargo install` or the wheel has them: the CSC148 adapter and game driver
//! (`adapters/python/`), the 15-150 game drivers (`adapters/sml/`) and the CS10 player driver
//! (`adapters/java/`); and the student programs the guide's examples check
//! (`tests/fixtures/...` of a checkout). `gametrace adapters copy DIR` writes the drivers out;
//! and a command gametrace runs that names one of these files where there is none (outside a
//! checkout), or runs `python3 -m gametrace.csc148`, `-m gametrace.game` or `-m
//! gametrace.cs188` (the wheel's names for the Python drivers), gets the built-in copy,
//! written to the run's scratch folder, so that the module is found whichever Python the
//! command names (the wheel's virtualenv need not be the `python3` on PATH). A file on disk
//! always wins.

use include_dir::{include_dir, Dir};
use std::path::{Path, PathBuf};

static PYTHON: Dir = include_dir!("$CARGO_MANIFEST_DIR/python/gametrace/drivers");
static SML: Dir = include_dir!("$CARGO_MANIFEST_DIR/adapters/sml");
static JAVA: Dir = include_dir!("$CARGO_MANIFEST_DIR/adapters/java");
/// The guide's CSC148 students (the chapter's, the grading recipe's).
static CSC148_EXAMPLES: Dir = include_dir!("$CARGO_MANIFEST_DIR/tests/fixtures/python/csc148");
/// The README's and the tour's SML students.
static SML_EXAMPLES: [(&str, &[u8]); 3] = [
    (
        "alphabeta-buggy.sml",
        include_bytes!("../tests/fixtures/sml/alphabeta-buggy.sml"),
    ),
    (
        "alphabeta.sml",
        include_bytes!("../tests/fixtures/sml/alphabeta.sml"),
    ),
    (
        "small.sml",
        include_bytes!("../tests/fixtures/sml/small.sml"),
    ),
];

/// A file of a driver, or of an example: what a course uses (source files only; a cache a
/// run left in the checkout is not one).
fn kept(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "py" | "sml" | "sig" | "java" | "cm"))
}

/// Built-in files: each one's path in a checkout, and its contents.
pub type Files = Vec<(PathBuf, &'static [u8])>;

fn every_file(dir: &Dir<'static>, under: &Path, out: &mut Files) {
    for f in dir.files() {
        if kept(f.path()) {
            out.push((under.join(f.path()), f.contents()));
        }
    }
    for d in dir.dirs() {
        if d.path().file_name().is_some_and(|n| n != "__pycache__") {
            every_file(d, under, out);
        }
    }
}

/// The drivers, by their paths in a checkout (`adapters/python/gametrace_csc148.py`), sorted.
pub fn drivers() -> Files {
    let mut out = Vec::new();
    every_file(&PYTHON, Path::new("adapters/python"), &mut out);
    every_file(&SML, Path::new("adapters/sml"), &mut out);
    every_file(&JAVA, Path::new("adapters/java"), &mut out);
    out.sort();
    out
}

/// The guide's example students, by their paths in a checkout, sorted.
pub fn examples() -> Files {
    let mut out = Vec::new();
    every_file(
        &CSC148_EXAMPLES,
        Path::new("tests/fixtures/python/csc148"),
        &mut out,
    );
    for (name, bytes) in SML_EXAMPLES {
        out.push((Path::new("tests/fixtures/sml").join(name), bytes));
    }
    out.sort();
    out
}

/// The built-in files a relative path names, and the folder written with it (a driver's
/// whole tree, an example's folder: what they import from beside them).
fn group_of(word: &str) -> Option<(PathBuf, Files)> {
    let path = Path::new(word);
    if path.is_absolute() || word.contains("..") {
        return None;
    }
    let path: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    for set in [drivers(), examples()] {
        if set.iter().any(|(p, _)| *p == path) {
            let top = if path.starts_with("adapters") {
                PathBuf::from("adapters")
            } else {
                path.parent().map(Path::to_owned).unwrap_or_default()
            };
            let files = set
                .into_iter()
                .filter(|(p, _)| p.starts_with(&top))
                .collect();
            return Some((path, files));
        }
    }
    None
}

/// Is `word` the path of a built-in driver or example (provided where it is not a file)?
pub fn built_in(word: &str) -> bool {
    group_of(word).is_some()
}

/// The wheel's module names for the Python drivers, and the driver each runs.
const MODULES: [(&str, &str); 3] = [
    ("gametrace.csc148", "adapters/python/gametrace_csc148.py"),
    ("gametrace.game", "adapters/python/gametrace_game.py"),
    ("gametrace.cs188", "adapters/python/gametrace_cs188.py"),
];

/// `argv` as it is to run in `dir` (the current folder when `None`), with the built-in drivers
/// and examples it names provided: each word that is the path of one and is not a file there
/// is replaced by the path of a copy written under `scratch`, and `-m gametrace.csc148` (or
/// `gametrace.game`, `gametrace.cs188`) after a Python by the copy of that driver. A `sh -c` line is left as it
/// is.
pub fn provide(
    argv: Vec<String>,
    dir: Option<&Path>,
    scratch: &crate::sandbox::Scratch,
) -> std::io::Result<Vec<String>> {
    let shell = argv.len() == 3 && argv[0] == "sh" && argv[1] == "-c";
    if shell || argv.is_empty() {
        return Ok(argv);
    }
    let base = dir
        .map(Path::to_owned)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    let root = scratch.path().join("gametrace-files");
    let python = Path::new(&argv[0])
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python") || n == "py");
    let mut out = Vec::with_capacity(argv.len());
    let mut words = argv.into_iter().peekable();
    out.extend(words.next());
    while let Some(word) = words.next() {
        if python && word == "-m" {
            let module = words.peek().and_then(|m| {
                MODULES
                    .iter()
                    .find(|(name, _)| name == m)
                    .map(|(_, path)| *path)
            });
            if let Some(path) = module {
                words.next();
                out.push(write_group(path, &root)?.display().to_string());
                continue;
            }
        }
        if !base.join(&word).exists() && group_of(&word).is_some() {
            out.push(write_group(&word, &root)?.display().to_string());
            continue;
        }
        out.push(word);
    }
    Ok(out)
}

/// The CS188 driver's file.
const CS188_DRIVER: &str = "gametrace_cs188.py";

/// The grader's `words` with the CS188 driver's `--project DIR` read from gametrace's own
/// folder: it is the TA's project, written from where they run gametrace, and `grade` runs
/// the command in each submission's folder, where `.` (or any relative path) would name the
/// student's folder (every tree crashed on it). Done to the grader's words, so that the
/// sandbox grants the folder the command runs with. A `sh -c` line is left as it is.
pub fn project_from_here(words: Vec<String>) -> Vec<String> {
    let shell = words.len() == 3 && words[0] == "sh" && words[1] == "-c";
    let python = words.first().is_some_and(|w| {
        Path::new(w)
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("python") || n == "py")
    });
    if shell || !python {
        return words;
    }
    let mut cs188 = false;
    let mut out = Vec::with_capacity(words.len());
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        cs188 |= word == "gametrace.cs188" || word.ends_with(CS188_DRIVER);
        if cs188 && word == "--project" {
            out.push(word);
            out.extend(words.next().map(from_here));
        } else if let Some(dir) = word.strip_prefix("--project=").filter(|_| cs188) {
            out.push(format!("--project={}", from_here(dir.to_owned())));
        } else {
            out.push(word);
        }
    }
    out
}

/// Refuses, before anything runs, a CS188 driver's `--project` (in `words` as
/// [`project_from_here`] leaves them) that is not the course's folder: the driver would stop
/// on every tree and each would read CRASHED, a student's fault, where the grader's command
/// is wrong. A folder with a placeholder is the submission's, and is not checked.
pub fn check_project(words: &[String]) -> Result<(), String> {
    let mut cs188 = false;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        cs188 |= word == "gametrace.cs188" || word.ends_with(CS188_DRIVER);
        let dir = match word.strip_prefix("--project=") {
            Some(dir) if cs188 => dir,
            _ if cs188 && word == "--project" => match words.next() {
                Some(dir) => dir.as_str(),
                None => return Err("--project is given no folder".to_owned()),
            },
            _ => continue,
        };
        if dir.contains('{') {
            continue;
        }
        let dir = Path::new(dir);
        if !dir.is_dir() {
            return Err(format!("--project {} is not a folder", dir.display()));
        }
        // What every multiAgents.py imports from it (`from util import manhattanDistance`,
        // `from game import Directions`); util.py first, as the driver checks it.
        if let Some(file) = ["util.py", "game.py"]
            .into_iter()
            .find(|f| !dir.join(f).is_file())
        {
            return Err(format!("--project {} has no {file}", dir.display()));
        }
    }
    Ok(())
}

/// Refuses, before anything runs, what a `--shell` line (`words`, split as sh would) cannot
/// do, each of which gave every student CRASHED and 0 points: name gametrace's built-in
/// drivers as modules (`-m gametrace.cs188`: gametrace gives them to a command it runs
/// itself, never inside a line sh runs), and give the CS188 driver a relative `--project`
/// (sh runs the line in each submission's folder, where `.` is the student's). A folder
/// with `$`, `~` or a placeholder in it is sh's or gametrace's to fill, and not checked.
/// `Err` is why and a hint.
pub fn check_shell_line(words: &[String]) -> Result<(), (String, &'static str)> {
    if let Some(m) = words
        .windows(2)
        .find(|w| w[0] == "-m" && MODULES.iter().any(|(name, _)| *name == w[1]))
    {
        return Err((
            format!(
                "`-m {}` in a --shell line: sh runs the line as written, and gametrace gives its built-in drivers only to a command it runs itself",
                m[1]
            ),
            "leave out --shell (the line needs no shell), or name the driver's file (`gametrace adapters copy DIR` writes them out)",
        ));
    }
    let mut cs188 = false;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        cs188 |= word.ends_with(CS188_DRIVER);
        let dir = match word.strip_prefix("--project=") {
            Some(dir) if cs188 => dir,
            _ if cs188 && word == "--project" => words.next().map_or("", |d| d.as_str()),
            _ => continue,
        };
        if dir.contains(['$', '~', '{', '`']) {
            continue;
        }
        if dir.is_empty() {
            return Err(("--project is given no folder".to_owned(), PROJECT_HINT));
        }
        if !Path::new(dir).is_absolute() {
            return Err((
                format!("--project {dir} in a --shell line: sh runs the line in each submission's folder, where `{dir}` is the student's"),
                "write the course folder's absolute path, or leave out --shell (without it, a relative --project is read from where gametrace runs)",
            ));
        }
        check_project(&["gametrace.cs188".to_owned(), format!("--project={dir}")])
            .map_err(|why| (why, PROJECT_HINT))?;
    }
    Ok(())
}

/// What to give as the CS188 driver's `--project`.
pub const PROJECT_HINT: &str = "give the course's multiagent folder (the one with autograder.py, util.py, game.py and pacman.py), absolute or from where gametrace runs";

/// A relative path as gametrace's current folder reads it (absolute, so that a command run
/// in another folder reads the same); a path holding a placeholder is left as it is.
fn from_here(path: String) -> String {
    if path.contains('{') || Path::new(&path).is_absolute() {
        return path;
    }
    std::path::absolute(&path).map_or(path, |p| p.display().to_string())
}

/// Writes the group of `word` under `root` (once) and returns the path of its file there.
fn write_group(word: &str, root: &Path) -> std::io::Result<PathBuf> {
    let Some((path, files)) = group_of(word) else {
        return Err(std::io::Error::other(format!("no built-in file {word}")));
    };
    for (p, bytes) in files {
        let to = root.join(p);
        if to.exists() {
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&to, bytes)?;
    }
    Ok(root.join(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_files_are_the_checkouts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let all: Vec<_> = drivers().into_iter().chain(examples()).collect();
        assert!(all.len() > 20, "{all:?}");
        for (p, bytes) in &all {
            assert_eq!(
                std::fs::read(root.join(p)).unwrap(),
                *bytes,
                "{} differs from the checkout's: rebuild",
                p.display()
            );
        }
        // Every driver of the checkout is built in.
        for dir in ["adapters/sml", "adapters/java", "adapters/python"] {
            let mut on_disk = Vec::new();
            walk(&root.join(dir), &mut on_disk);
            for p in on_disk {
                let rel = p.strip_prefix(root).unwrap();
                assert!(
                    all.iter().any(|(q, _)| q == rel),
                    "{} is not built in",
                    rel.display()
                );
            }
        }
    }

    /// A CS188 driver's `--project` must be the course's folder; a placeholder's, another
    /// program's, and a `sh -c` line's are not checked.
    #[test]
    fn a_cs188_project_that_is_not_the_course_folder_is_refused() {
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cs188/project");
        let words = |line: String| crate::sandbox::split(&line).unwrap();
        let driver = "python3 -m gametrace.cs188 m.py {trees}";
        assert!(check_project(&words(format!("{driver} --project {}", project.display()))).is_ok());
        assert!(check_project(&words(format!("{driver} --project={}", project.display()))).is_ok());
        let tests = project.parent().unwrap();
        for (line, why) in [
            (
                format!("{driver} --project /nowhere/at/all"),
                "is not a folder",
            ),
            (
                format!("{driver} --project={}", tests.display()),
                "has no util.py",
            ),
            (format!("{driver} --project"), "no folder"),
        ] {
            let err = check_project(&words(line.clone())).unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
        for line in [
            format!("{driver} --project {{submission}}/course"),
            "python3 mine.py --project /nowhere/at/all".to_owned(),
            "python3 -m gametrace.csc148 strategy m.py --project /nowhere".to_owned(),
        ] {
            assert!(check_project(&words(line.clone())).is_ok(), "{line}");
        }
    }

    /// A `--shell` line cannot be given gametrace's built-in drivers as modules, nor a
    /// relative CS188 `--project` (read in each submission's folder); what sh or gametrace
    /// fills in is not checked.
    #[test]
    fn a_shell_line_is_refused_what_only_gametraces_own_runs_can_do() {
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cs188/project");
        let words = |line: String| crate::sandbox::split(&line).unwrap();
        let driver = "python3 /opt/gametrace_cs188.py m.py {trees}";
        for (line, why) in [
            (
                "python3 -m gametrace.cs188 m.py {trees}".to_owned(),
                "`-m gametrace.cs188` in a --shell line",
            ),
            (
                "cd x && python3 -m gametrace.csc148 strategy s.py S {position_json}".to_owned(),
                "`-m gametrace.csc148`",
            ),
            (
                format!("{driver} --project ."),
                "--project . in a --shell line",
            ),
            (
                format!("{driver} --project=../course"),
                "--project ../course in a --shell line",
            ),
            (
                format!("{driver} --project /nowhere/at/all"),
                "is not a folder",
            ),
            (format!("{driver} --project"), "no folder"),
        ] {
            let err = check_shell_line(&words(line.clone())).unwrap_err();
            assert!(err.0.contains(why), "{line}: {err:?}");
        }
        for line in [
            format!("{driver} --project {}", project.display()),
            format!("{driver} --project \"$COURSE\""),
            format!("{driver} --project ~/course"),
            format!("{driver} --project {{submission}}/course"),
            "python3 mine.py --project .".to_owned(),
            "python3 /opt/gametrace_csc148.py strategy s.py S {position_json}".to_owned(),
        ] {
            assert!(check_shell_line(&words(line.clone())).is_ok(), "{line}");
        }
    }

    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "__pycache__") {
                    walk(&p, out);
                }
            } else if kept(&p) {
                out.push(p);
            }
        }
    }

    #[test]
    fn a_command_gets_the_built_in_drivers_it_names_where_there_are_none() {
        let empty = tempfile::tempdir().unwrap();
        let scratch = crate::sandbox::Scratch::new().unwrap();
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let argv = provide(
            words("python3 -m gametrace.csc148 strategy mine.py S {position_json}"),
            Some(empty.path()),
            &scratch,
        )
        .unwrap();
        let driver = scratch
            .path()
            .join("gametrace-files/adapters/python/gametrace_csc148.py");
        assert_eq!(argv[1], driver.display().to_string());
        assert_eq!(argv[2..], words("strategy mine.py S {position_json}"));
        assert!(driver.is_file());
        assert!(scratch
            .path()
            .join("gametrace-files/adapters/python/csc148/strategy.py")
            .is_file());
        // CS188's driver, with the stand-ins for the project's modules beside it.
        let argv = provide(
            words("python3 -m gametrace.cs188 multiAgents.py {tree_json}"),
            Some(empty.path()),
            &scratch,
        )
        .unwrap();
        let driver = scratch
            .path()
            .join("gametrace-files/adapters/python/gametrace_cs188.py");
        assert_eq!(argv[1], driver.display().to_string());
        assert_eq!(argv[2..], words("multiAgents.py {tree_json}"));
        assert!(scratch
            .path()
            .join("gametrace-files/adapters/python/cs188/util.py")
            .is_file());
        // The driver's `--project`, written from here, is read from here wherever it runs; an
        // absolute one, a placeholder, another program's `--project` are left alone.
        let here = std::env::current_dir().unwrap();
        for (line, project) in [
            (
                "python3 -m gametrace.cs188 m.py {trees} --project .",
                "--project",
            ),
            (
                "python3 adapters/python/gametrace_cs188.py m.py {trees} --project=course",
                "--project=",
            ),
        ] {
            let argv = project_from_here(words(line));
            let rest = line.rsplit([' ', '=']).next().unwrap();
            let want = std::path::absolute(here.join(rest)).unwrap();
            let got = argv.join(" ");
            assert!(
                got.ends_with(&format!(
                    "{project}{}{}",
                    if project.ends_with('=') { "" } else { " " },
                    want.display()
                )),
                "{got}"
            );
        }
        for line in [
            "python3 -m gametrace.cs188 m.py {trees} --project /srv/course",
            "python3 -m gametrace.cs188 m.py {trees} --project {submission}/course",
            "python3 mine.py --project .",
        ] {
            let argv = project_from_here(words(line));
            assert!(argv.join(" ").ends_with(line.rsplit(' ').next().unwrap()));
        }
        // A path of a driver or of an example, missing here.
        let argv = provide(
            words("sml tests/fixtures/sml/alphabeta-buggy.sml ./tests/fixtures/sml/small.sml"),
            Some(empty.path()),
            &scratch,
        )
        .unwrap();
        assert!(Path::new(&argv[1]).is_file() && Path::new(&argv[2]).is_file());
        // A file on disk wins; other words, a shell line, another module are left alone.
        std::fs::create_dir_all(empty.path().join("adapters/java")).unwrap();
        std::fs::write(empty.path().join("adapters/java/GametracePlayer.java"), "x").unwrap();
        for line in [
            "javac adapters/java/GametracePlayer.java",
            "python3 -m gametrace strategy mine.py",
            "python3 tests/fixtures/python/csc148/nothing.py",
            "java -m gametrace.csc148",
        ] {
            assert_eq!(
                provide(words(line), Some(empty.path()), &scratch).unwrap(),
                words(line)
            );
        }
        let shell = vec![
            "sh".into(),
            "-c".into(),
            "python3 -m gametrace.csc148".into(),
        ];
        assert_eq!(
            provide(shell.clone(), Some(empty.path()), &scratch).unwrap(),
            shell
        );
    }
}
