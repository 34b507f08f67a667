//! `playtest exact`: solve a small variant exactly, for the games with a solver.

use super::*;

#[derive(Args, Debug)]
pub(super) struct ExactArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    pub(super) json: bool,
    /// Refuse chains with more states than this (memory: about 50 bytes per state).
    #[arg(long, default_value_t = 5_000_000)]
    pub(super) max_states: u64,
}

pub(super) fn exact(a: &ExactArgs) -> Result<(), Error> {
    struct Labels<'a>(Option<&'a str>);
    impl GameCommand for Labels<'_> {
        type Output = Vec<String>;
        fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<Vec<String>, Error> {
            Ok(seat_plans_any(&game, variant, self.0)?.into_iter().map(|p| p.label).collect())
        }
    }
    let v = load(&a.variant)?;
    let labels = games::dispatch(&v, Labels(a.variant.bots.as_deref()))?;
    let report = games::exact(&v, &labels, a.max_states)?;
    if a.json {
        crate::output::print_json(&report)?;
    } else {
        print!("{}", report.table());
    }
    Ok(())
}
