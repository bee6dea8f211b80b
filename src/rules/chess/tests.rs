use super::*;
use crate::rules::game::{Game, PlayError};
use crate::rules::perft;
use crate::rules::turn::{ActionPattern, Claim, Leg, LegKind, Origin, PieceRef, Style};
use crate::rules::SetupErrorKind;

fn opts() -> Options {
    Options::defaults(Chess::options())
}

fn pos(fen: &str) -> Chess {
    match Chess::from_fen(Chess::geometry(), fen, &opts()) {
        Ok(p) => p,
        Err(e) => panic!("bad FEN `{fen}`: {e}"),
    }
}

fn sq(s: &str) -> Square {
    Chess::geometry().parse_square(s).expect("a square")
}

fn single(a: ActionPattern) -> TurnPattern {
    TurnPattern::Actions {
        actions: vec![a],
        claim: None,
    }
}

/// A coordinate move such as `e2-e4`, `e5xd6` or `a7-a8=Q`, with an optional piece letter.
fn coord(text: &str) -> TurnPattern {
    let mut t = text;
    let piece = match t.chars().next() {
        Some(c) if c.is_ascii_uppercase() => {
            t = &t[1..];
            Some(PieceRef::Role(Role::from_letter(c).expect("a role")))
        }
        _ => None,
    };
    let (t, promotion) = match t.split_once('=') {
        Some((m, p)) => (
            m,
            Some(PieceRef::Role(
                Role::from_letter(p.chars().next().unwrap()).unwrap(),
            )),
        ),
        None => (t, None),
    };
    let capture = t.contains('x');
    let (from, to) = t.split_once(['-', 'x']).expect("from-to");
    single(ActionPattern::Move {
        style: Style::Coordinate,
        piece,
        from: Origin::Exact(sq(from)),
        legs: vec![leg(sq(to), capture)],
        promotion,
    })
}

/// A short move: `Nf3`, `Qxh5`, `e4`.
fn san(text: &str) -> TurnPattern {
    let mut t = text;
    let piece = match t.chars().next() {
        Some(c) if c.is_ascii_uppercase() => {
            t = &t[1..];
            Some(PieceRef::Role(Role::from_letter(c).expect("a role")))
        }
        _ => None,
    };
    let capture = t.contains('x');
    let (prefix, to) = t.split_at(t.len() - 2);
    let prefix = prefix.trim_end_matches('x');
    let from = match prefix {
        "" => Origin::Any,
        f => Origin::File(Chess::geometry().file_of(f).expect("a file")),
    };
    single(ActionPattern::Move {
        style: Style::Short,
        piece,
        from,
        legs: vec![leg(sq(to), capture)],
        promotion: None,
    })
}

/// One written leg onto `to`: `x` or `-`.
fn leg(to: Square, capture: bool) -> Leg {
    let kind = if capture {
        LegKind::Kill(None)
    } else {
        LegKind::Step
    };
    Leg::new(to, kind)
}

fn castle(side: CastleSide) -> TurnPattern {
    single(ActionPattern::Castle(side))
}

/// The rule that refuses `pattern` in `fen`, checking through `Game` that no legal turn matches.
fn refused(fen: &str, pattern: &TurnPattern) -> Refusal {
    let game = Game::new(pos(fen), opts());
    match game.resolve(pattern) {
        Err(PlayError::Refused(r)) => r,
        other => panic!("expected a refusal in {fen}, got {other:?}"),
    }
}

fn assert_refused(fen: &str, pattern: &TurnPattern, rule: &str) {
    let r = refused(fen, pattern);
    assert_eq!(r.rule, rule, "{fen}: {r}");
    assert!(
        Chess::rules().iter().any(|d| d.id == r.rule),
        "{} not in catalogue",
        r.rule
    );
    assert!(!r.reason.is_empty());
}

const START: &str = START_FEN;

