//! The designer's loop: `compare` (two variants or line-ups on common random numbers),
//! `sweep` (one or two keys over values, charted), `check` (invariants and `[expect]` bounds,
//! a CI gate), `--precision` (play until an interval is narrow enough) and `tune` (search the
//! values of some keys that meet the `[expect]` bounds).
//!
//! Everything here is generic over the game: metrics come from [`metrics::Catalogue`], games
//! are played by [`runner`] in the simulator's deterministic batches.

pub mod audit;
pub mod bot_keys;
pub mod check;
pub mod compare;
pub mod interrupted;
pub mod metrics;
pub mod precision;
pub mod runner;
pub mod sweep;
pub mod tables;
pub mod tune;

use crate::engine::BotSpec;
use crate::error::Error;
use crate::games::{GameHandle, SeatedGame};
use crate::variant::Variant;

/// The run flags every designer command shares.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Games per arm (or per value).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Check invariants after every action.
    pub checked: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Seat rotation (`--rotate`; a variant's `rotate = true` turns it on too).
    pub rotate: bool,
}

/// Parses `--bots SPEC[,SPEC...]` (`flag` names the flag in errors).
pub fn parse_bots(text: Option<&str>, flag: &str) -> Result<Option<Vec<BotSpec>>, Error> {
    let Some(text) = text else { return Ok(None) };
    let specs = text.split(',').map(|s| BotSpec::parse(s).map_err(|e| Error::Usage(format!("{flag}: {e}")))).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(specs))
}

/// `game` with the bots of `variant` seated, `bots` (a `--bots` value) overriding the
/// variant's; `flag` names the flag in errors.
pub fn seat<'a>(game: &'a dyn GameHandle, variant: &Variant, bots: Option<&str>, flag: &str) -> Result<Box<dyn SeatedGame + 'a>, Error> {
    let specs = parse_bots(bots, flag)?;
    game.seat(variant, specs.as_deref()).map_err(|e| match e {
        Error::Usage(m) if flag != "--bots" => Error::Usage(m.replace("--bots", flag)),
        e => e,
    })
}

/// Writes `text` to `path`, naming the file in the error.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| Error::output(path, e))
}

/// `n` with thousands separators (10,240).
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_groups_digits() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(10_240), "10,240");
        assert_eq!(super::thousands(1_234_567), "1,234,567");
    }
}
