//! `kulami engine`: the line protocol of `formats.md` on stdin and stdout.

use std::io::BufRead as _;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use kulami_ai::{Engine, EngineOptions, Level};
use kulami_core::{Cell, Game, Scoring};
use kulami_layouts::Board;

use crate::output::out;

/// Arguments of `kulami engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Playing level, 1 to 5 (or baseline).
    #[arg(long, default_value = "5")]
    level: Level,
    /// Thinking time per genmove, in milliseconds (level 5).
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Search threads (level 5).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

const COMMANDS: [&str; 16] = [
    "name",
    "version",
    "protocol_version",
    "list_commands",
    "quit",
    "layout",
    "scoring",
    "clear_board",
    "play",
    "genmove",
    "movetime",
    "level",
    "legal",
    "undo",
    "final_score",
    "showboard",
];

/// The longest command line read; longer ones are answered with an error and skipped.
const MAX_LINE: usize = 4096;

/// The engine's side of the protocol: a game and an engine, changed one command at a time.
pub struct Session {
    game: Game,
    engine: Engine,
    options: EngineOptions,
    level: Level,
}

/// One reply: `= text` or `? text`.
#[derive(Debug, PartialEq, Eq)]
pub struct Reply {
    /// Success or failure.
    pub ok: bool,
    /// The result or the error message.
    pub text: String,
    /// Whether the session ends after this reply.
    pub quit: bool,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply { ok: true, text: text.into(), quit: false }
    }

    fn error(text: impl Into<String>) -> Reply {
        Reply { ok: false, text: text.into(), quit: false }
    }

    /// The reply as sent: a status line (possibly with more lines) and one empty line.
    pub fn render(&self) -> String {
        format!("{} {}\n\n", if self.ok { '=' } else { '?' }, self.text)
    }
}

impl Session {
    /// A session on the classic board, standard scoring, at `level`.
    pub fn new(level: Level, options: EngineOptions) -> Session {
        let layout = kulami_layouts::preset("classic").expect("the classic preset exists").into_layout();
        Session {
            game: Game::new(Arc::new(layout), Scoring::Standard),
            engine: Engine::new(level, options),
            options,
            level,
        }
    }

    /// Answers one input line; `None` for an empty line.
    pub fn handle(&mut self, line: &str) -> Option<Reply> {
        let mut words = line.split_whitespace();
        let command = words.next()?;
        let arguments: Vec<&str> = words.collect();
        Some(match (command, arguments.as_slice()) {
            ("name", []) => Reply::ok("kulami"),
            ("version", []) => Reply::ok(env!("CARGO_PKG_VERSION")),
            ("protocol_version", []) => Reply::ok("1"),
            ("list_commands", []) => Reply::ok(COMMANDS.join("\n")),
            ("quit", []) => Reply { quit: true, ..Reply::ok("") },
            ("layout", [board]) => self.layout(board),
            ("scoring", [name]) => match name.parse::<Scoring>() {
                Ok(scoring) => {
                    self.game = Game::new(Arc::clone(self.game.position().layout()), scoring);
                    Reply::ok("")
                }
                Err(error) => Reply::error(error.to_string()),
            },
            ("clear_board", []) => {
                self.new_game(Arc::clone(self.game.position().layout()));
                Reply::ok("")
            }
            ("play", [cell]) => self.play(None, cell),
            ("play", [color, cell]) => self.play(Some(color), cell),
            ("genmove", []) => self.genmove(None),
            ("genmove", [color]) => self.genmove(Some(color)),
            ("movetime", [ms]) => match ms.parse::<u64>() {
                Ok(ms) if ms > 0 => {
                    self.options.move_time = Duration::from_millis(ms);
                    self.engine = Engine::new(self.level, self.options);
                    Reply::ok("")
                }
                _ => Reply::error(format!("`{ms}` is not a time in milliseconds (a whole number above 0)")),
            },
            ("level", [level]) => match level.parse::<Level>() {
                Ok(level) => {
                    self.level = level;
                    self.engine = Engine::new(level, self.options);
                    Reply::ok("")
                }
                Err(error) => Reply::error(error.to_string()),
            },
            ("legal", []) => {
                let legal: Vec<String> = self.game.position().legal_moves().iter().map(|c| c.to_string()).collect();
                Reply::ok(legal.join(" "))
            }
            ("undo", []) => match self.game.undo() {
                Some(_) => Reply::ok(""),
                None => Reply::error("nothing to undo"),
            },
            ("final_score", []) => {
                let score = self.game.score();
                Reply::ok(format!("red {} black {}", score.red.total, score.black.total))
            }
            ("showboard", []) => Reply::ok(format!("\n{}", self.game.position()).trim_end().to_owned()),
            (command, _) if COMMANDS.contains(&command) => Reply::error(format!("wrong arguments for {command}")),
            _ => Reply::error("unknown command"),
        })
    }

    fn new_game(&mut self, layout: Arc<kulami_core::Layout>) {
        self.game = Game::new(layout, self.game.scoring());
        self.engine.new_game();
    }

    fn layout(&mut self, board: &str) -> Reply {
        match Board::resolve(board) {
            Ok(board) => {
                self.new_game(Arc::new(board.into_layout()));
                Reply::ok("")
            }
            Err(error) => Reply::error(error.to_string()),
        }
    }

