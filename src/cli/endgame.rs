//! Endgame databases kept as files between runs (`solve`, `play`): built once, under the
//! user's cache folder, and memory-mapped after, so that every later run (and every process of
//! a class graded at once) reads the same pages instead of building its own.

use super::common::{Exit, Failure};
use super::solve::Bar;
use crate::game::kalah::Kalah;
use crate::search::solve::{Bytes, Database, Unsolved};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The flags that say where databases are kept (`solve` and `play`).
#[derive(clap::Args, Debug, Clone)]
pub struct Keeping {
    /// Where endgame databases are kept between runs [default: $XDG_CACHE_HOME/gametrace, or
    /// ~/.cache/gametrace]
    #[arg(long, value_name = "DIR")]
    pub endgame_dir: Option<PathBuf>,
    /// Build the endgame database in memory only: read no file and write none
    #[arg(long, conflicts_with = "endgame_dir")]
    pub no_endgame_file: bool,
}

/// Databases smaller than this (in positions, a byte each) are built each time: they take
/// well under a second.
const KEEP_FROM: u64 = 1 << 20;

impl Keeping {
    /// The folder databases are kept in; `None` when files are not wanted or there is no home.
    pub fn dir(&self) -> Option<PathBuf> {
        if self.no_endgame_file {
            return None;
        }
        if let Some(d) = &self.endgame_dir {
            return Some(d.clone());
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(cache.join("gametrace"))
    }
}

/// `kalah-6pits-cs10-16seeds.endgame`, `kalah-6pits-either-side-empty-capture-empty-16seeds.endgame`.
fn file_name(kalah: &Kalah, seeds: u32) -> String {
    format!(
        "kalah-{}pits-{}{}-{seeds}seeds.endgame",
        kalah.pits,
        kalah.rules.end.name().replace('_', "-"),
        if kalah.rules.capture_empty {
            "-capture-empty"
        } else {
            ""
        }
    )
}

/// How big a database may be: exactly `seeds` (`--endgame`), or at least `seeds` and, if a
/// bigger one is kept, within `memory` bytes.
#[derive(Clone, Copy, Debug)]
pub enum Size {
    Exactly(u32),
    AtLeast { seeds: u32, memory: usize },
}

/// The seeds of every database kept in `dir` for this board and rules that is bigger than
/// `seeds` but holds no more seeds than the board and fits in half of `memory`, the biggest
/// first.
fn kept_larger(dir: &Path, kalah: &Kalah, seeds: u32, memory: usize) -> Vec<u32> {
    let prefix = file_name(kalah, 0);
    let Some(prefix) = prefix.strip_suffix("0seeds.endgame") else {
        return Vec::new();
    };
    let total = 2 * kalah.pits as u32 * u32::from(kalah.seeds);
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut sizes: Vec<u32> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix(prefix)?
                .strip_suffix("seeds.endgame")?
                .parse::<u32>()
                .ok()
        })
        .filter(|&n| n > seeds && n <= total.min(127))
        .filter(|&n| crate::search::solve::endgame_bytes(kalah.pits, n) <= memory as u64 / 2)
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    sizes
}

/// The database for `kalah`'s board and rules of `size`: read from its file in `dir` when
/// there is a good one there (the biggest that fits, unless the size is exact), else built
/// (on the bar) and, when it is worth keeping, written there for the next run. A file that
/// cannot be used or written is said on stderr, and the database built in memory.
pub fn database(
    kalah: &Kalah,
    size: Size,
    deadline: Option<Instant>,
    dir: Option<&Path>,
    bar: &Bar,
) -> Result<Database, Unsolved> {
    database_noting(kalah, size, deadline, dir, bar, true)
}

