//! `playtest report`: play and write every chart, report.md, index.html and summary.json.

use super::game_rows::{Lengths, RowSums, TypicalGame};
use super::*;
use crate::output::stream::RowWriter;

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Output folder (default reports/<game>/<variant>/).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.json into the output
    /// folder (merge them with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    pub(super) shard: Option<String>,
    /// On Ctrl-C, still write the report complete for the games played, marked partial
    /// (default: write nothing and leave the folder as it was).
    #[arg(long)]
    pub(super) keep_partial: bool,
    /// Add a skill ladder of these bots (weakest first, as `playtest ladder --bots`): the skill
    /// curve, the win-rate matrix and the ratings join the report and index.html.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) ladder: Option<String>,
    /// Games per pairing of `--ladder` (rounded up to whole rotation blocks).
    #[arg(long, default_value_t = 400, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) ladder_games: u64,
    /// Also audit the rules (`playtest audit` with its defaults, same seed and threads) into
    /// the report's audit/ folder and add its section to report.md and index.html.
    #[arg(long)]
    pub(super) audit: bool,
    /// Compare this variant (B, with its --set) with OTHER (A, a variant file of the same
    /// game) on the same seeds and bots, as `playtest compare OTHER VARIANT` does: the verdict
    /// and every figure's move join report.md and index.html, and the comparison's own page,
    /// JSON, CSV and charts go into the report's baseline/ folder.
    #[arg(long, value_name = "OTHER")]
    pub(super) baseline: Option<PathBuf>,
}

/// `playtest report` on the variant's game.
pub(super) fn report(game: &dyn GameHandle, variant: &Variant, a: &ReportArgs) -> Result<(), Error> {
    let seated = seat_any(game, variant, a.variant.bots.as_deref())?;
    let dir = match &a.out {
        Some(dir) => dir.clone(),
        None => {
            let dir = Path::new("reports").join(game.facts().id).join(&variant.name);
            refuse_another_source(&dir, &a.variant)?;
            dir
        }
    };
    if let Some(text) = &a.shard {
        return scale::report_shard(&*seated, variant, (&a.variant, &a.run, a.out.as_ref()), &dir, text);
    }
    // The ladder's bots and the baseline are checked before anything is played.
    ladder_labels(game, variant, a)?;
    check_baseline(variant, a)?;
    // Before the long run: the folder's lock and a writable temporary folder.
    let out = open_out(&dir)?;
    let (summary, _written, stopped_at) = match write_report(game, &*seated, variant, a, out.path())? {
        Written::Stopped(_, p) if p.played == 0 => return Err(stopped_before_any_game(Some(out))),
        Written::Stopped(summary, p) => {
            print!("{}", summary.table());
            return Err(stopped(Some(out), false, &format!("{} games", p.played)));
        }
        Written::Done { summary, files, partial } => (summary, files, partial),
    };
    if let Some(p) = &stopped_at {
        print!("{}", summary.table());
        return Err(stopped(Some(out), true, &format!("{} games", p.played)));
    }
    if a.audit {
        add_audit(a, out.path())?;
    }
    out.commit()?;
    print!("{}", summary.table());
    println!("wrote {} files into {}", files_in(&dir), dir.display());
    Ok(())
}

/// Files under `dir` (its subfolders too, hidden ones such as the lock aside): what a report
/// folder holds once written, so the count said matches the folder.
fn files_in(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => files_in(&e.path()),
            _ => 1,
        })
        .sum()
}

/// `report --audit`: audits the variant into the report's `audit/` folder and adds its
/// section to the report.
fn add_audit(a: &ReportArgs, dir: &Path) -> Result<(), Error> {
    let audit = crate::designer::audit::run(&crate::designer::audit::AuditOptions {
        variant: a.variant.variant.clone(),
        bots: a.variant.bots.clone(),
        sets: a.variant.sets.clone(),
        seed: a.run.seed,
        threads: a.run.threads,
        quiet: a.run.quiet,
        write_into: Some(dir.join("audit")),
        ..Default::default()
    })?;
    crate::designer::audit::write::append_to_report(&audit, dir)?;
    println!("audit: {}", audit.verdict);
    Ok(())
}

/// The variant file, `--bots` and `--set` overrides a report was made from, as the command
/// its `report.md` records ("Reproduce with: playtest report FILE ... --set K=V").
#[derive(Debug, PartialEq)]
struct Source {
    file: PathBuf,
    bots: Option<String>,
    sets: Vec<String>,
}

