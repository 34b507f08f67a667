//! Exact analysis: Take a Penny as an absorbing Markov chain (random, greedy or fixed-policy
//! seats) or a Markov decision process (one `best-response` seat), solved by value
//! iteration, and the `playtest exact` report built on it.
//!
//! A state is (pennies on every bank card, the pot, every player's last spot). Its values
//! are the expected number of rounds still to play and every bank card's expected win
//! share. Because the next state's last spots are exactly the spots chosen, the last spots
//! of the current state only remove one spot from each player's choices. So for each
//! penny distribution the solver gathers the successors of every joint action once (a
//! tensor with one axis per player) and contracts each axis into "every spot but y", giving
//! the values of all last-spot combinations at the cost of one. Gauss-Seidel sweeps run in
//! order of increasing pot (most rounds drain the pot) until no value changes by more than
//! [`TOLERANCE`]; the residual is reported.
//!
//! The turn cap is not modelled: the figures are those of the uncapped game (in the
//! bundled variants no game comes near the cap).
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub use crate::engine::exact::{ExactReport, ExactSeat, Headroom};

use super::params::{MAX_CARDS, Setup};
use super::rules::{self, NO_SPOT, SPOT_GIVE, SPOT_TAKE_FROM};
use super::{Action, bots, color};

/// Largest change of any value (rounds relative, shares absolute) at which iteration stops.
pub const TOLERANCE: f64 = 1e-13;
/// Most Gauss-Seidel sweeps before giving up.
pub const MAX_SWEEPS: u32 = 20_000;
/// Default largest state count the solver accepts (about 0.3 GB with 4 bank cards).
pub const DEFAULT_MAX_STATES: u64 = 5_000_000;
/// Most concrete actions of one player: 4 spots, 3 take_from, 3 give.
const MAX_ACTS: usize = 10;
/// Flag of a successor entry that ends the game (the rest is the final penny state).
const TERMINAL: u32 = 1 << 31;

/// How one player chooses, as the chain sees it.
#[derive(Clone, Debug)]
pub enum Model {
    /// Uniform over the legal actions (the `random` bot).
    Random,
    /// The deterministic `greedy` bot with this `zero_at`.
    Greedy(u32),
    /// Maximises its own expected win share (value iteration; at most one seat).
    Best,
}

/// Why the solver refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The state space is larger than allowed.
    TooBig {
        /// States the chain would have.
        states: u64,
        /// Memory it would take, in bytes.
        bytes: u64,
        /// The limit in force.
        max_states: u64,
    },
    /// Iteration did not settle (a policy that can loop forever).
    NoConvergence {
        /// Sweeps done.
        sweeps: u32,
        /// Last largest change.
        residual: f64,
    },
    /// More than one seat maximises.
    TwoBest,
    /// From some position the expected length passes the turn cap: with these bots the
    /// uncapped game can go on forever (deterministic bots can cycle).
    Endless {
        /// The turn cap.
        cap: u32,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooBig { states, bytes, max_states } => write!(
                f,
                "the state space is too big for an exact solve: {states} states (about {:.1} GB of memory) > the limit of {max_states}; \
                 raise it with --max-states {states} if the machine has the memory, or use simulate",
                *bytes as f64 / 1e9
            ),
            Refusal::NoConvergence { sweeps, residual } => {
                write!(f, "value iteration did not settle after {sweeps} sweeps (largest change {residual:e}): some policy can make the game endless")
            }
            Refusal::Endless { cap } => write!(
                f,
                "with these bots some positions never end (their expected length passes the turn cap of {cap} rounds: deterministic bots can cycle); \
                 the exact solver models the game without a cap, so use simulate"
            ),
            Refusal::TwoBest => write!(f, "at most one seat may be `best-response` in an exact solve (two optimising seats make a game, not a Markov chain)"),
        }
    }
}

/// A deterministic policy of one seat over every state of a set-up.
#[derive(Debug)]
pub struct Policy {
    seat: usize,
    index: Index,
    /// Action code per state (transient penny state x last-spot code).
    codes: Vec<u8>,
    /// Action code in the first round (no last spots yet).
    first: u8,
}

impl Policy {
    /// The seat it plays.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The policy's action for `seat`'s view of the table, if the view is a state it knows.
    pub fn action(&self, pennies: &[u32; MAX_CARDS], pot: u32, last: &[u8; MAX_CARDS]) -> Option<Action> {
        let n = self.index.setup.players;
        if last[..n].contains(&NO_SPOT) {
            return Some(Action::from_code(self.first));
        }
        let t = self.index.transient_of(pennies, pot)?;
        let l = self.index.last_code(last)?;
        self.codes.get(t * self.index.lc + l).map(|&c| Action::from_code(c))
    }
}

