//! The flags of the designer's loop (`compare`, `sweep`, `check`); the commands themselves live in `crate::designer`.

use super::*;

#[derive(Args, Debug)]
pub(super) struct CompareArgs {
    /// Variant A (TOML).
    pub(super) a: PathBuf,
    /// Variant B (default: A again, for two line-ups with --bots-b or two settings with --set-b).
    pub(super) b: Option<PathBuf>,
    /// Bots of A, and of B unless --bots-b: one SPEC for every seat or one per seat.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) bots: Option<String>,
    /// Bots of B.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) bots_b: Option<String>,
    /// Override a key of both variants (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
    /// Override a key of B only (repeatable).
    #[arg(long = "set-b", value_name = "KEY=VALUE")]
    pub(super) sets_b: Vec<String>,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Seed of B (default --seed: common random numbers; another seed makes the runs independent).
    #[arg(long)]
    pub(super) seed_b: Option<u64>,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    pub(super) json: bool,
    /// Write compare.json, compare.csv and the charts into DIR.
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// On Ctrl-C, still write --out for the games played, marked partial (default: write
    /// nothing and leave the folder as it was).
    #[arg(long)]
    pub(super) keep_partial: bool,
}

#[derive(Args, Debug)]
pub(super) struct SweepArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    /// A key to sweep, e.g. bank or payout.3.withdrawal; repeat for a grid of two. Each needs a --values or --range after it.
    #[arg(long = "param", value_name = "KEY", required = true)]
    pub(super) params: Vec<String>,
    /// The values of the --param before it: a,b,c, or with --range START..END:STEP (END included).
    #[arg(long = "values", visible_alias = "range", value_name = "LIST|START..END:STEP", allow_hyphen_values = true, required = true)]
    pub(super) values: Vec<String>,
    /// Metrics to chart and print (default: length, end reasons, first-player advantage, elimination rate).
    #[arg(long, value_name = "NAME[,NAME...]")]
    pub(super) metric: Option<String>,
    #[command(flatten)]
    pub(super) run: RunArgs,
    /// Output folder (default reports/<game>/<variant>/sweep-<keys>/).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// On Ctrl-C, still write the folder for the games played, marked partial (default:
    /// write nothing and leave the folder as it was).
    #[arg(long)]
    pub(super) keep_partial: bool,
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    /// Variant files.
    #[arg(required = true)]
    pub(super) variants: Vec<PathBuf>,
    /// Bots of every variant (default: each variant's own).
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) bots: Option<String>,
    /// Override a key of every variant (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Write the JSON trace of every game that breaks an invariant or ends at the cap (at most 20) into DIR, gzip-compressed (.jsonl.gz).
    #[arg(long, value_name = "DIR")]
    pub(super) traces: Option<PathBuf>,
    /// Fail (exit 1) on an undecided bound too, not only on a failed one.
    #[arg(long)]
    pub(super) strict: bool,
}

pub(super) fn run_options(r: &RunArgs) -> RunOptions {
    RunOptions { games: r.games, seed: r.seed, threads: r.threads, checked: r.checked, quiet: r.quiet, rotate: r.rotate }
}
