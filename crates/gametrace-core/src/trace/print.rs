//! The printers. Each is a [`Sink`] that writes one line per event it was asked to print;
//! parallel branches are recorded and replayed in move order when joined.

use super::{LineKind, Printer, Style};
use crate::course::Settings;
use crate::game::{write_sml_int, Estimate, Game, Player};
use crate::search::cs10::{self, Cs10Event};
use crate::search::cs188::{self, Cs188Event};
use crate::search::csc148::{self, Csc148Event, Score, Strategy};
use crate::search::expectimax::{self, ExpectEvent};
use crate::search::{s12, s14, Event, EventLog, S12Event, S14Event, Sink};
use std::io::{self, Write};

/// The part every printer shares: the game (for labels), the writer, the line filter, and the
/// first write error (after which it writes nothing more; the caller reports it).
struct Out<'g, G, W> {
    game: &'g G,
    writer: W,
    style: Style,
    line: String,
    error: Option<io::Error>,
}

impl<'g, G: Game, W: Write> Out<'g, G, W> {
    fn new(game: &'g G, writer: W, style: Style) -> Self {
        Out {
            game,
            writer,
            style,
            line: String::with_capacity(128),
            error: None,
        }
    }

    fn wants(&self, kind: LineKind) -> bool {
        self.error.is_none() && self.style.lines.contains(kind)
    }

    /// Writes the line built in `self.line`.
    fn flush_line(&mut self) {
        self.line.push('\n');
        if let Err(e) = self.writer.write_all(self.line.as_bytes()) {
            self.error = Some(e);
        }
        self.line.clear();
    }

    /// `(Maxie,a)`
    fn push_state(&mut self, player: Player, state: &G::State) {
        self.line.push('(');
        self.line.push_str(player.name());
        self.line.push(',');
        self.game.write_label(state, &mut self.line);
        self.line.push(')');
    }

    /// `Estimating state e[3]`: what the course's explicit games print when estimated.
    fn estimating(&mut self, state: &G::State, estimate: Estimate) {
        if !self.wants(LineKind::Estimate) {
            return;
        }
        self.line.push_str("Estimating state ");
        self.game.write_label(state, &mut self.line);
        self.line.push('[');
        match estimate {
            Estimate::Guess(n) => write_sml_int(&mut self.line, n),
            Estimate::Draw => self.line.push('0'),
            Estimate::MaxieWins => self.line.push_str("Maxie wins!"),
            Estimate::MinnieWins => self.line.push_str("Minnie wins!"),
        }
        self.line.push(']');
        self.flush_line();
    }

    /// `Therefore value of (Maxie,a) is <value>, and best move is 0.` (value already written
    /// by `value`), `Terminals visited: 6` and `Overall choice: move 1[middle]`.
    fn done(
        &mut self,
        state: &G::State,
        player: Player,
        best: Option<(usize, G::Move)>,
        terminals: u64,
        value: impl FnOnce(&mut String),
    ) {
        use std::fmt::Write as _;
        if self.wants(LineKind::Value) {
            self.line.push_str("Therefore value of ");
            self.push_state(player, state);
            self.line.push_str(" is ");
            value(&mut self.line);
            match best {
                Some((_, m)) => {
                    self.line.push_str(", and best move is ");
                    self.game.write_move(m, &mut self.line);
                    self.line.push('.');
                }
                None => self.line.push_str(", and there is no best move."),
            }
            self.flush_line();
        }
        if self.wants(LineKind::Terminals) {
            self.line.push_str("Terminals visited: ");
            self.line.push_str(itoa::Buffer::new().format(terminals));
            self.flush_line();
        }
        if self.wants(LineKind::Choice) {
            match best {
                Some((i, m)) => {
                    self.line.push_str("Overall choice: move ");
                    self.game.write_move(m, &mut self.line);
                    if let Some(name) = self.style.move_name(i) {
                        let _ = write!(self.line, "[{name}]");
                    }
                }
                None => self.line.push_str("Overall choice: none"),
            }
            self.flush_line();
        }
    }

    /// `, and best move is 1.` (or `, and there is no move.`): the course dialects' value
    /// lines end so.
    fn push_best_move(&mut self, best: Option<(usize, G::Move)>) {
        match best {
            Some((_, m)) => {
                self.line.push_str(", and best move is ");
                self.game.write_move(m, &mut self.line);
                self.line.push('.');
            }
            None => self.line.push_str(", and there is no move."),
        }
    }

    fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.writer.flush()?;
        Ok(self.writer)
    }
}

