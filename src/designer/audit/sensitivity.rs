//! The audit's sensitivity analysis: every numeric key of the variant one meaningful step down
//! and one up ([`step_size`]: 10% of the value, at least one unit for whole numbers, and for a
//! row of a numeric table such as `scoring.seller` at least half the spacing to its
//! neighbouring rows; a card count, a whole number under `deck.`, to 0 and to double), each step played on common random numbers against the variant as
//! written (game i of both from the same seed), with the paired 95% interval of the change in
//! first-player advantage, mean length, cap share and every `[expect]` metric.
//!
//! A step outside the key's allowed range is found by the variant loader and the game's own
//! checks (exactly as `--set` would be refused); the step is then halved down to one unit, and
//! listed as skipped with the reason when even that is refused. Steps play in rounds (1,024
//! games, then doubling up to the budget); a step stops early once every metric's interval
//! excludes 0 or is narrower than the metric's threshold ([`threshold`]). The game's
//! structural keys (players, rounds of a match) are stepped too but kept apart from the
//! tuning keys.

use std::path::Path;

use serde::Serialize;

use crate::error::Error;
use crate::games::{GameHandle, SeatedGame};
use crate::sim::BATCH;
use crate::stats::Z95;
use crate::variant::Variant;

use super::super::metrics::{self, Catalogue, Moments, Unit};
use super::super::runner::{Arm, ArmBatch, ArmStats, PlayPlan, Pool, arm_batch_with, batches, replay_command};
use super::super::seat;

/// Games of the first round of every step.
pub const FIRST_ROUND: u64 = 1024;

/// One numeric leaf of the variant: dotted key (list items by index), value, whole number.
#[derive(Clone, Debug, PartialEq)]
pub struct NumericKey {
    /// Dotted key as `--set` takes it (`payout.3.withdrawal`, `scoring.seller.2`).
    pub key: String,
    /// Its value in the variant as written.
    pub value: f64,
    /// Whether it is a whole number (steps of whole units) or not.
    pub integer: bool,
    /// For a row of a numeric table or list (`scoring.seller.3`, `payout.0`): the smallest
    /// distance to a neighbouring row's value (none when every neighbour is equal).
    pub spacing: Option<f64>,
    /// Whether it counts cards of the deck (a positive whole number under `deck.`): stepped
    /// to 0 and to double, since one card more or less rarely moves a figure measurably.
    pub card_count: bool,
}

