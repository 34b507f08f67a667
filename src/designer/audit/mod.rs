//! `playtest audit VARIANT`: finds the holes in a rule set and the keys that matter.
//!
//! Three line-ups are watched decision by decision ([`watch`]): `random` bots, the variant's
//! own table (or `--bots`) and a small search bot (`ismcts` with few iterations and short
//! rollouts). From them come the findings, each with a kind, a sentence, a severity (the rule
//! is [`SEVERITY_RULE`]), the figure with its 95% interval and games counted, the variant keys
//! involved and up to three game seeds that replay it (`playtest trace VARIANT --bots ...
//! --game-seed S`): **stall**, **dead rule**, **no real choice**, **decided early**, **seat or
//! bot exploit** ([`exploit`]) and **impossible or certain claim** ([`crate::engine::AuditHooks::claim_audit`]).
//! Then every numeric key is stepped down and up on common random numbers ([`sensitivity`]).
//!
//! Everything is checked (variant, `--set`, bots, the swept bot) before the output folder is
//! opened, and the folder is written through [`OutputDir`]: a refused audit writes nothing.

pub mod exploit;
mod findings;
pub mod sensitivity;
pub mod write;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::engine::BotSpec;
use crate::error::Error;
use crate::games::{self, GameHandle, SeatedGame};
use crate::output::atomic::OutputDir;
pub use crate::sim::watch;
use crate::variant::Variant;
pub use findings::verdict;

use super::runner::Pool;
use super::seat;
use findings::{Context, findings_of};
use watch::{WatchPlan, Watched};

/// The search line-up's bot: few iterations and short rollouts, so an audit stays fast; no
/// trust in the game's default bot (`trust=0`), so a dominant or dominated move is the search's
/// own finding; opponents played by the game's default bot (`model=default`), since 24
/// iterations leave no room to read the table and the audit's figures must not move with it.
pub const SEARCH_BOT: &str = "ismcts:model=default:iterations=24:depth=30:trust=0";

/// The severity rule, as docs/commands/audit.md and `audit.md` state it.
pub const SEVERITY_RULE: &str = "high: a stall (cap or no progress) in at least 1% of the table's games; a dealt win in at least 5% of decided games; \
an exploit whose win share's 95% CI lies above twice the fair share; a claim no card can make true. \
medium: a stall in at least 0.1% of the table's games; a dead rule (never legal, or chosen in under 0.1% of the decisions where it is legal, by every line-up, \
with at least 1,000 such decisions); a dominant move (taken by the search bot in at least 99% of at least 100 contested decisions); \
a dealt win in at least 1% of decided games; a winner leading from the first turn to the end in over half the games; an exploit whose CI lies \
more than 5 points above the fair share; a claim that is always true. low: everything else worth a look (rarer stalls, stalls only with random bots, \
dead rules on thin evidence, dominated moves, forced decisions over half of all, keys with no significant effect).";

/// What `audit` was asked.
#[derive(Clone, Debug)]
pub struct AuditOptions {
    /// The variant file.
    pub variant: PathBuf,
    /// The table's bots (default: the variant's).
    pub bots: Option<String>,
    /// `--set` overrides.
    pub sets: Vec<String>,
    /// Games of each watched line-up (random and the table); the search line-up plays a
    /// fiftieth, fewer for long games, at least 2: [`search_games`]); sensitivity steps play up
    /// to twice this; exploit candidates half.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// No progress notes.
    pub quiet: bool,
    /// Output folder (default `reports/<game>/<variant>/audit/`).
    pub out: Option<PathBuf>,
    /// Print audit.json to stdout instead of the summary.
    pub json: bool,
    /// Turns without progress that make a game stalled.
    pub stall_turns: u32,
    /// The search line-up's bot spec.
    pub search: String,
    /// The bot whose parameters are swept for exploits (default: the table's first bot with
    /// parameters).
    pub exploit: Option<String>,
    /// Skip the sensitivity analysis.
    pub no_sensitivity: bool,
    /// Write straight into this folder, which the caller already holds through its own
    /// [`OutputDir`] (`report --audit` writes into its report's temporary folder); `out` is
    /// then ignored.
    pub write_into: Option<PathBuf>,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            variant: PathBuf::new(),
            bots: None,
            sets: Vec::new(),
            games: 2000,
            seed: 1,
            threads: 0,
            quiet: true,
            out: None,
            json: false,
            stall_turns: 100,
            search: SEARCH_BOT.into(),
            exploit: None,
            no_sensitivity: false,
            write_into: None,
        }
    }
}

