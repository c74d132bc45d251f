//! Naming a difference: which catalogued rule mistake (or, failing any, which pair of them)
//! behaves as the student's game does. A name must predict: the mistake is chosen on the
//! evidence gathered, then its model is tested on fresh positions (seeded walks on its own
//! rules and on the runners-up's, replayed on the student's game); it is named only if it
//! agrees with the game there too, else the report gives the closest and how far it agrees.

use super::*;
use rules::Oracle as _;

/// Walks on each model tried against fresh positions.
const WALKS: usize = 10;
/// The longest walk.
const WALK_MOVES: usize = 60;
/// Models whose walks test a name: the explaining ones, then this many runners-up.
const RUNNERS_UP: usize = 2;

/// What the naming found.
pub(super) struct Naming {
    /// The sentence(s) for the report.
    pub(super) text: String,
    /// The mistakes named (each one mistake's name or two), only when a name predicts.
    pub(super) ids: Vec<Vec<&'static str>>,
    /// Models tried.
    pub(super) tried: usize,
    /// The positions replayed on the student's game to test the name.
    pub(super) fresh: Vec<Line>,
    /// The single mistakes that agree with the evidence further than the reference: the
    /// only ones a difference's cells may be put down to.
    pub(super) near: Vec<&'static str>,
}

/// The positions asked about, each once.
fn tree_of(lines: &[Line]) -> rules::Tree {
    rules::Tree::of(lines.iter().map(|l| (&l.path[..], &l.views[..])))
}

/// How many of the tree's positions a model agrees at (every position on the way too), and
/// how many there are.
fn agreement(model: &dyn rules::Oracle, tree: &rules::Tree, how: Compare) -> (usize, usize) {
    (model.agreement_on(tree, how), tree.nodes.len())
}

fn explains(model: &dyn rules::Oracle, tree: &rules::Tree, how: Compare) -> bool {
    model.agreement_on(tree, how) == tree.nodes.len()
}

/// Which catalogued mistakes behave as the student's game did at every position it was
/// asked about, tested on fresh positions: `fresh` replays move sequences on the student's
/// game and gives its views along each.
pub(super) fn name_the_mistake<G: Checkable>(
    game: &G,
    lines: &[Line],
    how: Compare,
    seed: u64,
    fresh: &mut dyn FnMut(&[Vec<String>]) -> Vec<Line>,
) -> Naming {
    let how = Compare {
        estimate: false,
        ..how
    };
    let reference = Reference {
        game,
        estimate: None,
    };
    let c = Candidates::of(game, &reference, lines, how);
    let mut retest = |walkers: &[usize]| {
        let fresh_lines = fresh(&walks(&c.pool, walkers, seed));
        let all_lines: Vec<Line> = lines.iter().chain(&fresh_lines).cloned().collect();
        let all_tree = tree_of(&all_lines);
        (fresh_lines, all_tree)
    };
    let game_name = game.name();
    if c.explaining.is_empty() {
        // The closest few are tried on fresh positions too: what they predict there is
        // more evidence, for the closest and for the cells a report shows.
        let mut ranked: Vec<(usize, usize)> = (0..c.pool.len())
            .map(|i| (i, c.on_evidence[i]))
            .filter(|(_, a)| *a > c.reference_agrees)
            .collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let walkers: Vec<usize> = ranked.iter().take(3).map(|(i, _)| *i).collect();
        let (fresh_lines, all_tree) = retest(&walkers);
        // The closest is one of those that were closest on the evidence.
        let best: Vec<usize> = ranked.iter().take(8).map(|(i, _)| *i).collect();
        return Naming {
            text: c.unexplained(game_name, &best, &all_tree),
            ids: Vec::new(),
            tried: c.tried,
            fresh: fresh_lines,
            near: c.near(),
        };
    }
    // Fresh positions: walks on each explaining model's own rules (where it differs from
    // the reference, and from the others, is where it predicts), and on the runners-up's.
    let mut runners: Vec<(usize, usize)> = (0..c.pool.len())
        .filter(|i| !c.explaining.contains(i))
        .map(|i| (i, c.on_evidence[i]))
        .collect();
    runners.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut walkers: Vec<usize> = c.explaining.iter().copied().take(4).collect();
    walkers.extend(runners.iter().take(RUNNERS_UP).map(|(i, _)| *i));
    let (fresh_lines, all_tree) = retest(&walkers);
    let confirmed: Vec<usize> = c
        .explaining
        .iter()
        .copied()
        .filter(|&i| explains(c.pool[i].rules.as_ref(), &all_tree, how))
        .collect();
    let ids = confirmed
        .iter()
        .map(|&i| {
            std::iter::once(c.pool[i].id)
                .chain(c.pool[i].also)
                .collect()
        })
        .collect();
    Naming {
        text: c.explained(game_name, &confirmed, &all_tree),
        ids,
        tried: c.tried,
        fresh: fresh_lines,
        near: c.near(),
    }
}

