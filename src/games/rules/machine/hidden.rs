//! What a seat knows: its observation as canonical text, and determinizations that re-deal
//! what it cannot see.

use std::fmt::Write as _;

use super::sets::Block;
use super::{ARG, Bound, Choice, NOWHERE, State};
use crate::engine::{GameRng, rng};
use crate::games::rules::program::*;

impl Bound {
    /// Everything `seat` sees, as canonical text (see [`crate::engine::HiddenInfo::observation`]).
    pub fn observation(&self, st: &State, seat: usize) -> String {
        let p = self.p();
        let mut out = String::new();
        let _ = write!(
            out,
            "pc {} depth {} stack {:?} current {} first {} rev {} turn {} rt {} round {} over {} elim {} skip {} next {:?} passed {}|",
            st.pc,
            st.depth,
            &st.stack[..st.depth as usize],
            st.current,
            st.first,
            st.reversed,
            st.turn,
            st.round_turn,
            st.round,
            st.over,
            st.eliminated,
            st.skip_next,
            st.next_seat,
            st.passed
        );
        let _ = write!(out, "waiting {:?}|binds {:?} arg {}|counters {:?}|", st.waiting, &st.binds[..STEP_BINDS], st.binds[ARG], st.counters);
        for s in 0..self.seats {
            let (a, arg) = st.secret[s];
            if s == seat || st.revealed {
                let _ = write!(out, "secret{s} {a} {arg};");
            } else {
                let _ = write!(out, "secret{s} {};", a > 0);
            }
            let _ = write!(out, "last{s} {:?};", st.last[s]);
        }
        let bit = 1u8 << seat;
        for z in 0..p.zone_slots {
            let cards = &st.zones[z];
            if cards.is_empty() {
                continue;
            }
            let _ = write!(out, "|z{z} n{}:", cards.len());
            let mut loose: Vec<u32> = Vec::new();
            for (i, &c) in cards.iter().enumerate() {
                let c = c as usize;
                // A place the seat knows is part of what it sees even in a zone whose order
                // means nothing to the rules: its choices of cards name places.
                if st.know_pos[c] & bit != 0 {
                    let _ = write!(out, " {i}={}", self.kinds[c]);
                } else if st.know_zone[c] & bit != 0 {
                    loose.push(self.kinds[c]);
                }
            }
            loose.sort_unstable();
            if !loose.is_empty() {
                let _ = write!(out, " some {loose:?}");
            }
        }
        // Chosen cards stay known to whoever saw them (their places are in the zones).
        out
    }

