//! Berkeley CS188's game-tree tests, read as they are: a `GraphGameTreeTest` `.test` file of
//! the multiagent project (`test_cases/q2/0-small-tree.test`) is a spec, and its `.solution`
//! the expected answer.
//!
//! The file format is the course's `testParser.py`: `key: "value"` on one line, or `key:
//! """` and the value's lines up to a line `"""`; `#` starts a comment anywhere on a line
//! (but a block's lines are kept as written). A `GraphGameTreeTest` has `alg`
//! (`MinimaxAgent`, `AlphaBetaAgent`, `ExpectimaxAgent`), `depth` (rounds), `num_agents`,
//! `start_state`, `win_states` and `lose_states` (names split on spaces), `successors` (the
//! 2021-22 projects call it `children`: `state action next` lines, an action's successors in
//! file order) and `evaluation` (`state value` lines), and a `diagram` for people.
//!
//! A test is read into the YAML spec it stands for ([`to_yaml`]: what `gametrace import
//! cs188` writes), which the loader then reads like any spec: the tree from the start state
//! (states no action reaches are left out), agents, win and lose states, one case named after
//! the file, in the cs188 dialect, checked as the autograder checks (`visited`: the states
//! generated and the action). Every problem is reported at its place in the `.test` file.

pub mod questions;

use super::diagnostic::{did_you_mean, Diagnostic};
use super::yaml::Pos;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One property of a test file: its key, its value, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub key: String,
    pub value: String,
    /// The key's line (1-based).
    pub line: usize,
    /// For a block (`key: """`), the line of each of the value's lines.
    pub block: Option<Vec<usize>>,
}

/// A test file read as `testParser.py` reads it: its properties in order (a key given twice
/// keeps the later value, as the course's dictionary does).
#[derive(Clone, Debug, Default)]
pub struct TestFile {
    pub properties: Vec<Property>,
}

impl TestFile {
    pub fn get(&self, key: &str) -> Option<&Property> {
        self.properties.iter().rev().find(|p| p.key == key)
    }
}

/// Does `path` name a CS188 test file (by its extension)?
pub fn is_test_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "test")
}

fn is_blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}

/// `key: "value"` (the line without its comment): the key and the value, if the line is one.
/// The key is everything before the first `:` that a quote follows, as the course's lazy
/// `([^"]*?):` takes it.
fn one_line(line: &str) -> Option<(&str, &str)> {
    for (i, _) in line.match_indices(':') {
        let key = &line[..i];
        if key.contains('"') {
            return None;
        }
        let rest = line[i + 1..].trim_start();
        let Some(rest) = rest.strip_prefix('"') else {
            continue;
        };
        let Some(end) = rest.find('"') else {
            continue;
        };
        if is_blank(&rest[end + 1..]) {
            return Some((key, &rest[..end]));
        }
    }
    None
}

/// `key: """` (the line without its comment): the key, if the line opens a block.
fn block_start(line: &str) -> Option<&str> {
    for (i, _) in line.match_indices(':') {
        let key = &line[..i];
        if key.contains('"') {
            return None;
        }
        if let Some(rest) = line[i + 1..].trim_start().strip_prefix("\"\"\"") {
            if is_blank(rest) {
                return Some(key);
            }
        }
    }
    None
}

/// Reads a test (or solution) file as the course's `testParser.py` does.
pub fn parse(path: &Path, source: &str) -> Result<TestFile, Diagnostic> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let raw: Vec<&str> = source.split('\n').collect();
    let stripped: Vec<&str> = raw
        .iter()
        .map(|l| match l.find('#') {
            Some(i) => &l[..i],
            None => l,
        })
        .collect();
    let mut file = TestFile::default();
    let mut i = 0;
    while i < stripped.len() {
        let line = stripped[i];
        if is_blank(line) {
            i += 1;
            continue;
        }
        if let Some((key, value)) = one_line(line) {
            file.properties.push(Property {
                key: key.to_owned(),
                value: value.to_owned(),
                line: i + 1,
                block: None,
            });
            i += 1;
            continue;
        }
        if let Some(key) = block_start(line) {
            let start = i;
            let mut lines = Vec::new();
            let mut at = Vec::new();
            i += 1;
            loop {
                let Some(l) = stripped.get(i) else {
                    return Err(Diagnostic::new(
                        path,
                        format!("the block `{key}` has no closing `\"\"\"`"),
                    )
                    .at(
                        Pos {
                            line: start + 1,
                            col: 1,
                        },
                        source,
                    )
                    .expected("a line `\"\"\"` after the block's last line")
                    .found("the end of the file")
                    .hint("close the block with a line of three double quotes"));
                };
                if l.trim() == "\"\"\"" {
                    break;
                }
                lines.push(raw[i].strip_suffix('\r').unwrap_or(raw[i]));
                at.push(i + 1);
                i += 1;
            }
            file.properties.push(Property {
                key: key.to_owned(),
                value: lines.join("\n"),
                line: start + 1,
                block: Some(at),
            });
            i += 1;
            continue;
        }
        let col = line.len() - line.trim_start().len() + 1;
        return Err(Diagnostic::new(path, "a line the CS188 test format does not read")
            .at(Pos { line: i + 1, col }, source)
            .expected("`key: \"value\"` on one line, or `key: \"\"\"` and the value's lines up to a line `\"\"\"`")
            .found(format!("`{}`", line.trim()))
            .hint("testParser.py stops here too (\"error parsing test file\"); a value may not hold a double quote"));
    }
    Ok(file)
}

