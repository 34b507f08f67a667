//! What a designer types and what the tool says back: errors at their source (a `--set` typo
//! names the flag and the nearest key, type errors say what is allowed in words, game counts
//! are whole numbers), the default report folder that never replaces another variant's
//! report, a comparison that records what it compared and reads as a verdict, and the
//! ladder's read-out. The error texts here are a contract.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn playtest_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(dir).env("CI", "true").output().expect("the binary runs")
}

fn playtest(args: &[&str]) -> Output {
    playtest_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-inputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn variant(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(name).display().to_string()
}

/// Runs `args`, expects exit 2 and returns stderr.
fn usage_error(args: &[&str]) -> String {
    let o = playtest(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: stdout {} stderr {}", stdout(&o), stderr(&o));
    stderr(&o)
}

fn has(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{text:?} lacks {p:?}");
    }
}

const PIG: &str = "variants/pig-farm/standard.toml";

#[test]
fn a_set_typo_names_the_flag_and_the_nearest_key() {
    let e = usage_error(&["simulate", PIG, "--set", "scoring.selller.3=10", "--games", "10"]);
    has(&e, &["--set scoring.selller.3=10", "key `scoring.selller`", "unknown key `selller`", "did you mean `scoring.seller`?", "allowed: `seller`"]);
    assert!(!e.contains("standard.toml:"), "blamed on the file: {e}");
    let e = usage_error(&["validate", PIG, "--set", "playres=3"]);
    has(&e, &["--set playres=3", "did you mean `players`?"]);
}

#[test]
fn an_unknown_key_in_a_file_suggests_the_nearest_and_lists_every_allowed_key() {
    let dir = temp("typo");
    let file = dir.join("copy.toml");
    std::fs::write(&file, format!("extends = {:?}\nname = \"copy\"\nbot = \"greedy\"\n", variant("pig-farm/standard.toml"))).unwrap();
    let e = usage_error(&["validate", file.to_str().unwrap()]);
    has(&e, &["copy.toml:3:1", "unknown key `bot`", "did you mean `bots`?"]);
    for key in ["`bots`", "`name`", "`description`", "`extends`", "`expect`", "`players`", "`turn_cap`", "`scoring`", "`deck`"] {
        has(&e, &[key]);
    }
    std::fs::write(&file, format!("extends = {:?}\n[deck]\nbutcher = 4\n", variant("pig-farm/standard.toml"))).unwrap();
    let e = usage_error(&["validate", file.to_str().unwrap()]);
    has(&e, &["copy.toml:3:1", "deck.butcher", "did you mean `deck.butchers`?"]);
    // A key in a table is not offered the keys of the file's top level.
    assert!(!e.contains("`extends`"), "{e}");
}

#[test]
fn type_errors_say_what_is_allowed_in_words() {
    let dir = temp("types");
    let file = dir.join("copy.toml");
    let base = variant("pig-farm/standard.toml");
    std::fs::write(&file, format!("extends = {base:?}\nplayers = \"four\"\n")).unwrap();
    let e = usage_error(&["validate", file.to_str().unwrap()]);
    has(&e, &["copy.toml:2:1", "key `players`", "\"four\" is text", "expected a whole number from 2 to 8"]);
    assert!(!e.contains("u32") && !e.contains("i64"), "{e}");
    let e = usage_error(&["simulate", PIG, "--set", "rounds=-2", "--games", "10"]);
    has(&e, &["--set rounds=-2", "-2 is negative", "expected a whole number from 1 to 100"]);
    let e = usage_error(&["simulate", PIG, "--set", "scoring.seller.3=2.5", "--games", "10"]);
    has(&e, &["--set scoring.seller.3=2.5", "2.5 is not a whole number", "expected a whole number"]);
    assert!(!e.contains("i64"), "{e}");
    let e = usage_error(&["simulate", PIG, "--set", "reshuffle_discard=3", "--games", "10"]);
    has(&e, &["3 is a number", "expected true or false"]);
}

#[test]
fn game_counts_are_whole_numbers_written_plainly() {
    for (games, says) in
        [("-5", "cannot be negative"), ("10,000", "digits only: 10000"), ("ten", "e.g. 10000"), ("0", "1 or more"), ("99999999999999", "from 1 to 10000000000")]
    {
        let e = usage_error(&["simulate", PIG, "--games", games]);
        has(&e, &["--games", says, "whole number"]);
        assert!(!e.contains("unexpected argument"), "{e}");
    }
    let e = usage_error(&["ladder", PIG, "--bots", "random,threshold", "--games", "1_000"]);
    has(&e, &["digits only: 1000"]);
}

#[test]
fn a_rainbow_rush_deck_needs_no_action_sets() {
    let dir = temp("rainbow");
    let file = dir.join("deck.toml");
    std::fs::write(&file, "game = \"rainbow-rush\"\n[deck]\nbase_sets = 3\ncolors_sets = 1\nshapes_sets = 1\n").unwrap();
    let o = playtest(&["validate", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = {
        let o = playtest(&["simulate", file.to_str().unwrap(), "--games", "200", "--threads", "1", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    // The same deck as the standard variant (87 cards): the same games.
    let standard: serde_json::Value = {
        let o = playtest(&["simulate", "variants/rainbow-rush/standard.toml", "--bots", "random", "--games", "200", "--threads", "1", "--json"]);
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let mine: serde_json::Value = {
        let o = playtest(&["simulate", file.to_str().unwrap(), "--bots", "random", "--games", "200", "--threads", "1", "--json"]);
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    assert_eq!(standard["length"], mine["length"]);
    assert_eq!(v["games"], 200);
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(from), to).unwrap();
}

#[test]
fn the_default_report_folder_never_replaces_another_variants_report() {
    let dir = temp("default-folder");
    // The committed report of the standard variant, as a checkout holds it.
    copy("variants/pig-farm/standard.toml", &dir.join("variants/pig-farm/standard.toml"));
    copy("reports/pig-farm/standard/report.md", &dir.join("reports/pig-farm/standard/report.md"));
    // A designer's copy keeps `name = "standard"`.
    copy("variants/pig-farm/standard.toml", &dir.join("mine/standard.toml"));
    let report = dir.join("reports/pig-farm/standard/report.md");
    let before = std::fs::read_to_string(&report).unwrap();
    let quick = ["--games", "40", "--threads", "1", "-q"];
    let refused = |args: &[&str]| {
        let o = playtest_in(&dir, &[&["report"], args, &quick[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&report).unwrap(), before, "the report was replaced");
        stderr(&o)
    };
    let e = refused(&["mine/standard.toml"]);
    has(&e, &["reports/pig-farm/standard/ holds the report of variants/pig-farm/standard.toml", "this run is mine/standard.toml", "pass --out DIR"]);
    let e = refused(&["variants/pig-farm/standard.toml", "--set", "scoring.seller.3=15"]);
    has(&e, &["this run is variants/pig-farm/standard.toml --set scoring.seller.3=15", "--out DIR"]);
    let e = refused(&["variants/pig-farm/standard.toml", "--bots", "random"]);
    has(&e, &["--bots random", "--out DIR"]);
    // With --out the copy writes elsewhere; the same file, bots and overrides replace the report.
    let o = playtest_in(&dir, &[&["report", "mine/standard.toml", "--out", "mine/report"], &quick[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("mine/report/report.md").exists());
    let o = playtest_in(&dir, &[&["report", "variants/pig-farm/standard.toml"], &quick[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&report).unwrap().contains("playtest report variants/pig-farm/standard.toml --games 40 --seed 1"));
}

#[test]
fn simulate_echoes_its_overrides() {
    let o = playtest(&["simulate", PIG, "--set", "scoring.seller.3=15", "--set", "turn_cap=400", "--games", "64", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    has(&stdout(&o), &["overrides: --set scoring.seller.3=15, --set turn_cap=400"]);
    let o = playtest(&["simulate", PIG, "--set", "scoring.seller.3=15", "--games", "64", "--threads", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["overrides"], serde_json::json!(["scoring.seller.3=15"]));
    let o = playtest(&["simulate", PIG, "--games", "64", "--threads", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(v.get("overrides").is_none(), "no overrides, no field");
}

#[test]
fn a_comparison_records_what_it_compared_and_reads_as_a_verdict() {
    let args = ["compare", PIG, PIG, "--set-b", "scoring.set_bonus.3=0", "--games", "512", "--threads", "1"];
    let o = playtest(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    has(
        &text,
        &["A = standard (variants/pig-farm/standard.toml), bots threshold x4", "B = standard (variants/pig-farm/standard.toml --set scoring.set_bonus.3=0)"],
    );
    has(&text, &["verdict (B against A): first-player advantage", "game length"]);
    let o = playtest(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["a"]["sets"], serde_json::json!([]));
    assert_eq!(v["b"]["sets"], serde_json::json!(["scoring.set_bonus.3=0"]));
    assert_eq!(v["b"]["bots"], serde_json::json!(["threshold", "threshold", "threshold", "threshold"]));
    let dir = temp("compare");
    let out = dir.join("cmp");
    let o = playtest(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    assert_eq!(saved["b"]["sets"], serde_json::json!(["scoring.set_bonus.3=0"]));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    has(
        &page,
        &[
            "Verdict (B against A): first-player advantage",
            "Figures that moved",
            "Figures that did not move",
            "--set scoring.set_bonus.3=0",
            "compare_shares.png",
            "compare.json",
        ],
    );
    // The figures that did not move are listed by name: game length does not move here.
    let still = page.split("Figures that did not move").nth(1).unwrap();
    has(still, &["<code>mean_length</code>"]);
}

#[test]
fn a_report_compares_itself_with_its_baseline() {
    let dir = temp("baseline");
    let out = dir.join("report");
    let o = playtest(&[
        "report",
        PIG,
        "--set",
        "scoring.set_bonus.3=0",
        "--baseline",
        PIG,
        "--games",
        "256",
        "--threads",
        "1",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    has(
        &md,
        &[
            "Compared with the baseline",
            "Verdict (this variant against the baseline): first-player advantage",
            "--baseline variants/pig-farm/standard.toml",
            "scoring.set_bonus.3=0",
        ],
    );
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    has(&html, &["Compared with the baseline"]);
    for f in ["index.html", "compare.json", "compare.csv", "compare_shares.png"] {
        assert!(out.join("baseline").join(f).exists(), "baseline/{f}");
    }
    let e = usage_error(&["report", PIG, "--baseline", "variants/rainbow-rush/standard.toml", "--games", "10", "--out", dir.join("x").to_str().unwrap()]);
    has(&e, &["--baseline", "rainbow-rush", "pig-farm"]);
}

#[test]
fn a_ladder_refuses_a_bot_twice_and_prints_a_headed_matrix_with_intervals() {
    let e = usage_error(&["ladder", PIG, "--bots", "threshold,threshold", "--games", "8"]);
    has(&e, &["--bots: `threshold` is listed twice"]);
    let e = usage_error(&["report", PIG, "--ladder", "random,threshold,random", "--games", "8"]);
    has(&e, &["--ladder: `random` is listed twice"]);
    let o = playtest(&["ladder", PIG, "--bots", "random,threshold", "--games", "40", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    has(&text, &["| row bot \\ column bot | random | threshold |", "| random | (itself) | ", "| threshold | "]);
    let row = text.lines().find(|l| l.starts_with("| threshold | ")).unwrap();
    assert!(row.contains("%, 95% CI ") && row.ends_with("| (itself) |"), "{row}");
}
