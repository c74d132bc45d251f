//! The game probe protocol, gametrace's side: a student's game, driven through a driver
//! program a request line at a time. See `docs/src/probe-protocol.md` for the whole protocol and
//! a worked transcript.
//!
//! Every line the driver means for gametrace starts with `@gt ` and holds one JSON value;
//! other lines (the compiler's chatter, the student's debug prints) are kept aside. The driver
//! greets first (`@gt {"protocol":1,...}`), then answers each request:
//!
//! | request           | answer                                                          |
//! |-------------------|-----------------------------------------------------------------|
//! | `start`           | `"ok"`: the game's own start position                           |
//! | `start POSITION`  | `"ok"`, or `{"error":...}` if the driver cannot set one up      |
//! | `moves`           | `["0","1",...]`: the printed names, in the game's order         |
//! | `play NAME`       | `"ok"`: plays the move of that name from the game's own list    |
//! | `undo`            | `"ok"`: back to the position before the last `play`             |
//! | `status`          | `"in_play"`, `"draw"` or `{"winner":"Maxie"}` (or `"p1"`)       |
//! | `player`          | `"Maxie"`, `"Minnie"`, `"p1"` or `"p2"`                         |
//! | `estimate`        | a number, or the course's text (`"Guess: 3"`, `"Maxie wins!"`)  |
//! | `show`            | the position as the game prints it (a string)                   |
//! | `parse TEXT`      | the name of the move the game's parser reads TEXT as, or `null` |
//!
//! When the game's own code raises while answering, the answer is `{"raised":"Match"}`.

use super::rules::View;
use crate::game::{Outcome, Player, Status};
use crate::sandbox::{Job, Ran, Session};

pub const PROTOCOL: u64 = 1;
/// How long a driver may take to greet (start its runtime, compile the student's code), at
/// the least.
const STARTUP: std::time::Duration = std::time::Duration::from_secs(30);
const MARK: &str = "@gt ";
/// Requests [`Student::estimates_along`] sends before it reads their answers: a few KiB,
/// well inside a pipe's buffer, so neither side ever waits on the other's writing.
const PIPELINE: usize = 256;

/// One step of a walk through the student's game ([`Student::estimates_along`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Play(String),
    Undo,
    Estimate,
    /// List the moves (so the game's own names of moves not seen before are known).
    Moves,
}

/// Why an answer did not come.
#[derive(Clone, Debug)]
pub enum Trouble {
    /// The program ended, hung or flooded: the session is over.
    Ended(Ran),
    /// The game's own code raised (the session goes on).
    Raised(String),
    /// The answer is not what the protocol says (the session goes on).
    Garbage(String),
    /// The game does not offer the move of this name (its rules differ: a FAIL).
    Refused(String),
    /// Asked twice at the same position, the game listed these two move lists (a FAIL: the
    /// listing changes something the game keeps); with a hint in the game's language.
    Unsteady(Vec<String>, Vec<String>, Language),
    /// One move list names this move twice (a FAIL: each move is listed once); whether the
    /// list grew when asked again (`None`: not asked), so a hint says only what was seen.
    Repeated(String, Vec<String>, Language, Option<bool>),
    /// The game has no such part, and the course does not ask for one (CSC148's starter
    /// has no parser): the check is SKIPPED, with why.
    Unsupported(String),
    /// The start cannot be built so that it is the same each time (a constructor that draws
    /// its size at random, a shared default that grows, a start a game changed): nothing
    /// can be compared. `bug`: the student's own (a FAIL), else the grader must say how to
    /// build it (`--construct`: an ERROR).
    Unbuildable { why: String, bug: bool },
    /// The driver found nothing it can check (no such file or class, another term's API):
    /// said in its greeting, with the verdict.
    Unusable(crate::report::Status, String),
}

