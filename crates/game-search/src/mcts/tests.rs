use super::*;
use crate::nim::Nim;

/// Values that vary from pile to pile and ply to ply, so that minimax values keep changing.
struct Scattered;

impl Evaluator<Nim> for Scattered {
    fn evaluate(&self, game: &Nim) -> i32 {
        (i32::from(game.counters()) * 37 + game.ply() as i32 * 11) % 23 - 11
    }
}

/// Checks that every expanded node below `index` holds the value backed up from its
/// children, `game` being the position at `index`; returns how many were checked.
fn check_backups(tree: &mut Tree<'_, Nim>, index: usize) -> usize {
    let mut checked = 0;
    for child in tree.children(index) {
        let made_by = tree.game.mover();
        tree.game.play(tree.nodes[child].mv.expect("children have moves"));
        if tree.nodes[child].child_count > 0 {
            let backed_up = tree.backed_up_heuristic(child, tree.game.mover(), made_by);
            assert_eq!(tree.nodes[child].heuristic, backed_up, "node {child}, pile {}", tree.game.counters());
            checked += 1 + check_backups(tree, child);
        }
        tree.game.undo();
    }
    checked
}

#[test]
fn the_backups_that_stop_early_leave_every_node_with_its_childrens_minimax() {
    for solve_leaves in [None, Some(4)] {
        let options = MctsOptions {
            implicit_minimax: Some(ImplicitMinimax::fixed(0.4, 10.0)),
            solve_leaves,
            ..MctsOptions::RAVE
        };
        let mut tree = Tree::new(Nim::new(40), vec![Node::new(None)], Some(&Scattered), options, 3);
        assert_eq!(tree.run(5000, None, None), 5000);
        assert!(check_backups(&mut tree, 0) > 500, "a deep enough tree to test");
    }
}

/// Nim whose playouts run on a copy of the game.
#[derive(Clone)]
struct NimOnACopy(Nim);

impl SearchGame for NimOnACopy {
    type Move = u8;
    type Moves = crate::nim::Takes;
    const MOVE_SLOTS: usize = Nim::MOVE_SLOTS;
    const PLAYOUTS_ON_A_COPY: bool = true;

    crate::nim::nim_methods!();
    fn terminal_value(&self) -> Option<i32> {
        self.0.terminal_value()
    }
    fn pack(mv: u8) -> u16 {
        Nim::pack(mv)
    }
    fn unpack(number: u16) -> Option<u8> {
        Nim::unpack(number)
    }
}

impl Evaluator<NimOnACopy> for Scattered {
    fn evaluate(&self, game: &NimOnACopy) -> i32 {
        self.evaluate(&game.0)
    }
}

#[test]
fn playouts_on_a_copy_search_as_playouts_taken_back() {
    let options = MctsOptions { implicit_minimax: Some(ImplicitMinimax::fixed(0.4, 10.0)), ..MctsOptions::RAVE };
    let limits = MctsLimits { time: Duration::MAX, playouts: 4000, threads: 1 };
    let taken_back = search(&Nim::new(41), Some(&Scattered), options, limits, 5, None);
    let on_a_copy = search(&NimOnACopy(Nim::new(41)), Some(&Scattered), options, limits, 5, None);
    assert_eq!(on_a_copy, taken_back);
    assert_eq!(taken_back.playouts, 4000);
}
