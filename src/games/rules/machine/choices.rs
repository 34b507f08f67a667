//! A seat's choices: whether it has one, counting them, drawing one at random, listing them,
//! and applying the one chosen.

use super::sets::{Block, POSITIONS, binomial, low_mask, next_combination, unrank_combination};
use super::{ARG, Bound, CHOICE_LIMIT, CHOSEN_MASK, CHOSEN_ZONE, Choice, Event, State};
use crate::engine::{EventLog, GameRng, rng};
use crate::games::rules::program::*;

impl Bound {
    /// Whether `seat` has a legal choice at the choose instruction `at`: the number of its
    /// legal choices when they can be counted ([`Bound::countable`]), else `usize::MAX` when
    /// it has one; 0 when it has none.
    /// With the count, the one block of choices when they are one ([`State::block`]).
    /// `b` holds the state's bound names (see [`Bound::frame_into`]) and is used as scratch.
    pub(super) fn any_legal(&self, st: &State, b: &mut [i64; BINDS], seat: usize, at: u32) -> (usize, Option<Block>) {
        if let Instr::Choose { actions, .. } = &self.p().code[at as usize] {
            if let [a] = actions[..] {
                if let Some(Some(q)) = self.quick.get(a as usize)
                    && seat < self.seats
                {
                    // Counted ahead: one look-up by the zone's size.
                    let z = if q.per_seat { q.zone as usize + seat } else { q.zone as usize };
                    let n = st.zones[z].len().min(64);
                    match q.totals[n] {
                        u32::MAX => {}
                        0 => return (0, None),
                        total => {
                            let block = Block { action: a, arg: 0, cand: low_mask(n), n: n as u8, lo: q.lo, hi: q.hi.min(n as u8) };
                            return (total as usize, Some(block));
                        }
                    }
                } else if let Some(counted) = self.count_one_block(st, b, seat, a) {
                    return counted;
                }
            }
            if self.countable(actions) {
                let (n, _, block) = self.count_or_pick(st, b, seat, actions, None);
                return (n, block);
            }
        }
        let mut found = false;
        self.each_choice(st, seat, at, &mut |_| {
            found = true;
            false
        });
        (if found { usize::MAX } else { 0 }, None)
    }

    /// [`Bound::count_or_pick`]'s count and block when the decision is the common shape: one
    /// action, no argument, no condition, a set of cards by position with no condition on a
    /// card or on the set. The same walk without the general one's steps (`None`: another
    /// shape, or as many choices as [`CHOICE_LIMIT`], left to the general walk).
    #[inline(always)]
    fn count_one_block(&self, st: &State, b: &mut [i64; BINDS], seat: usize, a: u16) -> Option<(usize, Option<Block>)> {
        let decl = &self.p().actions[a as usize];
        let choice = decl.cards.as_ref()?;
        if !matches!(decl.arg, ArgChoice::None) || decl.condition.is_some() || choice.each.is_some() || choice.set.is_some() || choice.by != ChoiceBy::Position
        {
            return None;
        }
        // The bound names as `count_or_pick` sets them before its candidates.
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        b[0] = seat as i64;
        b[ARG] = 0;
        b[CHOSEN_ZONE] = -1;
        b[CHOSEN_MASK] = 0;
        let Some(z) = self.zone(&choice.from, st, b) else { return Some((0, None)) };
        let n = st.zones[z].len().min(64);
        let lo = self.operand(&choice.min, st, b).max(0) as usize;
        let hi = (self.operand(&choice.max, st, b).max(0) as usize).min(n);
        if lo > hi {
            return Some((0, None));
        }
        let mut total = 0usize;
        for k in lo..=hi {
            total += binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
            if total >= CHOICE_LIMIT {
                return None;
            }
        }
        if total == 0 {
            return Some((0, None));
        }
        Some((total, Some(Block { action: a, arg: 0, cand: low_mask(n), n: n as u8, lo: lo as u8, hi: hi as u8 })))
    }

    /// Whether every action of a choice can be counted without listing its candidates: no
    /// cards, or cards chosen by position with no condition on the set or on the action (a
    /// condition on each card is fine: it only narrows the candidate positions).
    pub(super) fn countable(&self, actions: &[u16]) -> bool {
        let p = self.p();
        actions.iter().all(|&a| {
            let d = &p.actions[a as usize];
            d.cards.as_ref().is_none_or(|c| c.by == ChoiceBy::Position && c.set.is_none() && d.condition.is_none())
        })
    }

