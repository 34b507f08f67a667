//! The one invariant harness every game passes (after OpenSpiel's `RandomSimTest` and
//! TabletopGames' `ForwardModelTester`): it plays games step by step and checks, at every
//! decision, what any correct game must satisfy. The tests run it over every registered game
//! and every bundled variant, and `playtest check` runs it on the variants it is given, so a
//! game gets all of it by being in the registry.
//!
//! Checked, each failure naming the game seed that shows it:
//! - `legal_actions`, `is_legal` and `random_action` agree: every listed action is legal, the
//!   list is not empty, `random_action` returns only listed actions, and on a sample its
//!   frequencies match a uniform draw over the list (a chi-square test at p < 1e-6);
//! - the deciding seat is active, the bot's choice is legal, `check_invariants` holds after
//!   every action;
//! - a cloned state evolves independently of the original and `apply` is a function of
//!   (state, action, random stream): the clone given the same action and stream reaches the
//!   same state (on every 8th decision);
//! - the game ends within a step bound and its length within the turn cap; the outcome is
//!   well formed (winners only among scored seats, win shares summing to 1 or, for a game
//!   without winner, 0; eliminations within the length; a known end reason);
//! - same seed, same game: every game is played twice and the outcomes compared;
//! - determinizations (what search bots get, [`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize)), sampled on every 7th
//!   decision: each shows the deciding seat exactly its own observation, keeps every
//!   invariant (cards and money conserved), and, over a bot's games, some sample differs
//!   from the real state in what another seat sees (the hidden parts are re-sampled; not
//!   asked of games with [`GameInfo::hidden_state`](crate::engine::GameInfo::hidden_state) false); where the game mends samples
//!   ([`HiddenInfo::mend`](crate::engine::HiddenInfo::mend)), a sample drawn for another seat mended for the deciding one shows it
//!   its own observation and keeps every invariant, and a sample that fits is kept as it is
//!   in what every seat sees;
//! - traces round-trip ([`check_trace_round_trip`]): a game traced as JSON Lines replays
//!   through the engine with every legal set, chance result and state agreeing, every listed
//!   action reads back as the same action, and the traced game is the game `play` plays;
//! - the `ismcts` search bot plays within the rules (a short search in one seat among the
//!   game's default bots, so every game is searched without a per-game exception).

use crate::engine::ismcts::ISMCTS;
use crate::engine::{Bot, EventLog, Game, GameEvent, GameRng, Outcome, Sampler, SeedFrom, ToMove, all_bots, game_seed, seat_rng};

/// The `ismcts` settings the harness plays with: a short search with short rollouts, so a
/// game with thousands of decisions is still checked in seconds.
const HARNESS_ISMCTS: [(&str, f64); 2] = [("iterations", 8.0), ("depth", 24.0)];

/// A broken invariant, with the game seed that reproduces it.
#[derive(Clone, Debug, PartialEq)]
pub struct HarnessFailure {
    /// Game id.
    pub game: &'static str,
    /// The bot line-up (one spec for every seat).
    pub bot: String,
    /// The game seed (`playtest trace VARIANT --game-seed S` replays it).
    pub game_seed: u64,
    /// Decision number at which it broke (0 = the deal).
    pub step: u64,
    /// What broke.
    pub what: String,
}

impl std::fmt::Display for HarnessFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} with `{}` bots, game seed {}, step {}: {}", self.game, self.bot, self.game_seed, self.step, self.what)
    }
}

/// How much the harness plays.
#[derive(Clone, Copy, Debug)]
pub struct HarnessPlan {
    /// Games per bot of the game (each played twice for determinism).
    pub games: u64,
    /// Master seed; game i uses `game_seed(seed, i)`.
    pub seed: u64,
    /// Decisions at which `random_action`'s frequencies are tested (the first ones of the
    /// first game of each bot with at least two legal actions).
    pub frequency_checks: usize,
    /// Most decisions one game may take before it counts as not ending.
    pub max_steps: u64,
}

impl Default for HarnessPlan {
    fn default() -> Self {
        HarnessPlan { games: 20, seed: 0x4a11, frequency_checks: 3, max_steps: 5_000_000 }
    }
}

