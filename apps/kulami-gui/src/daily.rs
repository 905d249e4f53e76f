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
    /// An answer waiting for the solver's verdict.
    judging: Option<Cell>,
}

/// What to do with an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing more: judged at once, or not taken (the puzzle was answered, or is being judged).
    Settled,
    /// The solver must judge it (off the UI thread); its verdict goes to [`DailyPuzzle::settle`].
    Judge(Cell),
}

impl DailyPuzzle {
    /// The puzzle of `date`, not yet answered.
    #[must_use]
    pub fn new(date: Date) -> DailyPuzzle {
        DailyPuzzle { date, puzzle: daily(date), answered: None, judging: None }
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

    /// The answer the solver is judging, if any.
    #[must_use]
    pub fn judging(&self) -> Option<Cell> {
        self.judging
    }

    /// Takes `cell` as the answer if nothing was answered yet: the right move and an illegal
    /// hole (which does not count as a try) are judged at once, and a right first answer extends
    /// `streak`; any other move needs the solver's refutation.
    pub fn answer(&mut self, cell: Cell, streak: &mut Streak) -> Answer {
        let tried = matches!(self.answered, Some((_, Verdict::Right | Verdict::Wrong { .. })));
        if tried || self.judging.is_some() {
            return Answer::Settled;
        }
        if cell == self.puzzle.answer {
            self.settle(cell, Verdict::Right, streak);
            return Answer::Settled;
        }
        if let Err(error) = self.puzzle.position().play(cell) {
            self.answered = Some((cell, Verdict::Illegal(error)));
            return Answer::Settled;
        }
        self.judging = Some(cell);
        Answer::Judge(cell)
    }

    /// Records the verdict on `cell`.
    pub fn settle(&mut self, cell: Cell, verdict: Verdict, streak: &mut Streak) {
        if verdict == Verdict::Right {
            streak.solved(self.date.days());
        }
        self.judging = None;
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
        assert_eq!(daily.answer(taken, &mut streak), Answer::Settled);
        assert!(matches!(daily.answered(), Some((_, Verdict::Illegal(_)))));
        // A wrong move goes to the solver (off the UI thread); meanwhile no other answer is taken.
        assert_eq!(daily.answer(wrong, &mut streak), Answer::Judge(wrong));
        assert_eq!(daily.judging(), Some(wrong));
        assert_eq!(daily.answer(answer, &mut streak), Answer::Settled);
        assert!(daily.answered().is_some_and(|(cell, _)| *cell == taken), "still the illegal try");
        daily.settle(wrong, daily.puzzle().check(wrong), &mut streak);
        assert_eq!(daily.judging(), None);
        assert_eq!(daily.answer(answer, &mut streak), Answer::Settled);
        assert!(matches!(daily.answered(), Some((cell, Verdict::Wrong { .. })) if *cell == wrong));
        assert_eq!(streak.current(date.days()), 0);
        assert_eq!(daily.position().last_move(), Some(wrong));

        let mut again = DailyPuzzle::new(date);
        assert_eq!(again.answer(answer, &mut streak), Answer::Settled, "the right move needs no solver");
        assert_eq!(again.answered().map(|(_, verdict)| verdict), Some(&Verdict::Right));
        assert_eq!(streak.current(date.days()), 1);
    }
}
