//! Property tests of the Betza module: printing a design and parsing it back gives the same
//! design; parsing is stable under print-parse; no input makes the parser panic; a design's
//! moves are the union of its atoms' moves; adding an unmodified atom never lowers a price.

use arbiter::betza::{Atom, BetzaError, Design, Kind, Leap, Modality, Range, Side};
use arbiter::rules::csipgs::price::price;
use arbiter::rules::design::movement_of;
use arbiter::rules::movement::destinations;
use arbiter::rules::{Board, Color, Geometry, Piece, Role, Sq, Square};
use proptest::prelude::*;

fn leap() -> impl Strategy<Value = Leap> {
    prop::sample::select(Leap::ALL.to_vec())
}

fn range() -> impl Strategy<Value = Range> {
    prop_oneof![
        3 => Just(Range::Leaper),
        2 => Just(Range::Unlimited),
        2 => (2u8..=255).prop_map(Range::Limited),
    ]
}

fn modality() -> impl Strategy<Value = Modality> {
    prop::sample::select(vec![Modality::Move, Modality::Capture, Modality::Both])
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => Just(Kind::Jumping),
        1 => Just(Kind::Lame),
        1 => Just(Kind::Hopper),
    ]
}

/// Atoms of every kind: a kind the atom cannot have (a lame rider, a hopper on a long leap)
/// leaves it jumping.
fn atom() -> impl Strategy<Value = Atom> {
    (plain_atom(), kind()).prop_map(|(a, kind)| a.with_kind(kind).unwrap_or(a))
}

fn plain_atom() -> impl Strategy<Value = Atom> {
    (leap(), range(), modality(), any::<u8>()).prop_map(|(leap, range, modality, bits)| {
        let all = leap.vectors();
        // Half the atoms with every direction, so that K and Q pairs and groups occur.
        let bits = if bits & 0x80 != 0 && all.len() == 4 {
            0xff
        } else {
            bits
        };
        let mut vs: Vec<(i32, i32)> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, &v)| v)
            .collect();
        if vs.is_empty() {
            vs = all;
        }
        Atom::with_vectors(leap, range, &vs, modality).expect("vectors of the leap")
    })
}

fn design() -> impl Strategy<Value = Design> {
    prop::collection::vec(atom(), 1..7).prop_map(|atoms| Design::new(atoms).expect("non-empty"))
}

