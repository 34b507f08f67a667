//! Escaping text for the HTML pages (reports, audits, watch pages), in one place.

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes prose for HTML and shows its markdown code spans (`` `key` ``) as `<code>`, so
/// a sentence written once for report.md and the terminal reads right on a page too. A
/// backtick without a partner stays as typed.
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else { break };
        let (before, code) = (&rest[..open], &rest[open + 1..open + 1 + len]);
        out.push_str(&escape(before));
        if code.is_empty() {
            out.push_str("``");
        } else {
            out.push_str("<code>");
            out.push_str(&escape(code));
            out.push_str("</code>");
        }
        rest = &rest[open + len + 2..];
    }
    out.push_str(&escape(rest));
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, prose};

    #[test]
    fn prose_shows_code_spans_and_keeps_a_lone_backtick() {
        assert_eq!(prose("`collector` does not read `goal` <here>"), "<code>collector</code> does not read <code>goal</code> &lt;here&gt;");
        assert_eq!(prose("a `b<c` and ` lone"), "a <code>b&lt;c</code> and ` lone");
        assert_eq!(prose("no spans & more"), "no spans &amp; more");
        assert_eq!(prose("``"), "``");
    }

    #[test]
    fn escape_covers_markup_characters() {
        assert_eq!(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
    }
}