/// Every numeric key of a variant table: numbers, numbers in lists, nested tables; not the
/// `[expect]` bounds, the seats' bot parameters or the common keys.
pub fn numeric_keys(table: &toml::Table) -> Vec<NumericKey> {
    fn number(v: &toml::Value) -> Option<(f64, bool)> {
        match v {
            toml::Value::Integer(i) => Some((*i as f64, true)),
            toml::Value::Float(x) => Some((*x, false)),
            _ => None,
        }
    }
    /// The smallest nonzero distance from row `i` of `rows` (numbers in row order) to its neighbours.
    fn spacing(rows: &[f64], i: usize) -> Option<f64> {
        let mut d: Option<f64> = None;
        for j in [i.wrapping_sub(1), i + 1] {
            if let Some(&other) = rows.get(j) {
                let gap = (rows[i] - other).abs();
                if gap > 0.0 {
                    d = Some(d.map_or(gap, |x: f64| x.min(gap)));
                }
            }
        }
        d
    }
    fn walk(value: &toml::Value, key: String, out: &mut Vec<NumericKey>) {
        match value {
            toml::Value::Integer(_) | toml::Value::Float(_) => {
                let (value, integer) = number(value).expect("a number");
                let card_count = integer && value > 0.0 && key.starts_with("deck.");
                out.push(NumericKey { key, value, integer, spacing: None, card_count });
            }
            toml::Value::Table(t) => {
                // A table of numbered rows (`3 = 30`, `4 = 50`): rows in number order.
                let mut rows: Vec<(i64, f64)> = t.iter().filter_map(|(k, v)| Some((k.parse::<i64>().ok()?, number(v)?.0))).collect();
                rows.sort_by_key(|r| r.0);
                let values: Vec<f64> = rows.iter().map(|r| r.1).collect();
                let numbered = rows.len() == t.len() && rows.len() > 1;
                for (k, v) in t {
                    let at = if numbered { k.parse::<i64>().ok().and_then(|n| rows.iter().position(|r| r.0 == n)) } else { None };
                    let before = out.len();
                    walk(v, format!("{key}.{k}"), out);
                    if let (Some(i), Some(last)) = (at, out.get_mut(before)) {
                        last.spacing = spacing(&values, i);
                    }
                }
            }
            toml::Value::Array(items) => {
                let values: Vec<f64> = items.iter().filter_map(|v| number(v).map(|n| n.0)).collect();
                let all = values.len() == items.len() && values.len() > 1;
                for (i, v) in items.iter().enumerate() {
                    if let Some((value, integer)) = number(v) {
                        out.push(NumericKey {
                            key: format!("{key}.{i}"),
                            value,
                            integer,
                            spacing: if all { spacing(&values, i) } else { None },
                            card_count: false,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (k, v) in table {
        if crate::variant::COMMON_KEYS.contains(&k.as_str()) {
            continue;
        }
        walk(v, k.clone(), &mut out);
    }
    out
}

/// A number as `--set` takes it.
fn number_text(x: f64, integer: bool) -> String {
    if integer {
        format!("{}", x as i64)
    } else {
        let r = (x * 1e9).round() / 1e9;
        if r.fract() == 0.0 { format!("{r:.1}") } else { format!("{r}") }
    }
}

/// The meaningful step of a key: 10% of its value; for a whole number at least one unit; for
/// a row of a numeric table at least half the distance to its nearest neighbouring row (so a
/// scoring row of 50 between rows of 30 and 70 moves by 10, not by 1); for a non-whole zero,
/// 0.1; for a card count its whole value (to 0 and to double: two hippies in a deck of 116
/// cards moved by one card each way move no figure measurably, none or four do).
pub fn step_size(k: &NumericKey) -> f64 {
    if k.card_count {
        return k.value;
    }
    let tenth = 0.1 * k.value.abs();
    let half_spacing = k.spacing.map_or(0.0, |s| s / 2.0);
    if k.integer {
        tenth.round().max(half_spacing.round()).max(1.0)
    } else if k.value == 0.0 && half_spacing == 0.0 {
        0.1
    } else {
        tenth.max(half_spacing)
    }
}

/// The two steps of a key at full size: (direction -1 or +1, new value).
pub fn step_values(k: &NumericKey) -> [(i8, f64); 2] {
    let s = step_size(k);
    [(-1, k.value - s), (1, k.value + s)]
}

/// The sizes tried for one step, largest first: the meaningful step, then halved (whole units
/// for whole numbers) down to one unit (a hundredth of the step otherwise), for a key whose
/// allowed range is narrower than the step.
fn tried_sizes(k: &NumericKey) -> Vec<f64> {
    let mut out = vec![step_size(k)];
    loop {
        let last = *out.last().expect("one");
        let next = if k.integer { (last / 2.0).floor() } else { last / 2.0 };
        if (k.integer && next < 1.0) || (!k.integer && next < step_size(k) / 100.0) || next == last {
            break;
        }
        out.push(next);
    }
    out
}

/// A step that could not be played, with the loader's or the game's reason.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// The `--set` text tried.
    pub set: String,
    /// Why it is outside the allowed range.
    pub reason: String,
}

/// One playable step of one key.
pub struct Step {
    /// The key.
    pub key: String,
    /// The `--set` text (`hand_size=6`).
    pub set: String,
    /// -1 (down) or +1 (up).
    pub dir: i8,
    /// Value as written.
    pub from: f64,
    /// Value of the step.
    pub to: f64,
    /// Whether it is the key's full meaningful step ([`step_size`]), not a smaller one the
    /// key's allowed range forced.
    pub full: bool,
    /// The game of the stepped variant.
    game: Box<dyn GameHandle>,
    /// The stepped variant (its table is seated when the step plays).
    variant: Variant,
}

/// Builds every step of every numeric key of `variant` (loaded from `path` with `sets`); a
/// step the loader or the game refuse is tried smaller (`tried_sizes`), and returned as
/// skipped when even one unit is refused.
pub fn build_steps(game: &dyn GameHandle, path: &Path, sets: &[String], variant: &Variant, bots: Option<&str>) -> (Vec<Step>, Vec<Skipped>) {
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    for k in numeric_keys(&game.parameter_table(variant)) {
        for dir in [-1i8, 1] {
            let mut refused: Option<Skipped> = None;
            for (i, size) in tried_sizes(&k).into_iter().enumerate() {
                let to = k.value + f64::from(dir) * size;
                let set = format!("{}={}", k.key, number_text(to, k.integer));
                let mut all = sets.to_vec();
                all.push(set.clone());
                let built = Variant::load(path, &all).map_err(Error::from).and_then(|v| {
                    let stepped = game.with_step(&v)?;
                    seat(&*stepped, &v, bots, "--bots").map(drop)?;
                    Ok((stepped, v))
                });
                match built {
                    Ok((game, variant)) => {
                        steps.push(Step { key: k.key.clone(), set, dir, from: k.value, to, full: i == 0, game, variant });
                        refused = None;
                        break;
                    }
                    Err(e) => {
                        if refused.is_none() {
                            refused = Some(Skipped { set, reason: e.to_string().lines().next().unwrap_or("").to_string() });
                        }
                    }
                }
            }
            skipped.extend(refused);
        }
    }
    (steps, skipped)
}

/// Standard errors an effect must span to be detected 80% of the time by a two-sided test
/// at the 95% level (1.96 + 0.84): the smallest detectable effect is this many standard
/// errors of the figure (of the paired difference, for a step).
pub const DETECT_SE: f64 = 2.8;

/// One metric compared by the sensitivity analysis.
#[derive(Clone, Debug, Serialize)]
pub struct MetricInfo {
    /// Catalogue name.
    pub name: String,
    /// "share", "length" or "plain".
    pub unit: &'static str,
    /// Why it is here ("balance" or "expect").
    pub why: &'static str,
    /// The smallest change of it a step of [`Sensitivity::max_games`] paired games detects
    /// ([`DETECT_SE`] standard errors of the paired difference, from the median spread of the
    /// steps' differences); none when no step has an interval for it or it never varied (a
    /// cap share of 0 everywhere).
    pub detectable: Option<f64>,
    /// The variant as written over the games its steps were paired with: value and 95% CI
    /// (none when the catalogue gives no interval).
    pub base: Option<(f64, [f64; 2])>,
}

/// A card count no step moved measurably, but whose holders win a different share than the
/// seats not dealt it: the card matters, so it is not called dead.
#[derive(Clone, Debug, Serialize)]
pub struct HeldCard {
    /// The card-count key (`deck.hippie`).
    pub key: String,
    /// The game's figure read (`hippie_held_win_share_gain`).
    pub metric: String,
    /// Its value for the variant as written (win share of a seat dealt the card minus one not).
    pub value: f64,
    /// Its 95% interval.
    pub ci95: [f64; 2],
    /// Games of the variant as written it is measured on.
    pub games: u64,
}

/// The change one step made to one metric.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    /// Metric name.
    pub metric: String,
    /// Value of the variant as written, over the step's games.
    pub base: f64,
    /// Step minus variant, mean over paired games.
    pub diff: f64,
    /// Paired 95% interval of `diff` (null when too few batches for a batch-means interval).
    pub ci95: Option<[f64; 2]>,
    /// Whether the interval excludes 0.
    pub significant: bool,
}

/// One step's row of the ranked table.
#[derive(Clone, Debug, Serialize)]
pub struct StepRow {
    /// The key.
    pub key: String,
    /// `--set` text.
    pub set: String,
    /// -1 down, +1 up.
    pub dir: i8,
    /// Value as written.
    pub from: f64,
    /// Value played.
    pub to: f64,
    /// Whether it is the key's full meaningful step (else a smaller one its range allowed).
    pub full: bool,
    /// Whether the key is one of the game's structural keys (players, rounds of a match).
    pub structural: bool,
    /// Whether no bot at the table reads the key ([`crate::engine::BotInfo::reads`]).
    pub unread: bool,
    /// Games played (paired).
    pub games: u64,
    /// One effect per metric, in the metric order of the analysis.
    pub effects: Vec<Effect>,
    /// Largest |effect| over its metric's threshold (the rank).
    pub score: f64,
}

/// The whole sensitivity analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Sensitivity {
    /// The metrics compared.
    pub metrics: Vec<MetricInfo>,
    /// Every playable step, ranked by [`StepRow::score`] (largest first).
    pub steps: Vec<StepRow>,
    /// Keys neither of whose full steps changed any metric significantly (not structural,
    /// read by some bot at the table, and no card whose holders win a different share):
    /// rules that may be dead.
    pub no_effect: Vec<String>,
    /// Card counts no step moved measurably but whose holders win a different share (95% CI
    /// of the game's `<card>_held_win_share_gain` excluding 0): never called dead.
    pub held: Vec<HeldCard>,
    /// Games of the variant as written the steps were paired with.
    pub base_games: u64,
    /// Keys no bot at the table reads (their changes can move play only through the rules).
    pub unread: Vec<String>,
    /// The game's structural keys that were stepped (apart from the tuning keys).
    pub structural: Vec<String>,
    /// Steps outside the allowed range.
    pub skipped: Vec<Skipped>,
    /// Most games a step could play.
    pub max_games: u64,
    /// The early-stopping thresholds (metric, half-width).
    pub thresholds: Vec<(String, f64)>,
}

/// The half-width below which a metric's change counts as measured well enough: half a point
/// for shares (0.1 point for the cap share), 1% of the base value for lengths and other
/// figures.
pub fn threshold(name: &str, unit: Unit, base: f64) -> f64 {
    match unit {
        Unit::Share if name.ends_with("cap_share") => 0.001,
        Unit::Share => 0.005,
        _ => (0.01 * base.abs()).max(1e-9),
    }
}

/// Indices of a metric in one catalogue: (catalogue, per-game, per-batch extra).
#[derive(Clone, Copy)]
struct Where {
    def: usize,
    per_game: Option<usize>,
    extra: Option<usize>,
}

fn locate(cat: &Catalogue, name: &str) -> Option<Where> {
    let def = cat.position(name)?;
    let d = &cat.defs[def];
    Some(Where { def, per_game: d.per_game, extra: Catalogue::extra_index(d) })
}

/// What one step measured so far.
struct Acc {
    games: u64,
    /// Per metric: base values (per game).
    base: Moments,
    /// Per metric: step minus base (per game).
    diffs: Moments,
    /// Per metric: (games, base batch value) and (games, diff batch value) for batch-means metrics.
    base_batches: Vec<Vec<(f64, f64)>>,
    diff_batches: Vec<Vec<(f64, f64)>>,
    active: bool,
}

/// What one batch of one step measured.
struct Part {
    base: Moments,
    diffs: Moments,
    base_extra: Vec<f64>,
    diff_extra: Vec<f64>,
    games: u64,
}

/// Everything the analysis needs from the audit.
pub struct Setup<'a> {
    /// The variant as written.
    pub game: &'a dyn GameHandle,
    /// Its line-up.
    pub table: &'a dyn SeatedGame,
    /// `--bots`, seated at every step as at the table.
    pub bots: Option<&'a str>,
    /// Its `[expect]` metric names.
    pub expect: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Most games per step.
    pub max_games: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Runs the analysis over `steps`; `progress(games played so far, most games)` after each round.
pub fn run(setup: &Setup<'_>, steps: &[Step], skipped: Vec<Skipped>, progress: &mut dyn FnMut(u64, u64)) -> Result<Sensitivity, Error> {
    let id = setup.game.facts().id;
    let base_cat = Catalogue::of(setup.game.facts());
    let labels = setup.table.labels();
    let mut stepped: Vec<String> = steps.iter().map(|s| s.key.clone()).collect();
    stepped.dedup();
    let unread: Vec<String> = crate::games::keys::unread(id, &labels, &stepped).into_iter().map(|u| u.key).collect();
    let names = metric_names(&base_cat, &setup.expect);
    let base_where: Vec<Where> = names.iter().map(|(n, _)| locate(&base_cat, n).expect("listed from this catalogue")).collect();
    let cats: Vec<Catalogue> = steps.iter().map(|s| Catalogue::of(s.game.facts())).collect();
    let step_where: Vec<Vec<Option<Where>>> = cats.iter().map(|c| names.iter().map(|(n, _)| locate(c, n)).collect()).collect();
    let base_arm = Arm { seated: setup.table, variant: "audit".into(), replay: String::new() };
    let step_seated = steps.iter().map(|s| seat(&*s.game, &s.variant, setup.bots, "--bots")).collect::<Result<Vec<_>, Error>>()?;
    let arms: Vec<Arm<'_>> = steps
        .iter()
        .zip(&step_seated)
        .map(|(s, seated)| Arm {
            seated: &**seated,
            variant: s.variant.name.clone(),
            replay: replay_command(Path::new("variant"), None, std::slice::from_ref(&s.set)),
        })
        .collect();
    let compared = Compared { names: &names, base_cat: &base_cat, base_where: &base_where, cats: &cats, step_where: &step_where };
    let max = setup.max_games.max(1);
    // Card counts whose holders' win share the game measures (`deck.hippie`:
    // `hippie_held_win_share_gain`): read on the variant as written before calling one dead.
    let held_metrics: Vec<(String, String)> = stepped
        .iter()
        .filter_map(|k| {
            let card = k.strip_prefix("deck.")?;
            let metric = format!("{card}_held_win_share_gain");
            base_cat.position(&metric).map(|_| (k.clone(), metric))
        })
        .collect();
    let (accs, base_stats) = play_rounds(setup, (&base_arm, &arms), &compared, (max, !held_metrics.is_empty()), progress)?;
    let base_summary = base_stats.summary(&base_arm, setup.seed, true, 0.0);
    let base_est = base_stats.estimates(&base_cat, &base_summary);
    let base_of =
        |name: &str| base_cat.position(name).and_then(|i| base_est.get(i)).filter(|e| e.value.is_finite() && e.hi > e.lo).map(|e| (e.value, [e.lo, e.hi]));
    let metrics_info: Vec<MetricInfo> = names
        .iter()
        .zip(&base_where)
        .enumerate()
        .map(|(j, ((n, why), w))| MetricInfo {
            name: n.clone(),
            unit: match base_cat.defs[w.def].unit {
                Unit::Share => "share",
                Unit::Length => "length",
                Unit::Plain => "plain",
            },
            why,
            detectable: detectable(&accs, j, w.per_game.is_some(), max),
            base: base_of(n),
        })
        .collect();
    let mut rows = step_rows(steps.iter().map(|s| (s, crate::games::keys::is_structural(id, &s.key))), &accs, &compared, &unread);
    let (no_effect, held, structural) = quiet_keys(&rows, &held_metrics, &base_of, base_stats.tally.games);
    rows.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)).then(a.dir.cmp(&b.dir)));
    let thresholds = names
        .iter()
        .zip(&base_where)
        .map(|((n, _), w)| {
            let base = accs.first().map_or(0.0, |a| estimate(a, names.iter().position(|(x, _)| x == n).unwrap_or(0), w.per_game.is_some()).0);
            (n.clone(), threshold(n, base_cat.defs[w.def].unit, base))
        })
        .collect();
    Ok(Sensitivity {
        metrics: metrics_info,
        steps: rows,
        no_effect,
        held,
        base_games: base_stats.tally.games,
        unread,
        structural,
        skipped,
        max_games: max,
        thresholds,
    })
}

/// A figure's value on the base variant and its 95% interval.
type BaseFigure = (f64, [f64; 2]);

/// The keys whose steps moved nothing: those that may set a dead rule, the cards whose holders
/// still win a different share (`held_metrics`, read on the base variant by `base_of`), and the
/// structural keys among all stepped keys.
fn quiet_keys(
    rows: &[StepRow],
    held_metrics: &[(String, String)],
    base_of: &dyn Fn(&str) -> Option<BaseFigure>,
    games: u64,
) -> (Vec<String>, Vec<HeldCard>, Vec<String>) {
    let mut keys: Vec<String> = Vec::new();
    for r in rows {
        if !keys.contains(&r.key) {
            keys.push(r.key.clone());
        }
    }
    // "May be dead" only when a full step moved nothing, and never for a structural key or
    // one no bot at the table reads (the audit says that instead), nor for a card whose
    // holders win a different share than the seats not dealt it.
    let quiet: Vec<String> = keys
        .iter()
        .filter(|k| {
            let of_key: Vec<&StepRow> = rows.iter().filter(|r| &r.key == *k).collect();
            may_be_dead(&of_key, None)
        })
        .cloned()
        .collect();
    let held: Vec<HeldCard> = held_metrics
        .iter()
        .filter(|(k, _)| quiet.contains(k))
        .filter_map(|(k, m)| {
            let (value, ci95) = base_of(m)?;
            let of_key: Vec<&StepRow> = rows.iter().filter(|r| &r.key == k).collect();
            (!may_be_dead(&of_key, Some(ci95))).then(|| HeldCard { key: k.clone(), metric: m.clone(), value, ci95, games })
        })
        .collect();
    let no_effect: Vec<String> = quiet.into_iter().filter(|k| !held.iter().any(|h| &h.key == k)).collect();
    let structural: Vec<String> = keys.iter().filter(|k| rows.iter().any(|r| &r.key == *k && r.structural)).cloned().collect();
    (no_effect, held, structural)
}

/// Whether a key whose steps are `of_key` may set a dead rule: a full step was played (of a
/// key neither structural nor unread by every bot), no step moved any figure significantly,
/// and, for a card, the seats dealt it do not win a different share (`held`: the 95% CI of
/// the game's `<card>_held_win_share_gain`, which must not exclude 0).
pub fn may_be_dead(of_key: &[&StepRow], held: Option<[f64; 2]>) -> bool {
    let quiet = of_key.iter().any(|r| r.full && !r.structural && !r.unread) && of_key.iter().all(|r| r.effects.iter().all(|e| !e.significant));
    quiet && held.is_none_or(|ci| ci[0] <= 0.0 && ci[1] >= 0.0)
}

/// The smallest change of metric `j` a step of `max` paired games detects: [`DETECT_SE`]
/// standard errors of the paired difference, the standard error taken from the median spread
/// of the steps' differences (per game: half-width / 1.96 x sqrt(games)).
fn detectable(accs: &[Acc], j: usize, per_game: bool, max: u64) -> Option<f64> {
    let mut spread: Vec<f64> = accs
        .iter()
        .filter(|a| a.games > 0)
        .filter_map(|a| estimate(a, j, per_game).2.map(|h| h / crate::stats::Z95 * (a.games as f64).sqrt()))
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    if spread.is_empty() || max == 0 {
        return None;
    }
    spread.sort_by(f64::total_cmp);
    Some(DETECT_SE * spread[spread.len() / 2] / (max as f64).sqrt())
}

/// The metrics compared: the balance figures (first-player advantage, mean length, the cap
/// share when the game has a cap), then the `[expect]` metrics of the catalogue.
fn metric_names(base_cat: &Catalogue, expect: &[String]) -> Vec<(String, &'static str)> {
    let mut names: Vec<(String, &'static str)> = vec![("first_player_advantage".into(), "balance"), ("mean_length".into(), "balance")];
    if base_cat.position("cap_share").is_some() {
        names.push(("cap_share".into(), "balance"));
    }
    for e in expect {
        if !names.iter().any(|(n, _)| n == e) && base_cat.position(e).is_some() {
            names.push((e.clone(), "expect"));
        }
    }
    names
}

/// The metrics compared and where each is found in the base's and every step's catalogue.
struct Compared<'a> {
    names: &'a [(String, &'static str)],
    base_cat: &'a Catalogue,
    base_where: &'a [Where],
    cats: &'a [Catalogue],
    step_where: &'a [Vec<Option<Where>>],
}

