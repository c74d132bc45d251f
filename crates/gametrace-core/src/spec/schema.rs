//! The spec format as Rust types, from which `schema/spec.schema.json` (JSON Schema, for
//! editors' YAML support) is generated. The loader ([`super::load`]) reads specs by hand to
//! give its precise diagnostics; the tests below hold its key lists and these types to each
//! other, and the names of algorithms, dialects, line kinds, modes and tasks come from the
//! same enums the loader parses, so the schema cannot drift from the code.
//!
//! No value of these types is ever built: the structs' fields exist for `JsonSchema`'s derive
//! (their names, types and doc comments become the schema), so each struct with fields
//! expects `dead_code` on its own (fields never read), and nothing else here may be unused.

use crate::check::trace::Mode;
use crate::spec::MoveOrder;
use crate::task::Task;
use crate::trace::{Dialect, LineKind};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A spec: a game tree with search cases, a homework task with argument cases, or a real
/// game's position with search cases and rule scenarios.
#[derive(JsonSchema)]
#[schemars(title = "gametrace spec", untagged)]
pub enum SpecFile {
    Tree(TreeSpecFile),
    Task(TaskSpecFile),
    Game(GameSpecFile),
}

/// A game tree and the searches to run on it.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct TreeSpecFile {
    /// The spec format's version.
    version: Option<Version>,
    /// What the tree is, for people (shown by `show` and `stats`).
    title: Option<String>,
    /// The tree: one root name mapped to its children in move order; a leaf is its integer
    /// estimate. Or `{generate: {branching, depth, seed, min, max}}` for a uniform random tree.
    tree: TreeField,
    /// Case name -> search settings. A case's expected trace is
    /// expected/<spec path minus .yaml>/<case>.trace.
    #[schemars(extend("minProperties" = 1))]
    cases: BTreeMap<String, TreeCase>,
    /// Who moves at the root, for every case (default Maxie).
    root_player: Option<PlayerName>,
    /// The root's move names by move index, for every case: `[left, middle, right]`.
    move_names: Option<Vec<String>>,
    /// The structure name the repl dialect prints (`val it = 0 : <name>.move`; default Game).
    sml_structure: Option<SmlName>,
    /// Who moves at each level, in turn from the root: a number of agents (CS188's
    /// `num_agents`: Pacman, who maximises, then the ghosts, who minimise), or a list of
    /// `max` and `min` (default: Maxie and Minnie alternating from `root_player`).
    agents: Option<AgentsField>,
    /// Nodes that are won positions (CS188's `win_states`): a search stops there and takes
    /// the node's value.
    win_states: Option<Vec<String>>,
    /// Nodes that are lost positions (CS188's `lose_states`).
    lose_states: Option<Vec<String>>,
}

