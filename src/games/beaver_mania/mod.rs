//! Beaver Mania: stab, steal and shed your hand onto your own pile (docs/games/beaver-mania.md, "Beaver
//! Mania"; rulebook `seeds/003_144afd9135c0f2ba.txt`).
//!
//! Cards are the game's own ([`cards`]): numbers 1..`numbers`, the joker, and the eight
//! action cards in canonical order (superbeaver, thief, fairy, partybeaver, hippie, bad_guy,
//! bodyguard, king). A turn is a series of small decisions ([`Action`]), each of the seat
//! named by [`rules::Step`]: the active player's play ([`plays::Play`]: the hand cards and
//! the Hippie's number); which number of the display to stab; take or put away each stabbed
//! top play; each steal (source and card); the fairy's wish (player and card); the bad
//! guy's victim and each of the victim's two cards (draw pile or a stock card); then each
//! victim's draws, one card at a time, decided by the victim.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/beaver-mania.md; what a player at the table would expect):
//! - A decision with exactly one option is made at once by the rules (the only number the
//!   display offers, the only steal, the only victim with two players, a draw when the stock
//!   is empty); the play itself is always asked.
//! - Which top plays a play stabs is decided when it is made: stabbing the display first
//!   changes nothing on the piles. Take-or-put-away is asked pile by pile in turn order
//!   from the active player's left.
//! - A lone Partybeaver is an action card alone (a single joker stabs it); only the
//!   Partybeaver with its three numbers cannot be stabbed.
//! - The Hippie's declared number stays with its play: what steals leave of a Hippie run
//!   is judged with that declaration (Hippie + 5 + 6 declared as 4 is the run 4-6; if
//!   the declaration no longer fits, the remnant forms no play unless it is a legal play
//!   without it, e.g. Hippie + 5 is 5 with an action card).
//! - What the King adds joins the King player's top play, which is judged again (its size
//!   grows, so other plays of the old size no longer stab it).
//! - Steals from the display or the stock are not replaced until the refill; a steal that
//!   takes the last stock card while the draw pile is empty ends the round at once.
//! - The Fairy may name any card kind the deck holds (each number, the joker, each action
//!   card with at least one copy) and any other player.
//! - A drawer (or the Bad guy's victim's chooser) taking from the stock picks the card:
//!   the stock lies face up.
//! - The active player's hand emptied by its play ends the round at once, before any stab
//!   or action (so a plain run is legal as the last cards, as docs/games/beaver-mania.md says).
//! - `turn_cap` counts turns per round; a round that completes `turn_cap` turns ends with
//!   end reason `cap` and is scored as usual.
//! - A match ("collecting points", `match_target` > 0): every round is dealt from the whole
//!   reshuffled deck and round r starts with seat r mod players; each round's winners add
//!   their round score (negative scores too). `Outcome.scores` are the match totals,
//!   `Outcome.length` the turns of all rounds; the end reason is `cap` when the match
//!   reached `max_rounds` with no total at the target, else the reason of the round that
//!   ended it (a match that reaches its target after an earlier round hit the turn cap ends
//!   by its target; the report counts games with a capped round apart,
//!   `games_with_capped_round_share`).
//! - What a bot sees ([`View`]): its own hand, the display, the stock, every pile whole
//!   (every card in it was laid face up), every hand's size, the draw pile's size, the
//!   scores; events show every public move (a card drawn from the draw pile is seen only by
//!   its drawer).
//!
//! Determinization (search bots, `determinize.rs`): the deciding seat knows its hand, the
//! display, the stock, every pile, the cards put away, every hand's size, the draw pile's
//! size, and of each other hand the cards it took face up (stabbed from the display or a
//! pile, stolen, drawn from the stock, given by a fairy) and has not played or given away
//! since: the state keeps that public record (`State::known`). The other hands' remaining
//! cards and the draw pile form one pool, shuffled and dealt back with the same sizes.
//! Forgotten (a weaker, never a cheating, search): what a fairy refused or a king did not
//! get says about a hand (it holds no such card), and what other seats' choices hint. The
//! action cards the other seats were dealt (a report tally) are blanked in a sample.

mod audit;
pub mod bots;
pub mod cards;
mod determinize;
mod metrics;
pub mod params;
pub mod plays;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod view;

use std::fmt;

