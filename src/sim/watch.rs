//! The audit's play loop (`playtest audit`, compiled per game behind
//! [`crate::games::SeatedGame::watch_batch`]): the engine's game loop (same streams, so every
//! game seed replays with `playtest trace --game-seed S`) with every decision looked at:
//! which kinds of action were legal, which was taken, whether the decision was forced, how long the game went
//! without progress ([`AuditHooks::progress`](crate::engine::AuditHooks::progress)), whether the winner ever decided anything and
//! whether it led from the first turn to the end.

use std::collections::HashMap;

use super::{BATCH, SeatPlan};
use crate::engine::{Bot, EventLog, Game, Lineup, Sampler, ToMove, deliver, game_seed, streams};
use crate::error::Error;

/// Most example seeds kept per observation.
pub const SEEDS: usize = 3;

/// What the audit needs to know to judge one game.
#[derive(Clone, Copy, Debug)]
pub struct WatchPlan {
    /// Master seed (game i is played from `game_seed(seed, i)`).
    pub seed: u64,
    /// Turns without progress that make a game count as stalled.
    pub stall_turns: u32,
    /// Index of the `cap` end reason, if the game has one.
    pub cap_reason: Option<u8>,
}

/// Up to [`SEEDS`] game seeds, the earliest games first.
#[derive(Clone, Debug, Default)]
pub struct Seeds(pub Vec<u64>);

impl Seeds {
    fn push(&mut self, seed: u64) {
        if self.0.len() < SEEDS {
            self.0.push(seed);
        }
    }
    fn merge(&mut self, other: &Seeds) {
        for &s in &other.0 {
            self.push(s);
        }
    }
}

/// Everything watched over a run of one line-up (sums, so batches merge in index order).
#[derive(Clone, Debug, Default)]
pub struct Watched {
    /// Games played.
    pub games: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Decisions with a single legal action.
    pub forced: u64,
    /// Per kind (index into the game's kinds): decisions where it was legal.
    pub legal: Vec<u64>,
    /// Per kind: decisions where it was taken.
    pub used: Vec<u64>,
    /// Per kind: decisions where it was legal beside another kind.
    pub contested: Vec<u64>,
    /// Per kind: contested decisions where it was taken.
    pub contested_used: Vec<u64>,
    /// Per kind: games where it was legal.
    pub legal_seeds: Vec<Seeds>,
    /// Per kind: games where it was taken.
    pub used_seeds: Vec<Seeds>,
    /// Per kind: games where it was legal beside another kind and not taken.
    pub passed_seeds: Vec<Seeds>,
    /// Decisions whose chosen action has no kind in the game's list (a game bug if > 0).
    pub unclassified: u64,
    /// Games ending at the turn cap.
    pub capped: u64,
    /// Example capped games.
    pub capped_seeds: Seeds,
    /// Games with a stretch of `stall_turns` turns without progress.
    pub stalled: u64,
    /// Example stalled games.
    pub stalled_seeds: Seeds,
    /// Longest stretch without progress seen (turns).
    pub longest_still: u32,
    /// Game seed of that stretch.
    pub longest_still_seed: u64,
    /// Games with a winner that is not every seat.
    pub decided: u64,
    /// Games won by a seat that never had a real choice (decided by the deal).
    pub dealt: u64,
    /// Example games decided by the deal.
    pub dealt_seeds: Seeds,
    /// Games whose winner was among the leaders after every turn.
    pub wire: u64,
    /// Example wire-to-wire games.
    pub wire_seeds: Seeds,
    /// Sum of game lengths.
    pub length_sum: u64,
}

impl Watched {
    fn new(kinds: usize) -> Self {
        Watched {
            legal: vec![0; kinds],
            used: vec![0; kinds],
            contested: vec![0; kinds],
            contested_used: vec![0; kinds],
            legal_seeds: vec![Seeds::default(); kinds],
            used_seeds: vec![Seeds::default(); kinds],
            passed_seeds: vec![Seeds::default(); kinds],
            ..Default::default()
        }
    }

