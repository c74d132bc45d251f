//! The line diff engine behind `gametrace diff`, `check` and `test`: normalised lines, an exact
//! line diff that stays fast on large traces, and a unified diff with changed words marked.
//!
//! Speed comes from the trick GNU diff uses: a line that occurs in only one of the two files
//! can never be matched, so it is set aside before the Myers diff runs. In traces almost every
//! changed line is such a line, so the Myers diff sees two nearly equal sequences. What is
//! left is bounded by a deadline; past it the diff is coarser (longer hunks) but still correct.

use crate::clock::Instant;
use similar::{Algorithm, DiffOp, DiffTag};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::hash::BuildHasher;
use std::time::Duration;

/// The lines of a text that take part in a comparison, with their 1-based line numbers.
///
/// A diff of two 1 GB traces holds some 40 million lines, so a line costs 12 bytes here: where
/// it starts and how long it is, in the text or (normalised) in a buffer of its own, and its
/// line number. Texts over 2 GiB take the wide form, 3 words a line.
#[derive(Clone, Debug, Default)]
pub struct Lines<'a> {
    text: &'a str,
    /// Lines that normalisation changed, one after another.
    owned: String,
    spans: Spans,
}

#[derive(Clone, Debug)]
enum Spans {
    /// start (top bit: in `owned`), length, line number.
    Narrow(Vec<[u32; 3]>),
    Wide(Vec<[usize; 3]>),
}

impl Default for Spans {
    fn default() -> Spans {
        Spans::Narrow(Vec::new())
    }
}

const OWNED_BIT: u32 = 1 << 31;
const WIDE_OWNED_BIT: usize = 1 << (usize::BITS - 1);

impl<'a> Lines<'a> {
    /// Every line, as it is (without its line ending), when `exact`; otherwise without blank
    /// lines, with runs of spaces and tabs as one space and no leading or trailing spaces, and
    /// CRLF read as LF.
    pub fn of(text: &'a str, exact: bool) -> Lines<'a> {
        // A byte order mark is not a character of the first line (unless compared exactly),
        // nor is a second one that a tool added in front of the first.
        let text = match exact {
            true => text,
            false => text.trim_start_matches('\u{feff}'),
        };
        // The owned buffer is at most as long as the text.
        let narrow = text.len() < OWNED_BIT as usize;
        let mut lines = Lines {
            text,
            owned: String::new(),
            spans: if narrow {
                Spans::Narrow(Vec::new())
            } else {
                Spans::Wide(Vec::new())
            },
        };
        let base = text.as_ptr() as usize;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let (start, len, owned) = if exact {
                (body.as_ptr() as usize - base, body.len(), false)
            } else {
                match normalize(body) {
                    Cow::Borrowed("") => continue,
                    Cow::Borrowed(b) => (b.as_ptr() as usize - base, b.len(), false),
                    Cow::Owned(o) if o.is_empty() => continue,
                    Cow::Owned(o) => {
                        let at = lines.owned.len();
                        lines.owned.push_str(&o);
                        (at, o.len(), true)
                    }
                }
            };
            match &mut lines.spans {
                // Narrow: start, length and line number all fit in 31 bits.
                Spans::Narrow(v) => v.push([
                    start as u32 | if owned { OWNED_BIT } else { 0 },
                    len as u32,
                    (i + 1) as u32,
                ]),
                Spans::Wide(v) => {
                    v.push([start | if owned { WIDE_OWNED_BIT } else { 0 }, len, i + 1])
                }
            }
        }
        lines
    }

    pub fn len(&self) -> usize {
        match &self.spans {
            Spans::Narrow(v) => v.len(),
            Spans::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Line `i` as compared (normalised unless exact).
    pub fn get(&self, i: usize) -> Option<&str> {
        let (start, len, owned) = match &self.spans {
            Spans::Narrow(v) => {
                let [s, l, _] = *v.get(i)?;
                ((s & !OWNED_BIT) as usize, l as usize, s & OWNED_BIT != 0)
            }
            Spans::Wide(v) => {
                let [s, l, _] = *v.get(i)?;
                (s & !WIDE_OWNED_BIT, l, s & WIDE_OWNED_BIT != 0)
            }
        };
        let from = if owned { &self.owned } else { self.text };
        Some(&from[start..start + len])
    }

    /// The 1-based line number in the text of compared line `i`.
    pub fn number(&self, i: usize) -> Option<usize> {
        match &self.spans {
            Spans::Narrow(v) => v.get(i).map(|x| x[2] as usize),
            Spans::Wide(v) => v.get(i).map(|x| x[2]),
        }
    }

    /// The lines at `order`'s indices, in that order, each keeping its line number.
    pub fn pick(&self, order: &[usize]) -> Lines<'a> {
        Lines {
            text: self.text,
            owned: self.owned.clone(),
            spans: match &self.spans {
                Spans::Narrow(v) => Spans::Narrow(order.iter().map(|&i| v[i]).collect()),
                Spans::Wide(v) => Spans::Wide(order.iter().map(|&i| v[i]).collect()),
            },
        }
    }

    /// The compared lines in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }
}

/// A sequence of lines the diff engine can compare: [`Lines`], or a slice of strings.
pub trait Seq {
    fn len(&self) -> usize;
    /// Line `i`, for `i < len()`.
    fn line(&self, i: usize) -> &str;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Seq for Lines<'_> {
    fn len(&self) -> usize {
        Lines::len(self)
    }
    fn line(&self, i: usize) -> &str {
        self.get(i).expect("a line index within the lines")
    }
}

impl<S: AsRef<str>> Seq for [S] {
    fn len(&self) -> usize {
        <[S]>::len(self)
    }
    fn line(&self, i: usize) -> &str {
        self[i].as_ref()
    }
}

impl<S: AsRef<str>, const N: usize> Seq for [S; N] {
    fn len(&self) -> usize {
        N
    }
    fn line(&self, i: usize) -> &str {
        self[i].as_ref()
    }
}

impl<S: AsRef<str>> Seq for Vec<S> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn line(&self, i: usize) -> &str {
        self[i].as_ref()
    }
}

