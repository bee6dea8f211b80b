//! Hover in a definition: a statement or a component shows its section of the reference
//! (`docs/defining-variants.md`); a setting its rows of the settings tables, with its default;
//! a piece (its letter anywhere a setting names pieces, or its own `piece` line) its name,
//! movement, clauses and a diagram of where it goes; an option named by `when` its values,
//! default and reason; `from` the definition inherited; `without` what it drops. Pieces,
//! options and components are looked up in the definition as resolved, inherited ones
//! included, or in the text as written while it does not resolve.

use std::fmt::Write as _;
use std::path::Path;

use super::diagnostics::{definition_too_large, resolve_definition, MAX_LIVE_BYTES};
use super::reference;
use crate::betza::{Design, Kind, Modality, Range, Side};
use crate::definition::model::{Definition, OptionDecl, PieceDef};
use crate::definition::parse::parse_tree;
use crate::definition::resolve::{names_pieces, COMPONENTS, STATEMENTS};
use crate::definition::syntax::{Span, Statement, Value};
use crate::text::{markdown, markdown_code};

fn holds(span: &Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

/// What the reference and the definition say of the word at `offset`, and the span it covers.
pub fn text_at(text: &str, path: Option<&Path>, offset: usize) -> Option<(String, Span)> {
    let tree = parse_tree(text).ok()?;
    let statement = tree.statements.iter().find(|s| holds(&s.span, offset))?;
    let head = statement.head.text.as_str();
    if holds(&statement.head.span, offset) {
        let text = if COMPONENTS.contains(&head) {
            format!(
                "component **{head}**\n\n{}",
                reference::section(head).unwrap_or_default()
            )
        } else if STATEMENTS.contains(&head) {
            format!(
                "statement **{head}**\n\n{}",
                reference::section(head).unwrap_or_default()
            )
        } else {
            return None;
        };
        return Some((text, statement.head.span.clone()));
    }
    let resolved = || resolve_definition(text, path).ok();
    if let Some(value) = statement.values.iter().find(|v| holds(&v.span, offset)) {
        let found = match head {
            "piece" => piece_of_line(statement, resolved().as_ref()),
            "option" => option_named(&value.text, &tree.statements, resolved().as_ref()),
            "from" => parent(&value.text, path),
            "without" => dropped(&tree.statements, statement, value, path),
            _ => None,
        };
        return found.map(|t| (t, value.span.clone()));
    }
    let block = statement.block.as_ref()?;
    let setting = block.statements.iter().find(|s| holds(&s.span, offset))?;
    let name = setting.head.text.as_str();
    if head == "option" {
        return Some((
            format!(
                "option setting **{}**\n\n{}",
                markdown(name),
                reference::section("option").unwrap_or_default()
            ),
            setting.head.span.clone(),
        ));
    }
    if head == "board" {
        // The board block's settings have their rows in the section of `board`.
        let text = reference::setting("board", name)?;
        return Some((
            format!(
                "board setting **{}**

{text}",
                markdown(name)
            ),
            setting.head.span.clone(),
        ));
    }
    if !COMPONENTS.contains(&head) {
        return None;
    }
    if let Some(value) = setting.values.iter().find(|v| holds(&v.span, offset)) {
        if name == "when" && setting.values.first() == Some(value) {
            let text = option_named(&value.text, &tree.statements, resolved().as_ref())?;
            return Some((text, value.span.clone()));
        }
        if names_pieces(name) {
            let (letter, span) = letter_at(value, offset)?;
            let def = resolved();
            let text = match &def {
                Some(d) => d.pieces.iter().find(|p| p.letter == letter).map(piece_text),
                None => written_piece(&tree.statements, letter).or_else(|| {
                    let parent = parent_of(&tree.statements, path)?;
                    parent
                        .pieces
                        .iter()
                        .find(|p| p.letter == letter)
                        .map(piece_text)
                }),
            }?;
            return Some((text, span));
        }
    }
    let text = reference::setting(head, name)?;
    Some((
        format!("setting **{}** of **{head}**\n\n{text}", markdown(name)),
        setting.head.span.clone(),
    ))
}

/// The piece letter under the cursor in a bare value (`QRBN`'s letters are one value each in
/// the text, `Q1` and `P:Q` hold a letter and more), and its span.
pub fn letter_at(value: &Value, offset: usize) -> Option<(char, Span)> {
    if value.quoted {
        return None;
    }
    let at = offset.saturating_sub(value.span.start);
    let bytes = value.text.as_bytes();
    // The cursor may stand just after the word.
    [at, at.wrapping_sub(1)]
        .into_iter()
        .find(|&i| bytes.get(i).is_some_and(u8::is_ascii_uppercase))
        .map(|i| {
            let start = value.span.start + i;
            (bytes[i] as char, start..start + 1)
        })
}

/// The piece a `piece` line declares, as resolved (or as written).
fn piece_of_line(statement: &Statement, def: Option<&Definition>) -> Option<String> {
    let letter = statement.values.first()?.text.chars().next()?;
    match def {
        Some(d) => d.pieces.iter().find(|p| p.letter == letter).map(piece_text),
        None => written_piece(std::slice::from_ref(statement), letter),
    }
}

/// A piece from its `piece` line, for a definition that does not resolve.
fn written_piece(statements: &[Statement], letter: char) -> Option<String> {
    let s = statements.iter().find(|s| {
        s.head.text == "piece"
            && s.values
                .first()
                .is_some_and(|v| v.text == letter.to_string())
    })?;
    let word = |i: usize| s.values.get(i).map_or("", |v| v.text.as_str());
    let mut out = format!(
        "piece **{}** ({})\n\nmovement {}",
        markdown(word(1)),
        markdown_code(&letter.to_string()),
        markdown_code(word(2))
    );
    if let Ok(design) = Design::parse(word(2)) {
        out.push_str(&diagram(&design, letter));
    }
    Some(out)
}

/// A piece: name, letter, movement, what it is, its clauses and its diagram.
fn piece_text(p: &PieceDef) -> String {
    let mut out = format!(
        "piece **{}** ({}), movement {}",
        markdown(&p.name),
        markdown_code(&p.letter.to_string()),
        markdown_code(&p.betza)
    );
    for (holds, word) in [(p.royal, "royal"), (p.pawn, "pawn")] {
        if holds {
            let _ = write!(out, ", {word}");
        }
    }
    let _ = write!(
        out,
        "\n\nrule {}",
        markdown_code(&format!("{}-move", p.name))
    );
    if !p.clause.is_empty() {
        let _ = write!(out, ": \"{}\"", markdown(&p.clause));
    }
    if let Some(c) = &p.capture_clause {
        let _ = write!(
            out,
            "\n\nrule {}: \"{}\"",
            markdown_code(&format!("{}-capture", p.name)),
            markdown(c)
        );
    }
    if p.betza != "none" {
        out.push_str(&diagram(&p.design, p.letter));
    }
    out
}

/// How far the diagram reaches from the piece.
const RADIUS: i32 = 4;

/// Where a design goes from the middle of an empty board, for White (forward is up): `*`
/// moves or captures, `m` moves only, `c` captures only, `h` lands by hopping over a piece.
fn diagram(design: &Design, letter: char) -> String {
    let side = (2 * RADIUS + 1) as usize;
    let mut grid = vec![vec!['.'; side]; side];
    let mut hops = false;
    let mut lame = false;
    for atom in design.atoms() {
        let reach = match atom.range() {
            Range::Leaper => 1,
            Range::Limited(n) => i32::from(n),
            Range::Unlimited => RADIUS,
        };
        for (dx, dy) in atom.vectors(Side::White) {
            // A hopper lands beyond a screen that may stand anywhere on its line: on an empty
            // board it goes nowhere, so the diagram shows every square it may land on.
            let (first, reach) = if atom.kind() == Kind::Hopper {
                hops = true;
                (2, RADIUS)
            } else {
                lame |= atom.kind() == Kind::Lame;
                (1, reach)
            };
            for k in first..=reach {
                let (x, y) = (RADIUS + dx * k, RADIUS - dy * k);
                if !(0..side as i32).contains(&x) || !(0..side as i32).contains(&y) {
                    break;
                }
                let cell = &mut grid[y as usize][x as usize];
                let mark = if atom.kind() == Kind::Hopper {
                    'h'
                } else {
                    match atom.modality() {
                        Modality::Both => '*',
                        Modality::Move => 'm',
                        Modality::Capture => 'c',
                    }
                };
                *cell = match (*cell, mark) {
                    ('.', m) => m,
                    ('m', 'c') | ('c', 'm') => '*',
                    (old, 'h') => old,
                    ('h', m) => m,
                    (old, m) if old == m => m,
                    _ => '*',
                };
            }
        }
    }
    grid[RADIUS as usize][RADIUS as usize] = letter;
    let mut out = String::from("\n\n```text\n");
    for row in grid {
        out.extend(row);
        out.push('\n');
    }
    out.push_str("```\n`*` moves or captures, `m` moves only, `c` captures only");
    if hops {
        out.push_str(", `h` lands there by hopping over one piece on the way");
    }
    if lame {
        out.push_str(", a lame leap is blocked by a piece on its way");
    }
    out.push_str(" (White; Black's are turned round)");
    out
}

/// An option: its values, default and reason, as resolved (or as written).
fn option_named(name: &str, statements: &[Statement], def: Option<&Definition>) -> Option<String> {
    let decl = match def {
        Some(d) => d.options.iter().find(|o| o.name == name).cloned(),
        None => written_option(statements, name),
    }?;
    Some(option_text(&decl))
}

fn written_option(statements: &[Statement], name: &str) -> Option<OptionDecl> {
    let s = statements
        .iter()
        .find(|s| s.head.text == "option" && s.values.first().is_some_and(|v| v.text == name))?;
    let setting = |key: &str| {
        s.block
            .as_ref()?
            .statements
            .iter()
            .find(|st| st.head.text == key)
            .map(|st| st.values.iter().map(|v| v.text.clone()).collect::<Vec<_>>())
    };
    Some(OptionDecl {
        name: name.to_string(),
        values: setting("values").unwrap_or_default(),
        default: setting("default")
            .and_then(|v| v.into_iter().next())
            .unwrap_or_default(),
        reason: setting("reason")
            .and_then(|v| v.into_iter().next())
            .unwrap_or_default(),
        span: Default::default(),
    })
}

fn option_text(o: &OptionDecl) -> String {
    format!(
        "option **{}**\n\nvalues: {}; default: {}\n\n{}",
        markdown(&o.name),
        o.values
            .iter()
            .map(|v| markdown_code(v))
            .collect::<Vec<_>>()
            .join(", "),
        markdown_code(&o.default),
        markdown(&o.reason)
    )
}

/// The definition `from` names: its title, source, board and pieces.
fn parent(spec: &str, path: Option<&Path>) -> Option<String> {
    let def = load_beside(spec, path)?;
    let pieces: Vec<String> = def
        .pieces
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                markdown_code(&p.letter.to_string()),
                markdown(&p.name)
            )
        })
        .collect();
    let components: Vec<String> = def.rules.iter().map(|r| markdown_code(&r.id)).collect();
    // A board that names its own squares says so: a child reads its statements by them.
    let g = def.geometry;
    let names = if g == crate::rules::Geometry::lettered(g.files, g.ranks) {
        String::new()
    } else {
        format!(
            " (files {}, ranks from {})",
            markdown_code(&g.file_labels().join(" ")),
            g.first_rank()
        )
    };
    Some(format!(
        "definition **{}**: {}\n\nsource: {}\n\nboard {}x{}{names}; pieces: {}\n\ncomponents: {}",
        markdown(&def.name),
        markdown(&def.title),
        markdown(&def.source),
        def.files,
        def.ranks,
        pieces.join(", "),
        components.join(", ")
    ))
}

