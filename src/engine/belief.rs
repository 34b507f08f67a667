//! What a search bot believes about the table: for each other seat, a belief over candidate
//! models of how it plays (the game's bots, each with a small grid of its parameters), and a
//! pool of weighted samples of the hidden state (particles) that follow the game.
//!
//! Both are built from the seat's own view and the public record only. At every decision of
//! another seat the engine hands the bot what the table saw of the action ([`HiddenInfo::seen`](crate::engine::HiddenInfo::seen):
//! its public part, and the cards a play names by hand position) and a [`Sampler`] of the
//! state before it, drawn from the bot's own seat ([`Bot::observe_decision`]). Then
//! - each candidate's belief is multiplied (Bayes' rule) by the probability it gives that
//!   action ([`Bot::action_probability`]), averaged over what the deciding seat may hold:
//!   particles (which hold what its earlier decisions made likely), fresh samples
//!   ([`Sampler::deal`]) while too few particles fit, counting only states where the action
//!   can be taken at all (a discard shows the card was held, whatever the model); smoothed by
//!   [`EPSILON`] so that a deterministic model's 0 does not rule it out for good. (Averaged
//!   over every fresh sample, the seat's hand would be a random one, mostly without the card
//!   it discards: the rare sample that holds it tells the models apart by noise, which
//!   favours `random`.)
//! - each particle is kept only if a model drawn from the belief takes the action in that
//!   particle, and carried past it (its hidden part as the model chose it). When fewer than
//!   a quarter of the pool fit, fresh samples are tried the same way (rejection sampling),
//!   so that a claim that few random deals explain is read from the deals that explain it.
//!   Before each update and each search, a game that can ([`HiddenInfo::mend`](crate::engine::HiddenInfo::mend)) re-deals every
//!   particle near itself to fit what the seat sees now: a draw of the seat's own that went
//!   otherwise in it no longer throws away the other hands it holds. Particles whose text
//!   ([`HiddenInfo::observation`](crate::engine::HiddenInfo::observation)) no longer matches what the seat sees (in a game that does not
//!   mend) are dropped; the pool is refilled from fresh samples when too few remain.
//!
//! The search draws an opponent's model from its belief for each iteration, and its samples
//! from the particles by weight (importance resampling) while their effective sample size is
//! at least [`MIN_EFFECTIVE`], from fresh samples otherwise.
//!
//! Every fresh sample is dealt from the seat's view alone ([`Sampler::deal`]): a game's
//! hand-made hints for a table of default bots ([`HiddenInfo::honour_default_model`](crate::engine::HiddenInfo::honour_default_model), Dice
//! Factor's re-deal of hands that `collector` would not have discarded from) are left out.
//! The particles read the same evidence generically, every decision weighed by the models
//! inferred for its seat (a `collector` seat's discards among them).

use super::bots::{Bot, BotInfo, RandomBot};
use super::{EventLog, Game, GameRng, Sampler, SeedFrom, Seen, ToMove};

/// Smoothing of a model's probability for an action: `EPSILON + (1 - EPSILON) * p`.
pub const EPSILON: f64 = 0.02;
/// States (particles, else fresh samples) the deciding seat's hidden cards are read from per
/// belief update.
const UPDATE_SAMPLES: usize = 8;
/// Most fresh samples dealt per belief update to find [`UPDATE_SAMPLES`] in which the
/// action seen can be taken.
const FRESH_TRIES: usize = 64;
/// Particles in the pool.
const POOL: usize = 64;
/// Effective sample size below which the search samples afresh instead of from the pool.
pub const MIN_EFFECTIVE: f64 = 8.0;
/// Most fresh samples tried per watched decision when too few particles fit it.
const REFILL_TRIES: usize = 512;
/// Most candidates per bot kind before the grid varies one parameter at a time.
const FULL_GRID: usize = 12;

/// One candidate model: a bot of the game with parameter values.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Index into the candidate roster (`random`, then the game's bots).
    kind: usize,
    /// The bot's spec (`basic:bluff=0.2:challenge=0`), for reports and tests.
    pub label: String,
    /// Parameter values in the bot's order.
    values: Vec<f64>,
    /// Prior probability (uniform over bot kinds, then over each kind's grid).
    pub prior: f64,
}

