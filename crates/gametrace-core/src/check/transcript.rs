//! Finding the value an implementation printed in a raw terminal transcript: an SML/NJ banner,
//! `[autoloading]`, `- ` prompts, compiler messages and debug prints around a
//! `val it = <value> : <type>` line (which SML/NJ may wrap over several lines), or a line that
//! is just a value. The last value wins.

use crate::notation::{parse, Value};

/// A value found in a transcript, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// 1-based line where the value starts.
    pub line: usize,
    /// That line, as printed.
    pub text: String,
    pub value: Value,
}

/// How many following lines a wrapped `val it = ...` may continue over.
const MAX_WRAP: usize = 200;

/// The last value in `transcript`, and how many lines were read.
pub fn last_value(transcript: &str) -> (Option<Found>, usize) {
    let lines: Vec<&str> = transcript.lines().collect();
    let mut found = None;
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches('\r');
        let body = line.trim_start_matches("- ").trim();
        let value = if let Some(rest) = body.strip_prefix("val it =") {
            binding_value(rest, &lines[i + 1..])
        } else if body.starts_with(['<', '[', '(', '"', '~', '-'])
            || body.starts_with(|c: char| c.is_ascii_digit())
            || matches!(body, "true" | "false")
            || body.starts_with("raise ")
        {
            parse(body).ok()
        } else {
            None
        };
        if let Some(value) = value {
            found = Some(Found {
                line: i + 1,
                text: line.to_owned(),
                value,
            });
        }
    }
    (found, lines.len())
}

/// SML/NJ wraps values at about 80 columns; a longer line is not a continuation.
const MAX_WRAPPED_LINE: usize = 1000;

/// The value of `val it = <value> : <type>`, joining continuation lines if SML/NJ wrapped it.
/// The work is bounded: at most [`MAX_WRAP`] short continuation lines, and only the last few
/// ` : ` (where the type starts) are tried.
fn binding_value(first: &str, next: &[&str]) -> Option<Value> {
    let mut text = first.trim().to_owned();
    let continuations = next
        .iter()
        .take(MAX_WRAP)
        .take_while(|l| l.len() <= MAX_WRAPPED_LINE && !l.trim_start().starts_with("val "));
    for extra in std::iter::once("").chain(continuations.copied()) {
        if !extra.is_empty() {
            text.push(' ');
            text.push_str(extra.trim());
        }
        let ends: Vec<usize> = text.match_indices(" : ").map(|(i, _)| i).collect();
        for &end in ends.iter().rev().take(3) {
            if let Ok(v) = parse(&text[..end]) {
                return Some(v);
            }
        }
        if let Ok(v) = parse(&text) {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_last_value_in_an_smlnj_session() {
        let t = "Standard ML of New Jersey v110.79 [built: Tue Aug  8 23:21:20 2017]\n\
                 - [autoloading]\n[library $SMLNJ-BASIS/basis.cm is stable]\n\
                 structure GraphSeq : GRAPHSEQ\n\
                 val it = () : unit\n\
                 debug: visiting 1\n\
                 - val it = <<1>,<0,2>,<1>> : int Seq.seq Seq.seq\n- \n";
        let (found, lines) = last_value(t);
        let found = found.unwrap();
        assert_eq!(lines, 8);
        assert_eq!(found.line, 7);
        assert_eq!(found.value.to_string(), "<<1>,<0,2>,<1>>");
    }

    #[test]
    fn joins_wrapped_values_and_reads_bare_ones() {
        let t = "val it =\n  <<1,2,3>,\n   <4>> : int Seq.seq Seq.seq\n";
        assert_eq!(last_value(t).0.unwrap().value.to_string(), "<<1,2,3>,<4>>");
        let t = "<0,3>\nsome noise\n";
        assert_eq!(last_value(t).0.unwrap().line, 1);
        assert!(last_value("nothing here\n").0.is_none());
        let t = "val it = \"a : b\" : string\n";
        assert_eq!(last_value(t).0.unwrap().value.to_string(), "\"a : b\"");
        // A hostile transcript: a value that never closes, followed by long lines, stays quick.
        let t = format!(
            "val it = <1,\n{}",
            format!("{}\n", "2,".repeat(400_000)).repeat(150)
        );
        assert!(last_value(&t).0.is_none());
        let t = "val it = \"a : b\" : string\n";
        assert_eq!(last_value(t).0.unwrap().value.to_string(), "\"a : b\"");
    }
}
