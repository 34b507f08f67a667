//! The flags of `playtest tune`; the command itself lives in `crate::designer::tune`.

use super::*;

#[derive(Args, Debug)]
pub(super) struct TuneArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    /// A key and its values: KEY=LO..HI[:STEP] (HI included) or KEY=a,b,c; repeat for a grid
    /// (default: the variant's [tune] table).
    #[arg(long = "param", value_name = "KEY=LO..HI[:STEP]", allow_hyphen_values = true)]
    pub(super) params: Vec<String>,
    /// Most games the race may spend (the confirmation run comes on top).
    #[arg(long, value_name = "GAMES", default_value_t = crate::designer::tune::DEFAULT_BUDGET, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) budget: u64,
    /// Games of the confirmation run of the winner (at least those it raced).
    #[arg(long, default_value_t = 10_000, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) games: u64,
    /// Master seed: candidates race on games seeded from it; the confirmation has its own seed.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Worker threads (0 = all cores). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub(super) threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub(super) quiet: bool,
    /// Output folder (default reports/<game>/<variant>/tune-<keys>/).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Print exactly one JSON object instead of the tables.
    #[arg(long)]
    pub(super) json: bool,
}

/// Runs `playtest tune`: exit code 1 when no candidate holds every bound (in the race and in
/// the confirmation on a fresh seed), after the folder with the closest is written.
pub(super) fn tune(a: TuneArgs) -> Result<(), Error> {
    let r = crate::designer::tune::main(&crate::designer::tune::TuneOptions {
        variant: a.variant.variant,
        params: a.params,
        bots: a.variant.bots,
        sets: a.variant.sets,
        budget: a.budget,
        run: RunOptions { games: a.games, seed: a.seed, threads: a.threads, checked: false, quiet: a.quiet, rotate: false },
        out: a.out,
        json: a.json,
    })?;
    if r.found {
        return Ok(());
    }
    let closest = r.candidates.get(r.winner).map(|c| c.values.join(" ")).unwrap_or_default();
    let why = if r.race_holds { "its confirmation on a fresh seed fails" } else { "every candidate fails a bound in the race" };
    Err(Error::CheckFailed(format!(
        "tune: no candidate holds every [expect] bound ({why}); the closest, {closest}, is in {} (not a variant that passes `check`)",
        r.tuned_file.as_deref().unwrap_or("tuned.toml")
    )))
}