/// Runs the harness on `game` with every bot it offers but those named in `skip` (default
/// parameters, every seat the same bot). Returns the number of games checked.
pub fn check_every_bot<G: Game>(game: &G, plan: HarnessPlan, skip: &[&str]) -> Result<u64, HarnessFailure> {
    let mut checked = 0;
    for info in all_bots(game).into_iter().filter(|b| !skip.contains(&b.name)) {
        // A line-up the game refuses (a precomputation too big for it) is not played.
        if game.check_bots(&vec![info.name.to_string(); game.acting_seats()]).is_err() {
            continue;
        }
        let mut values: Vec<f64> = info.params.iter().map(|p| p.default).collect();
        let mut plan = plan;
        if info.name == ISMCTS {
            for (name, value) in HARNESS_ISMCTS {
                if let Some(i) = info.params.iter().position(|p| p.name == name) {
                    values[i] = value;
                }
            }
            plan.games = plan.games.min(2);
        }
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.acting_seats()).map(|_| (info.build)(game, &values)).collect();
        if info.name == ISMCTS {
            // One searching seat among the game's default bots: games as long as the
            // default table's, not a search-against-search marathon.
            if let Some(default) = all_bots(game).into_iter().find(|b| b.name == G::INFO.default_bot) {
                let values: Vec<f64> = default.params.iter().map(|p| p.default).collect();
                for bot in bots.iter_mut().skip(1) {
                    *bot = (default.build)(game, &values);
                }
            }
        }
        checked += check_bots(game, info.name, &mut bots, plan)?;
    }
    Ok(checked)
}

/// Dealing into the state of a finished game ([`Game::deal_into`], the simulator's quick
/// path for a game that sets [`GameInfo::deals_in_place`](crate::engine::GameInfo::deals_in_place)) gives exactly what a new deal gives:
/// every field (as `Debug` prints it), the same draws and the same events, checked on `deals`
/// seeds, each after the used state was played to its end with random moves.
pub fn check_deal_in_place<G: Game>(game: &G, seed: u64, deals: u64) -> Result<(), HarnessFailure> {
    if !G::INFO.deals_in_place {
        return Ok(());
    }
    let mut used = game.deal(&mut GameRng::seed_from(seed), &mut EventLog::new(false));
    let mut scratch = Vec::new();
    for index in 0..deals {
        let game_seed = game_seed(seed, index);
        let fail = |what: String| HarnessFailure { game: game.id(), bot: "deal in place".to_string(), game_seed, step: 0, what };
        // Play the used state to its end (or a million actions) with random moves.
        let mut rng = GameRng::seed_from(game_seed ^ 0xF00D);
        let mut steps = 0u32;
        while let ToMove::Seat(seat) = game.to_move(&used) {
            let action = game.random_action(&game.view(&used, seat), &mut rng, &mut scratch);
            game.apply(&mut used, seat, action, &mut rng, &mut EventLog::new(false));
            steps += 1;
            if steps >= 1_000_000 {
                break;
            }
        }
        let (mut fresh_rng, mut reused_rng) = (GameRng::seed_from(game_seed), GameRng::seed_from(game_seed));
        let (mut fresh_log, mut reused_log) = (EventLog::new(true), EventLog::new(true));
        let fresh = game.deal(&mut fresh_rng, &mut fresh_log);
        game.deal_into(&mut reused_rng, &mut reused_log, &mut used);
        if format!("{used:?}") != format!("{fresh:?}") {
            return Err(fail(format!("dealt in place:\n{used:?}\nnew deal:\n{fresh:?}")));
        }
        if reused_rng != fresh_rng {
            return Err(fail("dealing in place took other draws than a new deal".to_string()));
        }
        let events = |log: &mut EventLog<G::Event>| log.drain().map(|e| e.to_string()).collect::<Vec<_>>();
        let (fresh_events, reused_events) = (events(&mut fresh_log), events(&mut reused_log));
        if reused_events != fresh_events {
            return Err(fail(format!("dealing in place told {reused_events:?}, a new deal {fresh_events:?}")));
        }
    }
    Ok(())
}

