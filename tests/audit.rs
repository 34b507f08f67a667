//! `playtest audit` against planted holes: variants under `tests/fixtures/audit/` (not bundled)
//! each hide one hole (a stall, an unused option, a key with no effect, a dominant move, an
//! exploit). Each must be found with the right kind, and its seeds must replay it. The clean
//! bundled standard variants must show no high-severity finding (their committed release
//! audits are read), and bad input is refused with nothing written.

use std::path::{Path, PathBuf};
use std::process::Command;

use playtest::designer::audit::{Audit, AuditOptions, Finding, Severity, run};
use playtest::engine::{BotSpec, PlayOptions};
use playtest::games::{self, GameVisitor, Registered};
use playtest::variant::Variant;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit").join(format!("{name}.toml"))
}

/// A small, fast audit of `path` into a fresh temporary folder.
fn audit(path: &Path, games: u64, sensitivity: bool, out: &Path) -> Audit {
    let o = AuditOptions {
        variant: path.to_path_buf(),
        games,
        seed: 3,
        threads: 2,
        out: Some(out.to_path_buf()),
        search: "ismcts:iterations=32:depth=30:trust=0:model=default".into(),
        no_sensitivity: !sensitivity,
        ..AuditOptions::default()
    };
    run(&o).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("playtest-audit-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn find<'a>(a: &'a Audit, kind: &str, text: &str) -> &'a Finding {
    a.findings.iter().find(|f| f.kind == kind && f.sentence.contains(text)).unwrap_or_else(|| {
        panic!("no `{kind}` finding mentioning {text:?}; findings: {:#?}", a.findings.iter().map(|f| (&f.kind, &f.sentence)).collect::<Vec<_>>())
    })
}

/// Replays game `seed` of `path` with the line-up `bots` and returns its end reason and
/// winners (the same game `playtest trace PATH --bots BOTS --game-seed SEED` prints).
fn replay(path: &Path, bots: &str, seed: u64) -> (String, u16) {
    struct Replay<'a>(String, u64, &'a Variant);
    impl GameVisitor for Replay<'_> {
        type Output = Result<(String, u16), playtest::Error>;
        fn visit<G: Registered>(self) -> Self::Output {
            let variant = self.2;
            let game = G::from_variant(variant)?;
            let specs: Vec<BotSpec> = self.0.split(',').map(|s| BotSpec::parse(s).expect("spec")).collect();
            let plans = games::seat_plans(&game, variant, Some(&specs), G::INFO.default_bot)?;
            let mut table = playtest::sim::table(&game, &plans);
            let o = table.play(&game, self.1, PlayOptions { checked: true }, None, None).expect("legal");
            Ok((game.end_reasons()[o.end_reason as usize].to_string(), o.winners))
        }
    }
    let v = Variant::load(path, &[]).expect("loads");
    games::visit(&v.game, Replay(bots.into(), seed, &v)).expect("registered").expect("replays")
}