impl Trouble {
    /// The verdict word a report gives it.
    pub fn status(&self) -> crate::report::Status {
        use crate::report::Status;
        match self {
            Trouble::Ended(Ran::LimitHit { limit, .. }) => crate::report::limit_status(*limit),
            Trouble::Ended(Ran::TimedOut { .. }) => Status::Timeout,
            Trouble::Ended(Ran::OutputLimit { .. }) => Status::OutputLimit,
            Trouble::Ended(Ran::NotFound { .. } | Ran::CannotStart { .. }) => Status::NotFound,
            Trouble::Ended(_) | Trouble::Raised(_) | Trouble::Garbage(_) => Status::Crashed,
            Trouble::Refused(_) | Trouble::Unsteady(..) | Trouble::Repeated(..) => Status::Fail,
            Trouble::Unsupported(_) => Status::Skipped,
            Trouble::Unbuildable { bug: true, .. } => Status::Fail,
            Trouble::Unbuildable { bug: false, .. } => Status::Error,
            Trouble::Unusable(status, _) => *status,
        }
    }

    /// What happened, in a sentence, and the program's last words.
    pub fn describe(&self) -> (String, String) {
        match self {
            Trouble::Ended(ran) => {
                let what = ran
                    .problem()
                    .unwrap_or_else(|| "the program ended without answering".to_owned());
                let mut details = String::new();
                let stderr = ran.stderr().trim_end();
                if !stderr.is_empty() {
                    details.push_str("stderr:\n");
                    details.push_str(stderr);
                    details.push('\n');
                }
                let stray = String::from_utf8_lossy(ran.stdout()).trim_end().to_owned();
                if !stray.is_empty() {
                    details.push_str("its other output:\n");
                    details.push_str(&stray);
                    details.push('\n');
                }
                (what, details)
            }
            Trouble::Raised(e) => (format!("the game raised {e}"), String::new()),
            Trouble::Unsupported(why) => (why.clone(), String::new()),
            Trouble::Unbuildable { why, .. } | Trouble::Unusable(_, why) => {
                (why.clone(), String::new())
            }
            Trouble::Garbage(a) => (
                format!("the driver's answer makes no sense: {a}"),
                String::new(),
            ),
            Trouble::Refused(name) => (
                format!("the game does not offer the move {name}, which the reference has"),
                String::new(),
            ),
            Trouble::Unsteady(first, again, language) => (
                format!(
                    "asked for its moves twice, the game listed [{}] and then [{}]: listing the moves changes something the game keeps{}",
                    abbreviated(first),
                    abbreviated(again),
                    language.kept_between_calls("?")
                ),
                String::new(),
            ),
            Trouble::Repeated(name, list, language, grows) => (
                format!(
                    "the game listed the move {name} twice in one list of {} moves, [{}]: a game lists each move once{}",
                    list.len(),
                    abbreviated(list),
                    match grows {
                        Some(true) => language.kept_between_calls(", grows on every call"),
                        Some(false) => " (asked again, it gave the same list: the move is listed twice on every call, nothing kept between calls)".to_owned(),
                        None => String::new(),
                    }
                ),
                String::new(),
            ),
        }
    }
}

/// The language of the student's game, from its driver's greeting: hints name its own ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Sml,
    Python,
    Other,
}

impl Language {
    fn of_driver(name: &str) -> Language {
        if name.starts_with("sml") {
            Language::Sml
        } else if name.starts_with("python") {
            Language::Python
        } else {
            Language::Other
        }
    }

    /// What keeps a list between calls, in this language: ` (a list kept between calls,
    /// such as a default argument?)`.
    fn kept_between_calls(self, end: &str) -> String {
        match self {
            Language::Python => {
                format!(" (a list kept between calls, such as a default argument{end})")
            }
            Language::Sml => format!(" (a ref kept between calls{end})"),
            Language::Other => String::new(),
        }
    }
}

