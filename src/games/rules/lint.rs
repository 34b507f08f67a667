//! `playtest validate` on a rules file: warnings found by playing a fixed-seed sample of
//! games with `random` at every seat: an action never legal, a declared end never reached
//! before the cap, cards that never reach a zone anyone sees, a choice cut at its limit,
//! and cards created or lost. Each warning names the place in the file it is about.

use super::RulesGame;
use super::machine::{CHOICE_LIMIT, Choice};
use crate::engine::{EventLog, Game, GameRng, SeedFrom, ToMove, game_seed, rng};
use crate::error::Location;
use crate::variant::Variant;

/// Games the lint plays.
pub const LINT_GAMES: u64 = 200;

/// Decisions per game before the lint stops a game (a game that long is reported).
const LINT_STEPS: u64 = 100_000;

/// One warning: where, about what, what was seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The place in the file.
    pub at: Location,
    /// The key it is about.
    pub key: String,
    /// What was seen and what to do.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: key `{}`: {}", self.at, self.key, self.message)
    }
}

/// What the lint saw in its sampled games.
struct Sample {
    /// Decisions at which each action was legal.
    legal_seen: Vec<u64>,
    /// Games that ended with each end reason.
    reasons: Vec<u64>,
    /// Whether each card was ever in a zone some seat sees.
    card_seen: Vec<bool>,
    /// Decisions cut at [`CHOICE_LIMIT`] choices.
    cut: u64,
    /// Games stopped after [`LINT_STEPS`] decisions.
    long: u64,
    /// The first broken invariant (cards created or lost).
    broken: Option<String>,
}

/// The warnings of `game` (compiled from `variant`) over [`LINT_GAMES`] games from `seed`.
pub fn lint(game: &RulesGame, variant: &Variant, seed: u64) -> Vec<Warning> {
    let s = sample(game, seed);
    let mut out = never_seen(game, variant, &s);
    out.extend(limits(variant, &s));
    out
}

/// Plays [`LINT_GAMES`] games from `seed` with `random` at every seat and records what it saw.
fn sample(game: &RulesGame, seed: u64) -> Sample {
    let p = game.program();
    let b = &game.bound;
    let mut s = Sample {
        legal_seen: vec![0; p.actions.len()],
        reasons: vec![0; p.end_reasons.len()],
        card_seen: vec![false; b.attrs.len()],
        cut: 0,
        long: 0,
        broken: None,
    };
    let mut legal: Vec<Choice> = Vec::new();
    let mut log = EventLog::new(false);
    for i in 0..LINT_GAMES {
        let mut rng = GameRng::seed_from(game_seed(seed, i));
        let mut st = game.deal(&mut rng, &mut log);
        let mut steps = 0u64;
        loop {
            mark_seen(game, &st, &mut s.card_seen);
            let ToMove::Seat(seat) = game.to_move(&st) else { break };
            steps += 1;
            if steps > LINT_STEPS {
                s.long += 1;
                break;
            }
            legal.clear();
            game.legal_actions(&game.view(&st, seat), &mut legal);
            if legal.len() >= CHOICE_LIMIT {
                s.cut += 1;
            }
            let mut any = vec![false; p.actions.len()];
            for c in &legal {
                any[c.action as usize] = true;
            }
            for (a, hit) in any.iter().enumerate() {
                s.legal_seen[a] += u64::from(*hit);
            }
            let c = legal[rng::below(legal.len() as u32, &mut rng) as usize];
            game.apply(&mut st, seat, c, &mut rng, &mut log);
            if s.broken.is_none()
                && let Err(e) = game.check_invariants(&st)
            {
                s.broken = Some(e);
            }
        }
        if st.over {
            s.reasons[st.end_reason as usize] += 1;
        }
    }
    s
}

/// Actions never legal, ends never reached and card groups never seen.
fn never_seen(game: &RulesGame, variant: &Variant, s: &Sample) -> Vec<Warning> {
    let p = game.program();
    let b = &game.bound;
    let at = |key: &str| variant.provenance.locate(key);
    let mut out = Vec::new();
    for (a, decl) in p.actions.iter().enumerate() {
        if s.legal_seen[a] == 0 {
            let key = format!("actions.{}", decl.name);
            out.push(Warning {
                at: at(&key),
                key,
                message: format!("never legal in {LINT_GAMES} sampled games (random at every seat): check its `if` and where it is offered"),
            });
        }
    }
    for check in p.game_ends.iter().chain(&p.round_ends) {
        let r = check.reason as usize;
        if s.reasons[r] == 0 {
            let name = p.end_reasons[r];
            let key = ["end.when", "end.round_when"]
                .iter()
                .find_map(|list| match variant.table.get("end").and_then(|e| e.get(list.trim_start_matches("end."))) {
                    Some(toml::Value::Array(items)) => {
                        items.iter().position(|i| i.get("reason").and_then(|r| r.as_str()) == Some(name)).map(|i| format!("{list}.{i}"))
                    }
                    _ => None,
                })
                .unwrap_or_else(|| "end".into());
            let capped = s.reasons[p.reason_cap as usize];
            out.push(Warning {
                at: at(&key),
                key,
                message: format!("the end `{name}` was never reached in {LINT_GAMES} sampled games ({capped} reached the cap)"),
            });
        }
    }
    // Cards never in a zone anyone sees, by the zone they start in.
    for (g, group) in p.groups.iter().enumerate() {
        let ids: Vec<usize> = b.start.iter().filter(|(z, _)| *z == group.zone).flat_map(|(_, list)| list.iter().map(|&c| c as usize)).collect();
        let unseen = ids.iter().filter(|&&c| !s.card_seen[c]).count();
        if unseen > 0 && unseen == ids.len() {
            let key = format!("cards.group.{g}");
            out.push(Warning {
                at: at(&key),
                key,
                message: format!(
                    "none of its {} cards ever reached a zone anyone sees in {LINT_GAMES} sampled games: they cannot matter to a decision",
                    ids.len()
                ),
            });
        }
    }
    out
}

/// Decisions cut at the choice limit, games too long, cards created or lost.
fn limits(variant: &Variant, s: &Sample) -> Vec<Warning> {
    let at = |key: &str| variant.provenance.locate(key);
    let mut out = Vec::new();
    if s.cut > 0 {
        out.push(Warning {
            at: at("actions"),
            key: "actions".into(),
            message: format!("{} decisions offered {CHOICE_LIMIT} choices or more and were cut there: choose fewer cards at once", s.cut),
        });
    }
    if s.long > 0 {
        out.push(Warning {
            at: at("end.cap"),
            key: "end.cap".into(),
            message: format!("{} sampled games took more than {LINT_STEPS} decisions: lower the cap", s.long),
        });
    }
    if let Some(e) = &s.broken {
        out.push(Warning { at: at("zones"), key: "zones".into(), message: format!("cards created or lost: {e}") });
    }
    out
}

fn mark_seen(game: &RulesGame, st: &super::State, seen: &mut [bool]) {
    let b = &game.bound;
    for (z, cards) in st.zones.iter().enumerate() {
        for (i, &c) in cards.iter().enumerate() {
            if !seen[c as usize] && b.seers(z, st, i) != 0 {
                seen[c as usize] = true;
            }
        }
    }
}
