//! The HTML report in a real browser: headless Chromium (Debian package `chromium`, which
//! .ci/run installs) opens the page a failing student gets; the DOM it builds has the verdict,
//! the marked node, the lines side by side with the changed words and the diagnosis; its
//! screenshot has the highlighted node's pixels, and a passing report has none. And the other
//! autograders' formats carry the same content: Gradescope's per-test HTML, PrairieLearn's
//! results in their documented shape.

mod browser;
use browser::chromium;
use std::path::Path;

mod common;
use common::cli::gametrace;

const SPEC: &str = "specs/15150-s12/handout-small.yaml";
const RIGHT: &str = "python3 tests/fixtures/python/alphabeta_s12.py {tree_json}";
const WRONG: &str = "python3 tests/fixtures/python/alphabeta_s12_buggy.py {tree_json}";

/// The report of `check` on HandoutSmall's S12 alpha-beta in `format`.
fn report(cmd: &str, format: &str) -> String {
    let out = gametrace()
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--cmd",
            cmd,
            "--format",
            format,
        ])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0..=2)), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs headless Chromium on `page` with `args` (`--dump-dom`, `--screenshot=...`), in its own
/// profile, killed after a minute.
fn browse(page: &Path, args: &[String]) -> Vec<u8> {
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("timeout")
        .arg("90")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("timeout (coreutils) runs chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The pixels of `png` whose colour is exactly `rgb`.
fn pixels_of(png: &Path, rgb: (u8, u8, u8)) -> usize {
    let pixmap = resvg::tiny_skia::Pixmap::load_png(png).expect("a PNG screenshot");
    pixmap
        .pixels()
        .iter()
        .filter(|p| {
            let c = p.demultiply();
            (c.red(), c.green(), c.blue(), c.alpha()) == (rgb.0, rgb.1, rgb.2, 255)
        })
        .count()
}

/// `#ffd400`, the divergence mark's fill (`draw::svg::DIVERGENCE_FILL`).
fn divergence_colour() -> (u8, u8, u8) {
    let hex = gametrace::draw::svg::DIVERGENCE_FILL.trim_start_matches('#');
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    (byte(0), byte(2), byte(4))
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs headless Chromium: apt-get install chromium"
)]
fn a_failing_report_opens_in_chromium_with_the_divergent_node_highlighted() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let html = report(WRONG, "html");
    std::fs::write(&page, &html).unwrap();
    // Self-contained: no stylesheet, script, image or font fetched.
    for outside in [
        "<link",
        "<script",
        "src=\"http",
        "href=\"http",
        "@import",
        "url(",
    ] {
        assert!(
            !html.contains(outside),
            "the report refers outside: {outside}"
        );
    }

    // The DOM the browser builds.
    let dom = String::from_utf8(browse(&page, &["--dump-dom".to_owned()])).unwrap();
    assert!(
        dom.contains("<section class=\"case fail\" id=\"case-1\">"),
        "{dom}"
    );
    assert!(dom.contains("<span class=\"verdict\">FAIL</span>"));
    // The buggy copy (it searches every child with the node's first bounds) first parts
    // from the reference at node d, child 1 of b; the picture marks that one node.
    assert_eq!(dom.matches("class=\"divergence\"").count(), 1);
    assert!(dom.contains("<strong>First divergence at</strong> node d: child 1 of b"));
    assert!(
        dom.contains("<g id=\"node-3\" class=\"divergence\"><title>d</title>"),
        "{dom}"
    );
    assert!(dom.matches("class=\"visited\"").count() >= 5);
    // Side by side, the changed words marked on both sides.
    assert!(dom.contains("<tr class=\"changed\">"));
    assert!(dom.contains("<del>") && dom.contains("<ins>"));
    // The diagnosis names the mistake.
    assert!(dom.contains("the mistake original-bounds"), "{dom}");

    // The screenshot: the highlighted node is drawn, at desktop and at phone width.
    for (width, height) in [(1000, 1600), (390, 1400)] {
        let shot = dir.path().join(format!("shot-{width}.png"));
        browse(
            &page,
            &[
                format!("--window-size={width},{height}"),
                format!("--screenshot={}", shot.display()),
            ],
        );
        let marked = pixels_of(&shot, divergence_colour());
        assert!(
            marked > 200,
            "{width} px wide: {marked} pixels of the divergence mark"
        );
    }

    // A passing report has no mark.
    let pass = dir.path().join("pass.html");
    std::fs::write(&pass, report(RIGHT, "html")).unwrap();
    let shot = dir.path().join("pass.png");
    browse(
        &pass,
        &[
            "--window-size=1000,1200".to_owned(),
            format!("--screenshot={}", shot.display()),
        ],
    );
    assert_eq!(pixels_of(&shot, divergence_colour()), 0);
}

