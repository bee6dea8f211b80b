//! Reads a `property` statement into a [`Property`]: the grammar gives it as generic words (a
//! head, values and a block of lines), and this reader parses each line's words as a formula and
//! resolves every name in it (piece letters, zones, squares, sides, state keys, actions) against
//! the definition, each error at its word with the names valid there.

use std::ops::Range;

use super::*;
use crate::definition::model::{PieceDef, INVENTED};
use crate::definition::syntax::Statement;
use crate::rules::board::Geometry;
use crate::scenario::diagnostic::Problem;
use crate::suggest::did_you_mean;

/// What a formula may name: the definition as resolved so far.
pub struct Context<'a> {
    /// The text the statement's spans point into.
    pub src: &'a str,
    pub geometry: &'a Geometry,
    pub holes: &'a [Cell],
    pub pieces: &'a [PieceDef],
    pub zones: &'a [(String, Sides<Vec<Cell>>)],
    /// Which state the definition keeps.
    pub keeps: Keeps,
}

/// The state keys a definition's components keep.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keeps {
    pub prisoners: bool,
    pub infiltration_used: bool,
    pub castling: bool,
    pub retake: bool,
    pub check_count: bool,
    pub en_passant: bool,
    pub hand: bool,
}

/// The words that start or join formulas: never a piece's or a zone's name in a formula.
const KEYWORDS: &[&str] = &[
    "not", "and", "or", "implies", "every", "some", "no", "is", "has", "before", "in", "on",
    "outside", "from", "to", "by", "in-check", "to-move", "count", "removed", "captured", "did",
    "(", ")", "+", "-",
];

/// The state keys a formula may read, yes/no ones first: (word, per side).
const KEYS: &[(&str, bool)] = &[
    ("infiltration-used", true),
    ("castling", true),
    ("retake", false),
    ("en-passant", false),
    ("prisoners", true),
    ("check-count", true),
    ("halfmove-clock", false),
    ("fullmove-number", false),
];

const USAGE: &str = "write `property <name> \"<clause>\" {`, then one formula a line (each must \
                     hold), then `}`";

/// Reads `stmt`, a `property` statement. The span of the result is left for the caller.
pub fn property(ctx: &Context, stmt: &Statement) -> Result<Property, Vec<Problem>> {
    let (name, clause) = match stmt.values.as_slice() {
        [n, c] if !n.quoted && c.quoted => (n, c),
        _ => {
            return Err(vec![Problem::new(
                "`property` takes a name and a clause in quotes",
                stmt.span.clone(),
                "here",
            )
            .with_help(USAGE)])
        }
    };
    let Some(block) = stmt.block.as_ref().filter(|b| !b.statements.is_empty()) else {
        let at = stmt
            .block
            .as_ref()
            .map_or(stmt.span.clone(), |b| b.span.clone());
        return Err(vec![Problem::new(
            format!("property `{}` states no formula", name.text),
            at,
            "expected a block of formulas",
        )
        .with_help(USAGE)]);
    };
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let mut step = false;
    for line in &block.statements {
        match formula_line(ctx, line) {
            Ok((f, s)) => {
                lines.push(f);
                step |= s;
            }
            Err(p) => problems.push(p),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Property {
        name: name.text.clone(),
        clause: clause.text.clone(),
        lines,
        step,
        span: Span::default(),
    })
}

/// One line of a property: its formula, and whether it reads the turn.
fn formula_line(ctx: &Context, line: &Statement) -> Result<(Formula, bool), Problem> {
    if let Some(b) = &line.block {
        return Err(Problem::new(
            "a formula takes no block",
            b.span.start..b.span.start + 1,
            "no block expected",
        ));
    }
    let mut toks = Vec::new();
    split(&line.head.text, line.head.span.start, &mut toks);
    for v in &line.values {
        if v.quoted {
            return Err(Problem::new(
                "a formula has no quoted words",
                v.span.clone(),
                "not a formula word",
            )
            .with_help("the clause in quotes follows the property's name"));
        }
        split(&v.text, v.span.start, &mut toks);
    }
    let mut p = Parser {
        ctx,
        toks,
        at: 0,
        end: line.span.end,
        scope: Vec::new(),
        before: false,
        step: false,
    };
    let f = p.formula()?;
    if let Some(t) = p.peek() {
        let message = if t.text == ")" {
            "a `)` closes no `(`".to_string()
        } else {
            format!("`{}` does not continue the formula", t.text)
        };
        return Err(
            Problem::new(message, t.span.clone(), "unexpected here").with_help(
                "formulas are joined by `and`, `or` and `implies`; a comparison is `TERM OP TERM` \
             with OP one of = != < <= > >=",
            ),
        );
    }
    Ok((f, p.step))
}

/// The words of a formula, with `(` and `)` apart from the words they touch.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    span: Range<usize>,
}

