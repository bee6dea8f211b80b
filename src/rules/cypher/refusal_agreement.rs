//! Refusals and the generator cannot disagree: every candidate turn that the generator's
//! [`Cypher::apply`] rejects, written out, is refused by the rule that rejected it, on random
//! positions under random options.

use super::invariant_tests::{random_position, Rng};
use super::*;
use crate::scenario::evaluate::Lowering;
use crate::scenario::parse::parse_turn;

#[test]
fn every_rejected_candidate_is_refused_by_the_rule_that_rejected_it() {
    let g = Cypher::geometry();
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let (mut checked, mut failures) = (0, Vec::new());
    for _ in 0..300 {
        let (pos, _) = random_position(&mut rng);
        if pos.result.is_some() {
            continue;
        }
        let mut candidates = Vec::new();
        pos.candidates(&mut candidates);
        pos.alone_candidates(&mut candidates);
        for m in candidates {
            let mut next = pos.clone();
            let Err(rule) = next.apply(m) else {
                continue;
            };
            let text = pos.describe(m).text(&g);
            let Ok(parsed) = parse_turn(&text) else {
                failures.push(format!("{text} does not parse"));
                continue;
            };
            let Ok(pattern) = Lowering::<Cypher>::new(g).turn(&parsed) else {
                failures.push(format!("{text} does not lower"));
                continue;
            };
            checked += 1;
            let refusal = pos.refusal(&pattern);
            if refusal.rule != rule {
                failures.push(format!(
                    "{text} in {}: the generator rejects it by {rule}, the refusal says {} ({})",
                    pos.fen(),
                    refusal.rule,
                    refusal.reason
                ));
            }
        }
    }
    crate::rules::testing::report(
        &failures,
        checked,
        1000,
        "rejected candidates refused by the same rule",
    );
}
