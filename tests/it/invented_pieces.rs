//! Orthodox pieces written as Betza designs move exactly as the orthodox ones: in positions of
//! random chess playouts, every queen replaced by `(RB)`, every knight by `(N)` and every pawn
//! with no double step, en passant or promotion ahead by `(fmWfcF)` gives the same legal moves,
//! once the design's name is read as the letter; and a King's steps are `WF`'s.

use std::collections::BTreeSet;

use arbiter::rules::chess::{Chess, START_FEN};
use arbiter::rules::design::intern;
use arbiter::rules::movement::{self, destinations};
use arbiter::rules::{Board, Color, Geometry, Options, Piece, Role, Rules, Sq, Square};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn moves(pos: &Chess) -> BTreeSet<String> {
    pos.legal_turns()
        .into_iter()
        .map(|(_, t)| t.text(&Geometry::lettered(8, 8)))
        .collect()
}

/// The position with its queens as `RB`, its knights as `N` and its pawns as `fmWfcF` where
/// a pawn has no double step, en passant or promotion ahead; and how many pawns were swapped.
fn invented(pos: &Chess, options: &Options) -> (Chess, usize) {
    let [rb, n, pawn] = ["RB", "N", "fmWfcF"].map(|d| intern(d).unwrap());
    let no_ep = pos.fen().split_whitespace().nth(3) == Some("-");
    let mut setup = pos.to_setup();
    let mut pawns = 0;
    for (s, p) in pos.board().pieces() {
        let (start, last_but_one) = match p.color() {
            Color::White => (1, 6),
            Color::Black => (6, 1),
        };
        let design = match p.role() {
            Role::Queen => rb,
            Role::Knight => n,
            Role::Pawn if no_ep && s.rank != start && s.rank != last_but_one => {
                pawns += 1;
                pawn
            }
            _ => continue,
        };
        setup.board.put(s, Some(Piece::designed(p.color(), design)));
    }
    let made = Chess::from_setup(&setup, options).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    (made, pawns)
}

#[test]
fn designs_of_the_orthodox_pieces_move_as_they_do() {
    let options = Options::defaults(Chess::options());
    let g = Geometry::lettered(8, 8);
    let mut rng = Rng(0xBE75_A0B7_0D0C);
    let (mut compared, mut with_pawns) = (0, 0);
    for _ in 0..300 {
        let mut pos = Chess::from_fen(g, START_FEN, &options).unwrap();
        for _ in 0..rng.below(60) {
            let mut ms = Vec::new();
            pos.legal_moves(&mut ms);
            if ms.is_empty() {
                break;
            }
            pos.play(ms[rng.below(ms.len())]);
        }
        let (invented, pawns) = invented(&pos, &options);
        with_pawns += pawns;
        let renamed: BTreeSet<String> = moves(&invented)
            .into_iter()
            .map(|m| {
                m.replace("(Q)", "Q")
                    .replace("(N)", "N")
                    .replace("(fmWfcF)", "")
            })
            .collect();
        assert_eq!(moves(&pos), renamed, "{}", pos.fen());
        compared += 1;
    }
    assert_eq!(compared, 300);
    assert!(
        with_pawns > 500,
        "only {with_pawns} pawns compared as designs"
    );
}

#[test]
fn a_king_steps_as_wf() {
    let wf = intern("WF").unwrap().movement();
    let mut rng = Rng(0x0004_B196);
    for _ in 0..500 {
        let mut board = Board::empty(Geometry::lettered(8, 8));
        for _ in 0..rng.below(20) {
            let s = Square::new(rng.below(8) as u8, rng.below(8) as u8);
            let role = [Role::Pawn, Role::Knight, Role::Rook][rng.below(3)];
            let color = [Color::White, Color::Black][rng.below(2)];
            board.put(s, Some(Piece::new(color, role)));
        }
        let from = Sq::of(Square::new(rng.below(8) as u8, rng.below(8) as u8));
        let reach = |m: &movement::Movement| {
            let mut out = Vec::new();
            destinations(
                m,
                &board,
                from,
                Color::White,
                |c| c & 1 == 1,
                |t, x| out.push((t, x)),
            );
            out.sort();
            out
        };
        assert_eq!(reach(&movement::KING), reach(wf));
    }
}
