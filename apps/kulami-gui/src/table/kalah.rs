//! Kalah at the table: the variant chosen, and the sowing as the board shows it seed by seed.

use std::time::Duration;

use kalah::{Capture, End, Hole, Move, Position, Rules, Side};
use serde::{Deserialize, Serialize};

use super::{Setup, TableRules};

/// The Kalah variant of a game, as plain data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KalahSetup {
    /// Pits a side (4-6 in the app).
    pub pits: u8,
    /// Seeds a pit at the start (3-6 in the app).
    pub seeds: u8,
    /// The site's "empty capture": a last seed in an empty pit of one's own captures even when
    /// the opposite pit is empty.
    pub empty_capture: bool,
    /// The site's end: the game ends when the player to move has no seeds (otherwise when
    /// either side is empty).
    pub site_end: bool,
    /// The pie rule: the second player may take over the first player's opening turn.
    pub pie: bool,
}

impl Default for KalahSetup {
    /// Kalah(6,4) as the site plays it.
    fn default() -> KalahSetup {
        KalahSetup { pits: 6, seeds: 4, empty_capture: false, site_end: true, pie: false }
    }
}

impl KalahSetup {
    /// The rules of `kalah` (counts outside its range are taken as the nearest).
    ///
    /// # Panics
    /// Never: the counts are clamped into the rules' range.
    #[must_use]
    pub fn rules(self) -> Rules {
        let pits = self.pits.clamp(1, kalah::MAX_PITS);
        let seeds = self.seeds.clamp(1, kalah::MAX_SEEDS);
        Rules::new(pits, seeds)
            .expect("counts within the rules' range")
            .with_capture(if self.empty_capture { Capture::Empty } else { Capture::Standard })
            .with_end(if self.site_end { End::Site } else { End::Irving })
            .with_pie(self.pie)
    }

    /// The variant in words: `Kalah(6,4), empty capture, the site's end, pie rule`.
    #[must_use]
    pub fn describe(self) -> String {
        let rules = self.rules();
        let mut words = vec![format!("Kalah({},{})", rules.pits(), rules.seeds())];
        words.push(if self.empty_capture { "empty capture" } else { "standard capture" }.to_owned());
        words.push(if self.site_end { "ends when the mover has no seeds" } else { "ends when a side is empty" }.into());
        if self.pie {
            words.push("pie rule".to_owned());
        }
        words.join(", ")
    }
}

/// The side `player` (0 the one who began) owns: the pie rule's swap exchanges them.
#[must_use]
pub fn side_of(position: &Position, player: usize) -> Side {
    if (player == 1) != position.swapped() { Side::North } else { Side::South }
}

impl TableRules for KalahSetup {
    type Position = Position;
    type Move = Move;

    const NAME: &'static str = "Kalah";

    fn start(self) -> Position {
        Position::start(self.rules())
    }

    fn play(position: &mut Position, mv: Move) -> Result<(), String> {
        position.play(mv).map(|_| ()).map_err(|error| super::sentence(&error.to_string()))
    }

    fn player_to_move(position: &Position) -> Option<usize> {
        position.to_move().map(|side| usize::from((side == Side::North) != position.swapped()))
    }

    fn winner(position: &Position) -> Option<usize> {
        let first = position.margin_for(side_of(position, 0));
        (position.is_over() && first != 0).then_some(usize::from(first < 0))
    }

    fn player_name(position: &Position, player: usize) -> String {
        side_of(position, player).to_string()
    }

    fn tally(position: &Position) -> String {
        format!("Stores: South {}, North {}.", position.store(Side::South), position.store(Side::North))
    }

    fn value_text(value: i32) -> String {
        match value {
            0 => "level".to_owned(),
            1 | -1 => format!("{value:+} seed"),
            _ => format!("{value:+} seeds"),
        }
    }

    fn engine_move(position: &Position, level: u8) -> Option<Move> {
        kalah::search::engine_move(position, level)
    }

    fn ranked_moves(position: &Position) -> Vec<(Move, i32)> {
        let limits = game_search::Limits::depth(14).with_time(Some(Duration::from_millis(700)));
        kalah::search::ranked_moves(position, limits).moves
    }

    fn setup(self) -> Setup {
        Setup::Kalah(self)
    }
}

/// The seeds of a sowing as the board shows it part way: the pit it emptied and the holes its
/// first seeds fell into. Once every seed is down the board shows the position after the move
/// (with any capture and the end's sweep).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sowing {
    before: Position,
    side: Side,
    pit: u8,
    holes: Vec<Hole>,
}

