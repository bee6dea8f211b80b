//! The fast King-safety test ([`super::fast`]) against the reference that plays every
//! candidate on a copy ([`Csipgs::consider`]): the same legal turns in the same order, on the
//! positions of random playouts with purchases, drops and design changes and on every
//! position one turn after them, under every value of every option.

use super::explain::tests::positions;
use super::*;
use crate::rules::refusal::Explored;
use crate::rules::testing::report;

/// Every combination of the options' values.
fn combinations() -> Vec<Options> {
    let mut all = vec![Options::defaults(OPTIONS)];
    for def in OPTIONS {
        all = all
            .into_iter()
            .flat_map(|o| {
                def.values.iter().map(move |v| {
                    let mut o = o.clone();
                    o.set(OPTIONS, "csipgs", def.name, v).expect("a value");
                    o
                })
            })
            .collect();
    }
    all
}

fn listed(p: &Csipgs, fast: bool) -> Vec<Move> {
    let mut out = Vec::new();
    p.legal_into(&mut out, fast);
    out
}

#[test]
fn fast_and_reference_king_safety_give_the_same_turns() {
    let roots = positions(400, 0x005A_FEC5);
    let mut failures = Vec::new();
    let (mut checked, mut several, mut in_check, mut pinned, mut refused, mut mated) =
        (0, 0, 0, 0, 0, 0);
    for options in combinations() {
        for root in &roots {
            let root = Csipgs::from_fen(Csipgs::geometry(), &root.fen(), &options)
                .expect("a position's own FEN");
            let mut next: Vec<Csipgs> = listed(&root, false)
                .into_iter()
                .map(|m| {
                    let mut q = root.clone();
                    q.play(m);
                    q
                })
                .collect();
            next.push(root);
            for p in next {
                // The move list, the reference's, and the legal part of the explorer that
                // refusals come from.
                let (fast, reference) = (listed(&p, true), listed(&p, false));
                let mut explored = Explored::default();
                p.explore(&mut explored);
                checked += 1;
                // The move list is the explorer's legal turns, or none once all Kings are mated.
                let over = fast.is_empty()
                    && !explored.legal.is_empty()
                    && p.outcome().is_some_and(|o| o.rule == "all-kings-mated");
                mated += usize::from(over);
                if fast != reference || (fast != explored.legal && !over) {
                    failures.push(format!(
                        "{}: fast {fast:?}\n  reference {reference:?}\n  explored {:?}",
                        p.fen(),
                        explored.legal
                    ));
                }
                refused += explored
                    .rejected
                    .iter()
                    .filter(|(_, why)| why.rule == "own-king-in-check")
                    .count();
                let kings = p.kings(p.turn);
                several += usize::from(kings.len() > 1);
                if let [k] = kings[..] {
                    let table = &attack_tables_with_designs()[p.turn.other().index()];
                    if p.in_check_any(p.turn) {
                        in_check += 1;
                    } else if table.screens(&p.board, k).is_some_and(|s| !s.is_empty()) {
                        pinned += 1;
                    }
                }
            }
        }
    }
    report(&failures, checked, 20_000, "csipgs positions agree");
    eprintln!(
        "{several} with several Kings, {in_check} in check, {pinned} with a screen, \
         {refused} turns refused for exposing the King, {mated} with all Kings mated"
    );
    assert!(
        several > 500 && in_check > 500 && pinned > 500 && refused > 2_000,
        "{several} with several Kings, {in_check} in check, {pinned} with a screen, \
         {refused} turns refused for exposing the King"
    );
}

/// The turns the random playouts rarely reach (buying a King costs 12): a second King dropped
/// beside the only one, onto attacked squares and safe ones, and all Kings mated; under every
/// combination of the options, with the counts that tell the readings apart.
#[test]
fn second_king_drops_and_mated_kings_agree_under_every_reading() {
    let cases = [
        // A rook attacks the d-file: K@d1 and K@d2 are the drops the readings disagree on.
        "3r3k/8/8/8/8/8/8/4K3 w 0/0 K/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
        // A knight's attack, and a reserve King beside a King pinned to nothing.
        "7k/8/8/8/8/2n5/8/4K3 w 0/0 KN/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
        // Every King mated.
        "rrrr3k/8/8/8/8/8/8/K1K5 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
    ];
    for options in combinations() {
        let mut counts = Vec::new();
        for fen in cases {
            let p = Csipgs::from_fen(Csipgs::geometry(), fen, &options).expect("a position");
            let (fast, reference) = (listed(&p, true), listed(&p, false));
            assert_eq!(fast, reference, "{fen} under {options:?}");
            let mut explored = Explored::default();
            p.explore(&mut explored);
            if !fast.is_empty() {
                assert_eq!(fast, explored.legal, "{fen} under {options:?}");
            }
            counts.push(fast.len());
        }
        // Before the turn, K@d1 and K@d2 (then K@d1 and K@e2, attacked by the knight) are
        // refused; under all-mated the mated position has no turn.
        let expected = match (options.get("several-kings"), options.get("kings-counted")) {
            ("last-king", "after-turn") => [8, 13, 8],
            ("last-king", _) => [6, 11, 8],
            (_, "after-turn") => [8, 13, 0],
            _ => [6, 11, 0],
        };
        assert_eq!(counts, expected, "the counts under {options:?}");
    }
}
