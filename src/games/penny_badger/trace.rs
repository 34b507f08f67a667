//! Penny Badger as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `turn`: turns played (the current one included); `phase`: `main` (the current player
//!   plays action cards or discards and claims), `challenge` (opponents are asked whether
//!   they challenge the claim on the table) or `over`; `current`: whose turn it is;
//!   `direction`: 1 in seat order, -1 after an odd number of reverses; `bank`: pennies in
//!   the bank;
//! - `players`: per seat its `hand` (card names in the game's canonical order), `savings`,
//!   `in_game`, `eliminated_at` (turn, 0 = still in) and `skips` (turns it must still lose);
//! - `draw`: the draw pile, top first (hidden from every seat); `discard`: the discard pile,
//!   top first (claims go face down, so it is hidden as a whole in a seat's view);
//! - `claim`: the claim on the table (`claimer`, `claim`: `nothing`, `wild` or a card such as
//!   `blue star`, `count` of cards discarded for it, `truthful` (hidden), `challengers` so
//!   far, `to_ask` in order), or null; `end_reason` once over.
//!
//! Actions: `{"play": {"card": "skip", "target": 2, "give": "red square"}}` (`target` only
//! matters to targeted cards, `give` only to trade-one-card), `{"discard": {"cards": [0, 2],
//! "claim": "blue star"}}` (hand positions, from 0, in the hand's order) and
//! `{"challenge": true}`.
//!
//! Chance: `deal` (a seat's starting hand), `draw` (a card from the draw pile), `reshuffle`
//! (the discard pile shuffled into a new draw pile: `cards`, its size, and `order`, the new
//! pile top first, which no seat sees), `take_random` (trade-one-card's random card from the
//! target) and `remove_random` (remove-a-card's random card, to the discard pile).

use serde::Serialize;

use super::rules::{Phase, State};
use super::{Claim, END_REASONS, Event, PennyBadger};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chance::CardChance;
use crate::games::chroma::{card_names, card_str, cell_from_name, cell_name, pile_names};

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, canonical order.
    pub hand: Vec<&'static str>,
    /// Savings in pennies.
    pub savings: u32,
    /// Whether the seat is still in the game.
    pub in_game: bool,
    /// Turn of elimination, 0 while in.
    pub eliminated_at: u32,
    /// Turns it must still lose to skip cards.
    pub skips: u8,
}

/// The claim on the table.
#[derive(Serialize)]
pub struct TracedClaim {
    /// Who claimed.
    pub claimer: u8,
    /// What was claimed.
    pub claim: Claim,
    /// Cards discarded face down for it.
    pub count: u8,
    /// Whether the claim is true (hidden until a challenge).
    pub truthful: bool,
    /// Seats that challenged so far.
    pub challengers: Vec<u8>,
    /// Seats still to be asked, in order.
    pub to_ask: Vec<u8>,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Turns played, the current one included.
    pub turn: u32,
    /// `main`, `challenge` or `over`.
    pub phase: &'static str,
    /// Whose turn it is.
    pub current: u8,
    /// 1 in seat order, -1 reversed.
    pub direction: i8,
    /// Pennies in the bank.
    pub bank: u32,
    /// Every seat.
    pub players: Vec<Player>,
    /// Draw pile, top first.
    pub draw: Vec<&'static str>,
    /// Discard pile, top first.
    pub discard: Vec<&'static str>,
    /// The claim on the table during a challenge.
    pub claim: Option<TracedClaim>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Penny Badger (module doc).
///
/// The draws, deals and reshuffles every card game records are [`CardChance`]'s; these are
/// this game's own.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnChance {
    /// trade-one-card: a random card of the target's hand taken by the player.
    TakeRandom {
        /// The player.
        seat: u8,
        /// The target.
        from: u8,
        /// The card taken (none when the target's hand was empty).
        card: Option<&'static str>,
    },
    /// remove-a-card: a random card of the target's hand put on the discard pile.
    RemoveRandom {
        /// The target.
        from: u8,
        /// The card removed.
        card: &'static str,
    },
}

/// A random event as the trace records it.
type Chance = CardChance<&'static str, OwnChance>;

impl From<Claim> for String {
    fn from(c: Claim) -> String {
        match c {
            Claim::Nothing => "nothing".into(),
            Claim::Wild => "wild".into(),
            Claim::Set(cell) => cell_name(cell),
        }
    }
}

impl TryFrom<String> for Claim {
    type Error = String;
    fn try_from(s: String) -> Result<Claim, String> {
        match s.as_str() {
            "nothing" => Ok(Claim::Nothing),
            "wild" => Ok(Claim::Wild),
            _ => cell_from_name(&s)
                .map(Claim::Set)
                .ok_or_else(|| format!("unknown claim `{s}`; a claim is `nothing`, `wild` or a color and shape such as `blue star`")),
        }
    }
}

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw", "discard", "claim/truthful"];

