//! Penny Badger: a bluffing game of claims on a shared bank (docs/games/penny-badger.md).
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/penny-badger.md; a player at the table would expect them):
//! - "Clockwise" for odd pennies means increasing seat number, whatever the direction of
//!   play; challengers are asked in the current direction of play from the claimer's next
//!   seat.
//! - A skipped turn is not a turn played: it does not count towards `turn_cap` or the
//!   game length. A skip lands on the next live player at the moment the card is played.
//! - A player whose turn comes with an empty hand (cards removed, piles exhausted) makes
//!   no claim and pays nothing; they refill and play moves on.
//! - trade-one-card: the card to give is chosen when the card is played, from the cards
//!   other than the action card; the target's random card is taken before the given card
//!   joins their hand. Action cards target live opponents only.
//! - A penalty of "savings" (the 8-card row) is the payer's whole savings, paid to the bank
//!   first, so the players owed get nothing (the payment rule: bank first).
//! - Hands never exceed 12 cards: an add-card play that would pass that is illegal.
//! - `random` picks uniformly among legal actions where a discard is a set of hand
//!   positions with a claim, so it rarely plays action cards.

mod audit;
mod bots;
mod determinize;
mod metrics;
pub mod params;
mod piles;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod view;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{self, ActionCard, BADGER_ACTIONS, Card, Cell, card_name, cards_text, cell_name, is_action, is_wild, matches};
use crate::variant::Invalid;

pub use metrics::BadgerMetrics;
pub use params::{Amount, Params, Payout};
use params::{HAND_CAP, MAX_PLAYERS};
pub use rules::{END_REASONS, Hand, Phase, State};
pub use view::View;

/// What a discard claims; in traces `nothing`, `wild` or a card such as `blue star`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Claim {
    /// One card, "nothing": pay 1 to the bank, no challenge.
    Nothing,
    /// One card claimed to be a wild.
    Wild,
    /// k >= 2 cards claimed to match this (color, shape).
    Set(Cell),
}

/// One decision of a Penny Badger seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play an action card (`target` for the targeted ones, `give` for trade-one-card).
    Play {
        /// The action card.
        #[serde(with = "chroma::by_name")]
        card: Card,
        /// Target seat (ignored by untargeted cards).
        target: u8,
        /// Card given with trade-one-card (ignored otherwise).
        #[serde(with = "chroma::by_name")]
        give: Card,
    },
    /// Discard the hand positions in the bit mask face down and claim.
    Discard {
        /// Bit i = hand position i (in traces: the list of positions).
        #[serde(with = "chroma::positions")]
        cards: u32,
        /// The claim.
        claim: Claim,
    },
    /// Answer whether to challenge the claim on the table.
    Challenge(bool),
}

/// What is being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The seat's own turn: play action cards or discard and claim.
    Turn,
    /// Whether to challenge `claimer`'s claim of `count` cards.
    Challenge {
        /// Who claimed.
        claimer: u8,
        /// What.
        claim: Claim,
        /// How many cards were discarded for it.
        count: u8,
        /// Seats that already challenged (asked earlier).
        earlier: u16,
    },
}

/// Penny Badger with one variant's parameters, ready to play.
pub struct PennyBadger {
    /// The variant's parameters.
    pub params: Params,
    /// The checked payout table.
    pub payout: Payout,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Copies of each card in the deck.
    pub copies: [u32; chroma::CARD_KINDS],
    /// `payout` as plain numbers, by claim size and kind (`rules::settle_rows`).
    settle_rows: Vec<rules::SettleRow>,
}