/// A `GraphGameTreeTest`, its parts read and checked.
#[derive(Clone, Debug)]
pub struct TreeTest {
    pub alg: String,
    pub depth: u32,
    pub num_agents: u32,
    pub start: String,
    pub win: Vec<String>,
    pub lose: Vec<String>,
    /// `state action next`, in file order, with each line's number.
    pub successors: Vec<(String, String, String, usize)>,
    /// `state value` (the value as written), with each line's number.
    pub evaluation: Vec<(String, String, usize)>,
    pub diagram: Option<String>,
    /// `successors` or `children` (the 2021-22 projects' name).
    pub tree_key: &'static str,
}

/// The algorithm of a CS188 agent class.
pub fn algorithm_of(alg: &str) -> Option<&'static str> {
    match alg {
        "MinimaxAgent" => Some("minimax"),
        "AlphaBetaAgent" => Some("alphabeta"),
        "ExpectimaxAgent" => Some("expectimax"),
        _ => None,
    }
}

/// The test classes of the multiagent project that are not game trees, and what they do.
pub fn other_class(class: &str) -> Option<&'static str> {
    match class {
        "PacmanGameTreeTest" => Some("it plays Pacman on a maze with the course's own game engine"),
        "EvalAgentTest" => Some("it plays Pacman games and grades their scores"),
        _ => None,
    }
}

/// The class a test file names (`class: "GraphGameTreeTest"`), read cheaply: the first
/// `class:` property, if the file reads.
pub fn class_of_file(source: &str) -> Option<String> {
    for line in source.lines() {
        let line = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        if let Some((key, value)) = one_line(line) {
            if key == "class" {
                return Some(value.to_owned());
            }
        }
    }
    None
}

/// The value of a state as written (`4.0`, `-3.01`, `+2`), read as Python's `float()` reads
/// the plain decimals CS188's tests use, in canonical form (`4.0`, `-3.01`, `2`).
fn canonical_value(text: &str) -> Option<String> {
    let t = text.strip_prefix('+').unwrap_or(text);
    let (negative, digits) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let mut s = String::new();
    if negative {
        s.push('-');
    }
    s.push_str(whole);
    if !frac.is_empty() {
        s.push('.');
        s.push_str(frac);
    }
    Some(s)
}

