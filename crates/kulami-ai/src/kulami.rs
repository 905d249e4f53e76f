//! Kulami as a [`SearchGame`]: a position, the scoring in force and a Zobrist key kept up to date.

use std::sync::OnceLock;

use kulami_core::{Cell, CellSet, Color, FRAME_CELLS, MAX_TILES, Move, Position, Scoring, largest_area, line_sum};

use game_search::SearchGame;

/// Values are hundredths of a point.
pub const POINT: i32 = 100;

/// Random keys for the Zobrist hash: one per colour and cell, one per cell for the last move, one
/// per tile for the side to move's previous tile (the two facts besides the marbles that decide the
/// legal moves).
struct Keys {
    marble: [[u64; FRAME_CELLS]; 2],
    last: [u64; FRAME_CELLS],
    previous_tile: [u64; MAX_TILES],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        // SplitMix64: fixed keys, so hashes (and deterministic searches) repeat across runs.
        let mut state = 0x4b75_6c61_6d69_u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Keys {
            marble: [[0; FRAME_CELLS]; 2].map(|row| row.map(|_| next())),
            last: [0; FRAME_CELLS].map(|_| next()),
            previous_tile: [0; MAX_TILES].map(|_| next()),
        }
    })
}

/// A Kulami position for search.
#[derive(Clone, Debug)]
pub struct KulamiState {
    position: Position,
    scoring: Scoring,
    marble_key: u64,
    /// The most marbles the game can hold: the holes, or both players' marbles if fewer.
    capacity: usize,
    /// Each colour's largest area, kept move by move, when the scoring counts it.
    areas: Option<Areas>,
    /// The holes of the layout's largest tile.
    largest_tile: i32,
}

/// Each colour's largest area, kept up to date move by move: a marble only joins groups, so the
/// mover's new area is the larger of its old one and the group the marble is in. One flood fill
/// a move replaces filling every group of both colours at every finished game, which was 40% of
/// the solver's time under a variant (`SCORING=both examples/endgames -- 22`: 10.9 s before,
/// 5.7 s after). Random playouts drop it ([`SearchGame::prepare_for_playouts`]): with it they
/// ran 15% slower.
#[derive(Clone, Debug)]
struct Areas {
    /// By colour index.
    current: [u8; 2],
    /// The mover's largest area before the move of each ply from `first_ply` on, for undo.
    before: [u8; FRAME_CELLS],
    first_ply: usize,
}

impl KulamiState {
    /// The search state of `position` under `scoring`.
    #[must_use]
    pub fn new(position: Position, scoring: Scoring) -> KulamiState {
        let keys = keys();
        let marble_key = Color::BOTH
            .iter()
            .flat_map(|&color| position.marbles(color).iter().map(move |cell| keys.marble[color.index()][cell.index()]))
            .fold(0, |key, k| key ^ k);
        let layout = position.layout();
        let capacity = layout.holes().len().min(2 * layout.marbles_per_player());
        let areas = scoring.counts_area().then(|| Areas {
            current: Color::BOTH.map(|color| largest_area(position.marbles(color)) as u8),
            before: [0; FRAME_CELLS],
            first_ply: position.ply(),
        });
        let largest_tile = layout.tiles().iter().map(|tile| tile.holes() as i32).max().unwrap_or(0);
        KulamiState { position, scoring, marble_key, capacity, areas, largest_tile }
    }

    /// The size of the largest group of `color`'s marbles.
    #[must_use]
    pub fn largest_area(&self, color: Color) -> usize {
        match &self.areas {
            Some(areas) => usize::from(areas.current[color.index()]),
            None => largest_area(self.position.marbles(color)),
        }
    }

    /// The tile points the side to move gains by a marble on `cell`: the tile's holes if the
    /// marble takes the lead there or draws level (the opponent loses the tile), else none.
    fn tile_gain(&self, cell: Cell) -> i32 {
        self.tile_gain_of(self.position.side_to_move(), cell)
    }

