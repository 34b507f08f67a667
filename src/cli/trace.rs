//! `playtest trace`: one game as a readable play-by-play, as JSON Lines (`--json`) or as a
//! self-contained replay page (`--html FILE`), or into a trace file (`--out FILE`,
//! gzip-compressed when FILE ends in `.gz`); and `playtest replay`, which re-checks a JSON
//! trace, plain or compressed, through the engine.

use super::*;
use crate::engine::trace as tracing;
use crate::output::atomic::{OutputFile, invocation};
use crate::output::trace_file::{self, TraceWriter, compressed_name};

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
    /// Print the game as JSON Lines (start, decision, chance, state, end): every game as data.
    #[arg(long)]
    pub(super) json: bool,
    /// Write the game as one self-contained HTML replay page into FILE (opens from disk).
    #[arg(long, value_name = "FILE")]
    pub(super) html: Option<PathBuf>,
    /// Write the JSON Lines trace into FILE instead of printing it, gzip-compressed when FILE
    /// ends in `.gz` (the longest games' traces shrink 20 to 50 times); `replay` reads both.
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// A JSON Lines trace written by `playtest trace --json` or `--out FILE`, plain or
    /// gzip-compressed (told by its first bytes, not its name).
    pub(super) trace: PathBuf,
    /// Also write the replayed game as one self-contained HTML replay page into FILE (a game
    /// `play` saved, finished or abandoned, as `trace --html` draws one).
    #[arg(long, value_name = "FILE")]
    pub(super) html: Option<PathBuf>,
}

