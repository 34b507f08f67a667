//! Penny Badger's variant parameters: the TOML reference of every key, with defaults from
//! docs/games/penny-badger.md, and the checks that reject impossible set-ups.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::games::chroma::{BADGER_ACTIONS, DeckSpec};
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Largest hand a player may hold; add-card plays that would pass it are illegal.
pub const HAND_CAP: usize = crate::games::chroma::HAND_CAP;
/// Most pennies in the bank (and ten times the most a player starts with): all the money on
/// the table then fits the 32-bit counts with room to spare.
pub const MAX_PENNIES: u32 = 1_000_000_000;
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

/// One row of the payout table as written in TOML (`[payout.wild]`, `[payout.2]`, ...).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PayoutRowSpec {
    /// Pennies taken from the bank when the claim stands.
    pub withdrawal: Amount,
    /// Rows 2 and up: what a caught bluffer pays the bank and each accuser, and what each
    /// wrong accuser pays the bank and the claimer.
    pub penalty: Option<Amount>,
    /// Wild row: what each wrong accuser pays the bank and the claimer (default 1).
    pub accuser_penalty: Option<Amount>,
    /// Wild row: what a caught bluffer pays the bank and each accuser (default 2).
    pub bluffer_penalty: Option<Amount>,
}

/// Penny Badger's parameters as they appear in a variant file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Players at the table, 2 to 8. Default 4.
    pub players: u32,
    /// Cards a hand is refilled to at the end of a turn, 1 to 10. Default 5.
    pub hand_size: u32,
    /// Pennies in the bank at the start. Default 100.
    pub bank: u32,
    /// Pennies each player starts with, at least 1. Default 20.
    pub starting_savings: u32,
    /// Turns after which the game stops with end reason `cap`. Default 1000.
    pub turn_cap: u32,
    /// Shuffle the discard pile into a new draw pile when the draw pile is empty. Default true.
    pub reshuffle_discard: bool,
    /// Withdrawal and penalties by claim: `wild`, then `2`, `3`, ... without gaps.
    pub payout: BTreeMap<String, PayoutRowSpec>,
    /// Deck composition. Default Deck A + Deck B: 2 of each set.
    pub deck: DeckSpec,
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
        if !(2..=MAX_PLAYERS as u32).contains(&self.players) {
            bad.push(Invalid::new("players", format!("{} players is not allowed; allowed: 2 to {MAX_PLAYERS}", self.players)));
        }
        if !(1..=10).contains(&self.hand_size) {
            bad.push(Invalid::new("hand_size", format!("hand size {} is not allowed; allowed: 1 to 10", self.hand_size)));
        }
        if self.starting_savings == 0 {
            bad.push(Invalid::new("starting_savings", "players must start with at least 1 penny (0 would eliminate them before they play)"));
        } else if self.starting_savings > MAX_PENNIES / 10 {
            bad.push(Invalid::new("starting_savings", format!("{} pennies is too many; allowed: 1 to {}", self.starting_savings, MAX_PENNIES / 10)));
        }
        if self.bank > MAX_PENNIES {
            bad.push(Invalid::new("bank", format!("{} pennies is too many; allowed: 0 to {MAX_PENNIES}", self.bank)));
        }
        if !(1..=MAX_TURN_CAP).contains(&self.turn_cap) {
            bad.push(Invalid::new("turn_cap", format!("{} is not allowed; allowed: 1 to {MAX_TURN_CAP} turns", self.turn_cap)));
        }
        self.deck.check(&mut bad);
        // Counted, not built: an absurd count is reported by `deck.check` above, never allocated.
        let deck: u64 = self.deck.copies(&BADGER_ACTIONS).iter().map(|&n| n as u64).sum();
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
