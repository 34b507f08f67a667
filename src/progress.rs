//! The progress bar of long runs: games done, rate and ETA on stderr, drawn with `indicatif`
//! only when stderr is a terminal, the command is not quiet (`--json`, `--quiet`) and not in
//! CI (`CI=true`), and only once a run has lasted a second (short runs print nothing).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run must last before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A progress bar over games; cheap and silent when it may not be shown.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    shown: bool,
}

/// Whether a bar may be drawn: stderr is a terminal, not `quiet`, and `CI` is not `true`.
pub fn allowed(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal() && std::env::var("CI").map_or(true, |v| v != "true")
}

impl Progress {
    /// A bar over `total` games (hidden for good unless [`allowed`]).
    pub fn new(total: u64, quiet: bool) -> Progress {
        let bar = allowed(quiet).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
            if let Ok(style) = ProgressStyle::with_template("{wide_bar} {human_pos}/{human_len} games  {rate}  ETA {eta}  {msg}") {
                bar.set_style(style.with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} games/s", s.per_sec());
                }));
            }
            bar
        });
        Progress { bar, started: Instant::now(), shown: false }
    }

    /// A bar that never draws.
    pub fn hidden() -> Progress {
        Progress { bar: None, started: Instant::now(), shown: false }
    }

    /// Changes the number of games the bar runs to (adaptive runs grow it).
    pub fn set_total(&mut self, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
    }

    /// Shows a short note after the numbers (e.g. which values of a sweep run).
    pub fn set_message(&mut self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// Records `done` games; draws once the run has lasted `DELAY`.
    pub fn update(&mut self, done: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(done);
        if !self.shown && self.started.elapsed() >= DELAY {
            self.shown = true;
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
