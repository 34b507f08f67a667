//! The audit's sensitivity analysis: every numeric key of the variant one natural step down
//! and one up (1 for whole numbers, 10% otherwise), each step played on common random numbers
//! against the variant as written (game i of both from the same seed), with the paired 95%
//! interval of the change in first-player advantage, mean length, cap share and every
//! `[expect]` metric.
//!
//! A step outside the key's allowed range is found by the variant loader and the game's own
//! checks (exactly as `--set` would be refused) and listed as skipped with the reason. Steps
//! play in rounds (1,024 games, then doubling up to the budget); a step stops early once every
//! metric's interval excludes 0 or is narrower than the metric's threshold ([`threshold`]).

use std::path::Path;

use serde::Serialize;

use crate::engine::Game;
use crate::error::Error;
use crate::games::Registered;
use crate::sim::{BATCH, SeatPlan};
use crate::stats::Z95;
use crate::variant::Variant;

use super::super::metrics::{self, Catalogue, Moments, Unit};
use super::super::plans;
use super::super::runner::{Arm, ArmBatch, PlayPlan, Pool, arm_batch_with, batches, replay_command};

/// Games of the first round of every step.
pub const FIRST_ROUND: u64 = 1024;

/// One numeric leaf of the variant: dotted key (list items by index), value, whole number.
#[derive(Clone, Debug, PartialEq)]
pub struct NumericKey {
    /// Dotted key as `--set` takes it (`payout.3.withdrawal`, `scoring.seller.2`).
    pub key: String,
    /// Its value in the variant as written.
    pub value: f64,
    /// Whether it is a whole number (stepped by 1) or not (stepped by 10%).
    pub integer: bool,
}