    /// The same for a marble of `me`, either side, as the tiles stand now.
    fn tile_gain_of(&self, me: Color, cell: Cell) -> i32 {
        let position = &self.position;
        position.layout().tile_index(cell).map_or(0, |tile| {
            let lead = position.tile_count(tile, me) as i32 - position.tile_count(tile, me.other()) as i32;
            if lead == 0 || lead == -1 { position.layout().tile_holes_at(cell) as i32 } else { 0 }
        })
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The scoring in force.
    #[must_use]
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The side to move's tile points minus the opponent's, as the board stands (whole points).
    #[inline]
    pub(crate) fn tile_lead(&self) -> i32 {
        let me = self.position.side_to_move();
        self.position.tile_points(me) as i32 - self.position.tile_points(me.other()) as i32
    }

    /// The final margin from the side to move's view, in [`POINT`]s, as the position stands.
    ///
    /// A bonus goes to the player with the larger measure, by the difference, so the bonuses'
    /// difference is simply the measures' difference: no full score breakdown is needed.
    #[must_use]
    pub fn margin(&self) -> i32 {
        let position = &self.position;
        let (me, other) = (position.side_to_move(), position.side_to_move().other());
        let mut margin = self.tile_lead();
        if self.scoring.counts_area() {
            margin += self.largest_area(me) as i32 - self.largest_area(other) as i32;
        }
        if self.scoring.counts_lines() {
            margin += line_sum(position.marbles(me)) as i32 - line_sum(position.marbles(other)) as i32;
        }
        margin * POINT
    }
}

impl SearchGame for KulamiState {
    type Move = Cell;
    type Moves = CellSet;
    const MOVE_SLOTS: usize = FRAME_CELLS;
    /// A state is a few hundred bytes and shares its layout: copying it costs less than taking back
    /// the 30 or so moves of a playout.
    const PLAYOUTS_ON_A_COPY: bool = true;

    fn pack(cell: Cell) -> u16 {
        cell.index() as u16
    }

    fn unpack(number: u16) -> Option<Cell> {
        Cell::from_index(usize::from(number))
    }

    fn moves(&self) -> CellSet {
        self.position.legal_moves()
    }

    fn move_count(&self) -> usize {
        self.position.legal_moves().len()
    }

    fn play(&mut self, cell: Cell) {
        let side = self.position.side_to_move();
        let ply = self.position.ply();
        self.marble_key ^= keys().marble[side.index()][cell.index()];
        self.position.play_unchecked(cell);
        if let Some(areas) = &mut self.areas {
            let old = areas.current[side.index()];
            areas.before[ply] = old;
            let group = CellSet::from_cell(cell).flood_fill(self.position.marbles(side)).len() as u8;
            areas.current[side.index()] = old.max(group);
        }
    }

    fn undo(&mut self) {
        // The search only plays placements; a swap before its root is never taken back here.
        if let Some(Move::Place(cell)) = self.position.undo() {
            let side = self.position.side_to_move();
            self.marble_key ^= keys().marble[side.index()][cell.index()];
            if let Some(areas) = &mut self.areas {
                let ply = self.position.ply();
                areas.current[side.index()] = if ply >= areas.first_ply {
                    areas.before[ply]
                } else {
                    largest_area(self.position.marbles(side)) as u8
                };
            }
        }
    }

    fn hash(&self) -> u64 {
        let keys = keys();
        let mut key = self.marble_key;
        if let Some(last) = self.position.last_move() {
            key ^= keys.last[last.index()];
        }
        if let Some(tile) = self.position.previous_own_move().and_then(|cell| self.position.layout().tile_index(cell)) {
            key ^= keys.previous_tile[tile];
        }
        key
    }

    fn ply(&self) -> usize {
        self.position.ply()
    }

    fn moves_left_at_most(&self) -> usize {
        // Each ply fills one hole with one marble.
        self.capacity - self.position.ply()
    }

    /// The search plays placements only (the engine judges the swap before it searches), so the
    /// game is over here when no marble can be placed.
    fn terminal_value(&self) -> Option<i32> {
        self.position.legal_moves().is_empty().then(|| self.margin())
    }

    /// The legal moves found once, not once for their count and again for the pick.
    fn random_move(&self, random: u64) -> Option<Cell> {
        let moves = self.position.legal_moves();
        moves.iter().nth(game_search::pick_below(random, moves.len()))
    }

