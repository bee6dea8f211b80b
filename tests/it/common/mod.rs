//! Checks shared by the property tests of every variant: each returns what broke, if anything.

use arbiter::rules::game::Resolved;
use arbiter::rules::{perft, Game, Options, Rules};
use arbiter::scenario::evaluate::{evaluate, Failure, Lowering};
use arbiter::scenario::parse::{parse_file, parse_turn};

/// The cases a property test runs: `default`, or `ARBITER_PROPTEST_CASES` for a longer run
/// (`ARBITER_PROPTEST_CASES=1000 cargo test --release xpanse_props`).
pub fn cases(default: u32) -> u32 {
    std::env::var("ARBITER_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

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
    moves_list_reads_back(pos, options)?;
    invariants_hold(pos)
}

/// A scenario with `pos` set up under `options` and the one expectation `expect <assertion>`.
fn scenario_with<R: Rules>(pos: &R, options: &Options, assertion: &str) -> String {
    let g = *pos.board().geometry();
    let mut src = format!("variant {}", R::name());
    if R::geometry_for(None).ok() != Some(g) {
        src.push_str(&format!(" {}x{}", g.files, g.ranks));
    }
    src.push('\n');
    let defaults = Options::defaults(R::options());
    for (name, value) in options.iter() {
        if defaults.get(name) != value {
            src.push_str(&format!("option {name} = {value}\n"));
        }
    }
    src.push_str(&format!(
        "\nscenario \"as listed\" {{\n  fen \"{}\"\n  expect {assertion}\n}}\n",
        pos.fen()
    ));
    src
}

/// The failures of a scenario file, each with its span and the assertion `--bless` writes.
fn failures(src: &str) -> Result<Vec<Failure>, String> {
    let file = parse_file(src).map_err(|p| format!("{}\n{src}", p[0].message))?;
    let reports = evaluate(&file, src).map_err(|p| format!("{}\n{src}", p[0].message))?;
    let mut out = Vec::new();
    for r in reports {
        if let Some(p) = r.problems.first() {
            return Err(format!("{}\n{src}", p.message));
        }
        out.extend(r.failures);
    }
    Ok(out)
}

/// `expect moves = { ... }` holds with the list `arbiter moves` prints (each entry resolves as
/// a single turn does), and `--bless` of a wrong list writes one that holds at once.
#[allow(dead_code)]
pub fn moves_list_reads_back<R: Rules>(pos: &R, options: &Options) -> Result<(), String> {
    let g = *pos.board().geometry();
    // A decided position a scenario cannot set up (a Cypher King lost beside its own Spy).
    if R::from_fen(g, &pos.fen(), options).is_err() {
        return Ok(());
    }
    let game = Game::new(pos.clone(), options.clone());
    let texts: Vec<String> = game.legal_turns().iter().map(|(_, t)| t.text(&g)).collect();
    let listed = scenario_with(pos, options, &format!("moves = {{ {} }}", texts.join(" ")));
    if let Some(f) = failures(&listed)?.first() {
        return Err(format!(
            "the list `moves` prints fails: {}\n{listed}",
            f.found
        ));
    }
    // A wrong list (one turn left out, or a turn that is not legal), blessed.
    let wrong = match texts.split_last() {
        Some((_, rest)) if !rest.is_empty() => rest.join(" "),
        _ => "pass resign".to_string(),
    };
    let src = scenario_with(pos, options, &format!("moves = {{ {wrong} }}"));
    let found = failures(&src)?;
    let [f] = found.as_slice() else {
        return Err(format!("{} failures of a wrong list\n{src}", found.len()));
    };
    let blessed = f
        .blessed
        .as_deref()
        .ok_or("a wrong list cannot be blessed")?;
    let mut again = src.clone();
    again.replace_range(f.span.clone(), blessed);
    if let Some(f) = failures(&again)?.first() {
        return Err(format!("the blessed list fails: {}\n{again}", f.found));
    }
    Ok(())
}