/// One search of the tree.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[schemars(extend(
    "if" = {"properties": {"algorithm": {"const": "jamboree"}}},
    "then" = {"required": ["prune_percentage"]},
    "else" = {"not": {"required": ["prune_percentage"]}}
))]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct TreeCase {
    algorithm: AlgorithmName,
    /// Jamboree only: the fraction of each node's moves searched in turn (0 is minimax, 1
    /// alpha-beta).
    #[schemars(range(min = 0.0, max = 1.0))]
    prune_percentage: Option<f64>,
    /// Moves to look ahead (default: the tree's height).
    #[schemars(range(min = 0))]
    depth: Option<u32>,
    /// Which handout's trace to print (default s14).
    dialect: Option<Dialect>,
    /// Which line kinds to print (default: all of the dialect's).
    lines: Option<Vec<LineKind>>,
    root_player: Option<PlayerName>,
    move_names: Option<Vec<String>>,
    sml_structure: Option<SmlName>,
    /// Which handout year's alpha-beta the repl dialect follows (s14 and s12 dialects fix it).
    rules: Option<RulesName>,
    /// Compare with the expected trace byte for byte.
    exact: Option<bool>,
    /// How `check` and `test --against` compare an implementation's output (default full).
    check: Option<Mode>,
    /// Which blocks an implementation may print in any order (default none; parallel: the
    /// children of each parallel phase).
    unordered: Option<UnorderedName>,
    /// The case's weight in a grade (default 1).
    #[schemars(range(min = 0.0))]
    points: Option<f64>,
    /// Who may see the result in a grading report (default visible).
    visibility: Option<VisibilityName>,
    /// Seconds the search may run in `test` and `run` (default: `--time-limit`).
    #[schemars(range(min = 0.0, max = 86400.0))]
    time_limit: Option<f64>,
    /// CS10 only: search children best first by static evaluation or a one-ply search.
    ordering: Option<OrderingName>,
    /// CS10 negamax_ab only: a first window around a guess, re-searched in full if the value
    /// falls outside.
    aspiration: Option<AspirationField>,
    /// `iterative`: the search at depth 1, 2, ..., `depth` in turn, each traced under a
    /// `Deepening to depth d` line (on a tree, every inner node a depth stops at needs a
    /// `static:` value).
    deepening: Option<DeepeningName>,
    /// With `deepening: iterative`: `best_first` tries the root's moves best first by the
    /// previous depth's values (15-150 searchers); `game` (the default) keeps the game's order.
    move_order: Option<MoveOrder>,
    /// Expectimax only: print values with this many decimal places (rounded half away from
    /// zero) instead of exact fractions.
    #[schemars(range(min = 0, max = 12))]
    decimals: Option<u8>,
    /// What `depth` counts: `moves` (every player's move; the default) or `rounds` (each
    /// agent moving once, as CS188 counts; the default with dialect cs188).
    depth_unit: Option<DepthUnitName>,
    /// The cs188 dialect's alpha-beta: prune once a value passes the other bound (`>`, CS188,
    /// the default) or reaches it (`>=`, as the 15-150 handouts do).
    prune_on: Option<PruneOnName>,
}

/// `agents: 3`, or `agents: [max, min, min]`.
pub struct AgentsField;
impl JsonSchema for AgentsField {
    fn schema_name() -> Cow<'static, str> {
        "Agents".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [
            {"type": "integer", "minimum": 1, "maximum": 64, "description": "Pacman (max) and then n - 1 ghosts (min), as CS188's num_agents"},
            {"type": "array", "items": {"enum": ["max", "min"]}, "minItems": 1, "maxItems": 64, "description": "who moves at each level in turn, from the root"}
        ]})
    }
}

/// A homework task (graphs, sequences) and argument cases.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct TaskSpecFile {
    version: Option<Version>,
    title: Option<String>,
    task: Task,
    #[schemars(extend("minProperties" = 1))]
    cases: BTreeMap<String, TaskCase>,
}

/// One call of the task.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{"required": ["expect"]}, {"required": ["expect_error"]}]))]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct TaskCase {
    /// The arguments, each in SML notation (`"<(0,1),(1,0)>"`) or as a YAML list.
    args: Vec<serde_json::Value>,
    /// The result in SML notation (or `raise not_in_graph`).
    expect: Option<serde_json::Value>,
    /// Text the message of a broken REQUIRES clause contains.
    expect_error: Option<String>,
    order: Option<OrderName>,
    dialect: Option<TaskDialect>,
    #[schemars(range(min = 0.0))]
    points: Option<f64>,
    /// Who may see the result in a grading report (default visible).
    visibility: Option<VisibilityName>,
}

