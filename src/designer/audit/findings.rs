//! The audit's decisions: from what the watched line-ups did (and the claims, the exploit
//! sweep and the sensitivity analysis), which holes to report and how much each matters
//! (see [`super::SEVERITY_RULE`]): a stall, a dead rule, no real choice, a game decided early,
//! an impossible or certain claim, a key with no effect. Pure functions of their inputs, so
//! the tests feed them constructed counts.

use crate::games::{self, GameHandle};
use crate::stats::wilson;
use crate::variant::Variant;

use super::watch::{self, Watched};
use super::{Figure, Finding, Severity, exploit, sensitivity, write};

/// Every finding of the watched line-ups (`specs`, `watched`; `labels` the table's bots),
/// the claims, the exploit sweep and the sensitivity analysis, unsorted.
pub(super) fn findings_of(
    ctx: &Context<'_>,
    (specs, watched, labels): (&[String], &[Watched], &[String]),
    claims: &[crate::engine::ClaimCheck],
    (exploit_report, sens): (Option<&exploit::ExploitReport>, Option<&sensitivity::Sensitivity>),
) -> Vec<Finding> {
    let mut findings = Vec::new();
    stall_findings(ctx, specs, watched, &mut findings);
    dead_rule_findings(ctx, specs, watched, &mut findings);
    choice_findings(ctx, specs, watched, &mut findings);
    early_findings(ctx, &specs[1], &watched[1], &mut findings);
    claim_findings(claims, &mut findings);
    if let Some(r) = exploit_report {
        findings.extend(exploit::findings(r, ctx.replay_base));
    }
    if let Some(s) = sens {
        for key in &s.no_effect {
            let of_key: Vec<&sensitivity::StepRow> = s.steps.iter().filter(|r| &r.key == key).collect();
            let values: Vec<String> = of_key.iter().map(|r| write::num(r.to)).collect();
            let sentence = format!(
                "changing `{key}` from {} to {} (a full step each way) moved none of {} significantly: a hint that the rule it sets may be dead",
                of_key.first().map_or(String::new(), |r| write::num(r.from)),
                values.join(" or "),
                metric_list(s)
            );
            findings.push(sensitivity_finding("no effect", sentence, vec![key.clone()], s, &specs[1]));
        }
        // One hint per unread key, each with its own steps' figure (a group of 22 scoring
        // rows in one hint would show one key's effect for all of them).
        for u in games::keys::unread(ctx.game.facts().id, labels, &s.unread) {
            for (sentence, keys) in crate::designer::bot_keys::grouped(std::slice::from_ref(&u)) {
                findings.push(sensitivity_finding("unread key", sentence, keys, s, &specs[1]));
            }
        }
    }
    findings
}

/// A low-severity finding about some keys of the sensitivity analysis, its figure the largest
/// change in first-player advantage any of their steps made.
fn sensitivity_finding(kind: &'static str, sentence: String, keys: Vec<String>, s: &sensitivity::Sensitivity, lineup: &str) -> Finding {
    let of_keys = || s.steps.iter().filter(|r| keys.contains(&r.key));
    let games = of_keys().map(|r| r.games).max().unwrap_or(0);
    let (value, lo, hi) = of_keys()
        .flat_map(|r| r.effects.iter())
        .filter(|e| e.metric == "first_player_advantage")
        .map(|e| (e.diff, e.ci95.map_or(e.diff, |c| c[0]), e.ci95.map_or(e.diff, |c| c[1])))
        .max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()))
        .unwrap_or((0.0, 0.0, 0.0));
    Finding {
        kind,
        severity: Severity::Low,
        sentence,
        figure: Figure { name: "change in first-player advantage (largest of the steps)".into(), value, ci95: [lo, hi], games, decisions: None },
        keys,
        lineup: lineup.to_string(),
        seeds: Vec::new(),
        replay: Vec::new(),
    }
}

