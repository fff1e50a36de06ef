//! A game's chat and who is to act (issue 10 item 10, correspondence play).
//!
//! The players of a game (a seat's token) write short messages; everyone watching the game,
//! spectators included, reads them: it is the table talk, not a private channel. A message is
//! checked by [`acies_core::text::check_message`] (trimmed, at most
//! [`crate::Limits::chat_max_chars`] characters, no control or invisible formatting
//! characters), paced per seat ([`ChatPace`](crate::rate::ChatPace)), stored before it is
//! acknowledged (`chat` table; the newest [`crate::Limits::chat_kept`] are kept), then sent
//! to every watcher as a `chat` message; a watcher's `sync` carries the messages it has not
//! seen. The chat is no part of the game's record: no replay, restore or state hash reads it.
//!
//! On PostgreSQL with several server processes, any process may write a game's chat (a
//! message does not change the game's state): its number is checked against the stored ones,
//! and the commit announces it (`NOTIFY acies_chat`), so the other processes read it back and
//! send it to their own watchers ([`Game::chat_catch_up`]).

use acies_core::text::check_message;
use acies_core::{Outcome, Ruleset, Viewer};
use axum::http::StatusCode;
use serde::Serialize;

use super::{Game, encode, outcome_ids};
use crate::error::ApiError;
use crate::host::Host;
use crate::store::{ChatRecord, StoreError};
use crate::util::now_millis;

/// A chat message as every viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ChatShown {
    pub seq: u64,
    /// The seat that wrote it.
    pub seat: String,
    /// The seat's display name.
    pub name: String,
    pub text: String,
    /// When it was written (Unix milliseconds).
    pub at: i64,
}

/// A `chat` message: one or more messages of a game's chat.
#[derive(Serialize)]
struct ChatMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    game_id: &'a str,
    chat: Vec<ChatShown>,
}

/// Who may act in a game now, as anyone may know it (the "my games" list).
#[derive(Clone, Debug)]
pub(crate) struct GameStatus {
    pub version: u64,
    pub to_act: Option<String>,
    pub actors: Vec<String>,
    pub outcome: Option<Outcome<String>>,
}

/// Times a message is numbered again when another server process wrote the same number.
const CHAT_TRIES: usize = 3;

impl<H: Host> Game<H> {
    /// Adds stored messages after the last known one, keeping the newest.
    pub(super) fn keep_chat(&mut self, records: Vec<ChatRecord>) -> Vec<ChatShown> {
        let mut added = Vec::new();
        for record in records {
            if record.seq <= self.chat_seq {
                continue;
            }
            self.chat_seq = record.seq;
            added.push(self.shown(&record));
            self.chat.push_back(record);
        }
        while self.chat.len() > self.limits.chat_kept.max(1) {
            self.chat.pop_front();
        }
        added
    }

    fn shown(&self, record: &ChatRecord) -> ChatShown {
        let name = self
            .seats
            .iter()
            .find(|s| s.id == record.seat)
            .map_or_else(|| record.seat.clone(), |s| s.name.clone());
        ChatShown {
            seq: record.seq,
            seat: record.seat.clone(),
            name,
            text: record.text.clone(),
            at: record.created_at,
        }
    }

    /// The messages kept that are numbered after `after`.
    pub(super) fn chat_after(&self, after: u64) -> Vec<ChatShown> {
        self.chat
            .iter()
            .filter(|m| m.seq > after)
            .map(|m| self.shown(m))
            .collect()
    }

    /// The `chat` message of the messages kept after `after`.
    pub(super) fn chat_message(&self, after: u64) -> Result<String, ApiError> {
        encode(&ChatMessage {
            kind: "chat",
            game_id: &self.id,
            chat: self.chat_after(after),
        })
    }

    /// Sends `messages` to every watcher (a `chat` message, the same for every viewer).
    fn broadcast_chat(&mut self, messages: Vec<ChatShown>) {
        if messages.is_empty() {
            return;
        }
        let text: std::sync::Arc<str> = match encode(&ChatMessage {
            kind: "chat",
            game_id: &self.id,
            chat: messages,
        }) {
            Ok(t) => t.into(),
            Err(e) => e.to_ws_json(None).into(),
        };
        self.subscribers
            .retain(|sub| sub.sink.try_send(text.clone()).is_ok());
    }

    /// A message written by the token's seat: checked, paced, stored, then sent to every
    /// watcher. The answer is the `chat` message with it.
    pub(super) async fn chat_post(
        &mut self,
        token: Option<&str>,
        text: &str,
    ) -> Result<String, ApiError> {
        let Viewer::Seat(seat) = self.viewer_for(token)? else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "no_seat",
                "spectators read the chat; the players write in it (send a seat's token)",
            ));
        };
        let text = check_message(text, self.limits.chat_max_chars)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let seat_id = self.seat_str(seat);
        self.limits.chat_pace.admit(&self.id, &seat_id)?;
        for _ in 0..CHAT_TRIES {
            let record = ChatRecord {
                seq: self.chat_seq + 1,
                seat: seat_id.clone(),
                text: text.clone(),
                created_at: now_millis(),
            };
            match self
                .store
                .add_chat(&self.id, &record, self.limits.chat_kept.max(1))
                .await
            {
                Ok(()) => {
                    let shown = self.keep_chat(vec![record]);
                    self.broadcast_chat(shown.clone());
                    return encode(&ChatMessage {
                        kind: "chat",
                        game_id: &self.id,
                        chat: shown,
                    });
                }
                // Another process wrote this number first: read what it wrote, try the next.
                Err(StoreError::Conflict(_)) => {
                    self.chat_catch_up()
                        .await
                        .map_err(|e| ApiError::unavailable(format!("the chat: {e}")))?;
                }
                Err(e) => {
                    tracing::error!(game = %self.id, "could not store a chat message: {e}");
                    return Err(ApiError::unavailable(format!(
                        "the message could not be saved, so it was not sent: {e}"
                    )));
                }
            }
        }
        Err(ApiError::unavailable(
            "the chat is busy on another server; send the message again",
        ))
    }

    /// Reads the messages another process wrote after the last known one and sends them to
    /// this process's watchers.
    pub(super) async fn chat_catch_up(&mut self) -> Result<(), StoreError> {
        let records = self.store.load_chat(&self.id, self.chat_seq).await?;
        let added = self.keep_chat(records);
        self.broadcast_chat(added);
        Ok(())
    }

    /// Who may act now, and whether the game is over.
    pub(super) fn status(&self) -> GameStatus {
        GameStatus {
            version: self.version,
            to_act: H::Rules::to_act(&self.state).map(H::seat_id),
            actors: H::Rules::actors(&self.state)
                .into_iter()
                .map(H::seat_id)
                .collect(),
            outcome: H::Rules::outcome(&self.state).map(outcome_ids::<H>),
        }
    }
}