#[test]
fn catalogue_has_required_rules() {
    let ids: Vec<_> = Chess::rules().iter().map(|r| r.id).collect();
    for id in [
        "game-over",
        "check-claim",
        "not-your-turn",
        "no-piece-there",
        "no-such-piece",
        "bishop-move",
        "rook-move",
        "queen-move",
        "knight-move",
        "king-move",
        "pawn-move",
        "pawn-capture",
        "en-passant",
        "promotion",
        "blocked",
        "own-piece-on-target",
        "capture-mark",
        "castling-rights",
        "castling-blocked",
        "castling-out-of-check",
        "castling-through-check",
        "own-king-in-check",
        "castling",
        "no-such-action",
        "turn-length",
        "checkmate",
        "stalemate",
        "fifty-move",
        "insufficient-material",
        "repetition",
        "resignation",
        "agreement",
    ] {
        assert!(ids.contains(&id), "missing rule {id}");
    }
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate rule ids");
    for r in Chess::rules().iter().filter(|r| r.id != "invented-piece") {
        assert!(r.source.starts_with("FIDE Laws of Chess"), "{}", r.id);
        assert!(!r.summary.is_empty());
    }
}

#[test]
fn refusals_whose_piece() {
    assert_refused(START, &coord("e7-e5"), "not-your-turn");
    assert_refused(START, &coord("e3-e4"), "no-piece-there");
    assert_refused(START, &coord("Bg1-f3"), "no-such-piece");
    assert_refused(START, &san("Nd4"), "no-such-piece");
    assert_refused(START, &san("Bd4"), "no-such-piece");
    // e2 has a pawn; `Ne2-e4` names the wrong piece.
    assert_refused(START, &coord("Ne2-e4"), "no-such-piece");
}

#[test]
fn refusals_piece_movement() {
    let open = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_refused(open, &coord("f1-f3"), "bishop-move");
    assert_refused(open, &coord("d1-e3"), "queen-move");
    assert_refused(START, &coord("g1-g3"), "knight-move");
    assert_refused(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        &coord("a1-b3"),
        "rook-move",
    );
    assert_refused(
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        &coord("e1-e3"),
        "king-move",
    );
    assert_refused(START, &coord("e2-e5"), "pawn-move");
    assert_refused(START, &coord("e2-e1"), "pawn-move");
    assert_refused(
        "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1",
        &coord("e2-e3"),
        "pawn-capture",
    );
    let pawns = "4k3/8/8/3pp3/4P3/8/8/4K3 w - - 0 1";
    assert_refused(pawns, &coord("e4xe5"), "pawn-capture");
    assert_refused(pawns, &coord("e4xf5"), "pawn-capture");
    assert_refused(START, &coord("e2xd3"), "pawn-capture");
    assert_refused(START, &san("exd3"), "pawn-capture");
}

#[test]
fn refusals_blocked_target_mark() {
    assert_refused(START, &coord("f1-c4"), "blocked");
    assert_refused(START, &san("Qh5"), "blocked");
    assert_refused(
        "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
        &coord("e2-e4"),
        "blocked",
    );
    assert_refused(START, &coord("d1-d2"), "own-piece-on-target");
    assert_refused(START, &coord("e2xe4"), "capture-mark");
    assert_refused(START, &coord("Nb1xc3"), "capture-mark");
    assert_refused(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        &coord("e4-d5"),
        "capture-mark",
    );
}

#[test]
fn refusals_pawn_specials() {
    // The d5 pawn did not just make a double step.
    assert_refused(
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
        &coord("e5xd6"),
        "en-passant",
    );
    let promo = "4k3/P7/8/8/8/8/4P3/4K3 w - - 0 1";
    assert_refused(promo, &coord("a7-a8"), "promotion");
    assert_refused(promo, &coord("a7-a8=K"), "promotion");
    assert_refused(promo, &coord("a7-a8=P"), "promotion");
    assert_refused(promo, &coord("e2-e3=Q"), "promotion");
    assert_refused(promo, &coord("e1-d1=Q"), "promotion");
    assert_refused(promo, &san("a8"), "promotion");
}

