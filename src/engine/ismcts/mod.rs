//! `ismcts`: one search bot for every game. Single-observer information-set Monte Carlo
//! tree search (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
//! Search", IEEE TCIAIG 4(2)): one tree over the deciding seat's information sets, grown
//! by iterations that each
//! 1. draw a fresh determinization of the hidden state from the engine's [`Sampler`] (the
//!    bot never sees the real deal),
//! 2. descend the tree on that sample, at every node restricted to the actions legal in the
//!    sample, picking by UCB1 with availability counts (a child's exploration term uses how
//!    often it was *available*, not how often its parent was visited),
//! 3. add one new node, play a rollout (uniformly random, or the game's default bot with
//!    `rollout=1`) to the end or to `depth` actions, and
//! 4. back up every seat's win share (ties share; a rollout cut off at `depth` actions is
//!    scored by the game's standing over time, [`Game::standing`]: the seats ahead share
//!    the win): each node keeps the reward of the seat that chose its action, so each mover
//!    maximises its own component.
//!
//! Opponents' nodes are keyed by (mover, action), so opponents' choices in the sample are
//! searched like the bot's own (a bluff is judged by how determinized opponents answer
//! it). With `opponents=1` (a game's default where it measured stronger, see
//! [`crate::engine::SearchDefaults::opponents`]) they are not searched but played by the
//! game's default bot on the sample (an opponent model: the table plays sensibly, not
//! adversarially with the sample's cards in view); the tree still keys the bot's later
//! information sets by what the model chose, and UCB1 runs only at the bot's own nodes.
//!
//! With the default bot in play (`rollout=1` or `opponents=1`) its choice on the seat's own
//! view is the root's first expansion and, with `trust` above 0, the answer unless the most
//! visited action's mean share beats it by more than `trust` standard errors: a search too
//! short or too noisy to tell actions apart plays the heuristic, not a coin toss. Chance during the search draws from the bot's own stream, so the bot is
//! deterministic for a seed. Nodes live in one arena that keeps its capacity between
//! decisions and games: no allocation per iteration once warm.
//!
//! With `model=auto` (the default; `model=default` is the search before it, kept for
//! comparison, see docs/skill.md) the bot watches the table ([`crate::engine::belief`]):
//! each opponent is played in the tree and in rollouts by a model drawn, per iteration, from
//! a belief over the game's bots and a grid of their parameters, updated by Bayes' rule on
//! that opponent's public decisions; samples come from a pool of particles weighted by those
//! decisions while its effective sample size allows. `model=default` is the bot as it was
//! (`opponents` decides), bit for bit.
//!
//! With `model=auto` the trust test also allows for luck: the most visited of hundreds of
//! look-alike actions (Penny Badger's discards) is mostly the luckiest. Three ways (`bar`).
//! `bar=2` (the default), a duel: the tree gets four fifths of the iterations, and when its
//! most visited action is not the prior the last fifth are spent as pairs of playouts, one
//! from each action, sharing their sample, opponents' models and random stream; the pick
//! must beat the prior by twice `trust` standard errors of the paired differences
//! (`SHRUNK_TRUST_TIMES`, `Ismcts::dueled`). Fresh playouts carry none of the luck that
//! made the pick the most visited, and pairing cancels most of the rest. A decision never
//! runs more playouts than `iterations`. `bar=1`: the pick
//! must beat the prior by `trust` standard errors times twice the expected best of that many
//! noisy means (`beats_by_more_than_luck`). `bar=0` reads the luck from the evidence: every
//! searched root action's mean is shrunk toward the pack by how far the means spread beyond
//! their own noise (a random-effects estimate, `Shrinkage` in `judge.rs`), and the pick must beat the
//! prior's shrunk mean by twice `trust` posterior standard errors. Both keep the prior where
//! the search truly did better when the actions look alike (Bluffing Joker: docs/skill.md).
//!
//! `model=auto` also spends its iterations on few actions: the game's own bots, hearing what
//! the seat hears, each propose an action at the root (a shortlist, searched first and judged
//! against each other with the luck of a few, not of hundreds); the seat's own nodes widen
//! progressively (at most 1 + √visits children, the seat's policy's choice first), so a
//! Penny Badger turn's 660 discards no longer take 660 of the 1,000 iterations; and the seat
//! itself is played in the search, per iteration, by one of the game's bots chosen by UCB1
//! over how each has done as this seat so far in the game, whose choice becomes the prior
//! once it leads (the seat plays on as the hand-written bot that wins most at the table it
//! believes in, not always as the default bot).
//!
//! Known limit: a particle is kept when the opponent's model would have acted so in it, and
//! fresh samples are tried when too few fit (at most a few hundred); a decision that almost
//! no random deal explains (a Penny Badger claim of four of a kind) may find none, and is
//! then judged on uniformly re-dealt cards.
//!
//! The files: this one holds the bot (its state, how it is built, the [`Bot`] impl);
//! `params.rs` the parameters by name ([`SearchParams`], one table of defaults, ranges and
//! help); `search.rs` one decision (iterations, rollouts, scoring, the duel); `tree.rs` the
//! tree (nodes, selection and expansion, back-up); `judge.rs` whether the search's pick
//! replaces the prior (the trust tests). What a bot's searches did is counted on the bot
//! ([`SearchStats`], read through [`Bot::search_stats`]), never in process-wide counters.

