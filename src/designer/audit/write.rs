//! The audit's outputs: `audit.json` (everything), `audit.md`, one tornado chart per metric
//! (`tornado_<metric>.png`) and `index.html`; plus the terminal summary and the section a
//! report adds with `report --audit`.

use std::fmt::Write as _;
use std::path::Path;

use super::sensitivity::{Sensitivity, StepRow};
use super::{Audit, Detectable, Finding};
use crate::error::Error;
use crate::report::html::{escape, prose};
use crate::report::tornado::{TornadoRow, render};
use crate::stats::format;

/// A value as text in its unit: shares in %, changes of shares in points.
fn value(v: f64, unit: &str, change: bool) -> String {
    match unit {
        "share" if change => format::points(v),
        "share" => format::share(v),
        _ if change => format!("{v:+.3}"),
        _ => format!("{v:.3}"),
    }
}

/// A finding's figure: value, 95% interval and games counted.
fn figure_text(f: &Finding) -> String {
    let g = &f.figure;
    let [lo, hi] = g.ci95;
    let said = if g.name.contains("change in first-player") {
        format::points_ci(g.value, lo, hi)
    } else if g.name.contains("share") {
        format::share_with_ci(g.value, lo, hi)
    } else {
        format::number_ci(g.value, lo, hi, 3, false)
    };
    let mut s = format!("{}: {said}, {} games", g.name, crate::designer::thousands(g.games));
    if let Some(d) = g.decisions {
        s.push_str(&format!(", {} decisions", crate::designer::thousands(d)));
    }
    s
}

/// One line of what the audit can detect: "first-player advantage of the table: ±2.74 pts at
/// 2,000 games (measured +1.40 pts, 95% CI -1.30 to +4.10)".
pub fn detectable_line(d: &Detectable, length_unit: &str) -> String {
    let (scale, unit) = match d.unit {
        "share" => (100.0, " pts"),
        "length" => (1.0, length_unit),
        _ => (1.0, ""),
    };
    let sep = if unit.is_empty() || unit.starts_with(' ') { "" } else { " " };
    let games = crate::designer::thousands(d.games);
    if d.figure.starts_with("share of") {
        return format!("{}: {:.2}% at {games} games (seen at least once 95% of the time)", d.figure, d.smallest * 100.0);
    }
    let digits = if d.unit == "share" { 2 } else { 3 };
    let mut line = format!("{}: ±{:.digits$}{sep}{unit} at {games} games", d.figure, d.smallest * scale);
    if let Some((value, ci)) = d.measured {
        line.push_str(&format!(" (measured {:+.digits$}{sep}{unit}, 95% CI {:+.digits$} to {:+.digits$})", value * scale, ci[0] * scale, ci[1] * scale));
    }
    line
}

/// The heading of the detectable effects, with the rule.
const DETECTABLE_HEAD: &str = "What this audit can detect (an effect this large is found 80% of the time, at 2.8 standard errors; smaller ones pass unseen, and \"clean\" says nothing about them)";

/// The terminal summary: verdict and every medium or high finding, then the top keys.
pub fn summary_text(a: &Audit) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "audit of {} / {}: {}", a.game, a.variant, a.verdict);
    if !a.detectable.is_empty() {
        let _ = writeln!(s, "{DETECTABLE_HEAD}:");
        for d in &a.detectable {
            let _ = writeln!(s, "  {}", detectable_line(d, &a.length_unit));
        }
    }
    for f in &a.findings {
        if f.severity == super::Severity::Low {
            continue;
        }
        let _ = writeln!(s, "  [{}] {}: {}", f.severity.name(), f.kind, f.sentence);
        if let Some(r) = f.replay.first() {
            let _ = writeln!(s, "      replay: {r}");
        }
    }
    let low = a.findings.iter().filter(|f| f.severity == super::Severity::Low).count();
    if low > 0 {
        let _ = writeln!(s, "  ({low} low-severity hint(s) in audit.md)");
    }
    if let Some(sens) = &a.sensitivity {
        let top: Vec<String> = sens.steps.iter().filter(|r| r.score > 0.0 && !r.structural).take(5).map(|r| step_line(r, sens)).collect();
        if !top.is_empty() {
            let _ = writeln!(s, "keys that move the balance most:");
            for t in top {
                let _ = writeln!(s, "  {t}");
            }
        }
    }
    s
}

