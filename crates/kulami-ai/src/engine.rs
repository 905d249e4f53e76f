//! The engine that plays the levels: its options, and how each level chooses its move.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kulami_core::{Cell, Move, Position, Scoring};
use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng as _, SeedableRng as _};

use crate::baseline;
use crate::eval::KulamiEvaluator;
use crate::kulami::{KulamiState, POINT};
use crate::level::Level;
use crate::time_control::TimeControl;
use game_search::mcts::{self, ImplicitMinimax, KeptTrees, MctsLimits, MctsOptions, MctsResult};
use game_search::{Evaluator, Proven, SearchGame};
use game_search::{Limits, SearchResult, Searcher};

/// Settings of an [`Engine`] beyond its level: start from `EngineOptions::default()` and change
/// what you need (more settings may come).
///
/// ```
/// use std::time::Duration;
/// use kulami_ai::{EngineOptions, TimeControl};
/// let options = EngineOptions::default().with_seed(7).with_threads(1).with_time(TimeControl::PerMove(Duration::from_millis(200)));
/// assert_eq!((options.seed, options.threads), (7, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineOptions {
    /// Thinking time of levels 4 and 5 and the MCTS player, and the clock every level keeps to
    /// (also set by [`Engine::set_time_control`]).
    pub time: TimeControl,
    /// Threads of the master level.
    pub threads: usize,
    /// Transposition table size.
    pub table_megabytes: usize,
    /// Seed of the random choices of the weaker levels and of the tree search's playouts.
    pub seed: u64,
    /// Deterministic mode: search this many nodes (playouts for levels 4 and 5) on one thread
    /// instead of for a time, so that the same seed always gives the same move.
    pub nodes: Option<u64>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions { time: TimeControl::default(), threads: 2, table_megabytes: 64, seed: 0, nodes: None }
    }
}

impl EngineOptions {
    /// With this time control.
    #[must_use]
    pub fn with_time(self, time: TimeControl) -> EngineOptions {
        EngineOptions { time, ..self }
    }

    /// With this many threads for the master level.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> EngineOptions {
        EngineOptions { threads, ..self }
    }

    /// With a transposition table of this size.
    #[must_use]
    pub fn with_table_megabytes(self, table_megabytes: usize) -> EngineOptions {
        EngineOptions { table_megabytes, ..self }
    }

    /// With this seed.
    #[must_use]
    pub fn with_seed(self, seed: u64) -> EngineOptions {
        EngineOptions { seed, ..self }
    }

    /// In deterministic mode with this node (or playout) budget, or timed with `None`.
    #[must_use]
    pub fn with_nodes(self, nodes: Option<u64>) -> EngineOptions {
        EngineOptions { nodes, ..self }
    }
}

/// A player of a given level.
///
/// [`Engine::choose`] answers every position of a game, the swap included: with the swap rule
/// on, right after the first marble it may answer [`Move::Swap`].
///
/// ```
/// use std::sync::Arc;
/// use kulami_ai::{Engine, EngineOptions, Level};
/// use kulami_core::{Layout, Move, Position, Scoring};
/// let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
/// let mut engine = Engine::new(Level::Club, EngineOptions::default());
/// let position = Position::new(layout);
/// let choice = engine.choose(&position, Scoring::Standard, None);
/// let Some(Move::Place(cell)) = choice.best else { panic!("a placement") };
/// assert!(position.legal_moves().contains(cell));
/// assert_eq!(choice.pv.first(), choice.best.as_ref());
/// ```
#[derive(Debug)]
pub struct Engine {
    level: Level,
    options: EngineOptions,
    searcher: Searcher,
    rng: Pcg64Mcg,
    /// The tree search's trees after its last move, and the scoring they were grown under:
    /// the next search starts from the subtree of the position it is asked about.
    kept: (KeptTrees<KulamiState>, Scoring),
}

