//! The daily puzzle screen's state: the puzzle of the day, the first answer's verdict, and the
//! streak of days solved. No drawing here.

use kulami_ai::puzzle::{Date, Puzzle, Verdict, daily};
use kulami_core::{Cell, Position};

/// Days in a row whose puzzle was solved at the first try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Streak {
    /// Length of the run that ended on `last_solved`.
    pub days: u32,
    /// The day number (days since 1970-01-01) of the last puzzle solved.
    pub last_solved: Option<i64>,
}

impl Streak {
    /// Counts a solve on `day`: the run grows if the day before was solved, else starts anew.
    pub fn solved(&mut self, day: i64) {
        self.days = match self.last_solved {
            Some(last) if last == day => self.days,
            Some(last) if last == day - 1 => self.days + 1,
            _ => 1,
        };
        self.last_solved = Some(day);
    }

    /// The run as it stands on `today`: still alive if today's or yesterday's puzzle was solved.
    #[must_use]
    pub fn current(&self, today: i64) -> u32 {
        match self.last_solved {
            Some(last) if last == today || last == today - 1 => self.days,
            _ => 0,
        }
    }
}

/// The puzzle of one date and how it was answered.
#[derive(Clone, Debug)]
pub struct DailyPuzzle {
    date: Date,
    puzzle: &'static Puzzle,
    /// The first answer and its verdict: only the first try counts.
    answered: Option<(Cell, Verdict)>,
}

impl DailyPuzzle {
    /// The puzzle of `date`, not yet answered.
    #[must_use]
    pub fn new(date: Date) -> DailyPuzzle {
        DailyPuzzle { date, puzzle: daily(date), answered: None }
    }

    /// Its date.
    #[must_use]
    pub fn date(&self) -> Date {
        self.date
    }

    /// The puzzle.
    #[must_use]
    pub fn puzzle(&self) -> &'static Puzzle {
        self.puzzle
    }

    /// The position to show: the puzzle's, with the answer on it once given.
    #[must_use]
    pub fn position(&self) -> Position {
        let mut position = self.puzzle.position();
        if let Some((cell, Verdict::Right | Verdict::Wrong { .. })) = &self.answered {
            position.play_unchecked(*cell);
        }
        position
    }

    /// The first answer and its verdict.
    #[must_use]
    pub fn answered(&self) -> Option<&(Cell, Verdict)> {
        self.answered.as_ref()
    }

    /// Judges `cell` if nothing was answered yet (an illegal hole does not count as a try);
    /// a right first answer extends `streak`.
    pub fn answer(&mut self, cell: Cell, streak: &mut Streak) {
        if matches!(self.answered, Some((_, Verdict::Right | Verdict::Wrong { .. }))) {
            return;
        }
        let verdict = self.puzzle.check(cell);
        if verdict == Verdict::Right {
            streak.solved(self.date.days());
        }
        self.answered = Some((cell, verdict));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streak_grows_day_by_day_and_breaks_on_a_missed_day() {
        let mut streak = Streak::default();
        assert_eq!(streak.current(100), 0);
        streak.solved(100);
        streak.solved(100);
        streak.solved(101);
        assert_eq!(streak.current(101), 2);
        assert_eq!(streak.current(102), 2, "alive until the day after");
        assert_eq!(streak.current(103), 0);
        streak.solved(103);
        assert_eq!(streak.current(103), 1);
    }

    #[test]
    fn only_the_first_legal_answer_counts() {
        let date: Date = "2026-11-30".parse().unwrap();
        let mut streak = Streak::default();
        let mut daily = DailyPuzzle::new(date);
        let answer = daily.puzzle().answer;
        let wrong = daily.puzzle().position().legal_moves().iter().find(|&cell| cell != answer).unwrap();
        let taken = daily.puzzle().moves[0];
        daily.answer(taken, &mut streak);
        assert!(matches!(daily.answered(), Some((_, Verdict::Illegal(_)))));
        daily.answer(wrong, &mut streak);
        daily.answer(answer, &mut streak);
        assert!(matches!(daily.answered(), Some((cell, Verdict::Wrong { .. })) if *cell == wrong));
        assert_eq!(streak.current(date.days()), 0);
        assert_eq!(daily.position().last_move(), Some(wrong));

        let mut again = DailyPuzzle::new(date);
        again.answer(answer, &mut streak);
        assert_eq!(again.answered().map(|(_, verdict)| verdict), Some(&Verdict::Right));
        assert_eq!(streak.current(date.days()), 1);
    }
}
