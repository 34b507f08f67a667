//! The Bluffing Joker board and its move rules: peg positions, the track occupancy, homes,
//! and for each declared value the moves that are legal (passing, landing, the teammate
//! chain to the in-spot, home entry by exact count, the split 7, the 8 backwards and the
//! joker's jump), each with its effect on every peg it touches.
//!
//! Nothing here allocates: candidate moves are handed to a visitor one by one.

use std::ops::ControlFlow;

use super::params::{MAX_PEGS, MAX_PLAYERS, MAX_TRACK, SevenSplit};

/// A peg position: a track hole `0..track`, a home depth `HOME + k` (k = 1 is the first
/// home hole), or [`START`].
pub type Pos = u8;
/// A peg in its start area.
pub const START: Pos = 255;
/// Home depth k is `HOME + k`.
pub const HOME: Pos = 200;
/// No peg (the unused second peg of a split that ended the game).
pub const NONE: Pos = 254;

/// Whether `p` is a track hole.
#[inline]
pub fn on_track(p: Pos) -> bool {
    p < HOME
}

/// Whether `p` is a home hole.
#[inline]
pub fn in_home(p: Pos) -> bool {
    p > HOME && p < NONE
}

/// `x` modulo `n` for `x < 2n`, without a division (seat and hole arithmetic in the hot
/// loops).
#[inline(always)]
pub fn wrap(x: usize, n: usize) -> usize {
    if x >= n { x - n } else { x }
}

/// Readable position: `hole 17`, `home 2`, `start`.
pub fn pos_name(p: Pos) -> String {
    match p {
        START => "start".into(),
        NONE => "none".into(),
        p if in_home(p) => format!("home {}", p - HOME),
        p => format!("hole {p}"),
    }
}

/// serde of a board position by name: `#[serde(with = "by_pos")]`.
pub mod by_pos {
    use super::{HOME, NONE, Pos, START, pos_name};

    /// Writes the position's name.
    pub fn serialize<S: serde::Serializer>(p: &Pos, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&pos_name(*p))
    }

    /// Reads a position's name.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
        let n = <String as serde::Deserialize>::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("unknown position `{n}`; positions are `start`, `hole N`, `home N` or `none`"));
        match n.as_str() {
            "start" => Ok(START),
            "none" => Ok(NONE),
            _ => {
                if let Some(h) = n.strip_prefix("hole ") {
                    h.parse::<u8>().ok().filter(|&h| h < HOME).ok_or_else(bad)
                } else if let Some(d) = n.strip_prefix("home ") {
                    d.parse::<u8>().ok().filter(|&d| d > 0 && d < NONE - HOME).map(|d| HOME + d).ok_or_else(bad)
                } else {
                    Err(bad())
                }
            }
        }
    }
}

/// One move for a declared value; pegs are named by their position before the move
/// (trace notation: the `trace` module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// A peg from start to the come-out hole (ace, jack, queen, king).
    ComeOut,
    /// One peg forward by `steps` (the whole value).
    Forward {
        /// The peg's position.
        #[serde(with = "by_pos")]
        from: Pos,
        /// Holes moved.
        steps: u8,
    },
    /// One peg 8 holes backward along the track.
    Back {
        /// The peg's track hole.
        #[serde(with = "by_pos")]
        from: Pos,
    },
    /// A 7 split over two different pegs, the first part made first; the second peg is one
    /// of the pegs the player moves after the first part (a teammate's when the first part
    /// brought its last peg home); `second` is [`NONE`] when the first part ended the game.
    Split {
        /// The first peg's position.
        #[serde(with = "by_pos")]
        first: Pos,
        /// Its holes.
        a: u8,
        /// The second peg's position (before the first part), or [`NONE`].
        #[serde(with = "by_pos")]
        second: Pos,
        /// Its holes.
        b: u8,
    },
    /// The joker: a peg from start or the track jumps onto the track hole `to`, which holds
    /// another player's peg.
    Jump {
        /// The peg's position (start or track).
        #[serde(with = "by_pos")]
        from: Pos,
        /// The target hole.
        #[serde(with = "by_pos")]
        to: Pos,
    },
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Move::ComeOut => write!(f, "a peg comes out"),
            Move::Forward { from, steps } => write!(f, "{} forward {steps}", pos_name(from)),
            Move::Back { from } => write!(f, "{} back 8", pos_name(from)),
            Move::Split { first, a, second: NONE, .. } => write!(f, "{} forward {a} (game over)", pos_name(first)),
            Move::Split { first, a, second, b } => write!(f, "{} forward {a}, then {} forward {b}", pos_name(first), pos_name(second)),
            Move::Jump { from, to } => write!(f, "{} jumps to hole {to}", pos_name(from)),
        }
    }
}

/// The pegs of every player and what stands where (public: the whole board is visible).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Each player's peg positions (the first `pegs` entries are used).
    pub pegs: [[Pos; MAX_PEGS]; MAX_PLAYERS],
    /// Track occupancy: 0 empty, else owner + 1.
    pub occ: [u8; MAX_TRACK],
    /// Each player's home: bit k set when depth k holds a peg.
    pub home: [u16; MAX_PLAYERS],
    /// Each player's pegs in home.
    pub home_count: [u8; MAX_PLAYERS],
}

/// Whose pegs a seat moves, where they stand and how far they reach: what every move
/// enumeration of one board and seat starts from ([`Geometry::movers`]).
#[derive(Clone, Copy)]
pub struct Movers {
    /// The player whose pegs move.
    pub m: usize,
    /// Its pegs on the track and in home, ascending ([`Geometry::placed`]), without the
    /// pegs settled at the bottom of the home ([`Geometry::movers`]): no move moves those.
    placed: [Pos; MAX_PEGS],
    /// Entries of `placed` used.
    n: usize,
    /// Their reach.
    reach: Reach,
}

