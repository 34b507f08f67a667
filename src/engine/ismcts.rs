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
//! [`crate::engine::Game::SEARCH_OPPONENTS`]) they are not searched but played by the
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
//! ([`SHRUNK_TRUST_TIMES`], [`Ismcts::dueled`]). Fresh playouts carry none of the luck that
//! made the pick the most visited, and pairing cancels most of the rest. A decision never
//! runs more playouts than `iterations`. `bar=1`: the pick
//! must beat the prior by `trust` standard errors times twice the expected best of that many
//! noisy means (`beats_by_more_than_luck`). `bar=0` reads the luck from the evidence: every
//! searched root action's mean is shrunk toward the pack by how far the means spread beyond
//! their own noise (a random-effects estimate, see [`Shrinkage`]), and the pick must beat the
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

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use super::belief::TableBelief;
use super::bots::{Bot, BotInfo, BotParamInfo, RANDOM, RandomBot};
use super::rng::below;
use super::{EventLog, Game, GameRng, Sampler, SeedFrom, ToMove};

/// Name of the bot in specs.
pub const ISMCTS: &str = "ismcts";

const NONE: u32 = u32::MAX;

/// How many times the luck of the best of k noisy means `model=auto`'s search must beat the
/// prior by (`beats_by_more_than_luck`). Once played Beaver Mania's mixed table better (76.9%,
/// 70.6 to 82.2, against 57.0%, 200 rotated games) but lost to three Penny Badger `counter`s
/// (11.7%, 6.9 to 19.1, against 34.2%, 26.3 to 43.0, 120 rotated games): docs/skill.md.
const LUCK_TIMES: f64 = 2.0;

/// How many times `trust` standard errors `model=auto`'s pick must beat the prior by with
/// `bar=0` ([`Shrinkage`]) and `bar=2` (the duel), so that `trust`'s one default serves both
/// models: with `bar=0` at once three Flower Power `greedy`s 52.9% (49.9 to 56.0) and three
/// Penny Badger `counter`s too few, at twice 48.9% (45.8 to 52.0) against `model=default`'s
/// 51.6% and the counters' table kept; the duel at once lost to three Penny Badger `counter`s
/// (39.0% against 50.0% at twice, 200 rotated games; docs/skill.md).
const SHRUNK_TRUST_TIMES: f64 = 2.0;

/// How much of `model=auto`'s iterations a duel (`bar=2`) takes: one pair of playouts per
/// this many iterations (100 pairs, 200 playouts, of 1,000).
const DUEL_EVERY: u32 = 10;

/// Iterations a game's bot must have played this seat (`model=auto`) before its record can
/// make its choice the prior.
const OWN_POLICY_EVIDENCE: u32 = 200;

/// Search iterations run by every `ismcts` bot of the process (for `playtest bench`).
static ITERATIONS: AtomicU64 = AtomicU64::new(0);

/// Search iterations run so far by every `ismcts` bot of the process: `playtest bench`
/// divides the difference over a run by its time.
pub fn iterations_run() -> u64 {
    ITERATIONS.load(Ordering::Relaxed)
}

/// Searches run with `model=auto` by every `ismcts` bot of the process, and the sum of the
/// effective sample sizes of their particle pools in thousandths (for `playtest bench`).
static WATCHED_SEARCHES: AtomicU64 = AtomicU64::new(0);
static EFFECTIVE_MILLIS: AtomicU64 = AtomicU64::new(0);

/// Searches run so far with `model=auto` by every `ismcts` bot of the process, and the sum
/// of their pools' effective sample sizes (0 for a search that drew fresh samples):
/// `playtest bench` prints the mean over a run, how much the samples were read from play.
pub fn effective_samples_run() -> (u64, f64) {
    (WATCHED_SEARCHES.load(Ordering::Relaxed), EFFECTIVE_MILLIS.load(Ordering::Relaxed) as f64 / 1000.0)
}

/// One tree node: the information set reached by `action` of `mover` from its parent.
#[derive(Clone, Copy)]
struct Node<A> {
    action: Option<A>,
    mover: u8,
    parent: u32,
    visits: u32,
    available: u32,
    reward: f64,
    /// First child and next sibling (`NONE`: none): the children of a node without the
    /// legal actions (`model=auto`'s widened nodes walk only the children they have).
    first_child: u32,
    next_sibling: u32,
}

/// How `model=auto`'s pick must beat the prior (`bar`; module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bar {
    /// `bar=0`: means shrunk toward the pack by their spread beyond noise ([`Shrinkage`]).
    Shrunk,
    /// `bar=1`: a fixed bar for the luck of the best of k noisy means.
    Luck,
    /// `bar=2`: paired playouts after the search ([`Ismcts::dueled`]).
    Duel,
}

/// How rollouts choose their actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rollout {
    /// Uniformly random legal actions.
    Random,
    /// The game's default bot in every seat.
    DefaultBot,
}

/// The `ismcts` bot: see the module doc.
pub struct Ismcts<G: Game> {
    iterations: u32,
    exploration: f64,
    rollout: Rollout,
    depth: u32,
    /// Whether opponents play the game's default bot (an opponent model) instead of being
    /// searched by UCB1 in the tree.
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
    /// Standard errors by which an action must beat the default bot's choice (0: off).
    trust: f64,
    /// With `model=auto`: how the search's pick must beat the prior.
    bar: Bar,
    /// The duel's second state of a pair (kept between decisions: no allocation once warm).
    duel_state: Option<G::State>,
    sample: Option<G::State>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    scratch: Vec<G::Action>,
    rollout_bots: Vec<Box<dyn Bot<G>>>,
    /// The seat's own policy ([`Game::SEARCH_POLICY`] with `policy=1`), when it is not the
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
}

