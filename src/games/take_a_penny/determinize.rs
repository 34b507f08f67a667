//! What a Take a Penny seat knows, and samples of the table consistent with it, for search
//! bots (`ismcts`): the table, the pot and every revealed round are public; the only secret is
//! the choices other seats already made in the round in progress.

use super::rules::State;
use super::{Choice, TakeAPenny};
use crate::engine::{GameRng, HiddenInfo};

impl HiddenInfo for TakeAPenny {
    /// Everything `seat` sees: the table, the pot, the revealed rounds and its own choice
    /// of the round in progress (no other seat's).
    fn observation(&self, s: &State, seat: usize) -> String {
        format!(
            "seat {seat} own choice {:?}; round {} next {} over {}; pennies {:?}; pot {}; last {:?}; legal {:#x}; before {:?} pot {}",
            s.chosen_by(seat),
            s.round,
            s.next,
            s.over,
            &s.pennies()[..self.setup.cards],
            s.pot,
            s.last(),
            s.legal_mask(seat),
            s.record().previous,
            s.record().pot,
        )
    }

    /// Determinization: the table, the pot and every revealed round are public; the only
    /// secret is the choices other seats already made this round (seats choose in seat
    /// order, all revealed at once), re-drawn uniformly from their legal choices.
    fn determinize(&self, state: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        out.clone_from(state);
        out.resample_hidden_choices(seat, rng);
    }

    /// Nothing: a choice stays secret until the round is revealed, after the last seat's.
    /// Whoever watches a seat choose (a search inferring how the table plays) learns only
    /// that it chose, so the choices of a round in progress never reach another seat.
    fn public_action(&self, _choice: &Choice) -> Choice {
        Choice::from_code(0)
    }
}
