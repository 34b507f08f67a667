//! One decision of the search: the root readied (the prior, `model=auto`'s shortlist),
//! iterations on fresh samples, rollouts and their scoring, and the duel that may follow.

use super::super::bots::{Bot, RANDOM};
use super::super::{EventLog, Game, GameRng, Sampler, SeedFrom, ToMove};
use super::judge::{SHRUNK_TRUST_TIMES, paired_lead_holds};
use super::tree::{NONE, Node};
use super::{Bar, Ismcts, Rollout};

/// How much of `model=auto`'s iterations a duel (`bar=2`) takes: one pair of playouts per
/// this many iterations (100 pairs, 200 playouts, of 1,000).
const DUEL_EVERY: u32 = 10;

/// Iterations a game's bot must have played this seat (`model=auto`) before its record can
/// make its choice the prior.
const OWN_POLICY_EVIDENCE: u32 = 200;

impl<G: Game> Ismcts<G> {
    /// The search's choice, compiled with the bit instructions where the processor has them.
    pub(super) fn searched(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        #[cfg(target_arch = "x86_64")]
        if crate::engine::cpu::has_bit_instructions() {
            // SAFETY: the processor has every feature `search_bits` is compiled with
            // (`cpu::has_bit_instructions` asked it at run time).
            return unsafe { self.search_bits(game, view, sampler, rng) };
        }
        self.search(game, view, sampler, rng)
    }

