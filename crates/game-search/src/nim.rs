//! A tiny game to show how a game plugs into the searches (and to test them on a game whose
//! values are known): a pile of counters, each player takes one to three, and whoever takes the
//! last counter wins. The player to move loses exactly when the pile is a multiple of four.

use crate::game::SearchGame;

/// The value of a won game for the player who won it.
pub const WIN: i32 = 100;

/// A pile of counters and the moves that led to it.
///
/// ```
/// use game_search::nim::{Nim, WIN};
/// use game_search::{Evaluator, Limits, SearchGame, Searcher};
///
/// /// Nothing is known before the end: every unfinished pile looks even.
/// struct Even;
/// impl Evaluator<Nim> for Even {
///     fn evaluate(&self, _: &Nim) -> i32 {
///         0
///     }
/// }
///
/// let solved = Searcher::new(1, 1).search(&Nim::new(10), &Even, Limits::default(), None);
/// assert!(solved.exact);
/// assert_eq!((solved.best, solved.value), (Some(2), WIN), "take two, leave eight");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    counters: u8,
    taken: Vec<u8>,
}

impl Nim {
    /// A pile of `counters` (at most 200).
    ///
    /// # Panics
    /// If `counters` is more than 200.
    #[must_use]
    pub fn new(counters: u8) -> Nim {
        assert!(counters <= 200, "a pile of at most 200 counters");
        Nim { counters, taken: Vec::new() }
    }

    /// The counters left.
    #[must_use]
    pub fn counters(&self) -> u8 {
        self.counters
    }
}

/// The legal takes, as a set of bits: bit `n` for taking `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Takes(u8);

impl Iterator for Takes {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let take = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(take)
    }
}

impl SearchGame for Nim {
    type Move = u8;
    type Moves = Takes;
    const MOVE_SLOTS: usize = 4;

    fn moves(&self) -> Takes {
        Takes((1..=self.counters.min(3)).fold(0, |bits, take| bits | 1 << take))
    }

    fn move_count(&self) -> usize {
        usize::from(self.counters.min(3))
    }

    fn play(&mut self, take: u8) {
        self.counters -= take;
        self.taken.push(take);
    }

    fn undo(&mut self) {
        if let Some(take) = self.taken.pop() {
            self.counters += take;
        }
    }

    fn hash(&self) -> u64 {
        // The pile alone decides the game; mixed so that the table's slots spread.
        u64::from(self.counters).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
    }

    fn ply(&self) -> usize {
        self.taken.len()
    }

    fn moves_left_at_most(&self) -> usize {
        usize::from(self.counters)
    }

    /// The player to move with an empty pile lost: the other took the last counter.
    fn terminal_value(&self) -> Option<i32> {
        (self.counters == 0).then_some(-WIN)
    }

    fn pack(take: u8) -> u16 {
        u16::from(take)
    }

    fn unpack(number: u16) -> Option<u8> {
        u8::try_from(number).ok().filter(|take| (1..=3).contains(take))
    }
}

/// For tests of games that wrap Nim (`struct Wrapper(Nim)`): the [`SearchGame`] methods that pass
/// on to the pile unchanged, so that each wrapper writes only what it changes.
#[cfg(test)]
macro_rules! nim_methods {
    () => {
        fn moves(&self) -> crate::nim::Takes {
            self.0.moves()
        }
        fn move_count(&self) -> usize {
            self.0.move_count()
        }
        fn play(&mut self, take: u8) {
            self.0.play(take);
        }
        fn undo(&mut self) {
            self.0.undo();
        }
        fn hash(&self) -> u64 {
            self.0.hash()
        }
        fn ply(&self) -> usize {
            self.0.ply()
        }
        fn moves_left_at_most(&self) -> usize {
            self.0.moves_left_at_most()
        }
    };
}
#[cfg(test)]
pub(crate) use nim_methods;
