//! Sharded runs: `--shard K/N` plays the games whose index i has i mod N = K (with the same
//! per-game seeds as one unsharded run) and saves the aggregate state as
//! `shard-K-of-N.json`; `playtest merge` loads a complete set of shards and adds them up.
//!
//! Every accumulator is exact (see [`crate::stats::Tally`]), so merged shards give the very
//! numbers of one unsharded run with the same seed and game count, in any merge order.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, MergeError};
use crate::stats::Tally;

/// Environment variables `--shard auto/N` reads the shard index from, in order: a Slurm job
/// array task and a Kubernetes Indexed Job pod.
pub const INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// Version tag of the shard state file; merge refuses any other.
pub const FORMAT: &str = "playtest-shard/1";

/// One shard of a run: games with index mod `count` == `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 0.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` or `auto/N`, reading the index of `auto` through `env` (a variable
    /// lookup, `std::env::var` in the binary) from [`INDEX_VARIABLES`].
    pub fn parse(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, Error> {
        let usage = |why: String| Error::Usage(format!("--shard {text}: {why}; expected K/N with 0 <= K < N, or auto/N"));
        let (k, n) = text.split_once('/').ok_or_else(|| usage("no `/`".into()))?;
        let count: u64 = n.trim().parse().map_err(|_| usage(format!("`{n}` is not a whole number")))?;
        if count == 0 {
            return Err(usage("N must be at least 1".into()));
        }
        let index: u64 = if k.trim() == "auto" {
            let found: Vec<(&str, String)> = INDEX_VARIABLES.iter().filter_map(|v| env(v).filter(|x| !x.trim().is_empty()).map(|x| (*v, x))).collect();
            let Some((var, value)) = found.first() else {
                return Err(usage(format!(
                    "`auto` needs {} to be set (as a Slurm job array or a Kubernetes Indexed Job sets it)",
                    INDEX_VARIABLES.join(" or ")
                )));
            };
            if let Some((other, v)) = found.iter().find(|(_, v)| v.trim() != value.trim()) {
                return Err(usage(format!("{var}={value} and {other}={v} disagree")));
            }
            value.trim().parse().map_err(|_| usage(format!("{var}={value} is not a whole number")))?
        } else {
            k.trim().parse().map_err(|_| usage(format!("`{k}` is not a whole number or `auto`")))?
        };
        if index >= count {
            return Err(usage(format!("shard {index} does not exist in {count} shards (they are numbered 0 to {})", count - 1)));
        }
        Ok(Shard { index, count })
    }

    /// Parses `K/N` or `auto/N` reading the process environment.
    pub fn from_arg(text: &str) -> Result<Shard, Error> {
        Shard::parse(text, &|v| std::env::var(v).ok())
    }

    /// The file stem `shard-K-of-N`.
    pub fn stem(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// Games of a run of `games` games that belong to this shard.
    pub fn games_of(&self, games: u64) -> u64 {
        games / self.count + u64::from(games % self.count > self.index)
    }
}

/// Which command wrote a shard: merging rebuilds that command's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// `simulate`: summary (and rows with `--out`).
    Simulate,
    /// `report`: summary, the game's metrics, charts and `report.md`.
    Report,
}

/// The saved state of one shard: what was played and the exact sums.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardState {
    /// [`FORMAT`].
    pub format: String,
    /// The command that played it.
    pub kind: RunKind,
    /// Which shard.
    pub shard: Shard,
    /// Game id.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// The variant file given on the command line (for messages).
    pub variant_path: PathBuf,
    /// The variant as played (after `extends` and `--set`): shards must agree on it.
    pub variant_toml: String,
    /// Variant description.
    pub description: String,
    /// Bot label per scored seat.
    pub bots: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Games of the whole run (all shards).
    pub games: u64,
    /// The unsharded command whose outputs the merged shards reproduce.
    pub command: String,
    /// Wall-clock seconds this shard took.
    pub seconds: f64,
    /// Exact aggregate of this shard's games.
    pub tally: Tally,
    /// The game's report metrics (`report` shards), from `Metrics::save_state`.
    pub metrics: Option<serde_json::Value>,
    /// The standing figures (`report` shards).
    #[serde(default)]
    pub standing: Option<crate::stats::StandingTally>,
    /// Sums of the per-game metric values (`report` shards), for the report's intervals.
    #[serde(default)]
    pub moments: Option<crate::stats::moments::Moments>,
}

impl ShardState {
    /// The file name this state is saved under in `dir`.
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.json", self.shard.stem()))
    }

    /// Writes the state as `shard-K-of-N.json` into `dir`; returns the path.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, Error> {
        let path = self.path_in(dir);
        let text = serde_json::to_string(self).map_err(|e| Error::output(&path, e))?;
        std::fs::write(&path, text + "\n").map_err(|e| Error::output(&path, e))?;
        Ok(path)
    }

    /// Reads a state file written by [`ShardState::save`].
    pub fn load(path: &Path) -> Result<ShardState, Error> {
        let bad = |why: String| Error::from(MergeError::BadShard { path: path.to_path_buf(), message: why });
        let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read: {e}")))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not a shard state file (JSON): {e}")))?;
        let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if format != FORMAT {
            return Err(bad(format!("format `{format}` is not `{FORMAT}`; merge shards written by the same playtest version")));
        }
        let state: ShardState = serde_json::from_value(value).map_err(|e| bad(format!("broken shard state: {e}")))?;
        if state.shard.count == 0 || state.shard.index >= state.shard.count {
            return Err(bad(format!("shard {}/{} does not exist", state.shard.index, state.shard.count)));
        }
        if state.tally.games != state.shard.games_of(state.games) {
            return Err(bad(format!(
                "holds {} games but shard {} of {} of a {}-game run has {}",
                state.tally.games,
                state.shard.index,
                state.shard.count,
                state.games,
                state.shard.games_of(state.games)
            )));
        }
        Ok(state)
    }
}

