//! Direction and modality modifiers: how letters pair into tokens, which vectors a token
//! selects, and the canonical token string for a set of vectors.
//!
//! Letters are read left to right; a letter and the next one form a *pair token* when the two
//! are one of the pairs listed in [`is_pair`], otherwise a letter is a token by itself (this
//! greedy pairing is Fairy-Stockfish's). `m` and `c` are modality letters; they end a pending
//! direction letter, so `fcr` is `f` then `r`, never the pair `fr`.

use super::error::BetzaError;
use super::{Leap, Modality, Shape};

/// The direction letters, in the order of their token indices.
const LETTERS: [u8; 7] = *b"fblrvsh";

fn letter_index(c: u8) -> Option<usize> {
    LETTERS.iter().position(|&l| l == c)
}

/// Whether `c` is a direction letter (`f b l r s v h`).
pub(crate) fn is_direction(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'l' | 'r' | 's' | 'v' | 'h')
}

/// Whether `a` followed by `b` is one token.
///
/// - doubled letters `ff bb ll rr vv ss` (the same as the single letter);
/// - `fh bh lh rh`, the half on that side;
/// - a vertical letter then a horizontal one: `fl fr fs bl br bs`;
/// - a horizontal letter then a vertical one: `lf lb lv rf rb rv`.
///
/// These are the pairs Fairy-Stockfish gives a meaning to; `sf`, `vs`, `vl`, ... are read as
/// two single letters (a union), `fb`, `rl` too.
fn is_pair(a: u8, b: u8) -> bool {
    matches!(
        (a, b),
        (b'f', b'f')
            | (b'b', b'b')
            | (b'l', b'l')
            | (b'r', b'r')
            | (b'v', b'v')
            | (b's', b's')
            | (b'f' | b'b' | b'l' | b'r', b'h')
            | (b'f' | b'b', b'l' | b'r' | b's')
            | (b'l' | b'r', b'f' | b'b' | b'v')
    )
}

/// A token: one letter, or a pair (first, second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Single(u8),
    Pair(u8, u8),
}

impl Token {
    fn index(self) -> u32 {
        let idx = |c: u8| letter_index(c).unwrap_or(0) as u32;
        match self {
            Token::Single(c) => idx(c),
            Token::Pair(a, b) => 7 + idx(a) * 7 + idx(b),
        }
    }

    fn from_index(i: u32) -> Token {
        if i < 7 {
            Token::Single(LETTERS[i as usize])
        } else {
            let p = i - 7;
            Token::Pair(LETTERS[(p / 7) as usize], LETTERS[(p % 7) as usize])
        }
    }
}

/// The half-board on the side of `c`: `f` every vector with dy > 0, `v` every vector with
/// dy != 0, and so on.
fn half(c: u8, (dx, dy): (i32, i32)) -> bool {
    match c {
        b'f' => dy > 0,
        b'b' => dy < 0,
        b'r' => dx > 0,
        b'l' => dx < 0,
        b'v' => dy != 0,
        b's' => dx != 0,
        _ => false,
    }
}

/// The vectors mostly in the direction of `c` (ties included): `f` every vector with
/// dy > 0 and dy >= |dx|, so the W's forward step, both forward F steps, the two narrow
/// forward N leaps.
fn dominant(c: u8, (dx, dy): (i32, i32)) -> bool {
    match c {
        b'f' => dy > 0 && dy >= dx.abs(),
        b'b' => dy < 0 && -dy >= dx.abs(),
        b'r' => dx > 0 && dx >= dy.abs(),
        b'l' => dx < 0 && -dx >= dy.abs(),
        b'v' => dominant(b'f', (dx, dy)) || dominant(b'b', (dx, dy)),
        b's' => dominant(b'l', (dx, dy)) || dominant(b'r', (dx, dy)),
        _ => false,
    }
}