/// Text made mostly of the notation's own characters, so that many inputs parse.
fn notation_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'W', 'F', 'D', 'N', 'A', 'H', 'L', 'C', 'Z', 'J', 'G', 'R', 'B', 'Q', 'K', 'f', 'b',
            'l', 'r', 's', 'v', 'h', 'm', 'c', '(', ')', '1', '2', '0', '9', 'p', 'x', ' ', 'n',
            'g',
        ]),
        0..14,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn check_error(text: &str, e: &BetzaError) {
    let at = e.offset();
    assert!(at <= text.len(), "{text:?}: offset {at} past the end");
    assert!(
        text.is_char_boundary(at),
        "{text:?}: offset {at} inside a character"
    );
    assert!(!e.to_string().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn print_then_parse_is_identity(d in design()) {
        let text = d.to_string();
        let back: Design = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back, &d, "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn parse_print_parse_is_stable(text in notation_text()) {
        match text.parse::<Design>() {
            Ok(d) => {
                let printed = d.to_string();
                let again: Design = printed
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{text} printed as {printed}: {e}")))?;
                prop_assert_eq!(&again, &d, "{} printed as {}", text, printed);
                prop_assert_eq!(again.to_string(), printed);
                prop_assert_eq!(again.vectors(Side::White), d.vectors(Side::White));
            }
            Err(e) => check_error(&text, &e),
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        match text.parse::<Design>() {
            Ok(d) => prop_assert!(!d.atoms().is_empty()),
            Err(e) => check_error(&text, &e),
        }
    }

    #[test]
    fn black_turns_white_half_round(d in design()) {
        let white = d.vectors(Side::White);
        let mut turned: Vec<(i32, i32)> = white.iter().map(|&(dx, dy)| (-dx, -dy)).collect();
        turned.sort_unstable();
        prop_assert_eq!(d.vectors(Side::Black), turned);
    }
}

/// Designs made of atoms the price table prices, with and without modifiers.
fn priced_design() -> impl Strategy<Value = Design> {
    let parts = vec![
        "W", "F", "D", "N", "A", "H", "L", "G", "R", "B", "NN", "fW", "bW", "sW", "fF", "bF", "fN",
        "bN", "sN", "vN", "mW", "cF", "fmW", "bcB", "fR", "bR", "mN", "cR",
    ];
    prop::collection::vec(prop::sample::select(parts), 1..6)
        // Each part in parentheses, so that `R` then `R` is two rooks, not a doubled one.
        .prop_map(|ps| {
            let text: String = ps.iter().map(|p| format!("({p})")).collect();
            text.parse().expect("a design")
        })
}

/// A board with pieces of both colours on the squares `cells` picks (0..64 only).
fn board(cells: &[(u8, bool)]) -> Board {
    let mut b = Board::empty(Geometry::lettered(8, 8));
    for &(i, white) in cells {
        let i = i % 64;
        let color = if white { Color::White } else { Color::Black };
        b.put(
            Square::new(i % 8, i / 8),
            Some(Piece::new(color, Role::Pawn)),
        );
    }
    b
}

/// Where a piece of `color` with this design goes from `from` (capturing the other colour).
fn reach(d: &Design, b: &Board, from: Square, color: Color) -> Vec<(Sq, bool)> {
    let mut out = Vec::new();
    let them = if color == Color::White { 1 } else { 0 };
    destinations(
        &movement_of(d),
        b,
        Sq::of(from),
        color,
        |c| c & 1 == them,
        |t, x| out.push((t, x)),
    );
    out.sort_unstable();
    out.dedup();
    out
}

proptest! {
    #[test]
    fn a_design_moves_as_the_union_of_its_atoms(
        d in design(),
        cells in prop::collection::vec((0u8..64, any::<bool>()), 0..20),
        at in 0u8..64,
        white in any::<bool>(),
    ) {
        let b = board(&cells);
        let from = Square::new(at % 8, at / 8);
        let color = if white { Color::White } else { Color::Black };
        let mut union: Vec<(Sq, bool)> = d
            .atoms()
            .iter()
            .flat_map(|a| reach(&Design::new(vec![*a]).expect("one atom"), &b, from, color))
            .collect();
        union.sort_unstable();
        union.dedup();
        prop_assert_eq!(reach(&d, &b, from, color), union);
    }

    #[test]
    fn an_unmodified_atom_never_lowers_a_price(
        d in priced_design(),
        leap in prop::sample::select(vec![Leap::W, Leap::F, Leap::D, Leap::N, Leap::A, Leap::H, Leap::L, Leap::G]),
    ) {
        let before = price(&d, false).expect("a priced design");
        let mut atoms = d.atoms().to_vec();
        atoms.push(Atom::new(leap, Range::Leaper, Modality::Both).expect("an atom"));
        let more = Design::new(atoms).expect("atoms");
        let after = price(&more, false).expect("every atom priced");
        prop_assert!(after.exact >= before.exact, "{} {} < {} {}", more, after.exact, d, before.exact);
    }
}

/// Nesting is bounded: a design as deep as the bound reads, one group deeper is refused at
/// that `(`, and a text of 100,000 `(` stops there, in bounded memory, never a crash.
#[test]
fn deep_nesting_is_bounded() {
    let limit = arbiter::betza::MAX_GROUP_DEPTH;
    let deepest = format!("{}W{}", "(".repeat(limit), ")".repeat(limit));
    assert_eq!(deepest.parse::<Design>().map(|d| d.atoms().len()), Ok(1));
    let deeper = format!("{}W{}", "(".repeat(limit + 1), ")".repeat(limit + 1));
    assert_eq!(
        deeper.parse::<Design>(),
        Err(BetzaError::TooDeep { at: limit, limit })
    );
    let deep = format!("{}W{}", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(
        deep.parse::<Design>(),
        Err(BetzaError::TooDeep { at: limit, limit })
    );
    let open = "f(".repeat(100_000);
    let error = open.parse::<Design>().unwrap_err();
    assert_eq!(
        error,
        BetzaError::TooDeep {
            at: 2 * limit + 1,
            limit
        }
    );
    assert!(
        error
            .to_string()
            .contains(&format!("at most {limit} groups")),
        "{error}"
    );
}
