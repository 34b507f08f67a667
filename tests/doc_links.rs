//! Every relative link in `README.md`, `CHANGELOG.md` and `docs/**/*.md` points to a file or
//! folder of the repository, and every `#anchor` to a heading of its page.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn pages(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            pages(&path, out);
        } else if path.extension().is_some_and(|x| x == "md") {
            out.push(path);
        }
    }
}

/// The targets of Markdown links and images, `[text](target)`, outside code blocks and spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, so `[x](y)` written as code is not a link.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].trim().to_string());
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> HashSet<String> {
    let mut fenced = false;
    let mut out = HashSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_relative_link_in_the_docs_points_to_something_that_exists() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    pages(&root.join("docs"), &mut files);
    assert!(files.len() > 10, "docs/ holds too few pages: {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match link.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() { file.clone() } else { file.parent().unwrap_or(&root).join(path) };
            if !target.exists() {
                broken.push(format!("{}: `{link}`: no such file", file.display()));
                continue;
            }
            if let Some(fragment) = fragment
                && target.extension().is_some_and(|x| x == "md")
            {
                let page = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&page).contains(fragment) {
                    broken.push(format!("{}: `{link}`: no heading with that anchor in {}", file.display(), target.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_finder_reads_links_and_skips_code() {
    let text = "see [a](docs/a.md) and ![b](b.png)\n`[c](c.md)` is code\n```\n[d](d.md)\n```\n";
    assert_eq!(links(text), ["docs/a.md", "b.png"]);
    assert_eq!(anchor(" Standing over time (every game)"), "standing-over-time-every-game");
    assert!(anchors("# Page\n## Seat rotation\n").contains("seat-rotation"));
}

#[test]
fn the_readme_is_a_front_page_whose_test_command_is_what_ci_runs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(readme.lines().count() <= 300, "README.md has {} lines; the front page keeps at most 300", readme.lines().count());
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    let test_line = readme.lines().find(|l| l.contains("# the test suite")).expect("README names its test command");
    let command = test_line.split('#').next().unwrap_or("").trim();
    assert!(ci.lines().any(|l| l.trim() == command), "CI's .ci/run does not run the README's test command `{command}`");
}
