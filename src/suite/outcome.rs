//! How one line of `gametrace test` came out: the workspace's one verdict,
//! [`Status`](crate::report::Status), and what goes with it. The totals, the human report
//! ([`render`]) and the machine formats ([`to_result`]) all read that one status.

use super::compare::Palette;
use crate::report::{CaseResult, Status};
use crate::search::deadline::TimedOut;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One line of the report: a case (or a spec that could not be loaded), its verdict, and
/// what the verdict says.
///
/// The fields are private and the constructors below are the only way to make one. Each
/// constructor pairs a status with what that status needs: a PASS with nothing, or with the
/// file `--bless` wrote; a FAIL with its diff; MISSING with the expected file; TIMEOUT with
/// its limit; ERROR with its message. So no outcome can hold a status with another status's
/// payload, and only an ERROR can be about a spec as a whole (no case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    spec: PathBuf,
    /// `None`: the spec itself (it could not be loaded).
    case: Option<String>,
    status: Status,
    says: Says,
}

/// What an outcome says besides its status word. Not a second verdict: the status is the
/// verdict, and a blessed case is a PASS that says which file it wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Says {
    Nothing,
    /// A FAIL's diff or explanation (lines indented), or an ERROR's message.
    Text(String),
    /// The expected file there is none of.
    Expected(PathBuf),
    /// The expected file `--bless` wrote: a new one, or an updated one.
    Wrote {
        expected: PathBuf,
        new: bool,
    },
    /// The time limit the search ran past.
    Limit(Duration),
}

impl Outcome {
    fn new(spec: &Path, case: Option<&str>, status: Status, says: Says) -> Outcome {
        Outcome {
            spec: spec.to_owned(),
            case: case.map(str::to_owned),
            status,
            says,
        }
    }

    /// The case matches what was expected.
    pub fn pass(spec: &Path, case: &str) -> Outcome {
        Outcome::new(spec, Some(case), Status::Pass, Says::Nothing)
    }

    /// `--bless` wrote the case's expected file (`new`, or updated): a PASS.
    pub fn blessed(spec: &Path, case: &str, expected: PathBuf, new: bool) -> Outcome {
        Outcome::new(
            spec,
            Some(case),
            Status::Pass,
            Says::Wrote { expected, new },
        )
    }

    /// The case differs from what was expected: `detail` is the diff or explanation.
    pub fn fail(spec: &Path, case: &str, detail: String) -> Outcome {
        Outcome::new(spec, Some(case), Status::Fail, Says::Text(detail))
    }

    /// The case has no expected file yet.
    pub fn missing(spec: &Path, case: &str, expected: PathBuf) -> Outcome {
        Outcome::new(spec, Some(case), Status::Missing, Says::Expected(expected))
    }

    /// The case's search ran past `limit` (nothing is compared or blessed).
    pub fn timed_out(spec: &Path, case: &str, limit: Duration) -> Outcome {
        Outcome::new(spec, Some(case), Status::Timeout, Says::Limit(limit))
    }

    /// The spec could not be loaded (no `case`), or a case's expected file could not be read
    /// or written.
    pub fn error(spec: &Path, case: Option<&str>, message: String) -> Outcome {
        Outcome::new(spec, case, Status::Error, Says::Text(message))
    }

    /// The verdict.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Did `--bless` write the case's expected file?
    pub fn blessed_a_file(&self) -> bool {
        matches!(self.says, Says::Wrote { .. })
    }

    /// What follows `: ` on the verdict's line, where the status has one line to say.
    fn line(&self) -> Option<String> {
        match &self.says {
            Says::Nothing | Says::Text(_) => None,
            Says::Expected(expected) => Some(format!(
                "no {} (run `gametrace test --bless` to write it)",
                expected.display()
            )),
            Says::Wrote { expected, new } => Some(format!(
                "wrote {} ({})",
                expected.display(),
                if *new { "new" } else { "updated" }
            )),
            Says::Limit(limit) => Some(timed_out_message(*limit)),
        }
    }
}

/// What a TIMEOUT says, and what to do about it.
fn timed_out_message(limit: Duration) -> String {
    format!(
        "the search {}; lower its depth, or raise `time_limit:` or --time-limit",
        TimedOut { limit }
    )
}

/// An outcome as a report's case result (for the machine-readable formats).
pub fn to_result(o: &Outcome) -> CaseResult {
    let case = o.case.as_deref().unwrap_or("(spec)");
    let result = CaseResult::new(&o.spec.display().to_string(), case, o.status, 1.0);
    match (&o.says, o.line()) {
        (_, Some(line)) => result.message(line),
        (Says::Text(message), None) if o.status == Status::Error => result
            .message(message.lines().next().unwrap_or("error").to_owned())
            .details(message.clone()),
        (Says::Text(detail), None) => result
            .message("differs from its expected trace")
            .details(detail.clone()),
        (_, None) => result.message("matches its expected trace"),
    }
}

