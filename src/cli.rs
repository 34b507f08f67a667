//! The command line: parse flags, resolve variant + flags into a plan, run, write outputs.
//! `main` only turns the result into an exit code.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use crate::designer::{self, RunOptions, check::CheckOptions, compare::CompareOptions, precision::PrecisionArgs, sweep::SweepOptions};
use crate::engine::{BotSpec, Game, game_seed};
use crate::error::Error;
use crate::games::{self, GameCommand, Registered, seat_plans};
use crate::output;
use crate::output::RowContext;
use crate::report::{self, ReportInput};
use crate::sim::{self, RunConfig, SeatPlan};
use crate::stats::Summary;
use crate::stats::summary::SummaryContext;
use crate::variant::Variant;

mod scale;

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
    /// Print a play-by-play of one game.
    Trace(TraceArgs),
    /// Check variant files without playing.
    Validate(ValidateArgs),
    /// List games, bots with their parameters, and bundled variants.
    List,
    /// Measure games per second on one thread and on all threads.
    Bench(BenchArgs),
    /// Solve a small variant exactly (Markov chain): expected length, win shares, skill headroom.
    Exact(ExactArgs),
    /// Play two variants (or two line-ups) on the same seeds; every metric's difference with its paired 95% CI.
    Compare(CompareArgs),
    /// Play a variant at several values of one or two keys; CSV and charts of every metric.
    Sweep(SweepArgs),
    /// Check invariants and the variants' [expect] bounds: exit 0 when all hold, 1 when one fails.
    Check(CheckArgs),
    /// Combine the shards of a `--shard K/N` run into the unsharded run's summary and report.
    Merge(scale::MergeArgs),
}

#[derive(Args, Debug)]
struct ExactArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Refuse chains with more states than this (memory: about 50 bytes per state).
    #[arg(long, default_value_t = 5_000_000)]
    max_states: u64,
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
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
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
}

