//! Reading a spec: YAML → checked [`Spec`], or the first problem as a [`Diagnostic`].

use super::diagnostic::{did_you_mean, Diagnostic};
use super::yaml::{self, Node, Pos, Yaml};
use super::{
    Case, Deepening, DepthUnit, Document, Expect, MoveOrder, Rules, Spec, TaskCase, TaskSpec,
    Unordered, Visibility,
};
use crate::check::trace::Mode;
use crate::game::tree::{Generate, Tree, TreeBuilder, MAX_HEIGHT, MAX_NODES};
use crate::game::{Outcome, Player};
use crate::notation::{self, Type, Value};
use crate::search::Algorithm;
use crate::task::Task;
use crate::trace::{Dialect, LineKind, LineSet, Style};
use hashbrown::{HashMap, HashSet};
use std::cell::RefCell;
use std::path::Path;

pub(super) mod export;
mod fast_tree;
pub(super) mod game;

pub(super) const TOP_KEYS: &[&str] = &[
    "version",
    "title",
    "tree",
    "task",
    "cases",
    "root_player",
    "move_names",
    "sml_structure",
    "agents",
    "win_states",
    "lose_states",
];
pub(super) const CASE_KEYS: &[&str] = &[
    "algorithm",
    "depth",
    "dialect",
    "prune_percentage",
    "lines",
    "root_player",
    "move_names",
    "sml_structure",
    "rules",
    "exact",
    "check",
    "unordered",
    "points",
    "visibility",
    "time_limit",
    "ordering",
    "aspiration",
    "deepening",
    "move_order",
    "decimals",
    "depth_unit",
    "prune_on",
];
pub(super) const TASK_CASE_KEYS: &[&str] = &[
    "args",
    "expect",
    "expect_error",
    "order",
    "dialect",
    "points",
    "visibility",
];
const GENERATE_KEYS: &[&str] = &["branching", "depth", "seed", "min", "max"];
pub(super) const ALGORITHMS: &[&str] = &[
    "minimax",
    "alphabeta",
    "jamboree",
    "memoize",
    "prune",
    "myopic",
    "game_state_tree",
    "negamax",
    "negamax_ab",
    "expectimax",
    "expectiminimax",
];
/// CSC148's names: only with its rules (`prune` is alpha-beta, `myopic` minimax to a depth).
const CSC148_ALGORITHMS: &[&str] = &["memoize", "prune", "myopic", "game_state_tree"];
/// CS10's names: only with its rules (negamax is minimax, negamax_ab alpha-beta, for the
/// player to move).
const CS10_ALGORITHMS: &[&str] = &["negamax", "negamax_ab"];
/// The searchers of chance nodes: only with the `expectimax` dialect.
const EXPECT_ALGORITHMS: &[&str] = &["expectimax", "expectiminimax"];

/// The key of a tree node's static value: `b: {static: 5, c: 3, d: 6}`.
pub(crate) const STATIC_KEY: &str = "static";
/// The key of a chance node's probabilities: `b: {chance: {c: 1/3, d: 2/3}, c: 3, d: 6}`.
pub(crate) const CHANCE_KEY: &str = "chance";
/// The key of a node's moves' names (CS188's actions): `b: {actions: [Left, Right], c: 3, d: 6}`.
pub(crate) const ACTIONS_KEY: &str = "actions";
/// The most decimal places a tree's values may have.
pub(crate) const MAX_PLACES: u8 = 6;
/// The most agents a tree may take turns between.
pub(crate) const MAX_AGENTS: usize = 64;

/// How many decimal places `text` (a plain number like `3.01`, `-4.50` or `~2.5`) needs:
/// its digits after the point, trailing zeros left out; `None` if it is no such number.
pub(crate) fn decimal_places(text: &str) -> Option<usize> {
    let t = text.strip_prefix(['-', '~']).unwrap_or(text);
    let (whole, frac) = t.split_once('.')?;
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || frac.is_empty() || !digits(whole) || !digits(frac) {
        return None;
    }
    Some(frac.trim_end_matches('0').len())
}

/// `text` (`3.01`, `-4`, `~2`, `10.0`) times 10^places, if it is a plain number with at most
/// `places` decimals and the result fits in 64 bits.
pub(crate) fn scaled_value(text: &str, places: u8) -> Option<i64> {
    let (negative, t) = match text.strip_prefix(['-', '~']) {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let frac = frac.trim_end_matches('0');
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > usize::from(places) {
        return None;
    }
    let mut n: i128 = whole.parse().ok()?;
    for _ in 0..places {
        n = n.checked_mul(10)?;
    }
    let mut f: i128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    for _ in frac.len()..usize::from(places) {
        f = f.checked_mul(10)?;
    }
    let n = n.checked_add(f)?;
    i64::try_from(if negative { -n } else { n }).ok()
}

/// An exact probability written as a fraction (`1/3`), a decimal (`0.25`) or an integer.
pub(crate) fn parse_probability(text: &str) -> Option<crate::game::Probability> {
    use crate::game::Probability;
    use num_bigint::BigInt;
    let t = text.trim();
    if let Some((a, b)) = t.split_once('/') {
        let (a, b): (BigInt, BigInt) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if b == BigInt::from(0) {
            return None;
        }
        return Some(Probability::new(a, b));
    }
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || frac.len() > 30
    {
        return None;
    }
    let numer: BigInt = format!("{whole}{frac}").parse().ok()?;
    let denom = BigInt::from(10u32).pow(frac.len() as u32);
    let p = Probability::new(numer, denom);
    Some(if negative { -p } else { p })
}

/// Reads and checks the spec at `path`; a path that is no file is looked up among the specs
/// built into gametrace (`csc148/subtract-square-grading`: [`crate::builtin`]).
pub fn load(path: &Path) -> Result<Document, Diagnostic> {
    let (path, source) = source(path)?;
    load_str(&path, &source)
}

/// The text of the spec a user names, and the path to name it by: the file at `path`, or,
/// when there is none, the built-in spec of that name (`15150-s14/handout-small`, named
/// `specs/15150-s14/handout-small.yaml`). A file on disk always wins.
pub fn source(path: &Path) -> Result<(std::path::PathBuf, String), Diagnostic> {
    if std::fs::symlink_metadata(path).is_err() {
        if let Some(p) = crate::builtin::spec_path(path) {
            if let Some(bytes) = crate::builtin::file(&p) {
                return Ok((p, String::from_utf8_lossy(bytes).into_owned()));
            }
        }
    }
    Ok((path.to_owned(), read(path)?))
}

/// The spec file nearest in name to a `path` that does not exist: in its folder (or the
/// nearest folder on its way that exists), the `.yaml` file whose name is closest, if close.
fn near_match(path: &Path) -> Option<std::path::PathBuf> {
    let name = path.file_name()?.to_str()?;
    let name = name.strip_suffix(".yaml").unwrap_or(name);
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (best, score) = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().into_string().ok()?;
            let stem = file.strip_suffix(".yaml")?;
            Some((e.path(), strsim::jaro_winkler(name, stem)))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (score >= 0.85).then_some(best)
}

/// A spec file's text: a regular file of at most [`crate::input::max_spec_size`] bytes.
fn read(path: &Path) -> Result<String, Diagnostic> {
    use crate::input::{self, InputError};
    let cap = input::max_spec_size();
    let bytes = input::read_regular(path, cap).map_err(|e| {
        let d = Diagnostic::new(path, "cannot read the spec")
            .expected("a readable YAML spec file")
            .found(e.to_string());
        match e {
            InputError::NotRegular { .. } if path.is_dir() => d.hint(
                "`run` takes one spec file; `gametrace test DIR` runs every spec under a directory",
            ),
            InputError::NotRegular { .. } => d.hint(
                "gametrace reads specs from regular files only (a FIFO or a device could block or never end); save the spec to a file",
            ),
            InputError::TooLarge { .. } => d.hint(format!(
                "a spec this large is unusual; if it is meant, raise the limit with --max-spec-size (now {})",
                input::human_bytes(cap)
            )),
            _ => match near_match(path) {
                Some(near) => d.hint(format!("did you mean `{}`?", near.display())),
                // Never the name just typed back (a built-in name is found before this).
                None if crate::builtin::near(path)
                    .is_some_and(|n| crate::builtin::spec_path(Path::new(&n)) != crate::builtin::spec_path(path)) =>
                {
                    d.hint(format!(
                        "did you mean the built-in spec `{}`? (`gametrace specs` lists them)",
                        crate::builtin::near(path).unwrap_or_default()
                    ))
                }
                None => d.hint(
                    "check the path; specs usually live under specs/, and `gametrace specs` lists the ones built in",
                ),
            },
        }
    })?;
    let source = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = upto.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Diagnostic {
            pos: Some(Pos { line, col }),
            ..Diagnostic::new(path, "the spec is not UTF-8 text")
        }
        .expected("a UTF-8 encoded YAML file")
        .found(format!(
            "byte 0x{:02x}",
            e.as_bytes()[e.utf8_error().valid_up_to()]
        ))
        .hint("save the file as UTF-8")
    })?;
    Ok(source)
}

/// Checks a spec's text; `path` is only used to name the file in diagnostics. The error is
/// the first problem found; [`validate_str`] reports them all.
pub fn load_str(path: &Path, source: &str) -> Result<Document, Diagnostic> {
    into_document(path, validate_str(path, source))
}

/// Reads a spec to draw its tree (`show`): as [`load`], but a tree needs no `cases:`.
pub fn load_for_drawing(path: &Path) -> Result<Document, Diagnostic> {
    let (path, source) = source(path)?;
    into_document(&path, check(&path, &source, false))
}

fn into_document(path: &Path, v: Validation) -> Result<Document, Diagnostic> {
    match (v.document, v.first_error) {
        (Some(doc), None) => Ok(doc),
        (_, Some(first)) => Err(first),
        // A loader that returns no document always says why.
        (None, None) => Err(Diagnostic::new(path, "the spec cannot be loaded")),
    }
}

/// Everything wrong with a spec, not just the first thing.
#[derive(Debug)]
pub struct Validation {
    /// The spec, if it has no errors.
    pub document: Option<Document>,
    /// Errors and warnings, in the order they appear in the file.
    pub problems: Vec<Diagnostic>,
    /// The error [`load_str`] reports: the first one found, which is not always the first
    /// in the file (a missing `cases:` is found after the tree but reported at 1:1).
    first_error: Option<Diagnostic>,
}

impl Validation {
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.problems.len() - self.errors()
    }
}

/// Reads a spec file and reports every problem in it (a file that cannot be read is one).
pub fn validate(path: &Path) -> Validation {
    match source(path) {
        Ok((path, source)) => validate_str(&path, &source),
        Err(d) => Validation {
            document: None,
            problems: vec![d.clone()],
            first_error: Some(d),
        },
    }
}

/// Checks a spec's text and reports every problem: errors (each key and case is checked even
/// after an earlier one failed) and warnings (duplicate node names, unused move names).
pub fn validate_str(path: &Path, source: &str) -> Validation {
    check(path, source, true)
}

/// [`validate_str`] with a written-out tree always read through YAML nodes, never by the
/// fast path that reads it straight into the arena: what the differential tests and the
/// fuzz target hold the fast path to.
#[doc(hidden)]
pub fn validate_str_without_fast_tree(path: &Path, source: &str) -> Validation {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    Loader::new(path, source, true, false).validation()
}

fn check(path: &Path, source: &str, cases_required: bool) -> Validation {
    // Windows editors start UTF-8 files with a byte order mark; it is not part of the YAML.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if super::cs188::is_test_file(path) {
        return test_file(path, source, cases_required);
    }
    Loader::new(path, source, cases_required, true).validation()
}

/// A CS188 test file, read as the spec it stands for ([`super::cs188`]), with its problems
/// at their places in the `.test` file.
fn test_file(path: &Path, source: &str, cases_required: bool) -> Validation {
    let converted = match super::cs188::to_yaml(path, source) {
        Ok(c) => c,
        Err(d) => {
            return Validation {
                document: None,
                problems: vec![d.clone()],
                first_error: Some(d),
            }
        }
    };
    let v = Loader::new(path, &converted.yaml, cases_required, false).validation();
    // The spec is gametrace's own writing: a problem in it is one the reading of the test
    // did not foresee, said without a place (its lines are not the test's).
    let first_error = v.first_error.map(|d| {
        let mut e = Diagnostic::new(
            path,
            format!("gametrace cannot search this test: {}", d.message),
        );
        e.expected = d.expected;
        e.found = d.found;
        e.hint = Some(format!(
            "`gametrace import cs188` writes the spec it reads this test as, to look at{}",
            d.hint.map(|h| format!(" ({h})")).unwrap_or_default()
        ));
        e
    });
    let mut problems = converted.warnings;
    problems.extend(first_error.clone());
    Validation {
        document: v.document,
        problems,
        first_error,
    }
}

impl<'a> Loader<'a> {
    fn new(path: &'a Path, source: &'a str, cases_required: bool, fast_tree: bool) -> Self {
        Loader {
            path,
            source,
            cases_required,
            problems: RefCell::new(Vec::new()),
            fast_tree,
            first_decimal: RefCell::new(None),
            decimal_told: std::cell::Cell::new(false),
        }
    }

    /// Everything wrong with the spec, and the spec if nothing is.
    fn validation(self) -> Validation {
        let result = self.spec();
        let mut problems = self.problems.into_inner();
        if let Err(d) = result.as_ref() {
            problems.push(d.clone());
        }
        let mut problems = root_causes(problems);
        let first_error = problems.iter().find(|d| d.is_error()).cloned();
        let document = match result {
            Ok(doc) if first_error.is_none() => doc,
            _ => None,
        };
        // Stable: problems at one place keep the order they were found in.
        problems.sort_by_key(|d| d.pos.map(|p| (p.line, p.col)));
        Validation {
            document,
            problems,
            first_error,
        }
    }
}

