//! How long the engine may think: a time per move, or a share of a game clock.

use std::time::Duration;

/// How long the engine may think: a fixed time per move, or a share of what is left on a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeControl {
    /// This time for every move (levels 4 and 5 and the MCTS player use it; the others search
    /// to their depth).
    PerMove(Duration),
    /// A game clock. Every level answers before it runs out; levels 4 and 5 and the MCTS
    /// player spend more where fewer moves are left to play (see [`TimeControl::budget`]).
    Clock(Clock),
}

/// The side to move's clock as a move begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Time added after each of its moves.
    pub increment: Duration,
}

/// Time kept back from a clock for the reply to travel and the move to be committed.
const CLOCK_RESERVE: Duration = Duration::from_millis(60);

impl TimeControl {
    /// The thinking time for one move when the side to move has at most `own_moves_left` moves
    /// still to play: for a clock, an even share of what is left over the moves to come (plus
    /// two in hand) and most of the increment, never more than half of what is left, and always
    /// 60 ms short of the flag (kept back for the reply to travel and the move to be committed).
    #[must_use]
    pub fn budget(self, own_moves_left: usize) -> Duration {
        match self {
            TimeControl::PerMove(time) => time,
            TimeControl::Clock(Clock { remaining, increment }) => {
                let usable = remaining.saturating_sub(CLOCK_RESERVE);
                let share = usable / (own_moves_left as u32).saturating_add(2).max(1) + increment * 3 / 4;
                share.min(usable / 2)
            }
        }
    }

    /// The cap a clock puts on a search that otherwise ends by depth; none per move.
    pub(crate) fn cap(self, own_moves_left: usize) -> Option<Duration> {
        match self {
            TimeControl::PerMove(_) => None,
            TimeControl::Clock(_) => Some(self.budget(own_moves_left)),
        }
    }
}

impl Default for TimeControl {
    /// One second per move.
    fn default() -> TimeControl {
        TimeControl::PerMove(Duration::from_secs(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_shares_its_time_over_the_moves_left_and_never_reaches_the_flag() {
        let clock = |remaining_ms: u64, increment_ms: u64| {
            TimeControl::Clock(Clock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
            })
        };
        // Move 3 of a five-minute game with 3 s a move: about 26 moves to go.
        let early = clock(300_000, 3000).budget(26);
        assert!(early > Duration::from_secs(8) && early < Duration::from_secs(15), "{early:?}");
        // Later moves get more each, but the budget stays within what is left.
        assert!(clock(60_000, 3000).budget(5) > clock(60_000, 3000).budget(20));
        for (remaining, increment, moves) in [(100, 0, 1), (50, 5000, 1), (0, 0, 3), (1000, 100_000, 28), (200, 0, 0)] {
            let budget = clock(remaining, increment).budget(moves);
            assert!(
                budget + CLOCK_RESERVE <= Duration::from_millis(remaining).max(CLOCK_RESERVE),
                "{remaining} ms + {increment} ms, {moves} moves: {budget:?}"
            );
        }
        assert_eq!(TimeControl::PerMove(Duration::from_millis(250)).budget(3), Duration::from_millis(250));
    }
}