/// Numbering of the states of one set-up.
#[derive(Debug)]
struct Index {
    setup: Setup,
    /// Spots per player (cards + 4: 4 fixed, one take_from per other card, give).
    s: usize,
    /// Last-spot combinations: s^players.
    lc: usize,
    /// Pennies per card and pot of each penny state.
    pennies: Vec<[u32; MAX_CARDS]>,
    pots: Vec<u32>,
    /// (T+1)^cards table from the cards' pennies to the penny state.
    dense: Vec<u32>,
    /// Transient (pot >= 1) number of each penny state, or u32::MAX.
    transient: Vec<u32>,
    /// Penny state of each transient number.
    of_transient: Vec<u32>,
}

/// Number of penny distributions of `total` over `bins` bins: C(total + bins - 1, bins - 1).
fn compositions(total: u64, bins: u64) -> u64 {
    let mut c: u128 = 1;
    for i in 1..bins {
        c = c * (total as u128 + i as u128) / i as u128;
        if c > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    c as u64
}

/// (states, bytes) of the chain of `setup`, before building anything.
pub fn size(setup: &Setup) -> (u64, u64) {
    let cards = setup.cards as u64;
    let total = setup.total as u64;
    // Transient penny states: pot >= 1, i.e. distributions of total - 1 over cards + 1 bins.
    let transient = compositions(total.saturating_sub(1), cards + 1);
    let lc = (cards + 4).saturating_pow(setup.players as u32);
    let states = transient.saturating_mul(lc).saturating_add(1);
    // Values (1 + cards f64), one policy byte, and the successor table (4 bytes per joint action).
    let joint = (MAX_ACTS as u64).saturating_pow(setup.players as u32);
    let bytes = states.saturating_mul((1 + cards) * 8 + 1).saturating_add(transient.saturating_mul(joint).saturating_mul(4));
    (states, bytes)
}

impl Index {
    fn new(setup: &Setup) -> Index {
        let cards = setup.cards;
        let t = setup.total as usize;
        let s = cards + 4;
        let lc = s.pow(setup.players as u32);
        let mut dense = vec![u32::MAX; (t + 1).pow(cards as u32)];
        let mut pennies = Vec::new();
        let mut pots = Vec::new();
        let mut p = [0u32; MAX_CARDS];
        loop {
            let on_cards: u32 = p.iter().sum();
            if on_cards as usize <= t {
                dense[Self::key(&p, cards, t)] = pennies.len() as u32;
                pennies.push(p);
                pots.push(setup.total - on_cards);
            }
            // Odometer over cards' pennies 0..=t.
            let mut c = 0;
            loop {
                if c == cards {
                    break;
                }
                p[c] += 1;
                if p[c] as usize <= t {
                    break;
                }
                p[c] = 0;
                c += 1;
            }
            if c == cards {
                break;
            }
        }
        let mut transient = vec![u32::MAX; pennies.len()];
        let mut of_transient = Vec::new();
        for (i, &pot) in pots.iter().enumerate() {
            if pot >= 1 {
                transient[i] = of_transient.len() as u32;
                of_transient.push(i as u32);
            }
        }
        Index { setup: *setup, s, lc, pennies, pots, dense, transient, of_transient }
    }

    #[inline]
    fn key(p: &[u32; MAX_CARDS], cards: usize, t: usize) -> usize {
        let mut k = 0;
        for c in (0..cards).rev() {
            k = k * (t + 1) + p[c] as usize;
        }
        k
    }

    #[inline]
    fn penny_state(&self, p: &[u32; MAX_CARDS]) -> usize {
        self.dense[Self::key(p, self.setup.cards, self.setup.total as usize)] as usize
    }

    fn transient_of(&self, p: &[u32; MAX_CARDS], pot: u32) -> Option<usize> {
        let t = self.setup.total;
        if p.iter().sum::<u32>() + pot != t || p[self.setup.cards..].iter().any(|&x| x != 0) {
            return None;
        }
        let i = self.penny_state(p);
        self.transient.get(i).copied().filter(|&x| x != u32::MAX).map(|x| x as usize)
    }

    /// Local spot number (0..s) of a global spot of `seat`.
    #[inline]
    fn local(&self, seat: usize, spot: u8) -> usize {
        match spot {
            0..=3 => spot as usize,
            SPOT_GIVE => self.s - 1,
            _ => {
                let c = (spot - SPOT_TAKE_FROM) as usize;
                4 + if c < seat { c } else { c - 1 }
            }
        }
    }

    /// Global spot of a local spot number of `seat`.
    fn global(&self, seat: usize, local: usize) -> u8 {
        match local {
            0..=3 => local as u8,
            l if l == self.s - 1 => SPOT_GIVE,
            l => {
                let c = l - 4;
                SPOT_TAKE_FROM + if c < seat { c } else { c + 1 } as u8
            }
        }
    }

    fn last_code(&self, last: &[u8; MAX_CARDS]) -> Option<usize> {
        let mut code = 0;
        for seat in (0..self.setup.players).rev() {
            let spot = last[seat];
            if spot == NO_SPOT || ((SPOT_TAKE_FROM..SPOT_GIVE).contains(&spot) && (spot - SPOT_TAKE_FROM) as usize == seat) {
                return None;
            }
            code = code * self.s + self.local(seat, spot);
        }
        Some(code)
    }
}

/// One transient penny state: each player's concrete actions and its successor block.
struct Node {
    dims: [usize; MAX_CARDS],
    codes: [[u8; MAX_ACTS]; MAX_CARDS],
    spots: [[u8; MAX_ACTS]; MAX_CARDS],
    /// Greedy's action index per last local spot (index s: first round).
    greedy: [[u8; MAX_ACTS]; MAX_CARDS],
    offset: usize,
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Expected rounds from the start.
    pub expected_rounds: f64,
    /// Expected win share of every bank card (ties shared), dummy included.
    pub win_share: Vec<f64>,
    /// States of the chain (the start included).
    pub states: u64,
    /// Gauss-Seidel sweeps.
    pub sweeps: u32,
    /// Largest change in the last sweep.
    pub residual: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The maximising seat's policy (with a `Best` seat).
    pub policy: Option<Arc<Policy>>,
}

/// Solves the chain of `setup` with one model per player.
pub fn solve(setup: &Setup, models: &[Model], max_states: u64) -> Result<Solution, Refusal> {
    let started = Instant::now();
    let n = setup.players;
    assert_eq!(models.len(), n, "one model per player");
    if models.iter().filter(|m| matches!(m, Model::Best)).count() > 1 {
        return Err(Refusal::TwoBest);
    }
    let (states, bytes) = size(setup);
    if states > max_states {
        return Err(Refusal::TooBig { states, bytes, max_states });
    }
    let best = models.iter().position(|m| matches!(m, Model::Best));
    let index = Index::new(setup);
    let cards = setup.cards;
    let k = 1 + cards;
    let s = index.s;
    let lc = index.lc;
    let (nodes, succ) = build_nodes(setup, &index, models);
    let terminal = terminal_values(&index, cards);
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&t| index.pots[index.of_transient[t] as usize]);
    let out_of = contracted_codes(n, s, lc);
    let mut values = vec![0.0f64; nodes.len() * lc * k];
    let mut work = Work::default();
    let trace = std::env::var_os("PLAYTEST_EXACT_TRACE").is_some();
    let ctx = Sweeper {
        nodes: &nodes,
        succ: &succ,
        terminal: &terminal,
        order: &order,
        out_of: &out_of,
        models,
        best,
        n,
        s,
        k,
        lc,
        cap: setup.turn_cap,
        trace,
        started,
    };
    let mut sweeps = 0;
    let mut choices: Option<Vec<Vec<u8>>> = None;
    if let Some(b) = best {
        let (more, all) = ctx.freeze_best(&mut values, &mut work, b)?;
        sweeps += more;
        choices = Some(all);
    }
    // Phase 2 (or the only phase): every value of the chain with every policy fixed.
    let (more, residual) = ctx.iterate(&mut values, &mut work, choices.as_deref(), None)?;
    sweeps += more;
    // The first round (no last spots).
    let start = index.penny_state(&setup.start);
    let t0 = index.transient[start] as usize;
    let none = out_of_none(n, s);
    let pick = |t: usize| choices.as_ref().map_or(Pick::Max, |c| Pick::Fixed(&c[t]));
    let out = work.contract(&nodes[t0], &succ, &values, &terminal, models, best, n, s, k, pick(t0));
    let first_values = out[none * k..(none + 1) * k].to_vec();
    let policy = match (best, &choices) {
        (Some(b), Some(choices)) => Some(Arc::new(ctx.policy(index, b, choices, t0, none))),
        _ => None,
    };
    Ok(Solution {
        expected_rounds: first_values[0],
        win_share: first_values[1..].to_vec(),
        states,
        sweeps,
        residual,
        seconds: started.elapsed().as_secs_f64(),
        policy,
    })
}

