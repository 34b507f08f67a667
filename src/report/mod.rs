//! The balance report: common charts every game gets (length, seat shares with the fair
//! line, survival, end reasons), the game's own charts, `report.md`, `index.html` and `summary.json`.

mod area;
mod axis;
pub mod charts;
pub mod escape;
mod heatmap;
pub mod html;
mod legend;
pub mod replay_page;
mod standing;
pub mod summary_png;
pub mod tables;
pub mod text;
pub mod tornado;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::engine::{BarSeries, Bin, ChartSpec, LineSeries};
use crate::error::Error;
use crate::stats::{Summary, Tally, wilson_percent};

pub use standing::standing_charts;
pub use tables::{ExpectRow, FigureRow, SeatRow, Section, Tables};

/// The charts every game gets, built from the tally and summary.
pub fn common_charts(tally: &Tally, summary: &Summary, has_elimination: bool) -> Vec<ChartSpec> {
    let games = tally.games;
    let mut charts = vec![length_histogram(tally, summary)];
    if let Some(t) = &summary.teams {
        charts.push(team_shares(t, games));
        if !t.teammate_gaps.is_empty() {
            charts.push(teammate_gaps(t, games));
        }
    }
    charts.extend(seat_shares(summary, games));
    if has_elimination {
        charts.push(survival(tally, summary));
    }
    charts.push(end_reasons(tally, summary));
    charts
}

/// The win share by seat with the fair line; a rotated table also gets the win share by bot.
fn seat_shares(summary: &Summary, games: u64) -> Vec<ChartSpec> {
    let fair = 100.0 * crate::stats::summary::fair_share(&summary.seats, summary.players);
    match &summary.rotation {
        // Rotated: the seat order's effect (bots averaged out) and each bot's strength (seats
        // averaged out), both with intervals over blocks.
        Some(r) => {
            let bars = |shares: &[crate::stats::rotation::RotatedShare]| BarSeries {
                name: "win share".into(),
                values: shares.iter().map(|s| s.win_share * 100.0).collect(),
                ci: Some(shares.iter().map(|s| (s.ci95[0] * 100.0, s.ci95[1] * 100.0)).collect()),
            };
            vec![
                ChartSpec::Bars {
                    file: "seat_win_shares".into(),
                    title: format!("Win share by seat, bots rotated through every seat ({games} games)"),
                    x_label: "seat (turn order); every bot sits in every seat equally often".into(),
                    y_label: "win share (%)".into(),
                    categories: r.seats.iter().map(|s| s.name.clone()).collect(),
                    series: vec![bars(&r.seats)],
                    reference: Some((fair, format!("fair share {fair:.1}%"))),
                },
                ChartSpec::Bars {
                    file: "bot_win_shares".into(),
                    title: format!("Win share by bot, seats averaged out ({games} games)"),
                    x_label: "bot (copies of one bot pooled)".into(),
                    y_label: "win share per seat it holds (%)".into(),
                    categories: r.bots.iter().map(|s| s.name.clone()).collect(),
                    series: vec![bars(&r.bots)],
                    reference: Some((fair, format!("fair share {fair:.1}%"))),
                },
            ]
        }
        None => vec![ChartSpec::Bars {
            file: "seat_win_shares".into(),
            title: if summary.teams.is_some() {
                format!("Win share by seat: each seat of a winning team gets an equal part ({games} games)")
            } else {
                format!("Win share by seat, ties shared ({games} games)")
            },
            x_label: "seat (turn order) and bot".into(),
            y_label: "win share (%)".into(),
            categories: summary.seats.iter().map(|s| format!("seat {} ({})", s.seat, s.bot)).collect(),
            series: vec![BarSeries {
                name: "win share".into(),
                values: summary.seats.iter().map(|s| s.win_share * 100.0).collect(),
                ci: Some(summary.seats.iter().map(|s| (s.ci95[0] * 100.0, s.ci95[1] * 100.0)).collect()),
            }],
            reference: Some((fair, format!("fair share {fair:.1}%"))),
        }],
    }
}

