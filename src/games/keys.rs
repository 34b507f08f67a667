//! Which variant keys the bots at a table read ([`BotInfo::reads`]), for the designer
//! commands that say when a changed key is read by none of them, and the tests that hold
//! every bot of every game to its declaration.

use crate::engine::{BotInfo, BotSpec, all_bots, bots::key_matches};

use super::{GameVisitor, Registered, visit};

/// A changed key that no bot at the table reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Unread {
    /// The changed key (`scoring.seller.3`).
    pub key: String,
    /// The distinct bots of the table, by name, none of which reads it.
    pub bots: Vec<String>,
    /// The game's score-only pattern the key falls under (`scoring.*`), when the rules read
    /// it only to score: then the same games are played and only who wins can move.
    pub score_pattern: Option<&'static str>,
}

/// The keys of `keys` that no bot of the line-up `labels` (bot specs, one per seat or one
/// for all) reads, for game `G`. A label that names no bot of the game reads everything (it
/// is refused elsewhere).
pub fn unread_by<G: Registered>(labels: &[String], keys: &[String]) -> Vec<Unread> {
    let Ok(game) = super::standard::<G>() else {
        return Vec::new();
    };
    let infos = all_bots(&game);
    let mut table: Vec<&BotInfo<G>> = Vec::new();
    for label in labels {
        let Some(info) = BotSpec::parse(label).ok().and_then(|spec| spec.resolve(&infos).ok()).map(|(info, _)| info) else {
            return Vec::new();
        };
        if !table.iter().any(|b| b.name == info.name) {
            table.push(info);
        }
    }
    if table.is_empty() {
        return Vec::new();
    }
    keys.iter()
        .filter(|key| !G::STRUCTURAL_KEYS.iter().any(|p| key_matches(p, key)))
        .filter(|key| !table.iter().any(|b| b.reads_key(key)))
        .map(|key| Unread {
            key: key.clone(),
            bots: table.iter().map(|b| b.name.to_string()).collect(),
            score_pattern: G::SCORE_KEYS.iter().copied().find(|p| key_matches(p, key)),
        })
        .collect()
}

/// [`unread_by`] for the game with id `game` (none for an unknown id).
pub fn unread(game: &str, labels: &[String], keys: &[String]) -> Vec<Unread> {
    struct Find<'a>(&'a [String], &'a [String]);
    impl GameVisitor for Find<'_> {
        type Output = Vec<Unread>;
        fn visit<G: Registered>(self) -> Vec<Unread> {
            unread_by::<G>(self.0, self.1)
        }
    }
    visit(game, Find(labels, keys)).unwrap_or_default()
}

/// The game's score-only key patterns that no bot of the line-up reads (Pig Farm's
/// `scoring.*` under `threshold`), for game `game`.
pub fn unread_score_keys(game: &str, labels: &[String]) -> Vec<Unread> {
    struct Find<'a>(&'a [String]);
    impl GameVisitor for Find<'_> {
        type Output = Vec<Unread>;
        fn visit<G: Registered>(self) -> Vec<Unread> {
            let patterns: Vec<String> = G::SCORE_KEYS.iter().map(|p| p.trim_end_matches(".*").to_string()).collect();
            unread_by::<G>(self.0, &patterns)
        }
    }
    visit(game, Find(labels)).unwrap_or_default()
}

