//! Board pictures: a position of any variant as a text diagram ([`text`]) or an SVG image
//! ([`svg`]), with a turn drawn on it and the destinations of one piece marked.
//!
//! A [`Picture`] is plain data read from the [`Rules`] trait (the board, its labels, its
//! zones), so both renderers work for every variant and board size without knowing which
//! variant it is. Everything in it is in a fixed order, so the same position gives the same
//! bytes.

pub mod svg;
pub mod text;

use crate::rules::game::{PlayError, Resolved};
use crate::rules::{Action, CastleSide, Color, Game, LegKind, Piece, Role, Rules, Square, Turn};
use crate::rules::{ActionPattern, Origin, TurnPattern};

/// What stands on a square, as the pictures draw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Man {
    pub color: Color,
    pub role: Role,
    /// The design's canonical text without parentheses, for a designed piece.
    pub design: Option<String>,
}

impl Man {
    fn of(piece: Piece) -> Man {
        Man {
            color: piece.color(),
            role: piece.role(),
            design: piece.design().map(|d| d.text().to_string()),
        }
    }

    /// Whether the piece has a drawn silhouette (the six orthodox pieces).
    pub fn orthodox(&self) -> bool {
        matches!(
            self.role,
            Role::King | Role::Queen | Role::Rook | Role::Bishop | Role::Knight | Role::Pawn
        )
    }
}

/// One square of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub man: Option<Man>,
    /// Index into [`Picture::zones`].
    pub zone: Option<usize>,
}

/// A leg of a drawn path: where it ends and what happens there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub to: Square,
    pub kind: LegKind,
}

/// The drawn legs of a move, written or played.
fn steps(legs: &[crate::rules::Leg]) -> Vec<Step> {
    legs.iter()
        .map(|l| Step {
            to: l.to,
            kind: l.kind,
        })
        .collect()
}

/// One drawn action of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A move along its legs; the origin is unknown for a refused turn written without it.
    Path {
        from: Option<Square>,
        legs: Vec<Step>,
    },
    /// A square the action names without a path (a drop, a coup, a rebirth).
    Mark(Square),
}

/// A turn to draw: its text, its strokes, and for a refused turn the rule that refuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub text: String,
    pub strokes: Vec<Stroke>,
    /// The refusing rule id and its sentence.
    pub refused: Option<(String, String)>,
}

/// The destinations of the piece on one square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesFrom {
    pub from: Square,
    /// Sorted, each once.
    pub to: Vec<Square>,
    /// The legal turns' canonical texts, sorted.
    pub turns: Vec<String>,
}

/// A position ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub variant: &'static str,
    /// File labels left to right.
    pub files: Vec<&'static str>,
    /// Rank labels bottom to top.
    pub ranks: Vec<String>,
    /// Rank by rank from the bottom, files left to right.
    pub cells: Vec<Cell>,
    /// The variant's zone names, in catalogue order.
    pub zones: Vec<&'static str>,
    pub to_move: Color,
    /// The variant's state beyond the board, key by key as `set` and `expect` name them
    /// (`castling: KQkq`, `treasury: white 3, black 0`); the FEN is left out.
    pub state: Vec<String>,
    pub turn: Option<Drawn>,
    pub moves_from: Option<MovesFrom>,
}

impl Picture {
    /// The position of any variant, with nothing drawn on it yet.
    pub fn of<R: Rules>(pos: &R) -> Picture {
        let board = pos.board();
        let g = *board.geometry();
        let zones: Vec<&'static str> = R::zones().to_vec();
        let cells = g
            .squares()
            .map(|sq| Cell {
                man: board.get(sq).map(Man::of),
                zone: pos
                    .zone(sq)
                    .and_then(|z| zones.iter().position(|n| *n == z)),
            })
            .collect();
        Picture {
            variant: R::name(),
            files: (0..g.files).map(|f| g.file_label(f)).collect(),
            ranks: (0..g.ranks).map(|r| g.rank_label(r)).collect(),
            cells,
            zones,
            to_move: pos.turn(),
            state: state_of(pos),
            turn: None,
            moves_from: None,
        }
    }

    pub fn width(&self) -> u8 {
        self.files.len() as u8
    }

    pub fn height(&self) -> u8 {
        self.ranks.len() as u8
    }

    pub fn cell(&self, sq: Square) -> &Cell {
        &self.cells[sq.rank as usize * self.files.len() + sq.file as usize]
    }

    pub fn square_name(&self, sq: Square) -> String {
        format!(
            "{}{}",
            self.files[sq.file as usize], self.ranks[sq.rank as usize]
        )
    }

    /// The designs on the board, sorted by text, each once: the key both renderers number
    /// them by when a design is too long to write on its square.
    pub fn designs(&self) -> Vec<&str> {
        let mut designs: Vec<&str> = self
            .cells
            .iter()
            .filter_map(|c| c.man.as_ref()?.design.as_deref())
            .collect();
        designs.sort_unstable();
        designs.dedup();
        designs
    }

    /// Draws a turn written in `game`'s position as the game resolves it: a legal one as the
    /// variant describes it, a refused one dashed with the rule that refuses it. `Ok(false)`
    /// for a turn that moves nothing on the board (a resignation); the errors of a turn that
    /// names no one turn.
    pub fn draw_written<R: Rules>(
        &mut self,
        game: &Game<R>,
        written: &str,
        pattern: &TurnPattern,
    ) -> Result<bool, PlayError> {
        let g = *game.position().board().geometry();
        match game.resolve(pattern) {
            Ok(Resolved::Move(_, turn)) => self.draw_turn::<R>(turn.text(&g), &turn),
            Ok(_) => return Ok(false),
            Err(PlayError::Refused(r)) => {
                self.draw_refused::<R>(written.to_string(), pattern, r.rule, &r.reason)
            }
            Err(e) => return Err(e),
        }
        Ok(true)
    }

