//! Match statistics: score, Elo difference with its 95% interval, and the sequential
//! probability ratio test used by engine testers to stop a match once the answer is clear.

/// Wins, draws and losses of one player against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// A finished sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The player is at least `elo1` stronger (H1 accepted).
    Stronger,
    /// The player is at most `elo0` stronger (H0 accepted).
    NotStronger,
}

/// The expected score of a player `elo` points stronger.
#[must_use]
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `score` (±infinity at 1 and 0).
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// A player's strength apart from who moves first, and what moving first is worth, in Elo, from
/// its scores with the first move and without (each 0 to 1), `(strength, first_move_edge)`:
/// the model scores `expected_score(strength + edge)` moving first and
/// `expected_score(strength - edge)` moving second. Where moving first is worth much, a match
/// that swaps colours pulls the overall score towards 50%, and the Elo of that score understates
/// how much stronger the player is. `None` if either score is 0 or 1, which no finite Elo gives.
///
/// ```
/// use game_search::stats::colour_split;
/// // 95% moving first and 50% moving second: 256 Elo stronger, and moving first is worth
/// // as much again.
/// let (strength, edge) = colour_split(0.95, 0.5).unwrap();
/// assert_eq!((strength.round(), edge.round()), (256.0, 256.0));
/// assert_eq!(colour_split(1.0, 0.5), None);
/// ```
#[must_use]
pub fn colour_split(first: f64, second: f64) -> Option<(f64, f64)> {
    let inside = |score: f64| score > 0.0 && score < 1.0;
    if !inside(first) || !inside(second) {
        return None;
    }
    let (first, second) = (elo_from_score(first), elo_from_score(second));
    Some(((first + second) / 2.0, (first - second) / 2.0))
}

impl Tally {
    /// Adds one game's result: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean points per game, 0 to 1.
    #[must_use]
    pub fn score(&self) -> f64 {
        moments(self.counts()).0
    }

    /// The variance of one game's points.
    fn variance(&self) -> f64 {
        moments(self.counts()).1
    }

    /// `[wins, draws, losses]`.
    fn counts(&self) -> [f64; 3] {
        [self.wins, self.draws, self.losses].map(f64::from)
    }

    /// The Elo difference and its 95% confidence interval `(low, estimate, high)`, from the normal
    /// approximation of the mean score. A bound whose score interval reaches 0 or 1 is infinite
    /// (a match nearly all won has no upper bound), never NaN.
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let margin = 1.959_964 * (self.variance() / n).sqrt();
        let s = self.score();
        (elo_from_score((s - margin).max(0.0)), elo_from_score(s), elo_from_score((s + margin).min(1.0)))
    }

    /// The log-likelihood ratio of "`elo1` stronger" against "`elo0` stronger" (the normal
    /// approximation used by fishtest and fastchess).
    ///
    /// A result that has not happened yet counts as half a game, so that a match all won, all
    /// drawn or all lost still has a variance and comes to a verdict.
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let counts = self.counts().map(|count| if count == 0.0 { 0.5 } else { count });
        let games: f64 = counts.iter().sum();
        let (score, variance) = moments(counts);
        let (s0, s1) = (expected_score(elo0), expected_score(elo1));
        games * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The test's verdict with error rates `alpha` (false "stronger") and `beta` (false "not
    /// stronger"), or `None` while more games are needed.
    #[must_use]
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<SprtVerdict> {
        let llr = self.llr(elo0, elo1);
        if llr >= ((1.0 - beta) / alpha).ln() {
            Some(SprtVerdict::Stronger)
        } else if llr <= (beta / (1.0 - alpha)).ln() {
            Some(SprtVerdict::NotStronger)
        } else {
            None
        }
    }
}

/// Tallies games by each one's points: `[1.0, 0.5].into_iter().collect::<Tally>()`.
impl FromIterator<f64> for Tally {
    fn from_iter<I: IntoIterator<Item = f64>>(points: I) -> Tally {
        let mut tally = Tally::default();
        for game in points {
            tally.add(game);
        }
        tally
    }
}

/// The mean points per game and the variance of one game's points, of games counted as
/// `[wins, draws, losses]` (0 and 0 for no games).
fn moments([wins, draws, losses]: [f64; 3]) -> (f64, f64) {
    let games = (wins + draws + losses).max(1.0);
    let score = (wins + 0.5 * draws) / games;
    let variance = (wins * (1.0 - score).powi(2) + draws * (0.5 - score).powi(2) + losses * score.powi(2)) / games;
    (score, variance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((expected_score(elo_from_score(0.9)) - 0.9).abs() < 1e-9);
        let tally = Tally { wins: 60, draws: 20, losses: 20 };
        assert!((tally.score() - 0.7).abs() < 1e-9);
        let (low, elo, high) = tally.elo();
        assert!(low < elo && elo < high && (elo - 147.19).abs() < 0.01, "{low} {elo} {high}");
    }

    #[test]
    fn lopsided_matches_have_infinite_bounds_not_nan() {
        let (low, elo, high) = Tally { wins: 97, draws: 3, losses: 0 }.elo();
        assert!(low.is_finite() && elo.is_finite() && low < elo, "{low} {elo}");
        assert_eq!(high, f64::INFINITY);
        let (low, elo, high) = Tally { wins: 0, draws: 2, losses: 98 }.elo();
        assert_eq!(low, f64::NEG_INFINITY);
        assert!(elo.is_finite() && high.is_finite() && elo < high, "{elo} {high}");
        let (low, elo, high) = Tally { wins: 10, draws: 0, losses: 0 }.elo();
        assert_eq!((low, elo, high), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
    }

    #[test]
    fn sprt_decides_clear_cases_only() {
        let clear = Tally { wins: 300, draws: 50, losses: 50 };
        assert_eq!(clear.sprt(0.0, 10.0, 0.05, 0.05), Some(SprtVerdict::Stronger));
        let even = Tally { wins: 200, draws: 100, losses: 200 };
        assert_eq!(even.sprt(0.0, 50.0, 0.05, 0.05), Some(SprtVerdict::NotStronger));
        let few = Tally { wins: 3, draws: 1, losses: 2 };
        assert_eq!(few.sprt(0.0, 10.0, 0.05, 0.05), None);
        // A match with one kind of result only still decides, but not at once.
        let won = |wins| Tally { wins, draws: 0, losses: 0 }.sprt(0.0, 100.0, 0.05, 0.05);
        assert_eq!((won(3), won(10)), (None, Some(SprtVerdict::Stronger)));
        let lost = Tally { wins: 0, draws: 0, losses: 10 };
        assert_eq!(lost.sprt(0.0, 100.0, 0.05, 0.05), Some(SprtVerdict::NotStronger));
        let drawn = Tally { wins: 0, draws: 40, losses: 0 };
        assert_eq!(drawn.sprt(0.0, 100.0, 0.05, 0.05), Some(SprtVerdict::NotStronger));
        let tally: Tally = [1.0, 0.5, 0.0, 1.0].into_iter().collect();
        assert_eq!(tally, Tally { wins: 2, draws: 1, losses: 1 });
    }
}
