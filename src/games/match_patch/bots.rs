//! Match Patch's bot `memory`, defined exactly in issue 12 so that anyone can reproduce its
//! results. `random` (uniform over the sources, the pile as one choice and each patch slot
//! as one, and over the card to place) is the engine's, through [`Game::random_action`].
//!
//! [`Game::random_action`]: crate::engine::Game::random_action

use super::params::KINDS;
use super::rules::{Hand, Patch, remove_at};
use super::{Action, Decision, Event, MatchPatch, View};
use crate::engine::OwnBots;
use crate::engine::rng::Chance;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};
use crate::games::chroma::Card;

/// A patch slot the bot does not remember (in [`memory_choice`]'s `slots`).
pub const FORGOTTEN: u8 = 0x40;
/// Flag of a slot placed since the bot's last decision, whose recall draw is still to be
/// made; the low bits hold the announced card.
const PENDING: u8 = 0x80;

/// `memory`'s single draw, from what it remembers of the patch: `slots[i]` is the card it
/// remembers in the slot at position `i` (0 = oldest), or `FORGOTTEN`.
/// a. If it remembers a slot holding a card identical to one in its hand, it takes that
///    slot (several: the card first in canonical order, then the oldest slot);
/// b. else, if the draw pile is not empty, it draws from the pile;
/// c. else it takes the oldest slot it does not remember, or, if it remembers them all,
///    the oldest slot.
#[inline]
pub fn memory_choice(hand: &Hand, pile: usize, slots: &[u8]) -> Action {
    let counts = hand.counts();
    let mut best: Option<(u8, usize)> = None;
    for (i, &v) in slots.iter().enumerate() {
        if v < FORGOTTEN && counts[v as usize] > 0 && best.is_none_or(|(card, _)| v < card) {
            best = Some((v, i));
        }
    }
    if let Some((_, i)) = best {
        return Action::Take(i as u16);
    }
    if pile > 0 {
        return Action::Pile;
    }
    let i = slots.iter().position(|&v| v == FORGOTTEN).unwrap_or(0);
    Action::Take(i as u16)
}

/// `memory` (parameter `recall`, 0 to 1, default 1), the plain version that follows the
/// table through events, kept as the reference [`TableMemoryBot`] is tested against (the
/// game plays the table version everywhere: it makes the same draws and choices, and it
/// can start in the middle of a game, as search rollouts do): when any card is placed in the patch
/// (by anyone, itself included) it draws once from its own stream whether it remembers
/// that slot (probability `recall`); a remembered slot stays remembered until taken. Each
/// single draw follows [`memory_choice`]; it places the card held longest. It learns only
/// what its seat sees: announced placements and which slots are taken.
///
/// The recall draws are made at its next decision, in placement order, for the slots
/// placed since then that are still in the patch (the same chances as drawing at each
/// placement: a slot taken before the bot decides again never matters to it).
pub struct MemoryBot {
    recall: Chance,
    /// Whether `recall` is 1: every slot is remembered and no draw is needed (the outcome
    /// of a draw with probability 1 is known, and the bot's stream serves nothing else).
    perfect: bool,
    /// Mirror of the patch, oldest slot first: a remembered card, [`FORGOTTEN`], or
    /// `PENDING | card` for a slot whose recall draw is still to be made.
    slots: Vec<u8>,
    /// The last `pending` slots are `PENDING` (placed since the last decision, and newer
    /// than every other slot).
    pending: usize,
    /// Remembered slots per kind.
    remembered: [u8; KINDS],
    /// Bit k set when a remembered slot holds kind k.
    known: u32,
}

const MEMORY_PARAMS: &[BotParamInfo] =
    &[BotParamInfo { name: "recall", default: 1.0, min: 0.0, max: 1.0, doc: "chance of remembering a placed card's slot (1 = perfect memory)" }];

/// The `memory` entry.
pub fn memory_info() -> BotInfo<MatchPatch> {
    BotInfo {
        name: "memory",
        // Reads nothing: the cards it has seen.
        reads: &[],
        aliases: &[],
        doc: "remembers each announced placement with chance `recall`; takes a remembered slot that pairs a card in hand (first card in canonical order, then the oldest slot), else the pile, else the oldest slot it does not remember (else the oldest); places the card held longest",
        params: MEMORY_PARAMS,
        build: |_, v| Box::new(TableMemoryBot::new(v[0])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| TableMemoryBot::new(v[0])).collect()))),
    }
}

impl MemoryBot {
    /// A memory bot remembering each placement with probability `recall`.
    pub fn new(recall: f64) -> Self {
        MemoryBot { recall: Chance::new(recall), perfect: recall >= 1.0, slots: Vec::new(), pending: 0, remembered: [0; KINDS], known: 0 }
    }

    /// Makes the recall draws of the slots placed since the last decision.
    #[inline]
    fn resolve(&mut self, rng: &mut GameRng) {
        let n = self.slots.len();
        for v in &mut self.slots[n - self.pending..] {
            if self.perfect || self.recall.hit(rng) {
                *v &= !PENDING;
                self.remembered[*v as usize] += 1;
                self.known |= 1 << *v;
            } else {
                *v = FORGOTTEN;
            }
        }
        self.pending = 0;
    }

