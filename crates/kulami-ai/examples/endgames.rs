//! Times the exact endgame solver on positions with a given number of plies left, reached by
//! random play on random 8x8 boards: `cargo run --release -p kulami-ai --example endgames -- 16 20 24`.
//! `THREADS` (default 1) and `TABLE_MB` (default 64) set the searcher, `SCORING` (default
//! `standard`) the scoring; 4 and 16 MB were no faster. `PLAY=engine` reaches the positions by
//! level 4 playing itself instead (2,000 playouts a move, reproducible): positions from games
//! between good players, which are harder to solve than random play's. They move whenever level
//! 4's search changes, so `POSITIONS=FILE` reads the positions instead, a line each (plies left,
//! the layout on one line, the moves), and `SAVE=FILE` writes the ones timed in that form.
//! `crates/kulami-ai/benches/endgame-positions.txt` keeps the 15 positions `PLAY=engine`
//! reached at 22, 24 and 26 plies on 2026-12-05, so that a solver change is timed on the same
//! positions whatever level 4 does. `WEIGHTS=OPENING;END` (as `KulamiEvaluator` reads them)
//! gives the solver's move order another evaluation; the positions stay the same. `PROVE=1`
//! times the proof of who wins ([`Searcher::prove`]) instead of the exact final margin.

use std::sync::Arc;
use std::time::Duration;

use kulami_ai::{Engine, EngineOptions, KulamiEvaluator, KulamiState, Level, Limits, SearchGame, Searcher};
use kulami_core::notation::{format_moves, parse_moves};
use kulami_core::{Layout, Move, Position, Scoring};
use kulami_layouts::{Shape, generate};

/// Playouts a move of the level 4 that reaches the positions with `PLAY=engine`.
const ENGINE_PLAYOUTS: u64 = 2000;

/// Positions timed for each number of plies left.
const POSITIONS: usize = 15;

/// The positions of a `POSITIONS` file with `left` plies left, in the file's order.
fn read_positions(path: &str, text: &str, left: usize, scoring: Scoring) -> Vec<KulamiState> {
    let positions: Vec<KulamiState> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|(index, line)| {
            let fail = |what: String| -> ! { panic!("{path}, line {}: {what}", index + 1) };
            let mut fields = line.splitn(3, ' ');
            let plies: usize =
                fields.next().and_then(|n| n.parse().ok()).unwrap_or_else(|| fail("no plies left".into()));
            if plies != left {
                return None;
            }
            let layout = Layout::parse(fields.next().unwrap_or_default()).unwrap_or_else(|e| fail(e.to_string()));
            let moves = parse_moves(fields.next().unwrap_or_default()).unwrap_or_else(|e| fail(e.to_string()));
            let position = Position::from_moves(Arc::new(layout), &moves).unwrap_or_else(|e| fail(e.to_string()));
            let state = KulamiState::new(position, scoring);
            if state.moves_left_at_most() != left {
                fail(format!("{} plies left, not {left}", state.moves_left_at_most()));
            }
            Some(state)
        })
        .collect();
    assert!(!positions.is_empty(), "{path} has no position with {left} plies left");
    positions
}

/// A position as a line of a `POSITIONS` file.
fn position_line(state: &KulamiState) -> String {
    let position = state.position();
    let moves: Vec<Move> = position.moves().collect();
    format!("{} {} {}", state.moves_left_at_most(), position.layout().to_one_line(), format_moves(&moves))
}

/// A position with `left` plies to go at most, from seed `seed`: random play until then, or
/// `engine`'s moves.
fn endgame(seed: u64, left: usize, scoring: Scoring, mut engine: Option<&mut Engine>) -> Option<KulamiState> {
    let layout = Arc::new(generate(seed, Shape::Square));
    let mut game = KulamiState::new(Position::new(layout), scoring);
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    if let Some(engine) = engine.as_deref_mut() {
        engine.new_game();
    }
    while game.moves_left_at_most() > left {
        let moves: Vec<_> = game.moves().into_iter().collect();
        if moves.is_empty() {
            return None;
        }
        let chosen = match engine.as_deref_mut() {
            Some(engine) => {
                let Some(Move::Place(cell)) = engine.choose(game.position(), scoring, None).best else { return None };
                cell
            }
            None => {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                moves[(x % moves.len() as u64) as usize]
            }
        };
        game.play(chosen);
    }
    (game.moves_left_at_most() == left && game.terminal_value().is_none()).then_some(game)
}

