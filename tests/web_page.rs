//! The browser page (docs/src/play/, with the core compiled to WebAssembly by scripts/build-web.sh)
//! in a real browser: headless Chromium (Debian's `chromium`, which .ci/run installs) opens
//! the page as a student or a teacher would, by a link whose fragment carries the spec, the
//! case and the output, and the DOM it builds is read back. What the page shows must be what
//! the command line says for the same input: the same report text, byte for byte.

mod browser;
use assert_cmd::Command;
use browser::chromium;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SPEC: &str = "specs/15150-s14/handout-small.yaml";

fn gametrace() -> Command {
    let mut c = Command::cargo_bin("gametrace").unwrap();
    c.current_dir(ROOT);
    c
}

/// The page, built once for all the tests (a wasm build takes minutes).
fn page() -> &'static Path {
    static PAGE: OnceLock<PathBuf> = OnceLock::new();
    PAGE.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-page");
        let built = std::process::Command::new("bash")
            .arg(Path::new(ROOT).join("scripts/build-web.sh"))
            .arg(&out)
            .current_dir(ROOT)
            .output()
            .expect("bash runs scripts/build-web.sh");
        assert!(
            built.status.success(),
            "scripts/build-web.sh failed (it needs rustup's wasm32-unknown-unknown target, which it adds):\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
        out.join("index.html")
    })
}

/// The DOM headless Chromium has built for `url` once the page's script has run.
fn dom(url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("timeout")
        .arg("120")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(url)
        .output()
        .expect("timeout (coreutils) runs chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8(out.stdout).unwrap();
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the page did not start:\n{dom}"
    );
    dom
}

/// `file://.../index.html#key=value&...`, each value percent-encoded as the page's links are.
fn link(params: &[(&str, &str)]) -> String {
    let encode = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    let fragment: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect();
    format!("file://{}#{}", page().display(), fragment.join("&"))
}

/// The text of the element with `id` (its tags dropped, entities read back).
fn text_of(dom: &str, id: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    let open = dom[start..].find('>').unwrap() + start + 1;
    let tag_start = dom[..start].rfind('<').unwrap() + 1;
    let tag: String = dom[tag_start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    // Elements of the same tag nest in tables and lists only; the page's ids are on leaves
    // or on containers whose own tag does not nest.
    let close = dom[open..].find(&format!("</{tag}>")).unwrap() + open;
    let inner = &dom[open..close];
    let mut out = String::new();
    let mut in_tag = false;
    for c in inner.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The page from the element with `id` to the end of its view: enough to count what a
/// drawing holds (the views' other parts hold text only, escaped).
fn html_of<'d>(dom: &'d str, id: &str) -> &'d str {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap();
    let end = dom[start..]
        .find("</section>")
        .map_or(dom.len(), |e| e + start);
    &dom[start..end]
}

