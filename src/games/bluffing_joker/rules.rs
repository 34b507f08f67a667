//! Bluffing Joker's table state and the turn: drawing up to the hand size (reshuffling the
//! discard pile), the face-down play with its declaration, the doubts in turn order, their
//! resolution both ways (pegs sent to start, extra turns), the discard-and-draw, the end of
//! the game and the turn cap.

use super::board::{Board, Move, Pos, START, on_track, wrap};
use super::cards::{CardId, Hand, JOKER, RANKS, Rank, rank_of};
use super::params::MAX_PLAYERS;
use super::{Action, BluffingJoker, Decision, Event, JokerMetrics, View, board, params};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Outcome, SearchDefaults, ToMove, rng};

/// End reasons, indexed by `Outcome::end_reason`.
pub const END_REASONS: &[&str] = &["home", "cap"];
/// A team brought every peg home.
pub const END_HOME: u8 = 0;
/// The turn cap was reached: no winner.
pub const END_CAP: u8 = 1;

/// Why a peg was sent to its start (for the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The liar's peg, chosen by the right doubter's team.
    RightDoubt,
    /// The wrong doubter's peg, chosen by the active player.
    WrongDoubt,
}

/// What is being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The active seat plays a card face down with a declaration, or discards.
    Play,
    /// Opponent `seat` answers the declaration: doubt or pass.
    Doubt {
        /// The seat asked.
        seat: u8,
    },
    /// `chooser` picks which of `victim`'s track pegs goes to its start.
    Penalty {
        /// The seat choosing.
        chooser: u8,
        /// The player whose peg goes (the mover of the penalised seat).
        victim: u8,
        /// Why.
        cause: Cause,
    },
    /// The game has ended.
    Over,
}

/// The card played face down and its declaration, until the doubts are over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The card played (hidden from the other seats unless doubted).
    pub card: CardId,
    /// The declared value.
    pub declared: Rank,
    /// The declared move.
    pub mv: Move,
}

/// Counters of one game, read by the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Opponents' pegs sent to start by a landing (come-out, move or joker).
    pub sent_by_landing: u32,
    /// Teammates' pegs sent to their in-spot by a landing.
    pub sent_to_spot: u32,
    /// Pegs sent to start by a doubt (either way).
    pub sent_by_doubt: u32,
    /// Doubts cast.
    pub doubts: u32,
    /// Doubts that were right (the declaration was false).
    pub right_doubts: u32,
    /// False declarations.
    pub bluffs: u32,
    /// Turns ended by discard-and-draw.
    pub discards: u32,
    /// Extra turns granted.
    pub extra_turns: u32,
}

/// The whole table, hidden cards included.
#[derive(Clone, Debug)]
pub struct State {
    /// Pegs on the board (public).
    pub board: Board,
    /// Each seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// The draw pile, top last.
    pub draw: Vec<CardId>,
    /// The discard pile, top last (face down; doubted cards were shown).
    pub discard: Vec<CardId>,
    /// Ranks of the cards in the discard pile that were shown (doubted), since the last
    /// reshuffle (public).
    pub revealed: [u8; RANKS],
    /// What is being decided.
    pub phase: Phase,
    /// The active seat.
    pub current: u8,
    /// The played card while doubts are asked.
    pub pending: Option<Pending>,
    /// Extra turns each seat takes right after its next turn ends.
    pub extra: [u16; MAX_PLAYERS],
    /// Turns begun (extra turns included).
    pub turns: u32,
    /// Rounds begun (a round starts each time the regular rotation reaches seat 0).
    pub rounds: u32,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// The winning team once over by `home`.
    pub winner: Option<u8>,
    /// The game's counters.
    pub counters: Counters,
}

impl BluffingJoker {
    /// Draws one card for `seat` (reshuffling the discard pile into the draw pile when it
    /// is empty); false when both piles are empty.
    fn draw_one(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) -> bool {
        if s.draw.is_empty() {
            if s.discard.is_empty() {
                return false;
            }
            std::mem::swap(&mut s.draw, &mut s.discard);
            rng::shuffle(&mut s.draw, rng);
            s.revealed = [0; RANKS];
            log.emit(|| Event::Reshuffled { order: s.draw.clone() });
        }
        let card = s.draw.pop().expect("not empty");
        s.hands[seat].add(card);
        log.emit(|| Event::Drew { seat: seat as u8, card });
        true
    }

