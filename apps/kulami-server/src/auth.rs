//! Accounts: names, argon2id password hashes, and bearer tokens kept only as SHA-256 hashes.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use sha2::{Digest as _, Sha256};

use crate::api::AppState;
use crate::error::ApiError;
use crate::store::User;

/// Checks a player name: 3 to 20 of `A-Z a-z 0-9 _ -`, and not the reserved `online`.
///
/// # Errors
/// The rule it breaks.
pub fn check_username(name: &str) -> Result<(), ApiError> {
    if !(3..=20).contains(&name.len()) || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        return Err(ApiError::bad_request("a username is 3 to 20 characters from A-Z a-z 0-9 _ -"));
    }
    if name.eq_ignore_ascii_case("online") {
        return Err(ApiError::conflict("the username `online` is reserved"));
    }
    Ok(())
}

/// Checks a password's length: 8 to 128 characters.
///
/// # Errors
/// Too short or too long.
pub fn check_password(password: &str) -> Result<(), ApiError> {
    if (8..=128).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::bad_request("a password is 8 to 128 characters"))
    }
}

/// A password's argon2id hash, salted, in the PHC string form. Slow on purpose: run it off the
/// async threads.
///
/// # Panics
/// If the operating system has no randomness to give.
#[must_use]
pub fn hash_password(password: &str) -> String {
    Argon2::default().hash_password(password.as_bytes()).expect("argon2 with default parameters").to_string()
}

/// Whether `password` matches a stored hash.
#[must_use]
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// A new bearer token: 32 random bytes, hex.
#[must_use]
pub fn new_token() -> String {
    hex(&random_bytes::<32>())
}

/// What is stored of a token: its SHA-256, hex. Tokens are random, so no salt is needed.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// An id for games and invites: 8 random letters and digits.
#[must_use]
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    random_bytes::<8>().iter().map(|byte| char::from(ALPHABET[usize::from(*byte) % ALPHABET.len()])).collect()
}

/// Bytes from the operating system: secrets are the one thing not drawn from a seed.
///
/// # Panics
/// If the operating system has no randomness to give.
#[must_use]
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The token of a request, from `Authorization: Bearer <token>`.
fn bearer(parts: &Parts) -> Result<&str, ApiError> {
    let header = parts
        .headers
        .get(AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("this needs a token: send Authorization: Bearer <token>"))?;
    header
        .to_str()
        .ok()
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty())
        .ok_or_else(|| ApiError::unauthorized("the Authorization header must be `Bearer <token>`"))
}

/// The player a request's token belongs to.
#[derive(Clone, Debug)]
pub struct Player {
    /// The account.
    pub user: User,
    /// The hash of the token used, for logging out.
    pub token_hash: String,
}

impl FromRequestParts<AppState> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Player, ApiError> {
        let token_hash = token_hash(bearer(parts)?);
        let user = state
            .hub
            .store()
            .user_by_token(&token_hash)
            .await?
            .ok_or_else(|| ApiError::unauthorized("the token is unknown or has been logged out"))?;
        if let Some(limits) = &state.limits {
            limits.account(user.id)?;
        }
        Ok(Player { user, token_hash })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules_and_online_is_reserved() {
        for good in ["abc", "Alice_99", "a-b-c", "x".repeat(20).as_str()] {
            assert!(check_username(good).is_ok(), "{good}");
        }
        for bad in ["ab", "x".repeat(21).as_str(), "al ice", "bob!", "zoë"] {
            assert_eq!(check_username(bad).unwrap_err().status(), 400, "{bad}");
        }
        assert_eq!(check_username("Online").unwrap_err().status(), 409);
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err() && check_password(&"p".repeat(129)).is_err());
    }

    #[test]
    fn passwords_verify_only_against_their_own_hash_which_is_argon2id() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsf", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(hash, hash_password("correct horse"), "salted");
    }

    #[test]
    fn tokens_are_random_and_stored_only_as_hashes() {
        let token = new_token();
        assert_eq!(token.len(), 64);
        assert_ne!(token, new_token());
        assert_eq!(token_hash(&token), token_hash(&token));
        assert_ne!(token_hash(&token), token);
        assert_eq!(new_id().len(), 8);
    }
}
