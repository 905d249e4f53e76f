//! Replays the checked-in fuzz corpora (`fuzz/corpus/<target>/`) through the fuzz targets'
//! bodies, so that every input that once found new paths stays covered by `cargo test`, and a
//! structured property test of the engine protocol: any sequence of commands, right or wrong,
//! gets replies in the protocol's form.

use std::path::Path;

use kulami_tests::fuzzing;
use proptest::prelude::*;

fn replay(target: &str, body: fn(&[u8])) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&folder).unwrap_or_else(|error| panic!("{}: {error}", folder.display())) {
        let path = entry.unwrap().path();
        body(&std::fs::read(&path).unwrap());
        count += 1;
    }
    assert!(count > 0, "no corpus in {}", folder.display());
}

#[test]
fn the_layout_corpus_replays() {
    replay("layout_text", fuzzing::layout_text);
}

#[test]
fn the_record_text_corpus_replays() {
    replay("record_text", fuzzing::record_text);
}

#[test]
fn the_record_bytes_corpus_replays() {
    replay("record_bytes", fuzzing::record_bytes);
}

#[test]
fn the_request_body_corpus_replays() {
    replay("request_body", fuzzing::request_body);
}

#[test]
fn the_protocol_corpus_replays() {
    replay("protocol", fuzzing::protocol);
}

/// A command line: a known or unknown command with plausible, wrong or no arguments.
fn command() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("name"),
        Just("version"),
        Just("protocol_version"),
        Just("list_commands"),
        Just("layout"),
        Just("scoring"),
        Just("clear_board"),
        Just("play"),
        Just("genmove"),
        Just("legal"),
        Just("undo"),
        Just("final_score"),
        Just("showboard"),
        Just("frobnicate"),
        Just(""),
    ];
    let argument = prop_oneof![
        Just("red".to_owned()),
        Just("black".to_owned()),
        Just("classic".to_owned()),
        Just("AABB/CCDD".to_owned()),
        Just("AAB".to_owned()),
        Just("both".to_owned()),
        "[a-j][1-9]",
        "[a-z0-9]{0,8}",
        "x{5000}",
    ];
    (word, prop::collection::vec(argument, 0..3))
        .prop_map(|(word, arguments)| std::iter::once(word.to_owned()).chain(arguments).collect::<Vec<_>>().join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_sequence_of_commands_gets_replies_in_the_protocol_form(lines in prop::collection::vec(command(), 0..40)) {
        fuzzing::protocol(lines.join("\n").as_bytes());
    }
}

/// Invite settings the way a careless or hostile client writes them: the real keys (and a
/// wrong one) with values of every JSON type.
fn invite_body() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("layout"),
        Just("marbles"),
        Just("scoring"),
        Just("color"),
        Just("swap"),
        Just("clock"),
        Just("colour")
    ];
    let value = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        (-5i64..100_000).prop_map(|n| n.to_string()),
        "\"[a-zA-Z0-9/.]{0,20}\"",
        (0u64..u64::MAX).prop_map(|seed| format!("{{\"random\": {seed}, \"shape\": \"irregular\"}}")),
        (0u64..20_000, 0u64..500)
            .prop_map(|(limit, increment)| format!("{{\"limit\": {limit}, \"increment\": {increment}}}")),
        Just("[1, 2]".to_owned()),
    ];
    prop::collection::vec((key, value), 0..6).prop_map(|fields| {
        let fields: Vec<String> = fields.iter().map(|(key, value)| format!("\"{key}\": {value}")).collect();
        format!("{{{}}}", fields.join(", "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_invite_body_is_settings_or_one_error(body in invite_body()) {
        fuzzing::request_body(&[[0].as_slice(), body.as_bytes()].concat());
    }

    #[test]
    fn any_bytes_as_any_request_part_never_panic(data in prop::collection::vec(any::<u8>(), 0..300)) {
        fuzzing::request_body(&data);
    }
}
