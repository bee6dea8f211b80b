//! Tests of the import of `variants.ini` sections: the mapping of settings, and every kind of
//! refusal at its line and column.

use super::*;
use crate::definition::model::Component;

fn one(text: &str, section: &str) -> Result<Imported, Refusal> {
    let file = reader::read(text);
    import("t.ini", text, &file, section)
}

fn refused(text: &str, section: &str) -> Refusal {
    match one(text, section) {
        Ok(i) => panic!("imported:\n{}", i.text),
        Err(r) => r,
    }
}

fn component<'a>(i: &'a Imported, name: &str) -> Option<&'a Component> {
    i.definition
        .rules
        .iter()
        .map(|r| &r.component)
        .find(|c| c.name() == name)
}

#[test]
fn a_child_of_chess_changes_only_what_it_says() {
    let i = one(
        "[upsidedown:chess]\nstartFen = RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1\n",
        "upsidedown",
    )
    .unwrap();
    assert_eq!(i.definition.name, "upsidedown");
    assert!(
        i.text.starts_with("variant upsidedown\nfrom chess\n"),
        "{}",
        i.text
    );
    assert!(!i.text.contains("piece "), "{}", i.text);
    assert!(i.text.contains("start \"RNBKQBNR/"), "{}", i.text);
}

#[test]
fn the_text_is_formatted_as_fmt_would() {
    let i = one("[c:chess]\nmustCapture = true\ncastling = false\n", "c").unwrap();
    assert_eq!(crate::definition::fmt::format(&i.text).unwrap(), i.text);
    assert!(i.text.contains("without castling\n"), "{}", i.text);
    assert!(component(&i, "compulsory-capture").is_some());
    assert!(component(&i, "castling").is_none());
}

#[test]
fn pieces_by_type_custom_and_removed() {
    let i = one(
        "[c:chess]\nqueen = -\ncustomPiece1 = a:BN\nknight = h\nstartFen = rhbakbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBAKBHR w KQkq - 0 1\npromotionPieceTypes = arbh\n",
        "c",
    )
    .unwrap();
    let letters: Vec<char> = i.definition.pieces.iter().map(|p| p.letter).collect();
    assert!(
        !letters.contains(&'Q') && !letters.contains(&'N'),
        "{letters:?}"
    );
    let a = i
        .definition
        .pieces
        .iter()
        .find(|p| p.letter == 'A')
        .unwrap();
    assert_eq!((a.name.as_str(), a.betza.as_str()), ("custom-1", "BN"));
    let h = i
        .definition
        .pieces
        .iter()
        .find(|p| p.letter == 'H')
        .unwrap();
    assert_eq!(h.name, "knight");
    match component(&i, "promotion") {
        Some(Component::Promotion { into, .. }) => assert_eq!(into[0], vec!['A', 'R', 'B', 'H']),
        other => panic!("{other:?}"),
    }
}

#[test]
fn initial_moves_become_double_steps_and_e_marks_en_passant() {
    let i = one(
        "[a:chess]\ncustomPiece1 = p:mWfceFifmnD\npawnTypes = p\n",
        "a",
    )
    .unwrap();
    let moves: Vec<&Component> = i
        .definition
        .rules
        .iter()
        .map(|r| &r.component)
        .filter(|c| matches!(c, Component::DoubleStep { .. }))
        .collect();
    assert!(
        matches!(moves.as_slice(), [Component::DoubleStep { movement: Some(m), .. }] if m == "fmnD"),
        "{moves:?}"
    );
    assert!(
        matches!(component(&i, "en-passant"), Some(Component::EnPassant { pieces, .. }) if pieces == &['P'])
    );
}

#[test]
fn a_section_without_parent_has_only_the_pieces_it_names() {
    let i = one(
        "[po]\npawn = p\nqueen = q\nstartFen = 8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1\npromotionPieceTypes = q\ncastling = false\nstalemateValue = loss\n",
        "po",
    )
    .unwrap();
    let letters: Vec<char> = i.definition.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, vec!['Q', 'P']);
    // No royal piece: no check rules.
    assert!(component(&i, "check").is_none() && component(&i, "checkmate").is_none());
    assert!(matches!(
        component(&i, "stalemate"),
        Some(Component::Stalemate {
            value: crate::definition::model::Value::Loss
        })
    ));
}

