//! A rules file compiled: its declarations (parameters, card attributes, cards, zones,
//! counters, actions, figures, bots) and its steps as one list of instructions the machine
//! runs. Built once per file text ([`super::compile`]); a game binds parameter values to it.

use super::expr::{Expr, Zone};

/// Most seats' zones and counters laid out per seat (the engine's seat limit).
pub const SEAT_SLOTS: usize = crate::engine::MAX_SEATS;

/// Slots for bound names (loop variables, aggregates, the deciding seat).
pub const BINDS: usize = 48;

/// Slots below this are the steps' own (loops, choosers: kept while a decision waits); the
/// rest are used by expressions while they are evaluated, by nesting depth.
pub const STEP_BINDS: usize = 32;

/// Depth of nested actions (an action whose steps ask another seat to choose).
pub const STACK: usize = 8;

/// A parameter a designer may set (`--set`, `extends`, sweep, tune, audit).
#[derive(Clone, Debug)]
pub struct ParamDecl {
    /// Dotted key (`hand_size`, `deck.base_sets`).
    pub key: String,
    /// What it is: an integer, a boolean, a word from a list, or a table of rows.
    pub kind: ParamKind,
    /// The default value as written (an integer, or an expression over other parameters).
    pub default: ParamDefault,
    /// Smallest allowed integer.
    pub min: i64,
    /// Largest allowed integer.
    pub max: i64,
    /// One line in the designer's words.
    pub meaning: String,
}

/// The kind of a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int,
    /// `true` or `false` (read as 1 or 0).
    Bool,
    /// One of the words (read as its index).
    Word(Vec<String>),
    /// An integer in `min..=max` (`min >= 0`) or one of the words, the first read as -1,
    /// the second as -2, ... (`"bank"` for the whole bank).
    IntOrWord(Vec<String>),
    /// A table of integer rows keyed `1`, `2`, ...: `row(key, n)` reads it, continuing past
    /// the last row by `step`.
    Rows {
        /// The rows' step past the last row.
        step: i64,
    },
}

/// A parameter's default.
#[derive(Clone, Debug)]
pub enum ParamDefault {
    /// A fixed value.
    Value(i64),
    /// Rows of a table parameter (row 1 first).
    Rows(Vec<i64>),
    /// An expression over earlier parameters (`players * 2`).
    Expr(Expr),
}

/// A card attribute: its values' names.
#[derive(Clone, Debug)]
pub struct AttrDecl {
    /// Attribute name (`color`, `rank`).
    pub name: String,
    /// Value names in order (`red`, ...); for a numeric attribute the numbers as written.
    pub values: Vec<String>,
    /// For a numeric attribute (`rank = { from = 1, to = 13 }`), the number of value 0.
    pub numeric_from: Option<i64>,
}

/// A group of cards of the deck: every combination of the listed attribute values, in
/// `copies` copies each, starting in `zone`.
#[derive(Clone, Debug)]
pub struct CardGroup {
    /// Per attribute, the value indices this group takes (attributes not listed: value 0 and
    /// `none`).
    pub values: Vec<Vec<u16>>,
    /// Copies of each combination.
    pub copies: Expr,
    /// The shared zone the cards start in.
    pub zone: u16,
    /// The group's name in the file (`base`), for `playtest rules`.
    pub name: String,
    /// When the group's cards are dice: the attribute a roll sets (its face). Each die is
    /// one card per face, of which exactly one is on the table ([`Instr::RollDice`]).
    pub die: Option<u8>,
    /// When the group is one of the Chroma kit's sets (`set = "colors"`): the set's name and
    /// which part of it this group is (a colors set is two groups: the color wilds, then the
    /// all-colors wild).
    pub kit_set: Option<(String, u8)>,
}

/// Who sees a zone's cards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Visibility {
    /// Every seat sees every card.
    Everyone,
    /// Only the seat that owns it (zones per seat).
    Owner,
    /// Nobody (face down); the size is public.
    Nobody,
    /// Every seat sees the top card only.
    Top,
}

/// A zone: a place cards are, shared or one per seat.
#[derive(Clone, Debug)]
pub struct ZoneDecl {
    /// Name in the file (`hand`, `draw`).
    pub name: String,
    /// Whether each seat has one.
    pub per_seat: bool,
    /// Who sees its cards.
    pub visibility: Visibility,
    /// Whether its order matters (a pile); an unordered zone (a hand kept sorted) shows and
    /// compares its cards as a multiset.
    pub ordered: bool,
    /// First instance index in the state's zone list.
    pub first: u16,
}

