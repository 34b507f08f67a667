//! The exact report: a variant solved exactly (expected length, every seat's win share, the
//! skill headroom) rather than estimated by simulation. The type is the engine's, so that any
//! game with an exact solver fills the same report and the commands print it the same way.

use serde::Serialize;

/// One seat of an exact report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ExactSeat {
    /// Seat number (in Take a Penny: the bank card, dummy included).
    pub seat: usize,
    /// The seat's name at the table (in Take a Penny: its color).
    pub color: String,
    /// Its bot (`dummy` for the dummy card).
    pub bot: String,
    /// Exact expected win share (ties shared).
    pub win_share: f64,
}

/// Skill headroom of one player seat: what an optimal player gains over a random one.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Headroom {
    /// Player seat.
    pub seat: usize,
    /// Its exact win share playing the best response against random opponents.
    pub best_response_share: f64,
    /// Its exact win share playing random against random opponents.
    pub random_share: f64,
    /// The difference: the variant's skill headroom for that seat.
    pub headroom: f64,
}

/// The exact solution of one variant for one line-up: what `playtest exact` prints (and emits
/// with `--json`), for any game with an exact solver (the registry's `exact`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ExactReport {
    /// Game id.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Exact expected game length.
    pub expected_length: f64,
    /// Its unit ([`super::Game::length_unit`]: "rounds").
    pub length_unit: String,
    /// One entry per scored seat, dummy seats included.
    pub seats: Vec<ExactSeat>,
    /// States of the chain solved for these bots.
    pub states: u64,
    /// Gauss-Seidel sweeps of that solve.
    pub sweeps: u32,
    /// Largest value change in its last sweep (the numerical error bound of the iteration).
    pub residual: f64,
    /// Wall-clock seconds of every solve of this report.
    pub seconds: f64,
    /// Skill headroom per player seat (best response vs random, others random).
    pub skill_headroom: Vec<Headroom>,
    /// What the figures mean.
    pub note: String,
}

impl ExactReport {
    /// The report as a readable table.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} / {}: exact solve ({} states, {} sweeps, residual {:.1e}, {:.2} s)",
            self.game, self.variant, self.states, self.sweeps, self.residual, self.seconds
        );
        let _ = writeln!(out, "expected length: {:.6} {}", self.expected_length, self.length_unit);
        let _ = writeln!(out, "\n| seat | color | bot | exact win share |");
        let _ = writeln!(out, "|---:|---|---|---:|");
        for s in &self.seats {
            let _ = writeln!(out, "| {} | {} | {} | {:.4}% |", s.seat, s.color, s.bot, s.win_share * 100.0);
        }
        if !self.skill_headroom.is_empty() {
            let _ = writeln!(out, "\nskill headroom (best response minus random, opponents random; players are interchangeable):");
            for h in &self.skill_headroom {
                let _ = writeln!(
                    out,
                    "  seat {}: {:.4}% - {:.4}% = {:+.4} points",
                    h.seat,
                    h.best_response_share * 100.0,
                    h.random_share * 100.0,
                    h.headroom * 100.0
                );
            }
        }
        let _ = writeln!(out, "{}", self.note);
        out
    }
}
