-- Games as event-sourced data: a game is its setup, seed and seats; its state is whatever
-- replaying its actions in order gives. Portable SQL (SQLite and PostgreSQL): TEXT and BIGINT
-- only, no autoincrement, times as Unix milliseconds.

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    -- The setup as JSON, hidden parts included: never sent to clients.
    setup TEXT NOT NULL,
    -- The u64 seed stored bit for bit as a signed 64-bit integer: never sent to clients.
    seed BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    -- Number of actions committed; an append only succeeds against the version it expects.
    version BIGINT NOT NULL,
    finished_at BIGINT,
    -- The outcome as JSON once the game is over.
    outcome TEXT
);

CREATE INDEX games_by_ruleset ON games (ruleset, finished_at, created_at);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    -- Turn order of the seat in the game.
    position BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    -- 128 random bits from the OS, hex: whoever holds it plays this seat.
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 1 for the first action; equals the game's version after this action.
    seq BIGINT NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
