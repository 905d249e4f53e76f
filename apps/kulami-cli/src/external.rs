//! A player that is another program speaking the engine protocol (`kulami engine` or any other).

use std::io::{BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use kulami_ai::Clock;
use kulami_ai::tournament::{Player, PlayerError};
use kulami_cli::lines::{Line, read_line};
use kulami_cli::protocol::MAX_LINE;
use kulami_core::{Move, Position, Scoring};

/// An external engine, talked to over its stdin and stdout.
pub struct ExternalPlayer {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// How long to wait for any answer.
    timeout: Duration,
    /// Moves of the current game the engine knows about.
    synced: usize,
    /// The time per move it is told at every new game (none under a game clock, which it is
    /// told before every move instead).
    movetime: Option<Duration>,
}

impl ExternalPlayer {
    /// Starts `command` (split on spaces; no shell). `timeout` bounds every wait for an answer;
    /// `movetime`, if given, is sent at the start of every game.
    pub fn start(command: &str, timeout: Duration, movetime: Option<Duration>) -> Result<ExternalPlayer, PlayerError> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| PlayerError("empty engine command".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| PlayerError(format!("cannot start `{command}`: {error}")))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        // A reader thread, so that a silent engine turns into a timeout instead of a hang.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let line = match read_line(&mut reader, MAX_LINE) {
                    Ok(Line::Text(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
                    // Not a reply: the player fails on it.
                    Ok(Line::TooLong) => format!("(a line longer than {MAX_LINE} bytes)"),
                    Ok(Line::End) | Err(_) => break,
                };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(ExternalPlayer { command: command.to_owned(), child, stdin, lines, timeout, synced: 0, movetime })
    }

    /// Sends one command and returns the reply's text, or the engine's `?` message as an error.
    fn ask(&mut self, command: &str) -> Result<String, PlayerError> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|error| self.failed(&error.to_string()))?;
        let first = self.next_line()?;
        let mut text = match first.split_at_checked(1) {
            Some(("=", rest)) => rest.trim_start().to_owned(),
            Some(("?", rest)) => return Err(self.failed(&format!("`{command}` refused: {}", rest.trim()))),
            _ => return Err(self.failed(&format!("`{command}` got `{first}`, not `= ...` or `? ...`"))),
        };
        loop {
            let line = self.next_line()?;
            if line.trim().is_empty() {
                return Ok(text);
            }
            text.push('\n');
            text.push_str(&line);
        }
    }

    fn next_line(&mut self) -> Result<String, PlayerError> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(self.failed(&format!("no answer within {:?}", self.timeout))),
            Err(RecvTimeoutError::Disconnected) => Err(self.failed("the engine exited")),
        }
    }

    fn failed(&self, what: &str) -> PlayerError {
        PlayerError(format!("`{}`: {what}", self.command))
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.command.clone()
    }

    fn new_game(&mut self, start: &Position, scoring: Scoring) -> Result<(), PlayerError> {
        self.ask(&format!("layout {}", start.layout().to_one_line()))?;
        self.ask(&format!("scoring {scoring}"))?;
        self.ask(if start.swap_rule() { "swap on" } else { "swap off" })?;
        if let Some(movetime) = self.movetime {
            self.ask(&format!("movetime {}", movetime.as_millis()))?;
        }
        self.synced = 0;
        Ok(())
    }

    fn choose(&mut self, position: &Position, _scoring: Scoring, clock: Option<Clock>) -> Result<Move, PlayerError> {
        for played in position.moves().skip(self.synced).collect::<Vec<_>>() {
            self.ask(&format!("play {played}"))?;
        }
        if let Some(Clock { remaining, increment }) = clock {
            self.ask(&format!("time_left {} {}", remaining.as_millis(), increment.as_millis()))?;
        }
        let answer = self.ask(&format!("genmove {}", position.side_to_move()))?;
        self.synced = position.move_count() + 1;
        answer.trim().parse().map_err(|error: kulami_core::ParseMoveError| self.failed(&error.to_string()))
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to leave on its own, then make sure it does.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
