//! Every catalogued rule mistake, planted by hand in a correct student game of its course's
//! real API, FAILs the game's own spec with `check-game`'s default flags and is named.
//!
//! Each plant is one edit of a correct fixture, written as the student's slip would read
//! (a line left out, a loop bound off by one), made in a temporary copy; the spec is the
//! game's default one (`rules.yaml`, `tippy-rules.yaml`, ...), except where a mistake can
//! only show on a position the course's driver cannot reach by moves (named below).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::cli::require;

/// One planted mistake: the fixture, the text it replaces and with what, the spec, and the
/// catalogue's name for it.
struct Plant {
    id: &'static str,
    fixture: &'static str,
    from: &'static str,
    to: &'static str,
    spec: &'static str,
    /// A second edit, for a slip of two parts.
    also: Option<(&'static str, &'static str)>,
}

const C4: &str = "tests/fixtures/sml/games/connect4.sml";
const POPOUT: &str = "tests/fixtures/sml/games/popout.sml";
const RISKLESS: &str = "tests/fixtures/sml/games/riskless.sml";
const TIPPY: &str = "tests/fixtures/python/csc148/games/tippy/tippy_game_state.py";
const TIPPY_ROWCOL: &str = "tests/fixtures/python/csc148/games/tippy_rowcol/tippy_game_state.py";
const SS: &str = "tests/fixtures/python/csc148/games/subtract_square/subtract_square_state.py";

/// The Tippy fixture's winner test walks each shape's places (its threat finder walks the
/// same loops, and is left alone).
const WINNER_LOOPS: &str = "for y in range(n - height + 1):\n                for x in range(n - width + 1):\n                    if all(";

/// The Subtract Square fixture's move list.
const SS_MOVES: &str = "        return [SubtractSquareMove(i ** 2)\n                for i in range(self.current_total, 0, -1)\n                if i * i <= self.current_total]";

const LINES: &str = "[Matrix.rows m, Matrix.cols m, Matrix.diags1 m, Matrix.diags2 m]";

