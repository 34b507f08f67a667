//! Beaver Mania's cards (its own deck, not Chroma): number cards, the joker and the eight
//! action cards, numbered in canonical order, and a hand kept as counts per kind.
//!
//! Card `n - 1` is the number card `n` (1..=20), [`JOKER`] = 20, then the action cards in
//! docs/games/beaver-mania.md order: superbeaver, thief, fairy, partybeaver, hippie, bad_guy, bodyguard, king.

use std::fmt;

use crate::games::kind_counts::KindCounts;

/// A card kind; see the module doc for the numbering.
pub type Card = u8;

/// Highest number any deck may hold.
pub const MAX_NUMBERS: usize = 20;
/// The joker.
pub const JOKER: Card = 20;
/// Superbeaver: steals 2 cards.
pub const SUPERBEAVER: Card = 21;
/// Thief: steals 1 card.
pub const THIEF: Card = 22;
/// Fairy: wishes a card from another player's hand.
pub const FAIRY: Card = 23;
/// Partybeaver: played with 3 unrelated numbers (cannot be stabbed) or alone.
pub const PARTYBEAVER: Card = 24;
/// Hippie: stands for one number of a run.
pub const HIPPIE: Card = 25;
/// Bad guy: another player takes 2 cards.
pub const BAD_GUY: Card = 26;
/// Bodyguard: the play cannot be stabbed while it holds it.
pub const BODYGUARD: Card = 27;
/// King: the other players add a card of the play's number.
pub const KING: Card = 28;
/// Number of card kinds.
pub const KINDS: usize = 29;
/// The action cards in canonical order.
pub const ACTIONS: [Card; 8] = [SUPERBEAVER, THIEF, FAIRY, PARTYBEAVER, HIPPIE, BAD_GUY, BODYGUARD, KING];
/// The action cards' keys (variant keys and readable names), in canonical order.
pub const ACTION_KEYS: [&str; 8] = ["superbeaver", "thief", "fairy", "partybeaver", "hippie", "bad_guy", "bodyguard", "king"];
/// Bit mask of the number cards in a [`Hand::held`](crate::games::kind_counts::KindCounts::held) set.
pub const NUMBER_BITS: u32 = (1 << MAX_NUMBERS) - 1;

/// The card of number `n` (1-based).
#[inline]
pub const fn number(n: u8) -> Card {
    n - 1
}

/// Whether `card` is a number card.
#[inline]
pub const fn is_number(card: Card) -> bool {
    card < JOKER
}

/// Whether `card` is an action card.
#[inline]
pub const fn is_action(card: Card) -> bool {
    card > JOKER
}

/// Readable name: `7`, `joker`, `bad guy`.
pub fn card_name(card: Card) -> String {
    let mut name = String::new();
    write_card_name(&mut name, card);
    name
}

/// [`card_name`] written onto `out` (no String of its own: observation texts write many).
pub fn write_card_name(out: &mut String, card: Card) {
    use std::fmt::Write;
    match card {
        c if is_number(c) => {
            let _ = write!(out, "{}", c + 1);
        }
        JOKER => out.push_str("joker"),
        c if (c as usize) < KINDS => out.extend(ACTION_KEYS[(c - SUPERBEAVER) as usize].chars().map(|ch| if ch == '_' { ' ' } else { ch })),
        c => {
            let _ = write!(out, "card #{c}");
        }
    }
}

/// A hand (or any multiset of cards) as counts per kind: no heap, O(1) add and remove, and a
/// bit set of the kinds present for fast scans ([`KindCounts`], shared with other games).
pub type Hand = KindCounts<KINDS>;

/// Beaver Mania's readings of a [`Hand`].
impl Hand {
    /// Number cards held.
    #[inline]
    pub fn numbers(&self) -> u32 {
        self.count_in(NUMBER_BITS)
    }

    /// Action cards held.
    #[inline]
    pub fn actions(&self) -> u32 {
        self.counts()[SUPERBEAVER as usize..].iter().map(|&n| n as u32).sum()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_named(f, card_name)
    }
}
