//! A person's table in the game's words (`playtest play` and the replay page): a legal action
//! as the sentence the text trace (`playtest trace`) writes for it, and the seats' scores that
//! a seat may see.
//!
//! There is one description of an action, the game's own events ([`GameEvent`]'s `Display`,
//! what `playtest trace` prints): an action is put in words by applying it to samples of
//! the table consistent with what the seat has seen ([`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize), never the real
//! hidden cards) and reading the sentences its seat says about itself ("seat 0 plays 2 x 7
//! and a joker" reads "play 2 x 7 and a joker"). A word that differs between the samples
//! (a card drawn, a die rolled) depends on what the seat cannot know and is written `?`. A
//! game whose events say nothing of an action falls back to the trace notation written out
//! ([`super::label::label`]).

use serde_json::Value;

use crate::engine::{EventLog, Game, GameEvent, GameRng, Sampler, SeedFrom};

/// Samples an action is applied to: a word must be the same in all of them to be shown (a
/// rare hidden card can still be missed by all of them: 24 samples miss a card that a seat
/// holds with probability 1/6 in 1.3% of the actions that name it).
const SAMPLES: u64 = 24;

/// Samples a score is read on: a score that depends on hidden cards differs between them.
const SCORE_SAMPLES: u64 = 4;

/// The sentences `seat` says about itself when it plays `action` at `state` (see the module
/// doc), in the second person without its subject ("play 2 x 7", "stab seat 1's top play
/// [2 x 9] and take it"); `None` when the game's events say nothing of it.
pub fn action_words<G: Game>(game: &G, state: &G::State, seat: usize, action: G::Action) -> Option<String> {
    let sampler = Sampler::new(state, seat);
    let mut samples: Vec<Vec<String>> = Vec::new();
    for k in 0..SAMPLES {
        let mut rng = GameRng::seed_from(0x776f_7264_7300 + k);
        let mut s = sampler.sample(game, &mut rng);
        let mut log = EventLog::new(true);
        game.apply(&mut s, seat, action, &mut rng, &mut log);
        let said: Vec<String> = log.drain().filter(|e| e.visible_to(seat)).map(|e| e.to_string().trim().to_string()).collect();
        samples.push(own_sentences(&said, seat));
    }
    // The sentences every sample says, in order, up to the first one they disagree on.
    let shortest = samples.iter().map(Vec::len).min().unwrap_or(0);
    let sentences: Vec<String> = (0..shortest).map_while(|i| merged(samples.iter().map(|s| s[i].as_str()))).map(|s| imperative(&s)).collect();
    // A sentence that is mostly unknown words ("draws ? ?": a card drawn) says less than the
    // action's own name.
    let unknown = |s: &String| 2 * s.split(' ').filter(|w| w.starts_with('?')).count() >= s.split(' ').count().saturating_sub(1).max(1);
    if sentences.first().is_none_or(unknown) {
        return None;
    }
    (!sentences.is_empty()).then(|| sentences.join("; then "))
}

/// The leading run of sentences whose subject is `seat` ("seat 0 ...", "seat 0's ...").
fn own_sentences(said: &[String], seat: usize) -> Vec<String> {
    let (me, mine) = (format!("seat {seat} "), format!("seat {seat}'s "));
    said.iter().skip_while(|s| !(s.starts_with(&me) || s.starts_with(&mine))).take_while(|s| s.starts_with(&me) || s.starts_with(&mine)).cloned().collect()
}

/// One sentence from its versions in every sample: the words they share, `?` for a word that
/// differs; where the versions differ in length, their common first words and `?` for the
/// rest ("wishes 5 from seat 1: given" and "...: not held" read "wishes 5 from seat 1: ?");
/// `None` when they share no first word.
fn merged<'a>(mut versions: impl Iterator<Item = &'a str>) -> Option<String> {
    let first: Vec<&str> = versions.next()?.split(' ').collect();
    let mut words: Vec<String> = first.iter().map(|w| w.to_string()).collect();
    let mut cut = words.len();
    for v in versions {
        let other: Vec<&str> = v.split(' ').collect();
        if other.len() != first.len() {
            cut = cut.min(first.iter().zip(&other).take_while(|(a, b)| a == b).count());
        }
        for (w, o) in words.iter_mut().zip(other) {
            if w != o {
                *w = "?".into();
            }
        }
    }
    if cut < words.len() {
        if cut == 0 {
            return None;
        }
        words.truncate(cut);
        words.push("?".into());
    }
    // A run of unknown words reads as one ("draws ? from the pile").
    words.dedup_by(|a, b| a == "?" && b == "?");
    Some(words.join(" "))
}