#[test]
fn refusals_castling() {
    assert_refused(START, &castle(CastleSide::King), "castling-blocked");
    assert_refused(START, &coord("e1-g1"), "castling-blocked");
    assert_refused(
        "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1",
        &castle(CastleSide::Queen),
        "castling-rights",
    );
    assert_refused(
        "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1",
        &castle(CastleSide::King),
        "castling-rights",
    );
    assert_refused(
        "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
        &castle(CastleSide::King),
        "castling-out-of-check",
    );
    let through = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1";
    assert_refused(through, &castle(CastleSide::King), "castling-through-check");
    assert_refused(through, &coord("Ke1-g1"), "castling-through-check");
    let onto = "4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1";
    let r = refused(onto, &castle(CastleSide::King));
    assert_eq!(r.rule, "castling-through-check");
    assert!(r.reason.contains("land on g1"), "{r}");
    // An attacked b1 does not stop queenside castling: the king does not cross it.
    let b_file = pos("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    let mut moves = Vec::new();
    b_file.legal_moves(&mut moves);
    assert!(moves.iter().any(|m| m.is_castle() && m.to() == sq("c1")));
}

#[test]
fn refusals_king_safety() {
    // The bishop is pinned to the king.
    assert_refused(
        "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
        &coord("e2-d3"),
        "own-king-in-check",
    );
    // The king may not step into the rook's rank.
    assert_refused(
        "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
        &coord("e1-f2"),
        "own-king-in-check",
    );
    // In check, a move that does not answer it.
    assert_refused(
        "4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1",
        &coord("a1-a2"),
        "own-king-in-check",
    );
}

#[test]
fn en_passant_discovered_check_is_illegal() {
    // The b5 pawn would capture c5 en passant, opening the fifth rank to the h5 rook.
    let fen = "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1";
    let p = pos(fen);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(!moves.iter().any(|m| m.is_en_passant()));
    assert_refused(fen, &coord("b5xc6"), "own-king-in-check");
    // Without the rook the capture is legal and described as a capture.
    let p = pos("8/8/8/KPp5/8/8/8/4k3 w - c6 0 1");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let ep = moves
        .iter()
        .copied()
        .find(|m| m.is_en_passant())
        .expect("en passant");
    match &p.describe(ep).actions[0] {
        Action::Move { castle, legs, .. } => {
            assert_eq!(
                legs[..],
                [Leg::new(
                    sq("c6"),
                    LegKind::Kill(Some(Piece::new(Color::Black, Role::Pawn)))
                )]
            );
            assert_eq!(*castle, None);
        }
        a => panic!("{a:?}"),
    }
    let mut after = p.clone();
    after.play(ep);
    assert_eq!(after.board().get(sq("c5")), None);
    assert_eq!(after.fen(), "8/8/2P5/K7/8/8/8/4k3 b - - 0 1");
}

#[test]
fn refusals_other_actions() {
    assert_refused(
        START,
        &single(ActionPattern::Drop {
            piece: PieceRef::Role(Role::Knight),
            to: sq("e4"),
        }),
        "no-such-action",
    );
    assert_refused(START, &single(ActionPattern::Pass), "no-such-action");
    assert_refused(
        START,
        &single(ActionPattern::Buy { design: "W".into() }),
        "no-such-action",
    );
    assert_refused(
        START,
        &single(ActionPattern::Coup {
            piece: PieceRef::Role(Role::Queen),
            square: sq("d1"),
        }),
        "no-such-action",
    );
    let two = TurnPattern::Actions {
        actions: vec![ActionPattern::Pass, ActionPattern::Pass],
        claim: None,
    };
    assert_refused(START, &two, "turn-length");
}

#[test]
fn game_over_and_check_claim() {
    let mut game = Game::new(
        Chess::start(Chess::geometry(), &opts()).expect("the start position"),
        opts(),
    );
    for m in ["f2-f3", "e7-e5", "g2-g4"] {
        game.play(&coord(m)).expect("legal");
    }
    let mut claimed = coord("d8-h4");
    if let TurnPattern::Actions { claim, .. } = &mut claimed {
        *claim = Some(Claim::Mate);
    }
    game.play(&claimed).expect("mate");
    let o = game.outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason, o.rule),
        (Some(Color::Black), Reason::Checkmate, "checkmate")
    );
    match game.resolve(&coord("e2-e4")) {
        Err(PlayError::Refused(r)) => assert_eq!(r.rule, "game-over"),
        other => panic!("{other:?}"),
    }
    let mut game = Game::new(
        Chess::start(Chess::geometry(), &opts()).expect("the start position"),
        opts(),
    );
    let mut claimed = coord("e2-e4");
    if let TurnPattern::Actions { claim, .. } = &mut claimed {
        *claim = Some(Claim::Check);
    }
    match game.play(&claimed) {
        Err(PlayError::Refused(r)) => assert_eq!(r.rule, "check-claim"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn fen_round_trip() {
    for fen in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let p = pos(fen);
        assert_eq!(p.fen(), fen);
        assert_eq!(p.state_key("fen", None), fen);
        let back = Chess::from_setup(&p.to_setup(), &opts()).expect("setup");
        assert_eq!(back.fen(), fen);
    }
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 b - -").fen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    let p = pos(START);
    assert_eq!(p.state_key("castling", None), "KQkq");
    assert_eq!(p.state_key("en-passant", None), "-");
    assert_eq!(p.state_key("halfmove-clock", None), "0");
    assert_eq!(p.state_key("fullmove-number", None), "1");
}

#[test]
fn fen_and_setup_errors() {
    let g = Chess::geometry();
    // Each refusal has its kind and a sentence that says what is wrong.
    let bad = |fen: &str, kind: SetupErrorKind, words: &str| {
        let e = Chess::from_fen(g, fen, &opts()).expect_err(fen);
        assert_eq!(e.kind(), kind, "{fen}: {e}");
        assert!(e.message().contains(words), "{fen}: {e}");
    };
    use SetupErrorKind as K;
    bad("8/8/8/8/8/8/8/4K3 w - - 0 1", K::Kings, "exactly one king");
    bad(
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        K::Kings,
        "exactly one king",
    );
    bad(
        "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1",
        K::Pawns,
        "first or last rank",
    );
    bad(
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        K::Castling,
        "castle kingside",
    );
    bad("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", K::Castling, "rook on h1");
    bad("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", K::EnPassant, "en-passant");
    bad("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", K::EnPassant, "en-passant");
    bad(
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        K::OppositeCheck,
        "in check",
    );
    bad("4k3/8/8/8/8/8/8/4K3 w - -  0", K::Fen, "6 fields");
    bad("4k3/8/8/8/8/8/8/4K3 x - - 0 1", K::Fen, "side to move");
    bad("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", K::Fen, "castling right");
    bad(
        "4k3/8/8/8/8/8/8/4S3 w - - 0 1",
        K::Piece,
        "not a chess piece",
    );
    // An invented piece is an ordinary piece; one that is no design at all is a FEN error.
    assert!(Chess::from_fen(g, "4k3/8/8/8/8/8/8/3(WD)K3 w - - 0 1", &opts()).is_ok());
    bad("4k3/8/8/8/8/8/8/3(WX)K3 w - - 0 1", K::Fen, "WX");
    bad("4k3/8/8/8/8/8/8/4K3 w - - 0 0", K::Fen, "fullmove number");
    assert_eq!(
        Chess::from_fen(Geometry::lettered(10, 8), START, &opts())
            .map(|_| ())
            .unwrap_err()
            .kind(),
        K::BoardSize
    );
    assert_eq!(
        Chess::geometry_for(Some((10, 8))).unwrap_err().to_string(),
        "chess is played on 8x8"
    );
    assert!(Chess::geometry_for(None).is_ok());

    // A setup without a castling key has no castling rights.
    let mut setup = pos(START).to_setup();
    setup.keys.remove(&("castling".to_string(), None));
    let p = Chess::from_setup(&setup, &opts()).expect("setup");
    assert_eq!(p.state_key("castling", None), "-");
    let mut setup = pos(START).to_setup();
    setup.keys.insert(("en-passant".into(), None), "e3".into());
    assert!(Chess::from_setup(&setup, &opts()).is_err());
    let mut setup = pos(START).to_setup();
    setup
        .keys
        .insert(("halfmove-clock".into(), None), "-1".into());
    assert!(Chess::from_setup(&setup, &opts()).is_err());
}

#[test]
fn outcomes() {
    let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(mate.in_check(), Some(true));
    let o = mate.outcome().expect("mate");
    assert_eq!(
        (o.winner, o.reason, o.rule),
        (Some(Color::Black), Reason::Checkmate, "checkmate")
    );

    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stale.outcome().map(|o| o.rule), Some("stalemate"));

    let fifty = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80");
    let o = fifty.outcome().expect("fifty");
    assert_eq!(
        (o.winner, o.reason, o.rule),
        (None, Reason::FiftyMove, "fifty-move")
    );
    assert_eq!(pos("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80").outcome(), None);
    // Checkmate on the last move takes precedence.
    let mate100 = pos("4k3/4Q3/4K3/8/8/8/8/8 b - - 100 80");
    assert_eq!(mate100.outcome().map(|o| o.rule), Some("checkmate"));

    let mut seventy_five = opts();
    seventy_five
        .set(Chess::options(), "chess", "move-rule-draw", "seventy-five")
        .unwrap();
    let g = Chess::geometry();
    let p = Chess::from_fen(g, "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80", &seventy_five).unwrap();
    assert_eq!(p.outcome(), None);
    let p = Chess::from_fen(g, "4k3/8/8/8/8/8/4P3/4K3 w - - 150 80", &seventy_five).unwrap();
    assert_eq!(p.outcome().map(|o| o.rule), Some("fifty-move"));

    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
    ] {
        let o = pos(fen).outcome();
        assert_eq!(
            o.map(|o| o.rule) == Some("insufficient-material"),
            dead,
            "{fen}"
        );
    }
    assert_eq!(pos(START).outcome(), None);
}

