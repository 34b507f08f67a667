//! The expression language inside a rules file's strings: a lexer, a parser into a syntax
//! tree that keeps each token's character offset (so an error points at the character), and
//! the compiled form the machine evaluates ([`Expr`]), with every name resolved once when the
//! file loads. Nothing here is parsed while a game is played.

use std::fmt;

/// A syntax error or an unknown name inside one expression string, at a character offset.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    /// Character offset in the expression string (0-based).
    pub at: usize,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl ExprError {
    /// An error at character `at`.
    pub fn new(at: usize, message: impl Into<String>) -> ExprError {
        ExprError { at, message: message.into() }
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

/// One token of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An integer literal.
    Num(i64),
    /// A name (`hand`, `card`, `max_play`, `deck.base_sets`).
    Name(String),
    /// A quoted word (`'take2'`, `"all_played"`).
    Word(String),
    /// An operator or punctuation.
    Sym(&'static str),
}

const SYMS: &[&str] =
    &["==", "!=", "<=", ">=", "&&", "||", "..", "+=", "-=", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", ".", "=", "!", ":", "{", "}"];

/// Splits `text` into tokens with their character offsets.
pub fn lex(text: &str) -> Result<Vec<(usize, Tok)>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if out.len() >= MAX_TOKENS {
            return Err(ExprError::new(i, format!("the expression is longer than {MAX_TOKENS} words and symbols: split it (a counter can hold a part)")));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let n = s.parse::<i64>().map_err(|_| ExprError::new(start, format!("number `{s}` is too large (at most {})", i64::MAX)))?;
            out.push((start, Tok::Num(n)));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((start, Tok::Name(chars[start..i].iter().collect())));
        } else if c == '\'' || c == '"' {
            let start = i;
            i += 1;
            let from = i;
            while i < chars.len() && chars[i] != c {
                i += 1;
            }
            if i >= chars.len() {
                return Err(ExprError::new(start, "a quoted word is not closed"));
            }
            out.push((start, Tok::Word(chars[from..i].iter().collect())));
            i += 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            match SYMS.iter().find(|s| rest.starts_with(**s)) {
                Some(s) => {
                    out.push((i, Tok::Sym(s)));
                    i += s.chars().count();
                }
                None => return Err(ExprError::new(i, format!("unexpected character `{c}`"))),
            }
        }
    }
    Ok(out)
}

/// A parsed expression before names are resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    /// An integer.
    Num(i64),
    /// A quoted word.
    Word(String),
    /// A name, possibly dotted (`deck.base_sets`).
    Name(String),
    /// `base.field` (a card's attribute, or a dotted name).
    Field(Box<Node>, String),
    /// `base[index]`.
    Index(Box<Node>, Box<Node>),
    /// `f(args)`.
    Call(String, Vec<Node>),
    /// A binary operator.
    Bin(&'static str, Box<Node>, Box<Node>),
    /// `not x` or `-x`.
    Un(&'static str, Box<Node>),
    /// `a..b`, a range (only where a count or number is chosen).
    Range(Box<Node>, Box<Node>),
}

/// A parsed expression with the character offset of every node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Character offset of the node's first token.
    pub at: usize,
    /// The node.
    pub ast: Ast,
}

/// The parser over one expression's tokens.
pub struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    len: usize,
    depth: usize,
}

/// Most words and symbols in one expression (a longer one is refused: its tree would be
/// too deep to compile and evaluate safely).
pub const MAX_TOKENS: usize = 1000;

/// Deepest nesting of parentheses, calls and operators an expression may have (a deeper one
/// is refused rather than overflowing the parser's stack).
pub const MAX_DEPTH: usize = 64;

impl Parser {
    /// A parser of `text`.
    pub fn new(text: &str) -> Result<Parser, ExprError> {
        Ok(Parser { toks: lex(text)?, pos: 0, len: text.chars().count(), depth: 0 })
    }