/// Reads and checks a `GraphGameTreeTest`.
pub fn tree_test(path: &Path, source: &str) -> Result<TreeTest, Diagnostic> {
    let file = parse(path, source)?;
    let src = Source { path, text: source };
    let get = |key: &str| file.get(key).ok_or_else(|| missing(&file, src, key));
    let class = get("class")?;
    check_class(class, src)?;
    let alg = get("alg")?;
    check_alg(alg, src)?;
    let depth = number(get("depth")?, "the rounds to look ahead", 0, src)?;
    let agents_p = get("num_agents")?;
    let num_agents = number(agents_p, "Pacman and the ghosts", 1, src)?;
    if num_agents > 64 {
        return Err(src
            .err(agents_p.line, 1, "too many agents".to_owned())
            .expected("at most 64 agents")
            .found(format!("num_agents: \"{num_agents}\"")));
    }
    let start = get("start_state")?.value.trim().to_owned();
    let names = |key: &str| -> Vec<String> {
        file.get(key)
            .map(|p| p.value.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default()
    };
    get("win_states")?;
    get("lose_states")?;
    let (win, lose) = (names("win_states"), names("lose_states"));
    let (tree_p, tree_key) = match (file.get("successors"), file.get("children")) {
        (Some(s), None) => (s, "successors"),
        (None, Some(c)) => (c, "children"),
        (Some(s), Some(c)) => {
            return Err(src
                .err(
                    c.line.max(s.line),
                    1,
                    "the test has both `successors` and `children`".to_owned(),
                )
                .expected("one of them (`children` is the 2021-22 projects' name for `successors`)")
                .found("both")
                .hint("keep one"))
        }
        (None, None) => return Err(missing(&file, src, "successors")),
    };
    let successors = successors(tree_p, tree_key, src)?;
    let evaluation = evaluation(get("evaluation")?, src)?;
    let diagram = file.get("diagram").map(|p| p.value.clone());
    Ok(TreeTest {
        alg: alg.value.clone(),
        depth,
        num_agents,
        start,
        win,
        lose,
        successors,
        evaluation,
        diagram,
        tree_key,
    })
}

/// A key the test lacks: which keys it has, and the one meant, if one is near.
fn missing(file: &TestFile, src: Source, key: &str) -> Diagnostic {
    let keys: Vec<&str> = file.properties.iter().map(|p| p.key.as_str()).collect();
    let d = src.err(1, 1, format!("the test has no `{key}`"))
        .expected(format!("`{key}: \"...\"` (a GraphGameTreeTest has class, alg, depth, num_agents, start_state, win_states, lose_states, successors and evaluation)"))
        .found(format!("keys {}", keys.join(", ")));
    match keys
        .iter()
        .find(|k| did_you_mean(k.trim(), &[key]).is_some() || k.trim() == key)
    {
        Some(k) => d.hint(format!(
            "is `{k}` meant to be it? (a key is read exactly as written, spaces and all)"
        )),
        None => d,
    }
}

/// The test's class must be a game-tree test's.
fn check_class(class: &Property, src: Source) -> Result<(), Diagnostic> {
    if class.value == "GraphGameTreeTest" {
        return Ok(());
    }
    let what = other_class(&class.value).unwrap_or("gametrace reads CS188's game-tree tests only");
    Err(src
        .err(
            class.line,
            1,
            format!("`{}` is not a game-tree test", class.value),
        )
        .expected("class: \"GraphGameTreeTest\"")
        .found(format!("class: \"{}\"", class.value))
        .hint(format!("{what}; `gametrace test` skips such files")))
}

/// The test's agent must be one of the three the course grades.
fn check_alg(alg: &Property, src: Source) -> Result<(), Diagnostic> {
    if algorithm_of(&alg.value).is_some() {
        return Ok(());
    }
    let names = ["MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent"];
    let d = src
        .err(alg.line, 1, format!("unknown agent `{}`", alg.value))
        .expected("alg: MinimaxAgent, AlphaBetaAgent or ExpectimaxAgent")
        .found(format!("alg: \"{}\"", alg.value));
    let lower: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let near =
        did_you_mean(&alg.value, &lower).and_then(|l| names.iter().find(|n| n.to_lowercase() == l));
    Err(match near {
        Some(s) => d.hint(format!("did you mean `{s}`?")),
        None => d,
    })
}

/// A property that must be a whole number from `least` to 1000.
fn number(p: &Property, what: &str, least: i64, src: Source) -> Result<u32, Diagnostic> {
    p.value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|&n| n >= least && n <= 1000)
        .map(|n| n as u32)
        .ok_or_else(|| {
            src.err(p.line, 1, format!("`{}` must be a whole number", p.key))
                .expected(format!("{what}, {least} or more"))
                .found(format!("{}: \"{}\"", p.key, p.value))
        })
}

/// A property's lines, each with its line in the file.
fn lines_of(p: &Property) -> Vec<(String, usize)> {
    match &p.block {
        Some(at) => p
            .value
            .split('\n')
            .map(str::to_owned)
            .zip(at.iter().copied())
            .collect(),
        None => vec![(p.value.clone(), p.line)],
    }
}

/// The `successors` (or `children`) lines: `state action next`.
#[allow(clippy::type_complexity)]
fn successors(
    tree_p: &Property,
    tree_key: &str,
    src: Source,
) -> Result<Vec<(String, String, String, usize)>, Diagnostic> {
    let mut successors = Vec::new();
    for (text, line) in lines_of(tree_p) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let [state, action, next] = tokens[..] else {
            let col = text.len() - text.trim_start().len() + 1;
            return Err(src.err(line, col, format!("a `{tree_key}` line must be `state action next`"))
                .expected("three words: a state, an action, the state it leads to")
                .found(if tokens.is_empty() {
                    "an empty line".to_owned()
                } else {
                    format!("{} word{}: `{}`", tokens.len(), if tokens.len() == 1 { "" } else { "s" }, text.trim())
                })
                .hint(if tokens.is_empty() {
                    "the course's parser refuses blank lines inside a block too (\"Bad successor line\"); remove it"
                } else {
                    "write one move a line"
                }));
        };
        successors.push((state.to_owned(), action.to_owned(), next.to_owned(), line));
    }
    Ok(successors)
}

