//! `index.html` of a comparison: one self-contained page with relative links.

use crate::designer::metrics;
use crate::designer::thousands;
use crate::output::Partial;

use super::result::{Comparison, MetricComparison, unit_of, value_of};
use super::verdict::{partition, verdict};

/// `index.html` of a comparison: the verdict, who was compared, the figures that moved, those
/// that did not, the charts and the data files; one self-contained page with relative links.
pub(super) fn page(c: &Comparison, charts: &[(String, String)], partial: Option<&Partial>) -> String {
    use crate::report::html::escape;
    use std::fmt::Write;
    let mut h = String::new();
    let title = format!("{}: {} against {}", c.game, c.b.variant, c.a.variant);
    let _ = writeln!(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>", escape(&title));
    let _ = writeln!(
        h,
        "<style>body{{font-family:system-ui,sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:4px 10px;text-align:right}}th{{background:#f3f3f3}}td.l,th.l{{text-align:left}}img{{max-width:100%;height:auto;border:1px solid #ddd}}</style>\n</head>\n<body>"
    );
    let _ = writeln!(h, "<h1>{}</h1>", escape(&title));
    if let Some(p) = partial {
        let _ = writeln!(h, "<p><strong>{}</strong></p>", escape(&p.banner()));
    }
    let _ = writeln!(h, "<p><strong>Verdict (B against A): {}.</strong></p>", escape(&verdict(c)));
    let _ = writeln!(h, "<ul><li>A = {}</li><li>B = {}</li></ul>", escape(&c.a.describe()), escape(&c.b.describe()));
    let how = if c.common_random_numbers {
        format!("{} games each, seed {}: common random numbers (game i of A and of B start from the same seed).", thousands(c.games), c.a.seed)
    } else {
        format!("{} games each, seeds {} and {}: independent runs.", thousands(c.games), c.a.seed, c.b.seed)
    };
    let _ = writeln!(h, "<p>{} A figure moved when the paired 95% CI of B - A excludes 0 (no correction for testing many figures).</p>", escape(&how));
    let (moved, still, unjudged) = partition(c);
    let table = |h: &mut String, rows: &[&MetricComparison]| {
        let _ =
            writeln!(h, "<table><tr><th class=l>figure</th><th>A</th><th>B</th><th>B - A</th><th class=l>95% CI paired</th><th class=l>what it is</th></tr>");
        for m in rows {
            let u = unit_of(m);
            let ci = m.paired_ci.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)));
            let _ = writeln!(
                h,
                "<tr><td class=l><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=l>{}</td><td class=l>{}</td></tr>",
                escape(&m.name),
                escape(&value_of(m, m.a)),
                escape(&value_of(m, m.b)),
                escape(&metrics::format_diff(u, m.diff)),
                escape(&ci),
                escape(&m.about)
            );
        }
        let _ = writeln!(h, "</table>");
    };
    let _ = writeln!(h, "<h2>Figures that moved ({})</h2>", moved.len());
    if moved.is_empty() {
        let _ = writeln!(h, "<p>None: every paired 95% CI includes 0.</p>");
    } else {
        table(&mut h, &moved);
    }
    let _ = writeln!(h, "<h2>Figures that did not move ({})</h2>", still.len());
    table(&mut h, &still);
    if !unjudged.is_empty() {
        let _ = writeln!(h, "<h2>Figures not judged ({}): no paired interval</h2>", unjudged.len());
        table(&mut h, &unjudged);
    }
    let _ = writeln!(h, "<h2>Charts</h2>");
    for (title, file) in charts {
        let _ = writeln!(h, "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>", escape(file), escape(title), escape(title));
    }
    let _ = writeln!(
        h,
        "<h2>Data</h2>\n<ul><li><a href=\"compare.json\">compare.json</a>: the comparison (JSON)</li><li><a href=\"compare.csv\">compare.csv</a>: one row per figure</li></ul>\n</body>\n</html>"
    );
    h
}