#[derive(Args, Debug)]
struct SimulateArgs {
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    precision: PrecisionArgs,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write one row per game (games.parquet, games.csv) and summary.json into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.* into --out (merge them
    /// with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

#[derive(Args, Debug)]
struct ReportArgs {
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    precision: PrecisionArgs,
    /// Output folder (default reports/<game>/<variant>/).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.json into the output
    /// folder (merge them with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

#[derive(Args, Debug)]
struct CompareArgs {
    /// Variant A (TOML).
    a: PathBuf,
    /// Variant B (default: A again, for two line-ups with --bots-b or two settings with --set-b).
    b: Option<PathBuf>,
    /// Bots of A, and of B unless --bots-b: one SPEC for every seat or one per seat.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots: Option<String>,
    /// Bots of B.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots_b: Option<String>,
    /// Override a key of both variants (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Override a key of B only (repeatable).
    #[arg(long = "set-b", value_name = "KEY=VALUE")]
    sets_b: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    precision: PrecisionArgs,
    /// Seed of B (default --seed: common random numbers; another seed makes the runs independent).
    #[arg(long)]
    seed_b: Option<u64>,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write compare.json, compare.csv and the charts into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct SweepArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// A key to sweep, e.g. bank or payout.3.withdrawal; repeat for a grid of two. Each needs a --values or --range after it.
    #[arg(long = "param", value_name = "KEY", required = true)]
    params: Vec<String>,
    /// The values of the --param before it: a,b,c, or with --range START..END:STEP (END included).
    #[arg(long = "values", visible_alias = "range", value_name = "LIST|START..END:STEP", allow_hyphen_values = true, required = true)]
    values: Vec<String>,
    /// Metrics to chart and print (default: length, end reasons, first-player advantage, elimination rate).
    #[arg(long, value_name = "NAME[,NAME...]")]
    metric: Option<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Output folder (default reports/<game>/<variant>/sweep-<keys>/).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Variant files.
    #[arg(required = true)]
    variants: Vec<PathBuf>,
    /// Bots of every variant (default: each variant's own).
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots: Option<String>,
    /// Override a key of every variant (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    precision: PrecisionArgs,
}

fn run_options(r: &RunArgs) -> RunOptions {
    RunOptions { games: r.games, seed: r.seed, threads: r.threads, checked: r.checked, quiet: r.quiet }
}

#[derive(Args, Debug)]
struct TraceArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Master seed of the run the game belongs to.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the game in that run.
    #[arg(long, default_value_t = 0)]
    game: u64,
    /// The game's own seed (as in games.csv or an invariant failure); overrides --seed/--game.
    #[arg(long)]
    game_seed: Option<u64>,
}

#[derive(Args, Debug)]
struct ValidateArgs {
    /// Variant files.
    #[arg(required = true)]
    variants: Vec<PathBuf>,
    /// Overrides applied to every file.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// The variant (default: the bundled Penny Badger standard variant).
    #[arg(default_value = "variants/penny-badger/standard.toml")]
    variant: PathBuf,
    /// Bots (default: the benchmark line-up for Penny Badger).
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots: Option<String>,
    /// Overrides (default for Penny Badger: deck.action_sets=0).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Games per measurement.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
}

/// Parses the command line and runs the command.
pub fn main() -> Result<(), Error> {
    let cli = Cli::parse();
    match cli.command {
        Command::Simulate(a) => {
            let v = load(&a.variant)?;
            games::dispatch(&v, Simulate { args: &a })
        }
        Command::Report(a) => {
            let v = load(&a.variant)?;
            games::dispatch(&v, Report { args: &a })
        }
        Command::Trace(a) => {
            let v = load(&a.variant)?;
            games::dispatch(&v, Trace { args: &a })
        }
        Command::Validate(a) => validate(&a),
        Command::List => list(),
        Command::Bench(a) => bench(a),
        Command::Exact(a) => exact(&a),
        Command::Compare(a) => designer::compare::main(&CompareOptions {
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
        })
        .map(drop),
        Command::Sweep(a) => designer::sweep::main(&SweepOptions {
            variant: a.variant.variant,
            bots: a.variant.bots,
            sets: a.variant.sets,
            params: a.params,
            values: a.values,
            metric: a.metric,
            run: run_options(&a.run),
            out: a.out,
        }),
        Command::Check(a) => {
            designer::check::main(&CheckOptions { variants: a.variants, bots: a.bots, sets: a.sets, run: run_options(&a.run), precision: a.precision })
        }
        Command::Merge(a) => scale::merge(&a),
    }
}

fn load(args: &VariantArgs) -> Result<Variant, Error> {
    Ok(Variant::load(&args.variant, &args.sets)?)
}

fn parse_bots(text: Option<&str>) -> Result<Option<Vec<BotSpec>>, Error> {
    let Some(text) = text else { return Ok(None) };
    let specs = text.split(',').map(|s| BotSpec::parse(s).map_err(|e| Error::Usage(format!("--bots: {e}")))).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(specs))
}

fn plans<G: Registered>(game: &G, variant: &Variant, bots: Option<&str>) -> Result<Vec<SeatPlan<G>>, Error> {
    let cli = parse_bots(bots)?;
    seat_plans(game, variant, cli.as_deref(), G::DEFAULT_BOT)
}

fn seat_labels<G: Game>(game: &G, plans: &[SeatPlan<G>]) -> Vec<String> {
    (0..game.seats()).map(|s| plans.get(s).map(|p| p.label.clone()).unwrap_or_else(|| "dummy".into())).collect()
}

fn summarise<G: Game>(game: &G, variant: &Variant, plans: &[SeatPlan<G>], cfg: &RunConfig, result: &sim::RunResult<G>) -> Summary {
    use crate::engine::Metrics;
    Summary::new(
        &result.tally,
        SummaryContext {
            game: game.id(),
            variant: &variant.name,
            seed: cfg.seed,
            players: game.acting_seats(),
            seats: game.seats(),
            seat_bots: seat_labels(game, plans),
            end_reasons: game.end_reasons(),
            length_unit: game.length_unit(),
            seconds: result.seconds,
            extra: if cfg.detailed { result.metrics.summary(result.tally.games) } else { Vec::new() },
        },
    )
}

fn command_line(sub: &str, v: &VariantArgs, run: &RunArgs, extra: &str) -> String {
    let mut c = format!("playtest {sub} {} --games {} --seed {}", v.variant.display(), run.games, run.seed);
    if let Some(b) = &v.bots {
        c.push_str(&format!(" --bots {b}"));
    }
    for s in &v.sets {
        c.push_str(&format!(" --set {s}"));
    }
    c.push_str(extra);
    c
}

/// The progress bar of a run (quiet with `--json`, `--quiet` or CI=true).
/// The progress bar as a callback of games done (for the streaming and sharded runs).
fn progress_printer(total: u64, quiet: bool) -> impl FnMut(u64) {
    let mut bar = progress_bar(total, quiet);
    move |done| bar.update(done)
}

fn progress_bar(total: u64, quiet: bool) -> crate::progress::Progress {
    crate::progress::Progress::new(total, quiet)
}

struct Simulate<'a> {
    args: &'a SimulateArgs,
}

