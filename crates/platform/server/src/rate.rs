//! Pacing with `governor`'s keyed GCRA limiter (a token bucket without a timer task).
//!
//! Game creation, per client address: [`Limits::games_burst`] at once, then
//! [`Limits::games_per_minute`], over every rule system of the server together. Creating a
//! game is the one unauthenticated request that writes to the database and starts a task, so
//! it is the one paced by address.
//!
//! A game's chat, per seat of the game ([`ChatPace`]): [`Limits::chat_burst`] messages at
//! once, then [`Limits::chat_per_minute`]. Only a seat's token writes in a chat, so the key is
//! the seat, not the address.

use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use axum::http::StatusCode;

use crate::error::ApiError;

use crate::net::ClientKey;
use crate::server::Limits;

/// A pace per key: `burst` at once, then `per_minute` on average (0 per minute: none).
struct Pace<K: Hash + Eq + Clone> {
    limiter: Option<RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock>>,
    checks: AtomicU32,
}

/// Checks between two sweeps of the keys whose bucket is full again (memory stays bounded
/// by the keys seen recently).
const SWEEP_EVERY: u32 = 1024;

impl<K: Hash + Eq + Clone> Pace<K> {
    fn new(per_minute: u32, burst: u32) -> Self {
        let limiter = NonZeroU32::new(per_minute).map(|per_minute| {
            let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_minute(per_minute).allow_burst(burst))
        });
        Self {
            limiter,
            checks: AtomicU32::new(0),
        }
    }

    /// `Ok` if `key` may go on now; otherwise how long until it may.
    fn admit(&self, key: &K) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == 0 {
            limiter.retain_recent();
        }
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
    }
}

/// `429 rate_limited` with the seconds to wait (`too many {what}`).
fn rate_limited(wait: Duration, what: &str) -> ApiError {
    let seconds = wait.as_secs() + 1;
    let mut err = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("too many {what}; try again in {seconds} s"),
    );
    err.retry_after = Some(seconds);
    err
}

/// The creation pace of every client address.
pub(crate) struct CreationPace(Pace<ClientKey>);

impl CreationPace {
    pub(crate) fn new(limits: &Limits) -> Self {
        Self(Pace::new(limits.games_per_minute, limits.games_burst))
    }

    /// `Ok` if the client at `ip` may create a game now; otherwise `429 rate_limited` with
    /// the seconds to wait.
    pub(crate) fn admit_creation(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.admit(ip)
            .map_err(|wait| rate_limited(wait, "games created from your address"))
    }

    /// `Ok` if `ip` may create a game now; otherwise how long until it may.
    fn admit(&self, ip: IpAddr) -> Result<(), Duration> {
        self.0.admit(&ClientKey::of(ip))
    }
}

/// The chat pace of every seat of every game of one rule system.
pub(crate) struct ChatPace(Pace<String>);

impl ChatPace {
    pub(crate) fn new(limits: &Limits) -> Self {
        Self(Pace::new(limits.chat_per_minute, limits.chat_burst))
    }

    /// `Ok` if `seat` of game `game_id` may write in the chat now; otherwise `429
    /// rate_limited` with the seconds to wait.
    pub(crate) fn admit(&self, game_id: &str, seat: &str) -> Result<(), ApiError> {
        self.0
            .admit(&format!("{game_id} {seat}"))
            .map_err(|wait| rate_limited(wait, "messages from your seat"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_pace_per_address() {
        let pace = CreationPace::new(&Limits {
            games_per_minute: 6,
            games_burst: 3,
            ..Limits::default()
        });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..3 {
            assert_eq!(pace.admit(a), Ok(()));
        }
        let wait = pace.admit(a).unwrap_err();
        assert!(
            wait > Duration::from_secs(5) && wait <= Duration::from_secs(10),
            "{wait:?}"
        );
        assert_eq!(pace.admit(b), Ok(()), "another address has its own bucket");
    }

    #[test]
    fn zero_per_minute_is_no_limit() {
        let pace = CreationPace::new(&Limits {
            games_per_minute: 0,
            ..Limits::default()
        });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        assert!((0..1000).all(|_| pace.admit(a).is_ok()));
    }

    #[test]
    fn the_chat_is_paced_per_seat_of_each_game() {
        let pace = ChatPace::new(&Limits {
            chat_per_minute: 6,
            chat_burst: 2,
            ..Limits::default()
        });
        assert!(pace.admit("g1", "a").is_ok());
        assert!(pace.admit("g1", "a").is_ok());
        let err = pace.admit("g1", "a").unwrap_err();
        assert_eq!(err.code, "rate_limited");
        assert!(
            err.retry_after.is_some_and(|s| (1..=11).contains(&s)),
            "{err:?}"
        );
        assert!(
            pace.admit("g1", "b").is_ok(),
            "another seat has its own bucket"
        );
        assert!(
            pace.admit("g2", "a").is_ok(),
            "the same seat of another game too"
        );
    }
}