impl Engine {
    /// An engine of `level`.
    #[must_use]
    pub fn new(level: Level, options: EngineOptions) -> Engine {
        let threads = if level == Level::Master && options.nodes.is_none() { options.threads } else { 1 };
        Engine {
            level,
            options,
            searcher: Searcher::new(options.table_megabytes, threads),
            rng: Pcg64Mcg::seed_from_u64(options.seed),
            kept: (KeptTrees::default(), Scoring::Standard),
        }
    }

    /// The evaluation of this level under `scoring`: the score as it stands for level 1 and the
    /// public engine's design, else the weights fitted to that scoring.
    fn evaluator(&self, scoring: Scoring) -> KulamiEvaluator {
        if matches!(self.level, Level::Beginner | Level::Baseline) {
            KulamiEvaluator::score_only()
        } else {
            KulamiEvaluator::tuned(scoring)
        }
    }

    /// The engine's level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The time control of the next moves.
    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        self.options.time
    }

    /// Thinks by `time` from the next move on (a clock: its state before that move).
    pub fn set_time_control(&mut self, time: TimeControl) {
        self.options.time = time;
    }

    /// Forgets the previous game (the transposition table and the kept trees) and restarts the
    /// random choices.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.kept.0.clear();
        self.rng = Pcg64Mcg::seed_from_u64(self.options.seed);
    }

    /// The move to play in `position` (the swap included, when the rule allows it), with the
    /// search's findings at every level: the value for the side to move (for a swap, for the
    /// swapper) and the line it expects, starting with the move. Setting `cancel` makes the
    /// search return at once with the best move so far.
    pub fn choose(&mut self, position: &Position, scoring: Scoring, cancel: Option<&AtomicBool>) -> SearchResult<Move> {
        let state = KulamiState::new(position.clone(), scoring);
        if position.swap_rule() && position.move_count() == 0 {
            return self.balanced_opening(&state).map(Move::Place);
        }
        if position.can_swap() {
            let judged = self.judge_swap(&state);
            if judged.value < 0 || judged.best.is_none() {
                let mut pv = vec![Move::Swap];
                pv.extend(judged.pv.iter().copied().map(Move::Place));
                return SearchResult { best: Some(Move::Swap), value: -judged.value, pv, ..judged.map(Move::Place) };
            }
        }
        self.choose_placement(&state, cancel).map(Move::Place)
    }

    fn choose_placement(&mut self, state: &KulamiState, cancel: Option<&AtomicBool>) -> SearchResult<Cell> {
        let own_moves_left = state.moves_left_at_most().div_ceil(2);
        let cap = self.options.time.cap(own_moves_left);
        let mut budget = self.options.time.budget(own_moves_left);
        // A forced move needs no thought: a short search still gives it a value and a line, and
        // a clock keeps the rest for the moves that need it.
        if state.move_count() == 1 {
            budget = budget.min(FORCED_MOVE_TIME);
        }
        let capped = |limits: Limits| limits.with_time(cap);
        match self.level {
            Level::Beginner => {
                let result = self.search(state, capped(Limits::depth(BEGINNER_DEPTH)), cancel);
                let picked = pick_near_best(
                    state,
                    &self.evaluator(state.scoring()),
                    BEGINNER_DEPTH,
                    BEGINNER_MARGIN,
                    &mut self.rng,
                );
                with_choice(result, picked)
            }
            Level::Casual => self.search(state, capped(Limits::depth(2)), cancel),
            Level::Club => {
                let exact_plies = club_exact_plies(state.scoring());
                let depth = if state.moves_left_at_most() <= exact_plies { exact_plies as u32 } else { CLUB_DEPTH };
                self.search(state, capped(Limits::depth(depth)), cancel)
            }
            Level::Expert => {
                let time = expert_time(state.scoring());
                self.tree_search(state, cap.map_or(time, |cap| cap.min(time)), 1, cancel)
            }
            Level::Master => self.tree_search(state, budget, self.options.threads, cancel),
            Level::Mcts => {
                let start = web_time::Instant::now();
                let limits = self.mcts_limits(budget, 1);
                let found = mcts::search(state, None, MctsOptions::PLAIN, limits, self.rng.next_u64(), cancel);
                self.tree_result(state, found, start)
            }
            Level::Baseline => {
                let mut game = state.clone();
                let depth = baseline::scheduled_depth(game.moves_left_at_most());
                let start = web_time::Instant::now();
                let found = baseline::best_move(&mut game, &self.evaluator(state.scoring()), depth);
                SearchResult {
                    best: found.map(|(mv, _)| mv),
                    value: found.map_or(0, |(_, value)| value),
                    pv: found.map(|(mv, _)| vec![mv]).unwrap_or_default(),
                    depth,
                    exact: depth as usize >= state.moves_left_at_most(),
                    nodes: 0,
                    time: start.elapsed(),
                }
            }
        }
    }

    /// The swap judgement, the same at every level (a matter of the opening, not of skill): a
    /// short search of the position as the first marble left it, whose value is the one of the
    /// player who would answer it. Negative means the first player stands better: swap.
    fn judge_swap(&mut self, state: &KulamiState) -> SearchResult<Cell> {
        let depth = swap_judgement_depth(state.moves_left_at_most());
        let own_moves_left = state.moves_left_at_most().div_ceil(2);
        let limits = Limits::depth(depth).with_time(self.options.time.cap(own_moves_left));
        self.searcher.search(state, &KulamiEvaluator::tuned(state.scoring()), limits, None)
    }

    /// The first marble of a game with the swap rule: the one that leaves the least to the
    /// player who answers it, whether they swap or not (the value nearest 0 by the swap
    /// judgement's search), since an opening that is too good is simply taken over.
    fn balanced_opening(&mut self, state: &KulamiState) -> SearchResult<Cell> {
        let start = web_time::Instant::now();
        let own_moves_left = state.moves_left_at_most().div_ceil(2);
        let depth = swap_judgement_depth(state.moves_left_at_most().saturating_sub(1)) + 1;
        let limits = Limits::depth(depth).with_time(self.options.time.cap(own_moves_left));
        let ranked = self.searcher.rank_moves(state, &KulamiEvaluator::tuned(state.scoring()), limits);
        let balanced = ranked.moves.iter().min_by_key(|(_, value)| value.abs()).copied();
        SearchResult {
            best: balanced.map(|(cell, _)| cell),
            value: balanced.map_or(0, |(_, value)| -value.abs()),
            pv: balanced.map(|(cell, _)| vec![cell]).unwrap_or_default(),
            depth: ranked.depth,
            exact: ranked.exact,
            nodes: 0,
            time: start.elapsed(),
        }
    }

    /// Levels 4 and 5: Monte-Carlo tree search, and the exact alpha-beta solver once the end is
    /// within the reach it can solve in `time`.
    fn tree_search(
        &mut self,
        state: &KulamiState,
        time: Duration,
        threads: usize,
        cancel: Option<&AtomicBool>,
    ) -> SearchResult<Cell> {
        if state.moves_left_at_most() <= solver_reach(time, state.scoring()) {
            let limits = match self.options.nodes {
                Some(nodes) => Limits::nodes(nodes),
                None => Limits::time(time),
            };
            return self.search(state, limits, cancel);
        }
        let start = web_time::Instant::now();
        if let Some(proven) = self.proven_move(state, time, cancel) {
            return proven;
        }
        let limits = self.mcts_limits(time.saturating_sub(start.elapsed()), threads);
        let found = self.grow_kept_tree(state, time, limits, cancel);
        self.tree_result(state, found, start)
    }

    /// The tree search of a `time` a move at `state` within `limits`, from the subtree the
    /// kept trees hold there, leaving its trees to the next search.
    fn grow_kept_tree(
        &mut self,
        state: &KulamiState,
        time: Duration,
        limits: MctsLimits,
        cancel: Option<&AtomicBool>,
    ) -> MctsResult<Cell> {
        let scoring = state.scoring();
        let evaluator = self.evaluator(scoring);
        let (kept, kept_scoring) = &mut self.kept;
        if *kept_scoring != scoring {
            kept.clear();
            *kept_scoring = scoring;
        }
        let options = tree_search_options(scoring, time);
        let seed = self.rng.next_u64();
        mcts::search_reusing(kept, state, Some(&evaluator), options, limits, seed, cancel)
    }

    /// Thinks about `position` while the opponent does (pondering), until `cancel` is set or
    /// for [`PONDER_MOVES`] of its own moves' time at most (which bounds the tree's memory):
    /// level 5 grows its tree there, and its next search starts from the subtree of the move
    /// then played. Other levels, deterministic mode, a finished game and an end the solver
    /// reaches return at once.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use std::time::Duration;
    /// use kulami_ai::{Engine, EngineOptions, Level, TimeControl};
    /// use kulami_core::{Move, Position, Scoring};
    /// let time = TimeControl::PerMove(Duration::from_millis(50));
    /// let mut engine = Engine::new(Level::Master, EngineOptions::default().with_time(time));
    /// let mut position = Position::new(kulami_layouts::preset("classic").unwrap().into_layout().into());
    /// let Some(Move::Place(mine)) = engine.choose(&position, Scoring::Standard, None).best else { panic!() };
    /// position.play(mine).unwrap();
    /// // The opponent thinks; nobody cancels, so the engine stops by itself after 4 x 50 ms.
    /// engine.ponder(&position, Scoring::Standard, &AtomicBool::new(false));
    /// ```
    pub fn ponder(&mut self, position: &Position, scoring: Scoring, cancel: &AtomicBool) {
        let state = KulamiState::new(position.clone(), scoring);
        // The next search is a ply later, where the solver may already reach the end.
        let moves_left_then = state.moves_left_at_most().saturating_sub(1);
        let time = self.options.time.budget(moves_left_then.div_ceil(2));
        let reached = moves_left_then <= solver_reach(time, scoring);
        if self.level != Level::Master || self.options.nodes.is_some() || reached || state.move_count() == 0 {
            return;
        }
        let limits = self.mcts_limits(time * PONDER_MOVES, self.options.threads);
        self.grow_kept_tree(&state, time, limits, Some(cancel));
    }

    /// Within [`proof_reach`] of the end, with time to think: a move that wins, or one that
    /// draws where none wins, if the solver proves it in [`PROOF_SHARE`] of `time`. Its value
    /// is what the proof shows: a point (the least a win is by) or 0. A proven loss, or no
    /// proof in time, leaves the move to the tree search, which plays on for the opponent's
    /// mistakes. Only when timed: the deterministic mode's tree search counts playouts.
    fn proven_move(
        &mut self,
        state: &KulamiState,
        time: Duration,
        cancel: Option<&AtomicBool>,
    ) -> Option<SearchResult<Cell>> {
        if self.options.nodes.is_some() || state.moves_left_at_most() > proof_reach(time, state.scoring()) {
            return None;
        }
        let proof = self.searcher.prove(
            state,
            &self.evaluator(state.scoring()),
            Limits::time(time.mul_f64(PROOF_SHARE)),
            cancel,
        )?;
        let value = match proof.outcome {
            Proven::Won => POINT,
            Proven::Drawn => 0,
            Proven::Lost => return None,
        };
        let depth = u32::try_from(state.moves_left_at_most()).unwrap_or(u32::MAX);
        Some(SearchResult {
            best: Some(proof.best),
            value,
            pv: vec![proof.best],
            depth,
            exact: false,
            nodes: proof.nodes,
            time: proof.time,
        })
    }

    /// A tree search's findings as a [`SearchResult`]: its move and line, and as the value the
    /// evaluation where the line ends (the exact margin if it reaches the end of the game), so
    /// that the MCTS levels report values on the same scale as the others.
    fn tree_result(
        &self,
        state: &KulamiState,
        found: MctsResult<Cell>,
        start: web_time::Instant,
    ) -> SearchResult<Cell> {
        let value = line_value(state, &found.pv, &self.evaluator(state.scoring()));
        SearchResult {
            best: found.best,
            value: if found.best.is_some() { value } else { state.terminal_value().unwrap_or(0) },
            depth: found.pv.len() as u32,
            exact: false,
            nodes: found.playouts,
            time: start.elapsed(),
            pv: found.pv,
        }
    }

    /// The tree search's limits: `time` on `threads`, or a fixed number of playouts on one
    /// thread in deterministic mode.
    fn mcts_limits(&self, time: Duration, threads: usize) -> MctsLimits {
        match self.options.nodes {
            Some(playouts) => MctsLimits { time: Duration::MAX, playouts, threads: 1 },
            None => MctsLimits { time, playouts: u64::MAX, threads },
        }
    }

    fn search(&mut self, state: &KulamiState, limits: Limits, cancel: Option<&AtomicBool>) -> SearchResult<Cell> {
        self.searcher.search(state, &self.evaluator(state.scoring()), limits, cancel)
    }
}

