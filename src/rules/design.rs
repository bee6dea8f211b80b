//! Designed pieces: a Betza design interned once per run, so that a piece stays one byte on
//! the board and moves stay `Copy`. The design's id is part of the piece's cell code (see
//! [`super::piece::Piece`]); the design itself, in canonical form, and its movement are looked
//! up from the id.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::betza::{self, BetzaError};

use super::movement::{Atom, AttackTable, Modality, Movement, Reach};
use super::piece::{Color, Piece, Role};

/// The most distinct designs one run can hold: their ids fill the cell codes above the fixed
/// roles' and below the wall's.
pub const MAX_DESIGNS: usize = 64;

/// An interned design.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DesignId(u8);

/// A design as the engine uses it.
#[derive(Debug)]
pub struct Entry {
    /// The canonical text, without parentheses (`WD`, `Wfc(DNFA)scDsHbmH`).
    pub text: String,
    pub design: betza::Design,
    /// The design's atoms in the engine's movement model.
    pub movement: Movement,
}

/// Why a design cannot become a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DesignError {
    /// The text is not a design.
    Syntax(BetzaError),
    /// The run has interned [`MAX_DESIGNS`] designs already.
    TooMany,
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DesignError::Syntax(e) => write!(f, "not a design: {e}"),
            DesignError::TooMany => write!(
                f,
                "too many distinct designs in one run: at most {MAX_DESIGNS}"
            ),
        }
    }
}

impl std::error::Error for DesignError {}

static SLOTS: [OnceLock<Entry>; MAX_DESIGNS] = [const { OnceLock::new() }; MAX_DESIGNS];
/// The canonical texts interned so far, in id order; taken only to intern.
static NAMES: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// The id of a design kept as it is written (`text`, without its parentheses), apart from the
/// canonical one that moves the same: for a variant whose reading prices a design by its
/// letters (csipgs' `direction-letters = separate`). Where `text` is canonical this is
/// [`intern`]. A written text that is not canonical is never the canonical text of another
/// design (that text would parse to the other design), so the two kinds never collide, and
/// [`intern`] never returns a kept spelling.
pub fn intern_spelled(text: &str) -> Result<DesignId, DesignError> {
    let design = betza::Design::parse(text).map_err(DesignError::Syntax)?;
    if design.to_string() == text {
        return intern(text);
    }
    intern_named(text.to_string(), design)
}

/// How many designs are interned, readable without the lock.
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// The id of a design written `text` (without its parentheses); the same design written
/// differently (`WWD`, `RD`) gets the same id.
pub fn intern(text: &str) -> Result<DesignId, DesignError> {
    let design = betza::Design::parse(text).map_err(DesignError::Syntax)?;
    intern_named(design.to_string(), design)
}

/// The id of `design` under `name` (its canonical text, or a spelling kept as written): the
/// id already given to that name, or the next free one.
fn intern_named(name: String, design: betza::Design) -> Result<DesignId, DesignError> {
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = names.iter().position(|n| *n == name) {
        return Ok(DesignId(i as u8));
    }
    if names.len() >= MAX_DESIGNS {
        return Err(DesignError::TooMany);
    }
    let id = names.len();
    let movement = movement_of(&design);
    // Only this function fills slots, under the lock, each once.
    let _ = SLOTS[id].set(Entry {
        text: name.clone(),
        design,
        movement,
    });
    names.push(name);
    COUNT.store(names.len(), Ordering::Release);
    Ok(DesignId(id as u8))
}

/// How many designs are interned so far (ids `0..count()`).
pub fn count() -> usize {
    COUNT.load(Ordering::Acquire)
}

/// Every design interned so far, in id order.
pub fn interned() -> Vec<DesignId> {
    (0..count() as u8).map(DesignId).collect()
}

/// Attack tables of both colours, shared by the searches of one thread.
pub type Tables = std::sync::Arc<[AttackTable; 2]>;

/// A thread's cache of [`Tables`], with the number of designs they include.
pub type TableCache = std::cell::RefCell<Option<(usize, Tables)>>;