/// Plays the steps in rounds (1,024 games, then doubling up to `max`), each round's batches
/// of the base and of every step still active on the same seeds; a step stops once every
/// metric is settled. Returns what each step measured.
fn play_rounds(
    setup: &Setup<'_>,
    (base_arm, arms): (&Arm<'_>, &[Arm<'_>]),
    c: &Compared<'_>,
    (max, held): (u64, bool),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Vec<Acc>, ArmStats), Error> {
    let m = c.names.len();
    let detailed = held || c.base_where.iter().any(|w| w.per_game.is_none());
    let mut base_stats = ArmStats::default();
    let plan = PlayPlan { seed: setup.seed, checked: false, detailed, keep_rows: false, rotate: false };
    let pool = Pool::new(setup.threads)?;
    let mut accs: Vec<Acc> = arms
        .iter()
        .map(|_| Acc {
            games: 0,
            base: Moments::new(m),
            diffs: Moments::new(m),
            base_batches: vec![Vec::new(); m],
            diff_batches: vec![Vec::new(); m],
            active: true,
        })
        .collect();
    let mut done = 0u64;
    let mut target = FIRST_ROUND.min(max);
    loop {
        let active: Vec<usize> = (0..arms.len()).filter(|&i| accs[i].active).collect();
        if active.is_empty() || done >= target {
            break;
        }
        let jobs: Vec<u64> = batches(done, target, crate::sim::BATCH).collect();
        pool.run(
            &jobs,
            |&batch: &u64| step_batch((base_arm, arms), c, (&plan, batch, target), &active),
            |_, (base, parts)| {
                base_stats.add(base);
                for (i, p) in parts {
                    accs[i].add(p);
                }
            },
            &mut |_| {},
        )?;
        if crate::interrupt::requested() {
            return Err(Error::Interrupted("audit interrupted: nothing written".into()));
        }
        progress(target, max);
        for &i in &active {
            let a = &mut accs[i];
            let settled = (0..m).all(|j| {
                let (base, diff, half) = estimate(a, j, c.base_where[j].per_game.is_some());
                let unit = c.base_cat.defs[c.base_where[j].def].unit;
                half.is_some_and(|h| diff.abs() > h || h <= threshold(&c.names[j].0, unit, base))
            });
            if settled || target >= max {
                a.active = false;
            }
        }
        done = target;
        target = (target * 2).min(max);
    }
    Ok((accs, base_stats))
}

