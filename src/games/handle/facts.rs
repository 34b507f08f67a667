//! A game's static facts as plain data: what summaries, catalogues and tables read of a game
//! without knowing its type.

use crate::engine::{Game, Meaning, Metrics};

/// A game's static facts and the names of its own figures: what summaries, catalogues and
/// tables read of a game without knowing its type.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// Game id (`pig-farm`).
    pub id: &'static str,
    /// Seats at the table, dummy seats included.
    pub seats: usize,
    /// Seats that decide (a bot each).
    pub acting_seats: usize,
    /// Why a game can end, in outcome order.
    pub end_reasons: &'static [&'static str],
    /// The unit of a game's length (turns, rounds).
    pub length_unit: &'static str,
    /// The unit of a seat's standing (pennies, points).
    pub standing_unit: &'static str,
    /// Teams of seats (empty or one team: every seat for itself).
    pub teams: Vec<Vec<usize>>,
    /// Whether a seat can be eliminated.
    pub has_elimination: bool,
    /// The game's own figures ([`Metrics::summary`] order) with what each means.
    pub own_figures: Vec<(String, Option<Meaning>)>,
    /// The file stem of the game's key chart ([`Metrics::KEY_CHART`]; "": the first chart).
    pub key_chart: &'static str,
    /// Keys of the variant that can never take effect ([`crate::engine::Game::unused_keys`]).
    pub unused_keys: Vec<String>,
}

impl GameFacts {
    /// The facts of `game`.
    pub fn of<G: Game>(game: &G) -> GameFacts {
        let own = G::Metrics::for_game(game);
        let own_figures = own.summary(0).into_iter().map(|(name, _)| (name.clone(), own.meaning(&name))).collect();
        GameFacts {
            id: game.id(),
            seats: game.seats(),
            acting_seats: game.acting_seats(),
            end_reasons: game.end_reasons(),
            length_unit: game.length_unit(),
            standing_unit: game.standing_unit(),
            teams: game.teams(),
            has_elimination: game.has_elimination(),
            own_figures,
            key_chart: <G::Metrics as Metrics<G>>::KEY_CHART,
            unused_keys: game.unused_keys(),
        }
    }
}