/// The `evaluation` lines: `state value`, the value in canonical form.
fn evaluation(eval_p: &Property, src: Source) -> Result<Vec<(String, String, usize)>, Diagnostic> {
    let mut evaluation = Vec::new();
    for (text, line) in lines_of(eval_p) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let col = text.len() - text.trim_start().len() + 1;
        let [state, value] = tokens[..] else {
            return Err(src
                .err(
                    line,
                    col,
                    "an `evaluation` line must be `state value`".to_owned(),
                )
                .expected("two words: a state and its value")
                .found(if tokens.is_empty() {
                    "an empty line".to_owned()
                } else {
                    format!("`{}`", text.trim())
                })
                .hint("the course's parser refuses it too (\"Bad evaluation line\")"));
        };
        let Some(canonical) = canonical_value(value) else {
            let vcol = text.find(value).map_or(col, |i| i + 1);
            return Err(src
                .err(
                    line,
                    vcol,
                    format!("the value of `{state}` is not a number"),
                )
                .expected("a decimal number like 4, -3.01 or 10.0")
                .found(format!("`{value}`"))
                .hint(
                    "gametrace reads the plain decimals CS188's tests use (not 1e3, inf or nan)",
                ));
        };
        evaluation.push((state.to_owned(), canonical, line));
    }
    Ok(evaluation)
}

/// Names gametrace reserves in a tree (a state so named cannot be written as a node).
const RESERVED: [&str; 3] = ["static", "chance", "actions"];

/// A name as a YAML key or list item: plain where it reads back as itself, else quoted.
fn yaml_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            name.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        name.to_owned()
    } else {
        serde_json::Value::String(name.to_owned()).to_string()
    }
}

/// What the conversion of a test found besides the spec: warnings at their place in the
/// `.test` file.
#[derive(Clone, Debug, Default)]
pub struct Converted {
    pub yaml: String,
    pub warnings: Vec<Diagnostic>,
}

/// The case name a test file's spec gives its one case: the file's name without `.test`.
pub fn case_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "test".to_owned())
}

/// The path a test's solution is in: beside it, `.solution` for `.test`.
pub fn solution_path(path: &Path) -> PathBuf {
    path.with_extension("solution")
}

/// `q2/0-small-tree`: the test's question folder and name, for titles and reports.
fn short_name(path: &Path) -> String {
    let stem = case_name(path);
    match path
        .parent()
        .and_then(Path::file_name)
        .map(|d| d.to_string_lossy().into_owned())
    {
        Some(q) if !q.is_empty() => format!("{q}/{stem}"),
        _ => stem,
    }
}

/// A test file's text, for problems at their place in it.
#[derive(Clone, Copy)]
struct Source<'s> {
    path: &'s Path,
    text: &'s str,
}

impl Source<'_> {
    fn err(&self, line: usize, col: usize, msg: String) -> Diagnostic {
        Diagnostic::new(self.path, msg).at(Pos { line, col }, self.text)
    }

    /// The column of `word`'s first occurrence on `line` (1 where it is not there).
    fn col_of(&self, line: usize, word: &str) -> usize {
        self.line(line)
            .and_then(|l| l.find(word))
            .map_or(1, |i| i + 1)
    }

    /// The column of `word`'s last occurrence on `line` (1 where it is not there).
    fn rcol_of(&self, line: usize, word: &str) -> usize {
        self.line(line)
            .and_then(|l| l.rfind(word))
            .map_or(1, |i| i + 1)
    }

    fn line(&self, line: usize) -> Option<&str> {
        self.text.split('\n').nth(line.saturating_sub(1))
    }

    /// The first line whose text starts with `key` (1 where none does).
    fn line_of(&self, key: &str) -> usize {
        self.text
            .split('\n')
            .position(|l| l.trim_start().starts_with(key))
            .map_or(1, |i| i + 1)
    }
}

/// Each state's moves in file order (action, next state, line), and its value (as written,
/// with its line).
struct Graph<'t> {
    moves: HashMap<&'t str, Vec<(&'t str, &'t str, usize)>>,
    values: HashMap<&'t str, (&'t str, usize)>,
}