/// "seat 0 plays 2 x 7" as the person's choice, "play 2 x 7"; "seat 0's fairy wishes 5"
/// as "your fairy wishes 5".
fn imperative(sentence: &str) -> String {
    let Some(rest) = sentence.strip_prefix("seat ") else { return sentence.to_string() };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    if let Some(owned) = rest.strip_prefix("'s ") {
        return format!("your {owned}");
    }
    let mut rest = rest.trim_start();
    // A subject's own name in brackets ("seat 0 (red) picks") belongs to the subject.
    if rest.starts_with('(')
        && let Some((_, after)) = rest.split_once(") ")
    {
        rest = after;
    }
    // An adverb before the verb keeps its place ("secretly picks" reads "secretly pick").
    let (adverb, rest) = match rest.split_once(' ') {
        Some((w, after)) if w.ends_with("ly") && after.contains(' ') => (format!("{w} "), after),
        _ => (String::new(), rest),
    };
    let (verb, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    // A verb in capitals ("DOUBTS:") and the punctuation after it keep their place.
    let word = verb.trim_end_matches(|c: char| !c.is_alphanumeric());
    let base = if word.chars().all(|c| c.is_uppercase()) {
        format!("{}{}", base_form(&word.to_lowercase()), &verb[word.len()..])
    } else {
        format!("{}{}", base_form(word), &verb[word.len()..])
    };
    // A second verb of the same subject: "and takes it" reads "and take it".
    let tail = tail.split(" and ").map(|part| {
        let mut words: Vec<String> = part.split(' ').map(str::to_string).collect();
        if words.len() == 2 && matches!(words[1].as_str(), "it" | "them") {
            words[0] = base_form(&words[0]);
        }
        words.join(" ")
    });
    let tail = tail.collect::<Vec<_>>().join(" and ");
    if tail.is_empty() { format!("{adverb}{base}") } else { format!("{adverb}{base} {tail}") }
}

/// The base form of a verb in the third person singular ("plays" play, "passes" pass,
/// "carries" carry, "is" be, "has" have).
fn base_form(verb: &str) -> String {
    match verb {
        "is" => return "be".into(),
        "has" => return "have".into(),
        "does" => return "do".into(),
        "goes" => return "go".into(),
        _ => {}
    }
    if let Some(stem) = verb.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "shes", "ches", "xes", "zes"] {
        if verb.ends_with(ending) {
            return verb[..verb.len() - 2].to_string();
        }
    }
    verb.strip_suffix('s').unwrap_or(verb).to_string()
}

/// Every seat's score ([`Game::standing`]) as `seat` may know it: its own, and another
/// seat's when it is the same on every sample of what `seat` cannot see (`None`: it depends
/// on hidden cards). `seat` `None` (every secret shown) gives every score.
pub fn scores<G: Game>(game: &G, state: &G::State, seat: Option<usize>) -> Vec<Option<i64>> {
    let real: Vec<i64> = (0..game.seats()).map(|s| game.standing(state, s)).collect();
    let Some(seat) = seat else { return real.into_iter().map(Some).collect() };
    let sampler = Sampler::new(state, seat);
    let samples: Vec<G::State> = (0..SCORE_SAMPLES)
        .map(|k| {
            let mut rng = GameRng::seed_from(0x7363_6f72_6500 + k);
            sampler.sample(game, &mut rng)
        })
        .collect();
    real.iter().enumerate().map(|(s, &v)| (s == seat || samples.iter().all(|x| game.standing(x, s) == v)).then_some(v)).collect()
}

/// The scores as JSON (a number, or `null` for one hidden from the seat).
pub fn scores_json(scores: &[Option<i64>]) -> Value {
    Value::Array(scores.iter().map(|s| s.map_or(Value::Null, Value::from)).collect())
}

