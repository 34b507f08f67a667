//! Penny Badger's table state and the rules that change it: dealing, action cards,
//! claims, challenges, payments, elimination, refills and the end of the game.

use rand::RngExt;

use super::params::{Amount, HAND_CAP, MAX_PLAYERS, Payout};
use super::piles::BLOCK;
use super::{Action, BadgerMetrics, Claim, Decision, Event, PennyBadger, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, MAX_SEATS, Outcome, SearchDefaults, ToMove, ask};
pub use crate::games::chroma::Hand;
use crate::games::chroma::{self, ActionCard, CARD_KINDS, COLOR_WILD, Card, FIRST_ACTION, MATCHES, action_of};
use crate::games::simd::{append_block, append_fill, fill_top};

/// Bit of [`CLAIM_FITS`] set for every wild.
const FITS_WILD: u32 = 1 << 25;
/// Bit of [`CLAIM_FITS`] set for every card (a claim of nothing is always true).
const FITS_NOTHING: u32 = 1 << 31;

/// Per card value, the claims it makes true: bits 0-24 the cells it matches (as
/// [`MATCHES`]), [`FITS_WILD`] for wilds and [`FITS_NOTHING`] for every card. 256 entries
/// so that a card indexes it without a bounds check.
const CLAIM_FITS: [u32; 256] = {
    let mut fits = [0u32; 256];
    let mut c = 0;
    while c < CARD_KINDS {
        let wild = c >= COLOR_WILD as usize && c < FIRST_ACTION as usize;
        fits[c] = MATCHES[c] | if wild { FITS_WILD } else { 0 } | FITS_NOTHING;
        c += 1;
    }
    fits
};

/// The [`CLAIM_FITS`] bit a card needs for `claim` to be true of it.
#[inline]
fn claim_bit(claim: Claim) -> u32 {
    match claim {
        Claim::Nothing => FITS_NOTHING,
        Claim::Wild => FITS_WILD,
        Claim::Set(cell) => 1 << cell,
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current player plays action cards or discards and claims.
    Main,
    /// Opponents are asked in turn order whether they challenge the claim on the table.
    Challenge,
    /// The game has ended.
    Over,
}

/// The claim on the table while opponents decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableClaim {
    /// Who claimed.
    pub claimer: u8,
    /// What was claimed.
    pub claim: Claim,
    /// Cards discarded face down for it (the top of the discard pile).
    pub count: u8,
    /// Whether the cards really are what was claimed (hidden until a challenge).
    pub truthful: bool,
    /// Seats that challenged, as a bit mask.
    pub challengers: u16,
    /// Seats still to be asked, in turn order (index into `order`).
    pub asked: u8,
    /// Opponents in the order they are asked.
    pub order: [u8; MAX_PLAYERS],
    /// Number of entries of `order`.
    pub order_len: u8,
}

/// What [`PennyBadger::resolve_claim`] needs of the claim once every opponent answered.
#[derive(Clone, Copy)]
struct ClaimOutcome {
    claimer: u8,
    claim: Claim,
    count: u8,
    truthful: bool,
    challengers: u16,
    order: [u8; MAX_PLAYERS],
    order_len: u8,
}

impl ClaimOutcome {
    /// The answered claim `c`, read field by field rather than as one copy of the whole
    /// claim: the answers just updated some of its bytes, and a wide load over narrow fresh
    /// stores stalls the CPU.
    #[inline(always)]
    fn of(c: &TableClaim) -> ClaimOutcome {
        ClaimOutcome {
            claimer: c.claimer,
            claim: c.claim,
            count: c.count,
            truthful: c.truthful,
            challengers: c.challengers,
            order: c.order,
            order_len: c.order_len,
        }
    }
}

/// One row of [`PennyBadger::resolve_claim`]'s amounts as plain numbers, for
/// [`PennyBadger::settle_claim_fast`]: row `2 k` for a set claim of `k` cards (the payout
/// table's row `k`), row `2 k + 1` for a wild claim of `k` cards (the wild row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SettleRow {
    /// The withdrawal, [`u32::MAX`] for the whole bank (capped at the bank, that is the bank).
    withdrawal: u32,
    /// What each wrong accuser pays the bank and the claimer; [`SETTLE_ALL`] for their
    /// whole savings (never fast).
    accuser_penalty: u64,
    /// What a caught bluffer pays the bank and each accuser; [`SETTLE_ALL`] for their whole
    /// savings (never fast).
    bluffer_penalty: u64,
}

/// A penalty of the payer's whole savings in a [`SettleRow`]: above any savings times the
/// number of seats, so the fast path's tests that nobody pays short always fail for it.
const SETTLE_ALL: u64 = 1 << 40;

/// The [`SettleRow`]s of a checked payout table.
pub(super) fn settle_rows(pay: &Payout) -> Vec<SettleRow> {
    let penalty = |a: Amount| match a {
        Amount::Pennies(n) => u64::from(n),
        Amount::All => SETTLE_ALL,
    };
    let withdrawal = |a: Amount| match a {
        Amount::Pennies(n) => n,
        Amount::All => u32::MAX,
    };
    let mut rows = Vec::with_capacity(2 * pay.withdrawal.len());
    for (&w, &p) in pay.withdrawal.iter().zip(&pay.penalty) {
        rows.push(SettleRow { withdrawal: withdrawal(w), accuser_penalty: penalty(p), bluffer_penalty: penalty(p) });
        rows.push(SettleRow {
            withdrawal: withdrawal(pay.wild_withdrawal),
            accuser_penalty: penalty(pay.wild_accuser_penalty),
            bluffer_penalty: penalty(pay.wild_bluffer_penalty),
        });
    }
    rows
}

