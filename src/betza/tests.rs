//! Unit tests of the parser, the direction rules and the canonical printer.

use super::*;

fn design(text: &str) -> Design {
    match text.parse::<Design>() {
        Ok(d) => d,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn one(text: &str) -> Atom {
    let d = design(text);
    assert_eq!(d.atoms().len(), 1, "{text}");
    d.atoms()[0]
}

fn steps(text: &str) -> Vec<(i32, i32)> {
    design(text).vectors(Side::White)
}

fn sorted(mut v: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    v.sort_unstable();
    v
}

fn canonical(text: &str) -> String {
    design(text).to_string()
}

#[test]
fn each_atom_has_its_leap_and_every_direction() {
    for (letter, leap, coords, count) in [
        ("W", Leap::W, (0, 1), 4),
        ("F", Leap::F, (1, 1), 4),
        ("D", Leap::D, (0, 2), 4),
        ("N", Leap::N, (1, 2), 8),
        ("A", Leap::A, (2, 2), 4),
        ("H", Leap::H, (0, 3), 4),
        ("L", Leap::L, (1, 3), 8),
        ("C", Leap::L, (1, 3), 8),
        ("Z", Leap::Z, (2, 3), 8),
        ("J", Leap::Z, (2, 3), 8),
        ("G", Leap::G, (3, 3), 4),
    ] {
        let a = one(letter);
        assert_eq!(a.leap(), leap, "{letter}");
        assert_eq!(a.coords(), coords, "{letter}");
        assert_eq!(a.range(), Range::Leaper, "{letter}");
        assert!(!a.is_rider());
        assert_eq!(a.modality(), Modality::Both);
        let v = a.steps();
        assert_eq!(v.len(), count, "{letter}");
        let (p, q) = (i32::from(coords.0), i32::from(coords.1));
        for (dx, dy) in v {
            let (x, y) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
            assert_eq!((x, y), (p, q), "{letter}");
        }
    }
    assert_eq!(
        steps("N"),
        sorted(vec![
            (1, 2),
            (-1, 2),
            (2, 1),
            (-2, 1),
            (1, -2),
            (-1, -2),
            (2, -1),
            (-2, -1)
        ])
    );
    assert_eq!(canonical("C"), "L");
    assert_eq!(canonical("J"), "Z");
}

#[test]
fn shortcuts_expand_to_their_atoms() {
    let r = design("R");
    assert_eq!(r, design("WW"));
    assert_eq!(r.atoms().len(), 1);
    assert_eq!(r.atoms()[0].leap(), Leap::W);
    assert_eq!(r.atoms()[0].range(), Range::Unlimited);
    assert_eq!(design("B"), design("FF"));
    assert_eq!(design("Q"), design("RB"));
    assert_eq!(design("Q"), design("WWFF"));
    assert_eq!(design("K"), design("WF"));
    assert_eq!(design("KK"), design("Q"));
    assert_eq!(design("K2"), design("W2F2"));
    assert_eq!(design("Q3"), design("R3B3"));
    assert_eq!(design("fK"), design("fWfF"));
    assert_eq!(canonical("WW"), "R");
    assert_eq!(canonical("R"), "R");
    assert_eq!(canonical("FF"), "B");
    assert_eq!(canonical("WWFF"), "Q");
    assert_eq!(canonical("RB"), "Q");
    assert_eq!(canonical("BR"), "BR");
    assert_eq!(canonical("WF"), "K");
    assert_eq!(canonical("FW"), "FW");
    assert_eq!(canonical("mK"), "mK");
    assert_eq!(canonical("fK"), "f(WF)");
    assert_eq!(canonical("K3"), "Q3");
}

#[test]
fn riders_and_ranges() {
    let nn = one("NN");
    assert_eq!(nn.range(), Range::Unlimited);
    assert!(nn.is_rider());
    assert_eq!(one("R4").range(), Range::Limited(4));
    assert_eq!(one("R4"), one("W4"));
    assert_eq!(one("N2").range(), Range::Limited(2));
    assert_eq!(one("W3").range(), Range::Limited(3));
    assert_eq!(one("W1"), one("W"));
    assert_eq!(one("B12").range(), Range::Limited(12));
    assert_eq!(one("N255").range(), Range::Limited(255));
    assert_eq!(canonical("W4"), "R4");
    assert_eq!(canonical("F2"), "B2");
    assert_eq!(canonical("NN"), "NN");
    assert_eq!(canonical("N2"), "N2");
    assert_eq!(canonical("CC"), "LL");
    assert_eq!(canonical("W1"), "W");
    // Two different atoms, not a doubling.
    assert_eq!(design("CL").atoms().len(), 2);
    assert_eq!(canonical("CL"), "L(L)");
}

#[test]
fn modalities() {
    assert_eq!(one("mN").modality(), Modality::Move);
    assert_eq!(one("cN").modality(), Modality::Capture);
    assert_eq!(one("N").modality(), Modality::Both);
    assert_eq!(one("mcN").modality(), Modality::Both);
    assert_eq!(one("cmN"), one("N"));
    assert!(Modality::Move.can_move() && !Modality::Move.can_capture());
    assert!(!Modality::Capture.can_move() && Modality::Capture.can_capture());
    assert_eq!(canonical("mcN"), "N");
    assert_eq!(canonical("cfN"), "fcN");
}

#[test]
fn single_direction_letters() {
    assert_eq!(steps("fW"), vec![(0, 1)]);
    assert_eq!(steps("bW"), vec![(0, -1)]);
    assert_eq!(steps("lW"), vec![(-1, 0)]);
    assert_eq!(steps("rW"), vec![(1, 0)]);
    assert_eq!(steps("sW"), vec![(-1, 0), (1, 0)]);
    assert_eq!(steps("vW"), vec![(0, -1), (0, 1)]);
    assert_eq!(steps("fF"), vec![(-1, 1), (1, 1)]);
    assert_eq!(steps("bF"), vec![(-1, -1), (1, -1)]);
    assert_eq!(steps("lF"), vec![(-1, -1), (-1, 1)]);
    assert_eq!(steps("rF"), vec![(1, -1), (1, 1)]);
    assert_eq!(steps("sF"), steps("F"));
    assert_eq!(steps("vF"), steps("F"));
    assert_eq!(steps("fN"), vec![(-1, 2), (1, 2)]);
    assert_eq!(steps("bN"), vec![(-1, -2), (1, -2)]);
    assert_eq!(steps("lN"), vec![(-2, -1), (-2, 1)]);
    assert_eq!(steps("rN"), vec![(2, -1), (2, 1)]);
    assert_eq!(steps("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
    assert_eq!(steps("sN"), vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]);
    assert_eq!(steps("fL"), vec![(-1, 3), (1, 3)]);
    assert_eq!(steps("fZ"), vec![(-2, 3), (2, 3)]);
    assert_eq!(steps("fR"), vec![(0, 1)]);
    assert_eq!(one("fR").range(), Range::Unlimited);
    assert_eq!(steps("vR"), vec![(0, -1), (0, 1)]);
    assert_eq!(steps("sR"), vec![(-1, 0), (1, 0)]);
    assert_eq!(steps("fB"), vec![(-1, 1), (1, 1)]);
    // Letters that do not pair add up.
    assert_eq!(steps("fbD"), steps("vD"));
    assert_eq!(steps("rlD"), steps("sD"));
    assert_eq!(steps("fbN"), steps("vN"));
    assert_eq!(steps("vsN"), steps("N"));
    assert_eq!(steps("sfN"), sorted([steps("sN"), steps("fN")].concat()));
}

#[test]
fn direction_pairs() {
    // Doubled letters mean the letter.
    for l in ["f", "b", "l", "r", "v", "s"] {
        for atom in ["W", "F", "N", "Z"] {
            assert_eq!(
                steps(&format!("{l}{l}{atom}")),
                steps(&format!("{l}{atom}")),
                "{l}{l}{atom}"
            );
        }
    }
    // Halves.
    assert_eq!(steps("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
    assert_eq!(steps("bhN"), vec![(-2, -1), (-1, -2), (1, -2), (2, -1)]);
    assert_eq!(steps("rhN"), vec![(1, -2), (1, 2), (2, -1), (2, 1)]);
    assert_eq!(steps("lhN"), vec![(-2, -1), (-2, 1), (-1, -2), (-1, 2)]);
    assert_eq!(steps("fhW"), vec![(0, 1)]);
    assert_eq!(steps("fhF"), steps("fF"));
    // Narrow and wide halves of the knight.
    assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
    assert_eq!(steps("fsN"), vec![(-2, 1), (2, 1)]);
    assert_eq!(steps("bsN"), vec![(-2, -1), (2, -1)]);
    assert_eq!(steps("bbN"), vec![(-1, -2), (1, -2)]);
    assert_eq!(steps("rvN"), vec![(1, -2), (1, 2)]);
    assert_eq!(steps("lvN"), vec![(-1, -2), (-1, 2)]);
    // Single oblique leaps.
    assert_eq!(steps("frN"), vec![(2, 1)]);
    assert_eq!(steps("rfN"), vec![(1, 2)]);
    assert_eq!(steps("flN"), vec![(-2, 1)]);
    assert_eq!(steps("lfN"), vec![(-1, 2)]);
    assert_eq!(steps("brN"), vec![(2, -1)]);
    assert_eq!(steps("rbN"), vec![(1, -2)]);
    assert_eq!(steps("blN"), vec![(-2, -1)]);
    assert_eq!(steps("lbN"), vec![(-1, -2)]);
    // Single diagonals.
    assert_eq!(steps("frF"), vec![(1, 1)]);
    assert_eq!(steps("rfF"), vec![(1, 1)]);
    assert_eq!(steps("blB"), vec![(-1, -1)]);
    assert_eq!(steps("fsF"), steps("fF"));
    assert_eq!(steps("lvF"), steps("lF"));
    // On orthogonal atoms a mixed pair is a union: the xiangqi soldier, frlR.
    assert_eq!(steps("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
    assert_eq!(steps("frlR"), vec![(-1, 0), (0, 1), (1, 0)]);
    assert_eq!(steps("lvW"), vec![(-1, 0), (0, -1), (0, 1)]);
    // Greedy pairing: frl = fr + l.
    assert_eq!(steps("frlN"), vec![(-2, -1), (-2, 1), (2, 1)]);
    // m and c keep direction letters apart.
    assert_eq!(steps("fcrN"), sorted([steps("fN"), steps("rN")].concat()));
}

#[test]
fn groups_distribute_their_prefix() {
    assert_eq!(design("fc(DNFA)"), design("fcDfcNfcFfcA"));
    assert_eq!(design("fc(DF)"), design("fcDfcF"));
    assert_eq!(design("(W)"), design("W"));
    assert_eq!(design("f(c(N)W)"), design("fcNfW"));
    assert_eq!(design("f(rN)"), design("frN"));
    assert_eq!(design("m(fN)"), design("mfN"));
    assert_eq!(design("c(mN)"), design("N"));
    assert_eq!(design("((((W))))"), design("W"));
    assert_eq!(design("s(fN(bW))"), design("sfNsbW"));
    let d = design("Wfc(DNFA)scDsHbmH");
    let texts: Vec<String> = d.atoms().iter().map(|a| a.to_string()).collect();
    assert_eq!(texts, ["W", "fcD", "fcN", "fcF", "fcA", "scD", "sH", "bmH"]);
}

#[test]
fn concrete_vectors_of_some_designs() {
    assert_eq!(steps("fN"), vec![(-1, 2), (1, 2)]);
    assert_eq!(steps("sW"), vec![(-1, 0), (1, 0)]);
    assert_eq!(steps("vR"), vec![(0, -1), (0, 1)]);
    let d = design("fc(DF)");
    assert_eq!(d.vectors(Side::White), vec![(-1, 1), (0, 2), (1, 1)]);
    assert_eq!(d.vectors(Side::Black), vec![(-1, -1), (0, -2), (1, -1)]);
    for a in d.atoms() {
        assert_eq!(a.modality(), Modality::Capture);
        assert_eq!(a.range(), Range::Leaper);
    }
    // Black's vectors are White's turned half round: its right is White's left.
    assert_eq!(one("frN").vectors(Side::Black), vec![(-2, -1)]);
    let pawn = design("fmWfcF");
    let s = pawn.steps(Side::Black);
    assert_eq!(s.len(), 3);
    assert_eq!((s[0].dx, s[0].dy, s[0].modality), (0, -1, Modality::Move));
}

#[test]
fn canonical_directions_are_short() {
    assert_eq!(canonical("fbD"), "vD");
    assert_eq!(canonical("ffN"), "fN");
    assert_eq!(canonical("fhN"), "fhN");
    assert_eq!(canonical("rlW"), "sW");
    assert_eq!(canonical("fsW"), "fsW");
    assert_eq!(canonical("fWsW"), "fWsW");
    assert_eq!(canonical("vsN"), "N");
    assert_eq!(canonical("fbrlF"), "F");
    assert_eq!(canonical("fhF"), "fF");
    assert_eq!(canonical("rfF"), "frF");
    // fN + sN must not print as `fsN` (the two wide forward leaps).
    let d = design("sfN");
    assert_eq!(canonical(&d.to_string()), d.to_string());
    assert_eq!(design(&d.to_string()), d);
}

#[test]
fn canonical_groups_and_separation() {
    assert_eq!(canonical("fcDfcNfcFfcA"), "fc(DNFA)");
    assert_eq!(canonical("W(W)"), "W(W)");
    assert_eq!(design("W(W)").atoms().len(), 2);
    assert_eq!(canonical("N(NN)"), "N(NN)");
    assert_eq!(canonical("R(R)"), "R(R)");
    assert_eq!(canonical("K(K)"), "K(K)");
    assert_eq!(canonical("f(N(NN))"), "f(N(NN))");
}

#[test]
fn every_direction_set_prints_back() {
    for leap in Leap::ALL {
        let all = leap.vectors();
        for mask in 1u32..(1u32 << all.len()) {
            let vs: Vec<(i32, i32)> = all
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &v)| v)
                .collect();
            for range in [Range::Leaper, Range::Unlimited, Range::Limited(3)] {
                let atom = match Atom::with_vectors(leap, range, &vs, Modality::Capture) {
                    Ok(a) => a,
                    Err(e) => panic!("{e}"),
                };
                let text = atom.to_string();
                let back = design(&text);
                assert_eq!(back.atoms(), [atom], "{text}");
                assert!(text.len() <= 12, "{text} is long");
            }
        }
    }
}

#[test]
fn invalid_atoms() {
    assert_eq!(
        Atom::with_vectors(Leap::N, Range::Leaper, &[(1, 1)], Modality::Both),
        Err(InvalidAtom::NotOfLeap((1, 1)))
    );
    assert_eq!(
        Atom::with_vectors(Leap::N, Range::Leaper, &[], Modality::Both),
        Err(InvalidAtom::NoVectors)
    );
    assert_eq!(
        Atom::new(Leap::N, Range::Limited(0), Modality::Both),
        Err(InvalidAtom::ZeroRange)
    );
    assert_eq!(
        Atom::new(Leap::N, Range::Limited(1), Modality::Both).map(|a| a.range()),
        Ok(Range::Leaper)
    );
    assert!(Design::new(vec![]).is_none());
}

fn error(text: &str) -> BetzaError {
    match text.parse::<Design>() {
        Ok(d) => panic!("{text} parses as {d}"),
        Err(e) => e,
    }
}

#[test]
fn errors_say_where_and_what() {
    assert_eq!(
        error("WDx").to_string(),
        "unexpected `x` at 2: expected a range digit, an atom (W F D H A G N L C Z J R B Q K), \
         a modifier (f b l r s v h m c n p g), `(` or the end of the design"
    );
    assert_eq!(
        error("fcx").to_string(),
        "unexpected `x` at 2: expected an atom (W F D H A G N L C Z J R B Q K), a modifier \
         (f b l r s v h m c n p g) or `(`"
    );
    assert!(matches!(
        error("(NN x"),
        BetzaError::Unexpected {
            at: 3,
            found: ' ',
            expected: Expected {
                close: true,
                end: false,
                range: false,
                ..
            }
        }
    ));
    assert_eq!(error("W(D"), BetzaError::UnclosedGroup { at: 1 });
    assert_eq!(error("((W)"), BetzaError::UnclosedGroup { at: 0 });
    assert_eq!(error("W)"), BetzaError::UnmatchedClose { at: 1 });
    assert_eq!(error("(W))"), BetzaError::UnmatchedClose { at: 3 });
    assert_eq!(error("W()"), BetzaError::EmptyGroup { at: 1 });
    assert_eq!(error("fc()"), BetzaError::EmptyGroup { at: 2 });
    assert_eq!(
        error("Wfc"),
        BetzaError::DanglingModifier { at: 1, letter: 'f' }
    );
    assert_eq!(
        error("(Wm)"),
        BetzaError::DanglingModifier { at: 2, letter: 'm' }
    );
    assert_eq!(error("R0"), BetzaError::ZeroRange { at: 1 });
    assert_eq!(error("N05"), BetzaError::ZeroRange { at: 1 });
    assert_eq!(error("N256"), BetzaError::RangeTooLarge { at: 1 });
    assert_eq!(
        error("N99999999999999999999"),
        BetzaError::RangeTooLarge { at: 1 }
    );
    assert_eq!(error("NN2"), BetzaError::RangeAfterDoubled { at: 2 });
    assert_eq!(error("RR"), BetzaError::DoubledRider { at: 1, letter: 'R' });
    assert_eq!(error("QQ"), BetzaError::DoubledRider { at: 1, letter: 'Q' });
    assert_eq!(error("hN"), BetzaError::LoneHalf { at: 0 });
    assert_eq!(error("vhN"), BetzaError::LoneHalf { at: 1 });
    assert_eq!(
        error(""),
        BetzaError::UnexpectedEnd {
            at: 0,
            expected: Expected::TERM
        }
    );
    assert!(matches!(
        error("W "),
        BetzaError::Unexpected {
            at: 1,
            found: ' ',
            ..
        }
    ));
    assert!(matches!(
        error("Wé"),
        BetzaError::Unexpected {
            at: 1,
            found: 'é',
            ..
        }
    ));
    assert!(matches!(error("W2é"), BetzaError::Unexpected { at: 2, .. }));
    for e in [error("W(D"), error("W)"), error("R0")] {
        assert!(e.offset() < 3);
    }
}

#[test]
fn unsupported_features_are_named() {
    for (text, at, feature) in [
        ("jR", 0, Unsupported::Jumping),
        ("fmWifmnD", 3, Unsupported::Initial),
        ("fmWfceF", 5, Unsupported::EnPassant),
        ("caK", 1, Unsupported::MultiLeg),
        ("KO2", 1, Unsupported::Castling),
    ] {
        match error(text) {
            BetzaError::Unsupported {
                at: a, feature: f, ..
            } => assert_eq!((a, f), (at, feature), "{text}"),
            e => panic!("{text}: {e}"),
        }
    }
    assert_eq!(
        error("jR").to_string(),
        "`j` at 0 (jumping move) is not supported: only leaps, riders, hoppers (p g), lame \
         leaps (n), direction modifiers and m/c are"
    );
}

#[test]
fn lame_leapers_keep_their_leap_and_name_their_path() {
    let horse = one("nN");
    assert_eq!(horse.kind(), Kind::Lame);
    assert_eq!(horse.range(), Range::Leaper);
    assert_eq!(horse.vectors(Side::White).len(), 8);
    // Fairy-Stockfish's paths: the orthogonal neighbour in the long direction for the
    // knight, the middle for the alfil and dabbaba, both squares for the threeleaper.
    let path = |dx, dy| {
        let (p, n) = lame_path(dx, dy);
        p[..n].to_vec()
    };
    assert_eq!(path(1, 2), [(0, 1)]);
    assert_eq!(path(-2, 1), [(-1, 0)]);
    assert_eq!(path(2, -2), [(1, -1)]);
    assert_eq!(path(0, 2), [(0, 1)]);
    assert_eq!(path(0, -3), [(0, -1), (0, -2)]);
    assert_eq!(path(1, 3), [(0, 1), (0, 2)]);
    assert_eq!(path(-3, 2), [(-1, 0), (-2, 1)]);
    assert_eq!(path(3, 3), [(1, 1), (2, 2)]);
    assert_eq!(path(0, 1), []);
    assert_eq!(path(1, 1), []);
    // The pawn's double step as Fairy-Stockfish writes it (without `i`).
    let d = design("fmnD");
    assert_eq!(d.vectors(Side::White), [(0, 2)]);
    assert_eq!(d.atoms()[0].modality(), Modality::Move);
    assert_eq!(d.atoms()[0].kind(), Kind::Lame);
    // The kind is part of the atom: `nN` is not `N`.
    assert_ne!(design("nN"), design("N"));
}

#[test]
fn hoppers_ride_beyond_their_screen() {
    let cannon = design("mRcpR");
    assert_eq!(cannon.atoms().len(), 2);
    assert_eq!(cannon.atoms()[0].kind(), Kind::Jumping);
    assert_eq!(cannon.atoms()[1].kind(), Kind::Hopper);
    assert_eq!(cannon.atoms()[1].range(), Range::Unlimited);
    assert_eq!(cannon.atoms()[1].modality(), Modality::Capture);
    // The grasshopper lands right behind its screen: one square beyond.
    for g in ["gQ", "gR", "gB"] {
        assert!(design(g)
            .atoms()
            .iter()
            .all(|a| a.kind() == Kind::Hopper && a.range() == Range::Leaper));
    }
    assert_eq!(design("gQ").atoms().len(), 2);
    // Fairy-Stockfish reads a hopper on a leaper as on its rider.
    assert_eq!(design("pW"), design("pR"));
    assert_eq!(design("pWW"), design("pR"));
    assert_eq!(design("gF"), design("gB"));
    assert_eq!(design("pK"), design("pQ"));
    assert_eq!(design("p(RB)"), design("pQ"));
    assert_ne!(design("pR"), design("gR"));
}

#[test]
fn kinds_print_canonically_and_read_back() {
    for (text, printed) in [
        ("nN", "nN"),
        ("nA", "nA"),
        ("fmnD", "fmnD"),
        ("nfmD", "fmnD"),
        ("mRcpR", "mRcpR"),
        ("pR", "pR"),
        ("pWW", "pR"),
        ("pQ", "pQ"),
        ("pB", "pB"),
        ("p(WWFF)", "pQ"),
        ("pK", "pQ"),
        ("gQ", "gQ"),
        ("gR", "gR"),
        ("gB", "gB"),
        ("gW", "gR"),
        ("fpR", "fpR"),
        ("nK", "nK"),
        ("nZ", "nZ"),
        ("RcpRnN", "RcpRnN"),
        ("fnNbN", "fnNbN"),
        ("n(NA)", "n(NA)"),
        ("cp(RB)gR", "cpQgR"),
        ("gBgR", "g(BR)"),
    ] {
        assert_eq!(canonical(text), printed, "{text}");
        assert_eq!(design(printed), design(text), "{text} printed as {printed}");
    }
}

#[test]
fn kinds_that_make_no_move_are_refused_with_where() {
    for (text, at, part) in [
        ("nR", 0, "only a leaper can be lame"),
        ("nNN", 0, "only a leaper can be lame"),
        ("WnN2", 1, "only a leaper can be lame"),
        ("pnN", 1, "already marked `p`"),
        ("gpR", 1, "already marked `g`"),
        ("gR3", 2, "no hopper of limited range"),
        ("pR2", 2, "no hopper of limited range"),
        ("pW1", 2, "no hopper of limited range"),
        ("pN", 1, "ranks, files and diagonals only"),
        ("gNN", 1, "ranks, files and diagonals only"),
        ("pD", 1, "ranks, files and diagonals only"),
        ("cpL", 2, "ranks, files and diagonals only"),
        ("p", 0, "has no atom after it"),
    ] {
        let e = error(text);
        assert_eq!(e.offset(), at, "{text}: {e}");
        assert!(e.to_string().contains(part), "{text}: {e}");
    }
    // Doubled kind letters are one kind.
    assert_eq!(design("ppR"), design("pR"));
    let plain = Atom::new(Leap::N, Range::Unlimited, Modality::Both).unwrap();
    assert_eq!(plain.with_kind(Kind::Lame), Err(InvalidAtom::LameRider));
    let camel = Atom::new(Leap::L, Range::Leaper, Modality::Both).unwrap();
    assert_eq!(
        camel.with_kind(Kind::Hopper),
        Err(InvalidAtom::HopperLine(Leap::L))
    );
    assert_eq!(camel.with_kind(Kind::Lame).unwrap().kind(), Kind::Lame);
    let r3 = Atom::new(Leap::W, Range::Limited(3), Modality::Both).unwrap();
    assert_eq!(r3.with_kind(Kind::Hopper), Err(InvalidAtom::HopperRange));
}