/// A weaker level's result once it picked `picked` (a move and its value at the level's depth)
/// rather than the search's best: that move, its value and no line beyond it.
fn with_choice(searched: SearchResult<Cell>, picked: Option<(Cell, i32)>) -> SearchResult<Cell> {
    match picked {
        Some((cell, value)) if searched.best != Some(cell) => {
            SearchResult { best: Some(cell), value, pv: vec![cell], exact: false, ..searched }
        }
        _ => searched,
    }
}

/// A random move among those whose `depth`-ply value by `evaluator` is within `slack` of the
/// best, with that value: the plausible but imperfect play of level 1, and of the seeded games
/// the puzzles are found in (which must not change when the levels are retuned).
pub(crate) fn pick_near_best(
    state: &KulamiState,
    evaluator: &KulamiEvaluator,
    depth: u32,
    slack: i32,
    rng: &mut Pcg64Mcg,
) -> Option<(Cell, i32)> {
    let mut game = state.clone();
    let values: Vec<(Cell, i32)> = game
        .moves()
        .into_iter()
        .map(|cell| {
            game.play(cell);
            let value = -value_at_depth(&mut game, evaluator, depth - 1);
            game.undo();
            (cell, value)
        })
        .collect();
    let best = values.iter().map(|&(_, value)| value).max()?;
    let near: Vec<(Cell, i32)> = values.into_iter().filter(|&(_, value)| value >= best - slack).collect();
    Some(near[(rng.next_u64() % near.len() as u64) as usize])
}

