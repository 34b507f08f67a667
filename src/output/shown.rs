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

/// `path` as a message names it: without `.` components, doubled or trailing separators
/// (`./runs//x/` is `runs/x`; `.` alone stays `.`).
pub fn tidy(path: &Path) -> PathBuf {
    let tidy: PathBuf = path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    if tidy.as_os_str().is_empty() { PathBuf::from(".") } else { tidy }
}

/// The path a user knows for `path`: a file in the temporary folder of an output being
/// written is named by its place in the output folder (`runs/x/games.csv`, not
/// `runs/.x.tmp-42/games.csv`); `None` for any other path.
pub fn shown_path(path: &Path) -> Option<PathBuf> {
    writing().iter().find_map(|(work, target)| path.strip_prefix(work).ok().map(|rest| target.join(rest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_in_a_message_has_no_dot_or_doubled_separators() {
        assert_eq!(tidy(Path::new("./runs//x/")), PathBuf::from("runs/x"));
        assert_eq!(tidy(Path::new("runs/./x/../y")), PathBuf::from("runs/x/../y"));
        assert_eq!(tidy(Path::new("./")), PathBuf::from("."));
        assert_eq!(tidy(Path::new("/tmp//a/")), PathBuf::from("/tmp/a"));
        assert_eq!(tidy(&tidy(Path::new("x/")).join("ladder.json")).display().to_string(), "x/ladder.json");
    }
}
