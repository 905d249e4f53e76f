//! Reading lines with a bound, for every line that comes from outside (the protocol's commands,
//! an external engine's replies, the terminal game's input): a line of gigabytes costs at most
//! the bound in memory, and is reported instead of read. Standard input may be read on a thread
//! of its own, so that the program thinks while it waits ([`recv_thinking`], which the bot also
//! uses for the server's stream).

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its `\n` or `\r\n`.
    Text(Vec<u8>),
    /// A line longer than the bound, skipped to its end.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of at most `max` bytes; a longer one is skipped without being kept.
///
/// # Errors
/// If reading fails.
pub fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let read = std::io::Read::take(&mut *input, max as u64 + 1).read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if line.ends_with(b"\n") {
        line.pop();
        if line.ends_with(b"\r") {
            line.pop();
        }
    }
    if line.len() > max {
        skip_line(input)?;
        return Ok(Line::TooLong);
    }
    Ok(Line::Text(line))
}

/// Skips the rest of a line, however long, a buffer at a time.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
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

/// Standard input's lines of at most `max` bytes, read on a thread of their own so that the
/// program can think while it waits for them ([`next_line_thinking`]); the reader stops after
/// the end or an error, which it sends last.
#[must_use]
pub fn read_stdin_in_the_background(max: usize) -> Receiver<std::io::Result<Line>> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            let line = read_line(&mut input, max);
            let last = matches!(line, Ok(Line::End) | Err(_));
            if sender.send(line).is_err() || last {
                return;
            }
        }
    });
    receiver
}

/// The next line from `lines` (the end once the reader has stopped), running `think` on a
/// thread meanwhile ([`recv_thinking`]).
///
/// # Errors
/// If reading failed.
pub fn next_line_thinking(
    lines: &Receiver<std::io::Result<Line>>,
    think: impl FnOnce(&AtomicBool) + Send,
) -> std::io::Result<Line> {
    recv_thinking(lines, think).unwrap_or(Ok(Line::End))
}

/// The next message on `receiver` (`None` once its sender is gone), running `think` on a
/// thread meanwhile: its flag is set as the message arrives, and the message is handed on once
/// `think` has returned. The program thinks while it waits for a person, a controller or a
/// server.
pub fn recv_thinking<T>(receiver: &Receiver<T>, think: impl FnOnce(&AtomicBool) + Send) -> Option<T> {
    let cancel = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| think(&cancel));
        let message = receiver.recv().ok();
        cancel.store(true, Ordering::Relaxed);
        message
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_up_to_the_bound_are_read_and_longer_ones_skipped() {
        let mut text = b"name\r\nplay d4\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100_000));
        text.extend(b"\nquit");
        let mut input = std::io::BufReader::with_capacity(64, text.as_slice());
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"name".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"play d4".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::TooLong);
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::Text(b"quit".to_vec()));
        assert_eq!(read_line(&mut input, 10).unwrap(), Line::End);
        // Exactly at the bound is fine, with or without its newline.
        assert_eq!(read_line(&mut &b"0123456789\n"[..], 10).unwrap(), Line::Text(b"0123456789".to_vec()));
        assert_eq!(read_line(&mut &b"0123456789"[..], 10).unwrap(), Line::Text(b"0123456789".to_vec()));
        assert_eq!(read_line(&mut &b"0123456789a"[..], 10).unwrap(), Line::TooLong);
    }

    #[test]
    fn thinking_while_waiting_for_a_line_stops_when_it_arrives() {
        let (sender, lines) = channel();
        let thought = std::sync::atomic::AtomicUsize::new(0);
        let line = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                sender.send(Ok(Line::Text(b"play d4".to_vec()))).unwrap();
            });
            next_line_thinking(&lines, |cancel| {
                while !cancel.load(Ordering::Relaxed) {
                    thought.fetch_add(1, Ordering::Relaxed);
                    std::thread::yield_now();
                }
            })
        });
        assert_eq!(line.unwrap(), Line::Text(b"play d4".to_vec()));
        assert!(thought.load(Ordering::Relaxed) > 0, "it thought while it waited");
        drop(sender);
        assert_eq!(next_line_thinking(&lines, |_| {}).unwrap(), Line::End, "a reader gone is the end");
    }
}
