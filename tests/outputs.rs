//! Fault injection on every command that writes a folder (`simulate --out`, `report`,
//! `compare --out`, `sweep`, `merge`, `--shard K/N`), through the built binary: SIGINT and
//! SIGKILL at several moments of a run over an existing complete result, a file-size limit
//! (RLIMIT_FSIZE) hit mid-run, two runs into one folder, a read-only folder. After each, the
//! folder must hold byte for byte the previous result or a complete new one (the rows of
//! `games.csv` and `games.parquet` equal `summary.json`'s game count).
//!
//! Take a Penny is the game played: the fastest, so the long runs that are interrupted reach
//! their batches at once and every test stays short.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const PENNY: &str = "variants/take-a-penny/standard.toml";
/// Games of a run that is always interrupted before its end.
const LONG: &str = "100000000";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn command(args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_playtest"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Runs to the end; (exit status, stdout, stderr).
fn run(c: &mut Command) -> (ExitStatus, String, String) {
    let o = c.output().expect("the binary runs");
    (o.status, String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn run_ok(a: &[String]) -> String {
    let (status, out, err) = run(&mut command(a));
    assert!(status.success(), "{a:?}: {status}\nstdout: {out}\nstderr: {err}");
    out
}

/// Waits for `child` (killing it after a minute: a hung child is a failure, never a hang).
fn finish(mut child: Child) -> (ExitStatus, String, String) {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the child did not end within a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    (o.status, String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Waits until `path` exists (the run has taken its lock and made its temporary folder).
fn wait_for(path: &Path, child: &mut Child) {
    let start = Instant::now();
    while !path.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the child ended ({status}) before {} appeared", path.display());
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: sends a signal to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
}

/// The visible entries of a folder (names starting with a dot are a run's lock or temporary
/// files, never a result) with their bytes; subfolders by their own listing.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return m };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if e.path().is_dir() {
            for (k, v) in snapshot(&e.path()) {
                m.insert(format!("{name}/{k}"), v);
            }
        } else {
            m.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    m
}

/// Hidden entries left in `dir` (locks, temporary folders).
fn hidden(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with('.')).collect()
}

fn json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("valid JSON")
}

fn parquet_rows(bytes: &[u8]) -> u64 {
    use polars_io::prelude::{ParquetReader, SerReader};
    let mut r = ParquetReader::new(std::io::Cursor::new(bytes.to_vec()));
    r.num_rows().expect("a whole Parquet file") as u64
}

/// What each command's complete result holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Simulate,
    Report,
    Compare,
    Sweep,
    Merge,
}

/// Asserts that `files` is one complete result of `kind`.
fn assert_complete(kind: Kind, files: &BTreeMap<String, Vec<u8>>) {
    let names: Vec<&String> = files.keys().collect();
    let get = |n: &str| files.get(n).unwrap_or_else(|| panic!("{n} missing from {names:?}"));
    match kind {
        Kind::Simulate | Kind::Report | Kind::Merge => {
            let games = json(get("summary.json"))["games"].as_u64().unwrap();
            if kind != Kind::Merge {
                let csv_rows = String::from_utf8_lossy(get("games.csv")).lines().count() as u64 - 1;
                assert_eq!(csv_rows, games, "games.csv rows vs summary.json games");
                assert_eq!(parquet_rows(get("games.parquet")), games, "games.parquet rows vs summary.json games");
            }
            if kind == Kind::Report {
                assert!(String::from_utf8_lossy(get("report.md")).contains(&format!("{games} games")));
                assert!(String::from_utf8_lossy(get("index.html")).contains("</html>"));
            }
        }
        Kind::Compare => {
            let c = json(get("compare.json"));
            assert!(c["games"].as_u64().unwrap() > 0);
            let csv = String::from_utf8_lossy(get("compare.csv"));
            assert_eq!(csv.lines().count(), c["metrics"].as_array().unwrap().len() + 1);
        }
        Kind::Sweep => {
            let csv = String::from_utf8_lossy(get("sweep.csv"));
            assert_eq!(csv.lines().count(), 3, "header + one line per value");
            assert!(files.keys().any(|k| k.ends_with(".png")));
        }
    }
    for (name, bytes) in files {
        if name.ends_with(".png") {
            assert!(bytes.starts_with(b"\x89PNG") && bytes.ends_with(b"IEND\xaeB`\x82"), "{name} is a whole PNG");
        }
    }
}

/// The folder is the previous result byte for byte, or a complete new one.
fn assert_previous_or_complete(kind: Kind, dir: &Path, before: &BTreeMap<String, Vec<u8>>, what: &str) -> bool {
    let now = snapshot(dir);
    if &now == before {
        return false;
    }
    let r = std::panic::catch_unwind(|| assert_complete(kind, &now));
    assert!(r.is_ok(), "{what}: the folder is neither the previous result nor a complete new one: {:?}", now.keys().collect::<Vec<_>>());
    true
}

/// A writing command: its arguments for a short complete run and for a long run, with the
/// output folder given.
struct Writer {
    short: Vec<String>,
    long: Vec<String>,
}

fn writer(kind: Kind, out: &Path) -> Writer {
    let o = out.to_str().unwrap();
    let with = |list: &[&str], games: &str| {
        let mut a = args(list);
        a.extend(args(&["--games", games, "--out", o, "-q"]));
        a
    };
    match kind {
        Kind::Simulate => Writer { short: with(&["simulate", PENNY], "3000"), long: with(&["simulate", PENNY], LONG) },
        Kind::Report => Writer { short: with(&["report", PENNY], "1500"), long: with(&["report", PENNY], LONG) },
        Kind::Compare => {
            let base = ["compare", PENNY, "--set-b", "total_pennies=13"];
            Writer { short: with(&base, "1024"), long: with(&base, LONG) }
        }
        Kind::Sweep => {
            let base = ["sweep", PENNY, "--param", "total_pennies", "--values", "13,15", "--metric", "first_player_advantage"];
            Writer { short: with(&base, "512"), long: with(&base, LONG) }
        }
        Kind::Merge => unreachable!("merge is tested on its own"),
    }
}

/// The temporary sibling a run into `out` writes to.
fn temp_of(out: &Path, child: &Child) -> PathBuf {
    out.with_file_name(format!(".{}.tmp-{}", out.file_name().unwrap().to_string_lossy(), child.id()))
}

/// SIGINT and SIGKILL at several moments of a long run over a complete result; SIGINT with
/// `--keep-partial`; then a run after the kill, which clears what the killed run left.
fn interrupt_and_kill(kind: Kind, name: &str) {
    let root = scratch(name);
    let out = root.join("out");
    let w = writer(kind, &out);
    run_ok(&w.short);
    let before = snapshot(&out);
    assert_complete(kind, &before);
    for (delay, sig) in [(0, libc::SIGINT), (150, libc::SIGINT), (40, libc::SIGKILL), (300, libc::SIGKILL)] {
        let mut child = command(&w.long).spawn().unwrap();
        let temp = temp_of(&out, &child);
        wait_for(&temp, &mut child);
        std::thread::sleep(Duration::from_millis(delay));
        signal(&child, sig);
        let (status, stdout, stderr) = finish(child);
        let what = format!("{name}: signal {sig} after {delay} ms");
        assert!(!assert_previous_or_complete(kind, &out, &before, &what), "{what}: a long run never completes");
        if sig == libc::SIGINT {
            assert_eq!(status.code(), Some(130), "{what}: {stderr}");
            // Stopped before the first game finished, there is no figure to show (never a
            // table of NaN); otherwise the summary says partial.
            let none = stderr.contains("interrupted before any game finished");
            assert!(stdout.contains("PARTIAL RESULT") || (none && stdout.trim().is_empty()), "{what}: the summary says partial: {stdout}");
            assert!(!stdout.contains("NaN"), "{what}: {stdout}");
            assert!(stderr.contains("nothing written"), "{what}: {stderr}");
            assert!(hidden(&out).is_empty() && hidden(&root).is_empty(), "{what}: nothing left behind: {:?} {:?}", hidden(&out), hidden(&root));
        } else {
            assert_eq!(status.code(), None, "{what}: killed");
            // The killed run's temporary folder and lock are cleared by the next run, which
            // says so.
            let (status, _, stderr) = run(&mut command(&w.short));
            assert!(status.success(), "{what}: the next run: {stderr}");
            assert!(stderr.contains("took over the lock") && stderr.contains("left by an interrupted run"), "{what}: {stderr}");
            assert_eq!(snapshot(&out), before, "{what}: the same run again gives the same bytes");
            assert!(hidden(&out).is_empty() && hidden(&root).is_empty(), "{what}: {:?} {:?}", hidden(&out), hidden(&root));
        }
    }
    // Two Ctrl-C in a row: the second stops at once; the previous result stays.
    let mut child = command(&w.long).spawn().unwrap();
    wait_for(&temp_of(&out, &child), &mut child);
    std::thread::sleep(Duration::from_millis(50));
    signal(&child, libc::SIGINT);
    signal(&child, libc::SIGINT);
    let (status, _, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{name}: two Ctrl-C: {stderr}");
    assert_eq!(snapshot(&out), before, "{name}: two Ctrl-C");
    // --keep-partial: a complete folder for the games played, marked partial.
    let mut keep = w.long.clone();
    keep.push("--keep-partial".into());
    let mut child = command(&keep).spawn().unwrap();
    wait_for(&temp_of(&out, &child), &mut child);
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, libc::SIGINT);
    let (status, _, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{name}: --keep-partial: {stderr}");
    let now = snapshot(&out);
    assert_complete(kind, &now);
    match kind {
        Kind::Simulate | Kind::Report => {
            let s = json(&now["summary.json"]);
            assert_eq!(s["partial"], true, "{name}: summary.json says partial");
            assert_eq!(s["games_played"], s["games"]);
            if kind == Kind::Simulate {
                // The games played are the first N games: the very numbers of `--games N`.
                let played = s["games"].as_u64().unwrap().to_string();
                let (status, stdout, _) = run(&mut command(&args(&["simulate", PENNY, "--games", &played, "--json"])));
                assert!(status.success());
                let mut whole = json(stdout.as_bytes());
                let mut part = s.clone();
                for v in [&mut whole, &mut part] {
                    for k in ["games_per_second", "partial", "games_played", "games_asked"] {
                        v.as_object_mut().unwrap().remove(k);
                    }
                }
                assert_eq!(part, whole, "a partial run's figures are those of a run of as many games");
            }
            if kind == Kind::Report {
                for page in ["report.md", "index.html"] {
                    assert!(String::from_utf8_lossy(&now[page]).contains("PARTIAL RESULT"), "{name}: {page} says partial");
                }
            }
        }
        Kind::Compare => assert_eq!(json(&now["compare.json"])["partial"], true),
        Kind::Sweep => assert!(now.contains_key("PARTIAL.txt")),
        Kind::Merge => {}
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn simulate_out_survives_ctrl_c_and_kill() {
    interrupt_and_kill(Kind::Simulate, "simulate-signals");
}

#[test]
fn report_survives_ctrl_c_and_kill() {
    interrupt_and_kill(Kind::Report, "report-signals");
}

#[test]
fn compare_out_survives_ctrl_c_and_kill() {
    interrupt_and_kill(Kind::Compare, "compare-signals");
}

#[test]
fn sweep_survives_ctrl_c_and_kill() {
    interrupt_and_kill(Kind::Sweep, "sweep-signals");
}

/// Kills a short run at moments spread over its whole length (the end included: writing,
/// renaming): every time the folder is the previous result or the complete new one.
#[test]
fn kills_spread_over_a_whole_run_never_leave_a_mix() {
    let root = scratch("spread");
    for (kind, steps) in [(Kind::Simulate, 6u64), (Kind::Report, 4)] {
        let out = root.join(format!("{kind:?}"));
        let w = writer(kind, &out);
        run_ok(&w.short);
        let before = snapshot(&out);
        // A different game count, so a complete new result differs from the previous one.
        let mut other = w.short.clone();
        let games = other.iter().position(|a| a == "--games").unwrap() + 1;
        other[games] = "2500".into();
        let start = Instant::now();
        run_ok(&other);
        let full = start.elapsed().as_millis() as u64;
        run_ok(&w.short);
        let mut replaced = 0;
        for step in 0..steps {
            let delay = full * step / (steps - 1);
            let child = command(&other).spawn().unwrap();
            std::thread::sleep(Duration::from_millis(delay));
            signal(&child, libc::SIGKILL);
            let _ = finish(child);
            if assert_previous_or_complete(kind, &out, &before, &format!("{kind:?} killed after {delay} of {full} ms")) {
                replaced += 1;
                run_ok(&w.short);
            }
        }
        eprintln!("{kind:?}: {replaced} of {steps} kills came after the commit");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Runs `a` with a file-size limit of `bytes` (RLIMIT_FSIZE): the write that passes it fails.
fn run_limited(a: &[String], bytes: u64) -> (ExitStatus, String, String) {
    let mut c = command(a);
    // SAFETY: setrlimit is async-signal-safe; the closure touches nothing else.
    unsafe {
        c.pre_exec(move || {
            let lim = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    run(&mut c)
}

#[test]
fn a_file_size_limit_hit_mid_run_leaves_the_previous_result() {
    let root = scratch("fsize");
    for (kind, games, limit) in
        [(Kind::Simulate, "100000", 1_000_000), (Kind::Report, "15000", 1_000_000), (Kind::Compare, "1024", 3_000), (Kind::Sweep, "512", 8_000)]
    {
        let out = root.join(format!("{kind:?}"));
        let w = writer(kind, &out);
        run_ok(&w.short);
        let before = snapshot(&out);
        let mut big = w.short.clone();
        let g = big.iter().position(|a| a == "--games").unwrap() + 1;
        big[g] = games.into();
        let (status, _, stderr) = run_limited(&big, limit);
        assert_eq!(status.code(), Some(1), "{kind:?}: {stderr}");
        assert!(stderr.contains("error: ") && stderr.contains("cannot write") && stderr.contains("File too large"), "{kind:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{kind:?}: {stderr}");
        // The file is named by its place in the output folder, not the temporary one.
        assert!(stderr.contains(&format!("{}/", out.display())) && !stderr.contains(".tmp-"), "{kind:?}: {stderr}");
        assert!(stderr.contains("nothing written: the folder keeps its previous result"), "{kind:?}: {stderr}");
        assert_eq!(snapshot(&out), before, "{kind:?}: the previous result, byte for byte");
        assert!(hidden(&out).is_empty() && hidden(&root).is_empty(), "{kind:?}: nothing partial left: {:?} {:?}", hidden(&out), hidden(&root));
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_second_run_into_the_same_folder_is_refused() {
    let root = scratch("twice");
    for kind in [Kind::Simulate, Kind::Report, Kind::Sweep] {
        let out = root.join(format!("{kind:?}"));
        let w = writer(kind, &out);
        run_ok(&w.short);
        let before = snapshot(&out);
        let mut first = command(&w.long).spawn().unwrap();
        wait_for(&temp_of(&out, &first), &mut first);
        let started = Instant::now();
        let (status, _, stderr) = run(&mut command(&w.short));
        assert_eq!(status.code(), Some(2), "{kind:?}: {stderr}");
        assert!(stderr.contains("another playtest run is writing this folder") && stderr.contains(&format!("pid {}", first.id())), "{kind:?}: {stderr}");
        assert!(stderr.contains(&w.long[0]) && stderr.contains(LONG), "{kind:?}: the lock names the other command: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(20), "refused at once");
        assert!(out.join(".playtest.lock").exists(), "{kind:?}: the refused run leaves the first run's lock");
        signal(&first, libc::SIGINT);
        let (status, _, _) = finish(first);
        assert_eq!(status.code(), Some(130));
        assert_eq!(snapshot(&out), before, "{kind:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_read_only_folder_fails_before_the_run_and_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let root = scratch("readonly");
    let parent = root.join("parent");
    std::fs::create_dir_all(&parent).unwrap();
    for kind in [Kind::Simulate, Kind::Report, Kind::Compare, Kind::Sweep] {
        let out = parent.join(format!("{kind:?}"));
        let w = writer(kind, &out);
        run_ok(&w.short);
        let before = snapshot(&out);
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o555)).unwrap();
        std::fs::set_permissions(&parent, std::fs::Permissions::from_mode(0o555)).unwrap();
        let mut c = command(&w.long);
        // SAFETY: geteuid is async-signal-safe.
        if unsafe { libc::geteuid() } == 0 {
            // Root writes anywhere: run as `nobody`, for whom the folder is read-only.
            // SAFETY: setgid/setuid are async-signal-safe.
            unsafe {
                c.pre_exec(|| {
                    if libc::setgid(65534) != 0 || libc::setuid(65534) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let started = Instant::now();
        let output = match c.output() {
            Ok(o) => o,
            // As `nobody` the binary itself may be unreachable (a checkout inside a private
            // 0700 folder such as `mktemp -d`): nothing to test as another user here.
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                std::fs::set_permissions(&parent, std::fs::Permissions::from_mode(0o755)).unwrap();
                std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
                eprintln!("skipped: the binary cannot be run as nobody from this checkout ({e})");
                return;
            }
            Err(e) => panic!("the binary runs: {e}"),
        };
        let (status, stderr) = (output.status, String::from_utf8_lossy(&output.stderr).into_owned());
        std::fs::set_permissions(&parent, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(status.code(), Some(1), "{kind:?}: {stderr}");
        assert!(stderr.contains("cannot write") && stderr.contains("Permission denied") && stderr.contains(out.to_str().unwrap()), "{kind:?}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(20), "{kind:?}: fails before the (endless) run");
        assert_eq!(snapshot(&out), before, "{kind:?}");
        assert!(hidden(&out).is_empty() && hidden(&parent).is_empty(), "{kind:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Shards: a killed or interrupted shard leaves no `shard-*` file for merge to take; a merge
/// killed or interrupted leaves the previous merged result; a complete merge is whole.
#[test]
fn shards_appear_only_complete_and_merge_never_leaves_a_mix() {
    let root = scratch("shards");
    let shards = root.join("shards");
    let s = shards.to_str().unwrap();
    let shard = |k: &str, games: &str| args(&["simulate", PENNY, "--games", games, "--shard", k, "--out", s, "--json"]);
    run_ok(&shard("0/2", "4000"));
    run_ok(&shard("1/2", "4000"));
    let before = snapshot(&shards);
    // A second run of the same shard is refused; another shard may run at the same time.
    for (sig, delay) in [(libc::SIGINT, 100), (libc::SIGKILL, 100)] {
        let mut child = command(&shard("0/2", LONG)).spawn().unwrap();
        wait_for(&shards.join(format!(".shard-0-of-2.tmp-{}", child.id())), &mut child);
        let (status, _, stderr) = run(&mut command(&shard("0/2", "4000")));
        assert_eq!(status.code(), Some(2), "{stderr}");
        std::thread::sleep(Duration::from_millis(delay));
        signal(&child, sig);
        let (status, _, stderr) = finish(child);
        if sig == libc::SIGINT {
            assert_eq!(status.code(), Some(130), "{stderr}");
            assert!(hidden(&shards).is_empty(), "{:?}", hidden(&shards));
        }
        assert_eq!(snapshot(&shards), before, "signal {sig}: no shard file changes");
    }
    // Merging still sees exactly the two complete shards (the killed one's leftovers are hidden).
    let merged = root.join("merged");
    let m = merged.to_str().unwrap();
    run_ok(&args(&["merge", s, "--out", m]));
    let done = snapshot(&merged);
    assert_complete(Kind::Merge, &done);
    assert_eq!(json(&done["summary.json"])["games"], 4000);
    // Merge killed at moments spread over its run: the previous merged result or a complete one.
    for delay in [0u64, 5, 20, 60] {
        let child = command(&args(&["merge", s, "--out", m])).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        signal(&child, libc::SIGKILL);
        let _ = finish(child);
        assert_previous_or_complete(Kind::Merge, &merged, &done, &format!("merge killed after {delay} ms"));
    }
    // Into the shards' own folder: summary.json is renamed in, the shards stay.
    run_ok(&args(&["merge", s]));
    let now = snapshot(&shards);
    assert_eq!(json(&now["summary.json"])["games"], 4000);
    assert!(before.keys().all(|k| now[k] == before[k]), "the shards are untouched");
    let _ = std::fs::remove_dir_all(&root);
}