impl GameCommand for Simulate<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        run_simulate(&game, variant, self.args)
    }
}

fn run_simulate<G: Registered>(game: &G, variant: &Variant, a: &SimulateArgs) -> Result<(), Error> {
    let plans = seat_plans_any(game, variant, a.variant.bots.as_deref())?;
    if let Some(text) = &a.shard {
        return scale::simulate_shard(game, variant, &plans, a, text);
    }
    if let Some(dir) = &a.out {
        output::prepare_dir(dir)?;
    }
    let streamed = a.out.is_some() && a.precision.precision.is_none();
    let cfg = RunConfig { threads: a.run.threads, checked: a.run.checked, keep_rows: a.out.is_some() && !streamed, ..RunConfig::new(a.run.games, a.run.seed) };
    let (result, reached) = match &a.out {
        Some(dir) if streamed => (scale::simulate_streamed(game, &plans, cfg, dir, a.json || a.run.quiet)?, None),
        _ => {
            let replay = designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
            designer::precision::run_sim(game, &plans, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.json || a.run.quiet))?
        }
    };
    if let Some(r) = &reached {
        if a.json { eprintln!("{}", r.describe()) } else { println!("{}", r.describe()) }
    }
    if let (Some(dir), false) = (&a.out, streamed) {
        let labels = seat_labels(game, &plans);
        output::write_rows(dir, &result.rows, &RowContext { seats: game.seats(), seat_bots: &labels, end_reasons: game.end_reasons() })?;
    }
    let summary = summarise(game, variant, &plans, &cfg, &result);
    if let Some(dir) = &a.out {
        crate::output::write_summary(dir, &summary)?;
    }
    if a.json {
        crate::output::print_json(&summary)?;
    } else {
        print!("{}", summary.table());
        if let Some(dir) = &a.out {
            println!("wrote {}/games.parquet, games.csv and summary.json", dir.display());
        }
    }
    Ok(())
}

/// Seat plans for any game (the default bot comes from the game's registry entry).
fn seat_plans_any<G: Registered>(game: &G, variant: &Variant, bots: Option<&str>) -> Result<Vec<SeatPlan<G>>, Error> {
    let cli = parse_bots(bots)?;
    seat_plans(game, variant, cli.as_deref(), G::DEFAULT_BOT)
}

struct Report<'a> {
    args: &'a ReportArgs,
}

