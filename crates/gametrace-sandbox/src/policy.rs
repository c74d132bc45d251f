//! What a program may read, run and write: a set computed from **canonical** paths (every
//! path that widens access is resolved with `realpath` first, so `/usr/..` is `/`), then
//! checked as a whole: no rule is ever given for `/`, and no rule is given for a folder that
//! holds a hidden path (the specs, the expected traces, the reports, gametrace itself, a
//! classmate): such a folder is replaced by rules for each of its other entries. What was
//! narrowed or refused, and why, is kept as notes, and `gametrace doctor --policy` prints the
//! whole set (`tests/sandbox_walk.rs` walks the file system from inside the sandbox and finds
//! nothing readable or writable outside it).
//!
//! Landlock holds the set in both modes; where the program runs as an unprivileged uid,
//! ordinary permissions hold too (a runtime under a private home is made reachable by the
//! mount namespace: see [`super::confine`]).

use super::{Policy, Scratch};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// The system's folders of programs, libraries and configuration: readable by any program.
/// (Anything else a runtime needs comes from where the runtime is installed.)
const SYSTEM: [&str; 9] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/nix/store",
];

/// Of `/sys`, what runtimes read: the CPUs and memory nodes (how many threads to start), the
/// cgroup (a JVM's heap), transparent huge pages (a JVM's and a GC's setting).
const SYS: [&str; 4] = [
    "/sys/devices/system/cpu",
    "/sys/devices/system/node",
    "/sys/fs/cgroup",
    "/sys/kernel/mm/transparent_hugepage",
];

/// Of the host's `/proc`, where the program has no `/proc` of its own (a container without
/// namespaces): the machine's figures, never a process's folder (a command line, an
/// environment, a working folder).
const PROC_FILES: [&str; 8] = [
    "/proc/cpuinfo",
    "/proc/meminfo",
    "/proc/stat",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/version",
    "/proc/filesystems",
    "/proc/sys",
];

/// Devices a program may read and write.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// `path` made absolute and canonical: its longest existing beginning resolved with
/// `realpath` (links and `..` gone), the rest appended as written (minus `.`, with `..`
/// applied). A path that does not exist yet (a report about to be written) still names the
/// place it will be.
pub fn resolve(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut existing = abs.clone();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                match Path::new(part).components().next() {
                    Some(Component::ParentDir) => {
                        out.pop();
                    }
                    Some(Component::CurDir) | None => {}
                    Some(_) => out.push(part),
                }
            }
            return out;
        }
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_owned());
                existing = parent.to_owned();
            }
            _ => {
                // `..` at the end of a path that does not exist: keep it for the next round.
                if existing.ends_with("..") {
                    rest.push("..".into());
                    existing.pop();
                    continue;
                }
                return abs;
            }
        }
    }
}

/// `path` with `.` and `..` taken out as written, no link followed (`/a/b/../c` is `/a/c`
/// even where `b` is a link).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether a `--sandbox-read` path may be given, resolved: never `/` (the whole disk).
pub fn readable_path(path: &Path) -> Result<PathBuf, String> {
    let real = resolve(path);
    if real.parent().is_none() {
        return Err(format!(
            "`{}` is the root of the file system (resolved: {}): a rule for it would make the whole disk readable",
            path.display(),
            real.display()
        ));
    }
    Ok(real)
}

/// One rule of the set.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rule {
    pub path: PathBuf,
    pub access: Access,
    /// Why the program may: "the system", "the runtime of python3", ...
    pub why: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    /// Read and run everything beneath (a folder) or the file itself.
    Read,
    /// List the folder (and, as Landlock's rights go, every folder beneath), read nothing:
    /// a folder holding a hidden path, whose other entries have rules of their own.
    List,
    /// Read, write, make and remove beneath (never a device node).
    Write,
    /// Read and write the file (a device such as `/dev/null`).
    ReadWrite,
}

impl Access {
    fn word(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::List => "list",
            Access::Write => "write",
            Access::ReadWrite => "read+write",
        }
    }
}

/// The whole set, as computed for one command.
#[derive(Clone, Debug, Default)]
pub struct FilePolicy {
    /// Final rules, in path order; a folder holding a hidden path has only a `List` rule.
    pub rules: Vec<Rule>,
    /// The paths no rule reaches, even inside a readable folder.
    pub hidden: Vec<PathBuf>,
    /// What was narrowed or refused, and why.
    pub notes: Vec<String>,
    /// Paths as the command line names them that pass through a link of the grader's (the
    /// rules hold their canonical places): where a folder on the way is covered for the
    /// program's uid, the links are made again so that the names still lead there.
    pub links: Vec<PathBuf>,
}

