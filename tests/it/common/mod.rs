//! Checks shared by the property tests of every variant: each returns what broke, if anything.

use arbiter::rules::game::Resolved;
use arbiter::rules::{perft, Game, Options, Rules};
use arbiter::scenario::evaluate::Lowering;
use arbiter::scenario::parse::parse_turn;

/// The positions met along `choices` from `start`, each choice picking among the legal moves;
/// stops when the game is decided or no move is left.
pub fn playout<R: Rules>(start: R, choices: &[usize]) -> Vec<R> {
    playout_while(start, choices, |_| true)
}

/// [`playout`], stopping before the first position that `keep` refuses.
pub fn playout_while<R: Rules>(start: R, choices: &[usize], keep: impl Fn(&R) -> bool) -> Vec<R> {
    let mut pos = start;
    let mut seen = vec![pos.clone()];
    for c in choices {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[c % moves.len()]);
        if !keep(&pos) {
            break;
        }
        seen.push(pos.clone());
    }
    seen
}

/// perft(1) equals the number of legal moves and of the game's legal turns.
pub fn perft_one_counts_legal_turns<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if perft(pos, 1) != moves.len() as u64 {
        return Err(format!(
            "perft 1 = {} but {} legal moves in {}",
            perft(pos, 1),
            moves.len(),
            pos.fen()
        ));
    }
    let game = Game::new(pos.clone(), options.clone());
    if game.outcome().is_none() && game.legal_turns().len() != moves.len() {
        return Err(format!(
            "{} turns but {} moves in {}",
            game.legal_turns().len(),
            moves.len(),
            pos.fen()
        ));
    }
    Ok(())
}

/// Every legal turn's canonical text parses and resolves back to that very move.
pub fn turn_texts_round_trip<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    let g = *pos.board().geometry();
    let game = Game::new(pos.clone(), options.clone());
    for (m, turn) in game.legal_turns() {
        let text = turn.text(&g);
        let parsed = parse_turn(&text).map_err(|p| format!("{text}: {}", p.message))?;
        let pattern = Lowering::<R>::new(g)
            .turn(&parsed)
            .map_err(|p| format!("{text}: {}", p.message))?;
        match game.resolve(&pattern) {
            Ok(Resolved::Move(back, _)) if back == m => {}
            other => return Err(format!("{text} resolved to {other:?} in {}", pos.fen())),
        }
    }
    Ok(())
}

/// The FEN and the setup of a position build the same position again.
pub fn fen_and_setup_round_trip<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    let fen = pos.fen();
    let g = *pos.board().geometry();
    let again = R::from_fen(g, &fen, options)?;
    if again.fen() != fen {
        return Err(format!("FEN {fen} came back as {}", again.fen()));
    }
    let rebuilt = R::from_setup(&pos.to_setup(), options)?;
    if rebuilt.fen() != fen {
        return Err(format!("setup of {fen} came back as {}", rebuilt.fen()));
    }
    Ok(())
}

/// Every invariant of the variant holds in `pos`.
pub fn invariants_hold<R: Rules>(pos: &R) -> Result<(), String> {
    for inv in R::invariants() {
        pos.check_invariant(inv.name)
            .map_err(|e| format!("{}: {e} in {}", inv.name, pos.fen()))?;
    }
    Ok(())
}

/// All the checks above, in one position.
#[allow(dead_code)]
pub fn every_property<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    perft_one_counts_legal_turns(pos, options)?;
    turn_texts_round_trip(pos, options)?;
    fen_and_setup_round_trip(pos, options)?;
    invariants_hold(pos)
}