    /// One legal choice of the waiting seat drawn uniformly at random (one draw below their
    /// number, the same pick as [`Bound::legal`]'s list would give), without listing them;
    /// `None` (nothing drawn) when the choice is not `Bound::countable`.
    pub fn random_choice(&self, st: &State, rng: &mut GameRng) -> Option<Choice> {
        let (seat, at) = st.waiting?;
        if st.counted > 0
            && let Some(block) = &st.block
        {
            // The same draw as below; the choice of that rank found in the block (a block is
            // kept only for a countable choice).
            let r = rng::below(st.counted, rng) as usize;
            return Some(block.choice(r));
        }
        let Instr::Choose { actions, .. } = &self.p().code[at as usize] else { return None };
        if !self.countable(actions) {
            return None;
        }
        let mut b = [0i64; BINDS];
        self.frame_into(st, &mut b);
        let total = if st.counted > 0 { st.counted as usize } else { self.count_or_pick(st, &mut b, seat as usize, actions, None).0 };
        if total == 0 {
            return None;
        }
        let r = rng::below(total as u32, rng) as usize;
        self.count_or_pick(st, &mut b, seat as usize, actions, Some(r)).1
    }

    /// Walks the legal choices of `seat` among `actions` (all [`Bound::countable`]) in the
    /// order [`Bound::each_choice`] lists them, a block (an action and its argument) at a
    /// time, counting each block's sets of cards in closed form. Returns the number of
    /// choices (at most [`CHOICE_LIMIT`], as the list is cut) and, with `pick` = `Some(r)`,
    /// the choice of rank `r`; counting (`pick` = `None`), the one block every choice is in
    /// when there is one ([`State::block`]).
    pub(super) fn count_or_pick(
        &self,
        st: &State,
        b: &mut [i64; BINDS],
        seat: usize,
        actions: &[u16],
        pick: Option<usize>,
    ) -> (usize, Option<Choice>, Option<Block>) {
        let p = self.p();
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        b[0] = seat as i64;
        let mut total = 0usize;
        // The blocks with a choice: the first one's sets of cards, and how many there are.
        let mut block: Option<Block> = None;
        let mut blocks = 0u32;
        for &a in actions {
            let decl = &p.actions[a as usize];
            b[CHOSEN_ZONE] = -1;
            let args: (i64, i64) = match &decl.arg {
                ArgChoice::None => (0, 0),
                ArgChoice::Number(lo, hi) => {
                    let lo = self.eval(lo, st, b);
                    (lo, self.eval(hi, st, b).min(lo.saturating_add(CHOICE_LIMIT as i64)))
                }
                ArgChoice::Seat { .. } => (0, self.seats as i64 - 1),
            };
            let mut arg = args.0;
            while arg <= args.1 {
                if let ArgChoice::Seat { others } = decl.arg
                    && ((others && arg == seat as i64) || st.eliminated & (1 << arg) != 0)
                {
                    arg += 1;
                    continue;
                }
                b[ARG] = arg;
                b[CHOSEN_ZONE] = -1;
                b[CHOSEN_MASK] = 0;
                match &decl.cards {
                    None => {
                        if decl.condition.as_ref().is_none_or(|c| self.eval(c, st, b) != 0) {
                            if pick == Some(total) {
                                return (total + 1, Some(Choice { action: a, arg, cards: 0 }), None);
                            }
                            total += 1;
                            blocks += 2;
                        }
                    }
                    Some(choice) => {
                        if let Some(Candidates { pos, n, lo, hi, .. }) = self.candidates(st, b, choice) {
                            let before = total;
                            for k in lo..=hi {
                                let count = binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
                                if let Some(r) = pick
                                    && r < total + count
                                {
                                    let mask = unrank_combination(r - total, &pos[..n], k);
                                    return (total + count, Some(Choice { action: a, arg, cards: mask }), None);
                                }
                                total += count;
                                if total >= CHOICE_LIMIT {
                                    return (CHOICE_LIMIT, None, None);
                                }
                            }
                            if total > before && pick.is_none() {
                                blocks += 1;
                                if blocks == 1 {
                                    let cand = pos[..n].iter().fold(0u64, |m, &i| m | (1 << i));
                                    block = Some(Block { action: a, arg, cand, n: n as u8, lo: lo as u8, hi: hi as u8 });
                                }
                            }
                        }
                    }
                }
                if total >= CHOICE_LIMIT {
                    return (CHOICE_LIMIT, None, None);
                }
                arg += 1;
            }
        }
        (total, None, if blocks == 1 { block } else { None })
    }

