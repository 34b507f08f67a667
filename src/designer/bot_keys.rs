//! "No bot at the table reads this key": the one sentence `compare`, `sweep`, `tune`, `audit`
//! and `report` print when a changed key is read by none of the table's bots (the bots
//! declare what they read, [`crate::engine::BotInfo::reads`]).
//!
//! A key the rules read only to score (Pig Farm's `scoring.*`) and no bot reads cannot change
//! how anyone plays: the same games are played and only who wins can move. Any other key no
//! bot reads changes play only through the rules: the bots do not adapt to it.

use crate::games::keys::{self, Unread};

/// The bots of an [`Unread`] as "`a` does" / "`a` and `b` do".
fn subject(bots: &[String]) -> String {
    let names: Vec<String> = bots.iter().map(|b| format!("`{b}`")).collect();
    match names.as_slice() {
        [one] => format!("{one} does"),
        [rest @ .., last] => format!("{} and {last} do", rest.join(", ")),
        [] => "no bot does".to_string(),
    }
}

/// One sentence per group of unread keys, with the group's keys: the keys under one
/// score-only pattern together, then every other key together.
pub fn grouped(unread: &[Unread]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut patterns: Vec<&str> = Vec::new();
    for u in unread {
        if let Some(p) = u.score_pattern
            && !patterns.contains(&p)
        {
            patterns.push(p);
        }
    }
    for p in patterns {
        let group: Vec<&Unread> = unread.iter().filter(|u| u.score_pattern == Some(p)).collect();
        let changed: Vec<String> = group.iter().map(|u| format!("`{}`", u.key)).collect();
        let exact = group.len() == 1 && group[0].key == p.trim_end_matches(".*");
        let detail = if exact { String::new() } else { format!(" (changed: {})", changed.join(", ")) };
        out.push((
            format!("{} not read `{p}`{detail}: this change can move who wins, not how anyone plays", subject(&group[0].bots)),
            group.iter().map(|u| u.key.clone()).collect(),
        ));
    }
    let rules: Vec<&Unread> = unread.iter().filter(|u| u.score_pattern.is_none()).collect();
    if let Some(first) = rules.first() {
        let keys: Vec<String> = rules.iter().map(|u| format!("`{}`", u.key)).collect();
        out.push((
            format!("{} not read {}: the change moves play only through the rules; the bots' choices do not weigh it", subject(&first.bots), keys.join(", ")),
            rules.iter().map(|u| u.key.clone()).collect(),
        ));
    }
    out
}

/// The sentences of [`grouped`].
pub fn sentences(unread: &[Unread]) -> Vec<String> {
    grouped(unread).into_iter().map(|(s, _)| s).collect()
}

/// The sentences for the keys `changed` of game `game` played by the line-up `labels` (one
/// bot spec per seat, or one for all); none when some bot reads every changed key.
pub fn notes(game: &str, labels: &[String], changed: &[String]) -> Vec<String> {
    sentences(&keys::unread(game, labels, changed))
}

/// The sentence for a game's score-only keys that no bot of `labels` reads (Pig Farm's
/// `threshold` and `scoring.*`): what a report of such a table says once.
pub fn score_notes(game: &str, labels: &[String]) -> Vec<String> {
    sentences(&keys::unread_score_keys(game, labels))
        .into_iter()
        .map(|s| s.replace("this change can move who wins", "a change to it can move who wins"))
        .collect()
}

/// A variant's description as a report shows it: with the sentence of [`score_notes`] added
/// when no bot at the table reads the game's score-only keys (unless the description already
/// names the keys).
pub fn with_score_note(description: &str, game: &str, labels: &[String]) -> String {
    let mut out = description.to_string();
    for (note, unread) in score_notes(game, labels).into_iter().zip(keys::unread_score_keys(game, labels)) {
        if let Some(p) = unread.score_pattern
            && out.contains(p)
        {
            continue;
        }
        if !out.is_empty() && !out.ends_with('.') {
            out.push('.');
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("Note: {note}."));
    }
    out
}

/// The dotted keys whose values differ between two variant tables (leaves only; the common
/// keys `name`, `bots`, `expect`, ... are not rules and are left out).
pub fn changed_keys(a: &toml::Table, b: &toml::Table) -> Vec<String> {
    fn walk(a: Option<&toml::Value>, b: Option<&toml::Value>, key: String, out: &mut Vec<String>) {
        match (a, b) {
            (Some(toml::Value::Table(x)), Some(toml::Value::Table(y))) => {
                let mut names: Vec<&String> = x.keys().chain(y.keys()).collect();
                names.sort();
                names.dedup();
                for k in names {
                    walk(x.get(k), y.get(k), format!("{key}.{k}"), out);
                }
            }
            (x, y) if x != y => out.push(key),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut names: Vec<&String> = a.keys().chain(b.keys()).filter(|k| !crate::variant::COMMON_KEYS.contains(&k.as_str())).collect();
    names.sort();
    names.dedup();
    for k in names {
        walk(a.get(k), b.get(k), k.clone(), &mut out);
    }
    out
}

/// The line-up of a variant as labels for [`notes`]: `--bots` when given, else the variant's
/// `bots`/`[[seats]]`, else the game's default bot.
pub fn lineup_labels(variant: &crate::variant::Variant, bots: Option<&str>) -> Vec<String> {
    use crate::variant::SeatBots;
    if let Some(b) = bots {
        return b.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    }
    match &variant.seats {
        SeatBots::All(spec) => vec![spec.label()],
        SeatBots::PerSeat(specs) => specs.iter().map(|s| s.label()).collect(),
        SeatBots::Default => crate::games::default_bot(&variant.game).map(|b| vec![b.to_string()]).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_names_the_bots_and_the_score_pattern() {
        let s = notes("pig-farm", &["threshold".into()], &["scoring.seller.3".into()]);
        assert_eq!(s, ["`threshold` does not read `scoring.*` (changed: `scoring.seller.3`): this change can move who wins, not how anyone plays"]);
        let s = notes("pig-farm", &["threshold".into(), "random".into()], &["hand_size".into(), "deck.butchers".into()]);
        assert_eq!(
            s,
            [
                "`threshold` and `random` do not read `hand_size`, `deck.butchers`: the change moves play only through the rules; the bots' choices do not weigh it"
            ]
        );
        assert!(notes("pig-farm", &["greedy".into()], &["scoring.seller.3".into()]).is_empty());
        assert_eq!(
            score_notes("pig-farm", &["threshold".into()]),
            ["`threshold` does not read `scoring.*`: a change to it can move who wins, not how anyone plays"]
        );
        assert_eq!(
            with_score_note("four threshold bots", "pig-farm", &["threshold".into()]),
            "four threshold bots. Note: `threshold` does not read `scoring.*`: a change to it can move who wins, not how anyone plays."
        );
        assert_eq!(with_score_note("threshold never reads `scoring.*`", "pig-farm", &["threshold".into()]), "threshold never reads `scoring.*`");
        assert_eq!(with_score_note("x", "pig-farm", &["greedy".into()]), "x");
    }

    #[test]
    fn changed_keys_are_the_differing_leaves() {
        let a: toml::Table = toml::from_str("name = \"a\"\nx = 1\n[s]\na = 1\nb = 2\n").unwrap();
        let b: toml::Table = toml::from_str("name = \"b\"\nx = 1\n[s]\na = 1\nb = 3\nc = 4\n").unwrap();
        assert_eq!(changed_keys(&a, &b), ["s.b", "s.c"]);
    }
}