    fn at(&self) -> usize {
        self.toks.get(self.pos).map_or(self.len, |t| t.0)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.1)
    }

    fn peek_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if *x == s)
    }

    fn peek_name(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(x)) if x == s)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        if self.peek_sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_name(&mut self, s: &str) -> bool {
        if self.peek_name(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &str) -> Result<(), ExprError> {
        if self.eat_sym(s) { Ok(()) } else { Err(ExprError::new(self.at(), format!("expected `{s}`{}", self.found()))) }
    }

    fn found(&self) -> String {
        match self.peek() {
            None => ", found the end".into(),
            Some(Tok::Num(n)) => format!(", found `{n}`"),
            Some(Tok::Name(n)) => format!(", found `{n}`"),
            Some(Tok::Word(w)) => format!(", found '{w}'"),
            Some(Tok::Sym(s)) => format!(", found `{s}`"),
        }
    }

    /// Whether every token was read.
    pub fn done(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Fails unless every token was read.
    pub fn finish(&self) -> Result<(), ExprError> {
        if self.done() { Ok(()) } else { Err(ExprError::new(self.at(), format!("unexpected text after the expression{}", self.found()))) }
    }

    /// The next name, if the next token is one (consumed).
    pub fn name(&mut self) -> Option<(usize, String)> {
        match self.toks.get(self.pos) {
            Some((at, Tok::Name(n))) => {
                let r = (*at, n.clone());
                self.pos += 1;
                Some(r)
            }
            _ => None,
        }
    }

    /// Consumes the keyword `word` when it is next.
    pub fn keyword(&mut self, word: &str) -> bool {
        self.eat_name(word)
    }

    /// Consumes the symbol `s` when it is next.
    pub fn symbol(&mut self, s: &str) -> bool {
        self.eat_sym(s)
    }

    /// The offset of the next token (or the end).
    pub fn offset(&self) -> usize {
        self.at()
    }

    /// Parses one expression, a range `a..b` included.
    pub fn expr(&mut self) -> Result<Node, ExprError> {
        let at = self.at();
        let lhs = self.or()?;
        if self.eat_sym("..") {
            let rhs = self.or()?;
            return Ok(Node { at, ast: Ast::Range(Box::new(lhs), Box::new(rhs)) });
        }
        Ok(lhs)
    }

    /// Parses an expression that stops before the keywords in `stop` (statements: `move 2
    /// from draw to hand`).
    pub fn expr_until(&mut self, stop: &[&str]) -> Result<Node, ExprError> {
        let end = (self.pos..self.toks.len()).find(|&i| matches!(&self.toks[i].1, Tok::Name(n) if stop.contains(&n.as_str()))).unwrap_or(self.toks.len());
        let saved = std::mem::take(&mut self.toks);
        self.toks = saved[..end].to_vec();
        let r = self.expr();
        let consumed = self.pos;
        let at_end = self.done();
        let next = self.at();
        let found = self.found();
        self.toks = saved;
        let node = r?;
        if !at_end {
            return Err(ExprError::new(next, format!("unexpected text in the expression{found}")));
        }
        self.pos = consumed;
        Ok(node)
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(self.at(), format!("the expression is nested more than {MAX_DEPTH} deep")));
        }
        let r = self.or_inner();
        self.depth -= 1;
        r
    }

    fn or_inner(&mut self) -> Result<Node, ExprError> {
        let mut lhs = self.and()?;
        while self.eat_name("or") || self.eat_sym("||") {
            let rhs = self.and()?;
            lhs = Node { at: lhs.at, ast: Ast::Bin("or", Box::new(lhs), Box::new(rhs)) };
        }
        Ok(lhs)
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        let mut lhs = self.not()?;
        while self.eat_name("and") || self.eat_sym("&&") {
            let rhs = self.not()?;
            lhs = Node { at: lhs.at, ast: Ast::Bin("and", Box::new(lhs), Box::new(rhs)) };
        }
        Ok(lhs)
    }

    fn not(&mut self) -> Result<Node, ExprError> {
        let at = self.at();
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(at, format!("the expression is nested more than {MAX_DEPTH} deep")));
        }
        if self.eat_name("not") || self.eat_sym("!") {
            self.depth += 1;
            let inner = self.not();
            self.depth -= 1;
            let inner = inner?;
            return Ok(Node { at, ast: Ast::Un("not", Box::new(inner)) });
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Node, ExprError> {
        let lhs = self.add()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat_sym(op) {
                let rhs = self.add()?;
                return Ok(Node { at: lhs.at, ast: Ast::Bin(op, Box::new(lhs), Box::new(rhs)) });
            }
        }
        if self.peek_sym("=") {
            return Err(ExprError::new(self.at(), "`=` assigns; to compare write `==`"));
        }
        Ok(lhs)
    }

    fn add(&mut self) -> Result<Node, ExprError> {
        let mut lhs = self.mul()?;
        loop {
            let op = if self.eat_sym("+") {
                "+"
            } else if self.eat_sym("-") {
                "-"
            } else {
                break;
            };
            let rhs = self.mul()?;
            lhs = Node { at: lhs.at, ast: Ast::Bin(op, Box::new(lhs), Box::new(rhs)) };
        }
        Ok(lhs)
    }

    fn mul(&mut self) -> Result<Node, ExprError> {
        let mut lhs = self.unary()?;
        loop {
            let op = if self.eat_sym("*") {
                "*"
            } else if self.eat_sym("/") {
                "/"
            } else if self.eat_sym("%") {
                "%"
            } else {
                break;
            };
            let rhs = self.unary()?;
            lhs = Node { at: lhs.at, ast: Ast::Bin(op, Box::new(lhs), Box::new(rhs)) };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Node, ExprError> {
        let at = self.at();
        if self.eat_sym("-") {
            if self.depth > MAX_DEPTH {
                return Err(ExprError::new(at, format!("the expression is nested more than {MAX_DEPTH} deep")));
            }
            self.depth += 1;
            let inner = self.unary();
            self.depth -= 1;
            let inner = inner?;
            return Ok(Node { at, ast: Ast::Un("-", Box::new(inner)) });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Node, ExprError> {
        let mut node = self.primary()?;
        loop {
            if self.peek_sym(".") && matches!(self.toks.get(self.pos + 1), Some((_, Tok::Name(_)))) {
                self.pos += 1;
                let (_, field) = self.name().expect("checked");
                node = Node { at: node.at, ast: Ast::Field(Box::new(node), field) };
            } else if self.peek_sym(".")
                && let Some((_, Tok::Num(n))) = self.toks.get(self.pos + 1)
            {
                // A numbered segment of a dotted parameter (`payout.2.withdrawal`).
                let field = n.to_string();
                self.pos += 2;
                node = Node { at: node.at, ast: Ast::Field(Box::new(node), field) };
            } else if self.eat_sym("[") {
                let index = self.expr()?;
                self.expect_sym("]")?;
                node = Node { at: node.at, ast: Ast::Index(Box::new(node), Box::new(index)) };
            } else {
                return Ok(node);
            }
        }
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let at = self.at();
        match self.toks.get(self.pos).cloned() {
            Some((_, Tok::Num(n))) => {
                self.pos += 1;
                Ok(Node { at, ast: Ast::Num(n) })
            }
            Some((_, Tok::Word(w))) => {
                self.pos += 1;
                Ok(Node { at, ast: Ast::Word(w) })
            }
            Some((_, Tok::Name(n))) => {
                self.pos += 1;
                if n == "true" {
                    return Ok(Node { at, ast: Ast::Num(1) });
                }
                if n == "false" {
                    return Ok(Node { at, ast: Ast::Num(0) });
                }
                if self.eat_sym("(") {
                    let mut args = Vec::new();
                    if !self.eat_sym(")") {
                        loop {
                            args.push(self.expr()?);
                            if self.eat_sym(")") {
                                break;
                            }
                            self.expect_sym(",")?;
                        }
                    }
                    return Ok(Node { at, ast: Ast::Call(n, args) });
                }
                let name = n;
                Ok(Node { at, ast: Ast::Name(name) })
            }
            Some((_, Tok::Sym("("))) => {
                self.pos += 1;
                let inner = self.expr()?;
                self.expect_sym(")")?;
                Ok(inner)
            }
            _ => Err(ExprError::new(at, format!("expected a number, a name or `(`{}", self.found()))),
        }
    }
}

/// A compiled expression: names resolved to slots, evaluated by the machine.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant.
    Const(i64),
    /// A parameter's value (index into the bound parameter values).
    Param(u16),
    /// A variable of the machine.
    Var(Var),
    /// A counter: declaration index and, for a counter per seat or per attribute value, its
    /// index expression.
    Counter(u16, Option<Box<Expr>>),
    /// An attribute of a card (card id expression, attribute index).
    Attr(Box<Expr>, u8),
    /// Cards in a zone.
    Size(Zone),
    /// Cards in a zone for which the condition holds (`card` bound in the slot).
    Count(Zone, u8, Box<Expr>),
    /// Sum over a zone's cards of an expression (`card` bound in the slot).
    Sum(Zone, u8, Box<Expr>),
    /// The top card of a zone (-1 when empty).
    Top(Zone),
    /// Whether every card of a zone has the same value of an attribute (true when empty).
    Same(Zone, u8),
    /// Groups of a zone's cards with equal attribute values (attribute indices; empty: the
    /// whole kind): how many have a size for which the condition holds (`size` bound in the
    /// slot).
    Groups(Zone, Vec<u8>, u8, Box<Expr>),
    /// Sum over groups of an expression of their size (`size` bound in the slot).
    GroupSum(Zone, Vec<u8>, u8, Box<Expr>),
    /// The largest group's size.
    Largest(Zone, Vec<u8>),
    /// A seat aggregate over every seat (`seat` bound to bind slot).
    Seats(SeatAgg, u8, Box<Expr>),
    /// A table parameter's row (table index, row expression).
    Row(u16, Box<Expr>),
    /// How many rows a table parameter has (table index).
    Rows(u16),
    /// Whether a seat's secret choice this round is the option (seat, option).
    Chose(Box<Expr>, u16),
    /// The number or seat argument of a seat's secret choice (seat).
    ChoseArg(Box<Expr>),
    /// The seat after a seat in turn order.
    Next(Box<Expr>),
    /// A binary operation.
    Bin(Op, Box<Expr>, Box<Expr>),
    /// Logical not.
    Not(Box<Expr>),
    /// Negation.
    Neg(Box<Expr>),
    /// `max(a, b)` or `min(a, b)`.
    MaxMin(bool, Box<Expr>, Box<Expr>),
    /// `abs(a)`.
    Abs(Box<Expr>),
    /// `if(c, a, b)`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Whether a seat is still in the game.
    Active(Box<Expr>),
    /// A seat's last action (index; -1: none yet) or, with `true`, its argument.
    Last(Box<Expr>, bool),
    // Lowered forms: made by [`Expr::lower`] once the file is compiled and checked (never
    // by the parser), so the machine reads the common shapes in one step instead of a call
    // per node. Each means exactly the general form it replaces.
    /// `size(zone)` of a shared zone: its instance index.
    ZoneSize(u16),
    /// `size(zone)` of a seat's zone whose seat is a bound name: the declaration's first
    /// instance and the bind slot (0 when the seat is not at the table).
    SeatZoneSize(u16, u8),
    /// A counter's only slot (a counter of one value): its slot.
    CounterOne(u16),
    /// A counter indexed by a bound name: first slot, slots, bind slot (0 out of range).
    CounterBind(u16, u16, u8),
    /// A counter indexed by an attribute of the card in a bind slot: first slot, slots, bind
    /// slot, attribute (0 out of range).
    CounterAttr(u16, u16, u8, u8),
    /// An attribute of the card in a bind slot: bind slot, attribute.
    AttrBind(u8, u8),
    /// A binary operation other than `and` / `or` with a constant right side.
    BinConst(Op, Box<Expr>, i64),
    /// A binary operation other than `and` / `or` with a parameter's value on the right.
    BinParam(Op, Box<Expr>, u16),
}

impl Expr {
    /// Whether the machine reads `self` in one step, without evaluating a child: a constant,
    /// a parameter, a bound name or a lowered leaf.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        matches!(
            self,
            Expr::Const(_)
                | Expr::Param(_)
                | Expr::Var(Var::Bind(_))
                | Expr::ZoneSize(_)
                | Expr::SeatZoneSize(..)
                | Expr::CounterOne(_)
                | Expr::CounterBind(..)
                | Expr::CounterAttr(..)
                | Expr::AttrBind(..)
        )
    }

    /// `self` with its common shapes replaced by the lowered forms that mean the same
    /// (children first); `counters` gives each counter's first slot and number of slots.
    pub fn lower(&mut self, counters: &[(u16, u16)]) {
        fn bind(e: &Expr) -> Option<u8> {
            if let Expr::Var(Var::Bind(s)) = e { Some(*s) } else { None }
        }
        match self {
            Expr::Const(_) | Expr::Param(_) | Expr::Var(_) | Expr::Rows(_) => {}
            Expr::Counter(_, i) => {
                if let Some(i) = i {
                    i.lower(counters);
                }
            }
            Expr::Attr(x, _) | Expr::Row(_, x) | Expr::Chose(x, _) | Expr::ChoseArg(x) | Expr::Next(x) => x.lower(counters),
            Expr::Not(x) | Expr::Neg(x) | Expr::Abs(x) | Expr::Active(x) | Expr::Last(x, _) => x.lower(counters),
            Expr::Size(z) | Expr::Top(z) | Expr::Same(z, _) | Expr::Largest(z, _) => z.lower(counters),
            Expr::Count(z, _, x) | Expr::Sum(z, _, x) | Expr::Groups(z, _, _, x) | Expr::GroupSum(z, _, _, x) => {
                z.lower(counters);
                x.lower(counters);
            }
            Expr::Seats(_, _, x) => x.lower(counters),
            Expr::Bin(_, x, y) | Expr::MaxMin(_, x, y) => {
                x.lower(counters);
                y.lower(counters);
            }
            Expr::If(c, x, y) => {
                c.lower(counters);
                x.lower(counters);
                y.lower(counters);
            }
            Expr::ZoneSize(_) | Expr::SeatZoneSize(..) | Expr::CounterOne(_) | Expr::CounterBind(..) | Expr::CounterAttr(..) | Expr::AttrBind(..) => {}
            Expr::BinConst(_, x, _) | Expr::BinParam(_, x, _) => x.lower(counters),
        }
        let lowered = match &*self {
            Expr::Size(Zone::Shared(i)) => Some(Expr::ZoneSize(*i)),
            Expr::Size(Zone::OfSeat(first, s)) => bind(s).map(|s| Expr::SeatZoneSize(*first, s)),
            Expr::Attr(x, a) => bind(x).map(|s| Expr::AttrBind(s, *a)),
            Expr::Counter(c, i) => {
                let (first, len) = counters[*c as usize];
                match i.as_deref() {
                    None if len >= 1 => Some(Expr::CounterOne(first)),
                    Some(Expr::AttrBind(s, a)) => Some(Expr::CounterAttr(first, len, *s, *a)),
                    Some(i) => bind(i).map(|s| Expr::CounterBind(first, len, s)),
                    None => None,
                }
            }
            Expr::Bin(op, x, y) if !matches!(op, Op::And | Op::Or) => match &**y {
                Expr::Const(n) => Some(Expr::BinConst(*op, x.clone(), *n)),
                Expr::Param(p) => Some(Expr::BinParam(*op, x.clone(), *p)),
                _ => None,
            },
            _ => None,
        };
        if let Some(e) = lowered {
            *self = e;
        }
    }
}