/// A line with runs of whitespace as one space and no leading or trailing whitespace;
/// borrowed when it already is so (the common case, and what keeps big diffs quick).
pub fn normalize(line: &str) -> Cow<'_, str> {
    // Clean: ASCII, and its only whitespace single spaces between other characters. One pass
    // over the bytes, since every line of a trace goes through here.
    let b = line.as_bytes();
    let mut after_space = true;
    let mut clean = true;
    for &c in b {
        if c == b' ' {
            if after_space {
                clean = false;
                break;
            }
            after_space = true;
        } else if c.is_ascii_whitespace() || !c.is_ascii() {
            clean = false;
            break;
        } else {
            after_space = false;
        }
    }
    if clean && (b.is_empty() || !after_space) {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(line.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}

/// `text` as it may be shown on a terminal: control characters (ESC, CR, BEL, C1 controls...)
/// and bidirectional overrides written as visible escapes (`\e`, `\r`, `\x07`, `\u{202e}`),
/// so a program's output can never recolour, retitle or rewrite the terminal of whoever
/// reads the report. Tabs stay. Only for showing: comparisons use the text as printed.
pub fn visible(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\t' && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            || crate::report::is_noncharacter(c)
    };
    // Printable ASCII (and tabs and newlines) is the common case and needs no decoding.
    let plain = |c: &u8| matches!(c, b' '..=b'~' | b'\t' | b'\n');
    if text.as_bytes().iter().all(plain) || !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{1b}' => out.push_str("\\e"),
            '\r' => out.push_str("\\r"),
            c if unsafe_char(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A name (a submission's folder, a file) as one line may show it: [`visible`], and newlines
/// and tabs escaped too (`\n`, `\t`), so that a folder named with a newline cannot write a
/// line of its own into a grading log ("[2/2] classmate: 0 / 1").
pub fn visible_name(name: &str) -> Cow<'_, str> {
    let shown = visible(name);
    if !shown.contains(['\n', '\t']) {
        return shown;
    }
    Cow::Owned(shown.replace('\n', "\\n").replace('\t', "\\t"))
}

/// [`visible`], but for text gametrace may have coloured itself: a colour sequence
/// (`ESC [ digits ; m`, SGR) is kept, every other control escaped. A report printed in colour
/// uses it as its last guard: cursor moves, screen clears, titles and links from a program's
/// text are shown escaped even where a message forgot to escape them.
pub fn visible_but_colour(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return visible(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&visible(&rest[..at]));
        let seq = &rest[at + 1..];
        let body = seq.strip_prefix('[').map(|b| {
            b.len()
                - b.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';')
                    .len()
        });
        match body {
            Some(n) if seq[1 + n..].starts_with('m') => {
                out.push_str(&rest[at..at + 3 + n]);
                rest = &rest[at + 3 + n..];
            }
            _ => {
                out.push_str("\\e");
                rest = seq;
            }
        }
    }
    out.push_str(&visible(rest));
    Cow::Owned(out)
}

/// How long the Myers stage may run before settling for a coarser diff.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(2);

/// The line diff of `old` and `new`, as ops over their indices.
#[derive(Clone, Debug)]
pub struct LineDiff {
    pub ops: Vec<DiffOp>,
    /// Lines only in `old` and only in `new`.
    pub removed: usize,
    pub added: usize,
    /// The deadline cut the search short: the diff is correct but may not be minimal.
    pub coarse: bool,
}

impl LineDiff {
    pub fn is_same(&self) -> bool {
        self.removed == 0 && self.added == 0
    }

    /// The first op that is not `Equal`.
    pub fn first_change(&self) -> Option<&DiffOp> {
        self.ops.iter().find(|op| op.tag() != DiffTag::Equal)
    }
}

/// Diffs two sequences of lines (see the module comment for how it stays fast).
///
/// Memory is what a diff of two 1 GB traces is measured by: besides the lines, 8 bytes per
/// distinct line (a table of line indices, not of strings) and 12 per line.
pub fn diff<A: Seq + ?Sized, B: Seq + ?Sized>(old: &A, new: &B, deadline: Duration) -> LineDiff {
    let started = Instant::now();
    let (old_ids, new_ids, distinct) = line_ids(old, new);
    let ((old_keep, old_at), (new_keep, new_at)) = common(old_ids, new_ids, distinct);
    let left = deadline.saturating_sub(started.elapsed());
    let reduced = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &old_keep,
        &new_keep,
        crate::clock::deadline_after(left),
    );
    let coarse = started.elapsed() >= deadline;
    let mut diff = Changes::default().of(reduced, (&old_at, &new_at), (old.len(), new.len()));
    diff.coarse = coarse;
    diff
}