/// How the program's `/proc` comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcView {
    /// A `/proc` of its own PID namespace: all of it.
    Own,
    /// The host's: only the machine's figures.
    Host,
}

/// What goes into the set, before it is checked.
struct Wanted {
    rules: Vec<Rule>,
    hidden: Vec<PathBuf>,
    notes: Vec<String>,
    links: Vec<PathBuf>,
}

impl Wanted {
    fn add(&mut self, path: PathBuf, access: Access, why: impl Into<String>) {
        self.rules.push(Rule {
            path,
            access,
            why: why.into(),
        });
    }

    fn is_hidden(&self, p: &Path) -> bool {
        self.hidden.iter().any(|h| p.starts_with(h))
    }
}

impl FilePolicy {
    /// The set for a command whose grader wrote `words` (a `sh -c LINE` for a shell line; see
    /// [`super::Job::words`]), run in `dir` (gametrace's own working folder when `None`), with
    /// `scratch` and `policy`'s additions; `proc` says which `/proc` it sees.
    pub fn compute(
        words: &[String],
        dir: Option<&Path>,
        scratch: &Scratch,
        policy: &Policy,
        proc: ProcView,
    ) -> FilePolicy {
        let mut hidden: Vec<PathBuf> = policy.hidden.iter().map(|p| resolve(p)).collect();
        if let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) {
            // A cargo build's whole `target/` too: it holds hard links to the binary.
            if let Some(target) = me
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "target"))
            {
                hidden.push(target.to_owned());
            }
            hidden.push(me);
        }
        hidden.sort();
        hidden.dedup();
        let mut w = Wanted {
            rules: Vec::new(),
            hidden,
            notes: Vec::new(),
            links: Vec::new(),
        };
        for p in SYSTEM.iter().chain(&SYS) {
            if Path::new(p).exists() {
                w.add(p.into(), Access::Read, "the system");
            }
        }
        match proc {
            ProcView::Own => w.add("/proc".into(), Access::Read, "its own /proc"),
            ProcView::Host => {
                for p in PROC_FILES {
                    if Path::new(p).exists() {
                        w.add(p.into(), Access::Read, "the machine's figures in /proc");
                    }
                }
            }
        }
        for p in DEVICES {
            w.add(
                p.into(),
                Access::ReadWrite,
                "a device every program may use",
            );
        }
        w.add(
            scratch.path().to_owned(),
            Access::Write,
            "its private temp folder (HOME, TMPDIR)",
        );
        for p in &policy.writable {
            w.add(
                p.clone(),
                Access::Write,
                "its staged copy of the course folder",
            );
        }
        let base = dir
            .map(Path::to_owned)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        w.add(base.clone(), Access::Read, "its working folder");
        for p in &policy.readable {
            w.add(base.join(p), Access::Read, "--sandbox-read");
        }
        let own: Vec<PathBuf> = std::iter::once(resolve(&base))
            .chain(std::iter::once(resolve(scratch.path())))
            .chain(policy.writable.iter().map(|p| resolve(p)))
            .collect();
        let shell = words.len() == 3 && words[0] == "sh" && words[1] == "-c";
        w.command(words, shell, &base, &own);
        w.check()
    }

    /// Does a rule let the program read `path` (a canonical path)?
    pub fn may_read(&self, path: &Path) -> bool {
        self.rules.iter().any(|r| {
            matches!(r.access, Access::Read | Access::Write | Access::ReadWrite)
                && (path == r.path || (path.starts_with(&r.path) && r.path.is_dir()))
        })
    }

    /// Does a rule let the program write `path` (a canonical path)?
    pub fn may_write(&self, path: &Path) -> bool {
        self.rules.iter().any(|r| match r.access {
            Access::Write => path.starts_with(&r.path),
            Access::ReadWrite => path == r.path,
            _ => false,
        })
    }

    /// The set as `gametrace doctor --policy` prints it.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for r in &self.rules {
            let _ = writeln!(
                out,
                "  {:<10} {}  ({})",
                r.access.word(),
                r.path.display(),
                r.why
            );
        }
        if !self.hidden.is_empty() {
            out.push_str("never readable, even inside a folder above:\n");
            for h in &self.hidden {
                let _ = writeln!(out, "  {}", h.display());
            }
        }
        if !self.notes.is_empty() {
            out.push_str("narrowed or refused:\n");
            for n in &self.notes {
                let _ = writeln!(out, "  {n}");
            }
        }
        out
    }

    /// The Landlock rules: (path, rights) for each rule, the scratch folder left out when
    /// `skip` names it (its rule is added where it is mounted).
    pub fn landlock_rules(
        &self,
        abi: landlock::ABI,
        skip: Option<&Path>,
    ) -> Vec<(PathBuf, landlock::BitFlags<landlock::AccessFs>)> {
        use landlock::{Access as _, AccessFs};
        let read = AccessFs::from_read(abi);
        let mut out = Vec::new();
        for r in &self.rules {
            if skip == Some(r.path.as_path()) {
                continue;
            }
            let is_dir = r.path.is_dir();
            let rights = match r.access {
                Access::Read if is_dir => read,
                Access::Read => read & (AccessFs::ReadFile | AccessFs::Execute),
                Access::List => read & AccessFs::ReadDir,
                // Never a device node, even in its own folder.
                Access::Write if is_dir => {
                    AccessFs::from_all(abi) & !(AccessFs::MakeChar | AccessFs::MakeBlock)
                }
                Access::Write | Access::ReadWrite => AccessFs::from_file(abi),
            };
            out.push((r.path.clone(), rights));
        }
        out
    }
}

