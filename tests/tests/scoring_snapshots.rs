//! Hand-made positions covering every scoring rule and decision of `docs/RULES.md`. Each snapshot
//! shows the board and the breakdown, so a reviewer can check the numbers by eye.

use std::fmt::Write as _;
use std::sync::Arc;

use kulami_core::{CellSet, Layout, Position, Scoring, notation::parse_moves};

const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";
/// Fifty dominoes filling the whole 10x10 frame, for lines along its edges.
const FULL_FRAME: &str =
    "AABBCCDDEE/FFGGHHIIJJ/KKLLMMNNOO/PPQQRRSSTT/UUVVWWXXYY/ZZaabbccdd/eeffgghhii/jjkkllmmnn/ooppqqrrss/ttuuvvwwxx";
/// Two rows with a cell without a hole at f1.
const GAP: &str = "AABBB.CCC/DDDEEFFGG";

fn cells(names: &str) -> CellSet {
    parse_moves(names).unwrap().into_iter().map(|played| played.cell().expect("a cell")).collect()
}

/// The snapshot text: what the case shows, the board, the breakdown, and the winner under each scoring.
fn report(description: &str, layout: &Layout, red: CellSet, black: CellSet, scoring: Scoring, ending: &str) -> String {
    let mut text = format!("{description}\nscoring: {scoring}{ending}\n\n");
    text += &layout.draw_marbles(red, black, None);
    let _ = writeln!(text, "\n{}", layout.score_marbles(red, black, scoring));
    let winners: Vec<String> =
        Scoring::ALL.iter().map(|&s| format!("{s} {}", layout.score_marbles(red, black, s).winner)).collect();
    let _ = writeln!(text, "winner under each scoring: {}", winners.join(", "));
    text
}

/// A position given by its marbles.
fn diagram(name: &str, description: &str, layout: &str, red: &str, black: &str, scoring: Scoring) {
    let layout = Layout::parse(layout).unwrap();
    insta::assert_snapshot!(name, report(description, &layout, cells(red), cells(black), scoring, ""));
}

/// A position reached by legal play, checked to have ended.
fn played(name: &str, description: &str, layout: Layout, moves: &str, scoring: Scoring) {
    let position = Position::from_moves(Arc::new(layout), &parse_moves(moves).unwrap()).unwrap();
    assert!(position.is_game_over(), "{name} has not ended");
    let side = position.side_to_move();
    let ending = format!(
        "\nmoves: {moves}\ngame over: {side} to move, {} marbles left, {} legal moves",
        position.marbles_left(side),
        position.legal_moves().len()
    );
    // Score through the position (incremental tile points) and check the diagram path agrees.
    let red = position.marbles(kulami_core::Color::Red);
    let black = position.marbles(kulami_core::Color::Black);
    assert_eq!(position.score(scoring), position.layout().score_marbles(red, black, scoring));
    insta::assert_snapshot!(name, report(description, position.layout(), red, black, scoring, &ending));
}

#[test]
fn tile_majorities() {
    use Scoring::Standard;
    diagram(
        "rulebook_2x2_two_to_one",
        "Rulebook: a 2x2 tile with 2 red and 1 black marble scores 4 for red.",
        "AABB/AABB",
        "a1 b1",
        "a2",
        Standard,
    );
    diagram(
        "tied_tile_scores_nobody",
        "Equal counts score for nobody: 3-3 on the 2x3 and 1-1 on both 1x2 tiles, so 0-0.",
        "AAABB/AAACC",
        "a1 b1 c2 d1 d2",
        "a2 b2 c1 e1 e2",
        Standard,
    );
    diagram(
        "empty_board_is_a_draw",
        "0-0 tiles score for nobody: the empty classic board is 0-0, a draw.",
        CLASSIC,
        "",
        "",
        Standard,
    );
    diagram(
        "unfilled_holes_still_count",
        "A tile scores all its holes, filled or not: one red marble on a 2x3 is 6.",
        CLASSIC,
        "f5",
        "",
        Standard,
    );
    diagram(
        "majority_two_to_one_on_2x3",
        "2-1 on a 2x3 gives red 6; black's lone marbles on two 1x3 tiles give black 3 + 3: a draw.",
        CLASSIC,
        "d5 e5",
        "f6 g4 c5",
        Standard,
    );
    diagram(
        "totals_tie_is_a_draw",
        "Equal totals are a draw: red's 2x3 (6) against black's 2x2 and 1x2 (4 + 2).",
        CLASSIC,
        "e1",
        "a1 a5",
        Standard,
    );
}

#[test]
fn biggest_area() {
    use Scoring::Area;
    diagram(
        "rulebook_area_12_vs_17",
        "Rulebook: largest areas 12 (red) and 17 (black) give black 5 bonus points.",
        CLASSIC,
        "a1 b1 c1 a2 b2 c2 a3 b3 c3 a4 b4 c4",
        "e5 f5 g5 h5 e6 f6 g6 h6 e7 f7 g7 h7 e8 f8 g8 h8 d8",
        Area,
    );
    diagram(
        "area_crosses_tile_boundaries",
        "A group connects across tile edges: a1-b1 (A), c1-d1 (B), d2 (B), d3 (F) is one group of 6.",
        CLASSIC,
        "a1 b1 c1 d1 d2 d3",
        "h8",
        Area,
    );
    diagram(
        "diagonal_contact_does_not_connect",
        "Marbles touching only at corners are separate groups: red's largest is 1.",
        CLASSIC,
        "a1 b2 c3 d4",
        "h1 h2",
        Area,
    );
    diagram(
        "equal_areas_give_no_bonus",
        "Largest groups of 3 and 3: no area bonus.",
        CLASSIC,
        "a1 a2 a3",
        "h6 h7 h8",
        Area,
    );
    diagram(
        "largest_group_not_sum_of_groups",
        "Only the largest group counts: red's 3 + 3 separate groups are 3, black's single group is 4.",
        CLASSIC,
        "a1 b1 c1 a8 b8 c8",
        "e4 f4 g4 h4",
        Area,
    );
}

