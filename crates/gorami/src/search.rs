//! GORami on the game-agnostic search of `game-search`: [`GoramiGame`] is the position walked
//! with make/unmake, [`StripeCount`] its evaluation and [`engine_move`] the engine's levels.

use game_search::{Evaluator, Limits, SearchGame, Searcher};

use crate::board::Fields;
use crate::{Move, Placements, Player, Position};

/// A stripe won is worth this much; the middle fields' sums, which only break a tie, count
/// one a point (at most 18 on a board, less than a stripe).
pub const STRIPE: i32 = 100;

/// A position as the searches walk it, and the ones before it, for undo.
#[derive(Clone, Debug)]
pub struct GoramiGame {
    position: Position,
    before: Vec<Position>,
}

impl GoramiGame {
    /// The searches' view of `position`.
    #[must_use]
    pub fn new(position: Position) -> GoramiGame {
        GoramiGame { position, before: Vec::new() }
    }

    /// The position reached.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// The final value of a finished game for `player`: stripes won less stripes lost, worth
/// [`STRIPE`] each, plus the middle sums' difference.
#[must_use]
pub fn final_value(position: &Position, player: Player) -> i32 {
    let score = position.score();
    let (me, them) = (player.index(), player.other().index());
    (i32::from(score.fish[me]) - i32::from(score.fish[them])) * STRIPE + i32::from(score.middle[me])
        - i32::from(score.middle[them])
}

/// The legal moves of a position: its placements, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet {
    placements: [Fields; 3],
    pass: bool,
}

impl Iterator for MoveSet {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        if std::mem::take(&mut self.pass) {
            return Some(Move::Pass);
        }
        // The high numbers first: they weigh more in every stripe.
        let number = (0..3).rev().find(|&number| self.placements[number] != 0)?;
        let index = self.placements[number].trailing_zeros();
        self.placements[number] &= self.placements[number] - 1;
        Some(Move::Place { field: index as u8 + 1, disc: number as u8 + 1 })
    }
}

impl SearchGame for GoramiGame {
    type Move = Move;
    type Moves = MoveSet;
    const MOVE_SLOTS: usize = 1 + 3 * 24;

    fn moves(&self) -> MoveSet {
        let Placements(placements) = self.position.placements(self.position.to_move);
        let pass = placements == [0; 3] && !self.position.placements(self.position.to_move.other()).is_empty();
        MoveSet { placements, pass }
    }

    fn move_count(&self) -> usize {
        self.moves().count()
    }

    fn play(&mut self, mv: Move) {
        self.before.push(self.position);
        match mv {
            Move::Place { field, disc } => {
                self.position.place(usize::from(field) - 1, usize::from(disc) - 1);
            }
            Move::Pass => self.position.to_move = self.position.to_move.other(),
        }
    }

    fn undo(&mut self) {
        if let Some(position) = self.before.pop() {
            self.position = position;
        }
    }

    /// The discs of each number, the yellow ones, the supplies, the turn and the board, mixed
    /// (splitmix64 steps).
    fn hash(&self) -> u64 {
        let p = &self.position;
        let supply = p.supply.iter().flatten().fold(0u64, |word, &left| word << 4 | u64::from(left));
        let words = [
            u64::from(p.numbers[0]) | u64::from(p.numbers[1]) << 32,
            u64::from(p.numbers[2]) | u64::from(p.yellow) << 32,
            (supply << 1 | u64::from(p.to_move == Player::Blue)) << 2 | p.shape as u64,
        ];
        words.into_iter().fold(0, |key, word| mix(key ^ word))
    }

    fn ply(&self) -> usize {
        self.before.len()
    }

    /// A disc a field at most, and at most one pass between two discs.
    fn moves_left_at_most(&self) -> usize {
        let empty = (self.position.shape.board().all() & !self.position.occupied()).count_ones() as usize;
        2 * empty
    }

    fn terminal_value(&self) -> Option<i32> {
        self.position.is_over().then(|| final_value(&self.position, self.position.to_move))
    }

    fn pack(mv: Move) -> u16 {
        match mv {
            Move::Pass => 0,
            Move::Place { field, disc } => 1 + 3 * (u16::from(field) - 1) + u16::from(disc) - 1,
        }
    }

    fn unpack(number: u16) -> Option<Move> {
        match number {
            0 => Some(Move::Pass),
            1..=72 => Some(Move::Place { field: ((number - 1) / 3) as u8 + 1, disc: ((number - 1) % 3) as u8 + 1 }),
            _ => None,
        }
    }

    /// Captures first, then high numbers.
    fn order_hint(&self, mv: Move) -> i32 {
        let Move::Place { field, disc } = mv else { return 0 };
        let captures = self.position.turned_by(usize::from(field) - 1).count_ones() as i32;
        100 * captures + i32::from(disc)
    }
}

/// The count as it stands, each stripe weighed by how far ahead its leader is: a stripe led by
/// three or more is taken as won, a closer one as partly won. The side to move's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct StripeCount;

