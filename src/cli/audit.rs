//! The flags of `playtest audit`; the command lives in `crate::designer::audit`.

use std::path::PathBuf;

use clap::Args;

use crate::designer::audit::{AuditOptions, SEARCH_BOT};
use crate::error::Error;

/// `playtest audit VARIANT [--games N] [--bots ...] [--seed S] [--threads N] [--out DIR] [--json]`.
#[derive(Args, Debug)]
pub(super) struct AuditArgs {
    #[command(flatten)]
    variant: super::VariantArgs,
    /// Games of each watched line-up (random bots and the table; the search bot plays a
    /// fiftieth, fewer for long games, at least 2); sensitivity steps play up to twice this
    /// (fewer for long games), exploit candidates half.
    #[arg(long, default_value_t = 2000, value_parser = super::game_count, allow_hyphen_values = true)]
    games: u64,
    /// Master seed: game i is played from a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = all cores). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// No progress notes on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Output folder (default reports/<game>/<variant>/audit/).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print audit.json to stdout instead of the summary (the folder is written too).
    #[arg(long)]
    json: bool,
    /// Turns without progress (no standing changed) after which a game counts as stalled.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    stall_turns: u32,
    /// The search line-up's bot.
    #[arg(long, value_name = "SPEC", default_value = SEARCH_BOT)]
    search: String,
    /// The bot whose parameters are swept for exploits (default: the table's first bot with parameters).
    #[arg(long, value_name = "SPEC")]
    exploit: Option<String>,
    /// Skip the sensitivity analysis.
    #[arg(long)]
    no_sensitivity: bool,
}

/// Runs `audit`.
pub(super) fn audit(a: &AuditArgs) -> Result<(), Error> {
    crate::designer::audit::main(&AuditOptions {
        variant: a.variant.variant.clone(),
        bots: a.variant.bots.clone(),
        sets: a.variant.sets.clone(),
        games: a.games,
        seed: a.seed,
        threads: a.threads,
        quiet: a.quiet,
        out: a.out.clone(),
        json: a.json,
        stall_turns: a.stall_turns,
        search: a.search.clone(),
        exploit: a.exploit.clone(),
        no_sensitivity: a.no_sensitivity,
        write_into: None,
    })
    .map(drop)
}
