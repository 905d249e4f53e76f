//! Puzzles: positions with one clearly best move, proved by the exact solver, and the daily
//! puzzle. A move is clearly best if it is the only one that wins, or if it ends at least
//! [`CLEAR_GAP`] points better than any other.
//!
//! The bank (`data/puzzles.txt`, embedded) is made by `cargo xtask puzzles` with [`find`] over
//! seeded boards and games; [`daily`] picks the same puzzle for the same date everywhere.

use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use kulami_core::notation::ParseMovesError;
use kulami_core::notation::{format_moves, parse_moves};
use kulami_core::{
    Cell, Layout, MarblesError, Move, MoveError, ParseCellError, ParseLayoutError, ParseScoringError, Position,
    ReplayError, Scoring,
};
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng as _, SeedableRng as _};

use crate::SearchGame;
use crate::engine::pick_near_best;
use crate::eval::{KulamiEvaluator, named_weights};
use crate::kulami::{KulamiState, POINT};
use game_search::{Limits, Searcher};

/// The least lead, in points, of a clearly best move over the next best that does not change
/// who wins.
pub const CLEAR_GAP: i32 = 2;

/// A position with one clearly best move, with the proof's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The board.
    pub layout: Arc<Layout>,
    /// The scoring in force.
    pub scoring: Scoring,
    /// The moves that lead to the puzzle.
    pub moves: Vec<Cell>,
    /// The clearly best move.
    pub answer: Cell,
    /// The final margin, in points, for the side to move after the answer under best play.
    pub margin: i32,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
    /// The answer and best play after it, to the end or as far as the proof's line goes.
    pub variation: Vec<Cell>,
}

/// How an answer to a puzzle fared.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Verdict {
    /// The best move.
    Right,
    /// Another legal move: the opponent's best play after it, and the final margin (in points,
    /// for the player who answered) it leads to, below the answer's.
    Wrong {
        /// The answer and best play after it.
        refutation: Vec<Cell>,
        /// The final margin for the player who answered.
        margin: i32,
    },
    /// Not a legal move here.
    Illegal(MoveError),
}

impl Puzzle {
    /// The puzzle's position.
    ///
    /// # Panics
    /// Never for puzzles from [`find`] or [`bank`], whose moves are checked.
    #[must_use]
    pub fn position(&self) -> Position {
        Position::from_moves(Arc::clone(&self.layout), &as_moves(&self.moves)).expect("puzzle moves are legal")
    }

    /// Judges `answer`; a wrong one is refuted by the exact solver.
    #[must_use]
    pub fn check(&self, answer: Cell) -> Verdict {
        if answer == self.answer {
            return Verdict::Right;
        }
        let mut position = self.position();
        if let Err(error) = position.play(answer) {
            return Verdict::Illegal(error);
        }
        let state = KulamiState::new(position, self.scoring);
        let reply = solve(&state);
        let mut refutation = vec![answer];
        refutation.extend(reply.pv);
        Verdict::Wrong { refutation, margin: -reply.value / POINT }
    }
}

/// An exact search (the puzzles are within the untimed solver's reach).
fn solve(state: &KulamiState) -> crate::SearchResult<Cell> {
    // A puzzle proof is a few thousand nodes: a small table does.
    Searcher::new(16, 1).search(state, &bank_evaluator(), Limits::default(), None)
}

/// The evaluation the bank is made with (its games' moves, the solver's move order, and so its
/// lines, and the quick look that rates difficulty): the weights of the casual self-play fit,
/// from before the evaluation weighed tile states, so that a better evaluation for play leaves
/// the bank, and so every date's puzzle, as it was made.
fn bank_evaluator() -> KulamiEvaluator {
    KulamiEvaluator {
        opening: named_weights([13, 53, 9, 0, 51, 135, 39, 0, 0, 0, 0, 0, 0]),
        end: named_weights([37, 60, 11, 22, 105, 92, 42, 0, 0, 0, 0, 0, 0]),
    }
}

