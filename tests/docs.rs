//! The guide (`docs/src/`, built with mdBook) and the README cannot rot: every `gametrace`
//! command shown with its output in a `console` block runs here and must print what is shown,
//! and every link between the guide's pages (and its anchors) must lead somewhere.
//!
//! How an example is written (the chapter "Layout and tests" says the same to contributors):
//!
//! - a `console` block holds commands (`$ gametrace ...`, continued over lines ending in `\`),
//!   each followed by its output; only `gametrace` commands may appear there (a template or a
//!   command of another tool goes in a `sh` block, which is not run);
//! - the command runs from the project's root with `NO_COLOR=1`; its stdout, then its stderr,
//!   must match the output shown line by line, trailing spaces aside;
//! - a line `...` (indented or not) in the shown output stands for any number of lines (none
//!   too), and `[..]`
//!   inside a line for any text on that line;
//! - the block's commands must exit 0, unless the block is marked `console,exit=N`.

use rayon::prelude::*;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::cli::ROOT;

/// The pages whose examples run: the README and every page of the guide.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![Path::new(ROOT).join("README.md")];
    let src = Path::new(ROOT).join("docs/src");
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(&src)
        .expect("docs/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    out.extend(chapters);
    out
}

#[derive(Debug)]
struct Example {
    page: PathBuf,
    /// The line of the `$` in the page, 1-based.
    line: usize,
    command: String,
    output: Vec<String>,
    exit: i32,
}

/// The fenced blocks of a page: (info string, first line number of the body, body lines).
fn blocks(text: &str) -> Vec<(String, usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut current: Option<(String, usize, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match current.as_mut() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    current = Some((info.trim().to_owned(), i + 2, Vec::new()));
                }
            }
            Some((_, _, body)) => {
                if trimmed.starts_with("```") {
                    out.push(current.take().unwrap());
                } else {
                    body.push(line.to_owned());
                }
            }
        }
    }
    assert!(current.is_none(), "a fenced block is never closed");
    out
}

fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let mut out = Vec::new();
    for (info, first, body) in blocks(&text) {
        let mut words = info.split([',', ' ']);
        if words.next() != Some("console") {
            continue;
        }
        let exit = words
            .find_map(|w| w.strip_prefix("exit="))
            .map(|n| n.parse().expect("exit=N takes a number"))
            .unwrap_or(0);
        let mut i = 0;
        while i < body.len() {
            let Some(start) = body[i].strip_prefix("$ ") else {
                assert!(
                    body[i].trim().is_empty(),
                    "{}:{}: a console block starts with a `$ ` command",
                    page.display(),
                    first + i
                );
                i += 1;
                continue;
            };
            let line = first + i;
            let mut command = start.to_owned();
            while command.ends_with('\\') {
                command.pop();
                i += 1;
                command.push(' ');
                command.push_str(body[i].trim());
            }
            i += 1;
            let mut output = Vec::new();
            while i < body.len() && !body[i].starts_with("$ ") {
                output.push(body[i].trim_end().to_owned());
                i += 1;
            }
            // A blank line before the next command separates, it is not output.
            while output.last().is_some_and(|l| l.is_empty()) {
                output.pop();
            }
            out.push(Example {
                page: page.to_owned(),
                line,
                command,
                output,
                exit,
            });
        }
    }
    out
}