/// The catalogue's models tried against the evidence (the positions first asked about):
/// the single mistakes, and the pairs where no single one explains it.
struct Candidates<'a, 'g, G: Checkable> {
    reference: &'a Reference<'g, G>,
    how: Compare,
    pool: Vec<Mutant>,
    /// The single mistakes: the first of the pool.
    singles: usize,
    tried: usize,
    /// Each model's agreement with the evidence, and the reference's.
    on_evidence: Vec<usize>,
    reference_agrees: usize,
    /// The models that agree at every position of the evidence, of how many.
    explaining: Vec<usize>,
    positions: usize,
}

impl<'a, 'g, G: Checkable> Candidates<'a, 'g, G> {
    fn of(
        game: &G,
        reference: &'a Reference<'g, G>,
        lines: &[Line],
        how: Compare,
    ) -> Candidates<'a, 'g, G> {
        let evidence = tree_of(lines);
        let positions = evidence.nodes.len();
        let mut pool: Vec<Mutant> = game.mutants(false);
        let singles = pool.len();
        let mut tried = singles;
        // Each model's agreement with the evidence, once.
        let mut on_evidence: Vec<usize> = pool
            .iter()
            .map(|m| m.rules.agreement_on(&evidence, how))
            .collect();
        let mut explaining: Vec<usize> = (0..pool.len())
            .filter(|&i| on_evidence[i] == positions)
            .collect();
        if explaining.is_empty() {
            let pairs = game.mutants(true);
            tried += pairs.len();
            let from = pool.len();
            pool.extend(pairs);
            on_evidence.extend(
                pool[from..]
                    .iter()
                    .map(|m| m.rules.agreement_on(&evidence, how)),
            );
            explaining = (from..pool.len())
                .filter(|&i| on_evidence[i] == positions)
                .collect();
        }
        let reference_agrees = agreement(reference, &evidence, how).0;
        Candidates {
            reference,
            how,
            pool,
            singles,
            tried,
            on_evidence,
            reference_agrees,
            explaining,
            positions,
        }
    }