/// A real game (Connect 4 or PopOut, Riskless, Nim) at a position, searched by cases and
/// stepped through by scenarios.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[schemars(extend("anyOf" = [{"required": ["cases"]}, {"required": ["scenarios"]}]))]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct GameSpecFile {
    version: Option<Version>,
    title: Option<String>,
    game: GameName,
    /// Connect 4 only: `standard` (default) or `popout`.
    variant: Option<VariantName>,
    /// Connect 4 and tic-tac-toe: the board's width (default 7; tic-tac-toe 3, at most 8).
    #[schemars(range(min = 1))]
    columns: Option<u32>,
    /// Connect 4 and tic-tac-toe: the board's height (default 6; tic-tac-toe 3, at most 8).
    #[schemars(range(min = 1))]
    rows: Option<u32>,
    /// Tic-tac-toe only: how many in a row win (default 3, at most the longer side).
    #[schemars(range(min = 1, max = 8))]
    k: Option<u32>,
    /// Pig only: the score to reach (default 100, as OpenSpiel's pig).
    #[schemars(range(min = 1, max = 1000))]
    target: Option<u32>,
    /// Pig only: the die's faces (default 6).
    #[schemars(range(min = 2, max = 20))]
    dice: Option<u32>,
    /// Pig only: decisions (rolls and stops) before the game is a draw (default 1000).
    #[schemars(range(min = 1, max = 1000000))]
    horizon: Option<u32>,
    /// Tic-tac-toe only: what a finished game is worth, as X's number (default win 1, draw 0,
    /// loss -1, as AIMA and OpenSpiel score it).
    utility: Option<UtilityField>,
    /// Riskless only: `M1`, `M2`, or a map of one's own.
    map: Option<MapField>,
    /// Tippy only: the board is size × size (3 to 8, default 4).
    #[schemars(range(min = 3, max = 8))]
    size: Option<u32>,
    /// Kalah only: pits a side (default 6).
    #[schemars(range(min = 1, max = 15))]
    pits: Option<u32>,
    /// Kalah only: seeds a pit at the start (default 4).
    #[schemars(range(min = 1, max = 100))]
    seeds: Option<u32>,
    /// Kalah only: capture the lone seed even when the opposite pit is empty (default false).
    capture_empty: Option<bool>,
    /// Kalah only: when the game ends, `cs10` (the notes: when the player to move has no
    /// seeds, the default) or `either_side_empty` (as soon as either row is empty).
    end_rule: Option<EndRuleName>,
    /// Subtract Square only: the order of a position's moves, `largest_first` (the course's
    /// `subtract_square_state.py`, the default) or `smallest_first`.
    square_order: Option<SquareOrderName>,
    /// The position: Connect 4 rows of `.XO` text, top row first (a list or a `|` block);
    /// Riskless territories and who holds them (`Land0: Minnie 2`); Nim's number of sticks.
    /// Default: the empty board, the map's start.
    position: Option<PositionField>,
    /// Who moves in the position (default Maxie; Connect 4 works it out from the pieces).
    to_move: Option<PlayerName>,
    /// `naive` (the handout's, default) or `improved`.
    estimator: Option<EstimatorName>,
    sml_structure: Option<SmlName>,
    /// Case name -> search settings, as for trees; `depth` is required.
    #[schemars(extend("minProperties" = 1))]
    cases: Option<BTreeMap<String, GameCase>>,
    /// Scenario name -> a start and steps, each a move with what must hold after it.
    #[schemars(extend("minProperties" = 1))]
    scenarios: Option<BTreeMap<String, ScenarioFile>>,
}