/// Whether `token` selects vector `v` of an atom of shape `shape`.
fn selects(token: Token, shape: Shape, v: (i32, i32)) -> bool {
    match token {
        Token::Single(c) => dominant(c, v),
        Token::Pair(a, b) if a == b => dominant(a, v),
        Token::Pair(a, b'h') => half(a, v),
        // On orthogonal atoms a pair of a vertical and a horizontal letter is the union of the
        // two (fsW: forward and sideways, the xiangqi soldier; frlR).
        Token::Pair(a, b) if shape == Shape::Orthogonal => dominant(a, v) || dominant(b, v),
        // Otherwise the first letter chooses a half, the second the dominant direction in
        // it: frF forward-right; fsN the two wide forward leaps, frN (2,1), rfN (1,2).
        Token::Pair(a, b) => half(a, v) && dominant(b, v),
    }
}

/// How many times each token was written, by [`Token::index`]; a doubled letter (`ff`) counts
/// as its letter twice. Only pricing reads it ([`super::written_powers`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counts([u8; 56]);

impl Default for Counts {
    fn default() -> Counts {
        Counts([0; 56])
    }
}

impl Counts {
    fn add(&mut self, token: Token, n: u8) {
        let c = &mut self.0[token.index() as usize];
        *c = c.saturating_add(n);
    }
}

/// The modifiers before one atom, read as far as they go. `Copy`, so a group's prefix is
/// read once and each atom of the group continues from a copy of it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Prefix {
    /// The set of tokens read, by [`Token::index`].
    tokens: u64,
    /// The tokens as written, with repetitions.
    counts: Counts,
    /// A direction letter that may still pair with the next one, and its offset.
    pending: Option<(u8, usize)>,
    can_move: bool,
    can_capture: bool,
    /// The kind letter (`n`, `p` or `g`) read, and its offset.
    kind: Option<(u8, usize)>,
}

impl Prefix {
    /// Reads one modifier letter (a direction letter, `m` or `c`) at byte offset `at`.
    pub(crate) fn push(&mut self, letter: u8, at: usize) -> Result<(), BetzaError> {
        match letter {
            b'n' | b'p' | b'g' => {
                // Like `m` and `c`, a kind letter keeps the direction letters around it apart.
                self.flush()?;
                match self.kind {
                    Some((first, _)) if first != letter => {
                        return Err(BetzaError::ConflictingKinds {
                            at,
                            letter: letter as char,
                            first: first as char,
                        })
                    }
                    Some(_) => {}
                    None => self.kind = Some((letter, at)),
                }
            }
            b'm' | b'c' => {
                self.flush()?;
                if letter == b'm' {
                    self.can_move = true;
                } else {
                    self.can_capture = true;
                }
            }
            _ => {
                if let Some((p, _)) = self.pending {
                    if is_pair(p, letter) {
                        self.pending = None;
                        self.tokens |= 1 << Token::Pair(p, letter).index();
                        if p == letter {
                            self.counts.add(Token::Single(p), 2);
                        } else {
                            self.counts.add(Token::Pair(p, letter), 1);
                        }
                        return Ok(());
                    }
                    self.flush()?;
                }
                self.pending = Some((letter, at));
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), BetzaError> {
        if let Some((p, at)) = self.pending.take() {
            if p == b'h' {
                return Err(BetzaError::LoneHalf { at });
            }
            self.tokens |= 1 << Token::Single(p).index();
            self.counts.add(Token::Single(p), 1);
        }
        Ok(())
    }

    /// Ends the prefix: the modality and the set of tokens.
    pub(crate) fn finish(mut self) -> Result<Finished, BetzaError> {
        self.flush()?;
        let modality = match (self.can_move, self.can_capture) {
            (true, false) => Modality::Move,
            (false, true) => Modality::Capture,
            _ => Modality::Both,
        };
        Ok(Finished {
            tokens: self.tokens,
            counts: self.counts,
            modality,
            kind: self.kind,
        })
    }
}

/// A read prefix.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Finished {
    tokens: u64,
    counts: Counts,
    pub(crate) modality: Modality,
    /// The kind letter (`n`, `p` or `g`) and its offset, if any.
    pub(crate) kind: Option<(u8, usize)>,
}

impl Finished {
    /// The vectors of `leap` (as a mask over [`Leap::vectors`]) that the directions select:
    /// all of them when there is no direction letter.
    pub(crate) fn mask(&self, leap: Leap) -> u8 {
        mask_of(self.tokens, leap)
    }