/// The value of `game` for the side to move by a plain `depth`-ply search with `evaluator`.
fn value_at_depth(game: &mut KulamiState, evaluator: &KulamiEvaluator, depth: u32) -> i32 {
    if let Some(value) = game.terminal_value() {
        return value;
    }
    if depth == 0 {
        return evaluator.evaluate(game);
    }
    baseline::best_move(game, evaluator, depth).map_or(0, |(_, value)| value)
}

/// How far below the best level 1's random pick may be. Its look at the tiles alone values
/// moves in whole points, so under a point it picks among the moves it rates best. Since the
/// evaluation weighs tile states, level 2 beat a level 1 that picked within a point by too much
/// for a ladder: 92.0% (+424, +356..+528, 200 games); against this one 88.0% (+346).
const BEGINNER_MARGIN: i32 = POINT / 2;

/// Level 1's look ahead. Since the evaluation also weighs the mover's threat and the tile
/// states it can reach, level 2 beat a two-ply level 1 by 93.0% (+449, +375..+567), too much
/// for a ladder; a three-ply one by 90.2% and 85.5% (+387 and +308, `kulami match 2 1 --random
/// 100 --concurrency 2`, then with `--seed 101`).
const BEGINNER_DEPTH: u32 = 3;

/// Level 3's search depth. With the tile-state evaluation four plies beat level 2 by 97.0%
/// (+604, 200 games) and lost only 66.0% (+115, 100 games) to level 4; three plies: 89.0%
/// (+363) and, in two runs, 76.5% and 80.0% (+205, +241) (`kulami match 3 2 --random 100
/// --concurrency 2`, `kulami match 4 3 --random 50 --concurrency 2`).
const CLUB_DEPTH: u32 = 3;