    /// A playout leads to one finished game: counting the areas there once costs less than a
    /// flood fill at every move.
    fn prepare_for_playouts(&mut self) {
        self.areas = None;
    }

    /// Moves that win a tile and leave the opponent few replies first: cutting the opponent's
    /// choices is what decides Kulami endgames (as "fastest first" does in Othello solvers). Each
    /// reply taken away counts as two holes won: of the weights tried (gain : replies from 4:1 to
    /// 1:5) 1:2 gave the solver the fewest nodes (`examples/endgames`), and it is as good for
    /// depth-limited searches. The holes the opponent may reply in are found once for all the
    /// moves, each move's replies being those in its row and column: 1.8% fewer instructions for
    /// the solver than finding them move by move (`callgrind`, `examples/endgames`).
    fn hint_moves(&self, mut add: impl FnMut(Cell, i32)) {
        let position = &self.position;
        let reply_holes = position.reply_holes();
        for cell in position.legal_moves() {
            let replies = reply_holes & position.layout().reply_cells(cell);
            add(cell, (self.tile_gain(cell) - replies.len() as i32 * 2) * ORDER_SCALE);
        }
    }

    /// Under the standard scoring a marble changes the margin by at most the holes of its tile
    /// (where it takes the lead or draws level): the margin now, give or take each player's
    /// remaining marbles times the largest tile's holes.
    fn value_bounds(&self) -> Option<(i32, i32)> {
        if self.scoring != Scoring::Standard {
            return None;
        }
        let now = self.tile_lead();
        let left = self.moves_left_at_most() as i32;
        let (mine, theirs) = ((left + 1) / 2, left / 2);
        Some(((now - theirs * self.largest_tile) * POINT, (now + mine * self.largest_tile) * POINT))
    }

    /// Under the standard scoring, with at most two moves left: a marble changes the margin by
    /// what it gains on its tile alone, and the reply may not go on the tile of the marble
    /// before it (rule 3), so both gains are read from the tiles as they stand and neither move
    /// is played. Fail-soft: no reply gains less than nothing, so a marble whose own gain
    /// leaves the margin at or below what is already had needs no look at the replies.
    ///
    /// Inlined, so that the many nodes further from the end hear `None` without a call (2% of
    /// the solver's instructions).
    #[inline]
    fn endgame_value(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.scoring != Scoring::Standard || self.moves_left_at_most() > 2 {
            return None;
        }
        Some(self.last_two_moves_value(alpha, beta))
    }
}

impl KulamiState {
    /// [`SearchGame::endgame_value`] under the standard scoring with at most two moves left.
    fn last_two_moves_value(&self, alpha: i32, beta: i32) -> i32 {
        let position = &self.position;
        let opponent = position.side_to_move().other();
        let lead = self.tile_lead() * POINT;
        let reply_holes = position.reply_holes();
        let mut best: Option<i32> = None;
        for cell in position.legal_moves() {
            let after = lead + self.tile_gain(cell) * POINT;
            let floor = best.map_or(alpha, |best| best.max(alpha));
            // Without a reply the game ends with this marble.
            let reply_gain = if after <= floor {
                0
            } else {
                let replies = reply_holes & position.layout().reply_cells(cell);
                replies.iter().map(|reply| self.tile_gain_of(opponent, reply)).max().unwrap_or(0)
            };
            let value = after - reply_gain * POINT;
            if best.is_none_or(|best| value > best) {
                best = Some(value);
                if value >= beta {
                    break;
                }
            }
        }
        // No move: the game is over, and the tiles as they stand are the final margin.
        best.unwrap_or(lead)
    }
}

/// Weight of the guesses of [`SearchGame::hint_moves`] against the search's history counts.
const ORDER_SCALE: i32 = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::Layout;
    use std::sync::Arc;

    fn state(moves: &str) -> KulamiState {
        let layout =
            Arc::new(Layout::parse("AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO").unwrap());
        let moves = kulami_core::notation::parse_moves(moves).unwrap();
        KulamiState::new(Position::from_moves(layout, &moves).unwrap(), Scoring::Standard)
    }