/// The share of players not yet eliminated, turn by turn, up to the 95th percentile of length.
fn survival(tally: &Tally, summary: &Summary) -> ChartSpec {
    let games = tally.games;
    let unit = &summary.length.unit;
    let horizon = summary.length.p95.max(1.0) as usize;
    let survival = tally.survival(summary.players, horizon);
    ChartSpec::Lines {
        file: "survival".into(),
        title: format!("Players still in the game by {} ({games} games)", unit.trim_end_matches('s')),
        x_label: format!("{} (up to the 95th percentile of game length)", unit.trim_end_matches('s')),
        y_label: "players still in (%)".into(),
        series: vec![LineSeries {
            name: "share of players not eliminated".into(),
            points: survival.iter().enumerate().map(|(t, &s)| (t as f64, s * 100.0)).collect(),
            band: None,
        }],
    }
}

/// How games end: the share of games per end reason, each with its Wilson interval.
fn end_reasons(tally: &Tally, summary: &Summary) -> ChartSpec {
    let games = tally.games;
    let names: Vec<String> = summary.end_reasons.keys().cloned().collect();
    ChartSpec::Bars {
        file: "end_reasons".into(),
        title: format!("How games end ({games} games)"),
        x_label: "end reason".into(),
        y_label: "share of games (%)".into(),
        categories: names.clone(),
        series: vec![BarSeries {
            name: "share of games".into(),
            values: (0..names.len()).map(|i| tally.end_reasons.get(i).copied().unwrap_or(0) as f64 / games.max(1) as f64 * 100.0).collect(),
            ci: Some((0..names.len()).map(|i| wilson_percent(tally.end_reasons.get(i).copied().unwrap_or(0) as f64, games)).collect()),
        }],
        reference: None,
    }
}

/// A team game's win share per team, with the fair share 1/teams.
fn team_shares(t: &crate::stats::teams::TeamsSummary, games: u64) -> ChartSpec {
    let fair = t.fair_share() * 100.0;
    ChartSpec::Bars {
        file: "team_win_shares".into(),
        title: match 1.0 - t.teams.iter().map(|x| x.win_share).sum::<f64>() {
            none if none > 5e-4 => format!("Win share by team ({games} games, {:.1}% with no winner)", none * 100.0),
            _ => format!("Win share by team ({games} games)"),
        },
        x_label: format!("team (its seats; seat 0 moves first, in team {})", t.first_team),
        y_label: "win share (%)".into(),
        categories: (0..t.teams.len()).map(|i| t.name(i)).collect(),
        series: vec![BarSeries {
            name: "win share".into(),
            values: t.teams.iter().map(|x| x.win_share * 100.0).collect(),
            ci: Some(t.teams.iter().map(|x| (x.ci95[0] * 100.0, x.ci95[1] * 100.0)).collect()),
        }],
        reference: Some((fair, format!("fair share {fair:.1}%"))),
    }
}

/// A team game's seats against their teammates: each seat's final score minus its
/// teammates' mean, per game, with its 95% interval; 0 = the seats of a team carry it alike.
fn teammate_gaps(t: &crate::stats::teams::TeamsSummary, games: u64) -> ChartSpec {
    let gaps = &t.teammate_gaps;
    ChartSpec::Bars {
        file: "teammate_gaps".into(),
        title: format!("Each seat against its teammates ({games} games)"),
        x_label: "seat (its team)".into(),
        y_label: "final score minus teammates' mean, per game".into(),
        categories: gaps.iter().map(|g| format!("seat {} (team {})", g.seat, g.team)).collect(),
        series: vec![BarSeries {
            name: "score gap".into(),
            values: gaps.iter().map(|g| g.gap.value).collect(),
            ci: Some(gaps.iter().map(|g| (g.gap.ci95[0], g.gap.ci95[1])).collect()),
        }],
        reference: Some((0.0, "teammates alike".into())),
    }
}

fn length_histogram(tally: &Tally, summary: &Summary) -> ChartSpec {
    let l = &summary.length;
    let span = (l.max - l.min + 1.0).max(1.0);
    let width = (span / 60.0).ceil().max(1.0);
    let games = tally.games.max(1) as f64;
    let mut bins: Vec<Bin> = Vec::new();
    for (len, &count) in tally.lengths.iter().enumerate() {
        if count == 0 {
            continue;
        }
        // Whole lengths: a bin holds lo..lo+width-1 and is drawn centred on them (lo-0.5..).
        let lo = ((len as f64 - l.min) / width).floor() * width + l.min - 0.5;
        match bins.last_mut() {
            Some(b) if b.lo == lo => b.value += count as f64 / games * 100.0,
            _ => bins.push(Bin { lo, hi: lo + width, value: count as f64 / games * 100.0 }),
        }
    }
    let unit = &l.unit;
    ChartSpec::Histogram {
        file: "game_length".into(),
        title: format!("Game length ({} games)", tally.games),
        x_label: format!("length ({unit}); bins of {width}"),
        y_label: "share of games (%)".into(),
        series: vec![(format!("games ({unit})"), bins)],
        markers: vec![(l.mean, format!("mean {:.1}", l.mean)), (l.median, format!("median {}", l.median))],
    }
}