#[test]
fn a_parent_section_is_applied_first() {
    let text = "[p:chess]\nmaxFile = 9\nstartFen = rnbkqbnrq/ppppppppp/9/9/9/9/PPPPPPPPP/RNBKQBNRQ w KQkq - 0 1\n[c:p]\nmustCapture = true\n";
    let i = one(text, "c").unwrap();
    assert_eq!(i.definition.files, 9);
    assert!(component(&i, "compulsory-capture").is_some());
    // The double step covers the new file, as Fairy-Stockfish's whole rank does.
    match component(&i, "double-step") {
        Some(Component::DoubleStep { region, .. }) => assert_eq!(region[0].cells.len(), 9),
        other => panic!("{other:?}"),
    }
}

#[test]
fn settings_apply_in_fairy_stockfish_order_and_the_last_one_counts() {
    // `promotionPieceTypes` names a piece declared below it; `castling` is given twice.
    let i = one(
        "[c:chess]\npromotionPieceTypes = qa\ncastling = true\narchbishop = a\ncastling = false\n",
        "c",
    )
    .unwrap();
    assert!(component(&i, "castling").is_none());
    assert!(
        matches!(component(&i, "promotion"), Some(Component::Promotion { into, .. }) if into[0] == vec!['Q', 'A'])
    );
}

#[test]
fn unknown_setting_with_did_you_mean_at_its_line() {
    let r = refused("[a:chess]\n\nmaxRanks = 6\n", "a");
    assert!(
        r.message
            .contains("unknown setting `maxRanks`; did you mean `maxRank`?"),
        "{}",
        r.message
    );
    assert!(r.message.contains("t.ini:3:1"), "{}", r.message);
    assert_eq!(r.settings, vec!["maxRanks"]);
}

#[test]
fn unsupported_setting_unless_at_its_default() {
    let r = refused("[a:chess]\ndropLoop = true\n", "a");
    assert!(
        r.message
            .contains("the setting `dropLoop` is not supported yet"),
        "{}",
        r.message
    );
    assert!(r.message.contains("t.ini:2:1"), "{}", r.message);
    assert!(one("[a:chess]\ndropLoop = false\n", "a").is_ok());
}

/// `dropChecks = false` makes every drop component refuse a drop that gives check.
#[test]
fn drop_checks_false_is_gives_check_no() {
    let i = one("[q:crazyhouse]\ndropChecks = false\n", "q").unwrap();
    let gives: Vec<bool> = i
        .definition
        .rules
        .iter()
        .filter_map(|r| match &r.component {
            Component::Drops { gives_check, .. } => Some(*gives_check),
            _ => None,
        })
        .collect();
    assert!(!gives.is_empty() && gives.iter().all(|g| !g), "{}", i.text);
    assert!(i.text.contains("gives-check no"), "{}", i.text);
    let plain = one("[q:crazyhouse]\ndropChecks = true\n", "q").unwrap();
    assert!(!plain.text.contains("gives-check"), "{}", plain.text);
}

/// A setting the import does not follow, written at Fairy-Stockfish's default over a built-in
/// game whose own rules set it, would change that game: refused. Over a game that leaves it
/// alone, and from a section of the file that starts from such a game, the default is taken.
#[test]
fn unsupported_default_over_a_base_that_sets_it() {
    let r = refused("[a:shogi]\nshogiPawnDropMateIllegal = false\n", "a");
    assert!(
        r.message.contains(
            "the setting `shogiPawnDropMateIllegal` is not supported yet, and `shogi` sets it"
        ),
        "{}",
        r.message
    );
    assert_eq!(r.settings, vec!["shogiPawnDropMateIllegal"]);
    assert!(one("[a:chess]\nshogiPawnDropMateIllegal = false\n", "a").is_ok());
    let r = refused("[a:xiangqi]\n[b:a]\nperpetualCheckIllegal = false\n", "b");
    assert!(r.message.contains("`xiangqi` sets it"), "{}", r.message);
}

#[test]
fn the_base_settings_table_is_sorted_and_names_known_games_and_settings() {
    let table = super::base_settings::BASE_SETTINGS;
    assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
    for (game, keys) in table {
        assert!(super::FSF_GAMES.contains(game), "{game}");
        for key in *keys {
            assert!(
                super::map::UNSUPPORTED.iter().any(|(k, _)| k == key),
                "{game}: {key}"
            );
        }
    }
}