/// `Guess: 3`, `Guess: ~2`, `It's a draw!` (0 is the draw in S14), `Maxie wins!`.
pub fn push_s14_estimate(out: &mut String, e: Estimate) {
    match e {
        Estimate::Guess(0) | Estimate::Draw => out.push_str("It's a draw!"),
        Estimate::Guess(n) => {
            out.push_str("Guess: ");
            write_sml_int(out, n);
        }
        Estimate::MaxieWins => out.push_str("Maxie wins!"),
        Estimate::MinnieWins => out.push_str("Minnie wins!"),
    }
}

/// `Leaf(Guess: 3)`, `Step(0, Guess: 3)`.
fn push_s14_value<G: Game>(game: &G, out: &mut String, v: &s14::Value<G::Move>) {
    match v {
        s14::Value::Leaf(e) => {
            out.push_str("Leaf(");
            push_s14_estimate(out, *e);
        }
        s14::Value::Step(m, e) => {
            out.push_str("Step(");
            game.write_move(*m, out);
            out.push_str(", ");
            push_s14_estimate(out, *e);
        }
    }
    out.push(')');
}

/// `Guess:3`, `Guess:~2`, `Guess:0`, `It's a draw!`.
pub fn push_s12_estimate(out: &mut String, e: Estimate) {
    match e {
        Estimate::Guess(n) => {
            out.push_str("Guess:");
            write_sml_int(out, n);
        }
        Estimate::Draw => out.push_str("It's a draw!"),
        Estimate::MaxieWins => out.push_str("Maxie wins!"),
        Estimate::MinnieWins => out.push_str("Minnie wins!"),
    }
}

/// A value prints as its estimate, or `Pruned`.
fn push_s12_value<M>(out: &mut String, v: &s12::Value<M>) {
    match v {
        s12::Value::Edge(_, e) => push_s12_estimate(out, *e),
        s12::Value::Pruned => out.push_str("Pruned"),
    }
}

macro_rules! printer {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<'g, G, W> {
            out: Out<'g, G, W>,
        }

        impl<'g, G: Game, W: Write> $name<'g, G, W> {
            pub fn new(game: &'g G, writer: W, style: Style) -> Self {
                $name {
                    out: Out::new(game, writer, style),
                }
            }

            /// What was written so far.
            pub fn get_ref(&self) -> &W {
                &self.out.writer
            }

            /// Flushes and returns the writer, or the first write error.
            pub fn finish(self) -> io::Result<W> {
                self.out.finish()
            }
        }
    };
}

printer!(
    /// The S14 handout's trace (Figures 4 and 5).
    S14Printer
);
printer!(
    /// The S12 handout's trace (Figures 3 and 4).
    S12Printer
);
printer!(
    /// What `T.next_move HandoutBig.start;` prints at the SML/NJ prompt.
    ReplPrinter
);

impl<G: Game, W: Write> S14Printer<'_, G, W> {
    fn print(&mut self, event: S14Event<G>) {
        use crate::search::Event::*;
        let out = &mut self.out;
        match event {
            Search { .. } | Generate { .. } => {}
            Enter {
                state,
                player,
                bounds: (alpha, beta),
                ..
            } if out.wants(LineKind::Enter) => {
                out.line.push_str(match player {
                    Player::Maxie => "F: state ",
                    Player::Minnie => "G: state ",
                });
                out.push_state(player, &state);
                out.line.push_str(" with ab=(");
                push_s14_value(out.game, &mut out.line, &alpha);
                out.line.push(',');
                push_s14_value(out.game, &mut out.line, &beta);
                out.line.push(')');
                out.flush_line();
            }
            Enter { .. } => {}
            Estimate { state, estimate } => out.estimating(&state, estimate),
            Result {
                state,
                player,
                result,
            } if out.wants(LineKind::Result) => {
                out.line.push_str("Result of ");
                out.push_state(player, &state);
                out.line.push_str(" is ");
                push_s14_value(out.game, &mut out.line, &result.value);
                if result.pruned {
                    out.line.push_str(" (* Pruned *)");
                }
                out.flush_line();
            }
            Result { .. } => {}
            Done {
                state,
                player,
                value,
                best,
                terminals,
                ..
            } => out.done(&state, player, best, terminals, |line| {
                push_s14_estimate(line, value.estimate())
            }),
        }
    }
}