#[test]
fn a_planted_stall_is_found_and_its_seeds_replay_a_capped_game() {
    let path = fixture("stall");
    let out = temp("stall");
    let a = audit(&path, 300, false, &out);
    let f = find(&a, "stall", "with the table");
    assert_eq!(f.severity, Severity::High, "{}", f.sentence);
    assert!(f.figure.value > 0.5 && f.figure.ci95[0] > 0.01, "{:?}", f.figure);
    assert!(!f.seeds.is_empty());
    for &seed in &f.seeds {
        assert_eq!(replay(&path, &f.lineup, seed).0, "cap", "seed {seed} of {}", f.lineup);
    }
    // The command printed with it replays the same game through the binary.
    let cmd = &f.replay[0];
    assert!(cmd.starts_with("playtest trace ") && cmd.ends_with(&format!("--game-seed {}", f.seeds[0])), "{cmd}");
    let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    let run = Command::new(env!("CARGO_BIN_EXE_playtest")).args(&args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains("cap"), "the trace shows the cap");
    for file in ["audit.json", "audit.md", "index.html"] {
        assert!(out.join(file).is_file(), "{file} written");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_unused_option_is_a_dead_rule_and_its_key_has_no_effect() {
    // Flower Power with hands of 3 but plays of up to 5 cards: 4- and 5-card plays never happen.
    let path = fixture("unused-option");
    let out = temp("unused");
    let a = audit(&path, 200, true, &out);
    let f = find(&a, "dead rule", "\"play 5 cards\"");
    assert_eq!(f.severity, Severity::Medium);
    assert!(f.sentence.contains("never legal"), "{}", f.sentence);
    let s = a.sensitivity.as_ref().expect("ran");
    assert!(s.no_effect.contains(&"max_play".to_string()), "max_play has no effect: {:?}", s.no_effect);
    assert!(!s.no_effect.contains(&"hand_size".to_string()), "hand size matters");
    for m in &s.metrics {
        assert!(out.join(format!("tornado_{}.png", m.name)).is_file());
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_key_with_no_effect_is_found() {
    let path = fixture("no-effect");
    let out = temp("no-effect");
    let a = audit(&path, 200, true, &out);
    let f = find(&a, "no effect", "`payout.6.withdrawal`");
    assert_eq!(f.keys, ["payout.6.withdrawal"]);
    let s = a.sensitivity.as_ref().expect("ran");
    assert!(!s.no_effect.contains(&"payout.2.withdrawal".to_string()), "pairs pay: {:?}", s.no_effect);
    let dead = find(&a, "dead rule", "\"claim a set of 6\"");
    assert!(dead.sentence.contains("never legal"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_dominant_move_is_found_and_replays() {
    // Pig Farm where two sets sell for 100 points: the search bot sells whenever it may.
    let path = fixture("dominant");
    let out = temp("dominant");
    let a = audit(&path, 6000, false, &out);
    let f = find(&a, "no real choice", "\"sell the farm\"");
    assert_eq!(f.severity, Severity::Medium);
    assert!(f.figure.value >= 0.99 && f.figure.decisions.unwrap_or(0) >= 100, "{:?}", f.figure);
    assert!(!f.seeds.is_empty());
    // The seeds are games in which the search bot sold the farm.
    for &seed in &f.seeds {
        assert_eq!(replay(&path, &f.lineup, seed).0, "sold", "seed {seed}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_planted_exploit_is_found_with_seeds_it_wins() {
    let path = fixture("exploit");
    let out = temp("exploit");
    // Penny Badger with every penalty 0: bluffing is free.
    let a = audit(&path, 400, false, &out);
    let f = find(&a, "exploit", "bluff = 1");
    assert_eq!(f.severity, Severity::High, "{}", f.sentence);
    let e = a.exploit.as_ref().expect("swept");
    assert!(e.best.ci95[0] > e.fair_share + 0.05, "{:?}", e.best);
    for (seat, seed, bots) in &e.best_wins {
        let (_, winners) = replay(&path, bots, *seed);
        assert!(winners & (1 << seat) != 0, "seed {seed}: seat {seat} ({bots}) wins");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_input_is_refused_with_nothing_written() {
    let out = temp("bad");
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/pig-farm/standard.toml");
    let cases: [(&[&str], &str); 3] =
        [(&["--set", "deck.wilds=2"], "unknown key"), (&["--exploit", "random"], "has no parameters to sweep"), (&["--set", "players=1"], "players")];
    for (extra, message) in cases {
        let run = Command::new(env!("CARGO_BIN_EXE_playtest"))
            .arg("audit")
            .arg(&base)
            .args(["--games", "50", "--out"])
            .arg(&out)
            .args(extra)
            .env("CI", "true")
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(message), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
}

/// The committed release audits of the bundled standard variants (`reports/<game>/standard/
/// audit/audit.json`, README: one command regenerates them) hold no high-severity finding.
#[test]
fn clean_standard_variants_have_no_high_severity_finding() {
    for id in games::GAME_IDS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports").join(id).join("standard/audit/audit.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: serde_json::Value = serde_json::from_str(&text).expect("json");
        let high: Vec<&str> =
            json["findings"].as_array().expect("findings").iter().filter(|f| f["severity"] == "high").filter_map(|f| f["sentence"].as_str()).collect();
        assert!(high.is_empty(), "{id}: {high:?}");
    }
}

#[test]
fn a_small_clean_variant_audits_the_same_for_any_thread_count() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/take-a-penny/standard.toml");
    let (o1, o2) = (temp("threads1"), temp("threads2"));
    let mut opts = AuditOptions {
        variant: path.clone(),
        games: 300,
        seed: 5,
        threads: 1,
        out: Some(o1.clone()),
        search: "ismcts:iterations=32:depth=30:trust=0:model=default".into(),
        ..AuditOptions::default()
    };
    let a = run(&opts).expect("audits");
    opts.threads = 2;
    opts.out = Some(o2.clone());
    let b = run(&opts).expect("audits");
    assert!(a.findings.iter().all(|f| f.severity != Severity::High), "{:?}", a.verdict);
    assert_eq!(std::fs::read(o1.join("audit.json")).unwrap(), std::fs::read(o2.join("audit.json")).unwrap());
    assert_eq!(b.verdict, a.verdict);
    let _ = std::fs::remove_dir_all(&o1);
    let _ = std::fs::remove_dir_all(&o2);
}

/// What the audit can detect is printed with the verdict: the first-player advantage at the
/// table's games (2.8 standard errors of a share at the fair share, or of the measured figure
/// with sensitivity), the stall share seen at least once 95% of the time, a step's change of
/// every metric.
#[test]
fn the_audit_says_the_smallest_effect_it_can_detect() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/take-a-penny/standard.toml");
    let out = temp("detectable");
    let a = audit(&path, 400, false, &out);
    let fpa = a.detectable.iter().find(|d| d.figure.starts_with("first-player advantage")).expect("listed");
    let n = a.lineups[1].games as f64;
    let players = 4.0;
    let p = 1.0 / players;
    assert_eq!(fpa.games as f64, n);
    assert!((fpa.smallest - 2.8 * (p * (1.0 - p) / n).sqrt()).abs() < 1e-12, "{fpa:?}");
    let stall = a.detectable.iter().find(|d| d.figure.starts_with("share of the table's games that stall")).expect("listed");
    assert!((stall.smallest - (1.0 - 0.05f64.powf(1.0 / n))).abs() < 1e-12 && stall.smallest > 2.9 / n && stall.smallest < 3.1 / n);
    let text = playtest::designer::audit::write::summary_text(&a);
    assert!(text.contains("What this audit can detect") && text.contains("first-player advantage of the table: "), "{text}");
    let _ = std::fs::remove_dir_all(&out);

    // With the sensitivity analysis: the measured figure, and every metric's smallest step change.
    let out = temp("detectable-sens");
    let a = audit(&path, 300, true, &out);
    let s = a.sensitivity.as_ref().expect("ran");
    let fpa = a.detectable.iter().find(|d| d.figure.starts_with("first-player advantage")).expect("listed");
    let (value, ci) = fpa.measured.expect("measured on the paired games");
    assert!(ci[0] <= value && value <= ci[1]);
    assert_eq!(fpa.games, s.base_games);
    assert!((fpa.smallest - 2.8 * (ci[1] - ci[0]) / 2.0 / playtest::stats::Z95).abs() < 1e-9, "{fpa:?}");
    for m in &s.metrics {
        // A figure that never varied (no game capped) has no spread to detect against.
        let Some(d) = m.detectable else {
            assert!(m.name == "cap_share", "{}", m.name);
            continue;
        };
        assert!(d > 0.0 && d.is_finite(), "{}: {d}", m.name);
        assert!(a.detectable.iter().any(|x| x.figure == format!("a key step's change of {}", m.name)));
    }
    assert!(s.metrics.iter().filter(|m| m.detectable.is_some()).count() >= 2, "first-player advantage and mean length");
    let md = std::fs::read_to_string(out.join("audit.md")).unwrap();
    assert!(md.contains("What this audit can detect"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Beaver Mania's card counts step to none and to double, and a card whose holders win a
/// different share is never called dead.
#[test]
fn card_counts_step_to_none_and_double_and_a_valuable_card_is_not_dead() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/beaver-mania/standard.toml");
    let out = temp("cards");
    let a = audit(&path, 300, true, &out);
    let s = a.sensitivity.as_ref().expect("ran");
    let step = |set: &str| s.steps.iter().any(|r| r.set == set);
    assert!(step("deck.hippie=0") && step("deck.hippie=4"), "{:?}", s.steps.iter().map(|r| &r.set).collect::<Vec<_>>());
    assert!(step("deck.copies=16") || step("deck.copies=12"), "copies doubled, or as far as the game allows");
    for h in &s.held {
        assert!(h.ci95[0] > 0.0 || h.ci95[1] < 0.0, "{h:?}");
        assert!(!s.no_effect.contains(&h.key));
    }
    assert!(!s.no_effect.contains(&"deck.hippie".to_string()), "{:?} {:?}", s.no_effect, s.held);
    let _ = std::fs::remove_dir_all(&out);
}
