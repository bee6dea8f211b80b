//! Property tests of csipgs chess over random legal playouts (moves, drops and purchases):
//! move counting, notation round trips (`buy P`, `(WD)@e5`), FEN and setup round trips with
//! treasuries, reserves and designs, and every invariant.

use crate::common;

use arbiter::rules::csipgs::Csipgs;
use arbiter::rules::{Geometry, Options, Rules};
use proptest::prelude::*;

const STARTS: [&str; 4] = [
    "4k3/8/8/8/8/8/8/4K3 w",
    "4k3/8/8/8/8/8/8/4K3 w 12/9 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
    "4k3/8/8/8/8/8/8/4K3 w 3/3 N(WD)(WD)/P(sWbmD) R,WD,B,BL,K,WbRbmHfB/R,N,fc(DF),sWbmD,K,WD",
    "r3k3/pp6/8/3(WD)4/4[WD]3/8/PP6/R3K3 b 6/4 P/N R,N,B,Q,K,fmWfcF/RbcBbN,N,B,Q,K,NbR",
];

fn geometry() -> Geometry {
    Csipgs::geometry_for(None).unwrap()
}

fn options() -> Options {
    Options::defaults(Csipgs::options())
}

fn playout(start: usize, choices: &[usize]) -> Vec<Csipgs> {
    common::playout(
        Csipgs::from_fen(geometry(), STARTS[start], &options()).unwrap(),
        choices,
    )
}

fn walk() -> impl Strategy<Value = (usize, Vec<usize>)> {
    (
        0..STARTS.len(),
        prop::collection::vec(any::<usize>(), 0..40),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// perft(1) counts the legal turns; each turn's canonical text resolves back to it; the
    /// FEN and the set-up round-trip; every invariant holds.
    #[test]
    fn every_property_holds_along_random_playouts((start, choices) in walk()) {
        for pos in playout(start, &choices) {
            common::every_property(&pos, &options()).map_err(TestCaseError::fail)?;
        }
    }
}