/// How many plies before the end level 3 searches to the end instead, under `scoring`.
///
/// Under the standard scoring 18: from 14, with three plies, level 3 scored 86.5% against level 2
/// and level 4 87.5% against it. Under `lines` and `both` fewer, which shortens the step from
/// level 2 and lengthens the one to level 4 (at its [`expert_time`]; `kulami match 3 2 --random
/// 100 --concurrency 2 --scoring lines`, `kulami match 4 3 --random 50 --concurrency 2 --scoring
/// lines`):
/// - `lines`: from 18, 94.2% (+486) and, level 4 at 15 ms, 85.5% (+308); from 14, 87.8% (+342,
///   +287..+415) and 90.0% (+382, +290..+547); from 10, 83.0% (+275) and 94.0% (+478).
/// - `both`: from 18, 91.0% (+402) and 84.0% (+288, level 4 at 15 ms) or 93.0% (+449, at 30
///   ms); from 16, 89.8% (+377, +313..+468) and, level 4 at 25 ms, 88.5% (+354, +277..+475); from
///   14, 86.5% (+323) and 91.0% (+402, at 20 ms).
///
/// Under `area` level 3 is already too weak for level 4 (see the README's ladder under the
/// variants), so it keeps 18.
fn club_exact_plies(scoring: Scoring) -> usize {
    match scoring {
        Scoring::Standard | Scoring::Area => 18,
        Scoring::Both => 16,
        Scoring::Lines => 14,
    }
}

