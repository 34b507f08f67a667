//! The play drivers: one game from a seed ([`play`], [`play_watched`]), the quick loop the
//! simulator runs ([`Table::play_reusing`]) with its bit-instruction twins, and the plain
//! decision loop a game's own [`Game::play_out`] may replace ([`play_decisions`], [`ask`]).

#[cfg(target_arch = "x86_64")]
use super::cpu;
use super::{EventLog, Game, GameRng, Lineup, MAX_SEATS, Metrics, Outcome, Sampler, SearchStats, SeedFrom, StandingTrace, ToMove, seat_rng};

/// Options of one played game.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Check invariants and action legality after every step (tests, `check`).
    pub checked: bool,
}

/// A broken rule found in checked mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Step (action count) at which it was found.
    pub step: u64,
    /// What broke.
    pub what: String,
}

/// The bots of a table, ready to play game after game: any [`Lineup`], behind one dynamic
/// call per game (rather than one per decision).
pub trait Table<G: Game>: Send {
    /// Plays one game, as [`play`].
    fn play(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: Option<&mut G::Metrics>,
        trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<Outcome, Violation>;
    /// Plays one game as [`play`] without metrics or trace, dealing into `scratch` (left
    /// holding the finished game's state) when the game deals in place
    /// ([`GameInfo::deals_in_place`](super::GameInfo::deals_in_place)): the simulator keeps one per batch. The same game, the
    /// same outcome.
    fn play_reusing(&mut self, game: &G, seed: u64, options: PlayOptions, scratch: &mut Option<G::State>) -> Result<Outcome, Violation>;
    /// Plays one game in detail, as [`play_watched`]: the game's metrics and every seat's
    /// standing turn by turn.
    fn play_watched(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: &mut G::Metrics,
        standings: &mut StandingTrace,
    ) -> Result<Outcome, Violation>;
    /// What the bots' searches have done in the games played so far ([`Lineup::search_stats`]).
    fn search_stats(&self) -> SearchStats;
}

impl<G: Game, L: Lineup<G> + Send> Table<G> for L {
    fn play(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: Option<&mut G::Metrics>,
        trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<Outcome, Violation> {
        play(game, self, seed, options, metrics, trace)
    }
    fn play_reusing(&mut self, game: &G, seed: u64, options: PlayOptions, scratch: &mut Option<G::State>) -> Result<Outcome, Violation> {
        if G::INFO.deals_in_place && !options.checked && !self.listens() && !self.watches() {
            #[cfg(target_arch = "x86_64")]
            if cpu::has_bit_instructions() {
                // SAFETY: the processor has every feature `play_quick_into_bits` is compiled
                // with (`cpu::has_bit_instructions` asked it at run time).
                return Ok(unsafe { play_quick_into_bits(game, self, seed, scratch) });
            }
            return Ok(play_quick_into(game, self, seed, scratch));
        }
        play(game, self, seed, options, None, None)
    }
    fn play_watched(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: &mut G::Metrics,
        standings: &mut StandingTrace,
    ) -> Result<Outcome, Violation> {
        play_watched(game, self, seed, options, metrics, standings)
    }
    fn search_stats(&self) -> SearchStats {
        Lineup::search_stats(self)
    }
}

/// Plays one whole game from `seed` with one bot per acting seat.
///
/// Chance uses one RNG stream and every seat's bot its own, all derived from `seed`, so a
/// change of one seat's bot does not reshuffle the deck (common random numbers).
pub fn play<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    metrics: Option<&mut G::Metrics>,
    trace: Option<&mut dyn FnMut(&str)>,
) -> Result<Outcome, Violation> {
    if !options.checked && metrics.is_none() && trace.is_none() && !bots.listens() && !bots.watches() {
        #[cfg(target_arch = "x86_64")]
        if cpu::has_bit_instructions() {
            // SAFETY: the processor has every feature `play_quick_bits` is compiled with
            // (`cpu::has_bit_instructions` asked it at run time).
            return Ok(unsafe { play_quick_bits(game, bots, seed) });
        }
        return Ok(play_quick(game, bots, seed));
    }
    play_detailed(game, bots, seed, options, metrics, None, trace)
}

/// [`play`] with the game's metrics and every seat's standing recorded into `standings` after
/// every action (what reports gather): the same game, the same outcome.
pub fn play_watched<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    metrics: &mut G::Metrics,
    standings: &mut StandingTrace,
) -> Result<Outcome, Violation> {
    play_detailed(game, bots, seed, options, Some(metrics), Some(standings), None)
}

