//! Penny Badger's variant parameters: the TOML reference of every key, with defaults from
//! docs/games/penny-badger.md, and the checks that reject impossible set-ups.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::games::chroma::{BADGER_ACTIONS, MAX_SETS};
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Largest hand a player may hold; add-card plays that would pass it are illegal.
pub const HAND_CAP: usize = crate::games::chroma::HAND_CAP;
/// Most pennies in the bank (and ten times the most a player starts with): all the money on
/// the table then fits the 32-bit counts with room to spare.
pub const MAX_PENNIES: u32 = 1_000_000_000;
/// Largest `hand_size`.
pub const MAX_HAND_SIZE: u32 = 10;
/// Largest turn cap (a capped game then still takes well under a second).
pub const MAX_TURN_CAP: u32 = 100_000;
/// Largest claim the payout table may list.
pub const MAX_CLAIM: usize = 10;

/// An amount of pennies in the payout table: a number, or everything there is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// This many pennies.
    Pennies(u32),
    /// The whole bank (a withdrawal, written `"bank"`) or the payer's whole savings (a
    /// penalty, written `"savings"`).
    All,
}

impl Amount {
    /// The pennies meant when the whole pool holds `pool`.
    #[inline]
    pub fn of(self, pool: u32) -> u32 {
        match self {
            Amount::Pennies(n) => n,
            Amount::All => pool,
        }
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Amount::Pennies(n) => write!(f, "{n}"),
            Amount::All => write!(f, "all"),
        }
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Amount;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a whole number of pennies >= 0, or \"bank\" / \"savings\" for all of it")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Amount, E> {
                u32::try_from(v)
                    .map(Amount::Pennies)
                    .map_err(|_| E::custom(format!("{v} is not allowed: amounts are whole numbers of pennies from 0 to {}", u32::MAX)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Amount, E> {
                self.visit_i64(v.min(i64::MAX as u64) as i64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Amount, E> {
                match v {
                    "bank" | "savings" | "all" => Ok(Amount::All),
                    _ => Err(E::custom(format!("\"{v}\" is not an amount; write a number of pennies, \"bank\" or \"savings\""))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

crate::games::key_table::params! {
    prefix "payout.<row>.";
    required;
    /// One row of the payout table as written in TOML (`[payout.wild]`, `[payout.2]`, ...).
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct PayoutRowSpec {
        /// Pennies taken from the bank when the claim of that row stands. Rows: `wild`, then
        /// claim sizes `2`, `3`, ... up to 10 without gaps; the last row is the largest claim.
        pub withdrawal: Amount = required, allowed("pennies, or `\"bank\"` for the whole bank"),
            shown "required in every row (standard: wild 3, then 4, 8, 16, 32, 64, 128, `\"bank\"` for rows 2 to 8)";
        /// Rows 2 and up: what a caught bluffer pays the bank and each accuser, and what each
        /// wrong accuser pays the bank and the claimer.
        pub penalty: Option<Amount> = None, allowed("pennies, or `\"savings\"` for all the payer's savings; not in the wild row"),
            shown "required in rows 2 and up (standard: 2, 4, 8, 16, 32, 64, `\"savings\"`)";
        /// Wild row: what each wrong accuser pays the bank and the claimer.
        pub accuser_penalty: Option<Amount> = None, allowed("pennies, or `\"savings\"`"), shown "1 (wild row only)";
        /// Wild row: what a caught bluffer pays the bank and each accuser.
        pub bluffer_penalty: Option<Amount> = None, allowed("pennies, or `\"savings\"`"), shown "2 (wild row only)";
    }
}

crate::games::key_table::params! {
    required;
    /// Penny Badger's parameters as they appear in a variant file: every key is required (the
    /// standard values are those of variants/penny-badger/standard.toml).
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = required, range(2, MAX_PLAYERS), shown "required (standard: 4)", unit "players";
        /// Cards a hand is refilled to at the end of a turn.
        pub hand_size: u32 = required, documented(1, MAX_HAND_SIZE), shown "required (standard: 5)";
        /// Pennies in the bank at the start.
        pub bank: u32 = required, documented(0, MAX_PENNIES), shown "required (standard: 100)";
        /// Pennies each player starts with.
        pub starting_savings: u32 = required, documented(1, MAX_PENNIES / 10), shown "required (standard: 20)";
        /// Turns after which the game stops with end reason `cap`.
        pub turn_cap: u32 = required, range(1, MAX_TURN_CAP), shown "required (standard: 1000)", tail " turns";
        /// Shuffle the discard pile into a new draw pile when the draw pile is empty.
        pub reshuffle_discard: bool = required, allowed("true or false"), shown "required (standard: true)";
        /// Withdrawal and penalties by claim: `wild`, then `2`, `3`, ... without gaps.
        pub payout: BTreeMap<String, PayoutRowSpec> = required, table(PayoutRowSpec);
        /// Deck composition (the standard: Deck A + Deck B, 2 of each set).
        pub deck: DeckParams = required, nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    required;
    /// The `[deck]` table, read as the shared Chroma [`DeckSpec`](crate::games::chroma::DeckSpec):
    /// every set count is required.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct DeckParams {
        /// Base sets (25 cards each, one per color and shape).
        pub base_sets: u32 = required, documented(0, MAX_SETS), shown "required (standard: 2)", note "the deck must deal every hand";
        /// Colors sets (5 color wilds and 1 all-colors wild each).
        pub colors_sets: u32 = required, documented(0, MAX_SETS), shown "required (standard: 2)";
        /// Shapes sets (5 shape wilds and 1 all-shapes wild each).
        pub shapes_sets: u32 = required, documented(0, MAX_SETS), shown "required (standard: 2)";
        /// Action sets (one of each of the 8 action cards: skip, reverse, trade one card, trade
        /// hands, add a card, add two cards, remove a card, remove two cards).
        pub action_sets: u32 = required, documented(0, MAX_SETS), shown "required (standard: 2)";
        /// Per-kind overrides of the copies of each card.
        #[serde(default)]
        pub counts: CountsParams = required, nested;
    }
}

crate::games::chroma::deck_counts! {
    /// The `[deck.counts]` table: copies of each card of a kind, replacing what the sets give
    /// (the shared Chroma [`DeckCounts`](crate::games::chroma::DeckCounts)).
    pub struct CountsParams in DeckParams;
    played: documented(0, MAX_SETS);
    meaning dice "Copies of the dice card, replacing what the sets give (not one of Penny Badger's action cards).";
}

/// The payout table checked and indexed by claim size.
#[derive(Clone, Debug, PartialEq)]
pub struct Payout {
    /// Wild claim withdrawal.
    pub wild_withdrawal: Amount,
    /// Wild claim: what each wrong accuser pays the bank and the claimer.
    pub wild_accuser_penalty: Amount,
    /// Wild claim: what a caught bluffer pays the bank and each accuser.
    pub wild_bluffer_penalty: Amount,
    /// Withdrawal of a k-card claim at index k (indices 0 and 1 unused).
    pub withdrawal: Vec<Amount>,
    /// Penalty of a k-card claim at index k.
    pub penalty: Vec<Amount>,
}

impl Payout {
    /// The largest claim the table allows.
    pub fn max_claim(&self) -> usize {
        self.withdrawal.len() - 1
    }
}

impl Params {
    /// Checks the parameters and builds the indexed payout table; every problem is listed.
    pub fn check(&self) -> Result<Payout, Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        if !(1..=MAX_HAND_SIZE).contains(&self.hand_size) {
            bad.push(Invalid::new("hand_size", format!("hand size {} is not allowed; allowed: 1 to {MAX_HAND_SIZE}", self.hand_size)));
        }
        if self.starting_savings == 0 {
            bad.push(Invalid::new("starting_savings", "players must start with at least 1 penny (0 would eliminate them before they play)"));
        } else if self.starting_savings > MAX_PENNIES / 10 {
            bad.push(Invalid::new("starting_savings", format!("{} pennies is too many; allowed: 1 to {}", self.starting_savings, MAX_PENNIES / 10)));
        }
        if self.bank > MAX_PENNIES {
            bad.push(Invalid::new("bank", format!("{} pennies is too many; allowed: 0 to {MAX_PENNIES}", self.bank)));
        }
        let spec = self.deck.spec();
        spec.check(&mut bad);
        // Counted, not built: an absurd count is reported by `spec.check` above, never allocated.
        let deck: u64 = spec.copies(&BADGER_ACTIONS).iter().map(|&n| n as u64).sum();
        let need = self.players as u64 * self.hand_size as u64;
        if deck < need {
            bad.push(Invalid::new(
                "deck",
                format!("the deck has {deck} cards but {} players x {} cards need {need} to deal every hand", self.players, self.hand_size),
            ));
        }
        let payout = self.check_payout(&mut bad);
        if bad.is_empty() { Ok(payout) } else { Err(bad) }
    }

    fn check_payout(&self, bad: &mut Vec<Invalid>) -> Payout {
        let mut payout = Payout {
            wild_withdrawal: Amount::Pennies(3),
            wild_accuser_penalty: Amount::Pennies(1),
            wild_bluffer_penalty: Amount::Pennies(2),
            withdrawal: vec![Amount::Pennies(0); 2],
            penalty: vec![Amount::Pennies(0); 2],
        };
        let mut sizes = Vec::new();
        for (key, row) in &self.payout {
            if key == "wild" {
                if row.penalty.is_some() {
                    bad.push(Invalid::new("payout.wild.penalty", "the wild row has `accuser_penalty` and `bluffer_penalty`, not `penalty`"));
                }
                payout.wild_withdrawal = row.withdrawal;
                payout.wild_accuser_penalty = row.accuser_penalty.unwrap_or(Amount::Pennies(1));
                payout.wild_bluffer_penalty = row.bluffer_penalty.unwrap_or(Amount::Pennies(2));
                continue;
            }
            match key.parse::<usize>() {
                Ok(k) if (2..=MAX_CLAIM).contains(&k) => {
                    if row.accuser_penalty.is_some() || row.bluffer_penalty.is_some() {
                        bad.push(Invalid::new(
                            format!("payout.{key}"),
                            "rows 2 and up have one `penalty`; `accuser_penalty`/`bluffer_penalty` belong to the wild row",
                        ));
                    }
                    if row.penalty.is_none() {
                        bad.push(Invalid::new(format!("payout.{key}"), "missing key `penalty`"));
                    }
                    sizes.push((k, row.withdrawal, row.penalty.unwrap_or(Amount::Pennies(0))));
                }
                _ => bad.push(Invalid::new(format!("payout.{key}"), format!("`{key}` is not a payout row; allowed: `wild` and claim sizes 2 to {MAX_CLAIM}"))),
            }
        }
        if !self.payout.contains_key("wild") {
            bad.push(Invalid::new("payout", "the payout table needs a `wild` row"));
        }
        sizes.sort_by_key(|r| r.0);
        if sizes.is_empty() {
            bad.push(Invalid::new("payout", "the payout table needs rows from `2` up"));
        }
        for (i, (k, w, p)) in sizes.iter().enumerate() {
            if *k != i + 2 {
                bad.push(Invalid::new(
                    format!("payout.{k}"),
                    format!("the payout table has a gap: row {} is missing; rows must run 2, 3, ... without gaps", i + 2),
                ));
                break;
            }
            payout.withdrawal.push(*w);
            payout.penalty.push(*p);
        }
        payout
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::PennyBadger as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
