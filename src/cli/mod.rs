//! The command line: parse flags, resolve variant + flags into a plan, run, write outputs.
//! `main` only turns the result into an exit code.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use crate::designer::metrics::{ArmData, Catalogue, Moments};
use crate::designer::{RunOptions, check::CheckOptions, compare::CompareOptions, precision::PrecisionArgs, sweep::SweepOptions};
use crate::engine::{BotSpec, game_seed};
use crate::error::Error;
use crate::games::handle::{GameFacts, Run};
use crate::games::{self, GameHandle, SeatedGame};
use crate::output;
use crate::output::atomic::OutputDir;
use crate::output::{Partial, RowContext};
use crate::report::ReportInput;
use crate::sim::{self, RunConfig};
use crate::stats::Summary;
use crate::stats::summary::SummaryContext;
use crate::variant::Variant;

mod audit;
mod bench;
mod designer;
mod exact;
mod game_rows;
mod ladder;
mod list;
mod play;
mod report;
mod rules;
mod scale;
mod simulate;
mod trace;
mod tune;
mod validate;
mod watch;

use bench::*;
use designer::*;
use exact::*;
use list::*;
use report::*;
use simulate::*;
use trace::*;
pub use trace::{json_trace_of, replay_text};
use validate::*;

/// Balance tabletop games by simulation.
#[derive(Parser, Debug)]
#[command(name = "playtest", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play many games and print the summary (or JSON with --json).
    Simulate(SimulateArgs),
    /// Play many games and write charts, report.md and summary.json.
    Report(ReportArgs),
    /// Print a play-by-play of one game (JSON Lines with --json, into a file with --out, a replay page with --html).
    Trace(TraceArgs),
    /// Re-apply a JSON trace (plain or gzip) through the engine, or an abandoned one up to where it stops: exit 0 when it agrees, 1 naming the first line that differs, 2 for a malformed trace; --html FILE also draws the game as a replay page.
    Replay(ReplayArgs),
    /// Check variant files without playing.
    Validate(ValidateArgs),
    /// List games, bots with their parameters, and bundled variants; `list GAME` one game's, with the names of its figures.
    List(ListArgs),
    /// Print every variant key of a game with its default, allowed values and meaning.
    Rules(rules::RulesArgs),
    /// Measure games per second on one thread and on all threads.
    Bench(BenchArgs),
    /// Rank bots on one scale: every bot against every other (rotated), ratings with CIs, and the skill curve.
    Ladder(ladder::LadderArgs),
    /// Solve a small variant exactly (Markov chain): expected length, win shares, skill headroom.
    Exact(ExactArgs),
    /// Play two variants (or two line-ups) on the same seeds; every metric's difference with its paired 95% CI.
    Compare(CompareArgs),
    /// Play a variant at several values of one or two keys; CSV and charts of every metric.
    Sweep(SweepArgs),
    /// Check invariants and the variants' [expect] bounds: exit 0 unless one fails (with --strict, unless all hold), 1 when one fails.
    ///
    /// A bound holds when the figure's whole 95% CI lies inside it, fails when the whole CI lies outside, and is undecided otherwise; at a share's edge ([0, x]) the one-sided 95% bound decides. Shares and their differences are fractions in [expect] (0.03 is 3%; ±1 point is [-0.01, 0.01]), percent and points in the output.
    Check(CheckArgs),
    /// Combine the shards of a `--shard K/N` run into the unsharded run's summary and report.
    Merge(scale::MergeArgs),
    /// Search values of some keys that meet every [expect] bound (racing a grid on common random numbers), with the smallest change.
    Tune(tune::TuneArgs),
    /// Write the report, then again whenever the variant (or a file it extends) is saved; the page reloads itself and shows what moved.
    Watch(watch::WatchArgs),
    /// Find the holes in a rule set (stalls, dead rules, dominant moves, exploits) and the keys that move the balance.
    Audit(audit::AuditArgs),
    /// Play one seat yourself in the browser against the bots (a loopback page), with the search bot's advice.
    Play(play::PlayArgs),
}

/// Flags every command that plays a variant takes.
#[derive(Args, Debug, Clone)]
struct VariantArgs {
    /// The variant file (TOML).
    variant: PathBuf,
    /// Bots: one SPEC for every seat or one per seat, SPEC = name[:param=value]...
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots: Option<String>,
    /// Override any key of the variant, e.g. --set deck.action_sets=0 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10_000, value_parser = game_count, allow_hyphen_values = true)]
    games: u64,
    /// Master seed: game i is played from a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = all cores). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Check conservation, legality and the other invariants after every action.
    #[arg(long)]
    checked: bool,
    /// No progress bar (it shows only on a terminal, for runs over a second, and not with CI=true).
    #[arg(long, short)]
    quiet: bool,
    /// Seat rotation: blocks of one game per seat on the same deal, the line-up turned by one
    /// seat each; reports win share per seat (bots averaged out) and per bot (seats averaged
    /// out). `--games` must be a multiple of the seats. Not with sweep or --precision.
    #[arg(long)]
    rotate: bool,
}

