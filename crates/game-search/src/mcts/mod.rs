//! Monte-Carlo tree search with random playouts (UCT), over any [`SearchGame`].
//!
//! Settings of one search: [`MctsOptions::PLAIN`] is the method of the other public Kulami
//! program (UCB1 and uniform playouts), kept to be measured against; [`MctsOptions::RAVE`] adds
//! RAVE (all-moves-as-first statistics), which suits a placement game where a hole taken is taken
//! for good. A game with an [`Evaluator`] can add [`ImplicitMinimax`] backups of it. Several
//! threads grow one tree each (root parallelism), whose root counts are summed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng as _, SeedableRng as _};

use crate::game::{Evaluator, Proven, SearchGame};
use crate::search::OutcomeProver;
use kept::KeptTree;
pub use kept::{KeptTrees, REUSE_PLIES};

mod kept;

/// How the tree is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Exploration constant of the UCB1 term.
    pub exploration: f64,
    /// RAVE equivalence: after about this many visits a node's own statistics weigh as much as
    /// its all-moves-as-first ones. `None` turns RAVE off.
    pub rave_equivalence: Option<f64>,
    /// Implicit minimax backups: each node also keeps the minimax value of the evaluation
    /// over the tree below it, and selection mixes it in. `None` turns them off.
    pub implicit_minimax: Option<ImplicitMinimax>,
    /// Leaves this many moves or fewer from the end are solved on their first visit, by an
    /// exact search of who wins. Proofs climb the tree (MCTS-Solver): a node is proven once one
    /// of its moves is proven won for its mover, or all are proven. A playout that reaches a
    /// proven node scores the proof instead of a random game, and goes no deeper. It needs the
    /// evaluator (which orders the exact search's moves far from the end), and a game whose
    /// [`SearchGame::moves_left_at_most`] is tight, to be quick. `None` turns it off.
    pub solve_leaves: Option<usize>,
    /// How much less than half a win a draw is worth to the player to move at the root, and
    /// how much more to the other: above 0 the search plays for a win rather than settle for a
    /// draw, which pays against a weaker opponent. 0 scores a draw as half a win for both.
    pub contempt: f64,
}

/// How implicit minimax backups weigh the evaluation (Lanctot, Winands, Pepels and Sturtevant,
/// "Monte Carlo Tree Search with Heuristic Evaluations using Implicit Minimax Backups", 2014).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImplicitMinimax {
    /// The share of a new child's value that comes from the minimax of the evaluation (0 to 1).
    pub weight: f64,
    /// The share it tends to as the child's visits grow (equal to `weight` for a fixed share). A
    /// child visited often has a deep tree below it, and the minimax over that tree is the value
    /// of a deeper search than one evaluation.
    pub deep_weight: f64,
    /// The visits at which the share is halfway from `weight` to `deep_weight`.
    pub halfway_visits: f64,
    /// The evaluation that counts as a 73% chance of winning (the logistic curve's unit).
    pub scale: f64,
}

impl ImplicitMinimax {
    /// A share of `weight` whatever a child's visits, with `scale` as the logistic curve's unit.
    #[must_use]
    pub const fn fixed(weight: f64, scale: f64) -> ImplicitMinimax {
        ImplicitMinimax { weight, deep_weight: weight, halfway_visits: 1.0, scale }
    }

    /// The share of the evaluation's minimax in the value of a child visited `visits` times.
    ///
    /// ```
    /// use game_search::mcts::ImplicitMinimax;
    /// let rising = ImplicitMinimax { weight: 0.4, deep_weight: 0.6, halfway_visits: 1000.0, scale: 400.0 };
    /// assert_eq!(rising.share(0.0), 0.4);
    /// assert!((rising.share(1000.0) - 0.5).abs() < 1e-12);
    /// assert!(rising.share(1e9) > 0.5999);
    /// assert_eq!(ImplicitMinimax::fixed(0.4, 400.0).share(1e9), 0.4);
    /// ```
    #[must_use]
    pub fn share(&self, visits: f64) -> f64 {
        self.weight + (self.deep_weight - self.weight) * visits / (visits + self.halfway_visits)
    }
}

