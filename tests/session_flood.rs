//! A driver that prints answers far faster than gametrace asks for them (a hostile or broken
//! `check-game` driver): the lines read ahead of gametrace are bounded, so the program waits on
//! its pipe and gametrace's memory does not grow with the flood. Its own test binary, so that
//! no other test's allocations move the resident size it measures.

use gametrace::sandbox::{Job, Limits, Policy, Scratch, Session};
use std::time::Duration;

/// This process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_driver_flooding_answers_cannot_fill_gametraces_memory() {
    let scratch = Scratch::new().unwrap();
    let policy = Policy::default();
    let argv: Vec<String> = vec!["yes".into(), "@gt \"ok\"".into()];
    let job = Job {
        argv: &argv,
        words: &argv,
        stdin: None,
        dir: None,
        limits: Limits {
            timeout: Duration::from_secs(5),
            ..Limits::default()
        },
        scratch: &scratch,
        policy: &policy,
    };
    let is = |l: &str| l.starts_with("@gt ");
    let mut s = Session::start(job, &[]).unwrap();
    assert_eq!(s.answer(is).unwrap(), "@gt \"ok\"");
    let before = resident_kib();
    // gametrace busy elsewhere for a second; `yes` prints hundreds of MB a second.
    std::thread::sleep(Duration::from_secs(1));
    let grown = resident_kib().saturating_sub(before);
    assert!(
        grown < 16 * 1024,
        "gametrace grew by {grown} KiB while the driver flooded"
    );
    // The answers are still there to be read, in order.
    for _ in 0..5000 {
        assert_eq!(s.answer(is).unwrap(), "@gt \"ok\"");
    }
}