fn metric_list(s: &sensitivity::Sensitivity) -> String {
    s.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The one-line verdict.
pub fn verdict(findings: &[Finding]) -> String {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (h, m, l) = (count(Severity::High), count(Severity::Medium), count(Severity::Low));
    if h + m == 0 {
        format!("clean: no high- or medium-severity finding ({l} low-severity hint(s))")
    } else {
        format!("{h} high-, {m} medium- and {l} low-severity finding(s)")
    }
}

/// What the finding builders share.
pub(super) struct Context<'a> {
    /// The game.
    pub(super) game: &'a dyn GameHandle,
    /// The variant audited.
    pub(super) variant: &'a Variant,
    /// The game's kinds of action.
    pub(super) kinds: &'a [&'static str],
    /// `playtest trace VARIANT` with its overrides, to which a finding adds `--bots` and
    /// `--game-seed`.
    pub(super) replay_base: &'a str,
    /// Turns without progress that make a stall.
    pub(super) stall_turns: u32,
}

impl Context<'_> {
    fn replay(&self, lineup: &str, seeds: &[u64]) -> Vec<String> {
        seeds.iter().map(|s| format!("{} --bots {lineup} --game-seed {s}", self.replay_base)).collect()
    }

    /// Variant keys whose name mentions a word of `text` (a kind of action), else `fallback`.
    fn keys_for(&self, text: &str, fallback: &[&str]) -> Vec<String> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .filter(|w| w.len() >= 4 && !["play", "with", "from", "take", "card", "cards", "group", "alone"].contains(w))
            .map(|w| w.replace('-', "_"))
            .collect();
        let mut keys: Vec<String> = sensitivity::numeric_keys(&self.variant.table)
            .into_iter()
            .map(|k| k.key)
            .filter(|k| words.iter().any(|w| k.split('.').any(|seg| seg == w || seg.starts_with(&format!("{w}_")) || seg.ends_with(&format!("_{w}")))))
            .collect();
        if keys.is_empty() {
            keys = fallback.iter().filter(|k| key_exists(&self.variant.table, k)).map(|k| k.to_string()).collect();
        }
        keys
    }
}

fn key_exists(table: &toml::Table, key: &str) -> bool {
    let mut t = table;
    let parts: Vec<&str> = key.split('.').collect();
    for (i, p) in parts.iter().enumerate() {
        match t.get(*p) {
            Some(toml::Value::Table(next)) if i + 1 < parts.len() => t = next,
            Some(_) if i + 1 == parts.len() => return true,
            _ => return false,
        }
    }
    false
}

fn share(successes: u64, n: u64) -> (f64, [f64; 2]) {
    let (lo, hi) = wilson(successes as f64, n);
    (if n == 0 { 0.0 } else { successes as f64 / n as f64 }, [lo, hi])
}

fn stall_findings(ctx: &Context<'_>, specs: &[String], watched: &[Watched], out: &mut Vec<Finding>) {
    // The table first: it decides the severity; the other line-ups add low hints.
    for (i, role) in [(1usize, "the table"), (2, "the search bot"), (0, "random bots")] {
        let w = &watched[i];
        if w.games == 0 {
            continue;
        }
        // A game counted once: capped, or stalled without reaching the cap.
        let stalled_games = w.capped.max(w.stalled).min(w.games);
        let mut seeds = w.capped_seeds.0.clone();
        for s in &w.stalled_seeds.0 {
            if seeds.len() < watch::SEEDS && !seeds.contains(s) {
                seeds.push(*s);
            }
        }
        if stalled_games == 0 {
            continue;
        }
        let (value, ci) = share(stalled_games, w.games);
        let severity = match i {
            1 if value >= 0.01 => Severity::High,
            1 if value >= 0.001 => Severity::Medium,
            _ => Severity::Low,
        };
        let cap = ctx.game.turn_cap();
        let sentence = format!(
            "with {role}, {:.2}% of games stall: {} of {} reach the turn cap ({cap} {unit}) and {} go {} {unit} or more without progress (longest stretch {} {unit})",
            value * 100.0,
            w.capped,
            w.games,
            w.stalled,
            ctx.stall_turns,
            w.longest_still,
            unit = ctx.game.facts().length_unit
        );
        out.push(Finding {
            kind: "stall",
            severity,
            sentence,
            figure: Figure { name: "share of games that stall".into(), value, ci95: ci, games: w.games, decisions: None },
            keys: ctx.keys_for("turn_cap", &["turn_cap"]),
            lineup: specs[i].clone(),
            replay: ctx.replay(&specs[i], &seeds),
            seeds,
        });
    }
}

