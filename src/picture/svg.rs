//! A picture as an SVG image: squares 100 units wide, labelled with the variant's files and
//! ranks, zones as tints with a legend, the orthodox pieces as silhouettes drawn with paths
//! (no font glyphs, no images), other pieces as discs with their letter or design, a turn as
//! arrows through every leg with kills crossed out, and destinations as dots; the variant's
//! state is written under the board.
//!
//! Every coordinate is an integer, so the bytes depend on nothing but the picture.

use std::fmt::Write;

use super::{LegKind, Man, Picture, Stroke};
use crate::rules::{Color, Role, Square};

/// One square, in user units.
const S: i32 = 100;
/// Room for the rank labels on the left, and the margins.
const LEFT: i32 = 60;
const TOP: i32 = 20;
const RIGHT: i32 = 20;
/// The caption lines under the board.
const LINE: i32 = 44;
const CAPTION_SIZE: i32 = 28;
/// A generous width of one caption character, so that no line runs off the image.
const CHAR_WIDTH: i32 = 16;
/// The narrowest the state lines are packed to (in characters), for a small board.
const STATE_WIDTH: i32 = 48;

/// Light and dark squares without zones.
const PLAIN: (&str, &str) = ("#f0d9b5", "#b58863");
/// Light and dark squares of each zone, in catalogue order (Cypher: Court, Border, Field).
const ZONE_TINTS: [(&str, &str); 5] = [
    ("#f6e7a8", "#d9b84e"),
    ("#f4c7c3", "#d98f88"),
    ("#d9e8f5", "#8fb1d1"),
    ("#dcefd0", "#94c27c"),
    ("#e6dcf2", "#a98fcf"),
];
const INK: &str = "#1a1a1a";
const PAPER: &str = "#ffffff";
const LEGAL: &str = "#1f5fbf";
const REFUSED: &str = "#c62828";
/// A design longer than this is numbered on its disc and spelled out in the key.
const DESIGN_ON_DISC: usize = 5;
const DESIGN_KEYS: &str = "123456789abcdefghijklmnopqrstuvwxyz";

/// Text safe inside an element or an attribute ([`crate::text::svg`]).
fn escape(text: &str) -> String {
    crate::text::svg(text)
}

struct Layout {
    files: i32,
    ranks: i32,
}

impl Layout {
    /// The top left corner of a square.
    fn corner(&self, sq: Square) -> (i32, i32) {
        (
            LEFT + sq.file as i32 * S,
            TOP + (self.ranks - 1 - sq.rank as i32) * S,
        )
    }

    fn centre(&self, sq: Square) -> (i32, i32) {
        let (x, y) = self.corner(sq);
        (x + S / 2, y + S / 2)
    }

    fn board_bottom(&self) -> i32 {
        TOP + self.ranks * S
    }

    fn board_right(&self) -> i32 {
        LEFT + self.files * S
    }
}

/// The silhouette of an orthodox piece in a 100-unit square: filled shapes, then detail lines
/// in the other colour.
fn silhouette(role: Role) -> (&'static [&'static str], &'static [&'static str]) {
    const BASE: &str = "M26 88 H74 V80 Q74 76 70 76 H30 Q26 76 26 80 Z";
    match role {
        Role::King => (
            &[
                "M46 10 H54 V18 H62 V26 H54 V34 H46 V26 H38 V18 H46 Z",
                "M32 76 C18 58 26 38 50 38 C74 38 82 58 68 76 Z",
                BASE,
            ],
            &["M36 64 H64"],
        ),
        Role::Queen => (
            &[
                "M30 76 L18 34 L36 54 L38 24 L50 50 L62 24 L64 54 L82 34 L70 76 Z",
                "M18 28 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z",
                "M38 20 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z",
                "M62 20 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z",
                "M82 28 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z",
                BASE,
            ],
            &["M34 66 H66"],
        ),
        Role::Rook => (
            &[
                "M30 76 L34 70 V42 H30 V20 H40 V28 H46 V20 H54 V28 H60 V20 H70 V42 H66 V70 L70 76 Z",
                BASE,
            ],
            &["M34 42 H66", "M34 70 H66"],
        ),
        Role::Bishop => (
            &[
                "M50 12 m-6 0 a6 6 0 1 0 12 0 a6 6 0 1 0 -12 0 Z",
                "M50 20 C66 32 68 50 58 62 H42 C32 50 34 32 50 20 Z",
                "M42 62 H58 L64 76 H36 Z",
                BASE,
            ],
            &["M46 36 L56 46", "M42 62 H58"],
        ),
        Role::Knight => (
            &[
                "M32 76 C30 62 38 54 46 48 C38 50 30 54 24 50 C20 44 30 34 40 26 L42 14 L50 22 \
                 C66 24 76 44 72 76 Z",
                BASE,
            ],
            &["M38 34 L42 36"],
        ),
        _ => (
            &[
                "M50 22 m-12 0 a12 12 0 1 0 24 0 a12 12 0 1 0 -24 0 Z",
                "M34 76 C36 60 40 50 44 44 H56 C60 50 64 60 66 76 Z",
                BASE,
            ],
            &[],
        ),
    }
}

