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
    let v = load(&a.variant)?;
    let labels = seat_any(&*games::handle(&v)?, &v, a.variant.bots.as_deref())?.labels();
    let report = games::exact(&v, &labels, a.max_states)?;
    if a.json {
        crate::output::print_json(&report)?;
    } else {
        print!("{}", report.table());
    }
    Ok(())
}
