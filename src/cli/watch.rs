//! `playtest watch VARIANT`: writes the report, then writes it again whenever the variant file
//! (or a file it `extends`) is saved, until Ctrl-C.
//!
//! - **Events.** The folders of every file of the `extends` chain are watched (not the files:
//!   editors save by truncating or by renaming a new file over the old one) and events are
//!   filtered by file name, debounced (`--debounce-ms`, default 300) so one save is one rerun.
//! - **Never half-written.** Every report is written through [`OutputDir`] (a temporary
//!   folder, then one swap), its `report-version.js` renamed in last.
//! - **The page reloads itself.** `index.html` re-adds `<script src="report-version.js?t=...">`
//!   every second (a page opened from disk cannot `fetch()` a file, but it can load a script);
//!   the script reports the version of the report on disk and the page reloads when it is not
//!   its own.
//! - **What moved.** From the second report on, the top of the page shows what moved since
//!   the previous save: `compare` of the previous variant (as played) and the new one on the
//!   same games (common random numbers), the metrics whose paired 95% CI excludes 0.
//! - **A bad edit** (a TOML error, an unknown key, a value out of range) prints the error on
//!   the terminal and shows it at the top of the page, above the last good report, which is
//!   kept.
//! - **Ctrl-C** ends the watch: a report being played is dropped (the last one stays whole)
//!   and the command exits 0.

use std::time::Duration;

use super::report::{ReportArgs, Written, write_report};
use super::*;
use crate::designer::compare::{CompareOptions, Comparison, measure};
use crate::designer::write_file;
use crate::output::atomic::VERSION_FILE;
use crate::report::html::escape;

#[derive(Args, Debug)]
pub(super) struct WatchArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    /// Games per report (and per side of the comparison with the previous save).
    #[arg(long, default_value_t = 5_000, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) games: u64,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Master seed: every report plays the same games.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Worker threads (0 = all cores). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub(super) threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub(super) quiet: bool,
    /// Output folder (default reports/<game>/<variant>/watch/).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Quiet time after the last file event before a rerun (milliseconds).
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub(super) debounce_ms: u64,
}

/// What the watch remembers between saves.
struct State {
    /// Reports written (good or not).
    generation: u64,
    /// The last good report's `index.html` as `report` wrote it (before the watch banner).
    last_good: Option<String>,
    /// The generation of the last good report.
    last_good_generation: u64,
    /// The last good variant as played (a file in a private temporary folder), for `compare`.
    previous: Option<PathBuf>,
    /// The private temporary folder.
    scratch: PathBuf,
    /// The last good variant's table (extends resolved), to name the keys a save changed.
    previous_table: Option<toml::Table>,
}