/// Every transient penny state's actions per player and the successor of each of its joint
/// actions (all in one list, each node's from its `offset`).
fn build_nodes(setup: &Setup, index: &Index, models: &[Model]) -> (Vec<Node>, Vec<u32>) {
    let mut nodes = Vec::with_capacity(index.of_transient.len());
    let mut succ: Vec<u32> = Vec::new();
    let mut acts: Vec<Action> = Vec::with_capacity(MAX_ACTS);
    for &pi in &index.of_transient {
        let node = node_actions(setup, index, models, pi as usize, succ.len(), &mut acts);
        push_successors(setup.players, index, &node, pi as usize, &mut succ);
        nodes.push(node);
    }
    (nodes, succ)
}

/// The players' legal actions in penny state `pi`: codes, local spots, and greedy's choice per
/// last spot for a greedy seat; its successors start at `offset`.
fn node_actions(setup: &Setup, index: &Index, models: &[Model], pi: usize, offset: usize, acts: &mut Vec<Action>) -> Node {
    let p = index.pennies[pi];
    let pot = index.pots[pi];
    let s = index.s;
    let mut node =
        Node { dims: [1; MAX_CARDS], codes: [[0; MAX_ACTS]; MAX_CARDS], spots: [[0; MAX_ACTS]; MAX_CARDS], greedy: [[0; MAX_ACTS]; MAX_CARDS], offset };
    for seat in 0..setup.players {
        acts.clear();
        rules::legal_actions(setup, &p, pot, seat, NO_SPOT, acts);
        node.dims[seat] = acts.len();
        for (i, a) in acts.iter().enumerate() {
            node.codes[seat][i] = a.code();
            node.spots[seat][i] = index.local(seat, rules::spot(*a)) as u8;
        }
        if let Model::Greedy(zero_at) = models[seat] {
            for y in 0..=s {
                let last = if y == s { NO_SPOT } else { index.global(seat, y) };
                let g = bots::greedy_choice(setup, &p, pot, seat, last, zero_at);
                node.greedy[seat][y] = acts.iter().position(|&a| a == g).expect("greedy chooses a legal action") as u8;
            }
        }
    }
    node
}

