//! Which protections this machine allows: found once per run by starting `sh -c 'exit 0'`
//! under each layer, so what gametrace says is in force is what it has seen work.

use super::cgroup::{self, CgroupKind};
use super::confine::{Identity, Layers, Plan};
use super::identity::Seat;
use super::{Job, Limits, Policy, Scratch};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// A protection, as `gametrace doctor` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Identity,
    Files,
    Network,
    Orphans,
    Disk,
    Processes,
    Memory,
    OtherLimits,
}

/// What is in force, and why anything is not.
#[derive(Clone, Debug)]
pub struct Protections {
    pub layers: Layers,
    /// The Landlock ABI version the kernel offers (0: none).
    pub landlock_abi: i64,
    /// Each protection: whether it holds, and how (or why not).
    pub lines: Vec<(Layer, bool, String)>,
}

impl Protections {
    /// Is every protection in force?
    pub fn complete(&self) -> bool {
        self.lines.iter().all(|(_, ok, _)| *ok)
    }

    /// The protections missing, by name.
    pub fn missing(&self) -> Vec<&'static str> {
        self.lines
            .iter()
            .filter(|(_, ok, _)| !ok)
            .map(|(l, _, _)| l.name())
            .collect()
    }

    /// One line for a report: `landlock, seccomp, user+net+pid namespaces, cgroup v1`.
    pub fn summary(&self) -> String {
        let l = &self.layers;
        let mut parts = Vec::new();
        if l.landlock {
            parts.push(format!("landlock v{}", self.landlock_abi));
        }
        if l.seccomp {
            parts.push("seccomp".to_owned());
        }
        let mut ns = Vec::new();
        if l.user_namespace {
            ns.push("user");
        }
        if l.mount_namespace {
            ns.push("mount");
        }
        if l.network_namespace {
            ns.push("net");
        }
        if l.pid_namespace {
            ns.push("pid");
        }
        if !ns.is_empty() {
            parts.push(format!("{} namespaces", ns.join("+")));
        }
        match l.cgroup {
            Some(CgroupKind::V1) => parts.push("cgroup v1".to_owned()),
            Some(CgroupKind::V2) => parts.push("cgroup v2".to_owned()),
            None => {}
        }
        parts.push("rlimits".to_owned());
        let mut s = parts.join(", ");
        let missing = self.missing();
        if !missing.is_empty() {
            let _ = write!(s, "; MISSING: {}", missing.join(", "));
        }
        s
    }

    /// The report of `gametrace doctor`.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (layer, ok, how) in &self.lines {
            let _ = writeln!(
                out,
                "{:<4} {:<13} {how}",
                if *ok { "ok" } else { "NO" },
                layer.name()
            );
        }
        out
    }
}

impl Layer {
    pub fn name(self) -> &'static str {
        match self {
            Layer::Identity => "identity",
            Layer::Files => "files",
            Layer::Network => "network",
            Layer::Orphans => "orphans",
            Layer::Disk => "disk",
            Layer::Processes => "processes",
            Layer::Memory => "memory",
            Layer::OtherLimits => "other limits",
        }
    }
}

/// The protections of this machine (probed on first use).
pub fn protections() -> &'static Protections {
    static FOUND: OnceLock<Protections> = OnceLock::new();
    FOUND.get_or_init(probe)
}

/// Starts `sh -c 'exit 0'` under `layers`: does it run and exit 0?
fn works(layers: Layers) -> Result<(), String> {
    let scratch = Scratch::new().map_err(|e| e.to_string())?;
    let limits = Limits::default();
    let cgroup = match layers.cgroup {
        Some(kind) => {
            Some(cgroup::make_cgroup(kind, &limits).ok_or("cannot create a cgroup".to_owned())?)
        }
        None => None,
    };
    let (cgroup, procs) = match cgroup {
        Some((c, p)) => (Some(c), p),
        None => (None, Vec::new()),
    };
    let argv = ["/bin/sh".to_owned(), "-c".to_owned(), "exit 0".to_owned()];
    let policy = Policy::default();
    let job = Job {
        argv: &argv,
        words: &argv,
        stdin: None,
        dir: None,
        limits,
        scratch: &scratch,
        policy: &policy,
    };
    let seat = if rustix::process::geteuid().is_root() {
        Some(Seat::take().map_err(|e| e.to_string())?)
    } else {
        None
    };
    let identity = seat
        .as_ref()
        .map_or(Identity::Same, |s| Identity::Seat(s.uid()));
    let mut plan = Plan::new(layers, &job, identity, procs).map_err(|e| e.to_string())?;
    let mut cmd = std::process::Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: Plan::enter makes system calls only.
        unsafe {
            cmd.pre_exec(move || plan.enter());
        }
    }
    let status = cmd.status().map_err(|e| e.to_string());
    drop(seat);
    drop(cgroup);
    match status? {
        s if s.success() => Ok(()),
        s => Err(format!("the test program ended with {s}")),
    }
}

