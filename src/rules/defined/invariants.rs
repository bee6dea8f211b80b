//! The invariants a definition offers to `arbiter invariant` and `expect invariant`, each
//! following from one of its components or pieces: a search checks that every position it
//! reaches keeps them. They are claims to test, so a definition whose rules break one is
//! exactly what the search should find.

use super::position::{Move, Position};
use super::properties::Facts;
use crate::definition::model::{Component, Safety};
use crate::definition::Definition;
use crate::rules::{Color, InvariantDef};

/// What an invariant checks.
enum Claim {
    MoverSafe,
    /// Each side has exactly one piece of the royal kind with this letter.
    OneEach(char),
    /// No piece of the pawn kind with this letter stands on the first or last rank.
    NoneOnBackRank(char),
    CastlingConsistent,
    /// The definition's own `property` of this index.
    Property(usize),
}

/// The invariants of `def`, by name, with what each checks.
fn all(def: &Definition) -> Vec<(String, String, Claim)> {
    let has = |f: &dyn Fn(&Component) -> bool| def.rules.iter().any(|r| f(&r.component));
    let mut out = Vec::new();
    if has(&|c| matches!(c, Component::Check { .. })) {
        out.push((
            "mover-not-in-check".to_string(),
            "the side that just moved has no royal piece left attacked (under `safety any-one`: \
             not all of them)"
                .to_string(),
            Claim::MoverSafe,
        ));
        let royals: Vec<_> = def.pieces.iter().filter(|p| p.royal).collect();
        if let [royal] = royals.as_slice() {
            out.push((
                format!("one-{}-each", royal.name),
                format!("each side has exactly one {}", royal.name),
                Claim::OneEach(royal.letter),
            ));
        }
    }
    for p in def.pieces.iter().filter(|p| p.pawn) {
        out.push((
            format!("no-{}-on-back-rank", p.name),
            format!("no {} stands on the first or last rank", p.name),
            Claim::NoneOnBackRank(p.letter),
        ));
    }
    if has(&|c| matches!(c, Component::Castling { .. })) {
        out.push((
            "castling-rights-consistent".to_string(),
            "a castling right implies the castling piece and that rook stand on the castling \
             rank"
                .to_string(),
            Claim::CastlingConsistent,
        ));
    }
    // A property named as a generic invariant states it in the definition's own words.
    for (k, p) in def.properties.iter().enumerate() {
        out.retain(|(name, _, _)| *name != p.name);
        out.push((p.name.clone(), p.clause.clone(), Claim::Property(k)));
    }
    out
}

/// The catalogue entries of `def`'s invariants.
pub fn catalogue(def: &Definition) -> Vec<InvariantDef> {
    all(def)
        .into_iter()
        .map(|(name, summary, _)| InvariantDef {
            name: super::compile::leak(&name),
            summary: super::compile::leak(&summary),
        })
        .collect()
}

impl Position {
    /// Checks invariant `name` in this position, reached from `before` by the turn `m`: a
    /// property about turns reads what `m` did; every other invariant this position alone.
    pub fn invariant_after(&self, before: &Position, m: Move, name: &str) -> Result<(), String> {
        match self.c.def.properties.iter().find(|p| p.name == name) {
            Some(p) if p.step => self.property(p, before, &Facts::of(before, m)),
            _ => self.invariant(name),
        }
    }

    /// Checks invariant `name` in this position: `Err` says how it is broken.
    pub fn invariant(&self, name: &str) -> Result<(), String> {
        let Some((_, _, check)) = all(&self.c.def).into_iter().find(|(n, _, _)| n == name) else {
            return Err(format!("no invariant `{name}`"));
        };
        let c = self.c;
        let g = &c.geometry;
        let kind_of = |letter: char| c.kind_of_letter(letter);
        match check {
            Claim::MoverSafe => {
                let mover = self.turn.other();
                let royals: Vec<_> = self.royals(mover).collect();
                let attacked: Vec<_> = royals
                    .iter()
                    .copied()
                    .filter(|&r| self.attacked(r, self.turn))
                    .collect();
                let broken = match c.check {
                    Some((_, Safety::AnyOne)) => {
                        !royals.is_empty() && attacked.len() == royals.len()
                    }
                    Some((_, Safety::LastOne)) => royals.len() == 1 && !attacked.is_empty(),
                    _ => !attacked.is_empty(),
                };
                match attacked.first() {
                    Some(&r) if broken => Err(format!(
                        "{mover} moved and its {} on {} is attacked",
                        self.kind_name_at(r),
                        g.square_name(r.square())
                    )),
                    _ => Ok(()),
                }
            }
            Claim::OneEach(letter) => {
                let Some(kind) = kind_of(letter) else {
                    return Ok(());
                };
                for color in Color::ALL {
                    let n = self.count_of(color, kind);
                    if n != 1 {
                        return Err(format!("{color} has {n} {}s", c.kinds[kind].name));
                    }
                }
                Ok(())
            }
            Claim::NoneOnBackRank(letter) => {
                let Some(kind) = kind_of(letter) else {
                    return Ok(());
                };
                for &sq in &c.squares {
                    let s = sq.square();
                    if (s.rank == 0 || s.rank + 1 == g.ranks)
                        && c.kind_at(self.board.cell(sq)) == Some(kind)
                    {
                        return Err(format!(
                            "a {} stands on {}",
                            c.kinds[kind].name,
                            g.square_name(s)
                        ));
                    }
                }
                Ok(())
            }
            Claim::CastlingConsistent => self.castling_consistent(),
            // No turn reached the position as far as this check knows: the turn did nothing.
            Claim::Property(k) => self.property(&c.def.properties[k], self, &Facts::default()),
        }
    }

    fn kind_name_at(&self, sq: crate::rules::Sq) -> String {
        self.c
            .kind_at(self.board.cell(sq))
            .map_or_else(|| "piece".into(), |k| self.c.kinds[k].name.clone())
    }

    fn count_of(&self, color: Color, kind: usize) -> usize {
        self.c
            .squares
            .iter()
            .filter(|&&sq| {
                self.c.kind_at(self.board.cell(sq)) == Some(kind)
                    && self.board.piece_at(sq).is_some_and(|p| p.color() == color)
            })
            .count()
    }

    /// Every castling right held names a rook of a castling kind on the castling rank, with
    /// the side's castling piece on that rank too.
    fn castling_consistent(&self) -> Result<(), String> {
        let c = self.c;
        let Some(k) = &c.castling else {
            return Ok(());
        };
        let g = &c.geometry;
        for color in Color::ALL {
            let rights = self.castle[color.index()];
            if rights == 0 {
                continue;
            }
            let rank = match color {
                Color::White => k.rank,
                Color::Black => g.ranks - 1 - k.rank,
            };
            let holds = |file: u8, want: &dyn Fn(usize) -> bool| {
                let sq = crate::rules::Sq::of(crate::rules::board::Square::new(file, rank));
                self.board.piece_at(sq).is_some_and(|p| p.color() == color)
                    && c.kind_at(self.board.cell(sq)).is_some_and(want)
            };
            if !(0..g.files).any(|f| holds(f, &|kind| kind == k.king)) {
                return Err(format!(
                    "{color} keeps a castling right but its {} is not on its castling rank",
                    c.kinds[k.king].name
                ));
            }
            for file in (0..g.files).filter(|f| rights >> f & 1 != 0) {
                if !holds(file, &|kind| k.rooks.has(kind)) {
                    return Err(format!(
                        "{color} keeps the castling right of the {}-file, where no rook of its \
                         stands",
                        g.file_label(file)
                    ));
                }
            }
        }
        Ok(())
    }
}
