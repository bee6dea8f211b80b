//! Why a turn is legal or not in this variant, rule by rule (see [`crate::rules::explain`]).

use super::*;
use crate::rules::explain::Step;

/// The rules a legal turn satisfied, in the order the variant applies them, then the rules
/// behind what it did.
pub(super) fn legal(pos: &Xpanse, m: Move) -> Vec<Step> {
    let _ = (pos, m);
    Vec::new()
}

/// The rules a refused turn passed, the rule that forbids it, and the others that would too.
pub(super) fn refused(pos: &Xpanse, pattern: &TurnPattern) -> Vec<Step> {
    vec![pos.refusal(pattern).into()]
}