/// How much a finding matters (see [`SEVERITY_RULE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fix before playtesting.
    High,
    /// Worth a designer's look.
    Medium,
    /// A hint.
    Low,
}

impl Severity {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// A finding's figure with its 95% interval and the games behind it.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    /// What is measured.
    pub name: String,
    /// Value (shares as fractions).
    pub value: f64,
    /// 95% interval.
    pub ci95: [f64; 2],
    /// Games counted.
    pub games: u64,
    /// Decisions counted, for per-decision figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<u64>,
}

/// One hole found.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// stall, dead rule, no real choice, decided early, exploit, impossible claim, certain
    /// claim, no effect, unread key (changed keys no bot at the table reads).
    pub kind: &'static str,
    /// How much it matters.
    pub severity: Severity,
    /// The finding in plain words.
    pub sentence: String,
    /// The figure behind it.
    pub figure: Figure,
    /// Variant keys involved.
    pub keys: Vec<String>,
    /// The line-up it was seen with (bot spec per seat, comma separated).
    pub lineup: String,
    /// Up to three game seeds that show it.
    pub seeds: Vec<u64>,
    /// `playtest trace ... --game-seed S` for each seed.
    pub replay: Vec<String>,
}

/// One kind of action as one line-up used it.
#[derive(Clone, Debug, Serialize)]
pub struct KindRow {
    /// The kind, in the designer's words.
    pub kind: String,
    /// Decisions where it was legal.
    pub legal: u64,
    /// Decisions where it was taken.
    pub used: u64,
    /// Decisions where it was legal beside another kind.
    pub contested: u64,
    /// Contested decisions where it was taken.
    pub contested_used: u64,
}

/// What one watched line-up showed.
#[derive(Clone, Debug, Serialize)]
pub struct LineupReport {
    /// random, table or search.
    pub role: &'static str,
    /// Bot spec per seat, comma separated.
    pub bots: String,
    /// Games played.
    pub games: u64,
    /// Mean length.
    pub mean_length: f64,
    /// Decisions taken.
    pub decisions: u64,
    /// Share of decisions with one legal action.
    pub forced_share: f64,
    /// Games ending at the cap.
    pub capped: u64,
    /// Games with a stretch of `stall_turns` turns without progress.
    pub stalled: u64,
    /// Longest stretch without progress (turns).
    pub longest_still: u32,
    /// Games won by a seat that never had a choice.
    pub dealt_wins: u64,
    /// Games whose winner led after every turn.
    pub wire_to_wire: u64,
    /// Games with a winner (not every seat).
    pub decided: u64,
    /// Every kind of action.
    pub kinds: Vec<KindRow>,
}

/// What the audit can detect: the smallest effect on one figure that its games find 80% of
/// the time at the 95% level ([`sensitivity::DETECT_SE`] standard errors; for a rare event,
/// the share seen at least once with 95% probability). Smaller effects can pass as "clean".
#[derive(Clone, Debug, Serialize)]
pub struct Detectable {
    /// The figure, in words.
    pub figure: String,
    /// The metric's unit: "share" (a fraction; printed in points), "length" or "plain".
    pub unit: &'static str,
    /// Games (or paired games) it is measured on.
    pub games: u64,
    /// The smallest effect detectable at that many games (a fraction for shares).
    pub smallest: f64,
    /// What was measured, with its 95% interval, when the audit measured it.
    pub measured: Option<(f64, [f64; 2])>,
}