/// [`database`], saying (`note_missing`) when none was kept yet and how to build one ahead.
/// A run left to choose tries each kept database bigger than its own size that fits, the
/// biggest first, then its own size; a file it cannot use is named and passed over, so a
/// damaged big one never costs a rebuild of that size.
fn database_noting(
    kalah: &Kalah,
    size: Size,
    deadline: Option<Instant>,
    dir: Option<&Path>,
    bar: &Bar,
    note_missing: bool,
) -> Result<Database, Unsolved> {
    let (seeds, mut sizes) = match (size, dir) {
        (Size::Exactly(seeds), _) | (Size::AtLeast { seeds, .. }, None) => (seeds, Vec::new()),
        (Size::AtLeast { seeds, memory }, Some(dir)) => {
            (seeds, kept_larger(dir, kalah, seeds, memory))
        }
    };
    sizes.push(seeds);
    let worth = crate::search::solve::endgame_bytes(kalah.pits, seeds) >= KEEP_FROM;
    if let Some(dir) = dir {
        for &s in &sizes {
            let path = dir.join(file_name(kalah, s));
            let then = if s == seeds {
                "building it again".to_owned()
            } else {
                "trying a smaller one".to_owned()
            };
            match map(&path) {
                Ok(Some(bytes)) => match Database::read(kalah, s, bytes) {
                    Ok(db) => return Ok(db),
                    Err(why) => eprintln!(
                        "note: not using the endgame database {}: {}; {then}",
                        path.display(),
                        why.0
                    ),
                },
                Ok(None) if s == seeds && note_missing && worth => eprintln!(
                    "note: no endgame database of {seeds} seeds for {} is kept in {} yet: building it now ({} positions), to keep there for later runs\n  hint: to build it ahead of time (in an autograder image's setup, say): gametrace endgame build {}{}",
                    board(kalah),
                    dir.display(),
                    crate::search::solve::endgame_bytes(kalah.pits, seeds),
                    flags(kalah, seeds),
                    dir_flag(dir),
                ),
                Ok(None) => {}
                Err(e) => eprintln!(
                    "note: cannot read the endgame database {}: {e}; {}",
                    path.display(),
                    if s == seeds { "building it in memory".to_owned() } else { then }
                ),
            }
        }
    }
    let db = Database::build(kalah, seeds, deadline, &mut |p| bar.show(p))?;
    if let (Some(dir), true) = (dir, worth) {
        let path = dir.join(file_name(kalah, seeds));
        if let Err(e) = keep(&db, &path) {
            eprintln!(
                "note: cannot keep the endgame database as {}: {e}\n  hint: --endgame-dir DIR keeps it elsewhere, --no-endgame-file keeps none",
                path.display()
            );
        }
    }
    Ok(db)
}

/// ` --endgame-dir DIR` when `dir` is not the folder runs look in by default.
fn dir_flag(dir: &Path) -> String {
    let default = Keeping {
        endgame_dir: None,
        no_endgame_file: false,
    }
    .dir();
    if default.as_deref() == Some(dir) {
        String::new()
    } else {
        format!(" --endgame-dir {}", shell_word(&dir.display().to_string()))
    }
}

/// `word`, quoted for a shell when it needs to be.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `Kalah(6, 4), CS10's rules`.
fn board(kalah: &Kalah) -> String {
    format!("Kalah({}, {}), {}", kalah.pits, kalah.seeds, kalah.rules)
}

/// The command-line flags that name this board, rules and database size.
fn flags(kalah: &Kalah, seeds: u32) -> String {
    let mut f = format!("kalah --pits {} --seeds {}", kalah.pits, kalah.seeds);
    if kalah.rules.end != crate::game::kalah::EndRule::Cs10 {
        f.push_str(" --end-rule ");
        f.push_str(&kalah.rules.end.name().replace('_', "-"));
    }
    if kalah.rules.capture_empty {
        f.push_str(" --capture-empty");
    }
    f.push_str(&format!(" --endgame {seeds}"));
    f
}

/// The file's bytes, memory-mapped; `None` if there is no such file.
fn map(path: &Path) -> io::Result<Option<Bytes>> {
    // Opened without blocking (a FIFO at the name would otherwise wait for a writer forever),
    // and only a regular file is read.
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    // SAFETY: the map is read only, and gametrace never changes a database file in place (it
    // writes a new file and renames it over the old one), so the bytes stay as they were
    // unless another program edits the file; the checksum, read whole first, then catches a
    // damaged one.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    // The solver reads the database at random: 2 MiB pages where the kernel can give them
    // (the page cache's large folios) miss the TLB far less. Only advice: ignored if not.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(Some(Arc::new(map)))
}

/// Makes `dir` and the folders above it that are missing, each readable by every user (a
/// umask of 077 would otherwise hide an image's databases from a grader of another uid).
fn make_folder(dir: &Path) -> io::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a file, not a folder", dir.display()),
        ));
    }
    let missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .collect();
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    for d in missing {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(d, fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = missing;
    Ok(())
}

/// An error without the temporary file's name that `tempfile` adds to it.
fn bare(e: io::Error) -> io::Error {
    io::Error::from(e.kind())
}

/// Writes `db` to `path` whole or not at all: to a new file beside it, renamed over it.
fn keep(db: &Database, path: &Path) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    make_folder(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(bare)?;
    {
        let mut w = io::BufWriter::new(file.as_file_mut());
        db.write(&mut w)?;
        w.flush()?;
    }
    // Readable by every user (a temporary file is made 0600): an autograder image's database,
    // built as root, is read by graders running as another user. It holds nothing private.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.as_file()
            .set_permissions(fs::Permissions::from_mode(0o644))?;
    }
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `gametrace endgame`: endgame databases made ahead of a run.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Build the endgame database `solve`, `play --p2 perfect` and `grade --player-cmd` would
    /// build for this board and rules, and keep it where they look for it (an autograder
    /// image's setup, say: every later run then reads it instead of building it)
    Build(BuildArgs),
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The game: kalah
    pub game: String,
    #[command(flatten)]
    pub board: super::solve::KalahBoard,
    /// The most seeds left in its positions [default: what a run with --memory builds]; a run
    /// takes the biggest kept database that fits in half of its --memory
    #[arg(long, value_name = "SEEDS")]
    pub endgame: Option<u32>,
    /// The memory the runs that will use it are given (K, M, G suffixes)
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::common::parse_bytes)]
    pub memory: usize,
    /// Where to keep it [default: $XDG_CACHE_HOME/gametrace, or ~/.cache/gametrace]: give the
    /// runs the same --endgame-dir
    #[arg(long, value_name = "DIR")]
    pub endgame_dir: Option<PathBuf>,
}