    fn start_turn(&self, s: &mut State, extra: bool, rng: &mut GameRng, log: &mut EventLog<Event>) {
        s.turns += 1;
        let seat = s.current as usize;
        log.emit(|| Event::TurnStarts { turn: s.turns, seat: seat as u8, extra });
        while s.hands[seat].len() < self.params.hand_size as usize {
            if !self.draw_one(s, seat, rng, log) {
                break;
            }
        }
        s.phase = Phase::Play;
    }

    fn end_turn(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        s.pending = None;
        if s.phase == Phase::Over {
            return;
        }
        if s.turns >= self.params.turn_cap {
            s.phase = Phase::Over;
            s.end_reason = END_CAP;
            log.emit(|| Event::GameOver { reason: END_CAP, turns: s.turns, winner: None });
            return;
        }
        let seat = s.current as usize;
        let extra = s.extra[seat] > 0;
        if extra {
            s.extra[seat] -= 1;
        } else {
            s.current = wrap(seat + 1, self.players) as u8;
            if s.current == 0 {
                s.rounds += 1;
            }
        }
        self.start_turn(s, extra, rng, log);
    }

    /// Makes the pending declared move; true when it ended the game.
    fn resolve_move(&self, s: &mut State, log: &mut EventLog<Event>) -> bool {
        let p = s.pending.expect("a card is pending");
        let seat = s.current as usize;
        let steps = self.geo.make_move(&mut s.board, seat, p.declared, p.mv);
        for st in steps.iter().flatten() {
            for d in st.chain.items() {
                if d.to == START {
                    s.counters.sent_by_landing += 1;
                } else {
                    s.counters.sent_to_spot += 1;
                }
                log.emit(|| Event::Displaced { color: d.color, from: d.from, to: d.to });
            }
        }
        log.emit(|| Event::Moved { seat: seat as u8, mv: p.mv });
        let team = self.geo.team(seat);
        if self.geo.team_finished(&s.board, team) {
            s.phase = Phase::Over;
            s.end_reason = END_HOME;
            s.winner = Some(team as u8);
            log.emit(|| Event::GameOver { reason: END_HOME, turns: s.turns, winner: Some(team as u8) });
            return true;
        }
        false
    }

    /// A penalty on `penalised`'s pegs (its mover's) chosen by `chooser`; with none on the
    /// track, `beneficiary` gets an extra turn. Returns true when a choice is pending.
    fn penalty(&self, s: &mut State, chooser: usize, penalised: usize, cause: Cause, beneficiary: usize, log: &mut EventLog<Event>) -> bool {
        let Some(victim) = self.geo.mover(&s.board, penalised) else {
            return false;
        };
        let mut on = [0 as Pos; super::params::MAX_PEGS];
        let mut n = 0;
        for &p in &s.board.pegs[victim][..self.geo.pegs] {
            if on_track(p) {
                on[n] = p;
                n += 1;
            }
        }
        match n {
            0 => {
                if self.params.extra_turns {
                    s.extra[beneficiary] += 1;
                    s.counters.extra_turns += 1;
                    log.emit(|| Event::ExtraTurn { seat: beneficiary as u8 });
                }
                false
            }
            1 => {
                self.send_back(s, victim, on[0], log);
                false
            }
            _ => {
                s.phase = Phase::Penalty { chooser: chooser as u8, victim: victim as u8, cause };
                true
            }
        }
    }

    fn send_back(&self, s: &mut State, victim: usize, hole: Pos, log: &mut EventLog<Event>) {
        self.geo.send_to_start(&mut s.board, victim, hole);
        s.counters.sent_by_doubt += 1;
        log.emit(|| Event::SentBack { color: victim as u8, hole });
    }

    /// The next opponent of `active` after `asked` in turn order, or `None` when `asked`
    /// was the last (the opponents are the seats active + 1, active + 3, ...).
    #[inline]
    fn next_doubter(&self, active: usize, asked: usize) -> Option<usize> {
        let next = wrap(asked + 2, self.players);
        (next != wrap(active + 1, self.players)).then_some(next)
    }
}

impl Game for BluffingJoker {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = JokerMetrics;
    const INFO: GameInfo = GameInfo {
        id: "bluffing-joker",
        name: "Bluffing Joker",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "holes of progress",
        default_cap: 5000,
        default_bot: "honest",
        search: SearchDefaults {
            // `ismcts` models the table with `honest` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            ..SearchDefaults::ENGINE
        },
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.players
    }

    /// Two teams seated alternately: team t holds seats t, t + 2, ...
    fn teams(&self) -> Vec<Vec<usize>> {
        (0..2).map(|t| (t..self.players).step_by(2).collect()).collect()
    }

    fn turn_cap(&self) -> u32 {
        self.params.turn_cap
    }

