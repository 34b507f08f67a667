//! The measuring part of `tune`: plays the grid's candidates on common random numbers, drops
//! the clearly worse round by round ([`super::decide`]), checks that the winner moves a
//! bounded figure and confirms it on its own seed; returns a [`TuneResult`] and writes nothing.

use crate::designer::check::{Expectation, Verdict, expectations, verdict};
use crate::designer::metrics::{self, BatchValues, Catalogue, Estimate, Unit};
use crate::designer::precision::{PrecisionArgs, run_arm};
use crate::designer::runner::{Arm, ArmStats, PlayPlan, Pool, arm_batch, arms_of, batches, replay_command, seat_points};
use crate::designer::{seat, thousands};
use crate::engine::game_seed;
use crate::error::Error;
use crate::games::GameHandle;
use crate::progress::Progress;
use crate::sim::BATCH;
use crate::variant::Variant;

use super::decide::{MovedBy, Paired, at_precision, distance, dominated, moved_by, overhang, paired, pick, settled};
use super::grid::{Candidate, Knob, changes_of, grid, ranks, sets_of};
use super::result::{BoundResult, CandidateResult, Confirmation, MetricValue, Round, TuneResult};
use super::{FIRST_ROUND, TuneOptions};

/// What a race is asked: the options, the tuned keys and the variant as written.
pub(super) struct Tune<'a> {
    /// The options.
    pub(super) o: &'a TuneOptions,
    /// The tuned keys.
    pub(super) knobs: &'a [Knob],
    /// The variant as written (with `--set`s).
    pub(super) base: &'a Variant,
}

/// One candidate's game and variant.
struct Point {
    game: Box<dyn GameHandle>,
    variant: Variant,
    sets: Vec<String>,
}

/// What the race knows of one candidate.
struct Racer {
    stats: ArmStats,
    /// Per batch: (games, value of each bounded metric on that batch alone).
    batches: Vec<(f64, Vec<f64>)>,
    /// Estimates of every metric at its last round.
    estimates: Vec<Estimate>,
    /// Dropped: why (and at which round).
    dropped: Option<String>,
}

/// The grid being raced: the candidates, their catalogues and the bounds they are held to.
struct Race<'a> {
    o: &'a TuneOptions,
    knobs: &'a [Knob],
    cands: Vec<Candidate>,
    expect: Vec<Expectation>,
    cats: Vec<Catalogue>,
    /// The catalogue position of every bounded metric at every candidate.
    pos: Vec<Vec<usize>>,
    /// Preference order: rank[c] is c's place (0 = the variant as written, if in the grid).
    rank: Vec<usize>,
    /// How the race's games are played.
    plan: PlayPlan,
}

/// Where the race ended.
struct Raced {
    racers: Vec<Racer>,
    rounds: Vec<Round>,
    spent: u64,
    /// Games each candidate of the last round played.
    done: u64,
    budget_reached: bool,
}

