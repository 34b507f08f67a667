//! The engine's own cost per action, the same for every game: a coin-flip race played
//! through the simulator exactly as a registered game is (the play loop, the line-up
//! dispatch, views, the legality and invariant checks of checked runs, metric hooks, the
//! event log, outcome accounting, batches and the fold), with rules so trivial that what
//! remains is the engine.
//!
//! `cargo bench --bench engine` prints nanoseconds per action for a quick run (what
//! `simulate` and `bench` do), a checked run (`check`), a detailed run (`report`) and an
//! event-listening line-up, with one boxed bot per seat and with the uniform (no dynamic
//! dispatch) table. `-- --actions N` sets the work per measurement.

use std::fmt;
use std::time::Instant;

use playtest::engine::rng::below;
use playtest::engine::{AuditHooks, HiddenInfo, OwnBots, StandingTrace, Traces, game_seed};
use playtest::engine::{Bot, EventLog, Game, GameEvent, GameInfo, GameRng, Metrics, Outcome, PlayOptions, ToMove, Uniform, play, play_watched};
use playtest::sim::{RunConfig, SeatPlan, run};

/// Seats at the race.
const SEATS: usize = 4;
/// Heads a seat needs to win.
const GOAL: u8 = 20;

/// The race: on its turn a seat flips one coin or two; each head moves it one step; the
/// first to `GOAL` steps wins.
struct CoinRace;

/// The whole table.
#[derive(Clone, Debug)]
struct Race {
    steps: [u8; SEATS],
    current: u8,
    turns: u32,
    winner: Option<u8>,
}

/// What a seat sees (everything: no hidden information).
struct RaceView<'a> {
    seat: usize,
    race: &'a Race,
}

/// Flip this many coins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Flip(u8);

/// A coin landed.
struct Landed {
    seat: u8,
    heads: u8,
}

impl fmt::Display for Landed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {} flips {} heads", self.seat, self.heads)
    }
}

impl GameEvent for Landed {
    fn visible_to(&self, _: usize) -> bool {
        true
    }
}

/// Counts heads over a run: a metric hook that does a little work per action.
#[derive(Default)]
struct HeadCount {
    flips: u64,
}

impl Metrics<CoinRace> for HeadCount {
    fn after_action(&mut self, _: &CoinRace, _: &Race, _: usize, action: &Flip) {
        self.flips += u64::from(action.0);
    }
    fn finish(&mut self, _: &CoinRace, _: &Race, _: &Outcome) {}
    fn merge(&mut self, other: Self) {
        self.flips += other.flips;
    }
    fn charts(&self, _: u64) -> Vec<playtest::engine::ChartSpec> {
        Vec::new()
    }
    fn summary(&self, _: u64) -> Vec<(String, f64)> {
        vec![("flips".into(), self.flips as f64)]
    }
}

impl Game for CoinRace {
    type State = Race;
    type Action = Flip;
    type View<'a> = RaceView<'a>;
    type Event = Landed;
    type Metrics = HeadCount;
    const INFO: GameInfo = GameInfo {
        id: "coin-race",
        name: "Coin race",
        end_reasons: &["goal", "cap"],
        length_unit: "turns",
        standing_unit: "steps",
        default_cap: 10_000,
        default_bot: "random",
        hidden_state: false,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        SEATS
    }
    fn deal(&self, _: &mut GameRng, _: &mut EventLog<Landed>) -> Race {
        Race { steps: [0; SEATS], current: 0, turns: 0, winner: None }
    }
    #[inline]
    fn to_move(&self, s: &Race) -> ToMove {
        if s.winner.is_some() { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }
    #[inline]
    fn view<'a>(&self, s: &'a Race, seat: usize) -> RaceView<'a> {
        RaceView { seat, race: s }
    }
    fn legal_actions(&self, _: &RaceView, out: &mut Vec<Flip>) {
        out.extend([Flip(1), Flip(2)]);
    }
    #[inline]
    fn apply(&self, s: &mut Race, seat: usize, a: Flip, rng: &mut GameRng, log: &mut EventLog<Landed>) {
        let heads = (0..a.0).map(|_| below(2, rng) as u8).sum::<u8>();
        log.emit(|| Landed { seat: seat as u8, heads });
        s.steps[seat] += heads;
        s.turns += 1;
        if s.steps[seat] >= GOAL {
            s.winner = Some(seat as u8);
        }
        s.current = ((seat + 1) % SEATS) as u8;
    }
    fn outcome(&self, s: &Race) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        for (score, &steps) in o.scores.iter_mut().zip(&s.steps) {
            *score = i64::from(steps);
        }
        o.winners = s.winner.map_or(0, |w| 1 << w);
        o
    }
    fn check_invariants(&self, s: &Race) -> Result<(), String> {
        if s.steps.iter().filter(|&&x| x >= GOAL).count() > 1 { Err("two seats at the goal".into()) } else { Ok(()) }
    }
    fn standing(&self, s: &Race, seat: usize) -> i64 {
        i64::from(s.steps[seat])
    }
}

