//! A fuzzer of variant keys: every numeric key of every game's standard variant (and the
//! keys a variant may add, such as `turn_cap`), set to random and extreme values, one or two
//! at a time. The library must accept the variant and play it quickly, or refuse it with a
//! variant error (exit 2 at the CLI): never a panic, never a game that takes seconds. A
//! sample also goes through the binary, which must exit 0 or 2.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use playtest::engine::{PlayOptions, game_seed};
use playtest::games::{self, GameVisitor, Registered};
use playtest::sim;
use playtest::variant::Variant;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn standard(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(id).join("standard.toml")
}

/// Every numeric leaf of a TOML table as a dotted key.
fn numeric_keys(table: &toml::Table, prefix: &str, out: &mut Vec<String>) {
    for (k, v) in table {
        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            toml::Value::Integer(_) | toml::Value::Float(_) => out.push(key),
            toml::Value::Table(t) => numeric_keys(t, &key, out),
            _ => {}
        }
    }
}

const EXTREMES: &[&str] = &["0", "1", "-1", "2", "3", "7", "1000", "100000", "4294967295", "4294967296", "-9223372036854775808", "1e9", "0.5", "\"x\""];

/// Plays three checked games of the variant; returns the slowest game's time.
struct Play<'a>(&'a Variant);
impl GameVisitor for Play<'_> {
    type Output = Result<Duration, playtest::Error>;
    fn visit<G: Registered>(self) -> Self::Output {
        let variant = self.0;
        let game = G::from_variant(variant)?;
        let plans = games::seat_plans(&game, variant, None, G::INFO.default_bot)?;
        let mut table = sim::table(&game, &plans);
        let mut slowest = Duration::ZERO;
        for i in 0..3 {
            let start = Instant::now();
            table.play(&game, game_seed(5, i), PlayOptions { checked: true }, None, None).map_err(|v| playtest::Error::Invariant(v.what))?;
            slowest = slowest.max(start.elapsed());
        }
        Ok(slowest)
    }
}

fn try_sets(id: &str, sets: &[String]) -> Result<(), TestCaseError> {
    let outcome = std::panic::catch_unwind(|| {
        let variant = match Variant::load(&standard(id), sets) {
            Ok(v) => v,
            Err(_) => return Ok(None),
        };
        match games::visit(&variant.game, Play(&variant)).expect("registered") {
            Ok(t) => Ok(Some(t)),
            Err(playtest::Error::Variant(_) | playtest::Error::Usage(_)) => Ok(None),
            Err(e) => Err(format!("{e}")),
        }
    });
    match outcome {
        Err(_) => Err(TestCaseError::fail(format!("{id} {sets:?}: panicked"))),
        Ok(Err(e)) => Err(TestCaseError::fail(format!("{id} {sets:?}: {e}"))),
        // Generous for a debug build on a loaded machine: a release game takes well under 1 s.
        Ok(Ok(Some(t))) if t > Duration::from_secs(10) => Err(TestCaseError::fail(format!("{id} {sets:?}: one game took {t:?}"))),
        Ok(_) => Ok(()),
    }
}

#[test]
fn random_and_extreme_key_values_never_panic_or_hang() {
    for id in games::GAME_IDS {
        let variant = Variant::load(&standard(id), &[]).expect("standard loads");
        let mut keys = Vec::new();
        numeric_keys(&variant.table, "", &mut keys);
        keys.push("turn_cap".into());
        keys.retain(|k| !k.starts_with("expect"));
        let key = proptest::sample::select(keys.clone());
        let value = prop_oneof![proptest::sample::select(EXTREMES.to_vec()).prop_map(String::from), (-5i64..200).prop_map(|n| n.to_string())];
        let set = (key, value).prop_map(|(k, v)| format!("{k}={v}"));
        // A fixed seed keeps CI reproducible; FUZZ_CASES and FUZZ_RANDOM=1 explore further.
        let cases = std::env::var("FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48);
        let config = Config { cases, failure_persistence: None, ..Config::default() };
        let mut runner = if std::env::var("FUZZ_RANDOM").is_ok() {
            TestRunner::new(config)
        } else {
            TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
        };
        runner.run(&proptest::collection::vec(set, 1..3), |sets| try_sets(id, &sets)).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn the_binary_exits_0_or_2_on_extreme_values() {
    for id in games::GAME_IDS {
        let variant = Variant::load(&standard(id), &[]).expect("standard loads");
        let mut keys = Vec::new();
        numeric_keys(&variant.table, "", &mut keys);
        for (i, key) in keys.iter().enumerate().take(6) {
            let value = EXTREMES[(i * 5 + 3) % EXTREMES.len()];
            let out = Command::new(env!("CARGO_BIN_EXE_playtest"))
                .args(["simulate", standard(id).to_str().unwrap(), "--games", "20", "--json", "--set", &format!("{key}={value}")])
                .env("CI", "true")
                .output()
                .expect("runs");
            let code = out.status.code();
            assert!(matches!(code, Some(0) | Some(2)), "{id} --set {key}={value}: exit {code:?}: {}", String::from_utf8_lossy(&out.stderr));
            if code == Some(2) {
                assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{id} --set {key}={value}: no clear error");
            }
        }
    }
}