impl<G: Game, W: Write> S12Printer<'_, G, W> {
    fn print(&mut self, event: S12Event<G>) {
        use crate::search::Event::*;
        let out = &mut self.out;
        match event {
            Generate { .. } => {}
            Search {
                state,
                player,
                bounds,
            } if out.wants(LineKind::Search) => {
                out.line.push_str("Searching state ");
                s12_state_with_bounds(out, player, &state, bounds);
            }
            Enter {
                state,
                player,
                bounds,
                ..
            } if out.wants(LineKind::Enter) => {
                out.line.push_str("Evaluating state ");
                s12_state_with_bounds(out, player, &state, bounds);
            }
            Search { .. } | Enter { .. } => {}
            Estimate { state, estimate } => out.estimating(&state, estimate),
            Result {
                state,
                player,
                result,
            } if out.wants(LineKind::Result) => {
                out.line.push_str("Result of ");
                out.push_state(player, &state);
                out.line.push_str(" is ");
                match result {
                    s12::Answer::Value(v) => push_s12_value(&mut out.line, &v),
                    s12::Answer::ParentPrune => out.line.push_str("ParentPrune"),
                }
                out.flush_line();
            }
            Result { .. } => {}
            Done {
                state,
                player,
                value,
                best,
                terminals,
                ..
            } => out.done(&state, player, best, terminals, |line| {
                push_s12_value(line, &value)
            }),
        }
    }
}

/// `(Maxie,a) with ab=(Pruned,Guess:3)` and the end of the line.
fn s12_state_with_bounds<G: Game, W: Write>(
    out: &mut Out<'_, G, W>,
    player: Player,
    state: &G::State,
    (alpha, beta): s12::Bounds<G::Move>,
) {
    out.push_state(player, state);
    out.line.push_str(" with ab=(");
    push_s12_value(&mut out.line, &alpha);
    out.line.push(',');
    push_s12_value(&mut out.line, &beta);
    out.line.push(')');
    out.flush_line();
}

impl<G: Game, W: Write> ReplPrinter<'_, G, W> {
    fn print<V, R>(&mut self, event: crate::search::Event<G::State, G::Move, V, R>) {
        use crate::search::Event::*;
        let out = &mut self.out;
        match event {
            Estimate { state, estimate } => out.estimating(&state, estimate),
            Done { best, .. } if out.wants(LineKind::Choice) => {
                use std::fmt::Write as _;
                let structure = &out.style.sml_structure;
                match best {
                    Some((_, m)) => {
                        let _ = write!(out.line, "val it = {m} : {structure}.move");
                    }
                    None => {
                        let _ = write!(out.line, "uncaught exception: no move : {structure}.move");
                    }
                }
                out.flush_line();
            }
            _ => {}
        }
    }
}

/// CSC148's teaching trace (see the `csc148` table in [`crate::trace`]): what each position
/// is, how it was scored, and what was pruned or answered from the table.
pub struct Csc148Printer<'g, G, W> {
    out: Out<'g, G, W>,
    strategy: Strategy,
}

impl<'g, G: Game, W: Write> Csc148Printer<'g, G, W> {
    pub fn new(game: &'g G, writer: W, style: Style, strategy: Strategy) -> Self {
        Csc148Printer {
            out: Out::new(game, writer, style),
            strategy,
        }
    }

    /// What was written so far.
    pub fn get_ref(&self) -> &W {
        &self.out.writer
    }

    /// Flushes and returns the writer, or the first write error.
    pub fn finish(self) -> io::Result<W> {
        self.out.finish()
    }

