//! How the hostile tests run gametrace: as root in both of the sandbox's modes, and as an
//! ordinary user.

use std::path::Path;
use std::process::Command;

pub fn root() -> bool {
    // SAFETY: no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// How gametrace is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// As root, with the namespaces this machine allows.
    Namespaces,
    /// As root, as in a container that refuses namespaces (`GAMETRACE_SANDBOX=container`).
    Container,
    /// As an ordinary user (uid 65534, by `setpriv`), with the namespaces it may make.
    User,
    /// As an ordinary user in a container that refuses namespaces: a mode that cannot confine.
    UserContainer,
}

/// The modes a hostile test runs in: root's two and an ordinary user's when the tests run as
/// root (an ordinary user's alone otherwise). A missing `setpriv` as root is a failure, not
/// a silent skip.
pub fn modes() -> Vec<Mode> {
    if root() {
        super::cli::require("/usr/bin/setpriv");
        vec![Mode::Namespaces, Mode::Container, Mode::User]
    } else {
        vec![Mode::User]
    }
}

/// Root's two modes (none when the tests do not run as root).
pub fn root_modes() -> Vec<Mode> {
    modes().into_iter().filter(|m| *m != Mode::User).collect()
}

/// `gametrace` as `mode` runs it.
pub fn gametrace(mode: Mode) -> Command {
    let me = env!("CARGO_BIN_EXE_gametrace");
    let user = matches!(mode, Mode::User | Mode::UserContainer) && root();
    let mut cmd = if user {
        let mut c = Command::new("/usr/bin/setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(me)
            .env("HOME", "/tmp");
        c
    } else {
        Command::new(me)
    };
    if matches!(mode, Mode::Container | Mode::UserContainer) {
        cmd.env("GAMETRACE_SANDBOX", "container");
    }
    cmd
}

/// Makes `path` readable (and its folders passable) by every user, as a course folder an
/// autograder grades from is.
pub fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for p in walk(path) {
        let meta = std::fs::symlink_metadata(&p).unwrap();
        if meta.is_symlink() {
            continue;
        }
        let mode = meta.permissions().mode();
        let want = if meta.is_dir() || mode & 0o100 != 0 {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(want)).unwrap();
    }
}

fn walk(path: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![path.to_owned()];
    if path.is_dir() && !path.is_symlink() {
        for e in std::fs::read_dir(path).unwrap().flatten() {
            out.extend(walk(&e.path()));
        }
    }
    out
}
