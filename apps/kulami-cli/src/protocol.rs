//! The engine protocol of `docs/FORMATS.md`: a [`Session`] answers one command line at a time with
//! a [`Reply`], with no I/O of its own, so that the `kulami engine` loop, the tests and the
//! fuzzer drive the same code.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kulami_ai::{Clock, Engine, EngineOptions, Level, TimeControl};
use kulami_core::{Game, Move, Scoring};
use kulami_layouts::Board;

const COMMANDS: [&str; 18] = [
    "name",
    "version",
    "protocol_version",
    "list_commands",
    "quit",
    "layout",
    "scoring",
    "swap",
    "clear_board",
    "play",
    "genmove",
    "movetime",
    "time_left",
    "level",
    "legal",
    "undo",
    "final_score",
    "showboard",
];

/// The longest command line read; longer ones are answered with an error and skipped.
pub const MAX_LINE: usize = 4096;

/// The longest thinking time accepted: an hour.
pub const MAX_MOVE_TIME_MS: u64 = 3_600_000;

/// The most time a clock may show: a day.
pub const MAX_CLOCK_MS: u64 = 86_400_000;

/// A thinking time in milliseconds, from 1 to [`MAX_MOVE_TIME_MS`] (for `movetime` and the
/// command line's `--movetime`).
///
/// # Errors
/// A message naming the text.
pub fn parse_move_time(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(ms) if (1..=MAX_MOVE_TIME_MS).contains(&ms) => Ok(Duration::from_millis(ms)),
        _ => Err(format!("`{text}` is not a time in milliseconds (a whole number from 1 to {MAX_MOVE_TIME_MS})")),
    }
}

/// A clock reading in milliseconds, from 0 to [`MAX_CLOCK_MS`] (for `time_left`).
fn parse_clock_ms(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(ms) if ms <= MAX_CLOCK_MS => Ok(Duration::from_millis(ms)),
        _ => Err(format!("`{text}` is not a clock time in milliseconds (a whole number from 0 to {MAX_CLOCK_MS})")),
    }
}

/// The engine's side of the protocol: a game and an engine, changed one command at a time.
#[derive(Debug)]
pub struct Session {
    game: Game,
    engine: Engine,
    options: EngineOptions,
    level: Level,
    /// Whether the last command was a `genmove` answered: the opponent is thinking now.
    opponent_to_think: bool,
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
    /// A success.
    pub fn ok(text: impl Into<String>) -> Reply {
        Reply { ok: true, text: text.into(), quit: false }
    }

    /// A failure.
    pub fn error(text: impl Into<String>) -> Reply {
        Reply { ok: false, text: text.into(), quit: false }
    }

    /// The reply as sent: a status line (possibly with more lines) and one empty line.
    pub fn render(&self) -> String {
        format!("{} {}\n\n", if self.ok { '=' } else { '?' }, self.text)
    }
}

impl Session {
    /// A session on the classic board, standard scoring, at `level`.
    ///
    /// # Panics
    /// Never: the classic preset is embedded.
    pub fn new(level: Level, options: EngineOptions) -> Session {
        let layout = kulami_layouts::preset("classic").expect("the classic preset exists").into_layout();
        Session {
            game: Game::new(Arc::new(layout), Scoring::Standard),
            engine: Engine::new(level, options),
            options,
            level,
            opponent_to_think: false,
        }
    }

    /// After a `genmove`, thinks on the opponent's time until `cancel` is set (see
    /// [`Engine::ponder`]); after any other command, returns at once.
    pub fn ponder(&mut self, cancel: &AtomicBool) {
        if std::mem::take(&mut self.opponent_to_think) {
            self.engine.ponder(self.game.position(), self.game.scoring(), cancel);
        }
    }

