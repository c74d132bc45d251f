//! What this machine lets the tests do: run as root, and run the tools some tests need
//! (SML/NJ, a JDK, Python, Chromium, setpriv, GNU time, man, mkfifo, a C compiler).
//!
//! Each one found becomes a cfg (`gametrace_root`, `gametrace_sml`, ...), and a test that
//! needs one says so with `#[cfg_attr(not(gametrace_sml), ignore = "needs SML/NJ ...")]`:
//! where the tool is missing the test is listed as ignored, with its reason, never run and
//! passed without checking anything. CI sets `GAMETRACE_REQUIRE_ALL=1` (`.ci/run`): then every
//! cfg is on whatever the probe finds, and a test whose tool (or root) is missing fails, with
//! how to install it.
//!
//! The probe runs when this file, `PATH` or `GAMETRACE_REQUIRE_ALL` changes, when a tool it
//! found changes or goes, and, while a tool is missing, when a folder of `PATH` changes (a
//! tool installed there). Root is who runs the build; a test binary built as root and run as
//! someone else runs its root tests, which then fail (`tests/common/cli.rs`: `require_root`).

use std::path::{Path, PathBuf};

/// A cfg and the programs that give it: a bare name is looked for on `PATH`, a path is taken
/// as it is (the tests run `/usr/bin/setpriv` and `/usr/bin/time` by those paths).
const TOOLS: [(&str, &[&str]); 9] = [
    ("gametrace_sml", &["sml"]),
    ("gametrace_javac", &["javac"]),
    ("gametrace_python3", &["python3"]),
    (
        "gametrace_chromium",
        &["chromium", "chromium-browser", "google-chrome"],
    ),
    ("gametrace_setpriv", &["/usr/bin/setpriv"]),
    ("gametrace_time", &["/usr/bin/time"]),
    ("gametrace_man", &["man"]),
    ("gametrace_mkfifo", &["mkfifo"]),
    ("gametrace_cc", &["cc"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=GAMETRACE_REQUIRE_ALL");
    let require_all = std::env::var_os("GAMETRACE_REQUIRE_ALL").is_some_and(|v| v != "0");

    println!("cargo::rustc-check-cfg=cfg(gametrace_root)");
    if require_all || is_root() {
        println!("cargo:rustc-cfg=gametrace_root");
    }
    let mut missing = false;
    for (cfg, names) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        match names.iter().find_map(|n| find(n)) {
            Some(path) => {
                println!("cargo:rerun-if-changed={}", path.display());
                println!("cargo:rustc-cfg={cfg}");
            }
            None => {
                missing = true;
                if require_all {
                    println!("cargo:rustc-cfg={cfg}");
                }
            }
        }
    }
    if missing && !require_all {
        for dir in path_dirs() {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
    }
}

/// Does the build run as root (effective uid 0)? Read from `/proc` on Linux, from `id -u`
/// elsewhere; `false` where neither answers (Windows).
fn is_root() -> bool {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(uids) = status.lines().find_map(|l| l.strip_prefix("Uid:")) {
            return uids.split_whitespace().nth(1) == Some("0");
        }
    }
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.trim_ascii() == b"0")
}

/// `name` as the tests run it: a path if it is an executable file, else the first
/// executable file of that name in a folder of `PATH`.
fn find(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = Path::new(name);
        return executable(p).then(|| p.to_owned());
    }
    path_dirs()
        .into_iter()
        .map(|d| d.join(name))
        .find(|p| executable(p))
}

/// The absolute folders of `PATH` that exist, but `/` and the home folder (a relative one
/// would be looked for from wherever the test runs; cargo scans a watched folder whole).
fn path_dirs() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|d| {
            d.is_absolute() && d.is_dir() && d != Path::new("/") && Some(d) != home.as_ref()
        })
        .collect()
}

#[cfg(unix)]
fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn executable(p: &Path) -> bool {
    p.is_file()
}
