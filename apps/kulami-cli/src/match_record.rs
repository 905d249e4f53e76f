//! `kulami match --games FILE`: every game written down as it ends, so that a long match (100
//! games at 5 s a move take hours) can be followed while it runs and, stopped part-way, finished
//! later instead of started again.
//!
//! The file is JSON Lines: first `{"match": <the settings>}`, then one game a line, as in
//! `--json`'s `results`. A match started with a file that already holds games of the same
//! settings counts them and plays only the rest; a file of other settings is refused.

use std::fs::{File, OpenOptions};
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, bail};
use kulami_ai::tournament::GameOutcome;
use kulami_core::Color;
use kulami_core::notation::format_moves;
use serde::{Deserialize, Serialize};

/// One game of a match, as `--json` prints it and `--games` keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The board's number in the match, from 1.
    pub board: usize,
    /// The colour player A began with.
    pub a_color: Color,
    /// Player A's points: 1, 0.5 or 0.
    pub a_points: f64,
    pub red_total: usize,
    pub black_total: usize,
    pub moves: String,
    /// Who failed and how, where a player did.
    pub forfeit: Option<String>,
    /// Whether a player lost on time.
    pub time_loss: bool,
    /// What A and B had left on their clocks at the end, in milliseconds; absent without a
    /// clock (and in files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_left_ms: Option<[u64; 2]>,
}

impl GameRecord {
    pub fn of(outcome: &GameOutcome) -> GameRecord {
        GameRecord {
            board: outcome.board + 1,
            a_color: outcome.a_color,
            a_points: outcome.a_points,
            red_total: outcome.totals.0,
            black_total: outcome.totals.1,
            moves: format_moves(&outcome.moves),
            forfeit: outcome.forfeit.as_ref().map(ToString::to_string),
            time_loss: outcome.forfeit.as_ref().is_some_and(|forfeit| forfeit.is_time_loss()),
            clock_left_ms: outcome.clock_left.map(|(a, b)| [a, b].map(|left| left.as_millis() as u64)),
        }
    }

    /// The game's place in the match: the board's index from 0, and A's colour.
    pub fn pairing(&self) -> (usize, Color) {
        (self.board - 1, self.a_color)
    }
}

/// What decides a match's games: a file's games count towards a match only with the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSettings {
    pub player_a: String,
    pub player_b: String,
    /// Every board, on one line each.
    pub boards: Vec<String>,
    pub scoring: String,
    pub swap: bool,
    /// The clock, as given to `--tc`; null for a time per move.
    pub tc: Option<String>,
    pub movetime_a_ms: Option<u128>,
    pub movetime_b_ms: Option<u128>,
    pub threads: usize,
}

impl MatchSettings {
    /// The names of the settings in which `self` and `other` differ.
    fn differences(&self, other: &MatchSettings) -> Vec<&'static str> {
        let fields = [
            ("player A", self.player_a == other.player_a),
            ("player B", self.player_b == other.player_b),
            ("boards", self.boards == other.boards),
            ("scoring", self.scoring == other.scoring),
            ("swap rule", self.swap == other.swap),
            ("clock", self.tc == other.tc),
            ("time per move", self.movetime_a_ms == other.movetime_a_ms && self.movetime_b_ms == other.movetime_b_ms),
            ("threads", self.threads == other.threads),
        ];
        fields.into_iter().filter(|(_, same)| !same).map(|(name, _)| name).collect()
    }
}

/// The file's first line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    #[serde(rename = "match")]
    settings: MatchSettings,
}

/// A match's games file, open for adding the games still to come.
#[derive(Debug)]
pub struct GamesFile {
    path: PathBuf,
    file: Mutex<File>,
}

impl GamesFile {
    /// Opens `path` for the match of `settings`: a new or empty file gets the settings as its
    /// first line; a file that has them already gives back the games recorded in it.
    ///
    /// # Errors
    /// If the file cannot be read or written, records another match, or has a line that is not
    /// one of its games.
    pub fn open(path: &Path, settings: &MatchSettings) -> anyhow::Result<(GamesFile, Vec<GameRecord>)> {
        let name = path.display();
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("--games {name}: cannot open it"))?;
        let mut lines = BufReader::new(&file).lines().enumerate();
        let games = match lines.next() {
            None => {
                let header = serde_json::to_string(&Header { settings: settings.clone() })?;
                writeln!(&file, "{header}").with_context(|| format!("--games {name}: cannot write it"))?;
                Vec::new()
            }
            Some((_, first)) => {
                let first = first.with_context(|| format!("--games {name}: cannot read it"))?;
                let header: Header = serde_json::from_str(&first).map_err(|error| {
                    anyhow::anyhow!("--games {name} line 1: not the settings of a match ({error}); give a new file")
                })?;
                let differences = header.settings.differences(settings);
                if !differences.is_empty() {
                    bail!(
                        "--games {name} records another match (it differs in: {}); give a new file or the same settings",
                        differences.join(", ")
                    );
                }
                let mut games: Vec<GameRecord> = Vec::new();
                for (index, line) in lines {
                    let line = line.with_context(|| format!("--games {name}: cannot read it"))?;
                    let game = parse_game(&line, settings.boards.len())
                        .with_context(|| format!("--games {name} line {}", index + 1))?;
                    if games.iter().any(|earlier| earlier.pairing() == game.pairing()) {
                        bail!(
                            "--games {name} line {}: board {} with A as {} is recorded twice",
                            index + 1,
                            game.board,
                            game.a_color
                        );
                    }
                    games.push(game);
                }
                games
            }
        };
        Ok((GamesFile { path: path.to_owned(), file: Mutex::new(file) }, games))
    }

    /// Adds `game` as a line of its own, written at once.
    ///
    /// # Errors
    /// If the file cannot be written.
    pub fn append(&self, game: &GameRecord) -> anyhow::Result<()> {
        let line = serde_json::to_string(game)? + "\n";
        let mut file = self.file.lock().expect("no thread panics holding it");
        file.write_all(line.as_bytes()).with_context(|| format!("--games {}: cannot write it", self.path.display()))
    }
}

/// A line of the file as a game of a match of `boards` boards.
fn parse_game(line: &str, boards: usize) -> anyhow::Result<GameRecord> {
    let game: GameRecord = serde_json::from_str(line).map_err(|error| {
        anyhow::anyhow!(
            "not a game record ({error}); if the match was stopped while writing it, delete the line to play that game again"
        )
    })?;
    if !(1..=boards).contains(&game.board) {
        bail!("board {} is not one of the match's 1 to {boards}", game.board);
    }
    if ![0.0, 0.5, 1.0].contains(&game.a_points) {
        bail!("A's points are {}, not 1, 0.5 or 0", game.a_points);
    }
    Ok(game)
}
