//! The end of a game: end checks, the end itself, the winners, each seat's standing and the
//! outcome.

use super::{Bound, State};
use crate::engine::{MAX_SEATS, Outcome};
use crate::games::rules::program::*;

impl Bound {
    pub(super) fn first_end(&self, checks: &[EndCheck], st: &State, b: &mut [i64; BINDS]) -> Option<u8> {
        checks.iter().find(|c| self.cond(&c.condition, st, b)).map(|c| c.reason)
    }

    /// `end game` or `end round` inside a turn: the turn under way counts as played (in the
    /// game's length, `turn` and the round's cap), as it does when it ends by its last step.
    pub(super) fn count_turn_under_way(st: &mut State) {
        if st.in_turn {
            st.in_turn = false;
            st.turn += 1;
            st.round_turn += 1;
        }
    }

    pub(super) fn end_game(&self, st: &mut State, reason: u8) {
        st.over = true;
        st.end_reason = reason;
        st.waiting = None;
        st.winners = self.winners(st);
    }

    /// The winners by the file's rules, tried in order.
    pub fn winners(&self, st: &State) -> u16 {
        let mut b = st.binds;
        // The seats still in the game, as a mask: no list is built (this runs once a game).
        let in_game = (0..self.seats).filter(|&s| st.eliminated & (1 << s) == 0).fold(0u16, |m, s| m | (1 << s));
        let seats_in = move || (0..MAX_SEATS).filter(move |&s| in_game & (1 << s) != 0);
        for rule in &self.program.winners {
            match rule {
                WinRule::Most { value, least, unique, rank } => {
                    let key = |v: i64| if *least { -v } else { v };
                    let mut vals = [i64::MIN; MAX_SEATS];
                    for s in seats_in() {
                        b[0] = s as i64;
                        vals[s] = key(self.eval(value, st, &mut b));
                    }
                    // The rank-th largest distinct value among the seats in the game.
                    let mut target: Option<i64> = None;
                    for _ in 0..*rank {
                        let above = target;
                        target = seats_in().map(|s| vals[s]).filter(|&v| above.is_none_or(|a| v < a)).max();
                        if target.is_none() {
                            break;
                        }
                    }
                    let Some(target) = target else { continue };
                    let mask = seats_in().filter(|&s| vals[s] == target).fold(0u16, |m, s| m | (1 << s));
                    if *unique && mask.count_ones() != 1 {
                        continue;
                    }
                    return mask;
                }
                WinRule::Only(c) => {
                    let mask = seats_in().filter(|&s| {
                        b[0] = s as i64;
                        self.eval(c, st, &mut b) != 0
                    });
                    let mask = mask.fold(0u16, |m, s| m | (1 << s));
                    if mask.count_ones() == 1 {
                        return mask;
                    }
                }
                WinRule::All(c) => {
                    let mask = seats_in().filter(|&s| {
                        b[0] = s as i64;
                        self.eval(c, st, &mut b) != 0
                    });
                    let mask = mask.fold(0u16, |m, s| m | (1 << s));
                    if mask != 0 {
                        return mask;
                    }
                }
            }
        }
        // No rule decided: every seat still in the game shares.
        in_game
    }

    /// A seat's standing by the file's `standing` (0 without one).
    pub fn standing(&self, st: &State, seat: usize) -> i64 {
        match &self.program.standing {
            None => 0,
            Some(e) => {
                let mut b = st.binds;
                b[0] = seat as i64;
                self.eval(e, st, &mut b)
            }
        }
    }

    /// The outcome of a finished game.
    pub fn outcome(&self, st: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = st.turn;
        o.end_reason = st.end_reason;
        o.winners = st.winners;
        let mut b = st.binds;
        for s in 0..self.seats {
            o.scores[s] = match (&self.program.score, &self.program.standing) {
                (Some(e), _) | (None, Some(e)) => {
                    b[0] = s as i64;
                    self.eval(e, st, &mut b)
                }
                _ => 0,
            };
            o.eliminated_at[s] = st.eliminated_at[s];
        }
        o
    }
}