#[test]
fn lines() {
    use Scoring::Lines;
    diagram(
        "rulebook_lines_12_vs_15",
        "Rulebook: red lines 7 and 5 (sum 12), black lines 5, 5, 5 (sum 15): black gets 3.",
        CLASSIC,
        "a1 b1 c1 d1 e1 f1 g1 a3 b3 c3 d3 e3",
        "h2 h3 h4 h5 h6 a5 b5 c5 d5 e5 a7 b7 c7 d7 e7",
        Lines,
    );
    diagram("line_of_5_horizontal", "Five in a row across a row count 5.", CLASSIC, "b4 c4 d4 e4 f4", "", Lines);
    diagram("line_of_6_vertical", "Six in a column count 6.", CLASSIC, "c2 c3 c4 c5 c6 c7", "", Lines);
    diagram(
        "line_of_7_diagonal",
        "Seven on the down-right diagonal count 7, once (not as three runs of 5).",
        CLASSIC,
        "a1 b2 c3 d4 e5 f6 g7",
        "",
        Lines,
    );
    diagram("line_of_5_antidiagonal", "Five on the down-left diagonal count 5.", CLASSIC, "h1 g2 f3 e4 d5", "", Lines);
    diagram("line_of_4_does_not_count", "Four in a row is not a line.", CLASSIC, "a1 b1 c1 d1", "a8 b8 c8", Lines);
    diagram(
        "line_broken_by_empty_hole",
        "An empty hole (d1) ends a run: 3 + 3 is no line.",
        CLASSIC,
        "a1 b1 c1 e1 f1 g1",
        "",
        Lines,
    );
    diagram(
        "line_broken_by_missing_hole",
        "A cell without a hole (f1) ends a run: 3 + 3 is no line.",
        GAP,
        "c1 d1 e1 g1 h1 i1",
        "",
        Lines,
    );
    diagram(
        "line_broken_by_opponent",
        "An opponent's marble (d1) ends a run for red and is no line for black.",
        CLASSIC,
        "a1 b1 c1 e1 f1 g1",
        "d1",
        Lines,
    );
    diagram(
        "marble_in_two_lines",
        "A marble may be in lines of several directions: a cross of 5 + 5 shares c3 and counts 10.",
        CLASSIC,
        "a3 b3 c3 d3 e3 c1 c2 c4 c5",
        "",
        Lines,
    );
    diagram(
        "lines_along_frame_edges",
        "Runs along the frame's edges: column j (10) and row 10 (10) count 20 for black; red's 6 in row 1 count 6.",
        FULL_FRAME,
        "a1 b1 c1 d1 e1 f1",
        "j1 j2 j3 j4 j5 j6 j7 j8 j9 j10 a10 b10 c10 d10 e10 f10 g10 h10 i10",
        Lines,
    );
    diagram(
        "equal_lines_give_no_bonus",
        "Line sums of 5 and 5: no line bonus.",
        CLASSIC,
        "a1 b1 c1 d1 e1",
        "a8 b8 c8 d8 e8",
        Lines,
    );
}

#[test]
fn both_variants() {
    diagram(
        "both_bonuses_change_the_winner",
        "Both variants: black's area and line bonuses (5 + 6) overturn red's tile lead of 18 to 9.",
        CLASSIC,
        "a1 c1 e1 a3",
        "a8 b8 c8 d8 e8 f8",
        Scoring::Both,
    );
    diagram(
        "bonuses_split_between_players",
        "Red has the larger area, black the longer lines: each gets one bonus.",
        CLASSIC,
        "a1 a2 b1 b2 c1 c2 d1",
        "a8 b7 c6 d5 e4",
        Scoring::Both,
    );
}

#[test]
fn endings() {
    let layout = |text: &str| Layout::parse(text).unwrap();
    played(
        "blocked_after_two_moves",
        "Red is blocked after a1 c1: row 1 and column c hold only black's and red's own tiles.",
        layout("AABB"),
        "a1 c1",
        Scoring::Standard,
    );
    played(
        "all_marbles_placed",
        "With 2 marbles each, the game ends when black places its second.",
        layout("AABB/CCDD").with_marbles_per_player(2).unwrap(),
        "a1 a2 d2 d1",
        Scoring::Standard,
    );
    let full_game = first_legal_game(CLASSIC);
    played(
        "classic_game_ends_with_black_blocked",
        "A whole classic game, each side taking its first legal hole: black is blocked with 5 marbles left; unfilled holes are ignored.",
        layout(CLASSIC),
        &full_game,
        Scoring::Both,
    );
    let filled = first_legal_game("AABBCC/DDEEFF/GGHHII");
    played(
        "every_hole_filled",
        "A 3x6 board with 9 marbles each, played until every hole is filled.",
        layout("AABBCC/DDEEFF/GGHHII"),
        &filled,
        Scoring::Both,
    );
}

fn first_legal_game(layout: &str) -> String {
    let mut position = Position::new(Arc::new(Layout::parse(layout).unwrap()));
    while let Some(cell) = position.legal_moves().first() {
        position.play(cell).unwrap();
    }
    kulami_core::notation::format_moves(position.placements())
}