/// The human report line(s) for one outcome.
pub fn render(o: &Outcome, palette: Palette) -> String {
    use anstyle::{AnsiColor, Style};
    let (word, color) = match o.blessed_a_file() {
        true => ("BLESSED", AnsiColor::Cyan),
        false => (o.status.word(), o.status.color()),
    };
    let padded = format!("{word:<8}");
    let painted = if palette.color {
        let s = Style::new().fg_color(Some(color.into())).bold();
        format!("{}{padded}{}", s.render(), s.render_reset())
    } else {
        padded
    };
    let what = match &o.case {
        Some(case) => format!("{} {case}", o.spec.display()),
        None => o.spec.display().to_string(),
    };
    let mut out = String::new();
    match (&o.says, o.line()) {
        (_, Some(line)) => {
            let _ = writeln!(out, "{painted}{what}: {line}");
        }
        (Says::Text(message), None) if o.status == Status::Error => {
            let _ = writeln!(out, "{painted}{what}");
            for line in message.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        (Says::Text(detail), None) => {
            let _ = writeln!(out, "{painted}{what}");
            out.push_str(detail);
        }
        (_, None) => {
            let _ = writeln!(out, "{painted}{what}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Totals;

    fn every_kind() -> Vec<Outcome> {
        let spec = Path::new("specs/a.yaml");
        vec![
            Outcome::pass(spec, "ab"),
            Outcome::blessed(spec, "ab", PathBuf::from("expected/a/ab.trace"), true),
            Outcome::blessed(spec, "ab", PathBuf::from("expected/a/ab.trace"), false),
            Outcome::fail(spec, "ab", "    -x\n    +y\n".to_owned()),
            Outcome::missing(spec, "ab", PathBuf::from("expected/a/ab.trace")),
            Outcome::timed_out(spec, "ab", Duration::from_secs(2)),
            Outcome::error(spec, Some("ab"), "cannot read it\nat all".to_owned()),
            Outcome::error(spec, None, "not YAML".to_owned()),
        ]
    }

    /// The three readers of an outcome (the totals, the human line and the machine formats)
    /// take its verdict from the one status, so they cannot disagree: before, each mapped
    /// the suite's own verdict type on its own.
    #[test]
    fn the_totals_the_human_line_and_the_reports_agree_on_the_status() {
        for o in every_kind() {
            let result = to_result(&o);
            assert_eq!(result.status, o.status(), "{o:?}");
            let line = render(&o, Palette { color: false });
            let word = line.split_whitespace().next().unwrap();
            let expected_word = if o.blessed_a_file() {
                "BLESSED"
            } else {
                o.status().word()
            };
            assert_eq!(word, expected_word, "{o:?}");
            let mut totals = Totals::default();
            totals.add(&o);
            assert_eq!(totals.passed, usize::from(result.status.passed()), "{o:?}");
            assert_eq!(totals.failed, usize::from(!result.status.passed()), "{o:?}");
            assert_eq!(totals.blessed, usize::from(o.blessed_a_file()), "{o:?}");
        }
    }

    /// A blessed case is a PASS in every report (its points and all), and says what it wrote.
    #[test]
    fn a_blessed_case_is_a_pass_that_says_what_it_wrote() {
        let o = Outcome::blessed(
            Path::new("specs/a.yaml"),
            "ab",
            PathBuf::from("expected/a/ab.trace"),
            false,
        );
        let result = to_result(&o);
        assert_eq!(result.status, Status::Pass);
        assert_eq!(result.points, 1.0);
        assert_eq!(result.message, "wrote expected/a/ab.trace (updated)");
        assert_eq!(
            render(&o, Palette { color: false }),
            "BLESSED specs/a.yaml ab: wrote expected/a/ab.trace (updated)\n"
        );
    }

    /// Only an ERROR is about a spec as a whole; it shows every line of its message, and the
    /// reports name its case `(spec)`.
    #[test]
    fn an_unloadable_spec_is_an_error_with_no_case() {
        let o = Outcome::error(
            Path::new("specs/a.yaml"),
            None,
            "line 1: bad\nline 2".to_owned(),
        );
        assert_eq!(
            render(&o, Palette { color: false }),
            "ERROR   specs/a.yaml\n    line 1: bad\n    line 2\n"
        );
        let result = to_result(&o);
        assert_eq!(
            (result.case.as_str(), result.message.as_str()),
            ("(spec)", "line 1: bad")
        );
        assert_eq!(result.details, "line 1: bad\nline 2");
    }
}