/// Each line's id on both sides (the id of the first line equal to it), and how many
/// distinct lines there are.
fn line_ids<A: Seq + ?Sized, B: Seq + ?Sized>(old: &A, new: &B) -> (Vec<u32>, Vec<u32>, usize) {
    let (on, nn) = (old.len(), new.len());
    // Inputs are capped far below 4 billion lines (`diff` reads at most 1 GiB a file).
    let index = |i: usize| u32::try_from(i).expect("fewer than 4 billion lines");
    let line = |at: u32| -> &str {
        let at = at as usize;
        if at < on {
            old.line(at)
        } else {
            new.line(at - on)
        }
    };
    let mut table = LineTable::new(on);
    let mut distinct = 0usize;
    let mut old_ids: Vec<u32> = Vec::with_capacity(on);
    let mut new_ids: Vec<u32> = Vec::with_capacity(nn);
    // Line `at`'s id: the id of the first line equal to it, or a new one.
    let mut intern = |table: &mut LineTable, at: u32, hash: u64, ids: (&[u32], &[u32])| -> u32 {
        match table.find_or_insert(at, hash, |k| line(k) == line(at)) {
            Some(k) if (k as usize) < on => ids.0[k as usize],
            Some(k) => ids.1[k as usize - on],
            None => {
                distinct += 1;
                index(distinct - 1)
            }
        }
    };
    // Each line is hashed, and its slot prefetched, a few lines ahead of its lookup, so the
    // lookups' cache misses overlap instead of coming one after another.
    let mut ahead = std::collections::VecDeque::with_capacity(LOOKAHEAD);
    ahead.extend((0..on.min(LOOKAHEAD)).map(|i| table.hash_and_prefetch(line(index(i)))));
    for i in 0..on {
        if i + LOOKAHEAD < on {
            ahead.push_back(table.hash_and_prefetch(line(index(i + LOOKAHEAD))));
        }
        let hash = ahead.pop_front().expect("hashed ahead");
        let id = intern(&mut table, index(i), hash, (&old_ids, &new_ids));
        old_ids.push(id);
    }
    // Most lines of a checked trace equal the expected line at the same place, so a new line is
    // first compared with the old line after the last one it matched (and the one after that:
    // one line changed or left out); only a line off that diagonal is looked up. The id is the
    // same either way.
    ahead.extend((0..nn.min(LOOKAHEAD)).map(|j| table.hash_and_prefetch(new.line(j))));
    let mut next_old = 0usize;
    for j in 0..nn {
        if j + LOOKAHEAD < nn {
            ahead.push_back(table.hash_and_prefetch(new.line(j + LOOKAHEAD)));
        }
        let hash = ahead.pop_front().expect("hashed ahead");
        let text = new.line(j);
        let id = match (next_old..on.min(next_old + 2)).find(|&k| old.line(k) == text) {
            Some(k) => {
                next_old = k + 1;
                old_ids[k]
            }
            None => intern(&mut table, index(on + j), hash, (&old_ids, &new_ids)),
        };
        new_ids.push(id);
    }
    (old_ids, new_ids, distinct)
}

/// A line id and where it is, for each side.
type Kept = (Vec<u32>, Vec<u32>);

/// The lines found on both sides (only they can match): each side's ids and their places.
fn common(old_ids: Vec<u32>, new_ids: Vec<u32>, distinct: usize) -> (Kept, Kept) {
    let mut in_old = vec![false; distinct];
    let mut in_new = vec![false; distinct];
    for &id in &old_ids {
        in_old[id as usize] = true;
    }
    for &id in &new_ids {
        in_new[id as usize] = true;
    }
    let old_kept: Kept = old_ids
        .iter()
        .enumerate()
        .filter(|(_, &id)| in_new[id as usize])
        .map(|(i, &id)| (id, i as u32))
        .unzip();
    drop(old_ids);
    let new_kept: Kept = new_ids
        .iter()
        .enumerate()
        .filter(|(_, &id)| in_old[id as usize])
        .map(|(i, &id)| (id, i as u32))
        .unzip();
    (old_kept, new_kept)
}

/// The ops of a diff being mapped back to the original lines, and the lines removed and
/// added so far.
#[derive(Default)]
struct Changes {
    ops: Vec<DiffOp>,
    removed: usize,
    added: usize,
}

