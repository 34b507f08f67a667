//! Bluffing Joker's variant parameters: the TOML reference of every key with its docs/games/bluffing-joker.md
//! default and allowed range, and the checks that reject impossible or too costly set-ups
//! (every count is bounded so that no accepted variant makes one game slow or huge).

use serde::Deserialize;

use crate::variant::Invalid;

/// Most players at one table (two teams of 4).
pub const MAX_PLAYERS: usize = 8;
/// Most pegs per player.
pub const MAX_PEGS: usize = 8;
/// Most holes on one side of the board.
pub const MAX_TRACK_PER_SIDE: u32 = 24;
/// Most holes on the whole track (8 sides of 24).
pub const MAX_TRACK: usize = 192;
/// Most holes in one home.
pub const MAX_HOME: u32 = 12;
/// Most standard decks in the stock.
pub const MAX_DECKS: u32 = 8;
/// Most jokers in the stock.
pub const MAX_JOKERS: u32 = 32;
/// Largest hand (`hand_size`).
pub const MAX_HAND: usize = 12;
/// Largest turn cap.
pub const MAX_TURN_CAP: u32 = 50_000;

/// How a 7 may be split over two pegs.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SevenSplit {
    /// Parts a and 7 − a, 1 <= a <= 6 (docs/games/bluffing-joker.md default).
    Exact,
    /// Parts a, b >= 1 with a + b <= 7 (the rulebook's "up to a cumulative 7").
    UpTo,
}

crate::games::key_table::params! {
    /// Bluffing Joker's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/bluffing-joker.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players, in two teams seated alternately (seat i in team i mod 2).
        pub players: u32 = 4, allowed("4, 6 or 8");
        /// Holes on each side of the board; the track has `players` x this many.
        pub track_per_side: u32 = 18, range(8, MAX_TRACK_PER_SIDE), note "more than `come_out` and `in_spot`";
        /// The come-out hole: index of the hole on the player's own side where a peg comes out.
        pub come_out: u32 = 8, allowed("0 to `track_per_side` - 1, not `in_spot`");
        /// The in-spot, the hole in front of home: index on the player's own side.
        pub in_spot: u32 = 3, allowed("0 to `track_per_side` - 1");
        /// Pegs per player.
        pub pegs: u32 = 5, range(1, MAX_PEGS), note "at most `home_size`";
        /// Holes in each home.
        pub home_size: u32 = 5, allowed("`pegs` to 12");
        /// Standard 52-card decks in the stock.
        pub decks: Option<u32> = None, documented(1, MAX_DECKS), shown "3, or 4 with 8 players";
        /// Jokers in the stock.
        pub jokers: Option<u32> = None, documented(0, MAX_JOKERS), shown "2 per deck (6, or 8 with 8 players)";
        /// Cards dealt to each seat at the start.
        pub deal: u32 = 5, allowed("1 to `hand_size`");
        /// Each turn starts by drawing up to this many cards.
        pub hand_size: u32 = 6, range(1, MAX_HAND), note "at least `deal`";
        /// How a 7 splits over two pegs: `exact` a and 7 - a; `up_to` a + b at most 7.
        pub seven_split: SevenSplit = SevenSplit::Exact, allowed("`\"exact\"` or `\"up_to\"`"), shown "\"exact\"";
        /// Whether the extra turns the doubt rules grant are taken (false: never).
        pub extra_turns: bool = true, allowed("true or false");
        /// Turns after which the game stops with no winner (end reason `cap`).
        pub turn_cap: u32 = 5000, range(1, MAX_TURN_CAP);
        /// The doubt rules.
        pub doubt: DoubtParams = DoubtParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "doubt.";
    /// The doubt rules designers may vary.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DoubtParams {
        /// Whether a declaration may be false (false: every declaration names the card's true
        /// value, so every doubt is wrong).
        pub bluffing: bool = true, allowed("true or false");
        /// Whether a right doubt also costs the liar the declared move (true: the liar does not
        /// move; false: it moves, then loses the peg).
        pub right_doubt_stops_move: bool = true, allowed("true or false");
    }
}

impl Params {
    /// Standard decks in play (the default depends on `players`).
    pub fn deck_count(&self) -> u32 {
        self.decks.unwrap_or(if self.players == 8 { 4 } else { 3 })
    }

    /// Jokers in play (default 2 per deck).
    pub fn joker_count(&self) -> u32 {
        self.jokers.unwrap_or(2u32.saturating_mul(self.deck_count()))
    }

    /// Cards in the stock.
    pub fn cards(&self) -> u32 {
        52u32.saturating_mul(self.deck_count()).saturating_add(self.joker_count())
    }

    /// Checks every key; every problem is listed.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let range = |bad: &mut Vec<Invalid>, key: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(Invalid::new(key, format!("{v} is not allowed; allowed: {lo} to {hi}")));
            }
        };
        if ![4, 6, 8].contains(&self.players) {
            bad.push(Invalid::new("players", format!("{} players is not allowed; allowed: 4, 6 or 8 (two teams seated alternately)", self.players)));
        }
        let side = self.track_per_side.max(1);
        range(&mut bad, "come_out", self.come_out, 0, side - 1);
        range(&mut bad, "in_spot", self.in_spot, 0, side - 1);
        if self.come_out == self.in_spot {
            bad.push(Invalid::new("come_out", format!("the come-out hole ({}) must differ from the in-spot ({})", self.come_out, self.in_spot)));
        }
        range(&mut bad, "home_size", self.home_size, 1, MAX_HOME);
        if self.home_size < self.pegs {
            bad.push(Invalid::new(
                "home_size",
                format!("a home of {} holes cannot hold {} pegs; allowed: pegs ({}) to {MAX_HOME}", self.home_size, self.pegs, self.pegs),
            ));
        }
        range(&mut bad, "decks", self.deck_count(), 1, MAX_DECKS);
        range(&mut bad, "jokers", self.joker_count(), 0, MAX_JOKERS);
        range(&mut bad, "deal", self.deal, 1, self.hand_size.max(1));
        let need = self.players.saturating_mul(self.hand_size).saturating_add(1);
        if self.cards() < need {
            bad.push(Invalid::new(
                "decks",
                format!(
                    "{} cards cannot fill {} hands of {} and leave one to draw ({need} needed); add decks or jokers, or lower hand_size",
                    self.cards(),
                    self.players,
                    self.hand_size
                ),
            ));
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::BluffingJoker as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