impl<G: Game> Ismcts<G> {
    /// A search bot with `iterations` per decision, UCB1 constant `exploration`, rollout
    /// policy (0 random, 1 the game's default bot) and depth cut-off (0: play to the end).
    /// `opponents` 1 models the table by the default bot; `trust` is how many standard
    /// errors the search must beat the prior by; `policy` 1 plays the seat's own part by the
    /// game's [`Game::SEARCH_POLICY`] instead of its default bot. Opponents are modelled as
    /// `opponents` says (`model=default`); see [`Ismcts::inferring`] for `model=auto`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(game: &G, iterations: u32, exploration: f64, rollout: u32, depth: u32, opponents: u32, trust: f64, policy: u32) -> Self {
        Self::build(game, iterations, exploration, rollout, depth, opponents, trust, policy, false)
    }

    /// The same bot with `model=auto`: every opponent is played by a model inferred from its
    /// play so far (whatever `opponents` says), on samples weighted by what the table did.
    #[allow(clippy::too_many_arguments)]
    pub fn inferring(game: &G, iterations: u32, exploration: f64, rollout: u32, depth: u32, opponents: u32, trust: f64, policy: u32) -> Self {
        Self::build(game, iterations, exploration, rollout, depth, opponents, trust, policy, true)
    }

    #[allow(clippy::too_many_arguments)]
    fn build(game: &G, iterations: u32, exploration: f64, rollout: u32, depth: u32, opponents: u32, trust: f64, policy: u32, infer: bool) -> Self {
        let rollout = if rollout == 0 { Rollout::Random } else { Rollout::DefaultBot };
        let belief = infer.then(|| Box::new(TableBelief::new(game)));
        let model_opponents = opponents != 0 || belief.is_some();
        let with_bots = rollout == Rollout::DefaultBot || model_opponents;
        let rollout_bots = if with_bots { (0..game.acting_seats()).map(|_| named_bot(game, G::INFO.default_bot)).collect() } else { Vec::new() };
        let own_policy = (with_bots && policy != 0 && G::INFO.search_policy() != G::INFO.default_bot).then(|| named_bot(game, G::INFO.search_policy()));
        let own_bots = || -> Vec<Box<dyn Bot<G>>> {
            G::bots().iter().map(|info| (info.build)(game, &info.params.iter().map(|p| p.default).collect::<Vec<f64>>())).collect()
        };
        let advisors = if infer { own_bots() } else { Vec::new() };
        let own_players = if infer && rollout == Rollout::DefaultBot { own_bots() } else { Vec::new() };
        Ismcts {
            iterations: iterations.max(1),
            exploration,
            rollout,
            depth,
            model_opponents,
            nodes: Vec::new(),
            children: HashMap::with_hasher(foldhash::fast::FixedState::default()),
            root_actions: Vec::new(),
            root_children: Vec::new(),
            root_untried: Vec::new(),
            prior: NONE,
            trust,
            bar: Bar::Luck,
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
        }
    }

    /// The bot's parameters; `depth` defaults to the game's [`Game::SEARCH_DEPTH`].
    const PARAMS: &'static [BotParamInfo] = &[
        BotParamInfo { name: "iterations", default: 1000.0, min: 1.0, max: 10_000_000.0, doc: "search iterations per decision" },
        BotParamInfo { name: "c", default: 0.7, min: 0.0, max: 100.0, doc: "UCB1 exploration constant" },
        BotParamInfo {
            name: "rollout",
            default: G::INFO.search.rollout as f64,
            min: 0.0,
            max: 1.0,
            doc: "rollout policy: 0 uniformly random, 1 the game's default bot (default: the game's own)",
        },
        BotParamInfo {
            name: "depth",
            default: G::INFO.search.depth as f64,
            min: 0.0,
            max: 1_000_000.0,
            doc: "actions per iteration before it is cut off and scored by the standing (leaders win; 0: play to the end; default: the game's own)",
        },
        BotParamInfo {
            name: "opponents",
            default: G::INFO.search.opponents as f64,
            min: 0.0,
            max: 1.0,
            doc: "opponents in the tree: 0 searched like its own choices (each maximises its own share), 1 played by the game's default bot (an opponent model); default: the game's own",
        },
        BotParamInfo {
            name: "trust",
            default: 1.0,
            min: 0.0,
            max: 10.0,
            doc: "with a default bot in play (rollout or opponents 1): its choice stands unless the search's beats it by more than this many standard errors (with `model=auto`, see `bar`; 0: the most visited action)",
        },
        BotParamInfo {
            name: "policy",
            default: 1.0,
            min: 0.0,
            max: 1.0,
            doc: "the seat's own prior and rollout moves: 0 the game's default bot, 1 the game's search policy (a stronger hand-written bot where the game names one)",
        },
        BotParamInfo {
            name: "model",
            default: 1.0,
            min: 0.0,
            max: 1.0,
            doc: "opponents: `auto` (1, the default) played by models inferred from their play so far, hidden cards weighted by what was done with them; `default` (0) as `opponents` says (the search before `auto`, for comparison)",
        },
        BotParamInfo {
            name: "bar",
            default: 2.0,
            min: 0.0,
            max: 2.0,
            doc: "with `model=auto`, how the search's pick must beat the prior: 2 (the default) by twice `trust` standard errors of paired playouts from both after the search (a fifth of the iterations, kept back for it); 0 by twice `trust` standard errors on root means shrunk toward the pack by their spread beyond noise; 1 by `trust` standard errors times twice the luck of the best of k legal actions",
        },
    ];

    /// The `ismcts` entry of every game's bot list.
    pub fn info() -> BotInfo<G> {
        BotInfo {
            name: ISMCTS,
            aliases: &[],
            doc: "information-set Monte Carlo tree search on sampled deals (determinizations), any game",
            params: Self::PARAMS,
            build: |game, p| {
                let make = if p[7] != 0.0 { Ismcts::inferring } else { Ismcts::new };
                let mut bot = make(game, p[0] as u32, p[1], p[2] as u32, p[3] as u32, p[4] as u32, p[5], p[6] as u32);
                bot.bar = match p[8] as u32 {
                    0 => Bar::Shrunk,
                    1 => Bar::Luck,
                    _ => Bar::Duel,
                };
                Box::new(bot)
            },
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

    /// Runs the search from the decision described by `view` and `sampler` and returns the
    /// most visited action at the root.
    /// [`Ismcts::search`] compiled with the bit-manipulation instructions (as the simulator's
    /// quick loop, `engine::play_quick_bits`): the rules inlined into selection and rollouts
    /// count and find bits in one instruction each. The same search, the same choice.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn search_bits(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.search(game, view, sampler, rng)
    }

    #[inline(always)]
    fn search(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
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
            WATCHED_SEARCHES.fetch_add(1, Ordering::Relaxed);
            EFFECTIVE_MILLIS.fetch_add((belief.effective_samples() * 1000.0).round() as u64, Ordering::Relaxed);
        }
        let pairs = self.duel_pairs();
        let tree = self.iterations - 2 * pairs;
        for _ in 0..tree {
            match self.belief.as_deref() {
                Some(belief) => belief.sample_into(game, sampler, rng, &mut sample),
                None => sampler.sample_into(game, rng, &mut sample),
            }
            self.iterate(game, &mut sample, sampler.seat(), rng);
        }
        ITERATIONS.fetch_add(tree as u64, Ordering::Relaxed);
        let best = self.most_visited_root();
        let choice = if pairs > 0 { self.dueled(game, sampler, rng, &mut sample, best as u32, pairs) as usize } else { self.trusted(best, root_count) };
        self.sample = Some(sample);
        self.root_actions[choice]
    }

    /// The most visited root child; ties to the default bot's choice (a search too short to
    /// try every action once leaves every child one visit), then to the better mean reward,
    /// then to the first legal action (deterministic).
    #[inline(always)]
    fn most_visited_root(&self) -> usize {
        let mut best = 0;
        let mut best_key = (0u32, false, f64::NEG_INFINITY);
        for (i, &child) in self.root_children.iter().enumerate() {
            if child == NONE {
                continue;
            }
            let n = &self.nodes[child as usize];
            let key = (n.visits, i as u32 == self.prior, n.reward / n.visits.max(1) as f64);
            if key.0 > best_key.0 || (key.0 == best_key.0 && (key.1, key.2) > (best_key.1, best_key.2)) {
                best_key = key;
                best = i;
            }
        }
        best
    }

    /// Trust in the default bot: its choice (the root index `prior`) stays unless the most
    /// visited root child `best`'s mean beats it by more than `trust` standard errors (shares
    /// read as Bernoulli trials; with `model=auto` on means shrunk toward the pack,
    /// [`Ismcts::trusted_shortlist`]).
    #[inline(always)]
    fn trusted(&self, best: usize, root_count: u32) -> usize {
        if self.belief.is_some() {
            return self.trusted_shortlist(best as u32, root_count) as usize;
        }
        if self.trust > 0.0 && self.prior != NONE && best as u32 != self.prior {
            let p = self.root_children[self.prior as usize];
            if p != NONE {
                let (a, b) = (&self.nodes[self.root_children[best] as usize], &self.nodes[p as usize]);
                let (na, nb) = (a.visits.max(1) as f64, b.visits.max(1) as f64);
                let (ma, mb) = (a.reward / na, b.reward / nb);
                let se = (ma * (1.0 - ma) / na + mb * (1.0 - mb) / nb).sqrt().max(1e-9);
                if ma - mb <= self.trust * se {
                    return self.prior as usize;
                }
            }
        }
        best
    }

    /// `model=auto`'s trust (`bar=1`: [`Ismcts::trusted_luck_bar`]); with `bar=0` read from
    /// the evidence: the most visited proposal (the shortlist
    /// of the game's bots) replaces the prior (the choice of the game's bot that has won most
    /// as this seat in the search), and then the most visited root child `best` replaces that,
    /// when its mean, shrunk toward the pack of every searched root child ([`Shrinkage`]),
    /// beats the other's by more than `trust` posterior standard errors.
    ///
    /// Why shrunk: a Penny Badger turn has hundreds of look-alike discards, each scored by a
    /// handful of won-or-lost games, and the most visited one is then mostly the luckiest:
    /// the plain test let a lucky bluff replace the honest claim against card counters. A
    /// fixed bar for that luck (twice `sqrt(2 ln k)` standard errors for k legal actions)
    /// kept the claim but also the prior where the search's pick truly was better: Flower
    /// Power's mixed table 53.6% against `model=default`'s 66.3% (1,000 rotated games).
    /// Shrinking by the spread the means show beyond their noise asks for a wide margin only
    /// where the actions look alike: 75.4% there (docs/skill.md).
    fn trusted_shortlist(&self, best: u32, root_count: u32) -> u32 {
        if self.trust <= 0.0 || self.prior == NONE || self.root_children[self.prior as usize] == NONE {
            return best;
        }
        let node = |i: u32| &self.nodes[self.root_children[i as usize] as usize];
        if self.bar == Bar::Luck {
            return self.trusted_luck_bar(best, root_count);
        }
        let shrinkage = Shrinkage::of(self.root_children.iter().filter(|&&c| c != NONE).map(|&c| &self.nodes[c as usize]));
        let beats = |a: u32, b: u32| shrinkage.beats(node(a), node(b), SHRUNK_TRUST_TIMES * self.trust);
        let mut choice = self.prior;
        let top = self.proposals.iter().copied().filter(|&p| self.root_children[p as usize] != NONE).max_by_key(|&p| (node(p).visits, std::cmp::Reverse(p)));
        if let Some(p) = top
            && p != choice
            && beats(p, choice)
        {
            choice = p;
        }
        if best != choice && beats(best, choice) {
            choice = best;
        }
        choice
    }

    /// `bar=1`'s trust (the default): the most visited proposal replaces the prior if it beats
    /// it by more than [`LUCK_TIMES`] the luck of the best of the few proposals; the most
    /// visited action outside the shortlist replaces that one only if it beats it by more than
    /// that many times the luck of the best of all `root_count` actions.
    fn trusted_luck_bar(&self, best: u32, root_count: u32) -> u32 {
        let node = |i: u32| &self.nodes[self.root_children[i as usize] as usize];
        let mut choice = self.prior;
        let top = self.proposals.iter().copied().filter(|&p| self.root_children[p as usize] != NONE).max_by_key(|&p| (node(p).visits, std::cmp::Reverse(p)));
        if let Some(p) = top
            && p != choice
            && beats_by_more_than_luck(node(p), node(choice), self.trust, self.proposals.len() as u32, LUCK_TIMES)
        {
            choice = p;
        }
        if best != choice && !self.proposals.contains(&best) && beats_by_more_than_luck(node(best), node(choice), self.trust, root_count, LUCK_TIMES) {
            choice = best;
        }
        choice
    }

    /// Selection at the root: its actions are the same in every sample, so children are
    /// found by index. Returns the chosen child and action, expanding one untried action
    /// while any is left (`true` in the third field).
    fn select_at_root(&mut self, seat: usize, rng: &mut GameRng) -> (u32, G::Action, bool) {
        let count = self.root_untried.len();
        if count > 0 && self.widens(0, self.root_actions.len() - count) {
            let at = match self.root_untried.iter().position(|&i| i == self.prior) {
                Some(at) => at,
                None => match self.proposals.iter().find_map(|p| self.root_untried.iter().position(|i| i == p)) {
                    Some(at) => at,
                    None => below(count as u32, rng) as usize,
                },
            };
            let pick = self.root_untried.swap_remove(at) as usize;
            let action = self.root_actions[pick];
            for &c in &self.root_children {
                if c != NONE {
                    self.nodes[c as usize].available += 1;
                }
            }
            let child = self.add_child(0, seat, action);
            self.root_children[pick] = child;
            return (child, action, true);
        }
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        for (i, &c) in self.root_children.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let n = &mut self.nodes[c as usize];
            n.available += 1;
            let score = n.reward / n.visits as f64 + self.exploration * ((n.available as f64).ln() / n.visits as f64).sqrt();
            if score > best_score {
                best_score = score;
                best = i as u32;
            }
        }
        (self.root_children[best as usize], self.root_actions[best as usize], false)
    }

    /// `model=auto`'s shortlist at the root: the default bot's choice (the prior), then each
    /// of the game's own bots' choice in this seat (they heard what the seat heard), each
    /// action once.
    /// When one of the game's bots has won most as this seat's player in the searches so far
    /// this game ([`Ismcts::best_own_policy`]), its choice is the prior instead.
    fn propose(&mut self, game: &G, view: &G::View<'_>, rng: &mut GameRng) {
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
    fn best_own_policy(&self) -> Option<usize> {
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
    fn draw_own_policy(&mut self, game: &G, searcher: usize) {
        let total: u32 = self.own_stats.iter().map(|s| s.0).sum();
        let score = |s: &(u32, f64)| if s.0 == 0 { f64::INFINITY } else { s.1 / s.0 as f64 + self.exploration * ((total as f64).ln() / s.0 as f64).sqrt() };
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
    fn own_move(&mut self, game: &G, view: &G::View<'_>, seat: usize, rng: &mut GameRng) -> G::Action {
        if !self.own_players.is_empty() {
            return self.own_players[self.own_drawn].decide(game, view, rng);
        }
        match self.own_policy.as_mut() {
            Some(bot) => bot.decide(game, view, rng),
            None => self.rollout_bots[seat].decide(game, view, rng),
        }
    }

    /// Whether `node`, with `children` children, may expand one more: always with
    /// `model=default`; with `model=auto` while a root proposal is unexpanded, else while it
    /// has fewer than 1 + √visits children (progressive widening: a turn with hundreds of
    /// actions spends its iterations on a few, each then judged by many games, not one).
    fn widens(&self, node: u32, children: usize) -> bool {
        if self.belief.is_none() {
            return true;
        }
        if node == 0 && self.proposals.iter().any(|&p| self.root_children[p as usize] == NONE) {
            return true;
        }
        children < 1 + (self.nodes[node as usize].visits as f64).sqrt() as usize
    }

    /// `model=auto`'s step at one of the seat's own nodes below the root: UCB1 over the
    /// children legal in this sample (walked by their links, not by listing every legal
    /// action), expanding while the node widens ([`Ismcts::widens`]): first the seat's policy's
    /// choice, then a random untried action. Returns the child, its action and whether it
    /// was expanded.
    fn select_own_widened(&mut self, game: &G, state: &G::State, node: u32, seat: usize, rng: &mut GameRng) -> (u32, G::Action, bool) {
        let view = game.view(state, seat);
        let (mut children, mut best, mut best_score) = (0usize, NONE, f64::NEG_INFINITY);
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = self.nodes[c as usize];
            if n.mover as usize == seat {
                children += 1;
                if game.is_legal(&view, &n.action.expect("a child has an action")) {
                    let n = &mut self.nodes[c as usize];
                    n.available += 1;
                    let score = n.reward / n.visits as f64 + self.exploration * ((n.available as f64).ln() / n.visits.max(1) as f64).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
            }
            c = n.next_sibling;
        }
        if best == NONE || self.widens(node, children) {
            let choice = self.own_move(game, &view, seat, rng);
            let action = if self.child(node, seat, choice).is_none() {
                Some(choice)
            } else {
                self.legal.clear();
                game.legal_actions(&view, &mut self.legal);
                self.untried.clear();
                for &a in &self.legal {
                    if self.child(node, seat, a).is_none() {
                        self.untried.push(a);
                    }
                }
                (!self.untried.is_empty()).then(|| self.untried[below(self.untried.len() as u32, rng) as usize])
            };
            if let Some(action) = action {
                return (self.add_child(node, seat, action), action, true);
            }
        }
        (best, self.nodes[best as usize].action.expect("a child has an action"), false)
    }

    /// One iteration on the determinization `state`: select, expand, roll out, back up.
    #[inline(always)]
    fn iterate(&mut self, game: &G, state: &mut G::State, searcher: usize, rng: &mut GameRng) {
        let mut log = EventLog::new(false);
        self.ready_players(game, searcher, rng);
        let (node, steps) = self.select_and_expand(game, state, searcher, rng, &mut log);
        let finished = self.roll_out(game, state, searcher, steps, rng, &mut log);
        self.back_up(game, state, node, finished);
    }

    /// Readies the bots that play one iteration: fresh games, each opponent's model drawn
    /// from the belief, the seat's own player chosen.
    #[inline(always)]
    fn ready_players(&mut self, game: &G, searcher: usize, rng: &mut GameRng) {
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

    /// Pairs of playouts the duel may spend (`bar=2` with `model=auto`, a prior at hand and
    /// `trust` above 0): one per [`DUEL_EVERY`] iterations, none below two pairs.
    fn duel_pairs(&self) -> u32 {
        let on = self.bar == Bar::Duel && self.belief.is_some() && self.trust > 0.0 && self.prior != NONE;
        let pairs = self.iterations / DUEL_EVERY;
        if on && pairs >= 2 { pairs } else { 0 }
    }

    /// The duel (`bar=2`): the most visited root action `best` replaces the prior only if,
    /// over `pairs` fresh pairs of playouts (one from each, sharing the sample, the
    /// opponents' models and the random stream), its win share beats the prior's by more
    /// than twice `trust` standard errors of the paired differences. Fresh playouts carry
    /// none of the luck that made `best` the most visited of many look-alike actions; the
    /// pairing cancels the luck of the deal. Spent only when `best` is not the prior.
    fn dueled(&mut self, game: &G, sampler: &Sampler<'_, G>, rng: &mut GameRng, sample: &mut G::State, best: u32, pairs: u32) -> u32 {
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
        ITERATIONS.fetch_add(2 * u64::from(pairs), Ordering::Relaxed);
        if paired_lead_holds(sum, squares, pairs, SHRUNK_TRUST_TIMES * self.trust) { best } else { self.prior }
    }

    /// Selection and expansion: walks the tree from the root on `state`, applying each
    /// chosen action, until an action is expanded or the game ends. Returns the node reached
    /// and the number of actions applied.
    #[inline(always)]
    fn select_and_expand(&mut self, game: &G, state: &mut G::State, searcher: usize, rng: &mut GameRng, log: &mut EventLog<G::Event>) -> (u32, u32) {
        let mut node = 0u32;
        let mut steps = 0u32;
        while let ToMove::Seat(seat) = game.to_move(state) {
            if self.model_opponents && seat != searcher && node != 0 {
                // The opponent model chooses; the tree only records what it chose, so the
                // searcher's later information sets tell its choices apart.
                let action = {
                    let view = game.view(state, seat);
                    self.opponent(seat).decide(game, &view, rng)
                };
                node = match self.child(node, seat, action) {
                    Some(c) => c,
                    None => self.add_child(node, seat, action),
                };
                game.apply(state, seat, action, rng, log);
                steps += 1;
                continue;
            }
            // The root (its actions by index) and, with `model=auto`, the seat's own widened
            // nodes: each picks a child and says whether it was just expanded.
            if node == 0 || (self.belief.is_some() && seat == searcher) {
                let (child, action, expanded) = if node == 0 { self.select_at_root(seat, rng) } else { self.select_own_widened(game, state, node, seat, rng) };
                node = child;
                game.apply(state, seat, action, rng, log);
                steps += 1;
                if expanded {
                    break;
                }
                continue;
            }
            self.legal.clear();
            {
                let view = game.view(state, seat);
                game.legal_actions(&view, &mut self.legal);
            }
            self.untried.clear();
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            for &action in &self.legal {
                match self.child(node, seat, action) {
                    Some(c) => {
                        let n = &mut self.nodes[c as usize];
                        n.available += 1;
                        let score = n.reward / n.visits as f64 + self.exploration * ((n.available as f64).ln() / n.visits as f64).sqrt();
                        if score > best_score {
                            best_score = score;
                            best = c;
                        }
                    }
                    None => self.untried.push(action),
                }
            }
            if !self.untried.is_empty() {
                let action = self.untried[below(self.untried.len() as u32, rng) as usize];
                node = self.add_child(node, seat, action);
                game.apply(state, seat, action, rng, log);
                steps += 1;
                break;
            }
            node = best;
            let action = self.nodes[node as usize].action.expect("a child has an action");
            game.apply(state, seat, action, rng, log);
            steps += 1;
        }
        (node, steps)
    }

    /// Rollout: plays `state` on by the rollout policy (opponents by their drawn models under
    /// `model=auto`) to the end, or until `depth` actions counting the `steps` already taken.
    /// Returns whether the game finished.
    #[inline(always)]
    fn roll_out(&mut self, game: &G, state: &mut G::State, searcher: usize, mut steps: u32, rng: &mut GameRng, log: &mut EventLog<G::Event>) -> bool {
        let mut finished = true;
        while let ToMove::Seat(seat) = game.to_move(state) {
            if self.depth > 0 && steps >= self.depth {
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
                    match self.rollout {
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

    /// Back-up of every seat's win share ([`Ismcts::score`]) along the path from `node` to
    /// the root.
    #[inline(always)]
    fn back_up(&mut self, game: &G, state: &G::State, mut node: u32, finished: bool) {
        self.score(game, state, finished);
        if !self.own_players.is_empty() {
            let me = self.nodes[0].mover as usize;
            let stats = &mut self.own_stats[self.own_drawn];
            stats.0 += 1;
            stats.1 += self.shares[me];
        }
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.reward += self.shares.get(n.mover as usize).copied().unwrap_or(0.0);
            node = n.parent;
        }
    }

    /// Every seat's win share at the end of a playout into `shares`: the outcome's when
    /// `finished`, else the standing leaders' (ties shared).
    #[inline(always)]
    fn score(&mut self, game: &G, state: &G::State, finished: bool) {
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
    fn opponent(&mut self, seat: usize) -> &mut dyn Bot<G> {
        match self.belief.as_mut() {
            Some(belief) => belief.player(seat),
            None => self.rollout_bots[seat].as_mut(),
        }
    }

    /// The belief about the table (`model=auto`): models per seat and the particles.
    pub fn belief(&self) -> Option<&TableBelief<G>> {
        self.belief.as_deref()
    }

    /// The child of `node` for `mover` playing `action`, if the tree has it.
    #[inline]
    fn child(&self, node: u32, mover: usize, action: G::Action) -> Option<u32> {
        self.children.get(&(node, mover as u8, action)).copied()
    }

    /// Adds the child of `node` for `mover` playing `action` (available once, not yet visited).
    fn add_child(&mut self, node: u32, mover: usize, action: G::Action) -> u32 {
        let id = self.nodes.len() as u32;
        let sibling = self.nodes[node as usize].first_child;
        self.nodes.push(Node {
            action: Some(action),
            mover: mover as u8,
            parent: node,
            visits: 0,
            available: 1,
            reward: 0.0,
            first_child: NONE,
            next_sibling: sibling,
        });
        self.nodes[node as usize].first_child = id;
        if node != 0 {
            self.children.insert((node, mover as u8, action), id);
        }
        id
    }
}

impl<G: Game> Ismcts<G> {
    /// The search's choice, compiled with the bit instructions where the processor has them.
    fn searched(&mut self, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        #[cfg(target_arch = "x86_64")]
        if crate::engine::cpu::has_bit_instructions() {
            // SAFETY: the processor has every feature `search_bits` is compiled with
            // (`cpu::has_bit_instructions` asked it at run time).
            return unsafe { self.search_bits(game, view, sampler, rng) };
        }
        self.search(game, view, sampler, rng)
    }
}

/// The trust test of `model=auto`: whether the most visited root child `best` beats the
/// default bot's choice `prior` by more than `trust` standard errors times `times` the luck of
/// the best of `actions` noisy means ([`LUCK_TIMES`]) (`sqrt(2 ln actions)` is the expected maximum of that
/// many standard normal draws). Means are smoothed by one win and one loss before their
/// variance is taken, so a child whose few visits all won does not claim a standard error of 0.
///
/// Why: a Penny Badger turn has hundreds of legal discards and a search of 1,000 iterations
/// scores each by a handful of won-or-lost games; the most visited one is then mostly the
/// luckiest, and the plain test (`model=default`) let a lucky bluff replace the honest claim
/// about every other turn against card counters. Once the luck, against three `counter`
/// (40 rotated games) the search won 22.5%; twice, 50% (docs/skill.md, [`LUCK_TIMES`]).
fn beats_by_more_than_luck<A>(best: &Node<A>, prior: &Node<A>, trust: f64, actions: u32, times: f64) -> bool {
    let smoothed = |n: &Node<A>| {
        let visits = n.visits as f64;
        ((n.reward + 1.0) / (visits + 2.0), visits.max(1.0))
    };
    let ((ma, na), (mb, nb)) = (smoothed(best), smoothed(prior));
    let se = (ma * (1.0 - ma) / na + mb * (1.0 - mb) / nb).sqrt();
    let luck = (2.0 * f64::from(actions.max(2)).ln()).sqrt().max(1.0);
    let (raw_a, raw_b) = (best.reward / na, prior.reward / nb);
    raw_a - raw_b > times * trust * luck * se
}

/// `model=auto`'s reading of the root's luck: the searched children's win shares as noisy
/// estimates of their true values (each with the variance the pack's pooled rate gives a mean
/// of that many visits), and the spread of those values beyond the noise, `tau2`: the random-effects
/// estimate of DerSimonian & Laird (1986, "Meta-analysis in clinical trials"), from
/// Cochran's Q of the children's means about their precision-weighted mean. A child's
/// posterior mean is its own mean pulled toward the pack's `centre` by `v / (v + tau2)` (its
/// variance `v` against the spread): when the children look alike (`tau2` near 0) every one
/// falls back to the pack, so the luckiest of many is not a plan; when they truly differ the
/// well-visited keep their means. Empirical Bayes: no constant to tune per game.
///
/// Why the pooled variance: means smoothed by one win and one loss (the estimator before)
/// pull a child of one or two visits most of the way to one half, so the dozens of such
/// children UCB1 leaves at a Flower Power root added almost nothing to Q, which then fell
/// under its k - 1 expected and read every spread as none: the prior kept its place where
/// the search's pick was truly better (three Flower Power `greedy`s: 44.9% at `trust=2`,
/// 48.9% with the pooled variance, 1,000 rotated games; docs/skill.md).
#[derive(Clone, Copy, Debug)]
struct Shrinkage {
    tau2: f64,
    centre: f64,
    /// The pack's common variance of one iteration's share (pooled rate `p(1-p)`): a child's
    /// mean after `n` visits varies by `spread / n` if it is no better than the pack.
    spread: f64,
}

impl Shrinkage {
    /// A child's mean and its squared standard error under the pack's common variance.
    fn estimate<A>(&self, n: &Node<A>) -> (f64, f64) {
        let visits = f64::from(n.visits.max(1));
        (n.reward / visits, self.spread / visits)
    }

    /// The shrinkage read from `children` (those with at least one visit count).
    fn of<'n, A: 'n>(children: impl Iterator<Item = &'n Node<A>>) -> Self {
        let visited: Vec<&Node<A>> = children.filter(|n| n.visits > 0).collect();
        let (visits, reward) = visited.iter().fold((0.0, 0.0), |(v, r), n| (v + f64::from(n.visits), r + n.reward));
        // The pooled rate, smoothed by one win and one loss so that a pack that always won
        // (or lost) still has some noise.
        let pooled = (reward + 1.0) / (visits + 2.0);
        let mut shrinkage = Shrinkage { tau2: 0.0, centre: pooled, spread: pooled * (1.0 - pooled) };
        let estimates: Vec<(f64, f64)> = visited.iter().map(|n| shrinkage.estimate(n)).collect();
        let k = estimates.len() as f64;
        let (w, wm, w2) = estimates.iter().fold((0.0, 0.0, 0.0), |(w, wm, w2), &(m, v)| (w + 1.0 / v, wm + m / v, w2 + 1.0 / (v * v)));
        if k < 2.0 || w <= 0.0 {
            return shrinkage;
        }
        let fixed = wm / w;
        let q: f64 = estimates.iter().map(|&(m, v)| (m - fixed).powi(2) / v).sum();
        let tau2 = ((q - (k - 1.0)) / (w - w2 / w)).max(0.0);
        let (rw, rwm) = estimates.iter().fold((0.0, 0.0), |(a, b), &(m, v)| (a + 1.0 / (v + tau2), b + m / (v + tau2)));
        shrinkage.tau2 = tau2;
        shrinkage.centre = rwm / rw;
        shrinkage
    }

    /// A child's posterior mean and variance.
    fn posterior<A>(&self, n: &Node<A>) -> (f64, f64) {
        let (mean, v) = self.estimate(n);
        let keep = self.tau2 / (self.tau2 + v);
        (self.centre + (mean - self.centre) * keep, v * keep)
    }

    /// Whether child `a`'s posterior mean beats `b`'s by more than `trust` posterior standard
    /// errors of the difference (and by something: two children shrunk to the pack tie).
    fn beats<A>(&self, a: &Node<A>, b: &Node<A>, trust: f64) -> bool {
        let ((ma, va), (mb, vb)) = (self.posterior(a), self.posterior(b));
        ma - mb > trust * (va + vb).sqrt() && ma > mb
    }
}

/// Whether `pairs` paired differences (their sum and sum of squares) lead by more than
/// `times` standard errors of their mean, and by something (a duel of identical playouts,
/// every difference 0, is no lead).
fn paired_lead_holds(sum: f64, squares: f64, pairs: u32, times: f64) -> bool {
    let n = f64::from(pairs);
    let mean = sum / n;
    let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
    mean > 0.0 && mean > times * (variance / n).sqrt()
}

/// The game's bot `name` with its default parameters (the default bot or the search
/// policy, both checked to be among the game's bots by the registry's tests).
fn named_bot<G: Game>(game: &G, name: &str) -> Box<dyn Bot<G>> {
    // The game's roster ([`super::all_bots`]) without naming it: the roster lists this bot.
    let infos: Vec<BotInfo<G>> = [RandomBot::info(), Ismcts::info()].into_iter().chain(G::bots()).collect();
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
    fn action_probability(&mut self, _game: &G, _view: &G::View<'_>, _seen: &super::Seen<G::Action>) -> Option<f64> {
        None
    }

    fn watches(&self) -> bool {
        self.belief.is_some()
    }

    fn observe_decision(&mut self, game: &G, seat: usize, seen: &super::Seen<G::Action>, sampler: &Sampler<'_, G>) {
        if let Some(belief) = self.belief.as_mut() {
            belief.observe_decision(game, seat, seen, sampler);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NONE, Node, Shrinkage, paired_lead_holds};

    /// Sum and sum of squares of `wins` differences of +1, `losses` of -1 (the rest 0).
    fn pairs(wins: u32, losses: u32) -> (f64, f64) {
        (f64::from(wins) - f64::from(losses), f64::from(wins + losses))
    }

    #[test]
    fn a_duel_of_identical_playouts_is_no_lead() {
        let (sum, squares) = pairs(0, 0);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
    }

    #[test]
    fn a_duel_lead_within_its_noise_does_not_hold() {
        // 30 won, 20 lost, 50 the same: a lead of 0.1 with a standard error of 0.07.
        let (sum, squares) = pairs(30, 20);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
        assert!(paired_lead_holds(sum, squares, 100, 1.0), "it holds at one standard error");
        let (sum, squares) = pairs(50, 50);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
    }

    #[test]
    fn a_clear_duel_lead_holds() {
        // 40 won, 10 lost, 50 the same: a lead of 0.3 with a standard error of 0.064.
        let (sum, squares) = pairs(40, 10);
        assert!(paired_lead_holds(sum, squares, 100, 2.0));
        let (sum, squares) = pairs(100, 0);
        assert!(paired_lead_holds(sum, squares, 100, 2.0));
    }

    fn child(visits: u32, reward: f64) -> Node<u8> {
        Node { action: Some(0), mover: 0, parent: 0, visits, available: visits, reward, first_child: NONE, next_sibling: NONE }
    }

    /// Thirty look-alike actions (all truly 40%), one of them lucky: the lucky one's lead over
    /// the prior is what the pack's noise explains, so it does not replace the prior; a plain
    /// one-standard-error test would have let it.
    #[test]
    fn the_luckiest_of_look_alike_actions_does_not_beat_the_prior() {
        let mut children: Vec<Node<u8>> = (0..30).map(|i| child(30, 12.0 + f64::from(i % 5) - 2.0)).collect();
        children.push(child(40, 24.0)); // 60% after 40 games: the lucky one
        let prior = child(60, 24.0); // 40%
        children.push(prior);
        let shrinkage = Shrinkage::of(children.iter());
        let lucky = children[30];
        let (plain_lucky, plain_prior) = (shrinkage.estimate(&lucky), shrinkage.estimate(&prior));
        assert!(plain_lucky.0 - plain_prior.0 > (plain_lucky.1 + plain_prior.1).sqrt(), "the plain test would switch");
        assert!(!shrinkage.beats(&lucky, &prior, 1.0));
    }

    /// A real spread among the well-visited children is still read as one when dozens of
    /// children have a visit or two (as UCB1 leaves them): the one-visit children count as
    /// the noise they are, not as a pack that agrees.
    #[test]
    fn children_of_one_visit_do_not_hide_a_real_spread() {
        let mut children: Vec<Node<u8>> = (0..40).map(|i| child(1 + i % 2, f64::from(i % 3 == 0))).collect();
        children.push(child(400, 240.0)); // 60%
        children.push(child(300, 120.0)); // 40%: the prior
        let shrinkage = Shrinkage::of(children.iter());
        assert!(shrinkage.tau2 > 0.001, "spread read as {}", shrinkage.tau2);
        assert!(shrinkage.beats(&children[40], &children[41], 1.0));
    }

    /// Actions that truly differ (spread far beyond their noise): the best keeps its lead.
    #[test]
    fn an_action_that_truly_stands_out_beats_the_prior() {
        let children = [child(300, 240.0), child(200, 80.0), child(150, 30.0), child(100, 10.0), child(250, 125.0)];
        let shrinkage = Shrinkage::of(children.iter());
        assert!(shrinkage.tau2 > 0.01);
        assert!(shrinkage.beats(&children[0], &children[4], 1.0));
        assert!(!shrinkage.beats(&children[4], &children[0], 1.0));
    }
}