    #[test]
    fn incremental_hash_equals_a_fresh_one_and_undo_restores_it() {
        let mut walked = state("");
        for cell in kulami_core::notation::parse_moves("d4 d7 g7 g2 c2").unwrap().into_iter().filter_map(Move::cell) {
            let before = walked.hash();
            walked.play(cell);
            assert_eq!(walked.hash(), KulamiState::new(walked.position().clone(), Scoring::Standard).hash());
            walked.undo();
            assert_eq!(walked.hash(), before);
            walked.play(cell);
        }
        assert_eq!(walked.hash(), state("d4 d7 g7 g2 c2").hash());
    }

    #[test]
    fn each_legal_move_is_hinted_once_by_its_gain_and_the_replies_it_leaves() {
        let mut game = state("");
        let mut hinted_positions = 0;
        while game.move_count() > 0 {
            let mut hinted = Vec::new();
            game.hint_moves(|cell, hint| hinted.push((cell, hint)));
            let expected: Vec<(Cell, i32)> = game
                .moves()
                .into_iter()
                .map(|cell| {
                    let mut after = game.clone();
                    after.play(cell);
                    (cell, (game.tile_gain(cell) - after.move_count() as i32 * 2) * ORDER_SCALE)
                })
                .collect();
            assert_eq!(hinted, expected, "after {:?}", game.position().placements());
            hinted_positions += 1;
            game.play(game.moves().into_iter().nth(game.ply() * 5 % game.move_count()).expect("in range"));
        }
        assert!(hinted_positions > 40, "the game went on to its end: {hinted_positions} positions");
    }

    #[test]
    fn the_hash_tells_apart_positions_that_differ_only_in_the_last_moves() {
        // Same marbles, different order: the constraints on the next move differ.
        assert_ne!(state("a1 a3 c3 c1").hash(), state("c3 c1 a1 a3").hash());
    }

    #[test]
    fn margin_agrees_with_the_score_breakdown() {
        for scoring in Scoring::ALL {
            let mut game = KulamiState::new(state("").position().clone(), scoring);
            while let Some(cell) = game.moves().into_iter().nth(game.ply() % 3) {
                game.play(cell);
                let score = game.position().score(scoring);
                let me = game.position().side_to_move();
                let expected = score.player(me).total as i32 - score.player(me.other()).total as i32;
                assert_eq!(game.margin(), expected * POINT, "{scoring} after {:?}", game.position().placements());
            }
        }
    }

