//! `gametrace show`: the tree drawn in the terminal and as SVG, with a case's search on it.

use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;

mod common;
use common::cli::gametrace;

const S14_SMALL: &str = "specs/15150-s14/handout-small.yaml";
const S14_BIG: &str = "specs/15150-s14/handout-big.yaml";
const S12_SMALL: &str = "specs/15150-s12/handout-small.yaml";
const S14_SMALL_ABS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/specs/15150-s14/handout-small.yaml"
);

fn show(args: &[&str]) -> String {
    let out = gametrace()
        .arg("show")
        .args(args)
        .args(["--color", "never"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Renders an SVG with resvg (system fonts, so the labels are drawn too), scaled down to at
/// most `max_width` pixels; panics if the SVG does not parse.
fn render(svg: &str, max_width: u32) -> resvg::tiny_skia::Pixmap {
    render_part(svg, max_width, None)
}

/// The same, or with `crop`, the leftmost `crop` pixels at full size.
fn render_part(svg: &str, max_width: u32, crop: Option<u32>) -> resvg::tiny_skia::Pixmap {
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &options).expect("the SVG parses");
    let size = tree.size();
    let scale = match crop {
        Some(_) => 1.0,
        None => (max_width as f32 / size.width()).min(1.0),
    };
    let (w, h) = (
        crop.unwrap_or((size.width() * scale).ceil() as u32),
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
}

/// How many pixels are near a colour.
fn pixels_like(p: &resvg::tiny_skia::Pixmap, (r, g, b): (u8, u8, u8)) -> usize {
    p.pixels()
        .iter()
        .filter(|c| {
            let c = c.demultiply();
            c.red().abs_diff(r) < 24 && c.green().abs_diff(g) < 24 && c.blue().abs_diff(b) < 24
        })
        .count()
}

#[test]
fn the_small_handout_tree_in_the_terminal() {
    // Figure 5's tree as the handout draws it; minimax values worked by hand:
    // b = min(3,6,-2) = -2, f = min(6,4,10) = 4, j = min(1,30,9) = 1, a = max = 4.
    let text = show(&[S14_SMALL]);
    assert!(
        text.ends_with(
            "\n▲ a  =4\n\
             ├── [left] ▼ b  =-2\n\
             │   ├── ■ c  3\n\
             │   ├── ■ d  6\n\
             │   └── ■ e  -2\n\
             ├── [middle] ▼ f  =4\n\
             │   ├── ■ g  6\n\
             │   ├── ■ h  4\n\
             │   └── ■ i  10\n\
             └── [right] ▼ j  =1\n    \
                 ├── ■ k  1\n    \
                 ├── ■ l  30\n    \
                 └── ■ m  9\n"
        ),
        "{text}"
    );
}

#[test]
fn alpha_beta_on_the_small_tree_shows_bounds_results_the_cut_and_the_path() {
    // S14 Figure 5, lower trace: j is entered with alpha = Step(1, 4) (f's value) and cut
    // after k = 1 <= 4, so l and m are never reached; 11 of 13 nodes are visited and 7
    // leaves estimated. The chosen move is 1[middle], and f's own best move is h.
    let text = show(&[S14_SMALL, "--case", "alphabeta"]);
    assert!(
        text.contains("case alphabeta: alphabeta, s14 rules\nvalue 4, move 1[middle]; 7 terminals; 11 of 13 nodes visited\n"),
        "{text}"
    );
    for line in [
        "▲ a  =4               (-∞,+∞) → 4\n",
        "│   ├── ■ d  6        (-∞,3) est 6\n",
        "┝━━ [middle] ▼ f  =4  (-2,+∞) → 4\n",
        "│   ┝━━ ■ h  4        (-2,6) est 4\n",
        "│   └── ■ i  10       (-2,4) est 10\n",
        "└── [right] ▼ j  =1   (4,+∞) → 1 ✂\n",
        "    ├── ■ l  30       · not reached\n",
        "    └── ■ m  9        · not reached\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn s12_results_show_pruned_and_parent_prune() {
    // S12 Figure 4 (alpha-beta): d is entered with ab=(Pruned,Guess:3) and its 6 is above
    // beta, so its result is Pruned; the root's value is Guess:4 with best move 1.
    let text = show(&[S12_SMALL, "--case", "alphabeta"]);
    assert!(
        text.contains("■ d  6        (-∞,3) est 6 → Pruned\n"),
        "{text}"
    );
    assert!(text.contains("value 4, move 1"), "{text}");
}

#[test]
fn every_line_fits_in_80_columns_even_for_a_generated_branching_4_depth_5_tree() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("wide.yaml");
    std::fs::write(
        &spec,
        "tree: {generate: {branching: 4, depth: 5, seed: 3, min: -20, max: 20}}\n\
         cases: {ab: {algorithm: alphabeta}, jam: {algorithm: jamboree, prune_percentage: 0.5}}\n",
    )
    .unwrap();
    for args in [
        vec![spec.to_str().unwrap()],
        vec![spec.to_str().unwrap(), "--case", "ab"],
        vec![S14_BIG, "--case", "jamboree-0.5"],
    ] {
        let text = show(&args);
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{} columns: {line}",
                line.chars().count()
            );
        }
    }
    // 1 + 4 + 16 + 64 + 256 + 1024 nodes, one line each, after the header.
    let text = show(&[spec.to_str().unwrap()]);
    assert_eq!(text.lines().filter(|l| l.contains('■')).count(), 1024 + 1);
}

#[test]
fn colour_dims_unreached_nodes_and_never_means_no_escapes() {
    let plain = show(&[S14_SMALL, "--case", "alphabeta"]);
    assert!(!plain.contains('\x1b'));
    gametrace()
        .args([
            "show",
            S14_SMALL,
            "--case",
            "alphabeta",
            "--color",
            "always",
        ])
        .assert()
        .success()
        .stdout(contains("\x1b[2m    ├── ■ l  30"));
}

#[test]
fn an_unknown_case_or_a_task_spec_is_refused() {
    gametrace()
        .args(["show", S14_SMALL, "--case", "alphabetta"])
        .assert()
        .code(2)
        .stderr(contains("did you mean `alphabeta`?"));
    gametrace()
        .args(["show", "specs/graphs/is-simple.yaml"])
        .assert()
        .code(2)
        .stderr(contains("`show` works on game trees"));
}

fn svg_of(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.svg");
    gametrace()
        .arg("show")
        .args(args)
        .arg("--svg")
        .arg(&file)
        .assert()
        .success();
    std::fs::read_to_string(&file).unwrap()
}

/// Writes the PNG under target/ so a person can look at it.
fn keep_png(pixmap: &resvg::tiny_skia::Pixmap, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-png");
    std::fs::create_dir_all(&dir).unwrap();
    pixmap.save_png(dir.join(name)).unwrap();
}

#[test]
fn the_svg_of_both_handout_trees_parses_and_renders() {
    for (spec, case, png) in [
        (S14_SMALL, "alphabeta", "s14-small-alphabeta.png"),
        (S14_BIG, "jamboree-0.5", "s14-big-jamboree.png"),
        (S12_SMALL, "alphabeta", "s12-small-alphabeta.png"),
    ] {
        let svg = svg_of(&[spec, "--case", case]);
        let pixmap = render(&svg, 2000);
        keep_png(&pixmap, png);
        // Drawn, not blank: black ink, and the chosen path in red.
        assert!(
            pixels_like(&pixmap, (0x22, 0x22, 0x22)) > 200,
            "{png}: no ink"
        );
        assert!(
            pixels_like(&pixmap, (0xc0, 0x39, 0x2b)) > 100,
            "{png}: no path"
        );
    }
    let whole = svg_of(&[S14_SMALL, "--case", "alphabeta"]);
    let (svg, legend) = whole.split_once(r#"<g id="legend""#).expect("a legend");
    // Three triangles for Minnie and one for Maxie, nine leaf squares with their estimates.
    assert_eq!(svg.matches("<polygon").count(), 4);
    assert_eq!(svg.matches("<rect x=").count(), 9);
    // The legend: a triangle each for Maxie and Minnie, a leaf square, the path, unreached.
    for item in [
        "Maxie",
        "Minnie",
        "leaf and its estimate",
        "chosen path",
        "not reached",
    ] {
        assert!(legend.contains(&format!(">{item}")), "legend lacks {item}");
    }
    assert!(
        !legend.contains("parallel"),
        "alpha-beta searches nothing in parallel"
    );
    assert!(svg.contains(">30</text>"));
    // l and m are not reached: greyed.
    assert!(svg.contains(r##"fill="#b0b0b0" text-anchor="middle">not reached</text>"##));
}

#[test]
fn a_generated_branching_4_depth_5_tree_renders_and_the_svg_grows_linearly() {
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    for depth in [3u32, 4, 5] {
        let spec = dir.path().join(format!("d{depth}.yaml"));
        std::fs::write(
            &spec,
            format!(
                "tree: {{generate: {{branching: 4, depth: {depth}, seed: 3, min: -20, max: 20}}}}\n\
                 cases: {{jam: {{algorithm: jamboree, prune_percentage: 0.5}}}}\n"
            ),
        )
        .unwrap();
        let svg = svg_of(&[spec.to_str().unwrap(), "--case", "jam"]);
        let nodes = (0..=depth).map(|d| 4usize.pow(d)).sum::<usize>();
        sizes.push((nodes, svg.len()));
        if depth == 5 {
            // The whole tree, shrunk, and its left end at full size (where the chosen
            // path starts down: the generated tree's best move is its first).
            keep_png(&render(&svg, 4000), "generated-4-5.png");
            let left = render_part(&svg, 0, Some(1600));
            keep_png(&left, "generated-4-5-left.png");
            assert!(pixels_like(&left, (0x22, 0x22, 0x22)) > 1000);
        }
    }
    // Bytes per node stay within a small band as the tree grows 16-fold.
    let per_node: Vec<f64> = sizes.iter().map(|&(n, b)| b as f64 / n as f64).collect();
    let (lo, hi) = per_node
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    assert!(
        hi / lo < 1.25,
        "bytes per node {per_node:?} (sizes {sizes:?})"
    );
}

#[test]
fn every_authoring_command_names_the_place_of_a_broken_spec() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.yaml"),
        "tree: {a: {b: 1, c: six}}\ncases: {ab: {algorithm: alphabeta}}\n",
    )
    .unwrap();
    for args in [
        vec!["show", "bad.yaml"],
        vec!["show", "bad.yaml", "--svg", "out.svg"],
        vec!["stats", "bad.yaml"],
        vec!["export", "bad.yaml", "--to", "sml"],
        vec!["export", "bad.yaml", "--to", "python"],
        vec!["export", "bad.yaml", "--to", "json"],
    ] {
        gametrace()
            .args(&args)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(
                "error: the leaf `c` must be an integer\n  --> bad.yaml:1:21",
            ))
            .stderr(contains("=    found: `six`"));
        assert!(
            !dir.path().join("out.svg").exists(),
            "{args:?} wrote a file"
        );
    }
    for args in [
        vec!["show", "missing.yaml"],
        vec!["stats", "missing.yaml"],
        vec!["export", "missing.yaml", "--to", "sml"],
    ] {
        gametrace()
            .args(&args)
            .current_dir(dir.path())
            .assert()
            .code(2)
            .stderr(contains("--> missing.yaml"))
            .stderr(contains("no such file"));
    }
    gametrace()
        .args(["export", S14_SMALL, "--to", "json", "--case", "alphabetta"])
        .assert()
        .code(2)
        .stderr(contains("did you mean `alphabeta`?"));
}

#[test]
fn jamboree_s_parallel_children_are_on_dashed_edges() {
    // HandoutSmall: four inner nodes of three children each. Jamboree at 0.5 searches
    // floor(0.5 * 3) = 1 child of each in turn and the other 2 in parallel: 8 dashed edges,
    // plus the legend's sample. At 1 it is alpha-beta: none.
    let svg = svg_of(&[S14_SMALL, "--case", "jamboree"]);
    let (tree, legend) = svg.split_once(r#"<g id="legend""#).unwrap();
    assert_eq!(tree.matches("stroke-dasharray").count(), 8);
    assert!(legend.contains("stroke-dasharray") && legend.contains("searched in parallel"));
    let svg = svg_of(&[S14_SMALL, "--case", "jamboree-1"]);
    assert_eq!(
        svg.matches("stroke-dasharray").count(),
        1,
        "only the legend's"
    );
    keep_png(&render(&svg, 2000), "s14-small-jamboree-1.png");
}

#[test]
fn svg_dash_goes_to_stdout_and_a_file_gets_no_terminal_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let out = gametrace()
        .current_dir(dir.path())
        .args(["show", S14_SMALL_ABS, "--svg", "-"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let svg = String::from_utf8(out).unwrap();
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    assert!(!dir.path().join("-").exists(), "no file named -");
    render(&svg, 800);

    let file = dir.path().join("tree.svg");
    gametrace()
        .args(["show", S14_SMALL, "--svg"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("<svg "));
}

#[test]
fn a_tree_without_cases_can_be_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("draft.yaml");
    std::fs::write(
        &spec,
        "tree:\n  a:\n    b: {c: 1, d: 2}\n    e: {f: 3, g: 4}\n",
    )
    .unwrap();
    // Minimax: b = min(1, 2) = 1, e = min(3, 4) = 3, a = max(1, 3) = 3.
    gametrace()
        .args(["show", "--color", "never"])
        .arg(&spec)
        .assert()
        .success()
        .stdout(
            contains("▲ a  =3")
                .and(contains("▼ b  =1"))
                .and(contains("▼ e  =3")),
        );
    // Running it still needs cases.
    gametrace()
        .arg("run")
        .arg(&spec)
        .assert()
        .code(2)
        .stderr(contains("the spec has no `cases`"));
}