pub(crate) fn landlock_abi() -> i64 {
    // SAFETY: LANDLOCK_CREATE_RULESET_VERSION with a null attribute only asks the version.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    v.max(0)
}

fn probe() -> Protections {
    let none = Layers::default();
    let mut layers = none;
    // SAFETY: no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let abi = landlock_abi();
    let landlock = if abi < 1 {
        Err("the kernel has no Landlock (Linux 5.13 or later with landlock in the `lsm=` boot list)".to_owned())
    } else {
        works(Layers {
            landlock: true,
            ..none
        })
    };
    layers.landlock = landlock.is_ok();
    let seccomp = works(Layers {
        seccomp: true,
        ..none
    });
    layers.seccomp = seccomp.is_ok();
    let ns_note = namespaces(&mut layers, root);
    let cgroup_note = cgroup(&mut layers, root);
    let files = match &landlock {
        Ok(()) => format!(
            "Landlock ABI {abi}: reads only the system, its language runtime, its submission and the files its command names; writes only its private temp directory; the specs, expected traces, reports and gametrace itself are out of reach"
        ),
        Err(e) => format!("no Landlock ({e}): the program can read and write whatever your user can"),
    };
    let lines = vec![
        identity_line(&layers, root, &ns_note),
        (Layer::Files, layers.landlock, files),
        network_line(&layers, abi >= 4, &ns_note, seccomp.err()),
        orphans_line(&layers, root, &ns_note),
        disk_line(&layers),
        processes_line(&layers, root, &cgroup_note),
        (
            Layer::Memory,
            true,
            if layers.cgroup.is_some() {
                "a cgroup's limit for the whole command (--memory-limit): a program past it is killed by the kernel and counted".to_owned()
            } else {
                "RLIMIT_DATA for each process (--memory-limit)".to_owned()
            },
        ),
        (
            Layer::OtherLimits,
            true,
            "CPU time (--cpu-limit), file size (--file-size-limit), open files (--open-files-limit), no core dumps".to_owned(),
        ),
    ];
    Protections {
        layers,
        landlock_abi: abi,
        lines,
    }
}

/// The namespaces this machine allows, set in `layers`; and what to say where it allows
/// none.
fn namespaces(layers: &mut Layers, root: bool) -> String {
    let none = Layers::default();
    // `GAMETRACE_SANDBOX=container` probes as if namespaces were refused (Docker's default
    // profile refuses them): to see, and to test, what a container's sandbox holds.
    let container = std::env::var("GAMETRACE_SANDBOX").is_ok_and(|v| v == "container");
    let mut ns_note = String::new();
    // Root makes the namespaces itself (its programs run as a uid of their own, set once
    // the namespaces are ready); an ordinary user needs a user namespace to make them.
    let tries: Vec<bool> = if container { Vec::new() } else { vec![!root] };
    for user in tries {
        let try_ns = Layers {
            user_namespace: user,
            network_namespace: true,
            pid_namespace: true,
            ..none
        };
        match works(try_ns) {
            Ok(()) => {
                layers.user_namespace = user;
                layers.network_namespace = true;
                layers.pid_namespace = true;
                break;
            }
            Err(e) => ns_note = e,
        }
    }
    if !layers.pid_namespace && !container {
        for (net, pid) in [(true, false), (false, true)] {
            let try_ns = Layers {
                user_namespace: !root,
                network_namespace: net,
                pid_namespace: pid,
                ..none
            };
            if works(try_ns).is_ok() {
                layers.user_namespace = !root;
                layers.network_namespace = net;
                layers.pid_namespace = pid;
                break;
            }
        }
    }
    if layers.pid_namespace
        && works(Layers {
            mount_namespace: true,
            ..*layers
        })
        .is_ok()
    {
        layers.mount_namespace = true;
    }
    if container {
        "namespaces are not used: GAMETRACE_SANDBOX=container".to_owned()
    } else if ns_note.is_empty() {
        "namespaces are not allowed here (as in most containers)".to_owned()
    } else {
        format!("namespaces are not allowed here, as in most containers ({ns_note})")
    }
}

/// The cgroup gametrace may make here (root only, see cgroup::Cgroup: the whole command's
/// memory), set in `layers`; and what to say where it may not.
fn cgroup(layers: &mut Layers, root: bool) -> String {
    let kinds: &[CgroupKind] = if std::path::Path::new("/sys/fs/cgroup/cgroup.controllers").exists()
    {
        &[CgroupKind::V2]
    } else {
        &[CgroupKind::V1]
    };
    let mut cgroup_note = "gametrace may not create a cgroup here".to_owned();
    for &kind in kinds.iter().filter(|_| root) {
        match works(Layers {
            cgroup: Some(kind),
            ..Layers::default()
        }) {
            Ok(()) => {
                layers.cgroup = Some(kind);
                break;
            }
            Err(e) => cgroup_note = format!("gametrace may not create a cgroup here ({e})"),
        }
    }
    cgroup_note
}

