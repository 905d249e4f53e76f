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
        moments(&GAME_SCORES, &self.counts()).0
    }

    /// `[wins, draws, losses]`, as [`GAME_SCORES`] counts them.
    fn counts(&self) -> [f64; 3] {
        [self.wins, self.draws, self.losses].map(f64::from)
    }

    /// The Elo difference and its 95% confidence interval `(low, estimate, high)`, from the normal
    /// approximation of the mean score. A bound whose score interval reaches 0 or 1 is infinite
    /// (a match nearly all won has no upper bound), never NaN.
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        elo_interval(&GAME_SCORES, &self.counts())
    }

    /// The log-likelihood ratio of "`elo1` stronger" against "`elo0` stronger" (the normal
    /// approximation used by fishtest and fastchess).
    ///
    /// A result that has not happened yet counts as half a game, so that a match all won, all
    /// drawn or all lost still has a variance and comes to a verdict.
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&GAME_SCORES, &self.counts(), elo0, elo1)
    }

    /// The test's verdict with error rates `alpha` (false "stronger") and `beta` (false "not
    /// stronger"), or `None` while more games are needed.
    #[must_use]
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<SprtVerdict> {
        verdict(self.llr(elo0, elo1), alpha, beta)
    }
}

/// Pairs of games from the same start, one with each colour, counted by the pair's points (0,
/// 0.5, 1, 1.5 or 2: the pentanomial count of fishtest and fastchess). Where moving first is
/// worth much, the two games of a pair lean opposite ways, and a pair's points vary far less
/// than two games drawn at random: the Elo interval is narrower and the test decides sooner
/// than [`Tally`]'s, from the same games.
///
/// ```
/// use game_search::stats::{PairTally, Tally};
/// // Every start won with the first move, and three of four drawn without: the same score
/// // either way, but the pairs hardly vary, so their interval is narrower.
/// let games: Tally = [1.0, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0, 0.5].into_iter().collect();
/// let pairs: PairTally = [(1.0, 0.5), (1.0, 0.0), (1.0, 0.5), (1.0, 0.5)].into_iter().collect();
/// assert_eq!((games.score(), pairs.score()), (0.6875, 0.6875));
/// let ((low, _, high), (pair_low, _, pair_high)) = (games.elo(), pairs.elo());
/// assert!(pair_high - pair_low < high - low);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTally {
    /// How many pairs scored 0, 0.5, 1, 1.5 and 2 points.
    pub counts: [u32; 5],
}

impl PairTally {
    /// Adds a pair: the points (1, 0.5 or 0) of its two games.
    pub fn add(&mut self, first: f64, second: f64) {
        let halves = ((first + second) * 2.0).round().clamp(0.0, 4.0);
        self.counts[halves as usize] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean points per game, 0 to 1.
    #[must_use]
    pub fn score(&self) -> f64 {
        moments(&PAIR_SCORES, &self.float_counts()).0
    }

    fn float_counts(&self) -> [f64; 5] {
        self.counts.map(f64::from)
    }

    /// The Elo difference and its 95% confidence interval, as [`Tally::elo`] but from the
    /// variance of the pairs.
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        elo_interval(&PAIR_SCORES, &self.float_counts())
    }

    /// The log-likelihood ratio, as [`Tally::llr`] but from the pairs (an outcome not seen yet
    /// counts as half a pair).
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&PAIR_SCORES, &self.float_counts(), elo0, elo1)
    }

    /// The test's verdict, as [`Tally::sprt`] but from the pairs.
    #[must_use]
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<SprtVerdict> {
        verdict(self.llr(elo0, elo1), alpha, beta)
    }
}

/// Tallies pairs by their games' points: `[(1.0, 0.5)].into_iter().collect::<PairTally>()`.
impl FromIterator<(f64, f64)> for PairTally {
    fn from_iter<I: IntoIterator<Item = (f64, f64)>>(pairs: I) -> PairTally {
        let mut tally = PairTally::default();
        for (first, second) in pairs {
            tally.add(first, second);
        }
        tally
    }
}

/// A match's games as they end, each start played once with each colour: counted game by game
/// and, once both games of a start are in, as a pair. Its interval and test are the pairs'.
///
/// ```
/// use game_search::stats::MatchTally;
/// let mut tally = MatchTally::default();
/// tally.add(0, 1.0);
/// tally.add(1, 1.0);
/// tally.add(0, 0.5);
/// assert_eq!((tally.games.games(), tally.pairs.pairs()), (3, 1));
/// assert_eq!(tally.pairs.counts, [0, 0, 0, 1, 0]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Every game.
    pub games: Tally,
    /// The starts both of whose games are in.
    pub pairs: PairTally,
    /// The points of the first game of each start whose other game is still to come.
    waiting: std::collections::HashMap<usize, f64>,
}