/// One search of the game's position.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[schemars(extend(
    "if" = {"properties": {"algorithm": {"const": "jamboree"}}},
    "then" = {"required": ["prune_percentage"]},
    "else" = {"not": {"required": ["prune_percentage"]}}
))]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct GameCase {
    algorithm: AlgorithmName,
    #[schemars(range(min = 0.0, max = 1.0))]
    prune_percentage: Option<f64>,
    /// Moves to look ahead (required, except for CSC148's strategies, which search every
    /// game to its end unless myopic).
    #[schemars(range(min = 0))]
    depth: Option<u32>,
    dialect: Option<Dialect>,
    lines: Option<Vec<LineKind>>,
    sml_structure: Option<SmlName>,
    rules: Option<RulesName>,
    exact: Option<bool>,
    check: Option<Mode>,
    unordered: Option<UnorderedName>,
    #[schemars(range(min = 0.0))]
    points: Option<f64>,
    /// Who may see the result in a grading report (default visible).
    visibility: Option<VisibilityName>,
    /// This case's estimator, instead of the spec's.
    estimator: Option<EstimatorName>,
    /// `game_state_tree` only: which of the starter's measures to print (default all).
    metrics: Option<Vec<MetricName>>,
    /// A position of this case's own, instead of the spec's.
    position: Option<PositionField>,
    /// Who moves in the case's position.
    to_move: Option<PlayerName>,
    /// CS10 only: search children best first by static evaluation or a one-ply search.
    ordering: Option<OrderingName>,
    /// CS10 negamax_ab only: a first window around a guess, re-searched in full if the value
    /// falls outside.
    aspiration: Option<AspirationField>,
    /// `iterative`: the search at depth 1, 2, ..., `depth` in turn, each traced under a
    /// `Deepening to depth d` line (on a tree, every inner node a depth stops at needs a
    /// `static:` value).
    deepening: Option<DeepeningName>,
    /// With `deepening: iterative`: `best_first` tries the root's moves best first by the
    /// previous depth's values (15-150 searchers); `game` (the default) keeps the game's order.
    move_order: Option<MoveOrder>,
    /// Expectimax only: print values with this many decimal places (rounded half away from
    /// zero) instead of exact fractions.
    #[schemars(range(min = 0, max = 12))]
    decimals: Option<u8>,
    /// Seconds the search may run in `test` and `run` (default: `--time-limit`).
    #[schemars(range(min = 0.0, max = 86400.0))]
    time_limit: Option<f64>,
}

/// A start and moves, each with what must hold after it.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct ScenarioFile {
    /// Where the scenario starts (default: the spec's position).
    position: Option<PositionField>,
    to_move: Option<PlayerName>,
    #[schemars(length(min = 1))]
    steps: Vec<StepFile>,
    #[schemars(range(min = 0.0))]
    points: Option<f64>,
}

/// A move (or none, to look at the position as it stands) and what must hold after it.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct StepFile {
    /// `3` or `p3` (Connect 4, PopOut), `Land3->Land4` or `3 4` (Riskless), `2` (Nim).
    #[serde(rename = "move")]
    play: Option<MoveField>,
    position: Option<PositionField>,
    to_move: Option<PlayerName>,
    status: Option<StatusField>,
    /// The legal moves, in order.
    moves: Option<Vec<MoveField>>,
    /// The estimator's value (an integer).
    estimate: Option<i64>,
}

/// A Riskless map of one's own.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct RisklessMap {
    name: Option<String>,
    /// Each territory mapped to the territories next to it, in move order.
    roads: BTreeMap<String, Vec<serde_json::Value>>,
    /// Minnie's first territory (2 armies), by name or number.
    min_start: serde_json::Value,
    /// Maxie's first territory (1 army), by name or number.
    max_start: serde_json::Value,
    /// The most armies a territory holds.
    #[schemars(range(min = 1, max = 255))]
    max_terri: u32,
    /// The army total that wins.
    #[schemars(range(min = 1))]
    max_units: u32,
}

/// Strings from a fixed list, each with its own description.
fn one_of_strings<D: AsRef<str>>(names: &[(&str, D)]) -> Schema {
    let alternatives: Vec<serde_json::Value> = names
        .iter()
        .map(|(name, about)| serde_json::json!({"const": name, "description": about.as_ref()}))
        .collect();
    json_schema!({"type": "string", "oneOf": alternatives})
}

macro_rules! string_enum {
    ($ty:ty, $name:literal, $variants:expr) => {
        impl JsonSchema for $ty {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                one_of_strings(&$variants)
            }
        }
    };
}

