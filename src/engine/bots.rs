//! The bot interface shared by every game, bot specs (`basic:bluff=0.3`) and their
//! validation against a game's bot list, and the generic `random` bot.

use std::collections::BTreeMap;
use std::fmt;

use super::{Game, GameRng, Sampler, SeedFrom, Seen, Table};

/// A seat's decision maker. It sees only its seat's view and the events visible to it.
pub trait Bot<G: Game>: Send {
    /// The bot's name as written in variants (`basic`, `random`, ...).
    fn name(&self) -> &str;
    /// Called before each game with the bot's seat.
    fn new_game(&mut self, _game: &G, _seat: usize) {}
    /// Chooses one legal action.
    fn decide(&mut self, game: &G, view: &G::View<'_>, rng: &mut GameRng) -> G::Action;
    /// Chooses one legal action with samples of the hidden state at hand: what the engine
    /// calls. Searching bots override it; the default ignores the sampler.
    #[inline(always)]
    fn decide_with(&mut self, game: &G, view: &G::View<'_>, _sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.decide(game, view, rng)
    }
    /// Whether the bot wants [`Bot::observe`] calls (costs time; off for simple bots).
    fn listens(&self) -> bool {
        false
    }
    /// Whether the bot may draw from the random stream it is handed (default: yes). A bot
    /// that never does says `false`, and a table of such bots is played without seeding the
    /// seats' streams (seeding costs more than some whole decisions); its games are the same
    /// either way, since no draw is ever taken from them. A bot that says `false` and draws
    /// gets an unseeded stream: its game's tests check that its decisions leave the stream
    /// untouched.
    fn draws(&self) -> bool {
        true
    }
    /// Whether the bot reads samples of the hidden state ([`Bot::decide_with`]'s sampler: a
    /// search). Default: no. A table where no bot samples is played without the public record
    /// that only samples read ([`HiddenInfo::skip_sample_records`](crate::engine::HiddenInfo::skip_sample_records)); a bot that
    /// samples and says `false` fails its game's debug checks when it asks for a sample.
    fn samples(&self) -> bool {
        false
    }
    /// An event the bot's seat could see at the table.
    fn observe(&mut self, _seat: usize, _event: &G::Event) {}
    /// The probability that this bot, deciding at `view`, takes an action the table sees as
    /// `seen` ([`HiddenInfo::seen`](crate::engine::HiddenInfo::seen)): what an opponent model reports to the search's belief
    /// ([`crate::engine::belief`]). `None`: the bot cannot say (a search). Default: an
    /// estimate from [`SAMPLED_DECISIONS`] calls of [`Bot::decide`] on a fixed-seed stream
    /// (one call for a bot that never draws); bots with cheap exact odds override it.
    /// A first call that drew nothing from the stream decided without chance at this view:
    /// the other calls would repeat it, so it is the answer (the same estimate, one call).
    fn action_probability(&mut self, game: &G, view: &G::View<'_>, seen: &Seen<G::Action>) -> Option<f64> {
        let untouched = GameRng::seed_from(SAMPLING_SEED);
        let mut rng = untouched.clone();
        let first = u32::from(game.seen(view, &self.decide(game, view, &mut rng)) == *seen);
        if !self.draws() || rng == untouched {
            return Some(f64::from(first));
        }
        let hits = first + (1..SAMPLED_DECISIONS).map(|_| u32::from(game.seen(view, &self.decide(game, view, &mut rng)) == *seen)).sum::<u32>();
        Some(f64::from(hits) / f64::from(SAMPLED_DECISIONS))
    }
    /// Whether the bot wants [`Bot::observe_decision`] calls: every other seat's decision as
    /// its own seat can see it (a search that infers how the table plays). Default: no.
    fn watches(&self) -> bool {
        false
    }
    /// `seat` (another seat) took an action the table saw as `seen` ([`HiddenInfo::seen`](crate::engine::HiddenInfo::seen)), at the
    /// state that `sampler` samples from this bot's own seat's view (the real state stays
    /// hidden).
    fn observe_decision(&mut self, _game: &G, _seat: usize, _seen: &Seen<G::Action>, _sampler: &Sampler<'_, G>) {}
    /// What the bot's searches have done since it was built ([`SearchStats`]; zero for a bot
    /// that does not search, the default). Read by the line-up after its games
    /// ([`crate::engine::Lineup::search_stats`]): `bench` and `trace` print them.
    fn search_stats(&self) -> SearchStats {
        SearchStats::default()
    }
}

/// What a searching bot's decisions did, counted on the bot (not in process-wide counters,
/// so two runs in one process or on two threads never mix): the caller reads it from the
/// line-up after its games and adds the line-ups of a run up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Search iterations run (the duel's playouts included).
    pub iterations: u64,
    /// Searches run with `model=auto` (a particle pool prepared).
    pub watched_searches: u64,
    /// The sum over those searches of their pools' effective sample sizes, in thousandths
    /// (0 for a search that drew fresh samples): whole numbers, so sums are exact.
    pub effective_millis: u64,
}

impl SearchStats {
    /// Adds `other` into these.
    pub fn add(&mut self, other: SearchStats) {
        self.iterations += other.iterations;
        self.watched_searches += other.watched_searches;
        self.effective_millis += other.effective_millis;
    }

