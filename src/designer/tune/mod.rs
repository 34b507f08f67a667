//! `playtest tune VARIANT --param KEY=LO..HI[:STEP] ...`: finds values of the given keys for
//! which every `[expect]` bound of the variant holds, judged exactly as `playtest check`
//! judges it (a bound fails only when its whole 95% interval lies outside), preferring the
//! fewest keys changed, then the smallest relative change from the variant as written. When no
//! candidate holds, it names the one closest to holding: the smallest sum of distances to the
//! bounds in CI units.
//!
//! The keys and ranges may also be written in the variant, in a `[tune]` table (used when no
//! `--param` is given):
//!
//! ```toml
//! [tune]
//! payout.3.withdrawal = "4..12:2"
//! "payout.wild.withdrawal" = "1..5"
//! ```
//!
//! Method: racing the grid of every combination of the keys' values by successive halving on
//! common random numbers. Every candidate plays the same games (the same master seed, so game
//! i is dealt alike everywhere), 2,048 games each in the first round, doubling every round.
//! After each round a candidate is dropped when
//! - a bound clearly fails for it (the whole 95% CI outside, as `check` judges);
//! - a candidate preferred to it (fewer keys changed, or the same number and a smaller change)
//!   clearly holds every bound (whole CIs inside; a zero-width bound such as `cap_share = [0, 0]`
//!   met exactly): it can no longer be the answer;
//! - a candidate preferred to it (or equal) is clearly better on the bounds, by a paired
//!   comparison: the batch-means 95% interval of the difference of every bounded metric,
//!   which common random numbers make narrow, puts it farther outside at least one bound and
//!   no closer to any other, or it played exactly the same games (the tuned key made no
//!   difference there) (from 10 batches on);
//! - or, when no candidate is left that holds every bound, it is in the worse half by distance
//!   to the bounds (successive halving towards the closest).
//!
//! The race ends when one candidate is left or the next round would pass `--budget`. The
//! winner then plays a confirmation run with its own seed (with the invariant checks on, as
//! `check` plays), so the figures reported for it are not those it was selected on. Everything
//! is deterministic for a seed at any thread count: jobs are (candidate, batch) pairs folded
//! in order.
//!
//! The output folder holds the tuned variant (`tuned.toml`: `extends` the original and sets
//! only the changed keys), every candidate with every metric and its CI (`candidates.csv`,
//! the best in `candidates.md`), the race round by round (`search.csv`, `search.png`,
//! `survivors.png`), the confirmation (`confirm.md`) and `tune.json`.
//!
//! Files: `grid.rs` (the keys, the candidates, the preference order), `decide.rs` (the
//! race's decisions as pure functions), `race.rs` (the measuring part: races, confirms and
//! returns a [`TuneResult`], defined in `result.rs`), and the writers over `&TuneResult`:
//! `text.rs` (terminal, `candidates.md`, `confirm.md`), `variant_file.rs` (`tuned.toml`),
//! `csv.rs` (`candidates.csv`, `search.csv`) and `charts.rs`; this file runs one after the
//! other and does the file I/O.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games;
use crate::output::atomic::OutputDir;
use crate::sim::BATCH;
use crate::variant::Variant;

use super::{RunOptions, write_file};

mod charts;
mod csv;
mod decide;
mod grid;
mod race;
mod result;
mod text;
mod variant_file;

pub use decide::{MovedBy, Paired, at_precision, distance, dominated, moved_by, overhang, paired, settled};
pub use grid::{Candidate, Knob, grid, knobs, lookup, tune_table};
pub use result::{BoundResult, CandidateResult, Confirmation, MetricValue, Round, TuneResult};
pub use text::text;

/// Games every candidate plays in the first round (4 batches); each round doubles it.
pub const FIRST_ROUND: u64 = 4 * BATCH;

/// Most candidates a grid may have.
pub const MAX_CANDIDATES: usize = 1_000;

/// Default `--budget`: most games the race may spend (the confirmation run is extra).
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// What `tune` was asked.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The variant.
    pub variant: PathBuf,
    /// `KEY=LO..HI[:STEP]` or `KEY=a,b,c` (default: the variant's `[tune]` table).
    pub params: Vec<String>,
    /// Bots (override the variant's).
    pub bots: Option<String>,
    /// Overrides applied before the tuned keys (part of "the variant as written").
    pub sets: Vec<String>,
    /// Most games the race may spend.
    pub budget: u64,
    /// Games of the confirmation run (at least the winner's race games), seed, threads, quiet.
    pub run: RunOptions,
    /// Output folder (default `reports/<game>/<variant>/tune-<keys>/`).
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the tables.
    pub json: bool,
}

