-- Issue 16.3: a computer seat plays at a level: 'scripted' (the system's scripted player) or
-- a search level ('easy', 'normal', 'hard'). NULL for human seats and for the computer seats
-- of games stored before levels were, which play on as 'scripted'.
ALTER TABLE seats ADD COLUMN level TEXT;