/// The whole table: hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub draw: Vec<Card>,
    /// Discard pile, top card last.
    pub discard: Vec<Card>,
    /// Per card of `discard`, the seats that know it (bit per seat): action cards and
    /// revealed claims are known to all, a claim's cards to the claimer, removed cards to
    /// their owner. What a determinization keeps in place (the `determinize` module).
    pub discard_seen: Vec<u16>,
    /// Every seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// Every seat's savings.
    pub savings: [u32; MAX_PLAYERS],
    /// The bank.
    pub bank: u32,
    /// Seats still in the game, as a bit mask.
    pub alive: u16,
    /// Turn of elimination per seat (0 = still in).
    pub eliminated_at: [u32; MAX_PLAYERS],
    /// Turns each seat must still lose to skip cards.
    pub skips: [u8; MAX_PLAYERS],
    /// +1 in seat order, -1 after an odd number of reverses.
    pub direction: i8,
    /// Seat whose turn it is.
    pub current: u8,
    /// Turns played so far (the current one included).
    pub turns: u32,
    /// Where the turn stands.
    pub phase: Phase,
    /// The claim being decided, during [`Phase::Challenge`] and after it for metrics.
    pub claim: Option<TableClaim>,
    /// Index into the game's end reasons once over.
    pub end_reason: u8,
}

impl Clone for State {
    fn clone(&self) -> Self {
        let mut copy = State { draw: Vec::new(), discard: Vec::new(), discard_seen: Vec::new(), ..*self };
        copy.clone_from(self);
        copy
    }

    /// Reuses the piles' buffers: a search copies a state per sample.
    fn clone_from(&mut self, source: &Self) {
        self.draw.clone_from(&source.draw);
        self.discard.clone_from(&source.discard);
        self.discard_seen.clone_from(&source.discard_seen);
        self.hands = source.hands;
        self.savings = source.savings;
        self.bank = source.bank;
        self.alive = source.alive;
        self.eliminated_at = source.eliminated_at;
        self.skips = source.skips;
        self.direction = source.direction;
        self.current = source.current;
        self.turns = source.turns;
        self.phase = source.phase;
        self.claim = source.claim;
        self.end_reason = source.end_reason;
    }
}

/// Whether every card of `cards` makes `claim` true.
pub(super) fn claim_holds(claim: Claim, cards: &[Card]) -> bool {
    let needed = claim_bit(claim);
    cards.iter().all(|&c| CLAIM_FITS[c as usize] & needed != 0)
}

/// [`State::discard_seen`] of a card every seat saw.
pub const SEEN_BY_ALL: u16 = u16::MAX;

/// End reason indices, in the order of [`END_REASONS`].
pub const END_BANK_EMPTY: u8 = 0;
/// At most one player is left.
pub const END_LAST_STANDING: u8 = 1;
/// The turn cap was reached.
pub const END_CAP: u8 = 2;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["bank_empty", "last_standing", "cap"];

/// Per set of seats (bit per seat), its seats in increasing order, one per byte, the first
/// in the low byte ([`PennyBadger::challenge_order`]).
const SEATS_UP: [u64; 256] = seat_orders(true);
/// Per set of seats, its seats in decreasing order, as [`SEATS_UP`].
const SEATS_DOWN: [u64; 256] = seat_orders(false);

/// Per set of seats, how many seats it holds.
const SEAT_COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut set = 0;
    while set < 256 {
        t[set] = (set as u32).count_ones() as u8;
        set += 1;
    }
    t
};

/// [`SEATS_UP`] (`up`) or [`SEATS_DOWN`].
const fn seat_orders(up: bool) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut set = 0;
    while set < 256 {
        let mut packed = 0u64;
        let mut len = 0;
        let mut k = 0;
        while k < 8 {
            let seat = if up { k } else { 7 - k };
            if set & (1 << seat) != 0 {
                packed |= (seat as u64) << (8 * len);
                len += 1;
            }
            k += 1;
        }
        t[set] = packed;
        set += 1;
    }
    t
}

impl PennyBadger {
    /// The next live seat after `from` in the current direction (`from` itself if alone).
    #[inline]
    pub(super) fn next_alive(&self, s: &State, from: usize) -> usize {
        // Live seats are bits below `players`, so the next one is the nearest set bit past
        // `from`, or else the first one from the other end (`from` itself when alone).
        let alive = u32::from(s.alive);
        if alive == 0 {
            return from;
        }
        if s.direction > 0 {
            let after = alive & !((2u32 << from) - 1);
            (if after != 0 { after } else { alive }).trailing_zeros() as usize
        } else {
            let before = alive & ((1u32 << from) - 1);
            31 - (if before != 0 { before } else { alive }).leading_zeros() as usize
        }
    }

    /// The opponents of `claimer` in the order they are asked whether they challenge: live
    /// seats in the direction of play, starting with the claimer's next seat. Returns
    /// `order` and its length, as [`TableClaim`] holds them. Two table look-ups and no loop
    /// (a loop over the seats mispredicted its exit); [`Self::challenge_order_by_bits`] is
    /// the same by walking the bits, and the tests check both against walking the table.
    #[inline]
    pub(super) fn challenge_order(&self, s: &State, claimer: usize) -> ([u8; MAX_PLAYERS], u8) {
        const { assert!(MAX_PLAYERS == 8, "the order is packed one seat per byte of a u64") };
        let others = u32::from(s.alive) & !(1 << claimer) & 0xFF;
        let after = others & !((2u32 << claimer) - 1);
        let before = others & ((1u32 << claimer) - 1);
        let (first, then, table) = if s.direction > 0 { (after, before, &SEATS_UP) } else { (before, after, &SEATS_DOWN) };
        // `first` holds at most 7 seats, so the shift stays below 64.
        let packed = table[first as usize] | (table[then as usize] << (8 * u32::from(SEAT_COUNT[first as usize])));
        (packed.to_le_bytes(), SEAT_COUNT[others as usize])
    }

