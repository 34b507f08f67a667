//! Outputs that never lie: an output folder holds either the previous complete result or the
//! new complete one, never a mix, whatever stops the run (an error, a full disk, Ctrl-C,
//! SIGKILL) and whatever else runs at the same time.
//!
//! **Every command that writes a folder must write it through [`OutputDir`]** (today
//! `simulate --out`, `report`, `compare --out`, `sweep`, `merge` and the `--shard K/N` runs;
//! every later one such as `ladder`, `tune` or `audit` too):
//!
//! ```no_run
//! # fn main() -> Result<(), playtest::Error> {
//! use playtest::output::atomic::OutputDir;
//! let out = OutputDir::create(std::path::Path::new("runs/x"), "playtest simulate ...")?; // lock + checks, before the long run
//! std::fs::write(out.path().join("summary.json"), "{}").unwrap(); // write everything under out.path()
//! out.commit()?; // moves the finished result into place; dropping `out` instead leaves nothing
//! # Ok(()) }
//! ```
//!
//! How:
//! - **Lock.** [`OutputDir::create`] takes `.playtest.lock` in the output folder (created if
//!   missing), a file naming the process id and the command. A second run into the folder is
//!   refused at once (a usage error, exit code 2) naming the other run; the lock of a process
//!   that no longer runs is taken over with a note.
//! - **Temporary sibling.** The files are written into `.<name>.tmp-<pid>` beside the output
//!   folder. Such folders left by a killed run are never read as results (their names start
//!   with a dot and no command lists them); the next run into the same place removes them and
//!   says so.
//! - **Preflight.** The folder, the lock and a probe file in the temporary folder are written
//!   before the long run, so a missing or read-only parent fails at once with the OS reason.
//! - **Commit.** When the folder holds only files the new result replaces, the temporary
//!   folder and the output folder are swapped in one `renameat2(RENAME_EXCHANGE)` (a rename
//!   pair where the system has no exchange) and the old result is deleted. When the folder
//!   holds other things (a sweep's subfolder inside a report, other shards, files of the
//!   designer's own), each new file is renamed into place one by one, `summary.json` last
//!   (`watch`'s `report-version.js` after it),
//!   and nothing else is touched.
//! - **Shared folders.** [`OutputDir::create_files`] writes a few files into a folder others
//!   write too (the shards of one run): the lock and the temporary folder are named after the
//!   files (`.shard-K-of-N.lock`, `.shard-K-of-N.tmp-<pid>` inside the folder) and the files
//!   are renamed in one by one, the `.json` state last, so a shard appears only complete.
//! - **Single files.** [`OutputFile`] writes one file (`trace --out FILE`, `trace --html
//!   FILE`) the same way: its folder is shared, the lock and the temporary folder are named
//!   after the file (`.<file>.lock`, `.<file>.tmp-<pid>` beside it) and the commit renames
//!   the finished file into place, so the file is the previous one or the new one, whole.
//! - **Interruption.** The lock and the temporary folder are registered with
//!   [`crate::interrupt`], which removes them when a second Ctrl-C stops the process at once.
//!   Dropping an uncommitted [`OutputDir`] removes the temporary folder, the lock and the
//!   output folder itself when this run created it and it is still empty.

use std::ffi::OsString;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use super::shown::writing;
use crate::error::Error;
use crate::interrupt;

/// The lock file of a whole output folder.
pub const LOCK: &str = ".playtest.lock";

/// The version file of a report `playtest watch` rewrites: renamed in after every other file
/// (even `summary.json`), so a page that reloads when it changes finds the new report whole.
pub const VERSION_FILE: &str = "report-version.js";

