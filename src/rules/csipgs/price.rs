//! The price of a piece design in zorkmids, as `csipgs-costs.md` gives it: each atom's base
//! price times its modifiers, summed, times the whole-piece multipliers, rounded up to the
//! next whole zorkmid. All arithmetic is exact, in hundred-thousandths of a zorkmid: every
//! factor of the table has one decimal, and a price multiplies at most five of them.
//!
//! The table prices written modifiers; by default (`direction-letters = move-set`) a design
//! is priced by what it does (the canonical atoms of [`crate::betza`]), so that two spellings
//! of one piece cost the same; under `separate` each direction letter written before an atom
//! is a power of its own, priced as below ([`Letters`], [`price_text`]):
//! - an atom in all its directions is the unmodified atom (`fbsW` is `W`, 1.5);
//! - otherwise its directions are split into the table's powers and each is priced on its
//!   own ("fbD = fD + bD"): forward, backward and sideways (both sides) for an orthogonal
//!   atom; the forward pair and the backward pair for a diagonal one; for a knight or camel,
//!   the four wide or the four narrow leaps as a whole (0.5), else its forward leaps (the two
//!   narrow ones or all four, which the sources price alike: 0.7) and its backward leaps
//!   (0.4); the two wide leaps of one side (`fsN`, `bsN`) carry both the side's factor and
//!   wide-only, which multiply (3 x 0.7 x 0.5 = 1.05);
//! - a set of directions the table has no price for (one side only, one diagonal) is an
//!   error that says so, as is an atom without a base price (the zebra, a ranged rider).
//!
//! Colourbound (0.9) applies by itself when every move of the design keeps to one colour of
//! square; royal (4.0) applies to a King's design. Relay, shooting and doublemove are powers
//! no design text can express, so they never apply.

use std::fmt;

use crate::betza::{Atom, Design, Kind, Leap, Modality, Range, Shape};

/// An exact amount of zorkmids, in hundred-thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Zorkmids(u64);

const UNIT: u64 = 100_000;

impl Zorkmids {
    /// An amount given in tenths (every number of the table is).
    const fn tenths(n: u64) -> Zorkmids {
        Zorkmids(n * UNIT / 10)
    }

    /// This amount times a factor given in tenths.
    fn times(self, factor: Factor) -> Zorkmids {
        // Exact: the amounts priced here have at most four decimals before the last factor.
        debug_assert_eq!(self.0 * factor.0 % 10, 0);
        Zorkmids(self.0 * factor.0 / 10)
    }

    /// Rounded up to the next whole zorkmid.
    pub fn ceil(self) -> u64 {
        self.0.div_ceil(UNIT)
    }
}

impl fmt::Display for Zorkmids {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / UNIT;
        let frac = self.0 % UNIT;
        if frac == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{frac:05}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// A multiplier of the table, in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Factor(u64);

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Zorkmids::tenths(self.0))
    }
}

/// One line of a price: a named factor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub factor: Factor,
}

/// One power of an atom: its directions (if limited) and their factors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Power {
    /// Empty for all the atom's directions; two factors for a wide or narrow pair of a
    /// knight's or camel's leaps on one side (`fsN`: forward-only x wide-only).
    pub directions: Vec<Term>,
    pub price: Zorkmids,
}

/// The price of one atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomPrice {
    /// The atom as the canonical notation writes it.
    pub text: String,
    /// The table's name for the atom's family, and its base price.
    pub family: &'static str,
    pub base: Zorkmids,
    pub powers: Vec<Power>,
    pub modality: Option<Term>,
    pub subtotal: Zorkmids,
}

/// A design's price, with every step of the arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Price {
    pub design: String,
    pub atoms: Vec<AtomPrice>,
    pub sum: Zorkmids,
    pub multipliers: Vec<Term>,
    pub exact: Zorkmids,
    pub zorkmids: u64,
}

/// Why a design has no price.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PriceError {
    /// The table has no base price for this atom.
    NoBase { atom: String },
    /// The table has no modifier for this set of directions.
    NoDirections { atom: String, what: &'static str },
    /// The table prices no hopper (`p`, `g`) and no lame leap (`n`).
    NoKind { atom: String, what: &'static str },
}

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PriceError::NoBase { atom } => write!(
                f,
                "the price table has no base price for {atom}; it prices W D H F A G (1.5), R (5), B (3.3), N (3), L (3.3) and NN (5.5)"
            ),
            PriceError::NoDirections { atom, what } => write!(
                f,
                "the price table has no modifier for {atom}: {what}; it prices forward, backward and sideways (both sides) on orthogonal atoms, forward and backward on diagonal ones, and forward, backward, wide and narrow on knights and camels"
            ),
            PriceError::NoKind { atom, what } => write!(
                f,
                "the price table has no price for {atom}: it prices no {what}, only leaps and riders that jump or ride as plain Betza atoms"
            ),
        }
    }
}