    /// Each direction token as written, with the vectors of `leap` it selects by itself and
    /// how many times it was written; empty when there is no direction letter. Tokens that
    /// select no vector of `leap` are left out.
    pub(crate) fn written(&self, leap: Leap) -> Vec<(u8, u8)> {
        (0..56u32)
            .filter(|&t| self.counts.0[t as usize] > 0)
            .map(|t| (mask_of(1 << t, leap), self.counts.0[t as usize]))
            .filter(|&(mask, _)| mask != 0)
            .collect()
    }
}

fn mask_of(tokens: u64, leap: Leap) -> u8 {
    let vectors = leap.vectors();
    if tokens == 0 {
        return leap.full_mask();
    }
    let shape = leap.shape();
    let mut mask = 0u8;
    for (i, &v) in vectors.iter().enumerate() {
        let mut bits = tokens;
        while bits != 0 {
            let t = bits.trailing_zeros();
            bits &= bits - 1;
            if selects(Token::from_index(t), shape, v) {
                mask |= 1 << i;
                break;
            }
        }
    }
    mask
}

/// The vectors of `leap` selected by the direction text `text` (letters only).
fn mask_of_text(text: &str, leap: Leap) -> Option<u8> {
    let mut prefix = Prefix::default();
    for (i, b) in text.bytes().enumerate() {
        prefix.push(b, i).ok()?;
    }
    Some(prefix.finish().ok()?.mask(leap))
}

/// The tokens the canonical printer may use, shortest and plainest first.
const VOCABULARY: [&str; 22] = [
    "f", "b", "l", "r", "v", "s", "fh", "bh", "lh", "rh", "fs", "bs", "lv", "rv", "fl", "fr", "bl",
    "br", "lf", "rf", "lb", "rb",
];

/// The canonical direction text for the vectors `mask` of `leap`: empty for all of them;
/// otherwise the shortest union of tokens (fewest letters, then fewest tokens, then earliest
/// in [`VOCABULARY`]) written in an order that reads back as the same tokens.
pub(crate) fn text_of(leap: Leap, mask: u8) -> String {
    if mask == leap.full_mask() || mask == 0 {
        return String::new();
    }
    // Candidate tokens: those that select only vectors of `mask`, one per distinct selection.
    let mut candidates: Vec<(&str, u8)> = Vec::new();
    for word in VOCABULARY {
        let Some(m) = mask_of_text(word, leap) else {
            continue;
        };
        if m != 0 && m & !mask == 0 && !candidates.iter().any(|&(_, c)| c == m) {
            candidates.push((word, m));
        }
    }
    let n = candidates.len();
    let mut best: Option<(usize, usize, Vec<usize>)> = None;
    for subset in 1u32..(1u32 << n) {
        let mut union = 0u8;
        let mut letters = 0usize;
        let mut chosen = Vec::new();
        for (i, &(word, m)) in candidates.iter().enumerate() {
            if subset & (1 << i) != 0 {
                union |= m;
                letters += word.len();
                chosen.push(i);
            }
        }
        if union != mask {
            continue;
        }
        let key = (letters, chosen.len(), chosen);
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    let Some((_, _, chosen)) = best else {
        // Unreachable: the one-vector pair tokens cover every vector. Doubled letters below
        // are a safe fallback all the same.
        return String::new();
    };
    let words: Vec<&str> = chosen.iter().map(|&i| candidates[i].0).collect();
    // The first order (in lexicographic order of permutations) that reads back the same.
    let mut order: Vec<usize> = (0..words.len()).collect();
    loop {
        let text: String = order.iter().map(|&i| words[i]).collect();
        if mask_of_text(&text, leap) == Some(mask) {
            return text;
        }
        if !next_permutation(&mut order) {
            break;
        }
    }
    // Every token as a pair reads back as itself: a single letter doubled means the letter.
    words
        .iter()
        .map(|w| {
            if w.len() == 1 {
                w.repeat(2)
            } else {
                (*w).to_string()
            }
        })
        .collect()
}

fn next_permutation(v: &mut [usize]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}
