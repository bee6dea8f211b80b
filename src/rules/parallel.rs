//! Searches on several threads (rayon's global pool, sized by `--threads`), and the walk near
//! the root that splits a search into subtrees, shared by the threads here and by the
//! command line's `--split`, whose jobs may run on other machines.
//!
//! The sequential searches ([`super::perft_within`], [`Game::invariant_violation`],
//! [`Game::can_force_win`]) stay the reference: each parallel search runs the same inner
//! search on subtrees and combines them so that its answer is the sequential one. Perft sums;
//! the invariant search answers with the violation of the lowest subtree in the generator's
//! order that has one, which is the one the sequential depth-first search meets first; the
//! forced-win search is an any (attacker to move) or an all (defender to move) over the root's
//! subtrees. Once an answer is settled the subtrees that cannot change it are cancelled.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::game::{force_win, invariant_search, repetition_or, History};
use super::search::{self, Budget, Shared, Spend, Stop};
use super::{move_buffers, perft_inner, within_turns, Color, Game, Rules};

/// How many subtrees per thread a parallel search wants before it stops splitting deeper:
/// subtrees differ in size by orders of magnitude, so many small tasks keep every thread busy
/// until the end.
const TASKS_PER_THREAD: u64 = 16;

/// The deepest the parallel searches split (the walk to the split ply is sequential).
const MAX_SPLIT: u32 = 4;

/// A position the split walk reached.
pub(crate) enum Leaf<'a, R: Rules> {
    /// A subtree still to search: the moves that reach it from the root, the position and
    /// its repetition history.
    Open {
        path: &'a [R::Move],
        position: &'a R,
        history: &'a History,
    },
    /// The invariant breaks on the way, after these moves: nothing after this point in the
    /// sequential order can change the answer, so the walk ends here.
    Broken { path: &'a [R::Move], what: String },
}