    /// The zone a choice of cards is made from, its candidate positions (those its `where`
    /// holds for, in zone order, at most 64) and the sizes of sets allowed: `None` when there
    /// is no zone or no allowed size.
    fn candidates(&self, st: &State, b: &mut [i64; BINDS], choice: &CardChoice) -> Option<Candidates> {
        let z = self.zone(&choice.from, st, b)?;
        let cards = &st.zones[z];
        let (pos, n) = match &choice.each {
            // Every position is a candidate.
            None => (POSITIONS, cards.len().min(64)),
            Some((slot, e)) => {
                let mut pos: [u8; 64] = [0; 64];
                let mut n = 0usize;
                for (i, &c) in cards.iter().enumerate().take(64) {
                    b[*slot as usize] = c as i64;
                    if self.eval(e, st, b) != 0 {
                        pos[n] = i as u8;
                        n += 1;
                    }
                }
                (pos, n)
            }
        };
        let lo = self.operand(&choice.min, st, b).max(0) as usize;
        let hi = (self.operand(&choice.max, st, b).max(0) as usize).min(n);
        if lo > hi { None } else { Some(Candidates { zone: z, pos, n, lo, hi }) }
    }

    /// Every legal choice of the waiting seat, appended to `out`.
    pub fn legal(&self, st: &State, out: &mut Vec<Choice>) {
        let Some((seat, at)) = st.waiting else { return };
        self.each_choice(st, seat as usize, at, &mut |c| {
            out.push(c);
            out.len() < CHOICE_LIMIT
        });
    }

