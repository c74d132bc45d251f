//! `gametrace explain`: a catalogued mistake's trace beside the reference's.

use super::common::*;
use crate::check::subject::with_subject;
use crate::spec::{self, Diagnostic};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// The spec file (YAML)
    pub spec: PathBuf,
    /// The case
    #[arg(long, value_name = "NAME")]
    pub case: String,
    /// The mistake (`gametrace bugs`), NAME or NAME:maxie / NAME:minnie for one player's
    /// nodes only; repeat it for two mistakes together
    #[arg(long, value_name = "BUG", required = true)]
    pub bug: Vec<String>,
    /// Print the mistaken trace alone, as a student's program with that mistake would
    #[arg(long)]
    pub trace: bool,
    /// Colour the diff (auto: when printing to a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

pub fn execute(a: Args) -> Exit {
    explain(&a.spec, &a.case, &a.bug, a.trace, a.color)
}

/// `gametrace explain`: a mistake's trace against the reference's, for one case.
fn explain(path: &Path, name: &str, bugs: &[String], alone: bool, color: ColorWhen) -> Exit {
    use crate::check::diagnose::variant_trace;
    use crate::diff::{self as engine, Lines};
    use crate::search::mistakes::Bug;
    use std::fmt::Write as _;
    let parsed: Result<Vec<Bug>, String> = bugs.iter().map(|b| Bug::parse(b)).collect();
    let parsed = match parsed {
        Ok(p) => p,
        Err(why) => {
            return Err(Diagnostic::new(path, why)
                .expected("a mistake of the catalogue: NAME, NAME:maxie or NAME:minnie")
                .found(format!("--bug {}", bugs.join(" --bug ")))
                .hint("`gametrace bugs` lists the catalogue")
                .into())
        }
    };
    let doc = spec::load(path)?;
    let traces = with_subject(&doc, name, |s| {
        Ok::<_, String>((variant_trace(s, &[])?, variant_trace(s, &parsed)?))
    });
    let (reference, mistaken) = match traces {
        Ok(Ok(t)) => t,
        Ok(Err(why)) => {
            return Err(Diagnostic::new(path, why)
                .expected("a mistake this case's searcher can make")
                .found(format!("--bug {}", bugs.join(" --bug ")))
                .hint(format!(
                    "`gametrace bugs {} --case {name}` lists them",
                    path.display()
                ))
                .into())
        }
        Err(d) => return Err(d.into()),
    };
    let text = if alone {
        mistaken
    } else {
        let mut t = String::new();
        for b in &parsed {
            let m = b.entry();
            let _ = writeln!(t, "{b}: {}", m.sentence);
            let _ = writeln!(t, "  the handout: {}", m.handout);
        }
        let (old, new) = (Lines::of(&reference, false), Lines::of(&mistaken, false));
        let d = engine::diff(&old, &new, engine::DEFAULT_DEADLINE);
        if d.is_same() {
            let _ = writeln!(
                t,
                "on case `{name}` this mistake prints the same trace as the reference ({} lines): the case cannot catch it",
                old.len()
            );
        } else {
            let shown = path.display();
            let names = (
                format!("reference: gametrace run {shown} --case {name}"),
                format!("with {}", bugs.join(" and ")),
            );
            t.push_str(&engine::unified(
                &old,
                &new,
                &d,
                (&names.0, &names.1),
                color.palette(),
            ));
        }
        t
    };
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(0),
        Err(e) => write_failed(e),
    }
}
