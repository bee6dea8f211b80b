//! A picture as a Unicode text diagram: ranks from the top, three columns per square.
//!
//! Pieces are their FEN letters (upper case white); a designed piece is a number in
//! parentheses (white) or brackets (black), keyed below the board. The columns either side
//! of a square's letter shade its zone (`░`, `▒`, blank, ...), or mark what is drawn on it:
//! `>K<` the piece that moves, `xpx` a kill, `^R^` a ricochet, a digit the square a leg ends
//! on, `•` a destination of `--moves-from`. The variant's state follows the board.

use std::fmt::Write;

use super::{LegKind, Man, Picture, Stroke};
use crate::rules::Color;

/// The shade of each zone, in catalogue order (Cypher: court, border, field), when the zones
/// cover the board: the third is blank, the rest of the board.
const ZONE_MARKS: [char; 12] = ['░', '▒', ' ', '▓', ':', '\'', '"', '=', '~', '`', ',', ';'];
/// The shades when some square is in no zone: none blank, so that every zone is drawn.
const ZONE_MARKS_NO_BLANK: [char; 11] = ['░', '▒', '▓', ':', '\'', '"', '=', '~', '`', ',', ';'];
/// The narrowest the state lines are packed to, for a small board.
const STATE_WIDTH: usize = 60;
/// How designs are numbered on their squares.
const DESIGN_KEYS: &str = "123456789abcdefghijklmnopqrstuvwxyz";

/// One square's three columns.
#[derive(Clone, Copy)]
struct Glyph {
    left: char,
    mid: char,
    right: char,
}

fn design_key(picture: &Picture, design: &str) -> char {
    let index = picture.designs().iter().position(|d| *d == design);
    index
        .and_then(|i| DESIGN_KEYS.chars().nth(i))
        .unwrap_or('?')
}

fn man_glyph(picture: &Picture, man: &Man, pad: char) -> Glyph {
    match &man.design {
        Some(d) => {
            let key = design_key(picture, d);
            match man.color {
                Color::White => Glyph {
                    left: '(',
                    mid: key,
                    right: ')',
                },
                Color::Black => Glyph {
                    left: '[',
                    mid: key,
                    right: ']',
                },
            }
        }
        None => {
            let letter = man.role.letter();
            Glyph {
                left: pad,
                mid: match man.color {
                    Color::White => letter,
                    Color::Black => letter.to_ascii_lowercase(),
                },
                right: pad,
            }
        }
    }
}

fn frame(g: &mut Glyph, left: char, right: char) {
    g.left = left;
    g.right = right;
}

/// The diagram with its caption and keys.
pub fn render(picture: &Picture) -> String {
    let files = picture.width() as usize;
    let ranks = picture.height() as usize;
    let marks: &[char] = if picture.cells.iter().all(|c| c.zone.is_some()) {
        &ZONE_MARKS
    } else {
        &ZONE_MARKS_NO_BLANK
    };
    let mut grid: Vec<Glyph> = picture
        .cells
        .iter()
        .map(|c| {
            let pad = c.zone.map_or(' ', |z| marks[z % marks.len()]);
            match &c.man {
                Some(m) => man_glyph(picture, m, pad),
                None => Glyph {
                    left: pad,
                    mid: '·',
                    right: pad,
                },
            }
        })
        .collect();
    let at = |sq: crate::rules::Square| sq.rank as usize * files + sq.file as usize;
    if let Some(m) = &picture.moves_from {
        for &to in &m.to {
            let g = &mut grid[at(to)];
            if picture.cell(to).man.is_some() {
                frame(g, '*', '*');
            } else {
                g.mid = '•';
            }
        }
        frame(&mut grid[at(m.from)], '>', '<');
    }
    if let Some(turn) = &picture.turn {
        for stroke in &turn.strokes {
            match stroke {
                Stroke::Path { from, legs } => {
                    if let Some(f) = from {
                        frame(&mut grid[at(*f)], '>', '<');
                    }
                    for (i, leg) in legs.iter().enumerate() {
                        let g = &mut grid[at(leg.to)];
                        match leg.kind {
                            LegKind::Kill(_) => frame(g, 'x', 'x'),
                            LegKind::Ricochet => frame(g, '^', '^'),
                            _ if picture.cell(leg.to).man.is_none() => {
                                g.mid = DESIGN_KEYS.chars().nth(i).unwrap_or('+')
                            }
                            _ => frame(g, '+', '+'),
                        }
                    }
                }
                Stroke::Mark(sq) => frame(&mut grid[at(*sq)], '+', '+'),
            }
        }
    }

    let label_width = picture.ranks.iter().map(|r| r.len()).max().unwrap_or(1);
    let mut out = String::new();
    let _ = writeln!(out, "{}, {} to move", picture.variant, picture.to_move);
    let mut header = " ".repeat(label_width + 1);
    for f in &picture.files {
        let _ = write!(header, " {f:<2}");
    }
    let header = header.trim_end().to_string();
    let _ = writeln!(out, "{header}");
    for rank in (0..ranks).rev() {
        let _ = write!(out, "{:>label_width$} ", picture.ranks[rank]);
        for file in 0..files {
            let g = grid[rank * files + file];
            out.push(g.left);
            out.push(g.mid);
            out.push(g.right);
        }
        let _ = writeln!(out, " {}", picture.ranks[rank]);
    }
    let _ = writeln!(out, "{header}");

    if !picture.zones.is_empty() {
        let zones: Vec<String> = picture
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| {
                let mark = marks[i % marks.len()];
                let shown = if mark == ' ' {
                    "blank".to_string()
                } else {
                    mark.to_string()
                };
                format!("{shown} {z}")
            })
            .collect();
        let _ = writeln!(out, "zones: {}", zones.join(", "));
    }
    let designs = picture.designs();
    if !designs.is_empty() {
        let keys: Vec<String> = designs
            .iter()
            .map(|d| format!("{} ({d})", design_key(picture, d)))
            .collect();
        let _ = writeln!(out, "designs ((n) white, [n] black): {}", keys.join(", "));
    }
    let width = header.chars().count().max(STATE_WIDTH);
    for line in super::state_lines(&picture.state, width) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(turn) = &picture.turn {
        match &turn.refused {
            Some((rule, why)) => {
                let _ = writeln!(out, "turn: {} refused by {rule}: {why}", turn.text);
            }
            None => {
                let _ = writeln!(out, "turn: {}", turn.text);
            }
        }
    }
    if let Some(m) = &picture.moves_from {
        let name = picture.square_name(m.from);
        if m.turns.is_empty() {
            let _ = writeln!(out, "moves from {name}: none");
        } else {
            let _ = writeln!(out, "moves from {name}: {}", m.turns.join(" "));
        }
    }
    out
}
