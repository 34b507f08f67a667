//! The figures a game declares as ratios of sums over games (`Metrics::ratio_names`) are the
//! figures it reports: over a run, the declared numerator over the declared denominator equals
//! the figure of `Metrics::summary`, for every game, so the ratio estimator's interval belongs
//! to the number shown; the per-game parts give the same tally for any thread count; and
//! Bluffing Joker's share of right doubts is judged by its doubts (an interval far narrower
//! than one counting its 300 games).

use std::path::Path;

use playtest::designer::metrics::{ArmData, Catalogue, Interval, Moments};
use playtest::games;
use playtest::sim::RunConfig;
use playtest::variant::Variant;

/// A detailed run of `games` games of the standard variant of `game` on `threads` threads.
fn run(game: &str, games: u64, threads: usize) -> (Variant, playtest::games::handle::Run) {
    let v = Variant::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("variants/{game}/standard.toml")), &[]).expect("loads");
    let handle = games::handle(&v).expect("registered");
    let seated = handle.seat(&v, None).expect("seats");
    let cfg = RunConfig { detailed: true, threads, ..RunConfig::new(games, 7) };
    let r = seated.run(cfg, &mut |_| {}, None).expect("plays");
    (v, r)
}

#[test]
fn every_declared_ratio_is_the_figure_the_game_reports() {
    for game in ["penny-badger", "take-a-penny", "pig-farm", "flower-power", "match-patch", "rainbow-rush", "dice-factor", "beaver-mania", "bluffing-joker"] {
        let (_, r) = run(game, 130, 0);
        let summary = r.metrics.summary(r.tally.games);
        assert!(!r.ratios.names.is_empty(), "{game} declares no ratio");
        assert_eq!(r.ratios.clusters, 130, "{game}: one cluster per game");
        for name in &r.ratios.names {
            let shown = summary.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("{game}: `{name}` is not one of its figures")).1;
            let e = r.ratios.get(name).unwrap();
            if e.denominator == 0 {
                continue;
            }
            assert!((e.value - shown).abs() <= 1e-9 * shown.abs().max(1.0), "{game}: `{name}` is {shown}, its declared parts give {}", e.value);
        }
    }
}

#[test]
fn the_parts_are_the_same_for_any_thread_count() {
    let (_, one) = run("rainbow-rush", 1100, 1);
    let (_, two) = run("rainbow-rush", 1100, 2);
    assert_eq!(one.ratios, two.ratios);
}

#[test]
fn a_share_of_doubts_is_judged_by_its_doubts() {
    let (v, r) = run("bluffing-joker", 300, 0);
    let handle = games::handle(&v).unwrap();
    let facts = handle.facts();
    let cat = Catalogue::of(facts);
    let summary = playtest::stats::Summary::new(
        &r.tally,
        playtest::stats::summary::SummaryContext {
            game: facts.id,
            variant: "standard",
            seed: 7,
            players: facts.acting_seats,
            seats: facts.seats,
            seat_bots: vec!["b".into(); facts.seats],
            end_reasons: facts.end_reasons,
            length_unit: facts.length_unit,
            seconds: 0.0,
            extra: r.metrics.summary(r.tally.games),
        },
    );
    let moments = Moments::new(cat.per_game_len);
    let arm = ArmData { summary: &summary, tally: &r.tally, moments: &moments, extras: &r.extras, ratios: &r.ratios };
    let e = cat.estimate(cat.get("right_doubt_share").unwrap(), &arm);
    assert_eq!(e.interval, Interval::Ratio);
    // Wilson over the 300 games would be about +-5.6 points; the doubts (tens of thousands)
    // give well under one point.
    assert!(e.half_width() < 0.01 && e.lo < e.value && e.value < e.hi, "{e:?}");
}
