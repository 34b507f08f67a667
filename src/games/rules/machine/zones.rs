//! Zones and card moves: who owns and sees a zone, cards taken and put, moved, shuffled,
//! shown and revealed, with what each seat learns of them.

use super::{Bound, Event, State};
use crate::engine::{EventLog, GameRng, rng};
use crate::games::rules::expr::{Expr, Zone};
use crate::games::rules::program::*;

impl Bound {
    pub(super) fn all_seats_mask(&self) -> u8 {
        ((1u16 << self.seats) - 1) as u8
    }

    /// The owner of zone instance `z` (None for a shared zone).
    #[inline]
    pub fn owner(&self, z: usize) -> Option<usize> {
        let o = self.instance_owner[z];
        if o < 0 { None } else { Some(o as usize) }
    }

    /// The declaration of zone instance `z`.
    #[inline]
    pub fn zone_decl(&self, z: usize) -> &ZoneDecl {
        &self.program.zones[self.instance_decl[z] as usize]
    }

    /// Seats that see the card at index `i` of zone instance `z` (bit per seat).
    #[inline(always)]
    pub fn seers(&self, z: usize, st: &State, i: usize) -> u8 {
        let (mask, top) = self.see[z];
        if !top || i + 1 == st.zones[z].len() { mask } else { 0 }
    }

    #[inline(always)]
    fn take(&self, st: &mut State, z: usize, end: End) -> Option<u16> {
        let card = match end {
            End::Top => st.zones[z].pop(),
            End::Bottom => {
                if st.zones[z].is_empty() {
                    None
                } else {
                    Some(st.zones[z].remove(0))
                }
            }
        }?;
        // A top-visible zone shows its new top.
        if let Some(&top) = st.zones[z].last()
            && self.see[z].1
        {
            let all = self.all_seats_mask();
            st.know_zone[top as usize] |= all;
            st.know_pos[top as usize] |= all;
        }
        Some(card)
    }

    #[inline(always)]
    pub(super) fn put(&self, st: &mut State, card: u16, z: usize, end: End) {
        let c = card as usize;
        match end {
            End::Top => st.zones[z].push(card),
            End::Bottom => st.zones[z].insert(0, card),
        }
        st.where_is[c] = z as u16;
        let i = if end == End::Top { st.zones[z].len() - 1 } else { 0 };
        let see = self.seers(z, st, i);
        // A seat that knew the card's place saw which card moved and keeps track of it; a seat
        // that only knew its zone (a card somewhere in the draw pile) saw "a card" move and
        // loses track; whoever sees it where it lands knows it.
        let knew = st.know_pos[c];
        st.know_zone[c] = knew | see;
        st.know_pos[c] = knew | see;
    }

    pub(super) fn move_cards(&self, st: &mut State, (from, to): (usize, usize), count: usize, (take, put): (End, End), log: &mut EventLog<Event>) {
        if (take, put) == (End::Top, End::Top) && !log.enabled() {
            // `take` and `put` of the tops with what they look up read once: a card put on
            // top is seen by the seats that see the zone's top.
            let see = self.see[to].0;
            let from_shows_top = self.see[from].1;
            for _ in 0..count {
                let Some(card) = st.zones[from].pop() else { break };
                if from_shows_top {
                    self.show_top(st, from);
                }
                st.zones[to].push(card);
                let c = card as usize;
                st.where_is[c] = to as u16;
                let known = st.know_pos[c] | see;
                st.know_zone[c] = known;
                st.know_pos[c] = known;
            }
            return;
        }
        for _ in 0..count {
            let Some(card) = self.take(st, from, take) else { break };
            self.put(st, card, to, put);
            if log.enabled() {
                self.log_move(st, card, from, to, log);
            }
        }
    }

    fn log_move(&self, st: &State, card: u16, from: usize, to: usize, log: &mut EventLog<Event>) {
        let knows = st.know_zone[card as usize] & self.all_seats_mask();
        let (f, t) = (self.zone_label(from), self.zone_label(to));
        if knows != 0 {
            let text = format!("{} moves from {f} to {t}", self.card_name(card));
            log.emit(|| Event { to: knows, text });
        }
        let others = self.all_seats_mask() & !knows;
        if others != 0 {
            log.emit(|| Event { to: others, text: format!("a card moves from {f} to {t}") });
        }
    }

    pub(super) fn shuffle(&self, st: &mut State, z: usize, rng: &mut GameRng) {
        let cards = &mut st.zones[z];
        let n = cards.len();
        for i in (1..n).rev() {
            let j = rng::below((i + 1) as u32, rng) as usize;
            cards.swap(i, j);
        }
        let see_all = match self.zone_decl(z).visibility {
            Visibility::Everyone => self.all_seats_mask(),
            Visibility::Owner => self.owner(z).map_or(0, |o| 1 << o),
            _ => 0,
        };
        for i in 0..n {
            let c = st.zones[z][i] as usize;
            st.know_pos[c] = see_all | self.seers(z, st, i);
            st.know_zone[c] |= see_all | self.seers(z, st, i);
        }
    }

