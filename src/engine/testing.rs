//! Test support shared by the games' tests: a bot that says it never draws, and a game's own
//! play-out loop checked against the plain one.

use super::{Bot, EventLog, Game, GameRng, Lineup, MAX_SEATS, Sampler, SeedFrom, ToMove, play_decisions, streams};

/// Test support for a bot that says it never draws ([`Bot::draws`] false, so a table of it
/// gets no seat streams): `bots` (one per seat) play `g`'s games from seeds `0..games`, and
/// `Err` names the first decision after which the stream its bot was handed had moved.
pub(crate) fn check_never_draws<G: Game>(g: &G, bots: &mut [Box<dyn Bot<G>>], games: u64) -> Result<(), String> {
    if let Some(bot) = bots.iter().find(|b| b.draws()) {
        return Err(format!("{} says it draws", bot.name()));
    }
    for seed in 0..games {
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        for (seat, bot) in bots.iter_mut().enumerate() {
            bot.new_game(g, seat);
        }
        let mut stream = GameRng::seed_from(!seed);
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let before = stream.clone();
            let action = bots[seat].decide(g, &g.view(&s, seat), &mut stream);
            if stream != before {
                return Err(format!("seed {seed}: {} drew from its stream", bots[seat].name()));
            }
            g.apply(&mut s, seat, action, &mut rng, &mut EventLog::new(false));
        }
    }
    Ok(())
}

/// Test support for a game's own [`Game::play_out`]: a dealt game from `seed`'s streams,
/// played `steps` decisions on by the plain loop (`a` and `b` asked the same questions, which
/// must give the same answers), then to its end by `play_out` with `a` and by
/// [`play_decisions`] with `b` from the same point. `Err` names the first difference: the
/// game not over, the final state, or any stream afterwards.
pub(crate) fn check_play_out<G: Game, L: Lineup<G> + ?Sized>(g: &G, a: &mut L, b: &mut L, seed: u64, steps: usize) -> Result<(), String> {
    let (mut rng, mut seat_rngs) = streams(seed, MAX_SEATS);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    a.new_game(g);
    b.new_game(g);
    let mut log = EventLog::new(false);
    for _ in 0..steps {
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        let mut stream = seat_rngs[seat].clone();
        let action = a.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut seat_rngs[seat]);
        let again = b.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut stream);
        if action != again {
            return Err(format!("seed {seed}: two bots answered {action:?} and {again:?}"));
        }
        g.apply(&mut s, seat, action, &mut rng, &mut log);
    }
    let (mut s2, mut rng2, mut seat_rngs2) = (s.clone(), rng.clone(), seat_rngs.clone());
    g.play_out(&mut s, a, &mut rng, &mut seat_rngs);
    play_decisions(g, &mut s2, b, &mut rng2, &mut seat_rngs2);
    if !matches!(g.to_move(&s), ToMove::Over) {
        return Err(format!("seed {seed}: play_out stopped before the end"));
    }
    if format!("{s:?}") != format!("{s2:?}") {
        return Err(format!("seed {seed}: play_out left\n{s:?}\nthe plain loop\n{s2:?}"));
    }
    if format!("{rng:?} {seat_rngs:?}") != format!("{rng2:?} {seat_rngs2:?}") {
        return Err(format!("seed {seed}: the streams differ after play_out"));
    }
    Ok(())
}

/// A game small enough to test the engine with and no game of the registry (the engine names
/// none): a race to `target` on one shared count, each seat in turn adding 1 or 2; the seat
/// that reaches it wins. No chance, nothing hidden.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Race {
    /// Seats at the table.
    pub seats: usize,
    /// The count that wins.
    pub target: u32,
}

/// The race's state: the count and whose turn it is (the count so far is the length).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RaceState {
    count: u32,
    turn: usize,
    moves: u32,
    winner: Option<usize>,
}

/// One step of the race: the seat and what it added.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Added(usize, u32);

impl std::fmt::Display for Added {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {} adds {}", self.0, self.1)
    }
}

impl super::GameEvent for Added {
    fn visible_to(&self, _seat: usize) -> bool {
        true
    }
}

impl super::HiddenInfo for Race {
    fn observation(&self, state: &RaceState, _seat: usize) -> String {
        format!("{state:?}")
    }
}
impl super::Traces for Race {}
impl super::AuditHooks for Race {}
impl super::OwnBots for Race {}

impl Game for Race {
    type State = RaceState;
    type Action = u32;
    type View<'a> = &'a RaceState;
    type Event = Added;
    type Metrics = super::NoMetrics;
    const INFO: super::GameInfo =
        super::GameInfo { id: "race", name: "Race", end_reasons: &["reached"], default_cap: 100, draws_chance: false, ..super::GameInfo::DEFAULTS };

    fn seats(&self) -> usize {
        self.seats
    }
    fn deal(&self, _rng: &mut GameRng, _log: &mut EventLog<Added>) -> RaceState {
        RaceState { count: 0, turn: 0, moves: 0, winner: None }
    }
    fn to_move(&self, state: &RaceState) -> ToMove {
        if state.winner.is_some() { ToMove::Over } else { ToMove::Seat(state.turn) }
    }
    fn view<'a>(&self, state: &'a RaceState, _seat: usize) -> &'a RaceState {
        state
    }
    fn legal_actions(&self, _view: &&RaceState, out: &mut Vec<u32>) {
        out.extend([1, 2]);
    }
    fn apply(&self, state: &mut RaceState, seat: usize, action: u32, _rng: &mut GameRng, log: &mut EventLog<Added>) {
        log.emit(|| Added(seat, action));
        state.count += action;
        state.moves += 1;
        if state.count >= self.target {
            state.winner = Some(seat);
        }
        state.turn = (seat + 1) % self.seats;
    }
    fn outcome(&self, state: &RaceState) -> super::Outcome {
        let mut o = super::Outcome::new();
        o.length = state.moves;
        if let Some(w) = state.winner {
            o.winners = 1 << w;
            o.scores[w] = 1;
        }
        o
    }
}