#[test]
fn unsupported_value_at_its_column() {
    let r = refused("[a:chess]\nstalemateValue = maybe\n", "a");
    assert!(
        r.message
            .contains("unsupported value `maybe` of `stalemateValue`"),
        "{}",
        r.message
    );
    assert!(r.message.contains("t.ini:2:18"), "{}", r.message);
    let r = refused("[a:chess]\nstartFen = 8/8/8/8/8/8/8/8[Qq] w - - 0 1\n", "a");
    assert!(r.message.contains("pockets"), "{}", r.message);
    let r = refused("[a:chess]\npromotionPieceTypes = qz\n", "a");
    assert!(
        r.message.contains("no piece is written `z`"),
        "{}",
        r.message
    );
}

#[test]
fn a_bad_line_is_refused() {
    let r = refused("[a:chess]\nthis is no setting\n", "a");
    assert!(r.message.contains("not `key = value`"), "{}", r.message);
    assert!(r.message.contains("t.ini:2:1"), "{}", r.message);
}

#[test]
fn unknown_and_uncovered_parents() {
    let r = refused("[a:chesss]\n", "a");
    assert!(
        r.message.contains("unknown parent `chesss`"),
        "{}",
        r.message
    );
    assert!(
        r.message.contains("mean `chess` or `chessgi`?"),
        "{}",
        r.message
    );
    assert!(r.message.contains("t.ini:1:4"), "{}", r.message);
    let r = refused("[a:bughouse]\n", "a");
    assert!(
        r.message.contains("no bundled definition covers"),
        "{}",
        r.message
    );
    assert_eq!(r.settings, vec!["parent bughouse"]);
}

#[test]
fn cyclic_inheritance_and_a_parent_below() {
    let r = refused("[a:b]\n[b:a]\n", "a");
    assert!(
        r.message.contains("inheritance loops: [a] -> [b] -> [a]"),
        "{}",
        r.message
    );
    let r = refused("[a:b]\n[b:chess]\n", "a");
    assert!(r.message.contains("comes after"), "{}", r.message);
}

#[test]
fn missing_and_built_in_named_sections() {
    let r = refused("[alpha:chess]\n", "alpah");
    assert!(r.message.contains("no section [alpah]"), "{}", r.message);
    assert!(r.message.contains("did you mean `alpha`"), "{}", r.message);
    let r = refused("[chess]\nmaxRank = 6\n", "chess");
    assert!(r.message.contains("built-in game"), "{}", r.message);
}

#[test]
fn a_definition_that_does_not_hold_together_is_refused() {
    // Nine files, but the start position is still eight wide.
    let r = refused("[a:chess]\nmaxFile = 9\n", "a");
    assert!(r.message.contains("start position"), "{}", r.message);
}

#[test]
fn section_specs() {
    assert_eq!(spec("v/variants.ini:foo"), Some(("v/variants.ini", "foo")));
    assert_eq!(
        spec("variants.ini:4x5chess"),
        Some(("variants.ini", "4x5chess"))
    );
    assert_eq!(spec("chess"), None);
    assert_eq!(spec("variants.ini:"), None);
}

#[test]
fn every_supported_setting_is_documented() {
    let doc = include_str!("../../../docs/defining-variants.md");
    let chapter = &doc[doc
        .find("# Importing Fairy-Stockfish's variants.ini")
        .expect("the chapter")..];
    for (key, _, _) in map::TABLE {
        assert!(
            chapter.contains(&format!("`{key}`")),
            "{key} is not in the chapter"
        );
    }
    for t in pieces::TYPES {
        assert!(
            chapter.contains(&format!("`{}`", t.setting)),
            "{} is not in the chapter",
            t.setting
        );
    }
}

