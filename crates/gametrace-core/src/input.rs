//! Reading the files a user names (specs, expected traces, traces to diff): regular files only,
//! and never more than a cap. A FIFO blocks whoever opens it and `/dev/zero` never ends, so
//! anything that is not a regular file is refused before it is read, and a file is read in one
//! allocation of its own size rather than grown by doubling.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a file could not be read.
#[derive(Debug)]
pub enum InputError {
    NotFound,
    /// A directory, a FIFO, a device or a socket: `kind` says which.
    NotRegular {
        kind: &'static str,
    },
    /// Larger than the cap.
    TooLarge {
        size: u64,
        cap: u64,
    },
    Io(io::Error),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::NotFound => f.write_str("no such file"),
            InputError::NotRegular { kind } => write!(f, "{kind}, not a regular file"),
            InputError::TooLarge { size, cap } => write!(
                f,
                "a file of {}, over the limit of {}",
                human_bytes(*size),
                human_bytes(*cap)
            ),
            InputError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// What kind of file this is, for messages.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_file() {
        "a regular file"
    } else {
        special_kind(&t)
    }
}

#[cfg(unix)]
fn special_kind(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Opens `path` for reading if it is a regular file, without blocking on a FIFO: the type is
/// checked before opening, and again on the handle (the path may have changed in between).
pub fn open_regular(path: &Path) -> Result<(File, u64), InputError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => InputError::NotFound,
        _ => InputError::Io(e),
    })?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            kind: kind_of(&meta),
        });
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => InputError::NotFound,
        _ => InputError::Io(e),
    })?;
    let meta = file.metadata().map_err(InputError::Io)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            kind: kind_of(&meta),
        });
    }
    Ok((file, meta.len()))
}

/// The bytes of the regular file at `path`, at most `cap` of them.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let (file, size) = open_regular(path)?;
    if size > cap {
        return Err(InputError::TooLarge { size, cap });
    }
    // One allocation of the file's size; the file may still grow while it is read, so the
    // read is bounded by the cap, not by the size seen.
    let mut bytes = Vec::with_capacity(size as usize + 1);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(InputError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// The bytes of an output to judge or compare: a regular file, standard input (`-`) or a
/// pipe (`<(command)`), read to its end but never past `cap` bytes (`TooLarge` then, never a
/// silent cut). Devices, directories and sockets are refused.
pub fn read_output(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        io::stdin().lock().take(cap + 1).read_to_end(&mut bytes)
    } else {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::NotFound,
            _ => InputError::Io(e),
        })?;
        if meta.is_file() {
            return read_regular(path, cap);
        }
        if kind_of(&meta) != "a FIFO (named pipe)" {
            return Err(InputError::NotRegular {
                kind: kind_of(&meta),
            });
        }
        File::open(path).and_then(|f| f.take(cap + 1).read_to_end(&mut bytes))
    };
    read.map_err(InputError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// The default for [`max_spec_size`]: far above any hand-written or generated spec (a node
/// with a million children is 16 MB), far below what would exhaust memory.
pub const DEFAULT_MAX_SPEC_SIZE: u64 = 256 << 20;

static MAX_SPEC_SIZE: AtomicU64 = AtomicU64::new(DEFAULT_MAX_SPEC_SIZE);

/// The largest spec (or expected trace) gametrace reads; `--max-spec-size` sets it.
pub fn max_spec_size() -> u64 {
    MAX_SPEC_SIZE.load(Ordering::Relaxed)
}

pub fn set_max_spec_size(bytes: u64) {
    MAX_SPEC_SIZE.store(bytes, Ordering::Relaxed);
}

/// `64 MiB`, `512 KiB`, `300 bytes`.
pub fn human_bytes(n: u64) -> String {
    if n >= 1 << 30 && n % (1 << 30) == 0 {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 {
        let mib = n as f64 / (1u64 << 20) as f64;
        if n % (1 << 20) == 0 {
            format!("{} MiB", n >> 20)
        } else {
            format!("{mib:.1} MiB")
        }
    } else if n >= 1 << 10 && n % (1 << 10) == 0 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("x.yaml");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        // Opening a FIFO for reading with no writer would block forever.
        match read_regular(&fifo, 100) {
            Err(InputError::NotRegular { kind }) => assert_eq!(kind, "a FIFO (named pipe)"),
            other => panic!("{other:?}"),
        }
        match read_regular(Path::new("/dev/zero"), 100) {
            Err(InputError::NotRegular { kind }) => assert_eq!(kind, "a character device"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_regular(dir.path(), 100),
            Err(InputError::NotRegular { .. })
        ));
        assert!(matches!(
            read_regular(&dir.path().join("none"), 100),
            Err(InputError::NotFound)
        ));
    }

    #[test]
    fn reads_up_to_the_cap_and_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.yaml");
        std::fs::write(&f, "x".repeat(100)).unwrap();
        assert_eq!(read_regular(&f, 100).unwrap().len(), 100);
        match read_regular(&f, 99) {
            Err(e @ InputError::TooLarge { size: 100, cap: 99 }) => {
                assert_eq!(
                    e.to_string(),
                    "a file of 100 bytes, over the limit of 99 bytes"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(human_bytes(256 << 20), "256 MiB");
        assert_eq!(human_bytes(3 << 29), "1536 MiB");
        assert_eq!(human_bytes((1 << 20) + (1 << 19)), "1.5 MiB");
    }
}
