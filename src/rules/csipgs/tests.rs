//! Unit tests of the csipgs engine; the rules themselves are shown by `scenarios/csipgs/`.

use super::*;

fn pos(fen: &str) -> Csipgs {
    Csipgs::from_fen(Csipgs::geometry(), fen, &Options::defaults(OPTIONS)).unwrap()
}

fn texts(p: &Csipgs) -> Vec<String> {
    p.legal_turns()
        .into_iter()
        .map(|(_, t)| t.text(&Csipgs::geometry()))
        .collect()
}

#[test]
fn the_start_has_king_steps_and_no_purchase_but_a_pawn() {
    let p = pos(START_FEN);
    let t = texts(&p);
    // The King's five steps; the one zorkmid of the credit buys nothing.
    assert_eq!(
        t,
        ["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2"],
        "{t:?}"
    );
    assert_eq!(p.fen(), START_FEN);
}

#[test]
fn a_treasury_buys_and_the_reserve_drops_next_to_the_king() {
    // 1 + the credit = 2 zorkmids: a pawn (2), not a knight or bishop (3).
    let p = pos("4k3/8/8/8/8/8/8/4K3 w 1/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF");
    assert_eq!(texts(&p)[5..], ["buy P"]);
    let p = pos("4k3/8/8/8/8/8/8/4K3 w 2/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF");
    assert_eq!(texts(&p)[5..], ["buy B", "buy N", "buy P"]);
    let p = pos("4k3/8/8/8/8/8/8/4K3 w 0/0 N(WD)/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF");
    let t = texts(&p);
    assert!(
        t.contains(&"N@d2".to_string()) && t.contains(&"(WD)@f1".to_string()),
        "{t:?}"
    );
    assert_eq!(t.len(), 5 + 2 * 5, "{t:?}");
}

#[test]
fn designs_reserve_and_treasury_round_trip_through_the_fen() {
    let fen = "4k3/8/8/8/4(WD)3/8/8/4K3 b 3/7 N(WD)/P R,N,(WbRbmHfB),Q,K,fmWfcF/R,N,B,Q,K,(sWbmD)";
    let p = pos(fen);
    assert_eq!(
        p.fen(),
        "4k3/8/8/8/4(WD)3/8/8/4K3 b 3/7 N(WD)/P R,N,WbRbmHfB,Q,K,fmWfcF/R,N,B,Q,K,sWbmD"
    );
    assert_eq!(p.state_key("reserve", Some(Color::White)), "N (WD)");
    assert_eq!(
        p.state_key("designs", Some(Color::Black)),
        "R N B Q K sWbmD"
    );
    assert_eq!(p.state_key("treasury", Some(Color::Black)), "7");
    let back = Csipgs::from_setup(&p.to_setup(), &Options::defaults(OPTIONS)).unwrap();
    assert_eq!(back.fen(), p.fen());
}