    /// `fill to up to size from from`.
    #[inline(never)]
    pub(super) fn fill(&self, st: &mut State, b: &mut [i64; BINDS], (to, from): (&Zone, &Zone), size: &Expr, log: &mut EventLog<Event>) {
        let n = self.operand(size, st, b).max(0) as usize;
        if let (Some(t), Some(f)) = (self.zone(to, st, b), self.zone(from, st, b)) {
            let have = st.zones[t].len();
            if have < n {
                self.move_cards(st, (f, t), n - have, (End::Top, End::Top), log);
            }
        }
    }

    /// `move N from A to B where C`: the cards of `from` the condition holds for, from the top
    /// down, at most `count`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_where(
        &self,
        st: &mut State,
        b: &mut [i64; BINDS],
        (from, to): (&Zone, &Zone),
        count: Option<&Expr>,
        put: End,
        (slot, cond): (u8, &Expr),
        log: &mut EventLog<Event>,
    ) {
        let n = match count {
            None => usize::MAX,
            Some(e) => self.operand(e, st, b).max(0) as usize,
        };
        let (Some(f), Some(t)) = (self.zone(from, st, b), self.zone(to, st, b)) else { return };
        let mut picked = Vec::new();
        for i in (0..st.zones[f].len()).rev() {
            if picked.len() >= n {
                break;
            }
            b[slot as usize] = i64::from(st.zones[f][i]);
            if self.operand(cond, st, b) != 0 {
                picked.push(i);
            }
        }
        for i in picked {
            let card = st.zones[f].remove(i);
            self.show_top(st, f);
            self.put(st, card, t, put);
            if log.enabled() {
                self.log_move(st, card, f, t, log);
            }
        }
    }

    /// A top-visible zone shows its new top (after a card left it).
    #[inline(always)]
    fn show_top(&self, st: &mut State, z: usize) {
        if let Some(&top) = st.zones[z].last()
            && self.see[z].1
        {
            let all = self.all_seats_mask();
            st.know_zone[top as usize] |= all;
            st.know_pos[top as usize] |= all;
        }
    }

    /// `reveal Z`: every seat sees the zone's cards.
    pub(super) fn reveal(&self, st: &mut State, b: &mut [i64; BINDS], z: &Zone, log: &mut EventLog<Event>) {
        let cards: Vec<u16> = self.cards_of(z, st, b).iter().collect();
        let all = self.all_seats_mask();
        for &c in &cards {
            st.know_zone[c as usize] |= all;
            st.know_pos[c as usize] |= all;
        }
        if log.enabled() && !cards.is_empty() {
            let text = format!("revealed: {}", self.cards_text(&cards));
            log.emit(|| Event::all(text));
        }
    }

    pub(super) fn move_chosen(&self, st: &mut State, to: usize, limit: usize, log: &mut EventLog<Event>) {
        let chosen = std::mem::take(&mut st.chosen);
        if limit >= chosen.len() && !log.enabled() && self.move_chosen_at_once(st, &chosen, to) {
            st.chosen = chosen;
            return;
        }
        for &card in chosen.iter().take(limit) {
            let from = st.where_is[card as usize] as usize;
            if let Some(i) = st.zones[from].iter().position(|&x| x == card) {
                st.zones[from].remove(i);
                self.show_top(st, from);
                self.put(st, card, to, End::Top);
                if log.enabled() {
                    self.log_move(st, card, from, to, log);
                }
            }
        }
        st.chosen = chosen;
    }

    /// [`Bound::move_chosen`] of every chosen card when they are all in one zone that shows
    /// no top card, in its order (as a choice of positions makes them), other than `to`: the
    /// cards leave it in one pass (no search for each card's place, no shift of the zone per
    /// card) and are put on `to` in order, the same moves as one at a time. False (nothing
    /// moved) for any other case.
    fn move_chosen_at_once(&self, st: &mut State, chosen: &[u16], to: usize) -> bool {
        let Some(&first) = chosen.first() else { return true };
        let from = st.where_is[first as usize] as usize;
        if from == to || self.see[from].1 || st.zones[from].len() > 64 {
            return false;
        }
        // The positions of the chosen cards, matched in order.
        let (mut leaving, mut j) = (0u64, 0usize);
        for (i, &c) in st.zones[from].iter().enumerate() {
            if j < chosen.len() && c == chosen[j] {
                leaving |= 1 << i;
                j += 1;
            }
        }
        if j < chosen.len() {
            return false;
        }
        // The cards that stay slide down over the ones that leave, in order.
        let zone = &mut st.zones[from];
        let mut kept = leaving.trailing_zeros() as usize;
        for i in kept + 1..zone.len() {
            if leaving & (1 << i) == 0 {
                zone[kept] = zone[i];
                kept += 1;
            }
        }
        zone.truncate(kept);
        for &card in chosen {
            self.put(st, card, to, End::Top);
        }
        true
    }
}