/// Appends the successor of every joint action of `node` (penny state `pi`), seat 0's action
/// fastest: the final penny state, or the transient one with the players' last spots.
fn push_successors(n: usize, index: &Index, node: &Node, pi: usize, succ: &mut Vec<u32>) {
    let (p, pot, s, lc) = (index.pennies[pi], index.pots[pi], index.s, index.lc);
    // Odometer over the joint actions, seat 0 fastest.
    let total: usize = node.dims[..n].iter().product();
    let mut c = [0usize; MAX_CARDS];
    let mut actions = [Action::BlockSelf; MAX_CARDS];
    for _ in 0..total {
        let mut code = 0;
        for seat in (0..n).rev() {
            actions[seat] = Action::from_code(node.codes[seat][c[seat]]);
            code = code * s + node.spots[seat][c[seat]] as usize;
        }
        let mut q = p;
        let mut qpot = pot;
        rules::resolve_quick(n, &mut q, &mut qpot, &actions);
        let qi = index.penny_state(&q);
        succ.push(if qpot == 0 { TERMINAL | qi as u32 } else { (index.transient[qi] as usize * lc + code) as u32 });
        for seat in 0..n {
            c[seat] += 1;
            if c[seat] < node.dims[seat] {
                break;
            }
            c[seat] = 0;
        }
    }
}

/// Values of the final penny states: rounds 0 (the +1 is added on gathering), then each
/// card's win share (ties shared).
fn terminal_values(index: &Index, cards: usize) -> Vec<[f64; MAX_CARDS]> {
    index
        .pennies
        .iter()
        .map(|p| {
            let w = rules::winners(&p[..cards]);
            let k = w.count_ones() as f64;
            std::array::from_fn(|c| if w & (1 << c) != 0 { 1.0 / k } else { 0.0 })
        })
        .collect()
}

/// Map from a last-spot code (base s, seat 0 lowest) to the contracted tensor (base s+1).
fn contracted_codes(n: usize, s: usize, lc: usize) -> Vec<usize> {
    (0..lc)
        .map(|mut l| {
            let mut o = 0;
            let mut w = 1;
            for _ in 0..n {
                o += (l % s) * w;
                l /= s;
                w *= s + 1;
            }
            o
        })
        .collect()
}

