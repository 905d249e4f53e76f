//! Contempt on a game with draws: the first player picks a row and the second a column of a
//! table of results, from the first player's point of view.

use std::time::Duration;

use game_search::SearchGame;
use game_search::mcts::{self, MctsLimits, MctsOptions};

/// Row 0 draws whatever the reply, row 1 loses to the reply 1, row 2 always loses.
const RESULTS: [[i32; 3]; 3] = [[0, 0, 0], [1, -1, 1], [-1, -1, -1]];

#[derive(Clone, Default)]
struct RowAndColumn {
    picks: Vec<u8>,
}

/// The picks still open, from the first to below the second: all three until both players
/// have picked.
#[derive(Clone, Copy)]
struct Picks(u8, u8);

impl Iterator for Picks {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        (self.0 < self.1).then(|| {
            self.0 += 1;
            self.0 - 1
        })
    }
}

impl SearchGame for RowAndColumn {
    type Move = u8;
    const MOVE_SLOTS: usize = 3;
    type Moves = Picks;

    fn moves(&self) -> Picks {
        Picks(0, if self.picks.len() < 2 { 3 } else { 0 })
    }
    fn move_count(&self) -> usize {
        self.moves().count()
    }
    fn play(&mut self, pick: u8) {
        self.picks.push(pick);
    }
    fn undo(&mut self) {
        self.picks.pop();
    }
    fn hash(&self) -> u64 {
        self.picks.iter().fold(1, |hash, &pick| hash * 4 + u64::from(pick))
    }
    fn ply(&self) -> usize {
        self.picks.len()
    }
    fn moves_left_at_most(&self) -> usize {
        2 - self.picks.len()
    }
    fn terminal_value(&self) -> Option<i32> {
        // After both picks the first player is to move again: the table's own point of view.
        match self.picks[..] {
            [row, column] => Some(RESULTS[usize::from(row)][usize::from(column)]),
            _ => None,
        }
    }
    fn pack(pick: u8) -> u16 {
        u16::from(pick)
    }
    fn unpack(number: u16) -> Option<u8> {
        u8::try_from(number).ok().filter(|&pick| pick < 3)
    }
}

#[test]
fn contempt_scores_a_draw_below_half_a_win_for_the_player_at_the_root() {
    let limits = MctsLimits { time: Duration::from_secs(20), playouts: 3000, threads: 1 };
    for contempt in [0.0, 0.1, 0.25] {
        let options = MctsOptions { contempt, ..MctsOptions::PLAIN };
        let found = mcts::search(&RowAndColumn::default(), None, options, limits, 1, None);
        // The sure draw is still worth more than a row the reply refutes.
        assert_eq!(found.best, Some(0), "contempt {contempt}");
        let draw = found.moves.iter().find(|root| root.mv == 0).expect("row 0");
        assert!((draw.win_rate - (0.5 - contempt)).abs() < 1e-3, "contempt {contempt}: {}", draw.win_rate);
        // The second player still finds the refutation of row 1.
        let gamble = found.moves.iter().find(|root| root.mv == 1).expect("row 1");
        assert_eq!(gamble.line.get(1), Some(&1), "contempt {contempt}: {:?}", gamble.line);
    }
}