impl MctsOptions {
    /// Plain UCT with random playouts, as the other public program plays.
    pub const PLAIN: MctsOptions = MctsOptions {
        exploration: 1.2,
        rave_equivalence: None,
        implicit_minimax: None,
        solve_leaves: None,
        contempt: 0.0,
    };
    /// UCT with RAVE, at the exploration and equivalence chosen by Kulami's matches (see the
    /// README's Strength section).
    pub const RAVE: MctsOptions = MctsOptions {
        exploration: 0.25,
        rave_equivalence: Some(300.0),
        implicit_minimax: None,
        solve_leaves: None,
        contempt: 0.0,
    };
}

/// When to stop searching: whichever limit comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MctsLimits {
    /// Time for the whole search.
    pub time: Duration,
    /// Playouts per thread.
    pub playouts: u64,
    /// Threads, each with its own tree.
    pub threads: usize,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The most-visited move (a move proven won before any other, a move proven lost after
    /// every other), or `None` if the game is over.
    pub best: Option<M>,
    /// The line the tree believes in: `best`, then in the tree that visited `best` most the
    /// most-visited reply at each step, as long as it was visited at least [`PV_MIN_VISITS`] times.
    pub pv: Vec<M>,
    /// The share of the playouts through `best` that its player won (a draw counts half).
    pub win_rate: f64,
    /// Every move at the root, in the order of `best`: the most visited first, a proven win
    /// before and a proven loss after all others (so `best` and `pv` are the first's).
    pub moves: Vec<RootMove<M>>,
    /// Playouts run, on all threads.
    pub playouts: u64,
}

/// A move at the root and what the search found below it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Playouts through it, on all threads.
    pub visits: u64,
    /// The share of those playouts that its player won (a draw counts half).
    pub win_rate: f64,
    /// The move, then the most-visited reply at each step while it has [`PV_MIN_VISITS`].
    pub line: Vec<M>,
    /// What the move leads to under perfect play, if the search proved it
    /// ([`MctsOptions::solve_leaves`]), for the player making it.
    pub proven: Option<Proven>,
}

/// The fewest visits for a move to be part of [`MctsResult::pv`]: fewer say little.
pub const PV_MIN_VISITS: u32 = 8;

/// Searches `game` within `limits`; `seed` fixes the random playouts, so a search limited by
/// playouts on one thread always returns the same move. Setting `cancel` stops it at once.
/// `evaluator` serves the options' [`ImplicitMinimax`] backups; without one they are off.
/// [`search_reusing`] does the same starting from the trees of an earlier search.
///
/// ```
/// use std::time::Duration;
/// use game_search::mcts::{self, MctsLimits, MctsOptions};
/// use game_search::nim::Nim;
/// // Ten counters, take one to three: taking two leaves a multiple of four, which wins.
/// let limits = MctsLimits { time: Duration::from_secs(5), playouts: 3000, threads: 1 };
/// let found = mcts::search(&Nim::new(10), None, MctsOptions::RAVE, limits, 7, None);
/// assert_eq!(found.best, Some(2));
/// assert_eq!(found.playouts, 3000);
/// ```
///
/// # Panics
/// If a method of `game` panics on one of the search threads (the panic is passed on).
pub fn search<G: SearchGame>(
    game: &G,
    evaluator: Option<&dyn Evaluator<G>>,
    options: MctsOptions,
    limits: MctsLimits,
    seed: u64,
    cancel: Option<&AtomicBool>,
) -> MctsResult<G::Move> {
    search_reusing(&mut KeptTrees::default(), game, evaluator, options, limits, seed, cancel)
}