impl Evaluator<GoramiGame> for StripeCount {
    fn evaluate(&self, game: &GoramiGame) -> i32 {
        let position = &game.position;
        let board = position.shape.board();
        let (me, them) = (position.to_move, position.to_move.other());
        let stripes: i32 = board
            .stripes()
            .iter()
            .map(|&stripe| {
                let lead = i32::from(position.sum(me, stripe)) - i32::from(position.sum(them, stripe));
                lead.clamp(-3, 3) * STRIPE / 3
            })
            .sum();
        stripes + i32::from(position.sum(me, board.middle())) - i32::from(position.sum(them, board.middle()))
    }
}

/// The search behind each level (1-5): how deep, and how many positions at most.
const LEVELS: [(u32, u64); 5] = [(1, 1_000), (2, 2_000), (24, 6_000), (24, 300_000), (48, 2_000_000)];

/// The engine's move at `level` (1-5, the strongest; others are taken as the nearest), or
/// `None` when the game is over: alpha-beta on [`StripeCount`], deeper and with more positions
/// a level, and exact once the end is within reach. Deterministic (one thread, node limits).
#[must_use]
pub fn engine_move(position: &Position, level: u8) -> Option<Move> {
    let (depth, nodes) = LEVELS[usize::from(level.clamp(1, 5)) - 1];
    let mut limits = Limits::depth(depth);
    limits.nodes = Some(nodes);
    Searcher::new(16, 1).search(&GoramiGame::new(*position), &StripeCount, limits, None).best
}

/// Every legal move of `position` with its value for the side to move (100 a stripe ahead at
/// the end, plus the middle's lead, as far as the search saw), best first: the engine's view
/// for hints.
#[must_use]
pub fn ranked_moves(position: &Position, limits: Limits) -> game_search::RankedMoves<Move> {
    Searcher::new(16, 1).rank_moves(&GoramiGame::new(*position), &StripeCount, limits)
}

/// One step of splitmix64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    /// A game played from the start by a fixed rule (the move at a varying index), `moves` long.
    fn played(shape: Shape, moves: usize, seed: usize) -> Position {
        let mut position = Position::start(shape);
        for ply in 0..moves {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            position.play(legal[(seed * 7 + ply * 13) % legal.len()]).unwrap();
        }
        position
    }

    #[test]
    fn the_exact_search_agrees_with_minimax_near_the_end() {
        for shape in Shape::ALL {
            for seed in 0..4 {
                let fields = shape.board().len();
                let position = played(shape, fields - 6, seed);
                let game = GoramiGame::new(position);
                let solved = Searcher::new(4, 1).search(&game, &StripeCount, Limits::default(), None);
                assert!(solved.exact, "{shape}: {position}");
                assert_eq!(solved.value, game_search::minimax(&mut game.clone()), "{shape}\n{position}");
            }
        }
    }

    #[test]
    fn ranked_moves_are_every_move_with_its_exact_value_near_the_end() {
        let position = played(Shape::Triangle, 11, 2);
        let ranked = ranked_moves(&position, Limits::default());
        assert!(ranked.exact);
        assert_eq!(ranked.moves.len(), position.legal_moves().len());
        assert!(ranked.moves.windows(2).all(|pair| pair[0].1 >= pair[1].1), "best first");
        for (mv, value) in ranked.moves {
            let mut next = GoramiGame::new(position);
            next.play(mv);
            // The turn always passes (a pass is a move), so the reply's value turned round.
            assert_eq!(value, -game_search::minimax(&mut next), "{mv}");
        }
    }

    #[test]
    fn moves_pack_into_their_slots_and_back() {
        let moves: Vec<Move> = std::iter::once(Move::Pass).chain(Placements([(1 << 24) - 1; 3]).moves()).collect();
        let packed: std::collections::HashSet<u16> = moves.iter().map(|&mv| GoramiGame::pack(mv)).collect();
        assert_eq!(packed.len(), moves.len());
        assert!(packed.iter().all(|&number| usize::from(number) < GoramiGame::MOVE_SLOTS));
        assert!(moves.iter().all(|&mv| GoramiGame::unpack(GoramiGame::pack(mv)) == Some(mv)));
        assert_eq!(GoramiGame::unpack(GoramiGame::MOVE_SLOTS as u16), None);
    }

    #[test]
    fn keys_differ_wherever_positions_do() {
        let mut keys = std::collections::HashMap::new();
        for shape in Shape::ALL {
            for seed in 0..40 {
                for moves in 0..=shape.board().len() {
                    let position = played(shape, moves, seed);
                    if let Some(seen) = keys.insert(GoramiGame::new(position).hash(), position) {
                        assert_eq!(seen, position, "two positions share a key");
                    }
                }
            }
        }
        assert!(keys.len() > 1000, "{} positions", keys.len());
    }

    #[test]
    fn the_levels_play_legal_moves_and_the_strongest_outscores_the_weakest() {
        // The small board twice, level 5 against level 1 with the colours swapped.
        let mut level_5 = 0;
        for (yellow, blue) in [(5, 1), (1, 5)] {
            let mut position = Position::start(Shape::Triangle);
            while let Some(mv) =
                engine_move(&position, if position.to_move() == Player::Yellow { yellow } else { blue })
            {
                position.play(mv).expect("a legal move");
            }
            assert!(position.is_over());
            let value = final_value(&position, Player::Yellow);
            level_5 += if yellow == 5 { value } else { -value };
        }
        assert!(level_5 > 0, "level 5 against level 1: {level_5}");
    }
}