    /// Checks that `color`, if given, is the side to move.
    fn check_turn(&self, color: Option<&str>) -> Result<(), Reply> {
        let Some(color) = color else { return Ok(()) };
        let to_move = self.game.position().side_to_move();
        match color {
            "red" | "black" if color == to_move.to_string() => Ok(()),
            "red" | "black" => Err(Reply::error(format!("it is {to_move}'s turn, not {color}'s"))),
            _ => Err(Reply::error(format!("`{color}` is not a colour: expected red or black"))),
        }
    }

    fn play(&mut self, color: Option<&str>, cell: &str) -> Reply {
        if let Err(reply) = self.check_turn(color) {
            return reply;
        }
        let cell: Cell = match cell.parse() {
            Ok(cell) => cell,
            Err(error) => return Reply::error(error.to_string()),
        };
        match self.game.play(cell) {
            Ok(()) => Reply::ok(""),
            Err(error) => Reply::error(format!("illegal move: {error}")),
        }
    }

    fn genmove(&mut self, color: Option<&str>) -> Reply {
        if let Err(reply) = self.check_turn(color) {
            return reply;
        }
        if self.game.position().is_game_over() {
            return Reply::error("game over");
        }
        let choice = self.engine.choose(self.game.position(), self.game.scoring(), None);
        let cell = choice.best.expect("a live game has a legal move");
        self.game.play(cell).expect("the engine plays legal moves");
        Reply::ok(cell.to_string())
    }
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let options = EngineOptions {
        move_time: Duration::from_millis(args.movetime),
        threads: args.threads,
        ..EngineOptions::default()
    };
    let mut session = Session::new(args.level, options);
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        // Read at most MAX_LINE bytes of a line, then skip the rest of an overlong one.
        let read = std::io::Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        let reply = if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            let mut rest = Vec::new();
            input.read_until(b'\n', &mut rest)?;
            Some(Reply::error(format!("line longer than {MAX_LINE} bytes")))
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => session.handle(text),
                Err(_) => Some(Reply::error("input is not UTF-8 text")),
            }
        };
        if let Some(reply) = reply {
            out!("{}", reply.render());
            std::io::Write::flush(&mut std::io::stdout())?;
            if reply.quit {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::Color;

    fn session() -> Session {
        Session::new(Level::Club, EngineOptions::default())
    }

    fn answer(session: &mut Session, line: &str) -> String {
        session.handle(line).map(|reply| reply.render()).unwrap_or_default()
    }

    #[test]
    fn the_protocol_answers_in_its_form() {
        let mut s = session();
        assert_eq!(answer(&mut s, "name"), "= kulami\n\n");
        assert_eq!(answer(&mut s, "protocol_version"), "= 1\n\n");
        assert_eq!(answer(&mut s, ""), "");
        assert_eq!(answer(&mut s, "   "), "");
        assert_eq!(answer(&mut s, "frobnicate"), "? unknown command\n\n");
        assert_eq!(answer(&mut s, "play"), "? wrong arguments for play\n\n");
        assert!(answer(&mut s, "list_commands").contains("\ngenmove\n"));
        assert_eq!(answer(&mut s, "undo"), "? nothing to undo\n\n");
        assert_eq!(answer(&mut s, "quit"), "= \n\n");
    }

    #[test]
    fn play_genmove_undo_and_score() {
        let mut s = session();
        assert_eq!(answer(&mut s, "play d4"), "= \n\n");
        assert_eq!(answer(&mut s, "play red d5"), "? it is black's turn, not red's\n\n");
        assert!(answer(&mut s, "play e5").starts_with("? illegal move: e5 is not in the row or column"));
        assert_eq!(s.game.position().side_to_move(), Color::Black);
        let reply = answer(&mut s, "genmove black");
        let cell: Cell = reply.trim_start_matches("= ").trim().parse().unwrap();
        assert!(cell.row() == 3 || cell.column() == 3, "{cell} answers d4");
        assert_eq!(s.game.position().side_to_move(), Color::Red);
        assert_eq!(answer(&mut s, "undo"), "= \n\n");
        assert_eq!(s.game.position().side_to_move(), Color::Black);
        assert_eq!(answer(&mut s, "final_score"), "= red 4 black 0\n\n");
        assert!(answer(&mut s, "showboard").starts_with("= \n     a   b"));
    }

    #[test]
    fn layouts_scoring_and_game_over() {
        let mut s = session();
        assert_eq!(answer(&mut s, "layout AABB"), "= \n\n");
        assert_eq!(answer(&mut s, "legal"), "= a1 b1 c1 d1\n\n");
        assert_eq!(answer(&mut s, "play a1"), "= \n\n");
        assert_eq!(answer(&mut s, "play c1"), "= \n\n");
        assert_eq!(answer(&mut s, "genmove"), "? game over\n\n");
        assert_eq!(answer(&mut s, "legal"), "= \n\n");
        assert!(answer(&mut s, "layout AAB").starts_with("? `AAB` is not a preset name"));
        assert_eq!(answer(&mut s, "scoring both"), "= \n\n");
        assert!(answer(&mut s, "scoring most").starts_with("? `most` is not a scoring"));
        assert_eq!(answer(&mut s, "movetime 0"), "? `0` is not a time in milliseconds (a whole number above 0)\n\n");
        assert_eq!(answer(&mut s, "clear_board"), "= \n\n");
        assert_eq!(answer(&mut s, "legal"), "= a1 b1 c1 d1\n\n");
    }
}