use crate::engine::GameEvent;
use crate::variant::Invalid;

pub use bots::{GreedyBot, TacticianBot};
use cards::{Card, Hand, KINDS, card_name};
pub use metrics::BeaverMetrics;
pub use params::{MAX_PLAYERS, Params};
use plays::Play;
pub use rules::{END_CAP, END_HAND, END_REASONS, END_SUPPLY, Pile, RoundRecord, State, Step};
pub use view::View;

/// Where a card is taken from (`draw_pile`, `stock`, `display`, `pile` in traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The face-down draw pile.
    DrawPile,
    /// The face-up stock.
    Stock,
    /// The face-up display.
    Display,
    /// Another player's top play.
    Pile,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::DrawPile => "the draw pile",
            Source::Stock => "the stock",
            Source::Display => "the display",
            Source::Pile => "a pile",
        })
    }
}

/// One decision of a Beaver Mania seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The active player's play.
    Play(Play),
    /// Stab the display's cards of this number.
    StabDisplay(#[serde(with = "plays::by_name")] Card),
    /// The stabbed top play: `true` takes it into the hand, `false` puts it away.
    Take(bool),
    /// Steal `card` from `from` (`seat`: the victim for [`Source::Pile`], else the thief).
    Steal {
        /// Where from: display, stock or another player's top play.
        from: Source,
        /// Whose top play (for [`Source::Pile`]); otherwise the stealing seat.
        seat: u8,
        /// The card.
        #[serde(with = "plays::by_name")]
        card: Card,
    },
    /// The Fairy wishes `card` from `seat`'s hand.
    Fairy {
        /// The other player.
        seat: u8,
        /// The card named.
        #[serde(with = "plays::by_name")]
        card: Card,
    },
    /// The Bad guy's victim.
    BadGuy {
        /// The other player.
        seat: u8,
    },
    /// One card from the draw pile (`card` = [`plays::NO_CARD`]) or this stock card.
    Supply {
        /// [`Source::DrawPile`] or [`Source::Stock`].
        from: Source,
        /// The stock card taken.
        #[serde(with = "plays::by_name")]
        card: Card,
    },
}

/// Beaver Mania with one variant's parameters, ready to play.
pub struct BeaverMania {
    /// The variant's parameters.
    pub params: Params,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Copies of each card kind in the deck.
    pub copies: [u32; KINDS],
    /// Players at the table.
    pub players: usize,
    /// The highest number.
    pub numbers: u8,
    /// Card kinds the deck holds (bit per kind): what the Fairy may name.
    pub kinds: u32,
}

impl BeaverMania {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        params.check()?;
        let copies = params.deck.copies_by_kind();
        let mut deck = Vec::with_capacity(params.deck.size() as usize);
        let mut kinds = 0u32;
        for (c, &k) in copies.iter().enumerate() {
            deck.extend(std::iter::repeat_n(c as Card, k as usize));
            if k > 0 {
                kinds |= 1 << c;
            }
        }
        let players = params.players as usize;
        let numbers = params.deck.numbers as u8;
        Ok(BeaverMania { params, deck, copies, players, numbers, kinds })
    }

    /// The seats other than `seat`, in turn order from its left.
    #[inline]
    pub fn others(&self, seat: usize) -> impl Iterator<Item = usize> + use<> {
        let n = self.players;
        (1..n).map(move |i| (seat + i) % n)
    }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Debug)]
