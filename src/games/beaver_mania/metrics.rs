//! Beaver Mania's own report metrics: the score of each seat over the turns of a round,
//! cards stabbed from the display and from piles, put away and stolen per round, how rounds
//! end (hand emptied vs draw pile and stock used up), and the value of each action card
//! (round win share of a seat that held it at the deal vs one that did not, with CIs).
//!
//! Every sum is an integer (win credit in units of 1/[`WIN_UNIT`]), so batches and shards
//! merge to identical numbers in any order; the state is saved by sharded runs.

use serde::{Deserialize, Serialize};

use super::cards::{ACTION_KEYS, SUPERBEAVER};
use super::params::MAX_PLAYERS;
use super::rules::{END_REASONS, RoundRecord, State};
use super::{Action, BeaverMania};
use crate::engine::{BarSeries, ChartSpec, LineSeries, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::counts::ratio;
use crate::stats::{WIN_UNIT, wilson_percent};

/// The figures counted per round, in the order of the counters.
const PER_ROUND: [&str; 4] = ["display_stabbed", "pile_taken", "pile_put_away", "stolen"];

/// Longest round (in turns) the score-over-turns chart follows.
const MAX_TRACKED_TURNS: usize = 400;
/// Per-round counters in [`BeaverMetrics::counters`]: display stabbed, pile taken, pile put
/// away, stolen.
const COUNTERS: usize = 4;
const COUNTER_NAMES: [&str; COUNTERS] =
    ["number cards stabbed from the display", "pile cards stabbed and taken", "pile cards stabbed and put away", "cards stolen"];

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct BeaverMetrics {
    players: usize,
    /// Rounds scored.
    rounds: u64,
    /// Rounds by end reason.
    reasons: [u64; 3],
    /// Games (matches) in which at least one round reached the turn cap: the game's own end
    /// reason then says how it ended (a match's target), so capped rounds are counted here.
    #[serde(default)]
    games_with_capped_round: u64,
    /// Turns of all rounds, and their squares.
    round_turns: u64,
    round_turns_sq: u64,
    /// Per counter: sum and sum of squares over rounds.
    counters: [[u64; 2]; COUNTERS],
    /// Action cards played per kind (canonical order), over all rounds.
    actions_played: [u64; 8],
    /// Per action card: [seat-rounds that held it at the deal, their round-win credit,
    /// seat-rounds that did not, their credit] (credit in 1/WIN_UNIT).
    action_value: [[u64; 4]; 8],
    /// The action cards the deck holds (bit per card, canonical order): the others have no
    /// value and no plays (their figures are absent, not 0).
    #[serde(default)]
    in_deck: u8,
    /// Per turn completed in a round (index): rounds still running there.
    turn_rounds: Vec<u64>,
    /// Per turn completed and seat: sum of scores, and of squared scores.
    turn_score: Vec<[i64; MAX_PLAYERS]>,
    turn_score_sq: Vec<[u64; MAX_PLAYERS]>,
    // The game in progress (not saved).
    #[serde(skip)]
    seen_rounds: u32,
    #[serde(skip)]
    seen_turn: (u32, u32),
}

impl BeaverMetrics {
    /// Adds the scores after `done` turns of a round.
    fn record_scores(&mut self, done: u32, scores: &[i64; MAX_PLAYERS], n: usize) {
        let i = done as usize;
        if i >= MAX_TRACKED_TURNS {
            return;
        }
        if self.turn_rounds.len() <= i {
            self.turn_rounds.resize(i + 1, 0);
            self.turn_score.resize(i + 1, [0; MAX_PLAYERS]);
            self.turn_score_sq.resize(i + 1, [0; MAX_PLAYERS]);
        }
        self.turn_rounds[i] += 1;
        for (seat, &x) in scores.iter().enumerate().take(n) {
            self.turn_score[i][seat] += x;
            self.turn_score_sq[i][seat] += (x * x) as u64;
        }
    }

    fn record_round(&mut self, r: &RoundRecord, n: usize) {
        self.rounds += 1;
        self.reasons[r.reason as usize] += 1;
        self.round_turns += r.turns as u64;
        self.round_turns_sq += r.turns as u64 * r.turns as u64;
        let st = &r.stats;
        for (c, v) in self.counters.iter_mut().zip([st.display_stabbed, st.pile_taken, st.pile_put_away, st.stolen]) {
            c[0] += v as u64;
            c[1] += v as u64 * v as u64;
        }
        for (a, &v) in self.actions_played.iter_mut().zip(&st.actions_played) {
            *a += v as u64;
        }
        let k = r.winners.count_ones() as u64;
        for seat in 0..n {
            let credit = if r.winners & (1 << seat) != 0 { WIN_UNIT / k } else { 0 };
            for (a, v) in self.action_value.iter_mut().enumerate() {
                let held = r.dealt_actions[seat] & (1 << a) != 0;
                let at = if held { 0 } else { 2 };
                v[at] += 1;
                v[at + 1] += credit;
            }
        }
    }

    /// Mean score (pile minus hand) per seat over a round's turns, with 95% bands; turns
    /// reached by at least 1% of the rounds.
    fn score_over_turns(&self) -> ChartSpec {
        let n = self.players.max(1);
        let rounds = self.rounds;
        let min_rounds = (rounds / 100).max(1);
        let series = (0..n)
            .map(|seat| {
                let mut points = Vec::new();
                let mut band = Vec::new();
                for (t, &k) in self.turn_rounds.iter().enumerate() {
                    if k < min_rounds {
                        continue;
                    }
                    let (m, ci) = mean_ci(self.turn_score[t][seat] as f64, self.turn_score_sq[t][seat] as f64, k as f64);
                    points.push((t as f64, m));
                    band.push(ci);
                }
                LineSeries { name: format!("seat {seat}"), points, band: Some(band) }
            })
            .collect();
        ChartSpec::Lines {
            file: "score_over_turns".into(),
            title: format!("Mean score (pile minus hand) per seat over a round's turns ({rounds} rounds)"),
            x_label: "turns played in the round (shown while >= 1% of rounds last)".into(),
            y_label: "score (cards; 95% CI band)".into(),
            series,
        }
    }

    /// Cards stabbed, put away and stolen per round (mean, 95% CI).
    fn cards_moved(&self) -> ChartSpec {
        let rounds = self.rounds;
        let r = rounds as f64;
        ChartSpec::Bars {
            file: "cards_moved".into(),
            title: format!("Cards stabbed, put away and stolen per round ({rounds} rounds)"),
            x_label: "what happened to the cards".into(),
            y_label: "cards per round (mean, 95% CI)".into(),
            categories: COUNTER_NAMES.iter().map(|s| s.to_string()).collect(),
            series: vec![BarSeries {
                name: "mean per round".into(),
                values: self.counters.iter().map(|c| mean_ci(c[0] as f64, c[1] as f64, r).0).collect(),
                ci: Some(self.counters.iter().map(|c| mean_ci(c[0] as f64, c[1] as f64, r).1).collect()),
            }],
            reference: None,
        }
    }

    /// How rounds end: the share of rounds per end reason, each with its Wilson interval.
    fn round_end_reasons(&self) -> ChartSpec {
        let rounds = self.rounds;
        let r = rounds as f64;
        ChartSpec::Bars {
            file: "round_end_reasons".into(),
            title: format!("How rounds end ({rounds} rounds)"),
            x_label: "end reason".into(),
            y_label: "share of rounds (%, 95% CI)".into(),
            categories: vec!["hand emptied".into(), "draw pile and stock used up".into(), "turn cap".into()],
            series: vec![BarSeries {
                name: "share of rounds".into(),
                values: self.reasons.iter().map(|&c| ratio(c as f64, r) * 100.0).collect(),
                ci: Some(self.reasons.iter().map(|&c| wilson_percent(c as f64, rounds)).collect()),
            }],
            reference: None,
        }
    }

    /// The action cards in the deck (canonical order): (index, key).
    fn cards_in_deck(&self) -> Vec<(usize, &'static str)> {
        ACTION_KEYS.iter().enumerate().filter(|&(a, _)| self.in_deck & (1 << a) != 0).map(|(a, &k)| (a, k)).collect()
    }

    /// The value of each action card in the deck: the round win share of a seat that held it
    /// at the deal against one that did not, with the fair share (a card never held, or held
    /// by every seat, has no bar).
    fn action_card_value(&self) -> ChartSpec {
        let n = self.players.max(1);
        let rounds = self.rounds;
        let share = |credit: u64, k: u64| ratio(credit as f64 / WIN_UNIT as f64, k as f64) * 100.0;
        let ci = |credit: u64, k: u64| wilson_percent(credit as f64 / WIN_UNIT as f64, k);
        let fair = 100.0 / n as f64;
        let cards: Vec<_> = self.cards_in_deck().into_iter().filter(|&(a, _)| self.action_value[a][0] > 0 && self.action_value[a][2] > 0).collect();
        let value = |a: usize| &self.action_value[a];
        ChartSpec::Bars {
            file: "action_card_value".into(),
            title: format!("Value of each action card: round win share of a seat that held it at the deal vs not ({rounds} rounds)"),
            x_label: "action card".into(),
            y_label: "round win share, ties shared (%, 95% CI)".into(),
            categories: cards.iter().map(|(_, k)| k.replace('_', " ")).collect(),
            series: vec![
                BarSeries {
                    name: "held at the deal".into(),
                    values: cards.iter().map(|&(a, _)| share(value(a)[1], value(a)[0])).collect(),
                    ci: Some(cards.iter().map(|&(a, _)| ci(value(a)[1], value(a)[0])).collect()),
                },
                BarSeries {
                    name: "not held".into(),
                    values: cards.iter().map(|&(a, _)| share(value(a)[3], value(a)[2])).collect(),
                    ci: Some(cards.iter().map(|&(a, _)| ci(value(a)[3], value(a)[2])).collect()),
                },
            ],
            reference: Some((fair, format!("fair share {fair:.1}%"))),
        }
    }

    /// Action cards of the deck played per round, in any play (lone, with numbers, a
    /// Partybeaver play, a Hippie run).
    fn action_cards_played(&self) -> ChartSpec {
        let rounds = self.rounds;
        let r = rounds as f64;
        let cards = self.cards_in_deck();
        ChartSpec::Bars {
            file: "action_cards_played".into(),
            title: format!("Action cards played per round, in any play ({rounds} rounds)"),
            x_label: "action card".into(),
            y_label: "plays per round (mean)".into(),
            categories: cards.iter().map(|(_, k)| k.replace('_', " ")).collect(),
            series: vec![BarSeries {
                name: "plays per round".into(),
                values: cards.iter().map(|&(a, _)| ratio(self.actions_played[a] as f64, r)).collect(),
                ci: None,
            }],
            reference: None,
        }
    }
}

/// Mean and 95% interval of a mean from its sum and sum of squares over `n`.
fn mean_ci(sum: f64, sq: f64, n: f64) -> (f64, (f64, f64)) {
    if n <= 0.0 {
        return (0.0, (0.0, 0.0));
    }
    let mean = sum / n;
    let var = if n > 1.0 { ((sq - sum * sum / n) / (n - 1.0)).max(0.0) } else { 0.0 };
    let h = 1.96 * (var / n).sqrt();
    (mean, (mean - h, mean + h))
}

fn add_vec<T: Copy + std::ops::AddAssign, const N: usize>(a: &mut Vec<[T; N]>, b: &[[T; N]], zero: [T; N]) {
    if a.len() < b.len() {
        a.resize(b.len(), zero);
    }
    for (x, y) in a.iter_mut().zip(b) {
        for (p, q) in x.iter_mut().zip(y) {
            *p += *q;
        }
    }
}

impl Metrics<BeaverMania> for BeaverMetrics {
    const KEY_CHART: &'static str = "action_card_value";

    fn after_action(&mut self, game: &BeaverMania, s: &State, _seat: usize, _action: &Action) {
        let n = game.players;
        self.players = n;
        self.in_deck = (game.kinds >> SUPERBEAVER) as u8;
        if s.rounds_done > self.seen_rounds {
            self.seen_rounds = s.rounds_done;
            if let Some(r) = s.last_round {
                self.record_round(&r, n);
                // The round's final scores after its last turn.
                self.record_scores(r.turns, &r.scores, n);
            }
            self.seen_turn = (s.round, s.round_turns);
            return;
        }
        let now = (s.round, s.round_turns);
        if now != self.seen_turn {
            if now.0 == self.seen_turn.0 && now.1 > 1 {
                let mut scores = [0i64; MAX_PLAYERS];
                for (seat, x) in scores.iter_mut().enumerate().take(n) {
                    *x = s.score(seat);
                }
                self.record_scores(now.1 - 1, &scores, n);
            }
            self.seen_turn = now;
        }
    }

    fn finish(&mut self, _game: &BeaverMania, s: &State, _outcome: &Outcome) {
        self.games_with_capped_round += u64::from(s.capped_rounds > 0);
        self.seen_rounds = 0;
        self.seen_turn = (0, 0);
    }

    fn merge(&mut self, other: Self) {
        self.players = self.players.max(other.players);
        self.in_deck |= other.in_deck;
        self.rounds += other.rounds;
        for (a, b) in self.reasons.iter_mut().zip(other.reasons) {
            *a += b;
        }
        self.games_with_capped_round += other.games_with_capped_round;
        self.round_turns += other.round_turns;
        self.round_turns_sq += other.round_turns_sq;
        for (a, b) in self.counters.iter_mut().zip(other.counters) {
            a[0] += b[0];
            a[1] += b[1];
        }
        for (a, b) in self.actions_played.iter_mut().zip(other.actions_played) {
            *a += b;
        }
        for (a, b) in self.action_value.iter_mut().zip(other.action_value) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        if self.turn_rounds.len() < other.turn_rounds.len() {
            self.turn_rounds.resize(other.turn_rounds.len(), 0);
        }
        for (a, b) in self.turn_rounds.iter_mut().zip(&other.turn_rounds) {
            *a += b;
        }
        add_vec(&mut self.turn_score, &other.turn_score, [0; MAX_PLAYERS]);
        add_vec(&mut self.turn_score_sq, &other.turn_score_sq, [0; MAX_PLAYERS]);
    }

    fn charts(&self, _games: u64) -> Vec<ChartSpec> {
        vec![self.score_over_turns(), self.cards_moved(), self.round_end_reasons(), self.action_card_value(), self.action_cards_played()]
    }

    fn summary(&self, games: u64) -> Vec<(String, f64)> {
        let r = self.rounds as f64;
        let mut out = vec![("rounds_per_game".into(), ratio(r, games as f64)), ("mean_turns_per_round".into(), ratio(self.round_turns as f64, r))];
        for (i, name) in END_REASONS.iter().enumerate() {
            out.push((format!("round_end_{name}_share"), ratio(self.reasons[i] as f64, r)));
        }
        out.push(("games_with_capped_round_share".into(), ratio(self.games_with_capped_round as f64, games as f64)));
        for (name, c) in PER_ROUND.iter().zip(&self.counters) {
            out.push((format!("{name}_per_round"), ratio(c[0] as f64, r)));
        }
        // A card never held at a deal (not in the deck), or held by every seat, has no gain:
        // NaN, which the summary leaves out (absent, not 0).
        for (key, v) in ACTION_KEYS.iter().zip(&self.action_value) {
            let gain =
                if v[0] == 0 || v[2] == 0 { f64::NAN } else { (v[1] as f64 / WIN_UNIT as f64) / v[0] as f64 - (v[3] as f64 / WIN_UNIT as f64) / v[2] as f64 };
            out.push((format!("{key}_held_win_share_gain"), gain));
        }
        out
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        let per_round = |what: &str| Meaning::new(format!("{what} per round (mean over rounds)"), "cards per round");
        Some(match name {
            "rounds_per_game" => Meaning::new("rounds played per game (1 unless a \"collecting points\" match)", "rounds per game"),
            "mean_turns_per_round" => Meaning::new("turns a round lasts (mean over rounds)", "turns per round"),
            "round_end_hand_empty_share" => Meaning::share("share of rounds that end when a player's hand is empty"),
            "round_end_supply_empty_share" => Meaning::share("share of rounds that end when the draw pile and the stock are both empty"),
            "round_end_cap_share" => Meaning::share("share of rounds stopped by the turn cap (scored as usual; a bug if it happens)"),
            "games_with_capped_round_share" => Meaning::share("share of games in which some round was stopped by the turn cap"),
            "display_stabbed_per_round" => per_round("number cards stabbed from the display and taken"),
            "pile_taken_per_round" => per_round("cards of stabbed top plays taken into the hand"),
            "pile_put_away_per_round" => per_round("cards of stabbed top plays put away (out of the game)"),
            "stolen_per_round" => per_round("cards stolen by a thief or a superbeaver"),
            _ => {
                let card = name.strip_suffix("_held_win_share_gain")?;
                Meaning::new(
                    format!("round win share of a seat dealt a {} minus that of a seat not dealt one", card.replace('_', " ")),
                    "win share (fraction of 1)",
                )
            }
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        let mut names = vec!["mean_turns_per_round".to_string()];
        names.extend(END_REASONS.iter().map(|name| format!("round_end_{name}_share")));
        names.extend(PER_ROUND.iter().map(|name| format!("{name}_per_round")));
        names
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let rounds = self.rounds as i64;
        out.clear();
        out.push((self.round_turns as i64, rounds));
        out.extend(self.reasons.iter().map(|&r| (r as i64, rounds)));
        out.extend(self.counters.iter().map(|c| (c[0] as i64, rounds)));
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
