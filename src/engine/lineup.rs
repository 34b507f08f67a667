//! The bots around the table as the driver calls them: the [`Lineup`] trait, over boxed bots
//! of any kinds or a [`Uniform`] line-up of one kind.

use super::{Bot, Game, GameEvent, GameRng, Sampler, SearchStats};

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
    /// Whether any bot reads samples of the hidden state ([`Bot::samples`]). Default: yes
    /// (a line-up that cannot tell keeps the public record samples read).
    fn samples(&self) -> bool {
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
    /// Hands `seat`'s decision at `state` (its public part, [`HiddenInfo::public_action`](crate::engine::HiddenInfo::public_action)) to every
    /// other seat's watching bot, with a sampler of `state` from that bot's own seat.
    fn observe_decision(&mut self, _game: &G, _state: &G::State, _seat: usize, _action: &G::Action) {}
    /// What the bots' searches have done so far, added over the seats ([`Bot::search_stats`]).
    fn search_stats(&self) -> SearchStats {
        SearchStats::default()
    }
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
    fn samples(&self) -> bool {
        self.iter().any(|b| b.samples())
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
    fn search_stats(&self) -> SearchStats {
        added(self.iter().map(|b| b.search_stats()))
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
    fn samples(&self) -> bool {
        self.as_slice().samples()
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
    fn search_stats(&self) -> SearchStats {
        self.as_slice().search_stats()
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
    fn samples(&self) -> bool {
        self.bots.iter().any(|b| b.samples())
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
    fn watches(&self) -> bool {
        self.bots.iter().any(|b| b.watches())
    }
    fn observe_decision(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action) {
        let seen = game.seen(&game.view(state, seat), action);
        for (other, bot) in self.bots.iter_mut().enumerate() {
            if other != seat && bot.watches() {
                bot.observe_decision(game, seat, &seen, &Sampler::new(state, other));
            }
        }
    }
    fn search_stats(&self) -> SearchStats {
        added(self.bots.iter().map(|b| b.search_stats()))
    }
}

/// The sum of the seats' search statistics.
fn added(each: impl Iterator<Item = SearchStats>) -> SearchStats {
    let mut sum = SearchStats::default();
    for s in each {
        sum.add(s);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::super::testing::Race;
    use super::super::{PlayOptions, Seen, Table, play};
    use super::*;

    /// A bot that only watches: it counts the other seats' decisions it is handed, and
    /// neither listens to events nor draws.
    struct Watcher {
        watched: u32,
    }

    impl Bot<Race> for Watcher {
        fn name(&self) -> &str {
            "watcher"
        }
        fn decide(&mut self, _game: &Race, _view: &<Race as Game>::View<'_>, _rng: &mut GameRng) -> u32 {
            1
        }
        fn draws(&self) -> bool {
            false
        }
        fn watches(&self) -> bool {
            true
        }
        fn observe_decision(&mut self, _game: &Race, _seat: usize, _seen: &Seen<u32>, _sampler: &Sampler<'_, Race>) {
            self.watched += 1;
        }
    }

    /// A bot that plans on samples of the hidden state, as a search does.
    struct Searcher;

    impl Bot<Race> for Searcher {
        fn name(&self) -> &str {
            "searcher"
        }
        fn decide(&mut self, _game: &Race, _view: &<Race as Game>::View<'_>, _rng: &mut GameRng) -> u32 {
            1
        }
        fn samples(&self) -> bool {
            true
        }
    }

    /// A table samples when any seat's bot does, seated uniformly or boxed beside bots that
    /// do not: only a table where none does is played without the sampled-state record.
    #[test]
    fn a_table_samples_when_any_seat_does() {
        let plain = || Box::new(Watcher { watched: 0 }) as Box<dyn Bot<Race>>;
        let mixed: Vec<Box<dyn Bot<Race>>> = vec![plain(), Box::new(Searcher), plain()];
        assert!(Lineup::<Race>::samples(&mixed));
        let none: Vec<Box<dyn Bot<Race>>> = (0..3).map(|_| plain()).collect();
        assert!(!Lineup::<Race>::samples(&none));
        assert!(Lineup::<Race>::samples(&Uniform::new(vec![Searcher, Searcher])));
        assert!(!Lineup::<Race>::samples(&Uniform::new(vec![Watcher { watched: 0 }])));
    }

    /// A watching bot seated uniformly still watches: every decision is handed to the other
    /// seats' bots, by the driver's every entry (`play`, and the simulator's `play_reusing`),
    /// as a line-up of boxed bots hands it.
    #[test]
    fn a_watching_bot_seated_uniformly_still_watches() {
        let g = Race { seats: 3, target: 10 };
        let mut uniform = Uniform::new((0..3).map(|_| Watcher { watched: 0 }).collect());
        assert!(Lineup::<Race>::watches(&uniform));
        let outcome = play(&g, &mut uniform, 1, PlayOptions::default(), None, None).expect("a legal game");
        assert_eq!(outcome.length, 10, "every seat adds 1");
        let watched: u32 = uniform.bots.iter().map(|b| b.watched).sum();
        assert_eq!(watched, 2 * outcome.length, "each decision seen by the two other seats");
        let again = Table::play_reusing(&mut uniform, &g, 2, PlayOptions::default(), &mut None).expect("a legal game");
        let twice: u32 = uniform.bots.iter().map(|b| b.watched).sum();
        assert_eq!(twice, watched + 2 * again.length, "the simulator's loop hands them too");
        let mut boxed: Vec<Box<dyn Bot<Race>>> = (0..3).map(|_| Box::new(Watcher { watched: 0 }) as Box<dyn Bot<Race>>).collect();
        assert!(Lineup::<Race>::watches(&boxed));
        assert_eq!(play(&g, &mut boxed, 1, PlayOptions::default(), None, None), Ok(outcome));
    }
}