/// A misspelt key's did-you-mean explains the "missing key" error it causes (`prune_percentge`
/// leaves a Jamboree case without `prune_percentage`; `case:` leaves the spec without
/// `cases`): the consequence is dropped and named in the root cause's hint, so the one thing
/// to fix comes first and alone.
fn root_causes(problems: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // (index, the key it suggests, where: "case `j`" or "the spec")
    let causes: Vec<(usize, String, String)> = problems
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            let rest = d.message.strip_prefix("unknown key `")?;
            let (_, within) = rest.split_once("` in ")?;
            let hint = d.hint.as_deref()?;
            let key = hint.strip_prefix("did you mean `")?.strip_suffix("`?")?;
            Some((i, key.to_owned(), within.to_owned()))
        })
        .collect();
    let mut explained: Vec<(usize, String)> = Vec::new();
    let mut keep = vec![true; problems.len()];
    for (j, d) in problems.iter().enumerate() {
        let m = &d.message;
        if let Some((i, _, _)) = causes.iter().find(|(i, key, within)| {
            *i != j
                && d.is_error()
                && m.contains(within.as_str())
                && (m.contains(&format!("without `{key}`")) || m.contains(&format!("no `{key}`")))
        }) {
            keep[j] = false;
            explained.push((*i, m.clone()));
        }
    }
    problems
        .into_iter()
        .enumerate()
        .filter(|(j, _)| keep[*j])
        .map(|(i, mut d)| {
            let also: Vec<&str> = explained
                .iter()
                .filter(|(c, _)| *c == i)
                .map(|(_, m)| m.as_str())
                .collect();
            if !also.is_empty() {
                let hint = d.hint.take().unwrap_or_default();
                d = d.hint(format!("{hint} (that also explains: {})", also.join("; ")));
            }
            d
        })
        .collect()
}

/// Where the tab is that a YAML tab error is about: the first tab in a line's leading
/// whitespace (yaml-rust2 reports it later, at the scalar it was scanning), else the first
/// tab at or after the reported place.
fn indenting_tab(source: &str, reported: Pos) -> Option<Pos> {
    let leading = source.lines().enumerate().find_map(|(i, line)| {
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        indent.find('\t').map(|c| Pos {
            line: i + 1,
            col: indent[..c].chars().count() + 1,
        })
    });
    leading.or_else(|| {
        source
            .lines()
            .enumerate()
            .skip(reported.line.saturating_sub(1))
            .find_map(|(i, line)| {
                line.find('\t').map(|c| Pos {
                    line: i + 1,
                    col: line[..c].chars().count() + 1,
                })
            })
    })
}

/// A map's entry for `key`.
fn entry<'n>(entries: &'n [(Node, Node)], key: &str) -> Option<&'n (Node, Node)> {
    entries.iter().find(|(k, _)| k.scalar() == Some(key))
}

/// What reading a written-out tree carries from node to node.
#[derive(Default)]
struct TreeWalk<'n> {
    builder: TreeBuilder,
    /// Nodes read so far (the tree is refused past [`MAX_NODES`]).
    count: u64,
    /// Where each node name was first used.
    names: HashMap<&'n str, Pos>,
    /// The decimal places of the tree's values (see [`Tree::places`]).
    places: u8,
}

struct Loader<'a> {
    path: &'a Path,
    source: &'a str,
    /// Drawing a tree (`show`) needs no cases; everything else does.
    cases_required: bool,
    /// Problems found so far that did not stop the loading.
    problems: RefCell<Vec<Diagnostic>>,
    /// Whether a written-out tree may be read by [`fast_tree`].
    fast_tree: bool,
    /// The first value written with decimals, and its node: only the cs188 dialect prints
    /// such values, and a case of another is told so there (once).
    first_decimal: RefCell<Option<(Pos, String)>>,
    decimal_told: std::cell::Cell<bool>,
}

/// What a case searches: a tree (if it loaded), or a game position with this player to move.
#[derive(Clone, Copy)]
enum Target<'t> {
    Tree(Option<&'t Tree>),
    /// A game's position: the player to move, and the most moves any game of it can last
    /// (a case without `depth` searches that deep: to the end), if the game has a bound.
    Game(Player, Option<u32>),
}

impl<'t> Target<'t> {
    /// The tree searched, if it is a tree and it loaded.
    fn tree(self) -> Option<&'t Tree> {
        match self {
            Target::Tree(tree) => tree,
            Target::Game(..) => None,
        }
    }
}

/// A case's search as its keys say; each part `None` where its key had a problem (noted).
#[derive(Clone, Copy)]
struct CaseSearch {
    algorithm: Option<Algorithm>,
    dialect: Option<Dialect>,
    rules: Option<Rules>,
    /// In moves.
    depth: Option<u32>,
    depth_unit: Option<DepthUnit>,
    prune_on: Option<crate::search::cs188::PruneOn>,
    decimals: Option<Option<u8>>,
    /// CS188's agents: the tree's, or Pacman and one ghost.
    agents: u32,
}

/// How a case is shown.
struct CaseShown {
    lines: Option<LineSet>,
    move_names: Vec<String>,
    sml_structure: String,
    root_player: Player,
}

/// How a case is graded.
struct CaseGraded {
    exact: bool,
    mode: Mode,
    unordered: Unordered,
    points: f64,
    visibility: Visibility,
    time_limit: Option<std::time::Duration>,
}

/// A case's settings of one algorithm or course.
struct CaseExtras {
    metrics: Vec<&'static str>,
    cs10: crate::search::cs10::Options,
    deepening: Deepening,
}

/// Top-level defaults that cases may override.
#[derive(Default)]
pub(super) struct Defaults {
    root_player: Option<Player>,
    move_names: Option<Vec<String>>,
    sml_structure: Option<String>,
    /// The dialect of a case that names none (CSC148's games: `csc148`; otherwise `s14`).
    pub(super) dialect: Option<Dialect>,
}