    /// Adds a later batch (index order keeps the example seeds deterministic).
    pub fn merge(&mut self, o: &Watched) {
        let kinds = o.legal.len();
        if self.legal.len() < kinds {
            for v in [&mut self.legal, &mut self.used, &mut self.contested, &mut self.contested_used] {
                v.resize(kinds, 0);
            }
            for v in [&mut self.legal_seeds, &mut self.used_seeds, &mut self.passed_seeds] {
                v.resize(kinds, Seeds::default());
            }
        }
        self.games += o.games;
        self.decisions += o.decisions;
        self.forced += o.forced;
        for k in 0..o.legal.len() {
            self.legal[k] += o.legal[k];
            self.used[k] += o.used[k];
            self.contested[k] += o.contested[k];
            self.contested_used[k] += o.contested_used[k];
            self.legal_seeds[k].merge(&o.legal_seeds[k]);
            self.used_seeds[k].merge(&o.used_seeds[k]);
            self.passed_seeds[k].merge(&o.passed_seeds[k]);
        }
        self.unclassified += o.unclassified;
        self.capped += o.capped;
        self.capped_seeds.merge(&o.capped_seeds);
        self.stalled += o.stalled;
        self.stalled_seeds.merge(&o.stalled_seeds);
        if o.longest_still > self.longest_still {
            self.longest_still = o.longest_still;
            self.longest_still_seed = o.longest_still_seed;
        }
        self.decided += o.decided;
        self.dealt += o.dealt;
        self.dealt_seeds.merge(&o.dealt_seeds);
        self.wire += o.wire;
        self.wire_seeds.merge(&o.wire_seeds);
        self.length_sum += o.length_sum;
    }
}

/// Maps a kind name to its index, caching by the name's address (kinds are `&'static str`).
struct KindIndex<'k> {
    kinds: &'k [&'static str],
    cache: HashMap<(usize, usize), Option<usize>>,
}

impl<'k> KindIndex<'k> {
    fn new(kinds: &'k [&'static str]) -> Self {
        KindIndex { kinds, cache: HashMap::new() }
    }
    fn of(&mut self, name: &'static str) -> Option<usize> {
        let kinds = self.kinds;
        *self.cache.entry((name.as_ptr() as usize, name.len())).or_insert_with(|| kinds.iter().position(|k| *k == name))
    }
}