string_enum!(
    Dialect,
    "Dialect",
    Dialect::ALL.map(|d| (
        d.name(),
        match d {
            Dialect::S14 => "15-150 S14 HW11: F:/G: lines, Leaf/Step values",
            Dialect::S12 => "15-150 S12 HW09: Evaluating lines, Pruned/ParentPrune",
            Dialect::Repl => "what the support code prints at the SML/NJ prompt",
            Dialect::Csc148 => "Toronto CSC148's strategies: scores for the player to move",
            Dialect::Cs10 => "Dartmouth CS10's negamax: the hand method with (low, high) ranges",
            Dialect::Expectimax =>
                "expectimax and expectiminimax: exact expected values at chance nodes",
            Dialect::Cs188 =>
                "Berkeley CS188's multiagent search: the calls an agent makes on a test tree",
        }
    ))
);
string_enum!(
    LineKind,
    "LineKind",
    LineKind::ALL.map(|k| (k.name(), "a kind of trace line"))
);
string_enum!(
    Mode,
    "CheckMode",
    Mode::ALL.map(|m| (
        m.name(),
        match m {
            Mode::Full => "every trace line, in order",
            Mode::Terminals => "the estimated states in order, and the move",
            Mode::Visited => "the set of visited states, and the move",
            Mode::Value => "the root's value and the move",
        }
    ))
);
string_enum!(Task, "Task", Task::ALL.map(|t| (t.name(), t.signature())));

pub struct DepthUnitName;
string_enum!(
    DepthUnitName,
    "DepthUnit",
    [
        ("moves", "every player's move counts one"),
        ("rounds", "each agent moves once in a round (CS188's depth)")
    ]
);

pub struct PruneOnName;
string_enum!(
    PruneOnName,
    "PruneOn",
    [
        (
            ">",
            "prune once a value passes the other bound (CS188: never on equality)"
        ),
        (
            ">=",
            "prune once a value reaches the other bound (the 15-150 handouts)"
        )
    ]
);

pub struct GameName;
string_enum!(
    GameName,
    "Game",
    [
        ("connect4", "Connect 4 on any board, and PopOut (S12 HW09)"),
        ("riskless", "Riskless on a map (S14 HW11)"),
        ("nim", "Nim from the lecture slides"),
        ("subtract_square", "Subtract Square (Toronto CSC148)"),
        ("tippy", "Tippy on an n×n board (Toronto CSC148)"),
        ("kalah", "Kalah(pits, seeds) (Dartmouth CS10)"),
        (
            "tictactoe",
            "Tic-tac-toe and m,n,k-games: columns × rows, k in a row (AIMA, OpenSpiel)"
        ),
        (
            "pig",
            "Pig, the dice game, as OpenSpiel defines it (expectimax searches)"
        ),
    ]
);

/// Tic-tac-toe's utility: X's win, a draw and X's loss as X's numbers.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "fields for the schema's derive; no value is built"
)]
pub struct UtilityField {
    win: Option<i64>,
    draw: Option<i64>,
    loss: Option<i64>,
}

pub struct DeepeningName;
string_enum!(
    DeepeningName,
    "Deepening",
    [(
        "iterative",
        "iterative (progressive) deepening: depth 1, 2, ..., the case's depth"
    )]
);

string_enum!(
    MoveOrder,
    "MoveOrder",
    MoveOrder::ALL.map(|o| (
        o.name(),
        match o {
            MoveOrder::Game => "the game's move order at every depth",
            MoveOrder::BestFirst =>
                "after the first depth, the root's moves best first by the previous depth's values",
        }
    ))
);

pub struct VariantName;
string_enum!(
    VariantName,
    "Variant",
    [
        ("standard", "drops only"),
        (
            "popout",
            "a player may also pop their own piece out of the bottom row"
        ),
    ]
);

pub struct EstimatorName;
string_enum!(
    EstimatorName,
    "Estimator",
    [
        ("naive", "the handout's"),
        (
            "improved",
            "a better one, documented in the guide (docs/src/15150.md)"
        ),
    ]
);

pub struct EndRuleName;
string_enum!(
    EndRuleName,
    "EndRule",
    [
        (
            "cs10",
            "CS10's notes: when the player to move has no seeds, the opponent sweeps their own"
        ),
        (
            "either_side_empty",
            "as soon as either row is empty, each player sweeps their own"
        ),
    ]
);

pub struct SquareOrderName;
string_enum!(
    SquareOrderName,
    "SquareOrder",
    [
        (
            "largest_first",
            "the course's subtract_square_state.py: range(current_total, 0, -1)"
        ),
        ("smallest_first", "1, 4, 9, ... up to the total"),
    ]
);

