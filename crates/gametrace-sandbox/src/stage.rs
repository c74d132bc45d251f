//! Why a submission's folder could not be staged, on every system.

/// Why a folder could not be staged.
#[derive(Debug)]
pub enum StageError {
    /// A FIFO, a socket or a device: never copied (reading a FIFO waits forever, a device
    /// reads the machine's), and never graded.
    Special {
        path: std::path::PathBuf,
        kind: &'static str,
    },
    /// The files' sizes (as written, a sparse file's whole length) add up past the quota.
    TooBig {
        size: u64,
        limit: u64,
    },
    /// Not one regular file in it: staged over a course folder, the course's own files
    /// (its stubs) would be graded as the student's.
    Empty,
    Io(std::io::Error),
}

impl std::fmt::Display for StageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StageError::Special { path, kind } => write!(
                f,
                "{} is a {kind}: only regular files, folders and links are copied and graded",
                path.display()
            ),
            StageError::TooBig { size, limit } => write!(
                f,
                "its files add up to {} (a sparse file counted at its full length), past the disk limit of {} (raise it with --disk-limit)",
                crate::human_bytes(*size),
                crate::human_bytes(*limit)
            ),
            StageError::Empty => write!(
                f,
                "it holds no file: the course folder's own files would be graded in its place"
            ),
            StageError::Io(e) => e.fmt(f),
        }
    }
}

impl From<std::io::Error> for StageError {
    fn from(e: std::io::Error) -> Self {
        StageError::Io(e)
    }
}