/// How far each of a player's placed pegs may move forward, computed once per enumeration
/// so that [`Geometry::forward_target`] needs no walk along the track (see
/// [`Geometry::forward_reach`]).
#[derive(Clone, Copy)]
struct Reach {
    /// By slot of the placed pegs: for a track peg, the holes to the next own track peg
    /// ahead (a move must be shorter); for a home peg, the deepest depth it may reach.
    lim: [u8; MAX_PEGS],
    /// The shallowest own home depth taken (`home` + 1 when none): entry must be shallower.
    home_low: u8,
    /// How many of the placed pegs are on the track (the first ones).
    on_track: usize,
    /// The most holes any placed home peg may move (0 when none may): a longer move lists
    /// only the track pegs.
    home_most: u8,
}

/// A split's second part scored on the board before the first part.
#[derive(Clone, Copy)]
enum SecondPart {
    /// No such move.
    Illegal,
    /// It lands on a teammate's peg: its chain is computed on the board after the first part.
    Teammate,
    /// Legal, with this score.
    Score(i32),
}

/// The second parts (slot in the mover's placed pegs, b) scored on the board before the first
/// part, computed when first needed.
type SecondParts = [[Option<SecondPart>; 7]; MAX_PEGS];

/// A split's first part, chosen and scored, handed to [`Geometry::splits_after`].
struct FirstPart<'a> {
    /// Its peg's slot in the mover's placed pegs.
    slot: usize,
    /// The peg it moves.
    peg: Pos,
    /// How many holes it moves.
    a: u8,
    /// Where the peg lands.
    to: Pos,
    /// Its score.
    score: i32,
    /// Its step when a teammate's chain was built; a simple landing has none.
    step: Option<&'a Step>,
}

impl FirstPart<'_> {
    /// Whether `hit` holds for a track hole the first part changes: where its peg left and
    /// landed, and every hole of a teammate's chain (an opponent it lands on goes to start,
    /// off the track).
    #[inline(always)]
    fn touches(&self, hit: impl Fn(Pos) -> bool) -> bool {
        let track_hit = |p: Pos| on_track(p) && hit(p);
        track_hit(self.peg) || track_hit(self.to) || self.step.is_some_and(|s| s.chain.items().iter().any(|d| track_hit(d.from) || track_hit(d.to)))
    }
}

/// The fixed geometry of one variant's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Players (colors).
    pub players: usize,
    /// Holes on the track.
    pub track: usize,
    /// Holes in each home.
    pub home: u8,
    /// Pegs per player.
    pub pegs: usize,
    /// Each player's come-out hole.
    pub come: [Pos; MAX_PLAYERS],
    /// Each player's in-spot.
    pub spot: [Pos; MAX_PLAYERS],
    /// How a 7 splits.
    pub split: SevenSplit,
    /// [`Geometry::progress`] of every color and position, filled by [`Geometry::new`].
    prog: Box<[[i16; 256]; MAX_PLAYERS]>,
}

/// One peg displaced by a landing: its owner, index, hole and where it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Displaced {
    /// Owner.
    pub color: u8,
    /// Index in the owner's pegs.
    pub index: u8,
    /// The hole it stood on.
    pub from: Pos,
    /// Where it goes ([`START`] or the owner's in-spot).
    pub to: Pos,
}

/// The pegs a landing displaces, in chain order (a teammate to its in-spot may displace
/// the peg standing there, and so on).
#[derive(Clone, Copy, Debug, Default)]
pub struct Chain {
    /// Entries used.
    pub len: u8,
    /// The displaced pegs.
    pub items: [Displaced; MAX_PLAYERS + 2],
}

impl Chain {
    /// The displaced pegs.
    #[inline]
    pub fn items(&self) -> &[Displaced] {
        &self.items[..self.len as usize]
    }
}

/// What one move part does: the peg moved (color, index, from, to) and the landing chain.
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    /// Owner of the moving peg.
    pub color: u8,
    /// Its index.
    pub index: u8,
    /// Where it stood.
    pub from: Pos,
    /// Where it goes.
    pub to: Pos,
    /// Pegs displaced by its landing.
    pub chain: Chain,
}

impl Geometry {
    /// The geometry of `players` sides of `side` holes with each player's come-out hole and
    /// in-spot at `come_out` and `in_spot` of its side, `home` home holes and `pegs` pegs.
    pub fn new(players: usize, side: usize, come_out: usize, in_spot: usize, home: u8, pegs: usize, split: SevenSplit) -> Geometry {
        let mut come = [0; MAX_PLAYERS];
        let mut spot = [0; MAX_PLAYERS];
        for p in 0..players {
            come[p] = (side * p + come_out) as Pos;
            spot[p] = (side * p + in_spot) as Pos;
        }
        let mut g = Geometry { players, track: side * players, home, pegs, come, spot, split, prog: Box::new([[0; 256]; MAX_PLAYERS]) };
        let mut prog = [[0i16; 256]; MAX_PLAYERS];
        for (color, row) in prog.iter_mut().enumerate().take(players) {
            for (p, x) in row.iter_mut().enumerate() {
                let p = p as Pos;
                if p == START || (p as usize) < g.track || (in_home(p) && p - HOME <= home) {
                    *x = g.progress_by_rule(color, p) as i16;
                }
            }
        }
        g.prog = Box::new(prog);
        g
    }

    /// Team of a player (seat i is in team i mod 2).
    #[inline]
    pub fn team(&self, color: usize) -> usize {
        color & 1
    }

    /// Holes from track hole `h` forward to `color`'s in-spot (0 on it).
    #[inline]
    pub fn to_spot(&self, color: usize, h: Pos) -> usize {
        let d = self.spot[color] as usize + self.track - h as usize;
        if d >= self.track { d - self.track } else { d }
    }

    /// A peg's progress for its owner: 0 in start; on the track `track` minus the holes
    /// left to its in-spot; in home `track` + depth. Every forward hole adds one (home
    /// entry included) until the in-spot is passed on the track.
    #[inline]
    pub fn progress(&self, color: usize, p: Pos) -> i32 {
        self.prog[color][p as usize] as i32
    }

    /// [`Geometry::progress`] by the rule itself: the one definition, from which the table
    /// [`Geometry::progress`] reads is built once per variant.
    pub fn progress_by_rule(&self, color: usize, p: Pos) -> i32 {
        if p == START {
            0
        } else if in_home(p) {
            (self.track + (p - HOME) as usize) as i32
        } else {
            (self.track - self.to_spot(color, p)) as i32
        }
    }

