//! The body of the request fuzz target (`fuzz/fuzz_targets/request_body.rs`), shared with the
//! replay of its corpus in `cargo test`: whatever a client sends as a body, a move or a name,
//! the server answers with a value or one error, never a panic.

use crate::api::{Credentials, Decline, parse_body};
use crate::settings::ChallengeRequest;

/// The first byte picks what the rest is sent as: an invite's settings, credentials, a
/// decline, a move in the URL, or a name to register.
///
/// # Panics
/// When the server's parsing would panic or accept what it must not: that is the finding.
pub fn request_body(data: &[u8]) {
    let Some((&kind, body)) = data.split_first() else { return };
    match kind % 5 {
        0 => {
            if let Ok(request) = parse_body::<ChallengeRequest>(body)
                && let Ok(settings) = request.resolve()
            {
                let layout = &settings.game.layout;
                assert!((1..=usize::from(kulami_core::MAX_MARBLES_PER_PLAYER)).contains(&layout.marbles_per_player()));
                if let Some(clock) = settings.game.clock {
                    assert!(clock.limit_ms + clock.increment_ms > 0 && clock.limit_ms <= 3 * 60 * 60 * 1000);
                }
            }
        }
        1 => {
            if let Ok(credentials) = parse_body::<Credentials>(body)
                && crate::auth::check_username(&credentials.username).is_ok()
            {
                assert!(credentials.username.len() <= 20 && credentials.username.is_ascii());
            }
        }
        2 => drop(parse_body::<Decline>(body)),
        3 => {
            if let Ok(text) = std::str::from_utf8(body)
                && let Ok(played) = text.parse::<kulami_core::Move>()
            {
                assert_eq!(played.to_string().parse::<kulami_core::Move>(), Ok(played));
            }
        }
        _ => {
            if let Ok(name) = std::str::from_utf8(body) {
                let _ = crate::auth::check_username(name);
                let _ = crate::auth::check_password(name);
            }
        }
    }
}