    fn print(&mut self, event: Csc148Event<G>) {
        use crate::game::{Outcome, Status};
        use crate::search::Event::*;
        use std::fmt::Write as _;
        let strategy = self.strategy;
        let out = &mut self.out;
        let game = out.game;
        match event {
            Enter {
                state,
                player,
                depth,
                bounds: (mine, theirs),
            } if out.wants(LineKind::Enter) => {
                out.line.push_str("Searching ");
                game.write_label(&state, &mut out.line);
                let _ = write!(out.line, ": {} to move, moves ", player.course_name());
                for (i, m) in game.moves(&state).enumerate() {
                    if i > 0 {
                        out.line.push_str(", ");
                    }
                    game.write_move(m, &mut out.line);
                }
                if strategy.prune {
                    let _ = write!(
                        out.line,
                        "; guaranteed {} {mine}, {} {theirs}",
                        player.course_name(),
                        player.other().course_name()
                    );
                }
                if strategy.depth.is_some() && depth != csc148::TO_THE_END {
                    let _ = write!(
                        out.line,
                        "; {depth} move{} left",
                        if depth == 1 { "" } else { "s" }
                    );
                }
                out.flush_line();
            }
            Estimate { state, estimate } if out.wants(LineKind::Estimate) => {
                let player = game.player(&state);
                let score = Score::of_estimate(estimate, player);
                match game.status(&state) {
                    Status::Over(outcome) => {
                        out.line.push_str("Outcome of ");
                        game.write_label(&state, &mut out.line);
                        let _ = write!(out.line, " is {score} for {}: ", player.course_name());
                        match outcome {
                            Outcome::Winner(p) => {
                                let _ = write!(out.line, "{} won", p.course_name());
                            }
                            Outcome::Draw => out.line.push_str("a tie"),
                        }
                    }
                    Status::InPlay => {
                        out.line.push_str("Rough outcome of ");
                        game.write_label(&state, &mut out.line);
                        let _ = write!(out.line, " is {score} for {}", player.course_name());
                    }
                }
                out.flush_line();
            }
            Result {
                state,
                player,
                result,
            } if out.wants(LineKind::Result) => {
                out.line.push_str("Score of ");
                game.write_label(&state, &mut out.line);
                let _ = write!(
                    out.line,
                    " is {} for {}, ",
                    result.score(),
                    player.course_name()
                );
                match result {
                    csc148::Answer::Searched { best, pruned, .. } => {
                        out.line.push_str("by move ");
                        game.write_move(best, &mut out.line);
                        if let Some((searched, of)) = pruned {
                            let _ = write!(out.line, ", pruned after {searched} of {of} moves");
                        }
                    }
                    csc148::Answer::Recalled { .. } => out.line.push_str("from the table"),
                }
                out.flush_line();
            }
            Done {
                state,
                player,
                value,
                best,
                terminals,
                table_hits,
                ties,
            } => {
                if out.wants(LineKind::Value) {
                    out.line.push_str("Therefore the score of ");
                    game.write_label(&state, &mut out.line);
                    let _ = write!(out.line, " is {value} for {}", player.course_name());
                    out.push_best_move(best);
                    out.flush_line();
                }
                if out.wants(LineKind::Terminals) {
                    let _ = write!(out.line, "Positions searched: {terminals}");
                    if strategy.memoize {
                        let _ = write!(out.line, ", answered from the table: {table_hits}");
                    }
                    out.flush_line();
                }
                if out.wants(LineKind::Choice) {
                    out.line.push_str("Suggested move: ");
                    match best {
                        Some((_, m)) => game.write_move(m, &mut out.line),
                        None => out.line.push_str("none"),
                    }
                    if ties.len() > 1 {
                        out.line.push_str(" (equally good: ");
                        let moves: Vec<G::Move> = game.moves(&state).collect();
                        for (k, &i) in ties.iter().enumerate() {
                            if k > 0 {
                                out.line.push_str(", ");
                            }
                            if let Some(&m) = moves.get(i) {
                                game.write_move(m, &mut out.line);
                            }
                        }
                        out.line.push(')');
                    }
                    out.flush_line();
                }
            }
            _ => {}
        }
    }
}

/// CS10's hand method (see the `cs10` table in [`crate::trace`]): each node entered with
/// its (low, high) range, each child's value as its parent takes it, each change of low and
/// each prune with the range that caused it.
pub struct Cs10Printer<'g, G, W> {
    out: Out<'g, G, W>,
    /// The labels of the positions entered or evaluated and not yet returned: a child's
    /// parent is the one under it.
    open: Vec<String>,
    /// The search has a window (negamax_ab): every `enter` line shows its range.
    windowed: bool,
}

impl<'g, G: Game, W: Write> Cs10Printer<'g, G, W> {
    pub fn new(game: &'g G, writer: W, style: Style, windowed: bool) -> Self {
        Cs10Printer {
            out: Out::new(game, writer, style),
            open: Vec::new(),
            windowed,
        }
    }

    /// What was written so far.
    pub fn get_ref(&self) -> &W {
        &self.out.writer
    }

    /// Flushes and returns the writer, or the first write error.
    pub fn finish(self) -> io::Result<W> {
        self.out.finish()
    }