/// The bots a model can be: `random` and the game's own (never a search).
fn roster<G: Game>(game: &G) -> Vec<BotInfo<G>> {
    std::iter::once(RandomBot::info()).chain(game.bots()).collect()
}

/// The values tried for one parameter: for a probability {0, 0.2, 0.5}, otherwise half and
/// twice the default (1 for a default of 0), each with the default, within the range.
fn grid_values(default: f64, min: f64, max: f64) -> Vec<f64> {
    let mut v = if min >= 0.0 && max <= 1.0 {
        vec![0.0, 0.2, 0.5, default]
    } else if default == 0.0 {
        vec![0.0, 1.0f64.min(max)]
    } else {
        vec![default / 2.0, default, default * 2.0]
    };
    for x in &mut v {
        *x = x.clamp(min, max);
    }
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// Every candidate model of `game`: each bot kind with its parameter grid (the full
/// product up to `FULL_GRID` cells, else the defaults and one parameter varied at a time).
pub fn candidates<G: Game>(game: &G) -> Vec<Candidate> {
    let roster = roster(game);
    let mut out = Vec::new();
    for (kind, info) in roster.iter().enumerate() {
        let defaults: Vec<f64> = info.params.iter().map(|p| p.default).collect();
        let grids: Vec<Vec<f64>> = info.params.iter().map(|p| grid_values(p.default, p.min, p.max)).collect();
        let product: usize = grids.iter().map(Vec::len).product();
        let mut cells: Vec<Vec<f64>> = Vec::new();
        if product <= FULL_GRID {
            cells.push(Vec::new());
            for g in &grids {
                cells = cells.iter().flat_map(|c| g.iter().map(move |&x| [c.as_slice(), &[x]].concat())).collect();
            }
        } else {
            cells.push(defaults.clone());
            for (i, g) in grids.iter().enumerate() {
                for &x in g.iter().filter(|&&x| x != defaults[i]) {
                    let mut c = defaults.clone();
                    c[i] = x;
                    cells.push(c);
                }
            }
        }
        let share = 1.0 / (roster.len() as f64 * cells.len() as f64);
        for values in cells {
            let label = info.params.iter().zip(&values).fold(info.name.to_string(), |s, (p, v)| format!("{s}:{}={v}", p.name));
            out.push(Candidate { kind, label, values, prior: share });
        }
    }
    out
}

/// Builds one bot per candidate.
fn build_all<G: Game>(game: &G, roster: &[BotInfo<G>], candidates: &[Candidate]) -> Vec<Box<dyn Bot<G>>> {
    candidates.iter().map(|c| (roster[c.kind].build)(game, &c.values)).collect()
}

/// Draws an index from cumulative weights ending at their total.
fn draw_index(cumulative: &[f64], rng: &mut GameRng) -> usize {
    use rand::Rng;
    let total = cumulative.last().copied().unwrap_or(0.0);
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    cumulative.iter().position(|&c| x < c).unwrap_or(cumulative.len().saturating_sub(1))
}

/// The table as one seat's search believes it to be (module doc).
pub struct TableBelief<G: Game> {
    candidates: Vec<Candidate>,
    me: usize,
    /// Per seat, per candidate: the model that judges that seat's decisions (it hears the
    /// events this bot's seat hears, as if it sat in that seat).
    judges: Vec<Vec<Box<dyn Bot<G>>>>,
    /// Per seat, per candidate: the model that plays that seat in the search. One that
    /// listens (counts cards, tracks who bluffs) hears the table like the judges and keeps
    /// it through the search; the others are readied afresh at every iteration.
    players: Vec<Vec<Box<dyn Bot<G>>>>,
    /// Per seat, per candidate: the log of the unnormalised posterior.
    log_weights: Vec<Vec<f64>>,
    /// Per seat: the cumulative posterior, refreshed by [`TableBelief::prepare`].
    cumulative: Vec<Vec<f64>>,
    /// Per seat: the model the current search iteration plays it by.
    drawn: Vec<usize>,
    particles: Vec<G::State>,
    weights: Vec<f64>,
    particle_cumulative: Vec<f64>,
    /// Effective sample size of the pool at the last search (0: fresh samples were used).
    effective: f64,
    rng: GameRng,
}

impl<G: Game> TableBelief<G> {
    /// A belief with every candidate at its prior, for a table of `game`.
    pub fn new(game: &G) -> Self {
        let roster = roster(game);
        let candidates = candidates(game);
        let seats = game.acting_seats();
        TableBelief {
            judges: (0..seats).map(|_| build_all(game, &roster, &candidates)).collect(),
            players: (0..seats).map(|_| build_all(game, &roster, &candidates)).collect(),
            log_weights: vec![candidates.iter().map(|c| c.prior.ln()).collect(); seats],
            cumulative: vec![Vec::new(); seats],
            drawn: vec![0; seats],
            candidates,
            me: 0,
            particles: Vec::new(),
            weights: Vec::new(),
            particle_cumulative: Vec::new(),
            effective: 0.0,
            rng: GameRng::seed_from(0),
        }
    }

    /// Back to the prior, for a new game with this bot in seat `me`.
    pub fn new_game(&mut self, game: &G, me: usize) {
        self.me = me;
        for (seat, (judges, players)) in self.judges.iter_mut().zip(&mut self.players).enumerate() {
            for bot in judges.iter_mut().chain(players.iter_mut()) {
                bot.new_game(game, seat);
            }
        }
        for weights in &mut self.log_weights {
            for (w, c) in weights.iter_mut().zip(&self.candidates) {
                *w = c.prior.ln();
            }
        }
        self.particles.clear();
        self.weights.clear();
        self.effective = 0.0;
        self.rng = GameRng::seed_from(0x6265_6c69_6566 ^ me as u64);
    }

    /// Whether any judge wants the events this seat hears.
    pub fn listens(&self) -> bool {
        self.judges.iter().flatten().any(|b| b.listens())
    }

    /// An event this bot's seat saw, handed to every listening judge and player: a model
    /// of a card counter plays in the search from what its seat has seen of the table (a
    /// Penny Badger `counter` knows the discards and who bluffs), not from a blank memory.
    pub fn observe(&mut self, event: &G::Event) {
        for (seat, (judges, players)) in self.judges.iter_mut().zip(&mut self.players).enumerate() {
            if seat != self.me {
                for bot in judges.iter_mut().chain(players.iter_mut()).filter(|b| b.listens()) {
                    bot.observe(seat, event);
                }
            }
        }
    }

    /// The posterior over the candidates for `seat`: (label, probability), in candidate order.
    pub fn posterior(&self, seat: usize) -> Vec<(String, f64)> {
        let w = &self.log_weights[seat];
        let top = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = w.iter().map(|x| (x - top).exp()).sum();
        self.candidates.iter().zip(w).map(|(c, x)| (c.label.clone(), (x - top).exp() / total)).collect()
    }

    /// The candidates, in the order of [`TableBelief::posterior`].
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Effective sample size of the particles the last search drew from (0: fresh samples).
    pub fn effective_samples(&self) -> f64 {
        self.effective
    }

    /// `seat` took an action the table saw as `seen` ([`HiddenInfo::seen`](crate::engine::HiddenInfo::seen)) at the state `sampler`
    /// samples: updates its belief and the particles (module doc).
    pub fn observe_decision(&mut self, game: &G, seat: usize, seen: &Seen<G::Action>, sampler: &Sampler<'_, G>) {
        self.mend_particles(game, sampler);
        self.refresh_pool(game, sampler);
        self.update_belief(game, seat, seen, sampler);
        self.weigh_particles(game, seat, seen, sampler);
    }

    /// Multiplies each candidate's belief for `seat` by the probability it gives the action
    /// the table saw, averaged over what `seat` may hold: the particles that still match this
    /// seat's view (they hold what the table's earlier decisions made likely), then fresh
    /// samples (at most [`FRESH_TRIES`]) until [`UPDATE_SAMPLES`] states are found. Only
    /// states where that action can be taken at all count (`random` gives it a chance
    /// there): a discard shows the card was held, whatever the model; a state without it
    /// would judge every model alike at 0, and among few that hold it by luck the models
    /// would be told apart by noise.
    fn update_belief(&mut self, game: &G, seat: usize, seen: &Seen<G::Action>, sampler: &Sampler<'_, G>) {
        debug_assert_eq!(self.candidates[0].kind, 0, "candidate 0 is `random`");
        let mut pooled = self.holdings(game, seat, sampler).into_iter();
        let (mut tries, mut possible) = (0, 0);
        let mut likelihood = vec![0.0; self.candidates.len()];
        while possible < UPDATE_SAMPLES {
            let sample = match pooled.next() {
                Some(p) => p,
                None if tries < FRESH_TRIES => {
                    tries += 1;
                    sampler.deal(game, &mut self.rng)
                }
                None => break,
            };
            let view = game.view(&sample, seat);
            let judges = &mut self.judges[seat];
            let random = judges[0].action_probability(game, &view, seen);
            if random == Some(0.0) {
                continue;
            }
            possible += 1;
            likelihood[0] += random.unwrap_or(1.0);
            for (l, judge) in likelihood.iter_mut().zip(judges.iter_mut()).skip(1) {
                // A model that cannot say keeps its weight (probability 1 for every action).
                *l += judge.action_probability(game, &view, seen).unwrap_or(1.0);
            }
        }
        if possible == 0 {
            // No state found where the action can be taken: nothing tells the models apart.
            return;
        }
        for (w, l) in self.log_weights[seat].iter_mut().zip(likelihood) {
            *w += (EPSILON + (1.0 - EPSILON) * l / possible as f64).ln();
        }
    }

    /// [`UPDATE_SAMPLES`] states `seat` may be deciding in: particles drawn by weight among
    /// those where `seat` is to move and this seat sees what it sees now; none when fewer
    /// than [`UPDATE_SAMPLES`] fit (the caller deals fresh samples). Particles hold what the
    /// table's earlier decisions made likely; a fresh sample holds a random hand, in which a
    /// bot whose choice follows its hand looks like `random`.
    ///
    /// Whether a particle still shows this seat what it sees (an observation is text, dearer
    /// than the rest of the update) is asked only of the particles drawn, and of more only
    /// while fewer than [`UPDATE_SAMPLES`] are known to: a drawn particle that no longer
    /// matches is struck and the draw repeated, which draws by weight among the matching
    /// ones as listing them all first would.
    fn holdings(&mut self, game: &G, seat: usize, sampler: &Sampler<'_, G>) -> Vec<G::State> {
        let fresh = sampler.deal(game, &mut self.rng);
        let seen = game.observation(&fresh, self.me);
        let mut weights: Vec<f64> = (0..self.particles.len())
            .map(|i| if self.weights[i] > 0.0 && game.to_move(&self.particles[i]) == ToMove::Seat(seat) { self.weights[i] } else { 0.0 })
            .collect();
        // Per particle: None not yet asked, else whether it matches.
        let mut matches: Vec<Option<bool>> = vec![None; weights.len()];
        let check = |i: usize, matches: &mut Vec<Option<bool>>| *matches[i].get_or_insert_with(|| game.observation(&self.particles[i], self.me) == seen);
        let mut drawn = Vec::with_capacity(UPDATE_SAMPLES);
        let mut cumulative = cumulative_of(&weights);
        while drawn.len() < UPDATE_SAMPLES && cumulative.last().is_some_and(|&t| t > 0.0) {
            let i = draw_index(&cumulative, &mut self.rng);
            if check(i, &mut matches) {
                drawn.push(i);
            } else {
                weights[i] = 0.0;
                cumulative = cumulative_of(&weights);
            }
        }
        // Enough matching particles to read from? Ask the rest only until that is known.
        let mut usable = matches.iter().filter(|m| **m == Some(true)).count();
        for (i, &w) in weights.iter().enumerate() {
            if usable >= UPDATE_SAMPLES {
                break;
            }
            if w > 0.0 && matches[i].is_none() && check(i, &mut matches) {
                usable += 1;
            }
        }
        if usable < UPDATE_SAMPLES {
            return Vec::new();
        }
        drawn.iter().map(|&i| self.particles[i].clone()).collect()
    }

    /// Re-deals every particle in play near itself to fit what this seat sees now
    /// ([`HiddenInfo::mend`](crate::engine::HiddenInfo::mend)): one whose draws went otherwise than the table's keeps the other
    /// hands its weight was earned with. Nothing in a game that does not mend.
    fn mend_particles(&mut self, game: &G, sampler: &Sampler<'_, G>) {
        for (particle, &w) in self.particles.iter_mut().zip(&self.weights) {
            if w > 0.0 && !sampler.mend(game, &mut self.rng, particle) {
                return;
            }
        }
    }

    /// Keeps the particles still in play (those that stopped matching what this seat sees
    /// were dropped by [`TableBelief::prepare`]); refills the pool with fresh samples
    /// (weight: the survivors' mean, or 1) when fewer than a quarter survive.
    fn refresh_pool(&mut self, game: &G, sampler: &Sampler<'_, G>) {
        let mut kept = 0;
        for i in 0..self.particles.len() {
            if self.weights[i] > 0.0 {
                self.particles.swap(kept, i);
                self.weights.swap(kept, i);
                kept += 1;
            }
        }
        self.particles.truncate(kept);
        self.weights.truncate(kept);
        if kept * 4 < POOL {
            let mean = if kept > 0 { self.weights.iter().sum::<f64>() / kept as f64 } else { 1.0 };
            while self.particles.len() < POOL {
                self.particles.push(sampler.deal(game, &mut self.rng));
                self.weights.push(mean);
            }
        }
    }

    /// Weighs every particle by whether a model drawn from `seat`'s belief takes `action`
    /// there, and plays the model's action on it (its hidden part as the model chose it);
    /// particles where it does not are dropped. When fewer than a quarter of the pool
    /// remain, fresh samples are tried the same way (at most [`REFILL_TRIES`]) and those
    /// that fit join the pool (rejection sampling: a claim few random deals explain is then
    /// still read from the deals that explain it).
    fn weigh_particles(&mut self, game: &G, seat: usize, wanted: &Seen<G::Action>, sampler: &Sampler<'_, G>) {
        let cumulative = cumulative_posterior(&self.log_weights[seat]);
        let mut log = EventLog::new(false);
        for i in 0..self.particles.len() {
            let fits = game.to_move(&self.particles[i]) == ToMove::Seat(seat) && self.try_particle(game, seat, wanted, &cumulative, i, &mut log);
            if !fits {
                self.weights[i] = 0.0;
            }
        }
        let mut kept = self.weights.iter().filter(|&&w| w > 0.0).count();
        if kept * 4 < POOL {
            let mean = if kept > 0 { self.weights.iter().sum::<f64>() / kept as f64 } else { 1.0 };
            let mut fits = 0;
            for tried in 0..REFILL_TRIES {
                if kept >= POOL || !refill_may_reach(kept, fits, tried) {
                    break;
                }
                self.particles.push(sampler.deal(game, &mut self.rng));
                self.weights.push(mean);
                if self.try_particle(game, seat, wanted, &cumulative, self.particles.len() - 1, &mut log) {
                    kept += 1;
                    fits += 1;
                } else {
                    self.particles.pop();
                    self.weights.pop();
                }
            }
        }
        // Rescaled so that the largest weight is 1: long games do not underflow.
        let top = self.weights.iter().copied().fold(0.0, f64::max);
        if top > 0.0 {
            for w in &mut self.weights {
                *w /= top;
            }
        }
    }

    /// Whether a model drawn from the cumulative posterior `cumulative` of `seat` takes an
    /// action the table sees as `wanted` in particle `i`; if so the particle is carried past it.
    fn try_particle(&mut self, game: &G, seat: usize, wanted: &Seen<G::Action>, cumulative: &[f64], i: usize, log: &mut EventLog<G::Event>) -> bool {
        let model = draw_index(cumulative, &mut self.rng);
        let (mine, fits) = {
            let view = game.view(&self.particles[i], seat);
            let mine = self.judges[seat][model].decide(game, &view, &mut self.rng);
            (mine, game.seen(&view, &mine) == *wanted)
        };
        if !fits {
            return false;
        }
        game.apply(&mut self.particles[i], seat, mine, &mut self.rng, log);
        true
    }

    /// This bot's own seat played `action`: carried on every particle.
    pub fn own_action(&mut self, game: &G, action: &G::Action) {
        let mut log = EventLog::new(false);
        for i in 0..self.particles.len() {
            if self.weights[i] > 0.0 && game.to_move(&self.particles[i]) == ToMove::Seat(self.me) {
                game.apply(&mut self.particles[i], self.me, *action, &mut self.rng, &mut log);
            } else {
                self.weights[i] = 0.0;
            }
        }
    }

    /// Before a search from `sampler`: the posteriors as cumulative weights, and the
    /// particles that match the seat's view with their effective sample size.
    pub fn prepare(&mut self, game: &G, sampler: &Sampler<'_, G>) {
        for (cumulative, w) in self.cumulative.iter_mut().zip(&self.log_weights) {
            *cumulative = cumulative_posterior(w);
        }
        if self.particles.is_empty() {
            self.effective = 0.0;
            return;
        }
        self.mend_particles(game, sampler);
        let fresh = sampler.deal(game, &mut self.rng);
        let seen = game.observation(&fresh, self.me);
        for i in 0..self.particles.len() {
            if self.weights[i] > 0.0 && game.observation(&self.particles[i], self.me) != seen {
                self.weights[i] = 0.0;
            }
        }
        let (sum, squares) = self.weights.iter().fold((0.0, 0.0), |(s, q), w| (s + w, q + w * w));
        self.effective = if squares > 0.0 { sum * sum / squares } else { 0.0 };
        if self.effective < MIN_EFFECTIVE {
            // Too few particles still fit: the next watched decision starts a fresh pool.
            self.effective = 0.0;
            self.particles.clear();
            self.weights.clear();
        }
        let mut total = 0.0;
        self.particle_cumulative.clear();
        for w in &self.weights {
            total += w;
            self.particle_cumulative.push(total);
        }
    }

    /// One sample for a search iteration: a particle drawn by weight while the pool is
    /// usable ([`TableBelief::prepare`]), else a fresh determinization.
    pub fn sample_into(&self, game: &G, sampler: &Sampler<'_, G>, rng: &mut GameRng, out: &mut G::State) {
        if self.effective > 0.0 {
            out.clone_from(&self.particles[draw_index(&self.particle_cumulative, rng)]);
        } else {
            sampler.deal_into(game, rng, out);
        }
    }

    /// Draws each other seat's model for one search iteration and readies one that does not
    /// listen for a game (one that listens keeps what its seat heard at the table).
    pub fn draw_models(&mut self, game: &G, rng: &mut GameRng) {
        for seat in 0..self.drawn.len() {
            if seat != self.me {
                let model = draw_index(&self.cumulative[seat], rng);
                self.drawn[seat] = model;
                let player = &mut self.players[seat][model];
                if !player.listens() {
                    player.new_game(game, seat);
                }
            }
        }
    }

    /// The model `seat` plays by in the current search iteration.
    pub fn player(&mut self, seat: usize) -> &mut dyn Bot<G> {
        self.players[seat][self.drawn[seat]].as_mut()
    }
}

#[cfg(test)]
impl<G: Game> TableBelief<G> {
    /// Test support: at a decision of `seat` (another seat) at `state`, after a search
    /// iteration's draw of models, how many of its candidates that listen play as their
    /// judge (which heard the same table), of how many listen.
    pub(crate) fn listening_players_match_judges(&mut self, game: &G, state: &G::State, seat: usize) -> (usize, usize) {
        self.draw_models(game, &mut GameRng::seed_from(1));
        let view = game.view(state, seat);
        let (mut same, mut listening) = (0, 0);
        for (player, judge) in self.players[seat].iter_mut().zip(&mut self.judges[seat]).filter(|(p, _)| p.listens()) {
            listening += 1;
            let played = player.decide(game, &view, &mut GameRng::seed_from(2));
            same += usize::from(played == judge.decide(game, &view, &mut GameRng::seed_from(2)));
        }
        (same, listening)
    }
}

/// Whether a refill that has found `fits` fitting samples in `tried` tries, with `kept`
/// particles in the pool, may still reach the [`MIN_EFFECTIVE`] particles a search or a belief
/// update needs within [`REFILL_TRIES`] at the rate seen so far (one fit and one miss added,
/// so that no try is judged hopeless before it starts). A refill that cannot is given up: its
/// few particles would be thrown away unread, and at a decision that almost no deal explains
/// it used to spend all 512 tries (a third of Beaver Mania's `model=auto` work).
fn refill_may_reach(kept: usize, fits: usize, tried: usize) -> bool {
    let rate = (fits + 1) as f64 / (tried + 2) as f64;
    kept as f64 + (REFILL_TRIES - tried) as f64 * rate >= MIN_EFFECTIVE
}

/// Running sums of `weights`.
fn cumulative_of(weights: &[f64]) -> Vec<f64> {
    let mut total = 0.0;
    weights
        .iter()
        .map(|w| {
            total += w;
            total
        })
        .collect()
}

/// Cumulative normalised weights from log weights.
fn cumulative_posterior(log_weights: &[f64]) -> Vec<f64> {
    let top = log_weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    log_weights
        .iter()
        .map(|x| {
            total += (x - top).exp();
            total
        })
        .collect()
}

/// Test support: plays one game of `bots` from `seed` with the engine's streams while a belief
/// for seat `me` watches it as `ismcts` does (events its seat sees, every other seat's
/// decision with a sampler from its own seat); returns the belief at the end.
#[cfg(test)]
pub(crate) fn watch_game<G: Game>(game: &G, bots: &mut [Box<dyn Bot<G>>], me: usize, seed: u64) -> TableBelief<G> {
    let mut beliefs = vec![TableBelief::new(game)];
    watch_game_with(game, bots, me, seed, &mut beliefs, |_, state| state.clone(), |_, _, _| {}, |_, _, _, _| {});
    beliefs.pop().expect("one belief")
}

/// Test support: [`watch_game`] with several beliefs. Belief `i` is handed samplers of the
/// state `stand_in(i, real state)` (the real state itself, or another real state that agrees
/// with it on the seat's view); at each of the seat's own decisions, right after
/// [`TableBelief::prepare`] (where a search starts), `searched(i, belief, stand-in state)`;
/// before every other seat's decision, `before_other(i, belief, real state, seat)`.
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn watch_game_with<G: Game>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    me: usize,
    seed: u64,
    beliefs: &mut [TableBelief<G>],
    mut stand_in: impl FnMut(usize, &G::State) -> G::State,
    mut searched: impl FnMut(usize, &TableBelief<G>, &G::State),
    mut before_other: impl FnMut(usize, &mut TableBelief<G>, &G::State, usize),
) {
    use super::GameEvent;
    let (mut rng, mut seat_rngs) = super::streams(seed, bots.len());
    let mut log = EventLog::new(true);
    let mut state = game.deal(&mut rng, &mut log);
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.new_game(game, seat);
    }
    for belief in beliefs.iter_mut() {
        belief.new_game(game, me);
    }
    let mut steps = 0;
    loop {
        for event in log.drain() {
            for (seat, bot) in bots.iter_mut().enumerate() {
                if bot.listens() && event.visible_to(seat) {
                    bot.observe(seat, &event);
                }
            }
            if event.visible_to(me) {
                for belief in beliefs.iter_mut() {
                    belief.observe(&event);
                }
            }
        }
        let ToMove::Seat(seat) = game.to_move(&state) else { break };
        steps += 1;
        if steps > game.turn_cap() as usize * 50 {
            break;
        }
        let action = bots[seat].decide_with(game, &game.view(&state, seat), &Sampler::new(&state, seat), &mut seat_rngs[seat]);
        for (i, belief) in beliefs.iter_mut().enumerate() {
            let seen = stand_in(i, &state);
            let sampler = Sampler::new(&seen, me);
            if seat == me {
                belief.prepare(game, &sampler);
                searched(i, belief, &seen);
                belief.own_action(game, &action);
            } else {
                before_other(i, belief, &state, seat);
                belief.observe_decision(game, seat, &game.seen(&game.view(&state, seat), &action), &sampler);
            }
        }
        game.apply(&mut state, seat, action, &mut rng, &mut log);
    }
}