    /// The board at the start: every peg in start.
    pub fn empty_board(&self) -> Board {
        Board { pegs: [[START; MAX_PEGS]; MAX_PLAYERS], occ: [0; MAX_TRACK], home: [0; MAX_PLAYERS], home_count: [0; MAX_PLAYERS] }
    }

    /// Whether every peg of `color` is home.
    #[inline]
    pub fn finished(&self, b: &Board, color: usize) -> bool {
        b.home_count[color] as usize == self.pegs
    }

    /// Whether every peg of `team` is home.
    pub fn team_finished(&self, b: &Board, team: usize) -> bool {
        (team..self.players).step_by(2).all(|c| self.finished(b, c))
    }

    /// Whose pegs `seat` moves: its own, or when all are home those of the nearest teammate
    /// clockwise with any peg not home; `None` when its whole team is home.
    #[inline]
    pub fn mover(&self, b: &Board, seat: usize) -> Option<usize> {
        let mut c = seat;
        for _ in 0..self.players / 2 {
            if !self.finished(b, c) {
                return Some(c);
            }
            c = wrap(c + 2, self.players);
        }
        None
    }

    /// Index of `color`'s peg at `p` (any start peg for [`START`]).
    #[inline]
    pub fn peg_at(&self, b: &Board, color: usize, p: Pos) -> Option<usize> {
        b.pegs[color][..self.pegs].iter().position(|&q| q == p)
    }

    /// `color`'s distinct peg positions on the track and in home, ascending; returns how
    /// many were written. A bit per position (a player's pegs off start stand on distinct
    /// holes), read back lowest first: no comparisons to mispredict, unlike a sort.
    /// `placed_plain` (tests) is the insertion sort it is checked against.
    #[inline]
    pub fn placed(&self, b: &Board, color: usize, out: &mut [Pos; MAX_PEGS]) -> usize {
        let mut words = [0u64; 4];
        for &p in &b.pegs[color][..self.pegs] {
            words[(p >> 6) as usize] |= 1 << (p & 63);
        }
        // START is the last position (255): its bit is not a placed peg.
        const _: () = assert!(START == 255);
        words[3] &= !(1 << 63);
        let mut n = 0;
        for (w, mut bits) in words.into_iter().enumerate() {
            while bits != 0 {
                out[n] = ((w as u32) << 6 | bits.trailing_zeros()) as Pos;
                bits &= bits - 1;
                n += 1;
            }
        }
        n
    }

    /// [`Geometry::placed`] by insertion sort (the reference it is tested against).
    #[cfg(test)]
    pub fn placed_plain(&self, b: &Board, color: usize, out: &mut [Pos; MAX_PEGS]) -> usize {
        let mut n = 0;
        for &p in &b.pegs[color][..self.pegs] {
            if p != START {
                let mut i = n;
                while i > 0 && out[i - 1] > p {
                    out[i] = out[i - 1];
                    i -= 1;
                }
                out[i] = p;
                n += 1;
            }
        }
        n
    }

    /// Whether `color` has a peg in start.
    #[inline]
    #[allow(clippy::manual_contains, reason = "a plain scan of a few pegs, without the call to memchr that contains makes")]
    pub fn has_start_peg(&self, b: &Board, color: usize) -> bool {
        // A plain scan: `contains` on bytes calls `memchr`, which costs more than the few
        // pegs it scans.
        b.pegs[color][..self.pegs].iter().any(|&p| p == START)
    }

    /// Whether the `n` track holes after `h` (forward, or backward when `back`) hold no peg
    /// of `color`.
    #[inline]
    pub(crate) fn path_clear(&self, b: &Board, color: usize, h: Pos, n: usize, back: bool) -> bool {
        let own = color as u8 + 1;
        let t = self.track;
        let h = h as usize;
        // A plain scan (`contains` on bytes calls `memchr`, dearer for a few holes).
        let none = |holes: &[u8]| holes.iter().all(|&o| o != own);
        if back {
            // Holes h − n .. h − 1, wrapping below 0.
            if h >= n { none(&b.occ[h - n..h]) } else { none(&b.occ[..h]) && none(&b.occ[t + h - n..t]) }
        } else {
            // Holes h + 1 ..= h + n, wrapping at the end of the track.
            let end = h + 1 + n;
            if end <= t { none(&b.occ[h + 1..end]) } else { none(&b.occ[h + 1..t]) && none(&b.occ[..end - t]) }
        }
    }

    /// [`Geometry::path_clear`] hole by hole (the reference it is tested against).
    #[cfg(test)]
    pub(crate) fn path_clear_plain(&self, b: &Board, color: usize, h: Pos, n: usize, back: bool) -> bool {
        let own = color as u8 + 1;
        let t = self.track;
        let mut x = h as usize;
        for _ in 0..n {
            x = if back {
                if x == 0 { t - 1 } else { x - 1 }
            } else if x + 1 == t {
                0
            } else {
                x + 1
            };
            if b.occ[x] == own {
                return false;
            }
        }
        true
    }

    /// Where a forward move of `v` takes `color`'s peg at `from` (track or home), or `None`
    /// when it passes or lands on an own peg or overshoots the home: docs/games/bluffing-joker.md's home rule
    /// (enter home at depth v − d when the peg is d <= v − 1 holes before its in-spot, that
    /// hole exists and no own home peg is at or before it; otherwise go on around).
    #[inline]
    pub fn forward_target(&self, b: &Board, color: usize, from: Pos, v: u8) -> Option<Pos> {
        let v = v as usize;
        if in_home(from) {
            let e = (from - HOME) as usize;
            let to = e + v;
            if to > self.home as usize {
                return None;
            }
            let mask = ((1u32 << (to + 1)) - 1) & !((1u32 << (e + 1)) - 1);
            return (b.home[color] as u32 & mask == 0).then_some(HOME + to as u8);
        }
        if !on_track(from) {
            return None;
        }
        let d = self.to_spot(color, from);
        if d < v {
            if !self.path_clear(b, color, from, d, false) {
                return None;
            }
            let k = v - d;
            if k <= self.home as usize && (b.home[color] as u32) & ((1u32 << (k + 1)) - 1) == 0 {
                return Some(HOME + k as u8);
            }
        }
        if !self.path_clear(b, color, from, v, false) {
            return None;
        }
        let to = from as usize + v;
        Some(if to >= self.track { to - self.track } else { to } as Pos)
    }