    /// The mean effective sample size of the `model=auto` searches (`None` when none ran).
    pub fn mean_effective_samples(&self) -> Option<f64> {
        (self.watched_searches > 0).then(|| self.effective_millis as f64 / 1000.0 / self.watched_searches as f64)
    }
}

/// Calls of [`Bot::decide`] by the default [`Bot::action_probability`] of a bot that draws.
pub const SAMPLED_DECISIONS: u32 = 16;

/// Seed of the stream the default [`Bot::action_probability`] decides with (fixed, so the
/// estimate is the same every time for the same view).
const SAMPLING_SEED: u64 = 0x0b5e_7ed0_dec1_5105;

/// A numeric bot parameter with its default and range: the bot's TOML/CLI reference.
#[derive(Clone, Debug)]
pub struct BotParamInfo {
    /// Key in specs and `[[seats]]` tables.
    pub name: &'static str,
    /// Value when not given.
    pub default: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// One line on what it changes.
    pub doc: &'static str,
}

/// One bot a game offers: name, parameters and how to build it.
pub struct BotInfo<G: Game> {
    /// Name in specs.
    pub name: &'static str,
    /// Other names accepted, each with parameter values it fixes.
    pub aliases: &'static [(&'static str, &'static [(&'static str, f64)])],
    /// One line on how it plays.
    pub doc: &'static str,
    /// Its parameters.
    pub params: &'static [BotParamInfo],
    /// Builds the bot from complete parameter values (in `params` order).
    pub build: fn(&G, &[f64]) -> Box<dyn Bot<G>>,
    /// Builds a table where every seat plays this bot (one parameter list per seat) and the
    /// driver calls it without dynamic dispatch: the simulator's fast path for the common
    /// line-up of one bot kind. `None`: such line-ups are played as boxed bots.
    pub uniform: Option<TableFn<G>>,
    /// The variant keys its decisions read, as patterns: a dotted key (`min_sets_to_sell`),
    /// a table and everything in it (`scoring.*`), or `*` for every key (a search that plans
    /// with the rules). Empty: its choices depend on the legal actions and its view alone. A
    /// key it does not list can change who wins but not its choice at any state where the
    /// legal actions stay the same (each game's tests check this on sampled states); the
    /// designer commands say so when a changed key is read by no bot at the table.
    pub reads: &'static [&'static str],
}

impl<G: Game> BotInfo<G> {
    /// Whether the bot's decisions read the variant key `key` (see [`BotInfo::reads`]).
    pub fn reads_key(&self, key: &str) -> bool {
        self.reads.iter().any(|p| key_matches(p, key))
    }
}