fn colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => (PAPER, INK),
        Color::Black => (INK, PAPER),
    }
}

/// What a disc says: the fairy piece's letter, or the design (numbered when long).
fn disc_label(picture: &Picture, man: &Man) -> String {
    match &man.design {
        Some(d) if d.chars().count() <= DESIGN_ON_DISC => d.clone(),
        Some(d) => {
            let i = picture.designs().iter().position(|x| x == d).unwrap_or(0);
            format!("#{}", DESIGN_KEYS.chars().nth(i).unwrap_or('?'))
        }
        None => man.role.letter().to_string(),
    }
}

fn piece(out: &mut String, picture: &Picture, man: &Man, x: i32, y: i32) {
    let (fill, line) = colours(man.color);
    let class = match &man.design {
        Some(_) => "design".to_string(),
        None => man.role.word().to_string(),
    };
    let _ = writeln!(
        out,
        "<g class=\"piece {} {class}\" transform=\"translate({x} {y})\">",
        man.color
    );
    if man.orthodox() {
        let (shapes, details) = silhouette(man.role);
        for d in shapes {
            let _ = writeln!(
                out,
                "<path d=\"{d}\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"3\" stroke-linejoin=\"round\"/>"
            );
        }
        for d in details {
            let _ = writeln!(
                out,
                "<path d=\"{d}\" fill=\"none\" stroke=\"{line}\" stroke-width=\"3\" stroke-linecap=\"round\"/>"
            );
        }
    } else {
        let label = disc_label(picture, man);
        let size = match label.chars().count() {
            0 | 1 => 46,
            2 => 38,
            3 => 30,
            4 => 25,
            _ => 21,
        };
        // A fairy piece has a plain disc; a design a second ring, so the two never look alike.
        let _ = writeln!(
            out,
            "<circle cx=\"50\" cy=\"50\" r=\"38\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"3\"/>"
        );
        if man.design.is_some() {
            let _ = writeln!(
                out,
                "<circle cx=\"50\" cy=\"50\" r=\"32\" fill=\"none\" stroke=\"{line}\" stroke-width=\"2\"/>"
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"50\" y=\"{}\" font-size=\"{size}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{line}\">{}</text>",
            50 + size * 7 / 20,
            escape(&label)
        );
    }
    out.push_str("</g>\n");
}

/// The caption lines under the board: who moves, the variant's state, the design key, the
/// turn.
/// Each line with its colour.
fn captions(picture: &Picture) -> Vec<(String, &'static str)> {
    let mut lines = vec![(
        format!("{}, {} to move", picture.variant, picture.to_move),
        INK,
    )];
    let width = ((picture.width() as i32 * S + RIGHT) / CHAR_WIDTH).max(STATE_WIDTH) as usize;
    for line in super::state_lines(&picture.state, width) {
        lines.push((line, INK));
    }
    let long: Vec<(usize, &str)> = picture
        .designs()
        .into_iter()
        .enumerate()
        .filter(|(_, d)| d.chars().count() > DESIGN_ON_DISC)
        .collect();
    for (i, d) in long {
        lines.push((
            format!("#{} = ({d})", DESIGN_KEYS.chars().nth(i).unwrap_or('?')),
            INK,
        ));
    }
    if let Some(turn) = &picture.turn {
        match &turn.refused {
            Some((rule, why)) => {
                lines.push((format!("{}: refused by {rule}", turn.text), REFUSED));
                for line in wrap(why, width) {
                    lines.push((line, REFUSED));
                }
            }
            None => lines.push((format!("turn: {}", turn.text), INK)),
        }
    }
    if let Some(m) = &picture.moves_from {
        lines.push((
            format!(
                "moves from {}: {} turns to {} squares",
                picture.square_name(m.from),
                m.turns.len(),
                m.to.len()
            ),
            INK,
        ));
    }
    lines
}

/// `text` in lines of at most `width` characters, broken between words (a longer word on a
/// line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The space between two entries of the zone legend on one row.
const LEGEND_GAP: i32 = 40;

/// The width of a zone's legend entry: its swatch and its name.
fn legend_width(zone: &str) -> i32 {
    48 + zone.chars().count() as i32 * CHAR_WIDTH
}

/// The zones' legend entries in rows no wider than `room`, in catalogue order (an entry wider
/// than that on a row of its own), so that on a narrow board no name runs into the next.
fn legend_rows(zones: &[&str], room: i32) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (i, z) in zones.iter().enumerate() {
        let w = legend_width(z);
        match rows.last_mut() {
            Some(row) if used + LEGEND_GAP + w <= room => {
                row.push(i);
                used += LEGEND_GAP + w;
            }
            _ => {
                rows.push(vec![i]);
                used = w;
            }
        }
    }
    rows
}

