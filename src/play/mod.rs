//! `playtest play`: a designer takes one seat of a game in the browser, against the variant's
//! bots, with the search bot's advice on request.
//!
//! - [`session`]: the game itself, decision by decision, recorded as the trace records it;
//! - [`hints`]: the `ismcts` bot's estimate of the seat's win chance after each legal action;
//! - [`server`]: the loopback HTTP server, its token and its JSON API;
//! - [`page`]: the page, which draws the table with the replay page's own drawing.
//!
//! Every registered game plays this way with no code of its own: the page draws the game's
//! trace state ([`crate::engine::Game::trace_state`]) as the replay page does, and the
//! actions are the game's trace notation.

pub mod hints;
pub mod label;
pub mod page;
pub mod server;
pub mod session;

use serde_json::{Value, json};

use crate::engine::{Bot, BotSpec, Game, game_seed};
use crate::error::Error;
use crate::games::{self, GameCommand, Registered, seat_plans};
use crate::variant::Variant;

pub use session::{Refusal, Session};

/// Search iterations of a hint when the page asks for none.
pub const DEFAULT_HINT_ITERATIONS: u32 = 2000;

/// Most search iterations the page may ask for one hint (a hint holds the server while it runs).
pub const MAX_HINT_ITERATIONS: u32 = 200_000;

/// A game in play, whatever its type: what the [`server`] asks of a [`Session`], in JSON.
pub trait PlayTable: Send {
    /// Everything the page shows now: the game, the seats, whose turn, the seat's view of the
    /// table, its legal actions when it must decide, the end when it is over.
    fn status(&self) -> Value;
    /// The person's action (see [`Session::act`]): the narration entry it made.
    fn act(&mut self, action: &Value, expected_step: Option<u64>) -> Result<Value, Refusal>;
    /// One bot decision (see [`Session::advance`]): the narration entry it made.
    fn advance(&mut self) -> Result<Value, Refusal>;
    /// The narration from entry `since` on.
    fn events_since(&self, since: usize) -> Value;
    /// The search bot's advice with `iterations` iterations, and its time in milliseconds.
    fn hints(&self, iterations: u32) -> Result<(Value, f64), Refusal>;
    /// The game so far as JSON Lines trace text.
    fn trace_text(&self) -> String;
    /// The trace lines from line `from` on, and the number of lines so far.
    fn trace_from(&self, from: usize) -> (String, usize);
    /// Decisions recorded so far.
    fn decisions(&self) -> u64;
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Game id and variant name, for messages.
    fn title(&self) -> String;
    /// The game's seed.
    fn seed(&self) -> u64;
}

/// A [`Session`] with the variant's name, as a [`PlayTable`].
struct Named<G: Game> {
    session: Session<G>,
    variant: String,
}

impl<G: Game> PlayTable for Named<G> {
    fn status(&self) -> Value {
        let s = &self.session;
        json!({
            "game": s.game().id(),
            "variant": self.variant,
            "seat": s.seat(),
            "seed": s.seed(),
            "step": s.step(),
            "to_move": s.to_move(),
            "your_turn": s.your_turn(),
            "over": s.to_move().is_none(),
            "end": s.end(),
            "seats": s.seats(),
            "length_unit": s.game().length_unit(),
            "secrets": s.game().trace_secrets(),
            "events": s.events_count(),
            "view": s.view(),
            "legal": s.legal(),
        })
    }
    fn act(&mut self, action: &Value, expected_step: Option<u64>) -> Result<Value, Refusal> {
        self.session.act(action, expected_step).map(|n| serde_json::to_value(n).expect("serialises"))
    }
    fn advance(&mut self) -> Result<Value, Refusal> {
        self.session.advance().map(|n| serde_json::to_value(n).expect("serialises"))
    }
    fn events_since(&self, since: usize) -> Value {
        json!({ "since": since, "next": self.session.events_count(), "events": self.session.events_since(since) })
    }
    fn hints(&self, iterations: u32) -> Result<(Value, f64), Refusal> {
        // A seed of the decision's own (game seed and step): asking twice gives the same advice.
        let seed = game_seed(self.session.seed() ^ 0x6869_6e74, self.session.step());
        let h = self.session.hints(iterations, seed)?;
        let ms = h.millis;
        let mut v = serde_json::to_value(&h).expect("serialises");
        v["millis"] = json!((ms * 10.0).round() / 10.0);
        Ok((v, ms))
    }
    fn trace_text(&self) -> String {
        self.session.trace_text()
    }
    fn trace_from(&self, from: usize) -> (String, usize) {
        self.session.trace_from(from)
    }
    fn decisions(&self) -> u64 {
        self.session.decisions()
    }
    fn over(&self) -> bool {
        self.session.to_move().is_none()
    }
    fn title(&self) -> String {
        format!("{} / {}", self.session.game().id(), self.variant)
    }
    fn seed(&self) -> u64 {
        self.session.seed()
    }
}

/// Who sits where and which deal: the person's seat, the bots (`--bots` syntax, else the
/// variant's) and the game's seed.
#[derive(Clone, Debug)]
pub struct Seating {
    /// The person's seat.
    pub seat: usize,
    /// `--bots`: one spec for every seat or one per seat (the person's own is not asked).
    pub bots: Option<String>,
    /// The game's seed (the same seed, the same deal).
    pub seed: u64,
}

/// Deals the variant's game with the person seated as `seating` says, through the registry:
/// any registered game, no code of its own.
pub fn open(variant: &Variant, seating: &Seating) -> Result<Box<dyn PlayTable>, Error> {
    struct Open<'a>(&'a Seating);
    impl GameCommand for Open<'_> {
        type Output = Box<dyn PlayTable>;
        fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<Self::Output, Error> {
            let specs = match self.0.bots.as_deref() {
                Some(text) => {
                    Some(text.split(',').map(|s| BotSpec::parse(s).map_err(|e| Error::Usage(format!("--bots: {e}")))).collect::<Result<Vec<_>, _>>()?)
                }
                None => None,
            };
            let plans = seat_plans(&game, variant, specs.as_deref(), G::INFO.default_bot)?;
            let header = crate::sim::trace_header(variant, &plans);
            let bots: Vec<Box<dyn Bot<G>>> = plans.iter().map(|p| (p.build)(&game, &p.values)).collect();
            let session = Session::new(game, self.0.seat, bots, self.0.seed, &header).map_err(Error::Usage)?;
            Ok(Box::new(Named { session, variant: variant.name.clone() }))
        }
    }
    games::dispatch(variant, Open(seating))
}
