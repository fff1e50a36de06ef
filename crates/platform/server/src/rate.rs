//! Pacing game creation per client address with `governor`'s keyed GCRA limiter (a token
//! bucket without a timer task): [`Limits::games_burst`] at once, then
//! [`Limits::games_per_minute`], over every rule system of the server together. Creating a
//! game is the one unauthenticated request that writes to the database and starts a task, so
//! it is the one paced.

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

type Keyed = RateLimiter<ClientKey, DefaultKeyedStateStore<ClientKey>, DefaultClock>;

/// Checks between two sweeps of the addresses whose bucket is full again (memory stays
/// bounded by the addresses seen recently).
const SWEEP_EVERY: u32 = 1024;

/// The creation pace of every client address.
pub(crate) struct CreationPace {
    limiter: Option<Keyed>,
    checks: AtomicU32,
}

impl CreationPace {
    pub(crate) fn new(limits: &Limits) -> Self {
        let limiter = NonZeroU32::new(limits.games_per_minute).map(|per_minute| {
            let burst = NonZeroU32::new(limits.games_burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_minute(per_minute).allow_burst(burst))
        });
        Self {
            limiter,
            checks: AtomicU32::new(0),
        }
    }

    /// `Ok` if the client at `ip` may create a game now; otherwise `429 rate_limited` with
    /// the seconds to wait.
    pub(crate) fn admit_creation(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.admit(ip).map_err(|wait| {
            let seconds = wait.as_secs() + 1;
            let mut err = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("too many games created from your address; try again in {seconds} s"),
            );
            err.retry_after = Some(seconds);
            err
        })
    }

    /// `Ok` if `ip` may create a game now; otherwise how long until it may.
    fn admit(&self, ip: IpAddr) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == 0 {
            limiter.retain_recent();
        }
        limiter
            .check_key(&ClientKey::of(ip))
            .map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
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
}