/// The SVG document.
pub fn render(picture: &Picture) -> String {
    let layout = Layout {
        files: picture.width() as i32,
        ranks: picture.height() as i32,
    };
    let lines = captions(picture);
    let widest = lines
        .iter()
        .map(|(l, _)| l.chars().count() as i32 * CHAR_WIDTH)
        .chain(picture.zones.iter().map(|z| legend_width(z)))
        .max()
        .unwrap_or(0);
    let width = (layout.board_right() + RIGHT).max(LEFT + widest + RIGHT);
    let legend = legend_rows(&picture.zones, width - LEFT - RIGHT);
    let caption_top = layout.board_bottom() + 100;
    let height = caption_top + (lines.len() + legend.len()) as i32 * LINE;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">",
        width / 2,
        height / 2
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&lines[0].0));
    let _ = writeln!(out, "<defs>");
    for (id, colour) in [("head-legal", LEGAL), ("head-refused", REFUSED)] {
        let _ = writeln!(
            out,
            "<marker id=\"{id}\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 Z\" fill=\"{colour}\"/></marker>"
        );
    }
    let _ = writeln!(out, "</defs>");
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    );

    // Squares, tinted by zone.
    out.push_str("<g class=\"squares\">\n");
    for rank in 0..picture.height() {
        for file in 0..picture.width() {
            let sq = Square::new(file, rank);
            let (light, dark) = picture
                .cell(sq)
                .zone
                .map_or(PLAIN, |z| ZONE_TINTS[z % ZONE_TINTS.len()]);
            let fill = if (file + rank) % 2 == 1 { light } else { dark };
            let (x, y) = layout.corner(sq);
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"{fill}\"/>"
            );
        }
    }
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2\"/>",
        layout.files * S,
        layout.ranks * S
    );
    out.push_str("</g>\n");

    // The moving piece's square.
    let mut origins: Vec<Square> = Vec::new();
    if let Some(m) = &picture.moves_from {
        origins.push(m.from);
    }
    if let Some(t) = &picture.turn {
        for s in &t.strokes {
            if let Stroke::Path { from: Some(f), .. } = s {
                origins.push(*f);
            }
        }
    }
    origins.sort_unstable();
    origins.dedup();
    for sq in origins {
        let (x, y) = layout.corner(sq);
        let _ = writeln!(
            out,
            "<rect class=\"origin\" x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"#ffd54f\" fill-opacity=\"0.6\"/>"
        );
    }

    // Coordinates.
    out.push_str(&format!(
        "<g class=\"coordinates\" font-size=\"30\" fill=\"{INK}\" text-anchor=\"middle\">\n"
    ));
    for (i, f) in picture.files.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            LEFT + i as i32 * S + S / 2,
            layout.board_bottom() + 38,
            escape(f)
        );
    }
    for (i, r) in picture.ranks.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            LEFT / 2,
            TOP + (layout.ranks - 1 - i as i32) * S + S / 2 + 10,
            escape(r)
        );
    }
    out.push_str("</g>\n");

    // Pieces.
    for rank in 0..picture.height() {
        for file in 0..picture.width() {
            let sq = Square::new(file, rank);
            if let Some(man) = &picture.cell(sq).man {
                let (x, y) = layout.corner(sq);
                piece(&mut out, picture, man, x, y);
            }
        }
    }

    if let Some(m) = &picture.moves_from {
        out.push_str("<g class=\"moves-from\">\n");
        for &to in &m.to {
            let (cx, cy) = layout.centre(to);
            if picture.cell(to).man.is_some() {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"44\" fill=\"none\" stroke=\"{INK}\" stroke-opacity=\"0.4\" stroke-width=\"7\"/>"
                );
            } else {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"14\" fill=\"{INK}\" fill-opacity=\"0.4\"/>"
                );
            }
        }
        out.push_str("</g>\n");
    }

    if let Some(turn) = &picture.turn {
        turn_strokes(&mut out, &layout, turn);
    }

    // Captions and the zone legend.
    let mut y = caption_top;
    let _ = writeln!(
        out,
        "<g class=\"caption\" font-size=\"{CAPTION_SIZE}\" fill=\"{INK}\">"
    );
    for row in &legend {
        let mut x = LEFT;
        for &i in row {
            let z = picture.zones[i];
            let (light, dark) = ZONE_TINTS[i % ZONE_TINTS.len()];
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{}\" width=\"18\" height=\"36\" fill=\"{light}\"/><rect x=\"{}\" y=\"{}\" width=\"18\" height=\"36\" fill=\"{dark}\"/><rect x=\"{x}\" y=\"{}\" width=\"36\" height=\"36\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2\"/>",
                y - 28,
                x + 18,
                y - 28,
                y - 28
            );
            let _ = writeln!(out, "<text x=\"{}\" y=\"{y}\">{}</text>", x + 48, escape(z));
            x += legend_width(z) + LEGEND_GAP;
        }
        y += LINE;
    }
    for (line, colour) in &lines {
        let _ = writeln!(
            out,
            "<text x=\"{LEFT}\" y=\"{y}\" fill=\"{colour}\">{}</text>",
            escape(line)
        );
        y += LINE;
    }
    out.push_str("</g>\n");
    out.push_str("</svg>\n");
    out
}

