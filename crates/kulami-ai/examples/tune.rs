//! Fits the evaluation's weights to self-play: plays games between club-level engines (level
//! 3 with the current weights, exact in the last eighteen plies), or with `PLAYOUTS=N` level 4
//! with N playouts a move, on random boards under one scoring, records each position's
//! features (the named ones and the tile states) and the game's final margin from the side to
//! move's view, and solves the least-squares problem
//! margin ≈ Σ feature × (opening weight × (1 - phase) + end weight × phase).
//! Every fifth game is held out, and the error there is printed for the fit and for the weights
//! in use.
//!
//! With `outcome` as the third argument it fits who wins instead, by logistic regression: the
//! chance that the side to move wins (a draw counting half) ≈ σ(Σ feature × weight / 400), the
//! curve through which the tree search reads the evaluation ([`TREE_SEARCH`]'s scale of 400).
//! It then prints the log loss of that chance for the fit and for the weights in use.
//!
//! With `search:D` it fits by least squares what an alpha-beta search `D` plies deep (with the
//! weights in use, exact where it reaches the end) finds in each position, rather than the
//! margin the game ended with: a value without the luck of the rest of the game. The errors
//! printed are still against the games' final margins, so that the fits compare.
//!
//! `cargo run --release -p kulami-ai --example tune -- [games] [scoring] [margin|outcome|search:D]`
//! prints the weights to paste into that scoring's weights (`STANDARD_WEIGHTS` unless a scoring
//! is named), and as `WEIGHTS=` for the examples that try weights.
//!
//! [`TREE_SEARCH`]: kulami_ai::TREE_SEARCH

use std::sync::Arc;

use kulami_ai::eval::{FEATURE_COUNT, FEATURES, PHASES, TILE_STATES, features, phase};
use kulami_ai::{Engine, EngineOptions, KulamiEvaluator, KulamiState, Level, Limits, SearchGame, Searcher};
use kulami_core::{Position, Scoring};
use kulami_layouts::{Shape, generate};

const WEIGHTS: usize = 2 * FEATURE_COUNT;

/// One game's samples: each position's tapered features, the final margin for its mover, and
/// what the fit aims at (the margin, or with [`Target::Search`] the search's value).
fn play(seed: u64, scoring: Scoring, target: Target) -> Vec<Sample> {
    let shape = if seed.is_multiple_of(3) { Shape::Irregular } else { Shape::Square };
    let layout = Arc::new(generate(seed, shape));
    let options = EngineOptions::default().with_seed(seed).with_table_megabytes(1);
    // PLAYOUTS=N: level 4's search with N playouts a move (reproducible), in place of level 3.
    let (level, options) = match std::env::var("PLAYOUTS") {
        Ok(n) => (Level::Expert, options.with_nodes(Some(n.parse().expect("a number of playouts")))),
        Err(_) => (Level::Club, options),
    };
    let mut engines = [Engine::new(level, options), Engine::new(level, options.with_seed(seed + 1))];
    let mut position = Position::new(layout);
    let mut samples = Vec::new();
    // Only a fit to search values searches: its table is written through when made.
    let mut search = match target {
        Target::Search(depth) => Some((Searcher::new(4, 1), KulamiEvaluator::tuned(scoring), Limits::depth(depth))),
        Target::Margin | Target::Outcome => None,
    };
    while !position.is_game_over() {
        let state = KulamiState::new(position.clone(), scoring);
        let searched = (search.as_mut())
            .map(|(searcher, evaluator, limits)| f64::from(searcher.search(&state, &*evaluator, *limits, None).value));
        let t = f64::from(phase(&state)) / f64::from(PHASES);
        let f = features(&state);
        let mut row = [0.0; WEIGHTS];
        for i in 0..FEATURE_COUNT {
            row[i] = f64::from(f[i]) * (1.0 - t);
            row[FEATURE_COUNT + i] = f64::from(f[i]) * t;
        }
        samples.push((row, position.side_to_move(), searched));
        let choice = engines[position.ply() % 2].choose(&position, scoring, None);
        position.play_move(choice.best.expect("a live game has a move")).expect("engines play legal moves");
    }
    let end = KulamiState::new(position.clone(), scoring);
    let margin_for_mover = f64::from(end.terminal_value().expect("over"));
    let mover_at_end = position.side_to_move();
    samples
        .into_iter()
        .map(|(row, mover, searched)| {
            let margin = if mover == mover_at_end { margin_for_mover } else { -margin_for_mover };
            Sample { row, margin, aim: searched.unwrap_or(margin) }
        })
        .collect()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (a small, well-posed system).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for column in 0..n {
        let pivot = (column..n).max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs())).expect("rows");
        a.swap(column, pivot);
        b.swap(column, pivot);
        if a[column][column].abs() < 1e-9 {
            continue;
        }
        let (upper, lower) = a.split_at_mut(column + 1);
        let pivot_row = &upper[column];
        for (offset, row) in lower.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (cell, pivot) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *cell -= factor * pivot;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        if a[row][row].abs() < 1e-9 {
            continue;
        }
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

