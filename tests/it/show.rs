//! `arbiter show`: snapshots of the text diagram and the SVG for positions of every variant
//! (zones, a turn through several legs with a kill, designs, destinations, a refused turn,
//! castling legal and refused, each variant's state),
//! the SVG's well-formedness and its pieces drawn without fonts or images, and the committed
//! `docs/cypher-start.svg` against what the command draws now.

use std::path::Path;
use std::process::Command;

/// Runs `arbiter` in the repository root: standard output, standard error, exit status.
fn arbiter(args: &[&str]) -> (String, String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// The SVG the command writes for `args`.
fn svg(name: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("arbiter-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Tests run side by side and draw the same names: each drawing gets a file of its own.
    static DRAWN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = DRAWN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("{name}-{n}.svg"));
    let path_text = path.to_string_lossy().into_owned();
    let mut all = args.to_vec();
    all.extend(["-o", &path_text]);
    let (out, err, code) = arbiter(&all);
    assert_eq!((code, err.as_str(), out.as_str()), (0, "", ""), "{args:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    text
}

const ARCHER_BOARD: &str = "white: Ac3 Ka1 Re3 b2 Nd4; black: Ne1 Aa5 Qc5 Kd5 d2 Be4";
const DESIGN_BOARD: &str =
    "white: Ke1 (WD)d4 (Wfc(DNFA)scDsHbmH)e2 Pa2; black: Ke8 (WD)d6 (fmWfcF)c7";

/// Each case: its name and the arguments after `show`.
const CASES: &[(&str, &[&str])] = &[
    ("chess-start", &["chess"]),
    ("cypher-start", &["cypher"]),
    (
        "cypher-turn",
        &["scenarios/cypher/retake.scn:14", "--turn", "Qz4xc4"],
    ),
    (
        "xpanse-archer",
        &[
            "xpanse",
            "--size",
            "5x5",
            "--board",
            ARCHER_BOARD,
            "--turn",
            "Ac3^e3xc5-e5",
        ],
    ),
    (
        "csipgs-design",
        &["csipgs", "--board", DESIGN_BOARD, "--turn", "(WD)d4xd6"],
    ),
    (
        "moves-from",
        &[
            "xpanse",
            "--size",
            "5x5",
            "--board",
            ARCHER_BOARD,
            "--moves-from",
            "c3",
        ],
    ),
    (
        "refused",
        &["scenarios/cypher/retake.scn:16", "--turn", "Rg2xg6"],
    ),
    // Castling draws the King's and the Rook's moves, dashed when refused.
    (
        "castling",
        &["chess", "--fen", CASTLING_FEN, "--turn", "O-O-O"],
    ),
    ("castling-refused", &["chess", "--turn", "O-O"]),
];

const CASTLING_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        // The file names these snapshots had when this was a test crate of its own.
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("show__{name}"), text);
    });
}

fn shown(args: &[&str]) -> String {
    let words: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains(' ') || a.contains('^') || a.contains('(') {
                format!("\"{a}\"")
            } else {
                a.to_string()
            }
        })
        .collect();
    words.join(" ")
}

#[test]
fn pictures() {
    for (name, args) in CASES {
        let mut all = vec!["show"];
        all.extend_from_slice(args);
        let (text, err, code) = arbiter(&all);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        let image = svg(name, &all);
        snapshot(
            &format!("show-{name}"),
            format!(
                "$ arbiter show {}\n{text}\n--- -o {name}.svg\n{image}",
                shown(args)
            ),
        );
    }
}

/// What the cases draw: each case's SVG parses as XML, draws the orthodox pieces as paths,
/// and relies on no image and no font for a piece.
#[test]
fn svgs_are_well_formed_and_draw_pieces_with_paths() {
    for (name, args) in CASES {
        let mut all = vec!["show"];
        all.extend_from_slice(args);
        let image = svg(name, &all);
        let doc = roxmltree::Document::parse(&image)
            .unwrap_or_else(|e| panic!("{name}: not well-formed: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(!image.contains("<image"), "{name}");
        assert!(!image.contains("<use"), "{name}");
        let mut orthodox = 0;
        for piece in doc.descendants().filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("piece "))
        }) {
            let class = piece.attribute("class").unwrap_or("");
            assert!(
                piece
                    .descendants()
                    .all(|n| n.attribute("font-family").is_none()),
                "{name}: {class}"
            );
            let drawn_as_text = piece.descendants().any(|n| n.has_tag_name("text"));
            let role = class.rsplit(' ').next().unwrap_or("");
            if ["king", "queen", "rook", "bishop", "knight", "pawn"].contains(&role) {
                orthodox += 1;
                assert!(!drawn_as_text, "{name}: {class} is drawn with a font");
                assert!(piece.descendants().any(|n| n.has_tag_name("path")));
            } else {
                // Fairy pieces and designs are discs with their letter or design.
                assert!(drawn_as_text, "{name}: {class}");
            }
        }
        assert!(orthodox > 0, "{name}: no orthodox piece drawn");
    }
}

#[test]
fn the_same_position_gives_the_same_bytes() {
    let args = ["show", "cypher", "--moves-from", "c1", "--turn", "Nc1-a2"];
    assert_eq!(svg("again-1", &args), svg("again-2", &args));
    assert_eq!(arbiter(&args), arbiter(&args));
}