mod judge;
mod params;
mod search;
mod tree;

pub use params::{Bar, Model, Rollout, SearchParams, table};

use std::collections::HashMap;

use super::belief::TableBelief;
use super::bots::{Bot, BotInfo, RandomBot, SearchStats};
use super::{Game, GameRng, Sampler, Seen};
use tree::{NONE, Node};

/// Name of the bot in specs.
pub const ISMCTS: &str = "ismcts";

/// The `ismcts` bot: see the module doc.
pub struct Ismcts<G: Game> {
    /// The parameters as the seat wrote them (`iterations` at least 1).
    params: SearchParams,
    /// Whether opponents play the game's default bot (an opponent model) instead of being
    /// searched by UCB1 in the tree (`opponents=1` or `model=auto`).
    model_opponents: bool,
    nodes: Vec<Node<G::Action>>,
    /// (parent, mover, action) -> child, for nodes below the root.
    children: HashMap<(u32, u8, G::Action), u32, foldhash::fast::FixedState>,
    /// The root's legal actions (the same in every sample: they come from the seat's view)
    /// and the child of each, by index; the indices not yet expanded.
    root_actions: Vec<G::Action>,
    root_children: Vec<u32>,
    root_untried: Vec<u32>,
    /// Index of the default bot's choice among the root's actions (tried first), or `NONE`.
    prior: u32,
    /// The duel's second state of a pair (kept between decisions: no allocation once warm).
    duel_state: Option<G::State>,
    sample: Option<G::State>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    scratch: Vec<G::Action>,
    rollout_bots: Vec<Box<dyn Bot<G>>>,
    /// The seat's own policy ([`crate::engine::SearchDefaults::policy`] with `policy=1`), when it is not the
    /// default bot: the prior, and the seat's own moves in default-bot rollouts.
    own_policy: Option<Box<dyn Bot<G>>>,
    shares: Vec<f64>,
    /// With `model=auto`: how the table plays and what it holds, inferred from its play;
    /// each opponent is played by a model drawn from it ([`crate::engine::belief`]).
    belief: Option<Box<TableBelief<G>>>,
    /// With `model=auto`: the game's own bots (default parameters) in this bot's seat,
    /// hearing what it hears; their choices at the root are the search's shortlist.
    advisors: Vec<Box<dyn Bot<G>>>,
    /// Root indices of the shortlist (the default bot's choice first, then the advisors'),
    /// searched first and judged against each other as a few actions, not hundreds.
    proposals: Vec<u32>,
    seat: usize,
    /// With `model=auto` and default-bot rollouts: the game's own bots again, playing this
    /// seat in the search, one per iteration chosen by UCB1 over how each has done so far
    /// this game ([`Ismcts::draw_own_policy`]): the seat plays on as the hand-written bot
    /// that wins most against the table it believes in.
    own_players: Vec<Box<dyn Bot<G>>>,
    /// Per own player: iterations played and summed win share of this seat, this game.
    own_stats: Vec<(u32, f64)>,
    own_drawn: usize,
    /// What this bot's searches have done so far ([`Bot::search_stats`]).
    stats: SearchStats,
}

impl<G: Game> Ismcts<G> {
    /// A search bot for `game` with the parameters `params` (see [`SearchParams`]; the
    /// defaults of the game are [`SearchParams::defaults`]).
    pub fn new(game: &G, params: SearchParams) -> Self {
        let params = SearchParams { iterations: params.iterations.max(1), ..params };
        let infer = params.model == Model::Auto;
        let belief = infer.then(|| Box::new(TableBelief::new(game)));
        let model_opponents = params.opponents || belief.is_some();
        let with_bots = params.rollout == Rollout::DefaultBot || model_opponents;
        let rollout_bots = if with_bots { (0..game.acting_seats()).map(|_| named_bot(game, G::INFO.default_bot)).collect() } else { Vec::new() };
        let own_policy = (with_bots && params.policy && G::INFO.search_policy() != G::INFO.default_bot).then(|| named_bot(game, G::INFO.search_policy()));
        let own_bots = || -> Vec<Box<dyn Bot<G>>> {
            game.bots().iter().map(|info| (info.build)(game, &info.params.iter().map(|p| p.default).collect::<Vec<f64>>())).collect()
        };
        let advisors = if infer { own_bots() } else { Vec::new() };
        let own_players = if infer && params.rollout == Rollout::DefaultBot { own_bots() } else { Vec::new() };
        Ismcts {
            params,
            model_opponents,
            nodes: Vec::new(),
            children: HashMap::with_hasher(foldhash::fast::FixedState::default()),
            root_actions: Vec::new(),
            root_children: Vec::new(),
            root_untried: Vec::new(),
            prior: NONE,
            duel_state: None,
            sample: None,
            legal: Vec::new(),
            untried: Vec::new(),
            scratch: Vec::new(),
            rollout_bots,
            own_policy,
            shares: vec![0.0; game.seats()],
            belief,
            advisors,
            proposals: Vec::new(),
            seat: 0,
            own_stats: vec![(0, 0.0); own_players.len()],
            own_players,
            own_drawn: 0,
            stats: SearchStats::default(),
        }
    }