/// What a `without` line drops, as the parent (`from`) has it: a piece, an option or a
/// component; its `piece` or `option` word is the statement's section.
fn dropped(
    statements: &[Statement],
    statement: &Statement,
    value: &Value,
    path: Option<&Path>,
) -> Option<String> {
    let first = statement.values.first()?;
    let kind = match first.text.as_str() {
        "piece" | "option" if std::ptr::eq(first, value) => {
            return reference::section("without").map(|s| format!("statement **without**\n\n{s}"));
        }
        k @ ("piece" | "option") => k,
        _ => "component",
    };
    let parent = parent_of(statements, path)?;
    let from = markdown(&parent.name);
    let text = match kind {
        "piece" => {
            let letter = value.text.chars().next()?;
            let p = parent.pieces.iter().find(|p| p.letter == letter)?;
            format!("drops from {from}: {}", piece_text(p))
        }
        "option" => {
            let o = parent.options.iter().find(|o| o.name == value.text)?;
            format!("drops from {from}: {}", option_text(o))
        }
        _ => {
            let r = parent.rules.iter().find(|r| r.id == value.text)?;
            format!(
                "drops from {from}: component **{}**, rule {}\n\n> \"{}\"",
                r.component.name(),
                markdown_code(&r.id),
                markdown(&r.clause)
            )
        }
    };
    Some(text)
}

