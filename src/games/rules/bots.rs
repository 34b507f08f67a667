//! The bots a rules file gets besides `random` and `ismcts`: `greedy` (the choice that most
//! raises the file's standing one step ahead, decided on a sampled state), and the bots the
//! file writes itself as ordered priority rules.

use super::machine::{ARG, BINDS_FRESH, CHOSEN_MASK, CHOSEN_ZONE, Choice, State};
use super::program::Instr;
use super::{RulesGame, View};
use crate::engine::{Bot, BotInfo, BotParamInfo, EventLog, Game, GameRng, OwnBots, Sampler, rng};

/// `greedy`: one step ahead on the standing.
pub struct GreedyBot {
    legal: Vec<Choice>,
    sample: Option<State>,
    trial: Option<State>,
}

impl GreedyBot {
    /// A new bot.
    pub fn new() -> GreedyBot {
        GreedyBot { legal: Vec::new(), sample: None, trial: None }
    }

    /// How `greedy` is offered.
    pub fn info() -> BotInfo<RulesGame> {
        BotInfo {
            name: "greedy",
            aliases: &[],
            doc: "takes the choice that most raises its standing (the file's `standing`) one step ahead, on a sampled deal; ties at random",
            params: &[],
            build: |_, _| Box::new(GreedyBot::new()),
            uniform: None,
            reads: &["*"],
        }
    }
}

impl Default for GreedyBot {
    fn default() -> Self {
        GreedyBot::new()
    }
}

impl Bot<RulesGame> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn decide(&mut self, game: &RulesGame, view: &View<'_>, rng: &mut GameRng) -> Choice {
        // Without samples (opponent-model probes): the standing cannot be read; at random.
        game.random_action(view, rng, &mut self.legal)
    }

    fn samples(&self) -> bool {
        true
    }

    fn decide_with(&mut self, game: &RulesGame, view: &View<'_>, sampler: &Sampler<'_, RulesGame>, rng: &mut GameRng) -> Choice {
        self.legal.clear();
        game.legal_actions(view, &mut self.legal);
        if self.legal.len() == 1 {
            return self.legal[0];
        }
        let seat = view.seat;
        match &mut self.sample {
            Some(s) => sampler.sample_into(game, rng, s),
            None => self.sample = Some(sampler.sample(game, rng)),
        }
        let sample = self.sample.as_ref().expect("sampled");
        let mut best = i64::MIN;
        let mut pick = self.legal[0];
        let mut ties = 0u32;
        let chance = rng.clone();
        let mut log = EventLog::new(false);
        for &choice in &self.legal {
            let trial = match &mut self.trial {
                Some(t) => {
                    t.clone_from(sample);
                    t
                }
                None => self.trial.insert(sample.clone()),
            };
            let mut r = chance.clone();
            game.bound.apply(trial, choice, &mut r, &mut log);
            let v = game.bound.standing(trial, seat);
            if v > best {
                best = v;
                pick = choice;
                ties = 1;
            } else if v == best {
                ties += 1;
                if rng::below(ties, rng) == 0 {
                    pick = choice;
                }
            }
        }
        pick
    }
}

/// A bot the rules file writes: priority rules tried in order; the first rule with a
/// candidate it holds for picks among those (the largest `prefer`, ties at random).
pub struct FileBot {
    index: usize,
    name: &'static str,
    legal: Vec<Choice>,
    picked: Vec<Choice>,
    sample: Option<State>,
}

impl Bot<RulesGame> for FileBot {
    fn name(&self) -> &str {
        self.name
    }

    fn decide(&mut self, game: &RulesGame, view: &View<'_>, rng: &mut GameRng) -> Choice {
        // Without samples (opponent-model probes): the rules read the seat's own view.
        self.decide_on(game, view, view.state, rng)
    }

    /// The rules are read on a sampled state (what the seat could see is the same in it; the
    /// rest is dealt again), never the real one.
    fn samples(&self) -> bool {
        true
    }

    fn decide_with(&mut self, game: &RulesGame, view: &View<'_>, sampler: &Sampler<'_, RulesGame>, rng: &mut GameRng) -> Choice {
        let mut sample = self.sample.take();
        match &mut sample {
            Some(s) => sampler.sample_into(game, rng, s),
            None => sample = Some(sampler.sample(game, rng)),
        }
        let st = sample.as_ref().expect("sampled");
        let choice = self.decide_on(game, view, st, rng);
        self.sample = sample;
        choice
    }
}