impl<'t> Graph<'t> {
    /// The test's lines as a graph: two moves of one name from one state refused.
    fn of(test: &'t TreeTest, src: Source) -> Result<Graph<'t>, Diagnostic> {
        let mut moves: HashMap<&str, Vec<(&str, &str, usize)>> = HashMap::new();
        for (state, action, next, line) in &test.successors {
            let list = moves.entry(state).or_default();
            if list.iter().any(|(a, _, _)| a == action) {
                return Err(src.err(*line, src.col_of(*line, action), format!("`{state}` has two moves named `{action}`"))
                    .expected("a different action name for each move of a state")
                    .found(format!("`{action}` again"))
                    .hint("the course's tree keeps the later one for generateSuccessor and lists both in getLegalActions; rename one"));
            }
            list.push((action, next, *line));
        }
        let mut values: HashMap<&str, (&str, usize)> = HashMap::new();
        for (state, value, line) in &test.evaluation {
            values.insert(state, (value, *line));
        }
        Ok(Graph { moves, values })
    }
}

/// The walk over every state reachable from the start: no cycle, a value at every leaf.
struct Walk<'t, 'p> {
    graph: &'p Graph<'t>,
    src: Source<'p>,
    seen: HashSet<&'t str>,
    reached_by: HashMap<&'t str, usize>,
    path: Vec<&'t str>,
    nodes: usize,
    warnings: Vec<Diagnostic>,
}

impl<'t> Walk<'t, '_> {
    /// Recursion is bounded: a state deeper than the tree's limit is refused first.
    fn walk(&mut self, state: &'t str, line: usize) -> Result<(), Diagnostic> {
        let src = self.src;
        let col = src.rcol_of(line, state);
        let err = |msg: String| src.err(line, col, msg);
        if self.path.contains(&state) {
            return Err(err(format!("`{state}` is reached again below itself"))
                .expected("a tree (or a graph without cycles): gametrace searches trees")
                .found(format!("a cycle through `{state}`"))
                .hint("write the states out as a tree"));
        }
        if self.path.len() > crate::game::tree::MAX_HEIGHT as usize {
            return Err(err("the tree is too deep".to_owned())
                .expected(format!(
                    "at most {} moves from the start",
                    crate::game::tree::MAX_HEIGHT
                ))
                .found(format!("`{state}` {} moves down", self.path.len())));
        }
        self.nodes += 1;
        if self.nodes > 1_000_000 {
            return Err(err("the tree is too large".to_owned())
                .expected("at most a million states (a state reached twice counts twice)")
                .found("more"));
        }
        if !self.graph.moves.contains_key(state) && !self.graph.values.contains_key(state) {
            return Err(
                err(format!("the state `{state}` has no moves and no value"))
                    .expected(format!(
                    "an `evaluation` line `{state} <value>`: a search evaluates it where it stops"
                ))
                    .found(format!("no `{state}` line in `evaluation`"))
                    .hint("the course's getScore() raises on it too"),
            );
        }
        match self.reached_by.get(state) {
            Some(&first) if first != line => self.warnings.push(
                err(format!("`{state}` is reached from two states"))
                    .warning()
                    .expected("each state reached once")
                    .found(format!("`{state}` also on line {first}"))
                    .hint("gametrace searches it as two nodes of one name; the course counts a state generated twice once, and so does `visited`"),
            ),
            Some(_) => {}
            None => {
                self.reached_by.insert(state, line);
            }
        }
        self.seen.insert(state);
        if let Some(list) = self.graph.moves.get(state) {
            self.path.push(state);
            for &(_, next, l) in list {
                self.walk(next, l)?;
            }
            self.path.pop();
        }
        Ok(())
    }
}

/// The YAML spec a test stands for (what `gametrace import cs188` writes), or the first
/// problem, at its place in the `.test` file.
pub fn to_yaml(path: &Path, source: &str) -> Result<Converted, Diagnostic> {
    let test = tree_test(path, source)?;
    let src = Source { path, text: source };
    let graph = Graph::of(&test, src)?;
    let start_line = src.line_of("start_state");
    if !graph.moves.contains_key(test.start.as_str()) {
        return Err(src
            .err(
                start_line,
                1,
                format!("the start state `{}` has no moves", test.start),
            )
            .expected(format!(
                "`{}` as the first word of some `{}` lines",
                test.start, test.tree_key
            ))
            .found(format!("no `{}` line from `{}`", test.tree_key, test.start))
            .hint("getAction chooses among the start state's actions; give it some"));
    }
    let mut w = Walk {
        graph: &graph,
        src,
        seen: HashSet::new(),
        reached_by: HashMap::new(),
        path: Vec::new(),
        nodes: 0,
        warnings: Vec::new(),
    };
    w.walk(&test.start, start_line)?;
    let Walk { seen, warnings, .. } = w;
    check_depth(&test, &graph, src)?;
    check_reserved(&test, src)?;
    let yaml = write_spec(path, &test, &graph, &seen);
    Ok(Converted { yaml, warnings })
}

