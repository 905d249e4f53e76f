//! The trees a search leaves for the next one (tree reuse, [`search_reusing`](super::search_reusing)): each thread's
//! tree with its root position, and the subtree below a later position, copied out as a tree of
//! its own.

use super::Node;
use crate::game::SearchGame;

/// The trees of a search, kept for the next one ([`search_reusing`](super::search_reusing)). Keep one per player in a
/// game, and [`KeptTrees::clear`] it when anything but the position changes (the scoring, the
/// evaluation, the options), since the trees' statistics were gathered under them.
pub struct KeptTrees<G: SearchGame> {
    pub(super) trees: Vec<KeptTree<G>>,
}

impl<G: SearchGame> Default for KeptTrees<G> {
    fn default() -> Self {
        KeptTrees { trees: Vec::new() }
    }
}

impl<G: SearchGame> std::fmt::Debug for KeptTrees<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptTrees").field("trees", &self.trees.len()).field("nodes", &self.nodes()).finish()
    }
}

impl<G: SearchGame> KeptTrees<G> {
    /// Forgets the kept trees.
    pub fn clear(&mut self) {
        self.trees.clear();
    }

    /// Nodes kept over all trees (for tests and diagnostics).
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(|tree| tree.nodes.len()).sum()
    }
}

/// The most moves between a kept tree's root and the next search's position for the tree to be
/// reused: a player's own move and the reply, with room for a pass or a move that keeps the turn.
pub const REUSE_PLIES: usize = 4;

/// One thread's tree, with the position at its root.
pub(super) struct KeptTree<G: SearchGame> {
    pub(super) game: G,
    pub(super) nodes: Vec<Node<G::Move>>,
}

impl<G: SearchGame> KeptTree<G> {
    /// The subtree at `game`, as a tree of its own, if the tree reaches it within
    /// [`REUSE_PLIES`] moves of its root.
    pub(super) fn reroot(mut self, game: &G) -> Option<Vec<Node<G::Move>>> {
        let plies = game.ply().checked_sub(self.game.ply()).filter(|&plies| plies <= REUSE_PLIES)?;
        let found = self.find(0, plies, game)?;
        Some(subtree(&self.nodes, found))
    }

    /// The node `plies` moves below `index` whose position is `target` (equal keys and banked
    /// values: for a game that banks a part of its value, the key leaves that part out).
    fn find(&mut self, index: usize, plies: usize, target: &G) -> Option<usize> {
        if plies == 0 {
            let same = self.game.hash() == target.hash() && self.game.value_banked() == target.value_banked();
            return same.then_some(index);
        }
        let node = self.nodes[index];
        (node.first_child as usize..(node.first_child + node.child_count) as usize).find_map(|child| {
            self.game.play(self.nodes[child].mv.expect("children have moves"));
            let found = self.find(child, plies - 1, target);
            self.game.undo();
            found
        })
    }
}

/// The subtree of `nodes` below `root`, laid out afresh with `root` first.
fn subtree<M: Copy>(nodes: &[Node<M>], root: usize) -> Vec<Node<M>> {
    let mut kept = vec![Node { mv: None, ..nodes[root] }];
    let mut queue = std::collections::VecDeque::from([(root, 0)]);
    while let Some((old, new)) = queue.pop_front() {
        let node = nodes[old];
        kept[new].first_child = kept.len() as u32;
        for child in node.first_child..node.first_child + node.child_count {
            queue.push_back((child as usize, kept.len()));
            kept.push(nodes[child as usize]);
        }
    }
    kept
}