/// The most games one run may play: ten billion already pin a share to ±0.001 points, and more
/// would run for days to years on one machine without a word.
const MAX_GAMES: u64 = 10_000_000_000;

/// Parses a number of games (`--games`, `--ladder-games`, `--max-games`): a whole number from
/// 1 to [`MAX_GAMES`] written with digits only, so `-5`, `10,000` and `99999999999999` get a
/// plain message (exit 2).
fn game_count(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let plain = t.replace(['_', ',', '\'', ' '], "");
    match t.parse::<u64>() {
        Ok(0) => Err("a whole number of games of 1 or more is expected, e.g. 10000".into()),
        Ok(n) if n > MAX_GAMES => Err(format!(
            "{n} games is more than one run plays: a whole number from 1 to {MAX_GAMES} is expected (ten billion games already pin a share to ±0.001 points)"
        )),
        Ok(n) => Ok(n),
        Err(_) if t.starts_with('-') => Err("a number of games cannot be negative: a whole number of 1 or more is expected, e.g. 10000".into()),
        Err(_) if plain != t && plain.parse::<u64>().is_ok() => Err(format!("a whole number of games is expected, written with digits only: {plain}, not {t}")),
        Err(_) => Err("a whole number of games is expected, e.g. 10000".into()),
    }
}

/// Clap's error for a negative number after a flag that does not take one (`--seed -1`), in
/// words: clap reads `-1` as a flag and suggests `-- -1`, which would make it a positional
/// argument. `None` for every other error (clap prints it).
fn negative_value(e: &clap::Error, args: &[String]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else { return None };
    if !(arg.starts_with('-') && arg[1..].parse::<f64>().is_ok()) {
        return None;
    }
    let at = args.iter().position(|a| a == arg)?;
    let flag = args[..at].last().filter(|f| f.starts_with("--"))?;
    let command = args.get(1).map_or("COMMAND", String::as_str);
    Some(format!(
        "{flag} {arg}: {flag} takes no negative number (seeds, counts and thread numbers are 0 or more); `playtest {command} --help` says what it allows"
    ))
}

/// The game of `v`, its warnings printed on stderr (keys that can never take effect).
fn warned(v: &Variant) -> Result<Box<dyn GameHandle>, Error> {
    let game = games::handle(v)?;
    for w in games::handle::unused_key_warnings(&*game, v) {
        eprintln!("{w}");
    }
    Ok(game)
}

/// Parses the command line and runs the command.
pub fn main() -> Result<(), Error> {
    let cli = Cli::try_parse().map_err(|e| negative_value(&e, &std::env::args().collect::<Vec<_>>()).map_or_else(|| e.exit(), Error::Usage))?;
    match cli.command {
        Command::Simulate(a) => {
            let v = load(&a.variant)?;
            simulate(&*warned(&v)?, &v, &a)
        }
        Command::Report(a) => {
            let v = load(&a.variant)?;
            report(&*warned(&v)?, &v, &a)
        }
        Command::Replay(a) => replay(&a),
        Command::Trace(a) => {
            let v = load(&a.variant)?;
            trace(&*games::handle(&v)?, &v, &a)
        }
        Command::Validate(a) => validate(&a),
        Command::List(a) => list(&a),
        Command::Rules(a) => rules::rules(&a),
        Command::Bench(a) => bench(a),
        Command::Ladder(a) => ladder::ladder(&a),
        Command::Exact(a) => exact(&a),
        Command::Compare(a) => crate::designer::compare::main(&CompareOptions {
            a: a.a,
            b: a.b,
            bots: a.bots,
            bots_b: a.bots_b,
            sets: a.sets,
            sets_b: a.sets_b,
            run: run_options(&a.run),
            seed_b: a.seed_b,
            precision: a.precision,
            json: a.json,
            out: a.out,
            keep_partial: a.keep_partial,
        })
        .map(drop),
        Command::Sweep(a) if a.run.rotate => Err(Error::Usage("--rotate is not supported by sweep yet; use simulate or report".into())),
        Command::Sweep(a) => crate::designer::sweep::main(&SweepOptions {
            variant: a.variant.variant,
            bots: a.variant.bots,
            sets: a.variant.sets,
            params: a.params,
            values: a.values,
            metric: a.metric,
            run: run_options(&a.run),
            out: a.out,
            keep_partial: a.keep_partial,
        }),
        Command::Check(a) if a.run.checked => {
            eprintln!("note: check always checks the invariants and legality after every action; --checked changes nothing");
            check(a)
        }
        Command::Check(a) => check(a),
        Command::Merge(a) => scale::merge(&a),
        Command::Tune(a) => tune::tune(a),
        Command::Watch(a) => watch::watch(a),
        Command::Audit(a) => audit::audit(&a),
        Command::Play(a) => play::play(&a),
    }
}

/// Runs `check`.
fn check(a: CheckArgs) -> Result<(), Error> {
    crate::designer::check::main(&CheckOptions {
        variants: a.variants,
        bots: a.bots,
        sets: a.sets,
        run: run_options(&a.run),
        precision: a.precision,
        strict: a.strict,
        traces: a.traces,
    })
}