/// Runs the harness on `game` with the given bots (one per acting seat), labelled `label`.
pub fn check_bots<G: Game>(game: &G, label: &str, bots: &mut [Box<dyn Bot<G>>], plan: HarnessPlan) -> Result<u64, HarnessFailure> {
    let mut frequency_checks = plan.frequency_checks;
    let mut varied = false;
    let mut sampled = 0;
    for index in 0..plan.games {
        let seed = game_seed(plan.seed, index);
        let fail = |step: u64, what: String| HarnessFailure { game: game.id(), bot: label.to_string(), game_seed: seed, step, what };
        let first = play_checked(game, bots, seed, plan.max_steps, &mut frequency_checks, &mut |_, _, _| {}).map_err(|(step, what)| fail(step, what))?;
        let second = play_checked(game, bots, seed, plan.max_steps, &mut 0, &mut |_, _, _| {}).map_err(|(step, what)| fail(step, what))?;
        if first.outcome != second.outcome {
            return Err(fail(first.steps, format!("same seed, different games: {:?} then {:?}", first.outcome, second.outcome)));
        }
        varied |= first.samples_varied;
        sampled += first.steps / 7;
    }
    if G::INFO.hidden_state && !varied && sampled >= 16 {
        let seed = game_seed(plan.seed, 0);
        return Err(HarnessFailure {
            game: game.id(),
            bot: label.to_string(),
            game_seed: seed,
            step: 0,
            what: format!("{sampled} determinizations never differed from the real state in what another seat sees: hidden parts are not re-sampled"),
        });
    }
    Ok(plan.games)
}

/// What [`play_checked`] calls after every action: the new state, the seat and its action.
pub type OnStep<'a, G> = dyn FnMut(&<G as Game>::State, usize, &<G as Game>::Action) + 'a;

/// A broken invariant inside one game: (decision number, what broke).
pub type StepFailure = (u64, String);

/// One game played under the harness's checks.
pub struct CheckedGame<E> {
    /// Its outcome.
    pub outcome: Outcome,
    /// Decisions taken.
    pub steps: u64,
    /// Every event of the game, in order.
    pub events: Vec<E>,
    /// Whether some determinization differed from the real state in what another seat sees.
    pub samples_varied: bool,
}

/// Plays one game from `seed` with the engine's streams (chance and one per seat, as in
/// [`crate::engine::play`]), checking every invariant of the module doc at every step (`each` sees
/// the state after every action), and returns its outcome and events. `Err` is (step, what broke).
/// Games' own tests use it instead of a play loop of their own.
pub fn play_checked<G: Game>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    seed: u64,
    max_steps: u64,
    frequency_checks: &mut usize,
    each: &mut OnStep<'_, G>,
) -> Result<CheckedGame<G::Event>, StepFailure> {
    let mut rng = GameRng::seed_from(seed);
    let mut seat_rngs: Vec<GameRng> = (0..bots.len()).map(|seat| seat_rng(seed, seat)).collect();
    let mut log = EventLog::new(true);
    let mut state = game.deal(&mut rng, &mut log);
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.new_game(game, seat);
    }
    game.check_invariants(&state).map_err(|what| (0, format!("after the deal: {what}")))?;
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut step = 0u64;
    let mut samples_varied = false;
    loop {
        for event in log.drain() {
            for (seat, bot) in bots.iter_mut().enumerate() {
                if bot.listens() && event.visible_to(seat) {
                    bot.observe(seat, &event);
                }
            }
            events.push(event);
        }
        let seat = match game.to_move(&state) {
            ToMove::Over => break,
            ToMove::Seat(seat) => seat,
        };
        if step >= max_steps {
            return Err((step, format!("no end after {max_steps} decisions")));
        }
        if seat >= bots.len() {
            return Err((step, format!("seat {seat} asked to decide, but only seats 0..{} act", bots.len())));
        }
        if !game.seat_active(&state, seat) {
            return Err((step, format!("seat {seat} asked to decide but is not in the game")));
        }
        let action = decide_checked(game, bots, (&state, seat), (&mut seat_rngs, frequency_checks), (seed, step), (&mut legal, &mut scratch))?;
        // The deciding seat's determinizations, on every 7th decision (7 is prime to every
        // table size but 7, so every seat's turn and every phase of a round gets checked).
        if step % 7 == 3 {
            samples_varied |= check_samples(game, &state, seat, seed ^ step.wrapping_mul(0x9E37_79B9)).map_err(|what| (step, what))?;
        }
        apply_checked(game, &mut state, (seat, action), (&mut rng, &mut log), step)?;
        step += 1;
        game.check_invariants(&state).map_err(|what| (step, what))?;
        each(&state, seat, &action);
    }
    let outcome = game.outcome(&state);
    well_formed(game, &outcome).map_err(|what| (step, what))?;
    Ok(CheckedGame { outcome, steps: step, events, samples_varied })
}

