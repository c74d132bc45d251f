//! The tree as a Python module: nested tuples, the successor and utility tables of AIMA's
//! `Fig52Game`, its methods as functions and a class, and CS188-style `successors` and
//! `evaluation`. Running the module prints a listing of the tree.

use crate::game::tree::{NodeId, Tree};
use crate::game::Player;
use std::fmt::Write as _;

/// A Python string literal (JSON's escapes are valid Python).
fn string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// The deepest tree written as one nested literal (two brackets a level; CPython's parser
/// stops at 200 nested brackets).
const MAX_LITERAL_HEIGHT: u32 = 60;

/// The module, or the name used twice (states are keyed by node name).
pub fn module(
    tree: &Tree,
    root_player: Player,
    move_names: &[String],
    comment: &str,
) -> Result<String, String> {
    let mut seen = std::collections::HashSet::new();
    for id in 0..tree.len() as NodeId {
        if !seen.insert(tree.name(id)) {
            return Err(tree.name(id));
        }
    }
    let mut out = String::with_capacity(tree.len() * 48 + 4096);
    let _ = writeln!(
        out,
        "\"\"\"{}",
        comment.replace("\"\"\"", "'''").replace('\\', "\\\\")
    );
    out.push_str(
        r#"
A game tree as data. States are node names; a move is a child's index in move order (as in
gametrace's traces), or its name where the tree names its moves (CS188's actions). Turns go to
AGENTS in turn (Pacman, then each ghost), or alternate by level from ROOT_PLAYER.

    TREE              nested tuples: (name, [children]) for a node, (name, value) for a leaf
    SUCCS             AIMA Fig52Game style: state -> {move: next state}
    UTILS             AIMA Fig52Game style: leaf -> its value (Maxie's point of view)
    actions, result, terminal_test, utility, to_move     AIMA's Game methods, as functions
    TreeGame          the same as a class (initial, actions, result, ...)
    successors, evaluation                               CS188 style
    STATICS, CHANCE   inner nodes' static values; chance nodes' probabilities (Fractions)
    AGENTS, WIN_STATES, LOSE_STATES    who moves at each level in turn; the finished states
    GameTreeState     CS188's multiagent test-tree state (getLegalActions, generateSuccessor,
                      getNumAgents, isWin, isLose, getScore), recording GENERATED as the
                      autograder does
    minimax_value, expectimax_value    plain values of a state (for checking)

Run it (python3 thisfile.py) to list each state's successors and each leaf's evaluation.
"""

"#,
    );
    out.push_str("from fractions import Fraction\n\n");
    constants(&mut out, tree, root_player, move_names);
    tables(&mut out, tree);
    // Python refuses literals nested much past 100 brackets; deep trees are built instead.
    if tree.height() <= MAX_LITERAL_HEIGHT {
        out.push_str("TREE = ");
        tuple(tree, tree.root(), 0, &mut out);
        out.push_str("\n\n");
    } else {
        out.push_str("def _build(state):\n    if state in UTILS:\n        return (state, UTILS[state])\n    return (state, [_build(s) for s in SUCCS[state].values()])\n\n\nTREE = _build(ROOT)\n\n");
    }
    out.push_str("_LEVEL = {ROOT: 0}\n_AGENT = {ROOT: 0}\n_PLAYER = {ROOT: AGENTS[0] if AGENTS else ROOT_PLAYER}\nfor _state, _moves in SUCCS.items():\n    for _next in _moves.values():\n        _LEVEL[_next] = _LEVEL[_state] + 1\n        # Turns go round the agents (or alternate), but nature's move at a chance node is\n        # not a turn.\n        if _state in CHANCE:\n            _AGENT[_next], _PLAYER[_next] = _AGENT[_state], _PLAYER[_state]\n        elif AGENTS:\n            _AGENT[_next] = (_AGENT[_state] + 1) % len(AGENTS)\n            _PLAYER[_next] = AGENTS[_AGENT[_next]]\n        else:\n            _AGENT[_next] = 1 - _AGENT[_state]\n            _PLAYER[_next] = \"MIN\" if _PLAYER[_state] == \"MAX\" else \"MAX\"\n");
    out.push_str(PYTHON_FUNCTIONS);
    Ok(out)
}

/// The module's constants: the root, who moves, the finished states, the root's move names.
fn constants(out: &mut String, tree: &Tree, root_player: Player, move_names: &[String]) {
    let _ = writeln!(out, "ROOT = {}", string(&tree.name(tree.root())));
    let _ = writeln!(
        out,
        "ROOT_PLAYER = {}  # MAX is Maxie, MIN is Minnie",
        string(match root_player {
            Player::Maxie => "MAX",
            Player::Minnie => "MIN",
        })
    );
    let agents: Vec<String> = tree
        .agents()
        .iter()
        .map(|p| {
            string(match p {
                Player::Maxie => "MAX",
                Player::Minnie => "MIN",
            })
        })
        .collect();
    let _ = writeln!(
        out,
        "AGENTS = [{}]  # who moves at each level in turn from the root (empty: two players alternate)",
        agents.join(", ")
    );
    let outcome_names = |want: crate::game::Outcome| -> Vec<String> {
        tree.outcomes()
            .iter()
            .filter(|(_, o)| *o == want)
            .map(|(id, _)| string(&tree.name(*id)))
            .collect()
    };
    let wins = outcome_names(crate::game::Outcome::Winner(Player::Maxie));
    let loses = outcome_names(crate::game::Outcome::Winner(Player::Minnie));
    let set = |names: &[String]| {
        if names.is_empty() {
            "set()".to_owned()
        } else {
            format!("{{{}}}", names.join(", "))
        }
    };
    let _ = writeln!(out, "WIN_STATES = {}  # CS188's win_states", set(&wins));
    let _ = writeln!(out, "LOSE_STATES = {}  # CS188's lose_states", set(&loses));
    let _ = writeln!(
        out,
        "OUTCOMES = {}  # True when the tree says which states are won and lost; else a leaf is a win",
        if tree.outcomes().is_empty() { "False" } else { "True" }
    );
    let names: Vec<String> = move_names.iter().map(|n| string(n)).collect();
    let _ = writeln!(
        out,
        "ROOT_MOVE_NAMES = [{}]  # the root's moves by index, if they have names\n",
        names.join(", ")
    );
}

/// The tree as tables: SUCCS, UTILS, STATICS and CHANCE.
fn tables(out: &mut String, tree: &Tree) {
    out.push_str("SUCCS = {\n");
    for id in 0..tree.len() as NodeId {
        let kids = tree.children(id);
        if kids.is_empty() {
            continue;
        }
        let moves: Vec<String> = kids
            .iter()
            .enumerate()
            .map(|(i, c)| match tree.move_name(c) {
                Some(action) => format!("{}: {}", string(action), string(&tree.name(c))),
                None => format!("{i}: {}", string(&tree.name(c))),
            })
            .collect();
        let _ = writeln!(
            out,
            "    {}: {{{}}},",
            string(&tree.name(id)),
            moves.join(", ")
        );
    }
    out.push_str("}\n\nUTILS = {\n");
    for id in 0..tree.len() as NodeId {
        if let Some(v) = tree.leaf_value(id) {
            let _ = writeln!(out, "    {}: {},", string(&tree.name(id)), number(tree, v));
        }
    }
    out.push_str("}\n\n");
    out.push_str("# Inner nodes' static values (MIT 6.034): what a depth-limited search takes there.\nSTATICS = {\n");
    for &(id, v) in tree.inner_statics() {
        let _ = writeln!(out, "    {}: {},", string(&tree.name(id)), number(tree, v));
    }
    out.push_str("}\n\n# Chance nodes: each child's probability, in move order (exact fractions).\nCHANCE = {\n");
    for id in tree.chance_nodes() {
        let ps: Vec<String> = tree
            .chance(id)
            .unwrap_or(&[])
            .iter()
            .map(|p| format!("Fraction({})", string(&p.to_string())))
            .collect();
        let _ = writeln!(out, "    {}: [{}],", string(&tree.name(id)), ps.join(", "));
    }
    out.push_str("}\n\n");
}

/// A value as a Python literal: an integer, or a float where the tree has decimals.
fn number(tree: &Tree, v: i64) -> String {
    match tree.places() {
        0 => v.to_string(),
        p => {
            let mut s = String::new();
            crate::search::cs188::write_float(
                &mut s,
                crate::search::cs188::float_of(crate::game::Estimate::Guess(v), p),
            );
            s
        }
    }
}

/// `("a", [("b", 3), ...])`, a child per line below the top two levels' leaves.
/// Recursion is bounded by the tree's height.
fn tuple(tree: &Tree, id: NodeId, indent: usize, out: &mut String) {
    let name = string(&tree.name(id));
    if let Some(v) = tree.leaf_value(id) {
        let _ = write!(out, "({name}, {})", number(tree, v));
        return;
    }
    let kids = tree.children(id);
    let _ = write!(out, "({name}, [");
    if kids.iter().all(|c| tree.is_leaf(c)) {
        for (i, c) in kids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            tuple(tree, c, indent, out);
        }
        out.push_str("])");
        return;
    }
    for c in kids {
        out.push('\n');
        out.push_str(&"    ".repeat(indent + 1));
        tuple(tree, c, indent + 1, out);
        out.push(',');
    }
    out.push('\n');
    out.push_str(&"    ".repeat(indent));
    out.push_str("])");
}

const PYTHON_FUNCTIONS: &str = r#"

def actions(state):
    """The moves from a state, in move order (none at a leaf)."""
    return list(SUCCS.get(state, {}).keys())


def result(state, move):
    return SUCCS[state][move]


def terminal_test(state):
    """A finished state: a win or a lose state where the tree says which are, else a leaf."""
    if OUTCOMES:
        return state in WIN_STATES or state in LOSE_STATES or state in UTILS
    return state in UTILS


def to_move(state):
    """'MAX' or 'MIN': whose turn it is at a state (at a chance node, who moves after it)."""
    return _PLAYER[state]


def is_chance(state):
    return state in CHANCE


def utility(state, player):
    """A leaf's value for `player` ('MAX' or 'MIN'), as AIMA's Fig52Game gives it."""
    return UTILS[state] if player == "MAX" else -UTILS[state]


class TreeGame:
    """AIMA's Game interface over this tree (initial, actions, result, utility, ...)."""

    initial = ROOT

    def actions(self, state):
        return actions(state)

    def result(self, state, move):
        return result(state, move)

    def utility(self, state, player):
        return utility(state, player)

    def terminal_test(self, state):
        return terminal_test(state)

    def to_move(self, state):
        return to_move(state)


def successors(state):
    """CS188 style: [(move, next state), ...] in move order."""
    return list(SUCCS.get(state, {}).items())


def evaluation(state):
    """CS188 style: a leaf's value, or an inner node's static value (Maxie's point of view)."""
    return UTILS[state] if state in UTILS else STATICS[state]


# The states GameTreeState.generateSuccessor produced, and the start state: what CS188's
# autograder compares (its `generatedStates`).
GENERATED = set()


class GameTreeState:
    """CS188's multiagent test-tree state over this tree: agent 0 is Pacman (MAX), the others
    the ghosts, in turn (AGENTS; two players alternating where the tree names none).

    Where the tree says which states are won and lost (WIN_STATES, LOSE_STATES), isWin() and
    isLose() say so, as CS188's tree does; otherwise a leaf is a finished game and isWin() is
    true there (so an agent stops). getScore() is a leaf's value, or at a depth cutoff an
    inner node's static value. Actions are the tree's names for its moves (CS188's), or
    indices. toMove() says 'MAX', 'MIN' or 'CHANCE'; at a chance node getProbabilities() gives
    each action's probability, in the order of getLegalActions().
    """

    def __init__(self, state=ROOT, start=True):
        self.state = state
        if start:
            GENERATED.add(state)

    def getNumAgents(self):
        return len(AGENTS) if AGENTS else 2

    def getLegalActions(self, agentIndex=0):
        return actions(self.state)

    def generateSuccessor(self, agentIndex, action):
        nxt = result(self.state, action)
        GENERATED.add(nxt)
        return GameTreeState(nxt, start=False)

    def getNextState(self, agentIndex, action):
        """The 2021-22 projects' name for generateSuccessor."""
        return self.generateSuccessor(agentIndex, action)

    def isWin(self):
        if OUTCOMES:
            return self.state in WIN_STATES
        return terminal_test(self.state)

    def isLose(self):
        return OUTCOMES and self.state in LOSE_STATES

    def getScore(self):
        return float(evaluation(self.state))

    def toMove(self):
        return "CHANCE" if is_chance(self.state) else to_move(self.state)

    def getProbabilities(self):
        return CHANCE[self.state]

    def __repr__(self):
        return self.state


def expectimax_value(state=ROOT, minimises=True):
    """The exact expectiminimax value (Minnie minimises), or expectimax's (Minnie averages
    uniformly) with minimises=False."""
    if terminal_test(state):
        return Fraction(evaluation(state))
    values = [expectimax_value(s, minimises) for _, s in successors(state)]
    if is_chance(state):
        return sum(p * v for p, v in zip(CHANCE[state], values))
    if to_move(state) == "MAX":
        return max(values)
    return min(values) if minimises else sum(values) / len(values)


def minimax_value(state=ROOT):
    """The plain minimax value of a state, with no pruning (no chance nodes)."""
    if terminal_test(state):
        return evaluation(state)
    values = [minimax_value(s) for _, s in successors(state)]
    return max(values) if to_move(state) == "MAX" else min(values)


if __name__ == "__main__":
    print("successors:")
    for _state in SUCCS:
        print("  %s (%s): %s" % (_state, to_move(_state),
              ", ".join("%s -> %s" % m for m in successors(_state))))
    print("evaluation:")
    for _state in UTILS:
        print("  %s: %s" % (_state, evaluation(_state)))
    print("minimax value of %s: %s" % (ROOT, minimax_value()))
"#;