/// Runs `tune` on `base_game`: races the grid, checks that the winner moves a bounded
/// figure, confirms it on its own seed.
pub(super) fn tune(base_game: &dyn GameHandle, t: &Tune<'_>) -> Result<TuneResult, Error> {
    let (o, knobs) = (t.o, t.knobs);
    let cat0 = Catalogue::of(base_game.facts());
    let expect = expectations(t.base, &cat0)?;
    if expect.is_empty() {
        return Err(Error::Usage(format!(
            "{} has no [expect] bounds: tune looks for values that meet them; add e.g. [expect] first_player_advantage = [-0.01, 0.01]",
            o.variant.display()
        )));
    }
    let cands = grid(knobs);
    let points = points(t, base_game, &cands)?;
    let cats: Vec<Catalogue> = points.iter().map(|p| Catalogue::of(p.game.facts())).collect();
    let pos = positions(knobs, &cands, &cats, &expect)?;
    let detailed = expect.iter().any(|e| cat0.get(&e.metric).is_some_and(Catalogue::is_extra));
    let plan = PlayPlan { seed: o.run.seed, checked: false, detailed, keep_rows: false, rotate: false };
    let seats = seat_points(points.iter().map(|p| (&*p.game, &p.variant)), o.bots.as_deref())?;
    let arms = arms_of(&seats, points.iter().map(|p| (&p.variant, &p.sets[..])), &o.variant, o.bots.as_deref());
    let rank = ranks(&cands);
    let race = Race { o, knobs, cands, expect, cats, pos, rank, plan };
    let pool = Pool::new(o.run.threads)?;
    let raced = race.run(&arms, &pool)?;
    let winner = race.winner(&raced);
    let changes = changes_of(knobs, &race.cands[winner]);
    if !changes.is_empty() {
        race.winner_moves_a_figure(base_game, t.base, &pool, &raced, (winner, &changes))?;
    }
    let confirmation = race.confirm(&arms[winner], winner, raced.done)?;
    let candidates = race.candidate_results(&raced.racers, winner, raced.done);
    let race_holds = !race.fails_at(&raced.racers, winner);
    // Found only when the confirmation on a fresh seed holds too: a pick refuted there is
    // reported as the closest, never as holding.
    let found = race_holds && confirmation.passes;
    let Raced { rounds, spent, done, budget_reached, .. } = raced;
    Ok(TuneResult {
        game: base_game.facts().id.to_string(),
        variant: o.variant.display().to_string(),
        seed: o.run.seed,
        knobs: knobs.to_vec(),
        grid: race.cands.len(),
        found,
        race_holds,
        winner,
        changes,
        spent,
        final_games_each: done,
        full_grid_games: race.cands.len() as u64 * done,
        budget_reached,
        rounds,
        candidates,
        confirmation,
        tuned_file: None,
    })
}

/// Every candidate's game, built from the variant with its `--set`s (its bots checked).
fn points(t: &Tune<'_>, base_game: &dyn GameHandle, cands: &[Candidate]) -> Result<Vec<Point>, Error> {
    let o = t.o;
    let mut points = Vec::with_capacity(cands.len());
    for c in cands {
        let mut sets = o.sets.clone();
        sets.extend(sets_of(t.knobs, c));
        let variant = Variant::load(&o.variant, &sets)?;
        let game = base_game.with_variant(&variant)?;
        seat(&*game, &variant, o.bots.as_deref(), "--bots")?;
        points.push(Point { game, variant, sets });
    }
    Ok(points)
}