#[test]
fn zones_are_shaded_with_three_tints_and_a_legend() {
    let image = svg("zones", &["show", "cypher"]);
    // Named as scenarios name them (`expect zone d0 = court`).
    for zone in ["court", "border", "field"] {
        assert!(image.contains(&format!(">{zone}</text>")), "{zone}");
    }
    // z0 (Court), a5 (Border) and a1 (Field): three different fills.
    let doc = roxmltree::Document::parse(&image).unwrap();
    let fill_at = |x: &str, y: &str| {
        doc.descendants()
            .find(|n| {
                n.has_tag_name("rect") && n.attribute("x") == Some(x) && n.attribute("y") == Some(y)
            })
            .and_then(|n| n.attribute("fill"))
            .unwrap_or("")
            .to_string()
    };
    let court = fill_at("60", "1020");
    let border = fill_at("160", "520");
    let field = fill_at("160", "920");
    assert!(
        court != border && border != field && court != field,
        "{court} {border} {field}"
    );
}

#[test]
fn the_committed_cypher_picture_is_what_the_command_draws() {
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cypher-start.svg"),
    )
    .expect("docs/cypher-start.svg");
    let now = svg("docs", &["show", "cypher"]);
    assert!(
        committed == now,
        "docs/cypher-start.svg is stale: regenerate it with `arbiter show cypher -o docs/cypher-start.svg`"
    );
}

#[test]
fn positions_that_cannot_be_drawn_say_why() {
    let cases: &[(&[&str], &str)] = &[
        (&["show", "xpanse", "--size", "5x5"], "--fen or --board"),
        (&["show", "xpanse"], "--fen or --board"),
        (&["show", "chess", "--moves-from", "e4"], "no piece on e4"),
        (
            &["show", "chess", "--moves-from", "k9"],
            "not on the chess board",
        ),
        (&["show", "chess", "--turn", "N"], "--turn"),
        (
            &[
                "show",
                "chess",
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "--board",
                "white: Ke1",
            ],
            "not both",
        ),
        (
            &["show", "scenarios/cypher/retake.scn:14", "--fen", "x"],
            "leave out --fen",
        ),
        (
            &[
                "show",
                "chess",
                "--board",
                "white: Ke1 Nb1 Nf1; black: Ke8",
                "--turn",
                "Nd2",
            ],
            "ambiguous",
        ),
    ];
    for (args, says) in cases {
        let (out, err, code) = arbiter(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Castling is drawn as both of its moves, the King's and the Rook's: solid when legal, dashed
/// with the rule when refused.
#[test]
fn castling_draws_the_king_and_the_rook() {
    let cases: &[(&[&str], &[&str], bool)] = &[
        (
            &["show", "chess", "--fen", CASTLING_FEN, "--turn", "O-O"],
            &["510,770 710,770", "810,770 610,770"],
            false,
        ),
        (
            &["show", "chess", "--fen", CASTLING_FEN, "--turn", "O-O-O"],
            &["510,770 310,770", "110,770 410,770"],
            false,
        ),
        (
            &["show", "chess", "--turn", "O-O"],
            &["510,770 710,770", "810,770 610,770"],
            true,
        ),
        (
            &["show", "chess", "--turn", "O-O-O"],
            &["510,770 310,770", "110,770 410,770"],
            true,
        ),
    ];
    for (args, paths, refused) in cases {
        let image = svg("castling", args);
        let doc = roxmltree::Document::parse(&image).unwrap();
        let lines: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .collect();
        let points: Vec<_> = lines.iter().filter_map(|n| n.attribute("points")).collect();
        assert_eq!(&points, paths, "{args:?}");
        for line in &lines {
            assert_eq!(
                line.attribute("stroke-dasharray").is_some(),
                *refused,
                "{args:?}"
            );
        }
        let (text, _, code) = arbiter(args);
        assert_eq!(code, 0);
        let back_rank = text.lines().find(|l| l.starts_with("1 ")).unwrap();
        assert!(
            back_rank.contains(">K<") && back_rank.contains(">R<"),
            "{args:?}: {back_rank}"
        );
        assert_eq!(text.contains("refused by castling"), *refused, "{text}");
    }
}

/// On a narrow board the zone legend's names do not run into each other: each entry ends
/// (its name at the caption's character width) before the next on its row starts.
#[test]
fn the_zone_legend_never_overlaps_on_a_narrow_board() {
    for variant in ["losalamos", "minishogi", "chess.def"] {
        let image = svg(&format!("legend-{variant}"), &["show", variant]);
        let doc = roxmltree::Document::parse(&image).unwrap();
        let width: i32 = doc
            .root_element()
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        // The legend: a swatch rect of width 36 then its name, per entry.
        let mut entries: Vec<(i32, i32, i32)> = Vec::new();
        let swatches: Vec<_> = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("rect")
                    && n.attribute("width") == Some("36")
                    && n.attribute("fill") == Some("none")
            })
            .collect();
        for s in &swatches {
            let x: i32 = s.attribute("x").unwrap().parse().unwrap();
            let y: i32 = s.attribute("y").unwrap().parse().unwrap();
            let name = doc
                .descendants()
                .find(|n| {
                    n.has_tag_name("text")
                        && n.attribute("x") == Some(&(x + 48).to_string())
                        && n.attribute("y") == Some(&(y + 28).to_string())
                })
                .and_then(|n| n.text())
                .unwrap_or_else(|| panic!("{variant}: a swatch without its name"));
            entries.push((y, x, x + 48 + name.chars().count() as i32 * 16));
        }
        assert!(!entries.is_empty(), "{variant}: no legend");
        entries.sort();
        for pair in entries.windows(2) {
            let ((y1, _, end1), (y2, start2, _)) = (pair[0], pair[1]);
            if y1 == y2 {
                assert!(
                    end1 < start2,
                    "{variant}: legend entries overlap: {entries:?}"
                );
            }
        }
        assert!(
            entries.iter().all(|(_, _, end)| *end <= width),
            "{variant}: past the picture's width {width}: {entries:?}"
        );
    }
}