/// The turn's arrows, kill crosses, ricochet rings and marks; a refused turn dashed, with its
/// rule written at the end of its path.
fn turn_strokes(out: &mut String, layout: &Layout, turn: &super::Drawn) {
    let (colour, head, dash, class) = match turn.refused {
        Some(_) => (
            REFUSED,
            "head-refused",
            " stroke-dasharray=\"16 10\"",
            "turn refused",
        ),
        None => (LEGAL, "head-legal", "", "turn"),
    };
    let _ = writeln!(out, "<g class=\"{class}\">");
    let mut end = None;
    for stroke in &turn.strokes {
        match stroke {
            Stroke::Path { from, legs } => {
                let points: Vec<(i32, i32)> = from
                    .iter()
                    .copied()
                    .chain(legs.iter().map(|l| l.to))
                    .map(|sq| layout.centre(sq))
                    .collect();
                if points.len() > 1 {
                    let text: Vec<String> =
                        points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                    let _ = writeln!(
                        out,
                        "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-opacity=\"0.85\" stroke-width=\"10\" stroke-linecap=\"round\" stroke-linejoin=\"round\"{dash} marker-end=\"url(#{head})\"/>",
                        text.join(" ")
                    );
                } else if let Some(&(cx, cy)) = points.first() {
                    // A refused turn written without its origin: only where it was going.
                    let _ = writeln!(
                        out,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"40\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"8\"{dash}/>"
                    );
                }
                for leg in legs {
                    let (cx, cy) = layout.centre(leg.to);
                    match leg.kind {
                        LegKind::Kill(_) => {
                            let _ = writeln!(
                                out,
                                "<path class=\"kill\" d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"{REFUSED}\" stroke-width=\"10\" stroke-linecap=\"round\"/>",
                                cx - 24,
                                cy - 24,
                                cx + 24,
                                cy + 24,
                                cx - 24,
                                cy + 24,
                                cx + 24,
                                cy - 24
                            );
                        }
                        LegKind::Ricochet => {
                            let _ = writeln!(
                                out,
                                "<circle class=\"ricochet\" cx=\"{cx}\" cy=\"{cy}\" r=\"22\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"6\"/>"
                            );
                        }
                        _ => {}
                    }
                }
                end = points.last().copied().or(end);
            }
            Stroke::Mark(sq) => {
                let (cx, cy) = layout.centre(*sq);
                let _ = writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"40\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"8\"{dash}/>"
                );
                end = Some((cx, cy));
            }
        }
    }
    if let (Some((rule, _)), Some((x, y))) = (&turn.refused, end) {
        let x = x.clamp(LEFT + 80, (layout.board_right() - 80).max(LEFT + 80));
        let y = (y - 34).max(TOP + 30);
        let _ = writeln!(
            out,
            "<text class=\"rule\" x=\"{x}\" y=\"{y}\" font-size=\"26\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{REFUSED}\" stroke=\"{PAPER}\" stroke-width=\"6\" paint-order=\"stroke\">{}</text>",
            escape(rule)
        );
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn captions_wrap_between_words() {
        assert_eq!(
            wrap("the black knight on g6 has sanctuary", 16),
            ["the black knight", "on g6 has", "sanctuary"]
        );
        assert_eq!(
            wrap("unbreakable-word here", 5),
            ["unbreakable-word", "here"]
        );
    }
}
