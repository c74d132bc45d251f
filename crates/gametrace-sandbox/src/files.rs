//! What gametrace does to folders a program can change or a student handed in: measure them,
//! hand them to the program's uid, remove them, and stage a copy. Each walks by file
//! descriptors, one folder opened inside the last with `O_NOFOLLOW`, so a folder swapped for
//! a link while gametrace works (`renameat2(RENAME_EXCHANGE)`) is never followed: whatever
//! gametrace reads, chowns, chmods or writes lies inside the folder it was given.

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Folders a compiler or interpreter writes its caches to beside the sources: left out of a
/// staged copy, so that it compiles afresh.
const CACHES: [&str; 2] = [".cm", "__pycache__"];

fn euid_is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Opens the folder `name` inside `dir` without following a link. As an ordinary user, a
/// folder the program made unreadable (`chmod 000`; the program is that user) is made the
/// owner's again first, through a descriptor of the folder itself, never its name; root
/// reads it as it is.
fn open_dir_in(dir: impl AsFd, name: &CStr) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(&dir, name, flags, Mode::empty()) {
        Ok(fd) => Ok(fd),
        Err(rustix::io::Errno::ACCESS) if !euid_is_root() => {
            let path = rustix::fs::openat(
                &dir,
                name,
                OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            let magic = format!("/proc/self/fd/{}", path.as_raw_fd());
            // chmod through /proc/self/fd acts on the folder the descriptor holds.
            std::fs::set_permissions(&magic, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
            Ok(rustix::fs::openat(
                rustix::fs::CWD,
                magic.as_str(),
                flags,
                Mode::empty(),
            )?)
        }
        Err(e) => Err(e.into()),
    }
}

/// Opens `path` as a folder, following no link in its last component.
fn open_root(path: &Path) -> io::Result<OwnedFd> {
    let parent = path.parent().unwrap_or(Path::new("/"));
    let name = path.file_name().unwrap_or(OsStr::new("."));
    let parent = rustix::fs::openat(
        rustix::fs::CWD,
        parent,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    open_dir_in(&parent, &cstr(name))
}

fn cstr(name: &OsStr) -> CString {
    CString::new(name.as_bytes()).unwrap_or_default()
}

/// The entries of an open folder (without `.` and `..`): name and type.
fn entries(dir: &OwnedFd) -> io::Result<Vec<(CString, FileType)>> {
    let mut out = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == c"." || name == c".." {
            continue;
        }
        let mut kind = entry.file_type();
        if kind == FileType::Unknown {
            kind = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
                .map(|s| FileType::from_raw_mode(s.st_mode))
                .unwrap_or(FileType::Unknown);
        }
        out.push((name.to_owned(), kind));
    }
    Ok(out)
}

/// What one file, folder or link counts for at least, on disk and in a staged copy: its
/// inode and a block. So 200,000 empty files are 800 MB, past any usual quota, not nothing.
pub const INODE_BYTES: u64 = 4096;

/// What an entry of `st` takes: its blocks (a sparse file counts what it holds), at least
/// [`INODE_BYTES`].
fn taken(st: &rustix::fs::Stat) -> u64 {
    (st.st_blocks as u64 * 512).max(INODE_BYTES)
}

/// The bytes the files under `path` take on disk (their blocks: a sparse file counts what it
/// holds; each entry at least [`INODE_BYTES`]), links not followed, nothing hidden by an
/// unreadable folder; [`UNMEASURABLE`] for a tree deeper than [`DEEPEST`] folders.
pub fn disk_used(path: &Path) -> u64 {
    match rustix::fs::statat(rustix::fs::CWD, path, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Directory => {
            open_root(path).map_or(taken(&st), |fd| taken(&st).saturating_add(used_in(&fd, 0)))
        }
        Ok(st) => taken(&st),
        Err(_) => 0,
    }
}

/// Folders are walked this deep and no deeper (each level holds a descriptor open, and a walk
/// must end); a tree deeper than this counts as past any quota (see [`disk_used`]).
const DEEPEST: usize = 256;

/// What a tree too deep to measure counts as: more than any quota.
pub const UNMEASURABLE: u64 = u64::MAX / 4;

fn used_in(dir: &OwnedFd, depth: usize) -> u64 {
    let Ok(list) = entries(dir) else { return 0 };
    let mut used: u64 = 0;
    for (name, kind) in list {
        if let Ok(st) = rustix::fs::statat(dir, &name, AtFlags::SYMLINK_NOFOLLOW) {
            used = used.saturating_add(taken(&st));
        }
        if kind == FileType::Directory {
            if depth >= DEEPEST {
                // Files could hide below: what cannot be measured is over the quota.
                return UNMEASURABLE;
            }
            if let Ok(sub) = open_dir_in(dir, &name) {
                used = used.saturating_add(used_in(&sub, depth + 1));
            }
        }
    }
    used
}

/// Makes `path` and everything under it belong to `uid` (and group `uid`), links included as
/// links: the folders a program running as `uid` is to write.
pub fn hand_over(path: &Path, uid: u32) -> io::Result<()> {
    let owner = Some(rustix::fs::Uid::from_raw(uid));
    let group = Some(rustix::fs::Gid::from_raw(uid));
    rustix::fs::chownat(
        rustix::fs::CWD,
        path,
        owner,
        group,
        AtFlags::SYMLINK_NOFOLLOW,
    )?;
    let st = rustix::fs::statat(rustix::fs::CWD, path, AtFlags::SYMLINK_NOFOLLOW)?;
    if FileType::from_raw_mode(st.st_mode) != FileType::Directory {
        return Ok(());
    }
    fn walk(dir: &OwnedFd, uid: u32, depth: usize) -> io::Result<()> {
        let owner = Some(rustix::fs::Uid::from_raw(uid));
        let group = Some(rustix::fs::Gid::from_raw(uid));
        for (name, kind) in entries(dir)? {
            rustix::fs::chownat(dir, &name, owner, group, AtFlags::SYMLINK_NOFOLLOW)?;
            if kind == FileType::Directory && depth < DEEPEST {
                walk(&open_dir_in(dir, &name)?, uid, depth + 1)?;
            }
        }
        Ok(())
    }
    walk(&open_root(path)?, uid, 0)
}

/// Removes `path` and everything under it. Root's permissions open every folder whatever its
/// mode; as an ordinary user, folders the program made unreadable are opened again through
/// their descriptors first. `std::fs::remove_dir_all` itself walks by descriptors.
pub fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(_) => {}
    }
    if let Ok(fd) = open_root(path) {
        reopen_all(&fd, 0);
    }
    std::fs::remove_dir_all(path)
}