    #[test]
    fn the_endgame_value_is_what_playing_out_the_last_two_moves_gives() {
        use game_search::{INFINITY, minimax};
        let mut checked = [0; 2];
        for seed in 1..=300_u64 {
            let mut game = state("");
            let mut x = seed;
            while game.terminal_value().is_none() {
                let moves: Vec<Cell> = game.moves().into_iter().collect();
                let left = game.moves_left_at_most();
                if left <= 2 {
                    let exact = minimax(&mut game.clone());
                    assert_eq!(game.endgame_value(-INFINITY, INFINITY), Some(exact), "seed {seed}, {left} left");
                    // Fail-soft: a value outside the window bounds the exact one on its side.
                    for (alpha, beta) in
                        [(exact - 300, exact - 100), (exact + 100, exact + 300), (exact - 1, exact + 1)]
                    {
                        let value = game.endgame_value(alpha, beta).expect("two moves left");
                        match value {
                            _ if value <= alpha => assert!(exact <= value, "seed {seed}: {value} in {alpha}..{beta}"),
                            _ if value >= beta => assert!(exact >= value, "seed {seed}: {value} in {alpha}..{beta}"),
                            _ => assert_eq!(value, exact, "seed {seed}: inside {alpha}..{beta}"),
                        }
                    }
                    let variant = KulamiState::new(game.position().clone(), Scoring::Area);
                    assert_eq!(
                        variant.endgame_value(-INFINITY, INFINITY),
                        None,
                        "a variant's bonuses need the moves played"
                    );
                    checked[left - 1] += 1;
                } else {
                    assert_eq!(game.endgame_value(-INFINITY, INFINITY), None, "{left} moves left");
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                game.play(moves[(x % moves.len() as u64) as usize]);
            }
        }
        assert!(checked.iter().all(|&count| count > 50), "positions checked with one and two moves left: {checked:?}");
    }

    #[test]
    fn the_exact_value_lies_within_the_value_bounds() {
        // The tiles of the first board are all alike, so the bounds are often met exactly.
        let boards = ["AABB/CCDD/EEFF/GGHH", "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO"];
        let (mut checked, mut met) = (0, 0);
        for (board, seed) in boards.iter().flat_map(|board| (1..=40_u64).map(move |seed| (board, seed))) {
            let layout = Arc::new(Layout::parse(board).unwrap());
            let mut game = KulamiState::new(Position::new(layout), Scoring::Standard);
            let mut x = seed;
            while game.terminal_value().is_none() {
                if game.moves_left_at_most() <= 9 {
                    let (lowest, highest) = game.value_bounds().expect("the standard scoring has bounds");
                    let value = game_search::minimax(&mut game);
                    assert!(
                        (lowest..=highest).contains(&value),
                        "{board} seed {seed}: {value} outside {lowest}..{highest}"
                    );
                    checked += 1;
                    met += usize::from(value == lowest || value == highest);
                    let variant = KulamiState::new(game.position().clone(), Scoring::Lines);
                    assert_eq!(variant.value_bounds(), None, "a variant's bonuses are not bounded");
                }
                let moves: Vec<Cell> = game.moves().into_iter().collect();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                game.play(moves[(x % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 300 && met > 10, "{checked} positions checked, {met} at a bound");
    }

    #[test]
    fn the_largest_areas_follow_play_and_undo_past_the_start_kept_or_not() {
        let layout = state("").position().layout().clone();
        let opening = kulami_core::notation::parse_moves("d4 d7 g7 g2 c2").unwrap();
        let position = Position::from_moves(layout, &opening).unwrap();
        for (scoring, playouts) in Scoring::ALL.into_iter().flat_map(|scoring| [(scoring, false), (scoring, true)]) {
            let mut game = KulamiState::new(position.clone(), scoring);
            if playouts {
                game.prepare_for_playouts();
            }
            let check = |game: &KulamiState| {
                for color in Color::BOTH {
                    let expected = largest_area(game.position().marbles(color));
                    assert_eq!(game.largest_area(color), expected, "{scoring} {color:?} at {:?}", game.position());
                }
            };
            check(&game);
            while game.move_count() > 0 {
                game.play(game.moves().into_iter().nth(game.ply() * 7 % game.move_count()).expect("in range"));
                check(&game);
            }
            assert!(game.ply() > 40, "the game went on to its end");
            while game.ply() > 0 {
                game.undo();
                check(&game);
            }
        }
    }

    #[test]
    fn a_random_move_is_the_legal_move_its_number_picks_and_none_at_the_end() {
        let mut game = state("");
        let mut x = 7_u64;
        while game.move_count() > 0 {
            let moves: Vec<Cell> = game.moves().into_iter().collect();
            let mut picked = vec![0; moves.len()];
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mv = game.random_move(x).expect("a game that is not over has a move");
                assert_eq!(mv, moves[game_search::pick_below(x, moves.len())]);
                picked[moves.iter().position(|&legal| legal == mv).expect("a legal move")] += 1;
            }
            assert!(picked.iter().all(|&times| times > 0) || moves.len() > 20, "{picked:?}");
            game.play(moves[game.ply() % moves.len()]);
        }
        assert_eq!(game.random_move(x), None);
    }

    #[test]
    fn terminal_value_is_the_margin_for_the_side_to_move() {
        let layout = Arc::new(Layout::parse("AABB").unwrap());
        let moves = kulami_core::notation::parse_moves("a1 c1").unwrap();
        let mut game = KulamiState::new(Position::from_moves(layout, &moves).unwrap(), Scoring::Standard);
        assert_eq!(game.terminal_value(), Some(0));
        game.undo();
        assert_eq!(game.terminal_value(), None);
        assert_eq!(game.moves_left_at_most(), 3);
    }
}
