//! Reading lines with a bound, for every line that comes from outside (the protocol's commands,
//! an external engine's replies, the terminal game's input): a line of gigabytes costs at most
//! the bound in memory, and is reported instead of read.

use std::io::BufRead;

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
}