/// Does the shown line (with `[..]` for any text) match the printed one?
fn line_matches(shown: &str, printed: &str) -> bool {
    let printed = printed.trim_end();
    let parts: Vec<&str> = shown.split("[..]").collect();
    if parts.len() == 1 {
        return shown == printed;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !printed.starts_with(first) || printed.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &printed[first.len()..];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Does the shown output (with `...` lines for any lines) match the printed lines?
fn output_matches(shown: &[String], printed: &[&str]) -> bool {
    // Positions (shown, printed) already known not to match: keeps `...` linear-ish.
    fn go(
        shown: &[String],
        printed: &[&str],
        i: usize,
        j: usize,
        failed: &mut HashSet<(usize, usize)>,
    ) -> bool {
        if failed.contains(&(i, j)) {
            return false;
        }
        let ok = if i == shown.len() {
            j == printed.len()
        } else if shown[i].trim() == "..." {
            (j..=printed.len()).any(|k| go(shown, printed, i + 1, k, failed))
        } else {
            j < printed.len()
                && line_matches(&shown[i], printed[j])
                && go(shown, printed, i + 1, j + 1, failed)
        };
        if !ok {
            failed.insert((i, j));
        }
        ok
    }
    go(shown, printed, 0, 0, &mut HashSet::new())
}

fn run(example: &Example) -> Result<(), String> {
    run_with(
        example,
        Path::new(env!("CARGO_BIN_EXE_gametrace")),
        Path::new(ROOT),
    )
}

/// Runs `example` with the binary `program`, in the folder `dir`.
fn run_with(example: &Example, program: &Path, dir: &Path) -> Result<(), String> {
    let words = shlex::split(&example.command)
        .ok_or_else(|| format!("cannot split `{}` into words", example.command))?;
    if words.first().map(String::as_str) != Some("gametrace") {
        return Err(format!(
            "`{}`: only gametrace commands run in a console block; write other commands in a sh block",
            example.command
        ));
    }
    let out = Command::new(program)
        .args(&words[1..])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .map_err(|e| format!("cannot run gametrace: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Vec<&str> = text.lines().collect();
    let code = out.status.code().unwrap_or(-1);
    if code != example.exit {
        return Err(format!(
            "`{}` exited {code}, the block says {}; it printed:\n{text}",
            example.command, example.exit
        ));
    }
    if !output_matches(&example.output, &printed) {
        return Err(format!(
            "`{}` printed what the page does not show.\n--- shown\n{}\n--- printed\n{text}",
            example.command,
            example.output.join("\n")
        ));
    }
    Ok(())
}

#[test]
fn every_example_prints_what_the_guide_shows() {
    let all: Vec<Example> = pages().iter().flat_map(|p| examples(p)).collect();
    assert!(
        all.len() >= 20,
        "the guide shows {} examples; the pages were not found or not parsed",
        all.len()
    );
    let failures: Vec<String> = all
        .par_iter()
        .filter_map(|e| {
            run(e).err().map(|why| {
                format!(
                    "{}:{}: {why}",
                    e.page.strip_prefix(ROOT).unwrap_or(&e.page).display(),
                    e.line
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}

/// mdBook's id for a heading: lower case, spaces to `-`, only letters, digits, `-` and `_` kept.
fn anchor(heading: &str) -> String {
    let text: String = heading
        .replace('`', "")
        .trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_lowercase().next().unwrap())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect();
    text
}

/// The anchors a page has: one per heading outside code blocks (repeats get `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = anchor(&line[hashes + 1..]);
            let mut id = base.clone();
            let mut n = 1;
            while out.contains(&id) {
                id = format!("{base}-{n}");
                n += 1;
            }
            out.insert(id);
        }
    }
    out
}

/// Every markdown link target of a page outside code: `[text](target)`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        // Code spans are not links.
        let mut plain = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((i + 1, after[..end].to_owned()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_link_of_the_guide_leads_somewhere() {
    let mut broken = Vec::new();
    let pages = pages();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (line, target) in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue; // No network here: outside links are not followed.
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let at = format!(
                "{}:{line}: `{target}`",
                page.strip_prefix(ROOT).unwrap().display()
            );
            if !dest.exists() {
                broken.push(format!("{at}: no file {}", dest.display()));
                continue;
            }
            if let Some(a) = fragment {
                let dest_text = std::fs::read_to_string(&dest).unwrap();
                if !anchors(&dest_text).contains(a) {
                    broken.push(format!("{at}: no heading with the anchor #{a}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_summary_lists_every_chapter_and_only_chapters_that_exist() {
    let src = Path::new(ROOT).join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    let present: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "SUMMARY.md")
        .collect();
    assert_eq!(listed, present, "SUMMARY.md and docs/src/ disagree");
}

#[test]
fn the_readme_stays_short() {
    let n = std::fs::read_to_string(Path::new(ROOT).join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        n <= 300,
        "README.md has {n} lines; move the detail into the guide (docs/src/)"
    );
}

#[test]
fn shown_output_matching_has_wildcards_and_no_more() {
    let shown = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(output_matches(
        &shown(&["a", "...", "d"]),
        &["a", "b", "c", "d"]
    ));
    assert!(output_matches(&shown(&["a", "...", "b"]), &["a", "b"]));
    assert!(!output_matches(
        &shown(&["a", "...", "d"]),
        &["a", "b", "c"]
    ));
    assert!(!output_matches(&shown(&["a"]), &["a", "b"]));
    assert!(line_matches(
        "read [..] lines of [..]: ok",
        "read 3 lines of x: ok"
    ));
    assert!(!line_matches("read [..] lines", "read 3 rows"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert_eq!(
        anchor("Checking Python students"),
        "checking-python-students"
    );
    assert_eq!(anchor("`gametrace test`"), "gametrace-test");
    assert_eq!(anchor("Spec format, version 1"), "spec-format-version-1");
}

/// A folder holding a copy of the binary and nothing else (no checkout beside it), and an
/// empty folder to work in: what a TA has after `cargo install` or `pip install`.
fn installed() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let exe = bin.join("gametrace");
    std::fs::copy(env!("CARGO_BIN_EXE_gametrace"), &exe).unwrap();
    let ta = tmp.path().join("ta");
    std::fs::create_dir(&ta).unwrap();
    (tmp, exe, ta)
}

/// The `sh` recipe of grading.md's "One recipe a course" that holds `needle`: its first
/// command, continued lines joined, as printed.
fn recipe(needle: &str) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/src/grading.md")).unwrap();
    let section = &text[text.find("## One recipe a course").unwrap()..];
    for (info, _, body) in blocks(section) {
        if info != "sh" {
            continue;
        }
        let mut command = String::new();
        for line in &body {
            let line = line.trim();
            if command.is_empty() && (line.starts_with('#') || !line.starts_with("gametrace ")) {
                continue;
            }
            let line = line.split("   #").next().unwrap().trim_end();
            command.push_str(line.trim_end_matches('\\'));
            if !line.ends_with('\\') {
                break;
            }
            command.push(' ');
        }
        if command.contains(needle) {
            return command;
        }
    }
    panic!("grading.md has no recipe with `{needle}`")
}

/// Runs a recipe as a TA's shell would, with only the copied binary's folder before the
/// system's on PATH (no cargo, no checkout).
fn shell(line: &str, exe: &Path, dir: &Path) -> std::process::Output {
    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        exe.parent().unwrap().display()
    );
    Command::new("bash")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CARGO_HOME")
        .output()
        .unwrap()
}

/// Issue 64: the tour's and the course chapters' examples, and the grading recipes of
/// CSC148, CS10 and 15-150, run as printed in an empty folder with only a copy of the binary
/// (the specs, the drivers and the guide's example students come from inside it).
#[test]
fn the_tour_and_the_course_recipes_run_from_an_empty_folder() {
    let (_tmp, exe, ta) = installed();
    let src = Path::new(ROOT).join("docs/src");
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in ["tour.md", "csc148.md", "cs10.md", "15150.md", "grading.md"] {
        for e in examples(&src.join(page)) {
            // grading.md's other examples read the checkout's docs/examples.
            if page == "grading.md" && !e.command.contains("csc148") {
                continue;
            }
            ran += 1;
            if let Err(why) = run_with(&e, &exe, &ta) {
                failures.push(format!("{page}:{}: {why}", e.line));
            }
        }
    }
    assert!(ran >= 8, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let left: Vec<_> = std::fs::read_dir(&ta).unwrap().collect();
    assert!(
        left.is_empty(),
        "the examples wrote into the folder: {left:?}"
    );

    let fixtures = Path::new(ROOT).join("tests/fixtures");
    // CSC148: a class of two, one right and one who handed nothing in.
    let class = ta.join("csc148");
    std::fs::create_dir_all(class.join("submissions/alice")).unwrap();
    std::fs::create_dir_all(class.join("submissions/bob")).unwrap();
    std::fs::copy(
        fixtures.join("python/csc148/strategy_minimax_memoize.py"),
        class.join("submissions/alice/strategy_minimax_memoize.py"),
    )
    .unwrap();
    let line = recipe("--specs csc148/subtract-square-grading");
    assert!(line.contains("python3 -m gametrace.csc148"), "{line}");
    let out = shell(&line, &exe, &class);
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = std::fs::read_to_string(class.join("grades/gradebook.csv")).unwrap();
    assert!(book.contains("\nalice,4,4,"), "{book}");
    assert!(book.contains("\nbob,0,4,"), "{book}");

    // CS10: a student's Kalah player, compiled by the command.
    let class = ta.join("cs10");
    let carol = class.join("submissions/carol");
    std::fs::create_dir_all(&carol).unwrap();
    for f in ["ComputerKalahPlayerAB.java", "KalahGame.java"] {
        std::fs::copy(fixtures.join("java/kalah").join(f), carol.join(f)).unwrap();
    }
    let line = recipe("--specs kalah/search");
    let out = shell(&line, &exe, &class);
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = std::fs::read_to_string(class.join("grades/gradebook.csv")).unwrap();
    let row = book.lines().find(|l| l.starts_with("carol,")).unwrap();
    let cells: Vec<&str> = row.split(',').collect();
    assert_eq!(cells[1], cells[2], "{book}");

    // 15-150: the handout's folder, the student's alpha-beta over its stub, the TA's small.sml.
    let class = ta.join("15150");
    let code = class.join("handout/hw/11/code");
    std::fs::create_dir_all(&code).unwrap();
    std::fs::write(
        code.join("sources.cm"),
        "Group is\n  $/basis.cm\n  alphabeta.sml\n",
    )
    .unwrap();
    std::fs::write(code.join("alphabeta.sml"), "(* the handout's stub *)\n").unwrap();
    std::fs::copy(fixtures.join("sml/small.sml"), code.join("small.sml")).unwrap();
    let dave = class.join("submissions/dave");
    std::fs::create_dir_all(&dave).unwrap();
    std::fs::copy(
        fixtures.join("sml/alphabeta.sml"),
        dave.join("alphabeta.sml"),
    )
    .unwrap();
    let line = recipe("--specs 15150-s14/handout-small");
    let out = shell(&line, &exe, &class);
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book = std::fs::read_to_string(class.join("grades/gradebook.csv")).unwrap();
    assert!(book.contains("\ndave,1,1,"), "{book}");
}

/// The `gametrace` lines of the `sh` blocks of `page`'s section `heading` (up to the next
/// heading), continued lines joined.
fn sh_lines(page: &str, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/src").join(page)).unwrap();
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("{page} has no `{heading}`"));
    let rest = &text[start + heading.len()..];
    let section = &rest[..rest.find("\n#").unwrap_or(rest.len())];
    let mut out = Vec::new();
    for (info, _, body) in blocks(section) {
        if info != "sh" {
            continue;
        }
        let mut command = String::new();
        for line in &body {
            let line = line.trim_end();
            if command.is_empty() && !line.starts_with("gametrace ") {
                continue;
            }
            command.push_str(line.trim_end_matches('\\'));
            if line.ends_with('\\') {
                command.push(' ');
            } else {
                out.push(std::mem::take(&mut command));
            }
        }
    }
    out
}

/// Copies the folder `from` to `to`, files and folders.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// Issue 71: the CS188 chapter's commands for a folder with no checkout run as printed, with
/// a copy of the binary only: `python3 -m gametrace.cs188` is the built-in driver whichever
/// Python runs it, and `--project DIR` (here the stand-ins, copied out as the course's
/// folder would be) goes at the end of the `--against` string.
#[test]
fn the_cs188_chapter_runs_from_an_empty_folder() {
    let (_tmp, exe, ta) = installed();
    let fixtures = Path::new(ROOT).join("tests/fixtures/cs188");
    copy_tree(&fixtures.join("test_cases"), &ta.join("test_cases"));
    copy_tree(
        &Path::new(ROOT).join("python/gametrace/drivers/cs188"),
        &ta.join("multiagent"),
    );
    std::fs::copy(fixtures.join("multiAgents.py"), ta.join("multiAgents.py")).unwrap();
    assert!(!ta.join("adapters").exists());
    let lines = sh_lines("cs188.md", "### From an empty folder");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[1].contains("--project multiagent'"), "{}", lines[1]);
    for line in &lines {
        let out = shell(line, &exe, &ta);
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "`{line}`:\n{text}");
        // Every test passes, so each question gets its CONFIG's weight, 5.
        let question = if line.contains("q2") {
            "6 passed, 0 failed; score 5 / 5"
        } else {
            "7 passed, 0 failed; score 5 / 5"
        };
        assert!(text.contains(question), "`{line}`:\n{text}");
    }
    // Each run's copy of the driver is its own: nothing is written into the folder.
    assert!(!ta.join("adapters").exists() && !ta.join("gametrace-files").exists());
}
