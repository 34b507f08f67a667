//! Ctrl-C (SIGINT) and SIGTERM during a long run: the first asks the run to stop at the next
//! batch boundary ([`requested`] turns true; the simulator and the designer's pool look at it
//! between batches, so every number of the games played is the number a shorter run gives);
//! the second stops the process at once with exit code 130, after removing the temporary
//! folders and locks of the outputs being written (registered with [`register`]), so the
//! previous result stays intact.
//!
//! Only commands that look at [`requested`] call [`install`]; every other command keeps the
//! default action (the first Ctrl-C ends it).

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of an interrupted run (128 + SIGINT, what shells report).
pub const EXIT_CODE: i32 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Paths to remove if the process is stopped at once: temporary folders (removed whole) and
/// lock files, by registration id.
static CLEANUP: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Whether a stop was asked for (a first Ctrl-C or SIGTERM).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Installs the handler of SIGINT and SIGTERM (once per process; later calls do nothing).
/// A failure to install is not fatal: the signals then keep their default action.
pub fn install() {
    install_saying("stopping at the next batch of games (press Ctrl-C again to stop at once)");
}

/// [`install`], with the message the first Ctrl-C prints (what the command does when asked
/// to stop, e.g. `play` ends the game and keeps its trace).
pub fn install_saying(first: &'static str) {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        // The handler runs on its own thread (signal-hook's iterator), so it may print,
        // remove files and exit, which a signal handler proper may not.
        let spawned = std::thread::Builder::new().name("playtest-signals".into()).spawn(move || {
            for _ in signals.forever() {
                if REQUESTED.swap(true, Ordering::SeqCst) {
                    eprintln!("\nstopped at once; the previous result is left as it was");
                    clean_up();
                    std::process::exit(EXIT_CODE);
                }
                eprintln!("\n{first}");
            }
        });
        drop(spawned);
    }
}

/// Registers `path` (a temporary folder or a lock file) to be removed if the process is
/// stopped at once; returns the id to [`unregister`] it with.
pub fn register(path: PathBuf) -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut list) = CLEANUP.lock() {
        list.push((id, path));
    }
    id
}

/// Forgets a path given to [`register`].
pub fn unregister(id: u64) {
    if let Ok(mut list) = CLEANUP.lock() {
        list.retain(|(i, _)| *i != id);
    }
}

/// Runs `f` while no immediate stop can clean up (a commit: renames that must not be mixed
/// with the removal of the paths they move).
pub fn critical<T>(f: impl FnOnce() -> T) -> T {
    let _guard = CLEANUP.lock();
    f()
}

fn clean_up() {
    let list = match CLEANUP.lock() {
        Ok(list) => list,
        Err(poisoned) => poisoned.into_inner(),
    };
    // Latest first: a lock is registered before its folder's temporary files.
    for (_, path) in list.iter().rev() {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(path);
        } else {
            let _ = std::fs::remove_file(path);
        }
    }
}
