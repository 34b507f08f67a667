//! The words and tables at the top of a report: the one-line verdict, every figure with its
//! 95% interval and unit, the seats, and the `[expect]` bounds marked held, undecided or
//! failed, as Markdown (`report.md`) and HTML (`index.html`). The rows come ready-formatted
//! from the metric catalogue ([`crate::designer::tables`]).

use std::fmt::Write as _;

use super::escape::{escape, prose};
use crate::stats::Summary;
use crate::stats::summary::fair_share;

/// One figure of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureRow {
    /// Metric name (as in `check`, `compare` and `sweep`).
    pub name: String,
    /// What it is.
    pub about: String,
    /// The value, formatted.
    pub value: String,
    /// Its 95% interval, formatted (or why there is none).
    pub ci: String,
    /// Its unit.
    pub unit: String,
    /// Its 95% interval as numbers (fractions for shares), for `summary.json`; `None` when
    /// it has none (a p-value, a constant).
    pub ci95: Option<[f64; 2]>,
    /// How the interval is computed (`wilson`, `mean`, `ratio estimator`, `batch means`,
    /// `order statistics`, `constant`, `none`).
    pub interval: String,
}

/// One seat: (value, 95% interval) of its win share, eliminations and mean score.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    /// Seat number.
    pub seat: usize,
    /// Its bot.
    pub bot: String,
    /// Win share (ties shared).
    pub win_share: (String, String),
    /// Share of games it was eliminated in (`None` in a game where nothing is eliminated).
    pub eliminated: Option<(String, String)>,
    /// Mean final score.
    pub mean_score: (String, String),
}

/// One `[expect]` bound of the variant, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectRow {
    /// Metric name.
    pub metric: String,
    /// Measured value with its unit.
    pub measured: String,
    /// Its 95% interval.
    pub ci: String,
    /// The bounds, in the same unit.
    pub bounds: String,
    /// `held` (the whole interval inside), `undecided` (it overlaps a bound) or `failed`
    /// (the whole interval outside).
    pub verdict: String,
}

/// The report's tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    /// Every figure but the per-seat ones.
    pub figures: Vec<FigureRow>,
    /// One row per seat.
    pub seats: Vec<SeatRow>,
    /// How the seats share a win, said under the seat table (a team game: each seat of a
    /// winning team gets an equal part); empty when there is nothing to say.
    pub seat_note: String,
    /// The variant's `[expect]` bounds.
    pub expectations: Vec<ExpectRow>,
    /// Further tables a command adds after these (e.g. `report --ladder`'s skill curve).
    pub sections: Vec<Section>,
}

/// A titled table of a report: one header row and rows of cells, shown in report.md and
/// index.html after the run's own tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// A sentence or two above the table.
    pub lead: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of cells (plain text).
    pub rows: Vec<Vec<String>>,
}