    fn print(&mut self, event: Cs10Event<G>) {
        use crate::game::Status;
        use crate::search::Event::*;
        use std::fmt::Write as _;
        let out = &mut self.out;
        let game = out.game;
        let label = |state: &G::State| {
            let mut l = String::new();
            game.write_label(state, &mut l);
            l
        };
        match event {
            Enter {
                state,
                player,
                depth,
                bounds: (low, high),
            } => {
                let name = label(&state);
                if out.wants(LineKind::Enter) {
                    let _ = write!(
                        out.line,
                        "Enter {name} ({}, depth {depth})",
                        game.player_name(player)
                    );
                    if self.windowed {
                        out.line.push_str(" with range (");
                        cs10::write_value(&mut out.line, low);
                        out.line.push_str(", ");
                        cs10::write_value(&mut out.line, high);
                        out.line.push(')');
                    }
                    out.flush_line();
                }
                self.open.push(name);
            }
            Estimate { state, estimate } => {
                let name = label(&state);
                if out.wants(LineKind::Estimate) {
                    let player = game.player(&state);
                    let maxie = match estimate {
                        crate::game::Estimate::Guess(n) => n,
                        _ => 0,
                    };
                    let mine = if player == Player::Maxie {
                        maxie
                    } else {
                        -maxie
                    };
                    let _ = write!(out.line, "Evaluate {name} ({}): ", game.player_name(player));
                    cs10::write_value(&mut out.line, mine);
                    if matches!(game.status(&state), Status::Over(_)) {
                        out.line.push_str(" (game over)");
                    }
                    out.flush_line();
                }
                self.open.push(name);
            }
            Result { result, .. } => {
                let child = self.open.pop().unwrap_or_default();
                let parent = self.open.last().cloned().unwrap_or_default();
                if !out.wants(LineKind::Result) {
                    return;
                }
                out.line.push_str("Value of ");
                out.line.push_str(&child);
                out.line.push_str(" is ");
                cs10::write_value(&mut out.line, result.value);
                out.line.push_str(": ");
                cs10::write_value(&mut out.line, result.for_parent);
                let _ = write!(out.line, " for {parent}");
                if result.again {
                    out.line.push_str(" (moves again)");
                }
                match result.window {
                    Some((low, high)) => {
                        if result.improved {
                            out.line.push_str(", low ");
                            cs10::write_value(&mut out.line, low);
                            out.line.push_str(", range (");
                        } else {
                            out.line.push_str(", range stays (");
                        }
                        cs10::write_value(&mut out.line, low);
                        out.line.push_str(", ");
                        cs10::write_value(&mut out.line, high);
                        out.line.push(')');
                        if result.cut {
                            out.line.push_str(": low reaches high, prune");
                        }
                    }
                    None => out.line.push_str(if result.improved {
                        ", the best so far"
                    } else {
                        ", not better"
                    }),
                }
                out.flush_line();
            }
            Done {
                state,
                player,
                value,
                best,
                terminals,
                ..
            } => {
                if out.wants(LineKind::Value) {
                    let _ = write!(out.line, "Therefore {} is worth ", label(&state));
                    cs10::write_value(&mut out.line, value);
                    let _ = write!(out.line, " for {}", game.player_name(player));
                    out.push_best_move(best);
                    out.flush_line();
                }
                if out.wants(LineKind::Terminals) {
                    let _ = write!(out.line, "Positions evaluated: {terminals}");
                    out.flush_line();
                }
                if out.wants(LineKind::Choice) {
                    out.line.push_str("Best move: ");
                    match best {
                        Some((_, m)) => game.write_move(m, &mut out.line),
                        None => out.line.push_str("none"),
                    }
                    out.flush_line();
                }
            }
            Search { .. } | Generate { .. } => {}
        }
    }
}

/// The expectimax dialect (see [`crate::trace`]): each node visited, each evaluation, each
/// node's value (a player's best with its move, or an average), exact unless the case asks
/// for decimals.
pub struct ExpectimaxPrinter<'g, G, W> {
    out: Out<'g, G, W>,
}

impl<'g, G: Game, W: Write> ExpectimaxPrinter<'g, G, W> {
    pub fn new(game: &'g G, writer: W, style: Style) -> Self {
        ExpectimaxPrinter {
            out: Out::new(game, writer, style),
        }
    }

    /// What was written so far.
    pub fn get_ref(&self) -> &W {
        &self.out.writer
    }

    /// Flushes and returns the writer, or the first write error.
    pub fn finish(self) -> io::Result<W> {
        self.out.finish()
    }