/// Plays batch `batch` (of a run of `target` games) of the base and of the `active` steps,
/// pairing every step's game with the base's game of the same seed.
fn step_batch(
    (base_arm, arms): (&Arm<'_>, &[Arm<'_>]),
    c: &Compared<'_>,
    (plan, batch, target): (&PlayPlan, u64, u64),
    active: &[usize],
) -> Result<(ArmBatch, Vec<(usize, Part)>), Error> {
    let m = c.names.len();
    let per_game_len = c.base_cat.per_game_len;
    let mut base_values: Vec<f64> = Vec::with_capacity(BATCH as usize * per_game_len);
    let base: ArmBatch = arm_batch_with(base_arm, c.base_cat, plan, batch, target, &mut |v| base_values.extend_from_slice(v))?;
    let mut out = Vec::with_capacity(active.len());
    for &i in active {
        let (cat, wh) = (&c.cats[i], &c.step_where[i]);
        let mut part = Part { base: Moments::new(m), diffs: Moments::new(m), base_extra: vec![f64::NAN; m], diff_extra: vec![f64::NAN; m], games: 0 };
        let mut k = 0;
        let mut brow = vec![0.0; m];
        let mut drow = vec![0.0; m];
        let b = arm_batch_with(&arms[i], cat, plan, batch, target, &mut |v| {
            let bv = &base_values[k * per_game_len..(k + 1) * per_game_len];
            for j in 0..m {
                let (x, y) = match (c.base_where[j].per_game, wh[j].and_then(|w| w.per_game)) {
                    (Some(a), Some(s)) => (bv[a], v[s] - bv[a]),
                    _ => (0.0, 0.0),
                };
                brow[j] = x;
                drow[j] = y;
            }
            part.base.add(&brow);
            part.diffs.add(&drow);
            k += 1;
        })?;
        part.games = b.games();
        for (j, step) in wh.iter().enumerate() {
            if let (Some(a), Some(s)) = (c.base_where[j].extra, step.and_then(|w| w.extra))
                && c.base_where[j].per_game.is_none()
            {
                let (x, y) = (base.extras().get(a).copied().unwrap_or(f64::NAN), b.extras().get(s).copied().unwrap_or(f64::NAN));
                part.base_extra[j] = x;
                part.diff_extra[j] = y - x;
            }
        }
        out.push((i, part));
    }
    Ok((base, out))
}