pub enum Event {
    /// A round begins.
    RoundStarts {
        /// Round index (from 0).
        round: u32,
        /// Its first seat.
        first: u8,
    },
    /// A seat's starting hand (seen by that seat only).
    Dealt {
        /// The seat.
        seat: u8,
        /// Its hand.
        hand: Hand,
    },
    /// A turn begins.
    TurnStarts {
        /// Turn number in the round.
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A seat played onto its pile.
    Played {
        /// The seat.
        seat: u8,
        /// The play.
        play: Play,
    },
    /// A seat stabbed number cards in the display and took them.
    StabbedDisplay {
        /// The stabber.
        seat: u8,
        /// The number's card.
        card: Card,
        /// How many.
        count: u8,
    },
    /// A seat stabbed another's top play.
    StabbedPile {
        /// The stabber.
        seat: u8,
        /// Whose top play.
        victim: u8,
        /// Its cards.
        cards: Hand,
        /// Taken into the hand (else put away).
        taken: bool,
    },
    /// A seat stole a card.
    Stole {
        /// The thief.
        seat: u8,
        /// Where from.
        from: Source,
        /// The victim (for a pile).
        victim: u8,
        /// The card.
        card: Card,
    },
    /// The Fairy's wish.
    Fairy {
        /// The fairy player.
        seat: u8,
        /// The other player.
        victim: u8,
        /// The card named.
        card: Card,
        /// Whether it was given.
        given: bool,
    },
    /// A player added a card to the King player's top play.
    KingAdded {
        /// Who added.
        seat: u8,
        /// The King player.
        king: u8,
        /// The card.
        card: Card,
    },
    /// A seat took a card from the draw pile (seen by that seat only) or the stock.
    Took {
        /// The seat.
        seat: u8,
        /// Where from.
        from: Source,
        /// The card.
        card: Card,
        /// Chosen by the Bad guy's player.
        bad_guy: bool,
    },
    /// The display and the stock were refilled.
    Refilled {
        /// Cards added to the display.
        display: u32,
        /// Cards added to the stock.
        stock: u32,
    },
    /// A round ended and was scored.
    RoundOver {
        /// Round index.
        round: u32,
        /// End reason.
        reason: u8,
        /// Round scores.
        scores: [i64; MAX_PLAYERS],
        /// Round winners (bit per seat).
        winners: u16,
    },
    /// The game ended.
    GameOver {
        /// End reason.
        reason: u8,
        /// Turns of all rounds.
        turns: u32,
    },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        match self {
            Event::Dealt { seat: s, .. } => *s as usize == seat,
            Event::Took { seat: s, from: Source::DrawPile, .. } => *s as usize == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoundStarts { round, first } => write!(f, "\n== round {} starts with seat {first}", round + 1),
            Event::Dealt { seat, hand } => write!(f, "seat {seat} is dealt [{hand}]"),
            Event::TurnStarts { turn, seat } => write!(f, "-- turn {turn}: seat {seat}"),
            Event::Played { seat, play } => write!(f, "  seat {seat} plays {play}"),
            Event::StabbedDisplay { seat, card, count } => {
                write!(f, "    seat {seat} stabs {count} x {} in the display and takes them", card_name(*card))
            }
            Event::StabbedPile { seat, victim, cards, taken } => {
                write!(f, "    seat {seat} stabs seat {victim}'s top play [{cards}] and {}", if *taken { "takes it" } else { "puts it away" })
            }
            Event::Stole { seat, from: Source::Pile, victim, card } => {
                write!(f, "    seat {seat} steals {} from seat {victim}'s pile", card_name(*card))
            }
            Event::Stole { seat, from, card, .. } => write!(f, "    seat {seat} steals {} from {from}", card_name(*card)),
            Event::Fairy { seat, victim, card, given } => {
                write!(f, "    seat {seat}'s fairy wishes {} from seat {victim}: {}", card_name(*card), if *given { "given" } else { "not held" })
            }
            Event::KingAdded { seat, king, card } => {
                write!(f, "    seat {seat} adds {} to seat {king}'s king play", card_name(*card))
            }
            Event::Took { seat, from, card, bad_guy } => {
                write!(f, "    seat {seat} {} {} from {from}", if *bad_guy { "is made to take" } else { "draws" }, card_name(*card))
            }
            Event::Refilled { display, stock } => write!(f, "  refill: {display} to the display, {stock} to the stock"),
            Event::RoundOver { round, reason, scores, winners } => {
                write!(f, "  round {} over ({}); scores:", round + 1, END_REASONS[*reason as usize])?;
                for (s, p) in scores.iter().enumerate() {
                    if *p != 0 || winners & (1 << s) != 0 {
                        write!(f, " seat {s} {p:+}{}", if winners & (1 << s) != 0 { " (wins)" } else { "" })?;
                    }
                }
                Ok(())
            }
            Event::GameOver { reason, turns } => write!(f, "\n== game over after {turns} turns: {}", END_REASONS[*reason as usize]),
        }
    }
}

impl crate::games::Registered for BeaverMania {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    const STRUCTURAL_KEYS: &'static [&'static str] = &["players", "match_target", "max_rounds"];
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        BeaverMania::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "greedy", sets: &[] }
    }
}