/// `M1`, `M2`, or a map.
pub struct MapField;
impl JsonSchema for MapField {
    fn schema_name() -> Cow<'static, str> {
        "Map".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let map = generator.subschema_for::<RisklessMap>();
        json_schema!({"anyOf": [{"enum": ["M1", "M2"]}, map]})
    }
}

/// A position in a game's readable form.
pub struct PositionField;
impl JsonSchema for PositionField {
    fn schema_name() -> Cow<'static, str> {
        "Position".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "anyOf": [
                {"type": "integer", "minimum": 0, "description": "Nim: sticks left"},
                {"type": "string", "description": "Connect 4, Tippy and tic-tac-toe: rows of .XO text, top row first (Tippy and tic-tac-toe: one line, rows separated by /); Subtract Square: `p1:6`"},
                {"type": "array", "items": {"type": "string"}, "description": "Connect 4: rows of .XO text, top row first"},
                {"type": "object", "additionalProperties": {"type": "string", "pattern": "^([Mm]axie|[Mm]innie) [0-9]+$|^[Ee]mpty$"}, "description": "Riskless: territory -> `Maxie 3`, `Minnie 2` or `empty`; unlisted territories are empty"},
                {"type": "object", "properties": {"scores": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}, "turn_total": {"type": "integer", "minimum": 0}, "decisions": {"type": "integer", "minimum": 0}}, "additionalProperties": false, "description": "Pig: the banked scores [p1's, p2's], the turn total, the decisions made so far"},
                {"type": "object", "properties": {"p1": {"type": "array", "items": {"type": "integer", "minimum": 0}}, "p2": {"type": "array", "items": {"type": "integer", "minimum": 0}}, "kalahs": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}}, "required": ["p1", "p2", "kalahs"], "additionalProperties": false, "description": "Kalah: each row in sowing order, and the kalahs [p1's, p2's]"}
            ]
        })
    }
}

/// A move as written.
pub struct MoveField;
impl JsonSchema for MoveField {
    fn schema_name() -> Cow<'static, str> {
        "Move".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 2, "maxItems": 2}]})
    }
}

/// `in_play`, `draw`, or `{winner: Maxie}`.
pub struct StatusField;
impl JsonSchema for StatusField {
    fn schema_name() -> Cow<'static, str> {
        "Status".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let player = generator.subschema_for::<PlayerName>();
        json_schema!({"anyOf": [
            {"enum": ["in_play", "draw"]},
            {"type": "object", "properties": {"winner": player}, "required": ["winner"], "additionalProperties": false}
        ]})
    }
}

/// `minimax`, `alphabeta` or `jamboree`.
pub struct AlgorithmName;
string_enum!(
    AlgorithmName,
    "Algorithm",
    [
        ("minimax", "every move of every node"),
        ("alphabeta", "alpha-beta pruning, children in turn"),
        ("jamboree", "some children in turn, the rest in parallel"),
        (
            "memoize",
            "CSC148: minimax answering repeated positions from a table"
        ),
        (
            "prune",
            "CSC148: the handout's pruning (alphabeta in the csc148 dialect)"
        ),
        (
            "myopic",
            "CSC148: minimax to `depth` moves, then the rough outcome"
        ),
        (
            "game_state_tree",
            "CSC148: the tree of every game from the position, measured"
        ),
        (
            "negamax",
            "CS10: always maximise, negating the opponent's values"
        ),
        ("negamax_ab", "CS10: negamax with a (low, high) window"),
        (
            "expectimax",
            "CS188: Maxie maximises; Minnie's nodes and chance nodes average"
        ),
        (
            "expectiminimax",
            "AIMA: Maxie maximises, Minnie minimises, chance nodes average"
        ),
    ]
);

pub struct MetricName;
string_enum!(
    MetricName,
    "Metric",
    crate::game::state_tree::METRICS.map(|m| (m, "a function of CSC148's game_state_tree module"))
);

pub struct OrderingName;
string_enum!(
    OrderingName,
    "Ordering",
    [
        ("none", "as the game lists its moves"),
        ("static", "best first by static evaluation"),
        ("shallow", "best first by a one-ply search")
    ]
);