/// The run in one line of words: seat 0 against its fair share with the interval, how real
/// and how big the difference is, the median length and, when measured, how often the lead
/// changes and how often the winner came from behind.
pub fn verdict(s: &Summary) -> String {
    // A team game is judged by the team of seat 0 (the first mover) against 1/teams.
    let (fair, f, who, mover) = match &s.teams {
        Some(t) => (
            t.fair_share(),
            &t.first_team_advantage,
            format!("{} wins {:.1}%", capitalise(&t.name(t.first_team)), t.teams[t.first_team].win_share * 100.0),
            "first-mover",
        ),
        None => (fair_share(&s.seats, s.players), &s.first_player_advantage, format!("Seat 0 wins {:.1}%", s.seats[0].win_share * 100.0), "first-player"),
    };
    // Points rounded to the tenth printed, so a tiny negative value reads +0.0, not -0.0.
    let tenth = |x: f64| {
        let y = (x * 1000.0).round() / 10.0;
        if y == 0.0 { 0.0 } else { y }
    };
    let (value, lo, hi) = (tenth(f.value), tenth(f.ci95[0]), tenth(f.ci95[1]));
    let size = value.abs();
    let side = if value > 0.0 { "advantage" } else { "disadvantage" };
    let judgement = if lo <= 0.0 && hi >= 0.0 {
        if hi - lo <= 4.0 { format!("no {mover} advantage to speak of") } else { format!("no {mover} advantage shown (more games would tell)") }
    } else if size < 2.0 {
        format!("a small but real {mover} {side}")
    } else if size < 5.0 {
        format!("a clear {mover} {side}")
    } else {
        format!("a large {mover} {side}")
    };
    let strongest = s.rotation.as_ref().and_then(|r| r.bots.iter().max_by(|a, b| a.win_share.total_cmp(&b.win_share)));
    let mixed = match strongest {
        Some(b) => format!(
            " (seats rotated, so this is the seat order's own effect; the strongest bot, `{}`, wins {:.1}% wherever it sits)",
            b.name,
            b.win_share * 100.0
        ),
        None if s.bots.iter().any(|b| *b != s.bots[0]) => " (the seats play different bots, so this mixes seat order with bot strength)".to_string(),
        None => String::new(),
    };
    let mut line = format!(
        "{who} of games against a fair {:.1}% ({}): {judgement}{mixed}; games last {} {} (median)",
        fair * 100.0,
        crate::stats::format::points_ci_places(f.value, f.ci95[0], f.ci95[1], 1),
        s.length.median,
        s.length.unit
    );
    if let Some(st) = &s.standing
        && st.games_with_winner > 0
    {
        let _ = write!(
            line,
            "; the lead changes {:.1} times a game and {:.0}% of games are won by a {} that trailed at halfway",
            st.lead_changes.value,
            st.comeback_rate.value * 100.0,
            if s.teams.is_some() { "team" } else { "seat" }
        );
    }
    line.push('.');
    line
}

/// How the seats share a win, for the line under the seat table: in a team game each seat of
/// the winning team gets an equal part, so a seat's share is its team's divided by the
/// team's size (empty for a game of single seats, where ties are shared as the table says).
pub fn seat_note(s: &Summary) -> String {
    let Some(t) = &s.teams else { return String::new() };
    let parts: Vec<String> = (0..t.teams.len()).map(|i| format!("{} wins {:.2}%", t.name(i), t.teams[i].win_share * 100.0)).collect();
    let mut note = format!(
        "Seats play in teams and a team's win is shared equally by its seats: each seat's win share is its team's divided by the team's size, against a fair {:.1}% per seat ({}).",
        fair_share(&s.seats, s.players) * 100.0,
        parts.join("; ")
    );
    if !t.teammate_gaps.is_empty() {
        let gaps: Vec<String> =
            t.teammate_gaps.iter().map(|g| format!("seat {} {:+.2}, 95% CI {:+.2} to {:+.2}", g.seat, g.gap.value, g.gap.ci95[0], g.gap.ci95[1])).collect();
        let _ = write!(
            note,
            " Each seat against its teammates (`seat<k>_teammate_gap`: its final score minus its teammates' mean, per game): {}.",
            gaps.join("; ")
        );
    }
    note
}