impl GameCommand for Report<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        use crate::engine::Metrics;
        let a = self.args;
        let plans = seat_plans_any(&game, variant, a.variant.bots.as_deref())?;
        let dir = a.out.clone().unwrap_or_else(|| Path::new("reports").join(game.id()).join(&variant.name));
        if let Some(text) = &a.shard {
            return scale::report_shard(&game, variant, &plans, (&a.variant, &a.run, a.out.as_ref()), &dir, text);
        }
        output::prepare_dir(&dir)?;
        let cfg = RunConfig { threads: a.run.threads, checked: a.run.checked, detailed: true, keep_rows: true, ..RunConfig::new(a.run.games, a.run.seed) };
        let replay = designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
        let (result, reached) =
            designer::precision::run_sim(&game, &plans, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.run.quiet))?;
        if let Some(r) = &reached {
            println!("{}", r.describe());
        }
        let labels = seat_labels(&game, &plans);
        output::write_rows(&dir, &result.rows, &RowContext { seats: game.seats(), seat_bots: &labels, end_reasons: game.end_reasons() })?;
        let run = RunArgs { games: result.tally.games, ..a.run.clone() };
        let mut summary = summarise(&game, variant, &plans, &cfg, &result);
        let mut charts = report::common_charts(&result.tally, &summary, game.has_elimination());
        charts.extend(result.metrics.charts(result.tally.games));
        charts.extend(game.extra_charts(variant, result.tally.games, a.run.seed, a.run.threads)?);
        let labels: Vec<String> = plans.iter().map(|p| p.label.clone()).collect();
        add_exact(variant, &labels, &mut summary, &mut charts);
        let written = report::write(ReportInput {
            dir: &dir,
            summary: &summary,
            charts,
            command: command_line("report", &a.variant, &run, &a.out.as_ref().map(|o| format!(" --out {}", o.display())).unwrap_or_default()),
            variant_toml: variant.as_played(),
            description: variant.description.clone(),
        })?;
        print!("{}", summary.table());
        println!("wrote {} files into {}", written.len(), dir.display());
        Ok(())
    }
}

struct Trace<'a> {
    args: &'a TraceArgs,
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

fn exact(a: &ExactArgs) -> Result<(), Error> {
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

/// Adds a variant's exact figures to a report when its game has a solver and the line-up is
/// one it can solve (else the report is left as it is).
fn add_exact(variant: &Variant, labels: &[String], summary: &mut Summary, charts: &mut Vec<crate::engine::ChartSpec>) {
    use crate::engine::{BarSeries, ChartSpec};
    let Ok(exact) = games::exact(variant, labels, 5_000_000) else {
        return;
    };
    let num = |x: f64| serde_json::Number::from_f64(x).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null);
    summary.extra.insert("exact_expected_length".into(), num(exact.expected_length));
    for s in &exact.seats {
        summary.extra.insert(format!("exact_win_share_seat{}", s.seat), num(s.win_share));
    }
    for h in &exact.skill_headroom {
        summary.extra.insert(format!("skill_headroom_seat{}", h.seat), num(h.headroom));
    }
    charts.push(ChartSpec::Bars {
        file: "seat_win_shares_exact".into(),
        title: format!("Win share by seat: Monte Carlo ({} games, 95% CI) vs exact", summary.games),
        x_label: "seat (turn order) and bot".into(),
        y_label: "win share (%)".into(),
        categories: summary.seats.iter().map(|s| format!("seat {} ({})", s.seat, s.bot)).collect(),
        series: vec![
            BarSeries {
                name: "Monte Carlo".into(),
                values: summary.seats.iter().map(|s| s.win_share * 100.0).collect(),
                ci: Some(summary.seats.iter().map(|s| (s.ci95[0] * 100.0, s.ci95[1] * 100.0)).collect()),
            },
            BarSeries { name: "exact".into(), values: exact.seats.iter().map(|s| s.win_share * 100.0).collect(), ci: None },
        ],
        reference: Some((100.0 * crate::stats::summary::fair_share(&summary.seats, summary.players), "fair share".into())),
    });
}