/// A kind is dead for a line-up when it is never legal, or taken in under 0.1% of the
/// decisions where it is legal.
const DEAD_SHARE: f64 = 0.001;

fn dead_rule_findings(ctx: &Context<'_>, specs: &[String], watched: &[Watched], out: &mut Vec<Finding>) {
    for (k, kind) in ctx.kinds.iter().enumerate() {
        let dead_everywhere = watched.iter().all(|w| w.legal[k] == 0 || (w.used[k] as f64) < DEAD_SHARE * w.legal[k] as f64);
        if !dead_everywhere {
            continue;
        }
        let legal: u64 = watched.iter().map(|w| w.legal[k]).sum();
        let used: u64 = watched.iter().map(|w| w.used[k]).sum();
        let games: u64 = watched.iter().map(|w| w.games).sum();
        let keys = ctx.keys_for(kind, &[]);
        if legal == 0 {
            out.push(Finding {
                kind: "dead rule",
                severity: Severity::Medium,
                sentence: format!(
                    "\"{kind}\" was never legal in {games} games (random bots, the table and the search bot): never reachable under this variant"
                ),
                figure: Figure {
                    name: "decisions where it was legal".into(),
                    value: 0.0,
                    ci95: [0.0, 0.0],
                    games,
                    decisions: Some(watched.iter().map(|w| w.decisions).sum()),
                },
                keys,
                lineup: specs.join(" | "),
                seeds: Vec::new(),
                replay: Vec::new(),
            });
            continue;
        }
        // Evidence: games where it was legal and (nearly) never taken, from the line-up with most chances.
        let best = (0..watched.len()).max_by_key(|&i| watched[i].legal[k]).unwrap_or(0);
        let seeds = watched[best].legal_seeds[k].0.clone();
        let (value, ci) = share(used, legal);
        let severity = if legal >= 1000 { Severity::Medium } else { Severity::Low };
        out.push(Finding {
            kind: "dead rule",
            severity,
            sentence: format!(
                "\"{kind}\" was legal in {legal} decisions but taken in only {used} ({:.3}%) by every line-up: never useful, even to random bots",
                value * 100.0
            ),
            figure: Figure { name: "share of decisions where legal that took it".into(), value, ci95: ci, games, decisions: Some(legal) },
            keys,
            lineup: specs[best].clone(),
            replay: ctx.replay(&specs[best], &seeds),
            seeds,
        });
    }
}

fn choice_findings(ctx: &Context<'_>, specs: &[String], watched: &[Watched], out: &mut Vec<Finding>) {
    let s = &watched[2];
    for (k, kind) in ctx.kinds.iter().enumerate() {
        let (n, taken) = (s.contested[k], s.contested_used[k]);
        if n >= 100 && taken as f64 >= 0.99 * n as f64 {
            let (value, ci) = share(taken, n);
            let seeds = s.used_seeds[k].0.clone();
            out.push(Finding {
                kind: "no real choice",
                severity: Severity::Medium,
                sentence: format!(
                    "dominant move: when \"{kind}\" is legal beside other kinds of action, the search bot takes it {:.1}% of the time ({taken} of {n})",
                    value * 100.0
                ),
                figure: Figure { name: "share of contested decisions taking it (search bot)".into(), value, ci95: ci, games: s.games, decisions: Some(n) },
                keys: ctx.keys_for(kind, &[]),
                lineup: specs[2].clone(),
                replay: ctx.replay(&specs[2], &seeds),
                seeds,
            });
        }
        let used_elsewhere = watched[0].used[k] + watched[1].used[k] > 0;
        if n >= 200 && taken == 0 && used_elsewhere {
            let (value, ci) = share(0, n);
            let seeds = s.passed_seeds[k].0.clone();
            out.push(Finding {
                kind: "no real choice",
                severity: Severity::Low,
                sentence: format!("dominated move: the search bot never took \"{kind}\" in {n} decisions where it could have taken something else instead"),
                figure: Figure { name: "share of contested decisions taking it (search bot)".into(), value, ci95: ci, games: s.games, decisions: Some(n) },
                keys: ctx.keys_for(kind, &[]),
                lineup: specs[2].clone(),
                replay: ctx.replay(&specs[2], &seeds),
                seeds,
            });
        }
    }
    let t = &watched[1];
    if t.decisions > 0 && t.forced * 2 > t.decisions {
        let (value, ci) = share(t.forced, t.decisions);
        out.push(Finding {
            kind: "no real choice",
            severity: Severity::Low,
            sentence: format!("{:.1}% of the table's decisions are forced (one legal action)", value * 100.0),
            figure: Figure { name: "share of decisions that are forced".into(), value, ci95: ci, games: t.games, decisions: Some(t.decisions) },
            keys: Vec::new(),
            lineup: specs[1].clone(),
            seeds: Vec::new(),
            replay: Vec::new(),
        });
    }
}