fn main() {
    let lefts: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("plies left")).collect();
    let threads = std::env::var("THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    let table_mb = std::env::var("TABLE_MB").ok().and_then(|t| t.parse().ok()).unwrap_or(64);
    let scoring: Scoring = std::env::var("SCORING").map_or(Scoring::Standard, |s| s.parse().expect("a scoring"));
    let mut engine = match std::env::var("PLAY").as_deref() {
        Ok("engine") => Some(Engine::new(Level::Expert, EngineOptions::default().with_nodes(Some(ENGINE_PLAYOUTS)))),
        Ok("random") | Err(_) => None,
        Ok(other) => panic!("PLAY is `random` or `engine`, not `{other}`"),
    };
    let evaluator: KulamiEvaluator = std::env::var("WEIGHTS").map_or_else(
        |_| KulamiEvaluator::tuned(scoring),
        |weights| weights.parse().unwrap_or_else(|error| panic!("WEIGHTS: {error}")),
    );
    let prove = std::env::var("PROVE").is_ok_and(|prove| prove == "1");
    let from_file = std::env::var("POSITIONS").ok().map(|path| {
        assert!(engine.is_none(), "POSITIONS reads the positions, so PLAY cannot choose how to reach them");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("POSITIONS: {path}: {error}"));
        (path, text)
    });
    let mut saved = String::new();
    let mut searcher = Searcher::new(table_mb, threads);
    for left in if lefts.is_empty() { vec![16, 20, 24] } else { lefts } {
        let games = match &from_file {
            Some((path, text)) => read_positions(path, text, left, scoring),
            None => (0..).filter_map(|seed| endgame(seed, left, scoring, engine.as_mut())).take(POSITIONS).collect(),
        };
        let mut times = Vec::new();
        let mut nodes = 0;
        let mut node_counts = Vec::new();
        for game in &games {
            saved += &position_line(game);
            saved.push('\n');
            searcher.clear();
            let (time, searched) = if prove {
                let proof = searcher.prove(game, &evaluator, Limits::default(), None).expect("unlimited, so proven");
                (proof.time, proof.nodes)
            } else {
                let result = searcher.search(game, &evaluator, Limits::default(), None);
                assert!(result.exact, "an unlimited search ends solved");
                (result.time, result.nodes)
            };
            times.push(time);
            nodes += searched;
            node_counts.push(searched);
        }
        times.sort();
        node_counts.sort_unstable();
        let total: Duration = times.iter().sum();
        println!(
            "{left} plies left, {} positions, {threads} thread(s): median {:.3} s, max {:.3} s, total {:.2} s, {:.1} M nodes/s, median {} nodes, total {} nodes",
            times.len(),
            times[times.len() / 2].as_secs_f64(),
            times[times.len() - 1].as_secs_f64(),
            total.as_secs_f64(),
            nodes as f64 / total.as_secs_f64() / 1e6,
            node_counts[node_counts.len() / 2],
            nodes
        );
    }
    if let Ok(path) = std::env::var("SAVE") {
        std::fs::write(&path, saved).unwrap_or_else(|error| panic!("SAVE: {path}: {error}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/endgame-positions.txt");

    /// The kept positions: 15 live games at each of 22, 24 and 26 plies left, each written back
    /// as the line it was read from (the file's comments aside).
    #[test]
    fn the_kept_positions_read_back_as_written() {
        let text = std::fs::read_to_string(KEPT).unwrap();
        let mut written = String::new();
        for left in [22, 24, 26] {
            let positions = read_positions(KEPT, &text, left, Scoring::Standard);
            assert_eq!(positions.len(), POSITIONS, "{left} plies left");
            for state in &positions {
                assert!(state.terminal_value().is_none());
                written += &position_line(state);
                written.push('\n');
            }
        }
        let positions: String =
            text.lines().filter(|line| !line.starts_with('#')).map(|line| format!("{line}\n")).collect();
        assert_eq!(written, positions);
    }

    #[test]
    #[should_panic(expected = "kept, line 2: 54 plies left, not 26")]
    fn a_position_with_other_plies_left_says_where() {
        let line = "26 AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO d4 d7";
        read_positions("kept", &format!("# a comment\n{line}\n"), 26, Scoring::Standard);
    }
}
