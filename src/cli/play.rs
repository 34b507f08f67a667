//! `playtest play VARIANT`: one game in the browser with the designer in one seat and the
//! variant's bots in the others (see [`crate::play`]). Prints the address to open (with its
//! token) and where the game is saved; opens nothing itself; Ctrl-C ends it, the game so far
//! kept as a trace that `playtest replay` reads.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::Error;
use crate::play::server::{self, ServerOptions};
use crate::play::{Seating, open};
use crate::variant::Variant;

/// Flags of `playtest play`.
#[derive(Args, Debug)]
pub(super) struct PlayArgs {
    /// The variant file (TOML); with --from, the trace's own variant when left out.
    #[arg(required_unless_present = "from")]
    variant: Option<PathBuf>,
    /// Your seat (0 = the first player).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// The bots: one SPEC for every other seat or one per seat (your own is ignored), SPEC = name[:param=value]...
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    bots: Option<String>,
    /// Override any key of the variant, e.g. --set deck.action_sets=0 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// The game's seed: the same seed deals the same game (default: a fresh one, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Show the search bot's advice at every one of your decisions (else on request).
    #[arg(long)]
    hints: bool,
    /// Save the game as a JSON trace into FILE (default: VARIANT-play-SEED.jsonl here).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Take over a saved game: the JSON trace TRACE (`play --save`, `trace --out`) played
    /// again up to --step, its seed and (unless VARIANT is given) its variant.
    #[arg(long, value_name = "TRACE")]
    from: Option<PathBuf>,
    /// With --from: the decisions of the trace played again before you take over (default 0:
    /// from the deal).
    #[arg(long, value_name = "K", requires = "from")]
    step: Option<u64>,
}

/// Runs `playtest play`.
pub(super) fn play(a: &PlayArgs) -> Result<(), Error> {
    let from = match &a.from {
        Some(file) => {
            let text = crate::output::trace_file::read(file)?;
            let (lines, variant) = super::trace::trace_variant(file, &text)?;
            Some((file, lines, variant))
        }
        None => None,
    };
    let variant = match (&a.variant, &from) {
        (Some(path), _) => Variant::load(path, &a.sets)?,
        (None, Some((_, _, variant))) if a.sets.is_empty() => variant.clone(),
        (None, Some((file, _, _))) => {
            return Err(Error::Usage(format!("--set needs a VARIANT file: the variant of {} is taken as it was played", file.display())));
        }
        (None, None) => return Err(Error::Usage("a VARIANT file (or --from TRACE) is needed".into())),
    };
    let traced_seed = from.as_ref().and_then(|(_, lines, _)| match lines.first() {
        Some((_, crate::engine::trace::Line::Start(start))) => Some(start.game_seed),
        _ => None,
    });
    if let (Some(asked), Some(traced)) = (a.seed, traced_seed)
        && asked != traced
    {
        return Err(Error::Usage(format!("--seed {asked}: the trace of --from is the game of seed {traced}; leave --seed out")));
    }
    let seed = a.seed.or(traced_seed).unwrap_or_else(|| {
        use rand::RngExt;
        rand::rng().random_range(0..1_000_000_000u64)
    });
    let mut table = open(&variant, &Seating { seat: a.seat, bots: a.bots.clone(), seed })?;
    if let Some((file, lines, _)) = &from {
        table.replay_decisions(lines, a.step.unwrap_or(0)).map_err(|what| Error::Usage(format!("--from {}: {what}", file.display())))?;
    }
    let stem = a.variant.as_deref().or(a.from.as_deref()).unwrap_or(Path::new("game"));
    let save = match &a.save {
        Some(file) => file.clone(),
        None => default_save(stem, seed),
    };
    crate::interrupt::install_saying("stopping the game; the trace so far is kept (press Ctrl-C again to stop at once)");
    let title = table.title();
    let running = server::start(table, ServerOptions { port: a.port, save: Some(save.clone()), hints: a.hints, page_extra: String::new() })?;
    println!("playtest play: {title}, you in seat {}, game seed {seed} (--seed {seed} deals it again)", a.seat);
    println!("open in your browser: {}", running.url());
    println!("the game is saved as it goes to {} (`playtest replay` reads it); press Ctrl-C to stop", save.display());
    let finished = running.wait()?;
    println!(
        "stopped: {} decisions{}; the game is in {} (`playtest replay {} --html FILE` draws it)",
        finished.decisions,
        if finished.over { ", the game is over" } else { ", the game was not finished" },
        save.display(),
        save.display()
    );
    Ok(())
}

/// `VARIANT-play-SEED.jsonl` in the current folder, with `-2`, `-3`, ... added when taken (a
/// game played again from the same seed does not overwrite the first).
fn default_save(variant: &Path, seed: u64) -> PathBuf {
    let stem = variant.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "game".into());
    let mut file = PathBuf::from(format!("{stem}-play-{seed}.jsonl"));
    let mut n = 2;
    while file.exists() {
        file = PathBuf::from(format!("{stem}-play-{seed}-{n}.jsonl"));
        n += 1;
    }
    file
}
