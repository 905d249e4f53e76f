//! Matches between two players of any game: every start played twice, player A first and then
//! second, several games at a time. The game and its players are the caller's: [`run`] only
//! deals out the games to threads, collects their outcomes and stops when asked.
//!
//! ```
//! use std::ops::ControlFlow;
//! use game_search::matches::{Pairing, run};
//! use game_search::nim::Nim;
//! use game_search::{Evaluator, Limits, SearchGame, Searcher};
//!
//! struct Even;
//! impl Evaluator<Nim> for Even {
//!     fn evaluate(&self, _: &Nim) -> i32 {
//!         0
//!     }
//! }
//!
//! // A perfect player (A) against one that always takes one counter (B), on piles of 5 to 8.
//! let play = |_: &mut (), pairing: Pairing| {
//!     let mut game = Nim::new(5 + pairing.start as u8);
//!     let mut a_to_move = pairing.a_first;
//!     while game.terminal_value().is_none() {
//!         let take = if a_to_move {
//!             Searcher::new(1, 1).search(&game, &Even, Limits::default(), None).best.unwrap()
//!         } else {
//!             1
//!         };
//!         game.play(take);
//!         a_to_move = !a_to_move;
//!     }
//!     // The player who took the last counter won: the one not to move now.
//!     if a_to_move { 0.0 } else { 1.0 }
//! };
//! let outcomes = run(&Pairing::every(4), 2, || (), play, |_, _| ControlFlow::Continue(()));
//! assert_eq!(outcomes.len(), 8);
//! assert_eq!(outcomes[0].0, Pairing { start: 0, a_first: true });
//! // Taking one every time loses every game to perfect play, even from a pile of 8 with A first.
//! assert!(outcomes.iter().all(|(_, points)| *points == 1.0));
//! ```

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One game of a match: the start it is played from, and whether player A moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// The start's index, from 0.
    pub start: usize,
    /// Whether player A moves first (each start is played both ways).
    pub a_first: bool,
}

impl Pairing {
    /// The games of a match of `starts` starts, in order: each start with A first, then second.
    #[must_use]
    pub fn every(starts: usize) -> Vec<Pairing> {
        (0..starts).flat_map(|start| [true, false].map(|a_first| Pairing { start, a_first })).collect()
    }
}

/// Plays the games `pairings` (usually [`Pairing::every`] start twice; fewer to finish a match
/// begun earlier) on up to `concurrency` threads, in their order.
/// Each thread builds its own players with `players()` and plays each of its games with
/// `play(&mut players, pairing)`; `on_game` hears of each game as it ends (from any thread) and
/// may stop the match by returning `ControlFlow::Break` (games under way still finish). Returns
/// the games played with their outcomes, in the order of `pairings`.
///
/// # Panics
/// If `players`, `play` or `on_game` panics (the panic is passed on).
pub fn run<P, O: Send>(
    pairings: &[Pairing],
    concurrency: usize,
    players: impl Fn() -> P + Sync,
    play: impl Fn(&mut P, Pairing) -> O + Sync,
    on_game: impl Fn(Pairing, &O) -> ControlFlow<()> + Sync,
) -> Vec<(Pairing, O)> {
    let games = pairings.len();
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let outcomes = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for _ in 0..concurrency.clamp(1, games.max(1)) {
            scope.spawn(|| {
                let mut players = players();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games || stopped.load(Ordering::Relaxed) {
                        break;
                    }
                    let pairing = pairings[index];
                    let outcome = play(&mut players, pairing);
                    if on_game(pairing, &outcome).is_break() {
                        stopped.store(true, Ordering::Relaxed);
                    }
                    outcomes.lock().expect("no thread panics holding it").push((index, pairing, outcome));
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().expect("no thread panicked");
    outcomes.sort_by_key(|&(index, _, _)| index);
    outcomes.into_iter().map(|(_, pairing, outcome)| (pairing, outcome)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_is_played_both_ways_once_each_thread_with_its_own_players() {
        let built = AtomicUsize::new(0);
        let outcomes = run(
            &Pairing::every(5),
            2,
            || {
                built.fetch_add(1, Ordering::Relaxed);
                std::thread::current().id()
            },
            |thread, pairing| (*thread, pairing),
            |_, _| ControlFlow::Continue(()),
        );
        let pairings: Vec<Pairing> = outcomes.iter().map(|(pairing, _)| *pairing).collect();
        assert_eq!(pairings, Pairing::every(5));
        assert_eq!(
            pairings[..3],
            [(0, true), (0, false), (1, true)].map(|(start, a_first)| Pairing { start, a_first })
        );
        assert!(outcomes.iter().all(|(pairing, (_, seen))| pairing == seen));
        assert_eq!(built.load(Ordering::Relaxed), 2, "one set of players a thread");
        // Each game was played on a thread with that thread's players.
        assert!(outcomes.iter().all(|(_, (thread, _))| *thread != std::thread::current().id()));
    }

    #[test]
    fn a_match_stops_when_asked_and_an_empty_one_plays_nothing() {
        let stopped = run(&Pairing::every(10), 1, || (), |_, pairing| pairing.start, |_, _| ControlFlow::Break(()));
        assert_eq!(stopped.len(), 1);
        let none: Vec<(Pairing, ())> = run(&[], 4, || (), |_, _| (), |_, _| ControlFlow::Continue(()));
        assert!(none.is_empty());
    }

    #[test]
    fn only_the_pairings_given_are_played_in_their_order() {
        let rest = [Pairing { start: 3, a_first: false }, Pairing { start: 1, a_first: true }];
        let played = run(&rest, 2, || (), |_, pairing| pairing, |_, _| ControlFlow::Continue(()));
        assert_eq!(played, rest.map(|pairing| (pairing, pairing)));
    }
}
