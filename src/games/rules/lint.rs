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

/// The warnings of `game` (compiled from `variant`) over [`LINT_GAMES`] games from `seed`.
pub fn lint(game: &RulesGame, variant: &Variant, seed: u64) -> Vec<Warning> {
    let p = game.program();
    let b = &game.bound;
    let mut legal_seen = vec![0u64; p.actions.len()];
    let mut chosen_seen = vec![0u64; p.actions.len()];
    let mut reasons = vec![0u64; p.end_reasons.len()];
    let mut card_seen = vec![false; b.attrs.len()];
    let mut cut = 0u64;
    let mut broken: Option<String> = None;
    let mut long = 0u64;
    let mut legal: Vec<Choice> = Vec::new();
    let mut log = EventLog::new(false);
    for i in 0..LINT_GAMES {
        let mut rng = GameRng::seed_from(game_seed(seed, i));
        let mut st = game.deal(&mut rng, &mut log);
        let mut steps = 0u64;
        loop {
            mark_seen(game, &st, &mut card_seen);
            let ToMove::Seat(seat) = game.to_move(&st) else { break };
            steps += 1;
            if steps > LINT_STEPS {
                long += 1;
                break;
            }
            legal.clear();
            game.legal_actions(&game.view(&st, seat), &mut legal);
            if legal.len() >= CHOICE_LIMIT {
                cut += 1;
            }
            let mut any = vec![false; p.actions.len()];
            for c in &legal {
                any[c.action as usize] = true;
            }
            for (a, hit) in any.iter().enumerate() {
                legal_seen[a] += u64::from(*hit);
            }
            let c = legal[rng::below(legal.len() as u32, &mut rng) as usize];
            chosen_seen[c.action as usize] += 1;
            game.apply(&mut st, seat, c, &mut rng, &mut log);
            if broken.is_none()
                && let Err(e) = game.check_invariants(&st)
            {
                broken = Some(e);
            }
        }
        if st.over {
            reasons[st.end_reason as usize] += 1;
        }
    }
    let at = |key: &str| variant.provenance.locate(key);
    let mut out = Vec::new();
    for (a, decl) in p.actions.iter().enumerate() {
        if legal_seen[a] == 0 {
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
        if reasons[r] == 0 {
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
            let capped = reasons[p.reason_cap as usize];
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
        let unseen = ids.iter().filter(|&&c| !card_seen[c]).count();
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
    if cut > 0 {
        out.push(Warning {
            at: at("actions"),
            key: "actions".into(),
            message: format!("{cut} decisions offered {CHOICE_LIMIT} choices or more and were cut there: choose fewer cards at once"),
        });
    }
    if long > 0 {
        out.push(Warning {
            at: at("end.cap"),
            key: "end.cap".into(),
            message: format!("{long} sampled games took more than {LINT_STEPS} decisions: lower the cap"),
        });
    }
    if let Some(e) = broken {
        out.push(Warning { at: at("zones"), key: "zones".into(), message: format!("cards created or lost: {e}") });
    }
    let _ = chosen_seen;
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
