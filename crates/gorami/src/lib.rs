#![doc = include_str!("../README.md")]

use std::fmt;
use std::str::FromStr;

pub mod board;
pub mod search;

use board::{Fields, Shape, bits};

/// The numbers a disc can carry.
pub const DISCS: std::ops::RangeInclusive<u8> = 1..=3;

/// A player, by colour. Yellow moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first.
    Yellow,
    /// Moves second.
    Blue,
}

impl Player {
    /// Both, in the order they move.
    pub const BOTH: [Player; 2] = [Player::Yellow, Player::Blue];

    /// The opponent.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::Yellow => Player::Blue,
            Player::Blue => Player::Yellow,
        }
    }

    /// 0 for yellow, 1 for blue.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Yellow => "Yellow",
            Player::Blue => "Blue",
        })
    }
}

/// A move: a disc on a field, or a pass by a player who has no disc to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The disc numbered `disc` (1-3) on the field numbered `field` (from 1).
    Place {
        /// The field, from 1.
        field: u8,
        /// The disc's number.
        disc: u8,
    },
    /// The only move of a player who cannot place a disc while the other still can.
    Pass,
}

/// `2@7` (the disc 2 on field 7) or `pass`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { field, disc } => write!(f, "{disc}@{field}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A word that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a move: expected DISC@FIELD (like 2@7: the disc 2 on field 7) or `pass`")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text == "pass" {
            return Ok(Move::Pass);
        }
        let error = || ParseMoveError(text.to_owned());
        let (disc, field) = text.split_once('@').ok_or_else(error)?;
        let (disc, field) = (disc.parse::<u8>().map_err(|_| error())?, field.parse::<u8>().map_err(|_| error())?);
        if !DISCS.contains(&disc) || field == 0 {
            return Err(error());
        }
        Ok(Move::Place { field, disc })
    }
}

/// The moves of a space-separated list, like `"2@7 3@1 pass"`.
///
/// # Errors
/// The first word that is not a move.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseMoveError> {
    text.split_whitespace().map(str::parse).collect()
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The field is not on the board.
    #[error("field {field} is not on the board of {fields} fields")]
    NoSuchField {
        /// The field asked for.
        field: u8,
        /// The board's fields.
        fields: usize,
    },
    /// The disc's number is not 1-3.
    #[error("there is no disc {0}: discs are numbered 1 to 3")]
    NoSuchDisc(u8),
    /// The field holds a disc.
    #[error("field {0} is taken")]
    Taken(u8),
    /// The player has placed every disc of that number.
    #[error("{player} has no disc {disc} left")]
    NoDiscLeft {
        /// Who.
        player: Player,
        /// The number.
        disc: u8,
    },
    /// A neighbouring field holds the same number.
    #[error("field {field} neighbours field {neighbour}, which holds a {disc} already")]
    SameNumber {
        /// The field asked for.
        field: u8,
        /// The number.
        disc: u8,
        /// The neighbour that holds it.
        neighbour: u8,
    },
    /// A pass by a player who can place a disc.
    #[error("{0} can place a disc and may not pass")]
    NoPass(Player),
}

/// A move of a list that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({played}): {error}")]
pub struct ReplayError {
    /// Its number in the list, from 1.
    pub number: usize,
    /// The move.
    pub played: Move,
    /// Why not.
    pub error: MoveError,
}

/// A position: the discs on the board (number and colour), what each player has left to place,
/// and whose turn it is. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    shape: Shape,
    /// The fields holding a disc of each number, 1 to 3.
    numbers: [Fields; 3],
    /// The fields holding a yellow disc (the others with a disc are blue).
    yellow: Fields,
    /// Discs left to place: `supply[player][number - 1]`.
    supply: [[u8; 3]; 2],
    to_move: Player,
}

/// The fields where each disc number may go, for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placements(pub [Fields; 3]);

impl Placements {
    /// Whether there is none.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }

    /// How many there are.
    #[must_use]
    pub fn count(self) -> usize {
        self.0.iter().map(|set| set.count_ones() as usize).sum()
    }

    /// Each of them as a move, by disc and then field.
    pub fn moves(self) -> impl Iterator<Item = Move> {
        (0..3).flat_map(move |number| {
            bits(self.0[number]).map(move |i| Move::Place { field: i as u8 + 1, disc: number as u8 + 1 })
        })
    }
}

/// The count of a finished or unfinished game: the stripes each player wins (a stripe whose
/// sums are equal goes to nobody) and the sums on the middle fields, which break a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Stripes won, by player (yellow first).
    pub fish: [u8; 2],
    /// The sums of each player's discs on the middle fields.
    pub middle: [u8; 2],
}

impl Score {
    /// The player ahead: more stripes, or as many and more on the middle fields; `None` for a
    /// draw.
    #[must_use]
    pub fn leader(self) -> Option<Player> {
        match (self.fish[0].cmp(&self.fish[1]), self.middle[0].cmp(&self.middle[1])) {
            (std::cmp::Ordering::Greater, _) | (std::cmp::Ordering::Equal, std::cmp::Ordering::Greater) => {
                Some(Player::Yellow)
            }
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Equal) => None,
            _ => Some(Player::Blue),
        }
    }
}

impl Position {
    /// The empty board, both players with all their discs, yellow to move.
    #[must_use]
    pub fn start(shape: Shape) -> Position {
        let sets = shape.sets();
        Position { shape, numbers: [0; 3], yellow: 0, supply: [[sets; 3]; 2], to_move: Player::Yellow }
    }

    /// The board.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The player whose turn it is (when the game is over, the one who would be next).
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The disc on field `field` (from 1): its owner and number.
    #[must_use]
    pub fn disc(&self, field: u8) -> Option<(Player, u8)> {
        let bit = 1u32.checked_shl(u32::from(field).checked_sub(1)?)?;
        let number = self.numbers.iter().position(|&set| set & bit != 0)?;
        let owner = if self.yellow & bit != 0 { Player::Yellow } else { Player::Blue };
        Some((owner, number as u8 + 1))
    }

    /// The discs numbered `disc` that `player` has left to place (none of a number that is
    /// not 1-3).
    #[must_use]
    pub fn supply(&self, player: Player, disc: u8) -> u8 {
        usize::from(disc)
            .checked_sub(1)
            .and_then(|number| self.supply[player.index()].get(number))
            .copied()
            .unwrap_or(0)
    }

    /// The fields holding a disc.
    #[must_use]
    pub fn occupied(&self) -> Fields {
        self.numbers[0] | self.numbers[1] | self.numbers[2]
    }

    /// The fields holding a disc of `player`'s.
    #[must_use]
    pub fn owned(&self, player: Player) -> Fields {
        match player {
            Player::Yellow => self.yellow,
            Player::Blue => self.occupied() & !self.yellow,
        }
    }

    /// Where `player` may place each number now: an empty field with no neighbour of that
    /// number, while the player has such a disc left.
    #[must_use]
    pub fn placements(&self, player: Player) -> Placements {
        let board = self.shape.board();
        let empty = board.all() & !self.occupied();
        Placements(std::array::from_fn(|number| {
            if self.supply[player.index()][number] == 0 {
                return 0;
            }
            bits(empty).filter(|&i| board.neighbours(i) & self.numbers[number] == 0).fold(0, |set, i| set | 1 << i)
        }))
    }