fn plants() -> Vec<Plant> {
    let c4 = |id, from, to| Plant {
        id,
        fixture: C4,
        from,
        to,
        spec: "specs/games/connect4/rules.yaml",
        also: None,
    };
    let tippy = |id, from, to| Plant {
        id,
        fixture: TIPPY,
        from,
        to,
        spec: "specs/csc148/tippy-rules.yaml",
        also: None,
    };
    let riskless = |id, from, to, spec| Plant {
        id,
        fixture: RISKLESS,
        from,
        to,
        spec,
        also: None,
    };
    vec![
        c4(
            "no-horizontal",
            LINES,
            "[Matrix.cols m, Matrix.diags1 m, Matrix.diags2 m]",
        ),
        c4(
            "no-vertical",
            LINES,
            "[Matrix.rows m, Matrix.diags1 m, Matrix.diags2 m]",
        ),
        c4(
            "no-rising-diagonal",
            LINES,
            "[Matrix.rows m, Matrix.cols m, Matrix.diags2 m]",
        ),
        c4(
            "no-falling-diagonal",
            LINES,
            "[Matrix.rows m, Matrix.cols m, Matrix.diags1 m]",
        ),
        c4("no-diagonals", LINES, "[Matrix.rows m, Matrix.cols m]"),
        c4(
            "three-wins",
            "n >= 4 andalso samePos",
            "n >= 3 andalso samePos",
        ),
        c4(
            "five-wins",
            "n >= 4 andalso samePos",
            "n >= 5 andalso samePos",
        ),
        c4(
            "full-board-not-draw",
            "      else if full s then Over Draw\n",
            "",
        ),
        c4(
            "full-column-offered",
            "      Seq.filter (fn i => isSome (lowestFreeRow s i)) (Seq.tabulate (fn i => i) Dim.num_cols)",
            "      Seq.tabulate (fn i => i) Dim.num_cols",
        ),
        c4(
            "player-not-switched",
            "SOME y => S (Matrix.update m ((i, y), Filled p), other p)",
            "SOME y => S (Matrix.update m ((i, y), Filled p), p)",
        ),
        // The slips below were found in real submissions, or in their reviews.
        c4(
            "across-skips-bottom-row",
            "[Matrix.rows m, ",
            "[Seq.tabulate (fn y => Seq.nth (y + 1) (Matrix.rows m)) (Dim.num_rows - 1), ",
        ),
        c4(
            "across-skips-top-row",
            "[Matrix.rows m, ",
            "[Seq.tabulate (fn y => Seq.nth y (Matrix.rows m)) (Dim.num_rows - 1), ",
        ),
        c4(
            "rows-wrap",
            "[Matrix.rows m, ",
            "[Seq.fromList [Seq.fromList (List.concat (List.tabulate (Dim.num_rows, fn y => List.tabulate (Dim.num_cols, fn x => Matrix.sub m (x, y)))))], ",
        ),
        Plant {
            also: Some((
                "SOME y => S (Matrix.update m ((i, y), Filled p), other p)",
                "SOME y => S (Matrix.update m ((i, y), Filled p), p)",
            )),
            ..c4(
                "not-switched-winner-from-mover",
                "      if hasFour m Maxie then Over (Winner Maxie)\n      else if hasFour m Minnie then Over (Winner Minnie)\n",
                "      if hasFour m Maxie orelse hasFour m Minnie then Over (Winner (other p))\n",
            )
        },
        riskless(
            "source-keeps-armies",
            "            else if i = v then (T (name, mk p 0), roads)\n",
            "            else if i = v then t\n",
            "specs/games/riskless/rules.yaml",
        ),
        // A student's own diagonals, read up from each cell of the bottom row: those that
        // start in the left column (or end in the right one) are never read.
        c4(
            "rising-diagonals-from-bottom-row",
            LINES,
            "[Matrix.rows m, Matrix.cols m, Seq.tabulate (fn x => Seq.tabulate (fn k => Matrix.sub m (x + k, k)) (Int.min (Dim.num_cols - x, Dim.num_rows))) Dim.num_cols, Matrix.diags2 m]",
        ),
        c4(
            "falling-diagonals-from-bottom-row",
            LINES,
            "[Matrix.rows m, Matrix.cols m, Matrix.diags1 m, Seq.tabulate (fn x => Seq.tabulate (fn k => Matrix.sub m (x - k, k)) (Int.min (x + 1, Dim.num_rows))) Dim.num_cols]",
        ),
        riskless(
            "tie-to-defender",
            "else if moving >= armies pos then",
            "else if moving > armies pos then",
            "specs/games/riskless/rules.yaml",
        ),
        Plant {
            id: "pops-other-piece",
            fixture: POPOUT,
            from: "        Filled q => q = p\n",
            to: "        Filled _ => true\n",
            spec: "specs/games/connect4/popout.yaml",
            also: None,
        },
        Plant {
            id: "pop-wrong-winner",
            fixture: POPOUT,
            from: "(true, true) => Over (Winner (other p))",
            to: "(true, true) => Over (Winner p)",
            spec: "specs/games/connect4/popout.yaml",
            also: None,
        },
        riskless(
            "no-cap",
            "  fun cap n = Int.min (n, Map.max_terri)",
            "  fun cap n = n",
            "specs/games/riskless/rules.yaml",
        ),
        riskless(
            "no-training",
            "        B (Seq.map train moved, other p)",
            "        B (moved, other p)",
            "specs/games/riskless/rules.yaml",
        ),
        riskless(
            "winner-keeps-all",
            "then mk p (cap (moving - armies pos))\n                     else mk (other p) (cap (armies pos - moving))",
            "then mk p (cap moving)\n                     else mk (other p) (cap (armies pos))",
            "specs/games/riskless/rules.yaml",
        ),
        // Both players reaching max_units at once takes a planned game: M1's random games
        // never do it, and SML's GAME cannot be set up in a position; the spec that pins it
        // plays it from the start.
        riskless(
            "no-draw-at-target",
            "          (true, true) => Over Draw\n        | (true, false) => Over (Winner Maxie)",
            "          (true, _) => Over (Winner Maxie)",
            "specs/games/riskless/draw-from-the-start.yaml",
        ),
        riskless(
            "no-last-standing",
            "      if not (holdsAny s Maxie) then Over (Winner Minnie)\n      else if not (holdsAny s Minnie) then Over (Winner Maxie)\n      else\n",
            "",
            "specs/games/riskless/rules.yaml",
        ),
        tippy(
            "no-z-across",
            "    [(0, 0), (1, 0), (1, 1), (2, 1)],   # XX.\n",
            "",
        ),
        tippy(
            "no-s-across",
            "    [(1, 0), (2, 0), (0, 1), (1, 1)],   # .XX\n",
            "",
        ),
        tippy(
            "no-down-right",
            "    [(0, 0), (0, 1), (1, 1), (1, 2)],   # X.  XX  .X\n",
            "",
        ),
        tippy(
            "no-down-left",
            "    [(1, 0), (1, 1), (0, 1), (0, 2)],   # .X  XX  X.\n",
            "",
        ),
        // Three slips of one real winner test (each alone here): four cells compared with
        // each other, not with the player's letter; a T among the shapes; the tippy leaning
        // left written one column in.
        tippy(
            "empty-tippy-wins",
            "                    if all(self.board[y + dy][x + dx] == piece for dx, dy in shape):",
            "                    cells = {self.board[y + dy][x + dx] for dx, dy in shape}\n                    claimed = sum(c != ' ' for row in self.board for c in row)\n                    if len(cells) == 1 and (piece in cells or (claimed >= 7 and player != self.next_player)):",
        ),
        tippy(
            "t-shape-wins",
            "    [(0, 0), (1, 0), (1, 1), (2, 1)],   # XX.\n",
            "    [(0, 0), (1, 0), (1, 1), (2, 1)],   # XX.\n    [(1, 0), (0, 1), (1, 1), (1, 2)],   # .X  XX  .X\n",
        ),
        tippy(
            "down-left-misses-left-column",
            "    [(1, 0), (1, 1), (0, 1), (0, 2)],   # .X  XX  X.\n",
            "    [(2, 0), (2, 1), (1, 1), (1, 2)],   # .X  XX  X.\n",
        ),
        tippy(
            "skips-top-row",
            WINNER_LOOPS,
            "for y in range(1, n - height + 1):\n                for x in range(n - width + 1):\n                    if all(",
        ),
        tippy(
            "skips-bottom-row",
            WINNER_LOOPS,
            "for y in range(n - height):\n                for x in range(n - width + 1):\n                    if all(",
        ),
        tippy(
            "skips-left-column",
            WINNER_LOOPS,
            "for y in range(n - height + 1):\n                for x in range(1, n - width + 1):\n                    if all(",
        ),
        tippy(
            "skips-right-column",
            WINNER_LOOPS,
            "for y in range(n - height + 1):\n                for x in range(n - width):\n                    if all(",
        ),
        tippy(
            "full-board-not-over",
            "        self.over = (self.winner('p1') or self.winner('p2')\n                     or self.possible_next_moves() == [])",
            "        self.over = self.winner('p1') or self.winner('p2')",
        ),
        Plant {
            id: "wraps-left-edge",
            fixture: TIPPY_ROWCOL,
            from: "        if 0 <= row < self.dimension and 0 <= column < self.dimension:\n            return self.grid[row][column]\n        return None",
            to: "        try:\n            return self.grid[row][column]\n        except IndexError:\n            return None",
            spec: "specs/csc148/tippy-rules.yaml",
            also: None,
        },
        Plant {
            id: "square-too-large",
            fixture: SS,
            from: SS_MOVES,
            to: "        return [SubtractSquareMove(i * i)\n                for i in range(int(self.current_total ** 0.5) + 1, 0, -1)]",
            spec: "specs/csc148/subtract-square-rules.yaml",
            also: None,
        },
        // Found in two real submissions: the subclass never sets `over`.
        Plant {
            id: "never-over",
            fixture: SS,
            from: "        self.over = current_total == 0\n",
            to: "",
            spec: "specs/csc148/subtract-square-rules.yaml",
            also: None,
        },
        Plant {
            id: "zero-offered",
            fixture: SS,
            from: SS_MOVES,
            to: "        return [SubtractSquareMove(i * i)\n                for i in range(int(self.current_total ** 0.5), -1, -1)]",
            spec: "specs/csc148/subtract-square-rules.yaml",
            also: None,
        },
    ]
}

