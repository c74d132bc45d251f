//! Reports: the core's ([`gametrace_core::report`]: results, every format), and what running
//! programs adds from the sandbox: a limit's verdict, and the note on what confined the
//! commands a report judged. It lives here, in the first crate that has both the core and the
//! sandbox; the command line's `gametrace::report` is this module.

pub use gametrace_core::report::*;

use crate::sandbox::{Limit, Policy};

/// The verdict of a command stopped by one of the sandbox's limits.
pub fn limit_status(limit: Limit) -> Status {
    match limit {
        Limit::Memory(_) => Status::MemoryLimit,
        Limit::Cpu(_) => Status::CpuLimit,
        Limit::Processes(_) => Status::ProcessLimit,
        Limit::FileSize(_) => Status::FileSizeLimit,
        Limit::Disk(_) => Status::DiskLimit,
        Limit::Network => Status::Network,
    }
}

/// The note for commands run under `policy`, warning on stderr (once a run) when the
/// sandbox is off or a protection is missing: never silently less safe.
pub fn sandbox_note(policy: &Policy) -> SandboxNote {
    static WARNED: std::sync::Once = std::sync::Once::new();
    if policy.off {
        WARNED.call_once(|| {
            eprintln!("warning: --no-sandbox: student code runs with your user's rights (it can read the specs and expected traces, write your files and use the network) and without memory, CPU or process limits");
        });
        return SandboxNote {
            on: false,
            protections: "off (--no-sandbox)".to_owned(),
            missing: Vec::new(),
        };
    }
    if let Some(system) = crate::sandbox::unsandboxed_system() {
        WARNED.call_once(|| eprintln!("warning: no sandbox on {system}: run only your own code"));
        return SandboxNote {
            on: false,
            protections: format!("none (no sandbox on {system})"),
            missing: Vec::new(),
        };
    }
    let p = crate::sandbox::protections();
    let missing = p.missing();
    if !missing.is_empty() {
        WARNED.call_once(|| {
            eprintln!(
                "warning: the sandbox for student code lacks on this machine: {} (`gametrace doctor` says why)",
                missing.join(", ")
            );
        });
    }
    SandboxNote {
        on: true,
        protections: p.summary(),
        missing,
    }
}