/// The search's depth: a state it stops at by depth must have a value.
fn check_depth(test: &TreeTest, graph: &Graph, src: Source) -> Result<(), Diagnostic> {
    let win: HashSet<&str> = test.win.iter().map(String::as_str).collect();
    let lose: HashSet<&str> = test.lose.iter().map(String::as_str).collect();
    let over = |s: &str| win.contains(s) || lose.contains(s);
    let plies = test.depth as usize * test.num_agents as usize;
    let depth_line = src.line_of("depth");
    let mut stack = vec![(test.start.as_str(), 0usize)];
    while let Some((state, level)) = stack.pop() {
        if over(state) {
            continue;
        }
        if level == plies {
            if graph.moves.contains_key(state) && !graph.values.contains_key(state) {
                return Err(src.err(depth_line, 1, format!("the search stops at `{state}` by depth, and it has no value"))
                    .expected(format!("an `evaluation` line for `{state}`, or a depth that goes past it"))
                    .found(format!("depth {} ({} moves of {} agents), `{state}` {level} moves down", test.depth, plies, test.num_agents))
                    .hint("the course's getScore() raises there (\"called on non-terminal state or before maximum depth achieved\")"));
            }
            continue;
        }
        if let Some(list) = graph.moves.get(state) {
            for &(_, next, _) in list {
                stack.push((next, level + 1));
            }
        }
    }
    Ok(())
}

/// No state may be named as one of the tree's keys.
fn check_reserved(test: &TreeTest, src: Source) -> Result<(), Diagnostic> {
    for (state, _, _, line) in &test.successors {
        if RESERVED.contains(&state.as_str()) {
            return Err(src
                .err(*line, 1, format!("a state named `{state}`"))
                .expected(format!("state names other than {}", RESERVED.join(", ")))
                .found(format!("`{state}`"))
                .hint("gametrace's trees use these words as keys; rename the state"));
        }
    }
    Ok(())
}

/// The spec's text: its header (what was left out, as comments), the tree, the one case.
fn write_spec(path: &Path, test: &TreeTest, graph: &Graph, seen: &HashSet<&str>) -> String {
    let mut y = String::new();
    write_header(&mut y, path, test, graph, seen);
    y.push_str("tree:\n");
    write_node(&mut y, &test.start, 1, graph);
    let algorithm = algorithm_of(&test.alg).unwrap_or("minimax");
    let _ = writeln!(y, "cases:\n  {}:", yaml_name(&case_name(path)));
    let _ = writeln!(y, "    algorithm: {algorithm}    # {}", test.alg);
    y.push_str("    dialect: cs188\n");
    let _ = writeln!(
        y,
        "    depth: {}    # rounds: each agent moves once",
        test.depth
    );
    y.push_str("    check: visited    # as the autograder: the states generated, and the action\n");
    y
}

/// The spec's lines before its tree: where it comes from, the diagram, the title, the agents,
/// the win and lose states, and the states left out.
fn write_header(y: &mut String, path: &Path, test: &TreeTest, graph: &Graph, seen: &HashSet<&str>) {
    let _ = writeln!(
        y,
        "# CS188 {} ({}), read by gametrace from the course's GraphGameTreeTest file.",
        short_name(path),
        test.alg
    );
    if let Some(diagram) = &test.diagram {
        y.push_str("# The test's diagram:\n");
        for l in diagram.lines() {
            let _ = writeln!(y, "#   {}", l.trim_end());
        }
    }
    let unreached: Vec<&str> = graph
        .moves
        .keys()
        .chain(graph.values.keys())
        .filter(|s| !seen.contains(*s))
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !unreached.is_empty() {
        let _ = writeln!(
            y,
            "# States the test lists that no move from `{}` reaches (left out): {}",
            test.start,
            unreached.join(" ")
        );
    }
    let _ = writeln!(
        y,
        "title: {}",
        yaml_name(&format!("CS188 {} ({})", short_name(path), test.alg))
    );
    let _ = writeln!(
        y,
        "agents: {}    # Pacman (max), then {} ghost{} (min)",
        test.num_agents,
        test.num_agents - 1,
        if test.num_agents == 2 { "" } else { "s" }
    );
    let listed = |states: &[String]| -> Vec<String> {
        states
            .iter()
            .filter(|s| seen.contains(s.as_str()))
            .map(|s| yaml_name(s))
            .collect()
    };
    let (w, l) = (listed(&test.win), listed(&test.lose));
    if !w.is_empty() {
        let _ = writeln!(y, "win_states: [{}]", w.join(", "));
    }
    if !l.is_empty() {
        let _ = writeln!(y, "lose_states: [{}]", l.join(", "));
    }
    let missing_named: Vec<&str> = test
        .win
        .iter()
        .chain(&test.lose)
        .filter(|s| !seen.contains(s.as_str()))
        .map(String::as_str)
        .collect();
    if !missing_named.is_empty() {
        let _ = writeln!(
            y,
            "# win_states/lose_states the test names that are not in the tree (left out): {}",
            missing_named.join(" ")
        );
    }
}