/// The pieces (letter and name) and options of a definition's text: as resolved, or while it
/// does not resolve, those written in it and its parent's.
pub fn pieces_and_options(
    text: &str,
    path: Option<&Path>,
) -> (Vec<(char, String)>, Vec<OptionDecl>) {
    if definition_too_large(text, path).is_some() {
        return (Vec::new(), Vec::new());
    }
    if let Ok(def) = resolve_definition(text, path) {
        let pieces = def
            .pieces
            .iter()
            .map(|p| (p.letter, p.name.clone()))
            .collect();
        return (pieces, def.options);
    }
    let Ok(tree) = parse_tree(text) else {
        return (Vec::new(), Vec::new());
    };
    let parent = parent_of(&tree.statements, path);
    let mut pieces: Vec<(char, String)> = tree
        .statements
        .iter()
        .filter(|s| s.head.text == "piece")
        .filter_map(|s| {
            let letter = s.values.first()?.text.chars().next()?;
            Some((letter, s.values.get(1).map_or("", |v| &v.text).to_string()))
        })
        .collect();
    let mut options: Vec<OptionDecl> = tree
        .statements
        .iter()
        .filter(|s| s.head.text == "option")
        .filter_map(|s| written_option(&tree.statements, &s.values.first()?.text))
        .collect();
    if let Some(parent) = parent {
        for p in parent.pieces {
            if !pieces.iter().any(|(l, _)| *l == p.letter) {
                pieces.push((p.letter, p.name));
            }
        }
        for o in parent.options {
            if !options.iter().any(|w| w.name == o.name) {
                options.push(o);
            }
        }
    }
    (pieces, options)
}