    /// A new game: shuffle the stock, deal `deal` cards to each seat, seat 0 starts.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut draw = self.stock.clone();
        rng::shuffle(&mut draw, rng);
        let mut hands = [Hand::EMPTY; MAX_PLAYERS];
        for _ in 0..self.params.deal {
            for hand in hands.iter_mut().take(self.players) {
                if let Some(c) = draw.pop() {
                    hand.add(c);
                }
            }
        }
        for (seat, hand) in hands.iter().enumerate().take(self.players) {
            log.emit(|| Event::Dealt { seat: seat as u8, hand: *hand });
        }
        let mut s = State {
            board: self.geo.empty_board(),
            hands,
            draw,
            discard: Vec::with_capacity(self.stock.len()),
            revealed: [0; RANKS],
            phase: Phase::Play,
            current: 0,
            pending: None,
            extra: [0; MAX_PLAYERS],
            turns: 0,
            rounds: 1,
            end_reason: END_HOME,
            winner: None,
            counters: Counters::default(),
        };
        self.start_turn(&mut s, false, rng, log);
        s
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        match s.phase {
            Phase::Over => ToMove::Over,
            Phase::Play => ToMove::Seat(s.current as usize),
            Phase::Doubt { seat } => ToMove::Seat(seat as usize),
            Phase::Penalty { chooser, .. } => ToMove::Seat(chooser as usize),
        }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        let decision = match s.phase {
            Phase::Play => Decision::Play,
            Phase::Doubt { .. } => Decision::Doubt,
            Phase::Penalty { victim, .. } => Decision::Penalty { victim },
            Phase::Over => Decision::Over,
        };
        View {
            seat,
            decision,
            hand: &s.hands[seat],
            board: &s.board,
            active: s.current as usize,
            declared: s.pending.map(|p| (p.declared, p.mv)),
            revealed: &s.revealed,
            draw_pile: s.draw.len(),
            discard_pile: s.discard.len(),
            turn: s.turns,
        }
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        match view.decision {
            Decision::Play => {
                // Card by card, each value it may be declared as, each value's moves in
                // canonical order. A value's moves do not depend on the card: with bluffing
                // they are listed once, for the first card held, and copied for the others.
                let mut must_play = false;
                if let Some(ctx) = self.geo.movers(view.board, view.seat) {
                    let moves_of = |card: Rank, declared: Rank, out: &mut Vec<Action>| {
                        let before = out.len();
                        self.geo.for_each_move_with(view.board, view.seat, &ctx, declared, &mut |mv, _| {
                            out.push(Action::Play { card, declared, mv });
                            false
                        });
                        out.len() > before
                    };
                    let mut cards = view.hand.ranks();
                    if self.params.doubt.bluffing {
                        if let Some(first) = cards.next() {
                            let start = out.len();
                            must_play = self.declared_plays(view, &ctx, first, out);
                            let end = out.len();
                            for card in cards {
                                for i in start..end {
                                    if let Action::Play { declared, mv, .. } = out[i] {
                                        out.push(Action::Play { card, declared, mv });
                                    }
                                }
                            }
                        }
                    } else {
                        for card in cards {
                            let any = moves_of(card, card, out);
                            must_play |= any && card != JOKER;
                        }
                    }
                }
                debug_assert_eq!(must_play, self.must_play(view.board, view.seat, view.hand));
                if !must_play {
                    out.extend(view.hand.ranks().map(|card| Action::Discard { card }));
                }
            }
            Decision::Doubt => out.extend([Action::Pass, Action::Doubt]),
            Decision::Penalty { victim } => {
                let mut placed = [0; params::MAX_PEGS];
                let n = self.geo.placed(view.board, victim as usize, &mut placed);
                out.extend(placed[..n].iter().filter(|&&p| board::on_track(p)).map(|&hole| Action::SendBack { hole }));
            }
            Decision::Over => {}
        }
    }

    /// Uniform over [`Game::legal_actions`] as listed there, without copying the plays for
    /// every card: with bluffing the list is the first held rank's plays (every declared
    /// value's moves), the same for each other rank held, then the discards when no play is
    /// forced; the same index of that list is drawn and its action built.
    fn random_action(&self, view: &View, rng: &mut GameRng, scratch: &mut Vec<Action>) -> Action {
        scratch.clear();
        if view.decision == Decision::Play
            && self.params.doubt.bluffing
            && let Some(ctx) = self.geo.movers(view.board, view.seat)
            && let Some(first) = view.hand.ranks().next()
        {
            let must_play = self.declared_plays(view, &ctx, first, scratch);
            let (plays, held) = (scratch.len(), view.hand.ranks().count());
            let listed = plays * held + if must_play { 0 } else { held };
            assert!(listed > 0, "a seat asked to decide must have a legal action");
            let i = crate::engine::rng::below(listed as u32, rng) as usize;
            if i < plays * held {
                let card = view.hand.ranks().nth(i / plays).expect("a held rank");
                let Action::Play { declared, mv, .. } = scratch[i % plays] else { unreachable!("plays only") };
                return Action::Play { card, declared, mv };
            }
            let card = view.hand.ranks().nth(i - plays * held).expect("a held rank");
            return Action::Discard { card };
        }
        self.legal_actions(view, scratch);
        assert!(!scratch.is_empty(), "a seat asked to decide must have a legal action");
        scratch[crate::engine::rng::below(scratch.len() as u32, rng) as usize]
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        match (*action, view.decision) {
            (Action::Play { card, declared, mv }, Decision::Play) => {
                (card as usize) < RANKS
                    && (declared as usize) < RANKS
                    && view.hand.count(card) > 0
                    && self.may_declare(card, declared)
                    && self.geo.is_legal_move(view.board, view.seat, declared, mv)
            }
            (Action::Discard { card }, Decision::Play) => {
                (card as usize) < RANKS && view.hand.count(card) > 0 && !self.must_play(view.board, view.seat, view.hand)
            }
            (Action::Pass | Action::Doubt, Decision::Doubt) => true,
            (Action::SendBack { hole }, Decision::Penalty { victim }) => board::on_track(hole) && self.geo.peg_at(view.board, victim as usize, hole).is_some(),
            _ => false,
        }
    }

    /// Applies a legal action of `seat`.
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match action {
            Action::Play { card, declared, mv } => {
                let card = s.hands[seat].remove_rank(card);
                if rank_of(card) != declared {
                    s.counters.bluffs += 1;
                }
                s.pending = Some(Pending { card, declared, mv });
                log.emit(|| Event::Played { seat: seat as u8, card });
                log.emit(|| Event::Declared { seat: seat as u8, declared, mv });
                s.phase = Phase::Doubt { seat: wrap(seat + 1, self.players) as u8 };
            }
            Action::Discard { card } => {
                let card = s.hands[seat].remove_rank(card);
                s.discard.push(card);
                s.counters.discards += 1;
                log.emit(|| Event::Discarded { seat: seat as u8, card });
                self.draw_one(s, seat, rng, log);
                self.end_turn(s, rng, log);
            }
            Action::Pass => {
                log.emit(|| Event::Passed { seat: seat as u8 });
                let active = s.current as usize;
                match self.next_doubter(active, seat) {
                    Some(next) => s.phase = Phase::Doubt { seat: next as u8 },
                    None => {
                        let p = s.pending.expect("a card is pending");
                        s.discard.push(p.card);
                        self.resolve_move(s, log);
                        self.end_turn(s, rng, log);
                    }
                }
            }
            Action::Doubt => {
                let active = s.current as usize;
                let p = s.pending.expect("a card is pending");
                s.discard.push(p.card);
                let rank = rank_of(p.card);
                s.revealed[rank as usize] += 1;
                s.counters.doubts += 1;
                let right = rank != p.declared;
                log.emit(|| Event::Doubted { seat: seat as u8, card: p.card, right });
                if right {
                    s.counters.right_doubts += 1;
                    if !self.params.doubt.right_doubt_stops_move && self.resolve_move(s, log) {
                        return;
                    }
                    if self.penalty(s, seat, active, Cause::RightDoubt, seat, log) {
                        return;
                    }
                } else {
                    if self.resolve_move(s, log) {
                        return;
                    }
                    if self.penalty(s, active, seat, Cause::WrongDoubt, active, log) {
                        return;
                    }
                }
                s.phase = Phase::Play;
                self.end_turn(s, rng, log);
            }
            Action::SendBack { hole } => {
                if let Phase::Penalty { victim, .. } = s.phase {
                    self.send_back(s, victim as usize, hole, log);
                }
                s.phase = Phase::Play;
                self.end_turn(s, rng, log);
            }
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        for seat in 0..self.players {
            o.scores[seat] = s.board.home_count[seat] as i64;
        }
        if let Some(team) = s.winner {
            o.winners = (0..self.players).filter(|&p| p % 2 == team as usize).fold(0, |m, p| m | (1 << p));
        }
        o
    }

    /// Conservation and sanity: every peg in exactly one place (start + track + home =
    /// pegs per player, occupancy and homes agree with the pegs), every card in exactly one
    /// place (hands + draw + discard + the pending card = the stock, card by card), hands
    /// within the hand size, the revealed counts within the discard pile, a sane phase.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let g = &self.geo;
        let b = &s.board;
        let mut occ = [0u8; super::params::MAX_TRACK];
        for c in 0..g.players {
            let (mut start, mut track, mut home) = (0, 0, 0);
            let mut home_bits = 0u16;
            for &p in &b.pegs[c][..g.pegs] {
                if p == START {
                    start += 1;
                } else if on_track(p) {
                    if p as usize >= g.track {
                        return Err(format!("player {c} has a peg off the track at {p}"));
                    }
                    if occ[p as usize] != 0 {
                        return Err(format!("two pegs on hole {p}"));
                    }
                    occ[p as usize] = c as u8 + 1;
                    track += 1;
                } else if super::board::in_home(p) {
                    let k = p - super::board::HOME;
                    if k as usize > g.home as usize || home_bits & (1 << k) != 0 {
                        return Err(format!("player {c} has a bad home peg at depth {k}"));
                    }
                    home_bits |= 1 << k;
                    home += 1;
                } else {
                    return Err(format!("player {c} has a peg at invalid position {p}"));
                }
            }
            if start + track + home != g.pegs {
                return Err(format!("player {c}: {start} + {track} + {home} pegs != {}", g.pegs));
            }
            if b.home[c] != home_bits || b.home_count[c] as usize != home {
                return Err(format!("player {c}: home bits or count disagree with its pegs"));
            }
        }
        if occ[..g.track] != b.occ[..g.track] || b.occ[g.track..].iter().any(|&o| o != 0) {
            return Err("track occupancy disagrees with the pegs".into());
        }
        let mut counts = [0u32; super::cards::CARD_IDS];
        for h in &s.hands[..self.players] {
            if h.len() > self.params.hand_size as usize {
                return Err(format!("a hand holds {} cards > hand_size", h.len()));
            }
            let mut per_rank = [0u8; RANKS];
            for &c in h.cards() {
                counts[c as usize] += 1;
                per_rank[rank_of(c) as usize] += 1;
            }
            if &per_rank != h.counts() {
                return Err("a hand's rank counts disagree with its cards".into());
            }
        }
        for &c in s.draw.iter().chain(&s.discard) {
            counts[c as usize] += 1;
        }
        // The pending card is face down on the table until the doubts end.
        if let (Some(p), Phase::Doubt { .. }) = (s.pending, s.phase) {
            counts[p.card as usize] += 1;
        }
        let decks = self.params.deck_count();
        for (id, &n) in counts.iter().enumerate() {
            let want = if id as CardId == super::cards::JOKER_CARD { self.params.joker_count() } else { decks };
            if n != want {
                return Err(format!("card {} is {n} times at the table, {want} in the stock", super::cards::card_name(id as CardId)));
            }
        }
        let mut in_discard = [0u8; RANKS];
        for &c in &s.discard {
            in_discard[rank_of(c) as usize] += 1;
        }
        if (0..RANKS).any(|r| s.revealed[r] > in_discard[r]) {
            return Err("more cards revealed than lie in the discard pile".into());
        }
        match s.phase {
            Phase::Doubt { seat } => {
                if s.pending.is_none() || g.team(seat as usize) == g.team(s.current as usize) {
                    return Err("a doubt is asked of a teammate or with no card pending".into());
                }
            }
            Phase::Penalty { chooser, victim, .. } => {
                if g.team(chooser as usize) == g.team(victim as usize) {
                    return Err("a penalty is chosen by the victim's own team".into());
                }
            }
            Phase::Play => {
                if s.pending.is_some() {
                    return Err("a card is pending at the start of a play".into());
                }
            }
            Phase::Over => {}
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("{} turns > turn cap", s.turns));
        }
        if let Some(t) = s.winner
            && !g.team_finished(b, t as usize)
        {
            return Err("the winning team has pegs out of home".into());
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat < self.players && self.to_move(s) == ToMove::Seat(seat)
    }

    /// Standing: the seat's team's progress, the sum over both partners' pegs of holes moved
    /// forward (0 in start, the track length plus the depth in home), so partners stand level.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        let team = self.geo.team(seat);
        (team..self.players)
            .step_by(2)
            .map(|color| s.board.pegs[color][..self.geo.pegs].iter().map(|&p| i64::from(self.geo.progress(color, p))).sum::<i64>())
            .sum()
    }
}
