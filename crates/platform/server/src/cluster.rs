//! Several server processes on one PostgreSQL database.
//!
//! Each live game is owned by one process at a time: the one whose lock connection holds the
//! game's session-level advisory lock (`pg_try_advisory_lock`). Only the owner commits the
//! game's actions (and plays its computer seats). Every other process that has the game live
//! keeps a follower copy: it forwards the actions it is sent to the owner over HTTP, and
//! applies what the owner committed, read back from the database, when PostgreSQL tells it
//! (`NOTIFY acies_actions`, sent in the committing transaction, so only once it is
//! committed), so its own watchers get every update filtered for them as the owner's do.
//!
//! Where the owner is comes from PostgreSQL itself: each process names its lock connection
//! `acies <its URL>` (`application_name`), and `pg_locks` joined with `pg_stat_activity`
//! gives the connection holding a game's lock. There is no lease row to go stale: when the
//! owner dies (`kill -9` included) its connection closes, PostgreSQL releases its locks, and
//! the next process that tries the lock takes the game over, catching up from the database.
//! Nothing acknowledged is lost, because the owner acknowledges an action only after its
//! commit; and two processes can never both commit the same step, because every append is
//! checked against the version it expects.

use std::time::Duration;

use axum::http::StatusCode;
use serde::Deserialize;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgListener};
use sqlx::{ConnectOptions, Row};
use tokio::sync::Mutex;

use crate::error::ApiError;

use crate::store::{ACTIONS_CHANNEL, CHAT_CHANNEL};

/// What another process announced about a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum News {
    /// It committed an action (`acies_actions`).
    Action,
    /// It wrote a chat message (`acies_chat`).
    Chat,
}

/// The first key of every game lock (`"acie"`), so that other users of advisory locks in
/// the same database do not collide with ours.
const LOCK_SPACE: i32 = 0x6163_6965;

/// What `application_name` starts with on a lock connection.
const NAME_PREFIX: &str = "acies ";

/// A process's part in the cluster: its URL and the connection holding its games' locks.
pub(crate) struct Cluster {
    /// Where other processes reach this one (`http://host:port`).
    url: String,
    locks: Mutex<PgConnection>,
    database_url: String,
    http: reqwest::Client,
}

/// The second key of a game's lock: a 31-bit FNV-1a hash of its id (the same in every
/// process). Two games that share a key share an owner, which is harmless.
fn game_key(game_id: &str) -> i32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in game_id.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    (hash & 0x7fff_ffff) as i32
}

/// Why a forwarded action got no answer from the owner.
pub(crate) enum Forward {
    /// The owner answered: its answer (an acknowledgement or its refusal).
    Answered(Result<(u64, String), ApiError>),
    /// The owner could not be reached (it may have died): try again, or take the game over.
    Unreachable(String),
}

#[derive(Deserialize)]
struct ErrorBody {
    code: Option<String>,
    error: Option<String>,
    rule: Option<String>,
    version: Option<u64>,
}

/// The codes an owner may answer, as the `'static` spellings [`ApiError`] carries.
fn known_code(code: &str) -> &'static str {
    const CODES: &[&str] = &[
        "bad_request",
        "malformed",
        "no_seat",
        "bad_token",
        "computer_seat",
        "unknown_game",
        "not_found",
        "timeout",
        "stale_version",
        "not_your_turn",
        "game_over",
        "too_large",
        "unsupported_media_type",
        "illegal_action",
        "rate_limited",
        "game_unavailable",
        "game_stopped",
        "ruleset_panic",
        "encoding",
        "unavailable",
        "too_many_connections",
    ];
    CODES
        .iter()
        .find(|c| **c == code)
        .copied()
        .unwrap_or("owner_error")
}