/// "hand_size 5 -> 6: first_player_advantage -2.10 pts, 95% CI -2.50 to -1.70; mean_length
/// -18.000, 95% CI ... (-18.0% of the base)".
fn step_line(r: &StepRow, sens: &Sensitivity) -> String {
    let parts: Vec<String> = r
        .effects
        .iter()
        .zip(&sens.metrics)
        .filter(|(e, _)| e.significant)
        .map(|(e, m)| {
            let [lo, hi] = e.ci95.unwrap_or([f64::NAN; 2]);
            let rel = if m.unit != "share" && e.base.abs() > 1e-12 { format!(" ({:+.1}% of the base)", e.diff / e.base * 100.0) } else { String::new() };
            let said = if m.unit == "share" { format::points_ci(e.diff, lo, hi) } else { format::number_ci(e.diff, lo, hi, 3, true) };
            format!("{} {said}{rel}", e.metric)
        })
        .collect();
    format!("{} {} -> {}: {}", r.key, num(r.from), num(r.to), if parts.is_empty() { "no significant change".into() } else { parts.join("; ") })
}

/// A key's value as the audit prints it (whole numbers without a fraction).
pub fn num(x: f64) -> String {
    let r = (x * 1e6).round() / 1e6;
    if r.fract() == 0.0 { format!("{}", r as i64) } else { format!("{r}") }
}

/// The audit as Markdown (`audit.md`; `report --audit` embeds it one heading level down, with
/// `prefix` the path from the report to the audit's charts).
pub fn markdown(a: &Audit, heading: &str, prefix: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "{heading} Rules audit — {} / {}\n", a.game, a.variant);
    let _ = writeln!(md, "**{}**\n", a.verdict);
    let _ = writeln!(md, "Reproduce with:\n\n```\n{}\n```\n", a.command);
    let _ = writeln!(md, "Severity rule: {}\n", a.severity_rule);
    if !a.detectable.is_empty() {
        let _ = writeln!(md, "{DETECTABLE_HEAD}:\n");
        for d in &a.detectable {
            let _ = writeln!(md, "- {}", detectable_line(d, &a.length_unit));
        }
        let _ = writeln!(md);
    }
    md.push_str(&findings_md(a, heading));
    md.push_str(&lineups_md(a, heading));
    md.push_str(&kinds_md(a, heading));
    md.push_str(&claims_md(a, heading));
    md.push_str(&exploit_md(a, heading));
    if let Some(s) = &a.sensitivity {
        md.push_str(&sensitivity_md(s, heading, prefix));
    }
    md
}

/// The findings, one item each with its figure, keys, line-up and replays.
fn findings_md(a: &Audit, heading: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "{heading}# Findings\n");
    if a.findings.is_empty() {
        let _ = writeln!(md, "No finding.\n");
    }
    for f in &a.findings {
        let _ = writeln!(md, "- **{}** ({}): {}  ", f.kind, f.severity.name(), f.sentence);
        let _ = writeln!(md, "  {}  ", figure_text(f));
        if !f.keys.is_empty() {
            let _ = writeln!(md, "  keys: {}  ", f.keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "));
        }
        if !f.lineup.is_empty() {
            let _ = writeln!(md, "  line-up: `{}`  ", f.lineup);
        }
        for r in &f.replay {
            let _ = writeln!(md, "  replay: `{r}`  ");
        }
    }
    let _ = writeln!(md);
    md
}