/// The definition a text's `from` names, as [`parent_of`] reads it, from the text alone.
pub fn parent_of_text(text: &str, path: Option<&Path>) -> Option<Definition> {
    if definition_too_large(text, path).is_some() {
        return None;
    }
    parent_of(&parse_tree(text).ok()?.statements, path)
}

/// The definition a text's `from` names, read as the resolver reads it.
fn parent_of(statements: &[Statement], path: Option<&Path>) -> Option<Definition> {
    let spec = &statements
        .iter()
        .find(|s| s.head.text == "from")?
        .values
        .first()?
        .text;
    load_beside(spec, path)
}

/// The definition `spec` names from the definition at `path`, as `from` reads it: read and
/// resolved once while its files stay as they are, and not at all past the live limit.
fn load_beside(spec: &str, path: Option<&Path>) -> Option<Definition> {
    let spec = match path {
        Some(p) => crate::definition::load::beside(spec, p).ok()?,
        None => spec.to_string(),
    };
    if crate::definition::cache::chain(&spec).bytes > MAX_LIVE_BYTES as u64 {
        return None;
    }
    match crate::rules::defined::loaded(&spec).ok()? {
        crate::rules::Variant::Defined(id) => Some(crate::rules::defined::entry(id).def.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of bundled definitions, and of the texts cut short at every line, answers
    /// without a panic; the words a designer hovers answer something.
    #[test]
    fn every_offset_answers() {
        // Every offset of two definitions; every fifth of two longer ones (each hover reads
        // the whole text again).
        for (name, every) in [("chess", 1), ("ataxx", 1), ("shogi", 5), ("janggi", 5)] {
            let text = crate::definition::load::bundled(name).unwrap();
            let (mut answered, mut asked) = (0, 0);
            for offset in (0..=text.len())
                .step_by(every)
                .filter(|o| text.is_char_boundary(*o))
            {
                asked += 1;
                answered += usize::from(text_at(text, None, offset).is_some());
            }
            assert!(answered > asked / 3, "{name}: {answered} of {asked}");
            for (cut, _) in text.match_indices('\n').step_by(3) {
                let _ = text_at(&text[..cut], None, cut / 2);
            }
        }
    }

    #[test]
    fn a_lame_leaper_and_a_capture_only_atom_show_in_the_diagram() {
        let d = diagram(&Design::parse("nNmWcF").unwrap(), 'X');
        assert!(
            d.contains("\n...*.*...\n..*cmc*..\n...mXm...\n..*cmc*..\n...*.*...\n"),
            "{d}"
        );
        assert!(d.contains("blocked by a piece on its way"), "{d}");
    }
}