#[test]
fn no_input_panics() {
    let inputs = [
        "",
        "[",
        "[]",
        "[:]\n",
        "[a:]\n",
        "[a]\n=\n",
        "[a]\nmaxRank = 99999999999\n",
        "[a:chess]\nmaxFile = 0\nmaxRank = 0\n",
        "[a:chess]\nmaxRank = 1\nmaxFile = 1\nstartFen = K w - - 0 1\n",
        "[a:chess]\ncustomPiece1 = \n",
        "[a:chess]\ncustomPiece1 = x:\n",
        "[a:chess]\ncustomPiece99 = x:W\n",
        "[a:chess]\nking = -\nrook = -\ncastling = true\n",
        "[a:chess]\npromotionRegionWhite = *0 a0 ** z9\n",
        "[a:chess]\ncastlingKingsideFile = a\ncastlingQueensideFile = z\n",
        "[a:chess]\npromotionLimit = q q:x :3\n",
        "[a:chess]\nstartFen = \n",
        "[a:chess]\nstartFen = ********/8 w\n",
        "[a:chess]\ncheckCounting = true\nstartFen = 8/8/8/8/8/8/8/4K2k w - - 2+1 0 1\n",
        "[a:chess]\ntripleStepRegionWhite = *5\n",
        "[a:chess]\nflagPieceWhite = k\nflagRegion = *8\n",
        "\u{FEFF}[a:chess]\r\nmustCapture = true\r\n",
    ];
    for text in inputs {
        let file = reader::read(text);
        for s in file
            .sections
            .iter()
            .map(|s| s.name.clone())
            .chain(["a".to_string()])
        {
            let _ = import("t.ini", text, &file, &s);
        }
    }
}

#[test]
fn castling_follows_the_king_piece_named_after_the_king_goes() {
    let text = "[r:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\n";
    let i = one(text, "r").unwrap();
    let k = i
        .definition
        .pieces
        .iter()
        .find(|p| p.letter == 'K')
        .unwrap();
    assert!(!k.royal);
    assert!(matches!(
        component(&i, "castling"),
        Some(Component::Castling { king: 'K', .. })
    ));
    // Without `castlingKingPiece`, Fairy-Stockfish's castling king (its royal king) is gone.
    let i = one("[r:chess]\nking = -\ncommoner = k\n", "r").unwrap();
    assert!(component(&i, "castling").is_none());
}

#[test]
fn built_in_games_written_as_sections_are_parents_too() {
    for game in [
        "kingofthehill",
        "gardner",
        "nocastle",
        "misere",
        "nightrider",
        "5check",
    ] {
        let text = format!("[x:{game}]\n");
        if let Err(r) = one(&text, "x") {
            panic!("{game}: {}", r.message);
        }
    }
    let i = one("[c:kingofthehill]\nmustCapture = true\n", "c").unwrap();
    assert!(i.text.contains("from chess"), "{}", i.text);
    assert!(
        matches!(component(&i, "goal"), Some(Component::Goal { pieces, .. }) if pieces == &['K'])
    );
    assert!(starting_games().contains(&"gardner"));
}

/// The `drops` components of an import, in order: pieces, White's and Black's region (as
/// `(file, rank)` from 0), `no-doubled`, `immobile` and `must`.
#[allow(clippy::type_complexity)]
fn drops_of(i: &Imported) -> Vec<(Vec<char>, [Vec<(u8, u8)>; 2], bool, bool, bool)> {
    i.definition
        .rules
        .iter()
        .filter_map(|r| match &r.component {
            Component::Drops {
                pieces,
                region,
                no_doubled,
                immobile,
                must,
                ..
            } => Some((
                pieces.clone(),
                [0, 1].map(|s| region[s].cells.iter().map(|c| (c.file, c.rank)).collect()),
                *no_doubled,
                *immobile,
                *must,
            )),
            _ => None,
        })
        .collect()
}

/// The squares of these ranks (from 0) on an 8x8 board, sorted as regions are.
fn ranks(rs: &[u8]) -> Vec<(u8, u8)> {
    let mut v: Vec<(u8, u8)> = (0..8u8)
        .flat_map(|f| rs.iter().map(move |r| (f, *r)))
        .collect();
    v.sort();
    v
}