/// Opens every folder under `dir` (making it its owner's again where it was closed) and
/// clears the immutable and append-only flags of what is in it (a file made immutable
/// cannot be removed; no program of the sandbox can set them, having no capability, but a
/// folder handed in might hold one).
fn reopen_all(dir: &OwnedFd, depth: usize) {
    let Ok(list) = entries(dir) else { return };
    for (name, kind) in list {
        if matches!(kind, FileType::RegularFile | FileType::Directory) {
            clear_flags(dir, &name);
        }
        if kind == FileType::Directory && depth < DEEPEST {
            if let Ok(sub) = open_dir_in(dir, &name) {
                reopen_all(&sub, depth + 1);
            }
        }
    }
}

/// Clears the immutable and append-only flags of `name` in `dir` (FS_IOC_SETFLAGS), through
/// a descriptor opened without following a link.
fn clear_flags(dir: &OwnedFd, name: &CStr) {
    const FS_IOC_GETFLAGS: libc::c_ulong = 0x8008_6601;
    const FS_IOC_SETFLAGS: libc::c_ulong = 0x4008_6602;
    const IMMUTABLE: libc::c_long = 0x10;
    const APPEND: libc::c_long = 0x20;
    let Ok(fd) = rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return;
    };
    let mut flags: libc::c_long = 0;
    // SAFETY: ioctls on a descriptor we own, with a pointer to a local.
    unsafe {
        if libc::ioctl(fd.as_raw_fd(), FS_IOC_GETFLAGS, &mut flags) == 0
            && flags & (IMMUTABLE | APPEND) != 0
        {
            flags &= !(IMMUTABLE | APPEND);
            libc::ioctl(fd.as_raw_fd(), FS_IOC_SETFLAGS, &flags);
        }
    }
}