/// The deciding `seat`'s action at `step` of the game of `seed`, with the decision's checks:
/// legal actions listed and accepted alike, `random_action` among them (and uniform, while
/// `frequency_checks` last), the bot's choice legal.
fn decide_checked<G: Game>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    (state, seat): (&G::State, usize),
    (seat_rngs, frequency_checks): (&mut [GameRng], &mut usize),
    (seed, step): (u64, u64),
    (legal, scratch): (&mut Vec<G::Action>, &mut Vec<G::Action>),
) -> Result<G::Action, StepFailure> {
    let view = game.view(state, seat);
    legal.clear();
    game.legal_actions(&view, legal);
    if legal.is_empty() {
        return Err((step, format!("seat {seat} must decide but has no legal action")));
    }
    if let Some(a) = legal.iter().find(|a| !game.is_legal(&view, a)) {
        return Err((step, format!("{a:?} is listed by legal_actions but is_legal refuses it")));
    }
    let mut probe = seat_rngs[seat].clone();
    let drawn = game.random_action(&view, &mut probe, scratch);
    if !legal.contains(&drawn) {
        return Err((step, format!("random_action returned {drawn:?}, not among the legal actions {legal:?}")));
    }
    if *frequency_checks > 0 && legal.len() > 1 {
        *frequency_checks -= 1;
        uniform_sample(game, &view, legal, seed ^ step).map_err(|what| (step, what))?;
    }
    let action = bots[seat].decide_with(game, &view, &crate::engine::Sampler::new(state, seat), &mut seat_rngs[seat]);
    if !legal.contains(&action) || !game.is_legal(&view, &action) {
        return Err((step, format!("seat {seat} ({}) chose {action:?}, not legal; legal: {legal:?}", bots[seat].name())));
    }
    Ok(action)
}

/// Applies `action` of `seat` at `step`. A clone evolves independently, and apply depends
/// only on (state, action, stream): checked on every 8th decision (describing a state costs
/// more than playing it).
fn apply_checked<G: Game>(
    game: &G,
    state: &mut G::State,
    (seat, action): (usize, G::Action),
    (rng, log): (&mut GameRng, &mut EventLog<G::Event>),
    step: u64,
) -> Result<(), StepFailure> {
    if !step.is_multiple_of(8) {
        game.apply(state, seat, action, rng, log);
        return Ok(());
    }
    let before = game.describe(state);
    let mut twin = state.clone();
    let mut twin_rng = rng.clone();
    game.apply(state, seat, action, rng, log);
    if game.describe(&twin) != before {
        return Err((step, "applying an action to a state changed its clone".into()));
    }
    game.apply(&mut twin, seat, action, &mut twin_rng, &mut EventLog::new(false));
    if game.describe(&twin) != game.describe(state) {
        return Err((step, "the same action on a clone with the same random stream gave another state".into()));
    }
    Ok(())
}

/// Draws two determinizations of `state` for the deciding `seat` and checks them (module
/// doc); returns whether one differs from the real state in what another seat sees.
fn check_samples<G: Game>(game: &G, state: &G::State, seat: usize, seed: u64) -> Result<bool, String> {
    let sampler = Sampler::new(state, seat);
    let mut rng = GameRng::seed_from(seed);
    let own = game.observation(state, seat);
    let mut varied = false;
    for _ in 0..2 {
        let sample = sampler.sample(game, &mut rng);
        let seen = game.observation(&sample, seat);
        if seen != own {
            return Err(format!("a determinization for seat {seat} changed what it sees:\n  real:   {own}\n  sample: {seen}"));
        }
        game.check_invariants(&sample).map_err(|what| format!("a determinization for seat {seat} breaks an invariant: {what}"))?;
        if game.to_move(&sample) != game.to_move(state) {
            return Err(format!("a determinization for seat {seat} changed who moves"));
        }
        varied |= (0..game.seats()).filter(|&o| o != seat).any(|o| game.observation(&sample, o) != game.observation(state, o));
        check_mend(game, state, &sample, seat, &mut rng)?;
    }
    Ok(varied)
}