/// A state of the tree and, below it, the states its moves reach.
fn write_node(y: &mut String, state: &str, indent: usize, graph: &Graph) {
    let pad = "  ".repeat(indent);
    let key = yaml_name(state);
    match graph.moves.get(state) {
        None => {
            let v = graph.values.get(state).map_or("0", |(v, _)| v);
            let _ = writeln!(y, "{pad}{key}: {v}");
        }
        Some(list) => {
            let _ = writeln!(y, "{pad}{key}:");
            let actions: Vec<String> = list.iter().map(|(a, _, _)| yaml_name(a)).collect();
            let _ = writeln!(y, "{pad}  actions: [{}]", actions.join(", "));
            if let Some((v, _)) = graph.values.get(state) {
                let _ = writeln!(y, "{pad}  static: {v}");
            }
            for (_, next, _) in list {
                write_node(y, next, indent + 1, graph);
            }
        }
    }
}

/// A test's `.solution`: the action and the generated states (sorted as Python sorts them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub action: String,
    pub generated: Vec<String>,
}

/// Reads a `.solution` file.
pub fn solution(path: &Path, source: &str) -> Result<Solution, Diagnostic> {
    let file = parse(path, source)?;
    let get = |key: &str| {
        file.get(key).ok_or_else(|| {
            Diagnostic::new(path, format!("the solution has no `{key}`"))
                .at(Pos { line: 1, col: 1 }, source)
                .expected("`action: \"...\"` and `generated: \"...\"`, as the autograder writes a GraphGameTreeTest's solution")
                .found(format!(
                    "keys {}",
                    file.properties
                        .iter()
                        .map(|p| p.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
        })
    };
    Ok(Solution {
        action: get("action")?.value.clone(),
        generated: get("generated")?
            .value
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    })
}

impl Solution {
    /// The solution as the autograder writes it (`writeSolution`), for the test at `shown`.
    pub fn text(&self, shown: &str) -> String {
        let mut g = self.generated.clone();
        g.sort();
        g.dedup();
        format!(
            "# This is the solution file for {shown}.\naction: \"{}\"\ngenerated: \"{}\"\n",
            self.action,
            g.join(" ")
        )
    }

    /// What a cs188 trace says: the action `getAction` returned, and the start state with
    /// every state generated, sorted.
    pub fn of_trace(root: &str, trace: &str) -> Solution {
        use crate::check::extract::{chosen_move, classify_any, state_label};
        use crate::trace::LineKind;
        let mut generated: std::collections::BTreeSet<String> = [root.to_owned()].into();
        let mut action = "None".to_owned();
        for line in trace.lines() {
            match classify_any(line) {
                Some(LineKind::Enter) => {
                    if let Some(s) = state_label(LineKind::Enter, line) {
                        generated.insert(s.to_owned());
                    }
                }
                Some(LineKind::Choice) => {
                    if let Some(m) = chosen_move(LineKind::Choice, line) {
                        action = m.to_owned();
                    }
                }
                _ => {}
            }
        }
        Solution {
            action,
            generated: generated.into_iter().collect(),
        }
    }

    /// How `actual` differs from this (expected) solution, as the autograder says it; empty
    /// when they agree.
    pub fn differences(&self, actual: &Solution) -> Vec<String> {
        let mut out = Vec::new();
        if self.action != actual.action {
            out.push(format!(
                "Incorrect move: the reference chooses {}, the solution says {}",
                actual.action, self.action
            ));
        }
        let want: BTreeMap<&str, ()> = self.generated.iter().map(|s| (s.as_str(), ())).collect();
        let got: BTreeMap<&str, ()> = actual.generated.iter().map(|s| (s.as_str(), ())).collect();
        let missing: Vec<&str> = want
            .keys()
            .filter(|s| !got.contains_key(*s))
            .copied()
            .collect();
        let extra: Vec<&str> = got
            .keys()
            .filter(|s| !want.contains_key(*s))
            .copied()
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            out.push(format!(
                "Incorrect generated nodes: the solution has {} that the reference does not generate ({}), the reference {} more ({})",
                missing.len(),
                missing.join(" "),
                extra.len(),
                extra.join(" ")
            ));
        }
        out
    }
}

/// The name the autograder's solution files give a test: `test_cases/q2/0-small-tree.test`
/// (the path from its `test_cases` folder, if it is in one).
pub fn shown_path(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.iter().rposition(|p| p == "test_cases") {
        Some(i) => parts[i..].join("/"),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"class: "GraphGameTreeTest"
alg: "MinimaxAgent"
depth: "2"   # two rounds

diagram: """
   root
  /    \
 a      b
"""
num_agents: "2"

start_state: "root"
win_states: "a b missing"
lose_states: ""

successors: """
root Left a
root Right b
"""

evaluation: """
a 3.0
b -4.01
"""
"#;

    #[test]
    fn reads_the_course_format() {
        let f = parse(Path::new("t.test"), SMALL).unwrap();
        let depth = f.get("depth").unwrap();
        assert_eq!((depth.value.as_str(), depth.line), ("2", 3));
        let diagram = f.get("diagram").unwrap();
        // A block keeps its lines as written, backslashes and all.
        assert_eq!(diagram.value, "   root\n  /    \\\n a      b");
        assert_eq!(diagram.block.as_deref(), Some(&[6, 7, 8][..]));
        assert_eq!(f.get("lose_states").unwrap().value, "");
    }

    #[test]
    fn keys_are_taken_as_the_course_takes_them() {
        assert_eq!(one_line("a: \"x\""), Some(("a", "x")));
        assert_eq!(one_line("a:b: \"x\"  "), Some(("a:b", "x")));
        assert_eq!(one_line("  k :\t\"\"\r"), Some(("  k ", "")));
        assert_eq!(one_line("a: x"), None);
        assert_eq!(one_line("a: \"x\" y"), None);
        assert_eq!(block_start("succ: \"\"\" "), Some("succ"));
        assert_eq!(block_start("succ: \"\"\"x"), None);
    }

    #[test]
    fn converts_to_the_spec_it_stands_for() {
        let c = to_yaml(Path::new("tc/q2/small.test"), SMALL).unwrap();
        assert!(c.yaml.contains("agents: 2"), "{}", c.yaml);
        assert!(c.yaml.contains("win_states: [a, b]"), "{}", c.yaml);
        assert!(c
            .yaml
            .contains("    actions: [Left, Right]\n    a: 3.0\n    b: -4.01\n"));
        assert!(c.yaml.contains("  small:\n    algorithm: minimax"));
        assert!(c.yaml.contains(
            "# win_states/lose_states the test names that are not in the tree (left out): missing"
        ));
    }

    #[test]
    fn problems_are_placed_in_the_test_file() {
        let blank = SMALL.replace("root Right b\n", "root Right b\n\n");
        let e = to_yaml(Path::new("t.test"), &blank).unwrap_err();
        assert_eq!(e.pos, Some(Pos { line: 19, col: 1 }), "{e}");
        assert!(e.message.contains("`state action next`"));
        let open = SMALL.replace("b -4.01\n\"\"\"\n", "b -4.01\n");
        let e = to_yaml(Path::new("t.test"), &open).unwrap_err();
        assert!(e.message.contains("no closing"), "{e}");
        let bad = SMALL.replace("b -4.01", "b lots");
        let e = to_yaml(Path::new("t.test"), &bad).unwrap_err();
        assert_eq!(e.pos, Some(Pos { line: 23, col: 3 }), "{e}");
        let cycle = SMALL.replace("root Right b", "root Right b\nb Up root");
        let e = to_yaml(Path::new("t.test"), &cycle).unwrap_err();
        assert!(e.message.contains("reached again below itself"), "{e}");
        let other = SMALL.replace("GraphGameTreeTest", "PacmanGameTreeTest");
        let e = to_yaml(Path::new("t.test"), &other).unwrap_err();
        assert!(e.hint.unwrap().contains("plays Pacman"));
        let quote = SMALL.replace("alg: \"MinimaxAgent\"", "alg: \"Minimax\"Agent\"");
        assert!(to_yaml(Path::new("t.test"), &quote).is_err());
    }

    #[test]
    fn solutions_read_and_write_as_the_autograder_does() {
        let text = "# This is the solution file for test_cases/q2/x.test.\naction: \"Left\"\ngenerated: \"a b root\"\n";
        let s = solution(Path::new("x.solution"), text).unwrap();
        assert_eq!(s.action, "Left");
        assert_eq!(s.text("test_cases/q2/x.test"), text);
        let traced = Solution::of_trace(
            "root",
            "generateSuccessor(root, 0, Left) -> a\ngetScore(a) -> 3.0\ngenerateSuccessor(root, 0, Right) -> b\ngetAction(root) -> Left\n",
        );
        assert_eq!(traced, s);
        assert!(s.differences(&traced).is_empty());
        // Python sorts by code point: upper case first.
        let mixed = Solution {
            action: "x".into(),
            generated: vec!["b".into(), "A".into(), "B".into()],
        };
        assert!(mixed.text("t").contains("generated: \"A B b\""));
        assert_eq!(
            shown_path(Path::new("/p/test_cases/q3/6-tied-root.test")),
            "test_cases/q3/6-tied-root.test"
        );
    }
}
