//! `index.html` of a report: every chart, the summary table, the command that reproduces the
//! report, the variant as played and links to the data files. One self-contained page with
//! relative links only (no scripts, no fonts or styles from elsewhere), so it opens from disk
//! in any browser with no server.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use super::escape::{escape, prose};
use crate::error::Error;
use crate::stats::Summary;

/// Everything the page shows.
pub struct Page<'a> {
    /// The report folder (the page is written there; images and data are linked relatively).
    pub dir: &'a Path,
    /// The run's summary.
    pub summary: &'a Summary,
    /// (title, file name) of every chart, in order.
    pub images: &'a [(String, String)],
    /// The command that reproduces the report.
    pub command: &'a str,
    /// The variant as played (after `extends` and `--set`).
    pub variant_toml: &'a str,
    /// The variant's description.
    pub description: &'a str,
    /// A notice shown first in bold (a partial result).
    pub notice: Option<&'a str>,
    /// The one-line verdict in words.
    pub verdict: &'a str,
    /// The run's header line and notes.
    pub notes: &'a [String],
    /// Every figure, the seats and the `[expect]` bounds.
    pub tables: &'a super::Tables,
    /// Which game `replay.html` replays (linked when given).
    pub replay: Option<&'a str>,
}

/// Data files linked from the page when they exist in the report folder. `games.csv` (the
/// same rows as `games.parquet`) is named but not linked: the repository does not keep it,
/// so a link would be dead in a committed report.
const DATA_FILES: &[(&str, &str)] = &[
    ("games.parquet", "one row per game (Parquet; a fresh report also holds the same rows as games.csv, which the repository does not keep)"),
    ("summary.json", "the summary (JSON)"),
    ("report.md", "this report as Markdown"),
];

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}\
th{background:#f3f3f3}td.l,th.l{text-align:left}pre{background:#f6f6f6;padding:1em;overflow-x:auto}\
figure{margin:2em 0}img{max-width:100%;height:auto;border:1px solid #ddd}nav a{margin-right:1em}";

fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// The summary as HTML tables.
fn summary_html(s: &Summary) -> String {
    let mut h = String::new();
    let l = &s.length;
    let _ = writeln!(h, "<p>{} / {}: {} games, seed {} ({}), {} players.</p>", escape(&s.game), escape(&s.variant), s.games, s.seed, escape(&s.rng), s.players);
    let _ = writeln!(h, "<table><tr><th class=l>figure</th><th>value</th></tr>");
    let row = |h: &mut String, name: &str, value: String| {
        let _ = writeln!(h, "<tr><td class=l>{}</td><td>{}</td></tr>", escape(name), escape(&value));
    };
    row(&mut h, &format!("mean length ({})", l.unit), format!("{:.2} (sd {:.2})", l.mean, l.sd));
    row(&mut h, "median length (5% - 95%)", format!("{} ({} - {})", l.median, l.p5, l.p95));
    row(&mut h, "shortest - longest", format!("{} - {}", l.min, l.max));
    for (reason, share) in &s.end_reasons {
        row(&mut h, &format!("ended by {reason}"), pct(share.as_f64().unwrap_or(0.0)));
    }
    let f = &s.first_player_advantage;
    // A team game: the first mover's team, the teams' test, wins shared between teams.
    let (fpa, fairness, shared) = match &s.teams {
        Some(t) => {
            (format!("first-player advantage: {}", t.name(t.first_team)), ("team fairness (chi-square p)", t.team_fairness_p), "games won by several teams")
        }
        None => ("first-player advantage".to_string(), ("seat fairness (chi-square p)", s.seat_fairness_p), "games with a shared win"),
    };
    row(&mut h, &fpa, crate::stats::format::estimate_points(f));
    row(&mut h, fairness.0, format!("{:.3}", fairness.1));
    if s.has_elimination {
        row(&mut h, "elimination rate (share of players)", pct(s.elimination_rate));
        row(&mut h, "games with an elimination", pct(s.games_with_elimination));
    }
    row(&mut h, shared, pct(s.shared_win_rate));
    if let Some(t) = &s.teams {
        for g in &t.teammate_gaps {
            row(
                &mut h,
                &format!("seat {} against its teammates (score, 95% CI)", g.seat),
                format!("{:+.2} ({:+.2} to {:+.2})", g.gap.value, g.gap.ci95[0], g.gap.ci95[1]),
            );
        }
    }
    for k in s.extra.keys() {
        row(&mut h, k, s.extra_said(k, 4));
    }
    let _ = writeln!(h, "</table>");
    let _ = writeln!(h, "<table><tr><th>seat</th><th class=l>bot</th><th>win share</th><th>95% CI</th><th>eliminated</th><th>mean score</th></tr>");
    for seat in &s.seats {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=l>{}</td><td>{}</td><td>{} - {}</td><td>{}</td><td>{:.2}</td></tr>",
            seat.seat,
            escape(&seat.bot),
            pct(seat.win_share),
            pct(seat.ci95[0]),
            pct(seat.ci95[1]),
            pct(seat.eliminated),
            seat.mean_score
        );
    }
    let _ = writeln!(h, "</table>");
    h
}

/// Writes `index.html` into the report folder and returns its path.
pub fn write(page: &Page<'_>) -> Result<PathBuf, Error> {
    let s = page.summary;
    let mut h = String::new();
    let title = format!("{} — {}", s.game, s.variant);
    let _ = writeln!(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">");
    let _ = writeln!(h, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    let _ = writeln!(h, "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>", escape(&title));
    let _ = writeln!(h, "<h1>{}</h1>", escape(&title));
    if let Some(notice) = page.notice {
        let _ = writeln!(h, "<p><strong>{}</strong></p>", prose(notice));
    }
    let _ = writeln!(h, "<p><strong>{}</strong></p>", prose(page.verdict));
    if page.dir.join("summary.png").exists() {
        let _ = writeln!(
            h,
            "<p><a href=\"summary.png\">summary.png</a>: the report on one picture (verdict, win shares, length, the game's key chart), to paste into a design document.</p>\n<figure><a href=\"summary.png\"><img src=\"summary.png\" alt=\"the report on one picture\" width=\"900\" height=\"640\"></a></figure>"
        );
    }
    if !page.description.is_empty() {
        let _ = writeln!(h, "<p>{}</p>", prose(page.description));
    }
    let _ = writeln!(
        h,
        "<nav><a href=\"#summary\">Summary</a><a href=\"#charts\">Charts</a><a href=\"#variant\">Variant as played</a><a href=\"#data\">Data</a>{}</nav>",
        if page.replay.is_some() { "<a href=\"#replay\">Replay a typical game</a>" } else { "" }
    );
    let _ = writeln!(h, "<h2>Reproduce</h2>\n<pre><code>{}</code></pre>", escape(page.command));
    let summary = if page.tables.figures.is_empty() { summary_html(s) } else { super::tables::html(page.tables) };
    let _ = writeln!(h, "<h2 id=\"summary\">Summary</h2>\n<p>{}</p>\n{summary}", prose(&page.notes.join(" ")));
    let _ = writeln!(h, "<h2 id=\"charts\">Charts</h2>");
    for (title, file) in page.images {
        let _ = writeln!(
            h,
            "<figure><img src=\"{}\" alt=\"{}\" width=\"1100\" height=\"650\"><figcaption>{}</figcaption></figure>",
            escape(file),
            escape(title),
            escape(title)
        );
    }
    if let Some(which) = page.replay.filter(|_| !page.dir.join("replay.html").exists()) {
        // The typical game's trace was too large for a page beside the report.
        let _ = writeln!(h, "<h2 id=\"replay\">Replay a typical game</h2>\n<p>{}</p>", prose(which));
    } else if let Some(which) = page.replay {
        let _ = writeln!(
            h,
            "<h2 id=\"replay\">Replay a typical game</h2>\n<p><a href=\"replay.html\">replay.html</a>: {} Step through it event by event, with every decision's legal alternatives and each seat's view.</p>",
            prose(which)
        );
    }
    let _ = writeln!(h, "<h2 id=\"variant\">Variant as played</h2>\n<p>After <code>extends</code> and <code>--set</code>.</p>");
    let _ = writeln!(h, "<pre><code>{}</code></pre>", escape(page.variant_toml));
    let _ = writeln!(h, "<h2 id=\"data\">Data</h2>\n<ul>");
    for (file, what) in DATA_FILES {
        if page.dir.join(file).exists() {
            let _ = writeln!(h, "<li><a href=\"{file}\">{file}</a>: {what}</li>");
        }
    }
    let _ = writeln!(h, "</ul>\n</body>\n</html>");
    let path = page.dir.join("index.html");
    std::fs::write(&path, h).map_err(|e| Error::output(&path, e))?;
    Ok(path)
}
