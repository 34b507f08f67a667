//! The bots around the table as the driver calls them: the [`Lineup`] trait, over boxed bots
//! of any kinds or a [`Uniform`] line-up of one kind.

use super::{Bot, Game, GameEvent, GameRng, Sampler};

/// The bots around the table as the driver calls them: a line-up of boxed bots of any
/// kinds, or a [`Uniform`] line-up of one kind, which the driver calls without dynamic dispatch.
pub trait Lineup<G: Game> {
    /// Number of bots (one per acting seat).
    fn len(&self) -> usize;
    /// Whether no seat has a bot.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether any bot wants events.
    fn listens(&self) -> bool;
    /// Whether any bot may draw from its seat's random stream ([`Bot::draws`]).
    fn draws(&self) -> bool {
        true
    }
    /// Called before each game.
    fn new_game(&mut self, game: &G);
    /// `seat`'s bot chooses one legal action (searching bots may draw samples from `sampler`).
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action;
    /// `seat`'s bot name (for messages).
    fn name(&self, seat: usize) -> &str;
    /// Hands an event to every listening bot whose seat can see it.
    fn observe(&mut self, event: &G::Event);
    /// Whether any bot watches the other seats' decisions ([`Bot::watches`]).
    fn watches(&self) -> bool {
        false
    }
    /// Hands `seat`'s decision at `state` (its public part, [`Game::public_action`]) to every
    /// other seat's watching bot, with a sampler of `state` from that bot's own seat.
    fn observe_decision(&mut self, _game: &G, _state: &G::State, _seat: usize, _action: &G::Action) {}
}

impl<G: Game> Lineup<G> for [Box<dyn Bot<G>>] {
    fn len(&self) -> usize {
        <[_]>::len(self)
    }
    fn listens(&self) -> bool {
        self.iter().any(|b| b.listens())
    }
    fn draws(&self) -> bool {
        self.iter().any(|b| b.draws())
    }
    fn new_game(&mut self, game: &G) {
        for (seat, bot) in self.iter_mut().enumerate() {
            bot.new_game(game, seat);
        }
    }
    #[inline]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self[seat].decide_with(game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        for (seat, bot) in self.iter_mut().enumerate() {
            if bot.listens() && event.visible_to(seat) {
                bot.observe(seat, event);
            }
        }
    }
    fn watches(&self) -> bool {
        self.iter().any(|b| b.watches())
    }
    fn observe_decision(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action) {
        // What the table sees of it, read here where the real state is at hand.
        let seen = game.seen(&game.view(state, seat), action);
        for (other, bot) in self.iter_mut().enumerate() {
            if other != seat && bot.watches() {
                bot.observe_decision(game, seat, &seen, &Sampler::new(state, other));
            }
        }
    }
}

impl<G: Game> Lineup<G> for Vec<Box<dyn Bot<G>>> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn listens(&self) -> bool {
        self.as_slice().listens()
    }
    fn draws(&self) -> bool {
        self.as_slice().draws()
    }
    fn new_game(&mut self, game: &G) {
        self.as_mut_slice().new_game(game)
    }
    #[inline]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.as_mut_slice().decide(seat, game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        self.as_mut_slice().observe(event)
    }
    fn watches(&self) -> bool {
        self.as_slice().watches()
    }
    fn observe_decision(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action) {
        self.as_mut_slice().observe_decision(game, state, seat, action)
    }
}

/// Every seat played by one bot kind `B`, called without dynamic dispatch (see
/// [`BotInfo::uniform`](super::BotInfo::uniform)): the same choices from the same streams as the boxed bots.
pub struct Uniform<B> {
    bots: Vec<B>,
}

impl<B> Uniform<B> {
    /// One bot per acting seat, in seat order.
    pub fn new(bots: Vec<B>) -> Self {
        Uniform { bots }
    }
}

impl<G: Game, B: Bot<G> + 'static> Lineup<G> for Uniform<B> {
    fn len(&self) -> usize {
        self.bots.len()
    }
    fn listens(&self) -> bool {
        self.bots.iter().any(|b| b.listens())
    }
    fn draws(&self) -> bool {
        self.bots.iter().any(|b| b.draws())
    }
    fn new_game(&mut self, game: &G) {
        for (seat, bot) in self.bots.iter_mut().enumerate() {
            bot.new_game(game, seat);
        }
    }
    #[inline(always)]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.bots[seat].decide_with(game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self.bots[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        for (seat, bot) in self.bots.iter_mut().enumerate() {
            if bot.listens() && event.visible_to(seat) {
                bot.observe(seat, event);
            }
        }
    }
}