pub fn execute(a: Args) -> Exit {
    let Action::Build(a) = a.action;
    if a.game != "kalah" {
        return Err(Failure::message(format!("error: endgame databases are Kalah's, not `{}`'s\n  hint: gametrace endgame build kalah --pits 6 --seeds 4",
            a.game)));
    }
    let kalah = a
        .board
        .kalah(|pits, seeds| format!("error: no endgame database for Kalah({pits}, {seeds})"))?;
    let (pits, seeds) = (kalah.pits as u64, u64::from(kalah.seeds));
    let limits = crate::search::solve::Limits {
        memory: a.memory,
        endgame: a.endgame,
        ..Default::default()
    };
    let total = 2 * pits * seeds;
    if let Some(e) = a.endgame.filter(|&e| u64::from(e) > total.min(127)) {
        return Err(Failure::message(format!("error: {} holds {total} seeds: a database of {e} seeds {}\n  expected: --endgame {} at most\n  hint: leave --endgame out for the size a run builds",
            board(&kalah),
            if u64::from(e) > total { "holds positions no game reaches" } else { "is past the most a database holds (127)" },
            total.min(127))));
    }
    let stored = crate::search::solve::database_seeds(&kalah, &limits);
    let bytes = crate::search::solve::endgame_bytes(kalah.pits, stored);
    if bytes > a.memory as u64 / 2 {
        return Err(Failure::message(format!("error: an endgame database of {stored} seeds on {pits} pits a side ({bytes} bytes) is more than half of --memory ({} bytes), so no run with that memory would take it\n  hint: raise --memory to what the runs will be given, or ask for fewer seeds",
            a.memory)));
    }
    let keeping = Keeping {
        endgame_dir: a.endgame_dir,
        no_endgame_file: false,
    };
    let Some(dir) = keeping.dir() else {
        return Err(Failure::message("error: no folder to keep it in: neither XDG_CACHE_HOME nor HOME is set\n  hint: --endgame-dir DIR"));
    };
    // The folder first: a build of minutes is not to be lost to a folder it cannot write.
    let writable =
        make_folder(&dir).and_then(|()| tempfile::NamedTempFile::new_in(&dir).map_err(bare));
    if let Err(e) = writable {
        return Err(Failure::message(format!("error: cannot keep endgame databases in {}: {e}\n  hint: --endgame-dir DIR names a folder you can write (give the runs the same)",
            dir.display())));
    }
    let path = dir.join(file_name(&kalah, stored));
    let started = Instant::now();
    let good = |path: &Path| matches!(map(path), Ok(Some(b)) if Database::read(&kalah, stored, b.clone()).is_ok());
    let was_kept = good(&path);
    let bar = Bar::new();
    let db = database_noting(&kalah, Size::Exactly(stored), None, Some(&dir), &bar, false);
    bar.finish();
    if db.is_err() {
        return Err(Failure::message(format!(
            "error: {} cannot be built here",
            board(&kalah)
        )));
    }
    // `database` says on stderr why a file could not be written; check it is there.
    match good(&path) {
        true => {}
        false if bytes < KEEP_FROM => {
            return super::common::print_all(&format!(
                "{}: the database of {stored} seeds ({bytes} positions) is built in well under a second by every run: none is kept\n",
                board(&kalah)
            ))
        }
        false => {
            return Err(Failure::message(format!("error: the database could not be kept as {}", path.display())));
        }
    }
    super::common::print_all(&format!(
        "{}: {} {} ({stored} seeds, {bytes} positions, {:.1} MB){}\n",
        board(&kalah),
        if was_kept {
            "already kept, checked:"
        } else {
            "kept"
        },
        path.display(),
        bytes as f64 / 1e6,
        if was_kept {
            String::new()
        } else {
            format!(", built in {:.1} s", started.elapsed().as_secs_f64())
        }
    ))
}