impl Acc {
    /// Folds one batch's part in.
    fn add(&mut self, p: Part) {
        self.games += p.games;
        self.base.merge(&p.base);
        self.diffs.merge(&p.diffs);
        for j in 0..p.base_extra.len() {
            if !p.base_extra[j].is_nan() {
                self.base_batches[j].push((p.games as f64, p.base_extra[j]));
                self.diff_batches[j].push((p.games as f64, p.diff_extra[j]));
            }
        }
    }
}

/// One row per step (with whether its key is structural), each effect with its paired
/// interval and the step's score, in step order.
fn step_rows<'s>(steps: impl Iterator<Item = (&'s Step, bool)>, accs: &[Acc], c: &Compared<'_>, unread: &[String]) -> Vec<StepRow> {
    let m = c.names.len();
    steps
        .zip(accs)
        .map(|((s, structural), a)| {
            let mut score: f64 = 0.0;
            let effects: Vec<Effect> = (0..m)
                .map(|j| {
                    let (base, diff, half) = estimate(a, j, c.base_where[j].per_game.is_some());
                    let unit = c.base_cat.defs[c.base_where[j].def].unit;
                    let significant = half.is_some_and(|h| diff.abs() > h);
                    if significant {
                        score = score.max(diff.abs() / threshold(&c.names[j].0, unit, base));
                    }
                    Effect { metric: c.names[j].0.clone(), base, diff, ci95: half.map(|h| [diff - h, diff + h]), significant }
                })
                .collect();
            StepRow {
                key: s.key.clone(),
                set: s.set.clone(),
                dir: s.dir,
                from: s.from,
                to: s.to,
                full: s.full,
                structural,
                unread: unread.contains(&s.key),
                games: a.games,
                effects,
                score,
            }
        })
        .collect()
}