impl ZoneDecl {
    /// Instance index of this zone for `seat` (shared zones ignore it).
    pub fn instance(&self, seat: usize) -> usize {
        if self.per_seat { self.first as usize + seat } else { self.first as usize }
    }
}

/// What a counter is kept per.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Per {
    /// One value.
    One,
    /// One value per seat.
    Seat,
    /// One value per value of a card attribute.
    Attr(u8),
}

/// A counter: pennies, points, petals per color, a bank.
#[derive(Clone, Debug)]
pub struct CounterDecl {
    /// Name in the file.
    pub name: String,
    /// What it is kept per.
    pub per: Per,
    /// First slot in the state's counter list.
    pub first: u16,
    /// Number of slots.
    pub len: u16,
    /// Start value (per seat: `seat` bound).
    pub start: Expr,
    /// Whether the table page lists it (`shown = false`: a working value of the rules, such
    /// as a claim's arithmetic; still public).
    pub shown: bool,
}

/// How a choice of cards ranges: over hand positions or over kinds of card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChoiceBy {
    /// Every set of positions is its own choice (two red stars are two choices).
    Position,
    /// Sets with the same kinds of card are one choice.
    Kind,
}

/// The cards an action chooses.
#[derive(Clone, Debug)]
pub struct CardChoice {
    /// The zone chosen from.
    pub from: Zone,
    /// Fewest cards.
    pub min: Expr,
    /// Most cards.
    pub max: Expr,
    /// A condition on each card (`card` bound in the slot).
    pub each: Option<(u8, Expr)>,
    /// A condition on the whole set (`chosen` is the set).
    pub set: Option<Expr>,
    /// Positions or kinds.
    pub by: ChoiceBy,
}

/// What an action's argument ranges over.
#[derive(Clone, Debug)]
pub enum ArgChoice {
    /// No argument.
    None,
    /// A number in `lo..=hi`.
    Number(Expr, Expr),
    /// A seat for which the condition holds (`target` bound); `others`: never the chooser.
    Seat {
        /// Whether the chooser itself is excluded.
        others: bool,
    },
}

/// An action a seat may choose.
#[derive(Clone, Debug)]
pub struct ActionDecl {
    /// Name in the file (the action's kind in traces and the audit).
    pub name: String,
    /// When it may be chosen (`seat` bound to the chooser; `target`/`number` bound to its
    /// argument).
    pub condition: Option<Expr>,
    /// The cards it chooses.
    pub cards: Option<CardChoice>,
    /// Its argument.
    pub arg: ArgChoice,
    /// What every seat reads of it in the trace.
    pub say: Template,
    /// What the acting seat reads (default: `say`).
    pub say_own: Option<Template>,
    /// First instruction of its steps.
    pub code: u32,
}

/// A text with `{...}` holes: `{cards}` (the chosen cards), `{seat}`, `{target}`,
/// `{number}`, `{card: E}`, `{seat: E}`, `{ATTRIBUTE: E}` (a value's name), or an expression.
#[derive(Clone, Debug, Default)]
pub struct Template {
    /// Literal text and holes in order.
    pub parts: Vec<Part>,
}

/// One part of a [`Template`].
#[derive(Clone, Debug)]
pub enum Part {
    /// Literal text.
    Text(String),
    /// The chosen cards by name.
    Cards,
    /// A card's name (an expression giving a card).
    Card(Expr),
    /// A seat's name (`seat 2`).
    Seat(Expr),
    /// The name of an attribute's value by its number (`{color: number / 5}` reads `red`).
    Attr(u8, Expr),
    /// A number.
    Value(Expr),
}

/// How a counter is changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

/// Where in a zone cards are taken from or put.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    /// The top (the end of the list).
    Top,
    /// The bottom.
    Bottom,
}

/// Which seats a seat loop visits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatLoop {
    /// Every acting seat from the current one in turn order.
    Players,
    /// Every acting seat after the current one in turn order.
    Others,
    /// Every seat, dummies included, in seat order.
    Seats,
}