/// Every numeric key of a variant table: numbers, numbers in lists, nested tables; not the
/// `[expect]` bounds, the seats' bot parameters or the common keys.
pub fn numeric_keys(table: &toml::Table) -> Vec<NumericKey> {
    fn walk(value: &toml::Value, key: String, out: &mut Vec<NumericKey>) {
        match value {
            toml::Value::Integer(i) => out.push(NumericKey { key, value: *i as f64, integer: true }),
            toml::Value::Float(x) => out.push(NumericKey { key, value: *x, integer: false }),
            toml::Value::Table(t) => {
                for (k, v) in t {
                    walk(v, format!("{key}.{k}"), out);
                }
            }
            toml::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    if matches!(v, toml::Value::Integer(_) | toml::Value::Float(_)) {
                        walk(v, format!("{key}.{i}"), out);
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

/// The two steps of a key: (direction -1 or +1, new value).
pub fn step_values(k: &NumericKey) -> [(i8, f64); 2] {
    if k.integer {
        [(-1, k.value - 1.0), (1, k.value + 1.0)]
    } else if k.value == 0.0 {
        [(-1, -0.1), (1, 0.1)]
    } else {
        [(-1, k.value * 0.9), (1, k.value * 1.1)]
    }
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
pub struct Step<G: Game> {
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
    game: G,
    plans: Vec<SeatPlan<G>>,
    name: String,
}

/// Builds every step of every numeric key of `variant` (loaded from `path` with `sets`);
/// steps the loader or the game refuse are returned as skipped.
pub fn build_steps<G: Registered>(path: &Path, sets: &[String], variant: &Variant, bots: Option<&str>) -> (Vec<Step<G>>, Vec<Skipped>) {
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    for k in numeric_keys(&variant.table) {
        for (dir, to) in step_values(&k) {
            let set = format!("{}={}", k.key, number_text(to, k.integer));
            let mut all = sets.to_vec();
            all.push(set.clone());
            let built = Variant::load(path, &all).map_err(Error::from).and_then(|v| {
                let game = G::from_variant(&v)?;
                let p = plans(&game, &v, bots, "--bots")?;
                Ok((game, p, v.name.clone()))
            });
            match built {
                Ok((game, plans, name)) => steps.push(Step { key: k.key.clone(), set, dir, from: k.value, to, game, plans, name }),
                Err(e) => skipped.push(Skipped { set, reason: e.to_string().lines().next().unwrap_or("").to_string() }),
            }
        }
    }
    (steps, skipped)
}

/// One metric compared by the sensitivity analysis.
#[derive(Clone, Debug, Serialize)]
pub struct MetricInfo {
    /// Catalogue name.
    pub name: String,
    /// "share", "length" or "plain".
    pub unit: &'static str,
    /// Why it is here ("balance" or "expect").
    pub why: &'static str,
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
    /// Keys neither of whose steps changed any metric significantly.
    pub no_effect: Vec<String>,
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
pub struct Setup<'a, G: Game> {
    /// The variant as written.
    pub game: &'a G,
    /// Its line-up.
    pub plans: &'a [SeatPlan<G>],
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
pub fn run<G: Game>(setup: &Setup<'_, G>, steps: &[Step<G>], skipped: Vec<Skipped>, progress: &mut dyn FnMut(u64, u64)) -> Result<Sensitivity, Error> {
    let base_cat = Catalogue::new(setup.game);
    let mut names: Vec<(String, &'static str)> = vec![("first_player_advantage".into(), "balance"), ("mean_length".into(), "balance")];
    if base_cat.position("cap_share").is_some() {
        names.push(("cap_share".into(), "balance"));
    }
    for e in &setup.expect {
        if !names.iter().any(|(n, _)| n == e) && base_cat.position(e).is_some() {
            names.push((e.clone(), "expect"));
        }
    }
    let base_where: Vec<Where> = names.iter().map(|(n, _)| locate(&base_cat, n).expect("listed from this catalogue")).collect();
    let detailed = base_where.iter().any(|w| w.per_game.is_none());
    let cats: Vec<Catalogue> = steps.iter().map(|s| Catalogue::new(&s.game)).collect();
    let step_where: Vec<Vec<Option<Where>>> = cats.iter().map(|c| names.iter().map(|(n, _)| locate(c, n)).collect()).collect();
    let m = names.len();
    let base_arm = Arm { game: setup.game, plans: setup.plans, variant: "audit".into(), replay: String::new() };
    let arms: Vec<Arm<'_, G>> = steps
        .iter()
        .map(|s| Arm {
            game: &s.game,
            plans: &s.plans,
            variant: s.name.clone(),
            replay: replay_command(Path::new("variant"), None, std::slice::from_ref(&s.set)),
        })
        .collect();
    let plan = PlayPlan { seed: setup.seed, checked: false, detailed, keep_rows: false, rotate: false };
    let pool = Pool::new(setup.threads)?;
    let mut accs: Vec<Acc> = steps
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
    let max = setup.max_games.max(1);
    let mut done = 0u64;
    let mut target = FIRST_ROUND.min(max);
    loop {
        let active: Vec<usize> = (0..steps.len()).filter(|&i| accs[i].active).collect();
        if active.is_empty() || done >= target {
            break;
        }
        let jobs: Vec<u64> = batches(done, target, crate::sim::BATCH).collect();
        let task = |&batch: &u64| -> Result<Vec<(usize, Part)>, Error> {
            let mut base_values: Vec<f64> = Vec::with_capacity(BATCH as usize * base_cat.per_game_len);
            let base: ArmBatch<G> = arm_batch_with(&base_arm, &base_cat, &plan, batch, target, &mut |v| base_values.extend_from_slice(v))?;
            let mut out = Vec::with_capacity(active.len());
            for &i in &active {
                let (cat, wh) = (&cats[i], &step_where[i]);
                let mut part = Part { base: Moments::new(m), diffs: Moments::new(m), base_extra: vec![f64::NAN; m], diff_extra: vec![f64::NAN; m], games: 0 };
                let mut k = 0;
                let mut brow = vec![0.0; m];
                let mut drow = vec![0.0; m];
                let b = arm_batch_with(&arms[i], cat, &plan, batch, target, &mut |v| {
                    let bv = &base_values[k * base_cat.per_game_len..(k + 1) * base_cat.per_game_len];
                    for j in 0..m {
                        let (x, y) = match (base_where[j].per_game, wh[j].and_then(|w| w.per_game)) {
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
                for j in 0..m {
                    if let (Some(a), Some(s)) = (base_where[j].extra, wh[j].and_then(|w| w.extra))
                        && base_where[j].per_game.is_none()
                    {
                        let (x, y) = (base.extras().get(a).copied().unwrap_or(f64::NAN), b.extras().get(s).copied().unwrap_or(f64::NAN));
                        part.base_extra[j] = x;
                        part.diff_extra[j] = y - x;
                    }
                }
                out.push((i, part));
            }
            Ok(out)
        };
        pool.run(
            &jobs,
            task,
            |_, parts| {
                for (i, p) in parts {
                    let a = &mut accs[i];
                    a.games += p.games;
                    a.base.merge(&p.base);
                    a.diffs.merge(&p.diffs);
                    for j in 0..m {
                        if !p.base_extra[j].is_nan() {
                            a.base_batches[j].push((p.games as f64, p.base_extra[j]));
                            a.diff_batches[j].push((p.games as f64, p.diff_extra[j]));
                        }
                    }
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
                let (base, diff, half) = estimate(a, j, base_where[j].per_game.is_some());
                let unit = base_cat.defs[base_where[j].def].unit;
                half.is_some_and(|h| diff.abs() > h || h <= threshold(&names[j].0, unit, base))
            });
            if settled || target >= max {
                a.active = false;
            }
        }
        done = target;
        target = (target * 2).min(max);
    }
    let metrics_info: Vec<MetricInfo> = names
        .iter()
        .zip(&base_where)
        .map(|((n, why), w)| MetricInfo {
            name: n.clone(),
            unit: match base_cat.defs[w.def].unit {
                Unit::Share => "share",
                Unit::Length => "length",
                Unit::Plain => "plain",
            },
            why,
        })
        .collect();
    let mut rows: Vec<StepRow> = steps
        .iter()
        .zip(&accs)
        .map(|(s, a)| {
            let mut score: f64 = 0.0;
            let effects: Vec<Effect> = (0..m)
                .map(|j| {
                    let (base, diff, half) = estimate(a, j, base_where[j].per_game.is_some());
                    let unit = base_cat.defs[base_where[j].def].unit;
                    let significant = half.is_some_and(|h| diff.abs() > h);
                    if significant {
                        score = score.max(diff.abs() / threshold(&names[j].0, unit, base));
                    }
                    Effect { metric: names[j].0.clone(), base, diff, ci95: half.map(|h| [diff - h, diff + h]), significant }
                })
                .collect();
            StepRow { key: s.key.clone(), set: s.set.clone(), dir: s.dir, from: s.from, to: s.to, games: a.games, effects, score }
        })
        .collect();
    let mut keys: Vec<String> = Vec::new();
    for r in &rows {
        if !keys.contains(&r.key) {
            keys.push(r.key.clone());
        }
    }
    let no_effect: Vec<String> = keys.into_iter().filter(|k| rows.iter().filter(|r| &r.key == k).all(|r| r.effects.iter().all(|e| !e.significant))).collect();
    rows.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)).then(a.dir.cmp(&b.dir)));
    let thresholds = names
        .iter()
        .zip(&base_where)
        .map(|((n, _), w)| {
            let base = accs.first().map_or(0.0, |a| estimate(a, names.iter().position(|(x, _)| x == n).unwrap_or(0), w.per_game.is_some()).0);
            (n.clone(), threshold(n, base_cat.defs[w.def].unit, base))
        })
        .collect();
    Ok(Sensitivity { metrics: metrics_info, steps: rows, no_effect, skipped, max_games: max, thresholds })
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
    fn steps_are_one_for_whole_numbers_and_ten_percent_otherwise() {
        let k = NumericKey { key: "a".into(), value: 5.0, integer: true };
        assert_eq!(step_values(&k), [(-1, 4.0), (1, 6.0)]);
        let k = NumericKey { key: "a".into(), value: 0.5, integer: false };
        let [(_, lo), (_, hi)] = step_values(&k);
        assert!((lo - 0.45).abs() < 1e-12 && (hi - 0.55).abs() < 1e-12);
        assert_eq!(number_text(0.55, false), "0.55");
        assert_eq!(number_text(6.0, true), "6");
    }
}