/// Runs `tune`: races and confirms (module `race`), then writes the folder and prints (`write`).
pub fn main(o: &TuneOptions) -> Result<TuneResult, Error> {
    let base = Variant::load(&o.variant, &o.sets)?;
    let params = if o.params.is_empty() { tune_table(&base)? } else { o.params.clone() };
    let knobs = knobs(&base, &params)?;
    let dir = o.out.clone().unwrap_or_else(|| {
        let keys: Vec<String> = knobs.iter().map(|k| k.key.replace('.', "_")).collect();
        Path::new("reports").join(&base.game).join(&base.name).join(format!("tune-{}", keys.join("-")))
    });
    // Before the long run: the folder's lock and a writable temporary folder.
    let out = super::interrupted::open_out(&dir)?;
    let target = std::fs::canonicalize(&dir).map_err(|e| Error::output(&dir, e))?;
    let game = games::handle(&base)?;
    let mut result = race::tune(&*game, &race::Tune { o, knobs: &knobs, base: &base })?;
    // The confirmation's command names the real folder.
    result.confirmation.command = result.confirmation.command.replace("<out>", &crate::output::shown::tidy(&dir).display().to_string());
    if crate::interrupt::requested() {
        drop(out);
        return Err(Error::Interrupted(format!("interrupted: nothing written, {} is left as it was", dir.display())));
    }
    write(o, &base, &mut result, out, (&dir, &target))?;
    Ok(result)
}

/// Writes the folder (`out`, committed to `dir`; `target` is `dir` made absolute) and prints
/// the result; records the tuned file's path in `r`.
fn write(o: &TuneOptions, base: &Variant, r: &mut TuneResult, out: OutputDir, (dir, target): (&Path, &Path)) -> Result<(), Error> {
    let tuned = variant_file::tuned_toml(o, base, r, target)?;
    write_file(&out.path().join("tuned.toml"), &tuned)?;
    r.tuned_file = Some(dir.join("tuned.toml").display().to_string());
    write_outputs(r, out.path())?;
    if o.json {
        crate::output::print_json(&*r)?;
    } else {
        print!("{}", text(r));
        let keys: Vec<String> = r.knobs.iter().map(|k| k.key.clone()).collect();
        for note in super::bot_keys::notes(&base.game, &super::bot_keys::lineup_labels(base, o.bots.as_deref()), &keys) {
            println!("note: {note}");
        }
    }
    out.commit()?;
    // The committed file loads as the variant it describes (its `extends` resolves).
    let check = Variant::load(&dir.join("tuned.toml"), &[])?;
    if check.game != base.game {
        return Err(Error::Usage(format!("{}: the tuned variant does not load as {}", dir.join("tuned.toml").display(), base.game)));
    }
    if !o.json {
        println!(
            "wrote tuned.toml, candidates.csv, candidates.md, search.csv, search.png, survivors.png, confirm.md and tune.json into {}",
            crate::output::shown::tidy(dir).display()
        );
    }
    Ok(())
}