impl Source {
    fn of(v: &VariantArgs) -> Source {
        Source { file: v.variant.clone(), bots: v.bots.clone(), sets: v.sets.clone() }
    }

    /// The source recorded by the report in `dir` (`None`: the folder holds no report).
    fn recorded(dir: &Path) -> Option<Source> {
        let md = std::fs::read_to_string(dir.join("report.md")).ok()?;
        let (_, after) = md.split_once("Reproduce with:")?;
        let command = after.lines().map(str::trim).find(|l| l.starts_with("playtest "))?;
        let words: Vec<&str> = command.split_whitespace().collect();
        let file = PathBuf::from(words.get(2)?);
        let value_of = |flag: &str| words.windows(2).filter(|w| w[0] == flag).map(|w| w[1].to_string()).collect::<Vec<_>>();
        Some(Source { file, bots: value_of("--bots").pop(), sets: value_of("--set") })
    }

    /// Whether `other` names the same file (the same file on disk, else the same path) with
    /// the same bots and overrides.
    fn same(&self, other: &Source) -> bool {
        let same_file = match (self.file.canonicalize(), other.file.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => self.file == other.file,
        };
        same_file && self.bots == other.bots && self.sets == other.sets
    }

    fn describe(&self) -> String {
        let mut d = self.file.display().to_string();
        if let Some(b) = &self.bots {
            d.push_str(&format!(" --bots {b}"));
        }
        for s in &self.sets {
            d.push_str(&format!(" --set {s}"));
        }
        d
    }
}

/// Refuses to write a default output folder (`reports/<game>/<name>/`, keyed by the variant's
/// name) that holds the report of another variant file, or of the same file with other bots
/// or overrides: an edited copy of a variant keeps its `name` and must not replace the
/// report of the original. The message names both and the fix (`--out DIR`).
pub(super) fn refuse_another_source(dir: &Path, v: &VariantArgs) -> Result<(), Error> {
    let Some(recorded) = Source::recorded(dir) else { return Ok(()) };
    let mine = Source::of(v);
    if recorded.same(&mine) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{}/ holds the report of {}; this run is {}: pass --out DIR to write its report elsewhere (or delete that folder to replace it)",
        dir.display(),
        recorded.describe(),
        mine.describe()
    )))
}

/// What [`write_report`] did.
pub(super) enum Written {
    /// A Ctrl-C stopped the run and `--keep-partial` was not given: nothing was written.
    Stopped(Summary, Partial),
    /// The report is written (marked partial when a Ctrl-C stopped it with `--keep-partial`).
    Done {
        /// The run's summary.
        summary: Summary,
        /// The files written.
        files: Vec<PathBuf>,
        /// How the run was stopped, if it was.
        partial: Option<Partial>,
    },
}

/// The bots of `--ladder` (none without it); a usage error for fewer than two or a bot
/// the game does not have.
fn ladder_labels(game: &dyn GameHandle, variant: &Variant, a: &ReportArgs) -> Result<Option<Vec<String>>, Error> {
    let Some(text) = &a.ladder else { return Ok(None) };
    let specs = parse_bots(Some(text))?.unwrap_or_default();
    let labels = super::ladder::distinct_bots("--ladder", &specs)?;
    for l in &labels {
        seat_any(game, variant, Some(l)).map_err(|e| Error::Usage(format!("--ladder: {e}")))?;
    }
    Ok(Some(labels))
}

/// A usage error when `--baseline` names a file that does not load or holds another game.
fn check_baseline(variant: &Variant, a: &ReportArgs) -> Result<(), Error> {
    let Some(path) = &a.baseline else { return Ok(()) };
    let base = Variant::load(path, &[])?;
    if base.game != variant.game {
        return Err(Error::Usage(format!(
            "--baseline: {} is a `{}` variant but {} is `{}`; compare variants of one game",
            path.display(),
            base.game,
            variant.path.display(),
            variant.game
        )));
    }
    Ok(())
}

/// The comparison of `--baseline` (A) with the report's variant and overrides (B), `games`
/// games each on the report's seed and bots.
fn baseline(a: &ReportArgs, games: u64) -> Result<crate::designer::compare::Comparison, Error> {
    let Some(path) = &a.baseline else { return Err(Error::Usage("--baseline: no file given".into())) };
    crate::designer::compare::measure(&CompareOptions {
        a: path.clone(),
        b: Some(a.variant.variant.clone()),
        bots: a.variant.bots.clone(),
        bots_b: None,
        sets: Vec::new(),
        sets_b: a.variant.sets.clone(),
        run: run_options(&RunArgs { games, ..a.run.clone() }),
        seed_b: None,
        precision: PrecisionArgs::default(),
        json: false,
        out: None,
        keep_partial: false,
    })
}