/// Level 4's thinking time per move under `scoring` (less if its clock is short): 30 ms, 25 ms
/// under `area` and `both` and 15 ms under `lines`. Against level 3 (`kulami match 4 3 --random
/// 50 --concurrency 2 --scoring lines`, also with `--seed 101`) and level 5 at 1 s (`kulami match
/// 5 4 --random 50 --concurrency 2 --threads 1 --scoring lines`):
/// - `lines`: at 30 ms 93.0% (+449) and 85.5% (+308); at 15 ms, level 3 exact from 14 plies,
///   90.0% (+382) and 89.0% (+363, +299..+455); at 10 ms 79.5% against level 3 from 18 (+235).
/// - `both`: at 30 ms 93.0% (+449) and 85.5% (+308); at 25 ms, level 3 exact from 16, 88.5%
///   (+354) and 90.0% (+382, +307..+497); at 15 ms 95.0% for level 5 (+512).
/// - `area`, with `area next` in the evaluation: at 30 ms 93.5% and 90.5% (+463, +392; 92.0%
///   over both runs, about +424) and 88.5% (+354, +286..+453); at 25 ms 91.0% and 87.0% (+402,
///   +330; 89.0%, about +363) and 91.0% (+402, +325..+524).
fn expert_time(scoring: Scoring) -> Duration {
    match scoring {
        Scoring::Standard => Duration::from_millis(30),
        Scoring::Area | Scoring::Both => Duration::from_millis(25),
        Scoring::Lines => Duration::from_millis(15),
    }
}

/// The time-limited levels' thinking time for the only legal move.
const FORCED_MOVE_TIME: Duration = Duration::from_millis(20);

/// The longest [`Engine::ponder`] thinks, in its own moves' time.
pub const PONDER_MOVES: u32 = 4;