/// (base value, mean change, half-width of its paired 95% interval) of metric `j` of a step.
fn estimate(a: &Acc, j: usize, per_game: bool) -> (f64, f64, Option<f64>) {
    if per_game {
        if a.base.n == 0 {
            return (0.0, 0.0, None);
        }
        let n = a.base.n as f64;
        let half = Z95 * (a.diffs.variance(j) / n).sqrt();
        (a.base.sum[j] / n, a.diffs.sum[j] / n, Some(half))
    } else {
        let mean = |v: &[(f64, f64)]| {
            let w: f64 = v.iter().map(|(w, _)| w).sum();
            if w > 0.0 { v.iter().map(|(w, x)| w * x).sum::<f64>() / w } else { 0.0 }
        };
        (mean(&a.base_batches[j]), mean(&a.diff_batches[j]), metrics::batch_half_width(&a.diff_batches[j]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_keys_walk_tables_and_lists_but_not_common_keys() {
        let t: toml::Table = toml::from_str(
            "game = \"x\"\nplayers = 4\nrate = 0.5\n[deck]\nbase_sets = 2\n[scoring]\nseller = [1, 2]\n[expect]\nmean_length = [1, 2]\n[[seats]]\nbot = \"a\"\nbluff = 0.2\n",
        )
        .unwrap();
        let keys: Vec<String> = numeric_keys(&t).into_iter().map(|k| k.key).collect();
        assert_eq!(keys, ["deck.base_sets", "players", "rate", "scoring.seller.0", "scoring.seller.1"]);
    }

    #[test]
    fn steps_are_sized_to_the_key() {
        let k = |value: f64, integer: bool, spacing: Option<f64>| NumericKey { key: "a".into(), value, integer, spacing, card_count: false };
        // Small whole numbers: one unit.
        assert_eq!(step_values(&k(5.0, true, None)), [(-1, 4.0), (1, 6.0)]);
        // Large whole numbers: 10% of the value.
        assert_eq!(step_values(&k(250.0, true, None)), [(-1, 225.0), (1, 275.0)]);
        // A table row: at least half the spacing to its neighbours (rows 30, 50, 70: 10).
        assert_eq!(step_values(&k(50.0, true, Some(20.0))), [(-1, 40.0), (1, 60.0)]);
        assert_eq!(step_values(&k(0.0, true, Some(30.0))), [(-1, -15.0), (1, 15.0)]);
        let [(_, lo), (_, hi)] = step_values(&k(0.5, false, None));
        assert!((lo - 0.45).abs() < 1e-12 && (hi - 0.55).abs() < 1e-12);
        assert_eq!(tried_sizes(&k(250.0, true, None)), [25.0, 12.0, 6.0, 3.0, 1.0]);
        assert_eq!(number_text(0.55, false), "0.55");
        assert_eq!(number_text(6.0, true), "6");
    }

    #[test]
    fn a_card_whose_holders_win_more_is_never_dead() {
        let row = |significant: bool| StepRow {
            key: "deck.hippie".into(),
            set: "deck.hippie=0".into(),
            dir: -1,
            from: 2.0,
            to: 0.0,
            full: true,
            structural: false,
            unread: false,
            games: 2048,
            effects: vec![Effect { metric: "first_player_advantage".into(), base: 0.0, diff: 0.001, ci95: Some([-0.01, 0.012]), significant }],
            score: 0.0,
        };
        let (quiet, moved) = (row(false), row(true));
        assert!(may_be_dead(&[&quiet], None), "no step moved anything");
        assert!(!may_be_dead(&[&quiet, &moved], None), "a step moved a figure");
        // Beaver Mania's hippie: holders win 18 points more (95% CI +10 to +26).
        assert!(!may_be_dead(&[&quiet], Some([0.10, 0.26])));
        assert!(!may_be_dead(&[&quiet], Some([-0.26, -0.10])), "holders win less: it matters too");
        assert!(may_be_dead(&[&quiet], Some([-0.02, 0.03])));
    }

    #[test]
    fn a_structural_unread_or_partly_stepped_key_is_never_called_dead() {
        let row = |full: bool, structural: bool, unread: bool| StepRow {
            key: "players".into(),
            set: "players=3".into(),
            dir: -1,
            from: 4.0,
            to: 3.0,
            full,
            structural,
            unread,
            games: 2048,
            effects: vec![Effect { metric: "mean_length".into(), base: 40.0, diff: 0.1, ci95: Some([-0.2, 0.4]), significant: false }],
            score: 0.0,
        };
        assert!(may_be_dead(&[&row(true, false, false)], None), "a full quiet step of an ordinary key");
        assert!(!may_be_dead(&[&row(true, true, false)], None), "structural: players and rounds set no rule");
        assert!(!may_be_dead(&[&row(true, false, true)], None), "no bot at the table reads it: unread, not dead");
        assert!(!may_be_dead(&[&row(false, false, false)], None), "only a partial step was played");
        assert!(may_be_dead(&[&row(false, false, false), &row(true, false, false)], None), "one full step is enough");
        assert!(!may_be_dead(&[], None), "no step at all says nothing");
    }

    #[test]
    fn card_counts_step_to_zero_and_to_double() {
        let t: toml::Table = toml::from_str("hand_size = 13\n[deck]\nhippie = 2\ncopies = 8\nthief = 0\n").unwrap();
        let keys = numeric_keys(&t);
        let key = |name: &str| keys.iter().find(|k| k.key == name).unwrap().clone();
        assert!(key("deck.hippie").card_count && key("deck.copies").card_count);
        assert!(!key("hand_size").card_count, "not a card of the deck");
        assert!(!key("deck.thief").card_count, "none in the deck: stepped by one unit");
        assert_eq!(step_values(&key("deck.hippie")), [(-1, 0.0), (1, 4.0)]);
        assert_eq!(step_values(&key("deck.copies")), [(-1, 0.0), (1, 16.0)]);
        assert_eq!(step_values(&key("deck.thief")), [(-1, -1.0), (1, 1.0)]);
        assert_eq!(step_values(&key("hand_size")), [(-1, 12.0), (1, 14.0)]);
        // Refused at 0 or at double: halved towards one card.
        assert_eq!(tried_sizes(&key("deck.copies")), [8.0, 4.0, 2.0, 1.0]);
    }

    #[test]
    fn table_rows_know_their_spacing() {
        let t: toml::Table = toml::from_str("[scoring.seller]\n3 = 30\n4 = 50\n5 = 70\n6 = 100\n[deck]\nbase_sets = 3\nbutchers = 3\n").unwrap();
        let keys = numeric_keys(&t);
        let spacing = |key: &str| keys.iter().find(|k| k.key == key).and_then(|k| k.spacing);
        assert_eq!(spacing("scoring.seller.3"), Some(20.0));
        assert_eq!(spacing("scoring.seller.6"), Some(30.0));
        assert_eq!(spacing("deck.butchers"), None);
    }
}