/// The table of the watched line-ups.
fn lineups_md(a: &Audit, heading: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "{heading}# Line-ups watched\n");
    let _ = writeln!(
        md,
        "| role | bots | games | mean length ({}) | decisions | forced | capped | stalled (≥{} {} still) | longest still | dealt wins | led wire to wire |",
        a.length_unit, a.stall_turns, a.length_unit
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for l in &a.lineups {
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {:.1} | {} | {:.1}% | {} | {} | {} | {} | {} of {} |",
            l.role,
            l.bots,
            l.games,
            l.mean_length,
            l.decisions,
            l.forced_share * 100.0,
            l.capped,
            l.stalled,
            l.longest_still,
            l.dealt_wins,
            l.wire_to_wire,
            l.decided
        );
    }
    let _ = writeln!(md);
    md
}

/// The share of each kind of action taken when legal, per line-up.
fn kinds_md(a: &Audit, heading: &str) -> String {
    let mut md = String::new();
    if let Some(first) = a.lineups.first()
        && !first.kinds.is_empty()
    {
        let _ = writeln!(md, "{heading}# Kinds of action: share taken when legal (random / table / search)\n");
        let _ = writeln!(md, "| kind | random | table | search |");
        let _ = writeln!(md, "|---|---:|---:|---:|");
        for k in 0..first.kinds.len() {
            let cell = |i: usize| {
                a.lineups.get(i).and_then(|l| l.kinds.get(k)).map_or("-".to_string(), |r| {
                    if r.legal == 0 { "never legal".into() } else { format!("{:.2}% of {}", r.used as f64 / r.legal as f64 * 100.0, r.legal) }
                })
            };
            let _ = writeln!(md, "| {} | {} | {} | {} |", first.kinds[k].kind, cell(0), cell(1), cell(2));
        }
        let _ = writeln!(md);
    } else {
        let _ = writeln!(md, "This game classifies no actions (`AuditHooks::action_kinds`): no dead-rule or dominant-move findings.\n");
    }
    md
}

/// The claims checked against the deck (nothing when the game makes none).
fn claims_md(a: &Audit, heading: &str) -> String {
    let mut md = String::new();
    if !a.claims.is_empty() {
        let _ = writeln!(md, "{heading}# Claims against the deck\n");
        let _ = writeln!(md, "| claim | can be true | always true |");
        let _ = writeln!(md, "|---|---|---|");
        for c in &a.claims {
            let _ = writeln!(md, "| {} | {} | {} |", c.claim, yes(c.possible), yes(c.certain));
        }
        let _ = writeln!(md);
    }
    md
}

/// The bot exploit sweep: its candidates, or why it did not run.
fn exploit_md(a: &Audit, heading: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "{heading}# Bot exploit sweep\n");
    match (&a.exploit, &a.exploit_note) {
        (Some(e), _) => {
            let _ = writeln!(
                md,
                "`{}` in each seat in turn against `{}`, one parameter at a time (fair share {:.1}%). Best: `{}` with {:.2}% (95% CI {:.2} to {:.2}%, {} fresh games).\n",
                e.bot,
                e.table,
                e.fair_share * 100.0,
                e.best.spec,
                e.best.win_share * 100.0,
                e.best.ci95[0] * 100.0,
                e.best.ci95[1] * 100.0,
                e.best.games
            );
            let _ = writeln!(md, "| candidate | win share | 95% CI | games |");
            let _ = writeln!(md, "|---|---:|---|---:|");
            for c in &e.candidates {
                let _ = writeln!(md, "| `{}` | {:.2}% | {:.2} to {:.2}% | {} |", c.spec, c.win_share * 100.0, c.ci95[0] * 100.0, c.ci95[1] * 100.0, c.games);
            }
            let _ = writeln!(md);
        }
        (None, Some(note)) => {
            let _ = writeln!(md, "Not run: {note}.\n");
        }
        (None, None) => {}
    }
    md
}