    /// The `ismcts` entry of every game's bot list.
    pub fn info() -> BotInfo<G> {
        BotInfo {
            name: ISMCTS,
            aliases: &[],
            doc: "information-set Monte Carlo tree search on sampled deals (determinizations), any game",
            params: table::<G>(),
            build: |game, values| Box::new(Ismcts::new(game, SearchParams::from_values::<G>(values))),
            uniform: None,
            // It plans with the rules and scores with the game's standing: every key.
            reads: &["*"],
        }
    }

    /// The root of the last search (`decide_with`): every legal action of the deciding seat
    /// that the search tried, with its visits and its summed win share for that seat (ties
    /// shared; cut-off iterations scored by the standing, see the module doc). Empty when the
    /// last decision had a single legal action (no search ran). Read by `playtest play`'s
    /// hints; the search itself never reads it.
    pub fn root_statistics(&self) -> Vec<(G::Action, u32, f64)> {
        if self.root_children.len() != self.root_actions.len() {
            return Vec::new();
        }
        self.root_actions
            .iter()
            .zip(&self.root_children)
            .filter(|(_, c)| **c != NONE)
            .map(|(a, &c)| {
                let n = &self.nodes[c as usize];
                (*a, n.visits, n.reward)
            })
            .collect()
    }

    /// The belief about the table (`model=auto`): models per seat and the particles.
    pub fn belief(&self) -> Option<&TableBelief<G>> {
        self.belief.as_deref()
    }
}

/// The game's bot `name` with its default parameters (the default bot or the search
/// policy, both checked to be among the game's bots by the registry's tests).
fn named_bot<G: Game>(game: &G, name: &str) -> Box<dyn Bot<G>> {
    // The game's roster ([`crate::engine::all_bots`]) without naming it: the roster lists this bot.
    let infos: Vec<BotInfo<G>> = [RandomBot::info(), Ismcts::info()].into_iter().chain(game.bots()).collect();
    let info = infos.iter().find(|b| b.name == name).expect("a game's default bot and search policy are among its bots");
    let params: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    (info.build)(game, &params)
}

impl<G: Game> Bot<G> for Ismcts<G> {
    fn name(&self) -> &str {
        ISMCTS
    }

    /// Without samples (a caller outside the engine's play loop) the bot cannot search; it
    /// plays its rollout policy's choice.
    fn decide(&mut self, game: &G, view: &G::View<'_>, rng: &mut GameRng) -> G::Action {
        game.random_action(view, rng, &mut self.scratch)
    }

    /// The search plans on samples of the hidden state.
    fn samples(&self) -> bool {
        true
    }

    fn decide_with(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        let action = self.searched(game, view, sampler, rng);
        if let Some(belief) = self.belief.as_mut() {
            belief.own_action(game, &action);
        }
        action
    }

    fn new_game(&mut self, game: &G, seat: usize) {
        self.seat = seat;
        if let Some(belief) = self.belief.as_mut() {
            belief.new_game(game, seat);
        }
        for advisor in &mut self.advisors {
            advisor.new_game(game, seat);
        }
        self.own_stats.iter_mut().for_each(|s| *s = (0, 0.0));
    }

    /// With `model=auto` it hears the table (its models count cards too) and watches every
    /// decision; that also keeps its games on the engine's detailed loop, which reports them.
    fn listens(&self) -> bool {
        self.belief.is_some()
    }

    fn observe(&mut self, _seat: usize, event: &G::Event) {
        if let Some(belief) = self.belief.as_mut() {
            belief.observe(event);
        }
        for advisor in self.advisors.iter_mut().filter(|a| a.listens()) {
            advisor.observe(self.seat, event);
        }
    }

    /// A search cannot say how likely it is to take an action.
    fn action_probability(&mut self, _game: &G, _view: &G::View<'_>, _seen: &Seen<G::Action>) -> Option<f64> {
        None
    }

    fn watches(&self) -> bool {
        self.belief.is_some()
    }

    fn observe_decision(&mut self, game: &G, seat: usize, seen: &Seen<G::Action>, sampler: &Sampler<'_, G>) {
        if let Some(belief) = self.belief.as_mut() {
            belief.observe_decision(game, seat, seen, sampler);
        }
    }

    fn search_stats(&self) -> SearchStats {
        self.stats
    }
}
