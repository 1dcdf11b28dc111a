-- pawnpost schema, version 4: reminders, and one index for the scheduler.

-- The next instant the player to move is reminded (for example when 80% of
-- the time for this move is used, and 24 hours before the flag); NULL when
-- no reminder is left this turn. Moved on in the same transaction that
-- records a sent reminder, so each is sent once, even across restarts.
ALTER TABLE games ADD COLUMN remind_at TEXT;

-- The next instant the scheduler must look at the game: the earlier of its
-- next reminder and its deadline; NULL when neither can come. One indexed
-- column instead of two keeps each saved move to fewer written pages.
ALTER TABLE games ADD COLUMN wake_at TEXT;

-- The scheduler reads only the earliest wake-ups, never all games.
CREATE INDEX games_by_wake_at ON games (wake_at) WHERE wake_at IS NOT NULL;
