//! How a long run ends when a Ctrl-C stops it (see [`crate::interrupt`]), written once for
//! every command that writes a folder (`simulate`, `report`, `scale`, `compare`, `sweep`,
//! `tune`): the folder is opened before the run ([`open_out`]), the run says whether it was
//! stopped ([`partial`]), and [`stopped`] either leaves the previous result as it was or, with
//! `--keep-partial`, commits what was played, marked partial.

use std::path::Path;

use crate::error::Error;
use crate::output::Partial;
use crate::output::atomic::OutputDir;

/// Starts writing the output folder `dir` (lock, temporary folder, checks) before a long run,
/// with Ctrl-C handled, so a bad path fails before any game is played.
pub fn open_out(dir: &Path) -> Result<OutputDir, Error> {
    crate::interrupt::install();
    OutputDir::create(dir, &crate::output::atomic::invocation())
}

/// The partial marker of a run a Ctrl-C stopped after `played` of `asked` games (`None` when
/// it was not interrupted).
pub fn partial(played: u64, asked: Option<u64>) -> Option<Partial> {
    crate::interrupt::requested().then_some(Partial { played, asked })
}

/// Ends a run a Ctrl-C stopped before its first game finished: there is no figure to show,
/// so nothing is printed or written (`--keep-partial` included) and `out`'s previous result
/// stays as it was. Returns the error that exits with code 130.
pub fn stopped_before_any_game(out: Option<OutputDir>) -> Error {
    let kept = out.map(|o| format!("; {} is left as it was", o.target().display())).unwrap_or_default();
    Error::Interrupted(format!("interrupted before any game finished: no figure to show, nothing written{kept}"))
}

/// Ends a run a Ctrl-C stopped after `played` (what the message says was played: `"300
/// games"`, `"300 of 900 games"`, `"300 games each"`): with `keep` (`--keep-partial`) commits
/// `out` (the caller has written it complete and marked partial), else leaves the previous
/// result as it was; without a folder the partial result was only printed. Returns the error
/// that exits with code 130 (or the commit's error).
pub fn stopped(out: Option<OutputDir>, keep: bool, played: &str) -> Error {
    let Some(out) = out else {
        return Error::Interrupted(format!("interrupted after {played} (partial result above)"));
    };
    let target = out.target().display().to_string();
    if !keep {
        drop(out);
        return Error::Interrupted(format!("interrupted after {played}: nothing written, {target} is left as it was (--keep-partial writes what was played)"));
    }
    match out.commit() {
        Ok(()) => Error::Interrupted(format!("interrupted after {played}: wrote the partial result (marked partial) into {target}")),
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("playtest-interrupted-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_stopped_run_keeps_the_previous_result_unless_asked_to_keep_the_partial_one() {
        let d = scratch("keep");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("old.txt"), "previous").unwrap();
        // Not kept: the temporary folder goes, the previous file stays.
        let out = open_out(&d).unwrap();
        std::fs::write(out.path().join("new.txt"), "partial").unwrap();
        let e = stopped(Some(out), false, "3 of 9 games");
        assert_eq!(
            e.to_string(),
            format!("interrupted after 3 of 9 games: nothing written, {} is left as it was (--keep-partial writes what was played)", d.display())
        );
        assert!(d.join("old.txt").exists() && !d.join("new.txt").exists());
        // Kept: the folder becomes what the stopped run wrote.
        let out = open_out(&d).unwrap();
        std::fs::write(out.path().join("new.txt"), "partial").unwrap();
        let e = stopped(Some(out), true, "3 games each");
        assert_eq!(e.to_string(), format!("interrupted after 3 games each: wrote the partial result (marked partial) into {}", d.display()));
        assert_eq!(std::fs::read_to_string(d.join("new.txt")).unwrap(), "partial");
        assert!(matches!(stopped(None, true, "3 games"), Error::Interrupted(m) if m == "interrupted after 3 games (partial result above)"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