/// Whether the dotted variant key `key` falls under `pattern`: the same key, a key inside the
/// table `pattern` names (`scoring` or `scoring.*` covers `scoring.seller.3`), or `*`.
pub fn key_matches(pattern: &str, key: &str) -> bool {
    let table = pattern.strip_suffix(".*").unwrap_or(pattern);
    pattern == "*" || key == table || key.strip_prefix(table).is_some_and(|rest| rest.starts_with('.'))
}

/// Builds a [`Table`] of one bot kind from each seat's parameter values.
pub type TableFn<G> = fn(&G, &[Vec<f64>]) -> Box<dyn Table<G>>;

/// Parameter values that may be written as words: (parameter, word, value). `ismcts`'s
/// `model=auto` (1) and `model=default` (0).
const NAMED_VALUES: &[(&str, &str, f64)] = &[("model", "auto", 1.0), ("model", "default", 0.0)];

/// A bot as written by a designer: a name and parameter values.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    /// Bot name (or alias).
    pub name: String,
    /// Parameter values given explicitly.
    pub params: BTreeMap<String, f64>,
}

/// Why a bot spec was rejected.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpecError {
    /// The spec text is not `name[:param=value]...`.
    Syntax(String),
    /// No bot of that name; lists the names allowed.
    UnknownBot { name: String, allowed: Vec<String> },
    /// The bot has no such parameter; lists its parameters.
    UnknownParam { bot: String, param: String, allowed: Vec<String> },
    /// A parameter value out of range.
    OutOfRange { bot: String, param: String, value: f64, min: f64, max: f64 },
}

impl fmt::Display for BotSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpecError::Syntax(s) => write!(f, "{s}"),
            BotSpecError::UnknownBot { name, allowed } => {
                write!(f, "unknown bot `{name}`; this game's bots are: {}", allowed.join(", "))
            }
            BotSpecError::UnknownParam { bot, param, allowed } if allowed.is_empty() => {
                write!(f, "bot `{bot}` takes no parameters, got `{param}`")
            }
            BotSpecError::UnknownParam { bot, param, allowed } => {
                write!(f, "bot `{bot}` has no parameter `{param}`; allowed: {}", allowed.join(", "))
            }
            BotSpecError::OutOfRange { bot, param, value, min, max } => {
                write!(f, "bot `{bot}` parameter `{param}` = {value} is out of range; allowed: {min} to {max}")
            }
        }
    }
}

impl BotSpec {
    /// A spec with no explicit parameters.
    pub fn named(name: &str) -> Self {
        BotSpec { name: name.to_string(), params: BTreeMap::new() }
    }

    /// Parses `name[:param=value]...`.
    pub fn parse(text: &str) -> Result<Self, BotSpecError> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or("").trim();
        if name.is_empty() {
            return Err(BotSpecError::Syntax(format!("empty bot name in `{text}`; write name[:param=value]...")));
        }
        let mut params = BTreeMap::new();
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| BotSpecError::Syntax(format!("`{part}` in `{text}` is not param=value")))?;
            let value: f64 = match NAMED_VALUES.iter().find(|(k, word, _)| *k == key.trim() && *word == value.trim()) {
                Some(&(_, _, number)) => number,
                None => value.trim().parse().map_err(|_| BotSpecError::Syntax(format!("`{value}` in `{text}` is not a number")))?,
            };
            params.insert(key.trim().to_string(), value);
        }
        Ok(BotSpec { name: name.to_string(), params })
    }

    /// The canonical text of this spec (`basic:bluff=0.3:challenge=0.2`), with a value that
    /// has a word written as the word (`ismcts:model=auto`, not `model=1`).
    pub fn label(&self) -> String {
        let mut s = self.name.clone();
        for (k, v) in &self.params {
            match NAMED_VALUES.iter().find(|(key, _, value)| key == k && value == v) {
                Some((_, word, _)) => s.push_str(&format!(":{k}={word}")),
                None => s.push_str(&format!(":{k}={v}")),
            }
        }
        s
    }

    /// Checks the spec against the game's bots and returns the bot with full parameter values.
    pub fn resolve<'b, G: Game>(&self, bots: &'b [BotInfo<G>]) -> Result<(&'b BotInfo<G>, Vec<f64>), BotSpecError> {
        let mut fixed: &[(&str, f64)] = &[];
        let info = bots
            .iter()
            .find(|b| {
                if b.name == self.name {
                    return true;
                }
                if let Some((_, f)) = b.aliases.iter().find(|(a, _)| *a == self.name) {
                    fixed = f;
                    return true;
                }
                false
            })
            .ok_or_else(|| BotSpecError::UnknownBot {
                name: self.name.clone(),
                allowed: bots.iter().flat_map(|b| std::iter::once(b.name).chain(b.aliases.iter().map(|a| a.0))).map(String::from).collect(),
            })?;
        let mut values: Vec<f64> = info.params.iter().map(|p| p.default).collect();
        for (k, v) in fixed {
            if let Some(i) = info.params.iter().position(|p| p.name == *k) {
                values[i] = *v;
            }
        }
        for (key, &value) in &self.params {
            let i = info.params.iter().position(|p| p.name == key).ok_or_else(|| BotSpecError::UnknownParam {
                bot: self.name.clone(),
                param: key.clone(),
                allowed: info.params.iter().map(|p| p.name.to_string()).collect(),
            })?;
            let p = &info.params[i];
            if !(value >= p.min && value <= p.max) {
                return Err(BotSpecError::OutOfRange { bot: self.name.clone(), param: key.clone(), value, min: p.min, max: p.max });
            }
            values[i] = value;
        }
        Ok((info, values))
    }
}