    /// Writes into `out` a state `seat` cannot tell from `st`: every card whose zone it does
    /// not know dealt again at random into the places of such cards; cards it knows the zone
    /// of but not the place moved at random within their zone; other seats' secret choices not
    /// yet revealed chosen again at random among their legal ones.
    pub fn determinize(&self, st: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        out.clone_from(st);
        let p = self.p();
        let bit = 1u8 << seat;
        let mut pool: Vec<u16> = Vec::new();
        let mut free: Vec<(u16, u16)> = Vec::new();
        for z in 0..p.zone_slots {
            let cards = &st.zones[z];
            let mut zone_free: Vec<u16> = Vec::new();
            let mut zone_known: Vec<u16> = Vec::new();
            for (i, &c) in cards.iter().enumerate() {
                let ci = c as usize;
                // A card whose place the seat knows stays there, in an unordered zone too: the
                // seat's choices of cards name places, so a sample that moved its own hand
                // around would make a choice mean other cards.
                if st.know_pos[ci] & bit != 0 || self.is_die(ci) {
                    continue;
                }
                zone_free.push(i as u16);
                if st.know_zone[ci] & bit != 0 {
                    zone_known.push(c);
                } else {
                    pool.push(c);
                }
            }
            if zone_free.is_empty() {
                continue;
            }
            // Known-zone cards to random free places of their zone (in a canonical order first).
            zone_known.sort_unstable_by_key(|&c| (self.kinds[c as usize], c));
            for i in (1..zone_free.len()).rev() {
                let j = rng::below((i + 1) as u32, rng) as usize;
                zone_free.swap(i, j);
            }
            for (k, &slot) in zone_free.iter().enumerate() {
                if k < zone_known.len() {
                    let c = zone_known[k];
                    out.zones[z][slot as usize] = c;
                    out.where_is[c as usize] = z as u16;
                } else {
                    free.push((z as u16, slot));
                }
            }
        }
        free.sort_unstable();
        pool.sort_unstable_by_key(|&c| (self.kinds[c as usize], c));
        for i in (1..pool.len()).rev() {
            let j = rng::below((i + 1) as u32, rng) as usize;
            pool.swap(i, j);
        }
        for (k, &(z, slot)) in free.iter().enumerate() {
            let c = pool[k];
            out.zones[z as usize][slot as usize] = c;
            out.where_is[c as usize] = z;
        }
        if !self.dice.is_empty() {
            self.resample_faces(seat, rng, out);
        }
        // Other seats' unrevealed secret choices, again at random among their legal ones.
        if !st.revealed {
            for s in 0..self.players {
                if s == seat || st.secret[s].0 == 0 {
                    continue;
                }
                if let Some(at) = self.secret_choose_at(st) {
                    let mut options: Vec<Choice> = Vec::new();
                    self.each_choice(out, s, at, &mut |c| {
                        options.push(c);
                        true
                    });
                    if !options.is_empty() {
                        let c = options[rng::below(options.len() as u32, rng) as usize];
                        out.secret[s] = (c.action + 1, c.arg);
                    }
                }
            }
        }
        // The waiting seat's choices may differ in the sample: counted again.
        (out.counted, out.block) = self.recount(out);
    }

    /// A sampled state's dice whose faces `seat` does not know show a fair random face
    /// again (a die's place is public, so it stays; its face was a fair roll nobody showed
    /// the seat). The new face keeps what the seats knew of the die's place.
    fn resample_faces(&self, seat: usize, rng: &mut GameRng, out: &mut State) {
        let bit = 1u8 << seat;
        for z in 0..out.zones.len() {
            for i in 0..out.zones[z].len() {
                let c = out.zones[z][i] as usize;
                let (first, faces) = self.dice[c];
                if faces == 0 || out.know_zone[c] & bit != 0 {
                    continue;
                }
                let n = first as usize + rng::below(u32::from(faces), rng) as usize;
                if n != c {
                    out.zones[z][i] = n as u16;
                    out.where_is[n] = z as u16;
                    out.where_is[c] = NOWHERE;
                    out.know_zone[n] = out.know_zone[c];
                    out.know_pos[n] = out.know_pos[c];
                    out.know_zone[c] = 0;
                    out.know_pos[c] = 0;
                }
            }
        }
    }

    /// [`State::counted`] and [`State::block`] for `st` as the machine would set them
    /// stopping there.
    fn recount(&self, st: &State) -> (u32, Option<Block>) {
        let Some((seat, at)) = st.waiting else { return (0, None) };
        let Instr::Choose { actions, .. } = &self.p().code[at as usize] else { return (0, None) };
        if !self.countable(actions) {
            return (0, None);
        }
        let mut b = [0i64; BINDS];
        self.frame_into(st, &mut b);
        let (n, _, block) = self.count_or_pick(st, &mut b, seat as usize, actions, None);
        (n as u32, block)
    }

    /// The choose instruction of the secret choices under way (the waiting seat's, else the
    /// last secret choose in the code before the machine's place).
    fn secret_choose_at(&self, st: &State) -> Option<u32> {
        let p = self.p();
        if let Some((_, at)) = st.waiting
            && matches!(p.code[at as usize], Instr::Choose { secret: true, .. })
        {
            return Some(at);
        }
        (0..p.code.len()).rev().find(|&i| matches!(p.code[i], Instr::Choose { secret: true, .. })).map(|i| i as u32)
    }
}