    /// Answers one line as read, without its end: longer than [`MAX_LINE`] bytes or not UTF-8,
    /// it gets an error; `None` for an empty line.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<Reply> {
        if line.len() > MAX_LINE {
            return Some(Reply::error(format!("line longer than {MAX_LINE} bytes")));
        }
        match std::str::from_utf8(line) {
            Ok(text) => self.handle(text),
            Err(_) => Some(Reply::error("input is not UTF-8 text")),
        }
    }

    /// Answers one input line; `None` for an empty line.
    pub fn handle(&mut self, line: &str) -> Option<Reply> {
        let mut words = line.split_whitespace();
        let command = words.next()?;
        self.opponent_to_think = false;
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
                    self.game = Game::new(Arc::clone(self.game.position().layout()), scoring)
                        .with_swap_rule(self.game.position().swap_rule());
                    Reply::ok("")
                }
                Err(error) => Reply::error(error.to_string()),
            },
            ("swap", [rule]) => match *rule {
                "on" | "off" => {
                    self.game = Game::new(Arc::clone(self.game.position().layout()), self.game.scoring())
                        .with_swap_rule(*rule == "on");
                    Reply::ok("")
                }
                other => Reply::error(format!("`{other}` is not a swap rule: expected on or off")),
            },
            ("clear_board", []) => {
                self.new_game(Arc::clone(self.game.position().layout()));
                Reply::ok("")
            }
            ("play", [cell]) => self.play(None, cell),
            ("play", [color, cell]) => self.play(Some(color), cell),
            ("genmove", []) => self.genmove(None),
            ("genmove", [color]) => self.genmove(Some(color)),
            ("movetime", [ms]) => match parse_move_time(ms) {
                Ok(time) => self.set_time_control(TimeControl::PerMove(time)),
                Err(error) => Reply::error(error),
            },
            ("time_left", [remaining]) => self.time_left(remaining, "0"),
            ("time_left", [remaining, increment]) => self.time_left(remaining, increment),
            ("level", [level]) => match level.parse::<Level>() {
                Ok(level) => {
                    self.level = level;
                    self.engine = Engine::new(level, self.options);
                    Reply::ok("")
                }
                Err(error) => Reply::error(error.to_string()),
            },
            ("legal", []) => {
                let position = self.game.position();
                let mut legal: Vec<String> = position.legal_moves().iter().map(|c| c.to_string()).collect();
                if position.can_swap() {
                    legal.push(Move::Swap.to_string());
                }
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
        self.game = Game::new(layout, self.game.scoring()).with_swap_rule(self.game.position().swap_rule());
        self.engine.new_game();
    }

    fn set_time_control(&mut self, time: TimeControl) -> Reply {
        self.options.time = time;
        self.engine.set_time_control(time);
        Reply::ok("")
    }

    fn time_left(&mut self, remaining: &str, increment: &str) -> Reply {
        match (parse_clock_ms(remaining), parse_clock_ms(increment)) {
            (Ok(remaining), Ok(increment)) => self.set_time_control(TimeControl::Clock(Clock { remaining, increment })),
            (Err(error), _) | (_, Err(error)) => Reply::error(error),
        }
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

    fn play(&mut self, color: Option<&str>, played: &str) -> Reply {
        if let Err(reply) = self.check_turn(color) {
            return reply;
        }
        let played: Move = match played.parse() {
            Ok(played) => played,
            Err(error) => return Reply::error(error.to_string()),
        };
        match self.game.play_move(played) {
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
        let chosen = choice.best.expect("a live game has a legal move");
        self.game.play_move(chosen).expect("the engine plays legal moves");
        self.opponent_to_think = true;
        Reply::ok(chosen.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::{Cell, Color};

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
    fn long_lines_and_bytes_that_are_not_text_get_errors() {
        let mut s = session();
        let long = vec![b'a'; MAX_LINE + 1];
        assert_eq!(s.handle_bytes(&long).unwrap().render(), format!("? line longer than {MAX_LINE} bytes\n\n"));
        assert_eq!(s.handle_bytes(b"na\xffme").unwrap().render(), "? input is not UTF-8 text\n\n");
        assert_eq!(s.handle_bytes(b"name").unwrap().render(), "= kulami\n\n");
        assert_eq!(s.handle_bytes(b""), None);
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
        assert_eq!(
            answer(&mut s, "movetime 0"),
            "? `0` is not a time in milliseconds (a whole number from 1 to 3600000)\n\n"
        );
        assert!(answer(&mut s, "movetime 99999999999999").starts_with("? `99999999999999` is not a time"));
        assert_eq!(answer(&mut s, "clear_board"), "= \n\n");
        assert_eq!(answer(&mut s, "legal"), "= a1 b1 c1 d1\n\n");
    }

    #[test]
    fn the_swap_rule_in_the_protocol() {
        let mut s = session();
        assert_eq!(answer(&mut s, "layout AABB/CCDD/EEFF"), "= \n\n");
        assert_eq!(answer(&mut s, "play a1"), "= \n\n");
        assert_eq!(answer(&mut s, "play swap"), "? illegal move: the swap rule is off in this game\n\n");
        assert!(!answer(&mut s, "legal").contains("swap"));
        assert_eq!(answer(&mut s, "swap on"), "= \n\n");
        assert_eq!(s.game.position().ply(), 0, "a new game with the rule");
        assert_eq!(answer(&mut s, "play a1"), "= \n\n");
        assert_eq!(answer(&mut s, "legal"), "= c1 d1 a2 a3 swap\n\n");
        assert_eq!(answer(&mut s, "play black swap"), "= \n\n");
        assert_eq!(
            answer(&mut s, "play swap"),
            "? illegal move: a swap is only legal as the second move of the game\n\n"
        );
        assert_eq!(answer(&mut s, "undo"), "= \n\n");
        assert!(s.game.position().can_swap(), "undo takes back the swap alone");
        assert_eq!(answer(&mut s, "swap maybe"), "? `maybe` is not a swap rule: expected on or off\n\n");
        // The rule stays for new games and boards.
        assert_eq!(answer(&mut s, "clear_board"), "= \n\n");
        assert!(s.game.position().swap_rule());
        assert_eq!(answer(&mut s, "scoring area"), "= \n\n");
        assert!(s.game.position().swap_rule());
    }

    #[test]
    fn only_a_genmove_answered_leaves_the_opponent_to_think_on() {
        // Pondering would last four moves of 30 s; after anything but a genmove answered (here one
        // for the side not to move, an error) it returns at once.
        let options = EngineOptions::default().with_time(TimeControl::PerMove(Duration::from_secs(30)));
        let mut s = Session::new(Level::Master, options);
        let start = std::time::Instant::now();
        for command in ["play a1", "genmove red", "name"] {
            assert_eq!(answer(&mut s, command).starts_with('?'), command == "genmove red", "{command}");
            s.ponder(&AtomicBool::new(false));
        }
        assert!(start.elapsed() < Duration::from_secs(5), "pondered for {:?}", start.elapsed());
    }

    #[test]
    fn genmove_answers_swap_when_the_first_marble_is_worth_taking() {
        // On the classic board a marble in the corner leaves its owner ahead (the engine's
        // view), so the second player takes it; without the rule it answers with a cell.
        let mut s = session();
        assert_eq!(answer(&mut s, "swap on"), "= \n\n");
        assert_eq!(answer(&mut s, "play a1"), "= \n\n");
        assert_eq!(answer(&mut s, "genmove"), "= swap\n\n");
        assert!(s.game.position().swapped());
        assert!(answer(&mut s, "genmove").starts_with("= "), "then the first player answers as black");
        assert_eq!(answer(&mut s, "swap off"), "= \n\n");
        assert_eq!(answer(&mut s, "play d4"), "= \n\n");
        let reply = answer(&mut s, "genmove");
        assert!(reply.trim_start_matches("= ").trim().parse::<Cell>().is_ok(), "{reply}");
    }

    #[test]
    fn time_left_sets_a_clock_and_movetime_goes_back_to_a_time_per_move() {
        let mut s = session();
        assert_eq!(answer(&mut s, "time_left 300000 3000"), "= \n\n");
        let clock = Clock { remaining: Duration::from_secs(300), increment: Duration::from_secs(3) };
        assert_eq!(s.engine.time_control(), TimeControl::Clock(clock));
        assert_eq!(answer(&mut s, "time_left 1500"), "= \n\n");
        let clock = Clock { remaining: Duration::from_millis(1500), increment: Duration::ZERO };
        assert_eq!(s.engine.time_control(), TimeControl::Clock(clock));
        assert!(answer(&mut s, "genmove").starts_with("= "));
        assert_eq!(answer(&mut s, "level 4"), "= \n\n");
        assert_eq!(s.engine.time_control(), TimeControl::Clock(clock), "a new level keeps the clock");
        assert_eq!(answer(&mut s, "movetime 250"), "= \n\n");
        assert_eq!(s.engine.time_control(), TimeControl::PerMove(Duration::from_millis(250)));
        assert!(answer(&mut s, "time_left -5").starts_with("? `-5` is not a clock time"));
        assert!(answer(&mut s, "time_left 10 x").starts_with("? `x` is not a clock time"));
        assert_eq!(answer(&mut s, "time_left"), "? wrong arguments for time_left\n\n");
    }
}