    /// [`Self::challenge_order`] by walking the live seats' bits, one seat at a time.
    #[cfg(test)]
    pub(super) fn challenge_order_by_bits(&self, s: &State, claimer: usize) -> ([u8; MAX_PLAYERS], u8) {
        let others = u32::from(s.alive) & !(1 << claimer);
        let after = others & !((2u32 << claimer) - 1);
        let before = others & ((1u32 << claimer) - 1);
        let mut packed = 0u64;
        let mut len = 0;
        if s.direction > 0 {
            // Seats after the claimer, then from seat 0 up to the claimer.
            for mut part in [after, before] {
                while part != 0 {
                    let seat = part.trailing_zeros();
                    part &= part - 1;
                    packed |= u64::from(seat) << (8 * len);
                    len += 1;
                }
            }
        } else {
            // Seats before the claimer downwards, then from the last seat down to the claimer.
            for mut part in [before, after] {
                while part != 0 {
                    let seat = 31 - part.leading_zeros();
                    part ^= 1 << seat;
                    packed |= u64::from(seat) << (8 * len);
                    len += 1;
                }
            }
        }
        (packed.to_le_bytes(), len as u8)
    }

    /// Draws up to `count` cards into `seat`'s hand, reshuffling the discard pile into a new
    /// draw pile if allowed when the draw pile runs out; stops when the hand is full.
    #[inline(always)]
    fn draw_into(&self, s: &mut State, seat: usize, count: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let count = count.min(HAND_CAP.saturating_sub(s.hands[seat].len()));
        match s.draw.len().checked_sub(count) {
            // The draw pile holds enough and no event is recorded: take its top `count`
            // cards at once (the hand comes out the same whatever order they go in).
            Some(rest) if !log.enabled() => {
                s.hands[seat].insert_all(&s.draw[rest..]);
                s.draw.truncate(rest);
            }
            _ => self.draw_into_one_by_one(s, seat, count, rng, log),
        }
    }

    /// [`Self::draw_into`] one card at a time with its events, the discard pile shuffled
    /// into a new draw pile when the draw pile runs out and that is allowed.
    #[inline(never)]
    fn draw_into_one_by_one(&self, s: &mut State, seat: usize, count: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        for _ in 0..count {
            if s.hands[seat].len() >= HAND_CAP {
                return;
            }
            let reshuffled = |pile: &[Card]| {
                s.discard_seen.clear();
                log.emit(|| Event::Reshuffled { order: pile.to_vec() })
            };
            match chroma::draw_card(&mut s.draw, &mut s.discard, self.params.reshuffle_discard, rng, chroma::shuffle_cards, reshuffled) {
                Some(c) => {
                    s.hands[seat].insert(c);
                    log.emit(|| Event::Drew { seat: seat as u8, card: c });
                }
                None => return,
            }
        }
    }

    /// Starts the turn of `seat` (or of the next seat that is not skipped), or ends the game
    /// at the turn cap.
    #[inline]
    fn begin_turn(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if s.skips[seat] == 0 && s.turns < self.params.turn_cap && !s.hands[seat].is_empty() {
            // The usual case: the seat plays its turn.
            s.turns += 1;
            s.current = seat as u8;
            s.phase = Phase::Main;
            log.emit(|| Event::TurnStarts { turn: s.turns, seat: seat as u8, hand: s.hands[seat], bank: s.bank });
            return;
        }
        self.begin_turn_after_skips(s, seat, rng, log);
    }

    /// [`Self::begin_turn`] when the seat is skipped, holds no card or the cap is reached.
    #[cold]
    #[inline(never)]
    fn begin_turn_after_skips(&self, s: &mut State, mut seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        loop {
            if s.skips[seat] > 0 {
                s.skips[seat] -= 1;
                log.emit(|| Event::Skipped { seat: seat as u8 });
                seat = self.next_alive(s, seat);
                continue;
            }
            if s.turns >= self.params.turn_cap {
                self.end(s, END_CAP, log);
                return;
            }
            s.turns += 1;
            s.current = seat as u8;
            s.phase = Phase::Main;
            log.emit(|| Event::TurnStarts { turn: s.turns, seat: seat as u8, hand: s.hands[seat], bank: s.bank });
            if !s.hands[seat].is_empty() {
                return;
            }
            // Nothing to discard: the player only refills, then play moves on.
            log.emit(|| Event::EmptyHand { seat: seat as u8 });
            if self.finish_turn(s, rng, log) {
                return;
            }
            seat = self.next_alive(s, seat);
        }
    }

    /// Step 4 and the end check: refills the current player and ends the game if the bank is
    /// empty or at most one player is left. Returns whether the game ended.
    #[inline(always)]
    fn finish_turn(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) -> bool {
        let seat = s.current as usize;
        if self.seat_active(s, seat) {
            let missing = (self.params.hand_size as usize).saturating_sub(s.hands[seat].len());
            if missing > 0 {
                self.draw_into(s, seat, missing, rng, log);
            }
        }
        if s.bank == 0 {
            self.end(s, END_BANK_EMPTY, log);
            return true;
        }
        // At most one seat left: clearing the lowest set bit leaves none (without POPCNT,
        // `count_ones` is a dozen instructions here).
        if s.alive & s.alive.wrapping_sub(1) == 0 {
            self.end(s, END_LAST_STANDING, log);
            return true;
        }
        false
    }

    /// Ends the turn of `seat` (the current player): refill and end check, then the next
    /// live seat's turn unless the game ended.
    #[inline]
    fn end_turn(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if !self.finish_turn(s, rng, log) {
            let next = self.next_alive(s, seat);
            self.begin_turn(s, next, rng, log);
        }
    }

    #[cold]
    #[inline(never)]
    fn end(&self, s: &mut State, reason: u8, log: &mut EventLog<Event>) {
        s.phase = Phase::Over;
        s.end_reason = reason;
        log.emit(|| Event::GameOver { reason, turns: s.turns });
    }