impl PennyBadger {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        let payout = params.check()?;
        let spec = params.deck.spec();
        let deck = spec.cards(&BADGER_ACTIONS);
        let copies = spec.copies(&BADGER_ACTIONS);
        let settle_rows = rules::settle_rows(&payout);
        Ok(PennyBadger { params, payout, deck, copies, settle_rows })
    }

    /// Most cards of the deck that can match one (color, shape): claims above this are
    /// always bluffs.
    pub fn max_matching(&self) -> u32 {
        (0..25).map(|cell| (0..chroma::CARD_KINDS).filter(|&c| matches(c as Card, cell)).map(|c| self.copies[c]).sum()).max().unwrap_or(0)
    }

    /// Whether `seat` may aim a targeted action card at `target`.
    fn can_target(view: &View, target: usize) -> bool {
        target != view.seat && view.alive() & (1 << target) != 0
    }

    /// Whether the action card may be played now (add-cards must not overflow the hand).
    fn playable(view: &View, action: ActionCard) -> bool {
        let after = view.hand.len(); // -1 for the card, +1 replacement
        match action {
            ActionCard::AddACard => after < HAND_CAP,
            ActionCard::AddTwoCards => after + 1 < HAND_CAP,
            ActionCard::TradeOneCard => view.hand.len() >= 2,
            ActionCard::Dice => false,
            _ => true,
        }
    }

    /// Whether `give` is held apart from the played `card` (trade-one-card).
    fn can_give(hand: &[Card], card: Card, give: Card) -> bool {
        let held = hand.iter().filter(|&&c| c == give).count();
        held > usize::from(give == card)
    }

    fn targeted(action: ActionCard) -> bool {
        matches!(action, ActionCard::TradeOneCard | ActionCard::TradeHands | ActionCard::RemoveACard | ActionCard::RemoveTwoCards)
    }
}

/// What happened, for traces and for bots that count cards.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat's starting hand (seen by that seat only).
    Dealt { seat: u8, hand: Hand },
    /// A turn begins.
    TurnStarts { turn: u32, seat: u8, hand: Hand, bank: u32 },
    /// A seat lost its turn to a skip.
    Skipped { seat: u8 },
    /// A seat had no cards at its turn.
    EmptyHand { seat: u8 },
    /// A seat drew a card (seen by that seat only).
    Drew { seat: u8, card: Card },
    /// The discard pile became the draw pile: `order` is the new pile as the state holds it,
    /// bottom first (the last card is drawn first). No seat sees it: traces record it, bots
    /// must not read it.
    Reshuffled { order: Vec<Card> },
    /// An action card was played.
    PlayedAction { seat: u8, action: ActionCard, target: u8 },
    /// trade-one-card: seen by the two seats involved.
    TradedOne { seat: u8, target: u8, gave: Card, took: Option<Card> },
    /// trade-hands: each seat sees its new hand.
    TradedHands { seat: u8, target: u8, now: Hand, their: Hand },
    /// A card removed from the target's hand to the discard pile (face down: nobody sees it).
    Removed { target: u8, card: Card },
    /// A discard and claim (the cards are face down: only the claimer sees them).
    Claimed { seat: u8, claim: Claim, count: u8, cards: Hand },
    /// A seat answered whether it challenges.
    Answered { seat: u8, challenge: bool },
    /// The claim's cards turned over after a challenge.
    Revealed { seat: u8, cards: Hand, truthful: bool },
    /// The claimer took a withdrawal.
    Withdrew { seat: u8, pennies: u32 },
    /// A payment: to the bank and to each player.
    Paid { payer: u8, bank: u32, players: [u32; MAX_PLAYERS] },
    /// A seat left the game.
    Eliminated { seat: u8, turn: u32 },
    /// The game ended.
    GameOver { reason: u8, turns: u32 },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        let seat = seat as u8;
        match self {
            Event::Dealt { seat: s, .. } | Event::Drew { seat: s, .. } | Event::Claimed { seat: s, .. } => *s == seat,
            Event::TurnStarts { .. } => true,
            Event::TradedOne { seat: s, target, .. } | Event::TradedHands { seat: s, target, .. } => *s == seat || *target == seat,
            Event::Removed { .. } => false,
            _ => true,
        }
    }
}