fn early_findings(ctx: &Context<'_>, spec: &str, w: &Watched, out: &mut Vec<Finding>) {
    if w.decided == 0 {
        return;
    }
    if w.dealt > 0 {
        let (value, ci) = share(w.dealt, w.decided);
        let severity = if value >= 0.05 {
            Severity::High
        } else if value >= 0.01 {
            Severity::Medium
        } else {
            Severity::Low
        };
        out.push(Finding {
            kind: "decided early",
            severity,
            sentence: format!("{:.2}% of decided games are won by a seat that never had a choice: decided by the deal", value * 100.0),
            figure: Figure { name: "share of decided games won before the winner decided anything".into(), value, ci95: ci, games: w.decided, decisions: None },
            keys: ctx.keys_for("hand_size deal", &["hand_size", "deal"]),
            lineup: spec.into(),
            replay: ctx.replay(spec, &w.dealt_seeds.0),
            seeds: w.dealt_seeds.0.clone(),
        });
    }
    let (value, ci) = share(w.wire, w.decided);
    if value > 0.5 {
        out.push(Finding {
            kind: "decided early",
            severity: Severity::Medium,
            sentence: format!("in {:.1}% of decided games the winner was among the leaders after every turn, from the first to the end", value * 100.0),
            figure: Figure { name: "share of decided games led wire to wire".into(), value, ci95: ci, games: w.decided, decisions: None },
            keys: Vec::new(),
            lineup: spec.into(),
            replay: ctx.replay(spec, &w.wire_seeds.0),
            seeds: w.wire_seeds.0.clone(),
        });
    }
}

