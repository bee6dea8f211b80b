//! The parser: text to [`Design`]. One pass, no recursion (groups are a stack of frames, so
//! deep nesting cannot overflow the call stack), linear in the length of the input, and at
//! most [`MAX_GROUP_DEPTH`] groups open at once, so memory stays bounded too.

use super::directions::{is_direction, Prefix};
use super::error::{BetzaError, Expected, Unsupported};
use super::{Atom, Design, Kind, Leap, Range};

/// How many groups may be open at once. Real designs nest two or three deep; a frame costs
/// about 140 bytes, so without a bound a text of nothing but `(` costs 70 times its length.
pub const MAX_GROUP_DEPTH: usize = 32;

/// An open group: where its `(` is, the modifiers that apply inside it, and whether it holds
/// anything yet.
struct Frame {
    open: usize,
    prefix: Prefix,
    terms: usize,
}

/// What came just before the current character, for the `expected` list of an error.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// The start of the design or of a group.
    Start,
    /// An atom that a range digit could still follow.
    RangeableAtom,
    /// An atom or a group that nothing but a new term, `)` or the end can follow.
    Term,
    /// A modifier.
    Modifier,
}

pub(crate) fn parse(text: &str) -> Result<Design, BetzaError> {
    parse_with(text, None)
}

/// [`parse`], also listing for each atom its direction tokens as written (see
/// [`super::written_powers`]).
pub(crate) fn parse_with(
    text: &str,
    mut written: Option<&mut Vec<Vec<(u8, u8)>>>,
) -> Result<Design, BetzaError> {
    let mut frames: Vec<Frame> = Vec::new();
    // The modifiers read so far for the next term, on top of those of the open groups.
    let mut prefix = Prefix::default();
    // The first modifier since the last term, for a dangling-modifier error.
    let mut first_modifier: Option<(char, usize)> = None;
    let mut atoms: Vec<Atom> = Vec::new();
    let mut top_terms = 0usize;
    let mut last = Last::Start;
    let mut i = 0;
    while let Some(ch) = text[i..].chars().next() {
        match ch {
            'm' | 'c' | 'n' | 'p' | 'g' => {
                prefix.push(ch as u8, i)?;
                first_modifier.get_or_insert((ch, i));
                last = Last::Modifier;
                i += 1;
            }
            _ if is_direction(ch) => {
                prefix.push(ch as u8, i)?;
                first_modifier.get_or_insert((ch, i));
                last = Last::Modifier;
                i += 1;
            }
            '(' => {
                if frames.len() == MAX_GROUP_DEPTH {
                    return Err(BetzaError::TooDeep {
                        at: i,
                        limit: MAX_GROUP_DEPTH,
                    });
                }
                frames.push(Frame {
                    open: i,
                    prefix,
                    terms: 0,
                });
                first_modifier = None;
                last = Last::Start;
                i += 1;
            }
            ')' => {
                if let Some((letter, at)) = first_modifier {
                    return Err(BetzaError::DanglingModifier { at, letter });
                }
                let Some(frame) = frames.pop() else {
                    return Err(BetzaError::UnmatchedClose { at: i });
                };
                if frame.terms == 0 {
                    return Err(BetzaError::EmptyGroup { at: frame.open });
                }
                match frames.last_mut() {
                    Some(parent) => parent.terms += 1,
                    None => top_terms += 1,
                }
                prefix = frames.last().map_or_else(Prefix::default, |f| f.prefix);
                last = Last::Term;
                i += 1;
            }
            _ if is_atom_letter(ch) => {
                let (end, rangeable) =
                    atom(text, i, ch, prefix, &mut atoms, written.as_deref_mut())?;
                match frames.last_mut() {
                    Some(frame) => frame.terms += 1,
                    None => top_terms += 1,
                }
                prefix = frames.last().map_or_else(Prefix::default, |f| f.prefix);
                first_modifier = None;
                last = if rangeable {
                    Last::RangeableAtom
                } else {
                    Last::Term
                };
                i = end;
            }
            _ => {
                if let Some(feature) = Unsupported::of(ch) {
                    return Err(BetzaError::Unsupported {
                        at: i,
                        letter: ch,
                        feature,
                    });
                }
                return Err(BetzaError::Unexpected {
                    at: i,
                    found: ch,
                    expected: expected(last, !frames.is_empty()),
                });
            }
        }
    }
    if let Some((letter, at)) = first_modifier {
        return Err(BetzaError::DanglingModifier { at, letter });
    }
    if let Some(frame) = frames.last() {
        return Err(BetzaError::UnclosedGroup { at: frame.open });
    }
    if top_terms == 0 {
        return Err(BetzaError::UnexpectedEnd {
            at: text.len(),
            expected: Expected::TERM,
        });
    }
    Ok(Design { atoms })
}

