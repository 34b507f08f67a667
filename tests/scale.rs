//! Tests of running at scale through the built binary: sharded runs merged into exactly the
//! unsharded run's summary and report (Penny Badger and Pig Farm), the refusals of `merge`,
//! `--shard auto/N` from the Slurm and Kubernetes variables, the shipped Slurm scripts run
//! as the scheduler would, and streamed `--out` rows.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn playtest_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_playtest"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").env_remove("SLURM_ARRAY_TASK_ID").env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the binary runs")
}

fn playtest(args: &[&str]) -> Output {
    playtest_env(args, &[])
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "stdout: {}\nstderr: {}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The error text of a run that must fail with exit code 2.
fn refused(o: Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "expected exit 2, got {:?}: {err}", o.status.code());
    err
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-scale-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A summary JSON without the one field that measures time (`--json` output has it,
/// `summary.json` does not).
fn without_rate(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text.trim()).expect("valid JSON");
    v.as_object_mut().unwrap().remove("games_per_second");
    v
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const BADGER: &str = "variants/penny-badger/standard.toml";
const PIG: &str = "variants/pig-farm/standard.toml";

#[test]
fn penny_badger_shards_merge_into_exactly_the_unsharded_summary() {
    let dir = temp("badger");
    let out = dir.join("shards");
    // 2600 games: batches of 512 are split unevenly across 3 shards, the last one partial.
    let common = ["--games", "2600", "--seed", "11", "--bots", "basic:bluff=0.3:challenge=0.3"];
    for k in [2, 0, 1] {
        let shard = format!("{k}/3");
        let mut args = vec!["simulate", BADGER, "--shard", &shard, "--out", s(&out), "--threads", "1"];
        args.extend(common);
        ok(playtest(&args));
    }
    let mut args = vec!["simulate", BADGER, "--json"];
    args.extend(common);
    let unsharded = without_rate(&ok(playtest(&args)));
    // Files in any order, and the folder form.
    let shards: Vec<String> = [1, 2, 0].iter().map(|k| s(&out.join(format!("shard-{k}-of-3.json"))).to_string()).collect();
    let mut args = vec!["merge", "--json", "--out"];
    let merged_dir = dir.join("merged");
    args.push(s(&merged_dir));
    args.extend(shards.iter().map(String::as_str));
    let merged = without_rate(&ok(playtest(&args)));
    assert_eq!(merged, unsharded);
    assert_eq!(merged["games"], 2600);
    let from_folder = without_rate(&ok(playtest(&["merge", s(&out), "--json"])));
    assert_eq!(from_folder, unsharded);
    // `playtest merge dir/shard-*`: the shell also names each shard's .csv and .parquet rows,
    // which merge skips.
    let mut glob: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("shard-"))
        .map(|p| s(&p).to_string())
        .collect();
    glob.sort();
    assert!(glob.iter().any(|p| p.ends_with(".csv")) && glob.iter().any(|p| p.ends_with(".parquet")));
    let mut args = vec!["merge", "--json", "--out", s(&merged_dir)];
    args.extend(glob.iter().map(String::as_str));
    assert_eq!(without_rate(&ok(playtest(&args))), unsharded);
    let written = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(!written.contains("games_per_second"), "summary.json must not depend on the machine");
    assert_eq!(without_rate(&written), unsharded);

    // The shards' rows are exactly the unsharded run's rows, split by game index.
    let whole = dir.join("whole");
    let mut args = vec!["simulate", BADGER, "--out", s(&whole)];
    args.extend(common);
    ok(playtest(&args));
    let whole_csv = std::fs::read_to_string(whole.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = whole_csv.lines().collect();
    let header = lines.remove(0);
    assert_eq!(lines.len(), 2600);
    let mut from_shards: Vec<(u64, String)> = Vec::new();
    for k in 0..3 {
        let text = std::fs::read_to_string(out.join(format!("shard-{k}-of-3.csv"))).unwrap();
        let mut it = text.lines();
        assert_eq!(it.next(), Some(header));
        for line in it {
            let index: u64 = line.split(',').next().unwrap().parse().unwrap();
            assert_eq!(index % 3, k, "shard {k} holds only its own games");
            from_shards.push((index, line.to_string()));
        }
        assert!(out.join(format!("shard-{k}-of-3.parquet")).metadata().unwrap().len() > 0);
    }
    from_shards.sort();
    let from_shards: Vec<&str> = from_shards.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(from_shards, lines);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pig_farm_report_shards_merge_into_the_same_report() {
    report_shards_merge_into_the_same_report(PIG, "pig", "round_first_seat_win_share");
}

#[test]
fn take_a_penny_report_shards_merge_into_the_same_report() {
    report_shards_merge_into_the_same_report("variants/take-a-penny/standard.toml", "tap", "give_success");
    // Two players: the report adds the exact solution, and so does the merge.
    report_shards_merge_into_the_same_report("variants/take-a-penny/two-players.toml", "tap2", "exact_expected_length");
}

/// Four shards of `report`, merged, equal one unsharded report: summary, every PNG byte
/// for byte, and report.md but for the throughput line and the command's --out folder.
fn report_shards_merge_into_the_same_report(variant: &str, name: &str, own_figure: &str) {
    let dir = temp(name);
    let shards = dir.join("shards");
    for k in 0..4 {
        let shard = format!("{k}/4");
        ok(playtest(&["report", variant, "--games", "1500", "--seed", "5", "--shard", &shard, "--out", s(&shards)]));
    }
    let merged = dir.join("merged");
    ok(playtest(&["merge", s(&shards), "--out", s(&merged)]));
    let whole = dir.join("whole");
    ok(playtest(&["report", variant, "--games", "1500", "--seed", "5", "--out", s(&whole)]));
    let read = |d: &Path, f: &str| std::fs::read(d.join(f)).unwrap_or_else(|e| panic!("{}: {e}", d.join(f).display()));
    let mut a = without_rate(&String::from_utf8(read(&whole, "summary.json")).unwrap());
    let mut b = without_rate(&String::from_utf8(read(&merged, "summary.json")).unwrap());
    // Known gap (as for report.md below): shards do not save the per-game parts of the game's
    // own figures, so the merged summary has their values but not their intervals.
    let own: Vec<String> = a["extra"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
    for j in [&mut a, &mut b] {
        let o = j.as_object_mut().expect("an object");
        o.remove("extra_ci95");
        o.remove("extra_interval");
        if let Some(f) = o.get_mut("figures").and_then(|f| f.as_object_mut()) {
            for k in &own {
                f.remove(k);
            }
        }
    }
    assert_eq!(a, b);
    assert!(a["extra"][own_figure].is_number(), "the game's own figures are merged too: {a}");
    let mut pngs = 0;
    for e in std::fs::read_dir(&whole).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".png") {
            pngs += 1;
            assert!(read(&whole, &name) == read(&merged, &name), "{name} differs");
        }
    }
    assert!(pngs >= 5, "{pngs} charts");
    // report.md differs only in the throughput line and the --out folder of the command.
    let clean = |d: &Path| {
        String::from_utf8(read(d, "report.md"))
            .unwrap()
            .lines()
            .filter(|l| !l.ends_with("games/s") && !l.starts_with("playtest report"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Known gap: shards do not save the per-sub-batch values of the game's own figures, so the
    // merged report prints those figures (and a bound on them) without an interval, saying
    // so; every other line is the same.
    let (w, m) = (clean(&whole), clean(&merged));
    let (wl, ml): (Vec<&str>, Vec<&str>) = (w.lines().collect(), m.lines().collect());
    assert_eq!(wl.len(), ml.len());
    for (x, y) in wl.iter().zip(&ml) {
        if !y.contains("no batches to spread over") {
            assert_eq!(x, y);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_shards_of_different_runs_and_incomplete_sets() {
    let dir = temp("refuse");
    let run = |sub: &str, out: &Path, shard: &str, extra: &[&str]| {
        let mut args = vec![sub, BADGER, "--shard", shard, "--out", s(out)];
        for (flag, default) in [("--games", "300"), ("--seed", "2")] {
            if !extra.contains(&flag) {
                args.extend([flag, default]);
            }
        }
        args.extend(extra);
        ok(playtest(&args));
        out.join(format!("shard-{}-of-{}.json", &shard[..1], &shard[2..]))
    };
    let a0 = run("simulate", &dir.join("a"), "0/2", &[]);
    let a1 = run("simulate", &dir.join("a"), "1/2", &[]);
    ok(playtest(&["merge", s(&a0), s(&a1)]));
    let cases: Vec<(PathBuf, &str)> = vec![
        (run("simulate", &dir.join("seed"), "1/2", &["--seed", "3"]), "seed is 2 in"),
        (run("simulate", &dir.join("games"), "1/2", &["--games", "301"]), "game count is 300 in"),
        (run("simulate", &dir.join("set"), "1/2", &["--set", "bank=120"]), "variant settings"),
        (run("simulate", &dir.join("bots"), "1/2", &["--bots", "random"]), "bots is"),
        (run("report", &dir.join("kind"), "1/2", &[]), "command is simulate in"),
    ];
    for (other, message) in &cases {
        let err = refused(playtest(&["merge", s(&a0), s(other)]));
        assert!(err.contains("shards of different runs") && err.contains(message), "{message}: {err}");
    }
    let other_variant = {
        let out = dir.join("variant");
        ok(playtest(&["simulate", "variants/penny-badger/big-bank.toml", "--games", "300", "--seed", "2", "--shard", "1/2", "--out", s(&out)]));
        out.join("shard-1-of-2.json")
    };
    let err = refused(playtest(&["merge", s(&a0), s(&other_variant)]));
    assert!(err.contains("variant is penny-badger / standard in"), "{err}");
    let three = run("simulate", &dir.join("three"), "1/3", &[]);
    assert!(refused(playtest(&["merge", s(&a0), s(&three)])).contains("shard count is 2"));

    let err = refused(playtest(&["merge", s(&a0)]));
    assert!(err.contains("shard 1 of 2 missing"), "{err}");
    let err = refused(playtest(&["merge", s(&a0), s(&a0), s(&a1)]));
    assert!(err.contains("shard 0 of 2 is given twice"), "{err}");
    let copy = dir.join("copy.json");
    std::fs::copy(&a1, &copy).unwrap();
    assert!(refused(playtest(&["merge", s(&a0), s(&a1), s(&copy)])).contains("shard 1 of 2 is given twice"));

    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"format\": \"something else\"}").unwrap();
    assert!(refused(playtest(&["merge", s(&a0), s(&junk)])).contains("is not `playtest-shard/1`"));
    std::fs::write(&junk, "not json").unwrap();
    assert!(refused(playtest(&["merge", s(&junk)])).contains("not a shard state file"));
    assert!(refused(playtest(&["merge", s(&dir.join("nothing-here.json"))])).contains("cannot read"));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(refused(playtest(&["merge", s(&empty)])).contains("holds no shard"));
    // A shard file whose game count was tampered with is caught.
    let text = std::fs::read_to_string(&a1).unwrap().replace("\"games\":300,", "\"games\":302,");
    std::fs::write(&junk, text).unwrap();
    assert!(refused(playtest(&["merge", s(&junk)])).contains("holds 150 games"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shard_flags_are_usage_errors() {
    let dir = temp("flags");
    let out = dir.join("o");
    for (shard, message) in [("3/3", "does not exist"), ("1/0", "at least 1"), ("a/2", "not a whole number or `auto`"), ("2", "no `/`")] {
        let err = refused(playtest(&["simulate", BADGER, "--games", "10", "--shard", shard, "--out", s(&out)]));
        assert!(err.contains(&format!("--shard {shard}:")) && err.contains(message), "{err}");
    }
    let err = refused(playtest(&["simulate", BADGER, "--games", "10", "--shard", "0/2"]));
    assert!(err.contains("needs --out DIR"), "{err}");
    let err = refused(playtest(&["simulate", BADGER, "--games", "10", "--shard", "auto/2", "--out", s(&out)]));
    assert!(err.contains("SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"), "{err}");
    let err = refused(playtest_env(&["simulate", BADGER, "--games", "10", "--shard", "auto/2", "--out", s(&out)], &[("SLURM_ARRAY_TASK_ID", "7")]));
    assert!(err.contains("shard 7 does not exist in 2 shards"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn auto_shards_from_kubernetes_indices_merge_into_the_unsharded_run() {
    let dir = temp("k8s");
    for k in ["0", "1", "2"] {
        ok(playtest_env(&["report", PIG, "--games", "900", "--seed", "8", "--shard", "auto/3", "--out", s(&dir)], &[("JOB_COMPLETION_INDEX", k)]));
    }
    let merged = without_rate(&ok(playtest(&["merge", s(&dir), "--json", "--out", s(&dir.join("merged"))])));
    let whole = without_rate(&ok(playtest(&["simulate", PIG, "--games", "900", "--seed", "8", "--json"])));
    // `report` adds the game's own figures and the standing figures; everything else equals
    // the unsharded simulate.
    let mut merged_core = merged.clone();
    merged_core["extra"] = whole["extra"].clone();
    merged_core.as_object_mut().unwrap().remove("standing");
    assert_eq!(merged_core, whole);
    assert!(!merged["extra"].as_object().unwrap().is_empty());
    assert!(merged["standing"]["lead_changes"]["value"].is_number(), "the standing figures are merged too");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the shipped Slurm scripts as the scheduler would: one process per array task with
/// its `SLURM_ARRAY_TASK_ID`, then the merge job.
#[test]
fn the_slurm_example_scripts_work_as_a_job_array() {
    let dir = temp("slurm");
    let bin = env!("CARGO_BIN_EXE_playtest");
    let root = env!("CARGO_MANIFEST_DIR");
    let env = |extra: &[(&'static str, String)]| {
        let mut e: Vec<(&str, String)> = vec![
            ("PLAYTEST", bin.to_string()),
            ("VARIANT", format!("{root}/{BADGER}")),
            ("GAMES", "2000".to_string()),
            ("SEED", "4".to_string()),
            ("SHARDS", "4".to_string()),
            ("OUT", s(&dir).to_string()),
            ("COMMAND", "simulate".to_string()),
        ];
        e.extend_from_slice(extra);
        e
    };
    let bash = |script: &str, vars: Vec<(&str, String)>| {
        let mut c = Command::new("bash");
        c.arg(format!("{root}/examples/slurm/{script}")).current_dir(&dir).env("CI", "true").env_remove("JOB_COMPLETION_INDEX");
        for (k, v) in vars {
            c.env(k, v);
        }
        ok(c.output().expect("bash runs"))
    };
    for task in ["3", "1", "0", "2"] {
        bash("shard.sbatch", env(&[("SLURM_ARRAY_TASK_ID", task.to_string())]));
    }
    let out = bash("merge.sbatch", env(&[]));
    assert!(out.contains("merged 4 shards"), "{out}");
    let merged = without_rate(&std::fs::read_to_string(dir.join("merged").join("summary.json")).unwrap());
    let whole = without_rate(&ok(playtest(&["simulate", BADGER, "--games", "2000", "--seed", "4", "--json"])));
    assert_eq!(merged, whole);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_out_streams_every_row_in_game_order() {
    let dir = temp("rows");
    let summary = without_rate(&ok(playtest(&["simulate", PIG, "--games", "1200", "--seed", "6", "--out", s(&dir), "--json"])));
    let plain = without_rate(&ok(playtest(&["simulate", PIG, "--games", "1200", "--seed", "6", "--json"])));
    assert_eq!(summary, plain);
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let indices: Vec<u64> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    assert_eq!(indices, (0..1200).collect::<Vec<u64>>());
    assert!(dir.join("games.parquet").metadata().unwrap().len() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Through the library: the shards' exact tallies and game metrics, merged in reverse order
/// on another thread count, equal the unsharded run's, for every bundled game.
#[test]
fn shard_accumulators_merge_exactly_for_every_game() {
    use playtest::engine::Metrics;
    use playtest::games::{self, GameVisitor, Registered};
    use playtest::sim::{self, RunConfig};
    use playtest::variant::Variant;

    struct Check<'a>(&'a Variant);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), playtest::Error>;
        fn visit<G: Registered>(self) -> Self::Output {
            let variant = self.0;
            let game = G::from_variant(variant)?;
            let plans = games::seat_plans(&game, variant, None, G::INFO.default_bot)?;
            let cfg = RunConfig { threads: 1, detailed: true, ..RunConfig::new(3000, 21) };
            let whole = sim::run(&game, &plans, cfg)?;
            let mut tally = playtest::stats::Tally::default();
            let mut metrics = G::Metrics::default();
            for index in (0..5).rev() {
                let part = sim::run(&game, &plans, RunConfig { threads: 2, shard_index: index, shard_count: 5, ..cfg })?;
                assert_eq!(part.tally.games, 600);
                tally.merge(&part.tally);
                let saved = part.metrics.save_state().expect("bundled games save their metrics");
                Metrics::merge(&mut metrics, G::Metrics::load_state(&saved).expect("and load them"));
            }
            assert_eq!(tally, whole.tally, "{}", game.id());
            assert_eq!(metrics.save_state(), whole.metrics.save_state(), "{}", game.id());
            assert_eq!(metrics.summary(3000), whole.metrics.summary(3000));
            Ok(())
        }
    }
    // Every registered game, on its standard variant.
    for id in games::GAME_IDS {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(id).join("standard.toml");
        let variant = Variant::load(&file, &[]).unwrap();
        games::visit(id, Check(&variant)).expect("registered").unwrap();
    }
}