/// An output folder being written: files go under [`OutputDir::path`], and only
/// [`OutputDir::commit`] makes them the folder's result.
#[derive(Debug)]
pub struct OutputDir {
    /// The folder as the user named it (for messages).
    target: PathBuf,
    /// The folder's absolute path, symbolic links resolved (what is renamed and swapped, so a
    /// link to an output folder stays a link).
    dir: PathBuf,
    /// Where the files are written until the commit.
    work: PathBuf,
    /// The lock file.
    lock: PathBuf,
    /// Whether the work folder is a sibling that may be swapped with the target.
    sibling: bool,
    /// Whether this run created the target folder.
    created: bool,
    /// Whether this run holds the lock (a refused run must not remove the holder's lock).
    locked: bool,
    /// Registrations with [`crate::interrupt`] (lock, work folder).
    ids: Vec<u64>,
    done: bool,
}

/// The command line as typed (what a lock names).
pub fn invocation() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// The text of a lock: the holder's process id and command.
fn lock_text(command: &str) -> String {
    format!("pid {}\ncommand {}\n", std::process::id(), command)
}

/// (pid, command) of a lock's text.
fn parse_lock(text: &str) -> (Option<u32>, String) {
    let mut pid = None;
    let mut command = String::new();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("pid ") {
            pid = p.trim().parse().ok();
        } else if let Some(c) = line.strip_prefix("command ") {
            command = c.to_string();
        }
    }
    (pid, command)
}

/// Whether process `pid` runs (a zombie of a killed run does not count).
fn alive(pid: u32) -> bool {
    if pid == 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // The state follows the command name in parentheses: Z (zombie) and X (dead).
            Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()).is_some_and(|s| s != "Z" && s != "X"),
            Err(_) => false,
        }
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        // SAFETY: signal 0 only checks that the process exists; no signal is sent.
        let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// The locks this process holds (a lock naming this process is live only if listed here).
fn held() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static HELD: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

/// Releases the lock at `path`.
fn release(path: &Path) {
    let _ = std::fs::remove_file(path);
    held().retain(|p| p != path);
}

/// Takes the lock at `path` for `command`, taking over the lock of a process that no longer
/// runs (with a note on stderr); refuses (exit code 2) when a live process holds it.
fn take_lock(path: &Path, folder: &Path, command: &str) -> Result<(), Error> {
    for _ in 0..2 {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(mut f) => {
                f.write_all(lock_text(command).as_bytes()).map_err(|e| {
                    let _ = std::fs::remove_file(path);
                    Error::output(path, e)
                })?;
                held().push(path.to_path_buf());
                return Ok(());
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                let text = std::fs::read_to_string(path).unwrap_or_default();
                let (pid, other) = parse_lock(&text);
                let ours = pid == Some(std::process::id());
                let live = if ours { held().contains(&path.to_path_buf()) } else { pid.is_some_and(alive) };
                if let (true, Some(pid)) = (live, pid) {
                    return Err(Error::Usage(format!(
                        "{}: another playtest run is writing this folder (pid {pid}: {}); wait for it to end or choose another folder (its lock: {})",
                        folder.display(),
                        if other.is_empty() { "command unknown" } else { &other },
                        path.display()
                    )));
                }
                let who = pid.map_or("an unknown process".to_string(), |p| format!("pid {p}"));
                eprintln!(
                    "note: {}: took over the lock of {who} ({}), which no longer runs",
                    folder.display(),
                    if other.is_empty() { "command unknown" } else { &other }
                );
                std::fs::remove_file(path).map_err(|e| Error::output(path, e))?;
            }
            Err(e) => return Err(Error::output(path, e)),
        }
    }
    Err(Error::Usage(format!("{}: another playtest run took the lock first; wait for it to end or choose another folder", folder.display())))
}

/// Removes every `<prefix><anything>` entry of `dir` (temporary folders of killed runs), with
/// a note for each.
fn remove_stale(dir: &Path, prefixes: &[String], ours: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path == ours || !prefixes.iter().any(|p| name.starts_with(p.as_str())) {
            continue;
        }
        let removed = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        match removed {
            Ok(()) => eprintln!("note: removed {}, left by an interrupted run (never a result)", path.display()),
            Err(e) => eprintln!("note: cannot remove {}, left by an interrupted run: {e}", path.display()),
        }
    }
}

