//! `kulami engine`: the line protocol of `docs/FORMATS.md` on stdin and stdout.

use std::time::Duration;

use clap::Args;
use kulami_ai::{EngineOptions, Level, TimeControl};
use kulami_cli::lines::{Line, read_line};
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
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let options = EngineOptions::default().with_time(TimeControl::PerMove(args.movetime)).with_threads(args.threads);
    let mut session = Session::new(args.level, options);
    let mut input = std::io::stdin().lock();
    loop {
        let reply = match read_line(&mut input, MAX_LINE)? {
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