/// The replay page's words for every step of a traced game (`trace --html`, `replay
/// --html`): the game replayed from the trace's seed and actions, and for each step (0: the
/// set-up, then one per decision) the text trace's sentences with the seats that see each,
/// the decision's alternatives in the deciding seat's words ([`action_words`]), the table in
/// the game's words ([`Traces::table_words`](crate::engine::Traces::table_words)) and the scores (all of them, and which each seat
/// may know). `Err` says where the trace is not a game of `game`; a trace that stops part-way
/// gives the steps it has.
pub fn trace_words<G: Game>(game: &G, lines: &[(usize, crate::engine::trace::Line)]) -> Result<Value, String> {
    use crate::engine::trace::Line;
    let Some((_, Line::Start(start))) = lines.first() else { return Err("a trace starts with a `start` line".into()) };
    let seats = game.seats();
    let mut rng = GameRng::seed_from(start.game_seed);
    let mut log = EventLog::new(true);
    let mut state = game.deal(&mut rng, &mut log);
    let said = |log: &mut EventLog<G::Event>| -> Vec<Value> {
        log.drain()
            .filter_map(|e| {
                let text = e.to_string().trim().to_string();
                let who: Vec<usize> = (0..seats).filter(|&k| e.visible_to(k)).collect();
                (!text.is_empty()).then(|| serde_json::json!([text, if who.len() == seats { Value::Null } else { serde_json::json!(who) }]))
            })
            .collect()
    };
    let at = |state: &G::State, said: Vec<Value>, legal: Vec<String>| {
        let all: Vec<i64> = (0..seats).map(|k| game.standing(state, k)).collect();
        let seen: Vec<Vec<bool>> = (0..game.acting_seats()).map(|v| scores(game, state, Some(v)).iter().map(Option::is_some).collect()).collect();
        serde_json::json!({
            "said": said,
            "legal": legal,
            "words": game.table_words(state),
            "scores": all,
            "seen": seen,
        })
    };
    let mut steps = vec![at(&state, said(&mut log), Vec::new())];
    for (n, line) in lines {
        let Line::Decision(d) = line else { continue };
        let action: G::Action =
            serde_json::from_value(d.action.clone()).map_err(|e| format!("line {n}: {} is not an action of {}: {e}", d.action, game.id()))?;
        let seat = match game.to_move(&state) {
            crate::engine::ToMove::Seat(s) if s == d.seat => s,
            _ => return Err(format!("line {n}: seat {} decides here in the trace, not in the game replayed", d.seat)),
        };
        let mut legal = Vec::new();
        game.legal_actions(&game.view(&state, seat), &mut legal);
        if !legal.contains(&action) {
            return Err(format!("line {n}: {} is not legal here", d.action));
        }
        let others: Vec<String> = legal
            .iter()
            .filter(|a| **a != action)
            .map(|a| action_words(game, &state, seat, *a).unwrap_or_else(|| super::label::label(&serde_json::to_value(a).expect("actions serialise"))))
            .collect();
        game.apply(&mut state, seat, action, &mut rng, &mut log);
        let step = at(&state, said(&mut log), others);
        steps.push(step);
    }
    Ok(serde_json::json!({ "steps": steps, "unit": game.standing_unit(), "teams": game.teams(), "name": game.name() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_about_a_seat_reads_as_its_choice() {
        assert_eq!(imperative("seat 0 plays 2 x 7 and a joker"), "play 2 x 7 and a joker");
        assert_eq!(imperative("seat 12 passes"), "pass");
        assert_eq!(imperative("seat 1 stabs seat 2's top play [9] and takes it"), "stab seat 2's top play [9] and take it");
        assert_eq!(imperative("seat 3's fairy wishes 5 from seat 1: given"), "your fairy wishes 5 from seat 1: given");
        assert_eq!(imperative("seat 0 DOUBTS: the card is ?"), "doubt: the card is ?");
        assert_eq!(imperative("seat 0 (red) secretly picks take2"), "secretly pick take2");
        assert_eq!(base_form("carries"), "carry");
        assert_eq!(base_form("wishes"), "wish");
        assert_eq!(base_form("is"), "be");
    }

    #[test]
    fn words_that_differ_between_samples_are_hidden() {
        assert_eq!(merged(["draws 7 from the pile", "draws 9 from the pile"].into_iter()).as_deref(), Some("draws ? from the pile"));
        assert_eq!(merged(["wishes 5: given", "wishes 5: not held"].into_iter()).as_deref(), Some("wishes 5: ?"));
        assert_eq!(merged(["a b", "c b d"].into_iter()), None);
        let said = vec!["-- turn 2: seat 0".to_string(), "seat 0 plays 7".into(), "seat 0 draws 3".into(), "refill".into(), "seat 0 wins".into()];
        assert_eq!(own_sentences(&said, 0), vec!["seat 0 plays 7", "seat 0 draws 3"]);
    }
}