/// How the maximising seat's action is picked in a contraction.
enum Pick<'a> {
    /// The best for its share (value iteration).
    Max,
    /// The best, written down per tensor entry.
    Record(&'a mut Vec<u8>),
    /// As written down before (policy evaluation).
    Fixed(&'a [u8]),
}

/// Everything a Gauss-Seidel sweep needs.
struct Sweeper<'a> {
    nodes: &'a [Node],
    succ: &'a [u32],
    terminal: &'a [[f64; MAX_CARDS]],
    order: &'a [usize],
    out_of: &'a [usize],
    models: &'a [Model],
    best: Option<usize>,
    n: usize,
    s: usize,
    k: usize,
    lc: usize,
    cap: u32,
    trace: bool,
    started: Instant,
}

impl Sweeper<'_> {
    /// Sweeps until no value (only value `only` when given) moves by more than
    /// [`TOLERANCE`]; returns the sweeps and the last residual.
    fn iterate(&self, values: &mut [f64], work: &mut Work, choices: Option<&[Vec<u8>]>, only: Option<usize>) -> Result<(u32, f64), Refusal> {
        let (k, lc) = (self.k, self.lc);
        let mut sweeps = 0;
        let mut residual = f64::INFINITY;
        while residual > TOLERANCE {
            if sweeps >= MAX_SWEEPS {
                return Err(Refusal::NoConvergence { sweeps, residual });
            }
            residual = 0.0;
            for &t in self.order {
                let pick = choices.map_or(Pick::Max, |c| Pick::Fixed(&c[t]));
                let out = work.contract(&self.nodes[t], self.succ, values, self.terminal, self.models, self.best, self.n, self.s, k, pick);
                let row = &mut values[t * lc * k..(t + 1) * lc * k];
                for (l, &o) in self.out_of.iter().enumerate() {
                    let new = &out[o * k..(o + 1) * k];
                    let old = &mut row[l * k..(l + 1) * k];
                    let d = match only {
                        Some(j) => (new[j] - old[j]).abs(),
                        None => {
                            let mut d = (new[0] - old[0]).abs() / new[0].abs().max(1.0);
                            for j in 1..k {
                                d = d.max((new[j] - old[j]).abs());
                            }
                            d
                        }
                    };
                    residual = residual.max(d);
                    old.copy_from_slice(new);
                }
            }
            sweeps += 1;
            if self.trace {
                eprintln!("sweep {sweeps}: residual {residual:e}, {:.2} s", self.started.elapsed().as_secs_f64());
            }
            if only.is_none() && values.iter().step_by(k).any(|&r| r > self.cap as f64) {
                return Err(Refusal::Endless { cap: self.cap });
            }
        }
        Ok((sweeps, residual))
    }

    /// Phase 1 with a maximising seat `b`: value iteration of its share alone (its maximum
    /// converges whatever near-tied action is picked), then its choice per tensor entry of
    /// every node is written down (frozen). Returns the sweeps and the choices.
    fn freeze_best(&self, values: &mut [f64], work: &mut Work, b: usize) -> Result<(u32, Vec<Vec<u8>>), Refusal> {
        let sweeps = self.iterate(values, work, None, Some(1 + b))?.0;
        let mut all = Vec::with_capacity(self.nodes.len());
        for node in self.nodes {
            let mut choice = Vec::new();
            work.contract(node, self.succ, values, self.terminal, self.models, self.best, self.n, self.s, self.k, Pick::Record(&mut choice));
            all.push(choice);
        }
        Ok((sweeps, all))
    }

    /// Seat `b`'s frozen policy as action codes per (transient penny state, last spots), with
    /// its first-round action from node `t0`'s entry `none`.
    fn policy(&self, index: Index, b: usize, choices: &[Vec<u8>], t0: usize, none: usize) -> Policy {
        let lc = self.lc;
        let first = self.nodes[t0].codes[b][choices[t0][none] as usize];
        let mut codes = vec![0u8; self.nodes.len() * lc];
        for (t, node) in self.nodes.iter().enumerate() {
            for (l, &o) in self.out_of.iter().enumerate() {
                codes[t * lc + l] = node.codes[b][choices[t][o] as usize];
            }
        }
        Policy { seat: b, index, codes, first }
    }
}

/// Index of "every player in its first round" in the contracted tensor.
fn out_of_none(n: usize, s: usize) -> usize {
    (0..n).fold(0, |acc, _| acc * (s + 1) + s)
}