/// One instruction of the machine. A `u8` tag first (no niche in a field): the machine's
/// dispatch reads it in one load.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Instr {
    /// Moves `count` cards (all when `None`) from an end of one zone to an end of another.
    Move {
        /// Source.
        from: Zone,
        /// Destination.
        to: Zone,
        /// How many (at most what the source holds).
        count: Option<Expr>,
        /// Where they are taken.
        take: End,
        /// Where they are put.
        put: End,
    },
    /// Moves the cards of a zone for which a condition holds (`card` bound in `slot`), from
    /// the top down, at most `count` (all when `None`): `move all from hand to discard where
    /// card.color == red`.
    MoveWhere {
        /// Source.
        from: Zone,
        /// Destination.
        to: Zone,
        /// How many at most.
        count: Option<Expr>,
        /// Where they are put.
        put: End,
        /// The bind slot of `card` in the condition.
        slot: u8,
        /// The condition on each card.
        cond: Expr,
    },
    /// Moves the chosen cards (from their zone) to a zone's top.
    MoveChosen {
        /// Destination.
        to: Zone,
    },
    /// Moves one card (an expression giving a card) from wherever it is to a zone's top.
    MoveCard {
        /// The card.
        card: Expr,
        /// Destination.
        to: Zone,
    },
    /// Moves cards one at a time from a zone to the zone of a seat until the condition holds
    /// for that seat or the source is empty (`fill hand to 5 from draw`).
    Fill {
        /// The zone filled (of `seat`).
        to: Zone,
        /// Target size.
        size: Expr,
        /// Source.
        from: Zone,
    },
    /// Deals `count` cards to each seat's zone, one at a time in turn order.
    Deal {
        /// Source.
        from: Zone,
        /// The zone per seat.
        to: u16,
        /// Cards per seat.
        count: Expr,
    },
    /// Shuffles a zone.
    Shuffle(Zone),
    /// Shows a zone's cards to every seat (known until they move where nobody sees).
    Reveal(Zone),
    /// Rolls every die in a zone (or the chosen ones): each shows a fair random face, seen
    /// by the seats that see its place; other cards stay as they are.
    RollDice(Zone),
    /// Makes the seats' secret choices public.
    RevealChoices,
    /// Changes a counter.
    Assign {
        /// Counter.
        counter: u16,
        /// The counter's first slot and number of slots (set by [`Program::lower`]).
        slots: (u16, u16),
        /// Index (seat or attribute value).
        index: Option<Expr>,
        /// `=`, `+=` or `-=`.
        op: AssignOp,
        /// Value.
        value: Expr,
    },
    /// Sets a counter to a fair roll of 1..=faces.
    Roll {
        /// Counter.
        counter: u16,
        /// Index.
        index: Option<Expr>,
        /// Faces.
        faces: Expr,
    },
    /// Writes a line to the trace (every seat sees it).
    Say(Template),
    /// Jumps.
    Jump(u32),
    /// Jumps when the condition is false.
    JumpIfNot(Expr, u32),
    /// Starts a seat loop: the bind slot gets the first seat, `count` slot the seats left.
    SeatLoopStart {
        /// Which seats.
        which: SeatLoop,
        /// The loop's seat slot.
        slot: u8,
        /// The loop's counter slot.
        left: u8,
        /// Where to go when no seat is left.
        exit: u32,
    },
    /// Next seat of a seat loop; jumps to `body` while seats are left.
    SeatLoopNext {
        /// Which seats.
        which: SeatLoop,
        /// The loop's seat slot.
        slot: u8,
        /// The loop's counter slot.
        left: u8,
        /// The loop's body.
        body: u32,
    },
    /// Starts a loop over the chosen cards (copied aside): slot gets the first card.
    CardLoopStart {
        /// The card slot.
        slot: u8,
        /// The index slot.
        index: u8,
        /// Where to go when none is left.
        exit: u32,
    },
    /// Next card of a card loop.
    CardLoopNext {
        /// The card slot.
        slot: u8,
        /// The index slot.
        index: u8,
        /// The loop's body.
        body: u32,
    },
    /// A while loop's guard: counts passes in `guard` and stops the game (reason `stuck`)
    /// past the limit, so a loop without a decision cannot hang.
    LoopGuard {
        /// The pass counter slot.
        guard: u8,
    },
    /// Sets a bind slot.
    Bind(u8, Expr),
    /// A decision: seat (`None`: the current seat) chooses one of the actions.
    Choose {
        /// Who chooses.
        seat: Option<Expr>,
        /// The actions offered.
        actions: Vec<u16>,
        /// Whether the choice is secret until `reveal choices` (and its steps wait).
        secret: bool,
        /// The bind slot that holds the chooser during the action's steps.
        slot: u8,
    },
    /// Returns from an action's steps.
    Return,
    /// Ends the turn now.
    EndTurn,
    /// Ends the round now.
    EndRound,
    /// Ends the game now with an end reason.
    EndGame(u8),
    /// The start of a turn: passes over seats the skip condition holds for.
    TurnStart,
    /// The end of a turn: counts it, checks the end, the round's end and the cap, passes
    /// the turn on.
    TurnEnd,
    /// The start of a round.
    RoundStart,
    /// After the round's end steps: counts the round, ends the match or starts the next.
    RoundEnd,
    /// The next turn goes to this seat.
    NextSeat(Expr),
    /// The next seat in turn order loses its turn.
    Skip,
    /// The turn order turns around.
    Reverse,
    /// A seat leaves the game.
    Eliminate(Expr),
}