/// What the fit aims at.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    /// The final margin for the side to move, in hundredths of a point, by least squares.
    Margin,
    /// Whether the side to move wins (1), draws (0.5) or loses (0), by logistic regression.
    Outcome,
    /// The value for the side to move of a search this many plies deep, by least squares.
    Search(u32),
}

/// The tree search's logistic unit ([`kulami_ai::TREE_SEARCH`]): an evaluation of 400 counts as
/// a 73% chance.
const OUTCOME_SCALE: f64 = 400.0;

/// A position's tapered features, the game's final margin for its mover, and the value the
/// fit aims at (the margin itself, or a search's value).
struct Sample {
    row: [f64; WEIGHTS],
    margin: f64,
    aim: f64,
}

fn dot(row: &[f64; WEIGHTS], weights: &[f64]) -> f64 {
    row.iter().zip(weights).map(|(x, w)| x * w).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The outcome a margin gives the side to move: 1, 0.5 or 0.
fn outcome(margin: f64) -> f64 {
    (margin.signum() + 1.0) / 2.0
}

/// `Σ curve × row rowᵀ` plus a little ridge, and `Σ rhs × row`, with `(curve, rhs)` given for
/// each sample: the system both fits solve. The ridge keeps features that never vary (a bonus's
/// measures under another scoring) at 0 instead of making the system singular.
fn normal_equations(train: &[Sample], terms: impl Fn(&Sample) -> (f64, f64)) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut a = vec![vec![0.0; WEIGHTS]; WEIGHTS];
    let mut b = vec![0.0; WEIGHTS];
    for sample in train {
        let (curve, rhs) = terms(sample);
        let row = &sample.row;
        for i in 0..WEIGHTS {
            b[i] += rhs * row[i];
            for j in 0..WEIGHTS {
                a[i][j] += curve * row[i] * row[j];
            }
        }
    }
    for (i, line) in a.iter_mut().enumerate() {
        line[i] += 1.0;
    }
    (a, b)
}

/// Least squares on what each sample aims at.
fn fit_aims(train: &[Sample]) -> Vec<f64> {
    let (a, b) = normal_equations(train, |sample| (1.0, sample.aim));
    solve(a, b)
}