#[test]
fn repetition() {
    let mut game = Game::new(
        Chess::start(Chess::geometry(), &opts()).expect("the start position"),
        opts(),
    );
    for _ in 0..2 {
        for m in ["g1-f3", "g8-f6", "f3-g1", "f6-g8"] {
            assert!(game.outcome().is_none());
            game.play(&coord(m)).expect("legal");
        }
    }
    let o = game.outcome().expect("threefold");
    assert_eq!((o.reason, o.rule), (Reason::Repetition, "repetition"));

    let mut five = opts();
    five.set(Chess::options(), "chess", "repetition-draw", "fivefold")
        .unwrap();
    let p = Chess::start(Chess::geometry(), &five).expect("the start position");
    assert_eq!(p.repetition_draw(4), None);
    assert_eq!(p.repetition_draw(5), Some("repetition"));
    crate::rules::consulted::reset();
    assert_eq!(p.repetition_draw(2), None);
    assert!(
        crate::rules::consulted::take().is_empty(),
        "two occurrences ask no reading"
    );
    assert_eq!(p.repetition_draw(3), None);
    assert!(
        !crate::rules::consulted::take().is_empty(),
        "three ask repetition-draw"
    );

    // An en-passant square counts only when the capture is legal (9.2.2).
    let after_e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let plain = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(after_e4.repetition_key(), plain.repetition_key());
    let live = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let dead = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_ne!(live.repetition_key(), dead.repetition_key());
    assert_eq!(live.repetition_key(), live.clone().repetition_key());
}

