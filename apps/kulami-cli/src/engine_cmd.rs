//! `kulami engine`: the line protocol of `docs/FORMATS.md` on stdin and stdout.

use std::time::Duration;

use clap::Args;
use kulami_ai::{EngineOptions, Level, TimeControl};
use kulami_cli::lines::{Line, next_line_thinking, read_stdin_in_the_background};
use kulami_cli::protocol::{MAX_LINE, Reply, Session};

use crate::output::out;

/// Arguments of `kulami engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Playing level, 1 to 5 (or baseline).
    #[arg(long, default_value = "5")]
    level: Level,
    /// Thinking time per genmove, in milliseconds (levels 4 and 5); `time_left` switches to a clock.
    #[arg(long, default_value = "1000", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// Search threads (level 5).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Think on the opponent's time: after each `genmove`, level 5 grows its tree until the
    /// next command arrives (for four of its moves' time at most).
    #[arg(long)]
    ponder: bool,
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let options = EngineOptions::default().with_time(TimeControl::PerMove(args.movetime)).with_threads(args.threads);
    let mut session = Session::new(args.level, options);
    let lines = read_stdin_in_the_background(MAX_LINE);
    loop {
        // With --ponder, after a genmove the engine thinks until the next line arrives.
        let line = next_line_thinking(&lines, |cancel| {
            if args.ponder {
                session.ponder(cancel);
            }
        })?;
        let reply = match line {
            Line::End => return Ok(()),
            Line::TooLong => Some(Reply::error(format!("line longer than {MAX_LINE} bytes"))),
            Line::Text(line) => session.handle_bytes(&line),
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