/// Runs `playtest watch`.
pub(super) fn watch(a: WatchArgs) -> Result<(), Error> {
    use notify_debouncer_full::{new_debouncer, notify::RecursiveMode};
    crate::interrupt::install();
    let path = a.variant.variant.clone();
    let dir = match &a.out {
        Some(d) => d.clone(),
        None => {
            let v = load(&a.variant)?;
            let dir = Path::new("reports").join(&v.game).join(&v.name).join("watch");
            super::report::refuse_another_source(&dir, &a.variant)?;
            dir
        }
    };
    let scratch = std::env::temp_dir().join(format!("playtest-watch-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| Error::output(&scratch, e))?;
    let mut state = State { generation: 0, last_good: None, last_good_generation: 0, previous: None, scratch, previous_table: None };
    let (tx, rx) = std::sync::mpsc::channel();
    let mut debouncer = new_debouncer(Duration::from_millis(a.debounce_ms), None, tx).map_err(|e| Error::Usage(format!("cannot watch files: {e}")))?;
    let mut watched_dirs: Vec<PathBuf> = Vec::new();
    let mut watched: Vec<PathBuf> = Vec::new();
    let mut rewatch = |debouncer: &mut notify_debouncer_full::Debouncer<_, _>, watched: &mut Vec<PathBuf>| -> Result<(), Error> {
        *watched = chain(&path);
        for file in watched.iter() {
            let Some(parent) = file.parent() else { continue };
            if !watched_dirs.iter().any(|d| d == parent) {
                debouncer.watch(parent, RecursiveMode::NonRecursive).map_err(|e| Error::Usage(format!("cannot watch {}: {e}", parent.display())))?;
                watched_dirs.push(parent.to_path_buf());
            }
        }
        Ok(())
    };
    rewatch(&mut debouncer, &mut watched)?;
    println!("watching {} (and the files it extends); the report is in {}; Ctrl-C ends", path.display(), dir.display());
    rebuild(&a, &dir, &mut state);
    while !crate::interrupt::requested() {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(Ok(events)) => {
                // Writes, creations, renames and removals of a watched file; not reads (the
                // rerun itself opens the files) nor metadata.
                use notify_debouncer_full::notify::EventKind;
                use notify_debouncer_full::notify::event::ModifyKind;
                let touched = events.iter().any(|e| {
                    let saved = matches!(
                        e.kind,
                        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any)
                    );
                    saved && e.paths.iter().any(|p| watched.iter().any(|w| w == p))
                });
                if touched {
                    rebuild(&a, &dir, &mut state);
                    // A bad save (an `extends` to a folder that is not there) must not end
                    // the watch: the files watched so far stay watched.
                    if let Err(e) = rewatch(&mut debouncer, &mut watched) {
                        eprintln!("watch: {e}; still watching the files before it");
                    }
                }
            }
            Ok(Err(errors)) => {
                for e in errors {
                    eprintln!("watch: {e}");
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let _ = std::fs::remove_dir_all(&state.scratch);
    println!("stopped watching; the last report stays in {}", dir.display());
    Ok(())
}

/// The files of the `extends` chain of `path` (absolute, the file first), as far as they read
/// and parse (a bad edit keeps the files before it watched).
fn chain(path: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut next = Some(path.to_path_buf());
    while let Some(p) = next.take() {
        let abs = std::fs::canonicalize(&p).unwrap_or_else(|_| std::env::current_dir().map(|c| c.join(&p)).unwrap_or(p.clone()));
        if out.contains(&abs) || out.len() > 32 {
            break;
        }
        out.push(abs.clone());
        let Ok(text) = std::fs::read_to_string(&abs) else { break };
        let Ok(table) = toml::from_str::<toml::Table>(&text) else { break };
        if let Some(toml::Value::String(base)) = table.get("extends") {
            next = Some(abs.parent().unwrap_or(Path::new("/")).join(base));
        }
    }
    out
}

/// Writes the report of the variant as saved now (or, for a bad edit, the error above the
/// last good report); prints what happened. Never returns an error: the watch goes on.
fn rebuild(a: &WatchArgs, dir: &Path, state: &mut State) {
    state.generation += 1;
    let started = std::time::Instant::now();
    match good_report(a, dir, state) {
        Ok(Some(line)) => println!("report {} written into {} in {:.1} s{line}", state.generation, dir.display(), started.elapsed().as_secs_f64()),
        Ok(None) => {}
        Err(e) => {
            eprintln!("error: {e}");
            match error_page(dir, state, &e) {
                Ok(()) => eprintln!(
                    "the page shows the error above the last good report{}",
                    if state.last_good.is_some() { format!(" (report {})", state.last_good_generation) } else { String::new() }
                ),
                Err(e2) => eprintln!("error: cannot write the error page: {e2}"),
            }
        }
    }
}

/// The report of the variant as saved now: `Ok(None)` when a Ctrl-C stopped it.
fn good_report(a: &WatchArgs, dir: &Path, state: &mut State) -> Result<Option<String>, Error> {
    let variant = load(&a.variant)?;
    let out = OutputDir::create(dir, &crate::output::atomic::invocation())?;
    let report = ReportArgs {
        variant: a.variant.clone(),
        run: RunArgs { games: a.games, seed: a.seed, threads: a.threads, checked: false, quiet: a.quiet, rotate: false },
        precision: a.precision.clone(),
        out: Some(dir.to_path_buf()),
        shard: None,
        keep_partial: false,
        ladder: None,
        ladder_games: 400,
        audit: false,
        baseline: None,
    };
    let summary = match watch_report(&variant, &report, out.path())? {
        Written::Stopped(..) => return Ok(None),
        Written::Done { summary, .. } => summary,
    };
    // What moved since the previous good save, on the same games.
    let moved = match &state.previous {
        None => None,
        Some(prev) => {
            let o = CompareOptions {
                a: prev.clone(),
                b: Some(a.variant.variant.clone()),
                bots: a.variant.bots.clone(),
                bots_b: None,
                sets: a.variant.sets.clone(),
                sets_b: Vec::new(),
                run: crate::designer::RunOptions { games: summary.games, seed: a.seed, threads: a.threads, checked: false, quiet: true, rotate: false },
                seed_b: None,
                precision: PrecisionArgs::default(),
                json: true,
                out: None,
                keep_partial: false,
            };
            Some(measure(&o))
        }
    };
    if crate::interrupt::requested() {
        return Ok(None);
    }
    let page = std::fs::read_to_string(out.path().join("index.html")).map_err(|e| Error::output(&dir.join("index.html"), e))?;
    let changed = state.previous_table.as_ref().map(|before| changed_keys_text(before, &variant.table));
    let banner = match &moved {
        None => format!("<p>First report of this watch ({} games). Save the variant to see what moves.</p>", summary.games),
        Some(Ok(c)) => format!("<p>Changed since the previous save: {}.</p>\n{}", escape(changed.as_deref().unwrap_or("nothing")), moved_html(c)),
        Some(Err(e)) => format!("<p>What moved: the comparison with the previous save could not run: {}</p>", escape(&e.to_string())),
    };
    let version = version(state.generation);
    let html = patch(&page, &watch_box(state.generation, &banner, false), &version);
    write_file(&out.path().join("index.html"), &html)?;
    write_file(&out.path().join(VERSION_FILE), &version_js(&version))?;
    out.commit()?;
    let previous = state.scratch.join("previous.toml");
    write_file(&previous, &variant.as_played())?;
    state.previous = Some(previous);
    state.previous_table = Some(variant.table.clone());
    state.last_good = Some(page);
    state.last_good_generation = state.generation;
    let line = match &moved {
        Some(Ok(c)) => {
            let names: Vec<String> = c.metrics.iter().filter(|m| m.significant == Some(true)).map(|m| m.name.clone()).collect();
            let keys = changed.map(|k| format!("; changed: {k}")).unwrap_or_default();
            if names.is_empty() { format!("{keys}; nothing moved significantly") } else { format!("{keys}; moved: {}", names.join(", ")) }
        }
        _ => String::new(),
    };
    Ok(Some(line))
}

/// The keys a save changed, with their values before and after ("deck.copies 5 -> 6,
/// rounds (unset) -> 3"), or a sentence when no rule key changed.
fn changed_keys_text(before: &toml::Table, after: &toml::Table) -> String {
    fn at<'t>(t: &'t toml::Table, key: &str) -> Option<&'t toml::Value> {
        let mut parts = key.split('.');
        let mut v = t.get(parts.next()?)?;
        for p in parts {
            v = v.as_table()?.get(p)?;
        }
        Some(v)
    }
    let show = |v: Option<&toml::Value>| v.map_or("(unset)".to_string(), |v| v.to_string());
    let keys = crate::designer::bot_keys::changed_keys(before, after);
    if keys.is_empty() {
        return "no rule key (only the name, description, bots or bounds, or nothing at all)".into();
    }
    keys.iter().map(|k| format!("{k} {} -> {}", show(at(before, k)), show(at(after, k)))).collect::<Vec<_>>().join(", ")
}

/// Plays and writes a report of the variant into the output's temporary folder `dir`.
fn watch_report(variant: &Variant, args: &ReportArgs, dir: &Path) -> Result<Written, Error> {
    let game = games::handle(variant)?;
    let seated = seat_any(&*game, variant, args.variant.bots.as_deref())?;
    write_report(&*game, &*seated, variant, args, dir)
}

/// Writes the last good report again with the error at the top of its page (or a page with
/// only the error when there is no good report yet).
fn error_page(dir: &Path, state: &State, e: &Error) -> Result<(), Error> {
    let out = OutputDir::create(dir, &crate::output::atomic::invocation())?;
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir).map_err(|e| Error::output(dir, e))?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "index.html" || name == VERSION_FILE || !entry.path().is_file() {
                continue;
            }
            let to = out.path().join(&name);
            std::fs::copy(entry.path(), &to).map_err(|e| Error::output(&to, e))?;
        }
    }
    let message = format!(
        "<p><strong>The variant has an error: the report below is the last good one{}.</strong> Fix the file and save: the page reloads.</p><pre>{}</pre>",
        if state.last_good.is_some() { format!(" (report {})", state.last_good_generation) } else { " (none yet)".to_string() },
        escape(&e.to_string())
    );
    let base = state.last_good.clone().unwrap_or_else(|| {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>playtest watch</title>\n</head>\n<body>\n<h1>playtest watch</h1>\n</body>\n</html>\n".to_string()
    });
    let version = version(state.generation);
    write_file(&out.path().join("index.html"), &patch(&base, &watch_box(state.generation, &message, true), &version))?;
    write_file(&out.path().join(VERSION_FILE), &version_js(&version))?;
    out.commit()
}

