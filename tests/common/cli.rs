//! What the command-line tests share: `gametrace` run from the checkout, and the tools and
//! the root some tests need.
//!
//! A test that needs a tool or root says so twice: an attribute, so that where it is missing
//! the test is listed as ignored with its reason (the build script, `build.rs`, makes a cfg
//! of each tool and of root it finds), e.g.
//!
//! ```text
//! #[test]
//! #[cfg_attr(not(gametrace_sml), ignore = "needs SML/NJ (sml): apt-get install smlnj")]
//! fn an_sml_program() {
//!     require("sml");
//!     ...
//! ```
//!
//! and a [`require`] (or [`require_root`]) at its start, which fails at once, saying what to
//! install, where the build said the tool was there but it is not, and in CI, where
//! `GAMETRACE_REQUIRE_ALL=1` turns every cfg on: a missing tool is a failure there, never a
//! test skipped or passed without checking.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The checkout: every test runs gametrace from it, and reads its specs and fixtures by
/// paths relative to it.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `gametrace` binary of this build, run from the checkout.
pub fn gametrace() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("gametrace").unwrap();
    c.current_dir(ROOT);
    c
}

/// [`gametrace`], killed (and the test failed) if it runs longer than `limit`.
pub fn gametrace_within(limit: Duration) -> assert_cmd::Command {
    let mut c = gametrace();
    c.timeout(limit);
    c
}

/// How to install each tool a test may [`require`].
const INSTALL: [(&str, &str); 9] = [
    ("sml", "SML/NJ: apt-get install smlnj"),
    ("javac", "a JDK: apt-get install default-jdk-headless"),
    ("python3", "Python 3: apt-get install python3"),
    ("chromium", "headless Chromium: apt-get install chromium"),
    ("/usr/bin/setpriv", "setpriv: apt-get install util-linux"),
    ("/usr/bin/time", "GNU time: apt-get install time"),
    ("man", "man: apt-get install man-db"),
    ("mkfifo", "mkfifo: apt-get install coreutils"),
    ("cc", "a C compiler: apt-get install gcc"),
];

/// `name` as a test runs it: a path if it is an executable file, else the first executable
/// file of that name on `PATH` (as `build.rs` looks for it).
pub fn which(name: &str) -> Option<PathBuf> {
    #[cfg(unix)]
    let executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    #[cfg(not(unix))]
    let executable = |p: &Path| p.is_file();
    if name.contains('/') {
        let p = Path::new(name);
        return executable(p).then(|| p.to_owned());
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(name))
        .find(|p| executable(p))
}

/// Fails the test, saying how to install it, unless `tool` is there ([`which`]). Returns
/// where it is.
pub fn require(tool: &str) -> PathBuf {
    which(tool).unwrap_or_else(|| {
        let how = INSTALL
            .iter()
            .find(|(t, _)| *t == tool)
            .map_or("install it", |(_, how)| how);
        panic!("this test runs `{tool}`, which is missing: {how}, as .ci/run does")
    })
}

/// SML/NJ (`sml`) must be there: [`require`].
pub fn require_sml() {
    require("sml");
}

/// Fails the test unless it runs as root (the build ran as root, or CI asked for every test
/// with `GAMETRACE_REQUIRE_ALL=1`; a test built as root and run by someone else lands here).
#[cfg(unix)]
pub fn require_root() {
    // SAFETY: no preconditions.
    let euid = unsafe { libc::geteuid() };
    assert_eq!(
        euid, 0,
        "this test runs gametrace as root, as autograders do: run the tests as root (uid {euid} here)"
    );
}
