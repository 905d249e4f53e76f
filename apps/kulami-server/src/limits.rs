//! Rate limits per address and per account (from `governor`), and a cap on open streams per
//! address: generous for a bot playing many games, tight for a flood. `--no-rate-limit` turns
//! them off for tests and benchmarks.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// Requests a second, and the burst, allowed from one address.
const PER_ADDRESS: (u32, u32) = (50, 500);
/// Requests a second, and the burst, allowed for one account.
const PER_ACCOUNT: (u32, u32) = (20, 300);
/// Sign-ins and registrations a minute, and the burst, from one address.
const SIGN_INS_PER_MINUTE: (u32, u32) = (20, 20);
/// Streams one address may hold open.
const STREAMS_PER_ADDRESS: usize = 1000;

fn quota(per_period: Quota, burst: u32) -> Quota {
    per_period.allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

fn nonzero(count: u32) -> NonZeroU32 {
    NonZeroU32::new(count).expect("a positive rate")
}

/// The limits in force.
#[derive(Debug)]
pub struct Limits {
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    by_account: DefaultKeyedRateLimiter<i64>,
    sign_ins: DefaultKeyedRateLimiter<IpAddr>,
    streams: Mutex<HashMap<IpAddr, usize>>,
}

/// Counts one open stream of an address until dropped.
#[derive(Debug)]
pub struct StreamPermit {
    limits: Arc<Limits>,
    address: IpAddr,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut streams = self.limits.streams.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = streams.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                streams.remove(&self.address);
            }
        }
    }
}

fn too_many(what: &str) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, format!("too many {what}; slow down and try again shortly"))
}

impl Limits {
    /// The standard limits.
    #[must_use]
    pub fn new() -> Arc<Limits> {
        Arc::new(Limits {
            by_address: RateLimiter::dashmap(quota(Quota::per_second(nonzero(PER_ADDRESS.0)), PER_ADDRESS.1)),
            by_account: RateLimiter::dashmap(quota(Quota::per_second(nonzero(PER_ACCOUNT.0)), PER_ACCOUNT.1)),
            sign_ins: RateLimiter::dashmap(quota(
                Quota::per_minute(nonzero(SIGN_INS_PER_MINUTE.0)),
                SIGN_INS_PER_MINUTE.1,
            )),
            streams: Mutex::default(),
        })
    }

    /// One request of an account.
    ///
    /// # Errors
    /// 429 past the account's rate.
    pub fn account(&self, user: i64) -> Result<(), ApiError> {
        self.by_account.check_key(&user).map_err(|_| too_many("requests for this account"))
    }

    /// One sign-in or registration from an address.
    ///
    /// # Errors
    /// 429 past the rate.
    pub fn sign_in(&self, address: IpAddr) -> Result<(), ApiError> {
        self.sign_ins.check_key(&address).map_err(|_| too_many("sign-ins from this address"))
    }

    /// One more open stream for an address.
    ///
    /// # Errors
    /// 429 when the address holds the most streams allowed.
    pub fn open_stream(self: &Arc<Limits>, address: IpAddr) -> Result<StreamPermit, ApiError> {
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        let count = streams.entry(address).or_default();
        if *count >= STREAMS_PER_ADDRESS {
            return Err(too_many("open streams from this address"));
        }
        *count += 1;
        Ok(StreamPermit { limits: Arc::clone(self), address })
    }

    /// Forgets the addresses and accounts that have been quiet, so memory stays bounded.
    pub fn forget_quiet(&self) {
        self.by_address.retain_recent();
        self.by_account.retain_recent();
        self.sign_ins.retain_recent();
    }
}

/// The middleware: every request counts against its address.
pub async fn per_address(
    State(limits): State<Option<Arc<Limits>>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(limits) = limits
        && limits.by_address.check_key(&peer.ip()).is_err()
    {
        return too_many("requests from this address").into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_pass_and_floods_are_refused_per_key() {
        let limits = Limits::new();
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        let passed = (0..100).filter(|_| limits.sign_in(address).is_ok()).count();
        assert_eq!(passed, SIGN_INS_PER_MINUTE.1 as usize);
        assert!(limits.sign_in("192.0.2.2".parse().unwrap()).is_ok(), "another address has its own budget");
        let passed = (0..1000).filter(|_| limits.account(1).is_ok()).count();
        assert!((PER_ACCOUNT.1 as usize..PER_ACCOUNT.1 as usize + 20).contains(&passed), "{passed}");
        assert_eq!(limits.account(1).unwrap_err().status(), StatusCode::TOO_MANY_REQUESTS);
    }

    #[test]
    fn an_address_holds_a_bounded_number_of_streams_and_closing_one_frees_it() {
        let limits = Limits::new();
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        let mut permits: Vec<StreamPermit> =
            (0..STREAMS_PER_ADDRESS).map(|_| limits.open_stream(address).expect("within the cap")).collect();
        assert!(limits.open_stream(address).is_err());
        permits.pop();
        assert!(limits.open_stream(address).is_ok());
    }
}
