//! The JSON objects of `docs/ONLINE.md`, and the game record file, drawn from stored and live state.

use kulami_core::{Color, GameRecord, Winner, notation};
use serde_json::{Value, json};

use crate::referee::{ClockSettings, GameSettings, Millis, Status, Table};
use crate::store::{Challenge, GameInfo};

fn clock(clock: Option<ClockSettings>) -> Value {
    clock.map_or(Value::Null, |clock| json!({"limit": clock.limit_ms / 1000, "increment": clock.increment_ms / 1000}))
}

/// The `gameState` line: moves, clocks, status, result and score.
#[must_use]
pub fn game_state(table: &Table, now: Millis) -> Value {
    let time = |color| table.remaining(table.seat_of(color), now);
    let score = table.position().score(table.settings().scoring);
    json!({
        "type": "gameState",
        "moves": notation::format_moves(&table.position().moves().collect::<Vec<_>>()),
        "rtime": time(Color::Red),
        "btime": time(Color::Black),
        "status": table.status().as_str(),
        "winner": table.winner().map(|winner| winner.to_string()),
        "score": {"red": score.red.total, "black": score.black.total},
    })
}

/// The `gameFull` object: the game's settings, players by colour, and its state.
#[must_use]
pub fn game_full(info: &GameInfo, table: &Table, now: Millis) -> Value {
    let settings = table.settings();
    let player = |color| {
        let seat = table.seat_of(color);
        json!({
            "username": info.players[seat.index()].username,
            "rating": info.ratings[seat.index()].round(),
            "bot": info.players[seat.index()].bot,
        })
    };
    json!({
        "type": "gameFull",
        "id": info.id,
        "board": info.board,
        "layout": settings.layout.to_one_line(),
        "scoring": settings.scoring.to_string(),
        "swap": settings.swap,
        "marbles": settings.layout.marbles_per_player(),
        "red": player(Color::Red),
        "black": player(Color::Black),
        "clock": clock(settings.clock),
        "state": game_state(table, now),
    })
}

/// A game's summary in `gameStart` and `gameFinish` events.
#[must_use]
pub fn game_event(kind: &str, info: &GameInfo, table: &Table) -> Value {
    let name = |color| info.players[table.seat_of(color).index()].username.clone();
    json!({
        "type": kind,
        "game": {
            "id": info.id,
            "red": name(Color::Red),
            "black": name(Color::Black),
            "status": table.status().as_str(),
            "winner": table.winner().map(|winner| winner.to_string()),
        },
    })
}

/// An invite.
#[must_use]
pub fn challenge(challenge: &Challenge) -> Value {
    let GameSettings { layout, scoring, swap, clock: settings_clock } = &challenge.game;
    json!({
        "id": challenge.id,
        "from": challenge.from.username,
        "to": challenge.to.username,
        "board": challenge.board,
        "layout": layout.to_one_line(),
        "marbles": layout.marbles_per_player(),
        "scoring": scoring.to_string(),
        "color": challenge.color.as_str(),
        "swap": swap,
        "clock": clock(*settings_clock),
        "status": challenge.status,
        "reason": challenge.reason,
        "game": challenge.game_id,
    })
}

/// An invite event: `challenge`, `challengeCanceled` or `challengeDeclined`.
#[must_use]
pub fn challenge_event(kind: &str, value: &Challenge) -> Value {
    json!({"type": kind, "challenge": challenge(value)})
}

/// The game as a game record file, with players, clock and result in `#` lines.
#[must_use]
pub fn record(info: &GameInfo, table: &Table) -> String {
    let settings = table.settings();
    let layout = &settings.layout;
    let marbles = layout.marbles_per_player();
    let record = GameRecord {
        layout: layout.to_one_line(),
        marbles_per_player: (marbles != usize::from(layout.default_marbles_per_player())).then_some(marbles),
        scoring: settings.scoring,
        moves: table.position().moves().collect(),
        swap: settings.swap,
    };
    let name = |color| &info.players[table.seat_of(color).index()].username;
    let result = match (table.status(), table.winner()) {
        (Status::Started, _) => "in progress".to_owned(),
        (Status::Aborted, _) | (_, None) => "aborted".to_owned(),
        (status, Some(Winner::Draw)) => format!("draw ({})", status.as_str()),
        (status, Some(winner)) => format!("{winner} wins ({})", status.as_str()),
    };
    let clock = settings.clock.map_or_else(
        || "none (correspondence)".to_owned(),
        |clock| format!("{}+{}", clock.limit_ms / 1000, clock.increment_ms / 1000),
    );
    let text = record.to_text();
    let (title, rest) = text.split_once('\n').unwrap_or((&text, ""));
    format!(
        "{title}\n# Game: {}\n# Red: {}\n# Black: {}\n# Clock: {clock}\n# Result: {result}\n{rest}",
        info.id,
        name(Color::Red),
        name(Color::Black)
    )
}