/// Everything a report needs.
pub struct ReportInput<'a> {
    /// Output folder (created).
    pub dir: &'a Path,
    /// The summary.
    pub summary: &'a Summary,
    /// All charts, common and the game's own.
    pub charts: Vec<ChartSpec>,
    /// The command that reproduces the report.
    pub command: String,
    /// The variant as played.
    pub variant_toml: String,
    /// Variant description.
    pub description: String,
    /// Set when the run was stopped before its end (`--keep-partial`): every page says so.
    pub partial: Option<crate::output::Partial>,
    /// Every figure with its interval and unit, the seats and the `[expect]` bounds.
    pub tables: Tables,
    /// The replay page of a typical game written beside the report (`replay.html`), with the
    /// sentence saying which game it is; `None` when there is none.
    pub replay: Option<String>,
    /// The file stem of the game's key chart among `charts` ([`key_chart`]), shown in
    /// `summary.png`; `None` when the game draws none.
    pub key_chart: Option<String>,
}

/// The game's key chart among its own charts: the one its metrics name (`named`,
/// [`Metrics::KEY_CHART`](crate::engine::Metrics::KEY_CHART)), else the first.
pub fn key_chart(named: &str, own: &[ChartSpec]) -> Option<String> {
    own.iter().find(|c| c.file() == named).or(own.first()).map(|c| c.file().to_string())
}

/// The run's header line and notes (dummy seats, mixed line-ups), as plain sentences.
fn run_notes(s: &Summary) -> Vec<String> {
    let mut notes = vec![format!("{} / {}: {} games, seed {} ({}), {} players.", s.game, s.variant, s.games, s.seed, s.rng, s.players)];
    if s.seats.len() > s.players {
        notes.push(format!(
            "{} dummy seat(s) (not players) are left out of the fair share ({:.2}%), the first-player advantage and the fairness test.",
            s.seats.len() - s.players,
            crate::stats::summary::fair_share(&s.seats, s.players) * 100.0
        ));
    }
    if let Some(t) = &s.teams {
        let names: Vec<String> = (0..t.teams.len()).map(|i| t.name(i)).collect();
        notes.push(format!(
            "Seats play in teams: {}. A team's win is shared equally by its seats, so a seat's win share is its team's divided by its size; `shared_win_rate` counts the games whose win several teams share. The verdict, `first_player_advantage` (the first mover's team's, as `first_team_advantage`), `team_fairness_p` and the leader chart judge the teams against a fair {:.1}%, and there is no per-seat fairness test (teammates win together); the seat table still shows the seats, and `seat<k>_teammate_gap` compares each seat with its teammates (its final score minus theirs).",
            names.join(", "),
            t.fair_share() * 100.0
        ));
    }
    // Many games at the cap or with no winner: said before any figure is read.
    notes.extend(s.deadlock_warning());
    if let Some(r) = &s.rotation {
        notes.push(format!(
            "Seats rotated: {} blocks of {} games, every bot in every seat on the same deals; the seat figures average the bots out (the seat order's own effect) and the `bot<k>_win_share` figures average the seats out (bot strength).",
            r.blocks, r.games_per_block
        ));
    } else if s.bots.iter().any(|b| *b != s.bots[0]) {
        notes.push("The seats play different bots: a difference between seats mixes the seat order with the bots' strength.".into());
    }
    notes
}