/// The tree search of levels 4 and 5: RAVE, and implicit minimax backups of the evaluation in
/// which a 4-point lead counts as a 73% chance of winning. Of the weights tried against RAVE
/// alone (100 games each at 0.1 s per move, `examples/mcts_tune.rs`), 0.3 scored 61.5%, 0.2 58% and
/// 0.5 47%. With the tile-state evaluation 0.4 beat 0.3: 54.8% at 0.1 s (`mcts_tune`, 200
/// games, +33, +3..+64 by pairs) and level 5 with it 55.5% at 1 s (`kulami match`, 100 games,
/// +38, +7..+70).
///
/// The weight rises with a child's visits, from 0.4 to 0.6, halfway at 1,000: the minimax over
/// the deep tree below a child visited often is worth more than its random playouts. At 0.1 s
/// against the fixed 0.4 (`mcts_tune`, 200 games) rising to 0.6 scored 57.0% (+49, +21..+78)
/// and to 0.8 53.5%, while a weight falling from 0.4 towards 0 (halfway at 1,000) scored 32.5%.
/// Level 5 with it scored 80.5% against plain MCTS at 1 s (100 games, +246, +208..+291; as
/// the first player 49.5/50, as the second 31/50), but only 51.0% against level 5 with the
/// fixed 0.4 at 1 s (`kulami match`, 100 games, +7, -25..+39): a gain at short times only.
///
/// A draw counts 0.1 below half a win for the side it moves for (contempt, at less than
/// [`CONTEMPT_MAX_TIME`] a move), so that it plays on for a win where a draw is at hand: the
/// second player's games are mostly drawn in the middlegame. Level 5 against plain MCTS scored 87.2% with it at 0.1 s per move against 81.2%
/// without (200 games each), and 78.0% at 1 s against 75.0% (100 games; as the first player
/// 50/50 and 49/50, as the second 28/50 and 26/50). A contempt of 0.2 scored more at 0.1 s
/// (88.2% against 86.5%, 200 games each) but less at 1 s (71.4% after 56 games, where 0.1 took
/// 77.7% of the same games).
pub const TREE_SEARCH: MctsOptions = MctsOptions {
    implicit_minimax: Some(ImplicitMinimax {
        weight: 0.4,
        deep_weight: 0.6,
        halfway_visits: 1000.0,
        scale: 4.0 * POINT as f64,
    }),
    contempt: 0.1,
    ..MctsOptions::RAVE
};

/// The tree search of levels 4 and 5 under `scoring` with `time` a move: [`TREE_SEARCH`] under
/// the standard scoring, without its contempt from [`CONTEMPT_MAX_TIME`] on; under `lines` RAVE
/// and implicit minimax backups of that scoring's evaluation ([`KulamiEvaluator::tuned`]) in
/// which an 8-point lead counts as a 73% chance; RAVE alone under `area` and `both`. Contempt is
/// for the standard scoring only: under `area` at 1 s level 5 with it stood at 62.5% against
/// MCTS after 56 games, against 68.5% without.
#[must_use]
pub fn tree_search_options(scoring: Scoring, time: Duration) -> MctsOptions {
    match scoring {
        Scoring::Standard if time >= CONTEMPT_MAX_TIME => MctsOptions { contempt: 0.0, ..TREE_SEARCH },
        Scoring::Standard => TREE_SEARCH,
        Scoring::Lines => LINES_TREE_SEARCH,
        Scoring::Area | Scoring::Both => MctsOptions::RAVE,
    }
}

/// The time a move from which the tree search scores a draw as half a win again. Contempt pays
/// against an opponent it outplays, and the longer both think, the less level 5 outplays plain
/// MCTS: at 0.1 s level 5 scored 87.2% with it against 81.2% without, at 1 s 78.0% against 75.0%,
/// but at 5 s 71.0% with it (as the second player +5 =35 -10) where a build without it had scored
/// 73.5% (+2 =44 -4 as the second player) and the same build without it stood at 77.6% after 67
/// games (`kulami match 5 mcts --random 50 --concurrency 2 --threads 1 --movetime 5000`); with this
/// constant level 5 then scored 73.5% (+6 =36 -8 as the second player). Against a strong first
/// player, playing on for a win turns the second player's draws into losses. Between 1 s and 5 s
/// nothing was measured; 3 s is where the proof of who wins starts too (the engine's
/// `proof_reach`).
pub const CONTEMPT_MAX_TIME: Duration = Duration::from_secs(3);

