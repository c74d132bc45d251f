//! The shell around gametrace: completion scripts and manual pages, as a user installs them.

use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::cli::{gametrace, require};

fn bin() -> String {
    assert_cmd::cargo::cargo_bin("gametrace")
        .to_string_lossy()
        .into_owned()
}

/// What bash completes after typing `words` (the last one partly), with the script
/// `gametrace completions bash` prints loaded as a user's ~/.bashrc would.
fn bash_completes(words: &[&str]) -> String {
    let script = format!(
        r#"set -e
source <("{bin}" completions bash)
COMP_WORDS=({words})
COMP_CWORD={cword}
COMP_LINE="{line}"
COMP_POINT=${{#COMP_LINE}}
_gametrace gametrace "{last}" "{prev}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        bin = bin(),
        words = words.join(" "),
        cword = words.len() - 1,
        line = words.join(" "),
        last = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash could not load or run the completion: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bash_loads_the_completion_and_completes_commands_and_flags() {
    // Loading alone: no errors, and the function is registered for gametrace.
    let out = std::process::Command::new("bash")
        .args([
            "-c",
            &format!(
                "source <(\"{}\" completions bash) && complete -p gametrace",
                bin()
            ),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("_gametrace"));

    let commands = bash_completes(&["gametrace", "check-g"]);
    assert_eq!(commands.trim(), "check-game");
    let flags = bash_completes(&["gametrace", "check-game", "--estimator-"]);
    let flags: Vec<&str> = flags.split_whitespace().collect();
    assert!(flags.contains(&"--estimator-depths"), "{flags:?}");
    assert!(flags.contains(&"--estimator-openings"), "{flags:?}");
    // A flag with a fixed set of values completes them.
    let shells = bash_completes(&["gametrace", "completions", "f"]);
    assert_eq!(shells.trim(), "fish");
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        gametrace()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(
                contains("check-game")
                    .and(contains("doctor"))
                    .and(contains("completions")),
            );
    }
    gametrace()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(contains("tcsh").and(contains("bash")));
}

#[test]
#[cfg_attr(not(gametrace_man), ignore = "needs man: apt-get install man-db")]
fn man_renders_the_page_with_every_command() {
    require("man");
    let page = gametrace()
        .arg("man")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(page).unwrap();
    assert!(
        page.starts_with(".ie") || page.contains(".TH gametrace 1"),
        "{page}"
    );
    // man itself renders it (man -l reads a file; MANPAGER=cat prints it).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gametrace.1");
    std::fs::write(&file, &page).unwrap();
    let out = std::process::Command::new("man")
        .arg("-l")
        .arg(&file)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .expect("man is installed (Debian package man-db; .ci/run installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "NAME",
        "SYNOPSIS",
        "gametrace-check-game(1)",
        "--max-spec-size",
    ] {
        assert!(text.contains(line), "no {line} in:\n{text}");
    }
}

#[test]
fn man_dir_writes_a_page_for_each_command() {
    let dir = tempfile::tempdir().unwrap();
    gametrace()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr(contains("manual pages"));
    for page in [
        "gametrace.1",
        "gametrace-check.1",
        "gametrace-check-game.1",
        "gametrace-grade.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}: {text}");
    }
    let check_game = std::fs::read_to_string(dir.path().join("gametrace-check-game.1")).unwrap();
    assert!(check_game.contains("estimator"), "{check_game}");
    // No temporaries left beside the pages.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(name.ends_with(".1"), "{name}");
    }
    // A directory that does not exist: exit 2, with a hint, and nothing created.
    let missing = dir.path().join("share/man/man1");
    gametrace()
        .args(["man", "--dir"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(contains("no such directory").and(contains("mkdir -p")));
    assert!(!missing.exists());
}