fn split(word: &str, start: usize, out: &mut Vec<Tok>) {
    let mut from = 0;
    for (i, c) in word.char_indices() {
        if c == '(' || c == ')' {
            if from < i {
                out.push(Tok {
                    text: word[from..i].to_string(),
                    span: start + from..start + i,
                });
            }
            out.push(Tok {
                text: c.to_string(),
                span: start + i..start + i + 1,
            });
            from = i + 1;
        }
    }
    if from < word.len() {
        out.push(Tok {
            text: word[from..].to_string(),
            span: start + from..start + word.len(),
        });
    }
}

/// What a quantifier binds, for the words that refer to it.
#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Side,
    Piece,
}

struct Parser<'a> {
    ctx: &'a Context<'a>,
    toks: Vec<Tok>,
    at: usize,
    /// Where the line ends, for errors about a missing word.
    end: usize,
    scope: Vec<Bound>,
    /// Inside `before`: no fact of the turn.
    before: bool,
    /// A fact of the turn or `before` was read.
    step: bool,
}

type Read<T> = Result<T, Problem>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn peek_is(&self, word: &str) -> bool {
        self.peek().is_some_and(|t| t.text == word)
    }

    fn eat(&mut self, word: &str) -> bool {
        let yes = self.peek_is(word);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn next(&mut self, what: &str) -> Read<Tok> {
        match self.toks.get(self.at) {
            Some(t) => {
                self.at += 1;
                Ok(t.clone())
            }
            None => Err(Problem::new(
                format!("the formula ends where {what} was expected"),
                self.end..self.end,
                format!("expected {what}"),
            )),
        }
    }

    /// The text from token `from` to the last one read.
    fn text_from(&self, from: usize) -> String {
        let (Some(a), Some(b)) = (
            self.toks.get(from),
            self.toks.get(self.at.max(from + 1) - 1),
        ) else {
            return String::new();
        };
        self.ctx.src[a.span.start..b.span.end].to_string()
    }

    fn node(&self, from: usize, kind: Kind) -> Formula {
        Formula {
            kind,
            text: self.text_from(from),
        }
    }

    fn formula(&mut self) -> Read<Formula> {
        let from = self.at;
        let left = self.or()?;
        if self.eat("implies") {
            let right = self.formula()?;
            return Ok(self.node(from, Kind::Implies(Box::new(left), Box::new(right))));
        }
        Ok(left)
    }

    fn or(&mut self) -> Read<Formula> {
        let from = self.at;
        let mut parts = vec![self.and()?];
        while self.eat("or") {
            parts.push(self.and()?);
        }
        Ok(match parts.len() {
            1 => parts.pop().expect("one part"),
            _ => self.node(from, Kind::Or(parts)),
        })
    }

    fn and(&mut self) -> Read<Formula> {
        let from = self.at;
        let mut parts = vec![self.unary()?];
        while self.eat("and") {
            parts.push(self.unary()?);
        }
        Ok(match parts.len() {
            1 => parts.pop().expect("one part"),
            _ => self.node(from, Kind::And(parts)),
        })
    }

    fn unary(&mut self) -> Read<Formula> {
        let from = self.at;
        let Some(t) = self.peek().cloned() else {
            return Err(self.next("a formula").expect_err("at the end"));
        };
        match t.text.as_str() {
            "not" => {
                self.at += 1;
                let f = self.unary()?;
                Ok(self.node(from, Kind::Not(Box::new(f))))
            }
            "every" | "some" | "no" => self.quantified(),
            "before" if !self.term_follows(1) => {
                self.at += 1;
                let f = self.in_before(&t, |p| p.unary())?;
                Ok(self.node(from, Kind::Before(Box::new(f))))
            }
            _ => self.primary(),
        }
    }

    /// Reads with `before` in force: no fact of the turn, no `before` again.
    fn in_before<T>(&mut self, at: &Tok, read: impl FnOnce(&mut Self) -> Read<T>) -> Read<T> {
        if self.before {
            return Err(Problem::new(
                "`before` inside `before`",
                at.span.clone(),
                "already before the turn",
            ));
        }
        self.before = true;
        self.step = true;
        let out = read(self);
        self.before = false;
        out
    }

    /// Whether the token `ahead` places on starts a number.
    fn term_follows(&self, ahead: usize) -> bool {
        self.toks.get(self.at + ahead).is_some_and(|t| {
            matches!(
                t.text.as_str(),
                "count" | "removed" | "captured" | "did" | "before"
            ) || t.text.parse::<i64>().is_ok()
                || KEYS[4..].iter().any(|(k, _)| *k == t.text)
        })
    }

    fn quantified(&mut self) -> Read<Formula> {
        let from = self.at;
        let q = self.next("a quantifier")?;
        let quantifier = match q.text.as_str() {
            "every" => Quantifier::Every,
            "some" => Quantifier::Some,
            _ => Quantifier::No,
        };
        let (domain, bound) = if self.eat("side") {
            (Domain::Side, Bound::Side)
        } else {
            (
                Domain::Pieces(self.pattern("a piece or `side`")?),
                Bound::Piece,
            )
        };
        let within = match self.eat("in") {
            true => Some(self.place()?),
            false => None,
        };
        let body = if self.eat("is") || self.eat("has") {
            self.scope.push(bound);
            let body = self.formula();
            self.scope.pop();
            Some(Box::new(body?))
        } else {
            None
        };
        if body.is_none() && quantifier == Quantifier::Every {
            return Err(Problem::new(
                "`every` needs what holds of each: `is` or `has` and a formula",
                q.span.start..self.toks[self.at - 1].span.end,
                "says nothing of them",
            )
            .with_help("as in `every K in court is not in-check`"));
        }
        Ok(self.node(
            from,
            Kind::Quantified {
                quantifier,
                domain,
                within,
                body,
            },
        ))
    }

    fn primary(&mut self) -> Read<Formula> {
        let from = self.at;
        let t = self.next("a formula")?;
        match t.text.as_str() {
            "(" => {
                let f = self.formula()?;
                if !self.eat(")") {
                    let at = self.peek().map_or(self.end..self.end, |t| t.span.clone());
                    return Err(Problem::new(
                        "the `(` here is not closed",
                        t.span.clone(),
                        "opened here",
                    )
                    .with_help(format!(
                        "expected `)` at {}",
                        if at.start == self.end {
                            "the end of the line".to_string()
                        } else {
                            format!("`{}`", &self.ctx.src[at])
                        }
                    )));
                }
                Ok(f)
            }
            "in-check" => {
                let subject = if self.eat("on") {
                    Subject::On(self.square()?)
                } else if self
                    .peek()
                    .is_some_and(|t| SideRef::WORDS.contains(&t.text.as_str()))
                {
                    Subject::Side(self.side()?)
                } else {
                    self.needs_piece(&t)?;
                    Subject::It
                };
                Ok(self.node(from, Kind::InCheck(subject)))
            }
            "to-move" => {
                let side = self.side()?;
                Ok(self.node(from, Kind::ToMove(side)))
            }
            "in" | "on" => {
                self.needs_piece(&t)?;
                let place = match t.text.as_str() {
                    "in" => self.place()?,
                    _ => {
                        let cell = self.square()?;
                        self.square_place(&self.toks[self.at - 1].text.clone(), cell, false)
                    }
                };
                Ok(self.node(from, Kind::Within(place)))
            }
            "outside" => {
                self.needs_piece(&t)?;
                self.at -= 1;
                let place = self.place()?;
                Ok(self.node(from, Kind::Within(place)))
            }
            word if KEYS[..4].iter().any(|(k, _)| *k == word) => {
                let flag = self.flag(&t)?;
                Ok(self.node(from, flag))
            }
            _ => {
                self.at -= 1;
                let left = self.term()?;
                let Some(k) = self
                    .peek()
                    .and_then(|t| Cmp::WORDS.iter().position(|w| *w == t.text))
                else {
                    return Ok(self.node(from, Kind::Nonzero(Box::new(left))));
                };
                self.at += 1;
                let right = self.term()?;
                Ok(self.node(
                    from,
                    Kind::Compare(Box::new(left), Cmp::ALL[k], Box::new(right)),
                ))
            }
        }
    }

    /// A yes/no state key and its side.
    fn flag(&mut self, t: &Tok) -> Read<Kind> {
        let (flag, kept, per_side) = match t.text.as_str() {
            "infiltration-used" => (
                Flag::InfiltrationUsed,
                self.ctx.keeps.infiltration_used,
                true,
            ),
            "castling" => (Flag::Castling, self.ctx.keeps.castling, true),
            "retake" => (Flag::Retake, self.ctx.keeps.retake, false),
            _ => (Flag::EnPassant, self.ctx.keeps.en_passant, false),
        };
        self.kept(t, kept)?;
        let side = match per_side {
            true => Some(self.side()?),
            false => None,
        };
        Ok(Kind::Flag(flag, side))
    }

    /// An error unless the definition keeps the state key `t` names.
    fn kept(&self, t: &Tok, kept: bool) -> Read<()> {
        if kept {
            return Ok(());
        }
        let keys: Vec<&str> = KEYS
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| self.keeps(k))
            .collect();
        Err(Problem::new(
            format!("this definition keeps no `{}`", t.text),
            t.span.clone(),
            "no such state",
        )
        .with_help(format!("the state keys it keeps: {}", keys.join(", "))))
    }

    fn keeps(&self, key: &str) -> bool {
        let k = &self.ctx.keeps;
        match key {
            "infiltration-used" => k.infiltration_used,
            "castling" => k.castling,
            "retake" => k.retake,
            "en-passant" => k.en_passant,
            "prisoners" => k.prisoners,
            "check-count" => k.check_count,
            _ => true,
        }
    }

    /// An error unless a quantifier over pieces is in force, for the words about its piece.
    fn needs_piece(&self, t: &Tok) -> Read<()> {
        if self.scope.last() == Some(&Bound::Piece) {
            return Ok(());
        }
        Err(Problem::new(
            format!(
                "`{}` alone is about the piece a quantifier names, and none is named here",
                t.text
            ),
            t.span.clone(),
            "of which piece?",
        )
        .with_help(format!(
            "write it in `every PIECE is ...`, `some PIECE is ...` or `no PIECE is ...`{}",
            if t.text == "in-check" {
                ", or name a side (`in-check mover`) or a square (`in-check on e1`)"
            } else {
                ""
            }
        )))
    }

    // ---- numbers ----------------------------------------------------------------------------

    fn term(&mut self) -> Read<Term> {
        let from = self.at;
        let first = self.atom_term()?;
        let mut parts = vec![(true, first)];
        while let Some(plus) = self
            .peek()
            .map(|t| t.text.clone())
            .filter(|t| t == "+" || t == "-")
        {
            self.at += 1;
            parts.push((plus == "+", self.atom_term()?));
        }
        if parts.len() == 1 {
            return Ok(parts.pop().expect("one term").1);
        }
        Ok(Term {
            kind: TermKind::Sum(parts),
            text: self.text_from(from),
        })
    }

    fn atom_term(&mut self) -> Read<Term> {
        let from = self.at;
        let t = self.next("a number")?;
        let kind = match t.text.as_str() {
            "count" => {
                let pattern = self.pattern("the pieces to count")?;
                if self.peek_is("in")
                    && self.toks.get(self.at + 1).is_some_and(|t| t.text == "hand")
                {
                    self.at += 2;
                    if !self.ctx.keeps.hand {
                        return Err(Problem::new(
                            "this definition has no hands to count",
                            self.toks[self.at - 1].span.clone(),
                            "no hand",
                        )
                        .with_help("pieces go to a hand under `drops` or `prisoners`"));
                    }
                    TermKind::Hand(pattern)
                } else {
                    let place = match self.eat("in") {
                        true => Some(self.place()?),
                        false => None,
                    };
                    TermKind::Board(pattern, place)
                }
            }
            "removed" | "captured" | "did" => {
                if self.before {
                    return Err(Problem::new(
                        format!(
                            "`{}` is about the turn, not about the position before it",
                            t.text
                        ),
                        t.span.clone(),
                        "inside `before`",
                    ));
                }
                self.step = true;
                self.turn_fact(&t)?
            }
            "before" => {
                let inner = self.in_before(&t, |p| p.atom_term())?;
                TermKind::Before(Box::new(inner))
            }
            word if KEYS[4..].iter().any(|(k, _)| *k == word) => {
                let (key, per_side) = match word {
                    "prisoners" => (NumKey::Prisoners, true),
                    "check-count" => (NumKey::CheckCount, true),
                    "halfmove-clock" => (NumKey::HalfmoveClock, false),
                    _ => (NumKey::FullmoveNumber, false),
                };
                self.kept(&t, self.keeps(word))?;
                let side = match per_side {
                    true => Some(self.side()?),
                    false => None,
                };
                TermKind::Key(key, side)
            }
            word => match word.parse::<i64>() {
                Ok(n) if n >= 0 => TermKind::Number(n),
                _ => return Err(self.not_a_formula(&t)),
            },
        };
        Ok(Term {
            kind,
            text: self.text_from(from),
        })
    }

    /// `removed ...`, `captured ...` or `did ...`, the head `t` read.
    fn turn_fact(&mut self, t: &Tok) -> Read<TermKind> {
        match t.text.as_str() {
            "removed" => {
                let pattern = self.pattern("the pieces removed")?;
                let place = match self.eat("in") {
                    true => Some(self.place()?),
                    false => None,
                };
                let how = match self.eat("by") {
                    true => {
                        let w = self.next("how a piece left the board")?;
                        Some(How::ALL[self.choice(&w, How::WORDS, "way of leaving the board")?])
                    }
                    false => None,
                };
                Ok(TermKind::Removed(pattern, place, how))
            }
            "captured" => {
                let pattern = self.pattern("the pieces captured")?;
                let place = match self.eat("in") {
                    true => Some(self.place()?),
                    false => None,
                };
                let by = match self.eat("by") {
                    true => Some(self.pattern("the capturing pieces")?),
                    false => None,
                };
                Ok(TermKind::Captured(pattern, place, by))
            }
            _ => {
                let w = self.next("an action")?;
                let action = Act::ALL[self.choice(&w, Act::WORDS, "action")?];
                let mover = match self.peek().is_some_and(|t| self.starts_pattern(t)) {
                    true => Some(self.pattern("the moving pieces")?),
                    false => None,
                };
                let from = match self.eat("from") {
                    true => Some(self.place()?),
                    false => None,
                };
                let to = match self.eat("to") {
                    true => Some(self.place()?),
                    false => None,
                };
                Ok(TermKind::Did {
                    action,
                    mover,
                    from,
                    to,
                })
            }
        }
    }

    fn not_a_formula(&self, t: &Tok) -> Problem {
        let starts = [
            "not", "every", "some", "no", "before", "in-check", "to-move", "count", "removed",
            "captured", "did",
        ];
        let known = starts.iter().copied().chain(KEYS.iter().map(|(k, _)| *k));
        let mean = did_you_mean(&t.text, known);
        Problem::new(
            format!("`{}` starts no formula or number{mean}", t.text),
            t.span.clone(),
            "not understood",
        )
        .with_help(
            "a formula is a comparison of numbers (`count P in court = 0`), `in-check SIDE`, \
             `to-move SIDE`, a yes/no state key, `every`/`some`/`no` and a piece or `side`, or \
             formulas joined by `not`, `and`, `or`, `implies` and parentheses; a number is a \
             whole number, `count`, `removed`, `captured`, `did`, a numeric state key or `before` \
             one of them",
        )
    }

    /// The index of `w` among `words`, else an error naming them.
    fn choice(&self, w: &Tok, words: &[&str], what: &str) -> Read<usize> {
        if let Some(k) = words.iter().position(|x| *x == w.text) {
            return Ok(k);
        }
        let mean = did_you_mean(&w.text, words.iter().copied());
        Err(Problem::new(
            format!("`{}` is no {what}{mean}", w.text),
            w.span.clone(),
            format!("unknown {what}"),
        )
        .with_help(format!("one of: {}", words.join(", "))))
    }

    // ---- sides, pieces and places -------------------------------------------------------------

    fn side(&mut self) -> Read<SideRef> {
        let t = self.next("a side")?;
        let side = SideRef::ALL[self.choice(&t, SideRef::WORDS, "side")?];
        self.side_bound(&t, side)?;
        Ok(side)
    }

    /// An error for `own` or `enemy` where no quantifier names a side.
    fn side_bound(&self, t: &Tok, side: SideRef) -> Read<()> {
        if matches!(side, SideRef::Own | SideRef::Enemy) && self.scope.is_empty() {
            return Err(Problem::new(
                format!("`{}` is relative to a side, and none is named here", t.text),
                t.span.clone(),
                "whose?",
            )
            .with_help(
                "`own` and `enemy` are the side an `every`/`some`/`no` names (a piece's, or \
                 `side`'s) and the other; else write white, black, mover or to-move",
            ));
        }
        Ok(())
    }

    /// Whether `t` can start a pattern (for the optional pattern of `did`).
    fn starts_pattern(&self, t: &Tok) -> bool {
        SideRef::WORDS.contains(&t.text.as_str())
            || (!KEYWORDS.contains(&t.text.as_str())
                && !Cmp::WORDS.contains(&t.text.as_str())
                && t.text.split('|').all(|k| self.kind(k).is_some()))
    }

    /// `[SIDE] KINDS`: `piece`, or letters, names and `invented` joined by `|`.
    fn pattern(&mut self, what: &str) -> Read<Pattern> {
        let mut side = None;
        if self
            .peek()
            .is_some_and(|t| SideRef::WORDS.contains(&t.text.as_str()))
        {
            side = Some(self.side()?);
        }
        let t = self.next(what)?;
        if t.text == "piece" {
            return Ok(Pattern { side, kinds: None });
        }
        let mut kinds = Vec::new();
        let mut offset = 0;
        for part in t.text.split('|') {
            let span = t.span.start + offset..t.span.start + offset + part.len();
            offset += part.len() + 1;
            match self.kind(part) {
                Some(k) => kinds.push(k),
                None => {
                    let known = self
                        .ctx
                        .pieces
                        .iter()
                        .flat_map(|p| [p.letter.to_string(), p.name.clone()])
                        .chain(["invented".to_string(), "piece".to_string()])
                        .collect::<Vec<_>>();
                    let mean = did_you_mean(part, known.iter().map(String::as_str));
                    let letters: Vec<String> = self
                        .ctx
                        .pieces
                        .iter()
                        .map(|p| p.letter.to_string())
                        .collect();
                    return Err(Problem::new(
                        format!("`{part}` is no piece of this definition{mean}"),
                        span,
                        "unknown piece",
                    )
                    .with_help(format!(
                        "name {what} by letter or name ({}), `invented`, several joined by `|` \
                         (`Q|R`), or `piece` for every kind; a side may come first",
                        letters.join(" ")
                    )));
                }
            }
        }
        Ok(Pattern {
            side,
            kinds: Some(kinds),
        })
    }

    /// The letter of a piece named by letter or name, or `invented`.
    fn kind(&self, word: &str) -> Option<char> {
        if word == "invented" {
            return Some(INVENTED);
        }
        self.ctx
            .pieces
            .iter()
            .find(|p| p.name == word || (word.chars().count() == 1 && p.letter.to_string() == word))
            .map(|p| p.letter)
    }

    /// `[outside] ZONE-OR-SQUARE`.
    fn place(&mut self) -> Read<Place> {
        let outside = self.eat("outside");
        let t = self.next("a zone or a square")?;
        if let Some((name, cells)) = self.ctx.zones.iter().find(|(n, _)| *n == t.text) {
            let mut cells = cells.clone();
            for side in &mut cells {
                side.sort();
            }
            return Ok(Place {
                name: name.clone(),
                outside,
                cells,
            });
        }
        match self.cell(&t.text) {
            Some(cell) => Ok(self.square_place(&t.text, cell, outside)),
            None => {
                let zones: Vec<&str> = self.ctx.zones.iter().map(|(n, _)| n.as_str()).collect();
                let mean = did_you_mean(&t.text, zones.iter().copied());
                Err(Problem::new(
                    format!("`{}` is no zone or square of this definition{mean}", t.text),
                    t.span.clone(),
                    "unknown place",
                )
                .with_help(match zones.is_empty() {
                    true => "it declares no zones; name a square (`d0`)".to_string(),
                    false => format!("its zones: {}; or name a square", zones.join(", ")),
                }))
            }
        }
    }

    fn square_place(&self, name: &str, cell: Cell, outside: bool) -> Place {
        Place {
            name: name.to_string(),
            outside,
            cells: [vec![cell], vec![cell]],
        }
    }

    fn cell(&self, text: &str) -> Option<Cell> {
        Cell::named(self.ctx.geometry, text).filter(|c| !self.ctx.holes.contains(c))
    }

    fn square(&mut self) -> Read<Cell> {
        let t = self.next("a square")?;
        self.cell(&t.text).ok_or_else(|| {
            Problem::new(
                format!("`{}` is no square of the board", t.text),
                t.span.clone(),
                "not a square",
            )
        })
    }
}