impl Changes {
    /// The diff of the lines found on both sides (`reduced`, over the lines at `old_at` and
    /// `new_at`) as a diff of all `lens` lines: everything between matches is a change.
    fn of(
        mut self,
        reduced: Vec<DiffOp>,
        (old_at, new_at): (&[u32], &[u32]),
        lens: (usize, usize),
    ) -> LineDiff {
        let (mut o, mut n) = (0usize, 0usize);
        for op in reduced {
            let DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = op
            else {
                continue;
            };
            for k in 0..len {
                let (mo, mn) = (
                    old_at[old_index + k] as usize,
                    new_at[new_index + k] as usize,
                );
                self.change(o, mo, n, mn);
                match self.ops.last_mut() {
                    Some(DiffOp::Equal {
                        old_index,
                        new_index,
                        len,
                    }) if *old_index + *len == mo && *new_index + *len == mn => *len += 1,
                    _ => self.ops.push(DiffOp::Equal {
                        old_index: mo,
                        new_index: mn,
                        len: 1,
                    }),
                }
                (o, n) = (mo + 1, mn + 1);
            }
        }
        self.change(o, lens.0, n, lens.1);
        LineDiff {
            ops: self.ops,
            removed: self.removed,
            added: self.added,
            coarse: false,
        }
    }

    /// Old lines `o0..o1` replaced by new lines `n0..n1` (either may be empty).
    fn change(&mut self, o0: usize, o1: usize, n0: usize, n1: usize) {
        self.removed += o1 - o0;
        self.added += n1 - n0;
        match (o1 > o0, n1 > n0) {
            (true, true) => self.ops.push(DiffOp::Replace {
                old_index: o0,
                old_len: o1 - o0,
                new_index: n0,
                new_len: n1 - n0,
            }),
            (true, false) => self.ops.push(DiffOp::Delete {
                old_index: o0,
                old_len: o1 - o0,
                new_index: n0,
            }),
            (false, true) => self.ops.push(DiffOp::Insert {
                old_index: o0,
                new_index: n0,
                new_len: n1 - n0,
            }),
            (false, false) => {}
        }
    }
}

/// How many lines ahead [`diff`] hashes and prefetches: enough misses in flight to hide most
/// of the memory's latency, few enough that the prefetched slots are still cached when used.
const LOOKAHEAD: usize = 16;

/// A set of lines by their indices: open addressing over one `u64` per slot (the hash's low 32
/// bits and the line's index plus one; 0 is empty), at most half full. The slot comes from the
/// same low bits, so growing never needs the lines again; and a slot can be prefetched before
/// its lookup, which a general hash map does not offer.
struct LineTable {
    slots: Vec<u64>,
    len: usize,
    hasher: hashbrown::DefaultHashBuilder,
}

impl LineTable {
    fn new(lines: usize) -> LineTable {
        LineTable {
            slots: vec![0; (2 * lines).next_power_of_two().max(16)],
            len: 0,
            hasher: hashbrown::DefaultHashBuilder::default(),
        }
    }

    fn hash(&self, line: &str) -> u64 {
        self.hasher.hash_one(line)
    }

    fn hash_and_prefetch(&self, line: &str) -> u64 {
        let hash = self.hash(line);
        crate::memory::prefetch(&self.slots[self.slot_of(hash)]);
        hash
    }

    fn slot_of(&self, hash: u64) -> usize {
        (hash as u32 as usize) & (self.slots.len() - 1)
    }

    /// The index of a line already in the table that `same` says equals line `at`; or none,
    /// and `at` is added.
    fn find_or_insert(&mut self, at: u32, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        let tag = hash as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.slot_of(hash);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                break;
            }
            let k = (slot as u32).wrapping_sub(1);
            if (slot >> 32) as u32 == tag && same(k) {
                return Some(k);
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = (u64::from(tag) << 32) | (u64::from(at) + 1);
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            self.grow();
        }
        None
    }

    fn grow(&mut self) {
        let bigger = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut i = ((slot >> 32) as usize) & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

/// Colours for a report, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub color: bool,
}

impl Palette {
    pub fn paint(&self, style: anstyle::Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_owned()
        }
    }

    fn push<W: std::fmt::Write + ?Sized>(
        &self,
        out: &mut W,
        style: anstyle::Style,
        text: &str,
    ) -> std::fmt::Result {
        if self.color {
            write!(out, "{}{text}{}", style.render(), style.render_reset())
        } else {
            out.write_str(text)
        }
    }
}

