//! The rules written as plainly as possible: a grid of cells, loops, no bitboards and no
//! incremental state. Slow, and easy to check by reading against `docs/RULES.md`; the fast core must
//! agree with it everywhere.

use kulami_core::{Color, PlayerScore, Scoring, Winner};

const SIZE: usize = 10;

/// A board and the moves on it, as plain data.
#[derive(Clone, Debug)]
pub struct ReferenceGame {
    /// Tile number of each cell, `None` without a hole; `[row][column]`.
    tiles: [[Option<usize>; SIZE]; SIZE],
    holes_per_tile: Vec<usize>,
    marbles_per_player: usize,
    /// Marble in each cell.
    grid: [[Option<Color>; SIZE]; SIZE],
    /// Moves as (row, column).
    moves: Vec<(usize, usize)>,
    /// Whether the game has the swap rule, and whether the second move was the swap (which
    /// leaves the marbles as they are: the players exchange colours).
    swap_rule: bool,
    swapped: bool,
}

impl ReferenceGame {
    /// A new game on a valid one-line layout text (rows joined by `/`).
    pub fn new(one_line_layout: &str, marbles_per_player: usize) -> ReferenceGame {
        let mut tiles = [[None; SIZE]; SIZE];
        let mut names: Vec<char> = Vec::new();
        for (row, text) in one_line_layout.split('/').enumerate() {
            for (column, name) in text.chars().enumerate() {
                if name == '.' {
                    continue;
                }
                let number = names.iter().position(|&n| n == name).unwrap_or_else(|| {
                    names.push(name);
                    names.len() - 1
                });
                tiles[row][column] = Some(number);
            }
        }
        let mut holes_per_tile = vec![0; names.len()];
        for tile in tiles.iter().flatten().flatten() {
            holes_per_tile[*tile] += 1;
        }
        ReferenceGame {
            tiles,
            holes_per_tile,
            marbles_per_player,
            grid: [[None; SIZE]; SIZE],
            moves: Vec::new(),
            swap_rule: false,
            swapped: false,
        }
    }

    /// Plays with the swap rule: right after the first marble, the second player may swap.
    pub fn set_swap_rule(&mut self, on: bool) {
        self.swap_rule = on;
    }

    /// Whether the swap is legal now.
    pub fn can_swap(&self) -> bool {
        self.swap_rule && !self.swapped && self.moves.len() == 1
    }

    /// Plays the swap; the caller makes sure it is legal.
    pub fn swap(&mut self) {
        self.swapped = true;
    }

    fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) { Color::Red } else { Color::Black }
    }

    fn placed(&self, color: Color) -> usize {
        self.grid.iter().flatten().filter(|&&m| m == Some(color)).count()
    }

    /// Legal moves as (row, column), row by row.
    pub fn legal_moves(&self) -> Vec<(usize, usize)> {
        if self.placed(self.side_to_move()) >= self.marbles_per_player {
            return Vec::new();
        }
        let mut legal = Vec::new();
        for row in 0..SIZE {
            for column in 0..SIZE {
                let Some(tile) = self.tiles[row][column] else { continue };
                if self.grid[row][column].is_some() {
                    continue;
                }
                if let Some(&(last_row, last_column)) = self.moves.last() {
                    // Rule 2: same row or column as the opponent's last marble.
                    if row != last_row && column != last_column {
                        continue;
                    }
                    // Rule 3: not on the tile of the opponent's last marble.
                    if self.tiles[last_row][last_column] == Some(tile) {
                        continue;
                    }
                }
                if self.moves.len() >= 2 {
                    // Rule 4: not on the tile of the mover's own previous marble.
                    let (own_row, own_column) = self.moves[self.moves.len() - 2];
                    if self.tiles[own_row][own_column] == Some(tile) {
                        continue;
                    }
                }
                legal.push((row, column));
            }
        }
        legal
    }

    /// Places a marble for the side to move; the caller makes sure it is legal.
    pub fn play(&mut self, row: usize, column: usize) {
        self.grid[row][column] = Some(self.side_to_move());
        self.moves.push((row, column));
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let (row, column) = self.moves.pop().expect("a move to undo");
        self.grid[row][column] = None;
    }

    /// Perft by plain recursion, the swap counted as a move.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        if self.can_swap() {
            self.swapped = true;
            nodes += self.perft(depth - 1);
            self.swapped = false;
        }
        for (row, column) in self.legal_moves() {
            self.play(row, column);
            nodes += self.perft(depth - 1);
            self.undo();
        }
        nodes
    }

    fn tile_points(&self, color: Color) -> usize {
        let mut points = 0;
        for (tile, holes) in self.holes_per_tile.iter().enumerate() {
            let mut mine = 0;
            let mut theirs = 0;
            for row in 0..SIZE {
                for column in 0..SIZE {
                    if self.tiles[row][column] == Some(tile) {
                        match self.grid[row][column] {
                            Some(c) if c == color => mine += 1,
                            Some(_) => theirs += 1,
                            None => {}
                        }
                    }
                }
            }
            if mine > theirs {
                points += holes;
            }
        }
        points
    }

    fn largest_area(&self, color: Color) -> usize {
        let mut seen = [[false; SIZE]; SIZE];
        let mut largest = 0;
        for row in 0..SIZE {
            for column in 0..SIZE {
                if seen[row][column] || self.grid[row][column] != Some(color) {
                    continue;
                }
                let mut size = 0;
                let mut stack = vec![(row, column)];
                seen[row][column] = true;
                while let Some((r, c)) = stack.pop() {
                    size += 1;
                    let neighbours = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                    for (nr, nc) in neighbours {
                        if nr < SIZE && nc < SIZE && !seen[nr][nc] && self.grid[nr][nc] == Some(color) {
                            seen[nr][nc] = true;
                            stack.push((nr, nc));
                        }
                    }
                }
                largest = largest.max(size);
            }
        }
        largest
    }

    fn line_sum(&self, color: Color) -> usize {
        let at = |row: isize, column: isize| {
            (0..SIZE as isize).contains(&row)
                && (0..SIZE as isize).contains(&column)
                && self.grid[row as usize][column as usize] == Some(color)
        };
        let mut sum = 0;
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for row in 0..SIZE as isize {
                for column in 0..SIZE as isize {
                    // Count each maximal run once, from its first cell.
                    if !at(row, column) || at(row - dr, column - dc) {
                        continue;
                    }
                    let mut length = 0;
                    while at(row + dr * length, column + dc * length) {
                        length += 1;
                    }
                    if length >= 5 {
                        sum += length as usize;
                    }
                }
            }
        }
        sum
    }

    /// The score, computed from scratch: `(red, black, winner)`.
    pub fn score(&self, scoring: Scoring) -> (PlayerScore, PlayerScore, Winner) {
        let measure = |color| PlayerScore {
            tiles: self.tile_points(color),
            largest_area: self.largest_area(color),
            lines: self.line_sum(color),
            ..PlayerScore::default()
        };
        let mut red = measure(Color::Red);
        let mut black = measure(Color::Black);
        let area = matches!(scoring, Scoring::Area | Scoring::Both);
        let lines = matches!(scoring, Scoring::Lines | Scoring::Both);
        if area && red.largest_area > black.largest_area {
            red.area_bonus = red.largest_area - black.largest_area;
        }
        if area && black.largest_area > red.largest_area {
            black.area_bonus = black.largest_area - red.largest_area;
        }
        if lines && red.lines > black.lines {
            red.line_bonus = red.lines - black.lines;
        }
        if lines && black.lines > red.lines {
            black.line_bonus = black.lines - red.lines;
        }
        red.total = red.tiles + red.area_bonus + red.line_bonus;
        black.total = black.tiles + black.area_bonus + black.line_bonus;
        let winner = if red.total > black.total {
            Winner::Red
        } else if black.total > red.total {
            Winner::Black
        } else {
            Winner::Draw
        };
        (red, black, winner)
    }
}
