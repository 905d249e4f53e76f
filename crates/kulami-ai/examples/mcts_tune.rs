//! Plays MCTS settings against each other (or against level 5 itself, `master`) on random 8x8
//! boards, to choose [`MctsOptions::RAVE`] and the engine's [`TREE_SEARCH`](kulami_ai::TREE_SEARCH):
//!
//! `cargo run --release -p kulami-ai --example mcts_tune -- SETTINGS SETTINGS|master [ms] [boards] [scoring]`
//!
//! SETTINGS are `EXPLORATION,RAVE` or `EXPLORATION,RAVE,WEIGHT:SCALE`: a RAVE equivalence of 0
//! turns RAVE off, and the third part adds implicit minimax backups of the evaluation (a weight
//! of 0 to 1, and the evaluation in hundredths of a point that counts as a 73% chance; then,
//! optionally, `:DEEP_WEIGHT:HALFWAY_VISITS`, the weight it rises to with a child's visits and
//! the visits halfway there, as [`ImplicitMinimax`]), e.g.
//! `0.25,300,0.4:400,contempt0.1` is [`TREE_SEARCH`](kulami_ai::TREE_SEARCH); a last part `solveN` proves
//! the leaves N moves or fewer from the end ([`MctsOptions::solve_leaves`]), and a part
//! `contemptC` scores a draw C below half a win ([`MctsOptions::contempt`]). A `+reuse` suffix
//! keeps the trees from move to move ([`mcts::search_reusing`]). Two games run at a time, one
//! thread each.
//! The scoring is `standard` unless given; `WEIGHTS=OPENING;END` (each the comma-separated weights
//! of every feature and tile state, as in `STANDARD_WEIGHTS`) replaces the evaluation the first
//! player's backups use, so that two evaluations can be compared.

use std::sync::Arc;
use std::time::Duration;

use kulami_ai::mcts::{self, ImplicitMinimax, KeptTrees, MctsLimits, MctsOptions};
use kulami_ai::stats::MatchTally;
use kulami_ai::tournament::{MatchPlan, Player, PlayerError, run_match};
use kulami_ai::{Clock, Engine, EngineOptions, KulamiEvaluator, KulamiState, Level, TimeControl};
use kulami_core::{Move, Position, Scoring};
use kulami_layouts::{Shape, generate};

struct MctsPlayer {
    options: MctsOptions,
    evaluator: KulamiEvaluator,
    time: Duration,
    seed: u64,
    /// With tree reuse: the trees of the last move.
    kept: Option<KeptTrees<KulamiState>>,
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        format!("{:?}", self.options)
    }
    fn new_game(&mut self, _start: &Position, _scoring: Scoring) -> Result<(), PlayerError> {
        if let Some(kept) = &mut self.kept {
            kept.clear();
        }
        Ok(())
    }
    fn choose(&mut self, position: &Position, scoring: Scoring, _clock: Option<Clock>) -> Result<Move, PlayerError> {
        self.seed += 1;
        let limits = MctsLimits { time: self.time, playouts: u64::MAX, threads: 1 };
        let state = KulamiState::new(position.clone(), scoring);
        let mut fresh = KeptTrees::default();
        let kept = self.kept.as_mut().unwrap_or(&mut fresh);
        let found = mcts::search_reusing(kept, &state, Some(&self.evaluator), self.options, limits, self.seed, None);
        found.best.map(Move::Place).ok_or_else(|| PlayerError("no move".into()))
    }
}

/// The evaluation of the first player: `WEIGHTS=opening;end` (comma-separated numbers) or the
/// one tuned to `scoring`; the second player's is always the tuned one.
fn evaluator(side: usize, scoring: Scoring) -> KulamiEvaluator {
    match std::env::var("WEIGHTS") {
        Ok(weights) if side == 0 => weights.parse().unwrap_or_else(|error| panic!("WEIGHTS: {error}")),
        _ => KulamiEvaluator::tuned(scoring),
    }
}

fn player(spec: &str, side: usize, time: Duration, scoring: Scoring) -> Box<dyn Player> {
    if spec == "master" {
        let options = EngineOptions::default().with_time(TimeControl::PerMove(time)).with_threads(1);
        return Box::new(Engine::new(Level::Master, options));
    }
    let (spec, reuse) = spec.strip_suffix("+reuse").map_or((spec, false), |spec| (spec, true));
    let parts: Vec<&str> = spec.split(',').collect();
    let rave: f64 = parts[1].parse().expect("a number");
    let implicit_minimax = parts.iter().skip(2).find(|part| part.contains(':')).map(|backups| {
        let numbers: Vec<f64> = backups.split(':').map(|number| number.parse().expect("a number")).collect();
        match numbers[..] {
            [weight, scale] => ImplicitMinimax::fixed(weight, scale),
            [weight, scale, deep_weight, halfway_visits] => {
                ImplicitMinimax { weight, deep_weight, halfway_visits, scale }
            }
            _ => panic!("backups are WEIGHT:SCALE or WEIGHT:SCALE:DEEP_WEIGHT:HALFWAY_VISITS"),
        }
    });
    let solve_leaves =
        parts.iter().skip(2).find_map(|part| part.strip_prefix("solve")).map(|plies| plies.parse().expect("plies"));
    let contempt = parts
        .iter()
        .skip(2)
        .find_map(|part| part.strip_prefix("contempt"))
        .map_or(0.0, |contempt| contempt.parse().expect("a number"));
    let options = MctsOptions {
        exploration: parts[0].parse().expect("a number"),
        rave_equivalence: (rave > 0.0).then_some(rave),
        implicit_minimax,
        solve_leaves,
        contempt,
    };
    Box::new(MctsPlayer {
        options,
        evaluator: evaluator(side, scoring),
        time,
        seed: 0,
        kept: reuse.then(KeptTrees::default),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let time = Duration::from_millis(args.get(2).map_or(100, |ms| ms.parse().expect("milliseconds")));
    let boards = args.get(3).map_or(50, |n| n.parse().expect("a count"));
    let plan = MatchPlan {
        boards: (0..boards).map(|seed| Arc::new(generate(1000 + seed, Shape::Square))).collect(),
        scoring: args.get(4).map_or(Scoring::Standard, |scoring| scoring.parse().expect("a scoring")),
        concurrency: 2,
        clock: None,
        swap_rule: false,
        played: Vec::new(),
    };
    let outcomes = run_match(
        &plan,
        |side| Ok(player(&args[side], side, time, plan.scoring)),
        |_| std::ops::ControlFlow::Continue(()),
    );
    let mut tally = MatchTally::default();
    for outcome in &outcomes {
        tally.add(outcome.board, outcome.a_points);
    }
    let (low, elo, high) = tally.elo();
    println!(
        "{} vs {}: {} games, {:.1}%, Elo {elo:+.0} ({low:+.0}..{high:+.0})",
        args[0],
        args[1],
        tally.games.games(),
        100.0 * tally.games.score()
    );
}