    /// [`memory_choice`] from the kinds it remembers: only a kind both remembered and held
    /// needs a look at the slots.
    #[inline]
    fn choose(&self, hand: &Hand, pile: usize) -> Action {
        let both = self.known & hand.kinds_mask();
        let action = if both != 0 {
            let card = both.trailing_zeros() as u8;
            let i = self.slots.iter().position(|&v| v == card).unwrap_or(0);
            Action::Take(i as u16)
        } else if pile > 0 {
            Action::Pile
        } else {
            let i = self.slots.iter().position(|&v| v == FORGOTTEN).unwrap_or(0);
            Action::Take(i as u16)
        };
        debug_assert_eq!(action, memory_choice(hand, pile, &self.slots));
        action
    }
}

impl Bot<MatchPatch> for MemoryBot {
    fn name(&self) -> &str {
        "memory"
    }

    fn new_game(&mut self, _game: &MatchPatch, _seat: usize) {
        self.slots.clear();
        self.pending = 0;
        self.remembered = [0; KINDS];
        self.known = 0;
    }

    #[inline]
    fn decide(&mut self, _game: &MatchPatch, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Draw { .. } => {
                self.resolve(rng);
                debug_assert_eq!(self.slots.len(), view.patch_len(), "patch mirror in step");
                self.choose(view.hand, view.pile())
            }
            Decision::Place => Action::Place(memory_place(view.hand)),
        }
    }

    fn listens(&self) -> bool {
        true
    }

    #[inline]
    fn observe(&mut self, _seat: usize, event: &Event) {
        match *event {
            Event::Placed { card, .. } => {
                self.slots.push(PENDING | card);
                self.pending += 1;
            }
            Event::Took { index, .. } => {
                let v = remove_at(&mut self.slots, index as usize);
                if v & PENDING != 0 {
                    self.pending -= 1;
                } else if v != FORGOTTEN {
                    let r = &mut self.remembered[v as usize];
                    *r -= 1;
                    if *r == 0 {
                        self.known &= !(1 << v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The card `memory` places: the one held longest.
#[inline]
pub fn memory_place(hand: &Hand) -> Card {
    hand.oldest_card()
}

/// `memory` as a table of memory bots plays it ([`BotInfo::uniform`]): the same choices
/// from the same random draws as [`MemoryBot`], read from the view's patch rather than from
/// events, so the engine plays its quick loop (no event is built or delivered). The tests
/// compare the two on whole games.
///
/// With perfect memory (`recall` 1) every slot is remembered and no draw is made: the
/// choice is [`memory_choice`] on the patch as announced. Otherwise it remembers slots by
/// their placement numbers and, at each draw decision, makes the recall draws of the slots
/// placed since its last decision that are still in the patch, oldest first: exactly the
/// draws [`MemoryBot`] makes (a slot taken before the bot decides again never matters to
/// it). While the patch keeps its slots as bits of placement numbers
/// ([`Patch::placement_bits`]) the draws and the choice are bit operations; else a scan of
/// the slots.
pub struct TableMemoryBot {
    recall: Chance,
    perfect: bool,
    /// Bit s of word s / 64 set when the bot remembers the slot placed as number s (`recall`
    /// below 1 only; the bit of a slot no longer in the patch is never read again).
    remembered: Vec<u64>,
    /// Placement numbers below this have had their recall draw (or left the patch before).
    seen: u32,
}

impl TableMemoryBot {
    /// A memory bot remembering each placement with probability `recall`.
    pub fn new(recall: f64) -> Self {
        TableMemoryBot { recall: Chance::new(recall), perfect: recall >= 1.0, remembered: vec![0], seen: 0 }
    }

    /// [`memory_choice`] with every slot of `patch` remembered: only a kind both shown
    /// ([`Patch::kinds`]) and held needs a look at the slots ([`Patch::first_of`]).
    #[inline(always)]
    pub fn choose_perfect(hand: &Hand, pile: usize, patch: &Patch) -> Action {
        let both = patch.kinds() & hand.kinds_mask();
        if both != 0 {
            let card = both.trailing_zeros() as u8;
            return Action::Take(patch.first_of(card).unwrap_or(0) as u16);
        }
        if pile > 0 { Action::Pile } else { Action::Take(0) }
    }

    /// Whether the bot remembers the slot placed as number `serial`.
    #[inline]
    fn remembers(&self, serial: u32) -> bool {
        self.remembered.get(serial as usize / 64).is_some_and(|w| w >> (serial % 64) & 1 != 0)
    }

    /// Remembers the slot placed as number `serial`.
    #[inline]
    fn remember(&mut self, serial: u32) {
        let word = serial as usize / 64;
        if word >= self.remembered.len() {
            self.remembered.resize(word + 1, 0);
        }
        self.remembered[word] |= 1 << (serial % 64);
    }

    /// A forgetful bot's draw (`recall` below 1): the recall draws of the slots placed since
    /// its last decision, then [`memory_choice`] on the slots it remembers. Inlined into the
    /// decision (left to the compiler, it was once called out of line: 6% more instructions
    /// a game at `recall=0.9`).
    #[inline(always)]
    fn choose_forgetful(&mut self, hand: &Hand, pile: usize, patch: &Patch, rng: &mut GameRng) -> Action {
        let action = match patch.placement_bits() {
            Some((live, by_kind)) => self.choose_by_bits(hand, pile, patch.kinds(), live, by_kind, rng),
            None => self.choose_by_slots(hand, pile, patch, rng),
        };
        debug_assert_eq!(action, memory_choice(hand, pile, &self.mirror(patch)), "the bits' choice is memory_choice");
        action
    }

    /// [`TableMemoryBot::choose_forgetful`] on the patch's placement bits (`live`: the slots
    /// in the patch; `by_kind`: the slots of each kind; `kinds`: the kinds shown): the fresh
    /// slots' draws in placement order, then a slot remembered of the first held kind in
    /// canonical order (its oldest), else the pile, else the oldest slot not remembered
    /// (else the oldest).
    #[inline(always)]
    fn choose_by_bits(&mut self, hand: &Hand, pile: usize, kinds: u32, live: u64, by_kind: &[u64; KINDS], rng: &mut GameRng) -> Action {
        // Tracked placement numbers are below 64, so `seen` is at most 64.
        let mut fresh = if self.seen >= 64 { 0 } else { live & (u64::MAX << self.seen) };
        let mut memory = self.remembered[0];
        if fresh != 0 {
            // Every slot placed before the newest fresh one has had its draw now.
            self.seen = u64::BITS - fresh.leading_zeros();
            // The draws from a copy of the stream, put back after them: the same draws, with
            // the stream's state kept in registers through the loop rather than stored at
            // each draw.
            let mut stream = rng.clone();
            while fresh != 0 {
                let bit = fresh & fresh.wrapping_neg();
                if self.recall.hit(&mut stream) {
                    memory |= bit;
                }
                fresh &= fresh - 1;
            }
            *rng = stream;
        }
        self.remembered[0] = memory;
        let memory = memory & live;
        let position = |slot: u64| Action::Take((live & (slot - 1)).count_ones() as u16);
        let mut both = kinds & hand.kinds_mask();
        while both != 0 {
            let slots = by_kind[both.trailing_zeros() as usize] & memory;
            if slots != 0 {
                return position(slots & slots.wrapping_neg());
            }
            both &= both - 1;
        }
        if pile > 0 {
            return Action::Pile;
        }
        let forgotten = live & !memory;
        if forgotten == 0 { Action::Take(0) } else { position(forgotten & forgotten.wrapping_neg()) }
    }

    /// [`TableMemoryBot::choose_forgetful`] slot by slot (a patch not kept as bits).
    fn choose_by_slots(&mut self, hand: &Hand, pile: usize, patch: &Patch, rng: &mut GameRng) -> Action {
        let mut best: Option<(Card, usize)> = None;
        let mut forgotten = None;
        for (i, slot) in patch.iter().enumerate() {
            if slot.serial >= self.seen && self.recall.hit(rng) {
                self.remember(slot.serial);
            }
            if !self.remembers(slot.serial) {
                forgotten = forgotten.or(Some(i));
            } else if hand.count(slot.card) > 0 && best.is_none_or(|(card, _)| slot.card < card) {
                best = Some((slot.card, i));
            }
        }
        if let Some(last) = patch.last() {
            self.seen = self.seen.max(last.serial + 1);
        }
        match best {
            Some((_, i)) => Action::Take(i as u16),
            None if pile > 0 => Action::Pile,
            None => Action::Take(forgotten.unwrap_or(0) as u16),
        }
    }

    /// What the bot remembers of `patch`, as [`memory_choice`] reads it (debug checks).
    fn mirror(&self, patch: &Patch) -> Vec<u8> {
        patch.iter().map(|slot| if self.remembers(slot.serial) { slot.card } else { FORGOTTEN }).collect()
    }
}

impl Bot<MatchPatch> for TableMemoryBot {
    fn name(&self) -> &str {
        "memory"
    }

    /// With perfect memory it decides from the table alone (`perfect_memory_never_draws`):
    /// a table of it needs no seat streams.
    fn draws(&self) -> bool {
        !self.perfect
    }

    fn new_game(&mut self, _game: &MatchPatch, _seat: usize) {
        self.remembered.clear();
        self.remembered.push(0);
        self.seen = 0;
    }

    #[inline(always)]
    fn decide(&mut self, _game: &MatchPatch, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Draw { .. } if self.perfect => Self::choose_perfect(view.hand, view.pile(), view.patch()),
            Decision::Draw { .. } => self.choose_forgetful(view.hand, view.pile(), view.patch(), rng),
            Decision::Place => Action::Place(memory_place(view.hand)),
        }
    }
}

impl OwnBots for MatchPatch {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![memory_info()]
    }
}