    fn print(&mut self, event: ExpectEvent<G>) {
        use crate::search::Event::*;
        let out = &mut self.out;
        let game = out.game;
        let decimals = out.style.decimals;
        match event {
            Enter {
                state,
                player,
                depth,
                ..
            } if out.wants(LineKind::Enter) => {
                out.line.push_str("Visiting ");
                game.write_label(&state, &mut out.line);
                if game.chances(&state).is_some() {
                    out.line.push_str(": chance");
                } else {
                    out.line.push_str(": ");
                    out.line.push_str(game.player_name(player));
                    out.line.push_str(" to move");
                }
                out.line.push_str(", depth ");
                out.line.push_str(itoa::Buffer::new().format(depth));
                out.flush_line();
            }
            Estimate { state, estimate } if out.wants(LineKind::Estimate) => {
                out.line.push_str("Evaluation of ");
                game.write_label(&state, &mut out.line);
                out.line.push_str(": ");
                expectimax::write_value(&mut out.line, &expectimax::exact(estimate), decimals);
                out.flush_line();
            }
            Result {
                state,
                player,
                result,
            } if out.wants(LineKind::Result) => match result {
                expectimax::Answer::Leaf { .. } => {}
                expectimax::Answer::Chose { value, best } => {
                    out.line.push_str("Best for ");
                    out.line.push_str(game.player_name(player));
                    out.line.push_str(" at ");
                    game.write_label(&state, &mut out.line);
                    out.line.push_str(": ");
                    expectimax::write_value(&mut out.line, &value, decimals);
                    out.line.push_str(", by move ");
                    game.write_move(best.1, &mut out.line);
                    out.flush_line();
                }
                expectimax::Answer::Averaged { value, uniform } => {
                    out.line.push_str("Average at ");
                    game.write_label(&state, &mut out.line);
                    if uniform {
                        out.line.push_str(" (");
                        out.line.push_str(game.player_name(player));
                        out.line.push_str(" at random)");
                    }
                    out.line.push_str(": ");
                    expectimax::write_value(&mut out.line, &value, decimals);
                    out.flush_line();
                }
            },
            Done {
                state,
                value,
                best,
                terminals,
                ..
            } => {
                use std::fmt::Write as _;
                if out.wants(LineKind::Value) {
                    out.line.push_str("Therefore the value of ");
                    game.write_label(&state, &mut out.line);
                    out.line.push_str(" is ");
                    if let Some(v) = &value {
                        expectimax::write_value(&mut out.line, v, decimals);
                    }
                    out.push_best_move(best);
                    out.flush_line();
                }
                if out.wants(LineKind::Terminals) {
                    let _ = write!(out.line, "Terminals visited: {terminals}");
                    out.flush_line();
                }
                if out.wants(LineKind::Choice) {
                    match best {
                        Some((i, m)) => {
                            out.line.push_str("Overall choice: move ");
                            game.write_move(m, &mut out.line);
                            if let Some(name) = out.style.move_name(i) {
                                let _ = write!(out.line, "[{name}]");
                            }
                        }
                        None => out.line.push_str("Overall choice: none"),
                    }
                    out.flush_line();
                }
            }
            _ => {}
        }
    }
}

/// The cs188 dialect (see [`crate::trace`]): the calls a CS188 agent makes on the tree state,
/// as the course's autograder logs them, and the values the reference finds.
pub struct Cs188Printer<'g, G, W> {
    out: Out<'g, G, W>,
    /// How deep in the search the next event is (the root is at 1): its result is the
    /// value line's, not a line of its own.
    level: usize,
    /// A mistaken agent that returns its value where the action belongs
    /// ([`crate::search::mistakes::Flaw::ReturnsValue`]).
    returns_value: bool,
    /// A mistaken agent that returns `Directions.STOP`, no action of the tree
    /// ([`crate::search::mistakes::Flaw::IllegalAction`]).
    illegal_action: bool,
}

impl<'g, G: Game, W: Write> Cs188Printer<'g, G, W> {
    pub fn new(game: &'g G, writer: W, style: Style) -> Self {
        Cs188Printer {
            out: Out::new(game, writer, style),
            level: 0,
            returns_value: false,
            illegal_action: false,
        }
    }

    /// The printer of a mistaken search whose `getAction` returns its value.
    pub fn returning_value(mut self, yes: bool) -> Self {
        self.returns_value = yes;
        self
    }

    /// The printer of a mistaken search whose `getAction` returns `Directions.STOP`.
    pub fn returning_stop(mut self, yes: bool) -> Self {
        self.illegal_action = yes;
        self
    }

    /// What was written so far.
    pub fn get_ref(&self) -> &W {
        &self.out.writer
    }

    /// Flushes and returns the writer, or the first write error.
    pub fn finish(self) -> io::Result<W> {
        self.out.finish()
    }

