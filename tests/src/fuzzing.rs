//! The bodies of the fuzz targets in `fuzz/`, shared with the replay of their corpora in
//! `cargo test` (`tests/fuzz_corpora.rs`). Each takes arbitrary bytes, must not panic or hang,
//! and checks that what parses also prints back to itself.

use std::time::Duration;

use kulami_ai::{EngineOptions, Level, TimeControl};
use kulami_cli::protocol::Session;
use kulami_core::notation::{format_moves, parse_moves};
use kulami_core::{Game, GameRecord, Layout};
/// Request bodies, moves and names sent to the server: one answer, never a panic.
pub use kulami_server::fuzzing::request_body;

/// Layout text (and layout files with a header): a valid layout prints as text that parses to
/// the same layout, on several lines and on one.
pub fn layout_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(layout) = Layout::parse(text) {
        assert_eq!(Layout::parse(&layout.to_string()).as_ref(), Ok(&layout), "{text:?}");
        assert_eq!(Layout::parse(&layout.to_one_line()).as_ref(), Ok(&layout), "{text:?}");
    }
    if let Ok(board) = kulami_layouts::Board::parse(text) {
        let again = kulami_layouts::Board::parse(&board.to_file_text()).expect("a board's file text is valid");
        assert_eq!(again.layout(), board.layout());
    }
}

/// Move lists and the text form of game records: what parses prints back to itself, and a
/// record's game replays (or says which move is illegal).
pub fn record_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(moves) = parse_moves(text) {
        assert_eq!(parse_moves(&format_moves(&moves)), Ok(moves));
    }
    if let Ok(record) = GameRecord::from_text(text) {
        assert_eq!(GameRecord::from_text(&record.to_text()).as_ref(), Ok(&record));
        if let Ok(game) = Game::from_record(&record) {
            assert_eq!(game.record().moves, record.moves);
        }
    }
}

/// The binary save form: any bytes decode to a record or an error, within the size limit.
pub fn record_bytes(data: &[u8]) {
    if let Ok(record) = GameRecord::from_bytes(data) {
        assert_eq!(GameRecord::from_bytes(&record.to_bytes()).ok().as_ref(), Some(&record));
        let _ = Game::from_record(&record);
    }
}

/// The engine protocol: each line but a blank one gets exactly one reply in the protocol's form. Lines that
/// would only make the engine think longer (`level`, `movetime`, `time_left`) or read a file are left out,
/// so that every input runs in milliseconds; the rest is fed as given.
pub fn protocol(data: &[u8]) {
    let options = EngineOptions::default()
        .with_time(TimeControl::PerMove(Duration::from_millis(5)))
        .with_threads(1)
        .with_table_megabytes(1);
    let mut session = Session::new(Level::Beginner, options);
    for line in data.split(|&byte| byte == b'\n') {
        // Split as the session does, so that no spelling of a skipped command slips through.
        let words: Vec<&str> = std::str::from_utf8(line).map_or(Vec::new(), |text| text.split_whitespace().collect());
        let slow = matches!(words.first(), Some(&("level" | "movetime" | "time_left")));
        let file =
            words.first() == Some(&"layout") && words.get(1).is_some_and(|path| std::path::Path::new(path).exists());
        if slow || file {
            continue;
        }
        let reply = session.handle_bytes(line);
        // Every line is answered but a blank one (as UTF-8 text, within the length limit).
        let blank = line.len() <= kulami_cli::protocol::MAX_LINE
            && std::str::from_utf8(line).is_ok_and(|text| text.split_whitespace().next().is_none());
        assert_eq!(reply.is_some(), !blank, "{line:?}");
        if let Some(reply) = reply {
            let rendered = reply.render();
            assert!(rendered.starts_with("= ") || rendered.starts_with("? "), "{rendered:?}");
            // One blank line ends a reply, so none may come before the end.
            assert!(rendered.ends_with("\n\n") && !rendered[..rendered.len() - 2].contains("\n\n"), "{rendered:?}");
            if reply.quit {
                return;
            }
        }
    }
}