/// A claim of a bluffing game checked against the deck.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimRow {
    /// The claim.
    pub claim: String,
    /// Some cards can make it true.
    pub possible: bool,
    /// Every card makes it true.
    pub certain: bool,
}

/// The whole audit (`audit.json`).
#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    /// Game id.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Variant file.
    pub path: String,
    /// `--set` overrides.
    pub sets: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// The command that reproduces it.
    pub command: String,
    /// One line: clean, or how many findings of each severity.
    pub verdict: String,
    /// The smallest effect per figure the audit's game counts can detect.
    pub detectable: Vec<Detectable>,
    /// The severity rule.
    pub severity_rule: String,
    /// Turns without progress that make a game stalled.
    pub stall_turns: u32,
    /// Every finding, most severe first.
    pub findings: Vec<Finding>,
    /// The watched line-ups.
    pub lineups: Vec<LineupReport>,
    /// Claims checked (bluffing games).
    pub claims: Vec<ClaimRow>,
    /// The bot-parameter sweep.
    pub exploit: Option<exploit::ExploitReport>,
    /// Why no exploit sweep was run, when none was.
    pub exploit_note: Option<String>,
    /// The sensitivity analysis.
    pub sensitivity: Option<sensitivity::Sensitivity>,
    /// Unit of game length.
    pub length_unit: String,
    /// Wall time of the audit (seconds; machine-dependent, not in the committed files).
    #[serde(skip)]
    pub seconds: f64,
}

/// Runs `audit`: checks everything, plays, writes the folder, prints the summary (or JSON).
pub fn main(o: &AuditOptions) -> Result<Audit, Error> {
    crate::interrupt::install();
    let audit = run(o)?;
    if o.json {
        crate::output::print_json(&audit)?;
    } else {
        print!("{}", write::summary_text(&audit));
    }
    Ok(audit)
}

/// Runs the audit and writes its folder, printing nothing (what `main` and the tests call).
pub fn run(o: &AuditOptions) -> Result<Audit, Error> {
    let variant = Variant::load(&o.variant, &o.sets)?;
    let game = games::handle(&variant)?;
    let (audit, out, dir) = audit(&*game, &variant, o)?;
    write(o, &audit, out, &dir)?;
    Ok(audit)
}

/// Writes the audit's folder (`out`, opened before the run for `dir`; or the folder of
/// `--write-into`), saying so on stderr unless quiet.
fn write(o: &AuditOptions, audit: &Audit, out: Option<OutputDir>, dir: &Path) -> Result<(), Error> {
    if !o.quiet && !o.json {
        eprintln!("audit: writing ({:.0} s)", audit.seconds);
    }
    write_out(audit, out, o.write_into.as_deref())?;
    if !o.quiet && !o.json {
        eprintln!("audit: wrote {} in {:.1} s", dir.display(), audit.seconds);
    }
    Ok(())
}

/// The audit folder of a variant when `--out` is not given.
pub fn default_dir(game: &str, variant: &str) -> PathBuf {
    Path::new("reports").join(game).join(variant).join("audit")
}

/// One watched line-up, ready to play.
struct Lineup<'a> {
    role: &'static str,
    seated: Box<dyn SeatedGame + 'a>,
    games: u64,
}

impl Lineup<'_> {
    /// The `--bots` value of the line-up: one spec when every seat plays the same.
    fn spec(&self) -> String {
        let labels = self.seated.labels();
        match labels.first() {
            Some(first) if labels.iter().all(|l| l == first) => first.clone(),
            _ => labels.join(","),
        }
    }
}