impl FileBot {
    fn decide_on(&mut self, game: &RulesGame, view: &View<'_>, st: &State, rng: &mut GameRng) -> Choice {
        self.legal.clear();
        game.legal_actions(view, &mut self.legal);
        let b = &game.bound;
        let p = b.p();
        let Some((_, at)) = st.waiting else { return self.legal[0] };
        let zone_of = |a: u16, binds: &mut [i64; super::program::BINDS]| -> i64 {
            p.actions[a as usize].cards.as_ref().and_then(|c| b.zone(&c.from, st, binds)).map_or(-1, |z| z as i64)
        };
        let _ = matches!(p.code[at as usize], Instr::Choose { .. });
        if let Some(bot) = p.bots.get(self.index) {
            for rule in &bot.rules {
                self.picked.clear();
                let mut best = i64::MIN;
                for &c in &self.legal {
                    if !rule.actions.is_empty() && !rule.actions.contains(&c.action) {
                        continue;
                    }
                    let mut binds = st.binds;
                    binds[0] = view.seat as i64;
                    binds[ARG] = c.arg;
                    binds[CHOSEN_ZONE] = if c.cards != 0 { zone_of(c.action, &mut binds) } else { -1 };
                    binds[CHOSEN_MASK] = c.cards as i64;
                    if binds[CHOSEN_ZONE] < 0 {
                        binds[CHOSEN_ZONE] = BINDS_FRESH[CHOSEN_ZONE];
                    }
                    if rule.when.as_ref().is_some_and(|w| b.eval(w, st, &mut binds) == 0) {
                        continue;
                    }
                    let v = rule.prefer.as_ref().map_or(0, |e| b.eval(e, st, &mut binds));
                    if v > best {
                        best = v;
                        self.picked.clear();
                    }
                    if v == best {
                        self.picked.push(c);
                    }
                }
                if !self.picked.is_empty() {
                    return self.picked[rng::below(self.picked.len() as u32, rng) as usize];
                }
            }
        }
        self.legal[rng::below(self.legal.len() as u32, rng) as usize]
    }
}

/// How many file bots have their one fixed parameter in [`RULE_SETS`] (a file with more has
/// the rest made once per listing).
const LISTED_RULE_SETS: usize = 64;

/// The fixed parameter of the file bot at each index: `rule_set`, pinned to the index, so
/// `build` knows which of the file's bots it builds.
static RULE_SETS: [[BotParamInfo; 1]; LISTED_RULE_SETS] = {
    let mut out = [const { [rule_set(0)] }; LISTED_RULE_SETS];
    let mut i = 0;
    while i < LISTED_RULE_SETS {
        out[i] = [rule_set(i)];
        i += 1;
    }
    out
};

const fn rule_set(index: usize) -> BotParamInfo {
    BotParamInfo { name: "rule_set", default: index as f64, min: index as f64, max: index as f64, doc: "which of the file's bots (fixed)" }
}

/// The bots `game`'s own file writes, read from the game value (two files loaded in one
/// process each list their own). Each is built by its index, kept as the value of its one
/// fixed parameter.
pub fn file_bots(game: &RulesGame) -> Vec<BotInfo<RulesGame>> {
    game.program()
        .bots
        .iter()
        .enumerate()
        .map(|(index, bot)| {
            let params: &'static [BotParamInfo] = match RULE_SETS.get(index) {
                Some(p) => p,
                None => Box::leak(Box::new([rule_set(index)])),
            };
            BotInfo {
                name: super::compile::intern(&bot.name),
                aliases: &[],
                doc: super::compile::intern(&bot.doc),
                params,
                build: |game: &RulesGame, values: &[f64]| {
                    let index = values.first().copied().unwrap_or(0.0) as usize;
                    let name = game.program().bots.get(index).map_or("file bot", |b| super::compile::intern(&b.name));
                    Box::new(FileBot { index, name, legal: Vec::new(), picked: Vec::new(), sample: None })
                },
                uniform: None,
                reads: &["*"],
            }
        })
        .collect()
}

impl OwnBots for RulesGame {
    /// `greedy`, then the bots this file writes.
    fn bots(&self) -> Vec<BotInfo<Self>> {
        let mut list = vec![GreedyBot::info()];
        list.extend(file_bots(self));
        list
    }
}