/// `text` with its first letter upper-case.
fn capitalise(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Escapes `|` so a cell does not split a Markdown table row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The tables as Markdown.
pub fn markdown(t: &Tables) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "| figure | value | 95% CI | unit | what it is |\n|---|---:|---|---|---|");
    for r in &t.figures {
        let _ = writeln!(md, "| `{}` | {} | {} | {} | {} |", r.name, cell(&r.value), cell(&r.ci), cell(&r.unit), cell(&r.about));
    }
    let eliminates = t.seats.iter().any(|r| r.eliminated.is_some());
    if eliminates {
        let _ = writeln!(md, "\n| seat | bot | win share | 95% CI | eliminated | 95% CI | mean score | 95% CI |\n|---:|---|---:|---|---:|---|---:|---|");
    } else {
        let _ = writeln!(md, "\n| seat | bot | win share | 95% CI | mean score | 95% CI |\n|---:|---|---:|---|---:|---|");
    }
    for r in &t.seats {
        let elim = r.eliminated.as_ref().map(|e| format!(" {} | {} |", e.0, e.1)).unwrap_or_default();
        let _ = writeln!(md, "| {} | {} | {} | {} |{elim} {} | {} |", r.seat, cell(&r.bot), r.win_share.0, r.win_share.1, r.mean_score.0, r.mean_score.1);
    }
    if !t.seat_note.is_empty() {
        let _ = writeln!(md, "\n{}", t.seat_note);
    }
    if !t.expectations.is_empty() {
        let _ = writeln!(
            md,
            "\n### Expectations (`[expect]`)\n\nA bound fails only when the whole 95% CI lies outside it; an interval that overlaps a bound is undecided.\n\n| metric | measured | 95% CI | bounds | verdict |\n|---|---:|---|---|---|"
        );
        for r in &t.expectations {
            let _ = writeln!(md, "| `{}` | {} | {} | {} | **{}** |", r.metric, cell(&r.measured), cell(&r.ci), cell(&r.bounds), r.verdict);
        }
    }
    for s in &t.sections {
        let _ = writeln!(md, "\n### {}\n\n{}\n", s.title, s.lead);
        let _ = writeln!(md, "| {} |\n|{}", s.header.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "), "---|".repeat(s.header.len()));
        for row in &s.rows {
            let _ = writeln!(md, "| {} |", row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
        }
    }
    md
}

/// The tables as HTML.
pub fn html(t: &Tables) -> String {
    let mut h = String::new();
    let _ = writeln!(h, "<table><tr><th class=l>figure</th><th>value</th><th class=l>95% CI</th><th class=l>unit</th><th class=l>what it is</th></tr>");
    for r in &t.figures {
        let _ = writeln!(
            h,
            "<tr><td class=l><code>{}</code></td><td>{}</td><td class=l>{}</td><td class=l>{}</td><td class=l>{}</td></tr>",
            escape(&r.name),
            escape(&r.value),
            prose(&r.ci),
            escape(&r.unit),
            prose(&r.about)
        );
    }
    let _ = writeln!(h, "</table>");
    let eliminates = t.seats.iter().any(|r| r.eliminated.is_some());
    let _ = writeln!(
        h,
        "<table><tr><th>seat</th><th class=l>bot</th><th>win share</th><th class=l>95% CI</th>{}<th>mean score</th><th class=l>95% CI</th></tr>",
        if eliminates { "<th>eliminated</th><th class=l>95% CI</th>" } else { "" }
    );
    for r in &t.seats {
        let elim = r.eliminated.as_ref().map(|e| format!("<td>{}</td><td class=l>{}</td>", escape(&e.0), escape(&e.1))).unwrap_or_default();
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=l>{}</td><td>{}</td><td class=l>{}</td>{elim}<td>{}</td><td class=l>{}</td></tr>",
            r.seat,
            escape(&r.bot),
            escape(&r.win_share.0),
            escape(&r.win_share.1),
            escape(&r.mean_score.0),
            escape(&r.mean_score.1)
        );
    }
    let _ = writeln!(h, "</table>");
    if !t.seat_note.is_empty() {
        let _ = writeln!(h, "<p>{}</p>", prose(&t.seat_note));
    }
    if !t.expectations.is_empty() {
        let _ = writeln!(
            h,
            "<h3>Expectations (<code>[expect]</code>)</h3>\n<p>A bound fails only when the whole 95% CI lies outside it; an interval that overlaps a bound is undecided.</p>"
        );
        let _ = writeln!(h, "<table><tr><th class=l>metric</th><th>measured</th><th class=l>95% CI</th><th class=l>bounds</th><th class=l>verdict</th></tr>");
        for r in &t.expectations {
            let _ = writeln!(
                h,
                "<tr><td class=l><code>{}</code></td><td>{}</td><td class=l>{}</td><td class=l>{}</td><td class=l><strong>{}</strong></td></tr>",
                escape(&r.metric),
                escape(&r.measured),
                prose(&r.ci),
                escape(&r.bounds),
                prose(&r.verdict)
            );
        }
        let _ = writeln!(h, "</table>");
    }
    for s in &t.sections {
        let _ = writeln!(h, "<h3>{}</h3>\n<p>{}</p>\n<table><tr>", escape(&s.title), prose(&s.lead));
        for c in &s.header {
            let _ = write!(h, "<th class=l>{}</th>", escape(c));
        }
        let _ = writeln!(h, "</tr>");
        for row in &s.rows {
            let cells: String = row.iter().map(|c| format!("<td class=l>{}</td>", prose(c))).collect();
            let _ = writeln!(h, "<tr>{cells}</tr>");
        }
        let _ = writeln!(h, "</table>");
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summary::{Estimate, LengthSummary, SeatSummary};

    fn summary(p0: f64, ci: [f64; 2]) -> Summary {
        let seat = |s: usize, w: f64| SeatSummary { seat: s, bot: "b".into(), win_share: w, ci95: [w - 0.01, w + 0.01], eliminated: 0.0, mean_score: 0.0 };
        Summary {
            game: "g".into(),
            variant: "v".into(),
            games: 1000,
            seed: 1,
            players: 4,
            bots: vec!["b".into(); 4],
            length: LengthSummary { unit: "turns".into(), mean: 113.0, sd: 1.0, median: 113.0, p5: 1.0, p95: 2.0, min: 1.0, max: 2.0 },
            end_reasons: serde_json::Map::new(),
            seats: vec![seat(0, p0), seat(1, (1.0 - p0) / 3.0), seat(2, (1.0 - p0) / 3.0), seat(3, (1.0 - p0) / 3.0)],
            first_player_advantage: Estimate { value: p0 - 0.25, ci95: ci },
            seat_fairness_p: 0.5,
            elimination_rate: 0.0,
            games_with_elimination: 0.0,
            shared_win_rate: 0.0,
            games_per_second: 0.0,
            rng: "x".into(),
            extra: serde_json::Map::new(),
            extra_ci95: serde_json::Map::new(),
            extra_interval: serde_json::Map::new(),
            extra_shares: Vec::new(),
            extra_differences: Vec::new(),
            standing: None,
            rotation: None,
            teams: None,
            has_elimination: false,
        }
    }

    #[test]
    fn the_verdict_says_how_real_and_how_big_the_first_player_advantage_is() {
        assert_eq!(
            verdict(&summary(0.266, [0.010, 0.022])),
            "Seat 0 wins 26.6% of games against a fair 25.0% (+1.6 pts, 95% CI +1.0 to +2.2): a small but real first-player advantage; games last 113 turns (median)."
        );
        assert!(verdict(&summary(0.2498, [-0.006, 0.005])).contains("(+0.0 pts, 95% CI -0.6 to +0.5): no first-player advantage to speak of"));
        assert!(verdict(&summary(0.19, [-0.07, -0.05])).contains("a large first-player disadvantage"));
    }

    #[test]
    fn a_team_game_is_judged_by_the_first_movers_team_against_one_in_teams() {
        use crate::engine::Outcome;
        use crate::stats::Tally;
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        for g in 0..1000 {
            o.winners = if g < 487 { 0b0101 } else { 0b1010 };
            tally.add(&o, 4, 1);
        }
        let mut s = summary(0.2435, [-0.02, 0.01]).with_teams(&[vec![0, 2], vec![1, 3]], &tally);
        s.seats[0].win_share = 0.2435;
        let v = verdict(&s);
        assert!(v.starts_with("Team 0 (seats 0 and 2) wins 48.7% of games against a fair 50.0% (-1.3 pts, 95% CI"), "{v}");
        assert!(v.contains("first-mover"), "{v}");
        let note = seat_note(&s);
        assert!(note.contains("shared equally by its seats") && note.contains("team 1 (seats 1 and 3) wins 51.30%"), "{note}");
        assert_eq!(seat_note(&summary(0.25, [-0.01, 0.01])), "");
    }
}