    /// Where 8 backward takes `color`'s track peg at `from`, or `None` when an own peg is
    /// in the way or on the target.
    #[inline]
    pub fn back_target(&self, b: &Board, color: usize, from: Pos) -> Option<Pos> {
        if !on_track(from) || !self.path_clear(b, color, from, 8, true) {
            return None;
        }
        Some(((from as usize + self.track - 8) % self.track) as Pos)
    }

    /// The pegs displaced when `color`'s peg `index` leaves `from` and lands on track hole
    /// `x`; `false` when some peg would land on a peg of its own color (the move is
    /// illegal). docs/games/bluffing-joker.md: an opponent's peg goes to its start; a teammate's to its
    /// in-spot, displacing whatever stands there the same way.
    pub fn landing(&self, b: &Board, color: usize, index: usize, from: Pos, x: Pos, chain: &mut Chain) -> bool {
        chain.len = 0;
        // Fast paths: an empty hole, or an opponent's peg sent to its start.
        let first = b.occ[x as usize];
        if first == 0 {
            return true;
        }
        if self.team((first - 1) as usize) != self.team(color) {
            let c = (first - 1) as usize;
            chain.items[0] = Displaced { color: c as u8, index: self.peg_at(b, c, x).unwrap_or(0) as u8, from: x, to: START };
            chain.len = 1;
            return true;
        }
        // Arrivals so far (hole, color, index): the latest one at a hole is what stands there.
        let mut arrivals = [(0u8, 0u8, 0u8); MAX_PLAYERS + 3];
        arrivals[0] = (x, color as u8, index as u8);
        let team = self.team(color);
        let (mut a_color, mut at) = (color, x);
        for n_arr in 1..MAX_PLAYERS + 3 {
            // What stood at `at` before the peg of `a_color` arrived there.
            let mut occupant: Option<(usize, usize)> = None;
            let mut found = false;
            for &(h, c, i) in arrivals[..n_arr - 1].iter().rev() {
                if h == at {
                    occupant = Some((c as usize, i as usize));
                    found = true;
                    break;
                }
            }
            if !found {
                let o = b.occ[at as usize];
                if o != 0 && !(on_track(from) && at == from) {
                    let c = (o - 1) as usize;
                    let i = self.peg_at(b, c, at).unwrap_or(0);
                    // A peg that already left this hole in the chain is not there any more.
                    let left = chain.items().iter().any(|d| d.from == at);
                    if !left {
                        occupant = Some((c, i));
                    }
                }
            }
            let Some((c, i)) = occupant else {
                return true;
            };
            if c == a_color {
                return false;
            }
            let k = chain.len as usize;
            if self.team(c) != team {
                chain.items[k] = Displaced { color: c as u8, index: i as u8, from: at, to: START };
                chain.len += 1;
                return true;
            }
            let y = self.spot[c];
            if y == at {
                return false;
            }
            chain.items[k] = Displaced { color: c as u8, index: i as u8, from: at, to: y };
            chain.len += 1;
            arrivals[n_arr] = (y, c as u8, i as u8);
            a_color = c;
            at = y;
        }
        false
    }

    /// The step of one move part of `color`'s peg at `from` to `to`, or `None` when its
    /// landing is illegal.
    #[inline]
    pub fn step(&self, b: &Board, color: usize, from: Pos, to: Pos) -> Option<Step> {
        let index = self.peg_at(b, color, from)?;
        let mut step = Step { color: color as u8, index: index as u8, from, to, chain: Chain::default() };
        if on_track(to) && !self.landing(b, color, index, from, to, &mut step.chain) {
            return None;
        }
        Some(step)
    }

    /// The score of one move part of `color`'s peg from `from` to `to` when its landing is
    /// simple (home, an empty hole, or an opponent's peg sent to start), without building
    /// its [`Step`]: `Ok(score)`; `Err(true)` when it lands on a teammate (the chain must
    /// be built, [`Geometry::part_score`]); `Err(false)` when it lands on an own peg
    /// (illegal).
    #[inline(always)]
    fn simple_score(&self, b: &Board, color: usize, from: Pos, to: Pos) -> Result<i32, bool> {
        let moved = self.progress(color, to) - self.progress(color, from);
        if !on_track(to) {
            return Ok(moved);
        }
        match b.occ[to as usize] {
            0 => Ok(moved),
            o if (o - 1) as usize == color => Err(false),
            o if self.team((o - 1) as usize) != self.team(color) => Ok(moved + self.progress((o - 1) as usize, to)),
            _ => Err(true),
        }
    }

    /// [`Geometry::step_score`] of [`Geometry::step`] (`None` when the landing is illegal),
    /// building the step only for a landing on a teammate.
    #[inline(always)]
    fn part_score(&self, b: &Board, color: usize, from: Pos, to: Pos) -> Option<i32> {
        match self.simple_score(b, color, from, to) {
            Ok(score) => Some(score),
            Err(false) => None,
            Err(true) => self.step(b, color, from, to).map(|s| self.step_score(&s)),
        }
    }

    /// Applies a step found by [`Geometry::step`] to the board it was computed on.
    pub fn apply_step(&self, b: &mut Board, s: &Step) {
        let c = s.color as usize;
        if on_track(s.from) {
            b.occ[s.from as usize] = 0;
        } else if in_home(s.from) {
            b.home[c] &= !(1 << (s.from - HOME));
            b.home_count[c] -= 1;
        }
        b.pegs[c][s.index as usize] = s.to;
        if on_track(s.to) {
            b.occ[s.to as usize] = c as u8 + 1;
        } else if in_home(s.to) {
            b.home[c] |= 1 << (s.to - HOME);
            b.home_count[c] += 1;
        }
        for d in s.chain.items() {
            b.pegs[d.color as usize][d.index as usize] = d.to;
            if on_track(d.to) {
                b.occ[d.to as usize] = d.color + 1;
            }
        }
    }