pub use crate::stage::StageError;

impl From<rustix::io::Errno> for StageError {
    fn from(e: rustix::io::Errno) -> Self {
        StageError::Io(e.into())
    }
}

fn kind_word(kind: FileType) -> Option<&'static str> {
    match kind {
        FileType::Fifo => Some("FIFO"),
        FileType::Socket => Some("socket"),
        FileType::CharacterDevice => Some("character device"),
        FileType::BlockDevice => Some("block device"),
        FileType::Unknown => Some("file of an unknown kind"),
        _ => None,
    }
}

/// The regular files under `from`: how many, and what a copy of it would take: their sizes
/// as written (a sparse file at its whole length), each file, folder and link at least
/// [`INODE_BYTES`]. Refuses a FIFO, socket or device anywhere in it. What the run's uid could
/// not read is left out (see [`shown_to_run`]).
pub fn contents(from: &Path) -> Result<(usize, u64), StageError> {
    contents_without(from, &[])
}

/// [`contents`], the entries at the paths of `skip` (canonical) left out.
fn contents_without(from: &Path, skip: &[PathBuf]) -> Result<(usize, u64), StageError> {
    fn walk(
        dir: &OwnedFd,
        at: &Path,
        depth: usize,
        skip: &[PathBuf],
    ) -> Result<(usize, u64), StageError> {
        let (mut files, mut size) = (0, 0u64);
        for (name, kind) in entries(dir)? {
            let path = at.join(OsStr::from_bytes(name.as_bytes()));
            if skip.contains(&path) {
                continue;
            }
            if let Some(word) = kind_word(kind) {
                return Err(StageError::Special { path, kind: word });
            }
            let st = rustix::fs::statat(dir, &name, AtFlags::SYMLINK_NOFOLLOW)?;
            if !shown_to_run(&st) {
                continue;
            }
            match kind {
                FileType::Directory => {
                    if CACHES.iter().any(|c| c.as_bytes() == name.as_bytes()) || depth >= DEEPEST {
                        continue;
                    }
                    let (f, s) = walk(&open_dir_in(dir, &name)?, &path, depth + 1, skip)?;
                    files += f;
                    size = size.saturating_add(s).saturating_add(INODE_BYTES);
                }
                FileType::RegularFile => {
                    files += 1;
                    size = size.saturating_add((st.st_size as u64).max(INODE_BYTES));
                }
                FileType::Symlink => size = size.saturating_add(INODE_BYTES),
                _ => {}
            }
        }
        Ok((files, size))
    }
    walk(&open_root(from)?, &walked_as(from, skip), 0, skip)
}

/// The path a walk of `from` names its entries under: the canonical one when entries are
/// compared with canonical paths to skip.
fn walked_as(from: &Path, skip: &[PathBuf]) -> PathBuf {
    if skip.is_empty() {
        return from.to_owned();
    }
    std::fs::canonicalize(from).unwrap_or_else(|_| from.to_owned())
}

/// [`contents`]' sizes alone.
pub fn apparent_size(from: &Path) -> Result<u64, StageError> {
    contents(from).map(|(_, size)| size)
}

/// Copies the folder `from` into the folder `to` (made if missing), replacing what is there:
/// regular files and folders by their contents, links as links (never followed, on either
/// side: an entry of `to` in the way, a link included, is removed first, so nothing is
/// written through one). A FIFO, socket or device in `from` stops the copy; so do sizes that
/// add up past `limit`.
pub fn stage(from: &Path, to: &Path, limit: u64) -> Result<(), StageError> {
    stage_without(from, to, limit, &[])
}