/// [`search`], starting from what the trees in `kept` found below `game`, if an earlier search
/// looked at it (tree reuse), and leaving its own trees there for the next search. `limits`
/// counts only this search's playouts.
///
/// ```
/// use std::time::Duration;
/// use game_search::SearchGame;
/// use game_search::mcts::{self, KeptTrees, MctsLimits, MctsOptions};
/// use game_search::nim::Nim;
/// let limits = MctsLimits { time: Duration::from_secs(5), playouts: 3000, threads: 1 };
/// let mut kept = KeptTrees::default();
/// let mut game = Nim::new(10);
/// mcts::search_reusing(&mut kept, &game, None, MctsOptions::RAVE, limits, 7, None);
/// game.play(2);
/// game.play(1);
/// // The second search starts with the visits the first one gave this position.
/// let second = mcts::search_reusing(&mut kept, &game, None, MctsOptions::RAVE, limits, 8, None);
/// assert_eq!(second.best, Some(3));
/// assert!(second.moves.iter().map(|root| root.visits).sum::<u64>() > 3000);
/// ```
///
/// # Panics
/// If a method of `game` panics on one of the search threads (the panic is passed on).
pub fn search_reusing<G: SearchGame>(
    kept: &mut KeptTrees<G>,
    game: &G,
    evaluator: Option<&dyn Evaluator<G>>,
    options: MctsOptions,
    limits: MctsLimits,
    seed: u64,
    cancel: Option<&AtomicBool>,
) -> MctsResult<G::Move> {
    // A time too long for the clock to add is no limit (the playout count may still end it).
    let deadline = Instant::now().checked_add(limits.time);
    let threads = limits.threads.max(1);
    let mut starts: Vec<Vec<Node<G::Move>>> = std::mem::take(&mut kept.trees)
        .into_iter()
        .map(|tree| tree.reroot(game).unwrap_or_else(|| vec![Node::new(None)]))
        .collect();
    starts.resize_with(threads, || vec![Node::new(None)]);
    let grow = |game: G, nodes: Vec<Node<G::Move>>, thread: usize| {
        let mut tree = Tree::new(game, nodes, evaluator, options, seed.wrapping_add(thread as u64));
        let playouts = tree.run(limits.playouts, deadline, cancel);
        (tree, playouts)
    };
    // The first tree grows on the calling thread, so that one tree needs no thread at all (and
    // runs where threads cannot be made, as in a browser).
    let mut starts = starts.into_iter();
    let first = starts.next().expect("at least one thread");
    let trees: Vec<(Tree<'_, G>, u64)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = starts
            .enumerate()
            .map(|(helper, nodes)| {
                let game = game.clone();
                scope.spawn(move || grow(game, nodes, helper + 1))
            })
            .collect();
        let mut trees = vec![grow(game.clone(), first, 0)];
        trees.extend(helpers.into_iter().map(|helper| helper.join().expect("an MCTS thread panicked")));
        trees
    });
    // Root parallelism: add up each move's visits and wins over the trees.
    let mut totals: Vec<RootChild<G::Move>> = Vec::new();
    for child in trees.iter().flat_map(|(tree, _)| tree.root_children()) {
        match totals.iter_mut().find(|total| total.mv == child.mv) {
            Some(total) => {
                total.visits += child.visits;
                total.wins += child.wins;
                // Every tree proves the same, if it proves anything.
                total.proven = total.proven.or(child.proven);
            }
            None => totals.push(child),
        }
    }
    let playouts = trees.iter().map(|(_, playouts)| playouts).sum();
    // A proven win first and a proven loss last, whatever their visits; the rest by visits.
    let standing = |child: &RootChild<G::Move>| match child.proven {
        Some(Proven::Won) => 2,
        Some(Proven::Lost) => 0,
        _ => 1,
    };
    totals.sort_by(|a, b| standing(b).cmp(&standing(a)).then(b.visits.cmp(&a.visits)).then(b.wins.total_cmp(&a.wins)));
    let moves: Vec<RootMove<G::Move>> = totals
        .iter()
        .map(|total| {
            // The line of the tree that looked at the move most.
            let deepest = trees.iter().map(|(tree, _)| tree).max_by_key(|tree| tree.root_visits_of(total.mv));
            RootMove {
                mv: total.mv,
                visits: total.visits,
                win_rate: total.wins / total.visits.max(1) as f64,
                line: deepest.map_or_else(|| vec![total.mv], |tree| tree.line_from(total.mv)),
                proven: total.proven,
            }
        })
        .collect();
    kept.trees = trees.into_iter().map(|(tree, _)| KeptTree { game: tree.game, nodes: tree.nodes }).collect();
    let Some(first) = moves.first() else {
        return MctsResult { best: None, pv: Vec::new(), win_rate: 0.0, moves, playouts };
    };
    MctsResult { best: Some(first.mv), pv: first.line.clone(), win_rate: first.win_rate, moves, playouts }
}

/// A root move's statistics, from the side to move's point of view.
#[derive(Clone, Copy, Debug)]
struct RootChild<M> {
    mv: M,
    visits: u64,
    wins: f64,
    proven: Option<Proven>,
}