    /// The single mistakes that agree with the evidence further than the reference.
    fn near(&self) -> Vec<&'static str> {
        (0..self.singles)
            .filter(|&i| self.on_evidence[i] > self.reference_agrees)
            .map(|i| self.pool[i].id)
            .collect()
    }

    /// The closest of `among` on `tree`, if it agrees further than the reference.
    fn closest(&self, among: &[usize], tree: &rules::Tree) -> Option<(usize, (usize, usize))> {
        let base = agreement(self.reference, tree, self.how).0;
        among
            .iter()
            .map(|&i| (i, agreement(self.pool[i].rules.as_ref(), tree, self.how)))
            .filter(|(_, (a, _))| *a > base)
            .max_by_key(|(i, (a, _))| (*a, std::cmp::Reverse(*i)))
    }

    /// The report's text where no model explains the evidence: the closest of `best` on all
    /// the positions asked about (`all_tree`), if one is closer than the reference.
    fn unexplained(&self, game_name: &str, best: &[usize], all_tree: &rules::Tree) -> String {
        let (tried, asked) = (self.tried, all_tree.nodes.len());
        let mut text = format!(
            "no catalogued rule mistake of {game_name} explains it, alone or with another ({tried} tried against the {asked} positions asked about)"
        );
        if let Some((i, (a, n))) = self.closest(best, all_tree) {
            let _ = write!(
                text,
                "; closest: {} [{}] (agrees on {a} of {n} positions asked about, the reference on {})",
                self.pool[i].what,
                self.pool[i].name(),
                agreement(self.reference, all_tree, self.how).0
            );
        }
        text.push_str("; the first difference is above\n");
        text
    }

    /// The report's text where models explain the evidence: those `confirmed` on the fresh
    /// positions too (of `all_tree`), or the closest.
    fn explained(&self, game_name: &str, confirmed: &[usize], all_tree: &rules::Tree) -> String {
        let (pool, positions) = (&self.pool, self.positions);
        let asked = all_tree.nodes.len();
        let fresh_positions = asked - positions;
        // Where the game was seen to differ from the reference: each such position is one
        // the named model predicted.
        let differing = self
            .reference
            .views_on(all_tree)
            .iter()
            .zip(&all_tree.nodes)
            .filter(|(r, n)| {
                r.as_ref()
                    .is_none_or(|r| r.differs(&n.view, self.how).is_some())
            })
            .count();
        let seen = format!(
            "{asked} positions asked about, {fresh_positions} of them fresh, chosen to test it; it differs from the reference at {differing} of them"
        );
        match confirmed {
            [] => {
                let first = self.explaining[0];
                let (i, (a, n)) = self.closest(&self.explaining, all_tree).unwrap_or((
                    first,
                    agreement(pool[first].rules.as_ref(), all_tree, self.how),
                ));
                format!(
                    "no catalogued rule mistake of {game_name} predicts it: closest: {} [{}] (agrees on {a} of {n} positions asked about: it explains the {positions} first seen, but not the {fresh_positions} fresh ones chosen to test it); the first difference is above\n",
                    pool[i].what,
                    pool[i].name()
                )
            }
            [one] if pool[*one].also.is_some() => format!(
                "the mistakes, two together: {} [{}] (together they behave exactly so at all {seen}; neither does alone)\n",
                pool[*one].what,
                pool[*one].name()
            ),
            [one] => format!(
                "the mistake: {} [{}] (it behaves exactly so at all {seen})\n",
                pool[*one].what, pool[*one].id
            ),
            several => {
                let mut s = format!(
                    "the mistake is one of these (each behaves exactly so at all {seen}; no position asked about tells them apart):\n"
                );
                for &m in several {
                    let _ = writeln!(s, "  - {} [{}]", pool[m].what, pool[m].name());
                }
                s
            }
        }
    }
}

