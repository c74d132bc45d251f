//! The HTML report: one self-contained page (inline CSS and SVG, nothing fetched) that a
//! student opens in a browser, on a phone too. Each case has its verdict; a failure has the
//! place it first parts from the reference, the tree with the output's states and that place
//! marked, the lines side by side with the changed words marked, and the diagnosis.

use super::{number, CaseResult, Report, Status};
use crate::diff::{changed_words, Row, Span};
use std::fmt::Write as _;

const STYLE: &str = r#"
:root { --pass: #1e7b34; --fail: #b3261e; --ink: #1c1c1c; --muted: #5f6368; --line: #dadce0;
        --del: #fde2e1; --del-word: #f4a9a5; --ins: #dff3e4; --ins-word: #96d5a6; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--ink); background: #f6f7f9; }
header, main { max-width: 72rem; margin: 0 auto; padding: 0.75rem 1rem; }
header h1 { font-size: 1.3rem; margin: 0.4rem 0; }
.summary { font-size: 1.05rem; margin: 0; }
.case { background: white; border: 1px solid var(--line); border-left: 6px solid var(--fail);
        border-radius: 6px; margin: 0.9rem 0; padding: 0.6rem 0.9rem; }
.case.pass { border-left-color: var(--pass); }
.case h2 { font-size: 1rem; margin: 0.2rem 0; overflow-wrap: anywhere; }
.verdict { display: inline-block; min-width: 4.5em; padding: 0 0.4em; margin-right: 0.4em;
           border-radius: 4px; color: white; background: var(--fail); font-size: 0.85rem;
           text-align: center; }
.pass .verdict { background: var(--pass); }
.points { color: var(--muted); font-weight: normal; white-space: nowrap; }
.message, .place { margin: 0.3rem 0; overflow-wrap: anywhere; }
.place strong { font-weight: 600; }
.diagnosis { background: #fff8e1; border: 1px solid #f2d675; border-radius: 4px;
             padding: 0.4rem 0.6rem; margin: 0.5rem 0; white-space: pre-wrap;
             overflow-wrap: anywhere; }
figure { margin: 0.6rem 0; overflow-x: auto; }
figure svg { width: 100%; max-width: 44rem; min-width: 26rem; height: auto; }
figcaption { color: var(--muted); font-size: 0.85rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table.sbs { border-collapse: collapse; width: 100%; font: 12.5px/1.35 ui-monospace,
            SFMono-Regular, Menlo, Consolas, monospace; }
.sbs th { text-align: left; font: 600 0.8rem system-ui, sans-serif; color: var(--muted);
          border-bottom: 1px solid var(--line); padding: 0.2rem 0.4rem; }
.sbs td { padding: 0.05rem 0.4rem; vertical-align: top; white-space: pre; }
.sbs td.n { color: var(--muted); text-align: right; user-select: none; width: 1%; }
.sbs tr.changed td.e, .sbs tr.removed td.e { background: var(--del); }
.sbs tr.changed td.a, .sbs tr.added td.a, .sbs tr.output td.a { background: var(--ins); }
.sbs del { background: var(--del-word); text-decoration: none; }
.sbs ins { background: var(--ins-word); text-decoration: none; }
.sbs tr.gap td { color: var(--muted); text-align: center; background: #f1f3f4; }
details { margin: 0.4rem 0; }
details pre { background: #f8f9fa; border: 1px solid var(--line); padding: 0.5rem;
              overflow-x: auto; font-size: 12px; }
.note { color: var(--muted); font-size: 0.85rem; }
.key { display: none; color: var(--muted); font-size: 0.85rem; margin: 0.3rem 0; }
/* On a phone the two sides stack: each expected line over the output's, unchanged lines once. */
@media (max-width: 40rem) {
  body { font-size: 14px; }
  .case { padding: 0.5rem 0.6rem; }
  .key { display: block; }
  .sbs thead { display: none; }
  .sbs tr { display: grid; grid-template-columns: 2.4em 1fr; }
  .sbs td { white-space: pre-wrap; overflow-wrap: anywhere; }
  .sbs td.n { width: auto; }
  .sbs tr.same td:nth-child(n+3) { display: none; }
  .sbs tr.changed td.a, .sbs tr.added td.a { border-bottom: 1px solid var(--line); }
}
"#;

/// Text for HTML: `<`, `&` and quotes escaped, control characters made visible.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The whole page.
pub fn page(report: &Report, graded: bool) -> String {
    let summary = report.summary(graded);
    let mut out = String::with_capacity(4096 + report.cases.len() * 2048);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>gametrace: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header>\n<h1>gametrace report</h1>\n<p class=\"summary\" id=\"summary\">{}</p>\n</header>\n<main>\n",
        escape(&summary),
        escape(&summary)
    );
    if !report.questions.is_empty() {
        out.push_str("<section class=\"questions\" id=\"questions\">\n<ul>\n");
        for q in &report.questions {
            let _ = writeln!(
                out,
                "<li class=\"{}\">{}</li>",
                if q.passed() { "pass" } else { "fail" },
                escape(&q.line())
            );
        }
        out.push_str("</ul>\n</section>\n");
    }
    for (i, c) in report.cases.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section class=\"case {}\" id=\"case-{}\">\n{}</section>",
            if c.status.passed() {
                "pass"
            } else if c.status.skipped() {
                "skip"
            } else {
                "fail"
            },
            i + 1,
            case_fragment(c)
        );
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// One case's content (also Gradescope's HTML output for the test). Style-free markup but for
/// the tree, whose SVG carries its own.
pub fn case_fragment(c: &CaseResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<h2><span class=\"verdict\">{}</span>{} <span class=\"points\">{} / {} point{}</span></h2>",
        c.status.word(),
        escape(&c.name()),
        number(c.points),
        number(c.max_points),
        if c.max_points == 1.0 { "" } else { "s" }
    );
    if !c.message.is_empty() {
        let _ = writeln!(out, "<p class=\"message\">{}</p>", escape(&c.message));
    }
    if let Some(f) = &c.failure {
        if let Some(place) = &f.place {
            let _ = writeln!(
                out,
                "<p class=\"place\"><strong>First divergence at</strong> {}</p>",
                escape(place)
            );
        }
    }
    if let Some(d) = &c.diagnosis {
        let _ = writeln!(
            out,
            "<div class=\"diagnosis\" role=\"note\">{}</div>",
            escape(d.text.trim_end())
        );
    }
    if let Some(f) = &c.failure {
        if let Some(svg) = &f.figure {
            let _ = writeln!(
                out,
                "<figure class=\"tree\">\n{}<figcaption>The tree: a light disc under each state your output names; the ringed node is where it first parts from the reference.</figcaption>\n</figure>",
                strip_xml_header(svg)
            );
        }
        if !f.rows.is_empty() {
            out.push_str(&rows_table(&f.rows));
            if f.more_rows > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"note\">… {} more changed line{} not shown.</p>",
                    f.more_rows,
                    if f.more_rows == 1 { "" } else { "s" }
                );
            }
        }
    }
    if !c.details.trim().is_empty() && c.status != Status::Pass {
        let _ = writeln!(
            out,
            "<details><summary>All details</summary><pre>{}</pre></details>",
            escape(c.details.trim_end())
        );
    } else if !c.details.trim().is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Details</summary><pre>{}</pre></details>",
            escape(c.details.trim_end())
        );
    }
    out
}

