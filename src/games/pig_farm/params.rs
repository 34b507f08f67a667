//! Pig Farm's variant parameters: the TOML reference of every key with its docs/games/pig-farm.md
//! default, and the checks that turn the scoring tables into lookup arrays and reject
//! impossible set-ups (a table with a gap, a negative set count, a deck too small to deal).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Kinds of pig (5 colors x 5 shapes): also the most sets one hand can hold.
pub const KINDS: usize = 25;
/// Most base sets a deck may hold (so a set never has more than this many pigs).
pub const MAX_BASE_SETS: u32 = 10;
/// Most butcher cards a deck may hold.
pub const MAX_BUTCHERS: u32 = 30;
/// Largest starting hand.
pub const MAX_HAND_SIZE: u32 = 20;
/// Most rounds in one match.
pub const MAX_ROUNDS: u32 = 100;
/// Largest turn cap per round.
pub const MAX_TURN_CAP: u32 = 100_000;
/// Largest absolute number of points any table entry, increment or bonus may hold.
pub const MAX_POINTS: i64 = 1_000_000;

crate::games::key_table::params! {
    /// Pig Farm's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/pig-farm.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards dealt to each player at the start of a round.
        pub hand_size: u32 = 3, range(0, MAX_HAND_SIZE), note "the deck must deal every hand", unit "cards per hand";
        /// Sets a player must hold to sell the farm.
        pub min_sets_to_sell: u32 = 3, range(1, KINDS), note "the seller table must start at or below it", unit "sets to sell";
        /// Rounds in one match; the first seat moves one to the left each round.
        pub rounds: u32 = 1, range(1, MAX_ROUNDS), unit "rounds";
        /// Turns after which a round stops unsold (end reason `cap`); that round scores nothing.
        pub turn_cap: u32 = 500, range(1, MAX_TURN_CAP), unit "turns per round";
        /// Shuffle the discard pile into a new draw pile when the draw pile is empty; false: a
        /// draw from an empty pile gives nothing.
        pub reshuffle_discard: bool = true, allowed("true or false");
        /// Deck composition.
        pub deck: DeckParams = DeckParams::default(), nested;
        /// Scoring tables and bonuses.
        pub scoring: ScoringParams = ScoringParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The deck: whole base sets of pigs plus butcher cards.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DeckParams {
        /// Base sets of pigs (25 each, one per color and shape).
        pub base_sets: u32 = 3, range(2, MAX_BASE_SETS), unit "base sets",
            tail " (a set needs two identical pigs, so one base set could never be sold)";
        /// Butcher cards in the deck.
        pub butchers: u32 = 3, range(0, MAX_BUTCHERS), unit "butchers";
    }
}

crate::games::key_table::params! {
    prefix "scoring.";
    /// The scoring as tables keyed by a number written as a TOML key (`3 = 30`).
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct ScoringParams {
        /// The seller's points by number of sets held.
        pub seller: BTreeMap<String, i64> = table(&[(3, 30), (4, 50), (5, 70), (6, 100), (7, 150), (8, 200), (9, 250)]),
            allowed("rows 0 to 25 without gaps, the first at or below `min_sets_to_sell`; points -1000000 to 1000000"),
            rows "<sets>", shown "`3 = 30`, `4 = 50`, `5 = 70`, `6 = 100`, `7 = 150`, `8 = 200`, `9 = 250`";
        /// The seller's points added per set beyond the seller table's last row.
        pub seller_increment: i64 = 50, range(-MAX_POINTS, MAX_POINTS), unit "points";
        /// Each non-seller's points by number of sets held.
        pub others: BTreeMap<String, i64> = table(&[(1, 5), (2, 15), (3, 30), (4, 0), (5, -30), (6, -50), (7, -100), (8, -150), (9, -200)]),
            allowed("rows 0 to 25 without gaps, starting at 0 or 1 (0 sets score 0 unless row 0 is given); points -1000000 to 1000000"),
            rows "<sets>", shown "`1 = 5`, `2 = 15`, `3 = 30`, `4 = 0`, `5 = -30`, `6 = -50`, `7 = -100`, `8 = -150`, `9 = -200`";
        /// A non-seller's points added per set beyond the table's last row.
        pub others_increment: i64 = -50, range(-MAX_POINTS, MAX_POINTS), unit "points";
        /// The seller's bonus per set by its size in pigs: sizes below the first row get
        /// nothing, sizes above the last row get the last row's bonus.
        pub set_bonus: BTreeMap<String, i64> = table(&[(3, 50), (4, 150), (5, 250)]),
            allowed("sizes 2 to 10 without gaps; points -1000000 to 1000000"), rows "<size>", shown "`3 = 50`, `4 = 150`, `5 = 250`";
        /// The seller's bonus when no pig in hand is unmatched.
        pub all_pigs_bonus: i64 = 100, range(-MAX_POINTS, MAX_POINTS), unit "points";
    }
}