impl Traces for PennyBadger {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let n = self.seats();
        serde_json::to_value(Table {
            turn: s.turns,
            phase: match s.phase {
                Phase::Main => "main",
                Phase::Challenge => "challenge",
                Phase::Over => "over",
            },
            current: s.current,
            direction: s.direction,
            bank: s.bank,
            players: (0..n)
                .map(|seat| Player {
                    hand: card_names(s.hands[seat].cards()),
                    savings: s.savings[seat],
                    in_game: s.alive & (1 << seat) != 0,
                    eliminated_at: s.eliminated_at[seat],
                    skips: s.skips[seat],
                })
                .collect(),
            draw: pile_names(&s.draw),
            discard: pile_names(&s.discard),
            claim: s.claim.filter(|_| s.phase == Phase::Challenge).map(|c| TracedClaim {
                claimer: c.claimer,
                claim: c.claim,
                count: c.count,
                truthful: c.truthful,
                challengers: (0..n as u8).filter(|&t| c.challengers & (1 << t) != 0).collect(),
                to_ask: c.order[c.asked as usize..c.order_len as usize].to_vec(),
            }),
            end_reason: (s.phase == Phase::Over).then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance = match *event {
            Event::Dealt { seat, hand } => Chance::Deal { seat, hand: card_names(hand.cards()) },
            Event::Drew { seat, card } => Chance::Draw { seat, card: card_str(card) },
            Event::Reshuffled { ref order } => Chance::reshuffle(order, card_str),
            Event::TradedOne { seat, target, took, .. } => Chance::Own(OwnChance::TakeRandom { seat, from: target, card: took.map(card_str) }),
            Event::Removed { target, card } => Chance::Own(OwnChance::RemoveRandom { from: target, card: card_str(card) }),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::{Action, Decision};
        let hand = view.hand;
        Some(match (*action, view.decision) {
            (Action::Play { card, .. }, Decision::Turn) if !hand.contains(&card) => format!("seat {} does not hold a {} card", view.seat, card_str(card)),
            (Action::Play { card, .. }, Decision::Turn) if crate::games::chroma::action_of(card).is_none() => {
                format!("{} is not an action card: only action cards are played, other cards are discarded with a claim", card_str(card))
            }
            (Action::Discard { cards, .. }, Decision::Turn) if hand.len() < 32 && cards >> hand.len() != 0 => {
                format!(
                    "the hand holds {} cards (positions 0 to {}); the discard names position {}",
                    hand.len(),
                    hand.len().saturating_sub(1),
                    31 - cards.leading_zeros()
                )
            }
            (Action::Discard { cards, claim: Claim::Nothing | Claim::Wild }, Decision::Turn) if cards.count_ones() != 1 => {
                format!("a claim of nothing or of a wild discards exactly one card, not {}", cards.count_ones())
            }
            (Action::Discard { cards, claim: Claim::Set(_) }, Decision::Turn) if !(2..=self.payout.max_claim()).contains(&(cards.count_ones() as usize)) => {
                format!("a claim of a set discards 2 to {} cards, not {}", self.payout.max_claim(), cards.count_ones())
            }
            (Action::Challenge(_), Decision::Turn) => "there is no claim to challenge: it is the seat's own turn".into(),
            (Action::Play { .. } | Action::Discard { .. }, Decision::Challenge { .. }) => {
                "the seat is asked whether it challenges the claim, not to play".into()
            }
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let goal = "Discard cards face down and claim what they are to withdraw pennies from the bank; a claim may be challenged, and the wrong side pays. A player with no savings is out. The game ends when the bank is empty or one player is left; the most savings win (ties share).".to_string();
        let seat = s.current;
        let claimed = |c: &super::rules::TableClaim| match c.claim {
            Claim::Nothing => format!("seat {} discarded 1 card claiming nothing", c.claimer),
            Claim::Wild => format!("seat {} claims its 1 card is a wild", c.claimer),
            Claim::Set(cell) => format!("seat {} claims {} x {}", c.claimer, c.count, cell_name(cell)),
        };
        let now = match (s.phase, &s.claim) {
            (Phase::Main, _) => format!("seat {seat} plays action cards, or discards and claims"),
            (Phase::Challenge, Some(c)) => {
                let asked = c.order[c.asked.min(c.order_len.saturating_sub(1)) as usize];
                format!("{}: seat {asked} decides whether to challenge", claimed(c))
            }
            (Phase::Challenge, None) => "a claim is being challenged".into(),
            (Phase::Over, _) => String::new(),
        };
        let mut facts = vec![format!("turn {}", s.turns), format!("bank: {} pennies", s.bank)];
        if s.direction < 0 {
            facts.push("play goes against seat order".into());
        }
        if let Some(c) = &s.claim {
            facts.push(format!("on the table: {}", claimed(c)));
        }
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![Zone::new("draw", "draw pile", Lay::Pile), Zone::new("discard", "discard pile (face down)", Lay::Pile)],
            seat_zones: vec![Zone::new("players/*/hand", "hand", Lay::Cards)],
            seat_facts: (0..self.params.players as usize)
                .map(|q| match (s.eliminated_at[q], s.skips[q]) {
                    (t, _) if t > 0 => format!("out of the game since turn {t}"),
                    (_, k) if k > 0 => format!("loses its next {k} turn(s)"),
                    _ => String::new(),
                })
                .collect(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "bank_empty") => "the bank is empty".into(),
                (Phase::Over, "last_standing") => "only one player has savings left".into(),
                (Phase::Over, _) => "the turn cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let n = self.params.players as usize;
        let mut out = format!("end: {} after {} turns; bank {}\n", END_REASONS[s.end_reason as usize], s.turns, s.bank);
        for seat in 0..n {
            out.push_str(&format!(
                "  seat {seat}: savings {}{}\n",
                s.savings[seat],
                if s.eliminated_at[seat] > 0 { format!(" (eliminated in turn {})", s.eliminated_at[seat]) } else { String::new() }
            ));
        }
        out
    }
}
