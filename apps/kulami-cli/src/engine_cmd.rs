//! `kulami engine`: the line protocol of `formats.md` on stdin and stdout.

use std::io::BufRead as _;
use std::time::Duration;

use clap::Args;
use kulami_ai::{EngineOptions, Level};
use kulami_cli::protocol::{MAX_LINE, Session};

use crate::output::out;

/// Arguments of `kulami engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Playing level, 1 to 5 (or baseline).
    #[arg(long, default_value = "5")]
    level: Level,
    /// Thinking time per genmove, in milliseconds (level 5).
    #[arg(long, default_value = "1000", value_parser = kulami_cli::protocol::parse_move_time)]
    movetime: Duration,
    /// Search threads (level 5).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let options = EngineOptions { move_time: args.movetime, threads: args.threads, ..EngineOptions::default() };
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
        if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            skip_line(&mut input)?;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let reply = session.handle_bytes(text.strip_suffix(b"\r").unwrap_or(text));
        if let Some(reply) = reply {
            out!("{}", reply.render());
            std::io::Write::flush(&mut std::io::stdout())?;
            if reply.quit {
                return Ok(());
            }
        }
    }
}

/// Skips the rest of an overlong line without keeping it, however long it is.
fn skip_line(input: &mut impl std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
}