/// Plays batch `batch` (games `batch*512..`, at most `games`) of one line-up, watching every
/// decision.
pub fn watch_batch<G: Game>(game: &G, plans: &[SeatPlan<G>], kinds: &[&'static str], plan: &WatchPlan, batch: u64, games: u64) -> Result<Watched, Error> {
    assert!(kinds.len() <= 64, "at most 64 kinds of action");
    let mut bots: Vec<Box<dyn Bot<G>>> = plans.iter().map(|p| (p.build)(game, &p.values)).collect();
    let mut w = Watched::new(kinds.len());
    let mut index = KindIndex::new(kinds);
    let mut scratch = Vec::new();
    let seats = game.seats();
    for i in batch * BATCH..((batch + 1) * BATCH).min(games) {
        let seed = game_seed(plan.seed, i);
        watch_game(game, &mut bots, seed, plan, seats, &mut index, &mut scratch, &mut w);
    }
    Ok(w)
}

/// What one game has shown so far beyond the run's sums: who had a choice, who led after
/// every turn, how long it went without progress, which kinds were legal, taken or passed.
struct GameWatch {
    /// Every seat.
    all: u16,
    /// Seats that made a decision with a choice.
    chose: u16,
    /// Seats among the leaders after every turn so far.
    led: u16,
    progress: u64,
    turn: u32,
    still_since: u32,
    longest: u32,
    seen_legal: u64,
    seen_used: u64,
    seen_passed: u64,
}

impl GameWatch {
    /// The watch of a game just dealt into `state`.
    fn new<G: Game>(game: &G, state: &G::State, seats: usize) -> GameWatch {
        let turn = game.turns_played(state);
        let all: u16 = ((1u32 << seats) - 1) as u16;
        GameWatch { all, chose: 0, led: all, progress: game.progress(state), turn, still_since: turn, longest: 0, seen_legal: 0, seen_used: 0, seen_passed: 0 }
    }

    /// Counts one decision of `seat`: the kinds legal (`mask`, `legal` actions) and the kind
    /// taken.
    fn decision(&mut self, w: &mut Watched, seat: usize, (mask, legal): (u64, usize), taken: Option<usize>) {
        w.decisions += 1;
        if legal <= 1 {
            w.forced += 1;
        } else {
            self.chose |= 1 << seat;
        }
        if taken.is_none() {
            w.unclassified += 1;
        }
        let contested = mask.count_ones() > 1;
        let mut m = mask;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            w.legal[k] += 1;
            self.seen_legal |= 1 << k;
            if contested {
                w.contested[k] += 1;
                if taken == Some(k) {
                    w.contested_used[k] += 1;
                } else {
                    self.seen_passed |= 1 << k;
                }
            }
        }
        if let Some(k) = taken {
            w.used[k] += 1;
            self.seen_used |= 1 << k;
            if contested && mask & (1 << k) == 0 {
                // Taken though not listed as legal: count it as contested and legal too.
                w.contested_used[k] += 1;
            }
        }
    }

    /// Follows progress, the longest stretch without it and the leaders after an action.
    fn applied<G: Game>(&mut self, game: &G, state: &G::State, seats: usize) {
        let now = game.turns_played(state);
        let p = game.progress(state);
        if p != self.progress {
            self.progress = p;
            self.still_since = now;
        }
        self.longest = self.longest.max(now.saturating_sub(self.still_since));
        if now != self.turn {
            self.turn = now;
            let standings: Vec<i64> = (0..seats).map(|s| game.standing(state, s)).collect();
            let best = standings.iter().copied().max().unwrap_or(0);
            let leaders = (0..seats).filter(|&s| standings[s] == best).fold(0u16, |m, s| m | (1 << s));
            self.led &= leaders;
        }
    }

    /// Adds the finished game of `seed` to the run's sums.
    fn finish(&self, w: &mut Watched, outcome: &crate::engine::Outcome, (seed, plan, acting_seats): (u64, &WatchPlan, usize)) {
        w.games += 1;
        w.length_sum += u64::from(outcome.length);
        for k in 0..w.legal.len() {
            if self.seen_legal & (1 << k) != 0 {
                w.legal_seeds[k].push(seed);
            }
            if self.seen_used & (1 << k) != 0 {
                w.used_seeds[k].push(seed);
            }
            if self.seen_passed & (1 << k) != 0 {
                w.passed_seeds[k].push(seed);
            }
        }
        if plan.cap_reason == Some(outcome.end_reason) {
            w.capped += 1;
            w.capped_seeds.push(seed);
        }
        if self.longest >= plan.stall_turns {
            w.stalled += 1;
            w.stalled_seeds.push(seed);
        }
        if self.longest > w.longest_still {
            w.longest_still = self.longest;
            w.longest_still_seed = seed;
        }
        if outcome.winners != 0 && outcome.winners != self.all {
            w.decided += 1;
            // A win by the deal: every winner is a player (not a dummy seat, which never
            // decides) that never had a choice.
            let acting: u16 = ((1u32 << acting_seats) - 1) as u16;
            if outcome.winners & !acting == 0 && outcome.winners & self.chose == 0 {
                w.dealt += 1;
                w.dealt_seeds.push(seed);
            }
            if outcome.winners & self.led != 0 {
                w.wire += 1;
                w.wire_seeds.push(seed);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn watch_game<G: Game>(
    game: &G,
    bots: &mut Vec<Box<dyn Bot<G>>>,
    seed: u64,
    plan: &WatchPlan,
    seats: usize,
    index: &mut KindIndex<'_>,
    scratch: &mut Vec<G::Action>,
    w: &mut Watched,
) {
    let (mut rng, mut seat_rngs) = streams(seed, bots.len());
    let mut log = EventLog::new(bots.listens());
    let mut state = game.deal(&mut rng, &mut log);
    bots.new_game(game);
    let mut watch = GameWatch::new(game, &state, seats);
    loop {
        if log.enabled() {
            deliver(bots, &mut log, &mut None);
        }
        let seat = match game.to_move(&state) {
            ToMove::Over => break,
            ToMove::Seat(seat) => seat,
        };
        let action = {
            let view = game.view(&state, seat);
            scratch.clear();
            game.legal_actions(&view, scratch);
            let mut mask: u64 = 0;
            for a in scratch.iter() {
                if let Some(k) = index.of(game.action_kind(a)) {
                    mask |= 1 << k;
                }
            }
            let action = bots.decide(seat, game, &view, &Sampler::new(&state, seat), &mut seat_rngs[seat]);
            watch.decision(w, seat, (mask, scratch.len()), index.of(game.action_kind(&action)));
            action
        };
        game.apply(&mut state, seat, action, &mut rng, &mut log);
        watch.applied(game, &state, seats);
    }
    watch.finish(w, &game.outcome(&state), (seed, plan, game.acting_seats()));
}
