//! The check every variant's invariant tests share: each case of a table must break its
//! invariant with the expected message, and the table must cover the catalogue exactly.

use super::InvariantDef;

/// An invariant, a phrase its violation must contain, and a case that breaks it.
pub type Case = (&'static str, &'static str, fn() -> Result<(), String>);

/// Panics unless every case breaks its invariant as expected and the cases name exactly the
/// invariants of `catalogue`.
pub fn check_table(cases: &[Case], catalogue: &[InvariantDef]) {
    for (name, expected, violate) in cases {
        match violate() {
            Err(e) => assert!(
                e.contains(expected),
                "{name}: `{e}` does not say `{expected}`"
            ),
            Ok(()) => panic!("{name} holds in a case that breaks it (`{expected}`)"),
        }
    }
    for inv in catalogue {
        assert!(
            cases.iter().any(|(name, ..)| *name == inv.name),
            "no test shows that `{}` can fail",
            inv.name
        );
    }
    for (name, ..) in cases {
        assert!(
            catalogue.iter().any(|i| i.name == *name),
            "`{name}` is not in the catalogue"
        );
    }
}