/// The puzzle that `seed` gives on `layout`, if any: a game of plausible moves (seeded: a random
/// one of those within a point of the best by a two-ply search, and one in four any legal move)
/// up to `plies_left` plies before the end, kept if one move there is clearly best.
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::puzzle::{Verdict, find};
/// use kulami_core::{Layout, Scoring};
/// let layout = Arc::new(Layout::parse("AABBCC/DDEEFF/GGHHII/JJKKLL").unwrap());
/// let puzzle = (0..50).find_map(|seed| find(&layout, Scoring::Standard, seed, 8)).unwrap();
/// assert!(puzzle.position().legal_moves().contains(puzzle.answer));
/// assert_eq!(puzzle.check(puzzle.answer), Verdict::Right);
/// ```
#[must_use]
pub fn find(layout: &Arc<Layout>, scoring: Scoring, seed: u64, plies_left: usize) -> Option<Puzzle> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    // The moves of the former casual level, so that the bank stays as it was made.
    let mut move_rng = Pcg64Mcg::seed_from_u64(seed);
    let evaluator = bank_evaluator();
    let mut position = Position::new(Arc::clone(layout));
    loop {
        let state = KulamiState::new(position.clone(), scoring);
        if state.terminal_value().is_some() {
            return None;
        }
        if state.moves_left_at_most() <= plies_left {
            break;
        }
        // One move in four at random, so that games from different seeds part early.
        let legal: Vec<Cell> = position.legal_moves().iter().collect();
        let cell = if rng.next_u64().is_multiple_of(4) {
            legal[(rng.next_u64() % legal.len() as u64) as usize]
        } else {
            pick_near_best(&state, &evaluator, 2, POINT, &mut move_rng)?.0
        };
        position.play_unchecked(cell);
    }
    let state = KulamiState::new(position.clone(), scoring);
    let ranked = Searcher::new(16, 1).rank_moves(&state, &evaluator, Limits::default());
    let [(answer, best), (_, second), ..] = ranked.moves[..] else { return None };
    let only_win = best > 0 && second <= 0;
    if !ranked.exact || ranked.moves.len() < 3 || !(only_win || best - second >= CLEAR_GAP * POINT) {
        return None;
    }
    let mut after = state.clone();
    after.play(answer);
    let mut variation = vec![answer];
    variation.extend(solve(&after).pv);
    // Harder: more plies to see through, more moves to choose from, and a quick look that
    // picks another move.
    let quick = Searcher::new(1, 1).search(&state, &evaluator, Limits::depth(2), None);
    let difficulty = 1
        + u8::from(state.moves_left_at_most() >= 12)
        + u8::from(state.moves_left_at_most() >= 14)
        + u8::from(ranked.moves.len() >= 6)
        + u8::from(quick.best != Some(answer));
    Some(Puzzle {
        layout: Arc::clone(layout),
        scoring,
        moves: position.placements().to_vec(),
        answer,
        margin: best / POINT,
        difficulty,
        variation,
    })
}

/// A line of the bank that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle line {line}: {problem}")]
pub struct ParsePuzzleError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: PuzzleProblem,
}

