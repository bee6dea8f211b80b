//! The Betza module on the designs of csipgs chess (`shared/rules/csipgs-chess.txt` and the
//! standard designs of `csipgs-costs.md`): each parses, prints canonically, and has the
//! vectors listed here.

use arbiter::betza::{Design, Modality, Range, Side};

/// Every design named in the csipgs rule text and sample game, and the standard designs.
const CSIPGS_DESIGNS: [&str; 22] = [
    // The standard designs at the start of a game.
    "R",
    "N",
    "B",
    "Q",
    "BR",
    "K",
    "fcFfmW",
    // The 1998 sample game (Kurnia - Bodlaender), in order of appearance.
    "WbRbmHfB",
    "WD",
    "fbDbcA",
    "BL",
    "sWbmD",
    "WF",
    "FbDbcA",
    "Wfc(DNFA)scDsHbmH",
    "fc(DF)",
    "WA",
    "fF",
    "NbR",
    "RbcBbN",
    "fc(FN)",
    "HWDbmF",
];

fn describe(text: &str) -> String {
    let d: Design = match text.parse() {
        Ok(d) => d,
        Err(e) => panic!("{text}: {e}"),
    };
    let mut out = format!("{text} => {d}\n");
    for a in d.atoms() {
        let range = match a.range() {
            Range::Leaper => "leaper".to_string(),
            Range::Unlimited => "rider".to_string(),
            Range::Limited(n) => format!("rider up to {n}"),
        };
        let modality = match a.modality() {
            Modality::Move => "move",
            Modality::Capture => "capture",
            Modality::Both => "move+capture",
        };
        let vectors: Vec<String> = a
            .vectors(Side::White)
            .iter()
            .map(|(dx, dy)| format!("({dx},{dy})"))
            .collect();
        out.push_str(&format!(
            "  {a:<6} {:?} {range} {modality}: {}\n",
            a.coords(),
            vectors.join(" ")
        ));
    }
    out
}

