//! Turn order: the next seat, a turn's start and end, passing the turn, a round's length.

use super::{Bound, State};
use crate::games::rules::program::*;

impl Bound {
    /// The acting seat after `seat` in turn order, passing over eliminated seats.
    pub fn next_player(&self, st: &State, seat: usize) -> usize {
        let n = self.players;
        let mut s = seat;
        for _ in 0..n {
            s = if st.reversed { (s + n - 1) % n } else { (s + 1) % n };
            if st.eliminated & (1 << s) == 0 {
                return s;
            }
        }
        seat
    }

    /// The start of a turn at `pc`: passes over seats the skip condition holds for.
    #[inline(never)]
    pub(super) fn turn_start(&self, st: &mut State, b: &mut [i64; BINDS], pc: usize) {
        let p = self.p();
        st.depth = 0;
        if st.eliminated & (1 << st.current) != 0 {
            st.current = self.next_player(st, st.current as usize) as u8;
        }
        if let Some(skip) = &p.skip {
            b[0] = st.current as i64;
            let skipped = self.cond(skip, st, b);
            b[0] = st.binds[0];
            if skipped {
                st.passed += 1;
                if st.passed as usize > self.players {
                    self.end_game(st, p.reason_stuck);
                    return;
                }
                st.current = self.next_player(st, st.current as usize) as u8;
                st.pc = pc as u32;
                return;
            }
        }
        st.passed = 0;
        st.in_turn = true;
    }

    /// The end of a turn: counts it, checks the end, the round's end and the cap, passes the
    /// turn on.
    #[inline(never)]
    pub(super) fn turn_end(&self, st: &mut State, b: &mut [i64; BINDS]) {
        let p = self.p();
        st.depth = 0;
        st.in_turn = false;
        st.turn += 1;
        st.round_turn += 1;
        if let Some(reason) = self.first_end(&p.game_ends, st, b) {
            self.end_game(st, reason);
            return;
        }
        if !p.round_ends.is_empty()
            && let Some(_reason) = self.first_end(&p.round_ends, st, b)
        {
            st.pc = p.round_end;
            return;
        }
        if p.rounds.is_some() {
            if st.round_turn >= self.cap {
                st.pc = if p.capped_round_scores { p.round_end } else { p.round_end + self.round_end_len() };
                return;
            }
        } else if st.turn >= self.cap {
            self.end_game(st, p.reason_cap);
            return;
        }
        self.pass_turn(st);
        st.pc = p.turn_start;
    }

    fn round_end_len(&self) -> u32 {
        // From the round's end steps to its RoundEnd instruction.
        let p = self.p();
        let mut i = p.round_end as usize;
        while !matches!(p.code[i], Instr::RoundEnd) {
            i += 1;
        }
        (i - p.round_end as usize) as u32
    }

    pub(super) fn active_players(&self, st: &State) -> usize {
        (0..self.players).filter(|&s| st.eliminated & (1 << s) == 0).count()
    }

    fn pass_turn(&self, st: &mut State) {
        let mut next = match st.next_seat.take() {
            Some(s) => s as usize,
            None => self.next_player(st, st.current as usize),
        };
        if st.skip_next {
            st.skip_next = false;
            next = self.next_player(st, next);
        }
        st.current = next as u8;
    }
}