impl Cluster {
    /// Joins the cluster of the database at `database_url` as the process reached at `url`.
    pub(crate) async fn connect(database_url: &str, url: String) -> Result<Self, String> {
        let name = format!("{NAME_PREFIX}{url}");
        // PostgreSQL keeps 63 bytes of an application name; a cut one would be a wrong URL.
        if name.len() > 63 {
            return Err(format!(
                "the server's URL {url:?} is too long to be announced (at most {} bytes)",
                63 - NAME_PREFIX.len()
            ));
        }
        let options: PgConnectOptions = database_url
            .parse::<PgConnectOptions>()
            .map_err(|e| e.to_string())?
            .application_name(&name);
        let locks = options.connect().await.map_err(|e| e.to_string())?;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Self {
            url,
            locks: Mutex::new(locks),
            database_url: database_url.to_owned(),
            http,
        })
    }

    /// Takes the game's lock if nobody holds it (or keeps it if this process does): `true`
    /// when this process owns the game.
    pub(crate) async fn try_own(&self, game_id: &str) -> Result<bool, String> {
        let mut conn = self.locks.lock().await;
        sqlx::query("SELECT pg_try_advisory_lock($1, $2) AS owned")
            .bind(LOCK_SPACE)
            .bind(game_key(game_id))
            .fetch_one(&mut *conn)
            .await
            .and_then(|row| row.try_get::<bool, _>("owned"))
            .map_err(|e| format!("game lock: {e}"))
    }

    /// The URL of the process that owns the game now, if one does.
    pub(crate) async fn owner(&self, game_id: &str) -> Result<Option<String>, String> {
        let mut conn = self.locks.lock().await;
        let name: Option<String> = sqlx::query(
            "SELECT a.application_name FROM pg_locks l \
             JOIN pg_stat_activity a ON a.pid = l.pid \
             WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 \
             AND l.classid = CAST($1 AS oid) AND l.objid = CAST($2 AS oid) \
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .bind(i64::from(LOCK_SPACE))
        .bind(i64::from(game_key(game_id)))
        .fetch_optional(&mut *conn)
        .await
        .map_err(|e| format!("game owner: {e}"))?
        .map(|row| row.try_get("application_name"))
        .transpose()
        .map_err(|e| format!("game owner: {e}"))?;
        Ok(name.and_then(|n| n.strip_prefix(NAME_PREFIX).map(str::to_owned)))
    }

    /// This process's URL.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Sends an action to the owner at `owner` as its client sent it here.
    pub(crate) async fn forward_act(
        &self,
        owner: &str,
        system: &str,
        game_id: &str,
        body: &serde_json::Value,
    ) -> Forward {
        let url = format!("{owner}/api/{system}/games/{game_id}/actions");
        let response = match self.http.post(&url).json(body).send().await {
            Ok(r) => r,
            Err(e) => return Forward::Unreachable(e.to_string()),
        };
        let status = response.status();
        let text = match response.text().await {
            Ok(t) => t,
            Err(e) => return Forward::Unreachable(e.to_string()),
        };
        if status.is_success() {
            let version = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v["version"].as_u64());
            return Forward::Answered(match version {
                Some(version) => Ok((version, text)),
                None => Err(ApiError::internal(
                    "owner_error",
                    "the game's owner answered without a version",
                )),
            });
        }
        let parsed: ErrorBody = serde_json::from_str(&text).unwrap_or(ErrorBody {
            code: None,
            error: None,
            rule: None,
            version: None,
        });
        let status = StatusCode::from_u16(status.as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
        let mut err = ApiError::new(
            status,
            known_code(parsed.code.as_deref().unwrap_or("")),
            parsed
                .error
                .unwrap_or_else(|| format!("the game's owner answered {status}")),
        );
        err.rule = parsed.rule;
        err.version = parsed.version;
        Forward::Answered(Err(err))
    }

    /// Listens for committed appends and chat messages and hands each `(news, game_id,
    /// seq)` to `committed`, for ever (sqlx's listener reconnects by itself; what is
    /// announced while it does is caught up on the next announcement or action).
    pub(crate) async fn listen(
        &self,
        committed: impl Fn(News, &str, u64) + Send + 'static,
    ) -> Result<(), String> {
        let mut listener = PgListener::connect(&self.database_url)
            .await
            .map_err(|e| e.to_string())?;
        listener
            .listen_all([ACTIONS_CHANNEL, CHAT_CHANNEL])
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(note) => {
                        let news = if note.channel() == CHAT_CHANNEL {
                            News::Chat
                        } else {
                            News::Action
                        };
                        for (id, seq) in note
                            .payload()
                            .split(' ')
                            .filter_map(|pair| pair.split_once(':'))
                        {
                            if let Ok(seq) = seq.parse() {
                                committed(news, id, seq);
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!("listening for other servers' actions: {e}");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_keys_are_stable_and_positive() {
        assert_eq!(game_key(""), 0x011c_9dc5);
        assert_eq!(game_key("a"), (0xe40c_292c_u32 & 0x7fff_ffff) as i32);
        assert!(
            ["0123456789abcdef", "ffffffffffffffff", "x"]
                .iter()
                .all(|id| game_key(id) >= 0)
        );
    }

    #[test]
    fn unknown_codes_are_named_as_the_owners() {
        assert_eq!(known_code("stale_version"), "stale_version");
        assert_eq!(known_code("something_new"), "owner_error");
    }
}