/// Seeded walks on each of `models`' own rules, [`WALKS`] a model, no two the same.
fn walks(pool: &[Mutant], models: &[usize], seed: u64) -> Vec<Vec<String>> {
    let mut paths: Vec<Vec<String>> = Vec::new();
    for (k, &i) in models.iter().enumerate() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(
            seed ^ 0x6e61_6d65 ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        for _ in 0..WALKS {
            let mut pick = |n: usize| rng.next_u32() as usize % n.max(1);
            let p = pool[i].rules.walk(&[], &mut pick, WALK_MOVES);
            if !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    paths
}

/// The rule mistakes named, as a case's diagnosis (what `grade`'s summary counts).
pub(super) fn diagnosis_of(
    text: String,
    ids: Vec<Vec<&'static str>>,
    tried: usize,
) -> crate::diagnosis::Diagnosis {
    use crate::diagnosis::{Diagnosis, Finding, Named};
    Diagnosis {
        finding: Finding::Exact,
        tried,
        explanations: ids
            .into_iter()
            .map(|e| {
                e.into_iter()
                    .map(|id| Named {
                        bug: id.to_owned(),
                        mistake: id,
                        side: None,
                        sentence: id,
                        handout: "",
                    })
                    .collect()
            })
            .collect(),
        matched: None,
        of: None,
        reference_matched: None,
        separated_by: Vec::new(),
        text: text.trim_end().to_owned(),
    }
}

/// Where the game's status differs from the reference's, the cells behind it: the four the
/// reference sees and the game's test misses, or the four a catalogued slip of the test
/// takes for a win, each on its board. One position for each kind of difference (each
/// shape missed, each slip), shortest first; nothing for games whose catalogue draws no
/// cells.
pub(super) fn cells_text<G: Checkable>(game: &G, lines: &[Line], near: &[&str]) -> String {
    let Some(plain) = game.plain() else {
        return String::new();
    };
    let tree = tree_of(lines);
    let paths = tree.paths();
    let plain_views = plain.views_on(&tree);
    // A slip is blamed for a position only if what it predicts was seen far more often than
    // not: where it parts from the reference's status, the game mostly parted too (a slip
    // made together with others may be masked by them now and then; one the game does not
    // have is contradicted again and again).
    let singles: Vec<(Mutant, Vec<Option<View>>)> = game
        .mutants(false)
        .into_iter()
        .filter(|m| near.contains(&m.id))
        .map(|m| {
            let v = m.rules.views_on(&tree);
            (m, v)
        })
        .filter(|(_, mv)| {
            let (mut seen_so, mut not_seen) = (0usize, 0usize);
            for ((node, r), v) in tree.nodes.iter().zip(&plain_views).zip(mv) {
                let (Some(r), Some(v)) = (r, v) else { continue };
                if v.status != r.status {
                    if node.view.status == v.status {
                        seen_so += 1;
                    } else if node.view.status == r.status {
                        not_seen += 1;
                    }
                }
            }
            seen_so > 0 && not_seen * 4 <= seen_so
        })
        .collect();
    // (node, the game's view, the reference's view) where the status first differs on the
    // way from the start.
    let mut found: Vec<(usize, View, View)> = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let Some(r) = &plain_views[i] else { continue };
        let mine = &tree.nodes[i].view;
        if r.status != mine.status {
            found.push((i, mine.clone(), r.clone()));
            continue;
        }
        stack.extend(tree.nodes[i].children.iter().map(|(_, k)| *k));
    }
    let mut found: Vec<(Vec<String>, View, View, usize)> = found
        .into_iter()
        .map(|(i, m, r)| (paths[i].clone(), m, r, i))
        .collect();
    found.sort_by_key(|f| f.0.len());
    let mut kinds: Vec<String> = Vec::new();
    let mut out = String::new();
    for (path, mine, theirs, node) in found {
        if kinds.len() >= 4 {
            break;
        }
        let at = if path.is_empty() {
            "at the start".to_owned()
        } else {
            format!("after {}", path.join(" "))
        };
        // The single slips whose test gives the game's status there.
        // Those that draw a player's own cells before those that take empty ones.
        let matching: Vec<&Mutant> = singles
            .iter()
            .filter(|(_, mv)| mv[node].as_ref().is_some_and(|v| v.status == mine.status))
            .map(|(m, _)| m)
            .collect();
        let slip = matching
            .iter()
            .find(|m| {
                m.rules
                    .win_cells_after(&path)
                    .is_some_and(|c| c.owner.is_some())
            })
            .or_else(|| matching.first())
            .copied();
        let tag = slip.map_or(String::new(), |m| format!(" [{}]", m.id));
        let status =
            |v: &View| crate::game::scenario::status_text(game, v.status).replace('_', " ");
        let (kind, sentence, cells) = match (theirs.status, mine.status) {
            (Status::Over(crate::game::Outcome::Winner(w)), _) => {
                let Some(c) = plain.win_cells_after(&path) else {
                    continue;
                };
                let kind = match slip {
                    Some(m) => format!("misses {}", m.id),
                    None => format!("misses {}", c.shape),
                };
                let s = format!(
                    "{at}: the game says {}, where {} holds {}, {}: its win test misses these four cells{tag}",
                    status(&mine),
                    game.player_name(w),
                    c.shape,
                    c.named
                );
                (kind, s, c)
            }
            (_, Status::Over(crate::game::Outcome::Winner(w))) => {
                let Some(c) = slip.and_then(|m| m.rules.win_cells_after(&path)) else {
                    let kind = "accepts unknown".to_owned();
                    if kinds.contains(&kind) {
                        continue;
                    }
                    kinds.push(kind);
                    let _ = writeln!(
                        out,
                        "  {at}: the game says {} won, where the reference sees no win; no catalogued slip of the test accounts for the cells it took",
                        game.player_name(w)
                    );
                    continue;
                };
                let whose = match c.owner {
                    Some(p) => format!("of {}'s", game.player_name(p)),
                    None => "empty".to_owned(),
                };
                let kind = format!("accepts {}", slip.map_or("", |m| m.id));
                let s = format!(
                    "{at}: the game says {} won, where the reference sees no win: it takes four {whose} cells, {}, {}, for a win{tag}",
                    game.player_name(w),
                    c.named,
                    c.shape
                );
                (kind, s, c)
            }
            _ => continue,
        };
        if kinds.contains(&kind) {
            continue;
        }
        kinds.push(kind);
        let _ = writeln!(out, "  {sentence}:");
        for l in cells.board.lines() {
            let _ = writeln!(out, "    {}", l.trim_end());
        }
    }
    if out.is_empty() {
        return out;
    }
    format!("the win test, cell by cell (where its status differs from the reference's; the cells marked [ ]):\n{out}")
}