/// The catalogue position of every bounded metric at every candidate.
fn positions(knobs: &[Knob], cands: &[Candidate], cats: &[Catalogue], expect: &[Expectation]) -> Result<Vec<Vec<usize>>, Error> {
    let mut pos: Vec<Vec<usize>> = Vec::new();
    for (c, cat) in cats.iter().enumerate() {
        let row = expect
            .iter()
            .map(|e| {
                cat.position(&e.metric).ok_or_else(|| {
                    Error::Usage(format!("[expect] {}: no such metric at {} (the grid changed the seats?)", e.metric, sets_of(knobs, &cands[c]).join(" ")))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        pos.push(row);
    }
    Ok(pos)
}

impl Race<'_> {
    /// Races the grid: every candidate alive plays the round's games, the clearly worse are
    /// dropped, the games double, until one is left or the budget is spent.
    fn run(&self, arms: &[Arm<'_>], pool: &Pool) -> Result<Raced, Error> {
        let o = self.o;
        let mut racers: Vec<Racer> =
            (0..self.cands.len()).map(|_| Racer { stats: ArmStats::default(), batches: Vec::new(), estimates: Vec::new(), dropped: None }).collect();
        let mut progress = Progress::new(o.budget, o.json || o.run.quiet);
        progress.set_message(format!("{} candidates", self.cands.len()));
        let (mut spent, mut done, mut n) = (0u64, 0u64, FIRST_ROUND);
        let mut rounds = Vec::new();
        let mut budget_reached = false;
        let mut alive: Vec<usize> = (0..self.cands.len()).collect();
        loop {
            let mut cost = alive.len() as u64 * (n - done);
            if spent + cost > o.budget {
                // The budget cannot give every candidate left the next round: race on with
                // those first in the pick's order that it can, while the pick is undecided.
                let afford = (o.budget.saturating_sub(spent) / (n - done)) as usize;
                if rounds.is_empty() || afford == 0 {
                    budget_reached = true;
                    break;
                }
                let order = self.pick_order(&alive, &racers);
                for &c in &order[afford..] {
                    racers[c].dropped = Some(format!(
                        "dropped after round {} ({} games): the budget left room for {afford} candidate(s) in round {}, and the pick's order puts it after them",
                        rounds.len(),
                        thousands(done),
                        rounds.len() + 1
                    ));
                }
                alive.retain(|&c| racers[c].dropped.is_none());
                cost = alive.len() as u64 * (n - done);
            }
            spent = self.play_round(arms, pool, &alive, (done, n), &mut racers, (spent, cost), &mut progress)?;
            if crate::interrupt::requested() {
                progress.finish();
                return Err(Error::Interrupted("interrupted".into()));
            }
            for &c in &alive {
                let r = &mut racers[c];
                let summary = r.stats.summary(&arms[c], o.run.seed, self.plan.detailed, 0.0);
                r.estimates = r.stats.estimates(&self.cats[c], &summary);
            }
            let racing = alive.len();
            let objectives = self.drop_round(&alive, &mut racers, rounds.len() + 1, n);
            alive.retain(|&c| racers[c].dropped.is_none());
            rounds.push(self.round_record(&alive, &racers, &objectives, (n, racing, spent)));
            done = n;
            // One candidate left: the race goes on while it is undecided (a bound neither
            // clearly holds nor clearly fails) and the budget lasts.
            if alive.is_empty() || (alive.len() == 1 && self.decided(alive[0], &racers)) {
                break;
            }
            n *= 2;
        }
        progress.finish();
        if rounds.is_empty() {
            return Err(Error::Usage(format!(
                "--budget {}: too small for the first round ({} candidates x {} games = {})",
                o.budget,
                self.cands.len(),
                FIRST_ROUND,
                thousands(self.cands.len() as u64 * FIRST_ROUND)
            )));
        }
        Ok(Raced { racers, rounds, spent, done, budget_reached })
    }

    /// Plays the batches that take every candidate alive from `done` to `n` games, folding
    /// each batch's bounded values in order; returns the games spent so far.
    #[allow(clippy::too_many_arguments)]
    fn play_round(
        &self,
        arms: &[Arm<'_>],
        pool: &Pool,
        alive: &[usize],
        (done, n): (u64, u64),
        racers: &mut [Racer],
        (mut spent, cost): (u64, u64),
        progress: &mut Progress,
    ) -> Result<u64, Error> {
        let jobs: Vec<(usize, u64)> = alive.iter().flat_map(|&c| batches(done, n, crate::sim::BATCH).map(move |b| (c, b))).collect();
        let task = |&(c, b): &(usize, u64)| -> Result<(ArmStats, Vec<f64>), Error> {
            let batch = arm_batch(&arms[c], &self.cats[c], &self.plan, b, n)?;
            let mut one = ArmStats::default();
            one.add(batch);
            let summary = one.summary(&arms[c], self.o.run.seed, self.plan.detailed, 0.0);
            let est = one.estimates(&self.cats[c], &summary);
            Ok((one, self.pos[c].iter().map(|&i| est[i].value).collect()))
        };
        let base_spent = spent;
        pool.run(
            &jobs,
            task,
            |&(c, _), (one, values)| {
                let games = one.tally.games;
                racers[c].batches.push((games as f64, values));
                racers[c].stats.merge(one);
                spent += games;
            },
            &mut |k| progress.update(base_spent + (k as u64 * BATCH).min(cost)),
        )?;
        Ok(spent)
    }

    /// Candidate c's estimates of the bounded metrics.
    fn bounded(&self, c: usize, racers: &[Racer]) -> Vec<Estimate> {
        self.pos[c].iter().map(|&i| racers[c].estimates[i]).collect()
    }

    /// Whether a bound of candidate c clearly fails.
    fn fails(&self, c: usize, racers: &[Racer]) -> bool {
        self.bounded(c, racers).iter().zip(&self.expect).any(|(e, x)| verdict(e, x.lo, x.hi) == Verdict::Fails)
    }

    /// Whether every bound of candidate c is settled (clearly holds).
    fn clear(&self, c: usize, racers: &[Racer]) -> bool {
        self.bounded(c, racers).iter().zip(&self.expect).all(|(e, x)| settled(e, x.lo, x.hi))
    }

    /// Whether more games cannot change candidate c's verdict: every bound clearly holds, or
    /// one clearly fails.
    fn decided(&self, c: usize, racers: &[Racer]) -> bool {
        self.clear(c, racers) || self.fails(c, racers)
    }

    /// The candidates of `alive` in the order the pick takes them ([`pick`]): holding with
    /// every point estimate inside, by preference; then holding, by preference; then the
    /// rest, closest first.
    fn pick_order(&self, alive: &[usize], racers: &[Racer]) -> Vec<usize> {
        let mut order = alive.to_vec();
        let class = |c: usize| {
            if self.fails(c, racers) {
                2
            } else if self.objective_at(racers, c) == 0.0 {
                0
            } else {
                1
            }
        };
        order.sort_by(|&a, &b| {
            class(a)
                .cmp(&class(b))
                .then_with(|| if class(a) == 2 { self.objective_at(racers, a).total_cmp(&self.objective_at(racers, b)) } else { std::cmp::Ordering::Equal })
                .then(self.rank[a].cmp(&self.rank[b]))
        });
        order
    }

    /// Drops the candidates this round shows to be worse; returns every racing candidate's
    /// objective (sum of distances to the bounds, CI units) before the drops.
    fn drop_round(&self, alive: &[usize], racers: &mut [Racer], round: usize, n: u64) -> Vec<(usize, f64)> {
        let (knobs, cands, expect) = (self.knobs, &self.cands, &self.expect);
        let holding: Vec<usize> = alive.iter().copied().filter(|&c| !self.fails(c, racers)).collect();
        let objectives: Vec<(usize, f64)> =
            alive.iter().map(|&c| (c, self.pos[c].iter().zip(expect).map(|(&i, e)| distance(&racers[c].estimates[i], e.lo, e.hi)).sum::<f64>())).collect();
        let drop = |c: usize, why: String, racers: &mut [Racer]| {
            if racers[c].dropped.is_none() {
                racers[c].dropped = Some(format!("dropped after round {round} ({} games): {why}", thousands(n)));
            }
        };
        if holding.is_empty() {
            // Nothing holds: successive halving towards the closest.
            let mut by_obj = objectives.clone();
            by_obj.sort_by(|a, b| a.1.total_cmp(&b.1).then(self.rank[a.0].cmp(&self.rank[b.0])));
            let keep = by_obj.len().div_ceil(2);
            for &(c, _) in &by_obj[keep..] {
                drop(c, "a bound clearly fails and it is in the farther half from the bounds".into(), racers);
            }
            return objectives;
        }
        for &c in alive {
            if self.fails(c, racers) {
                let which: Vec<String> = self
                    .bounded(c, racers)
                    .iter()
                    .zip(expect)
                    .filter(|(e, x)| verdict(e, x.lo, x.hi) == Verdict::Fails)
                    .map(|(_, x)| x.metric.clone())
                    .collect();
                drop(c, format!("clearly outside {}", which.join(", ")), racers);
            }
        }
        // A candidate that clearly holds every bound rules out every one ranked after it.
        if let Some(&w) = holding.iter().filter(|&&c| self.clear(c, racers)).min_by_key(|&&c| self.rank[c]) {
            for &c in &holding {
                if self.rank[c] > self.rank[w] {
                    drop(c, format!("{} clearly holds every bound with a smaller change", sets_of(knobs, &cands[w]).join(" ")), racers);
                }
            }
        }
        // Paired comparisons (batch means of the differences on the same games).
        let left: Vec<usize> = holding.iter().copied().filter(|&c| racers[c].dropped.is_none()).collect();
        if racers[alive[0]].batches.len() >= metrics::MIN_BATCHES {
            for (c, w) in self.beaten(&left, racers) {
                drop(
                    c,
                    format!("paired on the same games, {} is clearly closer to the bounds with no larger change", sets_of(knobs, &cands[w]).join(" ")),
                    racers,
                );
            }
        }
        objectives
    }

    /// The candidates of `left` that a more preferred one beats, paired on the same games:
    /// (beaten, by whom).
    fn beaten(&self, left: &[usize], racers: &[Racer]) -> Vec<(usize, usize)> {
        let mut beaten = Vec::new();
        for &c in left {
            for &w in left {
                if w == c || self.rank[w] > self.rank[c] {
                    continue;
                }
                if dominated(&self.paired(c, w, racers)) {
                    beaten.push((c, w));
                    break;
                }
            }
        }
        beaten
    }

    /// Every bound of candidate c judged against candidate w on the same games.
    fn paired(&self, c: usize, w: usize, racers: &[Racer]) -> Vec<Paired> {
        self.expect
            .iter()
            .enumerate()
            .map(|(b, e)| {
                let diffs: BatchValues = racers[c].batches.iter().zip(&racers[w].batches).map(|((g, vc), (_, vw))| (*g, vc[b] - vw[b])).collect();
                if diffs.iter().all(|d| d.1 == 0.0) {
                    return Paired::Equal;
                }
                let total: f64 = diffs.iter().map(|d| d.0).sum();
                let mean = diffs.iter().map(|(g, d)| g * d).sum::<f64>() / total;
                match metrics::batch_half_width(&diffs) {
                    Some(h) if mean.is_finite() => paired(racers[w].estimates[self.pos[w][b]].value, mean - h, mean + h, e.lo, e.hi),
                    _ => Paired::Unclear,
                }
            })
            .collect()
    }

    /// The round's line of the search record (`search.csv`).
    fn round_record(&self, alive: &[usize], racers: &[Racer], objectives: &[(usize, f64)], (n, racing, spent): (u64, usize, u64)) -> Round {
        let obj_of = |c: usize| objectives.iter().find(|(x, _)| *x == c).map_or(f64::INFINITY, |(_, v)| *v);
        let pick = pick(alive, &self.rank, &|c| !self.fails(c, racers), &obj_of);
        let mut objs: Vec<f64> = objectives.iter().map(|(_, v)| *v).collect();
        objs.sort_by(f64::total_cmp);
        Round {
            games_each: n,
            racing,
            left: alive.len(),
            spent,
            pick_objective: obj_of(pick),
            pick_overhang: self.pos[pick].iter().zip(&self.expect).map(|(&i, e)| overhang(&racers[pick].estimates[i], e.lo, e.hi)).sum(),
            best_objective: objs[0],
            median_objective: objs[objs.len() / 2],
            pick: sets_of(self.knobs, &self.cands[pick]).join(" "),
        }
    }

    /// Whether a bound of candidate c fails at its last round (a missing estimate fails).
    fn fails_at(&self, racers: &[Racer], c: usize) -> bool {
        self.pos[c].iter().zip(&self.expect).any(|(&i, e)| verdict(&racers[c].estimates[i], e.lo, e.hi) == Verdict::Fails)
    }

    /// Candidate c's objective at its last round.
    fn objective_at(&self, racers: &[Racer], c: usize) -> f64 {
        objective_of(&racers[c], &self.pos[c], &self.expect)
    }

    /// The winner among the candidates that played the last round.
    fn winner(&self, raced: &Raced) -> usize {
        let racers = &raced.racers;
        let last: Vec<usize> = (0..self.cands.len()).filter(|&c| racers[c].stats.tally.games == raced.done).collect();
        let alive_last: Vec<usize> = last.iter().copied().filter(|&c| racers[c].dropped.is_none()).collect();
        let pool_last = if alive_last.is_empty() { last.clone() } else { alive_last };
        pick(&pool_last, &self.rank, &|c| !self.fails_at(racers, c), &|c| self.objective_at(racers, c))
    }

    /// A winner that changes keys must move some bounded figure: played on the race's games,
    /// the variant as written gives the same figures batch by batch otherwise (a key no bot
    /// at the table reads, under a bound on how the game is played), and no tuned variant
    /// is written.
    fn winner_moves_a_figure(
        &self,
        base_game: &dyn GameHandle,
        base: &Variant,
        pool: &Pool,
        raced: &Raced,
        (winner, changes): (usize, &[String]),
    ) -> Result<(), Error> {
        let (o, done) = (self.o, raced.done);
        let cat0 = Catalogue::of(base_game.facts());
        let base_seated = seat(base_game, base, o.bots.as_deref(), "--bots")?;
        let base_arm = Arm { seated: &*base_seated, variant: base.name.clone(), replay: replay_command(&o.variant, o.bots.as_deref(), &o.sets) };
        let base_pos: Vec<Option<usize>> = self.expect.iter().map(|e| cat0.position(&e.metric)).collect();
        let jobs: Vec<u64> = batches(0, done, crate::sim::BATCH).collect();
        let mut base_batches: Vec<Vec<f64>> = Vec::new();
        let task = |&b: &u64| -> Result<Vec<f64>, Error> {
            let mut one = ArmStats::default();
            one.add(arm_batch(&base_arm, &cat0, &self.plan, b, done)?);
            let summary = one.summary(&base_arm, o.run.seed, self.plan.detailed, 0.0);
            let est = one.estimates(&cat0, &summary);
            Ok(base_pos.iter().map(|i| i.map_or(f64::NAN, |i| est[i].value)).collect())
        };
        pool.run(&jobs, task, |_, v| base_batches.push(v), &mut |_| {})?;
        let winner_batches: Vec<&Vec<f64>> = raced.racers[winner].batches.iter().map(|(_, v)| v).collect();
        let bounded = self.expect.iter().map(|e| e.metric.as_str()).collect::<Vec<_>>().join(", ");
        if base_batches.len() != winner_batches.len() || base_batches.iter().zip(&winner_batches).any(|(a, b)| a != *b) {
            // Different games: the change must move some bounded figure measurably (a paired
            // 95% interval of the difference that excludes 0), else it is noise.
            let weights: Vec<f64> = raced.racers[winner].batches.iter().map(|(g, _)| *g).collect();
            let moved: Vec<MovedBy> = (0..self.expect.len())
                .map(|b| {
                    let diffs: BatchValues = weights.iter().zip(&winner_batches).zip(&base_batches).map(|((g, w), x)| (*g, w[b] - x[b])).collect();
                    moved_by(&diffs)
                })
                .collect();
            if moved.iter().any(|m| m.significant) {
                return Ok(());
            }
            let detail: Vec<String> = self
                .expect
                .iter()
                .zip(&moved)
                .map(|(e, m)| {
                    let unit = self.cats[winner].get(&e.metric).map_or(Unit::Plain, |d| d.unit);
                    match m.half {
                        Some(h) => format!(
                            "{} {} (95% CI {} to {})",
                            e.metric,
                            metrics::format_diff(unit, m.mean),
                            metrics::format_diff(unit, m.mean - h),
                            metrics::format_diff(unit, m.mean + h)
                        ),
                        None => format!("{} {} (no interval)", e.metric, metrics::format_diff(unit, m.mean)),
                    }
                })
                .collect();
            return Err(Error::Usage(format!(
                "tune: no tuned variant written: the pick ({}) moves none of the bounded figures ({bounded}) measurably; paired with the variant as written on the same {} games, every difference's 95% interval holds 0: {}. A change that moves nothing is not a tuning: tune keys that move these figures, give wider ranges, or a larger --budget",
                changes.join(" "),
                thousands(done),
                detail.join("; ")
            )));
        }
        let keys: Vec<String> = self.knobs.iter().map(|k| k.key.clone()).collect();
        let mut why = crate::designer::bot_keys::notes(&base.game, &base_seated.labels(), &keys).join("; ");
        if why.is_empty() {
            why = "the tuned keys made no difference to these figures on these games".into();
        }
        Err(Error::Usage(format!(
            "tune: no tuned variant written: the pick ({}) moves none of the bounded figures ({bounded}); on the same {} games the variant as written gives the very same values. {why}. Tune keys that can move these figures, or bound figures these keys can move",
            changes.join(" "),
            thousands(done)
        )))
    }

    /// The confirmation run: the winner on its own seed, with the invariant checks on.
    fn confirm(&self, arm: &Arm<'_>, winner: usize, done: u64) -> Result<Confirmation, Error> {
        let o = self.o;
        let confirm_seed = game_seed(o.run.seed, u64::MAX);
        let confirm_games = o.run.games.max(done);
        let cplan = PlayPlan { seed: confirm_seed, checked: true, ..self.plan };
        let mut cprog = Progress::new(confirm_games, o.json || o.run.quiet);
        cprog.set_message("confirmation".to_string());
        let (cstats, _) = run_arm(arm, &self.cats[winner], &cplan, (o.run.threads, confirm_games), &PrecisionArgs::default(), &mut cprog, None)?;
        if crate::interrupt::requested() {
            return Err(Error::Interrupted("interrupted".into()));
        }
        let csum = cstats.summary(arm, confirm_seed, self.plan.detailed, 0.0);
        let cest = cstats.estimates(&self.cats[winner], &csum);
        let cbounds = bound_results(&self.cats[winner], &cest, &self.pos[winner], &self.expect);
        let passes = cbounds.iter().all(|b| b.verdict != "fails");
        let mut command = format!("playtest check <out>/tuned.toml --games {confirm_games} --seed {confirm_seed}");
        if let Some(b) = &o.bots {
            command.push_str(&format!(" --bots {b}"));
        }
        for s in &o.sets {
            command.push_str(&format!(" --set {s}"));
        }
        Ok(Confirmation { seed: confirm_seed, games: cstats.tally.games, bounds: cbounds, passes, command })
    }

    /// Every candidate as the outputs list it: values, status, bounds and every metric; its
    /// distances to the bounds at the precision of `done` games (the last round's), so a
    /// candidate dropped early compares with the winner ([`at_precision`]).
    fn candidate_results(&self, racers: &[Racer], winner: usize, done: u64) -> Vec<CandidateResult> {
        (0..self.cands.len())
            .map(|c| {
                let r = &racers[c];
                let status = if c == winner {
                    "winner".to_string()
                } else {
                    r.dropped.clone().unwrap_or_else(|| format!("raced to the end ({} games), not picked", thousands(r.stats.tally.games)))
                };
                CandidateResult {
                    values: sets_of(self.knobs, &self.cands[c]),
                    changed: self.cands[c].changed,
                    relative_change: self.cands[c].relative_change,
                    games: r.stats.tally.games,
                    objective: at_precision(self.objective_at(racers, c), r.stats.tally.games, done),
                    holds: !self.fails_at(racers, c),
                    status,
                    bounds: bound_results(&self.cats[c], &r.estimates, &self.pos[c], &self.expect)
                        .into_iter()
                        .map(|b| BoundResult { distance: at_precision(b.distance, r.stats.tally.games, done), ..b })
                        .collect(),
                    metrics: self.cats[c]
                        .defs
                        .iter()
                        .zip(&r.estimates)
                        .map(|(d, e)| MetricValue { name: d.name.clone(), value: e.value, ci: [e.lo, e.hi] })
                        .collect(),
                }
            })
            .collect()
    }
}

/// The sum of distances to the bounds of a racer (CI units).
fn objective_of(r: &Racer, pos: &[usize], expect: &[Expectation]) -> f64 {
    pos.iter().zip(expect).map(|(&i, e)| r.estimates.get(i).map_or(f64::INFINITY, |est| distance(est, e.lo, e.hi))).sum()
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Undecided => "undecided",
        Verdict::Fails => "fails",
    }
}

fn bound_results(cat: &Catalogue, est: &[Estimate], pos: &[usize], expect: &[Expectation]) -> Vec<BoundResult> {
    pos.iter()
        .zip(expect)
        .map(|(&i, e)| {
            let x = est.get(i).copied().unwrap_or(Estimate::point(f64::NAN));
            BoundResult {
                metric: e.metric.clone(),
                lo: e.lo,
                hi: e.hi,
                value: x.value,
                ci: [x.lo, x.hi],
                verdict: verdict_name(verdict(&x, e.lo, e.hi)),
                distance: distance(&x, e.lo, e.hi),
                unit: cat.defs.get(i).map_or(Unit::Plain, |d| d.unit),
            }
        })
        .collect()
}