impl Wanted {
    /// The grader's words: programs (found on PATH) bring their runtime; paths bring
    /// themselves and, for a file, its folder (a script's modules sit beside it). A word with
    /// a placeholder in it brings nothing: its value is the run's own (a file of its temp
    /// folder, its submission), never the grader's choice.
    fn command(&mut self, words: &[String], shell: bool, base: &Path, own: &[PathBuf]) {
        let mut words: Vec<String> = words.to_vec();
        if shell {
            if let Some(line) = words.last().and_then(|l| shlex::split(l)) {
                words.extend(line);
            }
        }
        for (i, word) in words.iter().enumerate() {
            if word.contains('{') {
                continue;
            }
            for part in word.split([':', '=', ',']) {
                if part.is_empty() {
                    continue;
                }
                if !part.contains('/') {
                    // A program's name: its first word, or any word in a shell line.
                    if i == 0 || shell {
                        if let Some(found) = super::confine::on_path(part) {
                            self.program(&found, &format!("the runtime of {part}"));
                        }
                    }
                    if i == 0 {
                        continue;
                    }
                }
                let path = lexical(&resolve(base).join(part));
                if !path.exists() {
                    continue;
                }
                // A link in the program's own folders (its working folder, its temp folder, a
                // staged copy) is the student's: never followed to grant anything. A link in a
                // submission named like a word of the grader's command (`small.sml -> /tmp`)
                // would otherwise bring whatever it points to.
                let real = resolve(&path);
                if real != path && own.iter().any(|o| path.starts_with(o)) {
                    self.notes.push(format!(
                        "{} (named on the command line as {part}) leads through a link to {}: not granted; name the place itself",
                        path.display(),
                        real.display()
                    ));
                    continue;
                }
                // A program in the program's own folders is the student's: itself, never an
                // installation, and never what its `#!` names.
                let student = own.iter().any(|o| path.starts_with(o));
                if i == 0 && !student {
                    self.program(&path, &format!("the program {part}"));
                }
                if i == 0 && student {
                    self.script_note(&path);
                }
                if real != path {
                    self.links.push(path.clone());
                }
                self.named(path, part);
            }
        }
    }

    /// A path the command line names: readable, and for a file its folder too.
    fn named(&mut self, path: PathBuf, word: &str) {
        if path.is_dir() {
            self.add(
                path,
                Access::Read,
                format!("named on the command line ({word})"),
            );
            return;
        }
        if let Some(dir) = path.parent() {
            self.add(
                dir.to_owned(),
                Access::Read,
                format!("the folder of {word}, named on the command line"),
            );
        }
        self.add(
            path,
            Access::Read,
            format!("named on the command line ({word})"),
        );
    }

    /// A program the grader named: itself and the installation it belongs to
    /// (`.../bin/python3` → `...`), each from its canonical path. What a script's `#!` names is
    /// never granted (a student's file would choose its own rules): a script whose
    /// interpreter lies outside the rest of the set is noted, for `doctor --policy`.
    fn program(&mut self, path: &Path, why: &str) {
        let mut seen = BTreeSet::new();
        // The program as named and where it leads (/usr/bin/python3 -> python3.11): a link in
        // the program's own folders never gets here (see `command`).
        let real = resolve(path);
        let leads = (real != path).then_some(real);
        for p in std::iter::once(path.to_owned()).chain(leads) {
            if !seen.insert(p.clone()) {
                continue;
            }
            self.add(p.clone(), Access::Read, why);
            if let Some(root) = installation(&p) {
                self.add(root, Access::Read, format!("the installation of {why}"));
            }
            self.script_note(&p);
        }
    }