impl MatchTally {
    /// Adds a game from `start` that player A scored `points` in.
    pub fn add(&mut self, start: usize, points: f64) {
        self.games.add(points);
        match self.waiting.remove(&start) {
            Some(first) => self.pairs.add(first, points),
            None => {
                self.waiting.insert(start, points);
            }
        }
    }

    /// The Elo difference and its 95% interval, from the pairs ([`PairTally::elo`]), or from
    /// the games while no pair is complete.
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        if self.pairs.pairs() == 0 { self.games.elo() } else { self.pairs.elo() }
    }

    /// The log-likelihood ratio of the pairs ([`PairTally::llr`]).
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        self.pairs.llr(elo0, elo1)
    }

    /// The test's verdict from the pairs ([`PairTally::sprt`]).
    #[must_use]
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<SprtVerdict> {
        self.pairs.sprt(elo0, elo1, alpha, beta)
    }
}

/// The score of a game won, drawn and lost: the values [`Tally`] counts.
const GAME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];

/// The score per game of a pair with 0 to 2 points: the values [`PairTally`] counts.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The mean and the variance of samples counted by value (`counts[i]` samples of `values[i]`;
/// 0 and 0 for none).
fn moments(values: &[f64], counts: &[f64]) -> (f64, f64) {
    let samples = counts.iter().sum::<f64>().max(1.0);
    let mean = values.iter().zip(counts).map(|(value, count)| value * count).sum::<f64>() / samples;
    let variance =
        values.iter().zip(counts).map(|(value, count)| count * (value - mean).powi(2)).sum::<f64>() / samples;
    (mean, variance)
}

/// The Elo of the mean score and its 95% interval, by the normal approximation.
fn elo_interval(values: &[f64], counts: &[f64]) -> (f64, f64, f64) {
    let samples = counts.iter().sum::<f64>().max(1.0);
    let (score, variance) = moments(values, counts);
    let margin = 1.959_964 * (variance / samples).sqrt();
    (elo_from_score((score - margin).max(0.0)), elo_from_score(score), elo_from_score((score + margin).min(1.0)))
}

/// The log-likelihood ratio of the generalized SPRT, an unseen value counted as half a sample.
fn llr(values: &[f64], counts: &[f64], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&count| count == 0.0) {
        return 0.0;
    }
    let counts: Vec<f64> = counts.iter().map(|&count| if count == 0.0 { 0.5 } else { count }).collect();
    let samples: f64 = counts.iter().sum();
    let (score, variance) = moments(values, &counts);
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    samples * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
}

/// The SPRT's verdict on `llr` with error rates `alpha` and `beta`.
fn verdict(llr: f64, alpha: f64, beta: f64) -> Option<SprtVerdict> {
    if llr >= ((1.0 - beta) / alpha).ln() {
        Some(SprtVerdict::Stronger)
    } else if llr <= (beta / (1.0 - alpha)).ln() {
        Some(SprtVerdict::NotStronger)
    } else {
        None
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

    #[test]
    fn pairs_decide_sooner_where_the_first_move_decides_much() {
        // The first 15 boards of level 5 against MCTS at 1 s (README, Strength): the first move
        // nearly always won, the second mostly drawn.
        let pairs: Vec<(f64, f64)> = [((1.0, 0.5), 9), ((1.0, 1.0), 1), ((1.0, 0.0), 4), ((0.5, 0.5), 1)]
            .into_iter()
            .flat_map(|(pair, count)| std::iter::repeat_n(pair, count))
            .collect();
        let games: Tally = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        assert_eq!(games, Tally { wins: 15, draws: 11, losses: 4 });
        let paired: PairTally = pairs.iter().copied().collect();
        assert_eq!((paired.pairs(), paired.counts), (15, [0, 0, 5, 9, 1]));
        assert!((games.score() - paired.score()).abs() < 1e-12);
        let ((low, elo, high), (pair_low, pair_elo, pair_high)) = (games.elo(), paired.elo());
        assert!((elo - pair_elo).abs() < 1e-9);
        assert!(low < pair_low && pair_high < high, "{low} {pair_low} {pair_high} {high}");
        // "250 stronger" is ruled out from the pairs after 30 games, not yet from the games.
        assert_eq!(paired.sprt(100.0, 250.0, 0.05, 0.05), Some(SprtVerdict::NotStronger));
        assert_eq!(games.sprt(100.0, 250.0, 0.05, 0.05), None);
        // Every pair alike still has a variance, and no pairs say nothing.
        let alike: PairTally = [(1.0, 0.5); 20].into_iter().collect();
        assert_eq!(alike.counts, [0, 0, 0, 20, 0]);
        assert!(alike.llr(0.0, 100.0).is_finite());
        assert_eq!(PairTally::default().llr(0.0, 100.0), 0.0);
    }
}
