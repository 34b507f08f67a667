//! The invariant harness over every registered game and every bundled variant: a game added to
//! the registry (and its variants under `variants/<id>/`) is checked here with no test of its
//! own. Also: same seed, same numbers in a fresh process through the CLI.

use std::path::{Path, PathBuf};
use std::process::Command;

use playtest::games;
use playtest::sim::harness::HarnessPlan;
use playtest::variant::Variant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every bundled variant of game `id`, sorted.
fn variants_of(id: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("variants").join(id))
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_game_has_a_standard_variant() {
    for id in games::GAME_IDS {
        let standard = root().join("variants").join(id).join("standard.toml");
        assert!(standard.exists(), "{id}: no {}", standard.display());
    }
    // And every variant folder is a registered game.
    for entry in std::fs::read_dir(root().join("variants")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        assert!(games::GAME_IDS.contains(&name.as_str()), "variants/{name} is not a registered game");
    }
}

#[test]
fn every_game_and_bundled_variant_passes_the_invariant_harness() {
    use rayon::prelude::*;
    let plan = HarnessPlan { games: 12, ..HarnessPlan::default() };
    // Variants are checked in parallel (Bluffing Joker's alone take half the time), so the
    // test takes about the total over the cores rather than the total.
    let files: Vec<(&str, PathBuf)> = games::GAME_IDS.iter().flat_map(|id| variants_of(id).into_iter().map(move |f| (*id, f))).collect();
    let checked: u64 = files
        .par_iter()
        .map(|(id, file)| {
            let variant = Variant::load(file, &[]).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert_eq!(variant.game, *id);
            let start = std::time::Instant::now();
            match games::check_rules(&variant, plan) {
                Ok(Ok(n)) => {
                    eprintln!("{}: {n} games per bot in {:.2?}", file.display(), start.elapsed());
                    n
                }
                Ok(Err(failure)) => panic!("{}: {failure}", file.display()),
                Err(e) => panic!("{}: {e}", file.display()),
            }
        })
        .sum();
    assert!(checked > 0);
}

fn simulate_json(file: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_playtest"))
        .args(["simulate", file.to_str().unwrap(), "--games", "300", "--seed", "77", "--threads", "2", "--json"])
        .env("CI", "true")
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    v.as_object_mut().unwrap().remove("games_per_second");
    v
}

#[test]
fn same_seed_same_numbers_in_a_fresh_process_for_every_bundled_variant() {
    for id in games::GAME_IDS {
        for file in variants_of(id) {
            assert_eq!(simulate_json(&file), simulate_json(&file), "{}", file.display());
        }
    }
}