    /// The current player's own actions: an action card, or the discard and claim.
    #[inline(never)]
    fn play_turn_action(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match action {
            Action::Discard { cards, claim } => self.discard_and_claim(s, seat, cards, claim, rng, log),
            Action::Play { card, target, give } => self.play_action_card(s, seat, card, target as usize, give, rng, log),
            Action::Challenge(_) => unreachable!("answers are applied by step"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn play_action_card(&self, s: &mut State, seat: usize, card: Card, target: usize, give: Card, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let pos = s.hands[seat].position(card).expect("legal play holds the card");
        s.hands[seat].remove_at(pos);
        s.discard.push(card);
        s.discard_seen.push(SEEN_BY_ALL);
        let action = action_of(card).expect("an action card");
        log.emit(|| Event::PlayedAction { seat: seat as u8, action, target: target as u8 });
        self.draw_into(s, seat, 1, rng, log);
        match action {
            ActionCard::Skip => {
                let next = self.next_alive(s, seat);
                s.skips[next] = s.skips[next].saturating_add(1);
            }
            ActionCard::Reverse => s.direction = -s.direction,
            ActionCard::TradeOneCard => {
                let gpos = s.hands[seat].position(give).expect("legal play holds the card to give");
                s.hands[seat].remove_at(gpos);
                // The player takes one card at random from the target's hand, before the
                // given card joins it.
                let taken = if s.hands[target].is_empty() {
                    None
                } else {
                    let i = rng.random_range(0..s.hands[target].len());
                    Some(s.hands[target].remove_at(i))
                };
                s.hands[target].insert(give);
                if let Some(t) = taken {
                    s.hands[seat].insert(t);
                }
                log.emit(|| Event::TradedOne { seat: seat as u8, target: target as u8, gave: give, took: taken });
            }
            ActionCard::TradeHands => {
                s.hands.swap(seat, target);
                log.emit(|| Event::TradedHands { seat: seat as u8, target: target as u8, now: s.hands[seat], their: s.hands[target] });
            }
            ActionCard::AddACard => self.draw_into(s, seat, 1, rng, log),
            ActionCard::AddTwoCards => self.draw_into(s, seat, 2, rng, log),
            ActionCard::RemoveACard | ActionCard::RemoveTwoCards => {
                let n = if action == ActionCard::RemoveACard { 1 } else { 2 };
                for _ in 0..n {
                    if s.hands[target].is_empty() {
                        break;
                    }
                    let i = rng.random_range(0..s.hands[target].len());
                    let c = s.hands[target].remove_at(i);
                    s.discard.push(c);
                    s.discard_seen.push(1 << target);
                    log.emit(|| Event::Removed { target: target as u8, card: c });
                }
            }
            ActionCard::Dice => {}
        }
        if s.hands[seat].is_empty() {
            // Nothing left to discard (piles exhausted or an empty hand traded in).
            log.emit(|| Event::EmptyHand { seat: seat as u8 });
            self.end_turn(s, seat, rng, log);
        }
    }

    #[inline]
    fn discard_and_claim(&self, s: &mut State, seat: usize, mask: u32, claim: Claim, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let (count, truthful) = self.discard_face_down(s, seat, mask, claim, log);
        if claim == Claim::Nothing {
            return self.pay_for_nothing(s, seat, rng, log);
        }
        let (order, order_len) = self.challenge_order(s, seat);
        s.claim = Some(TableClaim { claimer: seat as u8, claim, count, truthful, challengers: 0, asked: 0, order, order_len });
        s.phase = Phase::Challenge;
        if order_len == 0 {
            self.resolve_claim(s, None, rng, log);
        }
    }

    /// The discard of a claim: the cards of `mask` leave `seat`'s hand for the discard pile
    /// face down (seen by the claimer). Returns how many and whether they make `claim` true.
    #[inline(always)]
    fn discard_face_down(&self, s: &mut State, seat: usize, mask: u32, claim: Claim, log: &mut EventLog<Event>) -> (u8, bool) {
        let start = s.discard.len();
        if let Claim::Set(cell) = claim {
            debug_assert!(cell < 25, "a claim names one of the 25 cells");
        }
        let needed = claim_bit(claim);
        let hand = &mut s.hands[seat];
        // The chosen cards go to the discard pile in hand order: gathered in a block, then
        // written with their marks (seen by the claimer) in one store each.
        let mut truthful = true;
        let mut taken = [0 as Card; BLOCK];
        let mut n = 0usize;
        hand.remove_mask_shifting(mask, |c| {
            // A hand holds at most HAND_CAP <= BLOCK cards, so `n < BLOCK`: the mask only
            // spares the compiler's bounds check.
            taken[n & (BLOCK - 1)] = c;
            truthful &= CLAIM_FITS[c as usize] & needed != 0;
            n += 1;
        });
        append_block(&mut s.discard, &taken, n);
        append_fill::<_, BLOCK>(&mut s.discard_seen, 1u16 << seat, n);
        let count = n as u8;
        log.emit(|| Event::Claimed { seat: seat as u8, claim, count, cards: Hand::from_cards(&s.discard[start..]) });
        (count, truthful)
    }

    /// The current player's discard and claim, its opponents' answers and the claim's
    /// settlement in one piece, with nothing recorded: the plain steps' game (the discard
    /// and claim, then one answer per opponent, the last one settling), for a loop that asks
    /// the answers in a row ([`super::turns`]). `answer(state, seat)` is asked for each
    /// opponent in the order the plain steps ask them, with the claim and the answers so far
    /// on the table as each answer's view shows them, and only for a claim that can be
    /// challenged.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn claim_answered(
        &self,
        s: &mut State,
        seat: usize,
        mask: u32,
        claim: Claim,
        mut answer: impl FnMut(&State, usize) -> bool,
        rng: &mut GameRng,
        log: &mut EventLog<Event>,
    ) {
        debug_assert!(!log.enabled(), "the quick loop records nothing");
        let (count, truthful) = self.discard_face_down(s, seat, mask, claim, log);
        if claim == Claim::Nothing {
            return self.pay_for_nothing(s, seat, rng, log);
        }
        let (order, order_len) = self.challenge_order(s, seat);
        s.claim = Some(TableClaim { claimer: seat as u8, claim, count, truthful, challengers: 0, asked: 0, order, order_len });
        s.phase = Phase::Challenge;
        let mut challengers = 0u16;
        for (asked, &a) in order[..usize::from(order_len).min(MAX_PLAYERS)].iter().enumerate() {
            challengers |= u16::from(answer(s, usize::from(a))) << a;
            // Only the answers change on the table: the rest of the claim stays as written.
            if let Some(c) = &mut s.claim {
                c.challengers = challengers;
                c.asked = asked as u8 + 1;
            }
        }
        let c = ClaimOutcome { claimer: seat as u8, claim, count, truthful, challengers, order, order_len };
        if !self.settle_claim_fast(s, c, log) {
            self.settle_claim(s, c, log);
        }
        s.phase = Phase::Main;
        self.end_turn(s, seat, rng, log);
    }

    /// A claim of nothing: 1 penny to the bank, no challenge, and the turn ends.
    #[inline(never)]
    fn pay_for_nothing(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        self.pay(s, seat, 1, &[], 0, log);
        self.end_turn(s, seat, rng, log);
    }

    #[inline]
    fn answer_challenge(&self, s: &mut State, seat: usize, yes: bool, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let c = s.claim.as_mut().expect("a claim is on the table");
        c.challengers |= u16::from(yes) << seat;
        c.asked += 1;
        // Both branches end in a call, so this inline part needs no saved registers.
        if c.asked >= c.order_len {
            self.resolve_claim(s, Some((seat as u8, yes)), rng, log);
        } else if log.enabled() {
            Self::log_answer(log, seat, yes);
        }
    }

    /// Records an answer that leaves seats still to be asked.
    #[inline(never)]
    fn log_answer(log: &mut EventLog<Event>, seat: usize, yes: bool) {
        log.emit(|| Event::Answered { seat: seat as u8, challenge: yes });
    }

    /// The seat to be asked whether it challenges.
    #[inline]
    pub(super) fn challenger_to_ask(s: &State) -> usize {
        let c = s.claim.as_ref().expect("a claim is on the table");
        c.order[c.asked as usize] as usize
    }

    /// Withdrawal first (capped at the bank), then penalties, accusers in turn order.
    /// `last_answer` (seat, challenge) is the answer that completed the asking, recorded
    /// first.
    #[inline(never)]
    fn resolve_claim(&self, s: &mut State, last_answer: Option<(u8, bool)>, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if let Some((seat, challenge)) = last_answer {
            log.emit(|| Event::Answered { seat, challenge });
        }
        let c = ClaimOutcome::of(s.claim.as_ref().expect("a claim is on the table"));
        if !self.settle_claim_fast(s, c, log) {
            self.settle_claim(s, c, log);
        }
        s.phase = Phase::Main;
        self.end_turn(s, c.claimer as usize, rng, log);
    }

    /// The reveal, withdrawal and penalties of a claim every opponent answered: the rules
    /// step by step (each payment by [`Self::pay`]), for every case.
    #[cold]
    #[inline(never)]
    fn settle_claim(&self, s: &mut State, c: ClaimOutcome, log: &mut EventLog<Event>) {
        let pay: &Payout = &self.payout;
        let claimer = c.claimer as usize;
        let (withdrawal, accuser_penalty, bluffer_penalty) = match c.claim {
            Claim::Wild => (pay.wild_withdrawal, pay.wild_accuser_penalty, pay.wild_bluffer_penalty),
            Claim::Set(_) => (pay.withdrawal[c.count as usize], pay.penalty[c.count as usize], pay.penalty[c.count as usize]),
            Claim::Nothing => unreachable!("nothing is never challenged"),
        };
        let challenged = c.challengers != 0;
        if challenged {
            let revealed = s.discard_seen.len() - c.count as usize;
            s.discard_seen[revealed..].fill(SEEN_BY_ALL);
            log.emit(|| Event::Revealed { seat: c.claimer, cards: Hand::from_cards(&s.discard[s.discard.len() - c.count as usize..]), truthful: c.truthful });
        }
        if !challenged || c.truthful {
            let w = withdrawal.of(s.bank).min(s.bank);
            s.bank -= w;
            s.savings[claimer] += w;
            log.emit(|| Event::Withdrew { seat: c.claimer, pennies: w });
        }
        if challenged {
            let accusers = &c.order[..c.order_len as usize];
            if c.truthful {
                for &a in accusers.iter().filter(|&&a| c.challengers & (1 << a) != 0) {
                    let a = a as usize;
                    let p = accuser_penalty.of(s.savings[a]);
                    self.pay(s, a, p, &[claimer as u8], p, log);
                }
            } else {
                let mut owed = [0u8; MAX_PLAYERS];
                let mut n = 0;
                for &a in accusers.iter().filter(|&&a| c.challengers & (1 << a) != 0) {
                    owed[n] = a;
                    n += 1;
                }
                let p = bluffer_penalty.of(s.savings[claimer]);
                self.pay(s, claimer, p, &owed[..n], p, log);
            }
        }
    }

    /// [`Self::settle_claim`] in the common case, without a branch on the answers or on the
    /// claim's truth (they are random, so such branches are mispredicted): when no event is
    /// recorded and every payer can pay in full and keeps at least a penny (nobody pays short,
    /// nobody is eliminated), so that the payments in turn order add up to one change per
    /// seat. Returns `false`, having changed nothing, in every other case.
    ///
    /// The claim's marks on the discard pile are the claimer's until a challenge shows the
    /// cards to all (`check_invariants` holds it), so they are written either way, with the
    /// claimer's mark when nobody challenged.
    #[inline(always)]
    fn settle_claim_fast(&self, s: &mut State, c: ClaimOutcome, log: &EventLog<Event>) -> bool {
        if log.enabled() || c.claim == Claim::Nothing {
            return false;
        }
        let Some(row) = self.settle_rows.get(2 * c.count as usize + usize::from(c.claim == Claim::Wild)) else {
            return false;
        };
        let claimer = c.claimer as usize;
        // Seats are below MAX_PLAYERS = 8, so the challengers are one byte.
        const { assert!(MAX_PLAYERS <= 8, "challengers fit a byte") };
        let accusers = u32::from(c.challengers) & 0xFF;
        let k = u64::from(SEAT_COUNT[accusers as usize]);
        // The claim stands (withdrawal, and wrong accusers pay) unless caught bluffing.
        let stands = accusers == 0 || c.truthful;
        let (p, q) = (row.accuser_penalty, row.bluffer_penalty);
        // Each wrong accuser pays p to the bank and p to the claimer; a caught bluffer pays q
        // to the bank and q to each accuser. Both cases are computed and one is kept by a
        // mask (`&`, `|` rather than `if`, which the compiler may turn into a branch).
        // Seats that could not pay 2 p and keep a penny, all eight compared at once (savings
        // are u32: a limit of u32::MAX or more leaves every seat short, as it should).
        let limit = (2 * p).min(u64::from(u32::MAX)) as u32;
        let mut short = 0u32;
        for (seat, &sv) in s.savings.iter().enumerate() {
            short |= u32::from(sv <= limit) << seat;
        }
        let accusers_pay = short & accusers == 0;
        let bluffer_pays = u64::from(s.savings[claimer]) > (k + 1).wrapping_mul(q);
        if !((stands & accusers_pay) | (!stands & bluffer_pays)) {
            return false;
        }
        fill_top::<_, BLOCK>(&mut s.discard_seen, c.count as usize, if accusers != 0 { SEEN_BY_ALL } else { 1 << claimer });
        // All ones when the claim stands. Past the tests above p, q, k p and (k + 1) q are
        // small in the case kept; wrapping arithmetic makes the other case's value harmless.
        let keep = 0u32.wrapping_sub(u32::from(stands));
        let pick = |standing: u32, caught: u32| (standing & keep) | (caught & !keep);
        let w = row.withdrawal.min(s.bank) & keep;
        let (kp, kq) = ((k.wrapping_mul(p)) as u32, ((k + 1).wrapping_mul(q)) as u32);
        let each = pick((p as u32).wrapping_mul(2).wrapping_neg(), q as u32);
        let to_claimer = pick(w.wrapping_add(kp), kq.wrapping_neg());
        let to_bank = pick(kp.wrapping_sub(w), q as u32);
        for (seat, sv) in s.savings.iter_mut().enumerate() {
            *sv = sv.wrapping_add(if accusers >> seat & 1 != 0 { each } else { 0 });
        }
        s.savings[claimer] = s.savings[claimer].wrapping_add(to_claimer);
        s.bank = s.bank.wrapping_add(to_bank);
        true
    }

    /// [`Self::settle_claim_fast`] (falling back on [`Self::settle_claim`] as the rules do)
    /// and [`Self::settle_claim`] alone, each from a copy of `s` with a claim answered in
    /// full, for the tests: the two states after.
    #[cfg(test)]
    pub(super) fn settle_both_ways(&self, s: &State) -> (State, State) {
        let c = ClaimOutcome::of(s.claim.as_ref().expect("a claim is on the table"));
        let mut log = EventLog::new(false);
        let mut fast = s.clone();
        if !self.settle_claim_fast(&mut fast, c, &log) {
            self.settle_claim(&mut fast, c, &mut log);
        }
        let mut plain = s.clone();
        self.settle_claim(&mut plain, c, &mut log);
        (fast, plain)
    }

    /// The payment rule: the bank is paid first; if the payer cannot pay it in full the bank
    /// takes all and the players owed get nothing. Otherwise the players owed are paid
    /// `each`, or share what is left equally with odd pennies going one each clockwise
    /// starting left of the payer. A payer left with 0 is eliminated at once.
    #[inline]
    pub(super) fn pay(&self, s: &mut State, payer: usize, to_bank: u32, owed: &[u8], each: u32, log: &mut EventLog<Event>) {
        let mut paid = [0u32; MAX_PLAYERS];
        let bank_part = to_bank.min(s.savings[payer]);
        s.savings[payer] -= bank_part;
        s.bank += bank_part;
        if bank_part == to_bank && !owed.is_empty() {
            self.pay_players(s, payer, owed, each, &mut paid);
        }
        log.emit(|| Event::Paid { payer: payer as u8, bank: bank_part, players: paid });
        if s.savings[payer] == 0 && self.seat_active(s, payer) {
            Self::eliminate(s, payer, log);
        }
    }

    /// The players' part of [`Self::pay`], once the bank is paid in full: `paid` receives
    /// what each seat got.
    #[inline]
    fn pay_players(&self, s: &mut State, payer: usize, owed: &[u8], each: u32, paid: &mut [u32; MAX_PLAYERS]) {
        let n = self.params.players as usize;
        let need = each as u64 * owed.len() as u64;
        let rest = s.savings[payer];
        if rest as u64 >= need {
            for &o in owed {
                paid[o as usize] = each;
            }
        } else {
            let share = rest / owed.len() as u32;
            let mut odd = rest % owed.len() as u32;
            for &o in owed {
                paid[o as usize] = share;
            }
            // Clockwise from the payer's left: seats payer+1, payer+2, ...
            for k in 1..n {
                if odd == 0 {
                    break;
                }
                let seat = (payer + k) % n;
                if owed.contains(&(seat as u8)) {
                    paid[seat] += 1;
                    odd -= 1;
                }
            }
        }
        for &o in owed {
            s.savings[payer] -= paid[o as usize];
            s.savings[o as usize] += paid[o as usize];
        }
    }

    /// Takes `seat` out of the game: its hand goes to the discard pile.
    #[cold]
    #[inline(never)]
    fn eliminate(s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        s.alive &= !(1 << seat);
        s.eliminated_at[seat] = s.turns;
        let hand = s.hands[seat];
        s.discard.extend_from_slice(hand.cards());
        s.discard_seen.extend(std::iter::repeat_n(1u16 << seat, hand.len()));
        s.hands[seat] = Hand::EMPTY;
        log.emit(|| Event::Eliminated { seat: seat as u8, turn: s.turns });
    }
}

impl Game for PennyBadger {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = BadgerMetrics;
    const INFO: GameInfo = GameInfo {
        id: "penny-badger",
        name: "Penny Badger",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "pennies",
        default_cap: 1000,
        default_bot: "basic",
        search: SearchDefaults {
            // Savings mid-game mislead the search (a cut-off at 20 or 60 actions wins less often
            // than playing to the end: README, "ismcts"), so iterations play to the end.
            depth: 0,
            // `ismcts` models the table with `basic` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            ..SearchDefaults::ENGINE
        },
        deals_in_place: true,
        has_elimination: true,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.params.players as usize
    }

    fn turn_cap(&self) -> u32 {
        self.params.turn_cap
    }

    /// Shuffles, deals `hand_size` cards to every seat and starts seat 0's turn.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        // A block past the whole deck: the discard pile's block writes ([`append_block`],
        // [`fill_top`]) then always have room (the piles swap buffers at a reshuffle).
        let room = self.deck.len() + BLOCK;
        let mut s = State {
            draw: Vec::with_capacity(room),
            discard: Vec::with_capacity(room),
            discard_seen: Vec::with_capacity(room),
            hands: [Hand::EMPTY; MAX_PLAYERS],
            savings: [0; MAX_PLAYERS],
            bank: 0,
            alive: 0,
            eliminated_at: [0; MAX_PLAYERS],
            skips: [0; MAX_PLAYERS],
            direction: 1,
            current: 0,
            turns: 0,
            phase: Phase::Main,
            claim: None,
            end_reason: 0,
        };
        self.deal_into(rng, log, &mut s);
        s
    }

    /// The deal of [`Game::deal`] into any state (a new one, or one of an earlier
    /// game, whose piles keep their buffers): every field is set as a new game has it
    /// (the invariant harness's `check_deal_in_place`).
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        let p = &self.params;
        let n = p.players as usize;
        s.draw.clear();
        s.draw.extend_from_slice(&self.deck);
        chroma::shuffle_cards(&mut s.draw, rng);
        s.discard.clear();
        s.discard_seen.clear();
        s.hands = [Hand::EMPTY; MAX_PLAYERS];
        s.savings = [0; MAX_PLAYERS];
        s.bank = p.bank;
        s.alive = ((1u32 << n) - 1) as u16;
        s.eliminated_at = [0; MAX_PLAYERS];
        s.skips = [0; MAX_PLAYERS];
        s.direction = 1;
        s.current = 0;
        s.turns = 0;
        s.phase = Phase::Main;
        s.claim = None;
        s.end_reason = 0;
        for seat in 0..n {
            s.savings[seat] = p.starting_savings;
            // The top `hand_size` cards, as drawn one by one (a hand's order does not
            // depend on the order its cards come in).
            let rest = s.draw.len().checked_sub(p.hand_size as usize).expect("deck size checked against hands");
            s.hands[seat].insert_all(&s.draw[rest..]);
            s.draw.truncate(rest);
            log.emit(|| Event::Dealt { seat: seat as u8, hand: s.hands[seat] });
        }
        self.begin_turn(s, 0, rng, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        match s.phase {
            Phase::Over => ToMove::Over,
            Phase::Main => ToMove::Seat(s.current as usize),
            Phase::Challenge => ToMove::Seat(Self::challenger_to_ask(s)),
        }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        let decision = match (s.phase, &s.claim) {
            (Phase::Challenge, Some(c)) => Decision::Challenge { claimer: c.claimer, claim: c.claim, count: c.count, earlier: c.challengers },
            _ => Decision::Turn,
        };
        View::new(seat, decision, s)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        if let Decision::Challenge { .. } = view.decision {
            out.extend([Action::Challenge(false), Action::Challenge(true)]);
            return;
        }
        let hand = view.hand;
        let n = self.params.players as usize;
        for (i, &card) in hand.iter().enumerate() {
            if i > 0 && hand[i - 1] == card {
                continue;
            }
            let Some(action) = chroma::action_of(card) else { continue };
            if !Self::playable(view, action) {
                continue;
            }
            if !Self::targeted(action) {
                out.push(Action::Play { card, target: 0, give: 0 });
                continue;
            }
            for target in (0..n).filter(|&t| Self::can_target(view, t)) {
                if action == ActionCard::TradeOneCard {
                    for (j, &give) in hand.iter().enumerate() {
                        if (j > 0 && hand[j - 1] == give) || !Self::can_give(hand, card, give) {
                            continue;
                        }
                        out.push(Action::Play { card, target: target as u8, give });
                    }
                } else {
                    out.push(Action::Play { card, target: target as u8, give: 0 });
                }
            }
        }
        let max = self.payout.max_claim().min(hand.len());
        for mask in 1u32..(1 << hand.len()) {
            let k = mask.count_ones() as usize;
            if k > max {
                continue;
            }
            if k == 1 {
                out.push(Action::Discard { cards: mask, claim: Claim::Nothing });
                out.push(Action::Discard { cards: mask, claim: Claim::Wild });
            } else {
                out.extend((0..25).map(|cell| Action::Discard { cards: mask, claim: Claim::Set(cell) }));
            }
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        match (*action, view.decision) {
            (Action::Challenge(_), Decision::Challenge { .. }) => true,
            (Action::Play { card, target, give }, Decision::Turn) => {
                if !view.hand.contains(&card) {
                    return false;
                }
                let Some(a) = chroma::action_of(card) else { return false };
                if !Self::playable(view, a) {
                    return false;
                }
                if Self::targeted(a) && !Self::can_target(view, target as usize) {
                    return false;
                }
                if a == ActionCard::TradeOneCard {
                    return Self::can_give(view.hand, card, give);
                }
                true
            }
            (Action::Discard { cards, claim }, Decision::Turn) => {
                let k = cards.count_ones() as usize;
                let in_hand = view.hand.len() >= 32 || cards >> view.hand.len() == 0;
                let size_ok = match claim {
                    Claim::Nothing | Claim::Wild => k == 1,
                    Claim::Set(cell) => (2..=self.payout.max_claim()).contains(&k) && cell < 25,
                };
                in_hand && size_ok && k >= 1
            }
            _ => false,
        }
    }

    /// Applies one action of the deciding seat.
    #[inline]
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        // Challenge answers are the most frequent action and the cheapest: they stay inline,
        // the turn's own actions are calls.
        match action {
            Action::Challenge(yes) => self.answer_challenge(s, seat, yes, rng, log),
            _ => self.play_turn_action(s, seat, action, rng, log),
        }
    }

    /// Plays `s` to its end with `bots`, nothing recorded, from any decision (the usual
    /// start: a turn): a turn, its claim's answers and their settlement as one piece, for any
    /// line-up.
    ///
    /// The engine's loop asks the bot, then applies the action, one decision at a time: every
    /// decision dispatches on the turn's phase in the rules, and a claim's every answer is an
    /// action that the rules decode, record on the table and check for the last one. Here a
    /// discard and claim is followed at once by its answers, asked of the line-up's bots in the
    /// order the rules ask them, each with the view of its decision (the answers so far on the
    /// table), and the claim is settled once (`claim_answered`). The same bots
    /// are asked the same questions in the same order with the same streams, and the same
    /// actions are applied: the same game (`play_out_is_the_decision_loop` compares the two from
    /// the deal or any later decision, with bots of every kind).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            match s.phase {
                Phase::Over => return,
                Phase::Main => {
                    let seat = s.current as usize;
                    match ask(self, s, seat, bots, seat_rngs) {
                        Action::Discard { cards, claim } => {
                            let answer = |s: &State, a: usize| matches!(ask(self, s, a, bots, seat_rngs), Action::Challenge(true));
                            self.claim_answered(s, seat, cards, claim, answer, rng, log);
                        }
                        action => self.apply(s, seat, action, rng, log),
                    }
                }
                // Only when starting mid-claim: the answers left, one plain step each.
                Phase::Challenge => {
                    let seat = Self::challenger_to_ask(s);
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.apply(s, seat, action, rng, log);
                }
            }
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let n = self.params.players as usize;
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        for seat in 0..n {
            o.scores[seat] = s.savings[seat] as i64;
            o.eliminated_at[seat] = s.eliminated_at[seat];
        }
        o.set_winners_by_max_score(n);
        o
    }

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.params.players as usize;
        let money: u64 = s.bank as u64 + s.savings[..n].iter().map(|&x| x as u64).sum::<u64>();
        let start = self.params.bank as u64 + n as u64 * self.params.starting_savings as u64;
        if money != start {
            return Err(format!("pennies not conserved: bank {} + savings {:?} = {money}, started with {start}", s.bank, &s.savings[..n]));
        }
        let cards = s.draw.len() + s.discard.len() + s.hands[..n].iter().map(|h| h.len()).sum::<usize>();
        if cards != self.deck.len() {
            return Err(format!("cards not conserved: {cards} on the table, the deck has {}", self.deck.len()));
        }
        let mut counts = [0u32; chroma::CARD_KINDS];
        for &c in s.draw.iter().chain(&s.discard).chain(s.hands[..n].iter().flat_map(|h| h.cards())) {
            counts[c as usize] += 1;
        }
        if counts != self.copies {
            return Err("the multiset of cards changed".into());
        }
        for seat in 0..n {
            let alive = self.seat_active(s, seat);
            if alive && s.savings[seat] == 0 {
                return Err(format!("seat {seat} has 0 savings but is still in the game"));
            }
            if !alive && (!s.hands[seat].is_empty() || s.savings[seat] != 0) {
                return Err(format!("eliminated seat {seat} still holds cards or pennies"));
            }
        }
        if s.discard_seen.len() != s.discard.len() {
            return Err(format!("{} discards but {} records of who saw them", s.discard.len(), s.discard_seen.len()));
        }
        if let (Phase::Challenge, Some(c)) = (s.phase, &s.claim) {
            // Until the answers are in, only the claimer has seen the claim's cards (the
            // claim's settlement rewrites these marks either way: `rules::settle_claim_fast`).
            let top = s.discard_seen.len().checked_sub(c.count as usize).ok_or("the claim's cards are not on the discard pile")?;
            if let Some(&seen) = s.discard_seen[top..].iter().find(|&&seen| seen != 1 << c.claimer) {
                return Err(format!("a claimed card on the discard pile is marked {seen:#x}, not as seen by the claimer (seat {}) alone", c.claimer));
            }
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("turn {} passed the cap {}", s.turns, self.params.turn_cap));
        }
        Ok(())
    }

    /// Whether `seat` is still in the game.
    #[inline]
    fn seat_active(&self, s: &State, seat: usize) -> bool {
        s.alive & (1 << seat) != 0
    }

    /// Standing: the seat's savings (pennies), the figure that decides the winner.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.savings[seat] as i64
    }
}