impl Sowing {
    /// The sowing of `mv` from `before`; `None` for the swap, which sows nothing.
    #[must_use]
    pub fn of(before: &Position, mv: Move) -> Option<Sowing> {
        let Move::Pit(pit) = mv else { return None };
        let side = before.to_move()?;
        let holes = before.sown_holes(pit).ok()?;
        Some(Sowing { before: *before, side, pit, holes })
    }

    /// How many seeds it drops.
    #[must_use]
    pub fn seeds(&self) -> usize {
        self.holes.len()
    }

    /// The seeds in `hole` once the first `dropped` seeds are down, and whether the last of
    /// them fell there.
    #[must_use]
    pub fn seeds_in(&self, hole: Hole, dropped: usize) -> (u8, bool) {
        let at_start = match hole {
            Hole::Pit(side, pit) if (side, pit) == (self.side, self.pit) => 0,
            Hole::Pit(side, pit) => self.before.pit(side, pit),
            Hole::Store(side) => self.before.store(side),
        };
        let down = &self.holes[..dropped.min(self.holes.len())];
        let added = down.iter().filter(|&&fallen| fallen == hole).count();
        (at_start + u8::try_from(added).unwrap_or(u8::MAX), down.last() == Some(&hole))
    }

    /// The pit sown.
    #[must_use]
    pub fn from(&self) -> Hole {
        Hole::Pit(self.side, self.pit)
    }
}

/// How long each seed of a sowing takes to fall.
pub const SEED_TIME: Duration = Duration::from_millis(110);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sowing_shows_its_seeds_falling_one_by_one_and_ends_on_the_position_after() {
        let setup = KalahSetup { site_end: false, ..KalahSetup::default() };
        let start = setup.start();
        let sowing = Sowing::of(&start, Move::Pit(3)).unwrap();
        assert_eq!(sowing.seeds(), 4);
        // Before any seed: pit 3 is empty, pit 4 still holds four.
        assert_eq!(sowing.seeds_in(Hole::Pit(Side::South, 3), 0), (0, false));
        assert_eq!(sowing.seeds_in(Hole::Pit(Side::South, 4), 0), (4, false));
        assert_eq!(sowing.seeds_in(Hole::Pit(Side::South, 4), 1), (5, true));
        assert_eq!(sowing.seeds_in(Hole::Pit(Side::South, 4), 2), (5, false));
        assert_eq!(sowing.seeds_in(Hole::Store(Side::South), 4), (1, true));
        // With every seed down the counts are the position's after the move (no capture here).
        let mut after = start;
        after.play(Move::Pit(3)).unwrap();
        for side in [Side::South, Side::North] {
            assert_eq!(sowing.seeds_in(Hole::Store(side), 4).0, after.store(side));
            for pit in 1..=6 {
                assert_eq!(sowing.seeds_in(Hole::Pit(side, pit), 4).0, after.pit(side, pit), "{side} {pit}");
            }
        }
        assert_eq!(Sowing::of(&start, Move::Swap), None);
    }

    #[test]
    fn the_players_follow_their_sides_through_the_pie_rules_swap() {
        let setup = KalahSetup { pits: 4, seeds: 3, pie: true, ..KalahSetup::default() };
        let mut position = setup.start();
        assert_eq!(KalahSetup::player_to_move(&position), Some(0));
        KalahSetup::play(&mut position, Move::Pit(1)).unwrap();
        assert_eq!(KalahSetup::player_to_move(&position), Some(1));
        KalahSetup::play(&mut position, Move::Swap).unwrap();
        // The second player now owns South's seeds, and North (the first player) moves.
        assert_eq!(
            (KalahSetup::player_name(&position, 1), KalahSetup::player_name(&position, 0)),
            ("South".into(), "North".into())
        );
        assert_eq!(KalahSetup::player_to_move(&position), Some(0));
        let refused = KalahSetup::play(&mut position, Move::Swap).unwrap_err();
        assert!(refused.starts_with(char::is_uppercase), "{refused}");
    }

    #[test]
    fn the_setup_reads_as_rules_and_words() {
        let setup = KalahSetup { pits: 4, seeds: 5, empty_capture: true, site_end: false, pie: true };
        let rules = setup.rules();
        assert_eq!(
            (rules.pits(), rules.seeds(), rules.capture, rules.end, rules.pie),
            (4, 5, Capture::Empty, End::Irving, true)
        );
        assert_eq!(setup.describe(), "Kalah(4,5), empty capture, ends when a side is empty, pie rule");
        assert_eq!(KalahSetup { pits: 0, seeds: 9, ..setup }.rules().pits(), 1, "out of range is clamped");
    }
}