/// Swaps two paths in one step; `Ok(false)` when the system cannot.
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let ca = std::ffi::CString::new(a.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
        let cb = std::ffi::CString::new(b.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
        // SAFETY: two valid NUL-terminated paths; renameat2 reads them only.
        let r = unsafe { libc::syscall(libc::SYS_renameat2, libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) };
        if r == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::ENOSYS) | Some(libc::EINVAL) | Some(libc::ENOTSUP) => Ok(false),
            _ => Err(e),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        Ok(false)
    }
}

/// The file names of `dir`, in commit order: data and charts first, then `.json` files,
/// `summary.json`, and [`VERSION_FILE`] last.
fn commit_order(dir: &Path) -> Result<Vec<OsString>, Error> {
    let mut names: Vec<OsString> = std::fs::read_dir(dir).map_err(|e| Error::output(dir, e))?.flatten().map(|e| e.file_name()).collect();
    names.retain(|n| n != LOCK);
    let rank = |n: &OsString| {
        let s = n.to_string_lossy();
        if s == VERSION_FILE {
            3
        } else if s == "summary.json" {
            2
        } else if s.ends_with(".json") {
            1
        } else {
            0
        }
    };
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    Ok(names)
}

impl OutputDir {
    /// Starts writing the whole folder `target` for `command` (the command line, named in the
    /// lock): creates it if missing, takes its lock, removes temporary folders of killed runs
    /// and checks that the temporary sibling can be written. Call before the long run.
    pub fn create(target: &Path, command: &str) -> Result<OutputDir, Error> {
        Self::start(target, None, command)
    }

    /// Starts writing some files (`key` names them, e.g. `shard-3-of-8`) into the folder
    /// `target`, which other runs may write at the same time: the lock and the temporary folder
    /// are `.<key>.lock` and `.<key>.tmp-<pid>` inside it, and the commit renames the files in
    /// one by one, `.json` files last.
    pub fn create_files(target: &Path, key: &str, command: &str) -> Result<OutputDir, Error> {
        Self::start(target, Some(key), command)
    }

