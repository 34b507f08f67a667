//! `playtest play`: a designer takes one seat of a game in the browser, against the variant's
//! bots, with the search bot's advice on request.
//!
//! - [`session`]: the game itself, decision by decision, recorded as the trace records it
//!   (typed by the game, so it lives below the registry, in [`crate::sim`]; the game's handle
//!   opens it);
//! - [`hints`]: the `ismcts` bot's estimate of the seat's win chance after each legal action;
//! - [`server`]: the loopback HTTP server, its token and its JSON API;
//! - [`page`]: the page, which draws the table with the replay page's own drawing.
//!
//! Every registered game plays this way with no code of its own: the page draws the game's
//! trace state ([`crate::engine::Traces::trace_state`]) as the replay page does, and the
//! actions are the game's trace notation.

pub mod page;
pub mod server;

use crate::error::Error;
use crate::variant::Variant;

pub use crate::sim::session::{PlayTable, Refusal, Session};
pub use crate::sim::{hints, label, session};

/// Search iterations of a hint when the page asks for none.
pub const DEFAULT_HINT_ITERATIONS: u32 = 2000;

/// Most search iterations the page may ask for one hint (a hint holds the server while it runs).
pub const MAX_HINT_ITERATIONS: u32 = 200_000;

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

/// Deals the variant's game with the person seated as `seating` says, through the game's
/// handle ([`crate::games::GameHandle::open_session`]): any registered game, no code of its own.
pub fn open(variant: &Variant, seating: &Seating) -> Result<Box<dyn PlayTable>, Error> {
    let game = crate::games::handle(variant)?;
    let specs = crate::designer::parse_bots(seating.bots.as_deref(), "--bots")?;
    game.open_session(variant, seating.seat, specs.as_deref(), seating.seed)
}
