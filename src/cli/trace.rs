//! `playtest trace`: a readable play-by-play of one game.

use super::*;

#[derive(Args, Debug)]
pub(super) struct TraceArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    /// Master seed of the run the game belongs to.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Index of the game in that run.
    #[arg(long, default_value_t = 0)]
    pub(super) game: u64,
    /// The game's own seed (as in games.csv or an invariant failure); overrides --seed/--game.
    #[arg(long)]
    pub(super) game_seed: Option<u64>,
}

pub(super) struct Trace<'a> {
    pub(super) args: &'a TraceArgs,
}

impl GameCommand for Trace<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        let a = self.args;
        let plans = seat_plans_any(&game, variant, a.variant.bots.as_deref())?;
        let seed = a.game_seed.unwrap_or_else(|| game_seed(a.seed, a.game));
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "{} / {}: game seed {seed}; seats: {}", game.id(), variant.name, seat_labels(&game, &plans).join(", "));
        let mut print = |line: &str| {
            let _ = writeln!(out, "{line}");
        };
        sim::trace(&game, &plans, seed, &mut print)?;
        Ok(())
    }
}
