//! Monte-Carlo tree search with random playouts (UCT), over any [`SearchGame`]: the method of
//! the other public Kulami program, kept to be measured against the alpha-beta search.

use std::time::{Duration, Instant};

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::Rng as _;

use crate::game::SearchGame;

/// Exploration constant of the UCB1 formula.
const EXPLORATION: f64 = 1.2;

struct Node<M> {
    /// The move that leads here (`None` at the root).
    mv: Option<M>,
    children: Vec<usize>,
    /// Moves not yet expanded into children.
    untried: Vec<M>,
    visits: u32,
    /// Sum of rewards for the player who made `mv`.
    reward: f64,
}

/// The most-visited move after searching `game` for `time` (or `playouts` playouts, whichever
/// ends first), and the number of playouts.
pub fn best_move<G: SearchGame>(game: &G, time: Duration, playouts: u64, rng: &mut Pcg64Mcg) -> Option<(G::Move, u64)> {
    let start = Instant::now();
    let mut nodes = vec![Node {
        mv: None,
        children: Vec::new(),
        untried: game.moves().into_iter().collect(),
        visits: 0,
        reward: 0.0,
    }];
    if nodes[0].untried.is_empty() {
        return None;
    }
    let mut done = 0;
    while done < playouts && (done % 64 != 0 || start.elapsed() < time) {
        let mut state = game.clone();
        let mut path = vec![0];
        // Selection: follow UCB1 through fully expanded nodes.
        let mut current = 0;
        while nodes[current].untried.is_empty() && !nodes[current].children.is_empty() {
            let parent_visits = f64::from(nodes[current].visits).ln();
            current = *nodes[current]
                .children
                .iter()
                .max_by(|&&a, &&b| ucb(&nodes[a], parent_visits).total_cmp(&ucb(&nodes[b], parent_visits)))
                .expect("has children");
            state.play(nodes[current].mv.expect("children have moves"));
            path.push(current);
        }
        // Expansion: one new child.
        if !nodes[current].untried.is_empty() {
            let pick = (rng.next_u64() % nodes[current].untried.len() as u64) as usize;
            let mv = nodes[current].untried.swap_remove(pick);
            state.play(mv);
            let child = nodes.len();
            nodes.push(Node {
                mv: Some(mv),
                children: Vec::new(),
                untried: state.moves().into_iter().collect(),
                visits: 0,
                reward: 0.0,
            });
            nodes[current].children.push(child);
            path.push(child);
        }
        // Playout: random moves to the end.
        let leaf_ply = state.ply();
        let value = loop {
            if let Some(value) = state.terminal_value() {
                break value;
            }
            let count = state.move_count() as u64;
            let mv = state.moves().into_iter().nth((rng.next_u64() % count) as usize).expect("index below count");
            state.play(mv);
        };
        // The reward for the side to move at the end; flip it along the path.
        let end_reward = match value.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        for (depth, &index) in path.iter().enumerate().rev() {
            // The player who made this node's move is the one not to move at its depth.
            let plies_after = (state.ply() - leaf_ply) + (path.len() - 1 - depth);
            let mover_is_final_side_to_move = plies_after % 2 == 1;
            nodes[index].visits += 1;
            nodes[index].reward += if mover_is_final_side_to_move { end_reward } else { 1.0 - end_reward };
        }
        done += 1;
    }
    let best = nodes[0].children.iter().max_by_key(|&&child| nodes[child].visits).copied()?;
    Some((nodes[best].mv.expect("children have moves"), done))
}

fn ucb<M>(node: &Node<M>, parent_visits_ln: f64) -> f64 {
    let visits = f64::from(node.visits.max(1));
    node.reward / visits + EXPLORATION * (parent_visits_ln / visits).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kulami::KulamiState;
    use kulami_core::{Layout, Position, Scoring};
    use rand_pcg::rand_core::SeedableRng as _;
    use std::sync::Arc;

    #[test]
    fn returns_a_legal_move_after_the_playouts_asked_for() {
        let layout = Arc::new(Layout::parse("AABB").unwrap());
        let position = Position::from_moves(layout, &["a1".parse().unwrap()]).unwrap();
        let state = KulamiState::new(position, Scoring::Standard);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let (mv, playouts) = best_move(&state, Duration::from_secs(1), 200, &mut rng).unwrap();
        assert!(state.position().legal_moves().contains(mv));
        assert_eq!(playouts, 200);
    }

    #[test]
    fn prefers_the_winning_move_on_a_small_board() {
        // The exact solver knows the best first moves; with enough playouts MCTS finds one.
        let layout = Arc::new(Layout::parse("AAB/CCB").unwrap());
        let state = KulamiState::new(Position::new(layout), Scoring::Standard);
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        let (mv, _) = best_move(&state, Duration::from_secs(5), 3000, &mut rng).unwrap();
        let mut after = state.clone();
        after.play(mv);
        let searched = crate::search::Searcher::new(1, 1).search(
            &after,
            &crate::eval::KulamiEvaluator::default(),
            crate::search::Limits::default(),
            None,
        );
        let best = crate::search::Searcher::new(1, 1).search(
            &state,
            &crate::eval::KulamiEvaluator::default(),
            crate::search::Limits::default(),
            None,
        );
        assert_eq!(-searched.value, best.value, "MCTS picked {mv}, which is not best");
    }
}