/// What is wrong with a puzzle's line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleProblem {
    /// Not eight fields.
    #[error("expected 8 fields separated by `|`, found {0}")]
    Fields(usize),
    /// The marble count is not a number.
    #[error("`{0}` is not a number of marbles")]
    MarblesNumber(String),
    /// The board is not valid.
    #[error("bad layout: {0}")]
    Layout(#[from] ParseLayoutError),
    /// The marble count does not suit the board.
    #[error(transparent)]
    Marbles(#[from] MarblesError),
    /// A bad scoring name.
    #[error(transparent)]
    Scoring(#[from] ParseScoringError),
    /// A bad move list.
    #[error(transparent)]
    Moves(#[from] ParseMovesError),
    /// A swap among the moves: puzzles are placements only.
    #[error("puzzles have no swap")]
    Swap,
    /// The answer is not a cell.
    #[error(transparent)]
    Answer(#[from] ParseCellError),
    /// The margin is not a number.
    #[error("`{0}` is not a margin")]
    Margin(String),
    /// The difficulty is not 1 to 5.
    #[error("`{0}` is not a difficulty from 1 to 5")]
    Difficulty(String),
    /// A move leading to the puzzle is illegal.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The answer is illegal in the puzzle's position.
    #[error("the answer {answer}: {error}")]
    IllegalAnswer {
        /// The answer.
        answer: Cell,
        /// Why it is illegal.
        error: MoveError,
    },
}

fn as_moves(cells: &[Cell]) -> Vec<Move> {
    cells.iter().copied().map(Move::Place).collect()
}

fn placements(text: &str) -> Result<Vec<Cell>, PuzzleProblem> {
    parse_moves(text)?.into_iter().map(|played| played.cell().ok_or(PuzzleProblem::Swap)).collect()
}

impl fmt::Display for Puzzle {
    /// One line: `layout|marbles|scoring|moves|answer|margin|difficulty|variation`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}|{}|{}|{}|{}|{}|{}|{}",
            self.layout.to_one_line(),
            self.layout.marbles_per_player(),
            self.scoring,
            format_moves(&self.moves),
            self.answer,
            self.margin,
            self.difficulty,
            format_moves(&self.variation)
        )
    }
}

/// A puzzle serializes as its line (see `Display`), and is checked again when read.
#[cfg(feature = "serde")]
impl serde::Serialize for Puzzle {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Puzzle {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Puzzle, D::Error> {
        let line = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        line.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for Puzzle {
    type Err = PuzzleProblem;
    /// Reads the line form of `Display`, checking that the moves and the answer are legal.
    fn from_str(line: &str) -> Result<Puzzle, PuzzleProblem> {
        let fields: Vec<&str> = line.split('|').collect();
        let [layout, marbles, scoring, moves, answer, margin, difficulty, variation] = fields[..] else {
            return Err(PuzzleProblem::Fields(fields.len()));
        };
        let marbles: usize = marbles.parse().map_err(|_| PuzzleProblem::MarblesNumber(marbles.to_owned()))?;
        let layout = Layout::parse(layout)?.with_marbles_per_player(marbles)?;
        let puzzle = Puzzle {
            layout: Arc::new(layout),
            scoring: scoring.parse()?,
            moves: placements(moves)?,
            answer: answer.parse()?,
            margin: margin.parse().map_err(|_| PuzzleProblem::Margin(margin.to_owned()))?,
            difficulty: difficulty
                .parse()
                .ok()
                .filter(|d| (1..=5).contains(d))
                .ok_or_else(|| PuzzleProblem::Difficulty(difficulty.to_owned()))?,
            variation: placements(variation)?,
        };
        let mut position = Position::from_moves(Arc::clone(&puzzle.layout), &as_moves(&puzzle.moves))?;
        position.play(puzzle.answer).map_err(|error| PuzzleProblem::IllegalAnswer { answer: puzzle.answer, error })?;
        Ok(puzzle)
    }
}

/// Reads a bank: one puzzle per line; blank lines and `#` comments are skipped.
///
/// # Errors
/// The first line that is not a puzzle.
pub fn parse_bank(text: &str) -> Result<Vec<Puzzle>, ParsePuzzleError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| line.parse().map_err(|problem| ParsePuzzleError { line: index + 1, problem }))
        .collect()
}

/// The bank as text, with a header saying how it was made.
#[must_use]
pub fn bank_text(puzzles: &[Puzzle]) -> String {
    let mut text = String::from(
        "# Kulami puzzles: one clearly best move each, proved by the exact solver.\n\
         # Made by `cargo xtask puzzles`; do not edit by hand.\n\
         # layout|marbles|scoring|moves|answer|margin|difficulty|variation\n",
    );
    for puzzle in puzzles {
        let _ = writeln!(text, "{puzzle}");
    }
    text
}

/// The puzzles shipped with the crate.
///
/// # Panics
/// If the embedded bank is damaged (a test reads it).
#[must_use]
pub fn bank() -> &'static [Puzzle] {
    static BANK: OnceLock<Vec<Puzzle>> = OnceLock::new();
    BANK.get_or_init(|| parse_bank(include_str!("../data/puzzles.txt")).expect("the embedded bank is valid"))
}

/// A calendar date (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

/// A date that is not `YYYY-MM-DD` or does not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a date: expected YYYY-MM-DD")]
pub struct ParseDateError(pub String);

impl Date {
    /// Today in UTC, from the system clock.
    #[must_use]
    pub fn today() -> Date {
        let seconds =
            web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |since| since.as_secs());
        Date::from_days((seconds / 86_400) as i64)
    }

    /// Days since 1970-01-01 (negative before).
    #[must_use]
    pub fn days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let year = i64::from(self.year) - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let month = i64::from(self.month);
        let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` days after 1970-01-01.
    #[must_use]
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (year_of_era + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = ParseDateError;
    fn from_str(text: &str) -> Result<Date, ParseDateError> {
        let error = || ParseDateError(text.to_owned());
        let mut parts = text.split('-');
        let (Some(year), Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(error());
        };
        if year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return Err(error());
        }
        let date = Date {
            year: year.parse().map_err(|_| error())?,
            month: month.parse().map_err(|_| error())?,
            day: day.parse().map_err(|_| error())?,
        };
        // A date exists if it survives the round trip through days.
        if !(1..=12).contains(&date.month) || Date::from_days(date.days()) != date {
            return Err(error());
        }
        Ok(date)
    }
}

/// The puzzle of `date`: the bank in order, one a day, starting over when it runs out.
#[must_use]
pub fn daily(date: Date) -> &'static Puzzle {
    let bank = bank();
    &bank[date.days().rem_euclid(bank.len() as i64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_print_and_count_days() {
        let date: Date = "2026-11-30".parse().unwrap();
        assert_eq!(date.to_string(), "2026-11-30");
        assert_eq!("1970-01-01".parse::<Date>().unwrap().days(), 0);
        assert_eq!("2000-03-01".parse::<Date>().unwrap().days(), 11_017);
        assert_eq!(Date::from_days(date.days() + 1).to_string(), "2026-12-01");
        assert_eq!(Date::from_days(date.days() + 32).to_string(), "2027-01-01");
        assert!("2024-02-29".parse::<Date>().is_ok());
        for bad in ["2025-02-29", "2026-13-01", "2026-1-5", "26-01-05", "2026-01-05-1", "today", ""] {
            assert_eq!(bad.parse::<Date>(), Err(ParseDateError(bad.to_owned())), "{bad}");
        }
    }

    #[test]
    fn the_bank_is_valid_and_each_answer_is_clearly_best() {
        let bank = bank();
        assert!(bank.len() >= 300, "{} puzzles", bank.len());
        // Proving every puzzle is `cargo xtask puzzles --check`; here a sample of them.
        for puzzle in bank.iter().step_by(40) {
            let state = KulamiState::new(puzzle.position(), puzzle.scoring);
            let ranked =
                Searcher::new(16, 1).rank_moves(&state, &KulamiEvaluator::tuned(state.scoring()), Limits::default());
            assert!(ranked.exact);
            assert_eq!(ranked.moves[0], (puzzle.answer, puzzle.margin * POINT), "{puzzle}");
            let (best, second) = (ranked.moves[0].1, ranked.moves[1].1);
            assert!((best > 0 && second <= 0) || best - second >= CLEAR_GAP * POINT, "{puzzle}");
            assert_eq!(puzzle.variation[0], puzzle.answer);
        }
    }

    #[test]
    fn wrong_answers_are_refuted_and_illegal_ones_named() {
        let puzzle = &bank()[0];
        let position = puzzle.position();
        let wrong = position.legal_moves().iter().find(|&cell| cell != puzzle.answer).unwrap();
        let Verdict::Wrong { refutation, margin } = puzzle.check(wrong) else { panic!("not refuted") };
        assert_eq!(refutation[0], wrong);
        assert!(margin < puzzle.margin);
        let mut line = position.clone();
        for cell in &refutation {
            line.play(*cell).expect("the refutation is legal");
        }
        let occupied = position.placements()[0];
        assert!(matches!(puzzle.check(occupied), Verdict::Illegal(_)));
    }

    #[test]
    fn the_daily_puzzle_depends_on_the_date_only() {
        let date: Date = "2026-11-30".parse().unwrap();
        assert_eq!(daily(date), daily(date));
        assert_ne!(daily(date), daily(Date::from_days(date.days() + 1)));
        let line = daily(date).to_string();
        assert_eq!(&line.parse::<Puzzle>().unwrap(), daily(date));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let good = bank()[0].to_string();
        let error = parse_bank(&format!("# c\n{good}\nnot|a|puzzle\n")).unwrap_err();
        assert_eq!(error.line, 3);
        assert_eq!(error.problem, PuzzleProblem::Fields(3));
        let mut fields: Vec<&str> = good.split('|').collect();
        fields[6] = "9";
        assert!(fields.join("|").parse::<Puzzle>().unwrap_err().to_string().contains("difficulty from 1 to 5"));
        fields[6] = "1";
        fields[4] = fields[3].split(' ').next().unwrap();
        assert!(matches!(fields.join("|").parse::<Puzzle>(), Err(PuzzleProblem::IllegalAnswer { .. })));
    }
}