/// Where the game mends samples ([`HiddenInfo::mend`](crate::engine::HiddenInfo::mend)): a sample drawn for another seat (showing
/// `seat` a hand it does not hold) mended for `seat` shows it exactly its own observation,
/// keeps every invariant and who moves; mending `fitting`, a sample that already fits, keeps
/// what every seat sees in it.
fn check_mend<G: Game>(game: &G, state: &G::State, fitting: &G::State, seat: usize, rng: &mut GameRng) -> Result<(), String> {
    let own = game.observation(state, seat);
    let mut kept = fitting.clone();
    if !Sampler::new(state, seat).mend(game, rng, &mut kept) {
        return Ok(());
    }
    if let Some(o) = (0..game.seats()).find(|&o| game.observation(&kept, o) != game.observation(fitting, o)) {
        return Err(format!("mending a sample that fits seat {seat} changed what seat {o} sees"));
    }
    let other = (seat + 1) % game.seats();
    let mut mended = Sampler::new(state, other).deal(game, rng);
    Sampler::new(state, seat).mend(game, rng, &mut mended);
    let seen = game.observation(&mended, seat);
    if seen != own {
        return Err(format!("a sample mended for seat {seat} changed what it sees:\n  real:   {own}\n  mended: {seen}"));
    }
    game.check_invariants(&mended).map_err(|what| format!("a sample mended for seat {seat} breaks an invariant: {what}"))?;
    if game.to_move(&mended) != game.to_move(state) {
        return Err(format!("a sample mended for seat {seat} changed who moves"));
    }
    Ok(())
}

/// Draws `random_action` many times at one decision and tests the frequencies against a
/// uniform draw over `legal` (chi-square; fails only at p < 1e-6, so a correct game fails
/// about once in a million checks).
fn uniform_sample<G: Game>(game: &G, view: &G::View<'_>, legal: &[G::Action], seed: u64) -> Result<(), String> {
    let k = legal.len().min(64);
    if legal.len() > 64 {
        return Ok(()); // too many actions to sample each often enough; membership is checked anyway
    }
    let draws = 200 * k as u64;
    let mut counts = vec![0u64; k];
    let mut r = GameRng::seed_from(seed);
    let mut scratch = Vec::new();
    for _ in 0..draws {
        let a = game.random_action(view, &mut r, &mut scratch);
        let i = legal.iter().position(|x| *x == a).ok_or_else(|| format!("random_action returned {a:?}, not listed"))?;
        counts[i] += 1;
    }
    // The seat-fairness test is the same chi-square test of equal frequencies.
    let p = crate::stats::seat_fairness_p(&counts.iter().map(|&c| c as f64).collect::<Vec<_>>());
    if p < 1e-6 {
        return Err(format!("random_action is not uniform over the {k} legal actions: counts {counts:?} (chi-square p = {p:.2e})"));
    }
    Ok(())
}

/// Checks that an outcome is well formed for `game`.
pub fn well_formed<G: Game>(game: &G, outcome: &Outcome) -> Result<(), String> {
    let seats = game.seats();
    if outcome.winners >> seats != 0 {
        return Err(format!("winners {:#b} include seats beyond the {seats} scored", outcome.winners));
    }
    let shares: f64 = (0..seats).map(|s| outcome.win_share(s)).sum();
    if outcome.winners != 0 && (shares - 1.0).abs() > 1e-9 {
        return Err(format!("win shares sum to {shares}, not 1"));
    }
    if outcome.end_reason as usize >= game.end_reasons().len() {
        return Err(format!("end reason {} is not one of {:?}", outcome.end_reason, game.end_reasons()));
    }
    if outcome.length > game.turn_cap() {
        return Err(format!("length {} {} passed the cap {}", outcome.length, game.length_unit(), game.turn_cap()));
    }
    if let Some(s) = (0..seats).find(|&s| outcome.eliminated_at[s] > outcome.length) {
        return Err(format!("seat {s} eliminated at {} after the game's length {}", outcome.eliminated_at[s], outcome.length));
    }
    if outcome.winners == 0 && game.end_reasons()[outcome.end_reason as usize] != "cap" {
        return Err(format!("no winner, but only a game ended by the cap may have none (end reason `{}`)", game.end_reasons()[outcome.end_reason as usize]));
    }
    Ok(())
}

