//! Snapshots of every legal ChessXpanse turn in crowded positions: the Gatekeeper, the Mage and
//! the Archer among friendly and enemy pieces, where ricochets, kills, switches and the pawn
//! rebirths a first-row move brings multiply the paths. One snapshot per line of
//! `tests/data/xpanse-crowded.txt` (`<files>x<ranks> <fen>`), listing the canonical texts of
//! the legal turns, sorted.

use arbiter::rules::xpanse::Xpanse;
use arbiter::rules::{Options, Rules};

fn positions() -> Vec<((u8, u8), String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xpanse-crowded.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/xpanse-crowded.txt readable");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (size, fen) = line.split_once(' ').expect("`<size> <fen>`");
            let (f, r) = size.split_once('x').expect("a size `<files>x<ranks>`");
            let size = (
                f.parse().expect("a number of files"),
                r.parse().expect("a number of ranks"),
            );
            (size, fen.trim().to_string())
        })
        .collect()
}

fn turn_list(size: (u8, u8), fen: &str) -> String {
    let geometry = Xpanse::geometry_for(Some(size)).expect("a ChessXpanse board");
    let pos = Xpanse::from_fen(geometry, fen, &Options::defaults(Xpanse::options()))
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut texts: Vec<String> = pos
        .legal_turns()
        .iter()
        .map(|(_, turn)| turn.text(pos.board().geometry()))
        .collect();
    texts.sort();
    let mut out = format!("{}x{} {fen}\n{} legal turns\n", size.0, size.1, texts.len());
    for t in texts {
        out.push_str(&t);
        out.push('\n');
    }
    out
}

#[test]
fn crowded_magic_piece_move_lists() {
    let all = positions();
    assert!(all.len() >= 8, "only {} positions", all.len());
    for (i, (size, fen)) in all.iter().enumerate() {
        let name = format!("xpanse_crowded_{:02}_{}x{}", i + 1, size.0, size.1);
        let out = turn_list(*size, fen);
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, out);
        });
    }
}