impl Loader<'_> {
    /// Notes a problem and goes on checking.
    fn problem(&self, d: Diagnostic) {
        self.problems.borrow_mut().push(d);
    }

    /// The value, or `None` with the problem noted.
    fn soft<T>(&self, r: Result<T, Diagnostic>) -> Option<T> {
        r.map_err(|d| self.problem(d)).ok()
    }

    fn error(&self, at: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.path, message).at(at, self.source)
    }

    /// The entries of a map, or an error saying what `what` should have been.
    fn map<'n>(&self, node: &'n Node, what: &str) -> Result<&'n [(Node, Node)], Diagnostic> {
        match &node.yaml {
            Yaml::Map(entries) => Ok(entries),
            _ => Err(self
                .error(node.pos, format!("{what} must be a map"))
                .expected(format!("{what} as `key: value` lines"))
                .found(node.describe())),
        }
    }

    /// Warns about move names past the root's last move (nothing prints them), and about
    /// too few (the choice of an unnamed move prints as `move 2`).
    fn unused_move_names(&self, v: &Node, tree: &Tree) {
        let moves = tree.children(tree.root()).len();
        if let Yaml::Seq(items) = &v.yaml {
            if !items.is_empty() && items.len() < moves {
                let unnamed: Vec<String> = (items.len()..moves)
                    .map(|i| {
                        let child = tree.children(tree.root()).get(i).unwrap_or(0);
                        format!("move {i} (to `{}`)", tree.name(child))
                    })
                    .collect();
                self.problem(
                    self.error(
                        v.pos,
                        format!(
                            "{} of the root's {moves} moves {} no name",
                            moves - items.len(),
                            if moves - items.len() == 1 {
                                "has"
                            } else {
                                "have"
                            }
                        ),
                    )
                    .warning()
                    .expected(format!("{moves} names: the root has {moves} moves"))
                    .found(format!(
                        "{} name{}; unnamed: {}",
                        items.len(),
                        if items.len() == 1 { "" } else { "s" },
                        unnamed.join(", ")
                    ))
                    .hint("add the missing names (a choice of an unnamed move prints as `move N`)"),
                );
            }
            if let Some(first) = items.get(moves) {
                let extra: Vec<&str> = items[moves..].iter().filter_map(Node::scalar).collect();
                self.problem(
                    self.error(
                        first.pos,
                        match extra.len() {
                            1 => format!("move name `{}` is never used", extra[0]),
                            _ => format!("move names `{}` are never used", extra.join("`, `")),
                        },
                    )
                    .warning()
                    .expected(format!("at most {moves} names: the root has {moves} moves"))
                    .found(format!("{} names", items.len()))
                    .hint("move names go by the root's move index; remove the extra ones"),
                );
            }
        }
    }

    /// Warns when a node name is used a second time (traces name states by node name).
    /// `seen` borrows the names from the document: a tree of a million nodes would otherwise
    /// copy each of them once more.
    fn first_use<'n>(&self, seen: &mut HashMap<&'n str, Pos>, name: &'n str, at: Pos) {
        match seen.entry(name) {
            hashbrown::hash_map::Entry::Occupied(first) => {
                let first = *first.get();
                self.problem(
                    self.error(at, format!("node name `{name}` is used twice"))
                        .warning()
                        .expected("each node named once")
                        .found(format!(
                            "a second `{name}` (the first is at line {}, column {})",
                            first.line, first.col
                        ))
                        .hint("traces name states by node name, so a checker cannot tell these two apart; rename one"),
                )
            }
            hashbrown::hash_map::Entry::Vacant(v) => {
                v.insert(at);
            }
        }
    }

    /// Notes every non-scalar and repeated key of a map (the first of a repeated key counts).
    /// `what` is formatted only if there is a problem: a tree checks every inner node's keys.
    fn keys(&self, entries: &[(Node, Node)], what: impl std::fmt::Display) {
        // A set, not a list: a node with a million children is a million keys. Few keys (most
        // maps) are compared pairwise instead, which allocates nothing.
        const FEW: usize = 8;
        let mut seen: HashSet<&str> = HashSet::new();
        for (i, (k, _)) in entries.iter().enumerate() {
            let Some(text) = k.scalar() else {
                self.problem(
                    self.error(k.pos, format!("a key in {what} is not a name"))
                        .expected("a plain name")
                        .found(k.describe()),
                );
                continue;
            };
            let repeated = if entries.len() <= FEW {
                entries[..i].iter().any(|(e, _)| e.scalar() == Some(text))
            } else {
                !seen.insert(text)
            };
            if repeated {
                self.problem(
                    self.error(k.pos, format!("`{text}` appears twice in {what}"))
                        .expected("each key once")
                        .found(format!("a second `{text}`"))
                        .hint("remove or rename one of them"),
                );
            }
        }
    }

    /// A map's keys as written, for messages.
    fn key_list(entries: &[(Node, Node)]) -> String {
        let keys: Vec<&str> = entries.iter().filter_map(|(k, _)| k.scalar()).collect();
        keys.join(", ")
    }

    fn unknown_key(&self, key: &Node, known: &[&str], what: &str) -> Diagnostic {
        let text = key.scalar().unwrap_or("");
        let d = self
            .error(
                key.pos,
                format!("unknown key `{}` in {what}", yaml::shorten(text)),
            )
            .expected(format!("one of {}", known.join(", ")))
            .found(format!("`{}`", yaml::shorten(text)));
        match did_you_mean(text, known) {
            Some(k) => d.hint(format!("did you mean `{k}`?")),
            None => d.hint("remove it; gametrace does not ignore keys it does not know"),
        }
    }

    /// The spec; `Ok(None)` when the problems that stopped it are already noted.
    fn spec(&self) -> Result<Option<Document>, Diagnostic> {
        if let Some(document) = self.spec_with_fast_tree() {
            return document;
        }
        let doc = yaml::parse(self.source).map_err(|e| {
            if e.message.contains("tab") {
                if let Some(at) = indenting_tab(self.source, e.pos) {
                    return self
                        .error(at, "a tab in the indentation")
                        .expected("spaces to indent (YAML forbids tabs for indentation)")
                        .found("a tab character")
                        .hint("indent with spaces, two per level; many editors can convert tabs to spaces");
                }
            }
            if e.message.starts_with(yaml::ALIASES) {
                return self
                    .error(e.pos, "the spec uses a YAML alias")
                    .expected("every subtree written out where it stands")
                    .found(e.message)
                    .hint("write the subtree out again at each place, its nodes with names of their own (a trace names every node); `tree: {generate: ...}` makes large regular trees");
            }
            self.error(e.pos, "the spec is not valid YAML")
                .expected("YAML (a map with `title`, `tree` and `cases`)")
                .found(e.message)
                .hint("check indentation and brackets around this place")
        })?;
        let Some(doc) = doc else {
            return Err(Diagnostic::new(self.path, "the spec is empty")
                .at(Pos { line: 1, col: 1 }, self.source)
                .expected("a map with `tree` and `cases`")
                .found("an empty file")
                .hint("see the guide's Spec format chapter (docs/src/spec-format.md)"));
        };
        let entries = self.map(&doc, "a spec")?;
        if Self::is_export(entries) {
            self.keys(entries, "the exported tree");
            let spec = self.export_as_spec(&doc, entries)?;
            return self.document(&spec, None);
        }
        self.document(&doc, None)
    }

    /// The spec, its tree read by [`fast_tree`] and the rest of it by the YAML parser;
    /// `None` to read it the usual way.
    fn spec_with_fast_tree(&self) -> Option<Result<Option<Document>, Diagnostic>> {
        if !self.fast_tree {
            return None;
        }
        let (doc, tree) = fast_tree::spec(self.source)?;
        Some(self.document(&doc, Some(tree)))
    }

    /// A spec from its parsed YAML, and its tree if [`fast_tree`] read it (`tree:` is then
    /// empty in `doc`).
    fn document(
        &self,
        doc: &Node,
        tree_read: Option<Tree>,
    ) -> Result<Option<Document>, Diagnostic> {
        let entries = self.map(doc, "a spec")?;
        self.keys(entries, "the spec");
        if entry(entries, "game").is_some() {
            return self.game_spec(doc, entries);
        }

        let mut title = None;
        let mut tree_node = None;
        let mut task_node = None;
        let mut cases_node = None;
        let mut defaults = Defaults::default();
        let mut agents_node = None;
        let mut outcome_nodes = Vec::new();
        for (k, v) in entries {
            match k.scalar().unwrap_or("") {
                "version" => _ = self.soft(self.version(v)),
                "title" => title = self.soft(self.string(v, "title")),
                "tree" => tree_node = Some((k, v)),
                "task" => task_node = Some((k, v)),
                "cases" => cases_node = Some((k, v)),
                "root_player" => defaults.root_player = self.soft(self.player(v)),
                "move_names" => defaults.move_names = self.soft(self.move_names(v)),
                "sml_structure" => defaults.sml_structure = self.soft(self.sml_structure(v)),
                "agents" => agents_node = Some((k, v)),
                "win_states" => outcome_nodes.push((k, v, Outcome::Winner(Player::Maxie))),
                "lose_states" => outcome_nodes.push((k, v, Outcome::Winner(Player::Minnie))),
                _ => self.problem(self.unknown_key(k, TOP_KEYS, "the spec")),
            }
        }
        if let Some((task_key, task_value)) = task_node {
            if let Some((k, _)) = tree_node {
                return Err(self
                    .error(k.pos, "a spec has a `tree` or a `task`, not both")
                    .expected("one spec per tree or per task")
                    .found("both `tree` and `task`")
                    .hint("put the task's cases in a spec of their own"));
            }
            let tree_setting = entries.iter().find(|(k, _)| {
                matches!(
                    k.scalar(),
                    Some(
                        "root_player"
                            | "move_names"
                            | "sml_structure"
                            | "agents"
                            | "win_states"
                            | "lose_states"
                    )
                )
            });
            if let Some((k, _)) = tree_setting {
                return Err(self
                    .error(
                        k.pos,
                        format!(
                            "`{}` is a setting for tree searches",
                            k.scalar().unwrap_or("")
                        ),
                    )
                    .expected("title, task and cases in a task spec")
                    .found(k.describe())
                    .hint("remove it"));
            }
            return self
                .task_spec(doc, title, task_key, task_value, cases_node)
                .map(|t| Some(Document::Task(t)));
        }
        let Some((tree_key, tree_value)) = tree_node else {
            return Err(self
                .error(doc.pos, "the spec has no `tree` (or `task`)")
                .expected("a `tree:` key (root name -> children, leaves are integer estimates), or `task:` for a graph or sequence task")
                .found(format!(
                    "keys {}",
                    Self::key_list(entries)
                ))
                .hint("add `tree:`, or `tree: {generate: {branching: 3, depth: 4, seed: 1}}`"));
        };
        // A broken tree still lets the cases be checked (all but their depth against it).
        let mut tree = match tree_read {
            Some(tree) => Some(tree),
            None => self.soft(self.tree(tree_key, tree_value)),
        };
        if let Some(t) = tree.as_mut() {
            if let Some((k, v)) = agents_node {
                if let Some(agents) = self.soft(self.agents(v)) {
                    let root = entry(entries, "root_player");
                    let disagree =
                        root.and_then(|(_, p)| self.player(p).ok()) != agents.first().copied();
                    if let (Some((rk, _)), true) = (root, disagree) {
                        self.problem(
                            self.error(rk.pos, "`root_player` and `agents` disagree about who moves at the root")
                                .expected("one of them: `agents` lists who moves at each level, the root first")
                                .found(format!("root_player and agents (line {})", k.pos.line))
                                .hint("remove `root_player`; `agents: [min, max]` starts with Minnie"),
                        );
                    }
                    t.set_agents(agents);
                }
            }
            let mut outcomes = Vec::new();
            for (k, v, outcome) in outcome_nodes {
                if let Some(found) = self.soft(self.outcome_states(k, v, t, outcome)) {
                    outcomes.extend(found);
                }
            }
            if !outcomes.is_empty() {
                t.set_outcomes(outcomes);
                self.outcomes_have_values(t, tree_value);
            }
        }
        if let (Some(t), Some((_, m))) = (&tree, entry(entries, "move_names")) {
            self.unused_move_names(m, t);
        }
        if cases_node.is_none() && !self.cases_required {
            return Ok(tree.map(|tree| {
                Document::Tree(Spec {
                    path: self.path.to_owned(),
                    title,
                    tree,
                    cases: Vec::new(),
                })
            }));
        }
        let Some((cases_key, cases_value)) = cases_node else {
            return Err(self
                .error(doc.pos, "the spec has no `cases`")
                .expected("a `cases:` map of case name -> settings")
                .found(format!("keys {}", Self::key_list(entries)))
                .hint("add for example `cases: {alphabeta: {algorithm: alphabeta}}`"));
        };
        let cases = self.cases(
            cases_key,
            cases_value,
            Target::Tree(tree.as_ref()),
            &defaults,
        )?;
        Ok(tree.map(|tree| {
            Document::Tree(Spec {
                path: self.path.to_owned(),
                title,
                tree,
                cases,
            })
        }))
    }

    fn task_spec(
        &self,
        doc: &Node,
        title: Option<String>,
        key: &Node,
        value: &Node,
        cases: Option<(&Node, &Node)>,
    ) -> Result<TaskSpec, Diagnostic> {
        let names: Vec<&str> = Task::ALL.iter().map(|t| t.name()).collect();
        let name = value.scalar().unwrap_or("");
        let Some(task) = Task::parse(name) else {
            let at = if value.is_null() { key.pos } else { value.pos };
            let d = self
                .error(at, "unknown task")
                .expected(format!("one of {}", names.join(", ")))
                .found(value.describe());
            return Err(match did_you_mean(name, &names) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d,
            });
        };
        let Some((cases_key, cases_value)) = cases else {
            return Err(self
                .error(doc.pos, "the spec has no `cases`")
                .expected("a `cases:` map of case name -> args and expect")
                .found("no `cases` key")
                .hint(format!(
                    "each case gives the arguments of {}",
                    task.signature()
                )));
        };
        let entries = self.map(cases_value, "`cases`")?;
        if entries.is_empty() {
            return Err(self
                .error(cases_key.pos, "the spec has no cases")
                .expected("at least one case under `cases:`")
                .found("an empty map"));
        }
        self.keys(entries, "`cases`");
        // Each case is checked on its own, so one broken case hides none of the others.
        let cases = entries
            .iter()
            .filter_map(|(k, v)| self.soft(self.task_case(task, k, v)))
            .collect();
        Ok(TaskSpec {
            path: self.path.to_owned(),
            title,
            task,
            cases,
        })
    }

    fn task_case(&self, task: Task, key: &Node, v: &Node) -> Result<TaskCase, Diagnostic> {
        let name = self.case_name(key)?;
        let what = format!("case `{name}`");
        let entries = self.map(v, &what)?;
        self.keys(entries, &what);
        for (k, _) in entries {
            if !TASK_CASE_KEYS.contains(&k.scalar().unwrap_or("")) {
                self.problem(self.unknown_key(k, TASK_CASE_KEYS, &what));
            }
        }
        let get = |k: &str| entry(entries, k);
        let params = task.params();
        let Some((args_key, args)) = get("args") else {
            return Err(self
                .error(key.pos, format!("{what} has no `args`"))
                .expected(format!(
                    "args: a list of {} values ({})",
                    params.len(),
                    task.signature()
                ))
                .found("no `args` key"));
        };
        let Yaml::Seq(items) = &args.yaml else {
            return Err(self
                .error(args.pos, "`args` must be a list")
                .expected(format!(
                    "a list of {} values ({})",
                    params.len(),
                    task.signature()
                ))
                .found(args.describe())
                .hint("for example args: [\"<(0,1),(1,0)>\", \"2\"]"));
        };
        if items.len() != params.len() {
            let shown: Vec<String> = params
                .iter()
                .map(|(n, t)| format!("{n} : {}", t.sml()))
                .collect();
            return Err(self
                .error(
                    args_key.pos,
                    format!("{} takes {} arguments", task.name(), params.len()),
                )
                .expected(format!("{} values: {}", params.len(), shown.join(", ")))
                .found(format!("{} values", items.len()))
                .hint(task.signature()));
        }
        let args = items
            .iter()
            .zip(&params)
            .map(|(item, (pname, ty))| {
                self.notation(item, ty, &format!("argument `{pname}`"), false)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let expect = match (get("expect"), get("expect_error")) {
            (Some((_, e)), None) => Expect::Value(self.notation(e, &task.result(), "`expect`", true)?),
            (None, Some((_, e))) => Expect::Error(self.string(e, "expect_error")?),
            (Some(_), Some((k, _))) => {
                return Err(self
                    .error(k.pos, format!("{what} has both `expect` and `expect_error`"))
                    .expected("one of them")
                    .found("both")
                    .hint("expect is a result (or `raise not_in_graph`); expect_error is a broken REQUIRES clause"))
            }
            (None, None) => {
                return Err(self
                    .error(key.pos, format!("{what} says nothing of the result"))
                    .expected(format!(
                        "`expect: <a {}>` or `expect_error: <text of the REQUIRES violation>`",
                        task.result().sml()
                    ))
                    .found("neither `expect` nor `expect_error`"))
            }
        };
        let any_order = match get("order").map(|(_, o)| (o, o.scalar())) {
            None | Some((_, Some("exact"))) => false,
            Some((_, Some("any"))) => true,
            Some((o, _)) => {
                return Err(self
                    .error(o.pos, "unknown order")
                    .expected("exact (the default) or any (sequences compare as multisets)")
                    .found(o.describe()))
            }
        };
        let repl = match get("dialect").map(|(_, d)| (d, d.scalar())) {
            None | Some((_, Some("bare"))) => false,
            Some((_, Some("repl"))) => true,
            Some((d, _)) => {
                return Err(self
                    .error(d.pos, "unknown dialect for a task")
                    .expected("repl (`val it = <value>`) or bare (the value alone, the default)")
                    .found(d.describe()))
            }
        };
        let points = match get("points") {
            Some((_, p)) => self.points(p)?,
            None => 1.0,
        };
        let visibility = match get("visibility") {
            Some((_, v)) => self.visibility(v)?,
            None => Visibility::Visible,
        };
        Ok(TaskCase {
            name: name.to_owned(),
            args,
            expect,
            any_order,
            repl,
            points,
            visibility,
        })
    }

    /// A value written in SML notation (a YAML string) or as a YAML/JSON list, read as `ty`.
    fn notation(
        &self,
        node: &Node,
        ty: &Type,
        what: &str,
        may_raise: bool,
    ) -> Result<Value, Diagnostic> {
        let value = match &node.yaml {
            Yaml::Scalar { text, plain } => notation::parse(text).map_err(|e| {
                let col = node.pos.col + usize::from(!plain) + e.col - 1;
                let at = if text.contains('\n') {
                    node.pos
                } else {
                    Pos { line: node.pos.line, col }
                };
                self.error(at, format!("{what} is not a value in SML notation"))
                    .expected(e.expected)
                    .found(e.found)
                    .hint("write values as SML does: <1,2> a sequence, [1,2] a list, (0,1) a pair, ~3 minus three, \"hi\" a string")
            })?,
            _ => self.json_value(node, what)?,
        };
        if may_raise && matches!(value, Value::Raise(_)) {
            return Ok(value);
        }
        ty.conform(value).map_err(|why| {
            let found = why.split(", found ").nth(1).unwrap_or(&why).to_owned();
            self.error(node.pos, format!("{what} does not have type {}", ty.sml()))
                .expected(format!("a {}", ty.sml()))
                .found(found)
                .hint(why)
        })
    }

    /// A YAML list (JSON style) as an SML list, for [`Type::conform`] to shape.
    fn json_value(&self, node: &Node, what: &str) -> Result<Value, Diagnostic> {
        match &node.yaml {
            Yaml::Seq(items) => items
                .iter()
                .map(|i| self.json_value(i, what))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::List),
            Yaml::Scalar { text, plain: false } => Ok(Value::Str(text.to_string())),
            Yaml::Scalar { text, plain: true } => notation::parse(text).map_err(|e| {
                self.error(
                    node.pos,
                    format!("{what} holds something that is not a value"),
                )
                .expected(e.expected)
                .found(e.found)
                .hint("inside a list, quote strings: [\"hi\", \"bye\"]")
            }),
            Yaml::Map(_) => Err(self
                .error(node.pos, format!("{what} holds a map"))
                .expected("a value: a number, true, false, a string or a list")
                .found("a map")),
        }
    }

    fn version(&self, v: &Node) -> Result<(), Diagnostic> {
        match v.scalar() {
            Some("1") => Ok(()),
            _ => Err(self
                .error(v.pos, "unsupported spec version")
                .expected("version: 1")
                .found(v.describe())
                .hint("this gametrace reads spec format version 1")),
        }
    }

    fn string(&self, v: &Node, key: &str) -> Result<String, Diagnostic> {
        match v.scalar() {
            Some(s) if !v.is_null() => Ok(s.to_owned()),
            _ => Err(self
                .error(v.pos, format!("`{key}` must be text"))
                .expected("a line of text")
                .found(v.describe())),
        }
    }

    fn player(&self, v: &Node) -> Result<Player, Diagnostic> {
        self.player_for(v, "root_player")
    }

    fn player_for(&self, v: &Node, key: &str) -> Result<Player, Diagnostic> {
        match v.scalar().map(|s| s.to_ascii_lowercase()).as_deref() {
            // CSC148 calls the players p1 (who moves first) and p2.
            // Tic-tac-toe's players are X (who moves first) and O.
            Some("maxie" | "p1" | "x") => Ok(Player::Maxie),
            Some("minnie" | "p2" | "o") => Ok(Player::Minnie),
            _ => Err(self
                .error(v.pos, format!("unknown player for `{key}`"))
                .expected("Maxie or Minnie (p1 or p2 in CSC148's games, X or O in tic-tac-toe)")
                .found(v.describe())),
        }
    }

    fn move_names(&self, v: &Node) -> Result<Vec<String>, Diagnostic> {
        let Yaml::Seq(items) = &v.yaml else {
            return Err(self
                .error(v.pos, "`move_names` must be a list")
                .expected("the root's move names by index, like [left, middle, right]")
                .found(v.describe()));
        };
        items
            .iter()
            .map(|item| match item.scalar() {
                Some(s) if !item.is_null() && !s.contains(['\n', '\r']) => Ok(s.to_owned()),
                _ => Err(self
                    .error(item.pos, "a move name must be a single word or line")
                    .expected("a name like `left`")
                    .found(item.describe())),
            })
            .collect()
    }

    fn sml_structure(&self, v: &Node) -> Result<String, Diagnostic> {
        let s = v.scalar().unwrap_or("");
        if super::is_sml_identifier(s) && !v.is_null() {
            Ok(s.to_owned())
        } else {
            Err(self
                .error(v.pos, "`sml_structure` must be an SML structure name")
                .expected("a name like HandoutBig (letters, digits, _ and ')")
                .found(v.describe()))
        }
    }

    /// An integer in YAML or SML notation (`-2` or `~2`), from a plain scalar.
    fn integer(&self, v: &Node, what: &str, example: &str) -> Result<i64, Diagnostic> {
        let bad = |found: String| {
            self.error(v.pos, format!("{what} must be an integer"))
                .expected(format!("a whole number, like {example}"))
                .found(found)
        };
        match &v.yaml {
            Yaml::Scalar { text, plain: true } if !v.is_null() => {
                let t = text.strip_prefix('~').map(|r| format!("-{r}"));
                let t = t.as_deref().unwrap_or(text);
                t.parse::<i64>().map_err(|e| {
                    let d = bad(v.describe());
                    match e.kind() {
                        std::num::IntErrorKind::PosOverflow
                        | std::num::IntErrorKind::NegOverflow => {
                            d.hint("estimates must fit in 64 bits")
                        }
                        _ => d,
                    }
                })
            }
            Yaml::Scalar { text, plain: false } if text.trim().parse::<i64>().is_ok() => {
                Err(bad(v.describe()).hint("remove the quotes"))
            }
            _ => Err(bad(v.describe())),
        }
    }

    /// A leaf's or a static value: an integer as [`Loader::integer`] reads it, or a number
    /// with decimals (`3.01`), times 10^`places`.
    fn value_of(&self, v: &Node, what: &str, places: u8) -> Result<i64, Diagnostic> {
        match &v.yaml {
            Yaml::Scalar { text, plain: true }
                if !v.is_null() && decimal_places(text).is_some() =>
            {
                scaled_value(text, places).ok_or_else(|| {
                    let d = self
                        .error(v.pos, format!("{what} is out of range"))
                        .found(v.describe());
                    if decimal_places(text).unwrap_or(0) > usize::from(MAX_PLACES) {
                        d.expected(format!("at most {MAX_PLACES} decimal places"))
                            .hint("round the value")
                    } else {
                        d.expected("a value that fits in 64 bits with the tree's decimal places")
                    }
                })
            }
            _ if places == 0 => self.integer(v, what, "3 or -2"),
            _ => {
                let n = self.integer(v, what, "3, -2 or 3.01")?;
                (0..places)
                    .try_fold(n, |n, _| n.checked_mul(10))
                    .ok_or_else(|| {
                        self.error(v.pos, format!("{what} is out of range"))
                            .expected("a value that fits in 64 bits with the tree's decimal places")
                            .found(v.describe())
                    })
            }
        }
    }

    /// Remembers the first value written with decimals (only the cs188 dialect prints them).
    fn note_decimal(&self, v: &Node, name: &str) {
        if let Yaml::Scalar { text, plain: true } = &v.yaml {
            if decimal_places(text).is_some_and(|p| p > 0) {
                let mut first = self.first_decimal.borrow_mut();
                if first.is_none() {
                    *first = Some((v.pos, name.to_owned()));
                }
            }
        }
    }

    /// The most decimal places of any value in a subtree (its leaves and static values).
    fn places_in(&self, v: &Node, level: u32) -> u8 {
        if level > MAX_HEIGHT + 1 {
            return 0;
        }
        match &v.yaml {
            Yaml::Scalar { text, plain: true } => {
                decimal_places(text).map_or(0, |p| p.min(usize::from(u8::MAX)) as u8)
            }
            Yaml::Map(entries) => entries
                .iter()
                .map(|(k, x)| match k.scalar() {
                    Some(CHANCE_KEY | ACTIONS_KEY) => 0,
                    _ => self.places_in(x, level + 1),
                })
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    /// `actions: [Left, Right]`: one name for each of the node's `children`, none twice.
    fn actions(
        &self,
        name: &str,
        key: &Node,
        v: &Node,
        children: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let Yaml::Seq(items) = &v.yaml else {
            return Err(self
                .error(v.pos, format!("the actions of `{name}` must be a list"))
                .expected(format!("a name for each of its {children} moves, like [Left, Right]"))
                .found(v.describe())
                .hint(format!("`{ACTIONS_KEY}:` names a node's moves; a child may not be named `{ACTIONS_KEY}`")));
        };
        let mut names: Vec<String> = Vec::with_capacity(items.len());
        for item in items {
            match item.scalar() {
                Some(s)
                    if !item.is_null() && !s.is_empty() && !s.chars().any(char::is_whitespace) =>
                {
                    if names.iter().any(|n| n == s) {
                        return Err(self
                            .error(item.pos, format!("`{name}` has two actions named `{s}`"))
                            .expected("a different name for each move of a node")
                            .found(format!("`{s}` twice"))
                            .hint("a move is chosen by its name: rename one"));
                    }
                    names.push(s.to_owned());
                }
                _ => {
                    return Err(self
                        .error(item.pos, "an action name must be one word")
                        .expected("a name like `Left`, without spaces")
                        .found(item.describe()))
                }
            }
        }
        if names.len() != children {
            return Err(self
                .error(
                    key.pos,
                    format!(
                        "`{name}` has {children} moves and {} action names",
                        names.len()
                    ),
                )
                .expected(format!(
                    "one name for each of its {children} children, in move order"
                ))
                .found(format!("[{}]", names.join(", ")))
                .hint("list exactly one action per child"));
        }
        Ok(names)
    }

    /// `agents: 3` (Pacman, then two ghosts) or `agents: [max, min, min]`.
    fn agents(&self, v: &Node) -> Result<Vec<Player>, Diagnostic> {
        let bad = |found: String| {
            self.error(v.pos, "`agents` says who moves at each level in turn")
                .expected(format!(
                    "a number of agents (1 to {MAX_AGENTS}: Pacman, then the ghosts, as CS188's num_agents), or a list of max and min"
                ))
                .found(found)
        };
        match &v.yaml {
            Yaml::Seq(items) => {
                if items.is_empty() || items.len() > MAX_AGENTS {
                    return Err(bad(format!("a list of {} agents", items.len())));
                }
                items
                    .iter()
                    .map(|item| match item.scalar() {
                        Some("max" | "Max" | "MAX") => Ok(Player::Maxie),
                        Some("min" | "Min" | "MIN") => Ok(Player::Minnie),
                        _ => Err(self
                            .error(item.pos, "an agent is max or min")
                            .expected("max (maximises) or min (minimises)")
                            .found(item.describe())
                            .hint("expectimax averages the min agents' moves uniformly")),
                    })
                    .collect()
            }
            Yaml::Scalar { plain: true, .. } => {
                let n = self.integer(v, "`agents`", "3")?;
                match usize::try_from(n) {
                    Ok(n) if (1..=MAX_AGENTS).contains(&n) => {
                        let mut agents = vec![Player::Minnie; n];
                        agents[0] = Player::Maxie;
                        Ok(agents)
                    }
                    _ => Err(bad(v.describe())),
                }
            }
            _ => Err(bad(v.describe())),
        }
    }

    /// The nodes a `win_states:` or `lose_states:` list names (a name no node has is warned
    /// about, as CS188's test files list some that are not in the tree).
    fn outcome_states(
        &self,
        key: &Node,
        v: &Node,
        tree: &Tree,
        outcome: Outcome,
    ) -> Result<Vec<(crate::game::tree::NodeId, Outcome)>, Diagnostic> {
        let what = key.scalar().unwrap_or("win_states");
        let Yaml::Seq(items) = &v.yaml else {
            if v.is_null() {
                return Ok(Vec::new());
            }
            return Err(self
                .error(v.pos, format!("`{what}` must be a list of node names"))
                .expected("a list like [A, C]")
                .found(v.describe()));
        };
        let mut by_name: HashMap<String, Vec<crate::game::tree::NodeId>> = HashMap::new();
        for id in 0..tree.len() as crate::game::tree::NodeId {
            by_name.entry(tree.name(id)).or_default().push(id);
        }
        let mut out = Vec::new();
        for item in items {
            let Some(name) = item.scalar().filter(|_| !item.is_null()) else {
                return Err(self
                    .error(
                        item.pos,
                        format!("an entry of `{what}` must be a node name"),
                    )
                    .expected("a node name like `A`")
                    .found(item.describe()));
            };
            match by_name.get(name) {
                Some(ids) => out.extend(ids.iter().map(|&id| (id, outcome))),
                None => self.problem(
                    self.error(
                        item.pos,
                        format!("`{what}` names `{name}`, which is no node of the tree"),
                    )
                    .warning()
                    .expected("names of the tree's nodes")
                    .found(format!("`{name}`"))
                    .or_hint(
                        match did_you_mean(
                            name,
                            &by_name.keys().map(String::as_str).collect::<Vec<_>>(),
                        ) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "it changes nothing (CS188's test files list some such names)"
                                .to_owned(),
                        },
                    ),
                ),
            }
        }
        Ok(out)
    }

    /// A win or lose state with moves must have a static value: a search stops there and
    /// takes it.
    fn outcomes_have_values(&self, tree: &Tree, at: &Node) {
        for &(id, _) in tree.outcomes() {
            if tree.static_value(id).is_none() {
                let name = tree.name(id);
                self.problem(
                    self.error(at.pos, format!("the win or lose state `{name}` has moves and no value"))
                        .expected(format!("`{name}: {{static: 3, ...}}`: a search stops at a win or lose state and takes its value"))
                        .found(format!("`{name}` with children and no `static:`"))
                        .hint(format!("give `{name}` a static value, or take it out of win_states/lose_states")),
                );
            }
        }
    }

    fn tree(&self, key: &Node, v: &Node) -> Result<Tree, Diagnostic> {
        let empty = || {
            self.error(v.pos, "the tree is empty")
                .expected("one root: `root-name:` followed by its children")
                .found(v.describe())
                .hint("for example `tree: {a: {b: 3, c: 5}}`")
        };
        if v.is_null() {
            return Err(self
                .error(key.pos, "the tree is empty")
                .expected("one root: `root-name:` followed by its children")
                .found("nothing after `tree:`")
                .hint("for example `tree: {a: {b: 3, c: 5}}`"));
        }
        let entries = self.map(v, "`tree`")?;
        match entries {
            [] => Err(empty()),
            [(root_key, root_value)] => {
                if root_key.scalar() == Some("generate")
                    && matches!(&root_value.yaml, Yaml::Map(m) if m.iter().all(|(_, x)| x.scalar().is_some()))
                {
                    return self.generate(root_value);
                }
                // Every node is a key, and every key has a colon after it: sized
                // once, the map of names is not rebuilt as it grows (that was 5% of a load).
                let keys = self.source.bytes().filter(|&b| b == b':').count();
                let mut walk = TreeWalk {
                    names: HashMap::with_capacity(keys),
                    places: self.places_in(root_value, 0).min(MAX_PLACES),
                    ..TreeWalk::default()
                };
                self.node(root_key, root_value, 0, &mut walk)?;
                let places = walk.places;
                let mut tree = walk.builder.finish();
                tree.set_places(places);
                if tree.is_leaf(tree.root()) {
                    return Err(self
                        .error(
                            root_key.pos,
                            format!("the root `{}` is a leaf", tree.name(0)),
                        )
                        .expected("a root with at least one move")
                        .found(format!("the estimate {}", root_value.describe()))
                        .hint("a search chooses a move at the root; give it children"));
                }
                Ok(tree)
            }
            [_, (second, _), ..] => Err(self
                .error(second.pos, "a tree has one root")
                .expected("a single `root-name:` under `tree:`")
                .found(format!("{} roots", entries.len()))
                .hint("indent the other nodes under the root")),
        }
    }

    /// One node and its subtree, in preorder. A node written as a map is an inner node
    /// (its children) unless the map holds only `static:`, which makes it a leaf.
    fn node<'n>(
        &self,
        key: &'n Node,
        value: &'n Node,
        level: u32,
        walk: &mut TreeWalk<'n>,
    ) -> Result<(), Diagnostic> {
        let name = match key.scalar() {
            Some(n) if !key.is_null() && !n.chars().any(char::is_control) => n,
            _ => {
                self.problem(
                    self.error(key.pos, "a node name must be plain text")
                        .expected("a name like `b`")
                        .found(key.describe()),
                );
                "?"
            }
        };
        self.first_use(&mut walk.names, name, key.pos);
        let (builder, count) = (&mut walk.builder, &mut walk.count);
        if level > MAX_HEIGHT {
            return Err(self
                .error(
                    key.pos,
                    format!("the tree is more than {MAX_HEIGHT} levels deep"),
                )
                .expected(format!("a tree at most {MAX_HEIGHT} levels deep"))
                .found(format!("node `{name}` at level {level}")));
        }
        *count += 1;
        if *count > MAX_NODES {
            return Err(self
                .error(key.pos, "the tree is too large")
                .expected(format!("at most {MAX_NODES} nodes"))
                .found("more"));
        }
        match &value.yaml {
            Yaml::Map(entries)
                if entry(entries, STATIC_KEY).is_some()
                    || entry(entries, CHANCE_KEY).is_some()
                    || entry(entries, ACTIONS_KEY).is_some() =>
            {
                // `b: {static: 5, c: 3, d: 6}`: an inner node with a static value, which a
                // depth-limited search estimates if it stops at b. `b: {chance: {c: 1/3, d:
                // 2/3}, c: 3, d: 6}`: a chance node, its children's probabilities. `b:
                // {actions: [Left, Right], c: 3, d: 6}`: its moves' names.
                let (mut static_at, mut chance_at, mut actions_at) = (None, None, None);
                let mut children = Vec::new();
                for (k, v) in entries {
                    match k.scalar() {
                        Some(STATIC_KEY) if static_at.is_none() => static_at = Some(v),
                        Some(CHANCE_KEY) if chance_at.is_none() => chance_at = Some((k, v)),
                        Some(ACTIONS_KEY) if actions_at.is_none() => actions_at = Some((k, v)),
                        _ => children.push((k, v)),
                    }
                }
                let reserved = |d: Diagnostic, v: &Node, key: &str| {
                    if matches!(v.yaml, Yaml::Map(_)) && key == STATIC_KEY {
                        d.hint(format!(
                            "`{key}:` is a node's static value; a child may not be named `{key}`"
                        ))
                    } else {
                        d
                    }
                };
                let places = walk.places;
                let estimate = static_at.and_then(|v| {
                    self.soft(
                        self.value_of(v, &format!("the static value of `{name}`"), places)
                            .map_err(|d| reserved(d, v, STATIC_KEY)),
                    )
                });
                if let Some(v) = static_at {
                    self.note_decimal(v, name);
                }
                self.keys(entries, format_args!("the children of `{name}`"));
                let actions = actions_at
                    .and_then(|(k, v)| self.soft(self.actions(name, k, v, children.len())));
                match static_at {
                    Some(_) => builder.open_with_static(name, estimate.unwrap_or(0)),
                    None => builder.open(name),
                }
                if let Some((k, v)) = chance_at {
                    if let Some(ps) = self.soft(self.chance_probabilities(name, k, v, &children)) {
                        builder.chance(ps);
                    }
                }
                for (i, (k, v)) in children.into_iter().enumerate() {
                    let id = walk.builder.len();
                    if let Some(action) = actions.as_ref().and_then(|a| a.get(i)) {
                        walk.builder.name_move(id, action);
                    }
                    self.node(k, v, level + 1, walk)?;
                }
                walk.builder.close();
                Ok(())
            }
            Yaml::Map(children) => {
                if children.is_empty() {
                    self.problem(
                        self.error(
                            value.pos,
                            format!("node `{name}` has no children and no estimate"),
                        )
                        .expected("children (`name: ...`) or an integer estimate")
                        .found("an empty map `{}`")
                        .hint(format!("write `{name}: 0` for a leaf")),
                    );
                    builder.leaf(name, 0);
                    return Ok(());
                }
                self.keys(children, format_args!("the children of `{name}`"));
                builder.open(name);
                for (k, v) in children {
                    self.node(k, v, level + 1, walk)?;
                }
                walk.builder.close();
                Ok(())
            }
            // Most leaves are plain decimal integers: read without formatting a description
            // that only an error would need.
            Yaml::Scalar { text, plain: true }
                if walk.places == 0 && plain_decimal(text).is_some() =>
            {
                builder.leaf(name, plain_decimal(text).unwrap_or(0));
                Ok(())
            }
            _ => {
                self.note_decimal(value, name);
                let places = walk.places;
                let estimate = self.soft(self
                    .value_of(value, &format!("the leaf `{name}`"), places)
                    .map_err(|d| {
                        if d.hint.is_some() {
                            d
                        } else if value.is_null() {
                            d.hint(format!("give `{name}` an estimate (`{name}: 0`) or children"))
                        } else {
                            d.hint(format!(
                                "a leaf is an integer estimate; an inner node has children: `{name}: {{x: 1, y: 2}}`"
                            ))
                        }
                    }));
                builder.leaf(name, estimate.unwrap_or(0));
                Ok(())
            }
        }
    }

    /// A chance node's `chance:` map: each child's probability, in the children's order.
    /// Every child has one, each is exact and not negative, and they sum to 1.
    fn chance_probabilities(
        &self,
        name: &str,
        key: &Node,
        v: &Node,
        children: &[(&Node, &Node)],
    ) -> Result<Vec<crate::game::Probability>, Diagnostic> {
        use num_traits::{One, Zero};
        let entries = self
            .map(v, &format!("the probabilities of `{name}`"))
            .map_err(|d| {
                d.hint(format!(
                    "write each child's probability: `{CHANCE_KEY}: {{c: 1/2, d: 1/2}}`"
                ))
            })?;
        let mut given: Vec<(&str, crate::game::Probability, Pos)> = Vec::new();
        for (k, p) in entries {
            let child = k.scalar().unwrap_or("");
            if !children.iter().any(|(c, _)| c.scalar() == Some(child)) {
                let names: Vec<&str> = children.iter().filter_map(|(c, _)| c.scalar()).collect();
                return Err(self
                    .unknown_name(k, &format!("`{child}` is not a child of `{name}`"), &names)
                    .expected(format!(
                        "a probability for each child of `{name}`: {}",
                        names.join(", ")
                    )));
            }
            let text = p.scalar().unwrap_or("");
            let Some(prob) = parse_probability(text) else {
                return Err(self
                    .error(
                        p.pos,
                        format!("the probability of `{child}` is not a number"),
                    )
                    .expected("a fraction like 1/3, a decimal like 0.25, 0 or 1")
                    .found(p.describe())
                    .hint("probabilities are exact: write 1/3, not 0.333"));
            };
            if prob < crate::game::Probability::zero() {
                return Err(self
                    .error(p.pos, format!("the probability of `{child}` is negative"))
                    .expected("a probability from 0 to 1")
                    .found(format!("`{text}`")));
            }
            given.push((child, prob, p.pos));
        }
        let mut out = Vec::with_capacity(children.len());
        for (c, _) in children {
            let child = c.scalar().unwrap_or("");
            match given.iter().find(|(n, _, _)| *n == child) {
                Some((_, p, _)) => out.push(p.clone()),
                None => {
                    return Err(self
                        .error(
                            key.pos,
                            format!("the chance node `{name}` gives `{child}` no probability"),
                        )
                        .expected(format!("a probability for each child of `{name}`"))
                        .found(format!("none for `{child}`"))
                        .hint(format!(
                            "add `{child}: 1/{}` (or its own) to `{CHANCE_KEY}:`",
                            children.len()
                        )))
                }
            }
        }
        if children.is_empty() {
            return Err(self
                .error(key.pos, format!("the chance node `{name}` has no children"))
                .expected("children, each with a probability")
                .found("none"));
        }
        let sum: crate::game::Probability = out.iter().cloned().sum();
        if !sum.is_one() {
            return Err(self
                .error(
                    key.pos,
                    format!("the probabilities of `{name}` sum to {sum}, not 1"),
                )
                .expected("probabilities that sum to exactly 1")
                .found(format!(
                    "{} = {sum}",
                    given
                        .iter()
                        .map(|(_, p, _)| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" + ")
                ))
                .hint(
                    "write thirds as 1/3: decimals like 0.33 are taken exactly and do not add up",
                ));
        }
        Ok(out)
    }

    fn generate(&self, v: &Node) -> Result<Tree, Diagnostic> {
        let entries = self.map(v, "`generate`")?;
        self.keys(entries, "`generate`");
        let mut g = Generate {
            branching: 0,
            depth: 0,
            seed: 0,
            min: -10,
            max: 10,
        };
        let (mut has_branching, mut has_depth) = (false, false);
        for (k, x) in entries {
            let key = k.scalar().unwrap_or("");
            let n = || self.integer(x, &format!("`{key}`"), "3");
            let positive = |n: i64, what: &str| {
                u32::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
                    self.error(x.pos, format!("`{key}` is out of range"))
                        .expected(format!("{what}, at least 1"))
                        .found(x.describe())
                })
            };
            match key {
                "branching" => {
                    g.branching = positive(n()?, "a number of children per node")?;
                    has_branching = true;
                }
                "depth" => {
                    g.depth = positive(n()?, "a number of levels below the root")?;
                    has_depth = true;
                }
                "seed" => {
                    g.seed = u64::try_from(n()?).map_err(|_| {
                        self.error(x.pos, "`seed` is out of range")
                            .expected("a whole number, 0 or more")
                            .found(x.describe())
                    })?
                }
                "min" => g.min = n()?,
                "max" => g.max = n()?,
                _ => return Err(self.unknown_key(k, GENERATE_KEYS, "`generate`")),
            }
        }
        if !has_branching || !has_depth {
            let missing = if has_branching { "depth" } else { "branching" };
            return Err(self
                .error(v.pos, format!("`generate` needs `{missing}`"))
                .expected("branching and depth (seed, min and max are optional)")
                .found(format!("no `{missing}`"))
                .hint(
                    "for example `generate: {branching: 3, depth: 4, seed: 7, min: -20, max: 20}`",
                ));
        }
        if g.min > g.max {
            return Err(self
                .error(v.pos, "`min` is greater than `max`")
                .expected("min <= max")
                .found(format!("min {} and max {}", g.min, g.max)));
        }
        if g.depth > MAX_HEIGHT {
            return Err(self
                .error(v.pos, "the generated tree is too deep")
                .expected(format!("depth at most {MAX_HEIGHT}"))
                .found(format!("depth {}", g.depth)));
        }
        match g.node_count() {
            Some(n) if n <= MAX_NODES => Ok(Tree::generate(&g)),
            n => Err(self
                .error(v.pos, "the generated tree is too large")
                .expected(format!("at most {MAX_NODES} nodes"))
                .found(match n {
                    Some(n) => format!("{n} nodes ({}^{} leaves)", g.branching, g.depth),
                    None => format!("more than 2^64 nodes ({}^{} leaves)", g.branching, g.depth),
                })
                .hint("lower branching or depth")),
        }
    }

    fn cases(
        &self,
        key: &Node,
        v: &Node,
        target: Target,
        defaults: &Defaults,
    ) -> Result<Vec<Case>, Diagnostic> {
        let entries = self.map(v, "`cases`")?;
        if entries.is_empty() {
            return Err(self
                .error(key.pos, "the spec has no cases")
                .expected("at least one case under `cases:`")
                .found("an empty map")
                .hint("add for example `alphabeta: {algorithm: alphabeta}`"));
        }
        self.keys(entries, "`cases`");
        Ok(entries
            .iter()
            .filter_map(|(k, v)| self.case(k, v, target, defaults))
            .collect())
    }

    /// One case, or `None` with every problem in it noted: each key is checked on its own,
    /// the search's first (its algorithm, dialect and rules, then its depth), then how it is
    /// shown, how it is graded, and the settings of one course or algorithm.
    fn case(&self, key: &Node, v: &Node, target: Target, defaults: &Defaults) -> Option<Case> {
        let name = self.soft(self.case_name(key))?;
        let what = format!("case `{name}`");
        let entries = self.soft(self.map(v, &what))?;
        self.keys(entries, &what);
        self.case_keys(entries, target, &what);
        let search = self.case_search(key, entries, &what, target, defaults)?;
        let shown = self.case_shown(entries, target, defaults, search.dialect);
        let graded = self.case_graded(entries, search.algorithm);
        let extras = self.case_extras(entries, &what, target, &search);
        let (
            Some(algorithm),
            Some(dialect),
            Some(rules),
            Some(depth),
            Some(depth_unit),
            Some(prune_on),
            Some(shown),
            Some(graded),
            Some(extras),
        ) = (
            search.algorithm,
            search.dialect,
            search.rules,
            search.depth,
            search.depth_unit,
            search.prune_on,
            shown,
            graded,
            extras,
        )
        else {
            return None;
        };
        let tree = target.tree();
        let mut style = Style::new(dialect);
        if let Some(lines) = shown.lines {
            style.lines = lines;
        }
        style.move_names = shown.move_names;
        style.sml_structure = shown.sml_structure;
        style.decimals = search.decimals.flatten();
        let places = tree.map_or(0, Tree::places);
        style.places = places;
        let root_player = match tree.and_then(|t| t.agents().first()) {
            Some(&first) => first,
            None => shown.root_player,
        };
        Some(Case {
            name: name.to_owned(),
            algorithm,
            depth,
            dialect,
            rules,
            root_player,
            style,
            exact: graded.exact,
            mode: graded.mode,
            unordered: graded.unordered,
            points: graded.points,
            visibility: graded.visibility,
            time_limit: graded.time_limit,
            metrics: extras.metrics,
            cs10: extras.cs10,
            deepening: extras.deepening,
            depth_unit,
            cs188: crate::search::cs188::Options {
                agents: search.agents.min(u32::from(u8::MAX)) as u8,
                prune_on,
                places,
            },
        })
    }

    /// A case's keys: each one known for its target (a tree's or a game's search).
    fn case_keys(&self, entries: &[(Node, Node)], target: Target, what: &str) {
        let known = match target {
            Target::Tree(_) => CASE_KEYS,
            Target::Game(..) => game::GAME_CASE_KEYS,
        };
        for (k, _) in entries {
            let key = k.scalar().unwrap_or("");
            if let (Target::Game(..), "root_player" | "move_names") = (target, key) {
                self.problem(
                    self.error(k.pos, format!("`{key}` is a setting for tree searches"))
                        .expected(format!("one of {}", known.join(", ")))
                        .found(format!("`{key}`"))
                        .hint("a game position says who moves with `to_move`, and its moves have names of their own"),
                );
            } else if !known.contains(&key) {
                self.problem(self.unknown_key(k, known, what));
            }
        }
    }

    /// A case's search: its algorithm, dialect and rules (`None` where they do not fit
    /// together or with the tree), its depth and the settings that go with them.
    fn case_search(
        &self,
        key: &Node,
        entries: &[(Node, Node)],
        what: &str,
        target: Target,
        defaults: &Defaults,
    ) -> Option<CaseSearch> {
        let get = |k: &str| entry(entries, k);
        let tree = target.tree();
        let algorithm = self.soft(self.case_algorithm(key, what, entries));
        let alg_name = get("algorithm").and_then(|(_, a)| a.scalar()).unwrap_or("");
        let default_dialect = if CSC148_ALGORITHMS.contains(&alg_name) {
            Dialect::Csc148
        } else if CS10_ALGORITHMS.contains(&alg_name) {
            Dialect::Cs10
        } else if EXPECT_ALGORITHMS.contains(&alg_name) {
            Dialect::Expectimax
        } else {
            defaults.dialect.unwrap_or(Dialect::S14)
        };
        let dialect = self.soft(self.case_dialect(entries, default_dialect));
        // Rules and line kinds are checked against the dialect, so only against a known one.
        let rules = dialect.and_then(|d| self.soft(self.case_rules(d, entries)));
        if let (Some(a), Some(r)) = (algorithm, rules) {
            if !self.algorithm_fits_rules(a, alg_name, r, target, entries) {
                return None;
            }
        }
        if let (Some(a), Some(tree)) = (algorithm, tree) {
            if !self.chance_fits(tree, a, alg_name, entries) {
                return None;
            }
        }
        if let (Some(r), Some(d), Some(tree)) = (rules, dialect, tree) {
            if !self.tree_fits_dialect(tree, r, d, what, entries) {
                return None;
            }
        }
        let agents = tree.map_or(2, |t| match t.agents().len() {
            0 => 2,
            n => n as u32,
        });
        let depth_unit = match get("depth_unit") {
            None if dialect == Some(Dialect::Cs188) => Some(DepthUnit::Rounds),
            None => Some(DepthUnit::Moves),
            Some((_, u)) => self.soft(self.depth_unit(u, dialect)),
        };
        let prune_on = match get("prune_on") {
            None => Some(crate::search::cs188::PruneOn::default()),
            Some((k, p)) => self.soft(self.prune_on(k, p, rules)),
        };
        let decimals = match get("decimals") {
            None => Some(None),
            Some((k, d)) if rules != Some(Rules::Expectimax) => {
                let _ = d;
                self.problem(
                    self.error(k.pos, "`decimals` is a setting of expectimax searches")
                        .expected("`decimals` with algorithm: expectimax or expectiminimax")
                        .found(format!("algorithm: {alg_name}"))
                        .hint("remove it"),
                );
                None
            }
            Some((_, d)) => {
                self.soft(self.integer(d, "`decimals`", "2"))
                    .and_then(|n| match u8::try_from(n) {
                        Ok(n) if n <= 12 => Some(Some(n)),
                        _ => {
                            self.problem(
                                self.error(d.pos, "`decimals` is out of range")
                                    .expected("0 to 12 decimal places")
                                    .found(d.describe())
                                    .hint("leave it out to print exact fractions like 19/3"),
                            );
                            None
                        }
                    })
            }
        };
        let mut search = CaseSearch {
            algorithm,
            dialect,
            rules,
            depth: None,
            depth_unit,
            prune_on,
            decimals,
            agents,
        };
        search.depth = self.case_search_depth(key, entries, what, target, &search);
        Some(search)
    }

    /// A case's depth in moves, as `search`'s algorithm, rules and unit read its `depth:`.
    fn case_search_depth(
        &self,
        key: &Node,
        entries: &[(Node, Node)],
        what: &str,
        target: Target,
        search: &CaseSearch,
    ) -> Option<u32> {
        let get = |k: &str| entry(entries, k);
        let tree = target.tree();
        let alg_name = get("algorithm").and_then(|(_, a)| a.scalar()).unwrap_or("");
        let CaseSearch {
            algorithm,
            rules,
            depth_unit,
            agents,
            ..
        } = *search;
        let csc148 = rules == Some(Rules::Csc148);
        match (target, get("depth")) {
            (Target::Game(..), None) if csc148 && alg_name == "myopic" => {
                self.problem(
                        self.error(key.pos, format!("{what} is myopic and has no `depth`"))
                            .expected("`depth:`, how many moves ahead to look before taking the rough outcome")
                            .found(format!("keys {}", Self::key_list(entries)))
                            .hint("try `depth: 2`; minimax, memoize and prune search every game to its end"),
                    );
                None
            }
            (Target::Game(..), None) if csc148 => Some(crate::search::csc148::TO_THE_END),
            (_, Some((k, _))) if algorithm == Some(Algorithm::GameStateTree) => {
                self.problem(
                    self.error(k.pos, "a game-state tree has no `depth`")
                        .expected("the tree of every game to its end")
                        .found("`depth`")
                        .hint("remove it"),
                );
                None
            }
            (Target::Game(_, Some(to_the_end)), None) => Some(to_the_end),
            (Target::Game(..), None) => {
                self.problem(
                    self.error(key.pos, format!("{what} has no `depth`"))
                        .expected("`depth:`, how many moves ahead to search the position")
                        .found(format!("keys {}", Self::key_list(entries)))
                        .hint("a game has no bottom a search could default to; try `depth: 2`"),
                );
                None
            }
            (Target::Game(..), Some((_, d))) => self
                .soft(self.case_depth(None, entries, DepthUnit::Moves, 2))
                .and_then(|depth| {
                    if depth <= crate::game::MAX_DEPTH {
                        return Some(depth);
                    }
                    self.problem(
                        self.error(d.pos, "`depth` is too deep for a game search")
                            .expected(format!("at most {}", crate::game::MAX_DEPTH))
                            .found(d.describe())
                            .hint(
                                "the searches look every move ahead; depths past 10 rarely finish",
                            ),
                    );
                    None
                }),
            _ => {
                depth_unit.and_then(|unit| self.soft(self.case_depth(tree, entries, unit, agents)))
            }
        }
    }

    /// How a case is shown: its line kinds, move names, SML structure and root player.
    fn case_shown(
        &self,
        entries: &[(Node, Node)],
        target: Target,
        defaults: &Defaults,
        dialect: Option<Dialect>,
    ) -> Option<CaseShown> {
        let get = |k: &str| entry(entries, k);
        let tree = target.tree();
        let lines = match (get("lines"), dialect) {
            (Some((_, l)), Some(d)) => self.soft(self.lines(l, d)).map(Some),
            _ => Some(None),
        };
        let move_names = match get("move_names") {
            Some((_, m)) => {
                if let Some(t) = tree {
                    self.unused_move_names(m, t);
                }
                self.soft(self.move_names(m))
            }
            None => Some(defaults.move_names.clone().unwrap_or_default()),
        };
        let sml_structure = match get("sml_structure") {
            Some((_, s)) => self.soft(self.sml_structure(s)),
            None => Some(
                defaults
                    .sml_structure
                    .clone()
                    .unwrap_or_else(|| "Game".to_owned()),
            ),
        };
        let root_player = match (target, get("root_player")) {
            (Target::Game(p, _), _) => Some(p),
            (_, Some((_, p))) => self.soft(self.player(p)),
            (_, None) => Some(defaults.root_player.unwrap_or(Player::Maxie)),
        };
        Some(CaseShown {
            lines: lines?,
            move_names: move_names?,
            sml_structure: sml_structure?,
            root_player: root_player?,
        })
    }

    /// How a case is graded: compared exactly or not, in which mode, which blocks in any
    /// order, its points, who sees it, its time limit.
    fn case_graded(
        &self,
        entries: &[(Node, Node)],
        algorithm: Option<Algorithm>,
    ) -> Option<CaseGraded> {
        let get = |k: &str| entry(entries, k);
        let exact = match get("exact") {
            Some((_, e)) => self.soft(self.case_exact(e)),
            None => Some(false),
        };
        let mode = self.soft(self.case_mode(entries));
        let unordered = match (get("unordered"), algorithm) {
            (Some((_, u)), Some(a)) => self.soft(self.unordered(u, a)),
            (Some((_, u)), None) => self.soft(self.unordered(u, Algorithm::Minimax)),
            (None, _) => Some(Unordered::None),
        };
        let points = match get("points") {
            Some((_, p)) => self.soft(self.points(p)),
            None => Some(1.0),
        };
        let visibility = match get("visibility") {
            Some((_, v)) => self.soft(self.visibility(v)),
            None => Some(Visibility::Visible),
        };
        let time_limit = match get("time_limit") {
            Some((_, t)) => self.soft(self.time_limit(t).map(Some)),
            None => Some(None),
        };
        Some(CaseGraded {
            exact: exact?,
            mode: mode?,
            unordered: unordered?,
            points: points?,
            visibility: visibility?,
            time_limit: time_limit?,
        })
    }

    /// The settings of one algorithm or course: a game-state tree's metrics, CS10's options,
    /// iterative deepening.
    fn case_extras(
        &self,
        entries: &[(Node, Node)],
        what: &str,
        target: Target,
        search: &CaseSearch,
    ) -> Option<CaseExtras> {
        let get = |k: &str| entry(entries, k);
        let tree = target.tree();
        let CaseSearch {
            algorithm,
            rules,
            depth,
            ..
        } = *search;
        let metrics = match (get("metrics"), algorithm) {
            (None, _) => Some(crate::game::state_tree::METRICS.to_vec()),
            (Some((k, _)), Some(a)) if a != Algorithm::GameStateTree => {
                self.problem(
                    self.error(
                        k.pos,
                        format!(
                            "`metrics` is a setting of game-state trees; {what} runs {}",
                            a.name()
                        ),
                    )
                    .expected("metrics only with `algorithm: game_state_tree`")
                    .found(format!("algorithm: {}", a.name()))
                    .hint("remove it"),
                );
                None
            }
            (Some((_, m)), _) => self.soft(self.metrics(m)),
        };
        let cs10 = self.cs10_options(entries, rules, algorithm);
        let deepening = match (entry(entries, "deepening"), entry(entries, "move_order")) {
            (None, None) => Some(Deepening::None),
            (None, Some((k, _))) => {
                self.problem(
                    self.error(k.pos, "`move_order` orders the depths of iterative deepening, and this case does not deepen")
                        .expected("`move_order` with `deepening: iterative`")
                        .found(format!("keys {}", Self::key_list(entries)))
                        .hint("add `deepening: iterative`, or remove `move_order`"),
                );
                None
            }
            (Some((_, v)), order) => self
                .soft(self.deepening(v, algorithm, depth, tree, target))
                .and_then(|d| match order {
                    None => Some(d),
                    Some((_, o)) => self
                        .soft(self.move_order(o, rules))
                        .map(Deepening::Iterative),
                }),
        };
        Some(CaseExtras {
            metrics: metrics?,
            cs10: cs10?,
            deepening: deepening?,
        })
    }

    /// `depth_unit: moves` or `rounds`.
    fn depth_unit(&self, u: &Node, dialect: Option<Dialect>) -> Result<DepthUnit, Diagnostic> {
        let text = u.scalar().unwrap_or("");
        let names: Vec<&str> = DepthUnit::ALL.iter().map(|u| u.name()).collect();
        let Some(unit) = DepthUnit::parse(text) else {
            let e = self
                .error(u.pos, "unknown `depth_unit`")
                .expected(format!("one of {}", names.join(", ")))
                .found(u.describe());
            return Err(match did_you_mean(text, &names) {
                Some(s) => e.hint(format!("did you mean `{s}`?")),
                None => {
                    e.hint("`rounds` counts a move of every agent as one, as CS188 counts depth")
                }
            });
        };
        if dialect == Some(Dialect::Cs188) && unit == DepthUnit::Moves {
            return Err(self
                .error(u.pos, "CS188 counts depth in rounds")
                .expected("`depth_unit: rounds` (or none) with `dialect: cs188`")
                .found(u.describe())
                .hint("a CS188 agent's depth is the number of times every agent moves; remove `depth_unit`"));
        }
        Ok(unit)
    }

    /// `prune_on: ">"` (CS188) or `">="` (15-150), for the cs188 rules only.
    fn prune_on(
        &self,
        k: &Node,
        p: &Node,
        rules: Option<Rules>,
    ) -> Result<crate::search::cs188::PruneOn, Diagnostic> {
        use crate::search::cs188::PruneOn;
        if rules.is_some_and(|r| r != Rules::Cs188) {
            return Err(self
                .error(k.pos, "`prune_on` is a setting of the cs188 dialect's alpha-beta")
                .expected("`prune_on` with `dialect: cs188`")
                .found(format!("the {} rules", rules.map_or("", Rules::name)))
                .hint("the 15-150, CSC148 and CS10 searchers prune on >= as their handouts say (> is their catalogued mistake: strict-cut, prune-strict, window-strict)"));
        }
        let text = p.scalar().unwrap_or("");
        PruneOn::parse(text.trim()).ok_or_else(|| {
            self.error(p.pos, "unknown `prune_on`")
                .expected("\">\" (prune once a value passes the other bound, as CS188) or \">=\" (once it reaches it, as the 15-150 handouts)")
                .found(p.describe())
                .hint("quote it: `prune_on: \">=\"` (a bare > starts a YAML block)")
        })
    }

    /// A tree's values with decimals print only in the cs188 dialect; CS188's agents are
    /// Pacman (max) and then ghosts (min), and its ghosts are agents, not chance nodes.
    fn tree_fits_dialect(
        &self,
        tree: &Tree,
        rules: Rules,
        dialect: Dialect,
        what: &str,
        entries: &[(Node, Node)],
    ) -> bool {
        let at = entry(entries, "dialect")
            .or_else(|| entry(entries, "algorithm"))
            .map_or(Pos { line: 1, col: 1 }, |(_, a)| a.pos);
        if tree.places() > 0 && dialect != Dialect::Cs188 {
            if self.decimal_told.replace(true) {
                return false;
            }
            let (pos, name) = self
                .first_decimal
                .borrow()
                .clone()
                .unwrap_or((at, String::new()));
            self.problem(
                self.error(pos, format!("the value of `{name}` has decimals, and {what} prints the {dialect} dialect"))
                    .expected(format!("whole numbers (the {dialect} dialect prints integers), or `dialect: cs188`, which prints values as CS188 does"))
                    .found(
                        self.source
                            .lines()
                            .nth(pos.line.saturating_sub(1))
                            .and_then(|l| l.get(pos.col.saturating_sub(1)..))
                            .unwrap_or("")
                            .trim()
                            .to_owned(),
                    )
                    .hint("write the value as an integer (scaled, if need be)"),
            );
            return false;
        }
        if rules != Rules::Cs188 {
            return true;
        }
        let problem = if tree.has_chance() {
            Some(
                self.error(at, format!("{what} prints the cs188 dialect, and the tree has chance nodes"))
                    .expected("a tree of Pacman's and the ghosts' moves (`agents:`)")
                    .found("`chance:` in the tree")
                    .hint("CS188's expectimax averages each ghost's moves uniformly: write the ghosts as agents, and `algorithm: expectimax`"),
            )
        } else {
            let agents = tree.agents();
            let pacman_first = agents.first().is_none_or(|&p| p == Player::Maxie)
                && agents.iter().skip(1).all(|&p| p == Player::Minnie);
            let root_ok = !agents.is_empty()
                || entry(entries, "root_player")
                    .is_none_or(|(_, p)| self.player(p).ok() != Some(Player::Minnie));
            (!pacman_first || !root_ok).then(|| {
                self.error(
                    at,
                    format!("{what} prints the cs188 dialect, and its agents are not CS188's"),
                )
                .expected(
                    "Pacman (max) at the root, then ghosts (min): `agents: 3` or [max, min, min]",
                )
                .found(if agents.is_empty() {
                    "root_player: Minnie".to_owned()
                } else {
                    format!(
                        "agents: [{}]",
                        agents
                            .iter()
                            .map(|p| if *p == Player::Maxie { "max" } else { "min" })
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .hint("use the s14 or expectimax dialect for other orders of players")
            })
        };
        match problem {
            Some(d) => {
                self.problem(d);
                false
            }
            None => true,
        }
    }

    /// Chance nodes only under the expectimax searchers, and never at the root (a search
    /// chooses a move there).
    fn chance_fits(
        &self,
        tree: &Tree,
        algorithm: Algorithm,
        name: &str,
        entries: &[(Node, Node)],
    ) -> bool {
        let at = entry(entries, "algorithm").map_or(Pos { line: 1, col: 1 }, |(_, a)| a.pos);
        let Some(first) = tree.chance_nodes().next() else {
            return true;
        };
        let expect = matches!(algorithm, Algorithm::Expectimax | Algorithm::Expectiminimax);
        let problem = if !expect {
            Some(
                self.error(
                    at,
                    format!(
                        "the tree has chance nodes (`{}`), which {name} cannot search",
                        tree.name(first)
                    ),
                )
                .expected("algorithm: expectimax or expectiminimax")
                .found(format!("algorithm: {name}"))
                .hint("minimax, alpha-beta and Jamboree know two players and no dice"),
            )
        } else if tree.chance(tree.root()).is_some() {
            Some(
                self.error(
                    at,
                    format!("the root `{}` is a chance node", tree.name(tree.root())),
                )
                .expected("a root where a player chooses a move")
                .found("`chance:` at the root")
                .hint(
                    "put a player's node above it: the search reports the move chosen at the root",
                ),
            )
        } else {
            None
        };
        match problem {
            Some(d) => {
                self.problem(d);
                false
            }
            None => true,
        }
    }

    /// `deepening: iterative`: the case's search at depth 1, 2, ..., its `depth`. On a tree,
    /// every depth must stop at leaves or at nodes with static values.
    fn deepening(
        &self,
        v: &Node,
        algorithm: Option<Algorithm>,
        depth: Option<u32>,
        tree: Option<&Tree>,
        target: Target,
    ) -> Result<Deepening, Diagnostic> {
        let Some(deepening) = v.scalar().and_then(Deepening::parse) else {
            return Err(self
                .unknown_name(v, "unknown deepening", &["iterative"])
                .or_hint(
                    "`deepening: iterative` searches at depth 1, 2, ... up to the case's depth",
                ));
        };
        if algorithm == Some(Algorithm::GameStateTree) {
            return Err(self
                .error(v.pos, "a game-state tree has no depth to deepen")
                .expected("`deepening` with a search (minimax, alphabeta, ...)")
                .found("algorithm: game_state_tree")
                .hint("remove `deepening`"));
        }
        match depth {
            Some(0) | Some(crate::search::csc148::TO_THE_END) => {
                return Err(self
                    .error(v.pos, "iterative deepening needs a depth to deepen to")
                    .expected("`depth:` of 1 or more")
                    .found(match depth {
                        Some(0) => "depth 0".to_owned(),
                        _ => "a search to the end of every game".to_owned(),
                    })
                    .hint("set `depth:` to the last depth to search"))
            }
            _ => {}
        }
        if let (Some(tree), Some(depth), Target::Tree(_)) = (tree, depth, target) {
            if let Some((d, id)) =
                (1..depth).find_map(|d| tree.internal_node_at(d).map(|id| (d, id)))
            {
                return Err(self
                    .error(
                        v.pos,
                        format!(
                            "iterative deepening stops at node `{}` at depth {d}, and it has no static value",
                            tree.name(id)
                        ),
                    )
                    .expected(format!(
                        "a static value on every inner node down to depth {}",
                        depth - 1
                    ))
                    .found(format!("`{}` with children and no `static:`", tree.name(id)))
                    .hint(format!(
                        "give it one: `{}: {{static: 3, ...}}` (MIT 6.034 gives every node one)",
                        tree.name(id)
                    )));
            }
        }
        Ok(deepening)
    }

    /// `move_order:` of an iteratively deepened case. Reordering by the previous depth's
    /// values needs values every rule set agrees on: the 15-150 searchers' estimates.
    fn move_order(&self, v: &Node, rules: Option<Rules>) -> Result<MoveOrder, Diagnostic> {
        let names: Vec<&str> = MoveOrder::ALL.iter().map(|o| o.name()).collect();
        let Some(order) = v.scalar().and_then(MoveOrder::parse) else {
            return Err(self.unknown_name(v, "unknown move order", &names).or_hint(
                "`move_order: best_first` tries the root's moves best first by the previous depth's values",
            ));
        };
        match rules {
            Some(r @ (Rules::Csc148 | Rules::Cs10 | Rules::Expectimax))
                if order == MoveOrder::BestFirst =>
            {
                Err(self
                    .error(v.pos, format!("`move_order: best_first` is not offered under the {} rules", r.name()))
                    .expected("`move_order: best_first` with the 15-150 searchers (minimax, alphabeta, jamboree)")
                    .found(format!("rules: {}", r.name()))
                    .hint("remove `move_order`; CS10's own `ordering:` orders moves at every node"))
            }
            _ => Ok(order),
        }
    }

    /// `ordering:` and `aspiration:`, CS10's options; `None` with the problems noted.
    fn cs10_options(
        &self,
        entries: &[(Node, Node)],
        rules: Option<Rules>,
        algorithm: Option<Algorithm>,
    ) -> Option<crate::search::cs10::Options> {
        use crate::search::cs10::{Options, Ordering};
        let (ordering_node, aspiration_node) =
            (entry(entries, "ordering"), entry(entries, "aspiration"));
        if rules != Some(Rules::Cs10) {
            for (k, _) in [ordering_node, aspiration_node].into_iter().flatten() {
                let key = k.scalar().unwrap_or("");
                self.problem(
                    self.error(
                        k.pos,
                        format!("`{key}` is a setting of CS10's negamax searchers"),
                    )
                    .expected(format!("`{key}` with `dialect: cs10`"))
                    .found(format!(
                        "`{key}` in a case of the {} rules",
                        rules.map_or("?", |r| r.name())
                    ))
                    .hint("remove it, or set `dialect: cs10`"),
                );
            }
            return if ordering_node.is_some() || aspiration_node.is_some() {
                None
            } else {
                Some(Options::default())
            };
        }
        let names: Vec<&str> = Ordering::ALL.iter().map(|o| o.name()).collect();
        let ordering = match ordering_node {
            None => Some(Ordering::None),
            Some((_, v)) => {
                let found = v.scalar().and_then(Ordering::parse);
                if found.is_none() {
                    self.problem(self.unknown_name(v, "unknown move ordering", &names).hint(
                        "static: best first by static evaluation; shallow: by a one-ply search",
                    ));
                }
                found
            }
        };
        let aspiration = match aspiration_node {
            None => Some(None),
            Some((k, _)) if algorithm == Some(Algorithm::Minimax) => {
                self.problem(
                    self.error(k.pos, "an aspiration window needs a window to narrow")
                        .expected("`aspiration` with `algorithm: negamax_ab`")
                        .found("algorithm: negamax (no window)")
                        .hint("use negamax_ab, or remove `aspiration`"),
                );
                None
            }
            Some((_, v)) => self.soft(self.aspiration(v)).map(Some),
        };
        Some(Options {
            ordering: ordering?,
            aspiration: aspiration?,
        })
    }

    /// `aspiration: 5` (a half-width around the value one ply shallower) or
    /// `aspiration: {guess: -8, width: 5}`.
    fn aspiration(&self, v: &Node) -> Result<crate::search::cs10::Aspiration, Diagnostic> {
        use crate::search::cs10::Aspiration;
        let width_of = |n: &Node| -> Result<i64, Diagnostic> {
            let w = self.integer(n, "the aspiration window's width", "5")?;
            if w > 0 {
                Ok(w)
            } else {
                Err(self
                    .error(n.pos, "an aspiration window's width must be 1 or more")
                    .expected("how far on each side of the guess the first window reaches, like 5")
                    .found(n.describe()))
            }
        };
        match &v.yaml {
            Yaml::Map(es) => {
                self.keys(es, "`aspiration`");
                for (k, _) in es {
                    let key = k.scalar().unwrap_or("");
                    if !["guess", "width"].contains(&key) {
                        return Err(self.unknown_key(k, &["guess", "width"], "`aspiration`"));
                    }
                }
                let width = match entry(es, "width") {
                    Some((_, w)) => width_of(w)?,
                    None => {
                        return Err(self
                            .error(v.pos, "the aspiration window has no `width`")
                            .expected("{guess: -8, width: 5}")
                            .found(v.describe()))
                    }
                };
                let guess = match entry(es, "guess") {
                    Some((_, g)) => Some(self.integer(g, "the aspiration window's guess", "0")?),
                    None => None,
                };
                Ok(Aspiration { guess, width })
            }
            _ => Ok(Aspiration {
                guess: None,
                width: width_of(v)?,
            }),
        }
    }

    /// `metrics:` a list of the starter's measure names.
    fn metrics(&self, m: &Node) -> Result<Vec<&'static str>, Diagnostic> {
        use crate::game::state_tree::METRICS;
        let Yaml::Seq(items) = &m.yaml else {
            return Err(self
                .error(m.pos, "`metrics` must be a list")
                .expected(format!(
                    "a list of the starter's measures: [{}]",
                    METRICS.join(", ")
                ))
                .found(m.describe()));
        };
        let mut out = Vec::new();
        for item in items {
            let text = item.scalar().unwrap_or("");
            match METRICS.iter().find(|n| **n == text) {
                Some(n) if !out.contains(n) => out.push(*n),
                Some(_) => {}
                None => return Err(self.unknown_name(item, "unknown measure", &METRICS)),
            }
        }
        if out.is_empty() {
            return Err(self
                .error(m.pos, "`metrics` is empty")
                .expected("at least one measure")
                .found("an empty list")
                .hint("leave `metrics` out to print them all"));
        }
        Ok(out)
    }

    /// `message` at `v`, which should have been one of `names`, with the nearest as a hint.
    fn unknown_name(&self, v: &Node, message: &str, names: &[&str]) -> Diagnostic {
        let text = v.scalar().unwrap_or("");
        let d = self
            .error(v.pos, message)
            .expected(format!("one of {}", names.join(", ")))
            .found(v.describe());
        match did_you_mean(text, names) {
            Some(s) => d.hint(format!("did you mean `{s}`?")),
            None => d,
        }
    }

    /// Does the algorithm belong to the rules (CSC148's strategies to its rules, Jamboree to
    /// 15-150's)? Notes the problem when not.
    fn algorithm_fits_rules(
        &self,
        algorithm: Algorithm,
        name: &str,
        rules: Rules,
        target: Target,
        entries: &[(Node, Node)],
    ) -> bool {
        let at = entry(entries, "algorithm").map_or(Pos { line: 1, col: 1 }, |(_, a)| a.pos);
        let csc148 = rules == Rules::Csc148;
        let cs10 = rules == Rules::Cs10;
        let expect = rules == Rules::Expectimax;
        let problem = if rules == Rules::Cs188 {
            (!matches!(name, "minimax" | "alphabeta" | "expectimax")).then(|| {
                self.error(
                    at,
                    format!("CS188's agents are minimax, alphabeta and expectimax, not {name}"),
                )
                .expected("algorithm: minimax (MinimaxAgent), alphabeta (AlphaBetaAgent) or expectimax (ExpectimaxAgent)")
                .found(format!("algorithm: {name}"))
                .hint("the other searchers print in their own dialects: s14/s12, csc148, cs10, expectimax")
            })
        } else if expect != EXPECT_ALGORITHMS.contains(&name) {
            Some(if expect {
                self.error(
                    at,
                    format!("the expectimax dialect prints expectimax searches, not {name}"),
                )
                .expected("algorithm: expectimax or expectiminimax")
                .found(format!("algorithm: {name}"))
                .hint("the other searchers print in their own dialects: s14/s12, csc148, cs10")
            } else {
                self.error(
                    at,
                    format!(
                        "`{name}` prints in the expectimax dialect, and this case asks for {}",
                        rules.name()
                    ),
                )
                .expected("`dialect: expectimax`, or no `dialect`")
                .found(format!("algorithm: {name}"))
                .hint("remove `dialect`: expectimax searches print in their own dialect")
            })
        } else if cs10
            && (!matches!(algorithm, Algorithm::Minimax | Algorithm::AlphaBeta)
                || CSC148_ALGORITHMS.contains(&name))
        {
            Some(
                self.error(
                    at,
                    format!("CS10's searchers are negamax and negamax_ab, not {name}"),
                )
                .expected("negamax (or minimax) or negamax_ab (or alphabeta) with `dialect: cs10`")
                .found(format!("algorithm: {name}"))
                .hint("the other searchers belong to other dialects: s14/s12 (15-150), csc148"),
            )
        } else if !cs10 && CS10_ALGORITHMS.contains(&name) {
            Some(
                self.error(
                    at,
                    format!(
                        "`{name}` is a CS10 searcher, and this case prints the {} dialect",
                        rules.name()
                    ),
                )
                .expected("`dialect: cs10` with CS10's negamax searchers")
                .found(format!("algorithm: {name}"))
                .hint("add `dialect: cs10`, or use minimax or alphabeta"),
            )
        } else if csc148 && matches!(algorithm, Algorithm::Jamboree { .. }) {
            Some(
                self.error(at, "CSC148 has no Jamboree")
                    .expected(
                        "minimax, memoize, prune (alphabeta) or myopic with `dialect: csc148`",
                    )
                    .found("algorithm: jamboree")
                    .hint("Jamboree is 15-150's; use `dialect: s14` or `s12`"),
            )
        } else if !csc148 && CSC148_ALGORITHMS.contains(&name) {
            Some(
                self.error(
                    at,
                    format!(
                        "`{name}` is a CSC148 strategy, and this case prints the {} dialect",
                        rules.name()
                    ),
                )
                .expected("`dialect: csc148` with CSC148's strategies")
                .found(format!("algorithm: {name}"))
                .hint("add `dialect: csc148`, or use minimax or alphabeta"),
            )
        } else if algorithm == Algorithm::GameStateTree && matches!(target, Target::Tree(_)) {
            Some(
                self.error(at, "a game-state tree is measured from a game's position")
                    .expected("`algorithm: game_state_tree` in a game spec (`game: subtract_square`, ...)")
                    .found("a tree spec")
                    .hint("`gametrace stats` counts a tree spec's nodes"),
            )
        } else {
            None
        };
        match problem {
            Some(d) => {
                self.problem(d);
                false
            }
            None => true,
        }
    }

    fn case_algorithm(
        &self,
        key: &Node,
        what: &str,
        entries: &[(Node, Node)],
    ) -> Result<Algorithm, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        let Some((_, alg)) = get("algorithm") else {
            return Err(self
                .error(key.pos, format!("{what} has no `algorithm`"))
                .expected("algorithm: minimax, alphabeta or jamboree")
                .found(
                    match entries
                        .iter()
                        .filter_map(|(k, _)| k.scalar())
                        .find(|k| did_you_mean(k, &["algorithm"]).is_some())
                    {
                        Some(k) => format!("no `algorithm` key (is `{k}` meant to be it?)"),
                        None => "no `algorithm` key".to_owned(),
                    },
                ));
        };
        let alg_name = alg.scalar().unwrap_or("");
        let pp = get("prune_percentage");
        let algorithm = match alg_name {
            "minimax" | "alphabeta" => {
                if let Some((k, _)) = pp {
                    return Err(self
                        .error(
                            k.pos,
                            format!(
                                "`prune_percentage` is a Jamboree setting; {what} runs {alg_name}"
                            ),
                        )
                        .expected("prune_percentage only with algorithm: jamboree")
                        .found(format!("algorithm: {alg_name}"))
                        .hint("remove it, or set `algorithm: jamboree`"));
                }
                if alg_name == "minimax" {
                    Algorithm::Minimax
                } else {
                    Algorithm::AlphaBeta
                }
            }
            "memoize" | "prune" | "myopic" | "game_state_tree" | "negamax" | "negamax_ab"
            | "expectimax" | "expectiminimax" => {
                if let Some((k, _)) = pp {
                    return Err(self
                        .error(
                            k.pos,
                            format!(
                                "`prune_percentage` is a Jamboree setting; {what} runs {alg_name}"
                            ),
                        )
                        .expected("prune_percentage only with algorithm: jamboree")
                        .found(format!("algorithm: {alg_name}"))
                        .hint("remove it"));
                }
                match alg_name {
                    "memoize" => Algorithm::Memoize,
                    "prune" | "negamax_ab" => Algorithm::AlphaBeta,
                    "myopic" | "negamax" => Algorithm::Minimax,
                    "expectimax" => Algorithm::Expectimax,
                    "expectiminimax" => Algorithm::Expectiminimax,
                    _ => Algorithm::GameStateTree,
                }
            }
            "jamboree" => {
                let Some((_, p)) = pp else {
                    return Err(self
                        .error(
                            alg.pos,
                            format!("{what} runs Jamboree without `prune_percentage`"),
                        )
                        .expected("prune_percentage: a number from 0 (minimax) to 1 (alpha-beta)")
                        .found("no `prune_percentage` key")
                        .hint("the handout figures use `prune_percentage: 0.5`"));
                };
                Algorithm::Jamboree {
                    prune_percentage: self.fraction(p)?,
                }
            }
            _ => {
                let d = self
                    .error(alg.pos, "unknown algorithm")
                    .expected(format!("one of {}", ALGORITHMS.join(", ")))
                    .found(alg.describe());
                return Err(match did_you_mean(alg_name, ALGORITHMS) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None => d,
                });
            }
        };
        Ok(algorithm)
    }

    fn case_dialect(
        &self,
        entries: &[(Node, Node)],
        default: Dialect,
    ) -> Result<Dialect, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        Ok(match get("dialect") {
            None => default,
            Some((_, d)) => {
                let text = d.scalar().unwrap_or("");
                Dialect::parse(text).ok_or_else(|| {
                    let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
                    let e = self
                        .error(d.pos, "unknown dialect")
                        .expected(format!("one of {}", names.join(", ")))
                        .found(d.describe());
                    match did_you_mean(text, &names) {
                        Some(s) => e.hint(format!("did you mean `{s}`?")),
                        None => e.hint(
                            "s14 and s12 are the handouts' traces; repl is the SML/NJ prompt; csc148 is Toronto's strategies",
                        ),
                    }
                })?
            }
        })
    }

    fn case_rules(&self, dialect: Dialect, entries: &[(Node, Node)]) -> Result<Rules, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        Ok(match (dialect, get("rules")) {
            (Dialect::S14, None) | (Dialect::Repl, None) => Rules::S14,
            (Dialect::S12, None) => Rules::S12,
            (Dialect::Csc148, None) => Rules::Csc148,
            (Dialect::Cs10, None) => Rules::Cs10,
            (Dialect::Expectimax, None) => Rules::Expectimax,
            (Dialect::Cs188, None) => Rules::Cs188,
            (_, Some((_, r))) => {
                let rules = match r.scalar() {
                    Some("s14") => Rules::S14,
                    Some("s12") => Rules::S12,
                    Some("csc148") => Rules::Csc148,
                    Some("cs10") => Rules::Cs10,
                    Some("cs188") => Rules::Cs188,
                    _ => return Err(self
                        .error(r.pos, "unknown rules")
                        .expected(
                            "s14 or s12 (which handout year's alpha-beta), csc148, cs10 or cs188",
                        )
                        .found(r.describe())),
                };
                for (course, d) in [
                    (Rules::Csc148, Dialect::Csc148),
                    (Rules::Cs10, Dialect::Cs10),
                    (Rules::Cs188, Dialect::Cs188),
                ] {
                    if rules == course && dialect != d {
                        return Err(self
                            .error(
                                r.pos,
                                format!("the {d} rules print in the {d} dialect, not {dialect}"),
                            )
                            .expected(format!("`dialect: {d}` (which implies the rules)"))
                            .found(r.describe())
                            .hint(format!("remove `rules` and set `dialect: {d}`")));
                    }
                }
                let fixed = match dialect {
                    Dialect::S14 => Some(Rules::S14),
                    Dialect::S12 => Some(Rules::S12),
                    Dialect::Csc148 => Some(Rules::Csc148),
                    Dialect::Cs10 => Some(Rules::Cs10),
                    Dialect::Expectimax => Some(Rules::Expectimax),
                    Dialect::Cs188 => Some(Rules::Cs188),
                    Dialect::Repl => None,
                };
                if let Some(f) = fixed.filter(|&f| f != rules) {
                    return Err(self
                        .error(
                            r.pos,
                            format!(
                                "the {dialect} dialect prints the {} rules' values",
                                f.name()
                            ),
                        )
                        .expected(format!("rules: {} (or no `rules` key)", f.name()))
                        .found(r.describe())
                        .hint("`rules` only chooses between the years for `dialect: repl`"));
                }
                rules
            }
        })
    }

    /// The case's depth in moves (default: the whole tree); without a tree, only that it is a
    /// depth. Written in rounds, it is `agents` moves a round.
    fn case_depth(
        &self,
        tree: Option<&Tree>,
        entries: &[(Node, Node)],
        unit: DepthUnit,
        agents: u32,
    ) -> Result<u32, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        let rounds = unit == DepthUnit::Rounds;
        let per = if rounds { agents.max(1) } else { 1 };
        // The tree's height in the case's unit (rounds rounded up).
        let height = tree.map_or(0, Tree::height).div_ceil(per);
        let unit_name = if rounds { "rounds" } else { "moves" };
        let needs = match tree {
            Some(_) => format!(" (this tree needs {height})"),
            None => String::new(),
        };
        Ok(match get("depth") {
            None => height * per,
            Some((_, d)) => {
                let n = self.integer(d, "`depth`", &height.max(1).to_string())?;
                let written = u32::try_from(n).map_err(|_| {
                    let e = self
                        .error(d.pos, "`depth` is out of range")
                        .expected(format!(
                            "a number of {unit_name} to look ahead, 0 or more{needs}"
                        ))
                        .found(d.describe());
                    if n < 0 {
                        e.hint("depth counts moves ahead of the root and cannot be negative")
                    } else {
                        e
                    }
                })?;
                let depth = written.checked_mul(per).ok_or_else(|| {
                    self.error(d.pos, "`depth` is out of range")
                        .expected(format!("at most {} {unit_name}", u32::MAX / per))
                        .found(d.describe())
                })?;
                if let Some((tree, id)) = tree.and_then(|t| Some((t, t.internal_node_at(depth)?))) {
                    return Err(self
                        .error(
                            d.pos,
                            format!(
                                "node `{}` has children but the search reaches it with depth 0",
                                tree.name(id)
                            ),
                        )
                        .expected(format!(
                            "depth {height} or more: the tree is {height} {unit_name} deep"
                        ))
                        .found(format!("depth {written}"))
                        .hint(format!(
                            "set `depth: {height}` (or leave depth out to search the whole tree), or give `{0}` a static value to stop at: `{0}: {{static: 3, ...}}`",
                            tree.name(id)
                        )));
                }
                depth
            }
        })
    }

    fn case_exact(&self, e: &Node) -> Result<bool, Diagnostic> {
        match e.scalar() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(self
                .error(e.pos, "`exact` must be true or false")
                .expected("true or false")
                .found(e.describe())),
        }
    }

    fn case_mode(&self, entries: &[(Node, Node)]) -> Result<Mode, Diagnostic> {
        let get = |k: &str| entry(entries, k);
        Ok(match get("check") {
            None => Mode::Full,
            Some((_, m)) => {
                let text = m.scalar().unwrap_or("");
                Mode::parse(text).ok_or_else(|| {
                    let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                    let e = self
                        .error(m.pos, "unknown check mode")
                        .expected(format!("one of {}", names.join(", ")))
                        .found(m.describe());
                    match did_you_mean(text, &names) {
                        Some(s) => e.hint(format!("did you mean `{s}`?")),
                        None => e.hint("full compares every trace line; terminals the estimated states and the move; visited the set of states and the move; value the root's value and the move"),
                    }
                })?
            }
        })
    }

    /// `unordered:` which blocks an implementation may print in any order; a warning where
    /// the search has no parallel phase, so the setting changes nothing.
    fn unordered(&self, u: &Node, algorithm: Algorithm) -> Result<Unordered, Diagnostic> {
        let text = u.scalar().unwrap_or("");
        let names: Vec<&str> = Unordered::ALL.iter().map(|u| u.name()).collect();
        let Some(unordered) = Unordered::parse(text) else {
            let e = self
                .error(u.pos, "unknown `unordered` setting")
                .expected(format!("one of {}", names.join(", ")))
                .found(u.describe());
            return Err(match did_you_mean(text, &names) {
                Some(s) => e.hint(format!("did you mean `{s}`?")),
                None => e.hint("`parallel` accepts the children of each parallel phase (Jamboree's, minimax's) in any order"),
            });
        };
        let sequential = match algorithm {
            Algorithm::AlphaBeta
            | Algorithm::Memoize
            | Algorithm::GameStateTree
            | Algorithm::Expectimax
            | Algorithm::Expectiminimax => true,
            Algorithm::Jamboree { prune_percentage } => prune_percentage >= 1.0,
            Algorithm::Minimax => false,
        };
        if unordered == Unordered::Parallel && sequential {
            self.problem(
                self.error(u.pos, "`unordered: parallel` changes nothing here")
                    .warning()
                    .expected("a search with a parallel phase: minimax, or jamboree with prune_percentage below 1")
                    .found(format!("{} searching every child in turn", algorithm.name()))
                    .hint("alpha-beta's children come in move order; remove `unordered`"),
            );
        }
        Ok(unordered)
    }

    fn case_name<'n>(&self, key: &'n Node) -> Result<&'n str, Diagnostic> {
        let name = key.scalar().unwrap_or("");
        let safe = !name.is_empty()
            && !name.starts_with('.')
            && !name
                .chars()
                .any(|c| c.is_control() || matches!(c, '/' | '\\' | ':'));
        if safe {
            Ok(name)
        } else {
            Err(self
                .error(key.pos, "a case name must be usable as a file name")
                .expected("a name like `alphabeta` or `jamboree-0.5` (no /, \\, : or leading .)")
                .found(key.describe())
                .hint("the expected trace is stored as expected/<spec>/<case>.trace"))
        }
    }

    /// `points:` a case's weight in a grade: a number, 0 or more.
    /// `visibility:` who may see a case's result, as Gradescope names it.
    fn visibility(&self, v: &Node) -> Result<Visibility, Diagnostic> {
        let text = v.scalar().unwrap_or("");
        Visibility::parse(text).ok_or_else(|| {
            let names: Vec<&str> = Visibility::ALL.iter().map(|v| v.name()).collect();
            let d = self
                .error(v.pos, "unknown visibility")
                .expected(format!("one of {}", names.join(", ")))
                .found(v.describe());
            match did_you_mean(text, &names) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d.hint(
                    "hidden cases keep their reference lines out of `--for-students` reports",
                ),
            }
        })
    }

    fn points(&self, p: &Node) -> Result<f64, Diagnostic> {
        let value = match &p.yaml {
            Yaml::Scalar { text, plain: true } => text.parse::<f64>().ok(),
            _ => None,
        };
        match value {
            Some(x) if (0.0..=1e9).contains(&x) => Ok(x),
            _ => Err(self
                .error(p.pos, "`points` must be a number, 0 or more")
                .expected("how much the case counts in a grade, like 1, 2 or 0.5")
                .found(p.describe())
                .hint("leave `points` out and the case counts 1")),
        }
    }

    /// `time_limit:` seconds a case's search may run in `test` and `run`: above 0, up to a day.
    fn time_limit(&self, t: &Node) -> Result<std::time::Duration, Diagnostic> {
        let value = match &t.yaml {
            Yaml::Scalar { text, plain: true } => text.parse::<f64>().ok(),
            _ => None,
        };
        match value {
            Some(x) if x > 0.0 && x <= 86_400.0 => Ok(std::time::Duration::from_secs_f64(x)),
            _ => Err(self
                .error(t.pos, "`time_limit` must be a number of seconds above 0")
                .expected("seconds the search may run, like 10 or 0.5 (at most a day)")
                .found(t.describe())
                .hint("leave `time_limit` out for the default (`test --time-limit`, 60 s)")),
        }
    }

    fn fraction(&self, p: &Node) -> Result<f64, Diagnostic> {
        let value = match &p.yaml {
            Yaml::Scalar { text, plain: true } => text.parse::<f64>().ok(),
            _ => None,
        };
        match value {
            Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => Err(self
                .error(p.pos, "`prune_percentage` must be a fraction from 0 to 1")
                .expected("a number from 0 (minimax) to 1 (alpha-beta), like 0.5")
                .found(p.describe())
                .hint("it is a fraction of each node's moves, not a percent: 50% is 0.5")),
        }
    }

    fn lines(&self, l: &Node, dialect: Dialect) -> Result<LineSet, Diagnostic> {
        let kinds: Vec<&str> = dialect.kinds().iter().map(|k| k.name()).collect();
        let Yaml::Seq(items) = &l.yaml else {
            return Err(self
                .error(l.pos, "`lines` must be a list")
                .expected(format!(
                    "a list of line kinds of the {dialect} dialect: [{}]",
                    kinds.join(", ")
                ))
                .found(l.describe()));
        };
        let mut set = Vec::new();
        for item in items {
            let text = item.scalar().unwrap_or("");
            match LineKind::parse(text) {
                Some(k) if dialect.kinds().contains(&k) => set.push(k),
                Some(_) => {
                    return Err(self
                        .error(item.pos, format!("the {dialect} dialect has no `{text}` lines"))
                        .expected(format!("one of {}", kinds.join(", ")))
                        .found(item.describe())
                        .hint(match dialect {
                            Dialect::S14 => "S14 traces enter the root with `F: state`; `search` lines are S12's",
                            Dialect::Repl => "the repl dialect prints `Estimating` lines (estimate) and `val it` (choice)",
                            Dialect::Cs188 => "the cs188 dialect prints enter (generateSuccessor), estimate (getScore), result, value and choice (getAction) lines",
                            Dialect::S12 | Dialect::Csc148 | Dialect::Cs10 | Dialect::Expectimax => "",
                        }))
                }
                None => {
                    let d = self
                        .error(item.pos, "unknown line kind")
                        .expected(format!("one of {}", kinds.join(", ")))
                        .found(item.describe());
                    return Err(match did_you_mean(text, &kinds) {
                        Some(s) => d.hint(format!("did you mean `{s}`?")),
                        None => d,
                    });
                }
            }
        }
        Ok(set.into_iter().collect())
    }
}

/// `-12` or `7` as an integer: an optional minus sign and 1 to 18 digits, which always fit
/// in 64 bits and which [`Loader::integer`] reads the same way. Anything else is `None` and
/// is read (and diagnosed) by `integer`.
fn plain_decimal(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::plain_decimal;

    #[test]
    fn plain_decimals_are_the_integers_read_without_a_description() {
        assert_eq!(plain_decimal("7"), Some(7));
        assert_eq!(plain_decimal("-12"), Some(-12));
        assert_eq!(plain_decimal("007"), Some(7));
        assert_eq!(
            plain_decimal("999999999999999999"),
            Some(999_999_999_999_999_999)
        );
        // Left to the full reader, which knows SML's `~3`, diagnoses overflow, and so on.
        for other in [
            "",
            "-",
            "~3",
            "+3",
            "3.0",
            "1_000",
            "9999999999999999999",
            " 3",
            "--1",
        ] {
            assert_eq!(plain_decimal(other), None, "{other:?}");
        }
    }
}
