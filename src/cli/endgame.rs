//! Endgame databases kept as files between runs (`solve`, `play`): built once, under the
//! user's cache folder, and memory-mapped after, so that every later run (and every process of
//! a class graded at once) reads the same pages instead of building its own.

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

/// The most seeds of a database kept in `dir` for this board and rules that is bigger than
/// `seeds` but holds no more seeds than the board and fits in half of `memory`.
fn kept_larger(dir: &Path, kalah: &Kalah, seeds: u32, memory: usize) -> Option<u32> {
    let prefix = file_name(kalah, 0);
    let prefix = prefix.strip_suffix("0seeds.endgame")?;
    let total = 2 * kalah.pits as u32 * u32::from(kalah.seeds);
    fs::read_dir(dir)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix(prefix)?
                .strip_suffix("seeds.endgame")?
                .parse::<u32>()
                .ok()
        })
        .filter(|&n| n > seeds && n <= total.min(127))
        .filter(|&n| crate::search::solve::endgame_bytes(kalah.pits, n) <= memory as u64 / 2)
        .max()
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
    let seeds = match (size, dir) {
        (Size::Exactly(seeds), _) | (Size::AtLeast { seeds, .. }, None) => seeds,
        (Size::AtLeast { seeds, memory }, Some(dir)) => {
            kept_larger(dir, kalah, seeds, memory).unwrap_or(seeds)
        }
    };
    let path = dir.map(|d| d.join(file_name(kalah, seeds)));
    if let Some(path) = &path {
        match map(path) {
            Ok(Some(bytes)) => match Database::read(kalah, seeds, bytes) {
                Ok(db) => return Ok(db),
                Err(why) => eprintln!(
                    "note: not using the endgame database {}: {}; building it again",
                    path.display(),
                    why.0
                ),
            },
            Ok(None) => {}
            Err(e) => eprintln!(
                "note: cannot read the endgame database {}: {e}; building it in memory",
                path.display()
            ),
        }
    }
    let db = Database::build(kalah, seeds, deadline, &mut |p| bar.show(p))?;
    let worth = crate::search::solve::endgame_bytes(kalah.pits, seeds) >= KEEP_FROM;
    if let (Some(path), true) = (&path, worth) {
        if let Err(e) = keep(&db, path) {
            eprintln!(
                "note: cannot keep the endgame database as {}: {e}\n  hint: --endgame-dir DIR keeps it elsewhere, --no-endgame-file keeps none",
                path.display()
            );
        }
    }
    Ok(db)
}

/// The file's bytes, memory-mapped; `None` if there is no such file.
fn map(path: &Path) -> io::Result<Option<Bytes>> {
    let file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
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

/// Writes `db` to `path` whole or not at all: to a new file beside it, renamed over it.
fn keep(db: &Database, path: &Path) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut w = io::BufWriter::new(file.as_file_mut());
        db.write(&mut w)?;
        w.flush()?;
    }
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
