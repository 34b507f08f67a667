//! The step interpreter: `run` executes instructions until a seat must decide or the game
//! is over; the steps' bodies (cards, loops, rounds and the rest) are here.

use super::{Bound, Event, STEP_LIMIT, State};
use crate::engine::{EventLog, GameRng, MAX_SEATS, rng};
use crate::games::rules::expr::{Expr, Zone};
use crate::games::rules::program::*;

impl Bound {
    /// Runs instructions until a seat must decide or the game is over.
    pub fn run(&self, st: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let code = &self.program.code[..];
        let mut steps = 0u32;
        st.waiting = None;
        st.counted = 0;
        st.block = None;
        // The bound names the instructions read, kept in step with the state's: every write of
        // a step's slot goes to both, and the two steps that use slot 0 or the last four as
        // scratch (the skip condition, a choice with nothing legal) put them back. The
        // expression slots in between are always written before an expression reads them (and
        // are 0 in a state, which never sets them): one copy of the whole array, no zeroing.
        let mut b = st.binds;
        while !st.over {
            steps += 1;
            if steps > STEP_LIMIT {
                self.stop_stuck(st, log);
                return;
            }
            let pc = st.pc as usize;
            st.pc += 1;
            match &code[pc] {
                Instr::Jump(to) => st.pc = *to,
                Instr::JumpIfNot(c, to) => {
                    if self.operand(c, st, &mut b) == 0 {
                        st.pc = *to;
                    }
                }
                Instr::Assign { slots, index, op, value, .. } => self.assign(st, &mut b, *slots, index.as_ref(), *op, value),
                Instr::Bind(slot, e) => {
                    let v = self.operand(e, st, &mut b);
                    st.binds[*slot as usize] = v;
                    b[*slot as usize] = v;
                }
                Instr::CardLoopStart { slot, index, exit } => {
                    if st.chosen.is_empty() {
                        st.pc = *exit;
                    } else {
                        Self::set_bind(st, &mut b, *index, 0);
                        Self::set_bind(st, &mut b, *slot, st.chosen[0] as i64);
                    }
                }
                Instr::CardLoopNext { slot, index, body } => {
                    let i = st.binds[*index as usize] as usize + 1;
                    if i < st.chosen.len() {
                        Self::set_bind(st, &mut b, *index, i as i64);
                        Self::set_bind(st, &mut b, *slot, st.chosen[i] as i64);
                        st.pc = *body;
                    }
                }
                Instr::Return => {
                    if st.depth > 0 {
                        st.depth -= 1;
                        st.pc = st.stack[st.depth as usize];
                    }
                }
                Instr::MoveChosen { to } => {
                    if let Some(t) = self.zone(to, st, &mut b) {
                        self.move_chosen(st, t, usize::MAX, log);
                    }
                }
                Instr::Choose { seat, .. } => {
                    if self.choose(st, &mut b, seat.as_ref(), pc) {
                        return;
                    }
                }
                Instr::TurnStart => self.turn_start(st, &mut b, pc),
                Instr::TurnEnd => self.turn_end(st, &mut b),
                Instr::Fill { to, size, from } => self.fill(st, &mut b, (to, from), size, log),
                ins @ (Instr::Move { .. } | Instr::MoveWhere { .. } | Instr::MoveCard { .. } | Instr::Deal { .. } | Instr::Shuffle(_) | Instr::Reveal(_)) => {
                    self.step_cards(ins, st, &mut b, rng, log)
                }
                ins @ (Instr::SeatLoopStart { .. } | Instr::SeatLoopNext { .. } | Instr::LoopGuard { .. }) => self.step_loop(ins, st, &mut b),
                ins @ (Instr::EndTurn | Instr::EndRound | Instr::EndGame(_) | Instr::RoundStart | Instr::RoundEnd) => self.step_round(ins, st, &mut b),
                ins => self.step_other(ins, st, &mut b, rng, log),
            }
        }
    }

    /// Sets bind slot `slot` in the state and in the machine's copy `b`.
    #[inline(always)]
    fn set_bind(st: &mut State, b: &mut [i64; BINDS], slot: u8, v: i64) {
        st.binds[slot as usize] = v;
        b[slot as usize] = v;
    }

    /// Stops a game whose steps ran [`STEP_LIMIT`] times without a decision.
    #[cold]
    #[inline(never)]
    fn stop_stuck(&self, st: &mut State, log: &mut EventLog<Event>) {
        self.end_game(st, self.p().reason_stuck);
        log.emit(|| Event::all(format!("the game is stopped: {STEP_LIMIT} steps ran without a decision (end reason `stuck`)")));
    }