    /// Notes a script whose `#!` interpreter (an absolute path, as the kernel reads it) is
    /// not in the system's folders: nothing is granted for it, so name it on the command line
    /// (`python3 ./run`) or with `--sandbox-read`.
    fn script_note(&mut self, program: &Path) {
        let Some(interpreter) = shebang(program) else {
            return;
        };
        let system = SYSTEM
            .iter()
            .filter_map(|s| std::fs::canonicalize(s).ok())
            .any(|s| resolve(&interpreter).starts_with(s));
        if !system {
            self.notes.push(format!(
                "the script {} names `{}` in its #! line: a script's own words never widen what the program may read; name the interpreter on the command line (`{} {}`) or let it be read with --sandbox-read",
                program.display(),
                interpreter.display(),
                interpreter.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                program.display()
            ));
        }
    }

    /// The rules, checked as a whole: canonical, never `/`, never a folder holding a hidden
    /// path (replaced by rules for its other entries), never a hidden path itself; sorted,
    /// and each path once (the widest access wins).
    fn check(mut self) -> FilePolicy {
        let mut rules: Vec<Rule> = Vec::new();
        let wanted = std::mem::take(&mut self.rules);
        for r in wanted {
            let canonical = resolve(&r.path);
            if canonical != r.path && r.why != "the system" {
                self.notes.push(format!(
                    "{} was not canonical ({}): resolved first",
                    r.path.display(),
                    canonical.display()
                ));
            }
            let r = Rule {
                path: canonical,
                ..r
            };
            if r.path.parent().is_none() {
                self.notes.push(format!(
                    "refused a rule for / ({}): it would make the whole disk readable",
                    r.why
                ));
                continue;
            }
            if self.is_hidden(&r.path) {
                if r.access != Access::ReadWrite {
                    self.notes.push(format!(
                        "{} is hidden: no rule for it ({})",
                        r.path.display(),
                        r.why
                    ));
                }
                continue;
            }
            if self.hidden.iter().any(|h| h.starts_with(&r.path)) && r.path.is_dir() {
                self.notes.push(format!(
                    "{} holds a hidden path: listed only, each other entry readable on its own ({})",
                    r.path.display(),
                    r.why
                ));
                self.narrow(&r, &mut rules);
                continue;
            }
            rules.push(r);
        }
        rules.sort();
        // Each path once, with its widest access (Write > ReadWrite > Read > List).
        let rank = |a: Access| match a {
            Access::List => 0,
            Access::Read => 1,
            Access::ReadWrite => 2,
            Access::Write => 3,
        };
        let mut merged: Vec<Rule> = Vec::new();
        for r in rules {
            match merged.iter_mut().find(|m| m.path == r.path) {
                Some(m) if rank(r.access) > rank(m.access) => *m = r,
                Some(_) => {}
                None => merged.push(r),
            }
        }
        FilePolicy {
            rules: merged,
            hidden: self.hidden,
            notes: self.notes,
            links: self.links,
        }
    }

    /// Rules for the folder `r` holds a hidden path: `List` on the folder, `r`'s access on
    /// each other entry (a folder holding a hidden path in its turn narrowed the same way).
    fn narrow(&self, r: &Rule, out: &mut Vec<Rule>) {
        out.push(Rule {
            path: r.path.clone(),
            access: Access::List,
            why: r.why.clone(),
        });
        let Ok(entries) = std::fs::read_dir(&r.path) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            // A link grants nothing: what it points to is reachable only where a rule of
            // its own reaches it (Landlock judges the place a link leads to).
            if self.is_hidden(&path) || path.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
                continue;
            }
            let entry = Rule {
                path,
                access: r.access,
                why: r.why.clone(),
            };
            if self.hidden.iter().any(|h| h.starts_with(&entry.path)) && entry.path.is_dir() {
                if entry.path.starts_with(&r.path) && entry.path != r.path {
                    self.narrow(&entry, out);
                }
                continue;
            }
            out.push(entry);
        }
    }
}