/// Whether `key` is one of game `game`'s structural keys (players, rounds of a match).
pub fn is_structural(game: &str, key: &str) -> bool {
    struct Find<'a>(&'a str);
    impl GameVisitor for Find<'_> {
        type Output = bool;
        fn visit<G: Registered>(self) -> bool {
            G::STRUCTURAL_KEYS.iter().any(|p| key_matches(p, self.0))
        }
    }
    visit(game, Find(key)).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::engine::reads::{compare_choices, compare_play};
    use crate::engine::{Bot, RANDOM};
    use crate::games::GAME_IDS;
    use crate::variant::{COMMON_KEYS, Variant};

    /// Games per bot, key and change.
    const GAMES: u64 = 3;
    /// Decisions per game at most.
    const STEPS: u64 = 600;

    /// Every leaf of a variant table the checks change: numbers, numbers in lists and
    /// booleans, with the changes tried (the first two the game accepts are played).
    fn changes(table: &toml::Table) -> Vec<(String, Vec<String>)> {
        fn walk(value: &toml::Value, key: String, out: &mut Vec<(String, Vec<String>)>) {
            match value {
                toml::Value::Integer(i) => {
                    let step = (i.abs() / 2).max(1);
                    let tries = [i + step, i - step, 2 * i + 1, 0, i + 1, i - 1];
                    out.push((key, tries.iter().filter(|&&x| x != *i).map(|x| x.to_string()).collect()));
                }
                toml::Value::Float(x) => {
                    let tries = [x * 1.5, x * 0.5, x + 0.25, x - 0.25];
                    out.push((key, tries.iter().filter(|&&t| t != *x).map(|t| format!("{t:?}")).collect()));
                }
                toml::Value::Boolean(b) => out.push((key, vec![(!b).to_string()])),
                toml::Value::Table(t) => {
                    for (k, v) in t {
                        walk(v, format!("{key}.{k}"), out);
                    }
                }
                toml::Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        if matches!(v, toml::Value::Integer(_) | toml::Value::Float(_)) {
                            walk(v, format!("{key}.{i}"), out);
                        }
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        for (k, v) in table.iter().filter(|(k, _)| !COMMON_KEYS.contains(&k.as_str())) {
            walk(v, k.clone(), &mut out);
        }
        out
    }

    /// The variant at `path` with `key` changed: up to two games the loader and the game accept.
    fn changed<G: Registered>(path: &Path, key: &str, tries: &[String]) -> Vec<(String, G)> {
        tries
            .iter()
            .filter_map(|t| {
                let set = format!("{key}={t}");
                let v = Variant::load(path, std::slice::from_ref(&set)).ok()?;
                G::from_variant(&v).ok().map(|g| (set, g))
            })
            .take(2)
            .collect()
    }

    /// Checks bot `bot` of game `G` as if it declared `reads`, on the variant at `path`: every
    /// key it does not declare, changed, leaves its choices the same. Returns decisions compared.
    fn check_bot<G: Registered>(path: &Path, bot: &str, reads: &[&str]) -> Result<u64, String> {
        let variant = Variant::load(path, &[]).map_err(|e| e.to_string())?;
        let game = G::from_variant(&variant).map_err(|e| e.to_string())?;
        let infos = all_bots(&game);
        let info = infos.iter().find(|b| b.name == bot).ok_or("no such bot")?;
        let defaults: Vec<f64> = info.params.iter().map(|p| p.default).collect();
        let seats = game.acting_seats();
        let mut compared = 0;
        for (key, tries) in changes(&variant.table) {
            if reads.iter().any(|p| key_matches(p, &key)) || G::STRUCTURAL_KEYS.iter().any(|p| key_matches(p, &key)) {
                continue;
            }
            for (set, other) in changed::<G>(path, &key, &tries) {
                let mut a: Vec<Box<dyn Bot<G>>> = (0..seats).map(|_| (info.build)(&game, &defaults)).collect();
                let mut b: Vec<Box<dyn Bot<G>>> = (0..seats).map(|_| (info.build)(&other, &defaults)).collect();
                let seen = compare_choices(&game, &other, &mut a, &mut b, 11, GAMES, STEPS)
                    .map_err(|e| format!("{}: `{bot}` does not declare `{key}`, yet `--set {set}` changes its choice: {e}", path.display()))?;
                compared += seen.compared;
            }
        }
        Ok(compared)
    }

    fn variant_files(id: &str) -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(id);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("variants folder").flatten().map(|e| e.path()).collect();
        files.retain(|f| f.extension().is_some_and(|x| x == "toml"));
        files.sort();
        files
    }

    struct CheckGame<'a> {
        path: PathBuf,
        variant: &'a Variant,
    }

    impl GameVisitor for CheckGame<'_> {
        type Output = Result<Vec<String>, crate::error::Error>;
        fn visit<G: Registered>(self) -> Self::Output {
            let variant = self.variant;
            let game = G::from_variant(variant)?;
            let mut failures = Vec::new();
            for info in all_bots(&game) {
                if info.reads.contains(&"*") || G::HARNESS_SKIPS.contains(&info.name) {
                    continue;
                }
                if let Err(e) = check_bot::<G>(&self.path, info.name, info.reads) {
                    failures.push(e);
                }
            }
            // The score-only keys: the same choices play the same games, only the scores differ.
            let seats = game.acting_seats();
            let random = all_bots(&game).into_iter().find(|b| b.name == RANDOM).expect("every game has random");
            for (key, tries) in changes(&variant.table) {
                if !G::SCORE_KEYS.iter().any(|p| key_matches(p, &key)) {
                    continue;
                }
                for (set, other) in changed::<G>(&self.path, &key, &tries) {
                    let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats).map(|_| (random.build)(&game, &[])).collect();
                    if let Err(e) = compare_play(&game, &other, &mut bots, 5, GAMES, STEPS) {
                        failures.push(format!("{}: `{key}` is a score-only key, yet `--set {set}` changes the play: {e}", self.path.display()));
                    }
                }
            }
            Ok(failures)
        }
    }

    /// Every bot of every registered game, on every bundled variant: a key the bot does not
    /// declare in [`BotInfo::reads`], changed, leaves its choices unchanged at every sampled
    /// state where the legal actions stay the same; and a game's score-only keys change no play.
    #[test]
    fn every_bot_reads_only_the_keys_it_declares() {
        let mut failures = Vec::new();
        for id in GAME_IDS {
            for path in variant_files(id) {
                let v = Variant::load(&path, &[]).expect("loads");
                failures.extend(visit(id, CheckGame { path: path.clone(), variant: &v }).expect("registered").expect("builds"));
            }
        }
        assert!(failures.is_empty(), "{} undeclared reads:\n{}", failures.len(), failures.join("\n"));
    }

    /// The check can fail: Pig Farm's `greedy` without its `scoring.*` is caught.
    #[test]
    fn a_bot_hiding_a_key_it_reads_is_caught() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/pig-farm/standard.toml");
        let e = check_bot::<crate::games::pig_farm::PigFarm>(&path, "greedy", &["min_sets_to_sell", "rounds", "reshuffle_discard", "deck.*"])
            .expect_err("greedy reads the scoring tables");
        assert!(e.contains("scoring."), "{e}");
        let n = check_bot::<crate::games::pig_farm::PigFarm>(&path, "threshold", &["min_sets_to_sell"]).expect("threshold reads no scoring key");
        assert!(n > 100, "{n} decisions compared");
    }

    #[test]
    fn unread_keys_name_the_table_and_the_score_pattern() {
        let labels = vec!["threshold".to_string()];
        let keys = vec!["scoring.seller.3".to_string(), "min_sets_to_sell".to_string(), "players".to_string(), "hand_size".to_string()];
        let found = unread("pig-farm", &labels, &keys);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0], Unread { key: "scoring.seller.3".into(), bots: vec!["threshold".into()], score_pattern: Some("scoring.*") });
        assert_eq!(found[1].key, "hand_size");
        assert_eq!(found[1].score_pattern, None);
        assert!(unread("pig-farm", &["greedy:risk=2".to_string()], &keys[..1]).is_empty());
        assert!(unread("pig-farm", &["threshold".to_string(), "greedy".to_string()], &keys[..1]).is_empty());
        assert_eq!(unread_score_keys("pig-farm", &labels).len(), 1);
        assert!(is_structural("pig-farm", "rounds") && !is_structural("pig-farm", "hand_size"));
    }
}
