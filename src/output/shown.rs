//! The outputs being written now, and the name a user knows for a file inside one of them.
//! Kept apart from [`super::atomic`] (which registers each output here while it writes) so
//! that the library's errors ([`crate::error::Error::output`]) can name a file by its place
//! in the output folder without depending on the writer.

use std::path::{Path, PathBuf};

/// (temporary folder, output folder as named) of every output being written.
pub(crate) fn writing() -> std::sync::MutexGuard<'static, Vec<(PathBuf, PathBuf)>> {
    static WRITING: std::sync::Mutex<Vec<(PathBuf, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    WRITING.lock().unwrap_or_else(|p| p.into_inner())
}

/// The path a user knows for `path`: a file in the temporary folder of an output being
/// written is named by its place in the output folder (`runs/x/games.csv`, not
/// `runs/.x.tmp-42/games.csv`); `None` for any other path.
pub fn shown_path(path: &Path) -> Option<PathBuf> {
    writing().iter().find_map(|(work, target)| path.strip_prefix(work).ok().map(|rest| target.join(rest)))
}