    /// The change of the mover's team progress minus the other team's that `s` makes.
    #[inline]
    pub fn step_score(&self, s: &Step) -> i32 {
        let team = self.team(s.color as usize);
        let mut score = self.progress(s.color as usize, s.to) - self.progress(s.color as usize, s.from);
        for d in s.chain.items() {
            let c = d.color as usize;
            let delta = self.progress(c, d.to) - self.progress(c, d.from);
            score += if self.team(c) == team { delta } else { -delta };
        }
        score
    }

    /// Sends `color`'s peg at track hole `hole` to its start.
    pub fn send_to_start(&self, b: &mut Board, color: usize, hole: Pos) {
        if let Some(i) = self.peg_at(b, color, hole) {
            b.pegs[color][i] = START;
            b.occ[hole as usize] = 0;
        }
    }

    /// Visits every legal move of declared value `value` for `seat` (moving its mover's
    /// pegs), in canonical order, with its score ([`Geometry::step_score`], both parts of a
    /// split). The visitor returns `true` to stop; so does this function when stopped.
    /// Order: come-out first, then pegs by position (track holes ascending, then home
    /// depths); splits by first peg, first part a ascending, second peg, second part b
    /// ascending; jumps from start first, then by source hole, then by target hole.
    ///
    /// The one move generator of the game: forward targets read from the pegs' reach (no
    /// walk along the track), a landing on an empty hole, a home or an opponent scored
    /// without building its step, split 7s scoring second parts on the board before the
    /// first part when the two parts cannot touch, and jumps onto opponents scored without
    /// building their step. Tests check it against [`Geometry::make_move`] (every listed
    /// move is made and scores what it changes; every move `make_move` can make is listed).
    #[inline]
    pub fn for_each_move(&self, b: &Board, seat: usize, value: u8, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        match self.movers(b, seat) {
            Some(ctx) => self.moves_with(b, seat, &ctx, value, visit),
            None => false,
        }
    }

    /// [`Geometry::for_each_move`] with `seat`'s [`Movers`] computed once for several values.
    #[inline]
    pub fn for_each_move_with(&self, b: &Board, seat: usize, ctx: &Movers, value: u8, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        self.moves_with(b, seat, ctx, value, visit)
    }

    /// Whose pegs `seat` moves and where they stand, or `None` when its whole team is home.
    #[inline]
    pub fn movers(&self, b: &Board, seat: usize) -> Option<Movers> {
        let m = self.mover(b, seat)?;
        let mut placed = [0; MAX_PEGS];
        let mut n = self.placed(b, m, &mut placed);
        // A peg settled at the bottom of the home (every deeper hole taken) never moves
        // again: no move, split part or chain can free a deeper hole. Such pegs are the last
        // of `placed`; the enumerations skip them.
        let mut deepest = HOME + self.home;
        while n > 0 && placed[n - 1] == deepest {
            n -= 1;
            deepest -= 1;
        }
        let reach = self.reach(b, m, &placed[..n]);
        Some(Movers { m, placed, n, reach })
    }

    #[inline]
    fn moves_with(&self, b: &Board, seat: usize, ctx: &Movers, value: u8, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        let m = ctx.m;
        let placed = &ctx.placed[..ctx.n];
        match value {
            0 | 10..=12 => {
                if let Some(score) = self.come_out_move(b, ctx)
                    && visit(Move::ComeOut, score)
                {
                    return true;
                }
                let steps = if value == 0 { 1 } else { 10 };
                self.for_each_forward(b, ctx, steps, visit)
            }
            6 => self.sevens(b, seat, ctx, visit),
            7 => {
                for &from in placed {
                    if let Some(to) = self.back_target(b, m, from)
                        && let Some(score) = self.part_score(b, m, from, to)
                        && visit(Move::Back { from }, score)
                    {
                        return true;
                    }
                }
                false
            }
            13 => self.jumps(b, m, placed, visit),
            v => self.for_each_forward(b, ctx, v + 1, visit),
        }
    }

    /// The come-out move of `seat` (a peg from start to its mover's come-out hole) with its
    /// score, when legal.
    #[inline]
    pub fn come_out_move(&self, b: &Board, ctx: &Movers) -> Option<i32> {
        let m = ctx.m;
        if !self.has_start_peg(b, m) {
            return None;
        }
        self.part_score(b, m, START, self.come[m])
    }

    /// Visits the forward moves of `steps` holes of the mover's pegs, in canonical order
    /// (the moves of a 2-6, 9 or 10, or the forward part of an ace or a face card).
    #[inline]
    pub fn for_each_forward(&self, b: &Board, ctx: &Movers, steps: u8, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        self.forward_moves(b, ctx.m, &ctx.placed[..ctx.n], &ctx.reach, steps, visit)
    }

    /// The [`Reach`] of `m`'s placed pegs (`placed`, ascending: track holes, then home).
    fn reach(&self, b: &Board, m: usize, placed: &[Pos]) -> Reach {
        let home = b.home[m] as u32 >> 1;
        let home_low = if home == 0 { self.home + 1 } else { home.trailing_zeros() as u8 + 1 };
        let mut lim = [0; MAX_PEGS];
        let k = placed.iter().take_while(|&&p| on_track(p)).count();
        for i in 0..k {
            lim[i] = if k == 1 {
                self.track.min(255) as u8
            } else {
                let (h, next) = (placed[i] as usize, placed[if i + 1 == k { 0 } else { i + 1 }] as usize);
                (if next > h { next - h } else { next + self.track - h }) as u8
            };
        }
        let mut home_most = 0;
        for i in k..placed.len() {
            let e = placed[i] - HOME;
            let above = home >> e;
            lim[i] = if above == 0 { self.home } else { e + above.trailing_zeros() as u8 };
            home_most = home_most.max(lim[i] - e);
        }
        Reach { lim, home_low, on_track: k, home_most }
    }