impl Zone {
    /// The zone's seat expression lowered (see [`Expr::lower`]).
    pub fn lower(&mut self, counters: &[(u16, u16)]) {
        if let Zone::OfSeat(_, s) = self {
            s.lower(counters);
        }
    }
}

/// Aggregates over seats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatAgg {
    /// Whether the condition holds at every seat.
    Every,
    /// Whether it holds at some seat.
    Some,
    /// How many seats it holds at.
    Count,
    /// Sum of the expression.
    Sum,
    /// Largest value.
    Max,
    /// Smallest value.
    Min,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (integer division toward minus infinity; by zero gives 0)
    Div,
    /// `%` (remainder, never negative; by zero gives 0)
    Rem,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
}

impl Op {
    /// The operator written `s`.
    pub fn of(s: &str) -> Op {
        match s {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "and" => Op::And,
            _ => Op::Or,
        }
    }
}

/// The machine's variables an expression may read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Var {
    /// The seat whose turn it is.
    Current,
    /// Players at the table (acting seats).
    Players,
    /// Seats at the table, dummy seats included.
    Seats,
    /// Turns played in the game.
    Turn,
    /// Turns played in this round.
    RoundTurn,
    /// Rounds finished.
    Round,
    /// The round's first seat.
    First,
    /// A bound name (a loop's seat or card, an aggregate's seat, a group's size, the
    /// deciding seat): slot index.
    Bind(u8),
    /// The number or seat argument of the action being applied.
    Arg,
    /// Cards chosen by the action being applied.
    ChosenCount,
}

/// A zone reference: a shared zone, a zone of a seat, or the cards chosen by the action.
#[derive(Clone, Debug)]
pub enum Zone {
    /// A shared zone (instance index).
    Shared(u16),
    /// A zone per seat: declaration's first instance and the seat expression.
    OfSeat(u16, Box<Expr>),
    /// The cards the action being applied chose.
    Chosen,
}
