//! `playtest watch` driven by file writes: the first report, a save that changes a number (the
//! page shows what moved), a bad edit (the error on the terminal and in the page, the last good
//! report kept), then Ctrl-C ends it with exit 0. Every wait is bounded.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn version(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join("report-version.js")).ok()
}

/// Waits (at most 90 s) until the report's version differs from `old`; returns the new one.
fn next_version(dir: &Path, old: Option<&str>) -> String {
    let start = Instant::now();
    loop {
        if let Some(v) = version(dir)
            && Some(v.as_str()) != old
        {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(90), "no new report in {} within 90 s", dir.display());
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn watch_rewrites_the_report_on_save_shows_what_moved_and_keeps_the_last_good_report_on_a_bad_edit() {
    let d: PathBuf = std::env::temp_dir().join(format!("playtest-watch-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let standard = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/pig-farm/standard.toml");
    let head = format!("extends = {:?}\nname = \"w\"\n", standard.display().to_string());
    let file = d.join("v.toml");
    std::fs::write(&file, &head).unwrap();
    let out = d.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_playtest"))
        .args(["watch", file.to_str().unwrap(), "--games", "512", "--out", out.to_str().unwrap(), "--quiet", "--debounce-ms", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let first = next_version(&out, None);
    assert!(first.starts_with("playtestReportVersion(\"1-"), "{first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("First report of this watch") && page.contains("report-version.js?t="), "{page}");
    // A save that sells three sets for 0 points instead of 30: seat 0's wins move.
    std::fs::write(&file, format!("{head}[scoring.seller]\n3 = 0\n")).unwrap();
    let second = next_version(&out, Some(&first));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("What moved since the previous save") && page.contains("seat0_mean_score"), "{page}");
    // A bad edit: the error is shown in the page, above the last good report, which is kept.
    std::fs::write(&file, format!("{head}players = 99\n")).unwrap();
    let third = next_version(&out, Some(&second));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("The variant has an error") && page.contains("99 players is not allowed"), "{page}");
    assert!(page.contains("What moved") || page.contains("seat_win_shares.png"), "the last good report stays below: {page}");
    assert!(out.join("summary.json").exists() && out.join("seat_win_shares.png").exists());
    assert!(third.contains("\"3-"), "{third}");
    // Ctrl-C ends it cleanly.
    // SAFETY: sends SIGINT to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("watch did not end within 30 s of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("99 players is not allowed"), "{stderr}");
    assert!(stdout.contains("stopped watching"), "{stdout}");
    let _ = std::fs::remove_dir_all(&d);
}