    /// Calls `f` with every legal choice of `seat` at the choose instruction `at` until it
    /// returns false. Conditions see the candidate's cards as `chosen` and its argument as
    /// `number` / `target` through the bound names (no copy of the state).
    pub fn each_choice(&self, st: &State, seat: usize, at: u32, f: &mut dyn FnMut(Choice) -> bool) {
        let p = self.p();
        let Instr::Choose { actions, .. } = &p.code[at as usize] else { return };
        let mut b = st.binds;
        b[0] = seat as i64;
        for &a in actions {
            let decl = &p.actions[a as usize];
            b[CHOSEN_ZONE] = -1;
            let args: (i64, i64) = match &decl.arg {
                ArgChoice::None => (0, 0),
                ArgChoice::Number(lo, hi) => {
                    let lo = self.eval(lo, st, &mut b);
                    (lo, self.eval(hi, st, &mut b).min(lo.saturating_add(CHOICE_LIMIT as i64)))
                }
                ArgChoice::Seat { .. } => (0, self.seats as i64 - 1),
            };
            let mut arg = args.0;
            while arg <= args.1 {
                if let ArgChoice::Seat { others } = decl.arg
                    && ((others && arg == seat as i64) || st.eliminated & (1 << arg) != 0)
                {
                    arg += 1;
                    continue;
                }
                b[ARG] = arg;
                b[CHOSEN_ZONE] = -1;
                b[CHOSEN_MASK] = 0;
                match &decl.cards {
                    None => {
                        if decl.condition.as_ref().is_none_or(|c| self.eval(c, st, &mut b) != 0) && !f(Choice { action: a, arg, cards: 0 }) {
                            return;
                        }
                    }
                    Some(choice) => {
                        if !self.each_card_set(st, &mut b, decl, choice, a, arg, f) {
                            return;
                        }
                    }
                }
                arg += 1;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn each_card_set(
        &self,
        st: &State,
        b: &mut [i64; BINDS],
        decl: &ActionDecl,
        choice: &CardChoice,
        a: u16,
        arg: i64,
        f: &mut dyn FnMut(Choice) -> bool,
    ) -> bool {
        let Some(Candidates { zone: z, pos, n, lo, hi }) = self.candidates(st, b, choice) else { return true };
        let cards = &st.zones[z];
        // Sets of sizes lo..=hi of the candidate positions, smallest first, then in
        // lexicographic order of their positions.
        let mut emitted = 0usize;
        let mut idx = [0usize; 64];
        for k in lo..=hi {
            for (i, x) in idx.iter_mut().enumerate().take(k) {
                *x = i;
            }
            loop {
                let set = &idx[..k];
                let mut mask = 0u64;
                for &i in set {
                    mask |= 1 << pos[i];
                }
                let canonical = match choice.by {
                    ChoiceBy::Position => true,
                    ChoiceBy::Kind => self.kind_canonical(cards, &pos[..n], set),
                };
                if canonical {
                    b[CHOSEN_ZONE] = z as i64;
                    b[CHOSEN_MASK] = mask as i64;
                    let ok = choice.set.as_ref().is_none_or(|e| self.eval(e, st, b) != 0) && decl.condition.as_ref().is_none_or(|c| self.eval(c, st, b) != 0);
                    if ok {
                        emitted += 1;
                        if !f(Choice { action: a, arg, cards: mask }) || emitted >= CHOICE_LIMIT {
                            return false;
                        }
                    }
                }
                if !next_combination(&mut idx[..k], n) {
                    break;
                }
            }
        }
        true
    }

    /// Whether the set `idx` (indices into `pos`) is the first of its kinds: within each kind
    /// it takes the earliest candidates of that kind.
    fn kind_canonical(&self, cards: &[u16], pos: &[u8], idx: &[usize]) -> bool {
        let _ = pos.len();
        // For each chosen index, every earlier candidate of the same kind must be chosen too.
        for &i in idx {
            let kind = self.kinds[cards[pos[i] as usize] as usize];
            for j in 0..i {
                if self.kinds[cards[pos[j] as usize] as usize] == kind && !idx.contains(&j) {
                    return false;
                }
            }
        }
        true
    }

    /// Applies `choice` of the waiting seat and runs on to the next decision.
    pub fn apply(&self, st: &mut State, choice: Choice, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let p = self.p();
        let Some((seat, at)) = st.waiting else { return };
        let Instr::Choose { secret, .. } = &p.code[at as usize] else { return };
        let decl = &p.actions[choice.action as usize];
        st.binds[0] = seat as i64;
        st.binds[ARG] = choice.arg;
        st.binds[CHOSEN_ZONE] = -1;
        st.chosen.clear();
        if let Some(c) = &decl.cards
            && let Some(z) = self.zone_at(&c.from, st)
        {
            // The chosen positions in zone order, a set bit at a time.
            let cards = &st.zones[z];
            let mut m = if cards.len() >= 64 { choice.cards } else { choice.cards & ((1u64 << cards.len()) - 1) };
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                st.chosen.push(cards[i]);
            }
        }
        if *secret {
            // Kept secret until `reveal choices`, which makes it the seat's last choice too.
            st.secret[seat as usize] = (choice.action + 1, choice.arg);
            st.revealed = false;
        } else {
            st.last[seat as usize] = (choice.action + 1, choice.arg);
        }
        if log.enabled() {
            let mut b = st.binds;
            let said = format!("seat {seat} {}", self.render(&decl.say, st, &mut b));
            let own = match &decl.say_own {
                Some(t) => format!("seat {seat} {}", self.render(t, st, &mut b)),
                None => said.clone(),
            };
            let me = 1u8 << seat;
            let public = if *secret { format!("seat {seat} chooses in secret") } else { said };
            if own == public {
                log.emit(|| Event::all(own));
            } else {
                log.emit(|| Event { to: me, text: own });
                log.emit(|| Event { to: !me, text: public });
            }
        }
        st.waiting = None;
        // A choice whose next step is the end of the action asking it (a seat that rolls
        // again, say) replaces that action instead of nesting in it, so repeating has no depth.
        let mut next = at as usize + 1;
        while let Instr::Jump(to) = p.code[next] {
            next = to as usize;
        }
        if matches!(p.code[next], Instr::Return) && st.depth > 0 {
            st.pc = decl.code;
        } else if (st.depth as usize) < STACK {
            st.stack[st.depth as usize] = at + 1;
            st.depth += 1;
            st.pc = decl.code;
        } else {
            // Actions nested deeper than the stack: the game stops (`stuck`) rather than skip
            // the action's steps.
            self.end_game(st, p.reason_stuck);
            log.emit(|| Event::all(format!("the game is stopped: actions nested more than {STACK} deep (end reason `stuck`)")));
            return;
        }
        self.run(st, rng, log);
    }
}

/// The candidates of a choice of cards ([`Bound::candidates`]).
struct Candidates {
    /// The zone instance chosen from.
    zone: usize,
    /// Candidate positions in zone order (the first `n`).
    pos: [u8; 64],
    /// How many candidates.
    n: usize,
    /// Fewest cards in a set.
    lo: usize,
    /// Most cards in a set (at most `n`).
    hi: usize,
}
