//! Tests of the import of `variants.ini` sections.

use super::*;

fn one(text: &str, section: &str) -> Result<Imported, Refusal> {
    let file = reader::read(text);
    import("t.ini", text, &file, section)
}

#[test]
fn a_child_of_chess_with_a_new_start() {
    let i = one(
        "[upsidedown:chess]\nstartFen = RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1\n",
        "upsidedown",
    )
    .unwrap();
    assert_eq!(i.definition.name, "upsidedown");
    assert!(i.text.contains("from chess"), "{}", i.text);
}