/// `5`, or `{guess: -8, width: 5}`.
pub struct AspirationField;
impl JsonSchema for AspirationField {
    fn schema_name() -> Cow<'static, str> {
        "Aspiration".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [
            {"type": "integer", "minimum": 1, "description": "the half-width around the value one ply shallower"},
            {"type": "object", "properties": {"guess": {"type": "integer"}, "width": {"type": "integer", "minimum": 1}}, "required": ["width"], "additionalProperties": false}
        ]})
    }
}

pub struct RulesName;
string_enum!(
    RulesName,
    "Rules",
    [
        ("s14", "Leaf/Step values (S14 HW11)"),
        ("s12", "Pruned/ParentPrune (S12 HW09)"),
        ("csc148", "scores for the player to move (Toronto CSC148)"),
        (
            "cs10",
            "negamax values for the player to move (Dartmouth CS10)"
        ),
        (
            "cs188",
            "Pacman and ghosts, depth in rounds, float values (Berkeley CS188)"
        )
    ]
);

pub struct VisibilityName;
string_enum!(
    VisibilityName,
    "Visibility",
    [
        ("visible", "students see the case and its reference lines"),
        (
            "hidden",
            "students see the verdict, the place and the diagnosis, never the reference"
        ),
        ("after_due_date", "hidden until the due date (Gradescope)"),
        (
            "after_published",
            "hidden until grades are published (Gradescope)"
        )
    ]
);

pub struct UnorderedName;
string_enum!(
    UnorderedName,
    "Unordered",
    [
        ("none", "every line in the reference's order"),
        (
            "parallel",
            "the children of each parallel phase in any order"
        )
    ]
);

pub struct OrderName;
string_enum!(
    OrderName,
    "Order",
    [
        ("exact", "sequences compare in order"),
        ("any", "sequences compare as multisets")
    ]
);

pub struct TaskDialect;
string_enum!(
    TaskDialect,
    "TaskDialect",
    [("bare", "the value alone"), ("repl", "val it = <value>")]
);

pub struct Version;
impl JsonSchema for Version {
    fn schema_name() -> Cow<'static, str> {
        "Version".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"const": 1})
    }
}

/// Maxie or Minnie, in any case.
pub struct PlayerName;
impl JsonSchema for PlayerName {
    fn schema_name() -> Cow<'static, str> {
        "Player".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^([Mm][Aa][Xx][Ii][Ee]|[Mm][Ii][Nn][Nn][Ii][Ee]|[Pp][12]|[XxOo])$",
            "examples": ["Maxie", "Minnie", "p1", "p2", "X", "O"]
        })
    }
}

pub struct SmlName;
impl JsonSchema for SmlName {
    fn schema_name() -> Cow<'static, str> {
        "SmlStructure".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_']*$"})
    }
}

/// `tree:`: one root, or a generated tree.
pub struct TreeField;
impl JsonSchema for TreeField {
    fn schema_name() -> Cow<'static, str> {
        "Tree".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let subtree = generator.subschema_for::<Subtree>();
        let static_value = static_value_schema();
        json_schema!({
            "anyOf": [
                {
                    "description": "A uniform random tree, the same for a seed on every machine",
                    "type": "object",
                    "properties": {"generate": {
                        "type": "object",
                        "properties": {
                            "branching": {"type": "integer", "minimum": 1},
                            "depth": {"type": "integer", "minimum": 1},
                            "seed": {"type": "integer", "minimum": 0},
                            "min": {"type": "integer"},
                            "max": {"type": "integer"}
                        },
                        "required": ["branching", "depth"],
                        "additionalProperties": false
                    }},
                    "required": ["generate"],
                    "additionalProperties": false
                },
                {
                    "description": "The root's name mapped to its children",
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1,
                    "additionalProperties": {"type": "object", "minProperties": 1, "properties": {"static": static_value, "chance": chance_schema(), "actions": actions_schema()}, "additionalProperties": subtree}
                }
            ]
        })
    }
}

