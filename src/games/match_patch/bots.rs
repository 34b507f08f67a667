//! Match Patch's bot `memory`, defined exactly in issue 12 so that anyone can reproduce its
//! results. `random` (uniform over the sources, the pile as one choice and each patch slot
//! as one, and over the card to place) is the engine's, through [`Game::random_action`].
//!
//! [`Game::random_action`]: crate::engine::Game::random_action

use super::params::KINDS;
use super::rules::{Hand, Patch, Slot, remove_at};
use super::{Action, Decision, Event, MatchPatch, View};
use crate::engine::rng::Chance;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Lineup, Sampler, Uniform};
use crate::games::chroma::Card;

/// A patch slot the bot does not remember (in [`memory_choice`]'s `slots`).
pub const FORGOTTEN: u8 = 0x40;
/// Flag of a slot placed since the bot's last decision, whose recall draw is still to be
/// made; the low bits hold the announced card.
const PENDING: u8 = 0x80;

/// `memory`'s single draw, from what it remembers of the patch: `slots[i]` is the card it
/// remembers in the slot at position `i` (0 = oldest), or [`FORGOTTEN`].
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
        uniform: Some(|_, seats| Box::new(MemoryTable::new(seats.iter().map(|v| v[0]).collect()))),
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
    hand.cards()[0]
}

/// `memory` as a table of memory bots plays it ([`BotInfo::uniform`]): the same choices
/// from the same random draws as [`MemoryBot`], read from the view's patch rather than from
/// events, so the engine plays its quick loop (no event is built or delivered). The tests
/// compare the two on whole games.
///
/// With perfect memory (`recall` 1) every slot is remembered and no draw is made: the
/// choice is [`memory_choice`] on the patch as announced. Otherwise it keeps the same
/// mirror as [`MemoryBot`] and brings it up to date at each draw decision: slots no longer
/// in the patch were taken (forgotten with them), and the slots placed since the last
/// decision (placement numbers above every one seen) get their recall draws, oldest first:
/// exactly the draws [`MemoryBot`] makes for the slots still in the patch.
pub struct TableMemoryBot {
    recall: Chance,
    perfect: bool,
    /// Mirror of the patch as of the last draw decision, oldest slot first: a remembered
    /// card or [`FORGOTTEN`] (`recall` below 1 only).
    slots: Vec<u8>,
    /// The placement number of each mirrored slot.
    serials: Vec<u32>,
    /// Placement numbers below this have been seen.
    seen: u32,
    /// Remembered slots per kind.
    remembered: [u8; KINDS],
    /// Bit k set when a remembered slot holds kind k.
    known: u32,
}

impl TableMemoryBot {
    /// A memory bot remembering each placement with probability `recall`.
    pub fn new(recall: f64) -> Self {
        TableMemoryBot {
            recall: Chance::new(recall),
            perfect: recall >= 1.0,
            slots: Vec::new(),
            serials: Vec::new(),
            seen: 0,
            remembered: [0; KINDS],
            known: 0,
        }
    }

    /// [`memory_choice`] with every slot of `patch` remembered: only a kind both shown
    /// ([`Patch::kinds`]) and held needs a look at the slots ([`Patch::first_of`]). Always
    /// inlined: the quick loop compiles it with the bit instructions (`popcnt`).
    #[inline(always)]
    pub fn choose_perfect(hand: &Hand, pile: usize, patch: &Patch) -> Action {
        Self::choose_perfect_pairing(hand, pile, patch).0
    }

    /// [`TableMemoryBot::choose_perfect`] with the kind a take of a pairing slot draws (the
    /// held kind it pairs, known before the slot is found), `None` for any other draw: the
    /// quick loop's checks of the drawn card need not wait for the slot's search.
    #[inline(always)]
    pub fn choose_perfect_pairing(hand: &Hand, pile: usize, patch: &Patch) -> (Action, Option<Card>) {
        let both = patch.kinds() & hand.kinds_mask();
        if both != 0 {
            let card = both.trailing_zeros() as u8;
            let i = patch.first_of(card).unwrap_or(0);
            return (Action::Take(i as u16), Some(card));
        }
        (if pile > 0 { Action::Pile } else { Action::Take(0) }, None)
    }

    /// A mirrored slot left the patch.
    #[inline]
    fn drop_slot(&mut self, v: u8) {
        if v != FORGOTTEN {
            let r = &mut self.remembered[v as usize];
            *r -= 1;
            if *r == 0 {
                self.known &= !(1 << v);
            }
        }
    }