/// The tree search under the `lines` scoring. Against RAVE alone at 0.1 s per move its backups
/// scored 58.0% (`examples/mcts_tune.rs`, 100 games, +56, +9..+105), and level 5 with them 73.0%
/// against MCTS at 1 s (`kulami match`, 100 games, +173, +130..+221), where RAVE alone scored
/// 63.5% (+96, +56..+140). Under `both` they also scored 58.0% at 0.1 s, but level 5 with them
/// only 63.5% against MCTS at 1 s, no more than the 62.0% of RAVE alone, and 53.0% against
/// level 5 with RAVE alone (100 games, +21, -20..+62); under `area` 52.0% at 0.1 s.
const LINES_TREE_SEARCH: MctsOptions =
    MctsOptions { implicit_minimax: Some(ImplicitMinimax::fixed(0.4, 8.0 * POINT as f64)), ..MctsOptions::RAVE };

/// How deep the swap judgement searches the position the first marble leaves, with `moves_left`
/// plies to go: four, or to the end of a tiny game.
fn swap_judgement_depth(moves_left: usize) -> u32 {
    if moves_left <= 10 { 10 } else { 4 }
}

/// The value for the side to move in `state` of playing out `line`: the final margin if the line
/// ends the game, else the evaluation where it ends (how the tree search's findings are put on
/// the point scale of the other searches).
pub(crate) fn line_value(state: &KulamiState, line: &[Cell], evaluator: &KulamiEvaluator) -> i32 {
    let mut end = state.clone();
    for &cell in line {
        end.play(cell);
    }
    let end_value = end.terminal_value().unwrap_or_else(|| evaluator.evaluate(&end));
    if line.len().is_multiple_of(2) { end_value } else { -end_value }
}

/// The most plies left at which the alpha-beta solver nearly always proves the exact result in
/// `time` on one core under `scoring`. Positions from games between good players are harder
/// than random play's: from level 4's games (`PLAY=engine cargo run --release -p kulami-ai
/// --example endgames -- 20 22 24`, median and slowest of 15) 20 plies take 25 ms and 0.14 s,
/// 22 plies 0.10 s and 0.45 s, 24 plies 0.40 s and 1.7 s. Solving from 24 at 1 s scored 64.0%
/// against MCTS over 100 games (`kulami match 5 mcts --random 50 --concurrency 2 --threads 1`),
/// against 63.5% from 22; with the solver before its evaluation order, which took 0.68 s median
/// at 24 plies, 62.0%. A variant's scores cost more to count at every finished game, its values
/// spread wider and it has no cheap bounds, so the solver takes about as long two plies earlier
/// (`SCORING=both`: 18 plies 33 ms, 20 plies 0.15 s, 22 plies 1.5 s): two plies less.
pub(crate) fn solver_reach(time: Duration, scoring: Scoring) -> usize {
    let standard = match time.as_millis() {
        1000.. => 24,
        500.. => 22,
        70.. => 20,
        30.. => 18,
        _ => 16,
    };
    if scoring == Scoring::Standard { standard } else { standard - 2 }
}

/// The most plies left at which the tree search's move first waits for a proof of who wins
/// (see [`Engine::proven_move`]): only with several seconds a move, since the proof beyond the
/// exact solver's reach takes about a second. From level 4's games (`PLAY=engine PROVE=1 cargo
/// run --release -p kulami-ai --example endgames -- 24 26 28`, median and slowest of 15, one
/// thread) 26 plies take 0.57 s and 1.6 s, 28 plies 3.6 s and 7.7 s; the exact margin from 26
/// plies 1.4 s and 2.3 s. Under a variant scoring two plies less, as [`solver_reach`].
pub(crate) fn proof_reach(time: Duration, scoring: Scoring) -> usize {
    let standard = match time.as_millis() {
        5000.. => 28,
        3000.. => 26,
        _ => return 0,
    };
    if scoring == Scoring::Standard { standard } else { standard - 2 }
}

/// The share of a move's time the proof of who wins may take; the tree search has the rest.
const PROOF_SHARE: f64 = 0.5;

#[cfg(test)]
mod tests;
