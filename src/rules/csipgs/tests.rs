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

// ---- Invariants that can fail --------------------------------------------------------------

/// A treasury past every bound a game could reach (set past the validating constructor).
fn treasury_overflows() -> Result<(), String> {
    let mut p = pos(START_FEN);
    p.treasury[1] = u32::MAX;
    p.check_invariant("treasury-in-range")
}

/// A purchase forced past the sixteen-piece rule.
fn seventeenth_piece() -> Result<(), String> {
    let mut p = pos("4k3/8/8/8/8/8/PPPPPPPP/K7 w 9/0 NNNNNNN/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF");
    p.apply(Move::plain(Act::Buy { slot: 5 }));
    p.check_invariant("at-most-sixteen")
}

/// The King's design replaced, past the redesign check.
fn king_design_replaced() -> Result<(), String> {
    let mut p = pos(START_FEN);
    p.apply(Move {
        act: Act::Buy { slot: 5 },
        redesign: Some((4, Slot::Role(Role::Rook))),
    });
    p.check_invariant("six-designs")
}

/// A King taken off the board.
fn king_gone() -> Result<(), String> {
    let mut p = pos(START_FEN);
    p.board.put(Square::new(4, 7), None);
    p.check_invariant("a-king-each")
}

#[test]
fn every_invariant_can_fail() {
    crate::rules::violations::check_table(
        &[
            (
                "treasury-in-range",
                "black's treasury reads 4294967295",
                treasury_overflows,
            ),
            ("at-most-sixteen", "white has 17 pieces", seventeenth_piece),
            (
                "six-designs",
                "white's designs are R N B Q R fmWfcF",
                king_design_replaced,
            ),
            ("a-king-each", "black has no King", king_gone),
        ],
        INVARIANTS,
    );
}

/// Random playouts with purchases, drops and design changes: every invariant holds after
/// every turn, and every legal turn's refusal agrees (none is refused).
#[test]
fn invariants_hold_along_random_playouts_with_design_changes() {
    let designs = [
        "WD", "WbRbmHfB", "sWbmD", "FbDbcA", "NbR", "fF", "BL", "R", "N", "fmWfcF",
    ];
    let mut rng = crate::rules::testing::Rng(0x00C5_1965);
    let (mut turns, mut buys, mut drops, mut changes) = (0, 0, 0, 0);
    for game in 0..40 {
        let money = 5 * (game % 4) as u32;
        let mut p = pos(&format!(
            "4k3/8/8/8/8/8/8/4K3 w {money}/{money} -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF"
        ));
        for _ in 0..80 {
            for inv in INVARIANTS {
                p.check_invariant(inv.name)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.fen()));
            }
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut m = moves[rng.below(moves.len())];
            match m.act {
                Act::Buy { .. } => buys += 1,
                Act::Drop { .. } => drops += 1,
                Act::Step { .. } => {}
            }
            if rng.below(4) == 0 {
                let slot = rng.below(6);
                let new = designs[rng.below(designs.len())];
                let old = p.designs[p.turn.index()][slot].name();
                if let Ok(change) = p.redesign(&old, new) {
                    m.redesign = Some(change);
                    changes += 1;
                }
            }
            p.play(m);
            turns += 1;
        }
    }
    assert!(
        turns > 2000 && buys > 100 && drops > 100 && changes > 200,
        "{turns} turns, {buys} purchases, {drops} drops, {changes} design changes"
    );
}

#[test]
fn standard_designs_are_read_as_the_standard_pieces_without_interning() {
    // Found by fuzzing: once a long run had interned its 110 designs, reading `R` in a list of
    // designs failed, since it was interned too.
    for (text, role) in [
        ("R", Role::Rook),
        ("WW", Role::Rook),
        ("(N)", Role::Knight),
        ("FF", Role::Bishop),
        ("RB", Role::Queen),
        ("fcFfmW", Role::Pawn),
        ("P", Role::Pawn),
        ("K", Role::King),
    ] {
        assert_eq!(Slot::parse(text), Ok(Slot::Role(role)), "{text}");
    }
    assert!(matches!(Slot::parse("WF"), Ok(Slot::Design(_))));
    assert!(Slot::parse("WX").unwrap_err().contains("not a design"));
}

#[test]
fn a_short_move_is_refused_by_its_furthest_candidate_whatever_the_board_order() {
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;
    // One knight reaches c3 legally but the text marks a capture; the other is pinned. Both
    // candidates fail at the mark, as chess reads them, wherever the knights stand.
    for fen in [
        "4r1k1/8/8/8/8/8/4N3/1N2K3 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
        "4r1k1/8/8/3N4/8/8/4N3/4K3 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
    ] {
        let p = pos(fen);
        let t = Lowering::<Csipgs>::new(Csipgs::geometry())
            .turn(&parse_turn("Nxc3").expect("parses"))
            .expect("lowers");
        assert_eq!(p.refusal(&t).rule, "capture-mark", "{fen}");
    }
}

/// `direction-letters = separate` keeps a spelling whose letters price otherwise than its
/// canonical text as a design of its own (moving as its twin); `move-set` reads it as the
/// canonical design. The reading is consulted only for such a spelling.
#[test]
fn spellings_are_kept_only_where_the_letters_reading_prices_them_otherwise() {
    use crate::rules::consulted;
    let mut options = Options::defaults(OPTIONS);
    let by_moves = Opts::read(&options).separate;
    options
        .set(OPTIONS, "csipgs", "direction-letters", "separate")
        .expect("a value");
    let by_letters = Opts::read(&options).separate;
    consulted::reset();
    assert_eq!(Slot::parse_read("fbD", by_letters), Slot::parse("fbD"));
    assert_eq!(Slot::parse_read("(WD)", by_letters), Slot::parse("WD"));
    assert!(
        consulted::take().is_empty(),
        "no reading asked for fbD or WD"
    );
    assert_eq!(
        Slot::parse_read("fbB", by_moves),
        Ok(Slot::Role(Role::Bishop))
    );
    let kept = Slot::parse_read("fbB", by_letters).expect("a design");
    assert_eq!(kept.name(), "fbB");
    assert_eq!(kept.canonical(), Slot::Role(Role::Bishop));
    assert_eq!(
        kept.piece(Color::White),
        Piece::new(Color::White, Role::Bishop)
    );
    assert_eq!(kept.price(by_letters), Ok(4));
    assert_eq!(Slot::Role(Role::Bishop).price(by_letters), Ok(3));
    let fw = Slot::parse_read("ffW", by_letters).expect("a design");
    assert_eq!(
        (fw.name(), fw.price(by_letters)),
        ("ffW".to_string(), Ok(2))
    );
    assert_eq!(fw.canonical(), Slot::parse("fW").expect("a design"));
}