/// A long move list as its first few names and how many more.
fn abbreviated(list: &[String]) -> String {
    const SHOWN: usize = 12;
    if list.len() <= SHOWN {
        list.join(", ")
    } else {
        format!(
            "{}, ... {} more",
            list[..SHOWN].join(", "),
            list.len() - SHOWN
        )
    }
}

/// How a game writes the name of a move it reads.
pub type Canonical<'a> = Box<dyn Fn(&str) -> String + Send + Sync + 'a>;

/// A student's game behind its driver, at some position.
pub struct Student<'a> {
    session: Session<'a>,
    /// A move name as the reference writes it (`(3,4)` read as `Land3->Land4`), so names
    /// are compared as the reference reads them.
    canonical: Option<Canonical<'a>>,
    /// The game's own name of each canonical name it listed, to play it back by.
    own: std::collections::HashMap<String, String>,
    /// Every (canonical) move name the game has listed.
    known: std::collections::HashSet<String>,
    /// Compare estimates (ask for them in [`Student::view`]).
    pub estimates: bool,
    /// The game's language, for hints.
    pub language: Language,
    /// What the driver said in its greeting about what it checks (the class it found where
    /// the command's name was missing, the file it found it in).
    pub greeting_notes: Vec<String>,
}

impl<'a> Student<'a> {
    /// Starts the driver and waits for its greeting.
    pub fn open(job: Job<'a>, env: &[(String, String)]) -> Result<Student<'a>, Trouble> {
        let mut session = Session::start(job, env).map_err(Trouble::Ended)?;
        // Starting a runtime and compiling the student's code may take longer than an answer.
        let wait = job.limits.timeout.max(STARTUP);
        let hello = session
            .answer_within(is_answer, wait)
            .map_err(Trouble::Ended)?;
        let v: serde_json::Value = serde_json::from_str(&hello[MARK.len()..])
            .map_err(|_| Trouble::Garbage(format!("a greeting that is not JSON: {hello}")))?;
        if let Some(u) = v.get("unusable") {
            use crate::report::Status;
            let status = match u.get("status").and_then(|s| s.as_str()) {
                Some("not_found") => Status::NotFound,
                Some("crashed") => Status::Crashed,
                _ => Status::Error,
            };
            let why = u.get("why").map(text_of).unwrap_or_default();
            return Err(Trouble::Unusable(status, why));
        }
        match v.get("protocol").and_then(|p| p.as_u64()) {
            Some(PROTOCOL) => Ok(Student {
                session,
                canonical: None,
                own: std::collections::HashMap::new(),
                known: std::collections::HashSet::new(),
                estimates: false,
                language: Language::of_driver(
                    v.get("driver").and_then(|d| d.as_str()).unwrap_or(""),
                ),
                greeting_notes: v
                    .get("notes")
                    .and_then(|n| n.as_array())
                    .map(|n| n.iter().map(text_of).collect())
                    .unwrap_or_default(),
            }),
            other => Err(Trouble::Garbage(format!(
                "the driver speaks protocol {}, gametrace speaks {PROTOCOL}",
                other.map_or("(none)".to_owned(), |n| n.to_string())
            ))),
        }
    }

    /// Compare move names as `canonical` writes them.
    pub fn with_names(mut self, canonical: Canonical<'a>) -> Student<'a> {
        self.canonical = Some(canonical);
        self
    }

    fn canon(&mut self, name: String) -> String {
        let c = self.canon_only(name);
        if !self.known.contains(&c) {
            self.known.insert(c.clone());
        }
        c
    }

    /// Whether the game has listed a move of this (canonical) name, so that it can be played
    /// by its own name.
    pub fn knows(&self, name: &str) -> bool {
        self.known.contains(name)
    }

    fn canon_only(&mut self, name: String) -> String {
        match &self.canonical {
            Some(f) => {
                let c = f(&name);
                if c != name {
                    self.own.insert(c.clone(), name);
                }
                c
            }
            None => name,
        }
    }

    /// The game's own name for a canonical one it listed.
    pub fn own_name<'n>(&'n self, name: &'n str) -> &'n str {
        self.own.get(name).map_or(name, String::as_str)
    }

    /// The stdout lines that were not answers (compiler messages, debug prints).
    pub fn stray(&self) -> Vec<String> {
        self.session.stray()
    }

    fn ask(&mut self, request: &str) -> Result<serde_json::Value, Trouble> {
        self.session.send(request).map_err(Trouble::Ended)?;
        self.receive(request)
    }

    /// The answer to `request`, sent before.
    fn receive(&mut self, request: &str) -> Result<serde_json::Value, Trouble> {
        let line = self.session.answer(is_answer).map_err(Trouble::Ended)?;
        let v: serde_json::Value = serde_json::from_str(&line[MARK.len()..]).map_err(|_| {
            Trouble::Garbage(format!("`{request}` was answered with `{line}`, not JSON"))
        })?;
        if let Some(e) = v.get("raised") {
            return Err(Trouble::Raised(text_of(e)));
        }
        Ok(v)
    }

    fn ok(&mut self, request: &str) -> Result<(), Trouble> {
        match self.ask(request)? {
            serde_json::Value::String(s) if s == "ok" => Ok(()),
            other => Err(Trouble::Garbage(format!(
                "`{request}` was answered with {other}"
            ))),
        }
    }

    /// Goes to the game's start, or to `position` (`Ok(false)` if the driver cannot).
    pub fn start(&mut self, position: Option<&serde_json::Value>) -> Result<bool, Trouble> {
        let request = match position {
            Some(p) => format!("start {p}"),
            None => "start".to_owned(),
        };
        match self.ask(&request)? {
            serde_json::Value::String(s) if s == "ok" => Ok(true),
            v if v.get("error").is_some() => Ok(false),
            v if v.get("unbuildable").is_some() => {
                let u = &v["unbuildable"];
                Err(Trouble::Unbuildable {
                    why: u.get("why").map(text_of).unwrap_or_default(),
                    bug: u.get("bug").and_then(|b| b.as_bool()).unwrap_or(false),
                })
            }
            other => Err(Trouble::Garbage(format!(
                "`start` was answered with {other}"
            ))),
        }
    }

    pub fn play(&mut self, name: &str) -> Result<(), Trouble> {
        let request = format!("play {}", self.own_name(name));
        match self.ask(&request)? {
            serde_json::Value::String(s) if s == "ok" => Ok(()),
            v if v.get("error").is_some() => Err(Trouble::Refused(name.to_owned())),
            other => Err(Trouble::Garbage(format!(
                "`play {name}` was answered with {other}"
            ))),
        }
    }

    pub fn undo(&mut self) -> Result<(), Trouble> {
        self.ok("undo")
    }

    /// The move the student's player picks at the current position, by the name the game
    /// gives it (`choose`; `grade --player-cmd`). A number is read as its digits: a Kalah
    /// player may answer `3` or `"3"`.
    pub fn choose(&mut self) -> Result<String, Trouble> {
        match self.ask("choose")? {
            serde_json::Value::String(s) => Ok(self.canon_only(s)),
            serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => {
                Ok(self.canon_only(n.to_string()))
            }
            v if v.get("error").is_some() => Err(Trouble::Garbage(format!(
                "`choose` was answered with an error: {}",
                text_of(&v["error"])
            ))),
            other => Err(Trouble::Garbage(format!(
                "`choose` was answered with {other}, not a move's name"
            ))),
        }
    }

    pub fn moves(&mut self) -> Result<Vec<String>, Trouble> {
        let v = self.ask("moves")?;
        self.moves_of(v)
    }

    fn moves_of(&mut self, v: serde_json::Value) -> Result<Vec<String>, Trouble> {
        match v {
            serde_json::Value::Array(items) => items
                .into_iter()
                .map(|i| match i {
                    serde_json::Value::String(s) if !s.contains(['\n', '\r']) => Ok(self.canon(s)),
                    other => Err(Trouble::Garbage(format!(
                        "a move name must be one line of text, found {other}"
                    ))),
                })
                .collect(),
            other => Err(Trouble::Garbage(format!(
                "`moves` was answered with {other}"
            ))),
        }
    }

    /// What the driver noticed and did not judge (a CSC148 game listing moves after it is
    /// won): its `notes`, none from a driver that keeps none.
    pub fn notes(&mut self) -> Vec<String> {
        match self.ask("notes") {
            Ok(serde_json::Value::Array(items)) => items.iter().map(text_of).collect(),
            _ => Vec::new(),
        }
    }

    pub fn status(&mut self) -> Result<Status, Trouble> {
        let v = self.ask("status")?;
        status_of(&v)
    }

    pub fn player(&mut self) -> Result<Player, Trouble> {
        let v = self.ask("player")?;
        player_of(&v)
    }

    pub fn estimate(&mut self) -> Result<String, Trouble> {
        Ok(estimate_text(&self.ask("estimate")?))
    }

    pub fn show(&mut self) -> Result<String, Trouble> {
        Ok(text_of(&self.ask("show")?))
    }

    /// What the game's own parser makes of `text`, sent as it is: the move's printed name.
    pub fn parse_text(&mut self, text: &str) -> Result<Option<String>, Trouble> {
        let request = format!("parse {text}");
        match self.ask(&request)? {
            serde_json::Value::Null => Ok(None),
            v if v.get("unsupported").is_some() => {
                Err(Trouble::Unsupported(text_of(&v["unsupported"])))
            }
            v => {
                let name = text_of(&v);
                Ok(Some(self.canon_only(name)))
            }
        }
    }

    /// Walks the game by `steps` and returns the estimate at each [`Step::Estimate`], sending
    /// up to [`PIPELINE`] requests before reading their answers: an estimator asked about
    /// thousands of positions pays the conversation's latency once a batch, not once a
    /// request. `Err` says at which step it went wrong.
    pub fn estimates_along(&mut self, steps: &[Step]) -> Result<Vec<String>, (usize, Trouble)> {
        let mut out = Vec::new();
        // Sent and not yet answered: the step's index.
        let mut waiting: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        for (at, step) in steps.iter().enumerate() {
            // A move's own name is known only once a listing with it was answered.
            let unknown = matches!(step, Step::Play(name) if !self.knows(name));
            if waiting.len() == PIPELINE || (unknown && !waiting.is_empty()) {
                while let Some(i) = waiting.pop_front() {
                    self.answer_step(i, &steps[i], &mut out)?;
                }
            }
            let request = match step {
                Step::Play(name) => format!("play {}", self.own_name(name)),
                Step::Undo => "undo".to_owned(),
                Step::Estimate => "estimate".to_owned(),
                Step::Moves => "moves".to_owned(),
            };
            self.session
                .send(&request)
                .map_err(|r| (at, Trouble::Ended(r)))?;
            waiting.push_back(at);
        }
        while let Some(i) = waiting.pop_front() {
            self.answer_step(i, &steps[i], &mut out)?;
        }
        Ok(out)
    }

    /// Reads the answer to step `at` of [`Student::estimates_along`].
    fn answer_step(
        &mut self,
        at: usize,
        step: &Step,
        out: &mut Vec<String>,
    ) -> Result<(), (usize, Trouble)> {
        let line = self
            .session
            .answer(is_answer)
            .map_err(|r| (at, Trouble::Ended(r)))?;
        let v: serde_json::Value = serde_json::from_str(&line[MARK.len()..]).map_err(|_| {
            (
                at,
                Trouble::Garbage(format!("an answer that is not JSON: `{line}`")),
            )
        })?;
        if let Some(e) = v.get("raised") {
            return Err((at, Trouble::Raised(text_of(e))));
        }
        let garbage = |what: &str, v: &serde_json::Value| {
            (
                at,
                Trouble::Garbage(format!("`{what}` was answered with {v}")),
            )
        };
        match step {
            Step::Estimate => out.push(estimate_text(&v)),
            Step::Play(name) => match &v {
                serde_json::Value::String(s) if s == "ok" => {}
                v if v.get("error").is_some() => return Err((at, Trouble::Refused(name.clone()))),
                v => return Err(garbage(&format!("play {name}"), v)),
            },
            Step::Undo => {
                if v != serde_json::Value::String("ok".into()) {
                    return Err(garbage("undo", &v));
                }
            }
            Step::Moves => match v {
                serde_json::Value::Array(items) => {
                    for i in items {
                        match i {
                            serde_json::Value::String(s) if !s.contains(['\n', '\r']) => {
                                self.canon(s);
                            }
                            other => return Err(garbage("moves", &other)),
                        }
                    }
                }
                v => return Err(garbage("moves", &v)),
            },
        }
        Ok(())
    }

    /// Everything [`View`] holds, of the current position.
    /// What the game says about its position. A move listed twice is trouble here, before
    /// anything walks the list (a list that grows on every call would otherwise make the
    /// walk grow without end).
    pub fn view(&mut self) -> Result<View, Trouble> {
        self.view_asking_moves(1).map(|(v, _)| v)
    }

    /// [`Student::view`], with the moves asked for a second time at the same position: the
    /// second list, which a steady game gives the same.
    pub fn view_and_moves_again(&mut self) -> Result<(View, Vec<String>), Trouble> {
        self.view_asking_moves(2)
            .map(|(v, again)| (v, again.expect("asked twice")))
    }

    /// The view's questions go in one batch, their answers read after (one round trip a
    /// position, not four); every answer is read even when one is trouble, so the next
    /// question gets its own answer.
    fn view_asking_moves(&mut self, times: usize) -> Result<(View, Option<Vec<String>>), Trouble> {
        let mut requests = vec!["status", "player", "moves"];
        if self.estimates {
            requests.push("estimate");
        }
        requests.extend(std::iter::repeat_n("moves", times - 1));
        for r in &requests {
            self.session.send(r).map_err(Trouble::Ended)?;
        }
        let mut answers = Vec::with_capacity(requests.len());
        for r in &requests {
            let a = self.receive(r);
            let ended = matches!(a, Err(Trouble::Ended(_)));
            answers.push(a);
            if ended {
                break;
            }
        }
        let mut answers = answers.into_iter();
        let mut next = || answers.next().expect("an answer or the trouble before it");
        let status = status_of(&next()?)?;
        let player = player_of(&next()?)?;
        let moves = self.moves_of(next()?)?;
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = moves.iter().find(|m| !seen.insert(m.as_str())).cloned() {
            // Asked again (after the answers already sent are read): does the list grow?
            let again = if times > 1 {
                // The estimate's answer, if asked, comes first.
                answers
                    .nth(usize::from(self.estimates))
                    .and_then(|a| a.ok())
            } else {
                self.ask("moves").ok()
            };
            let grows = again
                .and_then(|v| self.moves_of(v).ok())
                .map(|again| again.len() > moves.len());
            return Err(Trouble::Repeated(twice, moves, self.language, grows));
        }
        let estimate = if self.estimates {
            Some(estimate_text(&next()?))
        } else {
            None
        };
        let again = if times > 1 {
            Some(self.moves_of(next()?)?)
        } else {
            None
        };
        Ok((
            View {
                status,
                player,
                moves,
                estimate,
            },
            again,
        ))
    }

    /// Says goodbye; how the program ended (a clean exit is expected).
    pub fn close(self) -> Ran {
        self.session.close()
    }
}

fn is_answer(line: &str) -> bool {
    line.starts_with(MARK)
}

fn text_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn status_of(v: &serde_json::Value) -> Result<Status, Trouble> {
    if let Some(w) = v.get("winner") {
        return match player(&text_of(w)) {
            Some(p) => Ok(Status::Over(Outcome::Winner(p))),
            None => Err(Trouble::Garbage(format!("a winner that is no player: {w}"))),
        };
    }
    match v.as_str() {
        Some("in_play") => Ok(Status::InPlay),
        Some("draw") => Ok(Status::Over(Outcome::Draw)),
        _ => Err(Trouble::Garbage(format!("`status` was answered with {v}"))),
    }
}

fn player_of(v: &serde_json::Value) -> Result<Player, Trouble> {
    player(&text_of(v)).ok_or_else(|| Trouble::Garbage(format!("`player` was answered with {v}")))
}

/// `Maxie`/`Minnie` (15-150) or `p1`/`p2` (CSC148).
fn player(s: &str) -> Option<Player> {
    match s.trim() {
        "Maxie" | "p1" => Some(Player::Maxie),
        "Minnie" | "p2" => Some(Player::Minnie),
        _ => None,
    }
}

/// An estimate as one text however the course prints it: `16`, `-3`, `Maxie wins`,
/// `Minnie wins`; SML's `~3` and `Guess: 3`, Python's `1.0` and the draw (`0`) included.
pub fn estimate_text(v: &serde_json::Value) -> String {
    let raw = match v {
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => return format!("{}", x as i64),
            _ => return n.to_string(),
        },
        other => text_of(other),
    };
    let t = raw.trim().trim_end_matches('!');
    let lower = t.to_ascii_lowercase();
    if lower.contains("maxie wins") || lower == "maxie_wins" {
        return "Maxie wins".to_owned();
    }
    if lower.contains("minnie wins") || lower == "minnie_wins" {
        return "Minnie wins".to_owned();
    }
    if lower.contains("draw") {
        return "0".to_owned();
    }
    let number = t
        .trim_start_matches("Guess")
        .trim_start_matches(':')
        .trim()
        .replace('~', "-");
    match number.parse::<f64>() {
        Ok(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", x as i64),
        _ => t.to_owned(),
    }
}

#[cfg(test)]
mod tests {

    /// A hint names the student's own language's way of keeping a list between calls.
    #[test]
    fn hints_speak_the_games_language() {
        let list = vec!["0".to_owned(), "0".to_owned()];
        let says = |l| {
            Trouble::Repeated("0".into(), list.clone(), l, Some(true))
                .describe()
                .0
        };
        assert!(says(Language::Python).contains("such as a default argument"));
        assert!(!says(Language::Sml).contains("default argument"));
        assert!(says(Language::Sml).contains("a ref kept between calls"));
        assert!(says(Language::Other).ends_with("a game lists each move once"));
        // A list that is the same when asked again is no list kept between calls.
        let same = Trouble::Repeated("0".into(), list.clone(), Language::Sml, Some(false))
            .describe()
            .0;
        assert!(
            !same.contains("ref kept") && !same.contains("grows"),
            "{same}"
        );
        assert!(same.contains("the same list"), "{same}");
        let unasked = Trouble::Repeated("0".into(), list.clone(), Language::Sml, None)
            .describe()
            .0;
        assert!(
            unasked.ends_with("a game lists each move once"),
            "{unasked}"
        );
        assert_eq!(Language::of_driver("sml-game"), Language::Sml);
        assert_eq!(Language::of_driver("python-csc148"), Language::Python);
    }

    use super::*;

    #[test]
    fn estimates_read_the_same_in_every_course() {
        let t = |s: &str| estimate_text(&serde_json::from_str(s).unwrap());
        assert_eq!(t("16"), "16");
        assert_eq!(t("1.0"), "1");
        assert_eq!(t("-1.0"), "-1");
        assert_eq!(t("\"Guess: ~3\""), "-3");
        assert_eq!(t("\"~3\""), "-3");
        assert_eq!(t("\"Maxie wins!\""), "Maxie wins");
        assert_eq!(t("\"It's a draw!\""), "0");
    }
}