/// One rule of who wins, tried in order.
#[derive(Clone, Debug)]
pub enum WinRule {
    /// The seats with the most of the expression win; `unique`: only when one seat has it
    /// (else the next rule). `rank` 2: the second most.
    Most {
        /// The expression (`seat` bound).
        value: Expr,
        /// Fewest instead of most.
        least: bool,
        /// Only a single seat wins by it.
        unique: bool,
        /// 1: the most; 2: the second most.
        rank: u8,
    },
    /// The only seat for which the condition holds wins (else the next rule).
    Only(Expr),
    /// Every seat for which the condition holds wins (if any, else the next rule).
    All(Expr),
}

/// A condition that ends the game or the round, with its end reason.
#[derive(Clone, Debug)]
pub struct EndCheck {
    /// When.
    pub condition: Expr,
    /// End reason index.
    pub reason: u8,
}

/// A figure the designer wants measured in every game.
#[derive(Clone, Debug)]
pub struct FigureDecl {
    /// Name (a key of `[expect]`).
    pub name: String,
    /// What is measured.
    pub kind: FigureKind,
    /// One line in the designer's words.
    pub meaning: String,
    /// Unit.
    pub unit: String,
}

/// What a figure measures.
#[derive(Clone, Debug)]
pub enum FigureKind {
    /// An expression's mean at the end of a game.
    Value(Expr),
    /// The share of games at whose end a condition holds.
    Share(Expr),
    /// How often an action is chosen per game (optionally only when the condition holds,
    /// evaluated as the action is chosen with `chosen` and its argument bound).
    Count(u16, Option<Expr>),
}

/// A bot written in the file: priority rules, the first whose condition holds picks.
#[derive(Clone, Debug)]
pub struct FileBot {
    /// Name in bot specs.
    pub name: String,
    /// One line on how it plays.
    pub doc: String,
    /// Rules in order: the actions they pick and the condition on the choice.
    pub rules: Vec<BotRule>,
}

/// One priority rule of a [`FileBot`].
#[derive(Clone, Debug)]
pub struct BotRule {
    /// Actions it may pick (empty: any).
    pub actions: Vec<u16>,
    /// Condition on a candidate (`chosen`, `number`, `target` bound): the rule picks among
    /// the candidates it holds for, at random.
    pub when: Option<Expr>,
    /// Prefer the candidates with the largest value of this expression.
    pub prefer: Option<Expr>,
}