/// The attack tables for a variant's own `kinds` followed by every design interned so far:
/// taken from the thread's `cache`, and built again when the run has interned another design
/// since (so a search takes no lock per attack test).
pub fn tables_with_designs(
    cache: &'static std::thread::LocalKey<TableCache>,
    kinds: &[(Role, &'static Movement)],
) -> Tables {
    let n = count();
    cache.with(|local| {
        if let Some((m, tables)) = local.borrow().as_ref() {
            if *m == n {
                return Tables::clone(tables);
            }
        }
        let designs = interned();
        let tables = Tables::new(Color::ALL.map(|c| {
            let mut coded: Vec<(u8, &Movement)> = kinds
                .iter()
                .map(|&(r, m)| (Piece::new(c, r).code(), m))
                .collect();
            coded.extend(
                designs
                    .iter()
                    .map(|&d| (Piece::designed(c, d).code(), d.movement())),
            );
            AttackTable::new(c, &coded)
        }));
        *local.borrow_mut() = Some((designs.len(), Tables::clone(&tables)));
        tables
    })
}

/// The engine's atoms for a design: one per Betza atom, its vectors written for White.
pub fn movement_of(design: &betza::Design) -> Movement {
    let atoms = design
        .atoms()
        .iter()
        .map(|a| Atom {
            steps: Cow::Owned(
                a.vectors(betza::Side::White)
                    .into_iter()
                    .map(|(dx, dy)| (dx as i8, dy as i8))
                    .collect(),
            ),
            reach: match (a.kind(), a.range()) {
                (betza::Kind::Jumping, betza::Range::Leaper) => Reach::Leap,
                (betza::Kind::Jumping, betza::Range::Unlimited) => Reach::Ride(0),
                (betza::Kind::Jumping, betza::Range::Limited(n)) => Reach::Ride(n),
                // Only leapers are lame (the parser refuses `n` on a rider).
                (betza::Kind::Lame, _) => Reach::Lame,
                // A hopper's range counts the squares beyond its screen.
                (betza::Kind::Hopper, betza::Range::Leaper) => Reach::Hop(1),
                (betza::Kind::Hopper, betza::Range::Unlimited) => Reach::Hop(0),
                (betza::Kind::Hopper, betza::Range::Limited(n)) => Reach::Hop(n),
            },
            modality: match a.modality() {
                betza::Modality::Move => Modality::Move,
                betza::Modality::Capture => Modality::Capture,
                betza::Modality::Both => Modality::Both,
            },
        })
        .collect();
    Movement {
        atoms: Cow::Owned(atoms),
    }
}

impl DesignId {
    /// The id stored in a cell code; `None` for an id no design was interned under.
    pub(crate) fn from_index(i: u8) -> Option<DesignId> {
        SLOTS.get(i as usize)?.get().map(|_| DesignId(i))
    }

    pub(crate) fn index(self) -> u8 {
        self.0
    }

    /// The interned design. Ids come only from [`intern`], so the slot is filled.
    pub fn entry(self) -> &'static Entry {
        match SLOTS[self.0 as usize].get() {
            Some(e) => e,
            None => unreachable!("design id {} was never interned", self.0),
        }
    }

    /// The canonical text, without parentheses.
    pub fn text(self) -> &'static str {
        &self.entry().text
    }

    pub fn movement(self) -> &'static Movement {
        &self.entry().movement
    }
}

impl fmt::Display for DesignId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_design_one_id_however_it_is_written() {
        let a = intern("WWD").unwrap();
        let b = intern("RD").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.text(), "RD");
        assert_ne!(intern("WD").unwrap(), a);
        assert!(matches!(intern("WX"), Err(DesignError::Syntax(_))));
    }

    #[test]
    fn a_design_moves_by_its_atoms() {
        let id = intern("fmWfcF").unwrap();
        let m = id.movement();
        assert_eq!(m.atoms.len(), 2);
        assert_eq!(m.atoms[0].steps.as_ref(), &[(0, 1)]);
        assert_eq!(m.atoms[0].modality, Modality::Move);
        assert_eq!(m.atoms[1].modality, Modality::Capture);
        let r = intern("R4").unwrap().movement();
        assert_eq!(r.atoms[0].reach, Reach::Ride(4));
    }
}