impl std::error::Error for PriceError {}

const FORWARD_ORTHOGONAL: Term = term("forward-only", 5);
const BACKWARD_ORTHOGONAL: Term = term("backward-only", 2);
const SIDEWAYS: Term = term("sideways-only", 5);
const FORWARD_OTHER: Term = term("forward-only", 7);
const BACKWARD_OTHER: Term = term("backward-only", 4);
const WIDE: Term = term("wide-only", 5);
const NARROW: Term = term("narrow-only", 5);
const MOVE_ONLY: Term = term("move-only", 6);
const CAPTURE_ONLY: Term = term("capture-only", 6);
const COLOURBOUND: Term = term("colourbound", 9);
const ROYAL: Term = term("royal", 40);

const fn term(name: &'static str, tenths: u64) -> Term {
    Term {
        name,
        factor: Factor(tenths),
    }
}

/// The table's base price of an atom, with its family's name.
fn base(atom: &Atom) -> Option<(&'static str, Zorkmids)> {
    Some(match (atom.leap().shape(), atom.leap(), atom.range()) {
        (Shape::Orthogonal, Leap::W | Leap::D | Leap::H, Range::Leaper) => {
            ("orthogonal leaper", Zorkmids::tenths(15))
        }
        (Shape::Orthogonal, Leap::W, Range::Unlimited) => {
            ("orthogonal rider", Zorkmids::tenths(50))
        }
        (Shape::Diagonal, Leap::F | Leap::A | Leap::G, Range::Leaper) => {
            ("diagonal leaper", Zorkmids::tenths(15))
        }
        (Shape::Diagonal, Leap::F, Range::Unlimited) => ("diagonal rider", Zorkmids::tenths(33)),
        (_, Leap::N, Range::Leaper) => ("knightwise leaper", Zorkmids::tenths(30)),
        (_, Leap::L, Range::Leaper) => ("knightwise leaper", Zorkmids::tenths(33)),
        (_, Leap::N, Range::Unlimited) => ("knightwise rider", Zorkmids::tenths(55)),
        _ => return None,
    })
}

