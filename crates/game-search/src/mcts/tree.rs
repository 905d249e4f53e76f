//! One thread's tree: its nodes, the selection, expansion, random playouts and backups that
//! grow it, and what it found (the root's children and the line below a move).

use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng as _, SeedableRng as _};

use super::{ImplicitMinimax, MctsOptions, PV_MIN_VISITS};
use crate::game::{Evaluator, Proven, SearchGame};
use crate::search::OutcomeProver;

/// A root move's statistics, from the side to move's point of view.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootChild<M> {
    pub(super) mv: M,
    pub(super) visits: u64,
    pub(super) wins: f64,
    pub(super) proven: Option<Proven>,
}

#[derive(Clone, Copy)]
pub(super) struct Node<M> {
    /// The move that leads here (`None` at the root).
    pub(super) mv: Option<M>,
    /// Children are stored together from here; `child_count` is 0 until the node is expanded.
    pub(super) first_child: u32,
    pub(super) child_count: u32,
    pub(super) visits: u32,
    /// Playout rewards for the player who made `mv`: 1 a win, 0.5 a draw.
    pub(super) wins: f32,
    /// The same for the playouts in which that player made `mv` later (all moves as first).
    pub(super) amaf_visits: u32,
    pub(super) amaf_wins: f32,
    /// With implicit minimax backups: the chance that the player who made `mv` wins, by the
    /// minimax of the evaluation over this node's subtree.
    pub(super) heuristic: f32,
    /// A node proven by [`MctsOptions::solve_leaves`]: whether the player who made `mv` wins
    /// (1), draws (0) or loses (-1) with it.
    pub(super) proven: Option<i8>,
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>) -> Node<M> {
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
pub(super) fn reward_of(outcome: i8) -> f32 {
    f32::from(outcome + 1) / 2.0
}

/// Plays `mv` in `game`, noting it in `played` and who made it in `movers`.
pub(super) fn play<G: SearchGame>(game: &mut G, mv: G::Move, played: &mut Vec<G::Move>, movers: &mut Vec<u8>) {
    movers.push(game.mover());
    game.play(mv);
    played.push(mv);
}

/// Plays random moves in `game` to its end, noting them as [`play`] does; returns who sees the
/// final value and its sign (1 a win, 0 a draw, -1 a loss).
pub(super) fn random_game<G: SearchGame>(
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
pub(super) const LEAF_SOLVER_TABLE_MEGABYTES: usize = 2;

/// One thread's tree, walked with make/unmake on one game state.
pub(super) struct Tree<'e, G: SearchGame> {
    pub(super) game: G,
    pub(super) options: MctsOptions,
    /// The evaluation and how its implicit minimax backups weigh, when both are given.
    pub(super) minimax: Option<(&'e dyn Evaluator<G>, ImplicitMinimax)>,
    /// With [`MctsOptions::solve_leaves`] and an evaluation: the prover, the evaluation that
    /// orders its moves, and the most moves left at which a leaf is solved.
    pub(super) leaf_solver: Option<(OutcomeProver, &'e dyn Evaluator<G>, usize)>,
    pub(super) nodes: Vec<Node<G::Move>>,
    pub(super) rng: Pcg64Mcg,
    /// Scratch: nodes on the current path, every move of the current playout, and who made each.
    pub(super) path: Vec<u32>,
    pub(super) played: Vec<G::Move>,
    pub(super) movers: Vec<u8>,
    /// Scratch for RAVE: the moves each side made from some depth on, as bit sets of packed moves.
    pub(super) made_later: [Vec<u64>; 2],
    /// Who moves at the root, for [`MctsOptions::contempt`].
    pub(super) root_mover: u8,
    pub(super) visit_roots: VisitRoots,
    /// The moves of the node being expanded, and their values by the evaluation.
    pub(super) child_moves: Vec<G::Move>,
    pub(super) child_values: Vec<i32>,
}

/// The square roots [`Tree::select`] needs, by visit count, for the counts below
/// [`VisitRoots::COUNTS`] (the rest are computed): most children it scores have fewer visits.
pub(super) struct VisitRoots {
    /// `1 / sqrt(n)`.
    pub(super) inverse_roots: Vec<f64>,
    /// The RAVE weight `sqrt(k / (3n + k))` for the tree's equivalence `k`.
    pub(super) rave_weights: Vec<f64>,
}

impl VisitRoots {
    const COUNTS: u32 = 1024;

    pub(super) fn new(rave_equivalence: Option<f64>) -> VisitRoots {
        let counts = 0..VisitRoots::COUNTS;
        VisitRoots {
            inverse_roots: counts.clone().map(VisitRoots::computed_inverse_root).collect(),
            rave_weights: rave_equivalence.map_or_else(Vec::new, |equivalence| {
                counts.map(|visits| VisitRoots::computed_rave_weight(visits, equivalence)).collect()
            }),
        }
    }

    pub(super) fn computed_inverse_root(visits: u32) -> f64 {
        1.0 / f64::from(visits).sqrt()
    }

    pub(super) fn computed_rave_weight(visits: u32, equivalence: f64) -> f64 {
        (equivalence / (3.0 * f64::from(visits) + equivalence)).sqrt()
    }

    pub(super) fn inverse_root(&self, visits: u32) -> f64 {
        self.inverse_roots.get(visits as usize).copied().unwrap_or_else(|| VisitRoots::computed_inverse_root(visits))
    }

    pub(super) fn rave_weight(&self, visits: u32, equivalence: f64) -> f64 {
        (self.rave_weights.get(visits as usize).copied())
            .unwrap_or_else(|| VisitRoots::computed_rave_weight(visits, equivalence))
    }
}

impl<'e, G: SearchGame> Tree<'e, G> {
    /// A tree at `game`, grown on from `nodes` (a new root alone, or a kept subtree).
    pub(super) fn new(
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
    pub(super) fn run(&mut self, playouts: u64, deadline: Option<Instant>, cancel: Option<&AtomicBool>) -> u64 {
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

    pub(super) fn root_children(&self) -> Vec<RootChild<G::Move>> {
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

    pub(super) fn root_child(&self, mv: G::Move) -> Option<usize> {
        self.children(0).find(|&index| self.nodes[index].mv == Some(mv))
    }

    pub(super) fn root_visits_of(&self, mv: G::Move) -> u32 {
        self.root_child(mv).map_or(0, |index| self.nodes[index].visits)
    }

    /// `first`, then the most-visited child at each step while it has enough visits.
    pub(super) fn line_from(&self, first: G::Move) -> Vec<G::Move> {
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

    pub(super) fn children(&self, index: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[index];
        node.first_child as usize..(node.first_child + node.child_count) as usize
    }

    /// One selection, expansion, random playout and update.
    pub(super) fn playout(&mut self) {
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
    pub(super) fn solve_leaf(&mut self, index: usize) {
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
    pub(super) fn prove(&mut self, index: usize, outcome: i8) {
        let node = &mut self.nodes[index];
        node.proven = Some(outcome);
        if self.minimax.is_some() {
            node.heuristic = reward_of(outcome);
        }
    }

    /// The outcome of node `index` for the player who moves there, if its children prove it
    /// (MCTS-Solver): a child proven won for that player, or every child proven.
    pub(super) fn proven_by_children(&self, index: usize) -> Option<i8> {
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

    pub(super) fn expand(&mut self, index: usize) {
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
    pub(super) fn backed_up_heuristic(&self, index: usize, to_move: u8, made_by: u8) -> f32 {
        let best = self.children(index).map(|child| self.nodes[child].heuristic).fold(0.0, f32::max);
        if to_move == made_by { best } else { 1.0 - best }
    }

    /// The child to follow: UCB1 on the blend of its own and its all-moves-as-first value.
    pub(super) fn select(&self, index: usize) -> usize {
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
    pub(super) fn update(&mut self, end_mover: u8, end_outcome: i8) {
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