/// A compiled rules file.
#[derive(Clone, Debug)]
pub struct Program {
    /// Game id.
    pub id: &'static str,
    /// Game name.
    pub name: &'static str,
    /// What decides the game in words (how it ends, who wins), read from `[end]`.
    pub goal: &'static str,
    /// The file's language version.
    pub version: i64,
    /// Unit of a game's length.
    pub length_unit: &'static str,
    /// Unit of the standing.
    pub standing_unit: &'static str,
    /// Parameters in file order.
    pub params: Vec<ParamDecl>,
    /// Card attributes.
    pub attrs: Vec<AttrDecl>,
    /// Whether the deck is the Chroma Cards kit with its wild or action cards (`set =
    /// "colors"`, ...): attributes 0-3 are `color`, `shape`, `kind` and `action`, and cards are
    /// named as the kit names them (`red wild`, `all-colors`, `skip`).
    pub chroma_wilds: bool,
    /// The deck's groups.
    pub groups: Vec<CardGroup>,
    /// Zones.
    pub zones: Vec<ZoneDecl>,
    /// Zone instances in the state.
    pub zone_slots: usize,
    /// Counters.
    pub counters: Vec<CounterDecl>,
    /// Counter slots in the state.
    pub counter_slots: usize,
    /// Actions.
    pub actions: Vec<ActionDecl>,
    /// Instructions: set-up from 0.
    pub code: Vec<Instr>,
    /// Where the source of each instruction was written (key path), for messages.
    pub code_keys: Vec<String>,
    /// The first instruction of a round.
    pub round_start: u32,
    /// The first instruction of a turn.
    pub turn_start: u32,
    /// The turn's end.
    pub turn_end: u32,
    /// The round's end steps.
    pub round_end: u32,
    /// Seats passed over at the start of their turn (`seat` bound).
    pub skip: Option<Expr>,
    /// Ends checked after every turn.
    pub game_ends: Vec<EndCheck>,
    /// Round ends checked after every turn (rounds continue the match).
    pub round_ends: Vec<EndCheck>,
    /// Rounds in a match (`None`: one round, the game).
    pub rounds: Option<Expr>,
    /// Turn cap of the game (or of a round when rounds are played).
    pub cap: Expr,
    /// Whether a capped round is scored by the round's end steps (false: nobody scores,
    /// the match goes on) — only with rounds.
    pub capped_round_scores: bool,
    /// End reason names (declared ones, then `cap`, `stuck`, `rounds`).
    pub end_reasons: &'static [&'static str],
    /// Who wins.
    pub winners: Vec<WinRule>,
    /// Each seat's standing (`seat` bound).
    pub standing: Option<Expr>,
    /// Each seat's final score (default: the standing).
    pub score: Option<Expr>,
    /// Seats at the table, dummies included (default: players).
    pub seats: Option<Expr>,
    /// The seat that starts (default 0).
    pub first_seat: Option<Expr>,
    /// The round's first seat moves on each round.
    pub rotate_first: bool,
    /// Teams of seats.
    pub teams: Vec<Vec<usize>>,
    /// The figures.
    pub figures: Vec<FigureDecl>,
    /// The file's bots.
    pub bots: Vec<FileBot>,
    /// Whether any step eliminates a seat.
    pub eliminates: bool,
    /// Whether the rules draw chance (shuffles, rolls, random cards).
    pub draws_chance: bool,
    /// Parameter constraints with their messages.
    pub requires: Vec<(Expr, String, String)>,
    /// The end reason index of `cap`.
    pub reason_cap: u8,
    /// The end reason index of `stuck` (a loop without a decision ran too long, or every
    /// seat was passed over).
    pub reason_stuck: u8,
    /// The end reason index of `rounds` (a match's last round ended).
    pub reason_rounds: u8,
    /// Bind slots the steps use (`0..step_slots`, below [`STEP_BINDS`]): the machine keeps
    /// only these (and the last four) in step with the state from one instruction to the next.
    pub step_slots: u8,
}

impl ActionDecl {
    /// Every expression of the action in its lowered form ([`Expr::lower`]; `c`: each
    /// counter's first slot and length).
    fn lower(&mut self, c: &[(u16, u16)]) {
        if let Some(e) = &mut self.condition {
            e.lower(c);
        }
        if let Some(k) = &mut self.cards {
            k.from.lower(c);
            k.min.lower(c);
            k.max.lower(c);
            if let Some((_, e)) = &mut k.each {
                e.lower(c);
            }
            if let Some(e) = &mut k.set {
                e.lower(c);
            }
        }
        if let ArgChoice::Number(lo, hi) = &mut self.arg {
            lo.lower(c);
            hi.lower(c);
        }
        self.say.lower(c);
        if let Some(t) = &mut self.say_own {
            t.lower(c);
        }
    }
}

impl Template {
    /// Every expression of the text in its lowered form ([`Expr::lower`]).
    fn lower(&mut self, c: &[(u16, u16)]) {
        for part in &mut self.parts {
            if let Part::Card(e) | Part::Seat(e) | Part::Value(e) = part {
                e.lower(c);
            }
        }
    }
}