    /// [`Ismcts::search`] compiled with the bit-manipulation instructions (as the simulator's
    /// quick loop, `engine::play_quick_bits`): the rules inlined into selection and rollouts
    /// count and find bits in one instruction each. The same search, the same choice.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn search_bits(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.search(game, view, sampler, rng)
    }

    /// Runs the search from the decision described by `view` and `sampler` and returns its
    /// choice: the most visited action at the root, unless the trust test keeps the prior.
    #[inline(always)]
    pub(super) fn search(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.root_actions.clear();
        game.legal_actions(view, &mut self.root_actions);
        assert!(!self.root_actions.is_empty(), "a seat asked to decide must have a legal action");
        if self.root_actions.len() == 1 {
            return self.root_actions[0];
        }
        let root_count = self.root_actions.len() as u32;
        self.root_children.clear();
        self.root_children.resize(root_count as usize, NONE);
        self.root_untried.clear();
        self.root_untried.extend(0..root_count);
        // With a default bot at hand, its choice on the seat's own view is tried first, so a
        // search too short to try every action (hundreds of Penny Badger discards) starts
        // from a sensible one rather than a random one.
        self.prior = NONE;
        let own = match self.own_policy.as_mut() {
            Some(bot) => Some(bot),
            None => self.rollout_bots.get_mut(sampler.seat()),
        };
        // `model=auto` trusts a hand-written policy only: a game whose default bot is
        // `random` (Take a Penny) has no heuristic to keep, and its shortlist is searched
        // as the plain search's actions are.
        let own = own.filter(|bot| self.belief.is_none() || bot.name() != RANDOM);
        if let Some(bot) = own {
            bot.new_game(game, sampler.seat());
            let choice = bot.decide(game, view, rng);
            self.prior = self.root_actions.iter().position(|&a| a == choice).map_or(NONE, |i| i as u32);
        }
        self.children.clear();
        self.nodes.clear();
        self.proposals.clear();
        if self.belief.is_some() {
            self.propose(game, view, rng);
        }
        self.nodes.push(Node {
            action: None,
            mover: sampler.seat() as u8,
            parent: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        // The first decision allocates the sample buffer from a fixed stream, so the bot's
        // own stream is drawn the same way whether or not the buffer existed.
        let mut sample = self.sample.take().unwrap_or_else(|| sampler.sample(game, &mut GameRng::seed_from(0)));
        if let Some(belief) = self.belief.as_mut() {
            belief.prepare(game, sampler);
            self.stats.watched_searches += 1;
            self.stats.effective_millis += (belief.effective_samples() * 1000.0).round() as u64;
        }
        let pairs = self.duel_pairs();
        let tree = self.params.iterations - 2 * pairs;
        for _ in 0..tree {
            match self.belief.as_deref() {
                Some(belief) => belief.sample_into(game, sampler, rng, &mut sample),
                None => sampler.sample_into(game, rng, &mut sample),
            }
            self.iterate(game, &mut sample, sampler.seat(), rng);
        }
        self.stats.iterations += u64::from(tree);
        let best = self.most_visited_root();
        let choice = if pairs > 0 { self.dueled(game, sampler, rng, &mut sample, best as u32, pairs) as usize } else { self.trusted(best, root_count) };
        self.sample = Some(sample);
        self.root_actions[choice]
    }

    /// One iteration on the determinization `state`: select, expand, roll out, back up.
    #[inline(always)]
    pub(super) fn iterate(&mut self, game: &G, state: &mut G::State, searcher: usize, rng: &mut GameRng) {
        let mut log = EventLog::new(false);
        self.ready_players(game, searcher, rng);
        let (node, steps) = self.select_and_expand(game, state, searcher, rng, &mut log);
        let finished = self.roll_out(game, state, searcher, steps, rng, &mut log);
        self.back_up(game, state, node, finished);
    }

    /// Readies the bots that play one iteration: fresh games, each opponent's model drawn
    /// from the belief, the seat's own player chosen.
    #[inline(always)]
    pub(super) fn ready_players(&mut self, game: &G, searcher: usize, rng: &mut GameRng) {
        if !self.rollout_bots.is_empty() {
            for (seat, bot) in self.rollout_bots.iter_mut().enumerate() {
                bot.new_game(game, seat);
            }
            if let Some(bot) = self.own_policy.as_mut() {
                bot.new_game(game, searcher);
            }
            if let Some(belief) = self.belief.as_mut() {
                belief.draw_models(game, rng);
            }
            if !self.own_players.is_empty() {
                self.draw_own_policy(game, searcher);
            }
        }
    }

    /// `model=auto`'s shortlist at the root: the default bot's choice (the prior), then each
    /// of the game's own bots' choice in this seat (they heard what the seat heard), each
    /// action once.
    /// When one of the game's bots has won most as this seat's player in the searches so far
    /// this game ([`Ismcts::best_own_policy`]), its choice is the prior instead.
    pub(super) fn propose(&mut self, game: &G, view: &G::View<'_>, rng: &mut GameRng) {
        let best = self.best_own_policy();
        let mut choices = Vec::with_capacity(self.advisors.len());
        for (i, advisor) in self.advisors.iter_mut().enumerate() {
            let choice = advisor.decide(game, view, rng);
            let at = self.root_actions.iter().position(|&a| a == choice).map(|i| i as u32);
            if best == Some(i)
                && let Some(at) = at
            {
                self.prior = at;
            }
            choices.push(at);
        }
        if self.prior != NONE {
            self.proposals.push(self.prior);
        }
        for at in choices.into_iter().flatten() {
            if !self.proposals.contains(&at) {
                self.proposals.push(at);
            }
        }
    }

    /// The game's bot with the best mean win share as this seat's player in this game's
    /// searches so far (at least [`OWN_POLICY_EVIDENCE`] iterations each), if any.
    pub(super) fn best_own_policy(&self) -> Option<usize> {
        let enough = self.own_stats.iter().filter(|s| s.0 >= OWN_POLICY_EVIDENCE).count();
        if enough < 2 {
            return None;
        }
        let mean = |i: usize| self.own_stats[i].1 / self.own_stats[i].0 as f64;
        (0..self.own_stats.len()).filter(|&i| self.own_stats[i].0 >= OWN_POLICY_EVIDENCE).max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
    }

    /// Chooses the game's bot that plays this seat in one iteration (UCB1 over this game's
    /// iterations: each tried once, then the best mean plus an exploration bonus) and
    /// readies it for a game.
    pub(super) fn draw_own_policy(&mut self, game: &G, searcher: usize) {
        let total: u32 = self.own_stats.iter().map(|s| s.0).sum();
        let score =
            |s: &(u32, f64)| if s.0 == 0 { f64::INFINITY } else { s.1 / s.0 as f64 + self.params.exploration * ((total as f64).ln() / s.0 as f64).sqrt() };
        let mut pick = 0;
        for (i, s) in self.own_stats.iter().enumerate() {
            if score(s) > score(&self.own_stats[pick]) {
                pick = i;
            }
        }
        self.own_drawn = pick;
        self.own_players[pick].new_game(game, searcher);
    }

    /// The seat's own move in the search: the iteration's own player with `model=auto`,
    /// else the search policy or the default bot.
    pub(super) fn own_move(&mut self, game: &G, view: &G::View<'_>, seat: usize, rng: &mut GameRng) -> G::Action {
        if !self.own_players.is_empty() {
            return self.own_players[self.own_drawn].decide(game, view, rng);
        }
        match self.own_policy.as_mut() {
            Some(bot) => bot.decide(game, view, rng),
            None => self.rollout_bots[seat].decide(game, view, rng),
        }
    }

    /// Rollout: plays `state` on by the rollout policy (opponents by their drawn models under
    /// `model=auto`) to the end, or until `depth` actions counting the `steps` already taken.
    /// Returns whether the game finished.
    #[inline(always)]
    pub(super) fn roll_out(
        &mut self,
        game: &G,
        state: &mut G::State,
        searcher: usize,
        mut steps: u32,
        rng: &mut GameRng,
        log: &mut EventLog<G::Event>,
    ) -> bool {
        let mut finished = true;
        while let ToMove::Seat(seat) = game.to_move(state) {
            if self.params.depth > 0 && steps >= self.params.depth {
                finished = false;
                break;
            }
            let action = {
                let view = game.view(state, seat);
                if seat != searcher
                    && let Some(belief) = self.belief.as_mut()
                {
                    belief.player(seat).decide(game, &view, rng)
                } else {
                    match self.params.rollout {
                        Rollout::Random if !(self.model_opponents && seat != searcher) => game.random_action(&view, rng, &mut self.scratch),
                        _ if seat == searcher => self.own_move(game, &view, seat, rng),
                        _ => self.rollout_bots[seat].decide(game, &view, rng),
                    }
                }
            };
            game.apply(state, seat, action, rng, log);
            steps += 1;
        }
        finished
    }

    /// Every seat's win share at the end of a playout into `shares`: the outcome's when
    /// `finished`, else the standing leaders' (ties shared).
    #[inline(always)]
    pub(super) fn score(&mut self, game: &G, state: &G::State, finished: bool) {
        if finished {
            let outcome = game.outcome(state);
            for (seat, share) in self.shares.iter_mut().enumerate() {
                *share = outcome.win_share(seat);
            }
        } else {
            // Cut off: the seat(s) ahead in the game's own standing (money, score, pairs ...)
            // take the win, ties shared: a heuristic evaluation that needs no per-game code.
            let mut best = i64::MIN;
            let mut leaders = 0u32;
            for seat in 0..self.shares.len() {
                let s = game.standing(state, seat);
                if s > best {
                    best = s;
                    leaders = 1;
                } else if s == best {
                    leaders += 1;
                }
            }
            for (seat, share) in self.shares.iter_mut().enumerate() {
                *share = if game.standing(state, seat) == best { 1.0 / leaders as f64 } else { 0.0 };
            }
        }
    }

    /// The bot that plays opponent `seat` in the tree: a model drawn from the belief
    /// (`model=auto`), else the game's default bot.
    pub(super) fn opponent(&mut self, seat: usize) -> &mut dyn Bot<G> {
        match self.belief.as_mut() {
            Some(belief) => belief.player(seat),
            None => self.rollout_bots[seat].as_mut(),
        }
    }

    /// Pairs of playouts the duel may spend (`bar=2` with `model=auto`, a prior at hand and
    /// `trust` above 0): one per [`DUEL_EVERY`] iterations, none below two pairs.
    pub(super) fn duel_pairs(&self) -> u32 {
        let on = self.params.bar == Bar::Duel && self.belief.is_some() && self.params.trust > 0.0 && self.prior != NONE;
        let pairs = self.params.iterations / DUEL_EVERY;
        if on && pairs >= 2 { pairs } else { 0 }
    }

    /// The duel (`bar=2`): the most visited root action `best` replaces the prior only if,
    /// over `pairs` fresh pairs of playouts (one from each, sharing the sample, the
    /// opponents' models and the random stream), its win share beats the prior's by more
    /// than twice `trust` standard errors of the paired differences. Fresh playouts carry
    /// none of the luck that made `best` the most visited of many look-alike actions; the
    /// pairing cancels the luck of the deal. Spent only when `best` is not the prior.
    pub(super) fn dueled(&mut self, game: &G, sampler: &Sampler<'_, G>, rng: &mut GameRng, sample: &mut G::State, best: u32, pairs: u32) -> u32 {
        if best == self.prior {
            return best;
        }
        let seat = sampler.seat();
        let mut other = self.duel_state.take().unwrap_or_else(|| sample.clone());
        let (mut sum, mut squares) = (0.0, 0.0);
        let mut log = EventLog::new(false);
        for _ in 0..pairs {
            match self.belief.as_deref() {
                Some(belief) => belief.sample_into(game, sampler, rng, sample),
                None => sampler.sample_into(game, rng, sample),
            }
            other.clone_from(sample);
            let stream = rng.clone();
            let mut shares = [0.0; 2];
            for (share, (state, index)) in shares.iter_mut().zip([(&mut *sample, best), (&mut other, self.prior)]) {
                *rng = stream.clone();
                self.ready_players(game, seat, rng);
                game.apply(state, seat, self.root_actions[index as usize], rng, &mut log);
                let finished = self.roll_out(game, state, seat, 1, rng, &mut log);
                self.score(game, state, finished);
                *share = self.shares[seat];
            }
            let d = shares[0] - shares[1];
            sum += d;
            squares += d * d;
        }
        self.duel_state = Some(other);
        self.stats.iterations += 2 * u64::from(pairs);
        if paired_lead_holds(sum, squares, pairs, SHRUNK_TRUST_TIMES * self.params.trust) { best } else { self.prior }
    }
}