fn identity_line(layers: &Layers, root: bool, ns_note: &str) -> (Layer, bool, String) {
    let namespaced = layers.mount_namespace && layers.pid_namespace;
    let same_uid_unconfined = !root && !namespaced;
    let identity = if same_uid_unconfined {
        format!("your own user, with no namespaces of its own ({ns_note}): it could change the permissions, times and attributes of your files, which Landlock does not look at, so gametrace refuses to run student code here (run as root in the container, allow user namespaces, or pass --no-sandbox for a program you trust)")
    } else if !root {
        "your own user, with no capabilities, in namespaces of its own (a user namespace): every mount read-only but its temp folder, so your files' permissions and times stay as they are".to_owned()
    } else {
        format!(
            "a uid of its own for each run, {}-{} (never root, inside or outside its namespaces), unprivileged on the host, with every capability dropped (the bounding set too) and no_new_privs; everything still running as that uid when the run ends is killed. Its submission must be readable by every user{}",
            super::identity::FIRST,
            super::identity::FIRST + super::identity::COUNT - 1,
            if layers.mount_namespace {
                " (a runtime under a private folder, as pyenv's in /root, is reached through the mount namespace)"
            } else {
                ", and its language runtime runnable by every user"
            }
        )
    };
    (Layer::Identity, !same_uid_unconfined, identity)
}

fn network_line(
    layers: &Layers,
    tcp: bool,
    ns_note: &str,
    seccomp: Option<String>,
) -> (Layer, bool, String) {
    let mut net = Vec::new();
    if layers.network_namespace {
        net.push("a network namespace (no interfaces)".to_owned());
    }
    if layers.seccomp {
        net.push(
            "seccomp (an Internet socket is refused with \"Network is unreachable\": a program that then fails gets the verdict NETWORK)".to_owned(),
        );
    }
    if layers.landlock && tcp {
        net.push("Landlock (no TCP connect or bind)".to_owned());
    }
    (
        Layer::Network,
        !net.is_empty(),
        if net.is_empty() {
            format!(
                "no protection: {}; no seccomp ({})",
                ns_note,
                seccomp.unwrap_or_default()
            )
        } else {
            net.join(" + ")
        },
    )
}

fn orphans_line(layers: &Layers, root: bool, ns_note: &str) -> (Layer, bool, String) {
    let seat_kill = if root {
        "; and every process still running as its uid is killed"
    } else {
        ""
    };
    (
        Layer::Orphans,
        true,
        if layers.pid_namespace && layers.mount_namespace {
            format!("PID, IPC and mount namespaces with its own /proc (no process outside is visible): whatever the program leaves behind, processes and SysV objects, dies with it, and is counted in its report{seat_kill}")
        } else if layers.pid_namespace {
            format!("PID and IPC namespaces: whatever the program leaves behind dies with it{seat_kill}; the host's /proc stays (no mount namespace)")
        } else {
            format!(
                "gametrace kills its process group, every process carrying its marker and every orphan it inherits (as a subreaper){seat_kill}; SysV IPC is refused; no PID namespace: {ns_note}"
            )
        },
    )
}

fn disk_line(layers: &Layers) -> (Layer, bool, String) {
    (
        Layer::Disk,
        true,
        if layers.mount_namespace {
            "its temp folder is a tmpfs of --disk-limit's size in its own mount namespace (the kernel refuses the byte past it, fallocate too); a staged course folder is measured every 100 ms and at the end; every file is under RLIMIT_FSIZE (--file-size-limit)".to_owned()
        } else {
            "its temp folder and a staged course folder are measured every 100 ms and at the end (no mount namespace for a tmpfs); fallocate is refused, so space is only taken by writing; every file is under RLIMIT_FSIZE (--file-size-limit)".to_owned()
        },
    )
}

fn processes_line(layers: &Layers, root: bool, cgroup_note: &str) -> (Layer, bool, String) {
    let how = match (layers.cgroup, root) {
        (Some(_), _) => "RLIMIT_NPROC for its uid (--process-limit), and a cgroup's pids.max for the whole command".to_owned(),
        (None, false) => "RLIMIT_NPROC: processes of your user (--process-limit)".to_owned(),
        (None, true) => format!("RLIMIT_NPROC for its uid, which no other run shares (--process-limit); {cgroup_note}"),
    };
    (Layer::Processes, true, how)
}