#[test]
fn drop_regions_bound_every_drop_and_the_pawns_keep_off_their_ranks() {
    let i = one(
        "[d:chess]\npieceDrops = true\ncapturesToHand = true\ndropRegionWhite = *1 *2\ndropRegionBlack = *7 *8\n",
        "d",
    )
    .unwrap();
    let d = drops_of(&i);
    assert_eq!(d.len(), 2, "{}", i.text);
    assert_eq!(d[0].0, Vec::<char>::new());
    assert_eq!(d[0].1, [ranks(&[0, 1]), ranks(&[6, 7])]);
    // The pawn: the region, less its first rank (the promotion zone is out of it already).
    assert_eq!(d[1].0, vec!['P']);
    assert_eq!(d[1].1, [ranks(&[1]), ranks(&[6])]);
    assert!(i.text.contains("white ranks 1 2"), "{}", i.text);
}

#[test]
fn a_drop_region_without_a_square_is_refused_at_its_value() {
    let r = refused("[d:chess]\npieceDrops = true\ndropRegionWhite = -\n", "d");
    assert_eq!(r.settings, vec!["dropRegionWhite"]);
    assert!(r.message.contains("t.ini:3:19"), "{}", r.message);
}

#[test]
fn pawn_drop_ranks_follow_first_rank_and_zone_settings() {
    let both = one(
        "[d:crazyhouse]\nfirstRankPawnDrops = true\npromotionZonePawnDrops = true\n",
        "d",
    )
    .unwrap();
    // Nothing keeps the pawn anywhere: one component drops every piece.
    assert_eq!(drops_of(&both).len(), 1, "{}", both.text);
    let first = one("[d:crazyhouse]\nfirstRankPawnDrops = true\n", "d").unwrap();
    let d = drops_of(&first);
    assert_eq!(
        d[1].1,
        [ranks(&[0, 1, 2, 3, 4, 5, 6]), ranks(&[1, 2, 3, 4, 5, 6, 7])]
    );
    // A crazyhouse child that changes no drop keeps the bundled components as they are.
    let same = one("[d:crazyhouse]\nmustCapture = true\n", "d").unwrap();
    assert!(!same.text.contains("drops"), "{}", same.text);
}

#[test]
fn no_doubled_drops_for_the_pawn_or_another_piece() {
    let p = one("[d:crazyhouse]\ndropNoDoubled = p\n", "d").unwrap();
    let d = drops_of(&p);
    assert_eq!((d[1].0.clone(), d[1].2), (vec!['P'], true), "{}", p.text);
    let n = one("[d:crazyhouse]\ndropNoDoubled = n\n", "d").unwrap();
    let d = drops_of(&n);
    assert_eq!(d.len(), 3, "{}", n.text);
    assert_eq!((d[2].0.clone(), d[2].2), (vec!['N'], true));
    let r = refused(
        "[d:crazyhouse]\ndropNoDoubled = p\ndropNoDoubledCount = 2\n",
        "d",
    );
    assert_eq!(r.settings, vec!["dropNoDoubledCount"]);
    let r = refused("[d:crazyhouse]\ndropNoDoubled = pn\n", "d");
    assert_eq!(r.settings, vec!["dropNoDoubled"]);
}

#[test]
fn must_drop_binds_every_drops_component() {
    let i = one("[d:crazyhouse]\nmustDrop = true\n", "d").unwrap();
    assert!(drops_of(&i).iter().all(|d| d.4), "{}", i.text);
    // Shogi's drops are not ones the settings rebuild.
    let r = refused("[s:shogi]\nmustDrop = true\n", "s");
    assert_eq!(r.settings, vec!["mustDrop"]);
    assert!(r.message.contains("shogi-style drops"), "{}", r.message);
}

#[test]
fn pocket_size_only_sizes_the_pocket() {
    let a = one("[d:crazyhouse]\npocketSize = 6\n", "d").unwrap();
    let b = one("[d:crazyhouse]\n", "d").unwrap();
    assert_eq!(meaning(&a.definition), meaning(&b.definition));
}

#[test]
fn immobility_forbids_stuck_drops_where_a_piece_could_be_stuck() {
    // Makruk's pawn may be dropped on any rank, but not where it could never move.
    let i = one(
        "[d:makruk]\nstartFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR[] w - - 0 1\npieceDrops = true\ncapturesToHand = true\nfirstRankPawnDrops = true\npromotionZonePawnDrops = true\nimmobilityIllegal = true\n",
        "d",
    )
    .unwrap();
    let d = drops_of(&i);
    assert_eq!(d.len(), 1, "{}", i.text);
    assert!(!d[0].3, "immobile no: {}", i.text);
    // Without it, a pawn may be dropped where it is stuck.
    let i = one(
        "[d:makruk]\nstartFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR[] w - - 0 1\npieceDrops = true\nfirstRankPawnDrops = true\npromotionZonePawnDrops = true\n",
        "d",
    )
    .unwrap();
    assert!(drops_of(&i)[0].3, "immobile yes: {}", i.text);
}