/// Walks `plies` turns from `game` in the generator's order, as the sequential search would,
/// and hands `visit` each position it reaches at that ply. With an invariant, it checks the
/// invariant at every position on the way and does not go past a decided position (a
/// checkmate, a repetition), exactly as [`Game::invariant_violation`] does; without one it
/// walks as perft does. Interior positions spend their nodes from `budget` as the sequential
/// search spends them, so a split search spends what the whole one does.
pub(crate) fn split<R: Rules, S: Spend, E: From<Stop>>(
    game: &Game<R>,
    invariant: Option<&str>,
    plies: u32,
    budget: &mut S,
    visit: &mut impl FnMut(Leaf<'_, R>) -> Result<(), E>,
) -> Result<(), E> {
    let root = game.position();
    if let Some(name) = invariant {
        if let Err(what) = root.check_invariant(name) {
            return visit(Leaf::Broken { path: &[], what });
        }
        if game.is_declared() {
            return Ok(());
        }
    }
    let mut history = game.history().clone();
    // Ending early (a broken invariant) is no error: the leaf that says so was visited.
    let _ = walk(
        root,
        &mut history,
        invariant,
        plies,
        budget,
        &mut Vec::new(),
        visit,
    )?;
    Ok(())
}

fn walk<R: Rules, S: Spend, E: From<Stop>>(
    pos: &R,
    history: &mut History,
    invariant: Option<&str>,
    plies: u32,
    budget: &mut S,
    path: &mut Vec<R::Move>,
    visit: &mut impl FnMut(Leaf<'_, R>) -> Result<(), E>,
) -> Result<ControlFlow<()>, E> {
    if plies == 0 {
        visit(Leaf::Open {
            path,
            position: pos,
            history,
        })?;
        return Ok(ControlFlow::Continue(()));
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    within_turns::<R>(moves.len())?;
    budget.spend(moves.len() as u64)?;
    if invariant.is_some()
        && repetition_or(pos.outcome_with(!moves.is_empty()), pos, history).is_some()
    {
        return Ok(ControlFlow::Continue(()));
    }
    for m in moves {
        let mut next = pos.clone();
        next.play(m);
        path.push(m);
        if let Some(name) = invariant {
            if let Err(what) = next.check_invariant_after(pos, m, name) {
                visit(Leaf::Broken { path, what })?;
                return Ok(ControlFlow::Break(()));
            }
        }
        history.push(next.repetition_key());
        let flow = walk(&next, history, invariant, plies - 1, budget, path, visit)?;
        history.pop();
        path.pop();
        if flow.is_break() {
            return Ok(flow);
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The canonical texts of `path` played from `root`.
pub fn texts<R: Rules>(root: &R, path: &[R::Move]) -> Vec<String> {
    let g = *root.board().geometry();
    let mut pos = root.clone();
    path.iter()
        .map(|&m| {
            let text = pos.describe(m).text(&g);
            pos.play(m);
            text
        })
        .collect()
}

/// The ply to split at: the shallowest (up to `deepest`) with enough open subtrees for the
/// pool, counted by a walk that spends nothing of the search's budget (its cost is that of
/// perft to a ply or two, nothing next to the search).
fn split_ply<R: Rules>(game: &Game<R>, invariant: Option<&str>, deepest: u32) -> Result<u32, Stop> {
    let want = TASKS_PER_THREAD * rayon::current_num_threads() as u64;
    let mut ply = 1;
    while ply < deepest.min(MAX_SPLIT) {
        let mut open = 0u64;
        split(
            game,
            invariant,
            ply,
            &mut Budget::unlimited(),
            &mut |leaf| {
                open += u64::from(matches!(leaf, Leaf::Open { .. }));
                Ok::<(), Stop>(())
            },
        )?;
        if open >= want {
            break;
        }
        ply += 1;
    }
    Ok(ply)
}

/// Runs `task(0..n)` on the pool, handing out tasks in index order so that low tasks (the
/// ones an ordered answer waits for) start first. A slot stays `None` when its task was
/// skipped (see [`Shared::cancellable`]).
fn ordered<T: Send>(n: usize, task: impl Fn(usize) -> Option<T> + Sync) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads().min(n) {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let result = task(i);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = result;
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// [`super::perft_within`] on the pool: the same count, and the same node total against the
/// shared budget, so the same stop when the budget is short.
pub fn perft<R>(pos: &R, depth: u32, shared: &Shared) -> Result<u64, Stop>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    search::check_depth(depth.into())?;
    // Below three plies the tasks would be single positions counted in bulk.
    if depth < 3 || rayon::current_num_threads() == 1 {
        let result = perft_inner(pos, depth, &mut shared.worker(), &mut move_buffers(depth));
        return shared.finish(result);
    }
    let game = Game::new(pos.clone(), Default::default());
    let ply = split_ply(&game, None, depth - 2)?;
    let mut frontier = Vec::new();
    let walked = split(&game, None, ply, &mut shared.worker(), &mut |leaf| {
        if let Leaf::Open { position, .. } = leaf {
            frontier.push(position.clone());
        }
        Ok::<(), Stop>(())
    });
    if let Err(stop) = walked {
        return shared.finish(Err(stop));
    }
    let rest = depth - ply;
    let result = frontier
        .par_iter()
        .map(|p| {
            let counted = perft_inner(p, rest, &mut shared.worker(), &mut move_buffers(rest));
            if let Err(stop) = counted {
                // A worker's own stop (too many turns) ends the others too.
                shared.halt(stop);
            }
            counted
        })
        .try_reduce(|| 0, |a, b| Ok(a + b));
    shared.finish(result)
}

/// A subtree of a parallel invariant search.
enum Task<R: Rules> {
    Open {
        path: Vec<R::Move>,
        position: R,
        history: History,
    },
    Broken {
        path: Vec<R::Move>,
        what: String,
    },
}

/// [`Game::invariant_violation`] on the pool: the same answer, the violation the sequential
/// search finds first.
pub fn invariant_violation<R>(
    game: &Game<R>,
    name: &str,
    depth: u32,
    shared: &Shared,
) -> Result<Option<(Vec<String>, String)>, Stop>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    search::check_depth(depth.into())?;
    let root = game.position();
    if let Err(what) = root.check_invariant(name) {
        return Ok(Some((Vec::new(), what)));
    }
    if game.is_declared() || depth == 0 {
        return Ok(None);
    }
    if depth < 2 || rayon::current_num_threads() == 1 {
        let mut history = game.history().clone();
        let mut path = Vec::new();
        let found = invariant_search(
            root,
            &mut history,
            name,
            depth,
            &mut shared.worker(),
            &mut path,
        );
        return match found {
            Ok(Some(what)) => Ok(Some((texts(root, &path), what))),
            Ok(None) => shared.finish(Ok(None)),
            Err(stop) => Err(shared.stop().unwrap_or(stop)),
        };
    }
    // The tasks are the subtrees at `ply`, each searched to the remaining depth; the walk
    // checks everything above them.
    let ply = split_ply(game, Some(name), depth - 1)?;
    let mut tasks: Vec<Task<R>> = Vec::new();
    let walked = split(game, Some(name), ply, &mut shared.worker(), &mut |leaf| {
        tasks.push(match leaf {
            Leaf::Open {
                path,
                position,
                history,
            } => Task::Open {
                path: path.to_vec(),
                position: position.clone(),
                history: history.clone(),
            },
            Leaf::Broken { path, what } => Task::Broken {
                path: path.to_vec(),
                what,
            },
        });
        Ok::<(), Stop>(())
    });
    if let Err(stop) = walked {
        return Err(shared.stop().unwrap_or(stop));
    }
    let rest = depth - ply;
    // The lowest task that has settled the answer: a violation or a stop.
    let first = AtomicUsize::new(usize::MAX);
    let results = ordered(tasks.len(), |i| {
        if first.load(Ordering::Relaxed) < i {
            return None;
        }
        let result = match &tasks[i] {
            Task::Broken { path, what } => Ok(Some((path.clone(), what.clone()))),
            Task::Open {
                path,
                position,
                history,
            } => {
                let mut history = history.clone();
                let mut below = Vec::new();
                let mut worker = shared.cancellable(&first, i);
                invariant_search(position, &mut history, name, rest, &mut worker, &mut below).map(
                    |found| {
                        found.map(|what| {
                            let mut whole = path.clone();
                            whole.extend(below);
                            (whole, what)
                        })
                    },
                )
            }
        };
        if !matches!(result, Ok(None)) {
            first.fetch_min(i, Ordering::Relaxed);
        }
        Some(result)
    });
    // Every task below the first settled one ran to its end, so the first one that is not
    // `Ok(None)` is the sequential search's answer; tasks above it may have been cancelled.
    for result in results {
        match result {
            Some(Ok(None)) => continue,
            Some(Ok(Some((path, what)))) => return Ok(Some((texts(root, &path), what))),
            Some(Err(stop)) => return Err(stop),
            None => break,
        }
    }
    shared.finish(Ok(None))
}

/// [`Game::can_force_win`] on the pool: the same answer, each deepening step split over the
/// root's turns.
pub fn can_force_win<R>(
    game: &Game<R>,
    color: Color,
    turns: u32,
    shared: &Shared,
) -> Result<bool, Stop>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    search::check_depth(u64::from(turns) * 2)?;
    if let Some(o) = game.outcome() {
        return Ok(o.winner == Some(color));
    }
    for within in 0..=turns {
        if force_win_root(game.position(), color, within, shared)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The root of [`force_win`], its subtrees on the pool.
fn force_win_root<R>(pos: &R, color: Color, turns: u32, shared: &Shared) -> Result<bool, Stop>
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    within_turns::<R>(moves.len())?;
    shared.worker().spend(moves.len().max(1) as u64)?;
    if let Some(o) = pos.outcome_with(!moves.is_empty()) {
        return Ok(o.winner == Some(color));
    }
    let attacker = pos.turn() == color;
    if attacker && turns == 0 {
        return Ok(false);
    }
    let below = if attacker { turns - 1 } else { turns };
    // The answer a single subtree settles: a win for the attacker, a refutation for the
    // defender. Once one is found every other subtree is cancelled (all have index 1).
    let settles = attacker;
    let settled = AtomicUsize::new(usize::MAX);
    let results = ordered(moves.len(), |i| {
        if settled.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut next = pos.clone();
        next.play(moves[i]);
        let result = force_win(&next, color, below, &mut shared.cancellable(&settled, 1));
        match result {
            Ok(won) if won == settles => {
                settled.store(0, Ordering::Relaxed);
            }
            Err(stop) if settled.load(Ordering::Relaxed) != 0 => {
                shared.halt(stop);
            }
            _ => {}
        }
        Some(result)
    });
    if settled.load(Ordering::Relaxed) == 0 {
        return Ok(settles);
    }
    for result in results.into_iter().flatten() {
        if let Err(stop) = result {
            return Err(shared.stop().unwrap_or(stop));
        }
    }
    Ok(!settles)
}