#[test]
fn castling_is_a_king_move_and_rights_are_lost() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let oo = moves
        .iter()
        .copied()
        .find(|m| m.is_castle() && m.to() == sq("g1"))
        .expect("O-O");
    match &p.describe(oo).actions[0] {
        Action::Move {
            role,
            from,
            legs,
            castle,
            ..
        } => {
            assert_eq!((*role, *from), (Role::King, sq("e1")));
            assert_eq!(legs[..], [Leg::new(sq("g1"), LegKind::Step)]);
            assert_eq!(*castle, Some(CastleSide::King));
        }
        a => panic!("{a:?}"),
    }
    let mut after = p.clone();
    after.play(oo);
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // Capturing the a1 rook removes White's queenside right.
    let mut game = Game::new(pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), opts());
    game.play(&coord("a8xa1")).expect("legal");
    assert_eq!(game.position().state_key("castling", None), "Kk");
    for inv in Chess::invariants() {
        assert_eq!(game.position().check_invariant(inv.name), Ok(()));
    }
}

#[test]
fn invariants_hold_along_games() {
    let game = Game::new(
        pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        opts(),
    );
    for inv in Chess::invariants() {
        assert_eq!(
            game.invariant_violation(inv.name, 2, &mut crate::rules::Budget::unlimited()),
            Ok(None),
            "{}",
            inv.name
        );
    }
}