    fn start(target: &Path, key: Option<&str>, command: &str) -> Result<OutputDir, Error> {
        let target = if target.as_os_str().is_empty() { Path::new(".") } else { target };
        if target.exists() && !target.is_dir() {
            return Err(Error::output(target, "it is a file, not a folder; choose a folder"));
        }
        let created = !target.exists();
        std::fs::create_dir_all(target).map_err(|e| Error::output(target, e))?;
        let abs = match std::fs::canonicalize(target) {
            Ok(abs) => abs,
            Err(e) => {
                if created {
                    let _ = std::fs::remove_dir(target);
                }
                return Err(Error::output(target, e));
            }
        };
        let mut out = OutputDir {
            target: target.to_path_buf(),
            dir: abs.clone(),
            work: PathBuf::new(),
            lock: abs.join(key.map_or(LOCK.to_string(), |k| format!(".{k}.lock"))),
            sibling: false,
            created,
            locked: false,
            ids: Vec::new(),
            done: false,
        };
        // From here on, dropping `out` undoes what was done.
        take_lock(&out.lock, target, command)?;
        out.locked = true;
        out.ids.push(interrupt::register(out.lock.clone()));
        let pid = std::process::id();
        // The sibling is found from the absolute path, so `--out .` or `--out runs/` work; a
        // folder holding the working directory is never swapped (the shell would be left in
        // a deleted folder): its files are renamed in one by one instead.
        let cwd_inside = std::env::current_dir().is_ok_and(|c| c.starts_with(&abs));
        let (work, stale_dir, prefixes) = match (key, abs.parent(), abs.file_name()) {
            (None, Some(parent), Some(name)) if !cwd_inside => {
                let name = name.to_string_lossy();
                out.sibling = true;
                (parent.join(format!(".{name}.tmp-{pid}")), parent.to_path_buf(), vec![format!(".{name}.tmp-"), format!(".{name}.old-")])
            }
            _ => {
                let stem = key.unwrap_or("playtest");
                (abs.join(format!(".{stem}.tmp-{pid}")), abs.clone(), vec![format!(".{stem}.tmp-")])
            }
        };
        // Holding the lock, every temporary folder of this output is a killed run's.
        remove_stale(&stale_dir, &prefixes, &work);
        if key.is_none() {
            remove_stale(&abs, &[".playtest.tmp-".to_string()], &work);
        }
        let _ = std::fs::remove_dir_all(&work);
        if let Err(e) = std::fs::create_dir(&work) {
            if !out.sibling || e.kind() != ErrorKind::PermissionDenied {
                return Err(Error::output(&work, e));
            }
            // A read-only parent of a writable folder: work inside the folder instead.
            out.sibling = false;
            let inside = abs.join(format!(".playtest.tmp-{pid}"));
            remove_stale(&abs, &[".playtest.tmp-".to_string()], &inside);
            std::fs::create_dir(&inside).map_err(|e| Error::output(&inside, e))?;
            out.work = inside;
        } else {
            out.work = work;
        }
        out.ids.push(interrupt::register(out.work.clone()));
        writing().push((out.work.clone(), out.target.clone()));
        let probe = out.work.join(".probe");
        std::fs::write(&probe, b"playtest checks that it can write here\n").map_err(|e| Error::output(&probe, e))?;
        std::fs::remove_file(&probe).map_err(|e| Error::output(&probe, e))?;
        Ok(out)
    }

    /// The folder to write the files into (a temporary folder until the commit).
    pub fn path(&self) -> &Path {
        &self.work
    }

    /// The output folder as named by the user (where the result will be).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Makes the written files the folder's result and releases the lock.
    pub fn commit(mut self) -> Result<(), Error> {
        self.forget();
        let names = commit_order(&self.work)?;
        let swap = self.sibling && self.only_replaced_files(&names)?;
        if swap {
            self.swap_in()?;
        } else {
            self.rename_in(&names)?;
        }
        let _ = std::fs::remove_dir_all(&self.work);
        release(&self.lock);
        for id in self.ids.drain(..) {
            interrupt::unregister(id);
        }
        self.done = true;
        Ok(())
    }

    /// Stops naming the work folder's files by the target's (see [`super::shown::shown_path`]).
    fn forget(&self) {
        writing().retain(|(w, _)| w != &self.work);
    }