/// Draws `summary.png` (verdict, win shares, length, key chart: [`summary_png`]) from the
/// report's charts; `None` when the run has no win-share or length chart to show.
fn summary_picture(input: &ReportInput<'_>, verdict: &str) -> Result<Option<PathBuf>, Error> {
    let find = |file: &str| input.charts.iter().find(|c| c.file() == file);
    let shares = find("team_win_shares").or_else(|| find("seat_win_shares"));
    let (Some(shares), Some(length)) = (shares, find("game_length")) else { return Ok(None) };
    let s = input.summary;
    let heading = format!("{} — {}", s.game, s.variant);
    let bots = if s.bots.iter().all(|b| *b == s.bots[0]) {
        format!("every seat {}", s.bots.first().map_or("", |b| b.as_str()))
    } else {
        format!("bots {}", s.bots.join(", "))
    };
    let mut run = format!("{} games, seed {}, {} players, {bots}", s.games, s.seed, s.players);
    if let Some(p) = &input.partial {
        run = format!("{} — {run}", p.banner());
    }
    // Every seat playing one bot (the run line says which): the seats need no bot label.
    let mut shares = shares.clone();
    if let ChartSpec::Bars { file, categories, .. } = &mut shares
        && file == "seat_win_shares"
        && categories.len() == s.bots.len()
        && s.rotation.is_none()
        && s.bots.iter().all(|b| *b == s.bots[0])
    {
        for (i, c) in categories.iter_mut().enumerate() {
            *c = format!("seat {i}");
        }
    }
    let picture =
        summary_png::SummaryPicture { heading: &heading, run: &run, verdict, shares: &shares, length, key: input.key_chart.as_deref().and_then(find) };
    summary_png::render(&picture, input.dir).map(Some)
}

/// Writes every chart, `summary.json` and `report.md`; returns the files written.
pub fn write(input: ReportInput<'_>) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(input.dir).map_err(|e| Error::output(input.dir, e))?;
    let mut written = Vec::new();
    let mut images = Vec::new();
    let s = input.summary;
    let verdict = tables::verdict(s);
    if let Some(path) = summary_picture(&input, &verdict)? {
        written.push(path);
    }
    for chart in &input.charts {
        let path = charts::render(chart, input.dir)?;
        images.push((chart.title().to_string(), path.file_name().unwrap_or_default().to_string_lossy().into_owned()));
        written.push(path);
    }
    // What every figure of the tables means, beside its number in summary.json.
    let meanings: serde_json::Map<String, serde_json::Value> = input
        .tables
        .figures
        .iter()
        .map(|f| (f.name.clone(), serde_json::json!({ "about": f.about, "unit": f.unit, "ci95": f.ci95, "interval": f.interval })))
        .collect();
    written.push(crate::output::write_summary_described(input.dir, input.summary, input.partial.as_ref(), meanings)?);
    let banner = input.partial.map(|p| p.banner());
    let mut md = String::new();
    let _ = writeln!(md, "# {} — {}\n", s.game, s.variant);
    if let Some(b) = &banner {
        let _ = writeln!(md, "**{b}**\n");
    }
    let _ = writeln!(md, "**{verdict}**\n");
    if input.dir.join("summary.png").exists() {
        let _ = writeln!(md, "[The report on one picture (`summary.png`)](summary.png)\n");
    }
    if !input.description.is_empty() {
        let _ = writeln!(md, "{}\n", input.description);
    }
    let _ = writeln!(md, "Reproduce with:\n\n```\n{}\n```\n", input.command);
    let _ = writeln!(md, "## Summary\n\n{}\n", run_notes(s).join(" "));
    if input.tables.figures.is_empty() {
        let _ = writeln!(md, "```\n{}```\n", s.figures());
    } else {
        let _ = writeln!(md, "{}", tables::markdown(&input.tables));
    }
    for (title, file) in &images {
        let _ = writeln!(md, "## {title}\n\n![{title}]({file})\n");
    }
    let _ = writeln!(md, "## Variant as played\n\n```toml\n{}```", input.variant_toml);
    let md_path = input.dir.join("report.md");
    std::fs::write(&md_path, md).map_err(|e| Error::output(&md_path, e))?;
    written.push(md_path);
    written.push(html::write(&html::Page {
        dir: input.dir,
        summary: s,
        images: &images,
        command: &input.command,
        variant_toml: &input.variant_toml,
        description: &input.description,
        notice: banner.as_deref(),
        verdict: &verdict,
        notes: &run_notes(s),
        tables: &input.tables,
        replay: input.replay.as_deref(),
    })?);
    Ok(written)
}