/// One player's axis of the tensor being contracted.
#[derive(Clone, Copy)]
struct Axis<'a> {
    /// The local spot of each of the player's actions.
    spots: &'a [u8; MAX_ACTS],
    /// The player's number of actions (the axis' length before).
    d: usize,
    /// Values per step along the axis (the axes before it times k).
    inner: usize,
    /// Product of the axes after it.
    outer: usize,
    /// Spots per player (the axis' length after is s + 1).
    s: usize,
}

/// Scratch buffers of the contraction, reused across penny states.
#[derive(Default)]
struct Work {
    a: Vec<f64>,
    b: Vec<f64>,
    sums: Vec<f64>,
}

impl Work {
    /// Gathers the successor values of every joint action of `node` and contracts every
    /// player's axis into "last spot y" (y = s: first round). Returns the tensor with one
    /// axis of s + 1 per player (seat 0 fastest) and `k` values per entry. With `choice`, the
    /// maximising seat's chosen action index per entry is written there.
    #[allow(clippy::too_many_arguments)]
    fn contract(
        &mut self,
        node: &Node,
        succ: &[u32],
        values: &[f64],
        terminal: &[[f64; MAX_CARDS]],
        models: &[Model],
        best: Option<usize>,
        n: usize,
        s: usize,
        k: usize,
        pick: Pick<'_>,
    ) -> &[f64] {
        let total: usize = node.dims[..n].iter().product();
        self.a.clear();
        self.a.reserve(total * k);
        for &e in &succ[node.offset..node.offset + total] {
            if e & TERMINAL != 0 {
                let w = &terminal[(e & !TERMINAL) as usize];
                self.a.push(1.0);
                self.a.extend_from_slice(&w[..k - 1]);
            } else {
                let v = &values[e as usize * k..e as usize * k + k];
                self.a.push(1.0 + v[0]);
                self.a.extend_from_slice(&v[1..]);
            }
        }
        let mut shape = node.dims;
        let seats = (0..n).filter(|&i| Some(i) != best).chain(best);
        let mut pick = pick;
        for seat in seats {
            let d = shape[seat];
            let inner = k * shape[..seat].iter().product::<usize>();
            let outer: usize = shape[seat + 1..n].iter().product();
            self.b.clear();
            self.b.resize(outer * (s + 1) * inner, 0.0);
            let g = Axis { spots: &node.spots[seat], d, inner, outer, s };
            match &models[seat] {
                Model::Random => self.contract_random(&g),
                Model::Greedy(_) => self.contract_greedy(&g, &node.greedy[seat]),
                Model::Best => self.contract_best(&g, 1 + seat, k, &mut pick),
            }
            shape[seat] = s + 1;
            std::mem::swap(&mut self.a, &mut self.b);
        }
        &self.a
    }

    /// A random player's axis: entry y averages its actions whose spot is not y (it never
    /// repeats its last spot), entry s all of them (first round).
    #[inline]
    fn contract_random(&mut self, g: &Axis) {
        let Axis { spots, d, inner, outer, s } = *g;
        let mut count = [0usize; MAX_ACTS + 1];
        for &sp in &spots[..d] {
            count[sp as usize] += 1;
        }
        self.sums.clear();
        self.sums.resize((s + 1) * inner, 0.0);
        for o in 0..outer {
            self.sums.iter_mut().for_each(|x| *x = 0.0);
            for c in 0..d {
                let src = &self.a[(o * d + c) * inner..(o * d + c + 1) * inner];
                let sp = spots[c] as usize;
                for (x, &v) in self.sums[sp * inner..(sp + 1) * inner].iter_mut().zip(src) {
                    *x += v;
                }
                for (x, &v) in self.sums[s * inner..(s + 1) * inner].iter_mut().zip(src) {
                    *x += v;
                }
            }
            for y in 0..=s {
                let dst = &mut self.b[(o * (s + 1) + y) * inner..(o * (s + 1) + y + 1) * inner];
                let all = &self.sums[s * inner..(s + 1) * inner];
                if y == s {
                    let inv = 1.0 / d as f64;
                    for (x, &t) in dst.iter_mut().zip(all) {
                        *x = t * inv;
                    }
                } else {
                    let inv = 1.0 / (d - count[y]) as f64;
                    let own = &self.sums[y * inner..(y + 1) * inner];
                    for ((x, &t), &m) in dst.iter_mut().zip(all).zip(own) {
                        *x = (t - m) * inv;
                    }
                }
            }
        }
    }