/// A game's own determinization test (beside the harness's sampled checks): plays `games`
/// games of random bots and, at every `every`-th decision, draws `samples`
/// determinizations for the deciding seat and checks each: the seat's observation is the
/// real one, the invariants hold, and play goes on from it to the end. Returns how many
/// samples differed from the real state (`describe`), and how many were drawn.
pub fn check_determinizations<G: Game>(g: &G, seed: u64, games: u64, every: u64, samples: u32) -> (u32, u32) {
    let mut differed = 0;
    let mut drawn = 0;
    for index in 0..games {
        let game_seed = game_seed(seed, index);
        let mut bots = random_bots(g);
        let mut rng = GameRng::seed_from(game_seed ^ 0xde7e);
        let mut step = 0u64;
        let mut sample: Option<G::State> = None;
        let mut each = |state: &G::State, _: usize, _: &G::Action| {
            step += 1;
            let ToMove::Seat(seat) = g.to_move(state) else { return };
            if !step.is_multiple_of(every) {
                return;
            }
            let real = g.observation(state, seat);
            let out = sample.get_or_insert_with(|| state.clone());
            for _ in 0..samples {
                g.determinize(state, seat, &mut rng, out);
                drawn += 1;
                assert_eq!(g.observation(out, seat), real, "game seed {game_seed}, step {step}: the sample shows seat {seat} another table");
                if let Err(e) = g.check_invariants(out) {
                    panic!("game seed {game_seed}, step {step}: a sample breaks an invariant: {e}\n{}", g.describe(out));
                }
                differed += u32::from(g.describe(out) != g.describe(state));
            }
            // Play on from the last sample to the end, checking every step.
            let mut on = out.clone();
            let mut scratch = Vec::new();
            let mut log = EventLog::new(false);
            let mut moves = 0u64;
            while let ToMove::Seat(s) = g.to_move(&on) {
                let action = g.random_action(&g.view(&on, s), &mut rng, &mut scratch);
                g.apply(&mut on, s, action, &mut rng, &mut log);
                if let Err(e) = g.check_invariants(&on) {
                    panic!("game seed {game_seed}, step {step}: playing on from a sample broke an invariant: {e}");
                }
                moves += 1;
                assert!(moves < 1_000_000, "game seed {game_seed}: play from a sample does not end");
            }
            well_formed(g, &g.outcome(&on)).expect("a well-formed outcome from a sample");
        };
        play_checked(g, &mut bots, game_seed, 5_000_000, &mut 0, &mut each).unwrap_or_else(|(step, what)| panic!("game seed {game_seed}, step {step}: {what}"));
    }
    (differed, drawn)
}

/// The engine's random bot at every seat of `g`.
pub fn random_bots<G: Game>(g: &G) -> Vec<Box<dyn Bot<G>>> {
    let random = all_bots(g).into_iter().find(|b| b.name == "random").expect("random bot");
    (0..g.acting_seats()).map(|_| (random.build)(g, &[])).collect()
}

/// A game's own test of what a determinization keeps of what the table saw (cards taken
/// face up, public piles): plays `games` games of `bots` from master seed `seed` and, at
/// every seat's decision, draws one determinization for that seat (one stream seeded with
/// `rng_seed` for all the games) and hands `check` the real state, the sample and the seat.
/// Returns the sum of what `check` returns (the known cards it checked), so that the test
/// can ask that it checked enough to mean something.
pub fn check_samples_keep<G: Game>(
    g: &G,
    seed: u64,
    games: u64,
    rng_seed: u64,
    bots: impl Fn() -> Vec<Box<dyn Bot<G>>>,
    mut check: impl FnMut(&G::State, &G::State, usize) -> u32,
) -> u32 {
    let mut rng = GameRng::seed_from(rng_seed);
    let mut kept = 0;
    for index in 0..games {
        let mut bots = bots();
        let mut out: Option<G::State> = None;
        let mut each = |s: &G::State, _: usize, _: &G::Action| {
            let ToMove::Seat(seat) = g.to_move(s) else { return };
            let out = out.get_or_insert_with(|| s.clone());
            g.determinize(s, seat, &mut rng, out);
            kept += check(s, out, seat);
        };
        play_checked(g, &mut bots, game_seed(seed, index), 1_000_000, &mut 0, &mut each).expect("a checked game");
    }
    kept
}