    fn print(&mut self, event: Cs188Event<G>) {
        use crate::search::Event::*;
        let out = &mut self.out;
        let game = out.game;
        match event {
            Enter { .. } => self.level += 1,
            Generate {
                parent,
                agent,
                mv,
                child,
            } if out.wants(LineKind::Enter) => {
                out.line.push_str("generateSuccessor(");
                game.write_label(&parent, &mut out.line);
                out.line.push_str(", ");
                out.line.push_str(itoa::Buffer::new().format(agent));
                out.line.push_str(", ");
                game.write_move(mv, &mut out.line);
                out.line.push_str(") -> ");
                game.write_label(&child, &mut out.line);
                out.flush_line();
            }
            Estimate { state, estimate } if out.wants(LineKind::Estimate) => {
                // A student's own evaluation of a win or a loss calls nothing.
                if matches!(
                    estimate,
                    crate::game::Estimate::MaxieWins | crate::game::Estimate::MinnieWins
                ) {
                    return;
                }
                out.line.push_str("getScore(");
                game.write_label(&state, &mut out.line);
                out.line.push_str(") -> ");
                let scored = game.has_estimate(&state)
                    || matches!(game.status(&state), crate::game::Status::Over(_));
                if scored {
                    cs188::write_float(&mut out.line, cs188::float_of(estimate, out.style.places));
                } else {
                    out.line.push_str("Exception: ");
                    out.line.push_str(cs188::NO_SCORE);
                }
                out.flush_line();
            }
            Result { state, result, .. } => {
                let root = self.level == 1;
                self.level = self.level.saturating_sub(1);
                if root || !out.wants(LineKind::Result) {
                    return;
                }
                let (value, agent, what, cut) = match result {
                    cs188::Answer::Leaf { .. } => return,
                    cs188::Answer::Best {
                        value,
                        agent,
                        maximises,
                        cut,
                        ..
                    } => (
                        value,
                        agent,
                        if maximises { "max" } else { "min" }.to_owned(),
                        cut,
                    ),
                    cs188::Answer::Mean { value, agent, of } => {
                        (value, agent, format!("mean of {of}"), None)
                    }
                };
                out.line.push_str("value(");
                game.write_label(&state, &mut out.line);
                out.line.push_str(") -> ");
                cs188::write_float(&mut out.line, value);
                out.line.push_str(" (agent ");
                out.line.push_str(itoa::Buffer::new().format(agent));
                out.line.push_str(", ");
                out.line.push_str(&what);
                if let Some((searched, of)) = cut {
                    use std::fmt::Write as _;
                    let _ = write!(out.line, ", pruned after {searched} of {of}");
                }
                out.line.push(')');
                out.flush_line();
            }
            Done {
                state, value, best, ..
            } => {
                if out.wants(LineKind::Value) {
                    out.line.push_str("getAction(");
                    game.write_label(&state, &mut out.line);
                    out.line.push_str("): value ");
                    cs188::write_float(&mut out.line, value);
                    match best {
                        Some((_, m)) => {
                            out.line.push_str(", action ");
                            game.write_move(m, &mut out.line);
                        }
                        None => out.line.push_str(", no action"),
                    }
                    out.flush_line();
                }
                if out.wants(LineKind::Choice) {
                    out.line.push_str("getAction(");
                    game.write_label(&state, &mut out.line);
                    out.line.push_str(") -> ");
                    match best {
                        _ if self.returns_value => cs188::write_float(&mut out.line, value),
                        _ if self.illegal_action => out.line.push_str(cs188::STOP),
                        Some((_, m)) => game.write_move(m, &mut out.line),
                        None => out.line.push_str("None"),
                    }
                    out.flush_line();
                }
            }
            _ => {}
        }
    }
}

/// Every printer is a sink the same way: events print as they come, and children are searched
/// one after another (see [`Sink::forks`]); a branch, were one made, is recorded and printed
/// when it is joined (in move order).
macro_rules! replaying_sink {
    ($printer:ident, $event:ty $(, $value:ident)*) => {
        impl<G: Game, W: Write $(, $value: Send)*> Sink<$event> for $printer<'_, G, W> {
            type Branch = EventLog<$event>;
            fn event(&mut self, event: $event) {
                self.print(event);
            }
            fn branch(&self) -> Self::Branch {
                EventLog::default()
            }
            fn join(&mut self, branch: Self::Branch) {
                for e in branch.events {
                    self.print(e);
                }
            }
            fn forks(&self) -> bool {
                false
            }
        }
    };
}

replaying_sink!(S14Printer, S14Event<G>);
replaying_sink!(S12Printer, S12Event<G>);
// The REPL prints the estimates and the choice of either year's search.
replaying_sink!(ReplPrinter, Event<G::State, G::Move, V, R>, V, R);
replaying_sink!(Csc148Printer, Csc148Event<G>);
replaying_sink!(Cs10Printer, Cs10Event<G>);
replaying_sink!(ExpectimaxPrinter, ExpectEvent<G>);
replaying_sink!(Cs188Printer, Cs188Event<G>);

