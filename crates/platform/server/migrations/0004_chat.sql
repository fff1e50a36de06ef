-- Issue 10.10: a short chat per game, between its players, read by its spectators too. It is
-- table talk, not part of the game: no replay, restore or state hash reads it.
CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 1 for the game's first message. Only the newest messages are kept (the server's
    -- `Limits::chat_kept`): older ones are deleted, and their numbers are not reused.
    seq BIGINT NOT NULL,
    -- The seat that wrote it (a seat of the game; spectators do not write).
    seat TEXT NOT NULL,
    -- The message as text (trimmed, bounded, no control characters); shown as text, never
    -- as markup.
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