fn claim_findings(claims: &[crate::engine::ClaimCheck], out: &mut Vec<Finding>) {
    for c in claims {
        if !c.possible {
            out.push(Finding {
                kind: "impossible claim",
                severity: Severity::High,
                sentence: format!("the claim \"{}\" can never be true with this deck: every such claim is a bluff that a challenge always catches", c.claim),
                figure: Figure { name: "claims possible".into(), value: 0.0, ci95: [0.0, 0.0], games: 0, decisions: None },
                keys: c.keys.clone(),
                lineup: String::new(),
                seeds: Vec::new(),
                replay: Vec::new(),
            });
        } else if c.certain {
            out.push(Finding {
                kind: "certain claim",
                severity: Severity::Medium,
                sentence: format!("the claim \"{}\" is always true with this deck: challenging it never pays", c.claim),
                figure: Figure { name: "claims possible".into(), value: 1.0, ci95: [1.0, 1.0], games: 0, decisions: None },
                keys: c.keys.clone(),
                lineup: String::new(),
                seeds: Vec::new(),
                replay: Vec::new(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The finding builders' context on Take a Penny (no game is played).
    fn with_context(kinds: &[&'static str], f: impl FnOnce(&Context<'_>)) {
        let variant = Variant::load(Path::new("variants/take-a-penny/standard.toml"), &[]).unwrap();
        let game = games::handle(&variant).unwrap();
        let ctx = Context { game: &*game, variant: &variant, kinds, replay_base: "playtest trace v.toml", stall_turns: 100 };
        f(&ctx);
    }

    /// A watched line-up with `games` games and, per kind, (legal, used) decisions.
    fn watched(games: u64, per_kind: &[(u64, u64)]) -> Watched {
        let n = per_kind.len();
        Watched {
            games,
            decisions: per_kind.iter().map(|k| k.0).sum(),
            legal: per_kind.iter().map(|k| k.0).collect(),
            used: per_kind.iter().map(|k| k.1).collect(),
            contested: vec![0; n],
            contested_used: vec![0; n],
            legal_seeds: vec![watch::Seeds::default(); n],
            used_seeds: vec![watch::Seeds::default(); n],
            passed_seeds: vec![watch::Seeds::default(); n],
            ..Default::default()
        }
    }

    fn specs() -> Vec<String> {
        ["random,random", "table,table", "search,search"].map(String::from).to_vec()
    }

    fn dead(kinds: &[&'static str], lineups: &[Watched]) -> Vec<(String, Severity, String)> {
        let mut out = Vec::new();
        with_context(kinds, |ctx| dead_rule_findings(ctx, &specs(), lineups, &mut out));
        out.into_iter().map(|f| (f.kind.to_string(), f.severity, f.sentence)).collect()
    }

    #[test]
    fn a_kind_is_a_dead_rule_only_when_every_lineup_leaves_it() {
        // Never legal anywhere: unreachable, medium.
        let never = dead(&["take"], &[watched(100, &[(0, 0)]), watched(100, &[(0, 0)]), watched(100, &[(0, 0)])]);
        assert_eq!(never.len(), 1);
        assert_eq!((never[0].0.as_str(), never[0].1), ("dead rule", Severity::Medium));
        assert!(never[0].2.contains("was never legal in 300 games"), "{}", never[0].2);
        // Legal often, taken under 0.1% by every line-up: medium from 1,000 chances on.
        let rare = [watched(100, &[(2000, 1)]), watched(100, &[(3000, 2)]), watched(100, &[(1000, 0)])];
        let found = dead(&["take"], &rare);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, Severity::Medium);
        assert!(found[0].2.contains("legal in 6000 decisions but taken in only 3"), "{}", found[0].2);
        // The same shares on fewer chances: only a hint.
        let thin = dead(&["take"], &[watched(10, &[(300, 0)]), watched(10, &[(300, 0)]), watched(10, &[(300, 0)])]);
        assert_eq!(thin[0].1, Severity::Low);
        // One line-up takes it at 0.1% (not under): alive.
        assert!(dead(&["take"], &[watched(100, &[(2000, 2)]), watched(100, &[(3000, 0)]), watched(100, &[(1000, 0)])]).is_empty());
        // Never legal for one line-up but used by another: alive.
        assert!(dead(&["take"], &[watched(100, &[(0, 0)]), watched(100, &[(50, 20)]), watched(100, &[(0, 0)])]).is_empty());
        // Kinds are judged apart.
        let two = dead(&["take", "pass"], &[watched(100, &[(0, 0), (50, 20)]), watched(100, &[(0, 0), (50, 20)]), watched(100, &[(0, 0), (50, 20)])]);
        assert_eq!(two.len(), 1);
        assert!(two[0].2.starts_with("\"take\""), "{}", two[0].2);
    }

    #[test]
    fn a_move_the_search_bot_always_or_never_takes_is_no_real_choice() {
        let with = |n: u64, taken: u64, used_elsewhere: u64| {
            let mut lineups = vec![watched(100, &[(500, used_elsewhere)]), watched(100, &[(500, 0)]), watched(100, &[(500, taken)])];
            lineups[2].contested = vec![n];
            lineups[2].contested_used = vec![taken];
            let mut out = Vec::new();
            with_context(&["take"], |ctx| choice_findings(ctx, &specs(), &lineups, &mut out));
            out.into_iter().map(|f| (f.severity, f.sentence)).collect::<Vec<_>>()
        };
        // Dominant: taken in 99% of at least 100 contested decisions.
        let dominant = with(100, 99, 10);
        assert_eq!(dominant.len(), 1);
        assert_eq!(dominant[0].0, Severity::Medium);
        assert!(dominant[0].1.starts_with("dominant move"), "{}", dominant[0].1);
        assert!(with(100, 98, 10).is_empty(), "98% leaves a choice");
        assert!(with(99, 99, 10).is_empty(), "too few contested decisions to judge");
        // Dominated: never taken in 200 contested decisions, though other line-ups take it.
        let dominated = with(200, 0, 10);
        assert_eq!(dominated.len(), 1);
        assert_eq!(dominated[0].0, Severity::Low);
        assert!(dominated[0].1.starts_with("dominated move"), "{}", dominated[0].1);
        assert!(with(199, 0, 10).is_empty());
        assert!(with(200, 0, 0).is_empty(), "nobody takes it: a dead rule's business, not a choice's");
    }

    #[test]
    fn the_tables_stalls_decide_the_severity_and_other_lineups_only_hint() {
        let stalls = |i: usize, capped: u64| {
            let mut lineups = vec![watched(10_000, &[]), watched(10_000, &[]), watched(10_000, &[])];
            lineups[i].capped = capped;
            let mut out = Vec::new();
            with_context(&[], |ctx| stall_findings(ctx, &specs(), &lineups, &mut out));
            out.into_iter().map(|f| f.severity).collect::<Vec<_>>()
        };
        assert_eq!(stalls(1, 100), vec![Severity::High], "1% of the table's games");
        assert_eq!(stalls(1, 99), vec![Severity::Medium]);
        assert_eq!(stalls(1, 10), vec![Severity::Medium], "0.1%");
        assert_eq!(stalls(1, 9), vec![Severity::Low]);
        assert_eq!(stalls(0, 5_000), vec![Severity::Low], "random bots stalling is a hint");
        assert!(stalls(1, 0).is_empty());
    }

    #[test]
    fn a_game_decided_by_the_deal_or_led_wire_to_wire_is_decided_early() {
        let early = |dealt: u64, wire: u64| {
            let w = Watched { decided: 1000, dealt, wire, ..watched(1000, &[]) };
            let mut out = Vec::new();
            with_context(&[], |ctx| early_findings(ctx, "table", &w, &mut out));
            out.into_iter().map(|f| (f.severity, f.figure.name)).collect::<Vec<_>>()
        };
        assert_eq!(early(50, 0)[0].0, Severity::High, "5% of decided games");
        assert_eq!(early(49, 0)[0].0, Severity::Medium);
        assert_eq!(early(9, 0)[0].0, Severity::Low);
        assert!(early(0, 500).is_empty(), "half led wire to wire is not over half");
        let wire = early(0, 501);
        assert_eq!(wire, vec![(Severity::Medium, "share of decided games led wire to wire".to_string())]);
    }

    #[test]
    fn impossible_claims_are_high_and_certain_ones_medium() {
        let claim = |possible, certain| crate::engine::ClaimCheck { claim: "a wild".into(), possible, certain, keys: vec!["payout.wild".into()] };
        let mut out = Vec::new();
        claim_findings(&[claim(false, false), claim(true, true), claim(true, false)], &mut out);
        let got: Vec<(&str, Severity)> = out.iter().map(|f| (f.kind, f.severity)).collect();
        assert_eq!(got, vec![("impossible claim", Severity::High), ("certain claim", Severity::Medium)]);
    }

    #[test]
    fn the_verdict_is_clean_only_without_high_or_medium_findings() {
        let finding = |severity| Finding {
            kind: "stall",
            severity,
            sentence: String::new(),
            figure: Figure { name: String::new(), value: 0.0, ci95: [0.0, 0.0], games: 0, decisions: None },
            keys: Vec::new(),
            lineup: String::new(),
            seeds: Vec::new(),
            replay: Vec::new(),
        };
        assert_eq!(verdict(&[]), "clean: no high- or medium-severity finding (0 low-severity hint(s))");
        assert_eq!(verdict(&[finding(Severity::Low), finding(Severity::Low)]), "clean: no high- or medium-severity finding (2 low-severity hint(s))");
        assert_eq!(verdict(&[finding(Severity::Medium), finding(Severity::Low)]), "0 high-, 1 medium- and 1 low-severity finding(s)");
        assert_eq!(verdict(&[finding(Severity::High)]), "1 high-, 0 medium- and 0 low-severity finding(s)");
    }
}