/// [`stage`], leaving out the entries of `from` at the paths of `skip` (canonical paths:
/// the grader's specs, expected traces and class folder when they lie in a course folder).
pub fn stage_without(
    from: &Path,
    to: &Path,
    limit: u64,
    skip: &[PathBuf],
) -> Result<(), StageError> {
    let (_, size) = contents_without(from, skip)?;
    if limit > 0 && size > limit {
        return Err(StageError::TooBig { size, limit });
    }
    std::fs::create_dir_all(to)?;
    let at = walked_as(from, skip);
    copy_into(&open_root(from)?, &open_root(to)?, &at, 0, skip)
}

fn copy_into(
    src: &OwnedFd,
    dst: &OwnedFd,
    at: &Path,
    depth: usize,
    skip: &[PathBuf],
) -> Result<(), StageError> {
    for (name, kind) in entries(src)? {
        let path = at.join(OsStr::from_bytes(name.as_bytes()));
        if skip.contains(&path) {
            continue;
        }
        if let Some(word) = kind_word(kind) {
            return Err(StageError::Special { path, kind: word });
        }
        if !rustix::fs::statat(src, &name, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|st| shown_to_run(&st))
        {
            continue;
        }
        let there = rustix::fs::statat(dst, &name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|s| FileType::from_raw_mode(s.st_mode));
        match kind {
            FileType::Directory => {
                if CACHES.iter().any(|c| c.as_bytes() == name.as_bytes()) || depth >= DEEPEST {
                    continue;
                }
                match there {
                    Some(FileType::Directory) => {}
                    Some(_) => {
                        rustix::fs::unlinkat(dst, &name, AtFlags::empty())?;
                        rustix::fs::mkdirat(dst, &name, Mode::from_raw_mode(0o755))?;
                    }
                    None => rustix::fs::mkdirat(dst, &name, Mode::from_raw_mode(0o755))?,
                }
                let inner = open_dir_in(src, &name)?;
                let out = open_dir_in(dst, &name)?;
                copy_into(&inner, &out, &path, depth + 1, skip)?;
            }
            FileType::RegularFile | FileType::Symlink => {
                match there {
                    Some(FileType::Directory) => {
                        // A file of the submission where the course has a folder: the
                        // submission's wins, as a file would replace a file.
                        let gone = at_path(dst, &name)?;
                        remove(&gone)?;
                    }
                    Some(_) => rustix::fs::unlinkat(dst, &name, AtFlags::empty())?,
                    None => {}
                }
                if kind == FileType::Symlink {
                    let target = rustix::fs::readlinkat(src, &name, Vec::new())?;
                    rustix::fs::symlinkat(&target, dst, &name)?;
                } else {
                    copy_file(src, dst, &name, &path)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Would the run's uid have been able to read this entry where it is? As root, gametrace
/// stages a copy for a uid of the run's own, which it then owns: a file only its owner (or
/// group) may read, or a folder only they may enter, is left out of the copy, so a staged
/// course folder hands the program nothing the original would not have (`private/answer.txt`,
/// 0600 in a 0700 folder). An ordinary user's runs are that user, who could read it anyway.
fn shown_to_run(st: &rustix::fs::Stat) -> bool {
    if !euid_is_root() {
        return true;
    }
    let mode = st.st_mode;
    match FileType::from_raw_mode(mode) {
        FileType::Directory => mode & 0o001 != 0,
        FileType::RegularFile => mode & 0o004 != 0,
        _ => true,
    }
}

/// The path of `name` in the open folder `dir` (through /proc, for [`remove`]).
fn at_path(dir: &OwnedFd, name: &CStr) -> io::Result<PathBuf> {
    let parent = std::fs::read_link(format!("/proc/self/fd/{}", dir.as_raw_fd()))?;
    Ok(parent.join(OsStr::from_bytes(name.to_bytes())))
}

/// Copies the regular file `name` of `src` to a new file of that name in `dst`.
fn copy_file(src: &OwnedFd, dst: &OwnedFd, name: &CStr, path: &Path) -> Result<(), StageError> {
    let from = rustix::fs::openat(
        src,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let st = rustix::fs::fstat(&from)?;
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind != FileType::RegularFile {
        return Err(StageError::Special {
            path: path.to_owned(),
            kind: kind_word(kind).unwrap_or("file of another kind"),
        });
    }
    let to = rustix::fs::openat(
        dst,
        name,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(st.st_mode & 0o777),
    )?;
    let mut from = std::fs::File::from(from);
    let mut to = std::fs::File::from(to);
    io::copy(&mut from, &mut to)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link in the course folder where the submission has a folder is replaced, never
    /// written through: the file the submission brings lands in the copy, and the place the
    /// link pointed to is untouched.
    #[test]
    fn staging_never_writes_through_a_link() {
        let outside = tempfile::tempdir().unwrap();
        let course = tempfile::tempdir().unwrap();
        let sub = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), course.path().join("lib")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("planted"), course.path().join("file"))
            .unwrap();
        std::fs::create_dir(sub.path().join("lib")).unwrap();
        std::fs::write(sub.path().join("lib/evil.sml"), "x").unwrap();
        std::fs::write(sub.path().join("file"), "y").unwrap();
        let to = tempfile::tempdir().unwrap();
        stage(course.path(), to.path(), 0).unwrap();
        stage(sub.path(), to.path(), 0).unwrap();
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        assert_eq!(
            std::fs::read_to_string(to.path().join("lib/evil.sml")).unwrap(),
            "x"
        );
        assert!(!to.path().join("lib").is_symlink());
        assert_eq!(
            std::fs::read_to_string(to.path().join("file")).unwrap(),
            "y"
        );
    }

    /// A FIFO is refused before anything opens it (opening one to read would wait forever),
    /// and a sparse file counts at its full length against the limit.
    #[test]
    fn a_fifo_is_refused_and_a_sparse_file_counts_whole() {
        let sub = tempfile::tempdir().unwrap();
        std::fs::create_dir(sub.path().join("deep")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            sub.path().join("deep/pipe"),
            FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        let to = tempfile::tempdir().unwrap();
        match stage(sub.path(), to.path(), 0) {
            Err(StageError::Special { path, kind }) => {
                assert_eq!(kind, "FIFO");
                assert!(path.ends_with("deep/pipe"));
            }
            other => panic!("{other:?}"),
        }
        let sparse = tempfile::tempdir().unwrap();
        let f = std::fs::File::create(sparse.path().join("big")).unwrap();
        f.set_len(2 << 30).unwrap();
        assert!(disk_used(sparse.path()) < 1 << 20);
        match stage(sparse.path(), to.path(), 256 << 20) {
            Err(StageError::TooBig { size, .. }) => assert_eq!(size, 2 << 30),
            other => panic!("{other:?}"),
        }
        assert!(!to.path().join("big").exists());
    }

    /// Measuring and removing never follow a link out of the folder, and find what sits in
    /// a folder made unreadable.
    #[test]
    fn measuring_and_removing_stay_inside() {
        use std::os::unix::fs::PermissionsExt;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), vec![1u8; 1 << 20]).unwrap();
        let mode_before = std::fs::metadata(outside.path())
            .unwrap()
            .permissions()
            .mode();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("run");
        std::fs::create_dir_all(root.join("hide")).unwrap();
        std::fs::write(root.join("hide/data"), vec![1u8; 2 << 20]).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        std::fs::set_permissions(root.join("hide"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
        let used = disk_used(&root);
        assert!((2 << 20..3 << 20).contains(&used), "{used}");
        remove(&root).unwrap();
        assert!(!root.exists());
        assert!(outside.path().join("keep").exists());
        let mode = std::fs::metadata(outside.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode, mode_before, "untouched");
    }
}