#[derive(Clone, Copy)]
struct Node<M> {
    /// The move that leads here (`None` at the root).
    mv: Option<M>,
    /// Children are stored together from here; `child_count` is 0 until the node is expanded.
    first_child: u32,
    child_count: u32,
    visits: u32,
    /// Playout rewards for the player who made `mv`: 1 a win, 0.5 a draw.
    wins: f32,
    /// The same for the playouts in which that player made `mv` later (all moves as first).
    amaf_visits: u32,
    amaf_wins: f32,
    /// With implicit minimax backups: the chance that the player who made `mv` wins, by the
    /// minimax of the evaluation over this node's subtree.
    heuristic: f32,
    /// A node proven by [`MctsOptions::solve_leaves`]: whether the player who made `mv` wins
    /// (1), draws (0) or loses (-1) with it.
    proven: Option<i8>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>) -> Node<M> {
        Node {
            mv,
            first_child: 0,
            child_count: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            heuristic: 0.5,
            proven: None,
        }
    }
}

/// A playout's reward for a player who wins (1), draws (0) or loses (-1).
fn reward_of(outcome: i8) -> f32 {
    f32::from(outcome + 1) / 2.0
}

/// Plays `mv` in `game`, noting it in `played` and who made it in `movers`.
fn play<G: SearchGame>(game: &mut G, mv: G::Move, played: &mut Vec<G::Move>, movers: &mut Vec<u8>) {
    movers.push(game.mover());
    game.play(mv);
    played.push(mv);
}

/// Plays random moves in `game` to its end, noting them as [`play`] does; returns who sees the
/// final value and its sign (1 a win, 0 a draw, -1 a loss).
fn random_game<G: SearchGame>(
    game: &mut G,
    rng: &mut Pcg64Mcg,
    played: &mut Vec<G::Move>,
    movers: &mut Vec<u8>,
) -> (u8, i8) {
    loop {
        let Some(mv) = game.random_move(rng.next_u64()) else {
            let value = game.terminal_value().expect("a game without moves is over");
            return (game.mover(), value.signum() as i8);
        };
        play(game, mv, played, movers);
    }
}

/// The table of each tree's leaf solver ([`MctsOptions::solve_leaves`]): its searches are
/// short, and only their upper plies use a table.
const LEAF_SOLVER_TABLE_MEGABYTES: usize = 2;