/// Writes every file of the folder but `tuned.toml` into `dir`: `tune.json`, the CSVs, the
/// Markdown pages and the charts.
fn write_outputs(r: &TuneResult, dir: &Path) -> Result<(), Error> {
    crate::output::write_json(&dir.join("tune.json"), r)?;
    write_file(&dir.join("candidates.csv"), &csv::candidates(r))?;
    write_file(&dir.join("candidates.md"), &text::candidates_md(r))?;
    write_file(&dir.join("search.csv"), &csv::search(r))?;
    write_file(&dir.join("confirm.md"), &text::confirm_md(r))?;
    for chart in charts::charts(r) {
        crate::report::charts::render(&chart, dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::designer::precision::PrecisionArgs;

    fn scratch(name: &str, expect: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("playtest-tune-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let standard = std::fs::canonicalize("variants/pig-farm/standard.toml").unwrap();
        let text = format!("extends = {:?}\nname = \"t\"\n[expect]\n{expect}\n[tune]\nscoring.seller.3 = \"0..30:15\"\n", standard.display().to_string());
        std::fs::write(d.join("v.toml"), text).unwrap();
        d
    }

    fn options(d: &Path, threads: usize, out: &str) -> TuneOptions {
        TuneOptions {
            variant: d.join("v.toml"),
            params: Vec::new(),
            bots: None,
            sets: Vec::new(),
            budget: 24_000,
            run: RunOptions { games: 2_048, seed: 5, threads, checked: false, quiet: true, rotate: false },
            out: Some(d.join(out)),
            json: true,
        }
    }

    #[test]
    fn tune_finds_the_smallest_change_deterministically_and_its_file_passes_check() {
        // Pig Farm's seat 0 wins about 3.4 points over the fair share; selling 3 sets for 0
        // points instead of 30 removes it (about 0 points; 15 points leaves about 1.6).
        let d = scratch("found", "first_player_advantage = [-0.012, 0.012]");
        let one = main(&options(&d, 1, "a")).unwrap();
        let two = main(&options(&d, 2, "b")).unwrap();
        let (mut j1, mut j2) = (serde_json::to_value(&one).unwrap(), serde_json::to_value(&two).unwrap());
        // The runs write into two folders: the paths differ, the numbers must not.
        for j in [&mut j1, &mut j2] {
            j["tuned_file"] = serde_json::Value::Null;
            j["confirmation"]["command"] = serde_json::Value::Null;
        }
        assert_eq!(j1, j2, "same numbers on 1 and 2 threads");
        assert!(one.found);
        assert_eq!(one.changes, vec!["scoring.seller.3=0".to_string()]);
        assert!(one.confirmation.passes);
        assert!(one.spent < one.full_grid_games || one.rounds.len() == 1, "{} vs {}", one.spent, one.full_grid_games);
        let tuned = std::fs::read_to_string(d.join("a/tuned.toml")).unwrap();
        assert!(tuned.contains("extends = \"../v.toml\""), "{tuned}");
        assert!(tuned.contains("scoring.seller.3 = 0"), "{tuned}");
        for f in ["candidates.csv", "candidates.md", "search.csv", "search.png", "survivors.png", "confirm.md", "tune.json"] {
            assert!(d.join("a").join(f).exists(), "{f}");
        }
        let check = super::super::check::CheckOptions {
            variants: vec![d.join("a/tuned.toml")],
            bots: None,
            sets: Vec::new(),
            run: RunOptions { games: 2_048, seed: 9, threads: 0, checked: true, quiet: true, rotate: false },
            precision: PrecisionArgs::default(),
            strict: false,
            traces: None,
        };
        super::super::check::main(&check).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn when_nothing_holds_tune_names_the_closest_plainly() {
        let d = scratch("none", "mean_length = [100, 200]");
        let r = main(&options(&d, 0, "a")).unwrap();
        assert!(!r.found);
        assert!(text(&r).contains("NOTHING in the grid holds every [expect] bound. Closest to holding:"));
        assert!(std::fs::read_to_string(d.join("a/tuned.toml")).unwrap().contains("NOTHING in the grid meets every [expect] bound"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn tune_races_an_undecided_pick_on_and_a_refuted_confirmation_holds_nothing() {
        // Pig Farm's seat 0 wins about 3.4 points over the fair share: on 2,048 games a bound
        // at +2.5 points is undecided, so the race goes on past its first round (one
        // candidate left); --budget stops it still undecided, and the confirmation on 16,384
        // fresh games puts the whole CI above the bound.
        let d = scratch("refuted", "first_player_advantage = [-0.01, 0.025]");
        let mut o = options(&d, 0, "a");
        o.params = vec!["scoring.seller.3=30".into()];
        o.budget = 6_144;
        o.run.games = 16_384;
        let r = main(&o).unwrap();
        eprintln!("{}", text(&r));
        assert_eq!(r.rounds.len(), 2, "raced on while undecided: {:?}", r.rounds);
        assert!(r.budget_reached && r.race_holds && !r.confirmation.passes);
        assert!(!r.found, "a pick its confirmation refutes is not found");
        let t = text(&r);
        assert!(t.contains("NOTHING in the grid holds every [expect] bound: the race's pick scoring.seller.3=30 held on the race's games, but the confirmation on a fresh seed fails first_player_advantage. Closest to holding: scoring.seller.3=30"), "{t}");
        assert!(!t.contains("Found:") && !t.contains("no change needed"), "{t}");
        let tuned = std::fs::read_to_string(d.join("a/tuned.toml")).unwrap();
        assert!(!tuned.contains("holds") && !tuned.contains("confirmed"), "{tuned}");
        assert!(tuned.contains("NOTHING in the grid meets every [expect] bound"), "{tuned}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