/// Traces one game of `bots` as JSON Lines (the shortest of the first four games of `seed`),
/// then checks: the traced outcome is the one the engine's `play` gives; every line parses;
/// every listed legal action (serde JSON) reads back as an action that writes the same JSON;
/// and [`crate::engine::trace::replay`] re-applies the trace with every legal set, view, chance
/// result and state agreeing. A game longer than `max_decisions` decisions is traced and
/// replayed up to there (the replay must then stop exactly where the trace does), so long
/// games stay cheap to check. Returns the number of decisions checked.
pub fn check_trace_round_trip<G: Game>(game: &G, label: &str, bots: &mut [Box<dyn Bot<G>>], seed: u64, max_decisions: u64) -> Result<u64, HarnessFailure> {
    use crate::engine::trace::{Line, TraceHeader, parse, replay, trace_text};
    let seeds: Vec<u64> = (0..4).map(|i| game_seed(seed, i)).collect();
    let mut shortest = None;
    for &s in &seeds {
        let o = crate::engine::play(game, bots, s, crate::engine::PlayOptions::default(), None, None).map_err(|v| HarnessFailure {
            game: game.id(),
            bot: label.to_string(),
            game_seed: s,
            step: v.step,
            what: v.what,
        })?;
        if shortest.is_none_or(|(_, len)| o.length < len) {
            shortest = Some((s, o.length));
        }
    }
    let (seed, _) = shortest.expect("four games");
    let fail = |step: u64, what: String| HarnessFailure { game: game.id(), bot: label.to_string(), game_seed: seed, step, what };
    let played = crate::engine::play(game, bots, seed, crate::engine::PlayOptions::default(), None, None).map_err(|v| fail(v.step, v.what))?;
    let header = TraceHeader { variant_name: "harness".into(), variant: serde_json::Value::Null, bots: vec![label.to_string(); bots.len()] };
    let (text, traced) = trace_text(game, bots, seed, &header, true, max_decisions);
    let cut = match traced {
        Ok(traced) if traced != played => return Err(fail(0, format!("the traced game is not the played one: {traced:?} vs {played:?}"))),
        Ok(_) => false,
        Err((step, _)) if step == max_decisions => true,
        Err((step, what)) => return Err(fail(step, format!("traced: {what}"))),
    };
    let mut lines = parse(&text).map_err(|(line, col, what)| fail(0, format!("trace line {line}:{col} does not parse: {what}")))?;
    if cut {
        // The `violation` line of the step bound: the rest is a prefix of the game.
        lines.pop();
    }
    let mut decisions = 0;
    for (n, line) in &lines {
        if let Line::Decision(d) = line {
            decisions += 1;
            for value in d.legal.iter().chain(std::iter::once(&d.action)) {
                let action: G::Action =
                    serde_json::from_value(value.clone()).map_err(|e| fail(d.step, format!("trace line {n}: {value} does not read back: {e}")))?;
                let again = serde_json::to_value(action).map_err(|e| fail(d.step, e.to_string()))?;
                if &again != value {
                    return Err(fail(d.step, format!("trace line {n}: {value} reads back as {action:?}, written {again}")));
                }
            }
        }
    }
    let replayed = replay(game, &lines, HarnessPlan::default().max_steps);
    match replayed {
        Ok(replayed) if !cut && replayed == played => Ok(decisions),
        Ok(replayed) => Err(fail(0, format!("the replayed game is not the played one: {replayed:?} vs {played:?}"))),
        // A prefix replays until the trace runs out, just after its last line.
        Err((line, what)) if cut && line == lines.last().map_or(0, |(n, _)| n + 1) && what.contains("the trace ends here") => Ok(decisions),
        Err((line, what)) => Err(fail(0, format!("trace line {line}: {what}"))),
    }
}
