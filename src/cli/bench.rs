//! `playtest bench`: games per second on one thread and on all threads, with the game's benchmark line-up
//! (and search iterations per second when a seat plays `ismcts`).

use super::*;

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// The variant (default: the bundled Penny Badger standard variant).
    #[arg(default_value = "variants/penny-badger/standard.toml")]
    pub(super) variant: PathBuf,
    /// Bots (default: the benchmark line-up for Penny Badger).
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) bots: Option<String>,
    /// Overrides (default for Penny Badger: deck.action_sets=0).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
    /// Games per measurement.
    #[arg(long, default_value_t = 1_000_000, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) games: u64,
}

pub(super) fn bench(a: BenchArgs) -> Result<(), Error> {
    // The game's benchmark line-up fills in what the command line leaves out.
    let lineup = games::entry(&Variant::load(&a.variant, &a.sets)?.game).map(|e| e.bench);
    let bots = a.bots.clone().or_else(|| lineup.map(|l| l.bots.to_string()));
    let sets = match lineup {
        Some(l) if a.sets.is_empty() => l.sets.iter().map(|s| s.to_string()).collect(),
        _ => a.sets.clone(),
    };
    let v = Variant::load(&a.variant, &sets)?;
    let game = games::handle(&v)?;
    let seated = seat_any(&*game, &v, bots.as_deref())?;
    println!("bench: {} / {}, bots {}, {} games per measurement", game.facts().id, v.name, seated.seat_labels().join(","), a.games);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut one = 0.0;
    for threads in [1, cores] {
        let cfg = RunConfig { threads, ..RunConfig::new(a.games, 1) };
        let r = seated.run_kept(cfg, &mut |_| {})?;
        let rate = r.tally.games as f64 / r.seconds;
        let searched = r.search.iterations;
        if searched > 0 {
            println!("  {threads} thread(s): {:>12.0} ismcts iterations/s ({searched} iterations)", searched as f64 / r.seconds);
        }
        if let Some(mean) = r.search.mean_effective_samples() {
            println!("  model=auto: mean effective sample size {mean:.1} of the particle pool over {} searches", r.search.watched_searches);
        }
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