#[test]
fn gradescope_gets_each_test_as_html_or_markdown() {
    let json: serde_json::Value = serde_json::from_str(&report(WRONG, "gradescope-html")).unwrap();
    let test = &json["tests"][0];
    assert_eq!(test["output_format"], "html");
    assert_eq!(test["status"], "failed");
    let output = test["output"].as_str().unwrap();
    assert!(output.contains("class=\"divergence\""), "{output}");
    assert!(output.contains("<del>"));
    let json: serde_json::Value = serde_json::from_str(&report(WRONG, "gradescope-md")).unwrap();
    let test = &json["tests"][0];
    assert_eq!(test["output_format"], "md");
    assert!(test["output"].as_str().unwrap().starts_with("**FAIL** "));
    // Plain `gradescope` stays text, without the field.
    let json: serde_json::Value = serde_json::from_str(&report(WRONG, "gradescope")).unwrap();
    assert!(json["tests"][0].get("output_format").is_none());
}

/// PrairieLearn's external grader results as its documentation describes them
/// (docs/externalGrading.md, "Grading results"): `score` in [0, 1], `gradable`, `message`,
/// `output`, and `tests` with `name`, `description`, `points`, `max_points`, `message`,
/// `output`; at most 1 MB.
const PRAIRIELEARN_SHAPE: &str = r#"{
  "type": "object",
  "required": ["score", "gradable", "tests"],
  "properties": {
    "gradable": {"type": "boolean"},
    "score": {"type": "number", "minimum": 0, "maximum": 1},
    "message": {"type": "string"},
    "output": {"type": "string"},
    "format_errors": {"type": ["string", "array"], "items": {"type": "string"}},
    "tests": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "points", "max_points"],
        "properties": {
          "name": {"type": "string"},
          "description": {"type": "string"},
          "points": {"type": "number", "minimum": 0},
          "max_points": {"type": "number", "minimum": 0},
          "message": {"type": "string"},
          "output": {"type": "string"}
        }
      }
    }
  }
}"#;

#[test]
fn prairielearn_results_have_the_documented_shape() {
    let shape: serde_json::Value = serde_json::from_str(PRAIRIELEARN_SHAPE).unwrap();
    let validator = jsonschema::validator_for(&shape).unwrap();
    for (cmd, score, gradable) in [
        (RIGHT, 1.0, true),
        (WRONG, 0.0, true),
        // A program that crashes is graded (0 points); one whose file is not in the
        // submission is NOT-FOUND, like a program that does not exist: not gradable.
        ("python3 -c 'import sys; sys.exit(3)'", 0.0, true),
        (
            "python3 tests/fixtures/python/no_such_program.py",
            0.0,
            false,
        ),
        ("/no/such/program", 0.0, false),
    ] {
        let text = report(cmd, "prairielearn");
        assert!(text.len() < 1 << 20);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let problems: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(problems.is_empty(), "{cmd}: {problems:?}\n{text}");
        assert_eq!(json["score"], score, "{cmd}");
        assert_eq!(json["gradable"], gradable, "{cmd}");
        assert_eq!(json["tests"][0]["max_points"], 1.0);
    }
}