    /// [`Geometry::forward_target`] of the peg in slot `i` of the placed pegs `r` was
    /// computed for, without walking the track.
    #[inline]
    fn forward_reach(&self, m: usize, r: &Reach, i: usize, from: Pos, v: u8) -> Option<Pos> {
        let lim = r.lim[i] as usize;
        if in_home(from) {
            let to = (from - HOME) as usize + v as usize;
            return (to <= lim).then_some(HOME + to as u8);
        }
        let v = v as usize;
        let d = self.to_spot(m, from);
        if d < v {
            if lim <= d {
                return None;
            }
            let k = v - d;
            if k <= self.home as usize && k < r.home_low as usize {
                return Some(HOME + k as u8);
            }
        }
        if lim <= v {
            return None;
        }
        let to = from as usize + v;
        Some(if to >= self.track { to - self.track } else { to } as Pos)
    }

    /// The forward moves of `steps` by the placed pegs with their reach.
    #[inline]
    fn forward_moves(&self, b: &Board, m: usize, placed: &[Pos], r: &Reach, steps: u8, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        // The home pegs (the last ones) cannot move more than `home_most` holes.
        let placed = if steps > r.home_most { &placed[..r.on_track] } else { placed };
        for (i, &from) in placed.iter().enumerate() {
            if let Some(to) = self.forward_reach(m, r, i, from, steps)
                && let Some(score) = self.part_score(b, m, from, to)
                && visit(Move::Forward { from, steps }, score)
            {
                return true;
            }
        }
        false
    }

    /// Visits the splits whose first part is `s1` (peg `first`, `a` holes), each second
    /// part computed on the board after `s1` (made on `scratch`, a copy of `b`, and undone).
    #[allow(clippy::too_many_arguments)]
    fn seconds_after(
        &self,
        b: &Board,
        scratch: &mut Board,
        seat: usize,
        m: usize,
        first: Pos,
        a: u8,
        s1: &Step,
        visit: &mut impl FnMut(Move, i32) -> bool,
    ) -> bool {
        let score1 = self.step_score(s1);
        self.apply_step(scratch, s1);
        let after = &*scratch;
        let Some(m2) = self.mover(after, seat) else {
            // The first part brought the team's last peg home: the game ends.
            self.undo_step(scratch, b, s1);
            return visit(Move::Split { first, a, second: NONE, b: 0 }, score1);
        };
        // Second pegs named by their position before the first part.
        let mut placed2 = [0; MAX_PEGS];
        let n2 = self.placed(b, m2, &mut placed2);
        for &second in &placed2[..n2] {
            let idx2 = self.peg_at(b, m2, second);
            if m2 == m && idx2 == Some(s1.index as usize) {
                continue;
            }
            let Some(idx2) = idx2 else { continue };
            // Where that peg stands after the first part (a chain may have moved it).
            let now = after.pegs[m2][idx2];
            if now == START {
                continue;
            }
            for bb in self.second_parts(a) {
                let Some(to2) = self.forward_target(after, m2, now, bb) else {
                    continue;
                };
                if let Some(s2) = self.step(after, m2, now, to2) {
                    let mv = Move::Split { first, a, second, b: bb };
                    if visit(mv, score1 + self.step_score(&s2)) {
                        self.undo_step(scratch, b, s1);
                        return true;
                    }
                }
            }
        }
        self.undo_step(scratch, b, s1);
        false
    }

    /// The second parts b allowed after a first part of `a`.
    #[inline]
    fn second_parts(&self, a: u8) -> std::ops::Range<u8> {
        // A half-open range: an inclusive one steps through a flag on every value, which
        // the split loops paid for on each second part.
        match self.split {
            SevenSplit::Exact => (7 - a)..(8 - a),
            SevenSplit::UpTo => 1..(8 - a),
        }
    }

    /// The split 7s: the forward moves of 7, then every split (a first part of a, a second
    /// part of another peg), with each second part (peg, b) scored once on the board before
    /// the first part and reused whenever the first part cannot change what it reads: the
    /// holes it passes and lands on, the home when it may enter it, and no teammate landing
    /// (whose chain reads further holes). Any other pair is computed on the board after the
    /// first part ([`Geometry::forward_target`] and [`Geometry::step`], as `make_move`).
    fn sevens(&self, b: &Board, seat: usize, ctx: &Movers, visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        let (m, placed, r) = (ctx.m, &ctx.placed[..ctx.n], ctx.reach);
        if self.forward_moves(b, m, placed, &r, 7, visit) {
            return true;
        }
        // Second parts (slot in `placed`, b) on the original board, computed when first needed.
        let mut cache: SecondParts = [[None; 7]; MAX_PEGS];
        let mut scratch: Option<Board> = None;
        // The step of the current first part when it lands on a teammate (its chain built).
        let mut built = Step::default();
        for (i1, &first) in placed.iter().enumerate() {
            for a in 1..7u8 {
                let Some(to) = self.forward_reach(m, &r, i1, first, a) else {
                    // A home peg that cannot move a holes cannot move more.
                    if in_home(first) {
                        break;
                    }
                    continue;
                };
                // A simple landing (home, empty hole, opponent) is scored without its step;
                // a teammate's chain is built.
                let (score1, chained) = match self.simple_score(b, m, first, to) {
                    Ok(score) => (score, false),
                    Err(false) => continue,
                    Err(true) => match self.step(b, m, first, to) {
                        Some(s1) => {
                            built = s1;
                            (self.step_score(&built), true)
                        }
                        None => continue,
                    },
                };
                let s1 = chained.then_some(&built);
                // The mover changes only when this part brings m's last peg home; a chain
                // that moves one of m's own pegs (to its in-spot) changes where it stands.
                let finishes = in_home(to) && !in_home(first) && b.home_count[m] as usize + 1 == self.pegs;
                let moves_own = s1.is_some_and(|s1| s1.chain.items().iter().any(|d| d.color as usize == m));
                if finishes || moves_own {
                    let s1 = match s1 {
                        Some(s1) => *s1,
                        None => self.step(b, m, first, to).expect("a simple landing is legal"),
                    };
                    let sc = scratch.get_or_insert(*b);
                    if self.seconds_after(b, sc, seat, m, first, a, &s1, visit) {
                        return true;
                    }
                    continue;
                }
                let part = FirstPart { slot: i1, peg: first, a, to, score: score1, step: s1 };
                if self.splits_after(b, ctx, &part, &mut cache, &mut scratch, visit) {
                    return true;
                }
            }
        }
        false
    }