fn table(rows: &[(u32, i64)]) -> BTreeMap<String, i64> {
    rows.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

/// The scoring checked and indexed for play.
#[derive(Clone, Debug, PartialEq)]
pub struct Scoring {
    /// Seller's points by number of sets, 0..=25 (rows below `min_sets_to_sell` are unused).
    pub seller: [i64; KINDS + 1],
    /// Non-sellers' points by number of sets, 0..=25.
    pub others: [i64; KINDS + 1],
    /// Seller's bonus per set by its size in pigs, 0..=`MAX_BASE_SETS`.
    pub set_bonus: [i64; MAX_BASE_SETS as usize + 1],
    /// Seller's bonus when no pig is unmatched.
    pub all_pigs_bonus: i64,
}

impl Params {
    /// Cards in the deck: pigs plus butchers.
    pub fn deck_size(&self) -> u64 {
        self.deck.base_sets as u64 * KINDS as u64 + self.deck.butchers as u64
    }

    /// Checks every parameter and builds the scoring lookup; every problem is listed.
    pub fn check(&self) -> Result<Scoring, Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let need = self.players as u64 * self.hand_size as u64;
        if self.deck_size() < need {
            bad.push(Invalid::new(
                "deck",
                format!(
                    "the deck has {} cards but {} players x {} cards need {need} to deal every hand; add base sets or deal fewer cards",
                    self.deck_size(),
                    self.players,
                    self.hand_size
                ),
            ));
        }
        let s = &self.scoring;
        let seller_rows = rows(&mut bad, "scoring.seller", &s.seller, 0, KINDS as u32, "set counts");
        let others_rows = rows(&mut bad, "scoring.others", &s.others, 0, KINDS as u32, "set counts");
        let bonus_rows = rows(&mut bad, "scoring.set_bonus", &s.set_bonus, 2, MAX_BASE_SETS, "set sizes");
        let mut scoring =
            Scoring { seller: [0; KINDS + 1], others: [0; KINDS + 1], set_bonus: [0; MAX_BASE_SETS as usize + 1], all_pigs_bonus: s.all_pigs_bonus };
        if let Some(first) = seller_rows.first().map(|r| r.0) {
            if first > self.min_sets_to_sell {
                bad.push(Invalid::new(
                    "scoring.seller",
                    format!(
                        "the seller table starts at {first} sets but min_sets_to_sell = {} allows selling with {} sets; add rows from `{}` or raise min_sets_to_sell",
                        self.min_sets_to_sell, self.min_sets_to_sell, self.min_sets_to_sell
                    ),
                ));
            }
            fill(&mut scoring.seller, &seller_rows, s.seller_increment, 0);
        } else {
            bad.push(Invalid::new("scoring.seller", "the seller table is empty; give points by number of sets, e.g. `3 = 30`"));
        }
        if let Some(first) = others_rows.first().map(|r| r.0) {
            if first > 1 {
                bad.push(Invalid::new(
                    "scoring.others",
                    format!("the non-seller table starts at {first} sets; it must start at `0` or `1` (0 sets score 0 unless row `0` is given)"),
                ));
            }
            fill(&mut scoring.others, &others_rows, s.others_increment, 0);
        } else {
            bad.push(Invalid::new("scoring.others", "the non-seller table is empty; give points by number of sets, e.g. `1 = 5`"));
        }
        if let Some(&(first, _)) = bonus_rows.first() {
            let last = bonus_rows.last().map_or(0, |r| r.1);
            for (i, v) in scoring.set_bonus.iter_mut().enumerate() {
                let i = i as u32;
                *v = if i < first { 0 } else { bonus_rows.get((i - first) as usize).map_or(last, |r| r.1) };
            }
        }
        if bad.is_empty() { Ok(scoring) } else { Err(bad) }
    }
}

fn check_points(bad: &mut Vec<Invalid>, key: &str, v: i64) {
    if v.unsigned_abs() > MAX_POINTS.unsigned_abs() {
        bad.push(Invalid::new(key, format!("{v} points is not allowed; allowed: -{MAX_POINTS} to {MAX_POINTS}")));
    }
}

/// Parses a table's keys as numbers in `lo..=hi` and checks that they run without gaps;
/// returns the rows sorted by key.
fn rows(bad: &mut Vec<Invalid>, key: &str, table: &BTreeMap<String, i64>, lo: u32, hi: u32, what: &str) -> Vec<(u32, i64)> {
    let mut out = Vec::new();
    for (k, &v) in table {
        let path = format!("{key}.{k}");
        match k.trim().parse::<i64>() {
            Ok(n) if n < 0 => bad.push(Invalid::new(path, format!("{n} is negative; {what} are whole numbers from {lo} to {hi}"))),
            Ok(n) if n < lo as i64 || n > hi as i64 => bad.push(Invalid::new(path, format!("{n} is out of range; {what} are whole numbers from {lo} to {hi}"))),
            Ok(n) => {
                check_points(bad, &path, v);
                out.push((n as u32, v));
            }
            Err(_) => bad.push(Invalid::new(path, format!("`{k}` is not a number; {what} are whole numbers from {lo} to {hi}"))),
        }
    }
    out.sort_by_key(|r| r.0);
    for w in out.windows(2) {
        if w[1].0 != w[0].0 + 1 {
            bad.push(Invalid::new(
                format!("{key}.{}", w[1].0),
                format!("the table has a gap: no row for {} after row {}; rows must run without gaps", w[0].0 + 1, w[0].0),
            ));
            break;
        }
    }
    out
}

/// Fills `dest` from contiguous rows; entries below the first row get `below`, entries past
/// the last row continue by `increment` per set.
fn fill(dest: &mut [i64], rows: &[(u32, i64)], increment: i64, below: i64) {
    let (first, _) = rows[0];
    let (last, last_points) = rows[rows.len() - 1];
    for (i, d) in dest.iter_mut().enumerate() {
        let i = i as u32;
        *d = if i < first {
            below
        } else if i <= last {
            rows.iter().find(|r| r.0 == i).map_or(below, |r| r.1)
        } else {
            last_points.saturating_add(increment.saturating_mul((i - last) as i64))
        };
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::PigFarm as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