#[test]
fn immobility_is_refused_where_a_move_onto_a_dead_square_would_stay_legal() {
    // A forward-only piece that does not promote could step onto the last rank: Fairy-Stockfish
    // refuses that move under immobilityIllegal, which no component says.
    let r = refused(
        "[d:chess]\ncustomPiece1 = a:fW\nimmobilityIllegal = true\n",
        "d",
    );
    assert!(r.message.contains("`immobilityIllegal`"), "{}", r.message);
    assert!(r.message.contains("a8"), "{}", r.message);
    // Without it, an optional promotion leaves a pawn stuck on the last rank in
    // Fairy-Stockfish, where this program makes it promote.
    let r = refused("[d:chess]\nmandatoryPawnPromotion = false\n", "d");
    assert!(
        r.message.contains("could never move again"),
        "{}",
        r.message
    );
    // Within a zone where it may promote, a pawn may stay unpromoted off the last rank.
    assert!(one(
        "[d:chess]\nmandatoryPawnPromotion = false\npromotionRegionWhite = *7\npromotionRegionBlack = *2\n",
        "d"
    )
    .is_ok());
}

#[test]
fn a_shogi_base_keeps_its_promotion_when_a_piece_it_does_not_name_goes() {
    let i = one("[a:minishogi]\nking = -\ncommoner = k\n", "a").unwrap();
    assert!(
        matches!(component(&i, "promotion"), Some(Component::Promotion { pairs, .. }) if pairs.len() == 4),
        "{}",
        i.text
    );
    assert!(!i.text.contains("promotion {"), "{}", i.text);
    // A piece the promotion names cannot go: the settings do not rebuild it.
    let r = refused(
        "[a:minishogi]\nsilver = -\nstartFen = rb1gk/4p/5/P4/KG1BR[-] w 0 1\n",
        "a",
    );
    assert_eq!(r.settings, vec!["definition"]);
    assert!(r.message.contains("shogi-style"), "{}", r.message);
}

#[test]
fn nocheckatomic_and_pocketknight_are_built_in_parents() {
    let i = one("[a:nocheckatomic]\n", "a").unwrap();
    assert!(component(&i, "explosion").is_some(), "{}", i.text);
    assert!(component(&i, "check").is_none(), "{}", i.text);
    assert!(
        matches!(component(&i, "extinction"), Some(Component::Extinction { pieces, .. }) if *pieces == vec!['K'])
    );
    let i = one("[a:pocketknight]\n", "a").unwrap();
    assert!(component(&i, "drops").is_some(), "{}", i.text);
    assert!(component(&i, "captures-to-hand").is_none(), "{}", i.text);
}

#[test]
fn the_soldier_moves_sideways_everywhere_unless_a_xiangqi_game_has_a_river() {
    let i = one("[s:chess]\nsoldier = s\n", "s").unwrap();
    let s = i
        .definition
        .pieces
        .iter()
        .find(|p| p.letter == 'S')
        .unwrap();
    assert_eq!((s.name.as_str(), s.betza.as_str()), ("soldier", "fsW"));
    let r = refused("[s:xiangqi]\nsoldier = s\n", "s");
    assert_eq!(r.settings, vec!["soldier"]);
    assert!(r.message.contains("across the river"), "{}", r.message);
}

#[test]
fn promoted_piece_types_make_a_pairs_promotion_of_their_own() {
    let i = one(
        "[k:chess]\narchbishop = a\nchancellor = c\npromotionPieceTypes = -\npromotedPieceType = p:a n:c\nmandatoryPawnPromotion = false\nimmobilityIllegal = true\n",
        "k",
    )
    .unwrap();
    match component(&i, "promotion") {
        Some(Component::Promotion {
            pairs,
            leaving,
            mandatory,
            into,
            ..
        }) => {
            assert_eq!(pairs, &vec![('P', 'A'), ('N', 'C')]);
            assert!(*leaving && !*mandatory && into.iter().all(|i| i.is_empty()));
        }
        other => panic!("{other:?}\n{}", i.text),
    }
    // The knight promotes into a kind of its own: it is no pawn.
    let n = i
        .definition
        .pieces
        .iter()
        .find(|p| p.letter == 'N')
        .unwrap();
    assert!(!n.pawn);
    assert!(i.text.contains("piece-promotion"), "{}", i.text);
}