fn play_detailed<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    mut metrics: Option<&mut G::Metrics>,
    mut standings: Option<&mut StandingTrace>,
    mut trace: Option<&mut dyn FnMut(&str)>,
) -> Result<Outcome, Violation> {
    let listening = bots.listens();
    let watching = bots.watches();
    let (mut rng, mut seat_rngs) = streams(seed, bots.len());
    let mut log = EventLog::new(listening || trace.is_some());
    let mut state = game.deal(&mut rng, &mut log);
    if let Some(s) = standings.as_deref_mut() {
        s.start(game, &state);
    }
    bots.new_game(game);
    let mut step: u64 = 0;
    loop {
        if log.enabled() {
            deliver(bots, &mut log, &mut trace);
        }
        let seat = match game.to_move(&state) {
            ToMove::Over => break,
            ToMove::Seat(seat) => seat,
        };
        let action = {
            let view = game.view(&state, seat);
            let action = bots.decide(seat, game, &view, &Sampler::new(&state, seat), &mut seat_rngs[seat]);
            if options.checked {
                if !game.seat_active(&state, seat) {
                    return Err(Violation { step, what: format!("seat {seat} was asked to act but is not in the game") });
                }
                if !game.is_legal(&view, &action) {
                    return Err(Violation { step, what: format!("seat {seat} ({}) chose an illegal action {action:?}", bots.name(seat)) });
                }
            }
            action
        };
        if watching {
            bots.observe_decision(game, &state, seat, &game.public_action(&action));
        }
        game.apply(&mut state, seat, action, &mut rng, &mut log);
        if let Some(m) = metrics.as_deref_mut() {
            m.after_action(game, &state, seat, &action);
        }
        if let Some(s) = standings.as_deref_mut() {
            s.observe(game, &state);
        }
        step += 1;
        if options.checked {
            game.check_invariants(&state).map_err(|what| Violation { step, what })?;
        }
    }
    if let Some(s) = standings {
        s.finish(game, &state);
    }
    let outcome = game.outcome(&state);
    if let Some(m) = metrics {
        m.finish(game, &state, &outcome);
    }
    if let Some(t) = trace {
        t(&game.describe(&state));
    }
    Ok(outcome)
}

/// The chance stream of the game with `seed` and the private streams of its first `seats`
/// seats (only seats with a bot get a seeded stream: seeding costs more than the copy).
#[inline]
pub(crate) fn streams(seed: u64, seats: usize) -> (GameRng, [GameRng; MAX_SEATS]) {
    let rng = GameRng::seed_from(seed);
    let mut seat_rngs: [GameRng; MAX_SEATS] = std::array::from_fn(|_| rng.clone());
    for (seat, slot) in seat_rngs.iter_mut().enumerate().take(seats) {
        *slot = seat_rng(seed, seat);
    }
    (rng, seat_rngs)
}

/// The streams of [`play_quick`], written into its own variables (no copy of the array):
/// as [`streams`], except that a stream nobody draws from is not seeded. When no bot draws
/// ([`Lineup::draws`]) the seats get copies of the chance stream instead of their own;
/// when the rules draw no chance ([`GameInfo::draws_chance`](super::GameInfo::draws_chance)) the chance stream is a copy of
/// another. Neither is ever drawn from, so the game is the same.
macro_rules! quick_streams {
    ($game:ty, $seed:expr, $bots:expr, $rng:ident, $seat_rngs:ident) => {
        let seed = $seed;
        let draws = $bots.draws();
        let mut $rng = if <$game>::INFO.draws_chance || !draws { GameRng::seed_from(seed) } else { seat_rng(seed, 0) };
        let mut $seat_rngs: [GameRng; MAX_SEATS] =
            [$rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone()];
        if draws {
            // A plain count (no iterator adapters): this runs for every seat of every game.
            let seats = $bots.len().min(MAX_SEATS);
            let mut seat = usize::from(!<$game>::INFO.draws_chance);
            while seat < seats {
                $seat_rngs[seat] = seat_rng(seed, seat);
                seat += 1;
            }
        }
    };
}