/// `playtest trace` on the variant's game.
pub(super) fn trace(game: &dyn GameHandle, variant: &Variant, a: &TraceArgs) -> Result<(), Error> {
    let seated = seat_any(game, variant, a.variant.bots.as_deref())?;
    let seed = a.game_seed.unwrap_or_else(|| game_seed(a.seed, a.game));
    if a.json || a.html.is_some() || a.out.is_some() {
        return trace_files(game, &*seated, variant, a, seed);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{} / {}: game seed {seed}; seats: {}", game.facts().id, variant.name, seated.seat_labels().join(", "));
    let mut print = |line: &str| {
        let _ = writeln!(out, "{line}");
    };
    let (_, search) = seated.play_by_play(seed, &mut print)?;
    // How much the `model=auto` searches read their samples from play (0: fresh samples).
    if let Some(mean) = search.mean_effective_samples() {
        let searches = search.watched_searches;
        let _ =
            writeln!(out, "search (model=auto): {searches} searches; mean effective sample size {mean:.1} of the particle pool (0 when it drew fresh samples)");
    }
    Ok(())
}

/// `trace --json`, `--html FILE` and `--out FILE`: the game of `seed` as JSON Lines, a
/// replay page or a trace file.
fn trace_files(game: &dyn GameHandle, seated: &dyn SeatedGame, variant: &Variant, a: &TraceArgs, seed: u64) -> Result<(), Error> {
    let broken = |step: u64, what: String| Error::Invariant(format!("seed {seed}: step {step}: {what}"));
    if let (Some(page), Some(file)) = (&a.html, &a.out)
        && page == file
    {
        return Err(Error::Usage(format!("--html and --out both name {}: name two files", file.display())));
    }
    // The files are taken (locked, probed) before the game is played, and each appears
    // only whole (`OutputFile`).
    let trace_out = a.out.as_deref().map(|f| OutputFile::create(f, &invocation())).transpose()?;
    let page_out = a.html.as_deref().map(|f| OutputFile::create(f, &invocation())).transpose()?;
    if let Some(page_out) = page_out {
        return trace_page((game, seated), variant, a, seed, (page_out, trace_out)).and_then(|result| result.map(|_| ()).map_err(|(s, w)| broken(s, w)));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let (Some(file_out), Some(file)) = (trace_out, &a.out) {
        // Streamed into the file (through gzip for a `.gz` name) as the game is played.
        let mut writer = TraceWriter::create(file_out.path(), compressed_name(file))?;
        let result = seated.trace(variant, seed, None, &mut |line| writer.line(&line));
        finish_trace(writer, file_out, file)?;
        return result.map(|_| ()).map_err(|(s, w)| broken(s, w));
    }
    let mut print = |line: tracing::Line| {
        let _ = writeln!(out, "{}", line.to_json());
    };
    seated.trace(variant, seed, None, &mut print).map(|_| ()).map_err(|(s, w)| broken(s, w))
}

/// `trace --html FILE`: writes the replay page of the game of `seed` (and the trace file of
/// `--out`, or the JSON Lines of `--json`); the game's outcome or (step, what) broke.
fn trace_page(
    (game, seated): (&dyn GameHandle, &dyn SeatedGame),
    variant: &Variant,
    a: &TraceArgs,
    seed: u64,
    (page_out, trace_out): (OutputFile, Option<OutputFile>),
) -> Result<Result<crate::engine::Outcome, (u64, String)>, Error> {
    let (text, result) = seated.json_trace(variant, seed, None);
    let title = format!("{} / {}: game seed {seed}", seated.facts().id, variant.name);
    let words = tracing::parse(&text).ok().and_then(|lines| game.trace_words(&lines).ok());
    crate::report::replay_page::write(page_out.path(), &title, &text, words.as_ref())?;
    page_out.commit()?;
    if let Some(page) = &a.html {
        let said = format!("wrote {}: the replay page of game seed {seed} ({} lines of trace inside)", page.display(), text.lines().count());
        // Beside `--json` on standard output, the note goes to standard error.
        if a.json && a.out.is_none() { eprintln!("{said}") } else { println!("{said}") }
    }
    if let (Some(file_out), Some(file)) = (trace_out, &a.out) {
        let mut writer = TraceWriter::create(file_out.path(), compressed_name(file))?;
        writer.text(&text);
        finish_trace(writer, file_out, file)?;
    } else if a.json {
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }
    Ok(result)
}

/// Finishes a trace file and commits it, saying what was written.
fn finish_trace(writer: TraceWriter, file_out: OutputFile, file: &Path) -> Result<(), Error> {
    let written = writer.finish()?;
    file_out.commit()?;
    println!("wrote {}: {}", file.display(), written.describe());
    Ok(())
}

/// `playtest replay TRACE`: exit 0 when the trace replays, 1 naming the first line that
/// differs (or the illegal action and the rule it breaks), 2 for a malformed file (a corrupt
/// or cut gzip stream too). A gzip-compressed trace is read decompressed: lines and columns
/// are those of its JSON Lines text.
pub(super) fn replay(a: &ReplayArgs) -> Result<(), Error> {
    let path = &a.trace;
    let text = trace_file::read(path)?;
    println!("{}", replay_text(path, &text)?);
    if let Some(page) = &a.html {
        let words = trace_words_of(path, &text)?;
        crate::report::replay_page::write_trace(page, path, &text, words.as_ref())?;
        println!("wrote {}: the replay page", page.display());
    }
    Ok(())
}

/// Replays the JSON Lines trace `text` (read from `path`, named in messages; a compressed
/// file's decompressed text, see [`crate::output::trace_file::read`]) through the
/// engine: `Ok` says what agreed; a trace that differs (or holds an illegal action) is
/// [`Error::CheckFailed`] naming its first differing line (exit code 1); a malformed one (a
/// line that is no trace line, or an action that is no action of the game) is
/// [`Error::Usage`] with line and column (exit code 2).
pub fn replay_text(path: &Path, text: &str) -> Result<String, Error> {
    let (lines, variant) = trace_variant(path, text)?;
    let game = games::handle(&variant)?;
    let facts = game.facts();
    match game.replay(&lines) {
        Ok(tracing::Replayed::Abandoned { decisions }) => Ok(format!(
            "{}: replays: {} lines, every legal set, chance result and state agree; abandoned after {decisions} decisions; the game was not finished",
            path.display(),
            lines.len()
        )),
        Ok(tracing::Replayed::Finished(outcome)) => {
            let decisions = lines.iter().filter(|(_, l)| matches!(l, tracing::Line::Decision(_))).count();
            Ok(format!(
                "{}: replays: {} lines, {decisions} decisions, every legal set, chance result and state agree; ended `{}` after {} {}",
                path.display(),
                lines.len(),
                facts.end_reasons.get(outcome.end_reason as usize).copied().unwrap_or("?"),
                outcome.length,
                facts.length_unit
            ))
        }
        Err(e @ tracing::ReplayError::Differs { .. }) => Err(Error::CheckFailed(format!("{}:{e}", path.display()))),
        Err(tracing::ReplayError::Unreadable { line, key, what }) => {
            let column = text.lines().nth(line - 1).map_or(1, |raw| tracing::value_column(raw, key));
            Err(Error::Usage(format!("{}:{line}:{column}: key `{key}`: {what}", path.display())))
        }
    }
}

/// The parsed lines of the JSON Lines trace `text` read from `path` and the variant its
/// `start` line records.
pub(super) fn trace_variant(path: &Path, text: &str) -> Result<(Vec<(usize, tracing::Line)>, Variant), Error> {
    let lines = tracing::parse(text).map_err(|(line, column, what)| Error::Usage(format!("{}:{line}:{column}: not a trace line: {what}", path.display())))?;
    let Some((n, tracing::Line::Start(start))) = lines.first() else {
        let n = lines.first().map_or(1, |(n, _)| *n);
        return Err(Error::Usage(format!("{}:{n}:1: a trace starts with a `start` line (`playtest trace VARIANT --json` writes one)", path.display())));
    };
    let table: toml::Table = serde_json::from_value(start.variant.clone())
        .map_err(|e| Error::Usage(format!("{}:{n}:1: key `variant`: not a variant table: {e}", path.display())))?;
    let toml_text = toml::to_string(&table).map_err(|e| Error::Usage(format!("{}:{n}:1: key `variant`: {e}", path.display())))?;
    let variant = Variant::from_toml_str(path, &toml_text)?;
    if variant.game != start.game {
        return Err(Error::Usage(format!("{}:{n}:1: the start line names game `{}` but its variant is of `{}`", path.display(), start.game, variant.game)));
    }
    Ok((lines, variant))
}

/// The replay page's words of the JSON Lines trace `text` read from `path`
/// ([`GameHandle::trace_words`]); `None` where the game cannot put a step in words (the page
/// then draws the states field by field).
pub fn trace_words_of(path: &Path, text: &str) -> Result<Option<serde_json::Value>, Error> {
    let (lines, variant) = trace_variant(path, text)?;
    Ok(games::handle(&variant)?.trace_words(&lines).ok())
}

/// The checked JSON trace of game `seed` of `variant` (bots: `--bots` syntax, else the
/// variant's): the JSON Lines text, and `Some((step, what))` when an invariant broke (the
/// text then ends with a `violation` line).
pub fn json_trace_of(variant: &Variant, bots: Option<&str>, seed: u64) -> Result<(String, Option<(u64, String)>), Error> {
    let game = games::handle(variant)?;
    let (text, result) = seat_any(&*game, variant, bots)?.json_trace(variant, seed, None);
    Ok((text, result.err()))
}