#[test]
fn promoted_piece_types_refused_where_fairy_stockfish_differs() {
    let bad = |extra: &str, why: &str| {
        let text = format!(
            "[k:chess]\narchbishop = a\nchancellor = c\npromotionPieceTypes = -\n{extra}\n"
        );
        let r = refused(&text, "k");
        assert!(r.message.contains(why), "{extra}: {}", r.message);
        assert!(r.message.contains("`promotedPieceType`"), "{}", r.message);
    };
    // The queen starts on the board unpromoted.
    bad("promotedPieceType = p:q", "unpromoted `q`");
    bad("promotedPieceType = p:a n:a", "two pieces promote into `a`");
    // A pawn promoting on the sixth rank may take en passant there.
    bad(
        "promotedPieceType = p:a\npromotionRegionWhite = *6 *7 *8\npromotionRegionBlack = *3 *2 *1",
        "en passant",
    );
    // Fairy-Stockfish lets a piece move unpromoted when its promoted kind is at its limit.
    bad(
        "promotedPieceType = n:c\nmandatoryPiecePromotion = true\npromotionLimit = c:1",
        "limited kind",
    );
    // A pawn promoting both ways.
    let r = refused("[k:chess]\narchbishop = a\npromotedPieceType = p:a\n", "k");
    assert!(r.message.contains("both as a pawn"), "{}", r.message);
    // The value names pieces there are.
    let r = refused("[k:chess]\npromotedPieceType = p:z\n", "k");
    assert_eq!(r.settings, vec!["promotedPieceType"]);
}

#[test]
fn conversions_keep_the_base_game_and_refuse_a_change() {
    let i = one(
        "[small:flipello]\nmaxRank = 6\nmaxFile = 6\nstartFen = 6/6/2pP2/2Pp2/6/6[PPPPpppp] w 0 1\n\
         enclosingDropStart = c3 d3 c4 d4\npassOnStalemate = true\nflipEnclosedPieces = reversi\n",
        "small",
    )
    .unwrap();
    let Some(Component::Drops { opening, .. }) = component(&i, "drops") else {
        panic!("{}", i.text)
    };
    assert_eq!(opening.cells.len(), 4);
    assert!(i.text.contains("opening c3 c4 d3 d4"), "{}", i.text);
    let r = refused("[x:ataxx]\nenclosingDrop = none\n", "x");
    assert_eq!(r.settings, ["enclosingDrop"]);
    assert!(
        r.message
            .contains("unsupported value `none` of `enclosingDrop`: the base game has `ataxx`"),
        "{}",
        r.message
    );
    // A setting written at Fairy-Stockfish's default does not pass over a base that sets it.
    assert_eq!(
        refused("[y:flipello]\npassOnStalemate = false\n", "y").settings,
        ["passOnStalemate"]
    );
    assert_eq!(
        refused("[z:chess]\nadjudicateFullBoard = true\n", "z").settings,
        ["adjudicateFullBoard"]
    );
    assert_eq!(
        refused("[w:chess]\nenclosingDropStart = d4 e4\n", "w").settings,
        ["enclosingDropStart"]
    );
    assert!(one("[v:chess]\nmaterialCounting = none\n", "v").is_ok());
}

/// Fairy-Stockfish puts what a blast removes into the hands too: until `captures-to-hand` can
/// say so, the combination is refused rather than imported with other counts.
#[test]
fn captures_to_hand_with_explosions_is_refused() {
    let r = refused(
        "[z:atomic]\npieceDrops = true\ncapturesToHand = true\n",
        "z",
    );
    assert!(
        r.message.contains("`capturesToHand` with explosions"),
        "{}",
        r.message
    );
    assert!(one("[z:crazyhouse]\ndropChecks = false\n", "z").is_ok());
}
