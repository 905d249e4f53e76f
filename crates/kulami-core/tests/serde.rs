//! Every type a user would store goes through serde and comes back equal, in a readable format
//! (JSON) and a binary one (bincode), and bad data is refused with a message.

use std::fmt::Debug;
use std::sync::Arc;

use kulami_core::notation::parse_moves;
use kulami_core::{Cell, CellSet, Color, Game, GameRecord, Layout, Move, Scoring, Winner};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn round_trips<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, json: &str) {
    assert_eq!(serde_json::to_string(value).unwrap(), json);
    assert_eq!(&serde_json::from_str::<T>(json).unwrap(), value);
    let config = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(value, config).unwrap();
    let (back, used): (T, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
    assert_eq!((&back, used), (value, bytes.len()));
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

#[test]
fn cells_moves_and_sets() {
    round_trips(&cell("d4"), r#""d4""#);
    round_trips(&Move::Place(cell("j10")), r#""j10""#);
    round_trips(&Move::Swap, r#""swap""#);
    round_trips(&[cell("a1"), cell("c2")].into_iter().collect::<CellSet>(), r#"["a1","c2"]"#);
    round_trips(&CellSet::ALL, &serde_json::to_string(&Cell::all().collect::<Vec<_>>()).unwrap());
}

#[test]
fn colours_scorings_and_results() {
    round_trips(&Color::Black, r#""black""#);
    round_trips(&Scoring::Both, r#""both""#);
    round_trips(&Winner::Draw, r#""draw""#);
}

#[test]
fn layouts_are_stored_as_their_text() {
    let layout = Layout::parse("AABB/CCDD").unwrap();
    round_trips(&layout, r#""AABB/CCDD""#);
    let fewer = layout.with_marbles_per_player(2).unwrap();
    round_trips(&fewer, r#"{"layout":"AABB/CCDD","marbles":2}"#);
    let error = serde_json::from_str::<Layout>(r#""AAB""#).unwrap_err().to_string();
    assert!(error.contains("line 1, column 3"), "{error}");
    assert!(serde_json::from_str::<Layout>(r#"{"layout":"AABB","marbles":0}"#).is_err());
}

#[test]
fn game_records_with_a_swap() {
    let layout = Arc::new(Layout::parse("AABB/CCDD/EEFF").unwrap());
    let mut game = Game::new(layout, Scoring::Lines).with_swap_rule(true);
    for played in parse_moves("a1 swap a3").unwrap() {
        game.play_move(played).unwrap();
    }
    let record = game.record();
    round_trips(
        &record,
        r#"{"layout":"AABB/CCDD/EEFF","marbles_per_player":6,"scoring":"lines","moves":["a1","swap","a3"],"swap":true}"#,
    );
    // A record from before the swap rule has no `swap` field: the rule is off.
    let old: GameRecord =
        serde_json::from_str(r#"{"layout":"AABB","marbles_per_player":null,"scoring":"standard","moves":["a1"]}"#)
            .unwrap();
    assert!(!old.swap);
}

#[test]
fn bad_moves_and_sets_are_refused() {
    assert!(serde_json::from_str::<Move>(r#""k1""#).unwrap_err().to_string().contains("is not a move"));
    let config = bincode::config::standard();
    assert!(bincode::serde::decode_from_slice::<Move, _>(&[101], config).is_err());
    let outside = bincode::serde::encode_to_vec(1u128 << 100, config).unwrap();
    assert!(bincode::serde::decode_from_slice::<CellSet, _>(&outside, config).is_err());
}
