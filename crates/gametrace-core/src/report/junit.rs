//! JUnit XML: `<testsuites>` with one named `<testsuite>` per spec, a `<testcase>` per case,
//! `<failure>` for wrong, timed-out, over-long or crashed output and `<error>` for a case that
//! could not be judged. Written with quick-xml, so escaping is the library's business.

use super::{clean, CaseResult, Report};
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io;

pub fn render(report: &Report) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    write(&mut w, report).expect("writing XML to memory cannot fail");
    let mut s = String::from_utf8(w.into_inner()).expect("quick-xml writes UTF-8");
    s.push('\n');
    s
}

fn write(w: &mut Writer<Vec<u8>>, report: &Report) -> io::Result<()> {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    // Specs in the order they were run, each with its cases.
    let mut suites: Vec<(&str, Vec<&CaseResult>)> = Vec::new();
    for c in &report.cases {
        match suites.iter_mut().find(|(s, _)| *s == c.spec) {
            Some((_, cases)) => cases.push(c),
            None => suites.push((&c.spec, vec![c])),
        }
    }
    let count = |cases: &[&CaseResult], error: bool| {
        cases
            .iter()
            .filter(|c| !c.status.passed() && !c.status.skipped() && c.status.is_error() == error)
            .count()
            .to_string()
    };
    let all: Vec<&CaseResult> = report.cases.iter().collect();
    // `skipped` only where some were, so reports without any keep their bytes.
    let skipped = report.skipped().to_string();
    let extra = (report.skipped() > 0).then_some(("skipped", skipped.as_str()));
    w.create_element("testsuites")
        .with_attribute(("name", "gametrace"))
        .with_attribute(("tests", all.len().to_string().as_str()))
        .with_attribute(("failures", count(&all, false).as_str()))
        .with_attribute(("errors", count(&all, true).as_str()))
        .with_attributes(extra)
        .write_inner_content(|w| {
            // The course's questions (CS188), with their points: only where there are any.
            if !report.questions.is_empty() {
                w.create_element("properties").write_inner_content(|w| {
                    for q in &report.questions {
                        w.create_element("property")
                            .with_attribute((
                                "name",
                                clean(&format!("question {}", q.name)).as_str(),
                            ))
                            .with_attribute(("value", clean(&q.message).as_str()))
                            .write_empty()?;
                    }
                    Ok(())
                })?;
            }
            for (spec, cases) in &suites {
                w.create_element("testsuite")
                    .with_attribute(("name", clean(spec).as_str()))
                    .with_attribute(("tests", cases.len().to_string().as_str()))
                    .with_attribute(("failures", count(cases, false).as_str()))
                    .with_attribute(("errors", count(cases, true).as_str()))
                    .write_inner_content(|w| {
                        for c in cases {
                            case(w, c)?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    Ok(())
}

fn case(w: &mut Writer<Vec<u8>>, c: &CaseResult) -> io::Result<()> {
    let element = w
        .create_element("testcase")
        .with_attribute(("name", clean(&c.case).as_str()))
        .with_attribute(("classname", clean(&c.spec).as_str()));
    if c.status.passed() {
        element.write_empty()?;
        return Ok(());
    }
    if c.status.skipped() {
        element.write_inner_content(|w| {
            w.create_element("skipped")
                .with_attribute(("message", clean(&c.message).as_str()))
                .write_empty()?;
            Ok(())
        })?;
        return Ok(());
    }
    element.write_inner_content(|w| {
        let tag = if c.status.is_error() {
            "error"
        } else {
            "failure"
        };
        let message = clean(&c.message);
        let body = clean(&format!("{}\n{}", c.message, c.details));
        w.create_element(tag)
            .with_attribute(("message", message.as_str()))
            .with_attribute(("type", c.status.word()))
            .write_text_content(BytesText::new(&body))?;
        Ok(())
    })?;
    Ok(())
}