/// A node below the root: children by name, or a leaf's estimate (`3`, `-2`, SML's `~2`).
pub struct Subtree;
impl JsonSchema for Subtree {
    fn schema_name() -> Cow<'static, str> {
        "Subtree".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let subtree = generator.subschema_for::<Subtree>();
        json_schema!({
            "anyOf": [
                {"type": "integer", "description": "a leaf's estimate"},
                {"type": "number", "description": "a leaf's value with decimals (`3.01`; the cs188 dialect prints it as CS188 does)"},
                {"type": "string", "pattern": "^~[0-9]+$", "description": "a negative estimate in SML notation"},
                {"type": "object", "minProperties": 1, "properties": {"static": static_value_schema(), "chance": chance_schema(), "actions": actions_schema()}, "additionalProperties": subtree, "description": "children in move order, and optionally `static:`, the node's own static value, `chance:`, its children's probabilities (a chance node), and `actions:`, its moves' names"}
            ]
        })
    }
}

/// `chance:` of a tree node: each child's probability, exact (`1/3`, `0.25`), summing to 1.
fn chance_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "minProperties": 1,
        "additionalProperties": {"anyOf": [
            {"type": "number", "minimum": 0, "maximum": 1},
            {"type": "string", "pattern": "^ *[0-9]+ */ *[0-9]+ *$"}
        ]},
        "description": "a chance node: each child's probability (1/3, 0.25, 0 or 1), summing to exactly 1; only expectimax and expectiminimax search it"
    })
}

/// `actions:` of a tree node: the names of its moves, one a child, in move order.
fn actions_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "minItems": 1,
        "description": "the names of the node's moves (CS188's actions), one per child in move order; traces print them for the move indices"
    })
}

/// `static:` of a tree node: the estimate a depth-limited search takes if it stops there.
fn static_value_schema() -> serde_json::Value {
    serde_json::json!({
        "anyOf": [{"type": "number"}, {"type": "string", "pattern": "^~[0-9]+$"}],
        "description": "the node's static value: what a depth-limited search estimates if it stops here (MIT 6.034 gives every node one); a node with only `static:` is a leaf"
    })
}

/// The schema, pretty-printed, as committed in `schema/spec.schema.json`.
pub fn spec_schema() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(SpecFile)).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(def: &serde_json::Value) -> Vec<String> {
        let mut keys: Vec<String> = def["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    fn sorted(keys: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn the_schema_has_exactly_the_keys_the_loader_reads() {
        let schema: serde_json::Value = serde_json::from_str(&spec_schema()).unwrap();
        let defs = &schema["$defs"];
        assert_eq!(
            properties(&defs["TreeCase"]),
            sorted(super::super::load::CASE_KEYS)
        );
        assert_eq!(
            properties(&defs["TaskCase"]),
            sorted(super::super::load::TASK_CASE_KEYS)
        );
        let mut top = properties(&defs["TreeSpecFile"]);
        top.extend(properties(&defs["TaskSpecFile"]));
        top.sort();
        top.dedup();
        assert_eq!(top, sorted(super::super::load::TOP_KEYS));
        let algorithms: Vec<&str> = defs["Algorithm"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["const"].as_str().unwrap())
            .collect();
        assert_eq!(algorithms, super::super::load::ALGORITHMS);
        use super::super::load::game;
        assert_eq!(
            properties(&defs["GameSpecFile"]),
            sorted(game::GAME_TOP_KEYS)
        );
        assert_eq!(properties(&defs["GameCase"]), sorted(game::GAME_CASE_KEYS));
        assert_eq!(
            properties(&defs["ScenarioFile"]),
            sorted(game::SCENARIO_KEYS)
        );
        assert_eq!(properties(&defs["StepFile"]), sorted(game::STEP_KEYS));
        assert_eq!(properties(&defs["RisklessMap"]), sorted(game::MAP_KEYS));
        let games: Vec<&str> = defs["Game"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["const"].as_str().unwrap())
            .collect();
        assert_eq!(games, game::game_names());
    }
}