#[test]
fn small_perft() {
    assert_eq!(perft(&pos(START), 3), 8902);
    assert_eq!(
        perft(&pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1"), 1),
        pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1").count_legal()
    );
}

#[test]
fn counter_ranges_are_the_catalogue_s() {
    let values = |name: &str| {
        STATE_KEYS
            .iter()
            .find(|k| k.name == name)
            .map(|k| k.values)
            .unwrap_or_default()
    };
    assert!(values("halfmove-clock").ends_with(&format!("0 to {MAX_HALFMOVE}")));
    assert!(values("fullmove-number").ends_with(&format!("1 to {MAX_FULLMOVE}")));
    // The largest values are accepted and play on from there.
    let mut p = pos(&format!("4k3/8/8/8/8/8/8/4K3 b - - 99 {MAX_FULLMOVE}"));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    p.play(moves[0]);
    assert_eq!(
        p.state_key("fullmove-number", None),
        (MAX_FULLMOVE + 1).to_string()
    );
    assert_eq!(p.state_key("halfmove-clock", None), "100");
    let e = Chess::from_fen(
        Chess::geometry(),
        &format!("4k3/8/8/8/8/8/8/4K3 w - - {} 1", MAX_HALFMOVE + 1),
        &opts(),
    )
    .expect_err("beyond the range");
    assert!(e.message().contains("too large"), "{e}");
}

/// `arbiter win`'s line: the attacker's turns win within the turns asked, every defender reply
/// along it still loses, and the line ends in the attacker's win; a refutation leaves no
/// forced win.
#[test]
fn winning_lines_and_refutations_hold() {
    use crate::rules::game::force_win;
    use crate::rules::Budget;
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Color::White, 1, true),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Color::White, 3, true),
        ("7k/8/6K1/8/8/8/8/R7 b - - 0 1", Color::White, 2, true),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            Color::White,
            1,
            true,
        ),
        ("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", Color::White, 2, false),
        ("7k/8/8/8/8/8/8/R5K1 w - - 0 1", Color::White, 2, false),
        ("7k/8/8/8/8/8/8/R5K1 w - - 0 1", Color::White, 1, false),
    ];
    for (fen, color, turns, wins) in cases {
        let game = Game::new(pos(fen), opts());
        let mut budget = Budget::unlimited();
        assert_eq!(
            game.can_force_win(color, turns, &mut budget),
            Ok(wins),
            "{fen}"
        );
        let line = game.winning_line(color, turns, &mut budget).unwrap();
        let refuted = game.refutations(color, turns, &mut budget).unwrap();
        if !wins {
            assert!(line.is_none(), "{fen}");
            assert!(!refuted.is_empty(), "{fen}");
            for (m, r) in refuted {
                let mut p = game.position().clone();
                let mut left = turns;
                if let Some(m) = m {
                    p.play(m);
                    left -= 1;
                }
                p.play(r.expect("a reply"));
                assert!(!force_win(&p, color, left, &mut budget).unwrap(), "{fen}");
            }
            continue;
        }
        assert!(refuted.is_empty(), "{fen}");
        let (line, outcome) = line.expect("a line");
        assert_eq!(outcome.winner, Some(color), "{fen}");
        let mut p = game.position().clone();
        let mut used = 0;
        for m in &line {
            used += u32::from(p.turn() == color);
            p.play(*m);
        }
        assert!(used <= turns && !line.is_empty(), "{fen}: {used}");
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(p.outcome_with(!moves.is_empty()), Some(outcome), "{fen}");
    }
    // The shortest win is the one shown: mate in one, although three turns are allowed.
    let game = Game::new(pos(cases[1].0), opts());
    let (line, _) = game
        .winning_line(Color::White, 3, &mut Budget::unlimited())
        .unwrap()
        .unwrap();
    assert_eq!(line.len(), 1);
}