    /// Brings the mirror up to date with the patch `now` (see the type's doc).
    fn sync(&mut self, now: &[Slot], rng: &mut GameRng) {
        let old = now.partition_point(|slot| slot.serial < self.seen);
        let mut j = 0;
        for (w, slot) in now[..old].iter().enumerate() {
            while self.serials[j] != slot.serial {
                self.drop_slot(self.slots[j]);
                j += 1;
            }
            self.serials[w] = slot.serial;
            self.slots[w] = self.slots[j];
            j += 1;
        }
        for k in j..self.slots.len() {
            self.drop_slot(self.slots[k]);
        }
        self.slots.truncate(old);
        self.serials.truncate(old);
        for slot in &now[old..] {
            let v = if self.recall.hit(rng) {
                self.remembered[slot.card as usize] += 1;
                self.known |= 1 << slot.card;
                slot.card
            } else {
                FORGOTTEN
            };
            self.slots.push(v);
            self.serials.push(slot.serial);
            self.seen = slot.serial + 1;
        }
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
        self.slots.clear();
        self.serials.clear();
        self.seen = 0;
        self.remembered = [0; KINDS];
        self.known = 0;
    }

    #[inline(always)]
    fn decide(&mut self, _game: &MatchPatch, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Draw { .. } if self.perfect => Self::choose_perfect(view.hand, view.pile(), view.patch()),
            Decision::Draw { .. } => {
                self.sync(view.slots(), rng);
                let hand = view.hand;
                let both = self.known & hand.kinds_mask();
                let action = if both != 0 {
                    let card = both.trailing_zeros() as u8;
                    let i = self.slots.iter().position(|&v| v == card).unwrap_or(0);
                    Action::Take(i as u16)
                } else if view.pile() > 0 {
                    Action::Pile
                } else {
                    let i = self.slots.iter().position(|&v| v == FORGOTTEN).unwrap_or(0);
                    Action::Take(i as u16)
                };
                debug_assert_eq!(action, memory_choice(hand, view.pile(), &self.slots));
                action
            }
            Decision::Place => Action::Place(memory_place(view.hand)),
        }
    }
}

/// A table of `memory` bots, one per seat ([`BotInfo::uniform`]): the [`Uniform`] line-up of
/// [`TableMemoryBot`]s, which also tells [`MatchPatch`]'s own loop ([`Game::play_out`])
/// whether every seat has perfect memory. Such a table decides with no draw and no memory of
/// its own ([`TableMemoryBot::choose_perfect`] on the view), so that loop plays its
/// decisions without asking it (`quick.rs`).
///
/// [`Game::play_out`]: crate::engine::Game::play_out
pub struct MemoryTable {
    seats: Uniform<TableMemoryBot>,
    perfect: bool,
}

impl MemoryTable {
    /// One `memory` bot per seat with these `recall` values, in seat order.
    pub fn new(recalls: Vec<f64>) -> Self {
        let perfect = recalls.iter().all(|&r| r >= 1.0);
        MemoryTable { seats: Uniform::new(recalls.into_iter().map(TableMemoryBot::new).collect()), perfect }
    }

    /// Whether every seat has perfect memory (`recall` 1).
    #[inline]
    pub fn perfect(&self) -> bool {
        self.perfect
    }
}

impl Lineup<MatchPatch> for MemoryTable {
    fn len(&self) -> usize {
        self.seats.len()
    }
    fn listens(&self) -> bool {
        <Uniform<TableMemoryBot> as Lineup<MatchPatch>>::listens(&self.seats)
    }
    fn draws(&self) -> bool {
        <Uniform<TableMemoryBot> as Lineup<MatchPatch>>::draws(&self.seats)
    }
    fn new_game(&mut self, game: &MatchPatch) {
        self.seats.new_game(game);
    }
    #[inline(always)]
    fn decide(&mut self, seat: usize, game: &MatchPatch, view: &View<'_>, sampler: &Sampler<'_, MatchPatch>, rng: &mut GameRng) -> Action {
        self.seats.decide(seat, game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        <Uniform<TableMemoryBot> as Lineup<MatchPatch>>::name(&self.seats, seat)
    }
    fn observe(&mut self, event: &Event) {
        self.seats.observe(event);
    }
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }
}