    /// A greedy player's axis: entry y is its greedy choice after last spot y.
    #[inline]
    fn contract_greedy(&mut self, g: &Axis, greedy: &[u8; MAX_ACTS]) {
        let Axis { d, inner, outer, s, .. } = *g;
        for o in 0..outer {
            for y in 0..=s {
                let c = greedy[y] as usize;
                let src = (o * d + c) * inner;
                let dst = (o * (s + 1) + y) * inner;
                self.b[dst..dst + inner].copy_from_slice(&self.a[src..src + inner]);
            }
        }
    }

    /// The maximising player's axis (value `key` is its share): entry y is its best action
    /// whose spot is not y, as `pick` says (the best, written down, or as written before).
    #[inline]
    fn contract_best(&mut self, g: &Axis, key: usize, k: usize, pick: &mut Pick<'_>) {
        let Axis { spots, d, inner, outer, s } = *g;
        let rest = inner / k;
        if let Pick::Record(ch) = &mut *pick {
            ch.clear();
            ch.resize(outer * (s + 1) * rest, 0);
        }
        for o in 0..outer {
            for r in 0..rest {
                for y in 0..=s {
                    // Highest own share; among near-ties the shortest game (so the
                    // policy never prolongs a game for nothing), then the first action.
                    let mut max = f64::NEG_INFINITY;
                    for c in 0..d {
                        if spots[c] as usize != y {
                            max = max.max(self.a[(o * d + c) * inner + r * k + key]);
                        }
                    }
                    let entry = (o * (s + 1) + y) * rest + r;
                    if let Pick::Fixed(table) = &*pick {
                        let c = table[entry] as usize;
                        let src = (o * d + c) * inner + r * k;
                        let dst = entry * k;
                        self.b[dst..dst + k].copy_from_slice(&self.a[src..src + k]);
                        continue;
                    }
                    let mut c = usize::MAX;
                    for i in 0..d {
                        let at = (o * d + i) * inner + r * k;
                        if spots[i] as usize != y && self.a[at + key] >= max - 1e-12 && (c == usize::MAX || self.a[at] < self.a[(o * d + c) * inner + r * k]) {
                            c = i;
                        }
                    }
                    let src = (o * d + c) * inner + r * k;
                    let dst = (o * (s + 1) + y) * inner + r * k;
                    self.b[dst..dst + k].copy_from_slice(&self.a[src..src + k]);
                    if let Pick::Record(ch) = &mut *pick {
                        ch[entry] = c as u8;
                    }
                }
            }
        }
    }
}

/// Every `best-response` policy computed so far, by (set-up, seat, opponent model).
static POLICIES: OnceLock<Mutex<PolicyCache>> = OnceLock::new();

/// (set-up, seat, `vs`) to the policy.
type PolicyCache = HashMap<(Setup, usize, u32), Arc<Policy>>;

/// The exact best response of `seat` when every other player plays `vs` (0 = random,
/// 1 = greedy with default parameters), computed once per process and shared.
pub fn best_response_policy(setup: &Setup, seat: usize, vs: u32) -> Result<Arc<Policy>, Refusal> {
    let cache = POLICIES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = map.get(&(*setup, seat, vs)) {
        return Ok(p.clone());
    }
    let models: Vec<Model> = (0..setup.players)
        .map(|i| {
            if i == seat {
                Model::Best
            } else if vs == 0 {
                Model::Random
            } else {
                Model::Greedy(bots::GREEDY_DEFAULT_ZERO_AT)
            }
        })
        .collect();
    let sol = solve(setup, &models, DEFAULT_MAX_STATES)?;
    let policy = sol.policy.expect("a Best seat yields a policy");
    map.insert((*setup, seat, vs), policy.clone());
    Ok(policy)
}

/// The `vs` of a `best-response` bot label, `None` for other bots.
pub fn best_response_vs(game: &super::TakeAPenny, label: &str) -> Option<u32> {
    match model_of(game, label) {
        Ok((None, vs)) => vs,
        _ => None,
    }
}

/// A seat's bot as the exact solver understands it, parsed from its canonical label.
fn model_of(game: &super::TakeAPenny, label: &str) -> Result<(Option<Model>, Option<u32>), String> {
    let spec = crate::engine::BotSpec::parse(label).map_err(|e| e.to_string())?;
    let infos = crate::engine::all_bots(game);
    let (info, values) = spec.resolve(&infos).map_err(|e| e.to_string())?;
    Ok(match info.name {
        "random" => (Some(Model::Random), None),
        "greedy" => (Some(Model::Greedy(values[0] as u32)), None),
        "best-response" => (None, Some(values[0] as u32)),
        other => return Err(format!("bot `{other}` has no exact model")),
    })
}

