//! The command line: parse flags, resolve variant + flags into a plan, run, write outputs.
//! `main` only turns the result into an exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use crate::engine::{game_seed, BotSpec, Game};
use crate::error::Error;
use crate::games::{self, seat_plans, FromVariant, GameCommand};
use crate::output;
use crate::report::{self, ReportInput};
use crate::sim::{self, RunConfig, SeatPlan};
use crate::stats::summary::SummaryContext;
use crate::stats::Summary;
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
    /// Combine the shards of a `--shard K/N` run into the unsharded run's summary and report.
    Merge(scale::MergeArgs),
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
}

#[derive(Args, Debug)]
struct SimulateArgs {
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    run: RunArgs,
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
    /// Output folder (default reports/<game>/<variant>/).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.json into the output
    /// folder (merge them with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
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

fn plans<G: FromVariant>(game: &G, variant: &Variant, bots: Option<&str>) -> Result<Vec<SeatPlan<G>>, Error> {
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

/// A progress line on stderr for long runs when stderr is a terminal (quiet in CI).
fn progress_printer(total: u64, quiet: bool) -> impl FnMut(u64) {
    let show = !quiet && total >= 200_000 && std::io::stderr().is_terminal() && std::env::var("CI").map_or(true, |v| v != "true");
    let started = std::time::Instant::now();
    move |done| {
        if show {
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            let rate = done as f64 / secs;
            let eta = (total - done) as f64 / rate.max(1.0);
            eprint!("\r{done}/{total} games, {rate:.0} games/s, ETA {eta:.0} s   ");
            if done >= total {
                eprintln!();
            }
        }
    }
}

struct Simulate<'a> {
    args: &'a SimulateArgs,
}

impl GameCommand for Simulate<'_> {
    type Output = ();
    fn run<G: Game>(self, game: G, variant: &Variant) -> Result<(), Error>
    where
        G: Game,
    {
        run_simulate(&game, variant, self.args)
    }
}

fn run_simulate<G: Game>(game: &G, variant: &Variant, a: &SimulateArgs) -> Result<(), Error> {
    let plans = seat_plans_any(game, variant, a.variant.bots.as_deref())?;
    if let Some(text) = &a.shard {
        return scale::simulate_shard(game, variant, &plans, a, text);
    }
    if let Some(dir) = &a.out {
        output::prepare_dir(dir)?;
    }
    let cfg = RunConfig { threads: a.run.threads, checked: a.run.checked, ..RunConfig::new(a.run.games, a.run.seed) };
    let result = match &a.out {
        Some(dir) => scale::simulate_streamed(game, &plans, cfg, dir, a.json)?,
        None => sim::run_with_progress(game, &plans, cfg, &mut progress_printer(cfg.games, a.json))?,
    };
    let summary = summarise(game, variant, &plans, &cfg, &result);
    if let Some(dir) = &a.out {
        let path = dir.join("summary.json");
        std::fs::write(&path, serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n").map_err(|e| Error::output(&path, e))?;
    }
    if a.json {
        println!("{}", serde_json::to_string(&summary).unwrap_or_default());
    } else {
        print!("{}", summary.table());
        if let Some(dir) = &a.out {
            println!("wrote {}/games.parquet, games.csv and summary.json", dir.display());
        }
    }
    Ok(())
}

/// Seat plans for any game (the default bot comes from the game's registry entry).
fn seat_plans_any<G: Game>(game: &G, variant: &Variant, bots: Option<&str>) -> Result<Vec<SeatPlan<G>>, Error> {
    let cli = parse_bots(bots)?;
    let default = games::default_bot(game.id());
    seat_plans(game, variant, cli.as_deref(), default)
}

struct Report<'a> {
    args: &'a ReportArgs,
}

impl GameCommand for Report<'_> {
    type Output = ();
    fn run<G: Game>(self, game: G, variant: &Variant) -> Result<(), Error> {
        use crate::engine::Metrics;
        let a = self.args;
        let plans = seat_plans_any(&game, variant, a.variant.bots.as_deref())?;
        let dir = a.out.clone().unwrap_or_else(|| Path::new("reports").join(game.id()).join(&variant.name));
        if let Some(text) = &a.shard {
            return scale::report_shard(&game, variant, &plans, (&a.variant, &a.run, a.out.as_ref()), &dir, text);
        }
        output::prepare_dir(&dir)?;
        let cfg = RunConfig { threads: a.run.threads, checked: a.run.checked, detailed: true, ..RunConfig::new(a.run.games, a.run.seed) };
        let result = sim::run_with_progress(&game, &plans, cfg, &mut progress_printer(cfg.games, false))?;
        let summary = summarise(&game, variant, &plans, &cfg, &result);
        let mut charts = report::common_charts(&result.tally, &summary, game.has_elimination());
        charts.extend(result.metrics.charts(result.tally.games));
        let written = report::write(ReportInput {
            dir: &dir,
            summary: &summary,
            charts,
            command: command_line("report", &a.variant, &a.run, &a.out.as_ref().map(|o| format!(" --out {}", o.display())).unwrap_or_default()),
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
    fn run<G: Game>(self, game: G, variant: &Variant) -> Result<(), Error> {
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

fn validate(a: &ValidateArgs) -> Result<(), Error> {
    struct Check;
    impl GameCommand for Check {
        type Output = String;
        fn run<G: Game>(self, game: G, variant: &Variant) -> Result<String, Error> {
            let plans = seat_plans_any(&game, variant, None)?;
            Ok(format!("{} players, bots: {}", game.acting_seats(), seat_labels(&game, &plans).join(", ")))
        }
    }
    let mut failed = None;
    for path in &a.variants {
        let result = Variant::load(path, &a.sets).map_err(Error::from).and_then(|v| games::dispatch(&v, Check).map(|d| (v, d)));
        match result {
            Ok((v, detail)) => println!("ok: {} ({} / {}): {detail}", path.display(), v.game, v.name),
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
    for id in games::GAME_IDS {
        println!("  {id}");
        println!("    bots:");
        for (name, doc, params) in games::bot_docs(id) {
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
    let Ok(entries) = std::fs::read_dir(dir) else { return };
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
    let is_default = a.variant == Path::new("variants/penny-badger/standard.toml");
    let bots = a.bots.clone().or_else(|| is_default.then(|| "basic:bluff=0.3:challenge=0.3".to_string()));
    let sets = if a.sets.is_empty() && is_default { vec!["deck.action_sets=0".to_string()] } else { a.sets.clone() };
    let v = Variant::load(&a.variant, &sets)?;
    struct Bench {
        bots: Option<String>,
        games: u64,
    }
    impl GameCommand for Bench {
        type Output = ();
        fn run<G: Game>(self, game: G, variant: &Variant) -> Result<(), Error> {
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
fn _assert_from_variant<G: FromVariant>(g: &G, v: &Variant) -> Result<Vec<SeatPlan<G>>, Error> {
    plans(g, v, None)
}