impl HiddenInfo for CoinRace {
    fn observation(&self, s: &Race, _: usize) -> String {
        self.describe(s)
    }
}
impl AuditHooks for CoinRace {}
impl OwnBots for CoinRace {}
impl Traces for CoinRace {
    fn trace_state(&self, s: &Race) -> serde_json::Value {
        serde_json::json!({ "steps": s.steps })
    }
}

/// Flips one coin or two at random, one when a single head wins (reads its view as a real
/// bot does).
struct Flipper {
    listens: bool,
    seen: u64,
}

impl Bot<CoinRace> for Flipper {
    fn name(&self) -> &str {
        "flipper"
    }
    #[inline]
    fn decide(&mut self, _: &CoinRace, view: &RaceView<'_>, rng: &mut GameRng) -> Flip {
        // One step from the goal one coin is enough; otherwise one or two at random.
        if view.race.steps[view.seat] + 1 >= GOAL { Flip(1) } else { Flip(1 + below(2, rng) as u8) }
    }
    fn listens(&self) -> bool {
        self.listens
    }
    fn observe(&mut self, _: usize, event: &Landed) {
        self.seen += u64::from(event.heads);
    }
}

fn plans(listens: bool) -> Vec<SeatPlan<CoinRace>> {
    let build: fn(&CoinRace, &[f64]) -> Box<dyn Bot<CoinRace>> =
        if listens { |_, _| Box::new(Flipper { listens: true, seen: 0 }) } else { |_, _| Box::new(Flipper { listens: false, seen: 0 }) };
    (0..SEATS).map(|_| SeatPlan { label: "flipper".into(), values: Vec::new(), build }).collect()
}

/// Runs `measure` (which returns the actions it played) three times; prints the best.
fn report(name: &str, mut measure: impl FnMut() -> u64) {
    let mut best = f64::INFINITY;
    let mut actions = 0;
    for _ in 0..3 {
        let start = Instant::now();
        actions = measure();
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / actions as f64);
    }
    println!("{name:<58} {best:>7.2} ns/action ({actions} actions per run, best of 3)");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let actions: u64 = args.iter().position(|a| a == "--actions").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(20_000_000);
    let game = CoinRace;
    // About 4 x 20 / 0.75 = 107 actions per game.
    let games = (actions / 107).max(1);
    println!("coin-flip race: {SEATS} seats, first to {GOAL} heads, one or two coins a turn; one thread, {games} games per run");

    let seats = plans(false);
    let listening = plans(true);
    // Every turn is one action: the lengths' sum is the actions played.
    let lengths = |r: &playtest::sim::RunResult<CoinRace>| (r.tally.length_mean_sd().0 * r.tally.games as f64).round() as u64;
    let one = |cfg: RunConfig| RunConfig { threads: 1, ..cfg };
    report("simulator, quick (simulate, bench)", || lengths(&run(&game, &seats, one(RunConfig::new(games, 1))).expect("runs")));
    report("simulator, checked (check)", || lengths(&run(&game, &seats, one(RunConfig { checked: true, ..RunConfig::new(games, 1) })).expect("runs")));
    report("simulator, detailed (report: metrics and standings)", || {
        lengths(&run(&game, &seats, one(RunConfig { detailed: true, ..RunConfig::new(games, 1) })).expect("runs"))
    });
    report("simulator, quick, bots listening to events", || lengths(&run(&game, &listening, one(RunConfig::new(games, 1))).expect("runs")));

    // The play loop alone, without the simulator's batches and tally.
    let mut boxed: Vec<Box<dyn Bot<CoinRace>>> = (0..SEATS).map(|_| Box::new(Flipper { listens: false, seen: 0 }) as Box<dyn Bot<CoinRace>>).collect();
    let mut uniform = Uniform::new((0..SEATS).map(|_| Flipper { listens: false, seen: 0 }).collect());
    let quick = PlayOptions { checked: false };
    report("play loop, boxed bots (dynamic dispatch per decision)", || {
        (0..games).map(|i| u64::from(play(&game, &mut boxed, game_seed(1, i), quick, None, None).expect("plays").length)).sum()
    });
    report("play loop, uniform table (static dispatch)", || {
        (0..games).map(|i| u64::from(play(&game, &mut uniform, game_seed(1, i), quick, None, None).expect("plays").length)).sum()
    });
    let mut metrics = HeadCount::default();
    let mut standings = StandingTrace::new(SEATS);
    report("play loop, uniform table, metrics and standings", || {
        (0..games).map(|i| u64::from(play_watched(&game, &mut uniform, game_seed(1, i), quick, &mut metrics, &mut standings).expect("plays").length)).sum()
    });
}