fn validate(a: &ValidateArgs) -> Result<(), Error> {
    struct Check;
    impl GameCommand for Check {
        type Output = String;
        fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<String, Error> {
            let plans = seat_plans_any(&game, variant, None)?;
            Ok(format!("{} players, bots: {}", game.acting_seats(), seat_labels(&game, &plans).join(", ")))
        }
    }
    let mut failed = None;
    for path in &a.variants {
        let result = Variant::load(path, &a.sets).map_err(Error::from).and_then(|v| games::dispatch(&v, Check).map(|d| (v, d)));
        match result {
            Ok((v, detail)) => {
                println!("ok: {} ({} / {}): {detail}", path.display(), v.game, v.name)
            }
            // One variant: its error is returned and printed once by main; several: each is
            // printed here and main prints the count.
            Err(e) if a.variants.len() == 1 => failed = Some(e),
            Err(e) => {
                eprintln!("error: {e}");
                failed = Some(e);
            }
        }
    }
    match failed {
        Some(e) if a.variants.len() == 1 => Err(e),
        Some(_) => Err(Error::Usage("some variants are invalid (see above)".into())),
        None => Ok(()),
    }
}

fn list() -> Result<(), Error> {
    println!("games:");
    for entry in games::entries() {
        println!("  {}{}", entry.id, if entry.has_exact { " (exact solver: `playtest exact`)" } else { "" });
        println!("    bots (default `{}`):", entry.default_bot);
        for (name, doc, params) in entry.bots {
            println!("      {name}: {doc}");
            for p in params {
                println!("        {} (default {}, {} to {}): {}", p.name, p.default, p.min, p.max, p.doc);
            }
        }
    }
    println!("bundled variants:");
    let mut files = Vec::new();
    collect_variants(Path::new("variants"), &mut files);
    files.sort();
    for f in files {
        let desc = Variant::load(&f, &[]).map(|v| format!("{} / {}: {}", v.game, v.name, v.description)).unwrap_or_else(|e| format!("invalid: {e}"));
        println!("  {}  ({desc})", f.display());
    }
    Ok(())
}

fn collect_variants(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_variants(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn bench(a: BenchArgs) -> Result<(), Error> {
    // The game's benchmark line-up fills in what the command line leaves out.
    let lineup = games::entry(&Variant::load(&a.variant, &a.sets)?.game).map(|e| e.bench);
    let bots = a.bots.clone().or_else(|| lineup.map(|l| l.bots.to_string()));
    let sets = match lineup {
        Some(l) if a.sets.is_empty() => l.sets.iter().map(|s| s.to_string()).collect(),
        _ => a.sets.clone(),
    };
    let v = Variant::load(&a.variant, &sets)?;
    struct Bench {
        bots: Option<String>,
        games: u64,
    }
    impl GameCommand for Bench {
        type Output = ();
        fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
            let plans = seat_plans_any(&game, variant, self.bots.as_deref())?;
            println!("bench: {} / {}, bots {}, {} games per measurement", game.id(), variant.name, seat_labels(&game, &plans).join(","), self.games);
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let mut one = 0.0;
            for threads in [1, cores] {
                let cfg = RunConfig { threads, ..RunConfig::new(self.games, 1) };
                let r = sim::run(&game, &plans, cfg)?;
                let rate = r.tally.games as f64 / r.seconds;
                if threads == 1 {
                    one = rate;
                    println!("  1 thread : {rate:>12.0} games/s ({:.3} s)", r.seconds);
                } else {
                    println!("  {threads} threads: {rate:>12.0} games/s ({:.3} s), {:.2}x one thread", r.seconds, rate / one);
                }
                if cores == 1 {
                    break;
                }
            }
            Ok(())
        }
    }
    games::dispatch(&v, Bench { bots, games: a.games })
}

#[allow(dead_code)]
fn _assert_from_variant<G: Registered>(g: &G, v: &Variant) -> Result<Vec<SeatPlan<G>>, Error> {
    plans(g, v, None)
}