    /// Whether the game is over: neither player can place a disc (on a full board, too).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.placements(self.to_move).is_empty() && self.placements(self.to_move.other()).is_empty()
    }

    /// The legal moves: the placements, or a pass when there is none and the game goes on.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let placements = self.placements(self.to_move);
        if placements.is_empty() {
            return if self.is_over() { Vec::new() } else { vec![Move::Pass] };
        }
        placements.moves().collect()
    }

    /// Plays `mv` for the player to move and returns the fields whose discs it turned (an
    /// opposing disc whose last empty neighbour it filled); a refused move changes nothing.
    ///
    /// # Errors
    /// When the game is over or the move is not legal, saying why.
    pub fn play(&mut self, mv: Move) -> Result<Fields, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let player = self.to_move;
        let Move::Place { field, disc } = mv else {
            if !self.placements(player).is_empty() {
                return Err(MoveError::NoPass(player));
            }
            self.to_move = player.other();
            return Ok(0);
        };
        let board = self.shape.board();
        let Some(index) = usize::from(field).checked_sub(1).filter(|&index| index < board.len()) else {
            return Err(MoveError::NoSuchField { field, fields: board.len() });
        };
        if !DISCS.contains(&disc) {
            return Err(MoveError::NoSuchDisc(disc));
        }
        let (bit, number) = (1 << index, usize::from(disc) - 1);
        if self.occupied() & bit != 0 {
            return Err(MoveError::Taken(field));
        }
        if self.supply[player.index()][number] == 0 {
            return Err(MoveError::NoDiscLeft { player, disc });
        }
        let same = board.neighbours(index) & self.numbers[number];
        if same != 0 {
            return Err(MoveError::SameNumber { field, disc, neighbour: same.trailing_zeros() as u8 + 1 });
        }
        Ok(self.place(index, number))
    }

    /// Places a legal disc: the rules' effect without their checks, for [`Position::play`] and
    /// the search.
    fn place(&mut self, index: usize, number: usize) -> Fields {
        let player = self.to_move;
        let bit = 1 << index;
        self.numbers[number] |= bit;
        self.supply[player.index()][number] -= 1;
        if player == Player::Yellow {
            self.yellow |= bit;
        }
        let flipped = self.turned_by(index);
        self.yellow ^= flipped;
        self.to_move = player.other();
        flipped
    }

    /// The discs a disc of the player to move on the empty field `index` turns: each opposing
    /// neighbour whose last liberty it takes. A turned disc does not turn others (it was not
    /// placed).
    fn turned_by(&self, index: usize) -> Fields {
        let board = self.shape.board();
        let empty = board.all() & !self.occupied() & !(1 << index);
        bits(board.neighbours(index) & self.owned(self.to_move.other()))
            .filter(|&i| board.neighbours(i) & empty == 0)
            .fold(0, |set, i| set | 1 << i)
    }

    /// The position after `moves`.
    ///
    /// # Errors
    /// The first move that cannot be played, with its number.
    pub fn replay(&self, moves: &[Move]) -> Result<Position, ReplayError> {
        let mut position = *self;
        for (i, &played) in moves.iter().enumerate() {
            position.play(played).map_err(|error| ReplayError { number: i + 1, played, error })?;
        }
        Ok(position)
    }

    /// The sum of `player`'s discs on `fields`.
    #[must_use]
    pub fn sum(&self, player: Player, fields: Fields) -> u8 {
        let own = self.owned(player) & fields;
        (0..3).map(|number| (own & self.numbers[number]).count_ones() as u8 * (number as u8 + 1)).sum()
    }

    /// Who wins the stripe (or any fields) `fields` as it stands: the higher sum; `None` for
    /// equal sums, which give the stripe to nobody.
    #[must_use]
    pub fn leader_of(&self, fields: Fields) -> Option<Player> {
        match self.sum(Player::Yellow, fields).cmp(&self.sum(Player::Blue, fields)) {
            std::cmp::Ordering::Greater => Some(Player::Yellow),
            std::cmp::Ordering::Less => Some(Player::Blue),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The count as it stands: every stripe to the player with the higher sum in it.
    #[must_use]
    pub fn score(&self) -> Score {
        let board = self.shape.board();
        let mut fish = [0; 2];
        for &stripe in board.stripes() {
            if let Some(leader) = self.leader_of(stripe) {
                fish[leader.index()] += 1;
            }
        }
        let middle = Player::BOTH.map(|player| self.sum(player, board.middle()));
        Score { fish, middle }
    }

    /// The number of move sequences of exactly `depth` moves from here.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = *self;
                // Every legal move plays.
                let _ = next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The board row by row from the top, each field as its number when empty and as its disc
/// (`Y2`: yellow's 2, `B3`: blue's 3) when taken, between the slashes of its edges.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.shape.board();
        let columns = |i: usize| i32::from(board.triangle(i).column());
        let first_column = (0..board.len()).map(columns).min().unwrap_or(0);
        let mut rows: Vec<(i8, String)> = Vec::new();
        for i in 0..board.len() {
            let triangle = board.triangle(i);
            if rows.last().is_none_or(|(y, _)| *y != triangle.y) {
                rows.push((triangle.y, String::new()));
            }
            let Some((_, row)) = rows.last_mut() else { continue };
            // Each field is three characters a half field: its left edge, two for its content,
            // and the right edge that the next field shares.
            let start = 3 * (columns(i) - first_column) as usize;
            let (left, right) = if triangle.down { ('\\', '/') } else { ('/', '\\') };
            if row.is_empty() {
                row.push_str(&" ".repeat(start));
                row.push(left);
            }
            let content = match self.disc(i as u8 + 1) {
                Some((Player::Yellow, number)) => format!("Y{number}"),
                Some((Player::Blue, number)) => format!("B{number}"),
                None => format!("{:>2}", i + 1),
            };
            row.push_str(&content);
            row.push(right);
        }
        let lines: Vec<&str> = rows.iter().map(|(_, row)| row.as_str()).collect();
        f.write_str(&lines.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(shape: Shape, moves: &str) -> Position {
        Position::start(shape).replay(&parse_moves(moves).unwrap()).unwrap()
    }

    #[test]
    fn the_board_is_drawn_row_by_row() {
        let drawn = after(Shape::Triangle, "2@3 1@1").to_string();
        let expected = ["         /B1\\", "      / 2\\Y2/ 4\\", "   / 5\\ 6/ 7\\ 8/ 9\\", "/10\\11/12\\13/14\\15/16\\"];
        assert_eq!(drawn.lines().collect::<Vec<_>>(), expected, "\n{drawn}");
        let hexagon = Position::start(Shape::Hexagon).to_string();
        assert_eq!(hexagon.lines().next(), Some("   / 1\\ 2/ 3\\ 4/ 5\\"), "\n{hexagon}");
    }

    #[test]
    fn a_disc_on_the_last_empty_neighbour_turns_the_opposing_disc() {
        // Side-4 triangle: blue's 1 on the top corner (field 1) has one neighbour, field 3.
        let mut position = after(Shape::Triangle, "3@10 1@1");
        assert_eq!(position.disc(1), Some((Player::Blue, 1)));
        assert_eq!(position.play(Move::Place { field: 3, disc: 2 }), Ok(1), "field 1 turns");
        assert_eq!(position.disc(1), Some((Player::Yellow, 1)));
        assert_eq!(position.disc(3), Some((Player::Yellow, 2)));
        // Filling one's own disc's last liberty does nothing.
        let mut own = after(Shape::Triangle, "1@1 1@10");
        assert_eq!(own.play(Move::Place { field: 3, disc: 2 }), Ok(0));
        assert_eq!(own.disc(1), Some((Player::Yellow, 1)));
    }

    #[test]
    fn several_discs_turn_at_once_and_turned_discs_do_not_turn_others() {
        // Field 3 (down) neighbours 1, 2 and 4. Blue holds 1 (liberty: 3 only) and 2, whose
        // other neighbours 6 is filled; yellow fills 3: both blue discs turn.
        let position = after(Shape::Triangle, "3@6 1@1 1@10 2@2 3@12 1@4");
        let mut next = position;
        // Field 2's neighbours are 3 and 6; field 4's are 3 and 8; field 1's is 3.
        assert_eq!(next.owned(Player::Blue) & 0b1011, 0b1011);
        let flipped = next.play(Move::Place { field: 3, disc: 3 }).unwrap_or_else(|e| panic!("{e}\n{position}"));
        // 2 still has 6 filled by yellow: no liberty left; 4 still has 8 empty: stays.
        assert_eq!(flipped, 0b11, "fields 1 and 2 turn, 4 keeps a liberty\n{next}");
        assert_eq!(next.owned(Player::Yellow) & 0b1011, 0b0011);
    }

    #[test]
    fn equal_numbers_may_not_neighbour_and_bad_moves_say_why() {
        let position = after(Shape::Triangle, "2@3");
        let mut played = position;
        let refused = [
            (Move::Place { field: 1, disc: 2 }, MoveError::SameNumber { field: 1, disc: 2, neighbour: 3 }),
            (Move::Place { field: 3, disc: 1 }, MoveError::Taken(3)),
            (Move::Place { field: 17, disc: 1 }, MoveError::NoSuchField { field: 17, fields: 16 }),
            (Move::Pass, MoveError::NoPass(Player::Blue)),
            (Move::Place { field: 0, disc: 1 }, MoveError::NoSuchField { field: 0, fields: 16 }),
            (Move::Place { field: 5, disc: 0 }, MoveError::NoSuchDisc(0)),
            (Move::Place { field: 5, disc: 4 }, MoveError::NoSuchDisc(4)),
        ];
        for (mv, error) in refused {
            assert_eq!(played.play(mv), Err(error));
            assert_eq!(played, position, "a refused move changes nothing");
        }
        let error = Position::start(Shape::Triangle).replay(&parse_moves("1@1 1@3").unwrap()).unwrap_err();
        assert_eq!(error.to_string(), "move 2 (1@3): field 3 neighbours field 1, which holds a 1 already");
        assert!(parse_moves("4@1").is_err() && parse_moves("1@0").is_err() && parse_moves("1-2").is_err());
        assert_eq!(
            "x".parse::<Move>().unwrap_err().to_string(),
            "`x` is not a move: expected DISC@FIELD (like 2@7: the disc 2 on field 7) or `pass`"
        );
        assert_eq!(Move::Place { field: 12, disc: 3 }.to_string(), "3@12");
    }

    #[test]
    fn a_player_out_of_discs_passes_and_the_count_breaks_ties_on_the_middle() {
        // Yellow's three 1s, three 2s, ... : the supply runs out.
        let mut position = Position::start(Shape::Triangle);
        assert_eq!(position.supply(Player::Yellow, 1), 3);
        position.play(Move::Place { field: 1, disc: 1 }).unwrap();
        assert_eq!(position.supply(Player::Yellow, 1), 2);
        assert_eq!((position.supply(Player::Yellow, 0), position.supply(Player::Blue, 4)), (0, 0));
        let score = Score { fish: [5, 5], middle: [3, 2] };
        assert_eq!(score.leader(), Some(Player::Yellow));
        assert_eq!(Score { fish: [5, 6], middle: [9, 0] }.leader(), Some(Player::Blue));
        assert_eq!(Score { fish: [4, 4], middle: [2, 2] }.leader(), None);
    }

    #[test]
    fn the_count_gives_each_stripe_to_the_higher_sum() {
        // Yellow's 3 on the top corner (field 1) wins its three stripes: the top row (alone),
        // and the two edges' bands through it. Blue's 1 on field 10 (bottom left corner) wins
        // the bottom row and its corner's lone band, and loses the left edge's band to the 3.
        let position = after(Shape::Triangle, "3@1 1@10");
        let score = position.score();
        assert_eq!(score.fish, [3, 2], "\n{position}");
        assert_eq!(position.sum(Player::Yellow, Shape::Triangle.board().all()), 3);
        assert_eq!(score.middle, [0, 0]);
    }
}