/// The `best-response` seats of a line-up, each with its `vs` (0 = random, 1 = greedy).
type BestSeats = Vec<(usize, u32)>;

/// Each player seat's model from its bot label, a `best-response` seat counted as random for
/// now, and the best-response seats with their `vs`; at most one best-response seat.
fn seat_models(game: &super::TakeAPenny, labels: &[String], n: usize) -> Result<(Vec<Model>, BestSeats), String> {
    let mut models = Vec::with_capacity(n);
    let mut best_seats = Vec::new();
    for (seat, label) in labels.iter().enumerate().take(n) {
        match model_of(game, label)? {
            (Some(m), _) => models.push(m),
            (None, Some(vs)) => {
                best_seats.push((seat, vs));
                models.push(Model::Random);
            }
            _ => unreachable!(),
        }
    }
    if best_seats.len() > 1 {
        return Err(Refusal::TwoBest.to_string());
    }
    Ok((models, best_seats))
}

/// The exact report of `game` (its setup, its bots) with one bot label per player (`random`, `greedy...`, or
/// `best-response...`). Headroom is computed for seat 0 when all play random (every player
/// seat has the same by symmetry),
/// and for the best-response seat otherwise.
pub fn report(game: &super::TakeAPenny, variant: &str, labels: &[String], max_states: u64) -> Result<ExactReport, String> {
    let started = Instant::now();
    let setup = &game.setup;
    let n = setup.players;
    let (mut models, best_seats) = seat_models(game, labels, n)?;
    let all_random = models.iter().all(|m| matches!(m, Model::Random)) && best_seats.is_empty();
    let refuse = |r: Refusal| r.to_string();
    let random_models: Vec<Model> = (0..n).map(|_| Model::Random).collect();
    let random = solve(setup, &random_models, max_states).map_err(refuse)?;
    let main = match best_seats.first() {
        None if all_random => random.clone(),
        None => solve(setup, &models, max_states).map_err(refuse)?,
        Some(&(seat, vs)) => {
            let assumed_matches = models.iter().enumerate().all(|(i, m)| {
                i == seat || matches!((m, vs), (Model::Random, 0)) || matches!((m, vs), (Model::Greedy(z), 1) if *z == bots::GREEDY_DEFAULT_ZERO_AT)
            });
            if !assumed_matches {
                return Err(format!(
                    "seat {seat} plays best-response:vs={vs}, the best response to {} opponents, but the other seats are {}; \
                     an exact solve needs them to be what it assumes",
                    if vs == 0 { "random" } else { "greedy" },
                    labels.iter().enumerate().filter(|(i, _)| *i != seat).map(|(_, l)| l.as_str()).collect::<Vec<_>>().join(", ")
                ));
            }
            models[seat] = Model::Best;
            solve(setup, &models, max_states).map_err(refuse)?
        }
    };
    let mut headroom = Vec::new();
    // Players are interchangeable (simultaneous choices, equal starts), so with every seat
    // random the headroom of seat 0 is that of every player seat.
    let head_seats: Vec<usize> = if all_random { vec![0] } else { best_seats.iter().filter(|b| b.1 == 0).map(|b| b.0).collect() };
    for seat in head_seats {
        let br = if !all_random {
            main.clone()
        } else {
            let mut m: Vec<Model> = (0..n).map(|_| Model::Random).collect();
            m[seat] = Model::Best;
            solve(setup, &m, max_states).map_err(refuse)?
        };
        headroom.push(Headroom {
            seat,
            best_response_share: br.win_share[seat],
            random_share: random.win_share[seat],
            headroom: br.win_share[seat] - random.win_share[seat],
        });
    }
    let seats = (0..setup.cards)
        .map(|c| ExactSeat {
            seat: c,
            color: color(c).to_string(),
            bot: labels.get(c).filter(|_| c < n).cloned().unwrap_or_else(|| "dummy".into()),
            win_share: main.win_share[c],
        })
        .collect();
    Ok(ExactReport {
        game: <super::TakeAPenny as crate::engine::Game>::INFO.id.to_string(),
        variant: variant.to_string(),
        expected_length: main.expected_rounds,
        length_unit: "rounds".into(),
        seats,
        states: main.states,
        sweeps: main.sweeps,
        residual: main.residual,
        seconds: started.elapsed().as_secs_f64(),
        skill_headroom: headroom,
        note: format!("exact values of the game without the turn cap ({} rounds), iterated until no value moved by more than {TOLERANCE:e}", setup.turn_cap),
    })
}
