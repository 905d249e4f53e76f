//! Monte-Carlo tree search with random playouts (UCT), over any [`SearchGame`].
//!
//! Settings of one search: [`MctsOptions::PLAIN`] is the method of the other public Kulami
//! program (UCB1 and uniform playouts), kept to be measured against; [`MctsOptions::RAVE`] adds
//! RAVE (all-moves-as-first statistics), which suits a placement game where a hole taken is taken
//! for good. A game with an [`Evaluator`] can add [`ImplicitMinimax`] backups of it. Several
//! threads grow one tree each (root parallelism), whose root counts are summed.

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

use crate::game::{Evaluator, Proven, SearchGame};
use kept::KeptTree;
pub use kept::{KeptTrees, REUSE_PLIES};
use tree::{Node, RootChild, Tree};

mod kept;
mod tree;

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

#[cfg(test)]
mod tests;
