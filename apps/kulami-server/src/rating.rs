//! Glicko-2 rating changes, from `skillratings`, with the win/draw/loss counts kept beside them.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, glicko2};

use crate::store::Standing;

/// Both players' standings after one game in which the first scored `first_score` (1 a win, 0.5 a
/// draw, 0 a loss).
#[must_use]
pub fn update(standings: [Standing; 2], first_score: f64) -> [Standing; 2] {
    let outcome = if first_score > 0.5 {
        Outcomes::WIN
    } else if first_score < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (first, second) = glicko2(&standings[0].rating, &standings[1].rating, &outcome, &Glicko2Config::new());
    let count = |standing: Standing, rating, score: f64| Standing {
        rating,
        games: standing.games + 1,
        wins: standing.wins + i64::from(score > 0.5),
        draws: standing.draws + i64::from(score == 0.5),
        losses: standing.losses + i64::from(score < 0.5),
    };
    [count(standings[0], first, first_score), count(standings[1], second, 1.0 - first_score)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_what_the_loser_loses_roughly_and_results_are_counted() {
        let [winner, loser] = update([Standing::default(); 2], 1.0);
        assert!(winner.rating.rating > 1600.0 && loser.rating.rating < 1400.0, "{winner:?} {loser:?}");
        assert!((winner.rating.rating - 1500.0 + loser.rating.rating - 1500.0).abs() < 1e-6);
        assert_eq!((winner.games, winner.wins, winner.losses, loser.losses, loser.draws), (1, 1, 0, 1, 0));
        let [first, second] = update([winner, loser], 0.5);
        assert!(first.rating.rating < winner.rating.rating && second.rating.rating > loser.rating.rating);
        assert_eq!((first.draws, second.draws, second.games), (1, 1, 2));
    }
}