/// The shard state files named by `args`: files as given (a shard's `.csv` and `.parquet`
/// rows skipped), folders expanded to the `shard-*-of-*.json` files they hold (sorted by name).
pub fn expand_paths(args: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for a in args {
        if a.is_dir() {
            let entries = std::fs::read_dir(a).map_err(|e| MergeError::BadShard { path: a.clone(), message: format!("cannot list the folder: {e}") })?;
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("shard-") && n.ends_with(".json")))
                .collect();
            if found.is_empty() {
                return Err(MergeError::BadShard { path: a.clone(), message: "the folder holds no shard-K-of-N.json file".into() }.into());
            }
            found.sort();
            out.extend(found);
        } else if a.extension().is_some_and(|x| x == "csv" || x == "parquet") {
            // A shard's own rows (`playtest merge dir/shard-*` names them too): the states in
            // the `.json` files are what merges.
            continue;
        } else {
            out.push(a.clone());
        }
    }
    if out.is_empty() && !args.is_empty() {
        return Err(MergeError::BadShard {
            path: args[0].clone(),
            message: "no shard-K-of-N.json state file among the files given (rows alone cannot be merged)".into(),
        }
        .into());
    }
    Ok(out)
}

/// Checks that `states` are the complete set of shards of one run (same kind, game, variant,
/// bots, seed, game count and shard count; every index once) and returns them in index order.
pub fn check_set(mut states: Vec<(PathBuf, ShardState)>) -> Result<Vec<(PathBuf, ShardState)>, MergeError> {
    let Some((first_path, first)) = states.first().cloned() else {
        return Err(MergeError::NoShards);
    };
    for (path, s) in &states[1..] {
        let differ = |what: &str, a: String, b: String| MergeError::Mismatch {
            what: what.to_string(),
            first: first_path.clone(),
            first_value: a,
            other: path.clone(),
            other_value: b,
        };
        if s.kind != first.kind {
            return Err(differ("command", format!("{:?}", first.kind).to_lowercase(), format!("{:?}", s.kind).to_lowercase()));
        }
        if s.game != first.game || s.variant != first.variant {
            return Err(differ("variant", format!("{} / {}", first.game, first.variant), format!("{} / {}", s.game, s.variant)));
        }
        if s.variant_toml != first.variant_toml {
            return Err(differ("variant settings (file or --set)", first.variant_path.display().to_string(), s.variant_path.display().to_string()));
        }
        if s.bots != first.bots {
            return Err(differ("bots", first.bots.join(","), s.bots.join(",")));
        }
        if s.seed != first.seed {
            return Err(differ("seed", first.seed.to_string(), s.seed.to_string()));
        }
        if s.games != first.games {
            return Err(differ("game count", first.games.to_string(), s.games.to_string()));
        }
        if s.shard.count != first.shard.count {
            return Err(differ("shard count", first.shard.count.to_string(), s.shard.count.to_string()));
        }
    }
    let n = first.shard.count;
    states.sort_by_key(|(_, s)| s.shard.index);
    for pair in states.windows(2) {
        if pair[0].1.shard.index == pair[1].1.shard.index {
            return Err(MergeError::Repeated { index: pair[0].1.shard.index, count: n, first: pair[0].0.clone(), second: pair[1].0.clone() });
        }
    }
    let missing: Vec<u64> = (0..n).filter(|k| !states.iter().any(|(_, s)| s.shard.index == *k)).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count: n });
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn explicit_shards_parse_and_bad_ones_are_usage_errors() {
        assert_eq!(Shard::parse("3/8", &no_env).unwrap(), Shard { index: 3, count: 8 });
        assert_eq!(Shard::parse("0/1", &no_env).unwrap(), Shard { index: 0, count: 1 });
        for bad in ["8/8", "1/0", "x/2", "2", "-1/4", "1/two"] {
            let e = Shard::parse(bad, &no_env).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}: {e}");
            assert!(e.to_string().starts_with(&format!("--shard {bad}:")), "{e}");
        }
    }

    #[test]
    fn auto_reads_slurm_or_kubernetes_and_refuses_disagreement() {
        let slurm = |v: &str| (v == "SLURM_ARRAY_TASK_ID").then(|| "5".to_string());
        assert_eq!(Shard::parse("auto/8", &slurm).unwrap(), Shard { index: 5, count: 8 });
        let k8s = |v: &str| (v == "JOB_COMPLETION_INDEX").then(|| "2".to_string());
        assert_eq!(Shard::parse("auto/4", &k8s).unwrap(), Shard { index: 2, count: 4 });
        let e = Shard::parse("auto/4", &no_env).unwrap_err().to_string();
        assert!(e.contains("SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"), "{e}");
        let both = |v: &str| Some(if v == "SLURM_ARRAY_TASK_ID" { "1" } else { "2" }.to_string());
        assert!(Shard::parse("auto/4", &both).unwrap_err().to_string().contains("disagree"));
        assert!(Shard::parse("auto/4", &slurm).unwrap_err().to_string().contains("does not exist"));
    }

    #[test]
    fn shards_split_the_games_exactly() {
        for games in [0u64, 1, 7, 512, 1000, 1025] {
            for count in 1..6 {
                let total: u64 = (0..count).map(|index| Shard { index, count }.games_of(games)).sum();
                assert_eq!(total, games);
                for index in 0..count {
                    let played = (0..games).filter(|i| i % count == index).count() as u64;
                    assert_eq!(Shard { index, count }.games_of(games), played);
                }
            }
        }
    }
}