/// Splits a line into words, runs of spaces and single punctuation marks, so that a changed
/// `Guess: 3` marks the `3` and not all of `ab=(Leaf(Guess:`.
pub fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<u8> = None;
    let class = |c: char| -> u8 {
        if c.is_alphanumeric() || c == '_' || c == '~' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for (i, c) in line.char_indices() {
        let k = class(c);
        if i > start && (k == 2 || prev != Some(k)) {
            out.push(&line[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
}

/// A byte range `(start, end)` in a line.
pub type Span = (usize, usize);

/// Byte ranges of the tokens of `old` and of `new` that the other line lacks.
pub fn changed_words(old: &str, new: &str) -> (Vec<Span>, Vec<Span>) {
    let (a, b) = (tokens(old), tokens(new));
    let offsets = |t: &[&str]| {
        let mut at = 0;
        t.iter()
            .map(|s| {
                let r = (at, at + s.len());
                at += s.len();
                r
            })
            .collect::<Vec<_>>()
    };
    let (ao, bo) = (offsets(&a), offsets(&b));
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &a,
        &b,
        crate::clock::deadline_after(Duration::from_millis(50)),
    );
    let (mut old_marks, mut new_marks) = (Vec::new(), Vec::new());
    for op in ops {
        let (_, or, nr) = op.as_tag_tuple();
        if op.tag() == DiffTag::Equal {
            continue;
        }
        if !or.is_empty() {
            old_marks.push((ao[or.start].0, ao[or.end - 1].1));
        }
        if !nr.is_empty() {
            new_marks.push((bo[nr.start].0, bo[nr.end - 1].1));
        }
    }
    (old_marks, new_marks)
}

/// A line with the given ranges emphasised (reverse video), the rest in `base`.
fn push_marked<W: std::fmt::Write + ?Sized>(
    out: &mut W,
    palette: Palette,
    base: anstyle::Style,
    line: &str,
    marks: &[(usize, usize)],
) -> std::fmt::Result {
    if !palette.color || marks.is_empty() {
        return palette.push(out, base, &visible(line));
    }
    let strong = base.invert();
    let mut at = 0;
    for &(s, e) in marks {
        palette.push(out, base, &visible(&line[at..s]))?;
        palette.push(out, strong, &visible(&line[s..e]))?;
        at = e;
    }
    palette.push(out, base, &visible(&line[at..]))
}

/// A marker line of `^` under the first changed word of `line` as [`visible`] shows it (for
/// reports without colour).
pub fn caret_under(line: &str, marks: &[(usize, usize)], indent: usize) -> Option<String> {
    let &(s, e) = marks.first()?;
    let width = |t: &str| visible(t).chars().count();
    Some(format!(
        "{}{}",
        " ".repeat(indent + width(&line[..s])),
        "^".repeat(width(&line[s..e]).max(1))
    ))
}

/// How many lines of hunks a report's diff shows ([`unified`]); the rest is counted, not
/// shown, so a program that floods its output cannot flood the report. `--full-diff` lifts it.
static MAX_DIFF_LINES: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(DEFAULT_MAX_DIFF_LINES);

/// The default of [`set_max_diff_lines`]: enough for any handout trace's whole diff.
pub const DEFAULT_MAX_DIFF_LINES: usize = 200;

/// Sets how many lines of hunks [`unified`] writes (`usize::MAX`: all).
pub fn set_max_diff_lines(n: usize) {
    MAX_DIFF_LINES.store(n, std::sync::atomic::Ordering::Relaxed);
}

fn max_diff_lines() -> usize {
    MAX_DIFF_LINES.load(std::sync::atomic::Ordering::Relaxed)
}

/// One row of a side-by-side diff: a line of each side, or of one side only.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    /// `same`, `changed` (a line of each side, paired), `removed` (only expected), `added`
    /// (only in the output), or `gap` (unchanged lines left out between two hunks).
    pub kind: &'static str,
    /// The expected line, by its number among the compared lines (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<(usize, String)>,
    /// The output's line, by its number among the compared lines (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<(usize, String)>,
}

/// The diff side by side: hunks of `context` unchanged lines around the changes, a changed
/// line of each side paired in order, at most `max` rows; and how many changed lines were
/// left out past them.
pub fn side_by_side<A: Seq + ?Sized, B: Seq + ?Sized>(
    old: &A,
    new: &B,
    diff: &LineDiff,
    context: usize,
    max: usize,
) -> (Vec<Row>, usize) {
    let mut rows = Vec::new();
    let mut left_out = 0;
    let line = |seq: &dyn Fn(usize) -> String, i: usize| Some((i + 1, seq(i)));
    let old_line = |i: usize| old.line(i).to_owned();
    let new_line = |i: usize| new.line(i).to_owned();
    for (g, group) in similar::group_diff_ops(diff.ops.clone(), context)
        .into_iter()
        .enumerate()
    {
        if g > 0 && rows.len() < max {
            rows.push(Row {
                kind: "gap",
                expected: None,
                actual: None,
            });
        }
        for op in group {
            let (tag, o, n) = op.as_tag_tuple();
            let pairs = o.len().max(n.len());
            for k in 0..pairs {
                let (a, b) = (o.start + k, n.start + k);
                let (have_a, have_b) = (a < o.end, b < n.end);
                if rows.len() >= max {
                    if tag != DiffTag::Equal {
                        left_out += usize::from(have_a) + usize::from(have_b);
                    }
                    continue;
                }
                let kind = match (tag, have_a, have_b) {
                    (DiffTag::Equal, _, _) => "same",
                    (_, true, true) => "changed",
                    (_, true, false) => "removed",
                    _ => "added",
                };
                rows.push(Row {
                    kind,
                    expected: if have_a { line(&old_line, a) } else { None },
                    actual: if have_b { line(&new_line, b) } else { None },
                });
            }
        }
    }
    (rows, left_out)
}

/// The unified diff of two line sequences, with file headers, hunks of 3 lines of context and,
/// in colour, the changed words inside changed lines emphasised. Past [`set_max_diff_lines`]
/// lines of hunks it stops with a line saying how many changed lines it leaves out.
pub fn unified<A: Seq + ?Sized, B: Seq + ?Sized>(
    old: &A,
    new: &B,
    diff: &LineDiff,
    names: (&str, &str),
    palette: Palette,
) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_unified(&mut out, old, new, diff, names, palette);
    out
}

/// [`unified`], written as it is made: a diff of two big traces that differ everywhere is as
/// long as both of them, and `gametrace diff` streams it rather than holding it.
pub fn write_unified<W: std::fmt::Write + ?Sized, A: Seq + ?Sized, B: Seq + ?Sized>(
    out: &mut W,
    old: &A,
    new: &B,
    diff: &LineDiff,
    names: (&str, &str),
    palette: Palette,
) -> std::fmt::Result {
    use anstyle::{AnsiColor, Style};
    let red = Style::new().fg_color(Some(AnsiColor::Red.into()));
    let green = Style::new().fg_color(Some(AnsiColor::Green.into()));
    let cyan = Style::new().fg_color(Some(AnsiColor::Cyan.into()));
    let bold = Style::new().bold();
    palette.push(out, bold, &format!("--- {}", visible(names.0)))?;
    out.write_char('\n')?;
    palette.push(out, bold, &format!("+++ {}", visible(names.1)))?;
    out.write_char('\n')?;
    let cap = max_diff_lines();
    let changed = |op: &DiffOp| match op.as_tag_tuple() {
        (DiffTag::Equal, _, _) => 0,
        (_, o, n) => o.len() + n.len(),
    };
    let total_changed: usize = diff.ops.iter().map(changed).sum();
    let (mut shown_lines, mut shown_changed) = (0usize, 0usize);
    for group in similar::group_diff_ops(diff.ops.clone(), 3) {
        if shown_lines >= cap {
            break;
        }
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o, n) = (first.old_range().start, first.new_range().start);
        let (o_len, n_len) = (last.old_range().end - o, last.new_range().end - n);
        // As GNU diff does: an empty range is written with the line before it.
        let start = |at: usize, len: usize| if len == 0 { at } else { at + 1 };
        palette.push(
            out,
            cyan,
            &format!(
                "@@ -{},{} +{},{} @@",
                start(o, o_len),
                o_len,
                start(n, n_len),
                n_len
            ),
        )?;
        out.write_char('\n')?;
        for op in &group {
            let (tag, or, nr) = op.as_tag_tuple();
            // Whole ops are written, but an op's lines only up to the cap.
            let room = cap.saturating_sub(shown_lines);
            let (or, nr) = if or.len() + nr.len() > room {
                let o = or.len().min(room);
                let n = nr.len().min(room - o);
                (or.start..or.start + o, nr.start..nr.start + n)
            } else {
                (or, nr)
            };
            shown_lines += or.len() + nr.len();
            if tag != DiffTag::Equal {
                shown_changed += or.len() + nr.len();
            }
            match tag {
                DiffTag::Equal => {
                    for line in or.map(|i| old.line(i)) {
                        out.write_char(' ')?;
                        out.write_str(&visible(line))?;
                        out.write_char('\n')?;
                    }
                }
                DiffTag::Delete | DiffTag::Insert | DiffTag::Replace => {
                    // Changed words are marked between lines paired in order.
                    let pairs = or.len().min(nr.len());
                    let marks: Vec<_> = (0..if palette.color { pairs } else { 0 })
                        .map(|k| changed_words(old.line(or.start + k), new.line(nr.start + k)))
                        .collect();
                    for (k, i) in or.clone().enumerate() {
                        let m = marks.get(k).map(|m| &m.0[..]);
                        write_changed(out, palette, red, '-', old.line(i), m)?;
                    }
                    for (k, i) in nr.clone().enumerate() {
                        let m = marks.get(k).map(|m| &m.1[..]);
                        write_changed(out, palette, green, '+', new.line(i), m)?;
                    }
                }
            }
        }
    }
    if shown_changed < total_changed {
        let rest = total_changed - shown_changed;
        writeln!(
            out,
            "... {rest} more changed {} not shown: the diff stops after {cap} lines (--full-diff shows it all)",
            if rest == 1 { "line" } else { "lines" }
        )?;
    }
    Ok(())
}

