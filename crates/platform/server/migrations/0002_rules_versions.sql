-- Issue 17.8: every game records the version of the rules it was started with, and every
-- action the state hash it led to, so that a game stored under other rules is replayed and
-- checked, never silently changed.

-- 0: a game stored before rules versions were recorded. A server replays it under its own
-- rules at start (checking every action and the outcome) before it is played on.
ALTER TABLE games ADD COLUMN rules_version BIGINT NOT NULL DEFAULT 0;

-- The ruleset's state hash after the action, 16 hex digits (NULL for actions stored before
-- this migration).
ALTER TABLE actions ADD COLUMN state_hash TEXT;