/// Plays the games of a report and writes every file of it into `dir` (an output's
/// temporary folder; the caller commits it): `report` and `watch` share it.
pub(super) fn write_report(game: &dyn GameHandle, seated: &dyn SeatedGame, variant: &Variant, a: &ReportArgs, dir: &Path) -> Result<Written, Error> {
    let cfg = RunConfig {
        threads: a.run.threads,
        checked: a.run.checked,
        rotate: a.run.rotate || variant.rotate,
        detailed: true,
        ..RunConfig::new(a.run.games, a.run.seed)
    };
    let facts = seated.facts();
    let rotation = if cfg.rotate { seated.acting() } else { 0 };
    // The rows are not kept: each batch goes to games.parquet/games.csv, the per-game sums
    // and the length histogram as it is folded, so memory does not grow with the games.
    let labels = seated.seat_labels();
    let mut writer = RowWriter::create(dir, "games", RowContext { seats: facts.seats, seat_bots: &labels, end_reasons: facts.end_reasons })?;
    let mut sums = RowSums::new(facts, rotation);
    let mut lengths = Lengths::default();
    let mut sink = |rows: &[sim::GameRow]| {
        sums.add(rows);
        lengths.add(rows);
        writer.write(rows)
    };
    let replay = crate::designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
    let (result, reached) =
        crate::designer::precision::run_sim(seated, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.run.quiet), Some(&mut sink))?;
    let stopped_at = partial(result.tally.games, a.precision.precision.is_none().then_some(cfg.games));
    if let (Some(r), None) = (&reached, &stopped_at) {
        println!("{}", r.describe());
    }
    let mut summary = summarise(seated, variant, &cfg, &result);
    if let Some(p) = &stopped_at {
        if p.played == 0 {
            return Ok(Written::Stopped(summary, *p));
        }
        println!("{}", p.banner());
        if !a.keep_partial {
            return Ok(Written::Stopped(summary, *p));
        }
    }
    writer.finish()?;
    let (charts, tables, key_chart) = report_parts(game, seated, variant, a, (&result, &mut summary, (sums.moments(), rotation), dir, stopped_at.is_some()))?;
    let files = crate::report::write(ReportInput {
        dir,
        summary: &summary,
        charts,
        command: command_line("report", &a.variant, &RunArgs { games: result.tally.games, ..a.run.clone() }, &report_flags(a)),
        variant_toml: variant.as_played(),
        description: crate::designer::bot_keys::with_score_note(&variant.description, &variant.game, &seated.labels()),
        partial: stopped_at,
        tables,
        replay: typical_replay(seated, variant, lengths.typical(), dir, (&replay_of(a), rotation))?,
        key_chart,
    })?;
    Ok(Written::Done { summary, files, partial: stopped_at })
}

/// The `playtest trace` command line of a report's variant, bots and overrides.
fn replay_of(a: &ReportArgs) -> String {
    crate::designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets)
}

/// The flags beyond the variant's and the run's that a report's command line records
/// (`--out`, `--baseline`, `--ladder`).
fn report_flags(a: &ReportArgs) -> String {
    let mut extra = a.out.as_ref().map(|o| format!(" --out {}", o.display())).unwrap_or_default();
    if let Some(b) = &a.baseline {
        extra.push_str(&format!(" --baseline {}", b.display()));
    }
    if let Some(l) = &a.ladder {
        extra.push_str(&format!(" --ladder {l} --ladder-games {}", a.ladder_games));
    }
    extra
}