/// Logistic regression on the outcomes, by Newton's method with the same ridge; the weights come
/// back in the evaluation's units, [`OUTCOME_SCALE`] to one unit of the logit.
fn fit_outcomes(train: &[Sample]) -> Vec<f64> {
    let mut logit = vec![0.0; WEIGHTS];
    for _ in 0..12 {
        // The Hessian, and the gradient's negative: each sample's chance against its outcome.
        let (hessian, mut descent) = normal_equations(train, |sample| {
            let chance = sigmoid(dot(&sample.row, &logit));
            (chance * (1.0 - chance), outcome(sample.margin) - chance)
        });
        for (descent, weight) in descent.iter_mut().zip(&logit) {
            *descent -= weight;
        }
        for (weight, step) in logit.iter_mut().zip(solve(hessian, descent)) {
            *weight += step;
        }
    }
    logit.iter().map(|weight| weight * OUTCOME_SCALE).collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(400, |n| n.parse().expect("a number of games"));
    let scoring: Scoring = args.next().map_or(Scoring::Standard, |scoring| scoring.parse().expect("a scoring"));
    let target = match args.next().as_deref() {
        None | Some("margin") => Target::Margin,
        Some("outcome") => Target::Outcome,
        Some(search) if let Some(depth) = search.strip_prefix("search:").and_then(|depth| depth.parse().ok()) => {
            Target::Search(depth)
        }
        Some(other) => panic!("the target is `margin`, `outcome` or `search:DEPTH`, not `{other}`"),
    };
    // Every fifth game is held out, to compare the fit with the weights in use on games it
    // has not seen.
    let (train, test): (Vec<_>, Vec<_>) = (0..games).partition(|seed| seed % 5 != 4);
    let (train, test) = (samples(&train, scoring, target), samples(&test, scoring, target));
    let weights = match target {
        Target::Margin | Target::Search(_) => fit_aims(&train),
        Target::Outcome => fit_outcomes(&train),
    };
    let tuned = KulamiEvaluator::tuned(scoring);
    let in_use: Vec<f64> = tuned.opening.iter().chain(&tuned.end).map(|&w| f64::from(w)).collect();
    // The RMS error in points, or the mean log loss of the chance of winning.
    let error = |samples: &[Sample], weights: &[f64]| match target {
        Target::Margin | Target::Search(_) => {
            let squares: f64 = samples.iter().map(|sample| (dot(&sample.row, weights) - sample.margin).powi(2)).sum();
            (squares / samples.len() as f64).sqrt() / 100.0
        }
        Target::Outcome => {
            let loss: f64 = samples
                .iter()
                .map(|sample| {
                    let chance = sigmoid(dot(&sample.row, weights) / OUTCOME_SCALE).clamp(1e-12, 1.0 - 1e-12);
                    let won = outcome(sample.margin);
                    -(won * chance.ln() + (1.0 - won) * (1.0 - chance).ln())
                })
                .sum();
            loss / samples.len() as f64
        }
    };
    let round = |w: &[f64]| w.iter().map(|x| x.round() as i32).collect::<Vec<_>>();
    println!(
        "{games} games, {} positions; {}: fit {:.4} (held-out games {:.4}), weights in use {:.4} (held out {:.4})",
        train.len(),
        match target {
            Target::Margin | Target::Search(_) => "RMS error in points against the final margins",
            Target::Outcome => "log loss of the chance of winning",
        },
        error(&train, &weights),
        error(&test, &weights),
        error(&train, &in_use),
        error(&test, &in_use)
    );
    println!("features: {FEATURES:?}, then the tile states {TILE_STATES:?}");
    for (phase, weights) in [("opening", &weights[..FEATURE_COUNT]), ("end", &weights[FEATURE_COUNT..])] {
        let weights = round(weights);
        let (named, tile_states) = weights.split_at(FEATURES.len());
        let (tile_states, reachable) = tile_states.split_at(TILE_STATES.len());
        println!("{phase}: weights({named:?}, {tile_states:?}, {reachable:?})");
    }
    let write = |weights: &[f64]| round(weights).iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    println!("WEIGHTS='{};{}'", write(&weights[..FEATURE_COUNT]), write(&weights[FEATURE_COUNT..]));
}

/// The samples of the games of these seeds, played on two threads.
fn samples(seeds: &[u64], scoring: Scoring, target: Target) -> Vec<Sample> {
    let threads = 2;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    seeds
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .flat_map(|&seed| play(seed, scoring, target))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    })
}