/// The SVG as an element of the page (no XML declaration, which HTML does not take).
fn strip_xml_header(svg: &str) -> &str {
    match svg.strip_prefix("<?xml") {
        Some(rest) => rest
            .split_once("?>")
            .map_or(svg, |(_, body)| body.trim_start()),
        None => svg,
    }
}

/// A line with `marks` wrapped in `tag`.
fn marked(line: &str, marks: &[Span], tag: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    for &(start, end) in marks {
        if start < at
            || end > line.len()
            || !line.is_char_boundary(start)
            || !line.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&escape(&line[at..start]));
        let _ = write!(out, "<{tag}>{}</{tag}>", escape(&line[start..end]));
        at = end;
    }
    out.push_str(&escape(&line[at..]));
    out
}

/// The rows side by side: expected (the reference) on the left, the output on the right.
fn rows_table(rows: &[Row]) -> String {
    let only_output = rows.iter().all(|r| r.expected.is_none());
    let mut out = String::from(
        "<p class=\"key\">Red: the reference's line; green: your output's, below it.</p>\n<div class=\"scroll\"><table class=\"sbs\">\n<thead><tr>",
    );
    if only_output {
        out.push_str("<th></th><th>your output (the reference's lines are hidden)</th>");
    } else {
        out.push_str("<th></th><th>expected (the reference)</th><th></th><th>your output</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        if r.kind == "gap" {
            let _ = writeln!(
                out,
                "<tr class=\"gap\"><td colspan=\"{}\">⋯</td></tr>",
                if only_output { 2 } else { 4 }
            );
            continue;
        }
        let (e_marks, a_marks) = match (&r.expected, &r.actual) {
            (Some((_, e)), Some((_, a))) if r.kind == "changed" => changed_words(e, a),
            _ => (Vec::new(), Vec::new()),
        };
        let cell =
            |side: &Option<(usize, String)>, marks: &[Span], tag: &str, class: &str| match side {
                Some((n, text)) => format!(
                    "<td class=\"n\">{n}</td><td class=\"{class}\">{}</td>",
                    marked(text, marks, tag)
                ),
                None => format!("<td class=\"n\"></td><td class=\"{class}\"></td>"),
            };
        let _ = write!(out, "<tr class=\"{}\">", r.kind);
        if !only_output {
            out.push_str(&cell(&r.expected, &e_marks, "del", "e"));
        }
        out.push_str(&cell(&r.actual, &a_marks, "ins", "a"));
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{CaseResult, Failure};

    #[test]
    fn a_failure_shows_its_place_its_lines_side_by_side_and_escapes_everything() {
        let mut c = CaseResult::new("specs/<x>.yaml", "ab & c", Status::Fail, 2.0)
            .message("full: 1 of 3 lines differ")
            .details("expected: F: <a>\n");
        c.failure = Some(Failure {
            place: Some("node g: child 1 of c".to_owned()),
            rows: vec![
                Row {
                    kind: "same",
                    expected: Some((1, "Estimating state c[3]".to_owned())),
                    actual: Some((4, "Estimating state c[3]".to_owned())),
                },
                Row {
                    kind: "changed",
                    expected: Some((2, "Result of (Maxie,g) is Leaf(Guess: 2)".to_owned())),
                    actual: Some((5, "Result of (Maxie,g) is Leaf(Guess: 3)".to_owned())),
                },
            ],
            more_rows: 3,
            figure: Some("<svg><g id=\"node-1\" class=\"divergence\"/></svg>".to_owned()),
        });
        let page = page(
            &Report {
                cases: vec![c],
                sandbox: None,
                questions: Vec::new(),
            },
            true,
        );
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<meta name=\"viewport\""));
        assert!(page.contains("specs/&lt;x&gt;.yaml ab &amp; c"));
        assert!(page.contains("<strong>First divergence at</strong> node g: child 1 of c"));
        assert!(page.contains("class=\"divergence\""));
        assert!(
            page.contains("<td class=\"e\">Result of (Maxie,g) is Leaf(Guess: <del>2</del>)</td>"),
            "{page}"
        );
        assert!(
            page.contains("<td class=\"a\">Result of (Maxie,g) is Leaf(Guess: <ins>3</ins>)</td>")
        );
        assert!(page.contains("<td class=\"n\">5</td>"));
        assert!(page.contains("3 more changed lines not shown"));
        assert!(page.contains("expected: F: &lt;a&gt;"));
        // Nothing from the network.
        assert!(!page.contains("http://") && !page.contains("https://"));
    }
}