    /// Draws a legal turn, as the variant describes it; castling with its Rook.
    pub fn draw_turn<R: Rules>(&mut self, text: String, turn: &Turn) {
        let mut strokes = Vec::new();
        for a in &turn.actions {
            match a {
                Action::Move {
                    from, legs, castle, ..
                } => {
                    strokes.push(Stroke::Path {
                        from: Some(*from),
                        legs: steps(legs),
                    });
                    if let Some([_, rook]) = castle.and_then(|side| self.castling::<R>(side)) {
                        strokes.push(rook);
                    }
                }
                other => strokes.extend(other.destination().map(Stroke::Mark)),
            }
        }
        self.turn = Some(Drawn {
            text,
            strokes,
            refused: None,
        });
    }

    /// Draws a refused turn as it was written, with the rule that refuses it; castling as the
    /// King's and the Rook's moves it would have made.
    pub fn draw_refused<R: Rules>(
        &mut self,
        text: String,
        pattern: &TurnPattern,
        rule: &str,
        why: &str,
    ) {
        let mut strokes = Vec::new();
        if let TurnPattern::Actions { actions, .. } = pattern {
            for a in actions {
                match a {
                    ActionPattern::Move { from, legs, .. } => strokes.push(Stroke::Path {
                        from: match from {
                            Origin::Exact(sq) => Some(*sq),
                            _ => None,
                        },
                        legs: steps(legs),
                    }),
                    ActionPattern::Castle(side) => {
                        strokes.extend(self.castling::<R>(*side).into_iter().flatten())
                    }
                    ActionPattern::Drop { to: sq, .. }
                    | ActionPattern::Coup { square: sq, .. }
                    | ActionPattern::Reborn { square: sq, .. }
                    | ActionPattern::Vanish { square: sq } => strokes.push(Stroke::Mark(*sq)),
                    _ => {}
                }
            }
        }
        self.turn = Some(Drawn {
            text,
            strokes,
            refused: Some((rule.to_string(), why.to_string())),
        });
    }

    /// The King's and the Rook's paths of castling on `side` for the side to move.
    fn castling<R: Rules>(&self, side: CastleSide) -> Option<[Stroke; 2]> {
        R::castling_moves(self.to_move, side).map(|moves| {
            moves.map(|(from, to)| Stroke::Path {
                from: Some(from),
                legs: vec![Step {
                    to,
                    kind: LegKind::Step,
                }],
            })
        })
    }

    /// Marks where the piece on `from` can go, from the legal turns that start there.
    pub fn mark_moves_from(&mut self, from: Square, turns: &[(String, Turn)]) {
        let mut to = Vec::new();
        let mut texts = Vec::new();
        for (text, t) in turns {
            if t.first_origin() == Some(from) {
                to.extend(t.first_destination());
                texts.push(text.clone());
            }
        }
        to.sort_unstable_by_key(|s| (s.rank, s.file));
        to.dedup();
        texts.sort_unstable();
        self.moves_from = Some(MovesFrom {
            from,
            to,
            turns: texts,
        });
    }
}

/// The state keys of a position but its FEN, each as `key: value`, or `key: white v, black v`
/// for a key of each colour.
fn state_of<R: Rules>(pos: &R) -> Vec<String> {
    R::state_keys()
        .iter()
        .filter(|k| k.name != "fen")
        .map(|k| {
            if k.per_color {
                let [w, b] = Color::ALL.map(|c| pos.state_key(k.name, Some(c)));
                format!("{}: white {w}, black {b}", k.name)
            } else {
                format!("{}: {}", k.name, pos.state_key(k.name, None))
            }
        })
        .collect()
}

/// The state's entries packed into lines of at most `width` characters (an entry longer than
/// that on a line of its own), separated by `; `.
pub fn state_lines(state: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for entry in state {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 2 + entry.chars().count() <= width => {
                line.push_str("; ");
                line.push_str(entry);
            }
            _ => lines.push(entry.clone()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_entries_are_packed_into_lines_of_the_width() {
        let state: Vec<String> = [
            "castling: KQkq",
            "en-passant: -",
            "a-long-entry: 0123456789",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            state_lines(&state, 31),
            ["castling: KQkq; en-passant: -", "a-long-entry: 0123456789"]
        );
        // An entry longer than the width stands alone.
        assert_eq!(state_lines(&state, 5), state);
        assert!(state_lines(&[], 40).is_empty());
    }

    #[test]
    fn castling_draws_the_king_and_the_rook() {
        use crate::rules::chess::Chess;
        let options = crate::rules::Options::defaults(Chess::options());
        let start = Chess::start(Chess::geometry_for(None).unwrap(), &options).unwrap();
        let mut picture = Picture::of(&start);
        let pattern = TurnPattern::Actions {
            actions: vec![ActionPattern::Castle(CastleSide::Queen)],
            claim: None,
        };
        picture.draw_refused::<Chess>("O-O-O".into(), &pattern, "castling-blocked", "why");
        let drawn = picture.turn.expect("a turn");
        let sq = |f, r| Some(Square::new(f, r));
        let ends: Vec<_> = drawn
            .strokes
            .iter()
            .map(|s| match s {
                Stroke::Path { from, legs } => (*from, legs.last().map(|l| l.to)),
                Stroke::Mark(to) => (None, Some(*to)),
            })
            .collect();
        assert_eq!(ends, [(sq(4, 0), sq(2, 0)), (sq(0, 0), sq(3, 0))]);
    }
}
