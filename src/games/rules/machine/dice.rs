//! Dice: a die is one card per face, one of them on the table; rolling shows another face.

use super::{Bound, Event, NOWHERE, State};
use crate::engine::{EventLog, GameRng, rng};
use crate::games::rules::expr::Zone;
use crate::games::rules::program::*;

impl Bound {
    /// `roll Z` / `roll chosen`: every die there shows a fair random face, in the same place;
    /// only the seats that see its place know the new face (cards that are not dice stay).
    pub(super) fn roll_dice(&self, st: &mut State, b: &mut [i64; BINDS], z: &Zone, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if self.dice.is_empty() {
            return;
        }
        let mut rolled = 0usize;
        if matches!(z, Zone::Chosen) {
            for k in 0..st.chosen.len() {
                let c = st.chosen[k];
                let at = st.where_is[c as usize];
                if at == NOWHERE {
                    continue;
                }
                if let Some(i) = st.zones[at as usize].iter().position(|&x| x == c) {
                    st.chosen[k] = self.roll_one(st, at as usize, i, rng);
                    rolled += 1;
                }
            }
        } else if let Some(at) = self.zone(z, st, b) {
            for i in 0..st.zones[at].len() {
                self.roll_one(st, at, i, rng);
                rolled += 1;
            }
            if log.enabled() && rolled > 0 {
                let see = self.see[at].0 & self.all_seats_mask();
                let label = self.zone_label(at);
                let faces = st.zones[at].iter().map(|&c| self.face_name(c)).collect::<Vec<_>>().join(", ");
                if see != 0 {
                    log.emit(|| Event { to: see, text: format!("{label} is rolled: {faces}") });
                }
                let others = self.all_seats_mask() & !see;
                if others != 0 {
                    log.emit(|| Event { to: others, text: format!("{label} is rolled ({rolled} dice)") });
                }
            }
            return;
        }
        if log.enabled() && rolled > 0 {
            log.emit(|| Event::all(format!("{rolled} chosen dice are rolled")));
        }
    }

    /// Rolls the card at place `i` of zone `z` when it is a die: the card of the new face takes
    /// its place (the old one leaves every zone), known to the seats that see the place.
    fn roll_one(&self, st: &mut State, z: usize, i: usize, rng: &mut GameRng) -> u16 {
        let c = st.zones[z][i];
        let (first, faces) = self.dice[c as usize];
        if faces == 0 {
            return c;
        }
        let n = first + rng::below(u32::from(faces), rng) as u16;
        if n != c {
            st.zones[z][i] = n;
            st.where_is[c as usize] = NOWHERE;
            st.know_zone[c as usize] = 0;
            st.know_pos[c as usize] = 0;
            st.where_is[n as usize] = z as u16;
        }
        let see = self.seers(z, st, i);
        st.know_zone[n as usize] = see;
        st.know_pos[n as usize] = see;
        n
    }

    /// Whether card `c` is a die (its place is public; its face may not be).
    #[inline]
    pub fn is_die(&self, c: usize) -> bool {
        self.dice.get(c).is_some_and(|&(_, faces)| faces > 0)
    }
}
