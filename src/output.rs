//! Writers of run outputs: one row per game as Parquet and CSV (through polars), and JSON.
//! Paths are checked before the long run so a bad `--out` fails fast. [`stream`] writes the
//! rows ([`rows_frame`]) a row group at a time as a run goes, so no command holds them all. Every output folder is written through
//! [`atomic::OutputDir`] (a lock, a temporary folder, a commit by rename). [`trace_file`]
//! writes and reads JSON trace files, gzip-compressed or plain.

pub mod atomic;
pub mod shown;
pub mod stream;
pub mod trace_file;

use std::path::Path;

use polars::prelude::*;

use crate::error::Error;
use crate::sim::GameRow;

/// `value` as one line of JSON (what `--json` prints); a value that cannot be serialised is an
/// error, never an empty line.
pub fn json_line<T: serde::Serialize>(value: &T) -> Result<String, Error> {
    serde_json::to_string(value).map_err(|e| Error::output(Path::new("<stdout>"), e))
}

/// Prints `value` as one line of JSON on standard output.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Error> {
    println!("{}", json_line(value)?);
    Ok(())
}

/// Writes `value` as pretty JSON to `path` (the one writer of `summary.json` and the other JSON
/// files); a value that cannot be serialised is an error, never an empty file.
pub fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Error::output(path, e))?;
    std::fs::write(path, text + "\n").map_err(|e| Error::output(path, e))
}

/// A run stopped by Ctrl-C (or SIGTERM) before its end: how many games it played of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// Games played (every figure of a partial result covers exactly these).
    pub played: u64,
    /// Games asked for (`None` for a `--precision` run, which had no fixed count).
    pub asked: Option<u64>,
}

impl Partial {
    /// The line that marks a partial result on the terminal, in `report.md` and `index.html`.
    pub fn banner(&self) -> String {
        let of = self.asked.map(|a| format!(" of {a}")).unwrap_or_default();
        format!("PARTIAL RESULT: stopped by an interrupt after {}{of} games; every figure and interval covers those {} games only", self.played, self.played)
    }

    /// Adds `"partial": true`, `"games_played"` and `"games_asked"` to a JSON object.
    pub fn mark(&self, value: &mut serde_json::Value) {
        if let Some(map) = value.as_object_mut() {
            map.insert("partial".into(), true.into());
            map.insert("games_played".into(), self.played.into());
            map.insert("games_asked".into(), self.asked.map_or(serde_json::Value::Null, Into::into));
        }
    }
}

/// `value` as JSON, marked partial when `partial` is given.
pub fn marked<T: serde::Serialize>(value: &T, partial: Option<&Partial>) -> Result<serde_json::Value, Error> {
    let mut v = serde_json::to_value(value).map_err(|e| Error::output(Path::new("<json>"), e))?;
    if let Some(p) = partial {
        p.mark(&mut v);
    }
    Ok(v)
}

/// Writes `summary.json` into `dir`, without the machine-dependent `games_per_second` (it
/// stays in `simulate --json`), so a report regenerated on another machine is identical.
pub fn write_summary(dir: &Path, summary: &crate::stats::summary::Summary) -> Result<std::path::PathBuf, Error> {
    write_summary_marked(dir, summary, None)
}

/// As [`write_summary`], marked partial (`"partial": true` and the game counts) when
/// `partial` is given.
pub fn write_summary_marked(dir: &Path, summary: &crate::stats::summary::Summary, partial: Option<&Partial>) -> Result<std::path::PathBuf, Error> {
    write_summary_described(dir, summary, partial, serde_json::Map::new())
}

/// As [`write_summary_marked`], with `figures` (what each figure of the report means: its
/// description and unit, by name) under the key `figures` when it is not empty.
pub fn write_summary_described(
    dir: &Path,
    summary: &crate::stats::summary::Summary,
    partial: Option<&Partial>,
    figures: serde_json::Map<String, serde_json::Value>,
) -> Result<std::path::PathBuf, Error> {
    let path = dir.join("summary.json");
    let mut value = serde_json::to_value(summary).map_err(|e| Error::output(&path, e))?;
    if let Some(map) = value.as_object_mut() {
        map.shift_remove("games_per_second");
        if !figures.is_empty() {
            map.insert("figures".into(), serde_json::Value::Object(figures));
        }
    }
    if let Some(p) = partial {
        p.mark(&mut value);
    }
    write_json(&path, &value)?;
    Ok(path)
}

/// What the rows need to be readable: seat bots and end-reason names.
pub struct RowContext<'a> {
    /// Scored seats.
    pub seats: usize,
    /// Bot label per seat.
    pub seat_bots: &'a [String],
    /// End-reason names.
    pub end_reasons: &'a [&'a str],
}

/// The rows as a polars frame: game index, seed, length, end reason, winners, and per seat
/// the bot, final score, win credit and elimination turn (null when never eliminated).
pub fn rows_frame(rows: &[GameRow], ctx: &RowContext<'_>) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = vec![
        Column::new("game".into(), rows.iter().map(|r| r.index).collect::<Vec<u64>>()),
        Column::new("seed".into(), rows.iter().map(|r| r.seed).collect::<Vec<u64>>()),
        Column::new("length".into(), rows.iter().map(|r| r.outcome.length).collect::<Vec<u32>>()),
        Column::new("end_reason".into(), rows.iter().map(|r| ctx.end_reasons[r.outcome.end_reason as usize]).collect::<Vec<&str>>()),
        Column::new(
            "winners".into(),
            rows.iter()
                .map(|r| (0..ctx.seats).filter(|s| r.outcome.winners & (1 << s) != 0).map(|s| s.to_string()).collect::<Vec<_>>().join(";"))
                .collect::<Vec<String>>(),
        ),
    ];
    for s in 0..ctx.seats {
        let bot = ctx.seat_bots.get(s).map(String::as_str).unwrap_or("dummy");
        columns.push(Column::new(format!("seat{s}_bot").into(), vec![bot; rows.len()]));
        columns.push(Column::new(format!("seat{s}_score").into(), rows.iter().map(|r| r.outcome.scores[s]).collect::<Vec<i64>>()));
        columns.push(Column::new(format!("seat{s}_win").into(), rows.iter().map(|r| r.outcome.win_share(s)).collect::<Vec<f64>>()));
        columns.push(Column::new(
            format!("seat{s}_eliminated_turn").into(),
            rows.iter().map(|r| Some(r.outcome.eliminated_at[s]).filter(|&t| t > 0)).collect::<Vec<Option<u32>>>(),
        ));
    }
    DataFrame::new(rows.len(), columns)
}