/// A changed line of a unified diff: its sign, the line, and in colour its changed words marked.
fn write_changed<W: std::fmt::Write + ?Sized>(
    out: &mut W,
    palette: Palette,
    style: anstyle::Style,
    sign: char,
    line: &str,
    marks: Option<&[Span]>,
) -> std::fmt::Result {
    if !palette.color {
        out.write_char(sign)?;
        out.write_str(&visible(line))?;
        return out.write_char('\n');
    }
    // The marks are in the line; the sign shifts them by one byte.
    let m: Vec<Span> = marks.map_or(Vec::new(), |m| {
        m.iter().map(|&(s, e)| (s + 1, e + 1)).collect()
    });
    push_marked(out, palette, style, &format!("{sign}{line}"), &m)?;
    out.write_char('\n')
}

/// The closing lines of a diff report: how many lines differ, where the first difference is
/// (line numbers in the files, not in the normalised sequences), and both lines there with the
/// first changed word marked.
pub fn summary(old: &Lines, new: &Lines, d: &LineDiff, names: (&str, &str)) -> String {
    let mut out = String::new();
    let plural = |n: usize| if n == 1 { "line" } else { "lines" };
    let total = d.removed + d.added;
    let _ = writeln!(
        out,
        "{total} {} differ: {} only in {}, {} only in {}{}",
        plural(total),
        d.removed,
        names.0,
        d.added,
        names.1,
        if d.coarse {
            " (the diff took too long to be minimal; it is correct but coarse)"
        } else {
            ""
        }
    );
    let Some(op) = d.first_change() else {
        return out;
    };
    let (_, or, nr) = op.as_tag_tuple();
    let at = |lines: &Lines, i: usize| -> String {
        match lines.number(i) {
            Some(n) => format!("line {n}"),
            None => "the end".to_owned(),
        }
    };
    let _ = writeln!(
        out,
        "first difference: {} of {}, {} of {}",
        at(old, or.start),
        names.0,
        at(new, nr.start),
        names.1
    );
    let (o, n) = (
        old.get(or.start).filter(|_| !or.is_empty()),
        new.get(nr.start).filter(|_| !nr.is_empty()),
    );
    match (o, n) {
        (Some(o), Some(n)) => {
            let (om, nm) = changed_words(o, n);
            let _ = writeln!(out, "  expected: {}", visible(o));
            if let Some(c) = caret_under(o, &om, 12) {
                let _ = writeln!(out, "{c}");
            }
            let _ = writeln!(out, "    actual: {}", visible(n));
            if let Some(c) = caret_under(n, &nm, 12) {
                let _ = writeln!(out, "{c}");
            }
        }
        (Some(o), None) => {
            let _ = writeln!(out, "  expected: {}", visible(o));
            let _ = writeln!(out, "    actual: (no line here)");
        }
        (None, Some(n)) => {
            let _ = writeln!(out, "  expected: (no line here)");
            let _ = writeln!(out, "    actual: {}", visible(n));
        }
        (None, None) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops_of(old: &[&str], new: &[&str]) -> Vec<(DiffTag, usize, usize)> {
        diff(old, new, DEFAULT_DEADLINE)
            .ops
            .iter()
            .map(|op| {
                let (t, o, n) = op.as_tag_tuple();
                (t, o.len(), n.len())
            })
            .collect()
    }

    #[test]
    fn byte_order_marks_in_front_are_not_text_unless_exact() {
        // Found by fuzz/fuzz_targets/diff.rs: with one mark stripped, a file starting with two
        // kept the second in its first line, and its own lines written out and read back
        // (one mark again) no longer matched it.
        for text in ["\u{feff}a\nb\n", "\u{feff}\u{feff}a\nb\n"] {
            let l = Lines::of(text, false);
            assert_eq!(l.iter().collect::<Vec<_>>(), ["a", "b"], "{text:?}");
            assert!(Lines::of(text, true)
                .iter()
                .next()
                .unwrap()
                .starts_with('\u{feff}'));
        }
    }

    #[test]
    fn normalisation_ignores_blank_lines_space_runs_and_crlf() {
        let l = Lines::of("F:  state (Maxie,a)\r\n\n  Therefore\tvalue  \n", false);
        let texts: Vec<&str> = l.iter().collect();
        assert_eq!(texts, ["F: state (Maxie,a)", "Therefore value"]);
        assert_eq!(
            (l.number(0), l.number(1), l.number(2)),
            (Some(1), Some(3), None)
        );
        let l = Lines::of("a \r\n\nb", true);
        let texts: Vec<&str> = l.iter().collect();
        assert_eq!(texts, ["a \r", "", "b"]);
        // Borrowed and normalised lines mixed, and the diff reads both.
        let old = Lines::of("x  y\nsame\n\tz\n", false);
        let new = Lines::of("x y\nsame\nz \n", false);
        let d = diff(&old, &new, DEFAULT_DEADLINE);
        assert!(d.is_same(), "{:?}", d.ops);
        assert!(matches!(normalize("plain line"), Cow::Borrowed(_)));
    }

    /// The clean-line test as first written, four passes over the bytes.
    fn normalize_reference(line: &str) -> Cow<'_, str> {
        let b = line.as_bytes();
        let clean = !b.first().is_some_and(u8::is_ascii_whitespace)
            && !b.last().is_some_and(u8::is_ascii_whitespace)
            && !b
                .windows(2)
                .any(|w| w[0].is_ascii_whitespace() && w[1].is_ascii_whitespace())
            && !b.iter().any(|&c| c.is_ascii_whitespace() && c != b' ')
            && line.is_ascii();
        if clean {
            Cow::Borrowed(line)
        } else {
            Cow::Owned(line.split_whitespace().collect::<Vec<_>>().join(" "))
        }
    }

    proptest::proptest! {
        #[test]
        fn one_pass_normalisation_agrees_with_the_reference(
            line in "[ a\\t\\r\u{b}\u{c}é\u{1b}\u{a0}(,)]{0,12}"
        ) {
            let (fast, slow) = (normalize(&line), normalize_reference(&line));
            proptest::prop_assert_eq!(&fast, &slow);
            proptest::prop_assert_eq!(
                matches!(fast, Cow::Borrowed(_)),
                matches!(slow, Cow::Borrowed(_))
            );
        }

        #[test]
        fn the_ascii_fast_path_shows_what_the_slow_one_shows(
            text in "[ a~\\t\\n\\r\u{0}\u{1b}\u{7f}\u{85}\u{202e}é]{0,12}"
        ) {
            let unsafe_char = |c: char| {
                (c.is_control() && c != '\t' && c != '\n')
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            };
            let shown = visible(&text);
            proptest::prop_assert_eq!(
                matches!(shown, Cow::Borrowed(_)),
                !text.chars().any(unsafe_char)
            );
        }
    }

    #[test]
    fn a_changed_line_is_one_replace_between_equal_runs() {
        use DiffTag::*;
        assert_eq!(
            ops_of(&["a", "b", "c", "d"], &["a", "x", "c", "d"]),
            [(Equal, 1, 1), (Replace, 1, 1), (Equal, 2, 2)]
        );
        assert_eq!(ops_of(&["a", "b"], &["a", "b"]), [(Equal, 2, 2)]);
        assert_eq!(ops_of(&[], &["a"]), [(Insert, 0, 1)]);
        assert_eq!(
            ops_of(&["a", "b", "c"], &["a", "c"]),
            [(Equal, 1, 1), (Delete, 1, 0), (Equal, 1, 1)]
        );
        // Repeated lines are aligned by the Myers stage: one line out, one in, three kept.
        let d = diff(
            &["x", "x", "y", "x"],
            &["x", "y", "x", "x"],
            DEFAULT_DEADLINE,
        );
        assert_eq!((d.removed, d.added), (1, 1));
    }

    #[test]
    fn the_diff_is_a_correct_edit_script() {
        // Applying the ops to old gives new, for a mix of shared, unique and repeated lines.
        let old: Vec<String> = (0..300).map(|i| format!("l{}", (i * 7) % 23)).collect();
        let new: Vec<String> = (0..280).map(|i| format!("l{}", (i * 5) % 29)).collect();
        let d = diff(&old, &new, DEFAULT_DEADLINE);
        let mut rebuilt = Vec::new();
        for op in &d.ops {
            let (t, o, n) = op.as_tag_tuple();
            match t {
                DiffTag::Equal => {
                    assert_eq!(old[o.clone()], new[n.clone()]);
                    rebuilt.extend_from_slice(&old[o]);
                }
                _ => rebuilt.extend_from_slice(&new[n]),
            }
        }
        assert_eq!(rebuilt, new);
    }

    /// The length of a longest common subsequence, by the textbook table.
    fn lcs(a: &[String], b: &[String]) -> usize {
        let mut row = vec![0usize; b.len() + 1];
        for x in a {
            let mut diag = 0;
            for (j, y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                diag = up;
            }
        }
        row[b.len()]
    }

    proptest::proptest! {
        /// Whatever the lines (few distinct ones, so many repeats; or many, so the line table
        /// grows), the ops rebuild `new` from `old` and keep as many lines as can be kept.
        #[test]
        fn the_diff_is_a_minimal_edit_script(
            old in proptest::collection::vec(0u8..40, 0..120),
            new in proptest::collection::vec(0u8..40, 0..120),
            alphabet in 1u8..40,
        ) {
            let show = |v: &[u8]| v.iter().map(|x| format!("line {}", x % alphabet)).collect::<Vec<_>>();
            let (old, new) = (show(&old), show(&new));
            let d = diff(&old, &new, Duration::from_secs(60));
            let (mut rebuilt, mut kept, mut o_at, mut n_at) = (Vec::new(), 0, 0, 0);
            for op in &d.ops {
                let (t, o, n) = op.as_tag_tuple();
                proptest::prop_assert_eq!((o.start, n.start), (o_at, n_at));
                (o_at, n_at) = (o.end, n.end);
                if t == DiffTag::Equal {
                    proptest::prop_assert_eq!(&old[o.clone()], &new[n.clone()]);
                    kept += o.len();
                }
                rebuilt.extend_from_slice(&new[n]);
            }
            proptest::prop_assert_eq!((o_at, n_at), (old.len(), new.len()));
            proptest::prop_assert_eq!(&rebuilt, &new);
            proptest::prop_assert_eq!(kept, lcs(&old, &new));
            proptest::prop_assert_eq!((d.removed, d.added), (old.len() - kept, new.len() - kept));
        }
    }

    #[test]
    fn unified_diff_headers_hunks_and_words() {
        let old = ["a", "b", "c"];
        let new = ["a", "x", "c"];
        let d = diff(&old, &new, DEFAULT_DEADLINE);
        let text = unified(&old, &new, &d, ("want", "got"), Palette { color: false });
        assert_eq!(text, "--- want\n+++ got\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n");
        let coloured = unified(&old, &new, &d, ("w", "g"), Palette { color: true });
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        let (o, n) = changed_words(
            "Result of (Maxie,d) is Leaf(Guess: 6)",
            "Result of (Maxie,d) is Leaf(Guess: 7)",
        );
        assert_eq!((o, n), (vec![(35, 36)], vec![(35, 36)]));
        assert_eq!(
            caret_under("is Leaf(Guess: 6)", &[(15, 16)], 2).unwrap(),
            "                 ^"
        );
    }

    #[test]
    fn lines_that_differ_everywhere_are_one_replace() {
        let old: Vec<String> = (0..200_000).map(|i| format!("old {i}")).collect();
        let new: Vec<String> = (0..200_000).map(|i| format!("new {i}")).collect();
        let d = diff(&old, &new, DEFAULT_DEADLINE);
        assert_eq!((d.removed, d.added), (200_000, 200_000));
        assert_eq!(d.ops.len(), 1);
    }
}