fn claim_text(claim: Claim, count: u8) -> String {
    match claim {
        Claim::Nothing => "nothing".into(),
        Claim::Wild => "a wild".into(),
        Claim::Set(cell) => format!("{count} x {}", cell_name(cell)),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, hand } => write!(f, "seat {seat} is dealt [{}]", cards_text(hand.cards())),
            Event::TurnStarts { turn, seat, hand, bank } => write!(f, "\n-- turn {turn}: seat {seat} holds [{}]; bank {bank}", cards_text(hand.cards())),
            Event::Skipped { seat } => write!(f, "seat {seat} is skipped"),
            Event::EmptyHand { seat } => write!(f, "seat {seat} has no cards and cannot discard"),
            Event::Drew { seat, card } => write!(f, "  seat {seat} draws {}", card_name(*card)),
            Event::Reshuffled { order } => write!(f, "  the discard pile is shuffled into a new draw pile of {} cards", order.len()),
            Event::PlayedAction { seat, action, target } => {
                let name = card_name(*action as Card);
                if PennyBadger::targeted(*action) { write!(f, "  seat {seat} plays {name} on seat {target}") } else { write!(f, "  seat {seat} plays {name}") }
            }
            Event::TradedOne { seat, target, gave, took } => write!(
                f,
                "  seat {seat} gives {} to seat {target} and takes {}",
                card_name(*gave),
                took.map(card_name).unwrap_or_else(|| "nothing (empty hand)".into())
            ),
            Event::TradedHands { seat, target, now, their } => {
                write!(
                    f,
                    "  seat {seat} and seat {target} swap hands: seat {seat} now [{}], seat {target} [{}]",
                    cards_text(now.cards()),
                    cards_text(their.cards())
                )
            }
            Event::Removed { target, card } => write!(f, "  {} is removed from seat {target}'s hand", card_name(*card)),
            Event::Claimed { seat, claim, count, cards } => {
                let truth = match claim {
                    Claim::Nothing => "",
                    Claim::Wild => {
                        if is_wild(cards.cards()[0]) {
                            " (true)"
                        } else {
                            " (a bluff)"
                        }
                    }
                    Claim::Set(cell) => {
                        if cards.cards().iter().all(|&c| matches(c, *cell)) {
                            " (true)"
                        } else {
                            " (a bluff)"
                        }
                    }
                };
                write!(f, "  seat {seat} discards [{}] and claims {}{truth}", cards_text(cards.cards()), claim_text(*claim, *count))
            }
            Event::Answered { seat, challenge } => write!(f, "  seat {seat} {}", if *challenge { "CHALLENGES" } else { "lets it stand" }),
            Event::Revealed { seat, cards, truthful } => {
                write!(f, "  seat {seat} reveals [{}]: {}", cards_text(cards.cards()), if *truthful { "the claim was true" } else { "caught bluffing" })
            }
            Event::Withdrew { seat, pennies } => write!(f, "  seat {seat} withdraws {pennies} from the bank"),
            Event::Paid { payer, bank, players } => {
                write!(f, "  seat {payer} pays {bank} to the bank")?;
                for (s, &p) in players.iter().enumerate().filter(|(_, p)| **p > 0) {
                    write!(f, ", {p} to seat {s}")?;
                }
                Ok(())
            }
            Event::Eliminated { seat, turn } => write!(f, "  seat {seat} is ELIMINATED in turn {turn}"),
            Event::GameOver { reason, turns } => write!(f, "\n== game over after {turns} turns: {}", END_REASONS[*reason as usize]),
        }
    }
}

/// Whether a card is of no use to a claim (an action card).
#[inline]
pub fn is_dead_weight(card: Card) -> bool {
    is_action(card)
}

impl crate::games::Registered for PennyBadger {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        PennyBadger::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "basic:bluff=0.3:challenge=0.3", sets: &["deck.action_sets=0"] }
    }
}