/// The audit of `variant`'s game (built by [`games::handle`]): checks what can be refused,
/// opens the folder (unless `--write-into`), plays and judges; returns the [`Audit`], the
/// folder to write it into and its path, having written nothing.
fn audit(game: &dyn GameHandle, variant: &Variant, o: &AuditOptions) -> Result<(Audit, Option<OutputDir>, PathBuf), Error> {
    let started = Instant::now();
    let facts = game.facts();
    // Everything that can be refused is checked before the folder is opened.
    let table = seat(game, variant, o.bots.as_deref(), "--bots")?;
    let random = seat(game, variant, Some(crate::engine::RANDOM), "--bots")?;
    let search = seat(game, variant, Some(&o.search), "--search")?;
    let expect = expect_metrics(game, variant, table.acting())?;
    let exploit_plan = exploit::plan(game, &*table, o.exploit.as_deref())?;
    let (steps, skipped) =
        if o.no_sensitivity { (Vec::new(), Vec::new()) } else { sensitivity::build_steps(game, &o.variant, &o.sets, variant, o.bots.as_deref()) };
    let dir = o.out.clone().unwrap_or_else(|| default_dir(facts.id, &variant.name));
    let out = match &o.write_into {
        Some(_) => None,
        None => Some(OutputDir::create(&dir, &crate::output::atomic::invocation())?),
    };
    let note = |what: &str| {
        if !o.quiet && !o.json {
            eprintln!("audit: {what} ({:.0} s)", started.elapsed().as_secs_f64());
        }
    };

    let kinds = game.action_kinds();
    if kinds.len() > 64 {
        return Err(Error::Usage(format!("{}: {} kinds of action; the audit handles at most 64", facts.id, kinds.len())));
    }
    let cap_reason = facts.end_reasons.iter().position(|r| *r == "cap").map(|i| i as u8);
    let wplan = WatchPlan { seed: o.seed, stall_turns: o.stall_turns, cap_reason };
    let mut lineups = [
        Lineup { role: "random", seated: random, games: o.games },
        Lineup { role: "table", seated: table, games: o.games },
        Lineup { role: "search", seated: search, games: 0 },
    ];
    let pool = Pool::new(o.threads)?;
    let (watched, table_length) = watch_all(&pool, &mut lineups, (&kinds, &wplan), o, &note)?;

    let sens = sensitivity_of(game, variant, o, (&*lineups[1].seated, expect, table_length), (steps, skipped), &note)?;
    interrupted()?;
    let (exploit_report, exploit_note) = exploit_of(&*lineups[1].seated, exploit_plan, o, &note)?;
    interrupted()?;

    let replay_base = super::runner::replay_command(&o.variant, None, &o.sets);
    let ctx = Context { game, variant, kinds: &kinds, replay_base: &replay_base, stall_turns: o.stall_turns };
    let reports: Vec<LineupReport> = lineups.iter().zip(&watched).map(|(lu, w)| lineup_report(lu.role, &lu.spec(), w, &kinds)).collect();
    let specs: Vec<String> = lineups.iter().map(|l| l.spec()).collect();
    let claims = game.claim_audit();
    let labels: Vec<String> = lineups[1].seated.labels();
    let mut findings = findings_of(&ctx, (&specs, &watched, &labels), &claims, (exploit_report.as_ref(), sens.as_ref()));
    findings.sort_by(|a, b| a.severity.cmp(&b.severity).then(a.kind.cmp(b.kind)));
    let verdict = verdict(&findings);
    let detectable = detectable_of((&watched[1], lineups[1].seated.acting()), exploit_report.as_ref(), sens.as_ref());
    let audit = Audit {
        game: facts.id.into(),
        variant: variant.name.clone(),
        path: o.variant.display().to_string(),
        sets: o.sets.clone(),
        seed: o.seed,
        command: command_of(o),
        verdict,
        detectable,
        severity_rule: SEVERITY_RULE.into(),
        stall_turns: o.stall_turns,
        findings,
        lineups: reports,
        claims: claims.iter().map(|c| ClaimRow { claim: c.claim.clone(), possible: c.possible, certain: c.certain }).collect(),
        exploit: exploit_report,
        exploit_note,
        sensitivity: sens,
        length_unit: facts.length_unit.into(),
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((audit, out, dir))
}

/// The metrics of the variant's `[expect]` bounds that the sensitivity analysis follows. The
/// audit plays unrotated: a rotated variant's `bot<k>_win_share` bounds are accepted but left
/// out of the sensitivity table (its seat figures mix seat and bot).
fn expect_metrics(game: &dyn GameHandle, variant: &Variant, acting: usize) -> Result<Vec<String>, Error> {
    let plain = super::metrics::Catalogue::of(game.facts());
    Ok(super::check::expectations(variant, &plain.clone().rotated(variant.rotate, acting))?
        .into_iter()
        .map(|e| e.metric)
        .filter(|m| plain.get(m).is_some())
        .collect())
}

/// The sensitivity analysis of the table (`plans`) over `steps` (none with
/// `--no-sensitivity`), its steps capped by the table's mean length.
fn sensitivity_of(
    game: &dyn GameHandle,
    variant: &Variant,
    o: &AuditOptions,
    (table, expect, table_length): (&dyn SeatedGame, Vec<String>, f64),
    (steps, skipped): (Vec<sensitivity::Step>, Vec<sensitivity::Skipped>),
    note: &dyn Fn(&str),
) -> Result<Option<sensitivity::Sensitivity>, Error> {
    if o.no_sensitivity {
        return Ok(None);
    }
    note(&format!("sensitivity: {} steps of {} keys", steps.len() + skipped.len(), sensitivity::numeric_keys(&variant.table).len()));
    let setup = sensitivity::Setup {
        game,
        table,
        bots: o.bots.as_deref(),
        expect,
        seed: o.seed,
        max_games: sensitivity_games(o.games, table_length),
        threads: o.threads,
    };
    Ok(Some(sensitivity::run(&setup, &steps, skipped, &mut |_, _| {})?))
}

/// The exploit sweep against the table (`plans`), or why none runs.
fn exploit_of(
    table: &dyn SeatedGame,
    plan: Result<exploit::ExploitPlan, String>,
    o: &AuditOptions,
    note: &dyn Fn(&str),
) -> Result<(Option<exploit::ExploitReport>, Option<String>), Error> {
    Ok(match plan {
        Ok(p) => {
            note(&format!("exploit sweep over {}", p.bot));
            (Some(exploit::run(table, &p, o.seed, (o.games / 2).max(64), o.threads)?), None)
        }
        Err(why) => (None, Some(why)),
    })
}

/// Watches the three line-ups: a pilot of the random and table line-ups sets their games
/// from their length, then the search line-up's games from the table's decisions per game.
/// Returns what each line-up showed and the table's mean length.
fn watch_all(
    pool: &Pool,
    lineups: &mut [Lineup<'_>; 3],
    (kinds, wplan): (&[&'static str], &WatchPlan),
    o: &AuditOptions,
    note: &dyn Fn(&str),
) -> Result<(Vec<Watched>, f64), Error> {
    // A pilot of 64 games per line-up gives its mean length; long games get fewer games
    // (at most WATCH_TURNS turns a line-up, at least 256 games), so a game whose random
    // bots play to a cap of thousands of turns still audits in minutes.
    let mut watched: Vec<Watched> = vec![Watched::default(); lineups.len()];
    for lu in lineups.iter_mut().take(2) {
        lu.games = o.games.min(PILOT);
    }
    watch_lineups(pool, lineups, &[0, 1], kinds, wplan, &mut watched)?;
    for (lu, w) in lineups.iter_mut().zip(&watched).take(2) {
        lu.games = watch_games(o.games, w.length_sum as f64 / w.games.max(1) as f64);
    }
    note(&format!("watching random bots ({} games) and the table ({} games)", lineups[0].games, lineups[1].games));
    watched = vec![Watched::default(); lineups.len()];
    watch_lineups(pool, lineups, &[0, 1], kinds, wplan, &mut watched)?;
    interrupted()?;
    // The search bot costs iterations x rollout per decision: its games are set from the
    // table's decisions per game (a fiftieth of --games, at most 4 x --games decisions, at
    // least 2 games).
    let table_length = watched[1].length_sum as f64 / watched[1].games.max(1) as f64;
    let per_game = watched[1].decisions as f64 / watched[1].games.max(1) as f64;
    lineups[2].games = search_games(o.games, per_game);
    note(&format!("watching the search bot ({} games)", lineups[2].games));
    watch_lineups(pool, lineups, &[2], kinds, wplan, &mut watched)?;
    interrupted()?;
    Ok((watched, table_length))
}

/// The smallest effect per figure the audit's games can detect: the table's first-player
/// advantage and stall share (from the watched table, `acting` seats), a step's change of
/// every metric of the sensitivity analysis, an exploit's edge over the fair share.
fn detectable_of((table, acting): (&Watched, usize), exploit: Option<&exploit::ExploitReport>, sens: Option<&sensitivity::Sensitivity>) -> Vec<Detectable> {
    let share_se = |p: f64, n: u64| if n == 0 { f64::NAN } else { (p * (1.0 - p) / n as f64).sqrt() };
    let mut out = Vec::new();
    let fair = 1.0 / acting.max(1) as f64;
    // The first-player advantage: measured on the games the steps were paired with, else
    // from the fair share at the table's games.
    let fpa = sens.and_then(|s| s.metrics.iter().find(|m| m.name == "first_player_advantage").map(|m| (m, s.base_games)));
    match fpa {
        Some((m, games)) if m.base.is_some() && games > 0 => {
            let (value, ci) = m.base.expect("checked");
            out.push(Detectable {
                figure: "first-player advantage of the table".into(),
                unit: "share",
                games,
                smallest: sensitivity::DETECT_SE * (ci[1] - ci[0]) / 2.0 / crate::stats::Z95,
                measured: Some((value, ci)),
            });
        }
        _ if table.games > 0 => out.push(Detectable {
            figure: "first-player advantage of the table".into(),
            unit: "share",
            games: table.games,
            smallest: sensitivity::DETECT_SE * share_se(fair, table.games),
            measured: None,
        }),
        _ => {}
    }
    if table.games > 0 {
        // Seen in at least one game 95% of the time: 1 - 0.05^(1/n) (about 3/n).
        out.push(Detectable {
            figure: "share of the table's games that stall".into(),
            unit: "share",
            games: table.games,
            smallest: 1.0 - 0.05f64.powf(1.0 / table.games as f64),
            measured: None,
        });
    }
    if let Some(e) = exploit
        && let Some(c) = e.candidates.first()
    {
        out.push(Detectable {
            figure: format!("an exploit's win share above the fair share ({:.1}%)", e.fair_share * 100.0),
            unit: "share",
            games: c.games,
            smallest: sensitivity::DETECT_SE * share_se(e.fair_share, c.games),
            measured: None,
        });
    }
    if let Some(s) = sens {
        for m in &s.metrics {
            if let Some(d) = m.detectable {
                out.push(Detectable { figure: format!("a key step's change of {}", m.name), unit: m.unit, games: s.max_games, smallest: d, measured: None });
            }
        }
    }
    out
}

/// The command line that reproduces an audit.
fn command_of(o: &AuditOptions) -> String {
    let mut command = format!("playtest audit {} --games {} --seed {}", o.variant.display(), o.games, o.seed);
    if let Some(b) = &o.bots {
        command.push_str(&format!(" --bots {b}"));
    }
    for s in &o.sets {
        command.push_str(&format!(" --set {s}"));
    }
    command
}

/// Writes the audit's folder: through its own output `out`, or straight into the folder
/// `into` a caller holds (`report --audit`).
fn write_out(audit: &Audit, out: Option<OutputDir>, into: Option<&Path>) -> Result<(), Error> {
    match (out, into) {
        (Some(out), _) => {
            write::write_all(audit, out.path())?;
            out.commit()?;
        }
        (None, Some(into)) => {
            std::fs::create_dir_all(into).map_err(|e| Error::output(into, e))?;
            write::write_all(audit, into)?;
        }
        (None, None) => unreachable!("one of the two is set"),
    }
    Ok(())
}

/// Games of the pilot run of each watched line-up.
const PILOT: u64 = 64;

/// Most turns a watched line-up plays (random bots of a long game reach its cap every game).
pub const WATCH_TURNS: f64 = 1_500_000.0;

/// Games of a watched line-up whose pilot games lasted `length` on average: `games`, or fewer
/// when that would pass [`WATCH_TURNS`] turns (at least 256, or `games` when smaller).
pub fn watch_games(games: u64, length: f64) -> u64 {
    let by_length = (WATCH_TURNS / length.max(1.0)).floor() as u64;
    games.min(by_length.max(256))
}

/// Games a sensitivity step plays at most: twice `games`, fewer when that would pass
/// [`WATCH_TURNS`] turns of the table's mean `length` (at least the first round's 1,024).
pub fn sensitivity_games(games: u64, length: f64) -> u64 {
    let by_length = (WATCH_TURNS / length.max(1.0)).floor() as u64;
    (2 * games).min(by_length.max(sensitivity::FIRST_ROUND))
}

/// Decisions of the search line-up per game of `--games` (2,000 games: 8,000 decisions).
pub const SEARCH_DECISIONS_PER_GAME: f64 = 4.0;

/// Games of the search line-up: a fiftieth of `games`, at most
/// [`SEARCH_DECISIONS_PER_GAME`] x `games` decisions of the table's length, at least 2.
pub fn search_games(games: u64, decisions_per_game: f64) -> u64 {
    let by_cost = (SEARCH_DECISIONS_PER_GAME * games as f64 / decisions_per_game.max(1.0)).floor() as u64;
    (games / 50).min(by_cost).max(2)
}

/// Plays the line-ups `which` in the pool's batches and folds them into `watched`.
fn watch_lineups(pool: &Pool, lineups: &[Lineup<'_>], which: &[usize], kinds: &[&'static str], plan: &WatchPlan, watched: &mut [Watched]) -> Result<(), Error> {
    let jobs: Vec<(usize, u64)> = which.iter().flat_map(|&l| super::runner::batches(0, lineups[l].games, crate::sim::BATCH).map(move |b| (l, b))).collect();
    pool.run(&jobs, |&(l, b)| lineups[l].seated.watch_batch(kinds, plan, b, lineups[l].games), |&(l, _), w| watched[l].merge(&w), &mut |_| {})
}

fn interrupted() -> Result<(), Error> {
    if crate::interrupt::requested() { Err(Error::Interrupted("audit interrupted: nothing written, the folder is left as it was".into())) } else { Ok(()) }
}

fn lineup_report(role: &'static str, spec: &str, w: &Watched, kinds: &[&'static str]) -> LineupReport {
    LineupReport {
        role,
        bots: spec.into(),
        games: w.games,
        mean_length: if w.games == 0 { 0.0 } else { w.length_sum as f64 / w.games as f64 },
        decisions: w.decisions,
        forced_share: if w.decisions == 0 { 0.0 } else { w.forced as f64 / w.decisions as f64 },
        capped: w.capped,
        stalled: w.stalled,
        longest_still: w.longest_still,
        dealt_wins: w.dealt,
        wire_to_wire: w.wire,
        decided: w.decided,
        kinds: kinds
            .iter()
            .enumerate()
            .map(|(k, name)| KindRow {
                kind: name.to_string(),
                legal: w.legal.get(k).copied().unwrap_or(0),
                used: w.used.get(k).copied().unwrap_or(0),
                contested: w.contested.get(k).copied().unwrap_or(0),
                contested_used: w.contested_used.get(k).copied().unwrap_or(0),
            })
            .collect(),
    }
}

/// Checks a bot spec against the game's bots (for `--exploit`).
pub fn resolve_bot(game: &dyn GameHandle, spec: &str) -> Result<(String, Vec<crate::engine::BotParamInfo>, Vec<f64>), Error> {
    let parsed = BotSpec::parse(spec).map_err(|e| Error::Usage(format!("--exploit: {e}")))?;
    let (name, params, values) = game.resolve_bot(&parsed).map_err(|e| Error::Usage(format!("--exploit: {e}")))?;
    Ok((name.to_string(), params.to_vec(), values))
}