/// [`play_quick`] compiled with the bit-manipulation instructions (POPCNT, BMI1/2, LZCNT: every
/// x86-64 processor since about 2013), for processors that have them ([`cpu`]): the rules and
/// bots inlined into the loop count and find set bits in one instruction each instead of a
/// baseline x86-64 sequence (`count_ones` is a dozen instructions without POPCNT). The same
/// code, the same results: only the instructions differ. (AVX2 was tried as well: wider
/// auto-vectorised loops cost Match Patch's short scans 3% more instructions.)
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn play_quick_bits<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64) -> Outcome {
    play_quick(game, bots, seed)
}

/// [`play_quick_into`] compiled with the bit-manipulation instructions, as [`play_quick_bits`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn play_quick_into_bits<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64, scratch: &mut Option<G::State>) -> Outcome {
    play_quick_into(game, bots, seed, scratch)
}

/// [`Game::play_out`]'s default: a dealt game played to its end, decision by decision, with
/// a log that records nothing (it is the quick loop's own: the compiler knows that it never
/// records, and no deal saw it).
#[inline(always)]
pub fn play_decisions<G: Game, L: Lineup<G> + ?Sized>(game: &G, state: &mut G::State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
    let mut log = EventLog::new(false);
    while let ToMove::Seat(seat) = game.to_move(state) {
        let action = ask(game, state, seat, bots, seat_rngs);
        game.apply(state, seat, action, rng, &mut log);
    }
}

/// `seat`'s decision in `state`, asked as [`play_decisions`] asks it (its view, a sampler of
/// the table, its own stream): for a game's own [`Game::play_out`].
#[inline(always)]
pub fn ask<G: Game, L: Lineup<G> + ?Sized>(game: &G, state: &G::State, seat: usize, bots: &mut L, seat_rngs: &mut [GameRng; MAX_SEATS]) -> G::Action {
    ask_in(game, state, seat, &game.view(state, seat), bots, seat_rngs)
}

/// [`ask`] with `seat`'s view built by the game itself, as [`Game::view`] builds it: for a
/// game's own [`Game::play_out`] that keeps part of the view in registers from one decision
/// to the next (what does not change between them).
#[inline(always)]
pub fn ask_in<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    state: &G::State,
    seat: usize,
    view: &G::View<'_>,
    bots: &mut L,
    seat_rngs: &mut [GameRng; MAX_SEATS],
) -> G::Action {
    bots.decide(seat, game, view, &Sampler::new(state, seat), &mut seat_rngs[seat])
}

/// [`play`] when nothing watches the game (no checks, metrics, trace, listening or watching bot): the
/// simulator's hot loop, the same game from the same streams with none of the per-decision
/// tests of what to record, and without the public record only samples read when no bot
/// samples ([`HiddenInfo::skip_sample_records`](super::HiddenInfo::skip_sample_records)).
#[inline(always)]
fn play_quick<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64) -> Outcome {
    quick_streams!(G, seed, bots, rng, seat_rngs);
    let mut state = game.deal(&mut rng, &mut EventLog::new(false));
    if !bots.samples() {
        game.skip_sample_records(&mut state);
    }
    bots.new_game(game);
    game.play_out(&mut state, bots, &mut rng, &mut seat_rngs);
    game.outcome(&state)
}

/// [`play_quick`] dealing into `scratch` ([`Game::deal_into`]) rather than a fresh state.
#[inline(always)]
fn play_quick_into<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64, scratch: &mut Option<G::State>) -> Outcome {
    quick_streams!(G, seed, bots, rng, seat_rngs);
    let state = match scratch {
        Some(state) => {
            game.deal_into(&mut rng, &mut EventLog::new(false), state);
            state
        }
        None => scratch.insert(game.deal(&mut rng, &mut EventLog::new(false))),
    };
    if !bots.samples() {
        game.skip_sample_records(state);
    }
    bots.new_game(game);
    game.play_out(state, bots, &mut rng, &mut seat_rngs);
    game.outcome(state)
}

pub(crate) fn deliver<G: Game, L: Lineup<G> + ?Sized>(bots: &mut L, log: &mut EventLog<G::Event>, trace: &mut Option<&mut dyn FnMut(&str)>) {
    for event in log.drain() {
        if let Some(t) = trace.as_deref_mut() {
            t(&event.to_string());
        }
        bots.observe(&event);
    }
}