    /// `counter[index] op value`, the counter's slots starting at `first` (`len` of them).
    #[inline(always)]
    fn assign(&self, st: &mut State, b: &mut [i64; BINDS], (first, len): (u16, u16), index: Option<&Expr>, op: AssignOp, value: &Expr) {
        let i = index.map_or(0, |i| self.operand(i, st, b));
        let v = self.operand(value, st, b);
        if i >= 0 && i < len as i64 {
            let slot = &mut st.counters[first as usize + i as usize];
            *slot = match op {
                AssignOp::Set => v,
                AssignOp::Add => slot.saturating_add(v),
                AssignOp::Sub => slot.saturating_sub(v),
            };
        }
    }

    /// The choose instruction at `pc`: true when the machine stops there (the seat has a
    /// legal choice), with the count of its choices kept.
    #[inline(never)]
    fn choose(&self, st: &mut State, b: &mut [i64; BINDS], seat: Option<&Expr>, pc: usize) -> bool {
        let s = match seat {
            None => st.current as i64,
            Some(e) => self.operand(e, st, b),
        };
        if s < 0 || s as usize >= self.players || st.eliminated & (1 << s) != 0 {
            return false;
        }
        st.binds[0] = s;
        b[0] = s;
        let (counted, block) = self.any_legal(st, b, s as usize, pc as u32);
        b[0] = st.binds[0];
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        if counted == 0 {
            return false;
        }
        st.pc = pc as u32;
        st.waiting = Some((s as u8, pc as u32));
        st.counted = if counted == usize::MAX { 0 } else { counted as u32 };
        st.block = if counted == usize::MAX { None } else { block };
        st.chosen.clear();
        true
    }

