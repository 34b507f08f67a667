//! What a searching bot gets of the table besides its view: the [`Sampler`] of
//! determinizations.

use super::{Game, GameRng};

/// What a searching bot gets of the table besides its view: samples of the full state
/// consistent with what its seat has seen ([`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize)). The real state stays
/// private to the engine, so a bot cannot cheat by construction.
pub struct Sampler<'s, G: Game> {
    state: &'s G::State,
    seat: usize,
}

impl<'s, G: Game> Sampler<'s, G> {
    /// The sampler of `seat` deciding at `state` (engine only).
    #[inline(always)]
    pub(crate) fn new(state: &'s G::State, seat: usize) -> Self {
        Sampler { state, seat }
    }

    /// The deciding seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Writes a fresh determinization into `out` (an earlier sample, reused), with the
    /// hints of a table of default bots ([`HiddenInfo::honour_default_model`](crate::engine::HiddenInfo::honour_default_model)).
    #[inline]
    pub fn sample_into(&self, game: &G, rng: &mut GameRng, out: &mut G::State) {
        game.determinize(self.state, self.seat, rng, out);
        game.honour_default_model(self.state, self.seat, rng, out);
    }

    /// A fresh determinization (allocates; [`Sampler::sample_into`] reuses a buffer).
    pub fn sample(&self, game: &G, rng: &mut GameRng) -> G::State {
        let mut out = self.state.clone();
        self.sample_into(game, rng, &mut out);
        out
    }

    /// Writes into `out` a determinization from the seat's view and the public record alone
    /// ([`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize), no default-bot hints): for a search that weighs its samples
    /// by the models it infers ([`belief`](super::belief)).
    #[inline]
    pub fn deal_into(&self, game: &G, rng: &mut GameRng, out: &mut G::State) {
        game.determinize(self.state, self.seat, rng, out);
    }

    /// Re-deals `out`, an older sample, near itself to fit the seat's view ([`HiddenInfo::mend`](crate::engine::HiddenInfo::mend));
    /// false when the game keeps nothing of old samples.
    #[inline]
    pub fn mend(&self, game: &G, rng: &mut GameRng, out: &mut G::State) -> bool {
        game.mend(self.state, self.seat, rng, out)
    }

    /// [`Sampler::deal_into`] into a new state (allocates).
    pub fn deal(&self, game: &G, rng: &mut GameRng) -> G::State {
        let mut out = self.state.clone();
        self.deal_into(game, rng, &mut out);
        out
    }
}