/// The command that runs the planted copy (`file`, in a folder of its own) behind the
/// course's driver.
fn command(fixture: &str, file: &Path) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = file.display();
    if fixture.ends_with(".sml") {
        if fixture == RISKLESS {
            let (a, c) = (
                format!("{root}/adapters/sml/s14"),
                format!("{root}/adapters/sml/s14/course"),
            );
            format!("sml {c}/sequence.sml {c}/game.sig {file} {a}/gametrace-game.sml {a}/run-riskless.sml")
        } else {
            let (a, c) = (
                format!("{root}/adapters/sml/s12"),
                format!("{root}/adapters/sml/s12/course"),
            );
            let run = if fixture == POPOUT {
                "run-popout.sml"
            } else {
                "run-connect4.sml"
            };
            format!("sml {c}/sequence.sml {c}/matrix.sml {c}/game.sig {file} {a}/gametrace-game.sml {a}/{run}")
        }
    } else {
        let class = if fixture == SS {
            "SubtractSquareState"
        } else {
            "TippyGameState"
        };
        format!("python3 {root}/adapters/python/gametrace_game.py {file} {class}")
    }
}

/// Plants one mistake in a copy of its fixture's folder (the student's move class comes
/// along) and runs check-game on it: the exit code and the report.
fn run(p: &Plant) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(p.fixture);
    for entry in std::fs::read_dir(fixture.parent().unwrap()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    let source = std::fs::read_to_string(&fixture).unwrap();
    assert_eq!(
        source.matches(p.from).count(),
        1,
        "{}: the text to replace must stand once in {}",
        p.id,
        p.fixture
    );
    let mut text = source.replacen(p.from, p.to, 1);
    if let Some((from, to)) = p.also {
        assert_eq!(text.matches(from).count(), 1, "{}: the second edit", p.id);
        text = text.replacen(from, to, 1);
    }
    let planted: PathBuf = dir.path().join(fixture.file_name().unwrap());
    std::fs::write(&planted, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check-game", p.spec, "--color", "never", "--cmd"])
        .arg(command(p.fixture, &planted))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
#[cfg_attr(
    not(all(gametrace_sml, gametrace_python3)),
    ignore = "needs SML/NJ (sml) and python3: apt-get install smlnj"
)]
fn every_catalogued_rule_mistake_fails_its_default_spec_and_is_named() {
    require("sml");
    require("python3");
    let plants = plants();
    // Two at a time: each run is one driver process and a second of work.
    let results: Vec<(String, i32, String)> = std::thread::scope(|scope| {
        let chunks: Vec<&[Plant]> = plants.chunks(plants.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|p| {
                            let (code, out) = run(p);
                            (p.id.to_owned(), code, out)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut wrong = Vec::new();
    for (id, code, out) in &results {
        let named = out.contains(&format!("[{id}]")) && out.contains("the mistake: ");
        if *code != 1 || !named {
            wrong.push(format!("{id}: exit {code}\n{out}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} plants not failed and named:\n{}",
        wrong.len(),
        results.len(),
        wrong.join("\n")
    );
}

/// The catalogue and this test move together: every rule mistake `gametrace bugs --rules`
/// lists is planted above, except two no student's functor makes as the catalogue models
/// them: a tippy wrapping around the top edge needs a winner test that walks columns first,
/// and the piece one row high is modelled as lost where that cell is taken, while a
/// student's `y + 1` overwrites it or raises at the top row.
#[test]
fn the_plants_cover_the_catalogue() {
    let planted: Vec<&str> = plants().iter().map(|p| p.id).collect();
    let listed = Command::new(env!("CARGO_BIN_EXE_gametrace"))
        .args(["bugs", "--rules"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&listed.stdout);
    let games = ["connect4", "popout", "riskless", "tippy", "subtract_square"];
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let game = words.next()?;
            games.contains(&game).then(|| words.next()).flatten()
        })
        .collect();
    assert!(
        !ids.is_empty(),
        "`gametrace bugs --rules` lists nothing:\n{text}"
    );
    for id in ids {
        assert!(
            planted.contains(&id) || id == "wraps-top-edge" || id == "wrong-row",
            "{id} is catalogued but not planted"
        );
    }
}

/// Two plants in one copy of their fixture.
fn pair(a: &str, b: &str) -> Plant {
    let all = plants();
    let find = |id: &str| all.iter().find(|p| p.id == id).unwrap();
    let (a, b) = (find(a), find(b));
    assert!(a.also.is_none() && b.also.is_none() && a.fixture == b.fixture);
    Plant {
        id: "pair",
        fixture: a.fixture,
        from: a.from,
        to: a.to,
        spec: a.spec,
        also: Some((b.from, b.to)),
    }
}

/// Two slips in one game, as real submissions have them (a four test that skips a
/// direction and a full board that is not a draw; a tippy shape left out and a full board
/// not over): no single catalogued mistake behaves so, the pair does, and the report names
/// both.
#[test]
#[cfg_attr(
    not(all(gametrace_sml, gametrace_python3)),
    ignore = "needs SML/NJ (sml) and python3: apt-get install smlnj"
)]
fn two_mistakes_in_one_game_are_named_together() {
    require("sml");
    require("python3");
    for (a, b) in [
        ("no-vertical", "full-board-not-draw"),
        ("no-s-across", "full-board-not-over"),
    ] {
        let (code, out) = run(&pair(a, b));
        assert_eq!(code, 1, "{a} with {b}:\n{out}");
        assert!(
            out.contains("the mistakes, two together:")
                && (out.contains(&format!("[{a}+{b}]")) || out.contains(&format!("[{b}+{a}]"))),
            "{a} with {b}:\n{out}"
        );
    }
}