    /// The splits whose first part is `first` (one that neither brings the mover's last peg
    /// home nor moves one of its own pegs by a chain), each second part scored on the board
    /// before the first part when the first part cannot change what it reads (a track peg's
    /// from `cache`, a home peg's directly), else on the board after the first part: `scratch`, a copy of `b` made once per
    /// [`Geometry::sevens`] call, with the first part applied when first needed and undone
    /// before returning (no copy of the board per first part).
    #[inline(always)]
    fn splits_after(
        &self,
        b: &Board,
        ctx: &Movers,
        first: &FirstPart,
        cache: &mut SecondParts,
        scratch: &mut Option<Board>,
        visit: &mut impl FnMut(Move, i32) -> bool,
    ) -> bool {
        let (m, placed, r) = (ctx.m, &ctx.placed[..ctx.n], ctx.reach);
        let team = self.team(m);
        let home_changed = in_home(first.peg) || in_home(first.to);
        // The first part's step once it is applied on `scratch`.
        let mut applied: Option<Step> = None;
        let mut stopped = false;
        'pegs: for (i2, &second) in placed.iter().enumerate() {
            if i2 == first.slot {
                continue;
            }
            if in_home(second) && !home_changed {
                match self.home_splits(b, ctx, first, i2, second, visit) {
                    ControlFlow::Continue(()) => continue,
                    ControlFlow::Break(visitor_stopped) => {
                        stopped = visitor_stopped;
                        break 'pegs;
                    }
                }
            }
            for bb in self.second_parts(first.a) {
                let mut result = None;
                if !in_home(second) && self.reads_untouched(m, second, bb, first, home_changed) {
                    let slot = &mut cache[i2][bb as usize];
                    let part = *slot.get_or_insert_with(|| match self.forward_reach(m, &r, i2, second, bb) {
                        None => SecondPart::Illegal,
                        Some(to2) if on_track(to2) && b.occ[to2 as usize] != 0 && self.team((b.occ[to2 as usize] - 1) as usize) == team => SecondPart::Teammate,
                        Some(to2) => self.part_score(b, m, second, to2).map_or(SecondPart::Illegal, SecondPart::Score),
                    });
                    match part {
                        SecondPart::Illegal => continue,
                        SecondPart::Teammate => {}
                        SecondPart::Score(score) => result = Some(score),
                    }
                }
                let score2 = match result {
                    Some(score) => score,
                    None => {
                        let af = scratch.get_or_insert(*b);
                        if applied.is_none() {
                            let made = first.step.copied().unwrap_or_else(|| self.step(b, m, first.peg, first.to).expect("a simple landing is legal"));
                            self.apply_step(af, &made);
                            applied = Some(made);
                        }
                        let af = &*af;
                        let Some(to2) = self.forward_target(af, m, second, bb) else {
                            continue;
                        };
                        let Some(score2) = self.part_score(af, m, second, to2) else {
                            continue;
                        };
                        score2
                    }
                };
                if visit(Move::Split { first: first.peg, a: first.a, second, b: bb }, first.score + score2) {
                    stopped = true;
                    break 'pegs;
                }
            }
        }
        if let (Some(made), Some(sc)) = (applied, scratch.as_mut()) {
            self.undo_step(sc, b, &made);
        }
        stopped
    }

    /// The splits of `first` whose second part moves the home peg `second` (slot `i2`) when
    /// the first part left that home as it was: they read only the home, so they are scored
    /// on `b`, without the cache. Breaks with `true` when `visit` stopped, with `false` when
    /// no home peg (this one and the rest of `placed`) moves further than `home_most`.
    #[inline(always)]
    fn home_splits(&self, b: &Board, ctx: &Movers, first: &FirstPart, i2: usize, second: Pos, visit: &mut impl FnMut(Move, i32) -> bool) -> ControlFlow<bool> {
        let (m, r) = (ctx.m, &ctx.reach);
        if self.second_parts(first.a).start > r.home_most {
            return ControlFlow::Break(false);
        }
        for bb in self.second_parts(first.a) {
            let Some(score2) = self.forward_reach(m, r, i2, second, bb).and_then(|to2| self.part_score(b, m, second, to2)) else {
                continue;
            };
            if visit(Move::Split { first: first.peg, a: first.a, second, b: bb }, first.score + score2) {
                return ControlFlow::Break(true);
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether a second part of `bb` with the track peg `second` reads nothing `first`
    /// changed: none of the track holes it changed lies in the `bb` holes ahead of it, and it
    /// does not enter the home when the first part changed that home.
    #[inline(always)]
    fn reads_untouched(&self, m: usize, second: Pos, bb: u8, first: &FirstPart, home_changed: bool) -> bool {
        let d = self.to_spot(m, second);
        (d >= bb as usize || !home_changed) && !first.touches(|h| wrap(h as usize + self.track - second as usize - 1, self.track) < bb as usize)
    }

    /// Restores on `scratch` every entry that [`Geometry::apply_step`] of `s` changed,
    /// from `orig` (the board `s` was computed on).
    fn undo_step(&self, scratch: &mut Board, orig: &Board, s: &Step) {
        let c = s.color as usize;
        scratch.pegs[c][s.index as usize] = orig.pegs[c][s.index as usize];
        scratch.home[c] = orig.home[c];
        scratch.home_count[c] = orig.home_count[c];
        for p in [s.from, s.to] {
            if on_track(p) {
                scratch.occ[p as usize] = orig.occ[p as usize];
            }
        }
        for d in s.chain.items() {
            scratch.pegs[d.color as usize][d.index as usize] = orig.pegs[d.color as usize][d.index as usize];
            for p in [d.from, d.to] {
                if on_track(p) {
                    scratch.occ[p as usize] = orig.occ[p as usize];
                }
            }
        }
    }

    fn jumps(&self, b: &Board, m: usize, placed: &[Pos], visit: &mut impl FnMut(Move, i32) -> bool) -> bool {
        let own = m as u8 + 1;
        let team = self.team(m);
        let mut sources = [START; MAX_PEGS + 1];
        let mut ns = 0;
        if self.has_start_peg(b, m) {
            ns = 1;
        }
        for &p in placed.iter().filter(|&&p| on_track(p)) {
            sources[ns] = p;
            ns += 1;
        }
        if ns == 0 {
            return false;
        }
        // Targets with, for an opponent's peg, the score of jumping there from start: the
        // mover gains the hole's progress and the opponent loses its peg's.
        let mut targets = [(0 as Pos, None::<i32>); MAX_PLAYERS * MAX_PEGS];
        let mut nt = 0;
        for (to, &o) in b.occ[..self.track].iter().enumerate() {
            if o != 0 && o != own {
                let c = (o - 1) as usize;
                let gain = (self.team(c) != team).then(|| self.progress(m, to as Pos) + self.progress(c, to as Pos));
                targets[nt] = (to as Pos, gain);
                nt += 1;
            }
        }
        for &from in &sources[..ns] {
            let from_progress = self.progress(m, from);
            for &(to, gain) in &targets[..nt] {
                let score = match gain {
                    Some(g) => g - from_progress,
                    None => match self.step(b, m, from, to) {
                        Some(s) => self.step_score(&s),
                        None => continue,
                    },
                };
                if visit(Move::Jump { from, to }, score) {
                    return true;
                }
            }
        }
        false
    }

    /// The joker's best jump for the mover of `ctx`: the first of highest score in
    /// canonical order (sources: start, then track pegs ascending; targets by hole), as
    /// the best of [`Geometry::for_each_move`]'s jumps (tested against it). A jump onto an
    /// opponent scores the same from every source up to the source's own progress, so the
    /// opponents' best target is found once; only teammates' targets (whose chains depend
    /// on the board) are scored per source.
    pub fn best_jump(&self, b: &Board, ctx: &Movers) -> Option<(Move, i32)> {
        let m = ctx.m;
        let team = self.team(m);
        // The opponents' best target: highest gain, ties to the lowest hole.
        let mut opp: Option<(i32, Pos)> = None;
        let mut mates = [0 as Pos; MAX_PLAYERS * MAX_PEGS];
        let mut nm = 0;
        for c in 0..self.players {
            if c == m {
                continue;
            }
            let mate = self.team(c) == team;
            for &to in &b.pegs[c][..self.pegs] {
                if !on_track(to) {
                    continue;
                }
                if mate {
                    mates[nm] = to;
                    nm += 1;
                } else {
                    let gain = self.progress(m, to) + self.progress(c, to);
                    if opp.is_none_or(|(g, h)| gain > g || (gain == g && to < h)) {
                        opp = Some((gain, to));
                    }
                }
            }
        }
        if opp.is_none() && nm == 0 {
            return None;
        }
        let mut best: Option<(Move, i32)> = None;
        let mut consider = |from: Pos| {
            let mut here: Option<(i32, Pos)> = opp.map(|(g, h)| (g - self.progress(m, from), h));
            for &to in &mates[..nm] {
                if let Some(s) = self.step(b, m, from, to) {
                    let score = self.step_score(&s);
                    if here.is_none_or(|(sc, h)| score > sc || (score == sc && to < h)) {
                        here = Some((score, to));
                    }
                }
            }
            if let Some((score, to)) = here
                && best.is_none_or(|x| score > x.1)
            {
                best = Some((Move::Jump { from, to }, score));
            }
        };
        if self.has_start_peg(b, m) {
            consider(START);
        }
        for &from in ctx.placed[..ctx.n].iter().filter(|&&p| on_track(p)) {
            consider(from);
        }
        best
    }

    /// Whether declared value `value` has a legal move for `seat`.
    #[inline]
    pub fn has_move(&self, b: &Board, seat: usize, value: u8) -> bool {
        self.for_each_move(b, seat, value, &mut |_, _| true)
    }

    /// Whether `mv` is a legal move of declared value `value` for `seat`.
    pub fn is_legal_move(&self, b: &Board, seat: usize, value: u8, mv: Move) -> bool {
        let mut found = false;
        self.for_each_move(b, seat, value, &mut |m, _| {
            found = m == mv;
            found
        });
        found
    }

    /// Makes legal move `mv` of declared value `value` for `seat`; returns the steps made
    /// (one, or two for a split) so callers can count what they displaced.
    pub fn make_move(&self, b: &mut Board, seat: usize, value: u8, mv: Move) -> [Option<Step>; 2] {
        let Some(m) = self.mover(b, seat) else {
            return [None, None];
        };
        let one = |b: &mut Board, color: usize, from: Pos, to: Option<Pos>| -> Option<Step> {
            let s = self.step(b, color, from, to?)?;
            self.apply_step(b, &s);
            Some(s)
        };
        match mv {
            Move::ComeOut => [one(b, m, START, Some(self.come[m])), None],
            Move::Forward { from, steps } => {
                let to = self.forward_target(b, m, from, steps);
                [one(b, m, from, to), None]
            }
            Move::Back { from } => {
                let to = self.back_target(b, m, from);
                [one(b, m, from, to), None]
            }
            Move::Jump { from, to } => [one(b, m, from, Some(to)), None],
            Move::Split { first, a, second, b: bb } => {
                let _ = value;
                let to = self.forward_target(b, m, first, a);
                let before = *b;
                let s1 = one(b, m, first, to);
                if second == NONE {
                    return [s1, None];
                }
                let Some(m2) = self.mover(b, seat) else {
                    return [s1, None];
                };
                let Some(idx2) = self.peg_at(&before, m2, second) else {
                    return [s1, None];
                };
                let now = b.pegs[m2][idx2];
                let to2 = self.forward_target(b, m2, now, bb);
                [s1, one(b, m2, now, to2)]
            }
        }
    }
}