/// The atom's directions as the table's powers, each with its factors: `[[]]` for all
/// directions.
fn direction_terms(atom: &Atom, text: &str) -> Result<Vec<Vec<Term>>, PriceError> {
    if atom.is_all_directions() {
        return Ok(vec![Vec::new()]);
    }
    let v = atom.steps();
    let (a, b) = atom.coords();
    let (a, b) = (i32::from(a), i32::from(b));
    let has = |x: i32, y: i32| v.contains(&(x, y));
    let no = |what| PriceError::NoDirections {
        atom: text.to_string(),
        what,
    };
    let mut out = Vec::new();
    match atom.leap().shape() {
        Shape::Orthogonal => {
            if has(0, b) {
                out.push(vec![FORWARD_ORTHOGONAL]);
            }
            if has(0, -b) {
                out.push(vec![BACKWARD_ORTHOGONAL]);
            }
            match (has(b, 0), has(-b, 0)) {
                (true, true) => out.push(vec![SIDEWAYS]),
                (false, false) => {}
                _ => return Err(no("it moves to one side only")),
            }
        }
        Shape::Diagonal => {
            for (y, t) in [(b, FORWARD_OTHER), (-b, BACKWARD_OTHER)] {
                match (has(b, y), has(-b, y)) {
                    (true, true) => out.push(vec![t]),
                    (false, false) => {}
                    _ => return Err(no("it moves along one diagonal of a pair only")),
                }
            }
        }
        Shape::Oblique => {
            let wide = [(b, a), (-b, a), (b, -a), (-b, -a)];
            let narrow = [(a, b), (-a, b), (a, -b), (-a, -b)];
            let only = |set: &[(i32, i32); 4]| v.len() == 4 && set.iter().all(|&(x, y)| has(x, y));
            if only(&wide) {
                return Ok(vec![vec![WIDE]]);
            }
            if only(&narrow) {
                return Ok(vec![vec![NARROW]]);
            }
            for (sign, t) in [(1, FORWARD_OTHER), (-1, BACKWARD_OTHER)] {
                let half: Vec<_> = v.iter().filter(|(_, y)| y.signum() == sign).collect();
                let pair = |x: i32| half.len() == 2 && half.iter().all(|(hx, _)| hx.abs() == x);
                match half.len() {
                    0 => {}
                    // The two narrow leaps are the sources' `fN`, priced as all four (see
                    // csipgs-costs.md's notation notes).
                    4 => out.push(vec![t]),
                    _ if pair(a) => out.push(vec![t]),
                    // The two wide ones (`fsN`, `bsN`) are both restricted: the table's
                    // modifiers on one atom multiply.
                    _ if pair(b) => out.push(vec![t, WIDE]),
                    _ => {
                        return Err(no(
                            "its leaps on one side are neither the two narrow ones, the two wide ones nor all four",
                        ))
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Whether every move of the design keeps to squares of one colour.
pub fn colourbound(design: &Design) -> bool {
    design
        .atoms()
        .iter()
        .flat_map(Atom::steps)
        .all(|(x, y)| (x + y) % 2 == 0)
}

fn atom_price(atom: &Atom) -> Result<AtomPrice, PriceError> {
    let text = Design::new(vec![*atom]).map_or_else(String::new, |d| d.to_string());
    let unpriced = match atom.kind() {
        Kind::Jumping => None,
        Kind::Lame => Some("lame (non-jumping) leaps (n)"),
        Kind::Hopper => Some("hoppers (p, g)"),
    };
    if let Some(what) = unpriced {
        return Err(PriceError::NoKind { atom: text, what });
    }
    let (family, base) = base(atom).ok_or_else(|| PriceError::NoBase { atom: text.clone() })?;
    let modality = match atom.modality() {
        Modality::Move => Some(MOVE_ONLY),
        Modality::Capture => Some(CAPTURE_ONLY),
        Modality::Both => None,
    };
    let mut powers = Vec::new();
    let mut subtotal = Zorkmids::default();
    for directions in direction_terms(atom, &text)? {
        let mut price = base;
        for t in &directions {
            price = price.times(t.factor);
        }
        if let Some(t) = &modality {
            price = price.times(t.factor);
        }
        subtotal.0 += price.0;
        powers.push(Power { directions, price });
    }
    Ok(AtomPrice {
        text,
        family,
        base,
        powers,
        modality,
        subtotal,
    })
}

/// How several direction letters on one atom are priced: the option `direction-letters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Letters {
    /// By the moves they select together, split into the table's powers: `fbB` is `B`, `ffW`
    /// is `fW`, `fbD` is `fD + bD` (`move-set`).
    MoveSet,
    /// Each direction letter (or pair token, such as `fs` or `fh`) as written is a power of
    /// its own, priced by the moves it selects, even where the letters repeat, overlap or
    /// together cover the atom: `fbB` is `fB + bB`, `ffW` is `fW + fW` (`separate`).
    Separate,
}

/// The price of a design; `royal` for a King's design. Direction letters are priced by the
/// moves they select ([`Letters::MoveSet`]).
pub fn price(design: &Design, royal: bool) -> Result<Price, PriceError> {
    let atoms = design
        .atoms()
        .iter()
        .map(atom_price)
        .collect::<Result<Vec<_>, _>>()?;
    total(design.to_string(), design, atoms, royal)
}

/// The price of the design written `text` under a reading of its direction letters.
pub fn price_text(text: &str, royal: bool, letters: Letters) -> Result<Price, String> {
    let design = Design::parse(text).map_err(|e| format!("`{text}` is {e}"))?;
    let priced = match letters {
        Letters::MoveSet => price(&design, royal),
        Letters::Separate => {
            let written = crate::betza::written_powers(text).map_err(|e| e.to_string())?;
            price_separate(text, &design, &written, royal)
        }
    };
    priced.map_err(|e| e.to_string())
}

/// [`Letters::Separate`]: one line per written token, as often as it was written.
fn price_separate(
    text: &str,
    design: &Design,
    written: &[crate::betza::WrittenAtom],
    royal: bool,
) -> Result<Price, PriceError> {
    let mut atoms = Vec::new();
    for (atom, tokens) in written {
        if tokens.is_empty() {
            atoms.push(atom_price(atom)?);
        }
        for (token, n) in tokens {
            let p = atom_price(token)?;
            atoms.extend(std::iter::repeat_n(p, usize::from(*n)));
        }
    }
    total(text.to_string(), design, atoms, royal)
}

/// The sum of the atoms' prices, times the whole-piece multipliers, rounded up.
fn total(
    text: String,
    design: &Design,
    atoms: Vec<AtomPrice>,
    royal: bool,
) -> Result<Price, PriceError> {
    let sum = Zorkmids(atoms.iter().map(|a| a.subtotal.0).sum());
    let mut multipliers = Vec::new();
    if colourbound(design) {
        multipliers.push(COLOURBOUND);
    }
    if royal {
        multipliers.push(ROYAL);
    }
    let exact = multipliers.iter().fold(sum, |z, t| z.times(t.factor));
    Ok(Price {
        design: text,
        atoms,
        sum,
        multipliers,
        exact,
        zorkmids: exact.ceil(),
    })
}

impl fmt::Display for Price {
    /// The arithmetic, atom by atom, so that it can be checked by hand.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.design)?;
        for a in &self.atoms {
            for p in &a.powers {
                let mut line = format!("  {:<8} {} {}", a.text, a.family, a.base);
                for t in &p.directions {
                    line += &format!(" x {} {}", t.name, t.factor);
                }
                if let Some(t) = &a.modality {
                    line += &format!(" x {} {}", t.name, t.factor);
                }
                writeln!(f, "{line} = {}", p.price)?;
            }
        }
        writeln!(f, "  sum {}", self.sum)?;
        for t in &self.multipliers {
            writeln!(f, "  x {} {}", t.name, t.factor)?;
        }
        if !self.multipliers.is_empty() {
            writeln!(f, "  = {}", self.exact)?;
        }
        write!(
            f,
            "  price {} (rounded up)",
            crate::text::count(self.zorkmids, "zorkmid")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zorkmids(text: &str, royal: bool) -> (u64, String) {
        let p = price(&text.parse().unwrap(), royal).unwrap();
        (p.zorkmids, p.exact.to_string())
    }

    /// "Checks from the sources" in csipgs-costs.md: the standard designs and the designs of
    /// the 1998 sample game, with the exact sums the page gives.
    #[test]
    fn every_price_the_sources_list() {
        let cases = [
            ("B", false, 3, "2.97"),
            ("BR", false, 9, "8.3"),
            ("fcFfmW", false, 2, "1.08"),
            ("N", false, 3, "3"),
            ("R", false, 5, "5"),
            ("WF", true, 12, "12"),
            ("WbRbmHfB", false, 5, "4.99"),
            ("sWbmD", false, 1, "0.93"),
            ("Wfc(DNFA)scDsHbmH", false, 6, "5.85"),
            ("HWDbmF", false, 5, "4.86"),
            ("RbcBbN", false, 7, "6.992"),
            ("NbR", false, 4, "4"),
            ("WD", false, 3, "3"),
        ];
        for (design, royal, n, exact) in cases {
            assert_eq!(zorkmids(design, royal), (n, exact.to_string()), "{design}");
        }
    }

    #[test]
    fn shortcuts_and_spellings_of_one_piece_cost_the_same() {
        assert_eq!(zorkmids("Q", false), zorkmids("BR", false));
        assert_eq!(zorkmids("K", false).1, "3");
        assert_eq!(zorkmids("fbsW", false), zorkmids("W", false));
        assert_eq!(zorkmids("vD", false), zorkmids("fbD", false));
        // (1.5 x 0.5 + 1.5 x 0.2) x colourbound 0.9: a dabbaba never changes colour.
        assert_eq!(zorkmids("vD", false).1, "0.945");
        // A forward-only rook: 5 x 0.5 = 2.5, so 3.
        assert_eq!(zorkmids("fR", false), (3, "2.5".into()));
        // The two readings of a forward knight cost the same.
        assert_eq!(zorkmids("fN", false), zorkmids("fhN", false));
        assert_eq!(zorkmids("fN", false).1, "2.1");
        assert_eq!(zorkmids("sN", false).1, "1.5");
        assert_eq!(zorkmids("vN", false).1, "1.5");
    }

    /// The wide pair of one side carries both that side's factor and wide-only, which
    /// multiply (csipgs-costs.md: "Modifiers on one atom (multiply that atom's price)").
    #[test]
    fn the_wide_pair_of_one_side_multiplies_both_modifiers() {
        assert_eq!(zorkmids("fsN", false), (2, "1.05".into()));
        assert_eq!(zorkmids("bsN", false), (1, "0.6".into()));
        // With a modality: 3 x 0.7 x 0.5 x 0.6.
        assert_eq!(zorkmids("fsmN", false), (1, "0.63".into()));
        // Camel, colourbound: 3.3 x 0.4 x 0.5 x 0.6 x 0.9, five decimals, still exact.
        assert_eq!(zorkmids("bscL", false), (1, "0.3564".into()));
        // Each side on its own: the wide forward pair and the narrow backward one.
        assert_eq!(zorkmids("fsNbN", false).1, "2.25");
        let p = price(&"fsN".parse().unwrap(), false).unwrap();
        let names: Vec<_> = p.atoms[0].powers[0]
            .directions
            .iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["forward-only", "wide-only"]);
        // One wide leap alone still has no price.
        assert!(price(&"frN".parse().unwrap(), false).is_err());
    }

    /// `direction-letters`: letters that select different moves cost the same either way;
    /// letters that repeat or together cover the atom do not.
    #[test]
    fn the_two_readings_of_direction_letters() {
        let both = |text: &str| {
            [Letters::MoveSet, Letters::Separate]
                .map(|l| price_text(text, false, l).map(|p| (p.zorkmids, p.exact.to_string())))
        };
        let ok = |n: u64, exact: &str| Ok((n, exact.to_string()));
        assert_eq!(both("ffW"), [ok(1, "0.75"), ok(2, "1.5")]);
        assert_eq!(both("fffW"), [ok(1, "0.75"), ok(3, "2.25")]);
        assert_eq!(both("fbB"), [ok(3, "2.97"), ok(4, "3.267")]);
        assert_eq!(both("fbsW"), [ok(2, "1.5"), ok(2, "1.8")]);
        // A group's prefix is written once for each atom in it.
        assert_eq!(both("ff(WF)"), [ok(2, "1.8"), ok(4, "3.6")]);
        for same in [
            "fbD",
            "vD",
            "fsN",
            "WbRbmHfB",
            "Wfc(DNFA)scDsHbmH",
            "RbcBbN",
            "fcFfmW",
        ] {
            let [a, b] = both(same);
            assert_eq!(a, b, "{same}");
        }
        // One side alone is no power of the table: `lrW` has a price only by its move set.
        assert!(both("lrW")[0].is_ok() && both("lrW")[1].is_err());
    }

    #[test]
    fn floating_point_would_round_these_wrongly() {
        // 3.3 x 0.7 is 2.3099999999999996 in floating point; here it is exact.
        assert_eq!(zorkmids("WfB", false), (4, "3.81".into()));
        assert_eq!(zorkmids("fB", false), (3, "2.079".into()));
        // 3 x 0.9 exactly: colourbound designs that sum to a whole number stay whole.
        assert_eq!(zorkmids("DA", false), (3, "2.7".into()));
        assert_eq!(zorkmids("L", false), (3, "2.97".into()));
        assert_eq!(zorkmids("NN", false), (6, "5.5".into()));
    }

    #[test]
    fn colourbound_is_read_from_the_geometry() {
        for (d, bound) in [
            ("B", true),
            ("FA", true),
            ("D", true),
            ("L", true),
            ("WD", false),
            ("N", false),
            ("fcFfmW", false),
        ] {
            assert_eq!(colourbound(&d.parse().unwrap()), bound, "{d}");
        }
    }

    #[test]
    fn what_the_table_does_not_price_is_an_error_that_says_why() {
        for (d, part) in [
            ("Z", "no base price for Z"),
            ("R4", "no base price for R4"),
            ("DD", "no base price"),
            ("mRcpR", "no price for cpR: it prices no hoppers"),
            ("gQ", "no price for gR"),
            ("nN", "no price for nN: it prices no lame"),
            ("lW", "one side only"),
            ("frF", "one diagonal"),
            // One wide leap and one narrow one on a side: no modifier of the table.
            (
                "frN",
                "neither the two narrow ones, the two wide ones nor all four",
            ),
            (
                "frrfN",
                "neither the two narrow ones, the two wide ones nor all four",
            ),
        ] {
            let e = price(&d.parse().unwrap(), false).unwrap_err().to_string();
            assert!(e.contains(part), "{d}: {e}");
        }
    }

    #[test]
    fn the_breakdown_shows_every_step() {
        let p = price(&"RbcBbN".parse().unwrap(), false).unwrap();
        assert_eq!(
            p.to_string(),
            "RbcBbN\n  R        orthogonal rider 5 = 5\n  bcB      diagonal rider 3.3 x backward-only 0.4 x capture-only 0.6 = 0.792\n  bN       knightwise leaper 3 x backward-only 0.4 = 1.2\n  sum 6.992\n  price 7 zorkmids (rounded up)"
        );
        let k = price(&"K".parse().unwrap(), true).unwrap();
        assert!(
            k.to_string()
                .ends_with("  sum 3\n  x royal 4\n  = 12\n  price 12 zorkmids (rounded up)"),
            "{k}"
        );
    }
}