/// The sensitivity analysis: every step's effects, the keys with no effect, unread and structural keys, the skipped steps and the tornado charts.
fn sensitivity_md(s: &Sensitivity, heading: &str, prefix: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "{heading}# Sensitivity: which key moves the balance\n");
    let _ = writeln!(
        md,
        "Every numeric key one meaningful step down and up (10% of its value, at least one unit for whole numbers, and for a row of a numeric table at least half the spacing to its neighbouring rows; a smaller step where the key's allowed range forces it, marked *), on the same seeds as the variant as written; paired 95% CIs; up to {} games a step, stopping early once every interval excludes 0 or is narrower than its threshold ({}). Ranked by the largest significant change over its threshold; the structural keys (table size, match length) are listed apart, after the tuning keys.\n",
        s.max_games,
        s.thresholds.iter().map(|(m, t)| format!("{m} {t:.4}")).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(md, "| step | games | {} |", s.metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(md, "|---|---:|{}", "---|".repeat(s.metrics.len()));
    let ordered = s.steps.iter().filter(|r| !r.structural).chain(s.steps.iter().filter(|r| r.structural));
    for r in ordered {
        let cells: Vec<String> = r
            .effects
            .iter()
            .zip(&s.metrics)
            .map(|(e, m)| {
                let text = match e.ci95 {
                    Some([lo, hi]) if m.unit == "share" => format::points_ci(e.diff, lo, hi),
                    Some([lo, hi]) => format::number_ci(e.diff, lo, hi, 3, true),
                    None => format!("{} (no CI)", value(e.diff, m.unit, true)),
                };
                if e.significant { format!("**{text}**") } else { text }
            })
            .collect();
        let mark =
            format!("{}{}{}", if r.full { "" } else { "*" }, if r.structural { " (structural)" } else { "" }, if r.unread { " (no bot reads it)" } else { "" });
        let _ = writeln!(md, "| `{}` {} → {}{mark} | {} | {} |", r.key, num(r.from), num(r.to), r.games, cells.join(" | "));
    }
    let _ = writeln!(md);
    let list = |keys: &[String]| if keys.is_empty() { "none".to_string() } else { keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ") };
    let _ = writeln!(md, "No effect (neither full step changed anything significantly; a rule that may be dead): {}\n", list(&s.no_effect));
    for h in &s.held {
        let _ = writeln!(
            md,
            "Not dead: `{}` moved no figure, but a seat dealt one wins {:+.2} pts more than a seat not dealt one (`{}`, 95% CI {:+.2} to {:+.2} pts, {} games)\n",
            h.key,
            h.value * 100.0,
            h.metric,
            h.ci95[0] * 100.0,
            h.ci95[1] * 100.0,
            h.games
        );
    }
    let _ = writeln!(md, "Read by no bot at the table (see the \"unread key\" findings): {}\n", list(&s.unread));
    let _ = writeln!(md, "Structural keys (listed apart): {}\n", list(&s.structural));
    if !s.skipped.is_empty() {
        let _ = writeln!(md, "Steps outside the allowed range (not played):\n");
        for k in &s.skipped {
            let _ = writeln!(md, "- `{}`: {}", k.set, k.reason);
        }
        let _ = writeln!(md);
    }
    for m in &s.metrics {
        let _ = writeln!(md, "![Tornado: {}]({prefix}tornado_{}.png)\n", m.name, m.name);
    }
    md
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// One tornado chart per metric of the sensitivity analysis; returns the file names.
fn tornados(a: &Audit, dir: &Path) -> Result<Vec<(String, String)>, Error> {
    let Some(s) = &a.sensitivity else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for r in &s.steps {
        if !keys.contains(&r.key) {
            keys.push(r.key.clone());
        }
    }
    for (j, m) in s.metrics.iter().enumerate() {
        let scale = if m.unit == "share" { 100.0 } else { 1.0 };
        let bar = |r: &StepRow| {
            let e = &r.effects[j];
            let (lo, hi) = e.ci95.map_or((e.diff, e.diff), |c| (c[0], c[1]));
            (e.diff * scale, lo * scale, hi * scale)
        };
        let mut rows: Vec<(f64, TornadoRow)> = keys
            .iter()
            .map(|k| {
                let down = s.steps.iter().find(|r| &r.key == k && r.dir < 0);
                let up = s.steps.iter().find(|r| &r.key == k && r.dir > 0);
                let size = [down, up].into_iter().flatten().map(|r| r.effects[j].diff.abs()).fold(0.0, f64::max);
                let from = down.or(up).map_or(0.0, |r| r.from);
                let unread = if s.unread.contains(k) { ", read by no bot" } else { "" };
                let label = format!("{k} = {} ({} / {}{unread})", num(from), down.map_or("-".into(), |r| num(r.to)), up.map_or("-".into(), |r| num(r.to)));
                (size, TornadoRow { label, down: down.map(bar), up: up.map(bar) })
            })
            .collect();
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        // The tuning keys first (at most 30), then the structural keys under a heading row.
        let (structural, tuning): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(_, r)| s.structural.iter().any(|k| r.label.starts_with(&format!("{k} = "))));
        let mut rows: Vec<TornadoRow> = tuning.into_iter().map(|(_, r)| r).take(30).collect();
        if !structural.is_empty() {
            rows.push(TornadoRow { label: "structural keys (table size, match length):".into(), down: None, up: None });
            rows.extend(structural.into_iter().map(|(_, r)| r));
        }
        let unit = if m.unit == "share" {
            "points".to_string()
        } else if m.unit == "length" {
            a.length_unit.clone()
        } else {
            "value".into()
        };
        let title = format!("{}: change per key step ({} / {})", m.name, a.game, a.variant);
        let file = format!("tornado_{}", m.name);
        render(dir, &file, &title, &format!("change in {} ({unit}), step minus variant", m.name), &rows)?;
        out.push((title, format!("{file}.png")));
    }
    Ok(out)
}

/// Writes `audit.json`, `audit.md`, the tornado charts and `index.html` into `dir`.
pub fn write_all(a: &Audit, dir: &Path) -> Result<(), Error> {
    crate::output::write_json(&dir.join("audit.json"), a)?;
    let charts = tornados(a, dir)?;
    let md = markdown(a, "#", "");
    crate::designer::write_file(&dir.join("audit.md"), &md)?;
    crate::designer::write_file(&dir.join("index.html"), &html_page(a, &charts))?;
    Ok(())
}

/// Adds the audit to a report written in `dir` (its charts and files in `dir/audit/`): a
/// section at the end of `report.md` and one before the end of `index.html`.
pub fn append_to_report(a: &Audit, dir: &Path) -> Result<(), Error> {
    let md_path = dir.join("report.md");
    let mut md = std::fs::read_to_string(&md_path).map_err(|e| Error::output(&md_path, e))?;
    md.push('\n');
    md.push_str(&markdown(a, "##", "audit/"));
    crate::designer::write_file(&md_path, &md)?;
    let html_path = dir.join("index.html");
    let html = std::fs::read_to_string(&html_path).map_err(|e| Error::output(&html_path, e))?;
    let section = html_section(a, "audit/");
    let html = match html.rfind("</body>") {
        Some(i) => format!("{}{section}{}", &html[..i], &html[i..]),
        None => html + &section,
    };
    crate::designer::write_file(&html_path, &html)
}

/// The audit as an HTML section (`report --audit` adds it to the report's page; `prefix` is
/// the path from that page to the audit's charts).
pub fn html_section(a: &Audit, prefix: &str) -> String {
    let mut h = String::new();
    let _ = writeln!(h, "<section id=\"audit\"><h2>Rules audit</h2>");
    section_body(a, prefix, &mut h);
    h.push_str("</section>\n");
    h
}

/// The audit's content below its heading: the section of a report, or the whole of the
/// audit's own page (whose `<h1>` already names it).
fn section_body(a: &Audit, prefix: &str, h: &mut String) {
    let _ = writeln!(h, "<p><strong>{}</strong></p>", prose(&a.verdict));
    let _ = writeln!(h, "<p>Reproduce with: <code>{}</code></p>", escape(&a.command));
    if !a.detectable.is_empty() {
        let _ = writeln!(h, "<p>{}:</p><ul>", escape(DETECTABLE_HEAD));
        for d in &a.detectable {
            let _ = writeln!(h, "<li>{}</li>", prose(&detectable_line(d, &a.length_unit)));
        }
        let _ = writeln!(h, "</ul>");
    }
    let _ = writeln!(h, "<table><tr><th>kind</th><th>severity</th><th>finding</th><th>figure</th><th>keys</th><th>replay</th></tr>");
    for f in &a.findings {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(f.kind),
            f.severity.name(),
            prose(&f.sentence),
            prose(&figure_text(f)),
            escape(&f.keys.join(", ")),
            f.replay.iter().map(|r| format!("<code>{}</code>", escape(r))).collect::<Vec<_>>().join("<br>")
        );
    }
    let _ = writeln!(h, "</table>");
    if let Some(s) = &a.sensitivity {
        // The tuning keys ranked; the structural keys (table size, match length) apart.
        let _ = writeln!(h, "<h3>Sensitivity (top 10 steps of the tuning keys)</h3><ul>");
        for r in s.steps.iter().filter(|r| !r.structural).take(10) {
            let _ = writeln!(h, "<li>{}</li>", prose(&step_line(r, s)));
        }
        let _ = writeln!(h, "</ul>");
        if s.steps.iter().any(|r| r.structural) {
            let _ = writeln!(h, "<h4>Structural keys (table size, match length: not tuning keys)</h4><ul>");
            for r in s.steps.iter().filter(|r| r.structural) {
                let _ = writeln!(h, "<li>{}</li>", prose(&step_line(r, s)));
            }
            let _ = writeln!(h, "</ul>");
        }
        let _ = writeln!(h, "<p>No effect (a rule that may be dead): {}</p>", escape(&s.no_effect.join(", ")));
        for c in &s.held {
            let _ = writeln!(
                h,
                "<p>Not dead: {} moved no figure, but a seat dealt one wins {:+.2} pts more ({}, 95% CI {:+.2} to {:+.2} pts)</p>",
                escape(&c.key),
                c.value * 100.0,
                escape(&c.metric),
                c.ci95[0] * 100.0,
                c.ci95[1] * 100.0
            );
        }
        if !s.unread.is_empty() {
            let _ = writeln!(h, "<p>Read by no bot at the table: {}</p>", escape(&s.unread.join(", ")));
        }
        if !s.structural.is_empty() {
            let _ = writeln!(h, "<p>Structural keys (apart in the charts): {}</p>", escape(&s.structural.join(", ")));
        }
        for m in &s.metrics {
            let _ = writeln!(
                h,
                "<figure><img src=\"{prefix}tornado_{0}.png\" alt=\"tornado chart of {0}\" style=\"max-width:100%\"><figcaption>{0}</figcaption></figure>",
                escape(&m.name)
            );
        }
    }
    let _ = writeln!(h, "<p>Everything: <a href=\"{prefix}audit.md\">audit.md</a>, <a href=\"{prefix}audit.json\">audit.json</a></p>");
}

fn html_page(a: &Audit, _charts: &[(String, String)]) -> String {
    let mut body = String::new();
    section_body(a, "", &mut body);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Rules audit: {} / {}</title>\n<style>body{{font-family:sans-serif;max-width:1200px;margin:auto;padding:1em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px;vertical-align:top}}</style></head><body>\n<h1>Rules audit: {} / {}</h1>\n{}</body></html>\n",
        escape(&a.game),
        escape(&a.variant),
        escape(&a.game),
        escape(&a.variant),
        body
    )
}