/// A version string no two reports of any watch share (generation and time).
fn version(generation: u64) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{generation}-{nanos}")
}

fn version_js(version: &str) -> String {
    format!("playtestReportVersion({version:?});\n")
}

/// The clock time (UTC) of now, `HH:MM:SS`.
fn clock() -> String {
    let s = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format!("{:02}:{:02}:{:02} UTC", s / 3600 % 24, s / 60 % 60, s % 60)
}

fn watch_box(generation: u64, body: &str, error: bool) -> String {
    let (border, background) = if error { ("#c00", "#fee") } else { ("#888", "#f7f7f7") };
    format!(
        "<div id=\"watch\" style=\"border:2px solid {border};background:{background};padding:0.3em 1em;margin:1em 0\">\n<p><strong>playtest watch</strong>: report {generation}, {}. This page reloads itself when a new report is written.</p>\n{body}\n</div>\n",
        clock()
    )
}

/// `page` with the watch box first in its body and the script that reloads it.
fn patch(page: &str, watch_box: &str, version: &str) -> String {
    let script = format!(
        "<script>\n(function () {{\n  var mine = {version:?};\n  window.playtestReportVersion = function (v) {{ if (v !== mine) {{ location.reload(); }} }};\n  setInterval(function () {{\n    var s = document.createElement('script');\n    s.src = '{VERSION_FILE}?t=' + Date.now();\n    s.onload = s.onerror = function () {{ s.remove(); }};\n    document.head.appendChild(s);\n  }}, 1000);\n}})();\n</script>\n"
    );
    match page.find("<body>") {
        Some(i) => {
            let at = i + "<body>".len();
            format!("{}\n{watch_box}{script}{}", &page[..at], &page[at..])
        }
        None => format!("{watch_box}{script}{page}"),
    }
}