/// What the README's buggy SML alpha-beta prints under SML/NJ on HandoutSmall.
fn buggy_sml_output() -> String {
    let out = std::process::Command::new("sml")
        .args([
            "tests/fixtures/sml/alphabeta-buggy.sml",
            "tests/fixtures/sml/small.sml",
        ])
        .current_dir(ROOT)
        .output()
        .expect("SML/NJ (sml) runs the fixture, as .ci/run installs it");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn a_student_checks_the_buggy_sml_trace_and_sees_what_check_prints() {
    let output = buggy_sml_output();
    assert!(output.contains("F: state (Maxie,d)"), "{output}");
    let dom = dom(&link(&[
        ("view", "check"),
        ("spec", "15150-s14/handout-small"),
        ("case", "alphabeta"),
        ("output", &output),
    ]));

    // The command line on the same output, named as the page names it ("your output"), and
    // the spec by the built-in name the page loads.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("your output"), &output).unwrap();
    let cli = Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "check",
            SPEC,
            "--case",
            "alphabeta",
            "--actual",
            "your output",
            "--for-students",
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(1));
    let cli = String::from_utf8(cli.stdout).unwrap();
    assert_eq!(text_of(&dom, "check-report"), cli);

    // The verdict, the divergence (the reference's line 5, S14's Step(0, Guess: 3) bound at d,
    // against line 98 of the transcript, after SML/NJ's loading messages, as the report says),
    // the mistake and the handout's words, the tree with its 13 nodes and d marked.
    assert!(text_of(&dom, "check-verdict").starts_with("FAIL: full: 7 of 24"));
    let first = text_of(&dom, "first-divergence");
    assert!(
        first.starts_with("5F: state (Maxie,d) with ab=(Leaf(Minnie wins!),Step(0, Guess: 3))98F: state (Maxie,d) with ab=(Leaf(Minnie wins!),Leaf(Guess: 3))"),
        "{first}"
    );
    assert!(text_of(&dom, "check-place").contains("node d: child 1 of b"));
    let mistakes = text_of(&dom, "check-mistakes");
    assert!(
        mistakes.contains("child-value-as-bound:minnie"),
        "{mistakes}"
    );
    assert!(mistakes.contains("The handout:"), "{mistakes}");
    let tree = html_of(&dom, "check-tree");
    assert_eq!(tree.matches("<g id=\"node-").count(), 13, "{tree}");
    assert!(
        tree.contains("class=\"divergence\"><title>d</title>"),
        "{tree}"
    );
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn a_correct_trace_passes_in_the_page_as_on_the_command_line() {
    let reference = gametrace()
        .args(["run", SPEC, "--case", "alphabeta"])
        .output()
        .unwrap();
    let reference = String::from_utf8(reference.stdout).unwrap();
    let dom = dom(&link(&[
        ("view", "check"),
        ("spec", "15150-s14/handout-small"),
        ("case", "alphabeta"),
        ("output", &reference),
    ]));
    assert!(text_of(&dom, "check-verdict").starts_with("PASS: full: all 24"));
    assert!(text_of(&dom, "check-mistakes").is_empty());
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn stepping_to_the_end_shows_the_handouts_final_bounds() {
    let url = |line: &str| {
        link(&[
            ("view", "step"),
            ("spec", "15150-s14/handout-small"),
            ("case", "alphabeta"),
            ("line", line),
        ])
    };
    // The end: every node's bounds and result as `gametrace show` draws the whole search.
    let end = dom(&url("end"));
    assert!(text_of(&end, "step-line").starts_with("Line 24 of 24: "));
    let shown = gametrace()
        .args(["show", SPEC, "--case", "alphabeta", "--svg", "-"])
        .output()
        .unwrap();
    let shown = String::from_utf8(shown.stdout).unwrap();
    let stepped = html_of(&end, "step-tree");
    let mut labels = 0;
    for label in shown
        .lines()
        .filter(|l| l.starts_with("<text class=\"halo\""))
    {
        assert!(stepped.contains(label), "missing at the end: {label}");
        labels += 1;
    }
    assert!(labels > 20, "{shown}");
    assert!(stepped.contains("→ 4"));
    // The first line: the root alone, with its bounds and no result yet; the rest greyed.
    let first = dom(&url("1"));
    assert!(text_of(&first, "step-line").starts_with(
        "Line 1 of 24: F: state (Maxie,a) with ab=(Leaf(Minnie wins!),Leaf(Maxie wins!))"
    ));
    let tree = html_of(&first, "step-tree");
    assert!(
        tree.contains("class=\"current\"><title>a</title>"),
        "{tree}"
    );
    assert!(tree.contains("(-∞,+∞)") && !tree.contains("→ 4"), "{tree}");
    assert!(text_of(&first, "step-controls").contains("Forward"));
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn a_teacher_writing_a_spec_sees_validates_errors_and_runs_traces() {
    // A misspelt algorithm: the problem at its line and column, as `validate` says it.
    let bad = "title: Mine\ntree: {a: {b: 1, c: 2}}\ncases:\n  ab: {algorithm: alphabta}\n";
    let dom_bad = dom(&link(&[("view", "write"), ("spec-text", bad)]));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my-spec.yaml"), bad).unwrap();
    let validate = Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(dir.path())
        .args(["validate", "my-spec.yaml"])
        .output()
        .unwrap();
    let validate = String::from_utf8(validate.stdout).unwrap();
    let problems = text_of(&dom_bad, "write-problems");
    assert!(problems.contains("Go to line 4, column "), "{problems}");
    let problem = problems.split_once("Go to line 4, column ").unwrap().1;
    let problem = &problem[problem.find("error:").unwrap()..];
    assert!(
        validate.contains(problem.trim_end()),
        "{validate}\n---\n{problem}"
    );

    // Fixed: the tree drawn, and the case's trace as `run` prints it.
    let good = bad.replace("alphabta", "alphabeta");
    let dom_good = dom(&link(&[("view", "write"), ("spec-text", &good)]));
    assert!(text_of(&dom_good, "write-problems").contains("No problems"));
    assert_eq!(
        html_of(&dom_good, "write-tree")
            .matches("<g id=\"node-")
            .count(),
        3
    );
    std::fs::write(dir.path().join("my-spec.yaml"), &good).unwrap();
    let run = Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "my-spec.yaml", "--case", "ab"])
        .output()
        .unwrap();
    let run = String::from_utf8(run.stdout).unwrap();
    let traces = text_of(&dom_good, "write-traces");
    assert!(
        traces.contains(&format!("case ab (s14 dialect): the reference trace{run}")),
        "{traces}\n---\n{run}"
    );
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn the_page_says_it_sends_nothing_and_loads_nothing_from_the_network() {
    let dom = dom(&link(&[("view", "check")]));
    assert!(dom.contains("This page sends nothing anywhere."));
    let dir = page().parent().unwrap();
    // The page, and the worker that runs a student's Python (it loads Pyodide and the
    // drivers from its own folder, by relative imports, and nothing else).
    for file in [
        "index.html",
        "gametrace.js",
        "gametrace.css",
        "gametrace-python.js",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for call in [
            "fetch(",
            "XMLHttpRequest",
            "sendBeacon",
            "WebSocket",
            "EventSource",
            "importScripts",
            "http://",
            "https://",
        ] {
            assert!(!text.contains(call), "{file} has {call}");
        }
        // Modules only from beside it: `from "./..."`, `import("./...")`.
        for opener in ["from \"", "import(\""] {
            for (at, _) in text.match_indices(opener) {
                let target = &text[at + opener.len()..];
                assert!(target.starts_with("./"), "{file} loads {:.60}", target);
            }
        }
    }
    // Pyodide loads from the folder it is in (its indexURL: its own script's folder).
    assert!(dir.join("pyodide/pyodide.asm.wasm").is_file());
}

#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn the_page_works_from_the_keyboard() {
    // A page beside the built one holds it in a frame and presses keys in it, as a student
    // who does not use a mouse would: ← → Home End step, ← → move between the tabs.
    let harness = page().with_file_name("keys.html");
    std::fs::write(
        &harness,
        r#"<!doctype html><meta charset="utf-8"><body><pre id="result">waiting</pre>
<iframe id="f" src="index.html#view=step&spec=15150-s14%2Fhandout-small&case=alphabeta&line=1"></iframe>
<script>
document.getElementById("f").addEventListener("load", () => {
  const d = document.getElementById("f").contentDocument;
  const key = (el, k) => el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const line = () => d.getElementById("step-line").textContent.split(":")[0];
  const view = d.getElementById("view-step");
  const out = [line()];
  for (const k of ["ArrowRight", "ArrowRight", "End", "ArrowLeft", "Home"]) { key(view, k); out.push(k + " " + line()); }
  key(d.getElementById("tab-step"), "ArrowRight");
  out.push("tab " + d.activeElement.id + " run shown: " + !d.getElementById("view-run").hidden);
  key(d.getElementById("tab-run"), "ArrowRight");
  out.push("tab " + d.activeElement.id + " check shown: " + !d.getElementById("view-check").hidden);
  document.getElementById("result").textContent = out.join("\n");
});
</script>"#,
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("timeout")
        .arg("120")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            // The frame's page is read from the harness: both are files, of one folder.
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", harness.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text_of(&dom, "result"),
        "Line 1 of 24\nArrowRight Line 2 of 24\nArrowRight Line 3 of 24\nEnd Line 24 of 24\nArrowLeft Line 23 of 24\nHome Line 1 of 24\ntab tab-run run shown: true\ntab tab-check check shown: true"
    );
}

/// Issue 64's rough edges, in Debian's Chromium at a desktop's width (1280 px) and a phone's
/// (390 px): mid-search, the step view's tree is whole (no node and no legend item outside
/// its box: the drawing is scaled to its column), the caption says the value is not known
/// yet (not "value none"), and the step buttons use no character Debian's fonts lack (⏮ ⏭
/// were empty boxes there). A screenshot is taken at each width too.
#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn the_step_view_is_whole_at_a_desktops_and_a_phones_width() {
    for width in [1280, 390] {
        let harness = page().with_file_name(format!("layout-{width}.html"));
        std::fs::write(
            &harness,
            format!(
                r#"<!doctype html><meta charset="utf-8"><body style="margin:0"><pre id="result">waiting</pre>
<iframe id="f" style="width:{width}px;height:2400px;border:0" src="index.html#view=step&spec=15150-s14%2Fhandout-big&case=alphabeta&line=12"></iframe>
<script>
document.getElementById("f").addEventListener("load", () => {{
  const d = document.getElementById("f").contentDocument;
  const box = d.getElementById("step-tree");
  const shown = box.getBoundingClientRect();
  const out = [];
  let items = 0;
  for (const g of box.querySelectorAll('g[id^="node-"], #legend > *')) {{
    const r = g.getBoundingClientRect();
    items++;
    if (r.left < shown.left - 0.5 || r.right > shown.right + 0.5 || r.width === 0)
      out.push("clipped: " + (g.id || g.textContent));
  }}
  out.push("items: " + items);
  out.push("caption: " + [...box.querySelectorAll("svg > text")].map((t) => t.textContent).find((t) => t.startsWith("case ")));
  out.push("buttons: " + d.getElementById("step-controls").textContent.replace(/\s+/g, " ").trim());
  document.getElementById("result").textContent = out.join("\n");
}});
</script>"#
            ),
        )
        .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let out = std::process::Command::new("timeout")
            .arg("120")
            .arg(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--allow-file-access-from-files",
                "--virtual-time-budget=5000",
                "--window-size=1400,2600",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("file://{}", harness.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8(out.stdout).unwrap();
        let result = text_of(&dom, "result");
        assert!(!result.contains("clipped"), "at {width} px:\n{result}");
        let items: usize = result
            .lines()
            .find_map(|l| l.strip_prefix("items: "))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(
            items > 25,
            "at {width} px, {items} nodes and legend items:\n{result}"
        );
        assert!(
            result.contains("value not known yet, move not chosen yet"),
            "{result}"
        );
        let buttons = result.lines().find(|l| l.starts_with("buttons: ")).unwrap();
        assert!(
            buttons.chars().all(|c| c.is_ascii() || "◀▶".contains(c)),
            "{buttons}"
        );

        // The screenshot, as a student sees the page at this width.
        let shot = harness.with_file_name(format!("step-{width}.png"));
        let profile = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("timeout")
            .arg("120")
            .arg(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--hide-scrollbars",
                "--virtual-time-budget=5000",
            ])
            .arg(format!("--window-size={width},1800"))
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(link(&[
                ("view", "step"),
                ("spec", "15150-s14/handout-big"),
                ("case", "alphabeta"),
                ("line", "12"),
            ]))
            .status()
            .unwrap();
        assert!(status.success());
        let png = resvg::tiny_skia::Pixmap::load_png(&shot).expect("a PNG screenshot");
        assert_eq!(png.width(), width);
    }
}

// ---- Run my code: the student's Python in the page ------------------------------------

/// playwright-core from the npm registry (pinned), under target/, installed when missing:
/// it drives Debian's Chromium (clicks, file choosers, screenshots); it downloads no browser.
fn playwright() -> PathBuf {
    const VERSION: &str = "1.65.1";
    let dir = Path::new(ROOT).join("target/playwright");
    let package = dir.join("node_modules/playwright-core/package.json");
    let installed = std::fs::read_to_string(&package)
        .is_ok_and(|p| p.contains(&format!("\"version\": \"{VERSION}\"")));
    if !installed {
        let status = std::process::Command::new("npm")
            .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .arg(format!("playwright-core@{VERSION}"))
            .status()
            .expect("npm (Node.js) installs playwright-core, as .ci/run has it");
        assert!(status.success(), "npm install playwright-core@{VERSION}");
    }
    dir
}

/// The built page served as a student serves a downloaded folder: `python3 -m http.server`
/// (on a free port of 127.0.0.1), stopped when dropped.
struct Served {
    child: std::process::Child,
    base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Served {
    use std::io::BufRead;
    let mut child = std::process::Command::new("python3")
        .args([
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 serves the page");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
    let port: u16 = first
        .split_whitespace()
        .skip_while(|w| *w != "port")
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("python3 -m http.server said: {first}"));
    Served {
        child,
        base: format!("http://127.0.0.1:{port}/"),
    }
}

/// `gametrace check SPEC --case CASE --cmd CMD --for-students`, run in a folder holding the
/// student's files (as the page names them, by their file names): the report it prints.
fn check_cmd(files: &[&str], spec: &str, case: &str, cmd: &str) -> (String, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    for f in files {
        let from = Path::new(ROOT).join(f);
        std::fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    let out = Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", spec, "--case", case, "--cmd", cmd])
        .args(["--for-students", "--color", "never"])
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// `gametrace check-game SPEC --cmd CMD --for-students` in a folder holding the files.
fn check_game_cmd(files: &[&str], spec: &str, cmd: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    for f in files {
        let from = Path::new(ROOT).join(f);
        std::fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    let out = Command::cargo_bin("gametrace")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "check-game",
            spec,
            "--cmd",
            cmd,
            "--for-students",
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// A check-game report's verdicts (`PASS    SPEC parse_move`, ...) and the mistakes it names
/// (`[wraps-left-edge]`): what the page must agree on with the command line.
fn verdicts_and_names(report: &str) -> (Vec<String>, Vec<String>) {
    let words = [
        "PASS ",
        "FAIL ",
        "SKIPPED ",
        "CRASHED ",
        "TIMEOUT ",
        "ERROR ",
        "NOT-FOUND ",
    ];
    let verdicts = report
        .lines()
        .filter(|l| words.iter().any(|w| l.starts_with(w)))
        .map(|l| l.split(':').next().unwrap().to_owned())
        .collect();
    let mut names: Vec<String> = report
        .split('[')
        .skip(1)
        .filter_map(|s| s.split_once(']').map(|(n, _)| n))
        .filter(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-+:".contains(c))
        })
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    (verdicts, names)
}

/// Issue 72: a student's CSC148 strategy, Tippy game and CS188 `multiAgents.py` run in the
/// page (Pyodide, in a worker, through the repository's drivers) get what the command line
/// says: the same report byte for byte for a strategy or an agent, the same verdicts and
/// names for a game; a program that loops is stopped (TIMEOUT); the page asks nothing of
/// anyone but its own folder, and loads no Python until the student runs something.
#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn a_student_runs_their_python_in_the_page_and_gets_the_command_lines_verdicts() {
    let dir = page().parent().unwrap().to_owned();
    let served = serve(&dir);
    let fixture = |f: &str| Path::new(ROOT).join(f).display().to_string();
    const CSC: &str = "tests/fixtures/python/csc148";
    const WRAPS: &str = "tests/fixtures/python/csc148/games_buggy/tippy_wraps_left_edge";
    let scenarios = serde_json::json!([
        {"name": "prune", "course": "csc148", "files": [fixture(&format!("{CSC}/strategy_minimax_prune.py"))],
         "class": "StrategyMinimaxPrune", "spec": "csc148/subtract-square-grading", "case": "prune-expands-6"},
        {"name": "prune-strict", "course": "csc148", "screenshot": true,
         "files": [fixture(&format!("{CSC}/strategy_minimax_prune_strict.py")), fixture(&format!("{CSC}/strategy_minimax_prune.py")),
                   fixture("python/gametrace/drivers/csc148/game_state.py")],
         "module": "strategy_minimax_prune_strict.py",
         "class": "StrategyMinimaxPrune", "spec": "csc148/subtract-square-grading", "case": "prune-expands-6"},
        {"name": "memoize-all", "course": "csc148", "files": [fixture(&format!("{CSC}/strategy_minimax_memoize.py"))],
         "class": "StrategyMinimaxMemoize", "spec": "csc148/subtract-square-grading", "case": "*"},
        {"name": "cs188", "course": "cs188", "files": [fixture("tests/fixtures/cs188/multiAgents.py")],
         "spec": "cs188/two-ghosts", "case": "*"},
        {"name": "cs188-prune-on-equal", "course": "cs188", "files": [fixture("tests/fixtures/cs188/prune-on-equal/multiAgents.py")],
         "spec": "cs188/tie", "case": "cs188"},
        {"name": "loops", "course": "csc148", "files": [fixture(&format!("{CSC}/strategy_loops.py"))],
         "class": "StrategyMinimaxMemoize", "spec": "csc148/subtract-square-grading", "case": "memoize-8", "timeout": 3},
        {"name": "tippy-wraps", "course": "csc148-game", "files": [fixture(&format!("{WRAPS}/tippy_game_state.py")), fixture(&format!("{WRAPS}/tippy_move.py"))],
         "module": "tippy_game_state.py", "class": "TippyGameState", "spec": "csc148/tippy-rules"},
    ]);
    let work = tempfile::tempdir().unwrap();
    let scenarios_file = work.path().join("scenarios.json");
    std::fs::write(&scenarios_file, scenarios.to_string()).unwrap();
    let out_file = work.path().join("out.json");
    let shot = dir.join("run-my-code.png");
    let ran = std::process::Command::new("timeout")
        .arg("900")
        .arg("node")
        .arg(Path::new(ROOT).join("tests/browser/run-page.mjs"))
        .arg(playwright())
        .arg(&served.base)
        .arg(&scenarios_file)
        .arg(&out_file)
        .arg(&shot)
        .env("CHROMIUM", chromium())
        .output()
        .expect("node runs tests/browser/run-page.mjs");
    assert!(
        ran.status.success(),
        "the page's run failed:\n{}\n{}",
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
    let got: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    let run = |name: &str| -> &serde_json::Value {
        got["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no run {name}: {got}"))
    };
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    eprintln!(
        "page ready {} ms; Python ready {} ms; runs: {}",
        got["pageReadyMs"],
        run("prune")["pythonReadyMs"],
        got["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{} {} ms", text(&r["name"]), r["wall"]))
            .collect::<Vec<_>>()
            .join(", ")
    );

    // Nothing but the page's own folder is asked for; before a run, no Python at all.
    assert_eq!(got["outside"], serde_json::json!([]), "{}", got["requests"]);
    for r in got["requests"].as_array().unwrap() {
        assert!(text(r).starts_with(&served.base), "{r}");
    }
    let before: Vec<String> = got["requestsBeforeRun"]
        .as_array()
        .unwrap()
        .iter()
        .map(text)
        .collect();
    assert!(
        before
            .iter()
            .all(|r| !r.contains("pyodide") && !r.contains("python")),
        "{before:?}"
    );
    assert!(got["requests"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| text(r).ends_with("pyodide/pyodide.asm.wasm")));

    // A strategy and an agent: each case's report is the command line's, byte for byte.
    let strategy = |file: &str, class: &str| {
        format!(
            "python3 adapters/python/gametrace_csc148.py strategy {file} {class} {{position_json}}"
        )
    };
    let cases = [
        (
            "prune",
            vec![format!("{CSC}/strategy_minimax_prune.py")],
            "specs/csc148/subtract-square-grading.yaml",
            strategy("strategy_minimax_prune.py", "StrategyMinimaxPrune"),
        ),
        (
            "prune-strict",
            vec![
                format!("{CSC}/strategy_minimax_prune_strict.py"),
                format!("{CSC}/strategy_minimax_prune.py"),
                "python/gametrace/drivers/csc148/game_state.py".to_owned(),
            ],
            "specs/csc148/subtract-square-grading.yaml",
            strategy("strategy_minimax_prune_strict.py", "StrategyMinimaxPrune"),
        ),
        (
            "memoize-all",
            vec![format!("{CSC}/strategy_minimax_memoize.py")],
            "specs/csc148/subtract-square-grading.yaml",
            strategy("strategy_minimax_memoize.py", "StrategyMinimaxMemoize"),
        ),
        (
            "cs188",
            vec!["tests/fixtures/cs188/multiAgents.py".to_owned()],
            "specs/cs188/two-ghosts.yaml",
            "python3 adapters/python/gametrace_cs188.py multiAgents.py {tree_json}".to_owned(),
        ),
        (
            "cs188-prune-on-equal",
            vec!["tests/fixtures/cs188/prune-on-equal/multiAgents.py".to_owned()],
            "specs/cs188/tie.yaml",
            "python3 adapters/python/gametrace_cs188.py multiAgents.py {tree_json}".to_owned(),
        ),
    ];
    let mut statuses = std::collections::BTreeMap::new();
    for (name, files, spec, cmd) in &cases {
        let r = run(name);
        let verdicts = r["verdicts"].as_array().unwrap();
        assert!(!verdicts.is_empty(), "{name}: {r}");
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        for (v, report) in verdicts.iter().zip(r["reports"].as_array().unwrap()) {
            let case = text(&v["case"]);
            let (cli, code) = check_cmd(&files, spec, &case, cmd);
            assert_eq!(
                text(report),
                cli,
                "{name} {case}: the page's report, then the command line's"
            );
            assert_eq!(
                text(&v["status"]) == "PASS",
                code == Some(0),
                "{name} {case}"
            );
            statuses.insert(format!("{name} {case}"), text(&v["status"]));
        }
    }
    // The verdicts themselves, as worked out by hand in the guide and the fixtures: the right
    // strategy and agent pass; `>` for `≥` is prune-strict, pruning on a tie prune-on-equal.
    assert_eq!(statuses["prune prune-expands-6"], "PASS");
    assert_eq!(statuses["prune-strict prune-expands-6"], "FAIL");
    assert!(text(&run("prune-strict")["mistakes"]).contains("prune-strict"));
    assert!(text(&run("prune-strict")["report"]).contains("with the mistake prune-strict"));
    assert!(run("memoize-all")["verdicts"].as_array().unwrap().len() >= 3);
    assert!(run("memoize-all")["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["status"] == "PASS"));
    assert!(run("cs188")["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["status"] == "PASS"));
    let equal = run("cs188-prune-on-equal");
    assert!(
        equal["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["status"] == "FAIL"),
        "{equal}"
    );
    assert!(
        text(&equal["mistakes"]).contains("prune-on-equal"),
        "{equal}"
    );

    // A program that never returns is stopped at the time limit (3 s here, to keep CI short;
    // the student chooses 10, 30 or 60), its worker ended: the game checked after it runs in a
    // fresh one (it would wait behind the loop forever otherwise).
    let loops = run("loops");
    assert_eq!(loops["verdicts"][0]["status"], "TIMEOUT", "{loops}");
    assert!(text(&loops["report"]).contains("ran past the 3 s timeout"));

    // A student's Tippy whose winner test reads column -1 as the last: check-game's verdicts
    // (every check's, the scenarios and perft passing) and the mistake named, as the command
    // line gives them.
    let page_report = text(&run("tippy-wraps")["report"]);
    let cli = check_game_cmd(
        &[
            &format!("{WRAPS}/tippy_game_state.py"),
            &format!("{WRAPS}/tippy_move.py"),
        ],
        "specs/csc148/tippy-rules.yaml",
        "python3 adapters/python/gametrace_game.py tippy_game_state.py TippyGameState",
    );
    assert_eq!(
        verdicts_and_names(&page_report),
        verdicts_and_names(&cli),
        "the page's report:\n{page_report}\nthe command line's:\n{cli}"
    );
    let (verdicts, names) = verdicts_and_names(&page_report);
    assert!(names.contains(&"wraps-left-edge".to_owned()), "{names:?}");
    assert!(
        verdicts.iter().any(|v| v.starts_with("FAIL")),
        "{verdicts:?}"
    );
    assert!(
        verdicts.iter().filter(|v| v.starts_with("PASS")).count() >= 9,
        "{verdicts:?}"
    );

    // The screenshot for the guide's Browser chapter: the buggy strategy's verdict.
    let png = resvg::tiny_skia::Pixmap::load_png(&shot).expect("a PNG screenshot");
    assert_eq!(png.width(), 1280);
}

/// Opened from a file, the page says plainly that the Python runtime cannot start there,
/// and what to do instead.
#[test]
#[cfg_attr(
    not(gametrace_chromium),
    ignore = "needs Chromium: apt-get install chromium"
)]
fn opened_from_a_file_the_run_view_says_to_serve_the_folder() {
    let dom = dom(&link(&[("view", "run")]));
    let said = text_of(&dom, "run-runtime");
    assert!(said.contains("python3 -m http.server 8000"), "{said}");
    assert!(said.contains("cannot start the Python runtime"), "{said}");
}