fn expected(last: Last, in_group: bool) -> Expected {
    let after_term = matches!(last, Last::RangeableAtom | Last::Term);
    Expected {
        range: last == Last::RangeableAtom,
        close: in_group && after_term,
        end: !in_group && after_term,
        ..Expected::TERM
    }
}

fn is_atom_letter(c: char) -> bool {
    matches!(
        c,
        'W' | 'F' | 'D' | 'N' | 'A' | 'H' | 'L' | 'C' | 'Z' | 'J' | 'G' | 'R' | 'B' | 'Q' | 'K'
    )
}

/// Reads the atom letter `letter` at `at`, with its doubling or range, and pushes its atoms
/// (two for `K` and `Q`). Returns the offset after it and whether a further range digit
/// could have followed it.
fn atom(
    text: &str,
    at: usize,
    letter: char,
    prefix: Prefix,
    atoms: &mut Vec<Atom>,
    written: Option<&mut Vec<Vec<(u8, u8)>>>,
) -> Result<(usize, bool), BetzaError> {
    let (leaps, base_rider): ([Option<Leap>; 2], bool) = match letter {
        'R' => ([Some(Leap::W), None], true),
        'B' => ([Some(Leap::F), None], true),
        'Q' => ([Some(Leap::W), Some(Leap::F)], true),
        'K' => ([Some(Leap::W), Some(Leap::F)], false),
        _ => ([Leap::from_letter(letter), None], false),
    };
    let bytes = text.as_bytes();
    let mut end = at + 1;
    let mut rangeable = true;
    let mut digits_at = None;
    let range = if bytes.get(end) == Some(&(letter as u8)) {
        if base_rider {
            return Err(BetzaError::DoubledRider { at: end, letter });
        }
        end += 1;
        if bytes.get(end).is_some_and(u8::is_ascii_digit) {
            return Err(BetzaError::RangeAfterDoubled { at: end });
        }
        rangeable = false;
        Range::Unlimited
    } else if bytes.get(end).is_some_and(u8::is_ascii_digit) {
        let start = end;
        digits_at = Some(start);
        if bytes[start] == b'0' {
            return Err(BetzaError::ZeroRange { at: start });
        }
        let mut value: u32 = 0;
        while let Some(&d) = bytes.get(end).filter(|d| d.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            end += 1;
        }
        let Ok(n) = u8::try_from(value) else {
            return Err(BetzaError::RangeTooLarge { at: start });
        };
        // More digits would make it too large only past 25; the expected list is a hint.
        rangeable = value < 26;
        if n == 1 {
            Range::Leaper
        } else {
            Range::Limited(n)
        }
    } else if base_rider {
        Range::Unlimited
    } else {
        Range::Leaper
    };
    let finished = prefix.finish()?;
    let (kind, range) = match finished.kind {
        None => (Kind::Jumping, range),
        Some((b'n', at)) => {
            if base_rider || range != Range::Leaper {
                return Err(BetzaError::LameRider { at });
            }
            (Kind::Lame, range)
        }
        Some((kind_letter, _)) => {
            if leaps
                .into_iter()
                .flatten()
                .any(|l| !matches!(l, Leap::W | Leap::F))
            {
                return Err(BetzaError::HopperLine { at, letter });
            }
            if let Some(d) = digits_at {
                return Err(BetzaError::HopperRange { at: d });
            }
            // Fairy-Stockfish reads a hopper on a leaper as on its rider (`pW` = `pR`); the
            // range counts the squares beyond the screen: `g` is one square, `p` any number.
            if kind_letter == b'g' {
                (Kind::Hopper, Range::Leaper)
            } else {
                (Kind::Hopper, Range::Unlimited)
            }
        }
    };
    if let Some(written) = written {
        for leap in leaps.into_iter().flatten() {
            written.push(finished.written(leap));
        }
    }
    for leap in leaps.into_iter().flatten() {
        atoms.push(Atom {
            leap,
            range,
            mask: finished.mask(leap),
            modality: finished.modality,
            kind,
        });
    }
    Ok((end, rangeable))
}