impl Instr {
    /// Every expression of the instruction in its lowered form ([`Expr::lower`]).
    fn lower(&mut self, c: &[(u16, u16)]) {
        match self {
            Instr::Move { from, to, count, .. } => {
                from.lower(c);
                to.lower(c);
                if let Some(e) = count {
                    e.lower(c);
                }
            }
            Instr::MoveWhere { from, to, count, cond, .. } => {
                from.lower(c);
                to.lower(c);
                if let Some(e) = count {
                    e.lower(c);
                }
                cond.lower(c);
            }
            Instr::MoveChosen { to } => to.lower(c),
            Instr::MoveCard { card, to } => {
                card.lower(c);
                to.lower(c);
            }
            Instr::Fill { to, size, from } => {
                to.lower(c);
                size.lower(c);
                from.lower(c);
            }
            Instr::Deal { from, count, .. } => {
                from.lower(c);
                count.lower(c);
            }
            Instr::Shuffle(z) | Instr::Reveal(z) | Instr::RollDice(z) => z.lower(c),
            Instr::Assign { counter, slots, index, value, .. } => {
                *slots = c[*counter as usize];
                if let Some(e) = index {
                    e.lower(c);
                }
                value.lower(c);
            }
            Instr::Roll { index, faces, .. } => {
                if let Some(e) = index {
                    e.lower(c);
                }
                faces.lower(c);
            }
            Instr::Say(t) => t.lower(c),
            Instr::JumpIfNot(e, _) | Instr::Bind(_, e) | Instr::NextSeat(e) | Instr::Eliminate(e) => e.lower(c),
            Instr::Choose { seat, .. } => {
                if let Some(e) = seat {
                    e.lower(c);
                }
            }
            Instr::RevealChoices
            | Instr::Jump(_)
            | Instr::SeatLoopStart { .. }
            | Instr::SeatLoopNext { .. }
            | Instr::CardLoopStart { .. }
            | Instr::CardLoopNext { .. }
            | Instr::LoopGuard { .. }
            | Instr::Return
            | Instr::EndTurn
            | Instr::EndRound
            | Instr::EndGame(_)
            | Instr::TurnStart
            | Instr::TurnEnd
            | Instr::RoundStart
            | Instr::RoundEnd
            | Instr::Skip
            | Instr::Reverse => {}
        }
    }
}

impl Program {
    /// Every expression of the program in its lowered form ([`Expr::lower`]): done once,
    /// after the file is compiled and checked, so the machine reads common shapes in one step.
    pub fn lower(&mut self) {
        let counters: Vec<(u16, u16)> = self.counters.iter().map(|c| (c.first, c.len)).collect();
        let c = &counters[..];
        for p in &mut self.params {
            if let ParamDefault::Expr(e) = &mut p.default {
                e.lower(c);
            }
        }
        for g in &mut self.groups {
            g.copies.lower(c);
        }
        for d in &mut self.counters {
            d.start.lower(c);
        }
        for a in &mut self.actions {
            a.lower(c);
        }
        for i in &mut self.code {
            i.lower(c);
        }
        for e in [&mut self.skip, &mut self.rounds, &mut self.standing, &mut self.score, &mut self.seats, &mut self.first_seat].into_iter().flatten() {
            e.lower(c);
        }
        self.cap.lower(c);
        for e in self.game_ends.iter_mut().chain(self.round_ends.iter_mut()) {
            e.condition.lower(c);
        }
        for w in &mut self.winners {
            match w {
                WinRule::Most { value, .. } => value.lower(c),
                WinRule::Only(e) | WinRule::All(e) => e.lower(c),
            }
        }
        for f in &mut self.figures {
            match &mut f.kind {
                FigureKind::Value(e) | FigureKind::Share(e) => e.lower(c),
                FigureKind::Count(_, e) => {
                    if let Some(e) = e {
                        e.lower(c);
                    }
                }
            }
        }
        for b in &mut self.bots {
            for r in &mut b.rules {
                for e in [&mut r.when, &mut r.prefer].into_iter().flatten() {
                    e.lower(c);
                }
            }
        }
        for (e, _, _) in &mut self.requires {
            e.lower(c);
        }
    }

    /// The zone declaration named `name`.
    pub fn zone(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|z| z.name == name)
    }

    /// The action named `name`.
    pub fn action(&self, name: &str) -> Option<usize> {
        self.actions.iter().position(|a| a.name == name)
    }

    /// The parameter keyed `key`.
    pub fn param(&self, key: &str) -> Option<usize> {
        self.params.iter().position(|p| p.key == key)
    }
}
