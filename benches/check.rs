//! `cargo bench --bench check`: `gametrace diff` against GNU diff on the same files in the same
//! run (a trace of about 1 million lines with 1% of its lines changed, and the same trace with
//! every line changed), and `gametrace check` on an SML/NJ transcript around a 100 000-line
//! trace. Both tools run as processes, output to /dev/null, so the comparison is like for like.
//! Peak memory (max RSS) is printed once per command when `/usr/bin/time` is there.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_gametrace");

/// The files, written once into a temporary directory that lives for the whole run.
struct Inputs {
    _dir: tempfile::TempDir,
    reference: PathBuf,
    one_percent: PathBuf,
    everywhere: PathBuf,
    spec: PathBuf,
    transcript: PathBuf,
}

/// A small linear congruential generator: the same changed lines on every machine.
fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 33
    }
}

fn trace_of(spec: &Path, case: &str) -> String {
    let out = Command::new(BIN)
        .args(["run"])
        .arg(spec)
        .args(["--case", case])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn inputs() -> Inputs {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bench.yaml");
    // Alpha-beta on 4^10 leaves prints the transcript's trace; minimax on 4^9 (below) about
    // 0.96 million S14 lines.
    std::fs::write(
        &spec,
        "tree: {generate: {branching: 4, depth: 10, seed: 7}}\n\
         cases:\n  ab: {algorithm: alphabeta, dialect: s14}\n",
    )
    .unwrap();
    let small = dir.path().join("small.yaml");
    std::fs::write(
        &small,
        "tree: {generate: {branching: 4, depth: 9, seed: 7}}\ncases:\n  mm: {algorithm: minimax, dialect: s14}\n",
    )
    .unwrap();
    let text = trace_of(&small, "mm");
    let lines: Vec<&str> = text.lines().collect();
    let mut next = lcg(2026);
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for _ in 0..lines.len() / 100 {
        let i = (next() as usize) % lines.len();
        changed[i] = match changed[i].find("Guess") {
            Some(_) => changed[i].replacen("Guess", "Guest", 1),
            None => format!("{} (changed)", changed[i]),
        };
    }
    let join = |ls: &[String]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let reference = dir.path().join("reference.trace");
    let one_percent = dir.path().join("one-percent.trace");
    let everywhere = dir.path().join("everywhere.trace");
    std::fs::write(&reference, &text).unwrap();
    std::fs::write(&one_percent, join(&changed)).unwrap();
    let all: Vec<String> = lines.iter().map(|l| format!("{l} x")).collect();
    std::fs::write(&everywhere, join(&all)).unwrap();

    // An SML/NJ session around the alpha-beta trace, with prompts and debug prints.
    let trace = trace_of(&spec, "ab");
    let mut t = String::from(
        "Standard ML of New Jersey v110.79 [built: Mon Oct  3 21:03:45 2022]\n\
         - [autoloading]\n[library $SMLNJ-BASIS/basis.cm is stable]\n[autoloading done]\n\
         structure Test : PLAYER\n- ",
    );
    for (i, line) in trace.lines().enumerate() {
        t.push_str(line);
        t.push('\n');
        if i % 1000 == 999 {
            t.push_str("debug: still searching\n");
        }
    }
    t.push_str("val it = 0 : Game.move\n- \n");
    let transcript = dir.path().join("transcript.txt");
    std::fs::write(&transcript, t).unwrap();
    eprintln!(
        "inputs: {} lines ({} MB); transcript of a {}-line trace ({} MB)",
        lines.len(),
        text.len() >> 20,
        trace.lines().count(),
        std::fs::metadata(&transcript).unwrap().len() >> 20
    );
    Inputs {
        _dir: dir,
        reference,
        one_percent,
        everywhere,
        spec,
        transcript,
    }
}

fn run_quiet(program: &str, args: &[&Path]) -> i32 {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .code()
        .unwrap_or(-1)
}

/// Peak memory of one run, from GNU time, if it is installed.
fn max_rss(program: &str, args: &[&str]) {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .output();
    if let Ok(out) = out {
        let err = String::from_utf8_lossy(&out.stderr);
        if let Some(kb) = err
            .lines()
            .last()
            .and_then(|l| l.trim().parse::<u64>().ok())
        {
            eprintln!("max RSS {:>7} MB  {program} {}", kb >> 10, args.join(" "));
        }
    }
}

fn diff(c: &mut Criterion) {
    let i = inputs();
    let s = |p: &PathBuf| p.display().to_string();
    for (name, other) in [("1pct", &i.one_percent), ("everywhere", &i.everywhere)] {
        max_rss(BIN, &["diff", &s(&i.reference), &s(other)]);
        max_rss("diff", &[&s(&i.reference), &s(other)]);
        let mut group = c.benchmark_group(format!("diff-1M-lines-{name}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        group.bench_function("gametrace diff", |b| {
            b.iter(|| assert_eq!(run_quiet(BIN, &[Path::new("diff"), &i.reference, other]), 1))
        });
        group.bench_function("GNU diff", |b| {
            b.iter(|| assert_eq!(run_quiet("diff", &[&i.reference, other]), 1))
        });
        group.finish();
    }
    let mut group = c.benchmark_group("check-transcript-100k");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let spec = s(&i.spec);
    let transcript = s(&i.transcript);
    max_rss(
        BIN,
        &["check", &spec, "--case", "ab", "--actual", &transcript],
    );
    group.bench_function("gametrace check", |b| {
        b.iter(|| {
            let status = Command::new(BIN)
                .args(["check", &spec, "--case", "ab", "--actual", &transcript])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(0));
        })
    });
    group.finish();
}

criterion_group!(benches, diff);
criterion_main!(benches);