/// The installation a program belongs to: the folder above its `bin/` (or pyenv's `shims/`),
/// else its own folder; never `/` or a home directory as a whole.
pub(crate) fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let root = match dir.file_name().and_then(|n| n.to_str()) {
        Some("bin" | "sbin" | "shims" | "libexec") => dir.parent()?,
        _ => dir,
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if root.components().count() < 3 || Some(root) == home.as_deref() {
        // `/usr/bin` → `/usr` is a system folder, already readable; `/home/x/bin` → the
        // folder of the program only.
        return if dir.components().count() >= 2 && Some(dir) != home.as_deref() {
            Some(dir.to_owned())
        } else {
            None
        };
    }
    Some(root.to_owned())
}

/// The interpreter a script's `#!` line names, as written (`/usr/bin/env` for
/// `#!/usr/bin/env python3`); `None` for a program that is not a script. Read only to say so
/// (see [`Wanted::script_note`]): nothing of it is granted.
fn shebang(program: &Path) -> Option<PathBuf> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut head = [0u8; 256];
    // Never blocks and never reads a device: opened without waiting (a FIFO named as the
    // program would hold gametrace, as root, for ever), then read only if a regular file.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(program)
        .ok()
        .filter(|f| f.metadata().is_ok_and(|m| m.is_file()));
    let n = opened.and_then(|mut f| f.read(&mut head).ok())?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = String::from_utf8_lossy(line.split(|&b| b == b'\n').next().unwrap_or(&[]));
    line.split_whitespace().next().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_resolved_even_where_it_does_not_exist_yet() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(resolve(&dir.path().join("a/b/../c")), real.join("a/c"));
        assert_eq!(resolve(Path::new("/usr/..")), PathBuf::from("/"));
        assert_eq!(resolve(&dir.path().join("x/..")), real);
    }

    #[test]
    fn an_installation_is_the_folder_above_bin() {
        assert_eq!(
            installation(Path::new("/opt/py/3.11/bin/python3")),
            Some(PathBuf::from("/opt/py/3.11"))
        );
        assert_eq!(
            installation(Path::new("/root/.pyenv/shims/python3")),
            Some(PathBuf::from("/root/.pyenv"))
        );
        assert_eq!(
            installation(Path::new("/bin/sh")),
            Some(PathBuf::from("/bin"))
        );
    }

    fn rules_for(argv: &[&str], dir: &Path, hidden: Vec<PathBuf>) -> FilePolicy {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        let scratch = Scratch::new().unwrap();
        let policy = Policy {
            hidden,
            ..Policy::default()
        };
        FilePolicy::compute(&argv, Some(dir), &scratch, &policy, ProcView::Host)
    }

    /// `#!/usr/../bin/sh` names `/bin/sh` by way of `/`: resolved first, it brings the
    /// system's shell and nothing else; no rule is `/`, and the hidden folder stays hidden.
    #[test]
    fn a_shebang_through_dot_dot_brings_no_rule_for_root() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let grader = dir.path().join("grader");
        std::fs::create_dir(&grader).unwrap();
        std::fs::write(grader.join("secret"), "x").unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let run = sub.join("run");
        std::fs::write(&run, "#!/usr/../bin/sh\ncat /grader/secret\n").unwrap();
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
        let p = rules_for(&["./run"], &sub, vec![grader.clone()]);
        assert!(
            p.rules.iter().all(|r| r.path != Path::new("/")),
            "{}",
            p.describe()
        );
        assert!(
            !p.may_read(&resolve(&grader.join("secret"))),
            "{}",
            p.describe()
        );
        assert!(p.may_read(&resolve(&run)));
    }

    /// A folder that holds a hidden path is never granted whole: it is listed, and each
    /// other entry is granted on its own.
    #[test]
    fn a_folder_holding_a_hidden_path_is_narrowed() {
        let dir = tempfile::tempdir().unwrap();
        let root = resolve(dir.path());
        std::fs::create_dir_all(root.join("specs")).unwrap();
        std::fs::write(root.join("specs/x.yaml"), "x").unwrap();
        std::fs::write(root.join("ab.py"), "x").unwrap();
        let p = rules_for(&["cat"], &root, vec![root.join("specs")]);
        assert!(!p.may_read(&root.join("specs/x.yaml")), "{}", p.describe());
        assert!(p.may_read(&root.join("ab.py")), "{}", p.describe());
        assert!(p
            .rules
            .iter()
            .any(|r| r.path == root && r.access == Access::List));
    }

    /// `--sandbox-read /` (or anything resolving to it) is refused.
    #[test]
    fn reading_the_root_is_refused() {
        assert!(readable_path(Path::new("/")).is_err());
        assert!(readable_path(Path::new("/usr/..")).is_err());
        assert!(readable_path(Path::new("/usr")).is_ok());
    }
}
