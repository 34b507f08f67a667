//! "No bot at the table reads this key" through the built binary and the audit: `compare`,
//! `sweep` and `tune` name the bots that do not read a changed key, `tune` refuses to write a
//! tuned variant whose change moves none of the bounded figures, and the audit steps keys by a
//! meaningful amount and says "unread key" rather than "may be dead" for Pig Farm's scoring
//! under `threshold`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use playtest::designer::audit::{AuditOptions, run};

const PIG: &str = "variants/pig-farm/standard.toml";
const SCORING_NOTE: &str = "note: `threshold` does not read `scoring.*` (changed: `scoring.seller.3`): this change can move who wins, not how anyone plays";

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-bot-keys-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn compare_says_when_no_bot_at_the_table_reads_the_changed_key() {
    let o = playtest(&["compare", PIG, PIG, "--set-b", "scoring.seller.3=15", "--games", "600", "--threads", "2"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains(SCORING_NOTE), "{out}");
    // `greedy` weighs the scoring tables: no note.
    let o = playtest(&["compare", PIG, PIG, "--set-b", "scoring.seller.3=15", "--bots", "greedy", "--games", "300", "--threads", "2"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(!out.contains("does not read"), "{out}");
    // A rules key no bot reads is named as such.
    let o = playtest(&["compare", PIG, PIG, "--set-b", "hand_size=4", "--games", "300", "--threads", "2"]);
    let (out, _) = text(&o);
    assert!(out.contains("note: `threshold` does not read `hand_size`: the change moves play only through the rules"), "{out}");
}

#[test]
fn sweep_says_when_no_bot_reads_the_swept_key() {
    let dir = temp("sweep");
    let o = playtest(&["sweep", PIG, "--param", "scoring.seller.3", "--values", "15,30", "--games", "512", "--threads", "2", "--out", dir.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains(SCORING_NOTE), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_refuses_a_tuned_variant_whose_change_moves_no_bounded_figure() {
    let dir = temp("tune");
    std::fs::create_dir_all(&dir).unwrap();
    // A copy of the standard variant bounding only the game's length, which no scoring value
    // can move under `threshold`.
    let standard = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(PIG)).unwrap();
    let rules = &standard[..standard.find("[expect]").expect("the standard variant has bounds")];
    let variant = dir.join("length.toml");
    std::fs::write(&variant, format!("{}[expect]\nmean_length = [60, 80]\n", rules.replace("name = \"standard\"", "name = \"length\""))).unwrap();
    let out = dir.join("out");
    let o = playtest(&[
        "tune",
        variant.to_str().unwrap(),
        "--param",
        "scoring.seller.3=40..60:20",
        "--games",
        "1024",
        "--budget",
        "6144",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{stdout}\n{err}");
    assert!(err.contains("no tuned variant written") && err.contains("moves none of the bounded figures"), "{err}");
    assert!(err.contains("`threshold` does not read `scoring.*`"), "{err}");
    assert!(!out.join("tuned.toml").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_audit_steps_scoring_keys_meaningfully_and_names_the_keys_no_bot_reads() {
    let out = temp("audit");
    let o = AuditOptions {
        variant: Path::new(env!("CARGO_MANIFEST_DIR")).join(PIG),
        games: 200,
        seed: 3,
        threads: 2,
        out: Some(out.clone()),
        search: "ismcts:iterations=16:depth=30:trust=0:model=default".into(),
        ..AuditOptions::default()
    };
    let a = run(&o).expect("audits");
    let s = a.sensitivity.as_ref().expect("ran");
    // A scoring row of 250 moves by 25 (10%), a row between 30 and 70 by at least 10.
    let step = |set: &str| s.steps.iter().any(|r| r.set == set);
    assert!(step("scoring.seller.9=225") && step("scoring.seller.9=275"), "{:?}", s.steps.iter().map(|r| &r.set).collect::<Vec<_>>());
    assert!(step("scoring.seller.4=40") && step("scoring.seller.4=60"));
    // No scoring key may be dead: `threshold` reads none of them, and the audit says that instead.
    assert!(s.no_effect.iter().all(|k| !k.starts_with("scoring.")), "{:?}", s.no_effect);
    assert!(a.findings.iter().all(|f| !(f.kind == "no effect" && f.keys.iter().any(|k| k.starts_with("scoring.")))));
    // One hint per unread key, each with its own key's figure: 22 scoring rows are not lumped.
    let unread: Vec<_> = a.findings.iter().filter(|f| f.kind == "unread key" && f.sentence.contains("`scoring.*`")).collect();
    assert!(unread.len() >= 20, "{}", unread.len());
    for f in &unread {
        assert_eq!(f.keys.len(), 1, "{:?}", f.keys);
        assert!(f.keys[0].starts_with("scoring."));
        assert!(
            f.sentence.starts_with("`threshold` does not read `scoring.*`")
                && f.sentence.contains(&format!("`{}`", f.keys[0]))
                && f.sentence.ends_with("this change can move who wins, not how anyone plays"),
            "{}",
            f.sentence
        );
        let games = s.steps.iter().filter(|r| r.key == f.keys[0]).map(|r| r.games).max().unwrap();
        assert_eq!(f.figure.games, games, "the figure is the key's own");
    }
    // `players` and `rounds` are structural: apart from the tuning keys.
    assert_eq!(s.structural, ["players", "rounds"]);
    let md = std::fs::read_to_string(out.join("audit.md")).unwrap();
    assert!(md.contains("Structural keys (listed apart): `players`, `rounds`"), "{md}");
    // The page's top ten ranks tuning keys only; the structural keys come after, apart.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let top = &html[html.find("top 10 steps of the tuning keys").expect("the ranked list")..];
    let top = &top[..top.find("</ul>").unwrap()];
    assert!(!top.contains("<li>players ") && !top.contains("<li>rounds "), "{top}");
    assert!(html.contains("Structural keys (table size, match length: not tuning keys)"), "{html}");
    let _ = std::fs::remove_dir_all(&out);
}