/// One thread's tree, walked with make/unmake on one game state.
struct Tree<'e, G: SearchGame> {
    game: G,
    options: MctsOptions,
    /// The evaluation and how its implicit minimax backups weigh, when both are given.
    minimax: Option<(&'e dyn Evaluator<G>, ImplicitMinimax)>,
    /// With [`MctsOptions::solve_leaves`] and an evaluation: the prover, the evaluation that
    /// orders its moves, and the most moves left at which a leaf is solved.
    leaf_solver: Option<(OutcomeProver, &'e dyn Evaluator<G>, usize)>,
    nodes: Vec<Node<G::Move>>,
    rng: Pcg64Mcg,
    /// Scratch: nodes on the current path, every move of the current playout, and who made each.
    path: Vec<u32>,
    played: Vec<G::Move>,
    movers: Vec<u8>,
    /// Scratch for RAVE: the moves each side made from some depth on, as bit sets of packed moves.
    made_later: [Vec<u64>; 2],
    /// Who moves at the root, for [`MctsOptions::contempt`].
    root_mover: u8,
    visit_roots: VisitRoots,
    /// The moves of the node being expanded, and their values by the evaluation.
    child_moves: Vec<G::Move>,
    child_values: Vec<i32>,
}

/// The square roots [`Tree::select`] needs, by visit count, for the counts below
/// [`VisitRoots::COUNTS`] (the rest are computed): most children it scores have fewer visits.
struct VisitRoots {
    /// `1 / sqrt(n)`.
    inverse_roots: Vec<f64>,
    /// The RAVE weight `sqrt(k / (3n + k))` for the tree's equivalence `k`.
    rave_weights: Vec<f64>,
}

impl VisitRoots {
    const COUNTS: u32 = 1024;

    fn new(rave_equivalence: Option<f64>) -> VisitRoots {
        let counts = 0..VisitRoots::COUNTS;
        VisitRoots {
            inverse_roots: counts.clone().map(VisitRoots::computed_inverse_root).collect(),
            rave_weights: rave_equivalence.map_or_else(Vec::new, |equivalence| {
                counts.map(|visits| VisitRoots::computed_rave_weight(visits, equivalence)).collect()
            }),
        }
    }

    fn computed_inverse_root(visits: u32) -> f64 {
        1.0 / f64::from(visits).sqrt()
    }

    fn computed_rave_weight(visits: u32, equivalence: f64) -> f64 {
        (equivalence / (3.0 * f64::from(visits) + equivalence)).sqrt()
    }

    fn inverse_root(&self, visits: u32) -> f64 {
        self.inverse_roots.get(visits as usize).copied().unwrap_or_else(|| VisitRoots::computed_inverse_root(visits))
    }

    fn rave_weight(&self, visits: u32, equivalence: f64) -> f64 {
        (self.rave_weights.get(visits as usize).copied())
            .unwrap_or_else(|| VisitRoots::computed_rave_weight(visits, equivalence))
    }
}

impl<'e, G: SearchGame> Tree<'e, G> {
    /// A tree at `game`, grown on from `nodes` (a new root alone, or a kept subtree).
    fn new(
        mut game: G,
        nodes: Vec<Node<G::Move>>,
        evaluator: Option<&'e dyn Evaluator<G>>,
        options: MctsOptions,
        seed: u64,
    ) -> Tree<'e, G> {
        game.prepare_for_playouts();
        let root_mover = game.mover();
        let words = G::MOVE_SLOTS.div_ceil(64);
        Tree {
            game,
            options,
            minimax: evaluator.zip(options.implicit_minimax),
            leaf_solver: evaluator
                .zip(options.solve_leaves)
                .map(|(evaluator, plies)| (OutcomeProver::new(LEAF_SOLVER_TABLE_MEGABYTES), evaluator, plies)),
            nodes,
            rng: Pcg64Mcg::seed_from_u64(seed),
            path: Vec::new(),
            played: Vec::new(),
            movers: Vec::new(),
            made_later: [vec![0; words], vec![0; words]],
            root_mover,
            visit_roots: VisitRoots::new(options.rave_equivalence),
            child_moves: Vec::new(),
            child_values: Vec::new(),
        }
    }

    /// Runs up to `playouts` playouts before `deadline`; returns how many ran.
    fn run(&mut self, playouts: u64, deadline: Option<Instant>, cancel: Option<&AtomicBool>) -> u64 {
        if self.game.terminal_value().is_some() {
            return 0;
        }
        let mut done = 0;
        while done < playouts {
            // After the first playout (so that there is a move to return), and every 64th.
            let check = done == 1 || (done > 0 && done % 64 == 0);
            let late = deadline.is_some_and(|deadline| Instant::now() >= deadline);
            if check && (late || cancel.is_some_and(|c| c.load(Ordering::Relaxed))) {
                break;
            }
            self.playout();
            done += 1;
        }
        done
    }

    fn root_children(&self) -> Vec<RootChild<G::Move>> {
        self.children(0)
            .map(|index| {
                let node = &self.nodes[index];
                RootChild {
                    mv: node.mv.expect("children have moves"),
                    visits: u64::from(node.visits),
                    wins: f64::from(node.wins),
                    proven: node.proven.map(|sign| Proven::of_sign(i32::from(sign))),
                }
            })
            .collect()
    }

    fn root_child(&self, mv: G::Move) -> Option<usize> {
        self.children(0).find(|&index| self.nodes[index].mv == Some(mv))
    }

    fn root_visits_of(&self, mv: G::Move) -> u32 {
        self.root_child(mv).map_or(0, |index| self.nodes[index].visits)
    }

    /// `first`, then the most-visited child at each step while it has enough visits.
    fn line_from(&self, first: G::Move) -> Vec<G::Move> {
        let mut line = vec![first];
        let mut current = self.root_child(first);
        while let Some(index) = current {
            current = self.children(index).max_by_key(|&child| self.nodes[child].visits);
            match current.map(|child| &self.nodes[child]) {
                Some(child) if child.visits >= PV_MIN_VISITS => line.push(child.mv.expect("children have moves")),
                _ => break,
            }
        }
        line
    }

    fn children(&self, index: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[index];
        node.first_child as usize..(node.first_child + node.child_count) as usize
    }

    /// One selection, expansion, random playout and update.
    fn playout(&mut self) {
        self.path.clear();
        self.played.clear();
        self.movers.clear();
        let mut current = 0;
        self.path.push(0);
        loop {
            if self.nodes[current].proven.is_some() {
                break;
            }
            if self.nodes[current].child_count == 0 {
                // Expand the root at once and other nodes on their second visit.
                if current != 0 && self.nodes[current].visits == 0 {
                    self.solve_leaf(current);
                    break;
                }
                self.expand(current);
                if self.nodes[current].child_count == 0 {
                    break;
                }
            }
            current = self.select(current);
            play(
                &mut self.game,
                self.nodes[current].mv.expect("children have moves"),
                &mut self.played,
                &mut self.movers,
            );
            self.path.push(current as u32);
        }
        let tree_moves = self.played.len();
        // The outcome for a player, and who: the proof's, for the player who made the move to a
        // proven node, else the random game's, for whoever its final value is seen by.
        let (end_mover, end_outcome) = match self.nodes[current].proven {
            Some(outcome) => (*self.movers.last().expect("the root is never proven"), outcome),
            None if G::PLAYOUTS_ON_A_COPY => {
                random_game(&mut self.game.clone(), &mut self.rng, &mut self.played, &mut self.movers)
            }
            None => {
                let end = random_game(&mut self.game, &mut self.rng, &mut self.played, &mut self.movers);
                for _ in tree_moves..self.played.len() {
                    self.game.undo();
                }
                end
            }
        };
        self.update(end_mover, end_outcome);
        for _ in 0..tree_moves {
            self.game.undo();
        }
    }

    /// Solves the new leaf `index`, the current position, if [`MctsOptions::solve_leaves`] asks.
    fn solve_leaf(&mut self, index: usize) {
        let Some((prover, evaluator, plies)) = &self.leaf_solver else { return };
        if self.game.moves_left_at_most() > *plies || self.game.terminal_value().is_some() {
            return;
        }
        let outcome = prover.outcome(&mut self.game, *evaluator);
        let made_by = *self.movers.last().expect("a leaf below the root has a move");
        self.prove(index, if made_by == self.game.mover() { outcome } else { -outcome });
    }

    /// Records that the player who made node `index`'s move wins (1), draws (0) or loses (-1)
    /// with it; the implicit minimax backups take the proof for the evaluation.
    fn prove(&mut self, index: usize, outcome: i8) {
        let node = &mut self.nodes[index];
        node.proven = Some(outcome);
        if self.minimax.is_some() {
            node.heuristic = reward_of(outcome);
        }
    }

    /// The outcome of node `index` for the player who moves there, if its children prove it
    /// (MCTS-Solver): a child proven won for that player, or every child proven.
    fn proven_by_children(&self, index: usize) -> Option<i8> {
        let (mut best, mut every) = (-1, true);
        for child in self.children(index) {
            // A child's proof is for the player who made its move: the one who moves here.
            match self.nodes[child].proven {
                Some(1) => return Some(1),
                Some(outcome) => best = best.max(outcome),
                None => every = false,
            }
        }
        every.then_some(best)
    }

    fn expand(&mut self, index: usize) {
        let first = self.nodes.len();
        self.child_moves.clear();
        self.child_moves.extend(self.game.moves());
        self.nodes.extend(self.child_moves.iter().map(|&mv| Node::new(Some(mv))));
        let node = &mut self.nodes[index];
        node.first_child = first as u32;
        node.child_count = self.child_moves.len() as u32;
        if let Some((evaluator, minimax)) = self.minimax {
            self.child_values.clear();
            evaluator.values_after(&mut self.game, &self.child_moves, &mut self.child_values);
            for (child, &value) in self.nodes[first..].iter_mut().zip(&self.child_values) {
                child.heuristic = (1.0 / (1.0 + (-f64::from(value) / minimax.scale).exp())) as f32;
            }
        }
    }

    /// The implicit minimax value of an expanded node, for the player who made its move,
    /// from its children's (`to_move` moves at the node, `made_by` made its move).
    fn backed_up_heuristic(&self, index: usize, to_move: u8, made_by: u8) -> f32 {
        let best = self.children(index).map(|child| self.nodes[child].heuristic).fold(0.0, f32::max);
        if to_move == made_by { best } else { 1.0 - best }
    }

    /// The child to follow: UCB1 on the blend of its own and its all-moves-as-first value.
    fn select(&self, index: usize) -> usize {
        // The square roots of UCB1 and of the RAVE weight were most of the selection's time:
        // `sqrt(ln N / n)` is `sqrt(ln N)` once per node times `1 / sqrt(n)` from a table, and
        // the weight comes from a table too, for the visit counts it holds.
        let exploration = self.options.exploration * f64::from(self.nodes[index].visits.max(1)).ln().sqrt();
        let score = |child: &Node<G::Move>| {
            let visits = f64::from(child.visits);
            let own = if child.visits > 0 { f64::from(child.wins) / visits } else { 0.0 };
            let value = match self.options.rave_equivalence {
                Some(equivalence) if child.amaf_visits > 0 => {
                    let amaf = f64::from(child.amaf_wins) / f64::from(child.amaf_visits);
                    let weight = self.visit_roots.rave_weight(child.visits, equivalence);
                    (1.0 - weight) * own + weight * amaf
                }
                // Unvisited and never seen in a playout: try it first.
                _ if child.visits == 0 => return f64::INFINITY,
                _ => own,
            };
            let value = match self.minimax {
                Some((_, minimax)) => {
                    let share = minimax.share(visits);
                    (1.0 - share) * value + share * f64::from(child.heuristic)
                }
                None => value,
            };
            value + exploration * self.visit_roots.inverse_root(child.visits.max(1))
        };
        // Each child scored once (comparing by a score found anew for both sides scored the
        // best so far again at every step); the last of equal scores wins, as with `max_by`.
        self.children(index)
            .map(|child| (score(&self.nodes[child]), child))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .expect("expanded nodes have children")
            .1
    }

    /// Adds the playout's result along the path, and to the all-moves-as-first statistics of the
    /// children whose move their player made later in the playout.
    fn update(&mut self, end_mover: u8, end_outcome: i8) {
        let contempt = self.options.contempt as f32;
        let root_mover = self.root_mover;
        let reward = |player: u8| match if player == end_mover { end_outcome } else { -end_outcome } {
            0 if player == root_mover => 0.5 - contempt,
            0 => 0.5 + contempt,
            outcome => reward_of(outcome),
        };
        // Who is to move at each depth of the path (the game's end has its own).
        let mover_at = |movers: &[u8], depth: usize| movers.get(depth).copied().unwrap_or(end_mover);
        let rave = self.options.rave_equivalence.is_some();
        for set in &mut self.made_later {
            set.fill(0);
        }
        let mut next_move = self.played.len();
        // A proof at the leaf may prove the nodes above it, as far as each one is proven.
        let leaf = *self.path.last().expect("the path starts at the root") as usize;
        let mut proving = self.nodes[leaf].proven.is_some();
        // Only nodes on the path get new implicit minimax values, and above one whose value
        // stayed the same every value stays: the backups stop there.
        let mut heuristic_changed = true;
        for depth in (0..self.path.len()).rev() {
            let index = self.path[depth] as usize;
            let heuristic_before = self.nodes[index].heuristic;
            // The player who made this node's move moved at depth - 1 (the root has no move).
            let mover_reward = if depth > 0 { reward(self.movers[depth - 1]) } else { 1.0 - reward(self.movers[0]) };
            let to_move = mover_at(&self.movers, depth);
            if heuristic_changed && self.minimax.is_some() && depth > 0 && self.nodes[index].child_count > 0 {
                self.nodes[index].heuristic = self.backed_up_heuristic(index, to_move, self.movers[depth - 1]);
            }
            if proving && depth > 0 && self.nodes[index].proven.is_none() && self.nodes[index].child_count > 0 {
                let made_by = self.movers[depth - 1];
                match self.proven_by_children(index) {
                    Some(outcome) => self.prove(index, if made_by == to_move { outcome } else { -outcome }),
                    None => proving = false,
                }
            }
            // A leaf may have been proven before the update, which changed its value.
            heuristic_changed = self.nodes[index].child_count == 0 || self.nodes[index].heuristic != heuristic_before;
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.wins += mover_reward;
            if !rave {
                continue;
            }
            // Moves from this depth on, by side: the side to move here made played[depth], ...
            while next_move > depth {
                next_move -= 1;
                let packed = usize::from(G::pack(self.played[next_move]));
                self.made_later[usize::from(self.movers[next_move])][packed / 64] |= 1 << (packed % 64);
            }
            let own_moves = &self.made_later[usize::from(to_move)];
            let child_reward = reward(to_move);
            for child in self.children(index) {
                let node = &mut self.nodes[child];
                let packed = usize::from(G::pack(node.mv.expect("children have moves")));
                if own_moves[packed / 64] & (1 << (packed % 64)) != 0 {
                    node.amaf_visits += 1;
                    node.amaf_wins += child_reward;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