/// A report's charts, tables and key chart from its run (`moments`: the sums of its
/// per-game values; `rotation`: bots per rotation block, else 0): the common, standing and
/// game's own charts, the exact figures, and the `--ladder` and `--baseline` sections (their
/// data written into `dir`; no baseline for a `stopped` run).
fn report_parts(
    game: &dyn GameHandle,
    seated: &dyn SeatedGame,
    variant: &Variant,
    a: &ReportArgs,
    (result, summary, (moments, rotation), dir, stopped): (&Run, &mut Summary, (&Moments, usize), &Path, bool),
) -> Result<(Vec<crate::engine::ChartSpec>, crate::report::Tables, Option<String>), Error> {
    let facts = seated.facts();
    let mut charts = crate::report::common_charts(&result.tally, summary, facts.has_elimination);
    charts.extend(crate::report::standing_charts(&result.standing, summary));
    let own = result.metrics.charts(result.tally.games);
    let key_chart = crate::report::key_chart(facts.key_chart, &own);
    charts.extend(own);
    charts.extend(game.extra_charts(variant, result.tally.games, a.run.seed, a.run.threads)?);
    add_exact(variant, &seated.labels(), summary, &mut charts);
    let mut tables = report_tables(facts, variant, summary, &result.tally, (moments, rotation, &result.extras, &result.ratios))?;
    if let Some(ladder) = ladder_labels(game, variant, a)? {
        let r = super::ladder::measure(game, variant, &ladder, (a.ladder_games, a.run.seed, a.run.threads), a.run.quiet)?;
        super::ladder::write_data(dir, &r)?;
        charts.extend(super::ladder::charts(&r));
        tables.sections.push(super::ladder::section(&r));
    }
    if a.baseline.is_some() && !stopped {
        let c = baseline(a, result.tally.games)?;
        crate::designer::compare::write_into(&c, &dir.join("baseline"))?;
        tables.sections.push(crate::designer::compare::section(&c));
    }
    Ok((charts, tables, key_chart))
}

/// Adds a variant's exact figures to a report when its game has a solver and the line-up is
/// one it can solve (else the report is left as it is).
pub(super) fn add_exact(variant: &Variant, labels: &[String], summary: &mut Summary, charts: &mut Vec<crate::engine::ChartSpec>) {
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

/// Largest `replay.html` written beside a report (bytes of the page, whose trace is inside it
/// gzip-compressed and base64-encoded): the committed reports stay small; a typical game whose
/// page would be larger is named with the command that writes its page.
pub const REPLAY_PAGE_MAX_BYTES: usize = 6_000_000;

/// Writes `replay.html` into `dir`: the replay page of a typical game of the run, the one of
/// median length (the lower median, the first such game by index: [`Lengths::typical`]), and
/// says which it is. When the page would exceed [`REPLAY_PAGE_MAX_BYTES`] it is not written
/// and the text says how to write it.
/// `trace_command` is the `playtest trace` command line of the run's variant and bots.
fn typical_replay(
    seated: &dyn SeatedGame,
    variant: &Variant,
    typical: Option<TypicalGame>,
    dir: &Path,
    (trace_command, rotation): (&str, usize),
) -> Result<Option<String>, Error> {
    let Some(row) = typical else {
        return Ok(None);
    };
    let median = row.length;
    // A rotated run (`rotation` bots per block, else 0) played the game with the line-up
    // turned by its place in the block.
    let turn = (rotation > 0).then(|| (row.index % rotation as u64) as usize);
    let (text, _) = seated.json_trace(variant, row.seed, turn);
    let game = seated.facts();
    let title = format!("{} / {}: game {} (seed {}), {median} {}", game.id, variant.name, row.index, row.seed, game.length_unit);
    let page = crate::report::replay_page::page(&title, &text);
    let fits = page.len() <= REPLAY_PAGE_MAX_BYTES;
    if fits {
        let file = dir.join("replay.html");
        std::fs::write(&file, &page).map_err(|e| Error::output(&file, e))?;
    }
    let bots = match turn {
        Some(turn) => {
            let labels = seated.labels();
            let n = labels.len();
            format!(" --bots {}", (0..n).map(|seat| labels[crate::stats::rotation::bot_at(seat, turn, n)].as_str()).collect::<Vec<_>>().join(","))
        }
        None => String::new(),
    };
    let command = if rotation > 0 { format!("playtest trace {}{bots}", variant.path.display()) } else { trace_command.to_string() };
    if !fits {
        return Ok(Some(format!(
            "The median-length game, game {} of the run (seed {}, {median} {}), has a {:.1} MB trace, a {:.1} MB page compressed, too large to keep beside the report: `{command} --game-seed {} --html replay.html` writes its replay page.",
            row.index,
            row.seed,
            game.length_unit,
            text.len() as f64 / 1e6,
            page.len() as f64 / 1e6,
            row.seed
        )));
    }
    Ok(Some(format!(
        "game {} of the run (seed {}; `{command} --game-seed {}` prints it), {median} {}: the median length.",
        row.index, row.seed, row.seed, game.length_unit
    )))
}