fn load(args: &VariantArgs) -> Result<Variant, Error> {
    Ok(Variant::load(&args.variant, &args.sets)?)
}

fn parse_bots(text: Option<&str>) -> Result<Option<Vec<BotSpec>>, Error> {
    let Some(text) = text else { return Ok(None) };
    let specs = text.split(',').map(|s| BotSpec::parse(s).map_err(|e| Error::Usage(format!("--bots: {e}")))).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(specs))
}

fn summarise(seated: &dyn SeatedGame, variant: &Variant, cfg: &RunConfig, result: &Run) -> Summary {
    let game = seated.facts();
    let mut summary = Summary::new(
        &result.tally,
        SummaryContext {
            game: game.id,
            variant: &variant.name,
            seed: cfg.seed,
            players: game.acting_seats,
            seats: game.seats,
            seat_bots: seated.seat_labels(),
            end_reasons: game.end_reasons,
            length_unit: game.length_unit,
            seconds: result.seconds,
            extra: if cfg.detailed { result.metrics.summary(result.tally.games) } else { Vec::new() },
        },
    )
    .with_rotation(result.rotation.as_ref().map(|r| r.summary()))
    .with_teams(&game.teams, &result.tally)
    .with_elimination(game.has_elimination);
    if cfg.detailed {
        summary.standing = Some(result.standing.summary(game.standing_unit));
        let cat = Catalogue::of(game);
        let moments = Moments::new(cat.per_game_len);
        let arm = ArmData { summary: &summary, tally: &result.tally, moments: &moments, extras: &result.extras, ratios: &result.ratios };
        let (ci, how) = cat.own_intervals(&arm);
        (summary.extra_ci95, summary.extra_interval) = (ci, how);
        let shares = summary.extra.keys().filter(|name| cat.get(name).is_some_and(|d| d.unit == crate::designer::metrics::Unit::Share));
        summary.extra_shares = shares.cloned().collect();
        let differences = summary.extra.keys().filter(|name| cat.get(name).is_some_and(|d| d.is_share_difference()));
        summary.extra_differences = differences.cloned().collect();
    }
    summary
}

/// Every figure with its interval, the seats and the variant's `[expect]` bounds for a report,
/// from the metric catalogue (`moments`: sums of the per-game values of the run's games, per
/// block of `rotation` games when the seats were rotated, else 0; `extras`: the game's own
/// figures per sub-batch, for their batch-means intervals).
fn report_tables(
    game: &GameFacts,
    variant: &Variant,
    summary: &Summary,
    tally: &crate::stats::Tally,
    (moments, rotation, extras, ratios): (&Moments, usize, &[crate::designer::metrics::BatchValues], &crate::stats::ratio::RatioTally),
) -> Result<crate::report::Tables, Error> {
    use crate::designer::tables::{expect_rows, figure_rows, seat_rows};
    let cat = Catalogue::of(game).rotated(rotation > 0, rotation);
    let est = cat.estimates(&ArmData { summary, tally, moments, extras, ratios });
    let expect = crate::designer::check::expectations(variant, &cat)?;
    let unit = game.standing_unit;
    let bots: Vec<String> = summary.seats.iter().map(|s| if summary.rotation.is_some() { "every bot, rotated".to_string() } else { s.bot.clone() }).collect();
    Ok(crate::report::Tables {
        figures: figure_rows(&cat, &est, unit),
        seats: seat_rows(&cat, &est, &bots),
        seat_note: crate::report::tables::seat_note(summary),
        expectations: expect_rows(&cat, &est, &expect, unit),
        sections: Vec::new(),
    })
}

fn command_line(sub: &str, v: &VariantArgs, run: &RunArgs, extra: &str) -> String {
    let mut c = format!("playtest {sub} {} --games {} --seed {}", v.variant.display(), run.games, run.seed);
    if let Some(b) = &v.bots {
        c.push_str(&format!(" --bots {b}"));
    }
    for s in &v.sets {
        c.push_str(&format!(" --set {s}"));
    }
    if run.rotate {
        c.push_str(" --rotate");
    }
    c.push_str(extra);
    c
}

// How a run a Ctrl-C stopped ends: written once, for the designer's commands too.
use crate::designer::interrupted::{open_out, partial, stopped, stopped_before_any_game};

/// The progress bar of a run (quiet with `--json`, `--quiet` or CI=true).
/// The progress bar as a callback of games done (for the streaming and sharded runs).
fn progress_printer(total: u64, quiet: bool) -> impl FnMut(u64) {
    let mut bar = progress_bar(total, quiet);
    move |done| bar.update(done)
}

fn progress_bar(total: u64, quiet: bool) -> crate::progress::Progress {
    crate::progress::Progress::new(total, quiet)
}

/// The variant's game with its bots seated: `--bots` (`bots`) when given, else the variant's,
/// else the game's default bot.
fn seat_any<'a>(game: &'a dyn GameHandle, variant: &Variant, bots: Option<&str>) -> Result<Box<dyn SeatedGame + 'a>, Error> {
    crate::designer::seat(game, variant, bots, "--bots")
}