#[test]
fn csipgs_designs_table() {
    let table: String = CSIPGS_DESIGNS.iter().map(|t| describe(t)).collect();
    insta::assert_snapshot!(table, @r"
    R => R
      R      (0, 1) rider move+capture: (-1,0) (0,-1) (0,1) (1,0)
    N => N
      N      (1, 2) leaper move+capture: (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1)
    B => B
      B      (1, 1) rider move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
    Q => Q
      R      (0, 1) rider move+capture: (-1,0) (0,-1) (0,1) (1,0)
      B      (1, 1) rider move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
    BR => BR
      B      (1, 1) rider move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
      R      (0, 1) rider move+capture: (-1,0) (0,-1) (0,1) (1,0)
    K => K
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      F      (1, 1) leaper move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
    fcFfmW => fcFfmW
      fcF    (1, 1) leaper capture: (-1,1) (1,1)
      fmW    (0, 1) leaper move: (0,1)
    WbRbmHfB => WbRbmHfB
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      bR     (0, 1) rider move+capture: (0,-1)
      bmH    (0, 3) leaper move: (0,-3)
      fB     (1, 1) rider move+capture: (-1,1) (1,1)
    WD => WD
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      D      (0, 2) leaper move+capture: (-2,0) (0,-2) (0,2) (2,0)
    fbDbcA => vDbcA
      vD     (0, 2) leaper move+capture: (0,-2) (0,2)
      bcA    (2, 2) leaper capture: (-2,-2) (2,-2)
    BL => BL
      B      (1, 1) rider move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
      L      (1, 3) leaper move+capture: (-3,-1) (-3,1) (-1,-3) (-1,3) (1,-3) (1,3) (3,-1) (3,1)
    sWbmD => sWbmD
      sW     (0, 1) leaper move+capture: (-1,0) (1,0)
      bmD    (0, 2) leaper move: (0,-2)
    WF => K
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      F      (1, 1) leaper move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
    FbDbcA => FbDbcA
      F      (1, 1) leaper move+capture: (-1,-1) (-1,1) (1,-1) (1,1)
      bD     (0, 2) leaper move+capture: (0,-2)
      bcA    (2, 2) leaper capture: (-2,-2) (2,-2)
    Wfc(DNFA)scDsHbmH => Wfc(DNFA)scDsHbmH
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      fcD    (0, 2) leaper capture: (0,2)
      fcN    (1, 2) leaper capture: (-1,2) (1,2)
      fcF    (1, 1) leaper capture: (-1,1) (1,1)
      fcA    (2, 2) leaper capture: (-2,2) (2,2)
      scD    (0, 2) leaper capture: (-2,0) (2,0)
      sH     (0, 3) leaper move+capture: (-3,0) (3,0)
      bmH    (0, 3) leaper move: (0,-3)
    fc(DF) => fc(DF)
      fcD    (0, 2) leaper capture: (0,2)
      fcF    (1, 1) leaper capture: (-1,1) (1,1)
    WA => WA
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      A      (2, 2) leaper move+capture: (-2,-2) (-2,2) (2,-2) (2,2)
    fF => fF
      fF     (1, 1) leaper move+capture: (-1,1) (1,1)
    NbR => NbR
      N      (1, 2) leaper move+capture: (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1)
      bR     (0, 1) rider move+capture: (0,-1)
    RbcBbN => RbcBbN
      R      (0, 1) rider move+capture: (-1,0) (0,-1) (0,1) (1,0)
      bcB    (1, 1) rider capture: (-1,-1) (1,-1)
      bN     (1, 2) leaper move+capture: (-1,-2) (1,-2)
    fc(FN) => fc(FN)
      fcF    (1, 1) leaper capture: (-1,1) (1,1)
      fcN    (1, 2) leaper capture: (-1,2) (1,2)
    HWDbmF => HWDbmF
      H      (0, 3) leaper move+capture: (-3,0) (0,-3) (0,3) (3,0)
      W      (0, 1) leaper move+capture: (-1,0) (0,-1) (0,1) (1,0)
      D      (0, 2) leaper move+capture: (-2,0) (0,-2) (0,2) (2,0)
      bmF    (1, 1) leaper move: (-1,-1) (1,-1)
    ");
}

#[test]
fn csipgs_designs_round_trip() {
    for text in CSIPGS_DESIGNS {
        let d: Design = text.parse().expect("a csipgs design parses");
        let printed = d.to_string();
        assert_eq!(
            printed.parse::<Design>().as_ref(),
            Ok(&d),
            "{text} as {printed}"
        );
    }
    // The sample game writes each of these as it is canonically.
    for text in [
        "WbRbmHfB",
        "Wfc(DNFA)scDsHbmH",
        "FbDbcA",
        "fc(DF)",
        "RbcBbN",
        "fc(FN)",
        "HWDbmF",
        "sWbmD",
        "NbR",
    ] {
        assert_eq!(
            text.parse::<Design>().map(|d| d.to_string()).as_deref(),
            Ok(text)
        );
    }
}

#[test]
fn the_csipgs_design_of_move_16() {
    let d: Design = "Wfc(DNFA)scDsHbmH".parse().expect("parses");
    assert_eq!(d.atoms().len(), 8);
    assert_eq!(
        d.vectors(Side::White),
        vec![
            (-3, 0),
            (-2, 0),
            (-2, 2),
            (-1, 0),
            (-1, 1),
            (-1, 2),
            (0, -3),
            (0, -1),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 2),
            (3, 0),
        ]
    );
    let captures_only: Vec<(i32, i32)> = d
        .steps(Side::White)
        .into_iter()
        .filter(|s| s.modality == Modality::Capture)
        .map(|s| (s.dx, s.dy))
        .collect();
    assert_eq!(
        captures_only,
        vec![
            (0, 2),
            (-1, 2),
            (1, 2),
            (-1, 1),
            (1, 1),
            (-2, 2),
            (2, 2),
            (-2, 0),
            (2, 0)
        ]
    );
}