    /// Moves, deals, shuffles and reveals of cards.
    #[inline(never)]
    fn step_cards(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS], rng: &mut GameRng, log: &mut EventLog<Event>) {
        match ins {
            Instr::Move { from, to, count, take, put } => {
                let n = match count {
                    None => usize::MAX,
                    Some(e) => self.operand(e, st, b).max(0) as usize,
                };
                if matches!(from, Zone::Chosen) {
                    if let Some(to) = self.zone(to, st, b) {
                        self.move_chosen(st, to, n, log);
                    }
                } else if let (Some(f), Some(t)) = (self.zone(from, st, b), self.zone(to, st, b)) {
                    self.move_cards(st, (f, t), n, (*take, *put), log);
                }
            }
            Instr::MoveWhere { from, to, count, put, slot, cond } => self.move_where(st, b, (from, to), count.as_ref(), *put, (*slot, cond), log),
            Instr::MoveCard { card, to } => {
                let c = self.operand(card, st, b);
                if c >= 0
                    && (c as usize) < self.attrs.len()
                    && let Some(t) = self.zone(to, st, b)
                {
                    let from = st.where_is[c as usize] as usize;
                    if let Some(i) = st.zones[from].iter().position(|&x| x as i64 == c) {
                        st.zones[from].remove(i);
                        self.put(st, c as u16, t, End::Top);
                    }
                }
            }
            Instr::Deal { from, to, count } => {
                let n = self.operand(count, st, b).max(0) as usize;
                if let Some(f) = self.zone(from, st, b) {
                    for _ in 0..n {
                        if st.zones[f].is_empty() {
                            break;
                        }
                        let mut s = st.first as usize;
                        for _ in 0..self.players {
                            if st.eliminated & (1 << s) == 0 {
                                self.move_cards(st, (f, *to as usize + s), 1, (End::Top, End::Top), log);
                            }
                            s = (s + 1) % self.players;
                        }
                    }
                }
            }
            Instr::Shuffle(z) => {
                if let Some(z) = self.zone(z, st, b) {
                    self.shuffle(st, z, rng);
                }
            }
            Instr::Reveal(z) => self.reveal(st, b, z, log),
            _ => {}
        }
    }

    /// Seat loops and loop guards.
    #[inline(never)]
    fn step_loop(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS]) {
        match ins {
            Instr::SeatLoopStart { which, slot, left, exit } => {
                let (first, n) = match which {
                    SeatLoop::Players => (st.current as usize, self.active_players(st)),
                    SeatLoop::Others => (self.next_player(st, st.current as usize), self.active_players(st).saturating_sub(1)),
                    SeatLoop::Seats => (0, self.seats),
                };
                if n == 0 {
                    st.pc = *exit;
                } else {
                    Self::set_bind(st, b, *slot, first as i64);
                    Self::set_bind(st, b, *left, n as i64 - 1);
                }
            }
            Instr::SeatLoopNext { which, slot, left, body } if st.binds[*left as usize] > 0 => {
                let s = st.binds[*slot as usize] as usize;
                let next = match which {
                    SeatLoop::Seats => s as i64 + 1,
                    _ => self.next_player(st, s) as i64,
                };
                Self::set_bind(st, b, *left, st.binds[*left as usize] - 1);
                Self::set_bind(st, b, *slot, next);
                st.pc = *body;
            }
            Instr::LoopGuard { guard } => {
                Self::set_bind(st, b, *guard, st.binds[*guard as usize] + 1);
                if st.binds[*guard as usize] > STEP_LIMIT as i64 {
                    self.end_game(st, self.p().reason_stuck);
                }
            }
            _ => {}
        }
    }

    /// The ends of turns, rounds and the game.
    #[inline(never)]
    fn step_round(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS]) {
        let p = self.p();
        match ins {
            Instr::EndTurn => {
                // Compiled as a jump; kept for safety.
                st.depth = 0;
                st.pc = p.turn_end;
            }
            Instr::EndRound => {
                st.depth = 0;
                Self::count_turn_under_way(st);
                st.pc = p.round_end;
            }
            Instr::EndGame(reason) => {
                Self::count_turn_under_way(st);
                self.end_game(st, *reason);
            }
            Instr::RoundStart => {
                st.round_turn = 0;
                st.current = st.first;
            }
            Instr::RoundEnd => {
                st.round += 1;
                if p.rounds.is_none() {
                    let reason = self.first_end(&p.round_ends, st, b).unwrap_or(p.reason_rounds);
                    self.end_game(st, reason);
                    return;
                }
                if st.round >= self.rounds {
                    let reason = if st.round_turn >= self.cap && self.first_end(&p.round_ends, st, b).is_none() { p.reason_cap } else { p.reason_rounds };
                    self.end_game(st, reason);
                    return;
                }
                if p.rotate_first {
                    st.first = self.next_player(st, st.first as usize) as u8;
                }
                st.pc = p.round_start;
            }
            _ => {}
        }
    }

    /// Rolls, lines of the trace, revealed choices and the turn order's changes.
    #[inline(never)]
    fn step_other(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS], rng: &mut GameRng, log: &mut EventLog<Event>) {
        match ins {
            Instr::RevealChoices => self.reveal_choices(st, log),
            Instr::RollDice(z) => self.roll_dice(st, b, z, rng, log),
            Instr::Roll { counter, index, faces } => {
                let decl = &self.program.counters[*counter as usize];
                let i = index.as_ref().map_or(0, |i| self.operand(i, st, b));
                let f = self.operand(faces, st, b).clamp(1, u32::MAX as i64) as u32;
                let v = rng::below(f, rng) as i64 + 1;
                if i >= 0 && i < decl.len as i64 {
                    st.counters[decl.first as usize + i as usize] = v;
                }
                log.emit(|| Event::all(format!("rolled {v} ({})", decl.name)));
            }
            Instr::Say(t) if log.enabled() => {
                let text = self.render(t, st, b);
                log.emit(|| Event::all(text));
            }
            Instr::NextSeat(e) => {
                let s = self.operand(e, st, b);
                if s >= 0 && (s as usize) < self.players {
                    st.next_seat = Some(s as u8);
                }
            }
            Instr::Skip => st.skip_next = true,
            Instr::Reverse => st.reversed = !st.reversed,
            Instr::Eliminate(e) => {
                let s = self.operand(e, st, b);
                if s >= 0 && (s as usize) < self.seats && st.eliminated & (1 << s) == 0 {
                    st.eliminated |= 1 << s;
                    st.eliminated_at[s as usize] = st.turn.max(1);
                    log.emit(|| Event::all(format!("seat {s} is out")));
                }
            }
            // The rest are run in `run` itself.
            _ => {}
        }
    }

    /// `reveal choices`: the seats' secret choices become public (and their last choices).
    fn reveal_choices(&self, st: &mut State, log: &mut EventLog<Event>) {
        st.revealed = true;
        for s in 0..MAX_SEATS {
            if st.secret[s].0 > 0 {
                st.last[s] = st.secret[s];
            }
        }
        if log.enabled() {
            let text = (0..self.players)
                .filter(|&s| st.secret[s].0 > 0)
                .map(|s| format!("seat {s} chose {}", self.action_text_short(s, st)))
                .collect::<Vec<_>>()
                .join("; ");
            log.emit(|| Event::all(text));
        }
    }
}