/// Every printer is a [`Printer`] through its own `get_ref` and `finish`; `$made` makes one
/// for a search from `game`, `writer`, `style` and `how`.
macro_rules! printer_trait {
    ($printer:ident, |$game:ident, $writer:ident, $style:ident, $how:ident| $made:expr) => {
        impl<'g, G: Game, W: Write> Printer<'g, G, W> for $printer<'g, G, W> {
            fn for_search($game: &'g G, $writer: W, $style: Style, $how: &Settings) -> Self {
                $made
            }
            fn get_ref(&self) -> &W {
                $printer::get_ref(self)
            }
            fn finish(self) -> io::Result<W> {
                $printer::finish(self)
            }
        }
    };
}

printer_trait!(S14Printer, |game, writer, style, _how| S14Printer::new(
    game, writer, style
));
printer_trait!(S12Printer, |game, writer, style, _how| S12Printer::new(
    game, writer, style
));
printer_trait!(ReplPrinter, |game, writer, style, _how| ReplPrinter::new(
    game, writer, style
));
printer_trait!(ExpectimaxPrinter, |game, writer, style, _how| {
    ExpectimaxPrinter::new(game, writer, style)
});
// A strategy's trace says what it is (pruning, myopic).
printer_trait!(Csc148Printer, |game, writer, style, how| {
    let strategy = Strategy::of(how.algorithm, how.depth);
    Csc148Printer::new(game, writer, style, strategy)
});
// Negamax with a window prints the window.
printer_trait!(Cs10Printer, |game, writer, style, how| {
    let windowed = how.algorithm != crate::search::Algorithm::Minimax;
    Cs10Printer::new(game, writer, style, windowed)
});
// A mistaken agent's `getAction` may return its value where the action belongs.
printer_trait!(Cs188Printer, |game, writer, style, how| {
    let returns_value = how.flaws.has(crate::search::mistakes::Flaw::ReturnsValue);
    let stop = how.flaws.has(crate::search::mistakes::Flaw::IllegalAction);
    Cs188Printer::new(game, writer, style)
        .returning_value(returns_value)
        .returning_stop(stop)
});

#[cfg(test)]
mod tests {
    use super::*;

    fn s14(e: Estimate) -> String {
        let mut s = String::new();
        push_s14_estimate(&mut s, e);
        s
    }

    fn s12(e: Estimate) -> String {
        let mut s = String::new();
        push_s12_estimate(&mut s, e);
        s
    }

    #[test]
    fn s14_estimates_print_as_the_s14_support_code_does() {
        assert_eq!(s14(Estimate::Guess(3)), "Guess: 3");
        assert_eq!(s14(Estimate::Guess(-2)), "Guess: ~2");
        // An S14 estimate is an int and 0 is the draw.
        assert_eq!(s14(Estimate::Guess(0)), "It's a draw!");
        assert_eq!(s14(Estimate::Draw), "It's a draw!");
        assert_eq!(s14(Estimate::MaxieWins), "Maxie wins!");
        assert_eq!(s14(Estimate::MinnieWins), "Minnie wins!");
    }

    #[test]
    fn s12_estimates_have_no_space_and_keep_zero_a_guess() {
        assert_eq!(s12(Estimate::Guess(3)), "Guess:3");
        assert_eq!(s12(Estimate::Guess(-2)), "Guess:~2");
        assert_eq!(s12(Estimate::Guess(0)), "Guess:0");
        assert_eq!(s12(Estimate::Draw), "It's a draw!");
    }

    #[test]
    fn choice_names_a_move_only_when_it_has_a_name() {
        use crate::game::tree::{TreeBuilder, TreeGame};
        use crate::game::Player;
        use crate::search::{s14, Algorithm};
        let mut b = TreeBuilder::new();
        b.open("a");
        b.leaf("b", 1);
        b.leaf("c", 5);
        b.close();
        let tree = b.finish();
        let game = TreeGame::new(&tree, Player::Maxie);
        let choice = |names: &[&str]| {
            let mut style = Style::new(super::super::Dialect::S14);
            style.lines = [LineKind::Choice].into_iter().collect();
            style.move_names = names.iter().map(|s| s.to_string()).collect();
            let mut p = S14Printer::new(&game, Vec::new(), style);
            s14::search(&game, 1, Algorithm::AlphaBeta, &mut p);
            String::from_utf8(p.finish().unwrap()).unwrap()
        };
        assert_eq!(
            choice(&["left", "right"]),
            "Overall choice: move 1[right]\n"
        );
        assert_eq!(choice(&["left"]), "Overall choice: move 1\n");
        assert_eq!(choice(&[]), "Overall choice: move 1\n");
    }
}