/// The name of the engine's [`RandomBot`]; every game offers it under this name (the
/// simulator relies on it to play an all-random line-up without dynamic dispatch).
pub const RANDOM: &str = "random";

/// `random`: uniform over the legal actions of every decision, for any game.
pub struct RandomBot<G: Game> {
    buffer: Vec<G::Action>,
}

impl<G: Game> RandomBot<G> {
    /// A random bot with an empty action buffer (reused across decisions).
    pub fn new() -> Self {
        RandomBot { buffer: Vec::new() }
    }

    /// The `random` entry of a game's bot list.
    pub fn info() -> BotInfo<G> {
        BotInfo {
            name: RANDOM,
            aliases: &[],
            doc: "uniform over the legal choices at every decision",
            params: &[],
            build: |_, _| Box::new(RandomBot::<G>::new()),
            uniform: Some(|_, seats| Box::new(super::Uniform::new((0..seats.len()).map(|_| RandomBot::<G>::new()).collect()))),
            reads: &[],
        }
    }
}

impl<G: Game> Default for RandomBot<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Bot<G> for RandomBot<G> {
    fn name(&self) -> &str {
        RANDOM
    }

    #[inline]
    fn decide(&mut self, game: &G, view: &G::View<'_>, rng: &mut GameRng) -> G::Action {
        game.random_action(view, rng, &mut self.buffer)
    }

    /// Exact: the share of the legal actions that the table sees as `seen` (its choice is
    /// uniform over them); 0 when none is, the action being impossible at `view`.
    fn action_probability(&mut self, game: &G, view: &G::View<'_>, seen: &Seen<G::Action>) -> Option<f64> {
        self.buffer.clear();
        game.legal_actions(view, &mut self.buffer);
        let hits = self.buffer.iter().filter(|a| game.seen(view, a) == *seen).count();
        Some(if hits == 0 { 0.0 } else { hits as f64 / self.buffer.len() as f64 })
    }
}

#[cfg(test)]
mod label_tests {
    use super::BotSpec;

    /// A value written as a word comes back as the word, so a report names `model=auto`.
    #[test]
    fn a_named_value_keeps_its_word_in_the_label() {
        let spec = BotSpec::parse("ismcts:model=auto:iterations=1000").expect("valid spec");
        assert!(spec.label().contains(":model=auto"), "{}", spec.label());
        assert!(spec.label().contains(":iterations=1000"), "{}", spec.label());
        assert!(BotSpec::parse("ismcts:model=default").expect("valid").label().contains(":model=default"));
        assert_eq!(BotSpec::parse("basic:bluff=0.3").expect("valid").label(), "basic:bluff=0.3");
    }
}
