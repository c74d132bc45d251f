//! Whether this machine lets the sandbox's tests run as root and become an ordinary user, as
//! the root crate's build script says for the whole project's tests (see it): each one found
//! is a cfg (`gametrace_root`, `gametrace_setpriv`), and a test that needs it carries
//! `#[cfg_attr(not(gametrace_root), ignore = "needs root: ...")]`, so that where it is missing
//! the test is listed as ignored with its reason instead of passing unrun. In CI
//! (`GAMETRACE_REQUIRE_ALL=1`, set by `.ci/run`) both are on, and a test run without root or
//! setpriv fails.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=GAMETRACE_REQUIRE_ALL");
    let require_all = std::env::var_os("GAMETRACE_REQUIRE_ALL").is_some_and(|v| v != "0");
    println!("cargo::rustc-check-cfg=cfg(gametrace_root)");
    println!("cargo::rustc-check-cfg=cfg(gametrace_setpriv)");
    if require_all || is_root() {
        println!("cargo:rustc-cfg=gametrace_root");
    }
    let setpriv = std::path::Path::new("/usr/bin/setpriv");
    if setpriv.is_file() {
        println!("cargo:rerun-if-changed=/usr/bin/setpriv");
        println!("cargo:rustc-cfg=gametrace_setpriv");
    } else {
        if std::path::Path::new("/usr/bin").is_dir() {
            println!("cargo:rerun-if-changed=/usr/bin");
        }
        if require_all {
            println!("cargo:rustc-cfg=gametrace_setpriv");
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