/// What moved, as HTML: the metrics whose paired 95% CI of the difference excludes 0.
fn moved_html(c: &Comparison) -> String {
    use crate::designer::metrics::{Unit, format_diff};
    use std::fmt::Write as _;
    let unit = |u: &str| match u {
        "share" => Unit::Share,
        "length" => Unit::Length,
        _ => Unit::Plain,
    };
    let moved: Vec<_> = c.metrics.iter().filter(|m| m.significant == Some(true)).collect();
    let mut h = format!(
        "<h2>What moved since the previous save</h2>\n<p>The previous and the new variant played the same {} games (seed {}, common random numbers): ",
        c.games, c.a.seed
    );
    if moved.is_empty() {
        h.push_str("no metric moved (no paired 95% CI of a difference excludes 0).</p>");
        return h;
    }
    let _ = write!(
        h,
        "{} metric(s) whose paired 95% CI of the difference excludes 0.</p>\n<table><tr><th class=l>metric</th><th>before</th><th>after</th><th>change</th><th>paired 95% CI</th></tr>\n",
        moved.len()
    );
    for m in moved {
        let u = unit(m.unit);
        let ci = m.paired_ci.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", format_diff(u, lo), format_diff(u, hi)));
        let _ = writeln!(
            h,
            "<tr><td class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&m.name),
            escape(&crate::designer::compare::value_of(m, m.a)),
            escape(&crate::designer::compare::value_of(m, m.b)),
            escape(&format_diff(u, m.diff)),
            escape(&ci)
        );
    }
    h.push_str("</table>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patched_page_reloads_from_its_version_script() {
        let page = "<!DOCTYPE html>\n<html>\n<head></head>\n<body>\n<h1>x</h1>\n</body>\n</html>\n";
        let p = patch(page, "<div id=\"watch\">box</div>\n", "3-99");
        assert!(p.find("<div id=\"watch\">").unwrap() < p.find("<h1>x</h1>").unwrap());
        assert!(p.contains("var mine = \"3-99\";"));
        assert!(p.contains("'report-version.js?t=' + Date.now()"));
        assert_eq!(version_js("3-99"), "playtestReportVersion(\"3-99\");\n");
    }

    #[test]
    fn the_watch_box_names_the_keys_a_save_changed() {
        let before: toml::Table = toml::from_str("game = \"pig-farm\"\nrounds = 3\n[deck]\nbase_sets = 4\n").unwrap();
        let after: toml::Table = toml::from_str("game = \"pig-farm\"\nrounds = 3\nhand_size = 5\n[deck]\nbase_sets = 5\n").unwrap();
        assert_eq!(changed_keys_text(&before, &after), "deck.base_sets 4 -> 5, hand_size (unset) -> 5");
        assert!(changed_keys_text(&before, &before).starts_with("no rule key"));
    }

    #[test]
    fn the_extends_chain_is_followed_as_far_as_it_parses() {
        let d = std::env::temp_dir().join(format!("playtest-watch-chain-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("base.toml"), "game = \"pig-farm\"\n").unwrap();
        std::fs::write(d.join("v.toml"), "extends = \"base.toml\"\n").unwrap();
        let c = chain(&d.join("v.toml"));
        assert_eq!(c.len(), 2);
        assert!(c[1].ends_with("base.toml"));
        std::fs::write(d.join("v.toml"), "extends = [\n").unwrap();
        assert_eq!(chain(&d.join("v.toml")).len(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }
}