    /// Whether every entry of the target (but the lock) is a file the new result replaces.
    fn only_replaced_files(&self, names: &[OsString]) -> Result<bool, Error> {
        for entry in std::fs::read_dir(&self.dir).map_err(|e| Error::output(&self.target, e))?.flatten() {
            let name = entry.file_name();
            if name == LOCK {
                continue;
            }
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if !is_file || !names.contains(&name) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Swaps the work folder (with a copy of the lock) and the target; deletes the old result.
    fn swap_in(&mut self) -> Result<(), Error> {
        let lock_copy = self.work.join(LOCK);
        let text = std::fs::read(&self.lock).map_err(|e| Error::output(&self.lock, e))?;
        std::fs::write(&lock_copy, text).map_err(|e| Error::output(&lock_copy, e))?;
        let swapped = interrupt::critical(|| exchange(&self.work, &self.dir)).map_err(|e| Error::output(&self.target, e))?;
        if !swapped {
            // No exchange on this system: move the old result aside, the new one in.
            let abs = self.dir.clone();
            let name = abs.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let old = abs.with_file_name(format!(".{name}.old-{}", std::process::id()));
            interrupt::critical(|| -> Result<(), Error> {
                std::fs::rename(&abs, &old).map_err(|e| Error::output(&self.target, e))?;
                if let Err(e) = std::fs::rename(&self.work, &abs) {
                    let _ = std::fs::rename(&old, &abs);
                    return Err(Error::output(&self.target, e));
                }
                Ok(())
            })?;
            // The old result is deleted below as the work folder.
            self.work = old;
        }
        Ok(())
    }

    /// Renames each written file into the target, `.json` files last and `summary.json` at the
    /// very end.
    fn rename_in(&self, names: &[OsString]) -> Result<(), Error> {
        interrupt::critical(|| {
            for name in names {
                let to = self.dir.join(name);
                std::fs::rename(self.work.join(name), &to).map_err(|e| Error::output(&to, e))?;
            }
            Ok(())
        })
    }
}

/// One output file being written: write it whole at [`OutputFile::path`], then
/// [`OutputFile::commit`] renames it into place; dropping it instead leaves the previous file
/// (or none) untouched. Built on [`OutputDir::create_files`] (module doc).
#[derive(Debug)]
pub struct OutputFile {
    /// The folder's lock and temporary folder.
    dir: OutputDir,
    /// Where the file is written until the commit.
    work: PathBuf,
}

impl OutputFile {
    /// Starts writing `file` for `command` (the command line, named in the lock): creates its
    /// folder if missing, takes the file's lock and checks that the folder can be written.
    /// Call before the long run. A `file` that is a folder, or names none, is a usage error.
    pub fn create(file: &Path, command: &str) -> Result<OutputFile, Error> {
        let Some(name) = file.file_name().filter(|_| !file.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR)) else {
            return Err(Error::output(file, "not a file name; name the file to write, e.g. trace.jsonl.gz"));
        };
        if file.is_dir() {
            return Err(Error::output(file, "it is a folder, not a file; name the file to write"));
        }
        let folder = file.parent().unwrap_or(Path::new(""));
        let dir = OutputDir::create_files(folder, &name.to_string_lossy(), command)?;
        let work = dir.path().join(name);
        Ok(OutputFile { dir, work })
    }

    /// Where to write the file (in a temporary folder until the commit; errors about it name
    /// the file as the user named it).
    pub fn path(&self) -> &Path {
        &self.work
    }

    /// Makes the written file the result (one rename) and releases the lock.
    pub fn commit(self) -> Result<(), Error> {
        self.dir.commit()
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.forget();
        if !self.work.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.work);
        }
        if self.locked {
            release(&self.lock);
        }
        if self.created {
            // Only removes the folder when it is still empty.
            let _ = std::fs::remove_dir(&self.dir);
        }
        for id in self.ids.drain(..) {
            interrupt::unregister(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("playtest-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_committed_folder_replaces_the_old_one_and_a_dropped_one_leaves_it() {
        let root = scratch("swap");
        let target = root.join("out");
        let out = OutputDir::create(&target, "test one").unwrap();
        std::fs::write(out.path().join("summary.json"), "1").unwrap();
        std::fs::write(out.path().join("games.csv"), "a").unwrap();
        out.commit().unwrap();
        assert_eq!(listing(&target), ["games.csv", "summary.json"]);
        let out = OutputDir::create(&target, "test two").unwrap();
        assert!(target.join(LOCK).exists());
        std::fs::write(out.path().join("summary.json"), "2").unwrap();
        drop(out);
        assert_eq!(listing(&target), ["games.csv", "summary.json"]);
        assert_eq!(std::fs::read_to_string(target.join("summary.json")).unwrap(), "1");
        assert_eq!(listing(&root), ["out"], "no temporary folder left");
        let out = OutputDir::create(&target, "test three").unwrap();
        std::fs::write(out.path().join("summary.json"), "3").unwrap();
        std::fs::write(out.path().join("games.csv"), "c").unwrap();
        std::fs::write(out.path().join("chart.png"), "p").unwrap();
        out.commit().unwrap();
        assert_eq!(listing(&target), ["chart.png", "games.csv", "summary.json"]);
        assert_eq!(std::fs::read_to_string(target.join("summary.json")).unwrap(), "3");
        assert_eq!(listing(&root), ["out"]);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn other_things_in_the_folder_are_kept_and_files_renamed_in() {
        let root = scratch("keep");
        let target = root.join("out");
        std::fs::create_dir_all(target.join("sweep-bank")).unwrap();
        std::fs::write(target.join("notes.txt"), "mine").unwrap();
        let out = OutputDir::create(&target, "t").unwrap();
        std::fs::write(out.path().join("summary.json"), "1").unwrap();
        out.commit().unwrap();
        assert_eq!(listing(&target), ["notes.txt", "summary.json", "sweep-bank"]);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_live_lock_refuses_and_a_dead_one_is_taken_over() {
        let root = scratch("lock");
        let target = root.join("out");
        let first = OutputDir::create(&target, "first run").unwrap();
        let e = OutputDir::create(&target, "second run").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("first run"), "{e}");
        assert!(target.join(LOCK).exists(), "a refused run leaves the holder's lock");
        assert!(OutputDir::create(&target, "third run").is_err());
        drop(first);
        // A lock naming a process that does not exist, and its temporary folder.
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join(LOCK), "pid 4194999\ncommand gone\n").unwrap();
        std::fs::create_dir_all(root.join(".out.tmp-4194999")).unwrap();
        let out = OutputDir::create(&target, "third").unwrap();
        assert!(!root.join(".out.tmp-4194999").exists());
        drop(out);
        assert!(listing(&target).is_empty(), "the lock is released");
        std::fs::remove_dir(&target).unwrap();
        drop(OutputDir::create(&target, "fourth").unwrap());
        assert!(!target.exists(), "a folder this run created and left empty is removed");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_the_folder_stays_a_link() {
        let root = scratch("link");
        let real = root.join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::fs::write(real.join("summary.json"), "old").unwrap();
        let link = root.join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let out = OutputDir::create(&link, "t").unwrap();
        std::fs::write(out.path().join("summary.json"), "new").unwrap();
        out.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(real.join("summary.json")).unwrap(), "new");
        assert_eq!(listing(&root), ["link", "real"]);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_single_file_is_the_old_one_or_the_new_one_whole() {
        let root = scratch("file");
        let file = root.join("t.jsonl.gz");
        std::fs::write(root.join("mine.txt"), "mine").unwrap();
        let out = OutputFile::create(&file, "one").unwrap();
        std::fs::write(out.path(), "1").unwrap();
        assert!(!file.exists(), "not there before the commit");
        out.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "1");
        let out = OutputFile::create(&file, "two").unwrap();
        std::fs::write(out.path(), "2 but cut").unwrap();
        drop(out);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "1", "a dropped file leaves the old one");
        assert_eq!(listing(&root), ["mine.txt", "t.jsonl.gz"], "no lock or temporary folder left");
        let e = OutputFile::create(&root, "three").unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        // A missing folder is created.
        let deep = root.join("new/t.jsonl");
        let out = OutputFile::create(&deep, "four").unwrap();
        std::fs::write(out.path(), "4").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&deep).unwrap(), "4");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn shared_folders_get_files_one_by_one_and_keep_the_others() {
        let root = scratch("files");
        let a = OutputDir::create_files(&root, "shard-0-of-2", "a").unwrap();
        let b = OutputDir::create_files(&root, "shard-1-of-2", "b").unwrap();
        std::fs::write(a.path().join("shard-0-of-2.json"), "0").unwrap();
        std::fs::write(b.path().join("shard-1-of-2.json"), "1").unwrap();
        a.commit().unwrap();
        drop(b);
        assert_eq!(listing(&root), ["shard-0-of-2.json"]);
        let _ = std::fs::remove_dir_all(&root);
    }
}
